"""Sudoku variants, one call per puzzle: our engine on both backends beside a SAT solver.

Groups ``sudoku-variants-<set>``, on the first ``PUZZLES`` lines of each set of
``../shared/data/sudoku_variants`` (see its SOURCES.md): X, windoku, jigsaw, 6x6 with 2x3
boxes, killer. A round solves them all; each puzzle is also timed alone, and
``median_per_puzzle_s`` is the median of each puzzle's best round. Every answer is compared
with the published solution. Timings include everything a user's call does: reading the
line (``sudoku.formats.read_variant``, its layout cached), the search, the check.

``sat-pycosat`` (optional: ``pip install pycosat``) solves our own one-hot CNF of the same
layout (``benchmarks/solvers/sat.py``); it has no encoding of killer cages.

Groups ``sudoku-killers-<set>`` solve every puzzle of a 9x9 killer set (numba; the slow
ones are far from the first 30 lines) and report the median and the largest time a puzzle
(the target: at most 50 ms each).
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import cast

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import sudoku
from benchmarks.cases import numba_available
from benchmarks.timing import timed_rounds
from dlx import BackendName

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sudoku_variants"
PUZZLES = 30
"""Lines of each set per round (the first ones, in file order)."""
SETS = {
    "x_sudoq_9x9": ("x", None),
    "windoku_sudoq_9x9": ("windoku", None),
    "jigsaw_janko_9x9": ("jigsaw", None),
    "rect_2x3_6x6_sudoq": ("rect", (2, 3)),
    "killer_janko_9x9": ("killer", (3, 3)),
}
"""Set -> (variant, box shape) as ``read_variant`` takes them."""
SOLVERS = ["dlx-numba", "dlx-python", "sat-pycosat"]
KILLERS = ["killer_janko_9x9", "killer_krazydad_9x9"]
"""The 9x9 killer sets timed whole, numba only."""


def _lines(name: str, count: int | None = PUZZLES) -> tuple[list[str], list[str]]:
    puzzles, solutions = DATA / f"{name}.txt", DATA / "solutions" / f"{name}.txt"
    if not puzzles.is_file() or not solutions.is_file():
        pytest.skip(f"{puzzles} not found")
    return (puzzles.read_text().splitlines()[:count],
            solutions.read_text().splitlines()[:count])


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("name", list(SETS))
def test_variant_set(benchmark: BenchmarkFixture, name: str, solver: str) -> None:
    formats = pytest.importorskip("sudoku.formats", reason="sudoku.formats not available")
    variant, block = SETS[name]
    if solver == "dlx-numba" and not numba_available():
        pytest.skip("numba is not installed")
    if solver == "sat-pycosat":
        pytest.importorskip("pycosat", reason="pycosat is not installed (pip install pycosat)")
        if variant == "killer":
            pytest.skip("no CNF of killer cages here")
        from benchmarks.solvers.sat import sat_solve

        def solve(line: str) -> str | None:
            layout, givens = formats.read_variant(line, variant, block=block)
            return sat_solve(givens, layout, sudoku.DEFAULT_SYMBOLS)
    else:
        backend = cast(BackendName, solver.removeprefix("dlx-"))  # the ids say which

        def solve(line: str) -> str | None:
            layout, givens = formats.read_variant(line, variant, block=block)
            return sudoku.solve_string(givens, layout=layout, backend=backend)

    lines, answers = _lines(name)
    for line in lines[:3]:  # warm-up: numba's load, the layouts' caches
        solve(line)
    benchmark.group = f"sudoku-variants-{name}"
    got, best = timed_rounds(benchmark, solve, lines, 5)
    wrong = [i for i, (a, b) in enumerate(zip(got, answers)) if a != b]
    assert not wrong, f"{solver}: wrong answers on lines {wrong} of {name}"
    benchmark.extra_info.update(solver=solver, puzzle_set=name, puzzles=len(lines),
                                median_per_puzzle_s=statistics.median(best),
                                max_per_puzzle_s=max(best))


@pytest.mark.parametrize("name", KILLERS)
def test_killer_set(benchmark: BenchmarkFixture, name: str) -> None:
    formats = pytest.importorskip("sudoku.formats", reason="sudoku.formats not available")
    if not numba_available():
        pytest.skip("numba is not installed")

    def solve(line: str) -> str | None:
        layout, givens = formats.read_variant(line, "killer", block=(3, 3))
        return sudoku.solve_string(givens, layout=layout, backend="numba")

    lines, answers = _lines(name, None)
    for line in lines[:3]:
        solve(line)
    benchmark.group = f"sudoku-killers-{name}"
    got, best = timed_rounds(benchmark, solve, lines, 2)
    wrong = [i for i, (a, b) in enumerate(zip(got, answers)) if a != b]
    assert not wrong, f"wrong answers on lines {wrong} of {name}"
    benchmark.extra_info.update(solver="dlx-numba", puzzle_set=name, puzzles=len(lines),
                                median_per_puzzle_s=statistics.median(best),
                                max_per_puzzle_s=max(best),
                                slowest_line=best.index(max(best)) + 1)
