"""Our engine, side by side with the baselines: Sudoku end to end, and generic exact cover.

Sudoku groups (``sudoku-<set>``) time ``sudoku.solve_string``: puzzle string in, verified
solution string out (everything it does: parsing, setting up the exact cover with the
givens, search, decoding and the adapter's own check of the answer). Exact-cover groups
(``exact-cover-<name>``) time ``ExactCover.count`` on a problem read before timing (copying
the links, then the search).
numba compiles on the first search of a process, which the warm-up does untimed; a new
process's start-up and first solve are timed in ``test_bench_cold_start.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import pytest

import sudoku
from benchmarks.cases import (
    EXACT_COVER_CASES,
    SUDOKU_SETS,
    ExactCoverCase,
    numba_available,
    param,
)
from dlx import ExactCover

BACKENDS = ["python"] + (["numba"] if numba_available() else [])


@cache
def work(puzzles: Sequence[str]) -> tuple[int, int]:
    """Total search nodes and updates of the engine on ``puzzles`` (the same on every backend,
    and whether the givens are reduced away, as here, or forced, as ``solve_string`` does)."""
    nodes = updates = 0
    for p in puzzles:
        problem = sudoku.to_exact_cover(p)
        problem.first(backend="python")
        nodes += problem.stats.nodes
        updates += problem.stats.updates
    return nodes, updates


@pytest.mark.parametrize(
    ("backend", "set_name"),
    [param(f"dlx-{b}", s, b, s) for s in SUDOKU_SETS for b in BACKENDS],
)
def test_sudoku_dlx(bench_set: Callable[..., None], set_name: str, backend: str) -> None:
    def solve(p: str) -> str:
        return sudoku.solve_string(p, backend=backend)

    bench_set(solve, f"dlx-{backend}", set_name, work=work)


@pytest.mark.parametrize(
    ("backend", "case"),
    [param(f"dlx-{b}", c.name, b, c) for c in EXACT_COVER_CASES for b in BACKENDS],
)
def test_count_exact_cover(
    bench_count: Callable[..., None], case: ExactCoverCase, backend: str
) -> None:
    if not case.path.exists():
        pytest.skip(f"{case.path} not found")
    problem = ExactCover.from_dlx(case.path.read_text())

    def count() -> int:
        return problem.count(backend=backend)

    bench_count(
        count,
        f"dlx-{backend}",
        case,
        warmup=lambda: problem.count(limit=1, backend=backend),  # links, numba's compile
        stats=lambda: (problem.stats.nodes, problem.stats.updates),
    )
