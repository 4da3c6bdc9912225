"""Exceptions of the Sudoku adapter. On any of them the caller's board is left untouched."""

from __future__ import annotations

__all__ = [
    "ClashError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "SearchStoppedError",
    "ShapeError",
    "SudokuError",
    "SymbolError",
]


class SudokuError(ValueError):
    """Base class: the board cannot be solved as asked."""


class ShapeError(SudokuError):
    """The board is not an N x N grid with N = n*n for a box size n in 2..6."""


class SymbolError(SudokuError):
    """A cell holds something that is neither a blank nor a symbol of the alphabet."""


class ClashError(SudokuError):
    """Two givens put the same symbol twice in one row, column or box."""


class NoSolutionError(SudokuError):
    """The givens are consistent with each other, but no grid completes them."""


class MultipleSolutionsError(SudokuError):
    """Uniqueness was required and the puzzle has more than one solution."""


class SearchStoppedError(SudokuError):
    """A budget (``max_nodes`` or ``timeout``) ran out before the search could decide."""
