"""The ``dlx`` command: Knuth's text format in, solutions and his summary line out."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dlx import ExactCover
from dlx.cli import _Live, main
from dlx.command import Progress
from dlx.problems import queens

KNUTH_EXAMPLE = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
COLOR_EXAMPLE = ("| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\n"
                 "A C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def write(tmp_path: Path):
    """Write text to a file in tmp_path and return its name as a string."""
    def write(text: str, name: str = "problem.dlx") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


def test_knuth_example(write, capsys) -> None:
    assert main([write(KNUTH_EXAMPLE)]) == 0
    out, err = capsys.readouterr()
    assert out == "1:\n C E F\n A D\n B G\n"
    assert err.startswith("Altogether 1 solution, 30 updates, 6 nodes; search ")
    assert "python backend" in err


def test_indices(write, capsys) -> None:
    assert main(["--indices", write(KNUTH_EXAMPLE)]) == 0
    assert capsys.readouterr().out == "0 3 4\n"


def test_count(write, capsys) -> None:
    assert main(["--count", write(queens(8).to_dlx())]) == 0
    out, err = capsys.readouterr()
    assert out == "92\n"
    assert "Altogether 92 solutions, 21456 updates, 1223 nodes" in err


def test_limit(write, capsys) -> None:
    path = write(queens(6).to_dlx())  # 4 solutions
    assert main(["--indices", "--limit", "2", path]) == 0
    out, err = capsys.readouterr()
    problem = queens(6)
    assert [list(map(int, line.split())) for line in out.splitlines()] == list(
        problem.solutions(2))
    assert "Stopped after --limit 2 solutions." in err
    assert main(["--count", "--limit", "3", path]) == 0
    assert capsys.readouterr().out == "3\n"


def test_budgets_say_incomplete(write, capsys) -> None:
    path = write(queens(8).to_dlx())
    assert main(["--count", "--max-nodes", "100", path]) == 3
    out, err = capsys.readouterr()
    assert int(out) < 92
    assert "100 nodes" in err and "--max-nodes 100 ran out" in err
    assert main(["--count", "--timeout", "0", write(queens(10).to_dlx())]) == 3
    assert "--timeout 0 s ran out" in capsys.readouterr().err


def test_seed_and_backend(write, capsys) -> None:
    path = write(queens(7).to_dlx())
    assert main(["--count", "--seed", "5", "--backend", "python", path]) == 0
    assert capsys.readouterr().out == "40\n"
    for strategy in (["--weighted"], ["--lookahead", "4"], ["--weighted", "--lookahead", "9"]):
        assert main(["--count", *strategy, path]) == 0
        assert capsys.readouterr().out == "40\n"


def test_colors_and_dropped_option(write, capsys) -> None:
    """Knuth's DLX2 example: the option with no primary item is reported by line."""
    assert main([write(COLOR_EXAMPLE)]) == 0
    out, err = capsys.readouterr()
    assert out == "1:\n A C X:1 Y:1\n B X:1\n"
    assert "line 5: warning: option has no primary item, ignored: 'X:0 Y:1'" in err
    assert "Altogether 1 solution, 14 updates, 4 nodes" in err


@pytest.mark.parametrize("args", [[], ["-"]])
def test_stdin(args: list[str], capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(KNUTH_EXAMPLE))
    assert main(["--count", *args]) == 0
    assert capsys.readouterr().out == "1\n"


@pytest.mark.parametrize(("text", "lineno", "what"), [
    ("| items\nA B\nA C\n", 3, "unknown item 'C'"),
    ("A B | X\nA X:red\nB:blue\n", 3, "color on primary item 'B'"),
    ("A B\nA A B\n", 2, "item 'A' appears twice"),
    ("A | B | C\nA\n", 1, "'|' twice"),
    ("| only a comment\n", 1, "no item line"),
])
def test_malformed_input(text: str, lineno: int, what: str, write, capsys) -> None:
    assert main([write(text, "bad.dlx")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("dlx: ") and "bad.dlx: " in err
    assert f"line {lineno}: " in err and what in err
    assert len(err.splitlines()) == 1


def test_missing_file(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path / "nothing.dlx")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bad_arguments(capsys) -> None:
    """A bad command line is a usage error, returned (not raised as SystemExit)."""
    assert main(["--limit", "0"]) == 2
    assert "--limit" in capsys.readouterr().err


def test_progress_reports_live_stats() -> None:
    """The status line is drawn from the search's own progress callback (the count the
    library chose, sliced): the live stats move while it runs."""
    problem = queens(9)
    stream = io.StringIO()
    with Progress(stream, enabled=True, interval=0.0) as line:
        live = _Live(line)
        problem.count(timeout=float("inf"), backend="python", progress=live)
    text = stream.getvalue()
    assert "nodes/s" in text and live.stats.nodes > 0
    assert text.endswith("\r")  # the status line is wiped at the end


def test_forced_progress_keeps_stdout_clean(write, capsys) -> None:
    assert main(["--progress", "--count", write(queens(6).to_dlx())]) == 0
    out, err = capsys.readouterr()
    assert out == "4\n"
    assert "Altogether 4 solutions" in err


def test_python_m_dlx() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    result = subprocess.run([sys.executable, "-m", "dlx", "--indices"], input=KNUTH_EXAMPLE,
                            capture_output=True, text=True, env=env, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "0 3 4\n"
    assert "Altogether 1 solution" in result.stderr


def test_output_reads_back(write, capsys) -> None:
    """Printed options are the input's lines, so they parse against the item line."""
    assert main(["--limit", "1", write(COLOR_EXAMPLE)]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()[1:]]
    header = COLOR_EXAMPLE.splitlines()[1]
    problem = ExactCover.from_dlx("\n".join([header, *lines]))
    assert problem.first() == [0, 1]
