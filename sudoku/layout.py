"""The rules of a grid as data: a [`Layout`][] is its side N and its *units*.

A unit is a set of N cells whose symbols must all be different (so each of 1..N appears
once). Rows, columns and boxes are units like any other; variants only add or replace
some: the two diagonals of X-Sudoku, the four windows of Windoku, the irregular regions
of a jigsaw. Everything else is derived from the units (Norvig's shape), in one place,
[`sudoku.tables`][] (one bounded cache keyed by layout):

* the exact cover ([`sudoku.reduction`][]): one option per (cell, value), numbered
  ``cell * N + value - 1``, covering the cell's item and, for each unit holding the cell,
  the item ``N*N + unit * N + value - 1`` (unit ``u`` has value ``d``);
* the item names, Knuth's for plain grids: ``p<r><c>``, ``r<r><d>``, ``c<c><d>``,
  ``b<b><d>``, 0-based in base 36; other kinds take their own letter (``d`` diagonal,
  ``w`` window, ``g`` region);
* the independent checker ([`sudoku.grid.is_solution`][], ``are_solutions``): every
  unit holds N different values;
* the descriptions of units in messages, ``"row 3"``, ``"box 5"``, ``"region c"``.

A layout may also have *cages* (killer Sudoku): groups of 1..N cells, each with a total;
the values in a cage are all different and add up to its total. Cages need not cover the
grid (a cell outside every cage is only bound by its units), nor be connected: the rules
read the same either way, and the published killers, whose cages do cover the grid, are
just one case. The exact cover adds, per cage, one item for the cage and one per (cage,
value), and one option per set of values that fills it, and the same for each sum its units
imply (see [`sudoku.reduction`][]).

With the square layout of box 3 the exact cover is exactly the classic 729 x 324 one.
Layouts are frozen and hashable (the hash is computed once), so per-layout tables are
cached by layout; the constructors are cached too, all with bounded caches. A layout is
drawn by [`sudoku.draw`][] (``Layout.picture``, a layer above: see [`draws_layouts`][]).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from dlx import Picture

from .errors import LayoutError
from .tables import BASE36, CACHE_SIZE, tables

__all__ = ["CACHE_SIZE", "Layout", "LayoutError", "box_owners", "draws_layouts",
           "region_owners"]

MAX_SIDE = len(BASE36)
"""Largest side: item names write unit numbers and values as one base-36 digit each."""


@dataclass(frozen=True, repr=False)
class Layout:
    """A grid's rules: side N (cells ``0..N*N-1`` row-major, values 1..N) and its units.

    ``units[u]`` are the N cells of unit ``u``, ``labels[u]`` what messages call it
    (``"row 3"``: a kind, a space, a name). ``block`` is the (rows, columns) of the boxes
    when the grid is drawn with box lines, or None. ``cages`` are killer cages, ``(cells,
    total)`` with ``cells`` a sorted tuple of cell numbers; messages call cage ``i`` (0-based)
    ``"cage i+1"``. Build layouts with the class methods.
    """

    side: int
    units: tuple[tuple[int, ...], ...]
    labels: tuple[str, ...]
    block: tuple[int, int] | None = None
    cages: tuple[tuple[tuple[int, ...], int], ...] = ()
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        side, area = self.side, self.side * self.side
        if type(side) is not int or not 2 <= side <= MAX_SIDE:
            raise LayoutError(f"a layout's side must be an int in 2..{MAX_SIDE}, got "
                              f"{side!r}")
        if len(self.labels) != len(self.units):
            raise LayoutError(f"{len(self.units)} units but {len(self.labels)} labels")
        for label, cells in zip(self.labels, self.units):
            if len(cells) != side or len(set(cells)) != side \
                    or not all(type(c) is int and 0 <= c < area for c in cells):
                raise LayoutError(f"{label} must hold {side} distinct cells of the "
                                  f"{side}x{side} grid")
        _check_cages(side, self.cages)
        object.__setattr__(self, "_hash", hash((side, self.units, self.cages)))

    def __hash__(self) -> int:  # computed once: layouts key the per-layout caches
        return self._hash

    def __repr__(self) -> str:
        """One short line: the side and how many units of each kind (and cages)."""
        kinds = Counter(tables(self).kinds)
        units = ", ".join(f"{n} {kind}{('es' if kind.endswith('x') else 's') * (n > 1)}"
                          for kind, n in kinds.items())
        cages = f", {len(self.cages)} cages" if self.cages else ""
        return f"<Layout {self.side}x{self.side}: {units}{cages}>"

    def picture(self, cell: int = 24) -> Picture:
        """The rules drawn on an empty grid: boxes or regions, shaded extra units, cages
        with their sums; ``cell`` pixels a cell (``sudoku.draw.draw_rules``). Jupyter
        shows a layout so."""
        if _painter is None:  # only while ``import sudoku`` has not finished
            raise RuntimeError("layouts are drawn by sudoku.draw: import sudoku first")
        return _painter(self, cell)

    def _repr_svg_(self) -> str:
        return self.picture().svg

    @property
    def cells(self) -> int:
        return self.side * self.side

    def where(self, cell: int) -> str:
        """A cell as people name it: ``r3c7`` (1-based)."""
        return _where(self.side, cell)

    def item_names(self) -> list[str]:
        """The exact cover's item names: one per cell, then one per (unit, value)
        (``sudoku.tables``, where every per-layout table is built)."""
        return list(tables(self).item_names)

    def cage_names(self) -> list[str]:
        """The items a killer's cages add after the units' (`sudoku.reduction`): per
        cage ``cage<i>`` (its filling is chosen), then ``cage<i>v<d>`` for d in 1..N (the cage
        holds d), ``i`` 1-based. No unit item is as long, so no name can clash."""
        return list(tables(self).cage_names)

    def cell_cages(self) -> list[int]:
        """Per cell, the index of the cage holding it, or -1."""
        return list(tables(self).cage_of)

    def cell_units(self) -> list[tuple[int, ...]]:
        """Per cell, the units that hold it, in unit order (Norvig's ``units[s]``)."""
        return list(tables(self).cell_units)

    # ----- constructors -------------------------------------------------------------------

    @staticmethod
    def rect(rows: int, cols: int) -> Layout:
        """Rows, columns and boxes of ``rows`` x ``cols`` cells on a grid of side
        ``rows * cols`` (2 x 3 boxes: 6x6; 3 x 4 boxes: 12x12)."""
        if type(rows) is not int or type(cols) is not int or rows < 1 or cols < 1 \
                or not 2 <= rows * cols <= MAX_SIDE:
            raise LayoutError(f"boxes must be ints rows x cols >= 1 with a side in "
                              f"2..{MAX_SIDE}, got {rows!r} x {cols!r}")
        return _rect(rows, cols)

    @staticmethod
    def square(box: int) -> Layout:
        """Classic Sudoku: rows, columns and ``box`` x ``box`` boxes (side ``box**2``)."""
        return Layout.rect(box, box)

    @staticmethod
    def latin(n: int) -> Layout:
        """A Latin square: rows and columns only, side ``n``."""
        if type(n) is not int or not 2 <= n <= MAX_SIDE:
            raise LayoutError(f"a latin square's side must be an int in 2..{MAX_SIDE}, "
                              f"got {n!r}")
        return _latin(n)

    @staticmethod
    def x(box: int = 3) -> Layout:
        """X-Sudoku: the square layout plus both main diagonals (r1c1..rNcN, r1cN..rNc1)."""
        return _x(Layout.square(box))

    @staticmethod
    def windoku() -> Layout:
        """Windoku (Hyper Sudoku): 9x9 plus the windows r2-4c2-4, r2-4c6-8, r6-8c2-4 and
        r6-8c6-8 (1-based)."""
        return _windoku()

    @staticmethod
    def killer(cages: Iterable[tuple[Iterable[int], int]],
               block: tuple[int, int] = (3, 3)) -> Layout:
        """Killer Sudoku: the rows, columns and boxes of ``Layout.rect(*block)`` plus
        ``cages``, pairs ``(cells, total)`` (cells as numbers ``0..N*N-1``, row-major, in any
        order). The cages need not cover the grid. LayoutError names the cage (``"cage 5 at
        r3c7"``, 1-based, its first cell) that is empty or has more than N cells, has a cell
        outside the grid or in an earlier cage, or a total no distinct values 1..N reach."""
        if not isinstance(block, tuple) or len(block) != 2:
            raise LayoutError(f"block must be a (rows, cols) tuple, got {block!r}")
        base = Layout.rect(*block)
        if isinstance(cages, (str, bytes)):
            raise LayoutError("cages must be (cells, total) pairs, got a string")
        try:
            given = iter(cages)
        except TypeError:  # None, a number: no cages at all
            raise LayoutError(f"cages must be an iterable of (cells, total) pairs, got "
                              f"{type(cages).__name__}") from None
        pairs = []
        for i, cage in enumerate(given, 1):
            try:
                cells, total = cage
                cells = tuple(sorted(cells))
            except (TypeError, ValueError):
                raise LayoutError(f"cage {i} must be a (cells, total) pair of an iterable "
                                  f"of ints and an int, got {cage!r}") from None
            pairs.append((cells, total))
        return _killer(base, tuple(pairs))

    @staticmethod
    def jigsaw(region_map: str) -> Layout:
        """Rows, columns and N irregular regions: ``region_map`` holds N*N characters, one
        per cell row-major, naming its region (``"aaabbb..."``). LayoutError names the region
        that does not have N cells or is not connected (cells joined by edges)."""
        if not isinstance(region_map, str):
            raise LayoutError(f"a region map must be a str, got {type(region_map).__name__}")
        return _jigsaw(region_map)


def box_owners(layout: Layout) -> list[int] | None:
    """Per cell, the number of its box (row-major), or None for a layout without boxes."""
    if layout.block is None:
        return None
    rows, cols = layout.block
    side = layout.side
    return [(c // side // rows) * (side // cols) + c % side // cols for c in range(side * side)]


def region_owners(layout: Layout) -> list[int] | None:
    """Per cell, the number of its jigsaw region, or None if the layout has no regions
    covering the grid."""
    owner = tables(layout).region_owner
    return None if owner is None else list(owner)


_painter: Callable[[Layout, int], Picture] | None = None
"""What draws a layout ([`Layout.picture`][]): [`sudoku.draw.draw_rules`][], set by
[`draws_layouts`][] when ``sudoku.draw`` is imported (as ``import sudoku`` does)."""


def draws_layouts(painter: Callable[[Layout, int], Picture]) -> Callable[[Layout, int],
                                                                         Picture]:
    """Makes ``painter`` the function behind [`Layout.picture`][] (and Jupyter's view of a
    layout); used as a decorator by [`sudoku.draw`][]. The drawing reads the layout, so it
    sits a layer above it: this hook, not an import, joins them, and keeps the layers
    free of cycles."""
    global _painter
    _painter = painter
    return painter


# ----- the cached builders behind the constructors (arguments already checked) -------------


@lru_cache(maxsize=CACHE_SIZE)
def _rect(rows: int, cols: int) -> Layout:
    side = rows * cols
    units, labels = _lines(side)
    for b in range(side):
        top, left = (b // rows) * rows, (b % rows) * cols  # side/cols = rows boxes a row
        units.append(tuple((top + i) * side + left + j
                           for i in range(rows) for j in range(cols)))
        labels.append(f"box {b + 1}")
    return Layout(side, tuple(units), tuple(labels), (rows, cols))


@lru_cache(maxsize=CACHE_SIZE)
def _latin(n: int) -> Layout:
    units, labels = _lines(n)
    return Layout(n, tuple(units), tuple(labels))


@lru_cache(maxsize=CACHE_SIZE)
def _x(base: Layout) -> Layout:
    side = base.side
    diagonals = (tuple(i * side + i for i in range(side)),
                 tuple(i * side + side - 1 - i for i in range(side)))
    return Layout(side, base.units + diagonals, (*base.labels, "diagonal 1", "diagonal 2"),
                  base.block)


@lru_cache(maxsize=1)
def _windoku() -> Layout:
    base = Layout.square(3)
    windows = tuple(tuple(r * 9 + c for r in range(top, top + 3) for c in range(left, left + 3))
                    for top in (1, 5) for left in (1, 5))
    return Layout(9, base.units + windows,
                  base.labels + tuple(f"window {w}" for w in range(1, 5)), base.block)


@lru_cache(maxsize=CACHE_SIZE)
def _killer(base: Layout, cages: tuple[tuple[tuple[int, ...], int], ...]) -> Layout:
    return Layout(base.side, base.units, base.labels, base.block, cages)


def _check_cages(side: int, cages: tuple[tuple[tuple[int, ...], int], ...]) -> None:
    """LayoutError naming the first bad cage (see [`Layout.killer`][])."""
    area, owner = side * side, dict[int, int]()
    for i, (cells, total) in enumerate(cages, 1):
        if not cells:
            raise LayoutError(f"cage {i} has no cells")
        if not all(type(c) is int for c in cells) or type(total) is not int:
            raise LayoutError(f"cage {i} must hold int cells and an int total, got "
                              f"{cells!r} and {total!r}")
        where = f"cage {i} at {_where(side, cells[0])}" if 0 <= cells[0] < area \
            else f"cage {i}"
        if tuple(sorted(set(cells))) != cells:
            raise LayoutError(f"{where}: its cells must be a sorted tuple of distinct "
                              f"cells, got {cells!r}")
        if len(cells) > side:
            raise LayoutError(f"{where} has {len(cells)} cells, more than {side}")
        for c in cells:
            if not 0 <= c < area:
                raise LayoutError(f"{where}: cell {c} is outside the {side}x{side} grid")
            if c in owner:
                raise LayoutError(f"{where}: {_where(side, c)} is in cage {owner[c]} too")
            owner[c] = i
        k = len(cells)
        low, high = k * (k + 1) // 2, k * (2 * side - k + 1) // 2
        if not low <= total <= high:
            raise LayoutError(f"{where}: no {k} distinct values 1..{side} add up to "
                              f"{total} (they make {low}..{high})")


def _where(side: int, cell: int) -> str:
    """A cell as people name it: ``r3c7`` (1-based)."""
    r, c = divmod(cell, side)
    return f"r{r + 1}c{c + 1}"


@lru_cache(maxsize=CACHE_SIZE)
def _jigsaw(region_map: str) -> Layout:
    area = len(region_map)
    side = round(area**0.5)
    if side * side != area or not 2 <= side <= MAX_SIDE:
        raise LayoutError(f"a region map of {area} cells is not an N x N grid")
    regions: dict[str, list[int]] = {}
    for cell, name in enumerate(region_map):
        regions.setdefault(name, []).append(cell)
    if len(regions) != side:
        raise LayoutError(f"a {side}x{side} grid needs {side} regions, the map has "
                          f"{len(regions)}: {''.join(regions)!r}")
    for name, cells in regions.items():
        if len(cells) != side:
            raise LayoutError(f"region {name} has {len(cells)} cells, not {side}")
        if not _connected(side, cells):
            raise LayoutError(f"region {name} is not connected")
    units, labels = _lines(side)
    units += [tuple(cells) for cells in regions.values()]
    labels += [f"region {name}" for name in regions]
    return Layout(side, tuple(units), tuple(labels))


def _lines(side: int) -> tuple[list[tuple[int, ...]], list[str]]:
    """The rows then the columns of a grid, with their labels."""
    units = [tuple(range(r * side, (r + 1) * side)) for r in range(side)]
    units += [tuple(range(c, side * side, side)) for c in range(side)]
    labels = [f"row {i + 1}" for i in range(side)] + [f"column {i + 1}" for i in range(side)]
    return units, labels


def _connected(side: int, cells: list[int]) -> bool:
    """Whether ``cells`` form one piece, cells joined through shared edges."""
    inside, todo, seen = set(cells), [cells[0]], {cells[0]}
    while todo:
        r, c = divmod(todo.pop(), side)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            k = rr * side + cc
            if 0 <= rr < side and 0 <= cc < side and k in inside and k not in seen:
                seen.add(k)
                todo.append(k)
    return len(seen) == len(cells)
