"""sudoku: solve Sudoku boards in place through the ``dlx`` exact-cover engine.

Bad input to any call raises a :class:`SudokuError` (a ``ValueError``) whose message names
the argument, row, cell or symbol at fault (see :mod:`sudoku.errors`), and a board that
cannot be solved, or written, is left exactly as it was given.

>>> import sudoku
>>> board = [list(row) for row in (
...     "53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1",
...     "7...2...6", ".6....28.", "...419..5", "....8..79")]
>>> _ = sudoku.solve(board)
>>> "".join(board[0])
'534678912'
"""

import dlx as _dlx

from .batch import count_many, solve_many
from .draw import draw_board
from .errors import (
    AlphabetError,
    ArgumentError,
    ClashError,
    FormatError,
    LayoutError,
    MultipleSolutionsError,
    NoSolutionError,
    ReadOnlyError,
    SearchStoppedError,
    ShapeError,
    SudokuError,
    SymbolError,
)
from .formats import read_variant, write_variant
from .grid import DEFAULT_SYMBOLS, format_grid, is_solution, parse_board, parse_string
from .layout import Layout
from .solver import Solution, count_solutions, solve, solve_string, to_exact_cover

__version__ = _dlx.__version__
"""One distribution, one version: ``dlx.__version__``."""

__all__ = [
    "DEFAULT_SYMBOLS",
    "AlphabetError",
    "ArgumentError",
    "ClashError",
    "FormatError",
    "Layout",
    "LayoutError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "ReadOnlyError",
    "SearchStoppedError",
    "ShapeError",
    "Solution",
    "SudokuError",
    "SymbolError",
    "count_many",
    "count_solutions",
    "draw_board",
    "format_grid",
    "is_solution",
    "parse_board",
    "parse_string",
    "read_variant",
    "solve",
    "solve_many",
    "solve_string",
    "to_exact_cover",
    "write_variant",
]
