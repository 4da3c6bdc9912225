"""The types a user's type checker sees: backends are a Literal (a typo is an error),
``sudoku.solve`` returns the board's own type, and both packages are mypy-clean."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

USER_CODE = '''
import numpy as np
import dlx
import sudoku
from dlx.problems import queens

problem = queens(6)
problem.count(backend="numba")
problem.count(backend="numbaa")
board: list[list[str]] = [["."] * 4 for _ in range(4)]
reveal_type(sudoku.solve(board))
reveal_type(sudoku.solve(np.zeros((4, 4), dtype=int)))
sudoku.solve_string("." * 16, backend="pyhton")
sudoku.to_exact_cover("." * 16, givens="sellect")
reveal_type(sudoku.to_exact_cover("." * 16))
'''


@pytest.mark.slow
def test_user_code_is_type_checked(tmp_path: Path, monkeypatch) -> None:
    api = pytest.importorskip("mypy.api")
    monkeypatch.setenv("MYPYPATH", str(ROOT))  # this tree's packages, not an installed copy
    source = tmp_path / "user.py"
    source.write_text(USER_CODE)
    out, _, _ = api.run([str(source), "--no-error-summary", "--cache-dir",
                           str(tmp_path / "cache")])
    lines = [line.split(": ", 1)[1] for line in out.splitlines() if ": " in line]
    errors = [line for line in lines if line.startswith("error")]
    notes = [line for line in lines if line.startswith("note: Revealed")]
    assert len(errors) == 3, out  # numbaa, pyhton, sellect: and nothing else
    assert all("Literal" in e for e in errors), out
    assert "list[list[str]]" in notes[0], out
    assert "ndarray" in notes[1], out
    assert "dlx.problem.ExactCover" in notes[2], out


@pytest.mark.slow
def test_packages_are_mypy_clean() -> None:
    api = pytest.importorskip("mypy.api")
    out, err, status = api.run([str(ROOT / "dlx"), str(ROOT / "sudoku")])
    assert status == 0, out + err
