"""Every per-layout table derived from a grid's unit list, built once per layout, here only.

Norvig's shape (http://norvig.com/sudoku.html): the rules are the list of units; ``units``
per cell and ``peers`` per cell are derived from it, and everything else reads those.
[`tables`][] gives a layout's [`Tables`][] from one bounded cache keyed by layout; each
table in it is built on its first read (a 9x9 checker never pays for the techniques'
unit meets) and then kept. The modules that need the rules read them here:

* [`sudoku.reduction`][] (the exact cover): each cell's groups (its units, then its cage),
  the units' and cages' remainders (the "45 rule" sums), the item names;
* [`sudoku.candidates`][] and the techniques: cell -> units as a bitmask, peers (and their
  masks), the unit meets, the partitions and their crossings, cell -> cage;
* the independent checkers, [`sudoku.arraycheck`][], [`sudoku.bytecheck`][],
  [`sudoku.grid.is_solution`][] and [`sudoku.codec`][]'s compiled one: the units (as
  arrays) and cages (as arrays); each checks with its own code and keeps its own
  encoding of these data (codec's one rules array, bytecheck's 9x9 line plan), built
  from the tables here;
* the pictures and text ([`sudoku.draw`][], [`sudoku.pretty`][], [`sudoku.formats`][]):
  the kind of each unit, the owner of each cell among the regions.

No module other than this one (and ``layout.py``, which builds and validates the unit
list itself) walks a layout's units to build a table of its own: a test checks it
(``tests/sudoku/test_tables.py``). This module knows nothing of the
[`Layout`][sudoku.layout.Layout] class, only what [`Rules`][] names, so that
``layout.py`` sits above it and its methods (``cell_units()``, ``item_names()``...) read
the same tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from functools import cached_property, lru_cache
from typing import Protocol

import numpy as np

__all__ = ["CACHE_SIZE", "Rules", "Tables", "tables"]

CACHE_SIZE = 64
"""Layouts remembered by each per-layout cache (as the per-alphabet caches of grid)."""
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
"""The digits of item names: unit numbers and values, one base-36 digit each."""
_LETTERS = {"row": "r", "column": "c", "box": "b", "diagonal": "d", "window": "w",
            "region": "g"}
"""The first letter of item names per kind of unit (any other kind uses its initial)."""

Cages = tuple[tuple[tuple[int, ...], int], ...]
"""Groups of distinct values with a known sum: (sorted cells, total) pairs."""


class Rules(Hashable, Protocol):
    """What the tables read of a layout: its side N, its units (each N cells), their
    labels (``"row 3"``: a kind, a space, a name) and its killer cages."""

    @property
    def side(self) -> int: ...

    @property
    def units(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def labels(self) -> tuple[str, ...]: ...

    @property
    def cages(self) -> Cages: ...


@lru_cache(maxsize=CACHE_SIZE)
def tables(layout: Rules) -> Tables:
    """The [`Tables`][] of ``layout``: one object per layout (the last ``CACHE_SIZE``).
    A module's own cache of an encoding built from them (the reduction's template, say)
    may keep them after this cache has let them go: the tables built afresh are equal."""
    return Tables(layout)


class Tables:
    """A layout's tables, each built on first read from its units and cages, then kept;
    read only (tuples, and numpy arrays marked read only).

    ``side`` N, ``cells`` N*N, ``units``, ``labels`` and ``cages`` are the layout's own;
    ``full`` the mask of every value 1..N (bit ``d - 1`` for value ``d``).
    """

    def __init__(self, layout: Rules) -> None:
        self.side = layout.side
        self.cells = layout.side * layout.side
        self.units = layout.units
        self.labels = layout.labels
        self.cages = layout.cages
        self.full = (1 << layout.side) - 1

    # ----- per cell (Norvig's units[s] and peers[s]) --------------------------------------

    @cached_property
    def cell_units(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the units that hold it, in unit order."""
        out: list[list[int]] = [[] for _ in range(self.cells)]
        for u, cells in enumerate(self.units):
            for c in cells:
                out[c].append(u)
        return tuple(map(tuple, out))

    @cached_property
    def unit_of(self) -> tuple[int, ...]:
        """Per cell, a bitmask of the units holding it (bit ``u``)."""
        return tuple(sum(1 << u for u in us) for us in self.cell_units)

    @cached_property
    def cage_of(self) -> tuple[int, ...]:
        """Per cell, the index of the killer cage holding it, or -1."""
        out = [-1] * self.cells
        for i, (cells, _) in enumerate(self.cages):
            for c in cells:
                out[c] = i
        return tuple(out)

    @cached_property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the groups that may not repeat a value in it: its units, then its
        cage as group ``len(units) + i`` (named by [`group_labels`][])."""
        n = len(self.units)
        return tuple(us if k < 0 else (*us, n + k)
                     for us, k in zip(self.cell_units, self.cage_of))

    @cached_property
    def group_labels(self) -> tuple[str, ...]:
        """What messages call each group of [`groups`][]: the units' labels, then
        ``"cage i"`` (1-based)."""
        return self.labels + tuple(f"cage {i}" for i in range(1, len(self.cages) + 1))

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the other cells that may not share its value (those of its units and
        of its cage), ascending."""
        out: list[set[int]] = [set() for _ in range(self.cells)]
        for cells in (*self.units, *(cells for cells, _ in self.cages)):
            for c in cells:
                out[c].update(cells)
        for c, s in enumerate(out):
            s.discard(c)
        return tuple(tuple(sorted(s)) for s in out)

    @cached_property
    def peer_mask(self) -> tuple[int, ...]:
        """[`peers`][] as bitmasks over cells (bit ``c``)."""
        return tuple(sum(1 << p for p in s) for s in self.peers)

    # ----- per unit -----------------------------------------------------------------------

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """Per unit, its kind: the first word of its label (``row``, ``box``, ``region``)."""
        return tuple((label.split() or [""])[0] for label in self.labels)

    @cached_property
    def unit_sets(self) -> tuple[frozenset[int], ...]:
        """Per unit, its cells as a set."""
        return tuple(map(frozenset, self.units))

    @cached_property
    def unit_family(self) -> frozenset[frozenset[int]]:
        """The units as one set of sets: two layouts with the same family have the same
        rules for their cells, whatever the units' order or labels."""
        return frozenset(self.unit_sets)

    @cached_property
    def unit_array(self) -> np.ndarray:
        """The cells of every unit: a (units, N) int64 array, read only."""
        out = np.array(self.units, dtype=np.int64).reshape(len(self.units), self.side)
        out.flags.writeable = False
        return out

    @cached_property
    def meets(self) -> tuple[tuple[tuple[int, frozenset[int]], ...], ...]:
        """Per unit ``u``, the units ``v`` that share at least two cells with it, with the
        shared cells (where candidates can be locked)."""
        sets = self.unit_sets
        return tuple(tuple((v, a & b) for v, b in enumerate(sets) if v != u and len(a & b) >= 2)
                     for u, a in enumerate(sets))

    @cached_property
    def partitions(self) -> tuple[tuple[int, ...], ...]:
        """The families of units that tile the grid: the units of one kind when there are
        N of them, pairwise disjoint (so covering the N*N cells)."""
        members: dict[str, list[int]] = {}
        for u, kind in enumerate(self.kinds):
            members.setdefault(kind, []).append(u)
        return tuple(tuple(us) for us in members.values() if len(us) == self.side
                     and len(frozenset().union(*(self.unit_sets[u] for u in us)))
                     == self.cells)

    @cached_property
    def crossings(self) -> tuple[tuple[int, int], ...]:
        """The ordered pairs of [`partitions`][] whose units meet in exactly one cell each
        (rows and columns), between which fish swim."""
        parts, sets = self.partitions, self.unit_sets
        return tuple((p, q) for p in range(len(parts)) for q in range(len(parts))
                     if p != q and all(len(sets[a] & sets[b]) == 1
                                       for a in parts[p] for b in parts[q]))

    @cached_property
    def region_owner(self) -> tuple[int, ...] | None:
        """Per cell, the unit number of its jigsaw region, or None if the ``region`` units
        do not cover the grid."""
        owner = [-1] * self.cells
        for u, kind in enumerate(self.kinds):
            if kind == "region":
                for c in self.units[u]:
                    owner[c] = u
        return None if -1 in owner else tuple(owner)

    # ----- cages and sums -----------------------------------------------------------------

    @cached_property
    def cage_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The killer cages as arrays (read only): their cells one after the other, where
        each starts among them (one more than cages), their totals."""
        cages = self.cages
        out = (np.array([c for cells, _ in cages for c in cells], dtype=np.int64),
               np.cumsum([0, *(len(cells) for cells, _ in cages)], dtype=np.int64),
               np.array([total for _, total in cages], dtype=np.int64))
        for a in out:
            a.flags.writeable = False
        return out

    @cached_property
    def remainders(self) -> Cages:
        """The sums that a killer's units imply (the "45 rule", or "innies"): for each
        unit, its cells outside the cages that lie wholly in it hold distinct values that
        add up to the unit's total less those cages' totals. Only those of 1..N-1 cells,
        each cell set once and none that is a cage already."""
        if not self.cages:
            return ()
        side, cell_units = self.side, self.cell_units
        rest = [set(unit) for unit in self.units]
        totals = [side * (side + 1) // 2] * len(rest)
        for cells, total in self.cages:  # the units that hold the whole cage
            for u in set(cell_units[cells[0]]).intersection(*(cell_units[c] for c in cells)):
                rest[u].difference_update(cells)
                totals[u] -= total
        seen = {cells for cells, _ in self.cages}
        out = []
        for unit_rest, total in zip(rest, totals):
            key = tuple(sorted(unit_rest))
            if 0 < len(key) < side and key not in seen:
                seen.add(key)
                out.append((key, total))
        return tuple(out)

    @cached_property
    def sums(self) -> Cages:
        """Every group with a known sum that the exact cover encodes: the cages, then the
        [`remainders`][]."""
        return self.cages + self.remainders

    # ----- item names ---------------------------------------------------------------------

    @cached_property
    def item_names(self) -> tuple[str, ...]:
        """The exact cover's items of the units: one per cell, then one per (unit,
        value)."""
        return _item_names(self.side, self.kinds)

    @cached_property
    def cage_names(self) -> tuple[str, ...]:
        """The items a killer's cages add after the units': per cage ``cage<i>`` (its
        filling is chosen), then ``cage<i>v<d>`` for d in 1..N (the cage holds d), ``i``
        1-based. No unit item is as long, so no name can clash."""
        return _sum_names("cage", len(self.cages), self.side)

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Every item's name: [`item_names`][], [`cage_names`][], then the remainders'
        ``sum<j>`` and ``sum<j>v<d>``."""
        return self.item_names + self.cage_names + _sum_names("sum", len(self.remainders),
                                                              self.side)


@lru_cache(maxsize=CACHE_SIZE)
def _item_names(side: int, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """[`Tables.item_names`][] for the units of these kinds, in order: they depend on
    nothing else, so that every jigsaw of a side, say, shares them."""
    digits = BASE36
    names = [f"p{digits[i]}{digits[j]}" for i in range(side) for j in range(side)]
    seen: Counter[str] = Counter()
    for kind in kinds:
        letter = _LETTERS.get(kind, kind[0])
        index = digits[seen[kind]]
        seen[kind] += 1
        names.extend(f"{letter}{index}{digits[v]}" for v in range(side))
    return tuple(names)


def _sum_names(prefix: str, count: int, side: int) -> tuple[str, ...]:
    """Per group ``i`` (1-based) of ``count``: ``<prefix><i>``, then ``<prefix><i>v<d>``
    for d in 1..N."""
    return tuple(name for i in range(1, count + 1)
                 for name in (f"{prefix}{i}", *(f"{prefix}{i}v{d}" for d in range(1, side + 1))))
