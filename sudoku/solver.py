"""Solving: parse, force the givens on the empty grid's exact cover, let the engine choose
the other options, verify, write back.

The caller's board is written only after a verified solution is in hand, in one pass that
cannot fail, so every error leaves it exactly as it was given.
"""

from __future__ import annotations

from typing import Any

from .batch import count_of, failure, solved_mask
from .errors import SearchStoppedError
from .grid import Geometry, format_grid, is_solution, parse_board, parse_string, write_back
from .reduction import Reduction, decode, empty_grid_problem, givens

__all__ = ["Solution", "count_solutions", "solve", "solve_string", "to_exact_cover"]


def _parse_any(board: Any, alphabet: str | None) -> tuple[Geometry, list[int]]:
    """A board in any accepted kind, or a puzzle string: its geometry and flat values."""
    if isinstance(board, str):
        return parse_string(board, alphabet)
    geo, values, _ = parse_board(board, alphabet)
    return geo, values


def _solve_values(
    geo: Geometry,
    values: list[int],
    *,
    unique: bool,
    backend: str,
    max_nodes: int | None,
    timeout: float | None,
) -> list[int]:
    """The solved grid's values, or a SudokuError saying why there is none.

    The puzzle is a batch of one (``ExactCover.solve_batch``: forcing, search and undo in
    one kernel call, or a few with a timeout); its errors are those of
    :func:`sudoku.solve_many`.
    """
    result = empty_grid_problem(geo.box).solve_batch(
        [givens(geo, values)], limit=2 if unique else 1,
        max_nodes=max_nodes, timeout=timeout, backend=backend)
    chosen = result.solution(0)
    if chosen is None or (unique and not solved_mask(result, unique)[0]):
        raise failure(geo, values, result, 0, unique)
    solution = decode(geo, values, None, chosen)
    if not is_solution(geo, values, solution):  # an engine bug, never bad input
        raise AssertionError(f"engine returned an invalid grid: {format_grid(geo, solution)}")
    return solution


def solve(
    board: Any,
    *,
    unique: bool = False,
    alphabet: str | None = None,
    backend: str = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> Any:
    """Solve ``board`` in place and return it.

    ``board`` is a list of N lists of one-character strings (``'.'`` blank), a list of N
    lists of ints (0 blank), or an N x N numpy integer array. With ``unique=True``, raise
    MultipleSolutionsError unless the solution is unique. Raises a SudokuError (a
    ValueError) for a bad shape, a bad symbol, clashing givens or no solution; the board is
    then unchanged.
    """
    geo, values, kind = parse_board(board, alphabet)
    solution = _solve_values(geo, values, unique=unique, backend=backend,
                             max_nodes=max_nodes, timeout=timeout)
    write_back(board, geo, solution, kind)
    return board


def solve_string(
    puzzle: str,
    *,
    unique: bool = False,
    alphabet: str | None = None,
    backend: str = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> str:
    """Solve a puzzle given as text (see :func:`sudoku.grid.parse_string`); return one line."""
    geo, values = parse_string(puzzle, alphabet)
    solution = _solve_values(geo, values, unique=unique, backend=backend,
                             max_nodes=max_nodes, timeout=timeout)
    return format_grid(geo, solution)


def count_solutions(
    board: Any,
    limit: int | None = None,
    *,
    alphabet: str | None = None,
    backend: str = "auto",
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> int:
    """The number of solutions of a board or puzzle string (at most ``limit``).

    Clashing givens count as 0 solutions. A budget that runs out raises SearchStoppedError
    rather than returning a partial count. The count is a batch of one, as in :func:`solve`.
    """
    geo, values = _parse_any(board, alphabet)
    result = empty_grid_problem(geo.box).solve_batch(
        [givens(geo, values)], limit=limit, max_nodes=max_nodes,
        timeout=timeout, backend=backend)
    n = count_of(result, 0)
    if isinstance(n, SearchStoppedError):
        raise n
    return n


def to_exact_cover(board: Any, *, alphabet: str | None = None, givens: str = "reduce"):
    """The ``dlx.ExactCover`` of a board or puzzle string (729 x 324 for an empty 9x9).

    Its options are (cell, value) pairs in row-major order, value ascending; its items are
    named as in Knuth's programs (``p<r><c>``, ``r<r><d>``, ``c<c><d>``, ``b<b><d>``).
    See :mod:`sudoku.reduction` for how givens are handled.
    """
    geo, values = _parse_any(board, alphabet)
    return Reduction(geo, values, givens=givens).problem


class Solution:
    """LeetCode 37's interface: ``Solution().solveSudoku(board)`` fills ``board`` in place."""

    def solveSudoku(self, board: list[list[str]]) -> None:
        solve(board)
