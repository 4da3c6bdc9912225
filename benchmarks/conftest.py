"""Fixtures for the benchmarks: puzzle sets read from disk, whole-set and whole-count benchmarks.

``pytest benchmarks --benchmark-only [--puzzles DIR] [--long] [--dlx1 PATH] [--dlx2 PATH]
[--dlx3 PATH] [--dlx6 PATH] [--benchmark-json=out.json]``. A set missing on disk skips the
benchmarks that need it, saying which file was missing. Runs marked ``long`` (see
``benchmarks.cases.LONG``) are skipped unless ``--long`` is given. Knuth's programs (timed
builds the user makes, see ``benchmarks.knuth``) run when ``--dlx1 PATH`` (``$DLX1``, ...)
names one or the anchors' build holds it; else their benchmarks are skipped.
"""

from __future__ import annotations

import os
import shutil
import statistics
import time
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.cases import ExactCoverCase
from benchmarks.grid import Solved
from benchmarks.knuth import PROGRAMS, default_program
from benchmarks.puzzles import is_solution, load_set, puzzle_dir
from benchmarks.timing import timed_rounds

PuzzleSet = Callable[[str], tuple[str, ...]]
SudokuSolver = Callable[[str], "Solved | str | None"]
BenchSet = Callable[..., None]
BenchCount = Callable[..., None]

WARMUP_PUZZLES = 3
"""Puzzles of a set solved once, untimed, before its rounds (caches, numba's first call)."""
TARGET_SECONDS = 3.0
"""A Sudoku benchmark runs about this long: rounds = TARGET_SECONDS / estimated round, ..."""
MIN_ROUNDS, MAX_ROUNDS = 3, 20
"""... kept within these bounds."""
EXACT_COVER_ROUNDS = 3


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--puzzles",
        metavar="DIR",
        default=None,
        help="directory of the Sudoku puzzle sets (default: $SUDOKU_PUZZLES, else the shared one)",
    )
    parser.addoption(
        "--long",
        action="store_true",
        default=False,
        help="also run the benchmarks marked long (minutes each; see benchmarks/cases.py)",
    )
    parser.addoption(
        "--tdoku",
        metavar="PATH",
        default=None,
        help="tdoku's per-puzzle timer (default: $TDOKU, else $ANCHORS/tdoku/build/tdoku_time; "
        "if there is none, the tdoku benchmarks are skipped; see benchmarks/README.md)",
    )
    for name in PROGRAMS:
        parser.addoption(
            f"--{name}",
            metavar="PATH",
            default=None,
            help=f"Knuth's {name.upper()}, a timed build (default: ${name.upper()}, else "
            f"$ANCHORS/knuth/build/{name}t; if there is none, its benchmarks are skipped; "
            "see benchmarks/README.md)",
        )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: a benchmark of minutes, run only with --long")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--long"):
        return
    for item in items:
        marker = item.get_closest_marker("long")
        if marker is not None:
            why = marker.args[0] if marker.args else "long"
            item.add_marker(pytest.mark.skip(reason=f"{why}; run with --long"))


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


@pytest.fixture(scope="session")
def knuth_program(pytestconfig: pytest.Config) -> Callable[[str], Path]:
    """``knuth_program("dlx1")``: Knuth's timed DLX1 from ``--dlx1`` or ``$DLX1`` (a path, or
    a name on ``$PATH``), else ``$ANCHORS/knuth/build/dlx1t``; the same for dlx2, dlx3, dlx6.

    Skips the test when none is found: Knuth's programs are not shipped, the user builds
    them. A name given that is not an executable file is an error, not a skip, so that a
    typo is not silent.
    """

    def find(name: str) -> Path:
        given = pytestconfig.getoption(f"--{name}") or os.environ.get(name.upper())
        if not given:
            path = default_program(name)
            if not os.access(path, os.X_OK):
                pytest.skip(f"Knuth's {name.upper()} not found: --{name} PATH, "
                            f"{name.upper()}=PATH or {path} (see benchmarks/README.md)")
            return path
        found = shutil.which(os.path.expanduser(given))
        if found is None:
            pytest.fail(f"--{name}/{name.upper()}: {given!r} is not an executable file",
                        pytrace=False)
        return Path(found)

    return find


def _answer(result: Solved | str | None) -> str | None:
    return result.solution if isinstance(result, Solved) else result


