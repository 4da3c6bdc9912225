"""``strategy="learn"`` (formerly ``"hard"``): how a puzzle is searched when Knuth's
plain search may run for hours (large boards), one puzzle at a time, for
[`sudoku.solve`][], [`sudoku.count_solutions`][] and the batch calls alike.

The puzzle's problem (the empty grid's, its givens forced) is first reduced at its root
(``dlx.ExactCover.preprocess``: the options that would leave a cell, or a unit's symbol,
without a candidate, and those that locked candidates exclude, to a fixpoint), then
searched by the engine's learning search (clause learning: conflicts analysed into clauses
that forbid their causes, VSIDS, restarts): see [`HARD`][] and ``docs/design.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dlx
from dlx import SearchStats, Status

from .arguments import Engine
from .errors import ClashError, SearchStoppedError
from .grid import Geometry, format_grid, is_solution
from .outcome import search_count, search_failure
from .reduction import decode, empty_grid_problem, forced_problem, given_options, givens

__all__ = ["HARD", "HARD_SIDE", "HEAD_NODES", "Tally", "count_hard", "first_hard",
           "head_nodes", "head_start", "is_hard", "solve_hard"]

HARD_SIDE = 25
"""``strategy="auto"`` searches boards of this side and more the learning way."""

HEAD_NODES = 10_000
"""``strategy="auto"`` in [`sudoku.solve_string`][] and [`sudoku.count_solutions`][]
gives a board of side [`HARD_SIDE`][] and more this many nodes of the plain search
(the one-call batch path) before the learning way: an easy large puzzle ends there,
about 5 times faster than by the learning way; a minimal one loses a few milliseconds
(``docs/decisions.md``, "The portfolio")."""

HARD: dict[str, Any] = {"strategy": "learn", "seed": 0}
"""The engine's options for ``strategy="learn"`` (``dlx.ExactCover.solutions``): the
search that learns from its conflicts (`dlx.kernels.cdcl`), after the root reduction
(``ExactCover.preprocess``). The weighted choice with restarts and the lookahead were
measured first and solve far fewer of the 25x25 puzzles (``docs/decisions.md``, "Search
strategies for hard instances")."""

Tally = Callable[[int, int], object]
"""Told the solutions found and the nodes searched by each search the learning way
(for a batch's progress record)."""


def is_hard(geo: Geometry, strategy: str) -> bool:
    """True when ``strategy`` (a checked name, [`sudoku.arguments.STRATEGIES`][]) says
    to search ``geo``'s puzzles the learning way: ``"learn"``, or ``"auto"`` and a side
    of at least [`HARD_SIDE`][]."""
    return strategy == "learn" or (strategy == "auto" and geo.layout.side >= HARD_SIDE)


def head_nodes(budget: int) -> int:
    """The nodes of ``auto``'s head start within the caller's ``max_nodes`` (``budget``;
    [`dlx.NEVER`][]: none): [`HEAD_NODES`][] at most. When it is the whole budget, a
    puzzle it leaves undecided has had all it may, and goes no further."""
    return min(HEAD_NODES, budget)


def head_start(geo: Geometry, values: list[int], limit: int,
               engine: Engine) -> tuple[dlx.BatchResult | None, Engine, int]:
    """``auto``'s first try on a large board: the plain batch search of the puzzle, for at
    most [`HEAD_NODES`][] nodes within ``engine``'s budgets. Its result when that
    decided the puzzle (or a budget of the caller's ran out), else None; the budgets left
    for the learning way (the nodes used counted out; the time is the call's deadline's);
    the nodes used."""
    head = head_nodes(engine.max_nodes)
    result = empty_grid_problem(geo.layout).solve_batch(
        [givens(geo, values)], limit=limit, **engine.budgets(head))
    if result.status[0] != Status.MAX_NODES or head == engine.max_nodes:
        return result, engine, 0
    spent = int(result.nodes[0])
    return None, engine.less(spent), spent


def _reduced(geo: Geometry, values: list[int]) -> dlx.Preprocessed | None:
    """The puzzle's problem reduced at its root, or None when the reduction proves that it
    has no solution; clashing givens raise their ClashError."""
    problem, forced = forced_problem(geo, values)  # the ClashError naming the unit, as
    record = problem.preprocess(forced=forced)  # the plain path's
    return None if record.infeasible is not None else record


_OUT_OF_TIME = SearchStats(status=Status.TIMEOUT)
"""The statistics of a search the call's deadline left no time for: none was made."""


def first_hard(geo: Geometry, values: list[int], *, unique: bool,
               engine: Engine) -> tuple[list[int] | None, SearchStats]:
    """The options of a solution of the puzzle (in the empty grid's problem, givens
    included), or None, and the statistics of the search: one learning search of the
    reduced problem ([`HARD`][]) for a first solution and, if ``unique``, on to a
    second (None if there is one) or to the proof that there is none, with what it
    learned for the first. ``max_nodes`` bounds the search, the call's deadline the
    reduction and the search; None when a budget ran out (``stats.status`` says which).
    A ClashError for clashing givens."""
    if engine.expired():
        given_options(geo, values)  # clashing givens are named even so
        return None, _OUT_OF_TIME
    record = _reduced(geo, values)
    if record is None:
        return None, SearchStats(status=Status.COMPLETE)
    search = record.problem.solutions(2 if unique else 1, forced=record.taken, **HARD,
                                      **engine.budgets())
    chosen = next(search, None)
    found = search.count()
    if chosen is None or found != 1 or search.stats.stopped:
        return None, search.stats
    return record.original(chosen), search.stats


def solve_hard(geo: Geometry, values: list[int], *, unique: bool, engine: Engine,
               spent: int = 0, tally: Tally | None = None) -> list[int]:
    """The solved grid's values by [`first_hard`][], or the SudokuError that
    [`sudoku.solve_string`][] raises for the puzzle (``spent``: nodes searched before,
    which its count of nodes includes). ``tally``, if given, is told the solutions found
    and the nodes searched."""
    chosen, stats = first_hard(geo, values, unique=unique, engine=engine)
    if tally is not None:
        tally(stats.solutions, stats.nodes)
    if chosen is None:
        raise search_failure(geo, values, stats.status, stats.solutions, stats.nodes + spent,
                             unique)
    solution = decode(geo, values, None, chosen)
    if not is_solution(geo, values, solution):  # an engine bug, never bad input
        raise AssertionError(f"engine returned an invalid grid: {format_grid(geo, solution)}")
    return solution


def count_hard(geo: Geometry, values: list[int], *, limit: int, engine: Engine,
               spent: int = 0, tally: Tally | None = None) -> int | SearchStoppedError:
    """What [`sudoku.count_solutions`][] returns (or raises) for the puzzle under
    ``strategy="learn"``: the solutions of the reduced problem counted by the learning
    search (each found once, then forbidden: the same count); ``spent`` and ``tally`` as
    for [`solve_hard`][]."""
    try:
        given = given_options(geo, values) if engine.expired() else None
        record = None if given is not None else _reduced(geo, values)
    except ClashError:  # clashing givens count 0, as on the plain path (out of time too)
        return 0
    if given is not None:  # the call's deadline left no time
        return search_count(Status.TIMEOUT, 0, spent)
    if record is None:
        return 0
    problem = record.problem
    try:
        found = problem.count(limit, forced=record.taken, **HARD, **engine.budgets())
        stats = problem.stats
    except dlx.SearchStoppedError as stop:
        found, stats = stop.stats.solutions, stop.stats
    if tally is not None:
        tally(found, stats.nodes)
    return search_count(stats.status, found, stats.nodes + spent)
