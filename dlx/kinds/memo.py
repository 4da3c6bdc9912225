"""The memoized search (``memo=True``, [`dlx.memo`][], Knuth's DLX6): it builds the set
of all solutions ([`dlx.SolutionSet`][]) once, then yields them in the set's order,
which is the order of the plain search; ``count`` counts without keeping the diagram."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from ..budget import NEVER
from ..errors import SearchStoppedError
from ..memo import MemoStats, memo_search
from ..request import SearchRequest
from ..search import SearchStats
from ..status import Status
from ..zdd import SolutionSet
from . import Kind, OnFinish, Problem

__all__ = ["KIND", "MemoSolutions"]


def _search(problem: Problem, request: SearchRequest,
            keep: bool) -> tuple[SolutionSet | int | None, MemoStats]:
    """The memoized search of ``problem`` under ``request``'s budgets: its set (``keep``)
    or count, and its stats; a budget that runs out gives None and the stopped stats
    (the front door's rule for budgets then applies)."""
    try:
        found, stats = memo_search(
            problem, backend=request.backend, keep=keep, forced=list(request.forced),
            max_nodes=None if request.max_nodes >= NEVER else request.max_nodes,
            timeout=request.timeout)
    except SearchStoppedError as e:
        stopped = e.stats if isinstance(e.stats, MemoStats) else MemoStats()
        stopped.solutions = 0
        return None, stopped
    if stats.solutions > request.limit and request.limit < NEVER:  # NEVER: no limit
        stats.solutions = request.limit
        stats.status = Status.LIMIT
    return found, stats


class MemoSolutions:
    """The memoized search as a lazy search: the first ``next()`` builds the set, then
    the solutions come off it in its order (at most the request's limit); ``stats`` are
    the search's, ``solutions`` the number it yields in all."""

    def __init__(self, problem: Problem, request: SearchRequest, on_finish: OnFinish) -> None:
        self.stats: SearchStats = MemoStats()
        self._args = problem, request, on_finish
        self._left: Iterator[list[int]] | None = None

    def _built(self) -> Iterator[list[int]]:
        if self._left is None:
            problem, request, on_finish = self._args
            found, self.stats = _search(problem, request, keep=True)
            if on_finish is not None:
                on_finish(self.stats)
            self._left = islice(found, request.limit) if isinstance(found, SolutionSet) \
                else iter(())
        return self._left

    def __iter__(self) -> MemoSolutions:
        return self

    def __next__(self) -> list[int]:
        return next(self._built())

    def count(self) -> int:
        """Build the set (if not yet built): the number of solutions it yields in all,
        without reading them off."""
        self._built()
        self._left = iter(())
        return self.stats.solutions


def count(problem: Problem, request: SearchRequest,
          on_finish: OnFinish) -> tuple[int, SearchStats]:
    total, stats = _search(problem, request, keep=False)
    if on_finish is not None:
        on_finish(stats)
    if not isinstance(total, int):
        return 0, stats
    return (total if request.limit >= NEVER else min(total, request.limit)), stats


KIND = Kind("memo", MemoSolutions, count)
