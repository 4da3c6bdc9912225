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
from dlx import BackendName, ExactCover

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
def test_sudoku_dlx(bench_set: Callable[..., None], set_name: str, backend: BackendName) -> None:
    def solve(p: str) -> str:
        return sudoku.solve_string(p, backend=backend)

    bench_set(solve, f"dlx-{backend}", set_name, work=work)


@pytest.mark.parametrize(
    ("backend", "case"),
    [param(f"dlx-{b}", c.name, b, c) for c in EXACT_COVER_CASES for b in BACKENDS],
)
def test_count_exact_cover(
    bench_count: Callable[..., None], case: ExactCoverCase, backend: BackendName
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


DEEP = 100_000
"""Items (and options) of the deep chain: one option per item, one solution, DEEP levels."""


@pytest.mark.parametrize("backend", BACKENDS)
def test_deep_chain(benchmark, backend: BackendName) -> None:
    """Group ``deep-chain``: ``first()`` of a problem with 100,000 primary items whose only
    solution is 100,000 levels deep. The choice of item is what costs here (every level
    looks at the active items), the case that made a full scan of ``LEN`` quadratic."""
    import numpy as np

    problem = ExactCover.from_csr(np.arange(DEEP + 1), np.arange(DEEP)[::-1].copy())
    problem.first(backend=backend)  # links, numba's load
    benchmark.group = "deep-chain"
    solution = benchmark.pedantic(lambda: problem.first(backend=backend), rounds=3,
                                  iterations=1)
    assert solution is not None and len(solution) == DEEP
    benchmark.extra_info.update(solver=f"dlx-{backend}", nodes=DEEP + 1)
