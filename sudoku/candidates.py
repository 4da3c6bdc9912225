"""The candidates grid of a layout: what a human solver pencils in, as bitmasks.

Every cell holds either a value or a *mask* of its candidates, one bit per value (bit
``d - 1`` for value ``d``), a plain Python int: the tests the techniques make all day
(how many candidates, which ones, the union over a unit) are one or two integer operations.
All the geometry comes from the layout's shared tables ([`sudoku.tables.Tables`][], built
once per layout from its units and cages): the units of each cell, each cell's *peers*
(the cells that may not share its value: the other cells of its units and of its cage),
the cells of each unit, the pairs of units that meet in two cells or more (where
candidates can be locked), and the families of disjoint units that tile the grid (rows,
columns, boxes, regions...) for the fish. No technique knows what a row or a box is.
"""

from __future__ import annotations

from .errors import ClashError
from .layout import Layout
from .tables import Tables, tables

__all__ = ["Candidates", "Tables", "bits", "tables"]


def bits(mask: int) -> list[int]:
    """The values whose bits are set in ``mask``, ascending: ``bits(0b101) == [1, 3]``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


class Candidates:
    """A grid being solved: ``values[c]`` (0 while open) and ``masks[c]`` (the open cell's
    candidates; 0 once it has a value). [`place`][] and [`eliminate`][] are the only
    writers; a grid is one solver's own object, copied with [`copy`][]."""

    __slots__ = ("masks", "tables", "values")

    def __init__(self, layout: Layout, values: list[int]) -> None:
        """The grid of ``values`` (0 blank) on ``layout``: every open cell starts with all
        N candidates less its peers' values. ClashError if two givens are peers with one
        value (a unit, or a killer cage, holds it twice)."""
        t = self.tables = tables(layout)
        self.values = [0] * len(values)
        self.masks = [t.full] * len(values)
        for c, v in enumerate(values):
            if v:
                if not self.masks[c] >> (v - 1) & 1:
                    other = next(p for p in t.peers[c] if self.values[p] == v)
                    raise ClashError(f"value {v} at {layout.where(c)} and "
                                     f"{layout.where(other)}: they may not be equal")
                self.place(c, v)

    def copy(self) -> Candidates:
        other = Candidates.__new__(Candidates)
        other.tables, other.values, other.masks = self.tables, self.values[:], self.masks[:]
        return other

    def place(self, cell: int, value: int) -> None:
        """Give ``cell`` its ``value``: no candidates left there, and ``value`` is no
        longer a candidate of its peers."""
        self.values[cell] = value
        self.masks[cell] = 0
        keep = ~(1 << (value - 1))
        masks = self.masks
        for p in self.tables.peers[cell]:
            masks[p] &= keep

    def eliminate(self, cell: int, value: int) -> None:
        """``value`` is no candidate of ``cell``."""
        self.masks[cell] &= ~(1 << (value - 1))

    def solved(self) -> bool:
        return 0 not in self.values

    def broken(self) -> int | None:
        """An open cell without candidates (the givens have no solution), or None."""
        for c, (v, m) in enumerate(zip(self.values, self.masks)):
            if not v and not m:
                return c
        return None

