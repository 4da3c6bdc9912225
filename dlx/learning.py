"""The learning search (``learn=True``): the kernel of `dlx.kernels.cdcl` driven in slices.

[`LearningSearch`][] has the protocol of [`dlx.search.Search`][] (iterate for the
solutions, ``count()``, live ``stats``), so ``solutions``, ``first`` and ``count`` take
``learn=True`` alike. Each solution found is forbidden by a clause before the next is
sought, so the solutions come in no particular order, but every one comes once and a
search that ends has found them all. ``stats.nodes`` counts decisions (the learning
search's nodes), ``updates`` assignments, ``restarts`` and ``conflicts`` as named. The
budgets (``max_nodes``, ``timeout``) are looked at after every slice, one that found a
solution included.

This driver lives outside `dlx.kernels.cdcl` because it reaches the kernel through a
[`dlx.backend.Backend`][], which imports the package: inside it, it would close a
circle.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .backend import Backend
from .kernels.cdcl import state
from .kernels.cdcl.state import Learner, Problem, problem_lists
from .search import SearchStats
from .slices import Handover, Lazy, Slices, Step, drive
from .status import Status

__all__ = ["LearningSearch", "Problem", "forced_clash", "problem_lists"]

FIRST_SLICE = 256
"""Conflicts (and decisions, times 16) in a slice before the first look at the clock."""
SLICE_SECONDS = 0.05
"""Slices grow (or shrink) until one takes about this long."""


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


class LearningSearch(Lazy):
    """A lazy learning search of one problem: iterate for the solutions (sorted lists of
    options, forced ones included); ``stats`` are live. Made by
    ``ExactCover.solutions(learn=True)``.

    The python and the numba kernels of `dlx.kernels.cdcl` run on the same numpy arrays, so a
    ``handover`` (``auto`` on python, `dlx.registry.handover`) moves the search to
    numba at a slice boundary by calling numba's ``cdcl`` from there on."""

    def __init__(self, problem: Problem, backend: Backend, *, limit: int | None,
                 forced: list[int], max_nodes: int, timeout: float | None,
                 seed: int | None,
                 on_finish: Callable[[SearchStats], None] | None = None,
                 handover: Handover | None = None,
                 progress: Callable[[SearchStats], None] | None = None) -> None:
        self.stats = SearchStats(backend=backend.name)
        self._progress = progress
        self._handover = handover
        self._problem = problem
        self._backend = backend
        self._limit = limit
        self._forced = forced
        self.max_nodes = max_nodes
        self._timeout = timeout
        self._seed = seed
        self._on_finish = on_finish
        self._run = self._search()

    def __repr__(self) -> str:
        return f"<LearningSearch {self.stats.status.name} nodes={self.stats.nodes}>"

    def _search(self) -> Iterator[list[int]]:
        """The kernel in slices of conflicts ([`dlx.slices.drive`][]), the clock and the
        budgets looked at after each, one that found a solution included. With a timeout
        the first slice is one conflict ([`dlx.slices.Slices.timed`][]): in Python one
        slice of [`FIRST_SLICE`][] conflicts on an empty 25x25 Sudoku took 4.3 s, past a
        0.3 s deadline."""
        slices = Slices.timed(self._timeout is not None, SLICE_SECONDS, FIRST_SLICE)
        return drive(self.begin, self.stats, slices, self._timeout, self._on_finish,
                     self._progress)

    def begin(self) -> Step[list[int]] | None:
        """The arrays this search starts from (the forced options taken), and its step;
        None when that decides it (a clash of the forced options, a timeout of 0, a
        conflict at level 0). Iterating drives it; a portfolio runs it in turns, and may
        lower `max_nodes`, which each step reads."""
        stats = self.stats
        clash = forced_clash(self._problem, self._forced)
        if clash is not None:
            stats.status = Status.CONFLICT
            stats.conflict = clash
            return None
        if self._timeout is not None and self._timeout <= 0:
            stats.status = Status.TIMEOUT
            return None
        deadline = None if self._timeout is None else time.perf_counter() + self._timeout
        begin, cdcl = self._backend.learning()
        self._S = state.allocate(self._problem, self._seed)
        if begin(self._S, np.asarray(self._forced, dtype=np.int64)) == Status.COMPLETE:
            stats.status = Status.COMPLETE
            return None
        step = self._stepper(cdcl)
        if self._handover is not None:
            step = self._handover.watch(step, self._move, deadline)
        return step

    def _move(self) -> Step[list[int]]:
        """The handover's move: the same arrays, numba's ``cdcl`` from now on."""
        handover = self._handover
        if handover is None:  # cannot be: only a watched step moves
            raise AssertionError("a move without a handover")
        self._backend = handover.target
        self.stats.backend = handover.route
        return self._stepper(handover.target.learning()[1])

    def _stepper(self, cdcl: Callable[..., int]) -> Step[list[int]]:
        """The step of ``cdcl`` on this search's arrays (``self._S``, grown in place of
        the old when a learned clause finds no room)."""
        stats, limit = self.stats, self._limit

        def step(budget: int) -> tuple[Status | None, int, list[int] | None]:
            S = self._S
            REG, max_nodes = S.REG, self.max_nodes
            conflicts, decisions = int(REG[state.REG_CONFLICTS]), int(REG[state.REG_DECISIONS])
            REG[state.REG_STOP_CONFLICTS] = conflicts + budget
            REG[state.REG_STOP_DECISIONS] = min(max_nodes, decisions + 16 * budget)
            status = cdcl(S)
            self._read(S)
            if status == Status.NO_ROOM:  # larger arrays, and the same slice again
                self._S = state.grown(S)
                return None, 0, None
            if status == Status.COMPLETE:
                return Status.COMPLETE, 0, None
            end = None
            if status == Status.LIMIT and limit is not None and stats.solutions + 1 >= limit:
                end = Status.LIMIT
            elif REG[state.REG_DECISIONS] >= max_nodes:
                end = Status.MAX_NODES
            if status == Status.LIMIT:  # a solution, blocked before the search goes on
                stats.solutions += 1
                REG[state.REG_BLOCK] = 1
                return end, 0, np.flatnonzero(S.VAL == 1).tolist()
            ran = max(int(REG[state.REG_CONFLICTS]) - conflicts,
                      (int(REG[state.REG_DECISIONS]) - decisions) // 16)
            return end, ran, None

        return step

    def _read(self, S: Learner) -> None:
        """Copy the kernel's counts into the live ``stats``."""
        REG, stats = S.REG, self.stats
        stats.nodes = int(REG[state.REG_DECISIONS])
        stats.updates = int(REG[state.REG_ASSIGNS])
        stats.max_level = int(REG[state.REG_MAX_LEVEL])
        stats.restarts = int(REG[state.REG_RESTARTS])
        stats.conflicts = int(REG[state.REG_CONFLICTS])


_MOVED = {"check_learner": "dlx.kernels.cdcl.check", "index_type": "dlx.kernels.cdcl.state",
          "watch_room": "dlx.kernels.cdcl.state", "RESTART_UNIT": "dlx.kernels.cdcl.state",
          "REPHASE_UNIT": "dlx.kernels.cdcl.state"}


def __getattr__(name: str) -> Any:
    """The names that moved into `dlx.kernels.cdcl`, still found here with a
    DeprecationWarning."""
    where = _MOVED.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    warnings.warn(f"dlx.learning.{name} is deprecated: use {where}.{name}",
                  DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(where), name)
