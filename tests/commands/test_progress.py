"""Feedback on long work (dlx.progress): the status line, rates and time left, progress
inside batches, Knuth's estimate of the tree explored, and the one-time compile notice."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sudoku
from dlx import ArgumentError, ExactCover, RunProgress, Status
from dlx.problems import pentominoes, queens
from dlx.progress import COMPILING, Progress, SearchLine, duration, left
from tests.helpers.backends import BACKENDS, needs_numba

ROOT = Path(__file__).resolve().parents[2]


def test_durations_and_time_left() -> None:
    assert [duration(s) for s in (0, 8.4, 59.6, 184, 7500)] == \
        ["0 s", "8 s", "1 min 00 s", "3 min 04 s", "2 h 05 min"]
    assert left(0, 10, 5) is None and left(5, 10, 0) is None
    assert left(2, 10, 4) == 16.0 and left(10, 10, 4) == 0.0
    assert left(0.25, 1.0, 3.0) == 9.0  # a fraction of a tree is a unit too


def test_line_counts_rate_and_time_left(monkeypatch) -> None:
    """The time left waits for a steady rate (issue 30: not "2 h 25 min left" while numba
    compiles), then goes by the latest window's rate."""
    import dlx.progress

    now = [100.0]
    monkeypatch.setattr(dlx.progress.time, "perf_counter", lambda: now[0])
    stream = io.StringIO()
    with Progress(stream, total=1000, unit="puzzles") as p:
        lines = []
        for t, done in ((1.0, 10), (2.0, 260), (3.0, 500)):  # compiling, then ~250/s
            now[0] = 100.0 + t
            p.update(done, force=True)
            lines.append(stream.getvalue().rsplit("\r", 1)[-1].strip())
        assert lines[0] == "10/1,000 puzzles  10/s"  # one window: no time left yet
        assert lines[1] == "260/1,000 puzzles  130/s"  # 10/s then 250/s: not steady
        assert lines[2] == "500/1,000 puzzles  167/s  2 s left"  # 500 more at 240/s
        line = stream.getvalue().rsplit("\r", 1)[-1]
        p.note("line 7: ClashError")  # above the line, which is wiped first
        p.update(600, force=True)
    text = stream.getvalue()
    assert "\r" + " " * len(line.rstrip()) + "\rline 7: ClashError\n" in text
    assert text.endswith("\r")  # the line is wiped on exit


def test_disabled_line_shows_only_notes() -> None:
    stream = io.StringIO()
    with Progress(stream, enabled=False, total=5) as p:
        p.update(3, force=True)
        p.show("x", force=True)
        p.note("a failure is still reported")
    assert stream.getvalue() == "a failure is still reported\n"
    Progress(None).note("no stream: nothing, no error")


def test_follow_redraws_from_a_thread() -> None:
    stream = io.StringIO()
    problem = queens(9)
    search = problem.solutions(backend="python", timeout=float("inf"))
    with Progress(stream) as p, p.follow(SearchLine(search), interval=0.002):
        assert search.count() == 352
    text = stream.getvalue()
    assert "nodes/s" in text and "solutions" in text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("n", "d"), [(3, 2), (4, 3), (2, 7)])
def test_knuth_estimate_on_a_complete_tree(backend: str, n: int, d: int) -> None:
    """n items with d options each: the tree is complete, its j-th leaf (0-based) is the
    j-th solution, and Knuth's estimate there is exactly (j + 1/2) / d**n."""
    problem = ExactCover([[f"i{a}"] for a in range(n) for _ in range(d)])
    leaves = d**n
    for j in range(leaves):
        search = problem.solutions(j + 1, backend=backend)
        search.count()
        assert search.stats.status is Status.LIMIT
        assert search.explored() == pytest.approx((j + 0.5) / leaves)
    search = problem.solutions(backend=backend)
    assert search.explored() == 0.0  # not started
    search.count()
    assert search.explored() == 1.0  # complete


@pytest.mark.parametrize("backend", BACKENDS)
def test_knuth_estimate_to_a_precision(backend: str) -> None:
    """``explored(floor)`` reads only the levels whose share of the tree is at least
    ``floor`` (a portfolio's cheap reading): within ``floor`` of the whole estimate, and
    coarser for a coarser floor (4 items of 3 options: a level's share is 3**-level)."""
    problem = ExactCover([[f"i{a}"] for a in range(4) for _ in range(3)])
    for j in (0, 7, 40, 80):
        search = problem.solutions(j + 1, backend=backend)
        search.count()
        exact = search.explored()
        assert exact == pytest.approx((j + 0.5) / 81)
        for level in range(1, 5):
            floor = 3.0**-level
            assert abs(search.explored(floor) - exact) <= floor
        tried = j // 27  # the options tried before this one at the first level
        assert search.explored(0.5) == pytest.approx(tried / 3 + 1 / 6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_knuth_estimate_tracks_a_real_search(backend: str) -> None:
    """On the 3x20 pentominoes the estimate stays within 0..1 and follows the share of
    nodes searched (the tree is irregular, so loosely)."""
    problem = pentominoes(3, 20)
    total = 32978
    for budget in (3000, 10000, 20000, 30000):
        search = problem.solutions(max_nodes=budget, backend=backend)
        search.count()
        assert 0.0 < search.explored() < 1.0
        assert abs(search.explored() - budget / total) < 0.3


def test_dlx_command_shows_the_estimate(tmp_path: Path, capsys) -> None:
    from dlx.cli import _Progress

    stream = io.StringIO()
    problem = pentominoes(3, 20)
    search = problem.solutions(backend="python", timeout=float("inf"))
    with _Progress(search, stream, enabled=True, interval=0.05):
        search.count()
    assert "% explored" in stream.getvalue()


@pytest.mark.parametrize("backend", BACKENDS)
def test_batches_report_progress(backend: str) -> None:
    seen: list[RunProgress] = []
    puzzles = ["." * 16] * 50 + ["11" + "." * 14] + ["." * 81] * 20
    answers = sudoku.count_many(puzzles, 3, backend=backend, progress=seen.append)
    assert answers[0] == 3 and answers[50] == 0  # clashing givens count 0
    done = [p.done for p in seen]  # one record for every search (issue 42)
    assert all(type(p) is RunProgress for p in seen)
    assert done == sorted(done) and done[-1] == seen[-1].parts == len(puzzles)
    seen.clear()
    sudoku.solve_many(puzzles[:50], backend=backend, progress=seen.append)
    assert seen[-1].done == 50
    with pytest.raises(sudoku.ArgumentError, match="progress"):
        sudoku.solve_many(puzzles, progress=3)
    with pytest.raises(ArgumentError, match="progress"):
        queens(4).solve_batch([[]], progress="no")


@pytest.mark.slow
@needs_numba
def test_compile_notice_once_per_machine(tmp_path: Path) -> None:
    """A fresh copy of dlx (so no numba cache beside it) announces the compile once; the
    next process loads the kernel from the cache, silently."""
    shutil.copytree(ROOT / "dlx", tmp_path / "dlx",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("import sys\nfrom dlx.command import Progress\nfrom dlx.problems import queens\n"
            "with Progress(sys.stderr, enabled=True):\n"
            "    print(queens(6).count(backend='numba'))\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    first = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
    assert first.stdout == "4\n", first.stderr
    assert first.stderr.count(COMPILING) == 1
    second = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                            capture_output=True, text=True, timeout=600)
    assert second.stdout == "4\n" and COMPILING not in second.stderr
