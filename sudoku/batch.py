"""Many puzzles at once: one batch search per grid size (see [`dlx.batch`][]).

A puzzle is the empty grid's exact cover with its givens' options forced, so a whole file
of puzzles is one problem and many instances: ``ExactCover.solve_batch`` solves them all
in one kernel call. Around it everything is numpy over all puzzles at once: reading the
one-line puzzles (rows of N*N symbols), listing their givens' options, decoding the
solutions, checking every answer ([`sudoku.grid.are_solutions`][]) and writing them out.
A puzzle that fails gets the very error [`sudoku.solve_string`][] raises for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from functools import lru_cache, partial
from typing import Any

import numpy as np

from dlx import BackendName, BatchResult, Status, map_ordered

from .arguments import count_budget, engine_arguments, puzzle_list, strategy_name
from .errors import ArgumentError, SearchStoppedError, SudokuError, culprit
from .grid import (
    BOX_SIZES,
    CACHE_SIZE,
    Geometry,
    Layout,
    are_solutions,
    check_layout,
    format_grid,
    geometry,
    parse_string,
)
from .hard import after_head, count_hard, head_nodes, is_hard, solve_hard
from .outcome import search_count, search_failure
from .reduction import empty_grid_problem

__all__ = ["count_many", "solve_many"]

_SIDES = frozenset(n * n for n in BOX_SIZES)
_CHUNK = 4096
"""Puzzles per batch search. One batch of all 49,158 17-clue puzzles ran at 14,000/s,
chunks of 1,000 to 16,000 at 22,000-24,000/s (the arrays around the kernel stay in cache)."""


def solve_many(
    puzzles: Iterable[str],
    *,
    unique: bool = False,
    alphabet: str | None = None,
    layout: Layout | None = None,
    backend: BackendName = "auto",
    max_nodes: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int], object] | None = None,
    strategy: str = "auto",
) -> list[str | SudokuError]:
    """Solve puzzle strings in bulk; per puzzle, its solution as one line, or the
    SudokuError [`sudoku.solve_string`][] would raise (returned, not raised).

    ``puzzles`` is any iterable of str (a list, a generator, a file's lines), not a single
    str. Each puzzle is a row of N*N symbols or a drawn grid, as for ``solve_string``;
    sizes may be mixed. An item that is not a str, or an ``alphabet`` that does not fit a
    puzzle (AlphabetError), is that puzzle's error, as it is ``solve_string``'s.
    ``unique=True`` returns MultipleSolutionsError for a puzzle with more than one
    solution; ``max_nodes`` bounds each puzzle's search (SearchStoppedError). ``layout``
    gives the rules, as for [`sudoku.solve`][]. ``executor`` (any
    ``concurrent.futures.Executor``: processes, a Dask cluster's, Ray's) solves chunks of
    the puzzles there, the answers still in input order. ``progress``, if given, is called
    from time to time (about 5 times a second, or once a chunk on an executor) with the
    number of puzzles done, for a progress line. ``strategy`` is that of
    [`sudoku.solve`][]: ``"auto"`` (the default) searches all in one batch search, the
    puzzles of side 25 and more for `sudoku.hard.HEAD_NODES` nodes each and those
    it leaves undecided then the hard way, one by one, as [`sudoku.solve_string`][] does;
    ``"plain"`` all in the batch; ``"hard"`` all one by one, each as
    [`sudoku.solve_string`][] does with ``strategy="hard"``. The arguments of the call
    itself (``puzzles``, ``layout``, ``backend``, ``max_nodes``, ``executor``,
    ``progress``, ``strategy``) raise ArgumentError.
    """
    puzzles = puzzle_list(puzzles)
    check_layout(layout)
    engine = engine_arguments(backend, max_nodes)
    strategy = strategy_name(strategy)
    done = _Done(progress)
    if executor is not None:
        return _on_executor(executor, partial(solve_many, unique=unique, alphabet=alphabet,
                                              layout=layout, backend=engine["backend"],
                                              max_nodes=engine["max_nodes"],
                                              strategy=strategy), puzzles, done)
    out: list[str | SudokuError | None] = [None] * len(puzzles)
    for geo, where, values in _parse(puzzles, alphabet, layout, out):
        hook = done.hook(len(where))
        if is_hard(geo, strategy) and strategy == "hard":
            _one_by_one(out, where, values, hook,
                        partial(_solved_hard, geo, unique=unique, engine=engine))
            continue
        result, later = _head_start(geo, values, 2 if unique else 1, engine, strategy, hook)
        solved = solved_mask(result, unique) & ~later
        grids = _decode(geo, result, solved)
        ok = are_solutions(geo, values[solved], grids)
        if not ok.all():  # an engine bug, never bad input
            k = int(np.flatnonzero(~ok)[0])
            raise AssertionError(f"engine returned an invalid grid: {grids[k].tolist()}")
        places = where.tolist()
        for k, text in zip(np.flatnonzero(solved).tolist(), _format(geo, grids)):
            out[places[k]] = text
        for k in np.flatnonzero(~solved & ~later).tolist():
            out[places[k]] = failure(geo, values[k].tolist(), result, k, unique)
        _the_rest_hard(out, where, values, result, later, hook,
                       partial(_solved_hard, geo, unique=unique), engine)
    done.report(len(puzzles))
    return out  # type: ignore[return-value]


def count_many(
    puzzles: Iterable[str],
    limit: int | None = None,
    *,
    alphabet: str | None = None,
    layout: Layout | None = None,
    backend: BackendName = "auto",
    max_nodes: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int], object] | None = None,
    strategy: str = "auto",
) -> list[int | SudokuError]:
    """Count the solutions of puzzle strings in bulk (each at most ``limit``), as
    [`sudoku.count_solutions`][] does: clashing givens count 0; a bad puzzle, or a
    budget that ran out, gives its SudokuError (returned, not raised). Arguments as for
    [`solve_many`][]; a bad ``limit`` raises ArgumentError."""
    puzzles = puzzle_list(puzzles)
    check_layout(layout)
    limit = count_budget(limit, "limit")
    engine = engine_arguments(backend, max_nodes)
    strategy = strategy_name(strategy)
    done = _Done(progress)
    if executor is not None:
        return _on_executor(executor, partial(count_many, limit=limit, alphabet=alphabet,
                                              layout=layout, backend=engine["backend"],
                                              max_nodes=engine["max_nodes"],
                                              strategy=strategy), puzzles, done)
    out: list[int | SudokuError | None] = [None] * len(puzzles)
    for geo, where, values in _parse(puzzles, alphabet, layout, out):
        hook = done.hook(len(where))
        if is_hard(geo, strategy) and strategy == "hard":
            _one_by_one(out, where, values, hook,
                        partial(count_hard, geo, limit=limit, engine=engine))
            continue
        result, later = _head_start(geo, values, limit, engine, strategy, hook)
        for k in np.flatnonzero(~later).tolist():
            out[where[k]] = count_of(result, k)
        _the_rest_hard(out, where, values, result, later, hook,
                       partial(count_hard, geo, limit=limit), engine)
    done.report(len(puzzles))
    return out  # type: ignore[return-value]


def _head_start(geo: Geometry, values: np.ndarray, limit: int | None,
                engine: dict[str, Any], strategy: str,
                progress: Callable[[int], object] | None) -> tuple[BatchResult, np.ndarray]:
    """The batch search of the puzzles (their progress told), and which of them are left
    for the hard strategy: for ``"auto"`` on a large board, each puzzle gets
    `sudoku.hard.HEAD_NODES` nodes of the plain search first, as
    [`sudoku.solve_string`][] gives it (an easy large puzzle ends there); those it does
    not decide, within the caller's ``max_nodes``, are left."""
    budget = engine["max_nodes"]
    head = is_hard(geo, strategy)
    nodes = head_nodes(budget) if head else budget
    result = _search(geo, values, limit, engine["backend"], nodes, None if head else progress)
    later = np.zeros(len(values), dtype=bool)
    if head and nodes != budget:
        later = result.status == Status.MAX_NODES
    if head and progress is not None:
        progress(int(len(values) - later.sum()))
    return result, later


def _the_rest_hard(out: list[Any], where: np.ndarray, values: np.ndarray,
                   result: BatchResult, later: np.ndarray,
                   progress: Callable[[int], object] | None,
                   work: Callable[..., Any], engine: dict[str, Any]) -> None:
    """The puzzles ``later`` of a head start (see [`_head_start`][]), each by ``work``
    (the hard strategy, which returns its errors) with the nodes it has spent counted in
    and out of its budget."""
    done = int(len(values) - later.sum())
    for k in np.flatnonzero(later).tolist():
        spent = int(result.nodes[k])
        out[where[k]] = work(values[k].tolist(), engine=after_head(engine, spent), spent=spent)
        done += 1
        if progress is not None:
            progress(done)


def _one_by_one(out: list[Any], where: np.ndarray, values: np.ndarray,
                progress: Callable[[int], object] | None,
                work: Callable[[list[int]], Any]) -> None:
    """``work`` on each puzzle of a batch (a row of ``values``) in turn, its result put in
    ``out`` at the puzzle's place (``where``), ``progress`` told after each: the hard
    strategy's way through a batch."""
    for k, (place, row) in enumerate(zip(where.tolist(), values.tolist()), 1):
        out[place] = work(row)
        if progress is not None:
            progress(k)


def _solved_hard(geo: Geometry, values: list[int], *, unique: bool,
                 engine: dict[str, Any], spent: int = 0) -> str | SudokuError:
    """One puzzle's answer under ``strategy="hard"``: its solution on one line, or its
    SudokuError (returned), as [`sudoku.solve_string`][] would give them (``spent``: nodes
    searched before, as for [`sudoku.hard.solve_hard`][])."""
    try:
        return format_grid(geo, solve_hard(geo, values, unique=unique, engine=engine,
                                           spent=spent))
    except SudokuError as e:
        return e


def _on_executor(executor: Executor, work: Callable[[list[str]], list[Any]],
                 puzzles: list[str], done: _Done) -> list[Any]:
    """``work`` on chunks of [`_CHUNK`][] puzzles through ``executor``, in order (each
    worker builds each grid size's problem once, in its own cache); ``done`` hears of each
    chunk as it comes back."""
    if not isinstance(executor, Executor):
        raise ArgumentError(f"executor must be a concurrent.futures.Executor, got "
                            f"{executor!r}")
    tasks = [(puzzles[i : i + _CHUNK],) for i in range(0, len(puzzles), _CHUNK)]
    out: list[Any] = []
    for chunk in map_ordered(executor, work, tasks):
        out.extend(chunk)
        done.report(len(out))
    return out


class _Done:
    """Puzzles done across the batches of one call, for its ``progress`` callback: each
    batch reports its own instances, offset by the puzzles of the batches before it."""

    def __init__(self, progress: Callable[[int], object] | None) -> None:
        if progress is not None and not callable(progress):
            raise ArgumentError(f"progress must be callable or None, got {culprit(progress)}")
        self.progress = progress
        self.before = 0

    def hook(self, size: int) -> Callable[[int], object] | None:
        """The callback for the next batch, of ``size`` puzzles."""
        if self.progress is None:
            return None
        base, report = self.before, self.progress
        self.before += size
        return lambda k: report(base + k)

    def report(self, done: int) -> None:
        if self.progress is not None:
            self.progress(done)


def count_of(result: BatchResult, k: int) -> int | SearchStoppedError:
    """What [`sudoku.count_solutions`][] returns, or raises, for instance ``k``: clashing
    givens count 0; a budget that ran out is an error, not a partial count."""
    return search_count(int(result.status[k]), int(result.found[k]), int(result.nodes[k]))


# ----- reading ----------------------------------------------------------------------------


@lru_cache(maxsize=CACHE_SIZE)
def _symbol_table(geo: Geometry) -> np.ndarray:
    """Byte -> value (0 blank, 1..N), -1 for a byte that is no symbol of ``geo``; int8 (an
    ASCII alphabet has fewer than 128 symbols), so that the one pass over all the bytes
    writes an eighth of what int64 would (royle: 0.3 us a puzzle less)."""
    table = np.full(256, -1, dtype=np.int8)
    for v, ch in enumerate(geo.alphabet, 1):
        if ord(ch) < 128:
            table[ord(ch)] = v
    for ch in geo.blanks():
        table[ord(ch)] = 0
    return table


def _parse(
    puzzles: Sequence[Any], alphabet: Any, layout: Layout | None, out: list
) -> list[tuple[Geometry, np.ndarray, np.ndarray]]:
    """Per grid size, in chunks of ``_CHUNK``: (geometry, positions in ``puzzles``, values
    as an n x N*N array).

    One-line puzzles of a valid size are read with one table lookup over all their bytes;
    others (drawn grids, bad symbols, wrong sizes, items that are not a str, an alphabet
    that does not fit) go through [`parse_string`][], whose SudokuError is stored in
    ``out``.
    """
    lengths = np.fromiter((len(p) if isinstance(p, str) else -1 for p in puzzles),
                          dtype=np.int64, count=len(puzzles))  # -1: no str, parse_string says
    groups: dict[int, tuple[Geometry, list[int], list[np.ndarray]]] = {}
    slow: list[int] = []
    for length in np.unique(lengths).tolist():
        where = np.flatnonzero(lengths == length)
        side = round(length**0.5) if length > 0 else 0
        try:
            if side * side != length or (side not in _SIDES if layout is None
                                         else side != layout.side):
                raise SudokuError  # parse_string says what is wrong
            geo = geometry(side, alphabet, layout)
        except SudokuError:
            slow.extend(where.tolist())
            continue
        chosen = puzzles if len(where) == len(puzzles) else [puzzles[k] for k in where.tolist()]
        text = "".join(chosen)
        if not text.isascii():  # read the puzzles with other characters one by one
            ascii_ = np.fromiter((p.isascii() for p in chosen), dtype=bool, count=len(chosen))
            slow.extend(where[~ascii_].tolist())
            where = where[ascii_]
            text = "".join(puzzles[k] for k in where.tolist())
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        values = _symbol_table(geo)[raw].reshape(-1, length)
        bad = (values < 0).any(axis=1)
        slow.extend(where[bad].tolist())
        group = groups.setdefault(geo.side, (geo, [], []))
        group[1].extend(where[~bad].tolist())
        group[2].append(values[~bad] if bad.any() else values)
    for k in sorted(slow):
        try:
            geo, given = parse_string(puzzles[k], alphabet, layout)
        except SudokuError as e:
            out[k] = e
            continue
        group = groups.setdefault(geo.side, (geo, [], []))
        group[1].append(k)
        group[2].append(np.asarray([given], dtype=np.int64))
    out_groups: list[tuple[Geometry, np.ndarray, np.ndarray]] = []
    for geo, numbers, rows in groups.values():
        if numbers:
            at = np.asarray(numbers, dtype=np.int64)
            table = rows[0] if len(rows) == 1 else np.concatenate(rows)  # one: no copy
            out_groups.extend((geo, at[i : i + _CHUNK], table[i : i + _CHUNK])
                              for i in range(0, len(at), _CHUNK))
    return out_groups


# ----- searching and writing --------------------------------------------------------------


def _search(geo: Geometry, values: np.ndarray, limit: int | None, backend: BackendName,
            max_nodes: int | None,
            progress: Callable[[int], object] | None = None) -> BatchResult:
    """One batch over the empty grid's problem: instance k forces puzzle k's givens."""
    side = geo.side
    rows, cells = np.nonzero(values)
    indices = cells * side + values[rows, cells] - 1  # option cell * N + value - 1
    indptr = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=len(values)), out=indptr[1:])
    return empty_grid_problem(geo.layout).solve_batch(indptr=indptr, indices=indices, limit=limit,
                                                   max_nodes=max_nodes, backend=backend,
                                                   progress=progress)


