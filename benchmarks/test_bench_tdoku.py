"""Our Sudoku path against tdoku, side by side in one run (issue 34's Sudoku targets).

* ``tdoku-one-call-<set>``: one ``sudoku.solve_string`` call per puzzle (numba, warm),
  against one ``SolveSudoku`` call of tdoku per puzzle (``benchmarks.tdoku``). Ours
  includes everything a caller pays: parsing, the batch of one, decoding, the independent
  check, formatting; tdoku's is its solver alone. Per-puzzle medians (wall time on both
  sides: tdoku times its calls with CLOCK_MONOTONIC), and the whole pass in CPU time.
* ``tdoku-batch-<set>``: ``sudoku.solve_many`` of the whole set (CPU time) against
  tdoku's timed pass over it (CPU time): puzzles per second each, and the ratio.

Rounds alternate, tdoku's then ours (``ROUNDS``); the figures are medians over the rounds,
in ``extra_info``. Every answer of ours is the solution tdoku found. tdoku is not shipped:
``../shared/tools/native-anchors/build.sh`` builds it (``--tdoku PATH`` or ``$TDOKU``
otherwise); without it these benchmarks skip.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import pytest

import sudoku
from benchmarks.cases import numba_available
from benchmarks.puzzles import load_set
from benchmarks.tdoku import TdokuRun, default_tdoku, run_tdoku

ROUNDS = 5
ONE_CALL = ("norvig_hardest", "norvig_top95")
BATCH = {"royle_17clue": None, "forum_hardest_1905_11plus": 20_000}
"""Set -> how many of its first puzzles (None: all)."""


@pytest.fixture
def tdoku(pytestconfig: pytest.Config) -> Path:
    """tdoku's per-puzzle timer, or skip (see the module)."""
    given = pytestconfig.getoption("--tdoku")
    path = Path(given) if given else default_tdoku()
    if not os.access(path, os.X_OK):
        pytest.skip(f"tdoku_time not found: --tdoku PATH, TDOKU=PATH or {path} "
                    "(../shared/tools/native-anchors/build.sh)")
    if not numba_available():
        pytest.skip("numba is not installed")
    return path


def _puzzles(name: str, first: int | None = None) -> list[str]:
    try:
        puzzles = load_set(name)
    except FileNotFoundError:
        pytest.skip(f"puzzle set {name} not found")
    return puzzles[:first]


def _ratio(ours: float, theirs: float) -> float:
    return round(ours / theirs, 2) if theirs > 0 else float("inf")


@pytest.mark.parametrize("name", ONE_CALL)
def test_one_call(benchmark, tdoku: Path, name: str) -> None:
    puzzles = _puzzles(name)
    for puzzle in puzzles:  # warm: numba's load, the empty grid's problem
        sudoku.solve_string(puzzle, backend="numba")
    medians: list[float] = []
    cpus: list[float] = []
    theirs: list[TdokuRun] = []

    def ours() -> list[str]:
        seconds, answers = [], []
        cpu = time.process_time()
        for puzzle in puzzles:
            t = time.perf_counter()
            answers.append(sudoku.solve_string(puzzle, backend="numba"))
            seconds.append(time.perf_counter() - t)
        cpus.append(time.process_time() - cpu)
        medians.append(statistics.median(seconds))
        return answers

    benchmark.group = f"tdoku-one-call-{name}"
    answers = benchmark.pedantic(ours, setup=lambda: theirs.append(run_tdoku(tdoku, puzzles)),
                                 rounds=ROUNDS, iterations=1)
    assert answers == theirs[-1].solutions
    mine, tdoku_median = statistics.median(medians), statistics.median(
        statistics.median(run.seconds) for run in theirs)
    mine_cpu, tdoku_cpu = statistics.median(cpus), statistics.median(r.cpu_s for r in theirs)
    benchmark.extra_info.update(
        solver="dlx-numba vs tdoku", puzzles=len(puzzles), rounds=ROUNDS,
        median_us=round(mine * 1e6, 2), tdoku_median_us=round(tdoku_median * 1e6, 2),
        ratio_median=_ratio(mine, tdoku_median), cpu_s=mine_cpu, tdoku_cpu_s=tdoku_cpu,
        ratio_cpu=_ratio(mine_cpu, tdoku_cpu), load=os.getloadavg()[0])


@pytest.mark.parametrize("name", list(BATCH))
def test_batch(benchmark, tdoku: Path, name: str) -> None:
    puzzles = _puzzles(name, BATCH[name])
    sudoku.solve_many(puzzles[:100], backend="numba")  # warm
    cpus: list[float] = []
    theirs: list[TdokuRun] = []

    def ours() -> list:
        cpu = time.process_time()
        answers = sudoku.solve_many(puzzles, backend="numba")
        cpus.append(time.process_time() - cpu)
        return answers

    benchmark.group = f"tdoku-batch-{name}"
    answers = benchmark.pedantic(ours, setup=lambda: theirs.append(run_tdoku(tdoku, puzzles)),
                                 rounds=ROUNDS, iterations=1)
    assert answers == theirs[-1].solutions
    mine, tdoku_cpu = statistics.median(cpus), statistics.median(r.cpu_s for r in theirs)
    benchmark.extra_info.update(
        solver="dlx-numba vs tdoku", puzzles=len(puzzles), rounds=ROUNDS, cpu_s=mine,
        tdoku_cpu_s=tdoku_cpu, per_second=round(len(puzzles) / mine),
        tdoku_per_second=round(len(puzzles) / tdoku_cpu), ratio_cpu=_ratio(mine, tdoku_cpu),
        load=os.getloadavg()[0])
