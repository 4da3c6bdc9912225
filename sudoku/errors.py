"""Exceptions of the Sudoku adapter. On any of them the caller's board is left untouched.

Every public call of `sudoku` raises only these for bad input (never a TypeError,
an AttributeError or numpy's own errors), each a ``ValueError``, and each message names the
argument, the row, the cell or the symbol at fault::

    SudokuError
    ├── ShapeError            the board is not an N x N grid of rows
    │   └── ReadOnlyError     the board cannot be written in place (tuples, read-only array)
    ├── SymbolError           a cell holds neither a blank nor a symbol
    │   └── AlphabetError     the alphabet itself is unusable
    ├── ArgumentError         another argument is of the wrong type or out of range
    ├── LayoutError           a layout's units or a jigsaw's region map are not valid
    ├── FormatError           a variant line (jigsaw, killer...) is malformed
    ├── ClashError            two givens share a row, column or box
    ├── NoSolutionError       no grid completes the givens
    ├── MultipleSolutionsError
    └── SearchStoppedError    a budget ran out before the puzzle was decided
"""

from __future__ import annotations

import reprlib
from typing import Any

import dlx

__all__ = [
    "AlphabetError",
    "ArgumentError",
    "ClashError",
    "FormatError",
    "LayoutError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "ReadOnlyError",
    "SearchStoppedError",
    "ShapeError",
    "SudokuError",
    "SymbolError",
    "culprit",
]

_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 60


def culprit(value: Any) -> str:
    """``repr(value)`` for a message, cut short: a message names a bad value, it does not
    copy a megabyte of it."""
    return _repr.repr(value)


class SudokuError(ValueError):
    """Base class: the board cannot be solved as asked."""


class ShapeError(SudokuError):
    """The board is not an N x N grid with N = n*n for a box size n in 2..6 (or, with a
    ``layout``, N its side): not a list (or other sequence) of N rows of N cells, nor an
    N x N numpy array."""


class ReadOnlyError(ShapeError):
    """[`sudoku.solve`][] cannot write the answer into the board: a row is immutable (a
    tuple, a str...) or a numpy array (or row) is read-only. Checked before the search, so
    nothing is ever half-written; reading calls ([`sudoku.count_solutions`][]) accept
    such boards."""


class SymbolError(SudokuError):
    """A cell holds something that is neither a blank nor a symbol of the alphabet."""


class AlphabetError(SymbolError):
    """The ``alphabet`` is unusable: not a str, a length that is no grid side (4, 9, 16, 25,
    36) or not the puzzle's, a repeated symbol, or a character that puzzle text uses for
    something else (``.`` for a blank; whitespace, ``|``, ``-``, ``+`` in drawn grids; ``#``
    for comments in puzzle files) or that cannot be printed. A subclass of SymbolError,
    which is what bad alphabets raised before it existed."""


class ArgumentError(SudokuError, dlx.ArgumentError):
    """An argument other than the board or the alphabet is of the wrong type or out of
    range: a budget (``limit``, ``max_nodes``, ``timeout``), ``backend``, ``givens``, or a
    puzzle that is not a str (``solve_string``; each item of ``solve_many``). It is also a
    [`dlx.ArgumentError`][], the engine's error for the same mistakes."""


class LayoutError(SudokuError):
    """A layout ([`sudoku.Layout`][]) is not a valid set of rules: a unit without N
    distinct cells of the grid, or a jigsaw region map with the wrong number of regions, a
    region of the wrong size, or a region that is not connected. The message names the
    unit or region."""


class FormatError(SudokuError):
    """A line of a variant format ([`sudoku.formats.read_variant`][]: jigsaw, killer, X,
    Windoku, rectangular boxes) is malformed: the wrong number of fields, a map of the
    wrong length, a label out of order, a sum that is not an int, as many sums as labels...
    The message names the field and the position at fault."""


class ClashError(SudokuError):
    """Two givens put the same symbol twice in one unit: a row, column or box (or another
    unit of the layout: a diagonal, a window, a region)."""


class NoSolutionError(SudokuError):
    """The givens are consistent with each other, but no grid completes them."""


class MultipleSolutionsError(SudokuError):
    """Uniqueness was required and the puzzle has more than one solution."""


class SearchStoppedError(SudokuError, dlx.SearchStoppedError):
    """A budget (``max_nodes`` or ``timeout``) ran out before the search could decide.
    It is also a [`dlx.SearchStoppedError`][] (one rule for budgets in both packages:
    a call that returns the answer raises; ``solve_many``/``count_many`` return it per
    puzzle)."""
