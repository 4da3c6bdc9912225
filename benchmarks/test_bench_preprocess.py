"""What the root reduction (``ExactCover.preprocess``, Knuth's DLX-PRE) buys: each case
searched as it is (``plain``) and reduced first (``preprocessed``, the reduction's time
included), on numba, side by side in one group per case (``preprocess-<case>``).

* Sudoku sets (``norvig_hardest``, ``norvig_top95``, ``gecode_16x16``): each puzzle's first
  solution, one search per puzzle (``first(forced=givens)`` of the empty grid's problem,
  against ``preprocess(forced=givens)`` then ``first()`` of what is left);
* ``gecode_25x25``: the hard strategy per puzzle (weighted choice, restarts of 100,000
  nodes) without and with the reduction, each stopped after ``CAP`` seconds (wall);
* exact-cover counts (``pentomino_6x10``, ``queens12``, ``langford11``).

``extra_info`` holds ``nodes`` (summed over the puzzles), ``solved``, ``cpu_s`` and, for the
reduced runs, ``options_left``. Run: ``pytest benchmarks/test_bench_preprocess.py
--benchmark-only --benchmark-json=preprocess.json``.
"""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import dlx
import sudoku
from benchmarks.cases import EXACT_COVER_DIR, numba_available
from benchmarks.puzzles import read_puzzles, set_path

SETS = ("norvig_hardest", "norvig_top95", "gecode_16x16")
COUNTS = ("pentomino_6x10", "queens12", "langford11")
VARIANTS = ("plain", "preprocessed")
CAP = 20.0
"""Seconds (wall) before a 25x25 puzzle's search is stopped."""


@pytest.fixture(autouse=True)
def _numba() -> None:
    if not numba_available():
        pytest.skip("numba is not installed")


def _instances(name: str) -> tuple[Any, list[list[int]]]:
    """The empty grid's problem of a set's puzzles and each puzzle's givens."""
    from sudoku.reduction import empty_grid_problem, givens

    path = set_path(name)
    if not path.is_file():
        pytest.skip(f"{path} not found")
    parsed = [sudoku.parse_string(line) for line in read_puzzles(path)]
    return empty_grid_problem(parsed[0][0].layout), [givens(g, v) for g, v in parsed]


def _record(benchmark: BenchmarkFixture, run: Any, rounds: int, warmup: int = 1) -> None:
    cpu = time.process_time()
    info = benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=warmup)
    benchmark.extra_info.update(info, cpu_s=round((time.process_time() - cpu)
                                                  / (rounds + warmup), 3))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", SETS)
def test_sudoku_sets(benchmark: BenchmarkFixture, name: str, variant: str) -> None:
    benchmark.group = f"preprocess-{name}"
    problem, instances = _instances(name)

    def run() -> dict[str, Any]:
        nodes = left = 0
        for forced in instances:
            if variant == "plain":
                solution = problem.first(forced=forced, backend="numba")
                nodes += problem.stats.nodes
            else:
                record = problem.preprocess(forced=forced)
                reduced = record.problem.first(forced=record.taken, backend="numba")
                nodes += record.problem.stats.nodes
                left += len(record.problem) - len(record.forced)
                solution = record.original(reduced)
            assert problem.is_solution(solution)
        return {"nodes": nodes, "options_left": left, "puzzles": len(instances)}

    _record(benchmark, run, 3)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("index", range(18))
def test_gecode_25x25_hard(benchmark: BenchmarkFixture, index: int, variant: str) -> None:
    """The hard strategy (``sudoku.hard``) with and without its root reduction."""
    from sudoku.arguments import engine
    from sudoku.hard import HARD, first_hard

    benchmark.group = "preprocess-gecode_25x25"
    problem, instances = _instances("gecode_25x25")
    if index >= len(instances):
        pytest.skip("no such puzzle")
    forced = instances[index]
    puzzle = read_puzzles(set_path("gecode_25x25"))[index]
    geo, values = sudoku.parse_string(puzzle)

    def run() -> dict[str, Any]:
        if variant == "plain":  # the hard strategy's search of the whole problem
            try:
                solution = problem.first(forced=forced, timeout=CAP, backend="numba",
                                         **HARD)
                stats = problem.stats
            except dlx.SearchStoppedError as stop:
                solution, stats = None, stop.stats
        else:
            solution, stats = first_hard(geo, values, unique=False,
                                         engine=engine("numba", None, CAP))
        if solution is not None:
            assert problem.is_solution(solution)
        return {"nodes": stats.nodes, "solved": solution is not None}

    _record(benchmark, run, 1, 0)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", COUNTS)
def test_counts(benchmark: BenchmarkFixture, name: str, variant: str) -> None:
    benchmark.group = f"preprocess-{name}"
    path = EXACT_COVER_DIR / f"{name}.dlx"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dlx.NoPrimaryItemWarning)
        problem = dlx.ExactCover.from_dlx(path.read_text())
    expected = problem.count(backend="numba")

    def run() -> dict[str, Any]:
        if variant == "plain":
            count = problem.count(backend="numba")
            return {"nodes": problem.stats.nodes, "count": count}
        record = problem.preprocess()
        count = record.problem.count(backend="numba")
        return {"nodes": record.problem.stats.nodes, "count": count,
                "options_left": len(record.problem)}

    _record(benchmark, run, 3)
    assert benchmark.extra_info["count"] == expected
