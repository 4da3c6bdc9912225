"""Fixtures for the benchmarks: puzzle sets read from disk, and a whole-set benchmark.

``pytest benchmarks --benchmark-only [--puzzles DIR] [--benchmark-json=results.json]``.
A set that is missing on disk skips the benchmarks that need it, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.grid import Solved
from benchmarks.puzzles import is_solution, puzzle_dir, read_puzzles, set_path

PuzzleSet = Callable[[str], tuple[str, ...]]
BenchSet = Callable[..., None]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--puzzles",
        metavar="DIR",
        default=None,
        help="directory of the Sudoku puzzle sets (default: $SUDOKU_PUZZLES, else the shared one)",
    )


@pytest.fixture(scope="session")
def puzzle_set(pytestconfig: pytest.Config) -> PuzzleSet:
    """``puzzle_set(name)``: the puzzles of ``DIR/<name>.txt``, or skip the test if absent."""
    directory = puzzle_dir(pytestconfig.getoption("--puzzles"))

    @cache
    def load(name: str) -> tuple[str, ...]:
        path = set_path(name, directory)
        if not path.is_file():
            pytest.skip(f"puzzle set {name!r} not found at {path} (see --puzzles)")
        return tuple(read_puzzles(path))

    return load


@pytest.fixture
def bench_set(benchmark: BenchmarkFixture, puzzle_set: PuzzleSet) -> BenchSet:
    """``bench_set(solver, solver_name, set_name, rounds=3, lines=None)`` benchmarks one pass
    of ``solver`` over the set (or over its ``lines``, 0-based) per round, checks every
    answer with ``is_solution``, and records what ``benchmarks.report`` reads: group
    ``sudoku-<set>`` and ``extra_info`` solver, puzzle_set, puzzles, nodes, nodes_per_puzzle.
    """

    def run(
        solver: Callable[[str], Solved],
        solver_name: str,
        set_name: str,
        rounds: int = 3,
        lines: tuple[int, ...] | None = None,
    ) -> None:
        puzzles = puzzle_set(set_name)
        if lines is not None:
            puzzles = tuple(puzzles[i] for i in lines)
        results = benchmark.pedantic(
            lambda: [solver(puzzle) for puzzle in puzzles], rounds=rounds, iterations=1
        )
        wrong = [i for i, p in enumerate(puzzles) if not is_solution(p, results[i].solution)]
        assert not wrong, f"{solver_name} failed puzzles {wrong} of {set_name}"
        nodes = sum(result.nodes for result in results)
        benchmark.group = f"sudoku-{set_name}"
        benchmark.extra_info.update(
            solver=solver_name,
            puzzle_set=set_name,
            puzzles=len(puzzles),
            nodes=nodes,
            nodes_per_puzzle=nodes / len(puzzles),
        )

    return run
