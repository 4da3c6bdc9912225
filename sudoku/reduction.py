"""Sudoku as exact cover: the reduction to ``dlx.ExactCover`` and back.

Everything here is derived from the grid's [`Layout`][sudoku.layout.Layout] (its units):
for a grid of side N there is one option per (cell, value), ``cell * N + value - 1``,
N**3 in all, and one primary item per cell and per (unit, value), each to be covered
exactly once. For classic grids: ``p<r><c>`` (cell r,c is filled), ``r<r><d>`` (row r has
value d), ``c<c><d>`` (column c has d) and ``b<b><d>`` (box b has d), with 0-based
coordinates written in base 36 as in Knuth's programs; for 9x9: 729 x 324. Other units
add their items after these (``d`` diagonals, ``w`` windows; a jigsaw's ``g`` regions
replace the boxes).

Killer cages (``Layout.killer``) add, per cage, a primary item ``cage<i>`` and N primary
items ``cage<i>v<d>`` (the cage holds d); the option of a cell in a cage also covers its
cage's ``cage<i>v<d>``, so values in a cage differ. After the N**3 cell options come the
*filling* options: one per set S of distinct values with the cage's size and total,
covering ``cage<i>`` and ``cage<i>v<d>`` for every d *not* in S. The values a cage's cells
may take are then exactly S, once each: its sum. Chosen over colored (XCC) encodings by
measurement, ``docs/decisions.md``, "Killer cages". Each unit's *remainder* ([`remainders`][],
the "45 rule": its cells outside the cages wholly inside it, whose sum is known) is encoded
the same way after the cages, items ``sum<j>`` and ``sum<j>v<d>``: without them the search
never learns what the units' totals imply (one published 9x9 took 2.7 M nodes, 8 k with).
The cell options keep their numbers, so givens and decoding are unchanged (decoding skips
the filling options).

Givens can be handled three ways, all giving the same solutions:

* **forced** (what [`sudoku.solve`][] does): one problem per grid size, the empty grid
  ([`empty_grid_problem`][]), built once; a puzzle's givens are its *forced* options
  (``ExactCover.solutions(forced=...)``), selected before the search. What is left is
  exactly the reduced problem below, searched with the same nodes and updates, but the
  links, and the python backend's lists, are built once instead of once per puzzle.
* **reduce** ([`Reduction`][], the default of [`sudoku.to_exact_cover`][]), as in
  Knuth's ``sudoku-dlx``: the items a given covers are left out, and so is every option
  that would cover one of them. The engine sees only the open part of the puzzle.
* **select**: all 4*N*N items and only the given's own option in a given cell, so that the
  engine selects the givens itself at the top of its tree (one more node per given).

Measured in ``docs/decisions.md``: forced is fastest end to end, select slowest.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from itertools import compress
from operator import add, sub
from typing import Literal

import numpy as np

from dlx import BackendName, ExactCover, InstanceSearch

from .arguments import Engine
from .errors import ClashError
from .grid import Geometry
from .layout import Layout
from .tables import CACHE_SIZE, tables

__all__ = ["Reduction", "decode", "empty_grid_problem", "forced_problem", "given_array",
           "given_options", "givens"]


class _Template:
    """The fixed part of the reduction for one layout, all read from its shared tables
    ([`sudoku.tables.Tables`][]: the groups of each cell, the sums, the item names): the
    items of every option (CSR rows), the item names, and per cell the groups that may
    not repeat a value (its units, then its cage), with their labels."""

    def __init__(self, layout: Layout) -> None:
        t = self.tables = tables(layout)
        side, area = t.side, t.cells
        self.labels = t.group_labels
        self.cell_units = t.groups
        sums = t.sums
        self.names = list(t.names)
        first_cage = area + len(t.units) * side  # item cage<i> is first_cage + i * (N + 1)
        in_sums: list[list[int]] = [[] for _ in range(area)]
        for i, (cells, _) in enumerate(sums):
            for cell in cells:
                in_sums[cell].append(first_cage + i * (side + 1) + 1)
        # The cell options, option cell * N + d: the cell's item, then item base + d for
        # each of its groups (units, then its cage and remainders), with numpy: the groups
        # of a cell in a row padded with -1, expanded over the N values, the padding dropped.
        bases = [[area + u * side for u in units] + in_sums[cell]
                 for cell, units in enumerate(t.cell_units)]
        widest = max(map(len, bases), default=0)
        pad = [-1] * widest
        table = np.array([row + pad[len(row):] for row in bases], dtype=np.int64)
        values = np.arange(side, dtype=np.int64)
        block = np.empty((area, side, widest + 1), dtype=np.int64)
        block[:, :, 0] = np.arange(area, dtype=np.int64)[:, None]
        block[:, :, 1:] = table[:, None, :] + values[None, :, None]
        keep = np.ones((area, side, widest + 1), dtype=bool)
        keep[:, :, 1:] = (table >= 0)[:, None, :]
        lengths = [np.repeat(keep[:, 0, :].sum(axis=1), side)]
        indices = [block[keep]]
        for i, (cells, total) in enumerate(sums):  # the filling options
            rows = filling_rows(side, len(cells), total)
            lengths.append(np.full(len(rows), rows.shape[1], dtype=np.int64))
            indices.append((rows + (first_cage + i * (side + 1))).reshape(-1))
        self.lengths = np.concatenate(lengths)
        self.indptr = np.zeros(len(self.lengths) + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=self.indptr[1:])
        self.indices = np.concatenate(indices)
        self.row_of = np.repeat(np.arange(len(self.lengths)), self.lengths)  # entry -> option

    @cached_property
    def problem(self) -> ExactCover:
        """The empty grid as exact cover: option ``cell * N + value - 1``, then the cage
        fillings; items: one per cell, then one per (unit, value), then the cages'."""
        return ExactCover.from_csr(self.indptr, self.indices, n_items=len(self.names),
                                   names=self.names)


