"""sudoku: solve Sudoku boards in place through the ``dlx`` exact-cover engine.

Bad input to any call raises a [`SudokuError`][] (a ``ValueError``) whose message names
the argument, row, cell or symbol at fault (see [`sudoku.errors`][]), and a board that
cannot be solved, or written, is left exactly as it was given.

>>> import sudoku
>>> board = [list(row) for row in (
...     "53..7....", "6..195...", ".98....6.", "8...6...3", "4..8.3..1",
...     "7...2...6", ".6....28.", "...419..5", "....8..79")]
>>> _ = sudoku.solve(board)
>>> "".join(board[0])
'534678912'

Generating, rating and explaining ([`generate`][], [`rate`][], [`explain`][]):

>>> puzzle = sudoku.generate(9, difficulty="intermediate", symmetry="mirror", seed=7)
>>> rating = sudoku.rate(puzzle)
>>> rating.level, rating.qqwing, sudoku.count_solutions(puzzle, 2)
('intermediate', 'intermediate', 1)
>>> step = sudoku.hint(puzzle)
>>> step.technique in ("naked single", "hidden single")
True
"""

import dlx as _dlx

from .batch import count_many, solve_many
from .draw import draw_board, draw_step
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
from .explain import explain, hint
from .formats import read_variant, write_variant
from .generate import SYMMETRIES, generate, generate_killer, random_jigsaw
from .grid import DEFAULT_SYMBOLS, format_grid, parse_board, parse_string
from .grid import solves as is_solution
from .layout import Layout
from .rate import LEVELS, Rating, level_of, rate
from .solver import Solution, count_solutions, solve, solve_string, to_exact_cover
from .techniques import TECHNIQUES, Step

__version__ = _dlx.__version__
"""One distribution, one version: ``dlx.__version__``."""

__all__ = [
    "DEFAULT_SYMBOLS",
    "LEVELS",
    "SYMMETRIES",
    "TECHNIQUES",
    "AlphabetError",
    "ArgumentError",
    "ClashError",
    "FormatError",
    "Layout",
    "LayoutError",
    "MultipleSolutionsError",
    "NoSolutionError",
    "Rating",
    "ReadOnlyError",
    "SearchStoppedError",
    "ShapeError",
    "Solution",
    "Step",
    "SudokuError",
    "SymbolError",
    "count_many",
    "count_solutions",
    "draw_board",
    "draw_step",
    "explain",
    "format_grid",
    "generate",
    "generate_killer",
    "hint",
    "is_solution",
    "level_of",
    "parse_board",
    "parse_string",
    "random_jigsaw",
    "rate",
    "read_variant",
    "solve",
    "solve_many",
    "solve_string",
    "to_exact_cover",
    "write_variant",
]


def __dir__() -> list[str]:
    """The public names only, as ``dir(dlx)``: the submodules stay importable."""
    return sorted({*__all__, "__version__"})
