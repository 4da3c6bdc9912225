"""Throughput: a whole file of puzzles, the 49,158 17-clue puzzles of ``royle_17clue``.

Group ``sudoku-batch-royle_17clue``; every row solves every puzzle and every answer is
checked (outside the timing). A round is the whole file, so *mean / puzzle* is the figure
to read (its inverse is the rate, in the notes):

* ``dlx-numba solve_many``: :func:`sudoku.solve_many` in this process, kernel loaded:
  the file in batches of 4,096 puzzles, each one kernel call (in slices).
* ``sudoku command -j 1`` / ``-j 2``: ``python -m sudoku -f royle_17clue.txt`` in a new
  process, start-up included (numba's disk cache warm), on one core or two.
* ``dlx-numba solve_string``, ``xcover``: one puzzle per call, for comparison (the
  per-call path of the Sudoku groups).
* ``dlx-python solve_many``: the pure-Python backend (about a minute a round): ``long``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import sudoku
from benchmarks import peers
from benchmarks.cases import numba_available, param
from benchmarks.puzzles import is_solution, puzzle_dir, set_path

ROOT = Path(__file__).resolve().parents[1]
SET = "royle_17clue"
ROUNDS = 3

IN_PROCESS: dict[str, Callable[[Sequence[str]], list]] = {
    "dlx-numba solve_many": lambda ps: sudoku.solve_many(ps, backend="numba"),
    "dlx-numba solve_string": lambda ps: [sudoku.solve_string(p, backend="numba") for p in ps],
    "xcover": lambda ps: [peers.xcover_solve(p) for p in ps],
    "dlx-python solve_many": lambda ps: sudoku.solve_many(ps, backend="python"),
}
COMMANDS = {"sudoku command -j 1": ["-j", "1"], "sudoku command -j 2": ["-j", "2"]}


def _cases() -> list:
    return [param(name, SET, name) for name in (*IN_PROCESS, *COMMANDS)]


@pytest.mark.parametrize("solver", _cases())
def test_batch_throughput(
    benchmark: BenchmarkFixture,
    puzzle_set: Callable[[str], tuple[str, ...]],
    pytestconfig: pytest.Config,
    solver: str,
) -> None:
    if "numba" in solver or "command" in solver:
        if not numba_available():
            pytest.skip("numba is not installed")
    if solver == "xcover":
        pytest.importorskip("xcover", reason="xcover is not installed (pip install xcover)")
    puzzles = puzzle_set(SET)
    if solver in COMMANDS:
        path = set_path(SET, puzzle_dir(pytestconfig.getoption("--puzzles")))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        command = [sys.executable, "-m", "sudoku", *COMMANDS[solver], "-f", str(path)]

        def run() -> list[str]:
            done = subprocess.run(command, env=env, capture_output=True, text=True,
                                  check=False)
            assert done.returncode == 0, done.stderr
            return done.stdout.split()

        run()  # fills numba's disk cache (and the OS's file cache)
    else:
        solve = IN_PROCESS[solver]
        solve(puzzles[:100])  # loads (or compiles) the kernel, warms the caches

        def run() -> list[str]:
            return solve(puzzles)

    benchmark.group = f"sudoku-batch-{SET}"
    answers = benchmark.pedantic(run, rounds=ROUNDS, iterations=1)
    assert len(answers) == len(puzzles)
    wrong = [i for i, (p, a) in enumerate(zip(puzzles, answers)) if not is_solution(p, a)]
    assert not wrong, f"{solver}: wrong answers for puzzles {wrong[:10]}"
    if benchmark.stats is None:  # --benchmark-disable: a correctness run, nothing timed
        return
    rate = len(puzzles) / benchmark.stats.stats.median
    benchmark.extra_info.update(solver=solver, puzzle_set=SET, puzzles=len(puzzles),
                                note=f"{rate:,.0f} puzzles/s")
