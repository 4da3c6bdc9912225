"""The kinds of search, one module each: what [`dlx.run.run`][] runs for a request.

A kind turns a checked [`dlx.request.SearchRequest`][] into a lazy search of a problem:
an iterator of solutions with live ``stats`` and a ``count()`` ([`Solutions`][]), and
may count in a way of its own (a distributed run counts in batches, without building
solutions). Each module here defines one [`Kind`][], ``KIND``, which
[`dlx.run`][] registers by name:

* [`plain`][dlx.kinds.plain]: Algorithm C (M with bounds or costs), ``order="cost"`` too;
* [`learning`][dlx.kinds.learning]: the learning search (``strategy="learn"``);
* [`restarts`][dlx.kinds.restarts]: ``first(restarts=...)``;
* [`distributed`][dlx.kinds.distributed]: a split search on an executor;
* [`memo`][dlx.kinds.memo]: the memoized search (``memo=True``, ``solution_set``), Knuth's DLX6;
* [`portfolio`][dlx.kinds.portfolio]: plain and learning search in turns (``strategy="race"``);
* [`choose`][dlx.kinds.choose]: ``count()``'s choice of the plain or the memoized search.

A kind reads the problem through its frozen [`dlx.matrix.Matrix`][] (``problem.matrix``)
and reports a finished search to ``on_finish`` (the problem's per-thread ``stats``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from ..matrix import Matrix
from ..request import SearchRequest
from ..search import SearchStats

__all__ = ["Kind", "OnFinish", "Problem", "Solutions"]

OnFinish = Callable[[SearchStats], None] | None
"""Told the statistics of a search once it has ended (None: nobody)."""


class Problem(Protocol):
    """What a kind needs of a problem: its matrix (a [`dlx.ExactCover`][] has it)."""

    @property
    def matrix(self) -> Matrix: ...


class Solutions(Protocol):
    """A lazy search: iterate for the solutions (sorted lists of options); ``stats`` are
    live; ``count()`` runs it to its end and returns the number of solutions found.
    [`dlx.Search`][] is one, with more (``explored()``, ``costs``, ``weights()``)."""

    stats: SearchStats

    def __iter__(self) -> Iterator[list[int]]: ...

    def __next__(self) -> list[int]: ...

    def count(self) -> int: ...


@dataclass(frozen=True)
class Kind:
    """A kind of search: ``solutions(problem, request, on_finish)`` makes its lazy search;
    ``count`` (None: run that search to its end) counts its own way, returning the count
    and the statistics (after telling ``on_finish``)."""

    name: str
    solutions: Callable[[Problem, SearchRequest, OnFinish], Solutions]
    count: Callable[[Problem, SearchRequest, OnFinish], tuple[int, SearchStats]] | None = None
