"""Many puzzles at once: one batch search per grid size (see [`dlx.batch`][]).

A puzzle is the empty grid's exact cover with its givens' options forced, so a whole file
of puzzles is one problem and many instances: ``ExactCover.solve_batch`` solves them all
in one kernel call. Around it everything is numpy over all puzzles at once: reading the
one-line puzzles (rows of N*N symbols), listing their givens' options, decoding the
solutions, checking every answer ([`sudoku.grid.are_solutions`][]) and writing them out.
A puzzle that fails gets the very error [`sudoku.solve_string`][] raises for it.

[`solve_many`][] and [`count_many`][] are one call with two kinds of answer: the same
prologue checks their arguments ([`sudoku.arguments.engine`][]: one
[`sudoku.arguments.Engine`][], its deadline the call's ``timeout``), the same loop
searches the puzzles (the batch, then the learning way for those it leaves), and the same
record tells their progress (a [`dlx.RunProgress`][]).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from dlx import BatchResult, RunProgress, Status
from dlx.command import map_ordered

from .arguments import Engine, ProgressCallback, callable_arg, count_budget, engine, puzzle_list
from .errors import ArgumentError, SearchStoppedError, SudokuError
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
from .hard import count_hard, head_nodes, is_hard, solve_hard
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
    backend: str = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
    executor: Executor | None = None,
    progress: ProgressCallback | None = None,
    strategy: str = "auto",
) -> list[str | SudokuError]:
    """Solve puzzle strings in bulk; per puzzle, its solution as one line, or the
    SudokuError [`sudoku.solve_string`][] would raise (returned, not raised).

    ``puzzles`` is any iterable of str (a list, a generator, a file's lines), not a single
    str. Each puzzle is a row of N*N symbols or a drawn grid, as for ``solve_string``;
    sizes may be mixed. An item that is not a str, or an ``alphabet`` that does not fit a
    puzzle (AlphabetError), is that puzzle's error, as it is ``solve_string``'s; so is a
    blank line or a ``#`` comment line (ArgumentError: they are no puzzles; leave them
    out, as the ``sudoku`` command does, which echoes them instead of an answer).
    ``unique=True`` returns MultipleSolutionsError for a puzzle with more than one
    solution. ``max_nodes`` bounds each puzzle's search; ``timeout`` (seconds) bounds the
    whole call, as ``dlx.ExactCover.solve_batch``'s does: the puzzle under way when it
    runs out, and every later one, get SearchStoppedError. ``layout`` gives the rules,
    as for [`sudoku.solve`][]. ``executor`` (any ``concurrent.futures.Executor``:
    processes, a Dask cluster's, Ray's) solves chunks of the puzzles there, the answers
    still in input order (the ``timeout`` then ends at the same wall-clock time on every
    worker). ``progress``, if given, is called from time to time (about 5 times a second,
    or once a chunk on an executor) with a [`dlx.RunProgress`][]: ``done`` of ``parts``
    puzzles, the ``solutions`` found and the ``nodes`` searched so far, the
    ``seconds`` since the call began, for a progress line. ``strategy`` is that of
    [`sudoku.solve`][]: ``"auto"`` (the default) searches all in one batch search, the
    puzzles of side 25 and more for `sudoku.hard.HEAD_NODES` nodes each and those it
    leaves undecided then the learning way, one by one, as [`sudoku.solve_string`][]
    does; ``"plain"`` all in the batch; ``"learn"`` (formerly ``"hard"``) all one by
    one, each as [`sudoku.solve_string`][] does with ``strategy="learn"``. The arguments
    of the call itself (``puzzles``, ``layout``, ``backend``, ``max_nodes``,
    ``timeout``, ``executor``, ``progress``, ``strategy``) raise ArgumentError.
    """
    call = _Call.checked(puzzles, layout, backend, max_nodes, timeout, strategy, executor,
                         progress)
    return call.run(_Solve(unique), alphabet, layout)


def count_many(
    puzzles: Iterable[str],
    limit: int | None = None,
    *,
    alphabet: str | None = None,
    layout: Layout | None = None,
    backend: str = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
    executor: Executor | None = None,
    progress: ProgressCallback | None = None,
    strategy: str = "auto",
) -> list[int | SudokuError]:
    """Count the solutions of puzzle strings in bulk (each at most ``limit``), as
    [`sudoku.count_solutions`][] does: clashing givens count 0; a bad puzzle, or a
    budget that ran out, gives its SudokuError (returned, not raised). Arguments as for
    [`solve_many`][] (``progress``'s ``solutions`` are the solutions counted); a bad
    ``limit`` raises ArgumentError."""
    limit = count_budget(limit, "limit")
    call = _Call.checked(puzzles, layout, backend, max_nodes, timeout, strategy, executor,
                         progress)
    return call.run(_Count(limit), alphabet, layout)


# ----- the one call: its prologue, its loop, its progress -----------------------------------


class _Kind(Protocol):
    """What a batch call answers per puzzle: ``solve_many``'s grids or ``count_many``'s
    counts."""

    @property
    def limit(self) -> int: ...

    def decided(self, geo: Geometry, values: np.ndarray, result: BatchResult,
                mask: np.ndarray, where: np.ndarray, out: list[Any]) -> None: ...

    def learned(self, geo: Geometry, values: list[int], engine: Engine, spent: int,
                tally: Callable[[int, int], object]) -> Any: ...


@dataclass(frozen=True)
class _Solve:
    """``solve_many``'s answers: a solution on one line, or the error."""

    unique: bool

    @property
    def limit(self) -> int:
        return 2 if self.unique else 1

    def decided(self, geo: Geometry, values: np.ndarray, result: BatchResult,
                mask: np.ndarray, where: np.ndarray, out: list[Any]) -> None:
        """The answers of the instances of ``result`` in ``mask``, into ``out`` at their
        puzzles' places (``where``): the grids decoded and checked, all at once."""
        unique = self.unique
        solved = solved_mask(result, unique) & mask
        grids = _decode(geo, result, solved)
        ok = are_solutions(geo, values[solved], grids)
        if not ok.all():  # an engine bug, never bad input
            k = int(np.flatnonzero(~ok)[0])
            raise AssertionError(f"engine returned an invalid grid: {grids[k].tolist()}")
        places = where.tolist()
        for k, text in zip(np.flatnonzero(solved).tolist(), _format(geo, grids)):
            out[places[k]] = text
        for k in np.flatnonzero(~solved & mask).tolist():
            out[places[k]] = failure(geo, values[k].tolist(), result, k, unique)

    def learned(self, geo: Geometry, values: list[int], engine: Engine, spent: int,
                tally: Callable[[int, int], object]) -> str | SudokuError:
        """One puzzle the learning way, as [`sudoku.solve_string`][] answers it
        (``spent``: nodes searched before, as for `sudoku.hard.solve_hard`)."""
        try:
            return format_grid(geo, solve_hard(geo, values, unique=self.unique, engine=engine,
                                               spent=spent, tally=tally))
        except SudokuError as e:
            return e


@dataclass(frozen=True)
class _Count:
    """``count_many``'s answers: a count, or the error."""

    limit: int

    def decided(self, geo: Geometry, values: np.ndarray, result: BatchResult,
                mask: np.ndarray, where: np.ndarray, out: list[Any]) -> None:
        places = where.tolist()
        for k in np.flatnonzero(mask).tolist():
            out[places[k]] = count_of(result, k)

    def learned(self, geo: Geometry, values: list[int], engine: Engine, spent: int,
                tally: Callable[[int, int], object]) -> int | SudokuError:
        return count_hard(geo, values, limit=self.limit, engine=engine, spent=spent,
                          tally=tally)


@dataclass(frozen=True)
class _Call:
    """One call of ``solve_many`` or ``count_many``, its arguments checked."""

    puzzles: list[Any]
    engine: Engine
    executor: Executor | None
    progress: ProgressCallback | None

    @classmethod
    def checked(cls, puzzles: Any, layout: Any, backend: Any, max_nodes: Any, timeout: Any,
                strategy: Any, executor: Any, progress: Any) -> _Call:
        """The prologue both calls share: every argument of the call checked, in the
        order of the signature, before any puzzle is read."""
        listed = puzzle_list(puzzles)
        check_layout(layout)
        checked = engine(backend, max_nodes, timeout, strategy, stacklevel=3)
        if executor is not None and not isinstance(executor, Executor):
            raise ArgumentError(f"executor must be a concurrent.futures.Executor, got "
                                f"{executor!r}")
        return cls(listed, checked, executor, callable_arg(progress, "progress"))

    def run(self, kind: _Kind, alphabet: Any, layout: Layout | None) -> list[Any]:
        """The answers, here or on the executor."""
        run = _Run(self.progress, len(self.puzzles))
        if self.executor is None:
            out = _answers(kind, self.puzzles, alphabet, layout, self.engine, run)
        else:
            out = _on_executor(self.executor, kind, self.puzzles, alphabet, layout,
                               self.engine, run)
        run.tell(len(self.puzzles))
        return out


def _answers(kind: _Kind, puzzles: Sequence[Any], alphabet: Any, layout: Layout | None,
             engine: Engine, run: _Run) -> list[Any]:
    """Every puzzle's answer (``kind``'s), in order: per grid size the batch search, and
    the learning way for the puzzles the strategy gives it (all of them for ``learn``;
    for ``auto`` on a large board, those the head start leaves undecided)."""
    out: list[Any] = [None] * len(puzzles)
    for geo, where, values in _parse(puzzles, alphabet, layout, out):
        if engine.strategy == "learn":
            result, later = None, np.ones(len(values), dtype=bool)
        else:
            result, later = _head_start(geo, values, kind.limit, engine, run.hook())
            decided = ~later
            kind.decided(geo, values, result, decided, where, out)
            run.finished(int(decided.sum()), int(result.found[decided].sum()),
                         int(result.nodes.sum()))
        places = where.tolist()
        for k in np.flatnonzero(later).tolist():
            spent = 0 if result is None else int(result.nodes[k])
            found = [0, 0]

            def tally(solutions: int, nodes: int, found: list[int] = found) -> None:
                found[0], found[1] = solutions, nodes

            out[places[k]] = kind.learned(geo, values[k].tolist(), engine.less(spent), spent,
                                          tally)
            run.finished(1, found[0], found[1])
    return out


def _head_start(geo: Geometry, values: np.ndarray, limit: int, engine: Engine,
                progress: ProgressCallback | None) -> tuple[BatchResult, np.ndarray]:
    """The batch search of the puzzles, and which of them are left for the learning
    way: for ``"auto"`` on a large board, each puzzle gets `sudoku.hard.HEAD_NODES`
    nodes of the plain search first, as [`sudoku.solve_string`][] gives it (an easy
    large puzzle ends there); those it does not decide, within the caller's
    ``max_nodes``, are left. ``progress`` hears of the batch when it decides every
    puzzle it ends (no head start: a head start's instances are not done when it ends)."""
    budget = engine.max_nodes
    head = is_hard(geo, engine.strategy)
    nodes = head_nodes(budget) if head else budget
    result = _search(geo, values, limit, engine, nodes, None if head else progress)
    later = np.zeros(len(values), dtype=bool)
    if head and nodes != budget:
        later = result.status == Status.MAX_NODES
    return result, later


def _on_executor(executor: Executor, kind: _Kind, puzzles: list[Any], alphabet: Any,
                 layout: Layout | None, engine: Engine, run: _Run) -> list[Any]:
    """The answers of chunks of [`_CHUNK`][] puzzles, each by [`_chunk`][] on
    ``executor``, in order (each worker builds each grid size's problem once, in its own
    cache); ``run`` hears of each chunk as it comes back. The deadline travels as a
    wall-clock time, which every worker reads on its own clock."""
    seconds = engine.left()
    until = None if seconds is None else time.time() + seconds
    tasks = [(kind, alphabet, layout, engine, until, puzzles[i : i + _CHUNK])
             for i in range(0, len(puzzles), _CHUNK)]
    out: list[Any] = []
    for answers, solutions, nodes in map_ordered(executor, _chunk, tasks):
        out.extend(answers)
        run.finished(len(answers), solutions, nodes)
    return out


def _chunk(kind: _Kind, alphabet: Any, layout: Layout | None, engine: Engine,
           until: float | None, puzzles: list[Any]) -> tuple[list[Any], int, int]:
    """One chunk's answers on a worker, with the solutions found and the nodes searched;
    its deadline ``until`` (``time.time()``; None: none) made this process's."""
    if until is not None:
        engine = engine.with_time(max(0.0, until - time.time()))
    run = _Run(None, len(puzzles))
    answers = _answers(kind, puzzles, alphabet, layout, engine, run)
    return answers, run.solutions, run.nodes


class _Run:
    """What one call has done so far, across its batches and its puzzles searched one by
    one: puzzles done, solutions found, nodes searched; told to its ``progress``
    callback as a [`dlx.RunProgress`][] (``parts``: the puzzles in all)."""

    def __init__(self, progress: ProgressCallback | None, parts: int) -> None:
        self.progress = progress
        self.parts = parts
        self.start = time.perf_counter()
        self.done = self.solutions = self.nodes = 0

    def tell(self, done: int, solutions: int | None = None, nodes: int | None = None) -> None:
        """Call ``progress`` (if any) with ``done`` puzzles and, unless given, the
        solutions and nodes so far."""
        if self.progress is None:
            return
        seconds = time.perf_counter() - self.start
        rest = seconds * (self.parts - done) / done if done > 0 else None  # at this rate
        self.progress(RunProgress(
            done=done, parts=self.parts,
            solutions=self.solutions if solutions is None else solutions,
            nodes=self.nodes if nodes is None else nodes, seconds=seconds, left=rest))

    def finished(self, puzzles: int, solutions: int, nodes: int) -> None:
        """``puzzles`` more are answered, with ``solutions`` found and ``nodes``
        searched."""
        self.done += puzzles
        self.solutions += solutions
        self.nodes += nodes
        self.tell(self.done)

    def hook(self) -> ProgressCallback | None:
        """The callback for the next batch search, which tells what it has done so far
        (a [`dlx.RunProgress`][] of its instances), added to what the call had done
        before it."""
        if self.progress is None:
            return None
        done, solutions, nodes = self.done, self.solutions, self.nodes

        def hook(report: RunProgress) -> None:
            self.tell(done + report.done, solutions + report.solutions, nodes + report.nodes)

        return hook


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


def _search(geo: Geometry, values: np.ndarray, limit: int, engine: Engine, max_nodes: int,
            progress: ProgressCallback | None = None) -> BatchResult:
    """One batch over the empty grid's problem: instance k forces puzzle k's givens, with
    ``max_nodes`` each and the time left of the call's deadline for all."""
    side = geo.side
    rows, cells = np.nonzero(values)
    indices = cells * side + values[rows, cells] - 1  # option cell * N + value - 1
    indptr = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=len(values)), out=indptr[1:])
    return empty_grid_problem(geo.layout).solve_batch(indptr=indptr, indices=indices,
                                                      limit=limit, progress=progress,
                                                      **engine.budgets(max_nodes))


def _decode(geo: Geometry, result: BatchResult, solved: np.ndarray) -> np.ndarray:
    """The grids of the solved instances. A solution has one option ``cell * N + value - 1``
    per cell, so its sorted options start with the cells in order; a killer's cage filling
    options, numbered from N**3 on, come after them and are dropped. So the value of cell
    ``c`` is its option less ``c * N``, plus 1 (a subtraction: a division by N cost a
    batch of 17-clue puzzles 1.5 us a puzzle); a row where that is not in 1..N (the
    first N*N are not the cells in order) is left all 0, which [`are_solutions`][]
    rejects."""
    options = result.options
    if not solved.all():  # else no copy
        options = options[solved]
    grids = options[:, : geo.cells] - _cell_bases(geo.side)
    bad = ((grids < 0) | (grids >= geo.side)).any(axis=1)
    grids += 1
    grids[bad] = 0
    return grids


@lru_cache(maxsize=CACHE_SIZE)
def _cell_bases(side: int) -> np.ndarray:
    """``cell * N`` for every cell (read only): the first option of each cell."""
    bases = np.arange(side * side, dtype=np.int64) * side
    bases.flags.writeable = False
    return bases


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
