"""Sudoku as exact cover: the reduction to ``dlx.ExactCover`` and back.

For a grid of side N there is one option per (cell, value), N**3 in all, and 4*N*N primary
items, each to be covered exactly once: ``p<r><c>`` (cell r,c is filled), ``r<r><d>``
(row r has value d), ``c<c><d>`` (column c has d) and ``b<b><d>`` (box b has d), with
0-based coordinates written in base 36 as in Knuth's programs. For 9x9: 729 x 324.

Givens can be handled three ways, all giving the same solutions:

* **forced** (what :func:`sudoku.solve` does): one problem per grid size, the empty grid
  (:func:`empty_grid_problem`), built once; a puzzle's givens are its *forced* options
  (``ExactCover.solutions(forced=...)``), selected before the search. What is left is
  exactly the reduced problem below, searched with the same nodes and updates, but the
  links, and the python backend's lists, are built once instead of once per puzzle.
* **reduce** (:class:`Reduction`, the default of :func:`sudoku.to_exact_cover`), as in
  Knuth's ``sudoku-dlx``: the items a given covers are left out, and so is every option
  that would cover one of them. The engine sees only the open part of the puzzle.
* **select**: all 4*N*N items and only the given's own option in a given cell, so that the
  engine selects the givens itself at the top of its tree (one more node per given).

Measured in ``docs/design.md``: forced is fastest end to end, select slowest.
"""

from __future__ import annotations

from functools import cache, cached_property

import numpy as np

from dlx import ExactCover

from .errors import ClashError
from .grid import Geometry

__all__ = ["Reduction", "decode", "empty_grid_problem", "given_options", "givens"]

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
        self.units = [tuple(row) for row in self.option_items[:, 1:].tolist()]

    @cached_property
    def problem(self) -> ExactCover:
        """The empty grid as exact cover: option ``cell * N + value - 1``, 4*N*N items."""
        n = len(self.option_items)
        return ExactCover.from_csr(np.arange(0, 4 * n + 1, 4), self.option_items.ravel(),
                                   n_items=len(self.names), names=self.names)


@cache
def _template(box: int) -> _Template:
    return _Template(box)


def empty_grid_problem(box: int) -> ExactCover:
    """The exact cover of the empty grid with boxes of side ``box`` (shared, built once).

    A puzzle is this problem with its givens' options forced: see :func:`given_options`.
    """
    return _template(box).problem


def givens(geo: Geometry, values: list[int]) -> list[int]:
    """The options of the givens, ``cell * N + value - 1``, clashing or not (the kernel
    finds a clash as a conflict among forced options)."""
    side = geo.side
    return [cell * side + v - 1 for cell, v in enumerate(values) if v]


def given_options(geo: Geometry, values: list[int]) -> list[int]:
    """The options of the givens (:func:`givens`), or ClashError naming the unit where two
    givens share a value, with both cells."""
    tpl = _template(geo.box)
    side = geo.side
    forced = givens(geo, values)
    units = tpl.units
    seen: dict[int, int] = {}
    for k in forced:
        for kind, item in zip(tpl.kinds, units[k]):
            other = seen.setdefault(item, k)
            if other != k:
                cell, d = divmod(k, side)
                unit = (item % (side * side)) // side
                raise ClashError(
                    f"{geo.alphabet[d]!r} appears twice in {kind} {unit + 1}: "
                    f"at {geo.where(other // side)} and {geo.where(cell)}"
                )
    return forced


class Reduction:
    """A puzzle as an exact-cover problem, with what is needed to decode its solutions."""

    def __init__(self, geo: Geometry, values: list[int], *, givens: str = "reduce") -> None:
        if givens not in ("reduce", "select"):
            raise ValueError(f"givens must be 'reduce' or 'select', not {givens!r}")
        tpl = _template(geo.box)
        side = geo.side
        given = np.array(given_options(geo, values), dtype=np.int64)  # ClashError first
        covered = np.zeros(4 * side * side, dtype=bool)
        covered[tpl.option_items[given].ravel()] = True
        blocked = covered[tpl.option_items].any(axis=1)
        if givens == "reduce":
            options = np.flatnonzero(~blocked)
            columns = np.flatnonzero(~covered)
        else:
            blocked[given] = False
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


def decode(
    geo: Geometry, puzzle: list[int], options: np.ndarray | None, solution: list[int]
) -> list[int]:
    """Fill ``puzzle``'s blanks from the chosen options: ``options[k]`` for each ``k`` of
    ``solution`` is ``cell * N + value - 1`` (``options=None``: ``k`` itself is)."""
    out = list(puzzle)
    side = geo.side
    for k in solution if options is None else options[solution].tolist():
        out[k // side] = k % side + 1
    return out

