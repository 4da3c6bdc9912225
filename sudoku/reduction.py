"""Sudoku as exact cover: the reduction to ``dlx.ExactCover`` and back.

For a grid of side N there is one option per (cell, value), N**3 in all, and 4*N*N primary
items, each to be covered exactly once: ``p<r><c>`` (cell r,c is filled), ``r<r><d>``
(row r has value d), ``c<c><d>`` (column c has d) and ``b<b><d>`` (box b has d), with
0-based coordinates written in base 36 as in Knuth's programs. For 9x9: 729 x 324.

Givens are handled by *reduction*, as in Knuth's ``sudoku-dlx``: the items a given covers
are left out, and so is every option that would cover one of them. The engine then sees
only the open part of the puzzle. The alternative, ``givens="select"``, keeps all 4*N*N
items and only the given's own option in a given cell, so that the engine selects the givens
itself at the top of its tree; it is kept for comparison (``benchmarks/``), and is slower.
Everything here is vectorized with numpy: building a 9x9 problem costs tens of microseconds.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from dlx import ExactCover

from .errors import ClashError
from .grid import Geometry

__all__ = ["Reduction", "decode", "reduce_grid"]

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


class _Template:
    """The fixed part of the reduction for one side N: item names and option items."""

    def __init__(self, box: int) -> None:
        side = box * box
        area = side * side
        cell = np.repeat(np.arange(area), side)  # option k = cell * N + d
        d = np.tile(np.arange(side), area)
        r, c = cell // side, cell % side
        b = (r // box) * box + c // box
        self.option_items = np.stack(
            [cell, area + r * side + d, 2 * area + c * side + d, 3 * area + b * side + d], axis=1
        )
        digits = _BASE36
        self.names = (
            [f"p{digits[i]}{digits[j]}" for i in range(side) for j in range(side)]
            + [f"{kind}{digits[i]}{digits[v]}" for kind in "rcb" for i in range(side)
               for v in range(side)]
        )
        self.kinds = ("row", "column", "box")


@cache
def _template(box: int) -> _Template:
    return _Template(box)


class Reduction:
    """A puzzle as an exact-cover problem, with what is needed to decode its solutions."""

    def __init__(self, geo: Geometry, values: list[int], *, givens: str = "reduce") -> None:
        if givens not in ("reduce", "select"):
            raise ValueError(f"givens must be 'reduce' or 'select', not {givens!r}")
        tpl = _template(geo.box)
        side = geo.side
        grid = np.asarray(values, dtype=np.int64)
        given_cells = np.flatnonzero(grid)
        given_options = given_cells * side + grid[given_cells] - 1
        given_items = tpl.option_items[given_options].ravel()
        covered = np.zeros(4 * side * side, dtype=bool)
        covered[given_items] = True
        if covered.sum() != len(given_items):
            _raise_clash(geo, tpl, given_options)
        blocked = covered[tpl.option_items].any(axis=1)
        if givens == "reduce":
            options = np.flatnonzero(~blocked)
            columns = np.flatnonzero(~covered)
        else:
            blocked[given_options] = False
            options = np.flatnonzero(~blocked)
            columns = np.arange(4 * side * side)
        renumber = np.full(4 * side * side, -1, dtype=np.int64)
        renumber[columns] = np.arange(len(columns))
        indices = renumber[tpl.option_items[options]].ravel()
        indptr = np.arange(0, 4 * len(options) + 1, 4)
        self.geometry = geo
        self.puzzle = values
        self.options = options  # option index in the problem -> cell * N + (value - 1)
        names = tpl.names
        self.problem = ExactCover.from_csr(
            indptr, indices, n_items=len(columns), names=[names[c] for c in columns.tolist()]
        )

    def decode(self, solution: list[int]) -> list[int]:
        """The full grid of values for a solution of :attr:`problem`."""
        return decode(self.geometry, self.puzzle, self.options, solution)


def decode(geo: Geometry, puzzle: list[int], options: np.ndarray, solution: list[int]) -> list[int]:
    """Fill ``puzzle``'s blanks from the chosen options (each ``cell * N + value - 1``)."""
    out = list(puzzle)
    side = geo.side
    for k in options[solution].tolist():
        cell, d = divmod(k, side)
        out[cell] = d + 1
    return out


def reduce_grid(geo: Geometry, values: list[int], *, givens: str = "reduce") -> Reduction:
    """The exact-cover reduction of a parsed grid (ClashError if givens clash)."""
    return Reduction(geo, values, givens=givens)


def _raise_clash(geo: Geometry, tpl: _Template, given_options: np.ndarray) -> None:
    """Name the first unit where two givens share a value, with both cells."""
    side = geo.side
    seen: dict[int, int] = {}
    for k in given_options.tolist():
        for kind, item in zip(tpl.kinds, tpl.option_items[k][1:].tolist()):
            if item in seen:
                cell, d = divmod(k, side)
                other = seen[item] // side
                unit = (item % (side * side)) // side
                raise ClashError(
                    f"{geo.alphabet[d]!r} appears twice in {kind} {unit + 1}: "
                    f"at {geo.where(other)} and {geo.where(cell)}"
                )
            seen[item] = k
