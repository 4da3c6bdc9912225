"""The memoized search (``memo=True``, ``solution_set``, [`dlx.memo`][], Knuth's DLX6):
it builds the set of all solutions ([`dlx.SolutionSet`][]) once, then yields them in the
set's order, which is the order of the plain search; ``count`` counts without keeping
the diagram. Both run [`dlx.memo.build`][], on [`dlx.slices.drive`][] as every kind; a
count given ``executor``, ``workers`` or ``split`` runs split
([`dlx.kinds.memo_split`][])."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from ..budget import NEVER
from ..memo import MemoStats, build
from ..request import SearchRequest
from ..search import SearchStats
from ..status import Status
from ..zdd import SolutionSet
from . import Kind, OnFinish, Problem
from .memo_split import build_split, wanted

__all__ = ["KIND", "MemoSolutions"]


def _limited(stats: SearchStats, request: SearchRequest) -> None:
    """A complete search with more solutions than the request's limit: the limit's."""
    if request.limit < NEVER and stats.status is Status.COMPLETE \
            and stats.solutions > request.limit:
        stats.solutions = request.limit
        stats.status = Status.LIMIT


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

            def finished(stats: SearchStats) -> None:
                if not stats.status.complete:
                    stats.solutions = 0  # a set half built yields nothing
                _limited(stats, request)
                if on_finish is not None:
                    on_finish(stats)

            self._left = iter(())  # a Ctrl-C in the build leaves an empty search
            found, self.stats = build(problem, request, True, finished)
            if isinstance(found, SolutionSet):
                self._left = islice(found, request.limit)
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
    """The exact count (at most the limit), without keeping the diagram; 0 and the
    stopped stats when a budget or bound ran out (the front door's rule then applies)."""
    def finished(stats: SearchStats) -> None:
        _limited(stats, request)
        if on_finish is not None:
            on_finish(stats)

    run = build_split if wanted(request) else build
    total, stats = run(problem, request, False, finished)
    if not isinstance(total, int):
        return 0, stats
    return stats.solutions, stats


KIND = Kind("memo", MemoSolutions, count)
