"""Fixtures for the benchmarks: puzzle sets read from disk, and a whole-set benchmark.

``pytest benchmarks --benchmark-only [--puzzles DIR] [--benchmark-json=results.json]``.
A set missing on disk skips the benchmarks that need it, saying which file was missing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.grid import Solved
from benchmarks.puzzles import is_solution, load_set, puzzle_dir

PuzzleSet = Callable[[str], tuple[str, ...]]
BenchSet = Callable[[Callable[[str], Solved], str, str, int], None]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--puzzles",
        metavar="DIR",
        default=None,
        help="directory of the Sudoku puzzle sets (default: $SUDOKU_PUZZLES, else the shared one)",
    )


@pytest.fixture(scope="session")
def puzzle_set(pytestconfig: pytest.Config) -> PuzzleSet:
    """``puzzle_set(name)``: the puzzles of a set or subset, or skip the test if it is absent."""
    directory = puzzle_dir(pytestconfig.getoption("--puzzles"))

    @cache
    def load(name: str) -> tuple[str, ...]:
        try:
            return tuple(load_set(name, directory))
        except FileNotFoundError as missing:
            pytest.skip(f"puzzle set {name!r} not found: {missing.filename} (see --puzzles)")

    return load


@pytest.fixture
def bench_set(benchmark: BenchmarkFixture, puzzle_set: PuzzleSet) -> BenchSet:
    """``bench_set(solver, solver_name, set_name, rounds)``: benchmark one pass of a counting
    solver over a whole set per round, check every answer with ``is_solution``, and record
    what ``benchmarks.report`` reads: group ``sudoku-<set>`` and ``extra_info`` solver,
    puzzle_set, puzzles, nodes and nodes_per_puzzle.
    """

    def run(solver: Callable[[str], Solved], solver_name: str, set_name: str, rounds: int) -> None:
        puzzles = puzzle_set(set_name)
        benchmark.group = f"sudoku-{set_name}"  # read when timing starts: set it before
        results = benchmark.pedantic(
            lambda: [solver(puzzle) for puzzle in puzzles], rounds=rounds, iterations=1
        )
        wrong = [i for i, p in enumerate(puzzles) if not is_solution(p, results[i].solution)]
        assert not wrong, f"{solver_name} failed on puzzles {wrong} of {set_name}"
        nodes = sum(result.nodes for result in results)
        benchmark.extra_info.update(
            solver=solver_name,
            puzzle_set=set_name,
            puzzles=len(puzzles),
            nodes=nodes,
            nodes_per_puzzle=nodes / len(puzzles),
        )

    return run