def remainders(layout: Layout) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The sums that a killer's units imply (the "45 rule", or "innies"), each encoded as
    a cage is: [`sudoku.tables.Tables.remainders`][]."""
    return tables(layout).remainders


@lru_cache(maxsize=4096)
def filling_rows(side: int, size: int, total: int) -> np.ndarray:
    """The items of a cage's filling options, less the cage's first item: one row per
    filling ([`fillings`][]), 0 (the cage) then each value ``d`` the filling leaves out
    (item ``cage<i>v<d>``, which the cells that hold ``d`` cover instead). Cached, as the
    fillings are, and read only."""
    rows = np.array([[0, *(d for d in range(1, side + 1) if d not in values)]
                     for values in fillings(side, size, total)], dtype=np.int64)
    rows = rows.reshape(-1, 1 + side - size)
    rows.flags.writeable = False
    return rows


@lru_cache(maxsize=4096)
def fillings(side: int, size: int, total: int) -> tuple[frozenset[int], ...]:
    """The sets of ``size`` distinct values in 1..``side`` that add up to ``total``, in
    lexicographic order of their sorted values (a killer cage's possible contents).
    Cached: every killer has its own layout, but its cages' shapes recur (measured: a 9x9
    killer's problem built in ~30% less time)."""
    out: list[frozenset[int]] = []

    def grow(start: int, left: int, rest: int, chosen: list[int]) -> None:
        if left == 0:
            if rest == 0:
                out.append(frozenset(chosen))
            return
        for v in range(start, side + 1):
            low = left * v + left * (left - 1) // 2  # v, v+1, ... the least that is left
            high = left * side - left * (left - 1) // 2  # ... side-1, side: the most
            if low > rest:
                break
            if high >= rest:
                chosen.append(v)
                grow(v + 1, left - 1, rest - v, chosen)
                chosen.pop()

    grow(1, size, total, [])
    return tuple(out)


@lru_cache(maxsize=CACHE_SIZE)
def _template(layout: Layout) -> _Template:
    return _Template(layout)


def empty_grid_problem(box: int | Layout) -> ExactCover:
    """The exact cover of the empty grid of a layout, or of the square layout with boxes of
    side ``box`` (shared, built once per layout).

    A puzzle is this problem with its givens' options forced: see [`given_options`][].
    """
    return _template(Layout.square(box) if isinstance(box, int) else box).problem


def grid_search(layout: Layout, limit: int, engine: Engine) -> InstanceSearch:
    """The search of a layout's puzzles one at a time ([`dlx.InstanceSearch`][]: the
    empty grid's problem, a puzzle's givens forced), with the checked ``engine``
    arguments ([`sudoku.arguments.Engine`][]): made once per layout, ``limit``, backend
    and ``max_nodes``, for the one call, counts and uniqueness checks; with a deadline,
    made for the time left (a search bounded in time does not run compiled end to end
    anyway)."""
    if engine.deadline is None:
        return _grid_search(layout, limit, engine.backend, engine.max_nodes)
    return empty_grid_problem(layout).instance_search(limit=limit, max_nodes=engine.max_nodes,
                                                      timeout=engine.left(),
                                                      backend=engine.backend)


@lru_cache(maxsize=CACHE_SIZE)
def _grid_search(layout: Layout, limit: int, backend: BackendName,
                 max_nodes: int) -> InstanceSearch:
    return empty_grid_problem(layout).instance_search(limit=limit, max_nodes=max_nodes,
                                                      backend=backend)


def givens(geo: Geometry, values: list[int]) -> list[int]:
    """The options of the givens, ``cell * N + value - 1``, clashing or not (the kernel
    finds a clash as a conflict among forced options)."""
    return list(map(add, compress(_option_bases(geo.side), values), compress(values, values)))


def given_array(side: int, given: bytes | np.ndarray) -> np.ndarray:
    """[`givens`][] of a puzzle read as bytes or a uint8 array (one value a cell), as the
    int64 array that the kernel reads: three numpy operations, no list."""
    v = np.frombuffer(given, np.uint8)
    return (_option_base_array(side) + v)[v != 0]


@lru_cache(maxsize=CACHE_SIZE)
def _option_bases(side: int) -> tuple[int, ...]:
    """``cell * N - 1`` for every cell: a given's option is its base plus its value."""
    return tuple(cell * side - 1 for cell in range(side * side))


@lru_cache(maxsize=CACHE_SIZE)
def _option_base_array(side: int) -> np.ndarray:
    """[`_option_bases`][] as an int64 array (read only), for [`decode`][] of an array."""
    bases = np.array(_option_bases(side), dtype=np.int64)
    bases.flags.writeable = False
    return bases


def given_options(geo: Geometry, values: list[int]) -> list[int]:
    """The options of the givens ([`givens`][]), or ClashError naming the unit where two
    givens share a value, with both cells."""
    return _checked_givens(_template(geo.layout), geo, values)


def forced_problem(geo: Geometry, values: list[int]) -> tuple[ExactCover, list[int]]:
    """What one search of a puzzle of Python values needs, from one reading of its
    layout's template: the empty grid's problem ([`empty_grid_problem`][]) and the options
    its givens force ([`given_options`][]: ClashError if two clash). For the callers that
    search one puzzle at a time (explain, rate, generate's checks, the hard path)."""
    tpl = _template(geo.layout)
    return tpl.problem, _checked_givens(tpl, geo, values)


def _checked_givens(tpl: _Template, geo: Geometry, values: list[int]) -> list[int]:
    """[`given_options`][] with the layout's template at hand."""
    side = geo.side
    forced = givens(geo, values)
    seen: dict[int, int] = {}
    for k in forced:
        cell, d = divmod(k, side)
        for u in tpl.cell_units[cell]:
            other = seen.setdefault(u * side + d, k)
            if other != k:
                raise ClashError(
                    f"{geo.alphabet[d]!r} appears twice in {tpl.labels[u]}: "
                    f"at {geo.where(other // side)} and {geo.where(cell)}"
                )
    return forced


GivensMode = Literal["reduce", "select"]
"""How a puzzle's givens enter its exact cover (see the module's notes): ``reduce``
drops what they decide, ``select`` keeps every option and item."""


class Reduction:
    """A puzzle as an exact-cover problem, with what is needed to decode its solutions."""

    def __init__(self, geo: Geometry, values: list[int], *,
                 givens: GivensMode = "reduce") -> None:
        if givens not in ("reduce", "select"):
            raise ValueError(f"givens must be 'reduce' or 'select', not {givens!r}")
        tpl = _template(geo.layout)
        n_items = len(tpl.names)
        given = np.array(_checked_givens(tpl, geo, values), dtype=np.int64)  # ClashError first
        chosen = np.zeros(len(tpl.lengths), dtype=bool)
        chosen[given] = True
        covered = np.zeros(n_items, dtype=bool)
        covered[tpl.indices[chosen[tpl.row_of]]] = True
        blocked = np.add.reduceat(covered[tpl.indices], tpl.indptr[:-1]) > 0
        if givens == "reduce":
            columns = np.flatnonzero(~covered)
        else:
            blocked[given] = False
            columns = np.arange(n_items)
        options = np.flatnonzero(~blocked)
        renumber = np.full(n_items, -1, dtype=np.int64)
        renumber[columns] = np.arange(len(columns))
        keep = np.zeros(len(tpl.lengths), dtype=bool)
        keep[options] = True
        indices = renumber[tpl.indices[keep[tpl.row_of]]]
        indptr = np.zeros(len(options) + 1, dtype=np.int64)
        np.cumsum(tpl.lengths[options], out=indptr[1:])
        self.geometry = geo
        self.puzzle = values
        self.options = options  # option index in the problem -> cell * N + (value - 1)
        names = tpl.names
        self.problem = ExactCover.from_csr(
            indptr, indices, n_items=len(columns), names=[names[c] for c in columns.tolist()]
        )

    def decode(self, solution: list[int]) -> list[int]:
        """The full grid of values for a solution of [`problem`][]."""
        return decode(self.geometry, self.puzzle, self.options, solution)


def decode(
    geo: Geometry, puzzle: list[int], options: np.ndarray | None,
    solution: list[int] | np.ndarray
) -> list[int]:
    """The full grid of values for ``solution``: ``options[k]`` for each ``k`` of it is
    ``cell * N + value - 1``; a killer cage's filling option, numbered from N**3 on, says
    nothing the cells do not.

    ``options=None``: ``solution`` holds those numbers themselves, sorted (as
    ``BatchResult.solution`` gives them, or ``solution_array``: then one array
    subtraction), so that its first N*N are the cells' options in cell order and the cage
    options come after them: each value is then one subtraction.
    An option that is not its cell's gives a value outside 1..N, which the checker
    refuses (the value is in range exactly when the option is its cell's)."""
    side = geo.side
    if options is None:
        if isinstance(solution, np.ndarray) and len(solution) >= side * side:
            cells = solution if len(solution) == side * side else solution[: side * side]
            return (cells - _option_base_array(side)).tolist()
        return list(map(sub, solution[: side * side], _option_bases(side)))
    out = list(puzzle)
    for k in options[solution].tolist():
        if k < side * side * side:  # not a killer cage's filling
            out[k // side] = k % side + 1
    return out

