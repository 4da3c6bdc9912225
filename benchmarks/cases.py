"""What the benchmarks run: the Sudoku sets, the exact-cover problems, and which runs are long.

Every solver of a group runs on the same input, so that one table compares them: the Sudoku
groups ``sudoku-<set>`` on the sets of ``SUDOKU_SETS``, the exact-cover groups
``exact-cover-<name>`` on the ``.dlx`` files of ``EXACT_COVER_CASES``. A run listed in
``LONG`` is marked ``long``: it is skipped unless pytest is given ``--long``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import dlx

__all__ = [
    "EXACT_COVER_CASES",
    "EXACT_COVER_DIR",
    "LONG",
    "SUDOKU_SETS",
    "ExactCoverCase",
    "is_long",
    "load_kernel",
    "numba_available",
    "param",
]

SUDOKU_SETS = ("norvig_hardest", "euler96_easy50", "norvig_top95", "norvig_top95_sub65")
"""Sudoku sets (or subsets, see ``puzzles.SUBSETS``) that every Sudoku solver runs on."""

EXACT_COVER_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "exact_cover"


class ExactCoverCase(NamedTuple):
    """A ``.dlx`` file of ``EXACT_COVER_DIR`` and its number of solutions (its SOURCES.md)."""

    name: str
    solutions: int

    @property
    def path(self) -> Path:
        return EXACT_COVER_DIR / f"{self.name}.dlx"

    @property
    def group(self) -> str:
        return f"exact-cover-{self.name}"


EXACT_COVER_CASES = (
    ExactCoverCase("queens10", 724),  # secondary items (the diagonals)
    ExactCoverCase("queens12", 14_200),
    ExactCoverCase("langford10", 0),  # the whole tree, no solution at its leaves
    ExactCoverCase("langford11", 35_584),
    ExactCoverCase("pentomino_3x20", 8),  # long options: 310 updates per node
    ExactCoverCase("pentomino_6x10_sym", 2_339),
)

LONG: dict[tuple[str, str], str] = {
    ("backtracking", "norvig_top95"): "about 11 minutes a round (see norvig_top95_sub65)",
    ("algorithm_x_dict", "pentomino_6x10_sym"): "about 75 s a round (dicts of sets)",
    ("xcover", "cold-start-compile"): "about 25 s a round: xcover compiles two kernels",
    ("dlx-python solve_many", "royle_17clue"): "about a minute a round (49,158 puzzles)",
}
"""(solver, set or case) -> why it is long: run only with ``--long``."""


def is_long(solver: str, case: str) -> str | None:
    """Why ``solver`` on ``case`` is long, or None if it runs by default."""
    return LONG.get((solver, case))


def param(solver: str, case: str, *values: Any) -> Any:
    """``pytest.param(*values)`` with id ``<case>-<solver>``, marked ``long`` if it is."""
    why = is_long(solver, case)
    return pytest.param(
        *values, marks=[pytest.mark.long(why)] if why else [], id=f"{case}-{solver}"
    )


def numba_available() -> bool:
    """True when the ``numba`` backend can run here (the ``fast`` extra is installed)."""
    try:
        dlx.get_backend("numba")
    except ImportError:
        return False
    return True


def load_kernel(call: Callable[[], object]) -> None:
    """Run ``call`` once, untimed, so that the kernel is loaded (or compiled) before the
    timing starts; a small budget (``max_nodes``) running out is the point of such a call,
    so its ``dlx.SearchStoppedError`` (sudoku's is a subclass) is not an error here."""
    with contextlib.suppress(dlx.SearchStoppedError):
        call()
