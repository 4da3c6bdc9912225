"""Baseline Sudoku solvers that the Dancing Links engine is compared against.

Each module has ``solve(puzzle) -> str | None`` and ``solve_counting(puzzle) -> Solved``,
which also reports the search nodes it visited. ``SOLVERS`` maps a name to the latter.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.grid import Solved
from benchmarks.solvers import algorithm_x_dict, backtracking, norvig

__all__ = ["SOLVERS"]

SOLVERS: dict[str, Callable[[str], Solved]] = {
    "backtracking": backtracking.solve_counting,
    "norvig": norvig.solve_counting,
    "algorithm_x_dict": algorithm_x_dict.solve_counting,
}
