"""Public Sudoku puzzle sets: where they live, how to read them, how to check an answer.

The sets are not copied into this repository. They live in a shared data directory,
by default ``../shared/data/sudoku`` next to the repository root, which holds
``<set>.txt`` (one puzzle per line) and ``solutions/<set>.txt`` (the solution of each
line); its ``SOURCES.md`` says where every set comes from. Point elsewhere with the
``SUDOKU_PUZZLES`` environment variable or, in the benchmarks, ``pytest --puzzles DIR``.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchmarks.grid import BLANKS, SYMBOLS, side, units

__all__ = ["DEFAULT_PUZZLE_DIR", "ENV_VAR", "is_solution", "puzzle_dir", "read_puzzles", "set_path"]

DEFAULT_PUZZLE_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sudoku"
ENV_VAR = "SUDOKU_PUZZLES"


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


def is_solution(puzzle: str, solution: str | None) -> bool:
    """True if ``solution`` is a complete valid grid that keeps every given of ``puzzle``."""
    if solution is None or len(solution) != len(puzzle):
        return False
    n = side(puzzle)
    digits = set(SYMBOLS[:n])
    if any(given not in BLANKS and given != value for given, value in zip(puzzle, solution)):
        return False
    return all({solution[cell] for cell in unit} == digits for unit in units(n))
