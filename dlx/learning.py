"""The learning search (``learn=True``): the kernel of :mod:`dlx.cdcl` driven in slices.

:class:`LearningSearch` has the protocol of :class:`dlx.search.Search` (iterate for the
solutions, ``count()``, live ``stats``), so ``solutions``, ``first`` and ``count`` take
``learn=True`` alike. Each solution found is forbidden by a clause before the next is
sought, so the solutions come in no particular order, but every one comes once and a
search that ends has found them all. ``stats.nodes`` counts decisions (the learning
search's nodes), ``updates`` assignments, ``restarts`` and ``conflicts`` as named. The
budgets (``max_nodes``, ``timeout``) are looked at after every slice, one that found a
solution included.

This driver lives outside :mod:`dlx.cdcl` because it reaches the kernel through a
:class:`dlx.backend.Backend`, which imports the package: inside it, it would close a
circle.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .backend import Backend
from .cdcl import state
from .cdcl.state import Learner, Problem, problem_lists
from .search import SearchStats
from .status import Status

__all__ = ["LearningSearch", "Problem", "forced_clash", "problem_lists"]

FIRST_SLICE = 256
"""Conflicts (and decisions, times 16) in a slice before the first look at the clock."""
SLICE_SECONDS = 0.05
"""Slices grow until one takes about this long."""


def forced_clash(problem: Problem, forced: list[int]) -> int | None:
    """The first forced option that an earlier one excludes (it shares an item with it,
    other than a secondary item where both have the same color), or None."""
    _, opt_ptr, opt_item, opt_color = problem[:4]
    n1 = problem[0]
    taken: dict[int, int] = {}  # item -> its color so far (0: held outright)
    for v in forced:
        span = range(opt_ptr[v], opt_ptr[v + 1])
        for k in span:
            i, color = int(opt_item[k]), int(opt_color[k])
            if i in taken and (i < n1 or color == 0 or taken[i] != color):
                return v
        for k in span:
            taken[int(opt_item[k])] = int(opt_color[k])
    return None


class LearningSearch:
    """A lazy learning search of one problem: iterate for the solutions (sorted lists of
    options, forced ones included); ``stats`` are live. Made by
    ``ExactCover.solutions(learn=True)``."""

    def __init__(self, problem: Problem, backend: Backend, *, limit: int | None,
                 forced: list[int], max_nodes: int, timeout: float | None,
                 seed: int | None,
                 on_finish: Callable[[SearchStats], None] | None = None) -> None:
        self.stats = SearchStats(backend=backend.name)
        self._problem = problem
        self._backend = backend
        self._limit = limit
        self._forced = forced
        self._max_nodes = max_nodes
        self._timeout = timeout
        self._seed = seed
        self._on_finish = on_finish
        self._solutions = self._search()

    def __iter__(self) -> LearningSearch:
        return self

    def __next__(self) -> list[int]:
        return next(self._solutions)

    def __repr__(self) -> str:
        return f"<LearningSearch {self.stats.status.name} nodes={self.stats.nodes}>"

    def count(self) -> int:
        """Run to the end; the number of solutions found by this search in all."""
        for _ in self._solutions:
            pass
        return self.stats.solutions

    def _search(self) -> Iterator[list[int]]:
        stats = self.stats
        start = time.perf_counter()
        S: Learner | None = None  # made once the search is known to be needed
        try:
            clash = forced_clash(self._problem, self._forced)
            if clash is not None:
                stats.status = Status.CONFLICT
                stats.conflict = clash
                return
            if self._timeout is not None and self._timeout <= 0:
                stats.status = Status.TIMEOUT
                return
            begin, cdcl = self._backend.learning()
            S = state.allocate(self._problem, self._seed)
            if begin(S, np.asarray(self._forced, dtype=np.int64)) == Status.COMPLETE:
                stats.status = Status.COMPLETE
                return
            conflicts, decisions = FIRST_SLICE, 16 * FIRST_SLICE
            while True:
                REG = S.REG
                REG[state.REG_STOP_CONFLICTS] = REG[state.REG_CONFLICTS] + conflicts
                REG[state.REG_STOP_DECISIONS] = min(self._max_nodes,
                                                    REG[state.REG_DECISIONS] + decisions)
                t0 = time.perf_counter()
                status = cdcl(S)
                now = time.perf_counter()
                self._read(S, start)
                if status == Status.COMPLETE:
                    stats.status = Status.COMPLETE
                    return
                if status == Status.NO_ROOM:
                    S = state.grown(S)
                    continue
                if status == Status.LIMIT and self._limit is not None \
                        and stats.solutions + 1 >= self._limit:
                    stats.status = Status.LIMIT
                elif REG[state.REG_DECISIONS] >= self._max_nodes:
                    stats.status = Status.MAX_NODES
                elif self._timeout is not None and now - start >= self._timeout:
                    stats.status = Status.TIMEOUT
                if status == Status.LIMIT:  # a solution: the budgets were looked at too
                    stats.solutions += 1
                    REG[state.REG_BLOCK] = 1
                    yield np.flatnonzero(S.VAL == 1).tolist()
                elif now - t0 < SLICE_SECONDS / 2:
                    conflicts, decisions = 2 * conflicts, 2 * decisions
                if stats.status is not Status.RUNNING:
                    return
        except KeyboardInterrupt:
            stats.status = Status.INTERRUPTED
            raise
        finally:
            if S is not None:
                self._read(S, start)
            else:
                stats.seconds = time.perf_counter() - start
            if stats.status is Status.RUNNING:  # abandoned by its caller
                stats.status = Status.INTERRUPTED
            if self._on_finish is not None:
                self._on_finish(stats)

    def _read(self, S: Learner, start: float) -> None:
        """Copy the kernel's counts into the live ``stats``."""
        REG, stats = S.REG, self.stats
        stats.nodes = int(REG[state.REG_DECISIONS])
        stats.updates = int(REG[state.REG_ASSIGNS])
        stats.max_level = int(REG[state.REG_MAX_LEVEL])
        stats.restarts = int(REG[state.REG_RESTARTS])
        stats.conflicts = int(REG[state.REG_CONFLICTS])
        stats.seconds = time.perf_counter() - start


_MOVED = {"check_learner": "dlx.cdcl.check", "index_type": "dlx.cdcl.state",
          "watch_room": "dlx.cdcl.state", "RESTART_UNIT": "dlx.cdcl.state",
          "REPHASE_UNIT": "dlx.cdcl.state"}


def __getattr__(name: str) -> Any:
    """The names that moved into :mod:`dlx.cdcl`, still found here with a
    DeprecationWarning."""
    where = _MOVED.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    warnings.warn(f"dlx.learning.{name} is deprecated: use {where}.{name}",
                  DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(where), name)