def _decode(geo: Geometry, result: BatchResult, solved: np.ndarray) -> np.ndarray:
    """The grids of the solved instances. A solution has one option ``cell * N + value - 1``
    per cell, so its sorted options start with the cells in order; a killer's cage filling
    options, numbered from N**3 on, come after them and are dropped. A row where the first
    N*N are not the cells in order is left all 0, which [`are_solutions`][] rejects."""
    options = result.options
    if not solved.all():  # else no copy
        options = options[solved]
    cell, grids = np.divmod(options[:, : geo.cells], geo.side)  # one pass for both
    grids += 1
    grids[(cell != np.arange(geo.cells)).any(axis=1)] = 0
    return grids


def _format(geo: Geometry, grids: np.ndarray) -> list[str]:
    """One line of symbols per grid."""
    cells = geo.cells
    if not geo.alphabet.isascii():
        symbols = np.array(list(geo.alphabet))
        return ["".join(row) for row in symbols[grids - 1]]
    symbols = np.frombuffer(geo.alphabet.encode("ascii"), dtype=np.uint8)
    text = symbols[grids - 1].tobytes().decode("ascii")
    return [text[i : i + cells] for i in range(0, len(text), cells)]


def solved_mask(result: BatchResult, unique: bool) -> np.ndarray:
    """The instances that [`sudoku.solve_string`][] answers: a solution found (with
    ``unique``: exactly one, and the whole tree seen)."""
    if unique:
        return (result.found == 1) & (result.status == Status.COMPLETE)
    return result.found >= 1


def failure(geo: Geometry, values: list[int], result: BatchResult, k: int,
            unique: bool) -> SudokuError:
    """The error [`sudoku.solve_string`][] raises for instance ``k`` (not solved)."""
    return search_failure(geo, values, int(result.status[k]), int(result.found[k]),
                          int(result.nodes[k]), unique)