def _rounds(seconds_per_round: float) -> int:
    if seconds_per_round <= 0:
        return MAX_ROUNDS
    return max(MIN_ROUNDS, min(MAX_ROUNDS, round(TARGET_SECONDS / seconds_per_round)))


@pytest.fixture
def bench_set(benchmark: BenchmarkFixture, puzzle_set: PuzzleSet) -> BenchSet:
    """``bench_set(solver, solver_name, set_name, *, work=None, note=None)``.

    Benchmark ``solver`` (puzzle string in; a solution string, None, or a ``Solved``) end
    to end over a whole set per round, after solving the set's first ``WARMUP_PUZZLES``
    untimed, twice: the second pass estimates a round, which sets the number of rounds so
    that the benchmark takes about ``TARGET_SECONDS``. Each puzzle is also timed alone
    inside the rounds; its time is its best round, and ``median_per_puzzle_s`` and
    ``max_per_puzzle_s`` are taken over those.
    Every answer is checked with ``is_solution``. Search nodes come from the ``Solved``
    answers, or from ``work(puzzles) -> (nodes, updates)`` (run untimed). ``extra_info``
    records what ``benchmarks.report`` reads; the group is ``sudoku-<set>``.
    """

    def run(
        solver: SudokuSolver,
        solver_name: str,
        set_name: str,
        *,
        work: Callable[[Sequence[str]], tuple[int, int | None]] | None = None,
        note: str | None = None,
    ) -> None:
        puzzles = puzzle_set(set_name)
        benchmark.group = f"sudoku-{set_name}"  # read when timing starts: set it before
        first = puzzles[:WARMUP_PUZZLES]
        for puzzle in first:  # warm-up: numba compiles (or loads its cache) here
            solver(puzzle)
        start = time.perf_counter()
        for puzzle in first:  # warm now: an estimate of the time per puzzle, for the rounds
            solver(puzzle)
        warm = (time.perf_counter() - start) / len(first)
        results, best = timed_rounds(benchmark, solver, puzzles, _rounds(warm * len(puzzles)))
        wrong = [i for i, p in enumerate(puzzles) if not is_solution(p, _answer(results[i]))]
        assert not wrong, f"{solver_name} failed on puzzles {wrong} of {set_name}"
        info: dict[str, Any] = dict(
            solver=solver_name,
            puzzle_set=set_name,
            puzzles=len(puzzles),
            median_per_puzzle_s=statistics.median(best),
            max_per_puzzle_s=max(best),
        )
        solved = [r for r in results if isinstance(r, Solved)]
        if len(solved) == len(results):
            info["nodes"] = sum(r.nodes for r in solved)
        elif work is not None:
            info["nodes"], updates = work(puzzles)
            if updates is not None:
                info["updates"] = updates
        if "nodes" in info:
            info["nodes_per_puzzle"] = info["nodes"] / len(puzzles)
        if note:
            info["note"] = note
        benchmark.extra_info.update(info)

    return run


@pytest.fixture
def bench_count(benchmark: BenchmarkFixture) -> BenchCount:
    """``bench_count(count, solver_name, case, *, warmup=None, stats=None, note=None)``.

    Benchmark ``count()`` (no arguments; the number of solutions of ``case``) over
    ``EXACT_COVER_ROUNDS`` rounds, after calling ``warmup()`` untimed, and check the count
    against ``case.solutions``. ``stats()``, if given, returns (nodes, updates) of the last
    round. The group is ``exact-cover-<name>``, one "puzzle" per benchmark.
    """

    def run(
        count: Callable[[], int],
        solver_name: str,
        case: ExactCoverCase,
        *,
        warmup: Callable[[], object] | None = None,
        stats: Callable[[], tuple[int, int]] | None = None,
        note: str | None = None,
    ) -> None:
        if not case.path.exists():
            pytest.skip(f"{case.path} not found")
        if warmup is not None:
            warmup()
        benchmark.group = case.group
        found = benchmark.pedantic(count, rounds=EXACT_COVER_ROUNDS, iterations=1)
        assert found == case.solutions, f"{solver_name} counted {found}, not {case.solutions}"
        info: dict[str, Any] = dict(
            solver=solver_name, puzzle_set=case.name, puzzles=1, solutions=found
        )
        if stats is not None:
            info["nodes"], info["updates"] = stats()
            info["nodes_per_puzzle"] = info["nodes"]
        if note:
            info["note"] = note
        benchmark.extra_info.update(info)

    return run
