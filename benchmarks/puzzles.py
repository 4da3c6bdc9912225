"""Public Sudoku puzzle sets: where they live, how to read them, how to check an answer.

The sets are not copied into this repository. They live in a shared data directory,
by default ``../shared/data/sudoku`` next to the repository root, which holds
``<set>.txt`` (one puzzle per line) and ``solutions/<set>.txt`` (the solution of each
line); its ``SOURCES.md`` says where every set comes from. Point elsewhere with the
``SUDOKU_PUZZLES`` environment variable or, in the benchmarks, ``pytest --puzzles DIR``.
``SUBSETS`` names fixed selections of lines of those files.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchmarks.grid import BLANKS, SYMBOLS, side, units

__all__ = [
    "DEFAULT_PUZZLE_DIR",
    "ENV_VAR",
    "SUBSETS",
    "is_solution",
    "load_set",
    "puzzle_dir",
    "read_puzzles",
    "set_path",
]

DEFAULT_PUZZLE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sudoku"
ENV_VAR = "SUDOKU_PUZZLES"

# Plain backtracking (solvers/backtracking.py) needs 393 M nodes, about 11 minutes, for all of
# norvig_top95; lines 4 and 40 alone take 112 M and 116 M. These are the 65 lines (0-based) it
# solves in at most 1,000,000 nodes each (12.3 M in all): it is benchmarked on them, next to
# the other solvers on the very same puzzles.
# fmt: off
_TOP95_SUB65 = (
    2, 3, 5, 10, 11, 12, 13, 18, 19, 21, 24, 26, 27, 28, 29, 30, 31, 32, 34, 36, 37, 39, 41,
    42, 43, 44, 46, 47, 48, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 62, 64, 65, 66, 67, 68,
    71, 72, 73, 74, 76, 77, 78, 79, 80, 81, 83, 84, 85, 86, 87, 89, 90, 91, 92, 93,
)
# fmt: on

SUBSETS: dict[str, tuple[str, tuple[int, ...]]] = {
    "norvig_top95_sub65": ("norvig_top95", _TOP95_SUB65),
}
"""Subset name -> (puzzle set, its line numbers), for sets too slow for some solver."""


def puzzle_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The puzzle directory: ``override`` if given, else ``$SUDOKU_PUZZLES``, else the default."""
    return Path(override or os.environ.get(ENV_VAR) or DEFAULT_PUZZLE_DIR)


def set_path(name: str, directory: str | os.PathLike[str] | None = None) -> Path:
    """The file of puzzle set ``name`` (e.g. ``"norvig_top95"``); it may not exist."""
    return puzzle_dir(directory) / f"{name}.txt"


def read_puzzles(path: str | os.PathLike[str]) -> list[str]:
    """One puzzle per line, stripped; blank lines and ``#`` comment lines are skipped."""
    with open(path, encoding="utf-8") as lines:
        return [line for line in map(str.strip, lines) if line and not line.startswith("#")]


def load_set(name: str, directory: str | os.PathLike[str] | None = None) -> list[str]:
    """The puzzles of set or subset ``name``; FileNotFoundError if its file is missing."""
    set_name, lines = SUBSETS.get(name, (name, None))
    puzzles = read_puzzles(set_path(set_name, directory))
    return puzzles if lines is None else [puzzles[i] for i in lines]


def is_solution(puzzle: str, solution: str | None) -> bool:
    """True if ``solution`` is a complete valid grid that keeps every given of ``puzzle``."""
    if solution is None or len(solution) != len(puzzle):
        return False
    n = side(puzzle)
    digits = set(SYMBOLS[:n])
    if any(given not in BLANKS and given != value for given, value in zip(puzzle, solution)):
        return False
    return all({solution[cell] for cell in unit} == digits for unit in units(n))
