"""LeetCode 37's board, read and written a row at a time: a list of N lists of N
one-character strings, the common case of [`sudoku.solve`][].

[`sudoku.grid.parse_board`][] and [`sudoku.grid.write_back`][] take any board (rows of
any sequence type, ints, numpy) cell by cell, with a check and a message for each fault.
For a board that is exactly a list of lists of ASCII symbols, the same reading is one
``join`` and one ``bytes.translate`` (as [`sudoku.parse_string`][] reads a line), and the
writing one slice assignment per row, which cannot fail on a ``list``: 10-13 us less a
call (``docs/decisions.md``, "The one call, third round"). Anything else (a tuple row, an
int cell, a bad symbol) returns None here, and the general code reads it and names the
fault.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

__all__ = ["read_rows", "write_rows"]


def _lists(board: Any, side: int) -> bool:
    """``board`` is a list of ``side`` lists of ``side`` cells each."""
    return type(board) is list and len(board) == side \
        and set(map(type, board)) == {list} and set(map(len, board)) == {side}


def read_rows(board: Any, side: int, table: bytes | None, blank: int) -> bytes | None:
    """The values of ``board`` (a byte a cell, 0 blank) when it is a list of ``side``
    distinct lists of ``side`` one-character ASCII strings, all symbols of ``table``
    (``bytes.translate``'s table from a symbol to its value, ``blank`` for no symbol);
    else None."""
    if table is None or not _lists(board, side) or len(set(map(id, board))) != side:
        return None  # (a row given twice: the general reading names it)
    try:  # the cells, a NUL between two: every cell one character exactly when ...
        text = "\0".join(chain.from_iterable(board))
    except TypeError:  # a cell that is not a str
        return None
    # ... the cells' lengths add up to N*N and no cell is empty; an empty cell puts two
    # NULs side by side, one of them at an even place, and NUL is no symbol
    if len(text) != 2 * side * side - 1 or not text.isascii():
        return None
    read = text[0::2].encode("ascii").translate(table)
    return None if blank in read else read


def write_rows(board: Any, side: int, line: str) -> bool:
    """Write the solved ``line`` (N*N symbols) into ``board`` a row at a time when it is a
    list of N rows that are exactly lists (a slice assignment cannot fail then, whatever
    a row's length); False, writing nothing, otherwise. The rows take slices of one list
    of the symbols (0.6 us less than slices of the line, which each become a list)."""
    if type(board) is not list or len(board) != side or set(map(type, board)) != {list} \
            or len(line) != side * side:
        return False
    cells = list(line)
    for r, row in enumerate(board):
        row[:] = cells[r * side : (r + 1) * side]
    return True
