"""Grid vocabulary shared by the baseline solvers and the puzzle tooling.

A puzzle is a row-major string of ``n * n`` characters for an ``n x n`` grid with
``sqrt(n) x sqrt(n)`` boxes (n = 4, 9, 16, 25). Digits are the first ``n`` of
``SYMBOLS`` (``1``-``9`` then ``A``=10 ... ``P``=25); ``.`` or ``0`` is a blank.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import isqrt
from typing import NamedTuple

__all__ = ["BLANKS", "SYMBOLS", "Solved", "coordinates", "format_grid", "parse", "side", "units"]

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
BLANKS = ".0"


class Solved(NamedTuple):
    """What a counting solver returns: the solution (None if there is none) and its work."""

    solution: str | None
    nodes: int
    """Search-tree nodes: tentative placements made while searching (givens excluded)."""


def side(puzzle: str) -> int:
    """Return ``n`` for an ``n x n`` puzzle string; ValueError if the length fits no grid."""
    n = isqrt(len(puzzle))
    if not 4 <= n <= len(SYMBOLS) or isqrt(n) ** 4 != len(puzzle):
        raise ValueError(f"a puzzle has 16, 81, 256 or 625 characters, not {len(puzzle)}")
    return n


def parse(puzzle: str) -> list[int]:
    """Return the cell values of ``puzzle``, 0 for a blank; ValueError on a bad character."""
    n = side(puzzle)
    digits = {symbol: value for value, symbol in enumerate(SYMBOLS[:n], start=1)}
    digits.update(dict.fromkeys(BLANKS, 0))
    try:
        return [digits[char] for char in puzzle]
    except KeyError as error:
        raise ValueError(f"bad character {error.args[0]!r} in a {n}x{n} puzzle") from None


def format_grid(values: Sequence[int]) -> str:
    """Inverse of ``parse``: cell values (0 for a blank) back to a puzzle string."""
    return "".join(SYMBOLS[value - 1] if value else "." for value in values)


@cache
def coordinates(n: int) -> tuple[tuple[int, int, int], ...]:
    """``(row, column, box)`` of every cell of an ``n x n`` grid, in row-major order."""
    box = isqrt(n)
    return tuple((r, c, r // box * box + c // box) for r in range(n) for c in range(n))


@cache
def units(n: int) -> tuple[tuple[int, ...], ...]:
    """The ``3n`` units (rows, then columns, then boxes) as tuples of cell indices."""
    groups: list[list[int]] = [[] for _ in range(3 * n)]
    for cell, (r, c, b) in enumerate(coordinates(n)):
        groups[r].append(cell)
        groups[n + c].append(cell)
        groups[2 * n + b].append(cell)
    return tuple(map(tuple, groups))
