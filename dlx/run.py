"""``run(problem, request)``: the kind of search a request asks for, from a registry.

[`dlx.request.check_request`][] names the kind (``request.kind``); [`KINDS`][] maps
each name to its [`dlx.kinds.Kind`][], one module of [`dlx.kinds`][] each, as
[`dlx.registry`][] maps backend names to backends. [`dlx.ExactCover`][]'s
``solutions``, ``count``, ``first`` and ``best`` are each a request, a run, and the rule
for budgets.

**Adding a kind of search** (the memoized search, a portfolio of strategies):

1. its argument in [`dlx.request.SearchOptions`][] (the one list of the calls'
   keyword arguments) and in [`dlx.request.SearchRequest`][]; its rules, and the
   line that names its kind, in [`dlx.request.check_request`][] (what it refuses: "a
   memoized search takes no seed", "multiplicities refuse it");
2. a module ``dlx/kinds/NAME.py`` defining ``KIND = Kind("NAME", solutions[, count])``,
   where ``solutions(problem, request, on_finish)`` returns a lazy search
   ([`dlx.kinds.Solutions`][]: an iterator with live ``stats`` and ``count()``) that
   reads the problem through ``problem.matrix`` and tells ``on_finish`` its stats once
   it ends (a search that runs a kernel in slices gets that from
   [`dlx.slices.drive`][]), and ``count`` counts its own way if it has one;
3. one line below: ``register_kind(NAME.KIND)``.

Nothing in [`dlx.problem`][] changes.
"""

from __future__ import annotations

from .errors import ArgumentError
from .kinds import (
    Kind,
    OnFinish,
    Problem,
    Solutions,
    choose,
    distributed,
    learning,
    memo,
    plain,
    portfolio,
    restarts,
)
from .request import SearchRequest
from .search import SearchStats

__all__ = ["KINDS", "count", "register_kind", "run"]

KINDS: dict[str, Kind] = {}
"""The kinds of search, by name."""


def register_kind(kind: Kind) -> None:
    """Make ``kind`` the search run for the requests that name it."""
    KINDS[kind.name] = kind


register_kind(plain.KIND)
register_kind(learning.KIND)
register_kind(restarts.KIND)
register_kind(distributed.KIND)
register_kind(portfolio.KIND)
register_kind(memo.KIND)
register_kind(choose.KIND)


def _kind(request: SearchRequest) -> Kind:
    kind = KINDS.get(request.kind)
    if kind is None:
        raise ArgumentError(f"no search of kind {request.kind!r} is registered")
    return kind


def run(problem: Problem, request: SearchRequest, on_finish: OnFinish = None) -> Solutions:
    """The lazy search ``request`` asks of ``problem``; ``on_finish`` is told its stats
    once it ends."""
    return _kind(request).solutions(problem, request, on_finish)


def count(problem: Problem, request: SearchRequest,
          on_finish: OnFinish = None) -> tuple[int, SearchStats]:
    """The number of solutions ``request`` asks of ``problem`` (at most its limit), and
    the statistics of the search that counted them."""
    kind = _kind(request)
    if kind.count is not None:
        return kind.count(problem, request, on_finish)
    search = kind.solutions(problem, request, on_finish)
    return search.count(), search.stats
