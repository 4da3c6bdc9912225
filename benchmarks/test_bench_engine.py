"""Our engine, side by side with the baselines: Sudoku end to end, and generic exact cover.

Groups are shared with ``test_bench_baselines.py`` (``sudoku-<set>``) so that one run
prints every solver on the same puzzles together. Every answer is verified; ``extra_info``
records puzzles, search nodes and updates, and the median time per puzzle (each puzzle timed
alone, best of 3), which is the figure the issues quote.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

import sudoku
from benchmarks.puzzles import is_solution
from dlx import ExactCover
from dlx.backends import numba_available

BACKENDS = ["python"] + (["numba"] if numba_available() else [])
EXACT_COVER_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "exact_cover"


def per_puzzle_median(solve, puzzles: list[str], repeats: int = 3) -> float:
    """Median over puzzles of the best-of-``repeats`` time of one call, in seconds."""
    times = []
    for p in puzzles:
        best = float("inf")
        for _ in range(repeats):
            t = time.perf_counter()
            solve(p)
            best = min(best, time.perf_counter() - t)
        times.append(best)
    return statistics.median(times)


def work(puzzles: list[str]) -> tuple[int, int]:
    """Total search nodes and updates of the engine on ``puzzles`` (the same on every backend)."""
    nodes = updates = 0
    for p in puzzles:
        problem = sudoku.to_exact_cover(p)
        problem.first(backend="python")
        nodes += problem.stats.nodes
        updates += problem.stats.updates
    return nodes, updates


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("set_name", ["norvig_hardest", "norvig_top95", "euler96_easy50"])
def test_sudoku_dlx(benchmark, puzzle_set, set_name, backend):
    puzzles = puzzle_set(set_name)

    def solve(p: str) -> str:
        return sudoku.solve_string(p, backend=backend)

    for p in puzzles[:3]:  # warm caches and, for numba, compile outside the timing
        solve(p)

    def run() -> list[str]:
        return [solve(p) for p in puzzles]

    benchmark.group = f"sudoku-{set_name}"  # must be set before timing starts
    answers = benchmark.pedantic(run, rounds=3, iterations=1)
    assert all(is_solution(p, s) for p, s in zip(puzzles, answers))
    nodes, updates = work(puzzles)
    benchmark.extra_info.update(
        solver=f"dlx-{backend}", puzzle_set=set_name, puzzles=len(puzzles), nodes=nodes,
        updates=updates, nodes_per_puzzle=nodes / len(puzzles),
        median_per_puzzle_ms=per_puzzle_median(solve, puzzles) * 1e3,
    )


EXACT_COVER_CASES = [
    # (file, solutions, backends it is practical on)
    ("queens10.dlx", 724, ("python", "numba")),
    ("langford10.dlx", 0, ("python", "numba")),
    ("queens12.dlx", 14_200, ("numba",)),
    ("langford11.dlx", 35_584, ("numba",)),
    ("pentomino_6x10_sym.dlx", 2_339, ("numba",)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("name", "expected", "practical"), EXACT_COVER_CASES)
def test_count_exact_cover(benchmark, name, expected, practical, backend):
    path = EXACT_COVER_DIR / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    if backend not in practical:
        pytest.skip(f"{name} takes too long with the {backend} backend")
    problem = ExactCover.from_dlx(path.read_text())
    problem.count(limit=1, backend=backend)  # compile / warm up
    benchmark.group = f"exact-cover-{name.removesuffix('.dlx')}"
    count = benchmark.pedantic(problem.count, kwargs={"backend": backend}, rounds=3, iterations=1)
    assert count == expected
    benchmark.extra_info.update(solver=f"dlx-{backend}", solutions=count, puzzles=1,
                                nodes=problem.stats.nodes, updates=problem.stats.updates)
