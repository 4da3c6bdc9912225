"""Restarts for first-solution searches: Luby's sequence of node budgets, a fresh shuffle
for each run, and the item weights of a weighted search carried from run to run.

A hard instance often has a heavy tail: most randomized runs are long and a few are
short, so cutting each run at a budget and starting again with another order finds a
solution sooner than one long run. Luby, Sinclair and Zuckerman's sequence (1, 1, 2, 1,
1, 2, 4, 1, ...) of budgets, times a unit, is within a constant factor of the best fixed
budget whatever the distribution of run lengths ("reluctant doubling"). Each run ``k``
searches the problem shuffled by ``(seed, k)`` ([`dlx.links.Links.shuffled`][]); with
the weighted choice it starts from the weights the runs before it learned, so what made
earlier runs fail is branched on first. Every run searches the whole problem, so none
changes the set of solutions: the first solution found is a solution, and a run that ends
without one proves there is none.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .backend import Backend
from .kernels.cdcl.restart import luby
from .links import Links
from .search import Search, SearchStats
from .slices import Handover, Slices, Step, drive
from .status import Status

__all__ = ["first_restarting", "luby"]


def first_restarting(
    links: Links,
    backend: Backend,
    *,
    unit: int,
    forced: list[int],
    max_nodes: int,
    timeout: float | None,
    seed: int,
    weighted: bool,
    lookahead: int = 0,
    on_finish: Callable[[SearchStats], None] | None = None,
    total: SearchStats | None = None,
    handover: Handover | None = None,
) -> tuple[list[int] | None, SearchStats]:
    """The first solution found by runs of at most ``unit * luby(k)`` nodes (run ``k``
    from 1, shuffled by ``seed`` and ``k``), or None; and the statistics summed over the
    runs (``restarts``: how many runs were cut short), kept in ``total`` if given.
    ``max_nodes`` and ``timeout`` bound all the runs together. The status is that of the
    last run: ``LIMIT`` (found), ``COMPLETE`` (a run exhausted its tree: no solution),
    ``MAX_NODES``, ``TIMEOUT`` or ``CONFLICT`` (the forced options clash). A
    ``handover`` (``auto`` on python) serves every run: the run under way moves to numba
    once due, and the later runs start there (``total.backend``: ``"python->numba"``).
    """
    total = SearchStats(backend=backend.name) if total is None else total
    weights: np.ndarray | None = None
    run = 0
    start = 0.0

    def begin() -> Step[list[int]]:
        nonlocal start
        start = time.perf_counter()
        return step

    def step(_: int) -> tuple[Status | None, int, list[int] | None]:
        """One run, to its end or its budget (a run is one slice)."""
        nonlocal run, weights
        run += 1
        left = max_nodes - total.nodes
        remaining = None if timeout is None else max(timeout - (time.perf_counter() - start), 0)
        search = Search(links, backend, limit=1, forced=forced,
                        max_nodes=min(left, unit * luby(run)), timeout=remaining,
                        seed=seed, run=run, weighted=weighted, weights=weights,
                        lookahead=lookahead, handover=handover)
        solution = next(search, None)
        stats = search.stats
        total.nodes += stats.nodes
        total.updates += stats.updates
        total.solutions += stats.solutions
        total.max_level = max(total.max_level, stats.max_level)
        total.conflict = stats.conflict
        if handover is not None:
            total.backend = handover.name
        if solution is not None:
            return Status.LIMIT, 0, solution
        if stats.status is not Status.MAX_NODES or total.nodes >= max_nodes:
            return stats.status, 0, None
        total.restarts += 1
        if weighted:
            weights = search.weights()
        return None, 0, None

    found = list(drive(begin, total, Slices(None), timeout, on_finish))
    return (found[0] if found else None), total
