"""Solving: check the arguments, parse, force the givens on the empty grid's exact cover,
let the engine choose the other options, verify, write back.

Every call checks its arguments first ([`sudoku.arguments`][]: budgets, backend; then the
alphabet and the board, [`sudoku.grid`][]), so bad input is a SudokuError naming the
culprit before anything is searched. [`solve`][] also checks that the board can be
written (no tuple rows, no read-only array) before the search, and writes it only after a
verified solution is in hand, undoing its writes if a row refuses one: every error leaves
the board exactly as it was given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np

from dlx import BackendName, BatchResult, ExactCover, InstanceSearch

from .arguments import Engine, count_budget, engine
from .batch import count_of, failure, solved_mask
from .codec import CODEC, checked_grid, rules
from .errors import ArgumentError, SearchStoppedError, SudokuError
from .grid import (
    Geometry,
    Layout,
    byte_values,
    check_writable,
    line_of,
    parse_board,
    parse_string,
    read_board,
    read_string,
    write_back,
)
from .hard import HARD, HARD_SIDE, count_hard, head_start, is_hard, solve_hard
from .reduction import GivensMode, Reduction, given_array, grid_search
from .rows import write_rows

__all__ = ["HARD", "HARD_SIDE", "Solution", "count_solutions", "solve",
           "solve_string", "to_exact_cover"]

def _parse_any(board: Any, alphabet: str | None,
               layout: Layout | None) -> tuple[Geometry, list[int]]:
    """A board in any accepted kind, or a puzzle string: its geometry and flat values."""
    if isinstance(board, str):
        return parse_string(board, alphabet, layout)
    geo, values, _ = parse_board(board, alphabet, layout)
    return geo, values


def _solve_values(geo: Geometry, given: bytes, *, unique: bool, engine: Engine,
                  text: bool = False) -> bytes:
    """The solved grid, a byte a cell: its values, or with ``text`` (an ASCII alphabet)
    its symbols; or a SudokuError saying why there is none.

    ``given`` holds the puzzle's values, a byte a cell ([`sudoku.grid.read_string`][]).
    The puzzle is an instance of the empty grid's problem, searched with the checked
    ``engine`` arguments ([`sudoku.arguments.Engine`][]) through
    [`sudoku.codec.CODEC`][]: its givens made into the options to force, the search, the
    grid decoded and checked, all in one compiled call on numba
    ([`dlx.InstanceSearch.through`][]); its errors are those of [`sudoku.solve_many`][].
    The engine's strategy ``"learn"``, and ``"auto"`` on a large board, search the
    learning way instead ([`sudoku.hard.solve_hard`][]), ``"auto"`` after a head start
    of the plain search ([`sudoku.hard.head_start`][]).
    """
    limit = 2 if unique else 1
    context = rules(geo.layout, geo.alphabet) if text else rules(geo.layout)
    strategy = engine.strategy
    if not is_hard(geo, strategy):
        return _searched(geo, given, grid_search(geo.layout, limit, engine), context, unique)
    result, engine, spent = head_start(geo, list(given), limit, engine) \
        if strategy == "auto" else (None, engine, 0)
    if result is None:
        solved = bytes(solve_hard(geo, list(given), unique=unique, engine=engine,
                                  spent=spent))
        return line_of(geo, solved).encode("ascii") if text else solved
    first = result.solution_view(0)
    grid = None if first is None else checked_grid(first, np.frombuffer(given, np.uint8),
                                                   context)  # in Python
    return _grid_bytes(geo, given, result, grid, unique)


_UINT8 = np.dtype(np.uint8)


def _searched(geo: Geometry, given: bytes, search: InstanceSearch, context: np.ndarray,
              unique: bool) -> bytes:
    """[`_solve_values`][] of a puzzle searched the plain way, by ``search`` (the
    layout's [`sudoku.reduction.grid_search`][]) through [`sudoku.codec.CODEC`][] with the
    rules ``context``. Without ``unique`` an answer is all it needs
    ([`dlx.InstanceSearch.answer`][]); the search's result only to say why there is
    none."""
    data = np.frombuffer(given, _UINT8)  # (a dtype, not np.uint8: 50 ns less)
    if unique:
        result, grid = search.through(CODEC, data, context)
        return _grid_bytes(geo, given, result, grid, unique)
    return _answered(geo, given, search.answer(CODEC, data, context), search, context)


def _answered(geo: Geometry, given: bytes, got: np.ndarray | BatchResult,
              search: InstanceSearch, context: np.ndarray) -> bytes:
    """The grid of [`dlx.InstanceSearch.answer`][]'s ``got`` for the puzzle ``given``
    (no ``unique``), or the SudokuError saying why there is none."""
    if isinstance(got, BatchResult):
        return _grid_bytes(geo, given, got, None, False)
    if len(got):
        return got.tobytes()
    # an answer the check refused (the engine's bug): the result, for the error
    return _grid_bytes(geo, given, *search.through(CODEC, np.frombuffer(given, _UINT8),
                                                   context), False)


def _grid_bytes(geo: Geometry, given: bytes, result: BatchResult, grid: np.ndarray | None,
                unique: bool) -> bytes:
    """The checked grid ``grid`` of ``result``'s first solution as bytes, or the
    SudokuError saying why there is none (an empty grid: the engine's bug)."""
    if grid is None or (unique and not solved_mask(result, unique)[0]):
        raise failure(geo, list(given), result, 0, unique)
    if len(grid):
        return grid.tobytes()
    # an engine bug, never bad input
    raise AssertionError(f"engine returned an invalid grid: {result.solution(0)}")


class _Line(NamedTuple):
    """What [`solve_string`][] needs to answer a line of one length with the default
    alphabet and layout, for one backend, strategy and ``unique``, no budget: made by
    the first such call once its arguments are checked, so that the next ones go
    straight to the search ([`_LINES`][])."""

    table: bytes  # bytes.translate: a symbol's byte to its value (sudoku.grid.byte_values)
    no_symbol: int  # what table gives a byte that is no symbol: then the general reading
    geo: Geometry
    search: InstanceSearch
    context: np.ndarray  # the rules, writing symbols (sudoku.codec.rules)
    answer: Callable[[np.ndarray], np.ndarray | BatchResult]  # search.answerer's


_LINES: dict[tuple[int, str, str, bool], _Line] = {}
"""[`_Line`][] by (the line's length, backend, strategy, ``unique``): at most a few dozen
(five sides, the backends, two strategies, two values of ``unique``). A call with
anything else (an alphabet, a layout, a budget, a drawn grid, a symbol the table does
not know) takes the general way, which checks and names what is wrong."""


def _remember_line(puzzle: str, geo: Geometry, unique: bool, backend: Any, strategy: Any,
                   engine: Engine) -> None:
    """Keep the [`_Line`][] of a call that read ``puzzle`` as a line of ``geo`` with the
    default alphabet and layout and no budget (``engine`` checked from ``backend`` and
    ``strategy``, given as str), unless the call is one that the strategy does not
    search the plain way."""
    if type(backend) is not str or strategy not in ("auto", "plain") \
            or len(puzzle) != geo.cells or is_hard(geo, engine.strategy):
        return
    read = byte_values(geo)
    if read is not None and engine.deadline is None:
        search = grid_search(geo.layout, 2 if unique else 1, engine)
        context = rules(geo.layout, geo.alphabet)
        _LINES[len(puzzle), backend, strategy, unique] = _Line(
            read[0], read[1], geo, search, context, search.answerer(CODEC, context))


Board = TypeVar("Board")
"""The type of the board given to [`solve`][], which returns that very board."""


def solve(
    board: Board,
    *,
    unique: bool = False,
    alphabet: str | None = None,
    layout: Layout | None = None,
    backend: BackendName = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
    strategy: str = "auto",
) -> Board:
    """Solve ``board`` in place and return it (typed as the board's own type).

    ``board`` is a list of N lists of one-character strings (``'.'`` blank), a list of N
    lists of ints (0 blank), or an N x N numpy array of integers or whole floats (0 blank).
    With ``unique=True``, raise MultipleSolutionsError unless the solution is unique.
    ``max_nodes`` (an int >= 0) and ``timeout`` (seconds >= 0) bound the search
    (SearchStoppedError); None, or a huge value, is no bound ([`dlx.count_budget`][],
    [`dlx.time_budget`][]: the same rule and messages as ``dlx``). Raises a SudokuError (a
    ValueError) for a bad argument (ArgumentError, AlphabetError), a bad shape, a board that
    cannot be written (ReadOnlyError: tuple rows, a read-only array), a bad symbol,
    clashing givens or no solution; the board is then unchanged.

    ``layout`` (a [`sudoku.Layout`][]) gives the rules: its units are the groups of
    cells that hold different symbols, e.g. ``Layout.x()`` for X-Sudoku or
    ``Layout.rect(2, 3)`` for 6x6 with 2 x 3 boxes. None: rows, columns and square boxes,
    the side given by the board (4, 9, 16, 25, 36).

    ``strategy`` says how to search, in ``dlx``'s words (`sudoku.arguments.STRATEGIES`):
    ``"plain"`` is Knuth's Algorithm X (the fewest options first, ties to the first
    item: fast on 9x9 and 16x16); ``"learn"`` reduces the puzzle's problem at its root
    (``dlx.ExactCover.preprocess``) and searches it by clause learning (each conflict
    analysed into a clause that forbids its cause), for large puzzles on which the plain
    search can run for hours; ``"auto"`` (the default; None too) lets the library
    choose: ``"learn"`` for boards of side 25 and more (`HARD_SIDE`), after
    `sudoku.hard.HEAD_NODES` nodes of ``"plain"`` (an easy puzzle ends there;
    ``max_nodes`` and ``timeout`` count both), else ``"plain"``. The old name ``"hard"``
    is ``"learn"``, with a DeprecationWarning.
    Every strategy finds only true solutions, and all of them: only the time differs.
    """
    checked = engine(backend, max_nodes, timeout, strategy)
    geo, given, kind = read_board(board, alphabet, layout)
    text = kind == "rows"  # LeetCode's board: lists, written a slice a row from the line
    if not text:
        check_writable(board, kind)
    solution = _solve_values(geo, given, unique=unique, engine=checked, text=text)
    if text:
        line = solution.decode("ascii")
        if write_rows(board, geo.side, line):
            return board
        # rows changed under the search (another thread): their kind, cell by cell
        solution, kind = read_string(line, geo.alphabet, geo.layout)[1], "str"
        check_writable(board, kind)
    write_back(board, geo, solution, kind)
    return board


def solve_string(
    puzzle: str,
    *,
    unique: bool = False,
    alphabet: str | None = None,
    layout: Layout | None = None,
    backend: BackendName = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
    strategy: str = "auto",
) -> str:
    """Solve a puzzle given as text (see [`sudoku.grid.parse_string`][]); return one line.
    Arguments and errors as for [`solve`][]; a ``puzzle`` that is not a str (bytes
    included: decode them first) is an ArgumentError."""
    plain = alphabet is None and layout is None and max_nodes is None and timeout is None \
        and type(puzzle) is str and type(backend) is str and type(strategy) is str
    if plain:
        line = _LINES.get((len(puzzle), backend, strategy, unique))  # see _Line
        if line is not None and puzzle.isascii():
            given = puzzle.encode("ascii").translate(line.table)
            if line.no_symbol not in given:
                if unique:
                    return _searched(line.geo, given, line.search, line.context,
                                     unique).decode("ascii")
                return _answered(line.geo, given, line.answer(np.frombuffer(given, _UINT8)),
                                 line.search, line.context).decode("ascii")
    checked = engine(backend, max_nodes, timeout, strategy)
    geo, given = read_string(puzzle, alphabet, layout)
    if plain:
        _remember_line(puzzle, geo, unique, backend, strategy, checked)
    text = geo.alphabet.isascii()
    solution = _solve_values(geo, given, unique=unique, engine=checked, text=text)
    return solution.decode("ascii") if text else line_of(geo, solution)


def count_solutions(
    board: Any,
    limit: int | None = None,
    *,
    alphabet: str | None = None,
    layout: Layout | None = None,
    backend: BackendName = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
    strategy: str = "auto",
) -> int:
    """The number of solutions of a board or puzzle string (at most ``limit``).

    Clashing givens count as 0 solutions. ``limit`` is an int >= 1 or None (all). A budget
    that runs out raises SearchStoppedError rather than returning a partial count. The
    count is a batch of one, as in [`solve`][]. The board is only read: tuple rows and
    read-only arrays are fine. ``strategy`` as for [`solve`][] (``"learn"`` counts the
    reduced problem's solutions by clause learning, each found once: the same count).
    """
    limit = count_budget(limit, "limit")
    checked = engine(backend, max_nodes, timeout, strategy)
    geo, values = _parse_any(board, alphabet, layout)
    strategy = checked.strategy
    result, spent = None, 0
    if is_hard(geo, strategy) and strategy == "auto":
        result, checked, spent = head_start(geo, values, limit, checked)
    if result is not None:
        n = count_of(result, 0)
    elif is_hard(geo, strategy):
        n = count_hard(geo, values, limit=limit, engine=checked, spent=spent)
    else:
        n = count_of(grid_search(geo.layout, limit, checked)(given_array(geo.side,
                                                                        bytes(values))), 0)
    if isinstance(n, SearchStoppedError):
        raise n
    return n


def to_exact_cover(board: Any, *, alphabet: str | None = None, layout: Layout | None = None,
                   givens: GivensMode = "reduce") -> ExactCover:
    """The ``dlx.ExactCover`` of a board or puzzle string (729 x 324 for an empty 9x9).

    Its options are (cell, value) pairs in row-major order, value ascending; its items are
    named as in Knuth's programs (``p<r><c>``, ``r<r><d>``, ``c<c><d>``, ``b<b><d>``), then
    the other units of ``layout`` (see `sudoku.layout`).
    See `sudoku.reduction` for how givens are handled: ``givens`` is ``"reduce"`` or
    ``"select"`` (ArgumentError otherwise).
    """
    geo, values = _parse_any(board, alphabet, layout)
    try:
        return Reduction(geo, values, givens=givens).problem
    except SudokuError:  # a ClashError: the givens are fine as an argument
        raise
    except ValueError as e:  # Reduction's own check of ``givens``, which it names
        raise ArgumentError(str(e)) from None


class Solution:
    """LeetCode 37's interface: ``Solution().solveSudoku(board)`` fills ``board`` in place."""

    def solveSudoku(self, board: list[list[str]]) -> None:
        solve(board)
