"""The candidates grid of a layout: what a human solver pencils in, as bitmasks.

Every cell holds either a value or a *mask* of its candidates, one bit per value (bit
``d - 1`` for value ``d``), a plain Python int: the tests the techniques make all day
(how many candidates, which ones, the union over a unit) are one or two integer operations.
All the geometry comes from the layout's units (and cages), read once per layout into a
[`Tables`][]: the units of each cell, each cell's *peers* (the cells that may not share
its value: the other cells of its units and of its cage), the cells of each unit, the pairs
of units that meet in two cells or more (where candidates can be locked), and the families
of disjoint units that tile the grid (rows, columns, boxes, regions...) for the fish. No
technique knows what a row or a box is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .errors import ClashError
from .layout import CACHE_SIZE, Layout

__all__ = ["Candidates", "Tables", "bits", "tables"]


def bits(mask: int) -> list[int]:
    """The values whose bits are set in ``mask``, ascending: ``bits(0b101) == [1, 3]``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


@dataclass(frozen=True)
class Tables:
    """Per layout, what the techniques read about its geometry (built once, cached).

    ``units[u]`` the cells of unit ``u``; ``unit_of[c]`` a bitmask of the units holding
    cell ``c`` (bit ``u``); ``peers[c]`` the other cells that may not repeat ``c``'s value
    and ``peer_mask[c]`` the same as a bitmask over cells; ``meets[u]`` the units ``v``
    that share at least two cells with ``u``, with the shared cells; ``partitions`` groups
    of N disjoint units that cover the grid (their indices), and ``crossings`` the ordered
    pairs of partitions whose units meet in exactly one cell each (rows and columns),
    between which fish swim; ``cages`` the killer cages (cells, total).
    """

    side: int
    units: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]
    unit_of: tuple[int, ...]
    peers: tuple[tuple[int, ...], ...]
    peer_mask: tuple[int, ...]
    meets: tuple[tuple[tuple[int, frozenset[int]], ...], ...]
    partitions: tuple[tuple[int, ...], ...]
    crossings: tuple[tuple[int, int], ...]
    cages: tuple[tuple[tuple[int, ...], int], ...]
    cage_of: tuple[int, ...]

    @property
    def full(self) -> int:
        """The mask of every value 1..N."""
        return (1 << self.side) - 1


@lru_cache(maxsize=CACHE_SIZE)
def tables(layout: Layout) -> Tables:
    """The [`Tables`][] of ``layout``."""
    side, area = layout.side, layout.cells
    units = layout.units
    unit_of = [0] * area
    for u, cells in enumerate(units):
        for c in cells:
            unit_of[c] |= 1 << u
    cage_of = layout.cell_cages()
    peer_sets: list[set[int]] = [set() for _ in range(area)]
    for cells in units:
        for c in cells:
            peer_sets[c].update(cells)
    for cells, _ in layout.cages:
        for c in cells:
            peer_sets[c].update(cells)
    for c in range(area):
        peer_sets[c].discard(c)
    peers = tuple(tuple(sorted(s)) for s in peer_sets)
    peer_mask = tuple(sum(1 << p for p in s) for s in peers)
    sets = [frozenset(cells) for cells in units]
    meets = tuple(tuple((v, sets[u] & sets[v]) for v in range(len(units))
                        if v != u and len(sets[u] & sets[v]) >= 2)
                  for u in range(len(units)))
    partitions = _partitions(layout, sets)
    crossings = tuple((p, q) for p in range(len(partitions)) for q in range(len(partitions))
                      if p != q and all(len(sets[a] & sets[b]) == 1
                                        for a in partitions[p] for b in partitions[q]))
    return Tables(side, units, layout.labels, tuple(unit_of), peers, peer_mask, meets,
                  partitions, crossings, layout.cages, tuple(cage_of))


def _partitions(layout: Layout, sets: list[frozenset[int]]) -> tuple[tuple[int, ...], ...]:
    """The families of units that tile the grid: the units of one kind (the first word of
    their labels: ``row``, ``column``, ``box``, ``region``...) when there are N of them,
    pairwise disjoint (so covering the N*N cells)."""
    kinds: dict[str, list[int]] = {}
    for u, label in enumerate(layout.labels):
        kinds.setdefault(label.split()[0], []).append(u)
    out = []
    for members in kinds.values():
        if len(members) == layout.side and len(frozenset().union(*(sets[u] for u in members))) \
                == layout.cells:
            out.append(tuple(members))
    return tuple(out)


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

