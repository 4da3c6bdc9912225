"""The one call's two ends around the engine (a [`dlx.InstanceCodec`][]): a puzzle's
givens as the options the kernel forces, and the kernel's first solution back as a grid,
checked.

[`sudoku.solve_string`][] spent more time around the search than in it when the search
ran compiled (a 9x9 puzzle: some 25 us in the kernel, 45 us of Python and numpy around
it, each small numpy operation 1-2 us in place). These two ends are loops over the cells
that numba compiles with the search itself, into one call
([`dlx.InstanceSearch.through`][]); on the python backend they run as written:

* [`givens`][]: the options ``cell * N + value - 1`` of the given cells, as an int64
  array (what the engine forces);
* [`answer`][]: the grid of a solution, from its options as the kernel recorded them, and
  the independent check of that grid: every cell holds exactly one value, every given is
  kept, every unit of the layout holds N different values, every killer cage holds
  different values that add up to its total. Nothing here is shared with the engine:
  only the numbering of the options, ``cell * N + value - 1`` (a killer's filling
  options, numbered from N**3 on, say nothing the cells do not), as
  [`sudoku.reduction`][] defines it, and the rules *data* (the units and cages, from
  [`sudoku.tables`][], as every checker reads them). It is held to
  [`sudoku.grid.is_solution`][], the checker written apart, by tests.

The rules come as data, one int64 array per layout ([`rules`][]), laid out as follows:
``SIDE``, ``UNITS`` (how many), ``CAGES`` (how many), ``OUTPUT`` (where the output table
starts), then the cells of each unit (``N`` a unit), then the cages' starts into the
cage cells (one more than cages), their totals, and their cells; last the output table,
what to write for each value 0..N: the value itself, or its symbol (a line of text).
"""

from __future__ import annotations

import functools

import numpy as np

from dlx import InstanceCodec

from .arraycheck import cages_hold
from .layout import Layout
from .reduction import given_array
from .tables import CACHE_SIZE, tables

__all__ = ["CODEC", "answer", "checked_grid", "given_options", "givens", "rules"]

SIDE = 0  # rules[SIDE]: N
UNITS = 1  # rules[UNITS]: how many units
CAGES = 2  # rules[CAGES]: how many cages
OUTPUT = 3  # rules[OUTPUT]: where the output table starts
HEAD = 4  # the units' cells start here


@functools.lru_cache(maxsize=CACHE_SIZE)
def rules(layout: Layout, symbols: str | None = None) -> np.ndarray:
    """``layout`` as the one array [`answer`][] reads (see the module), read only;
    [`answer`][] writes the values, or with ``symbols`` (an ASCII alphabet) their
    symbols: a grid's line of text. Built from the layout's shared tables
    ([`sudoku.tables.Tables`][]: the units' and the cages' arrays)."""
    t = tables(layout)
    cells, starts, totals = t.cage_arrays
    units = t.unit_array.reshape(-1)
    output = np.arange(layout.side + 1) if symbols is None \
        else np.frombuffer(("." + symbols).encode("ascii"), np.uint8)
    data = np.concatenate([(t.side, len(t.units), len(totals),
                            HEAD + len(units) + len(starts) + len(totals) + len(cells)),
                           units, starts, totals, cells, output]).astype(np.int64)
    data.flags.writeable = False
    return data


def givens(values, rules):
    """The options of the given cells of ``values`` (a value a cell, 0 blank),
    ``cell * N + value - 1`` in cell order, as a new int64 array (``rules[SIDE]``: N)."""
    side = rules[SIDE]
    n = 0
    for c in range(len(values)):
        n += values[c] != 0
    out = np.empty(n, dtype=np.int64)
    n = 0
    for c in range(len(values)):
        v = int(values[c])  # not a uint8: its arithmetic would wrap
        if v != 0:
            out[n] = c * side + v - 1
            n += 1
    return out


def answer(first, given, rules):
    """The grid of the solution ``first`` (its options, in any order), checked (see the
    module): a new uint8 array of the cells' values, or symbols (``rules``' output
    table), empty unless it is a valid grid that keeps the givens of ``given``. Values
    are read as ints: a uint8's arithmetic would wrap (numba widens them anyway)."""
    side = rules[SIDE]
    cells = side * side
    out = np.zeros(cells, dtype=np.uint8)
    for k in range(len(first)):
        o = first[k]
        if o < 0:
            return out[:0]
        if o < cells * side:  # not a killer cage's filling
            c = o // side
            if out[c] != 0:  # a cell chosen twice
                return out[:0]
            out[c] = o - c * side + 1
    for c in range(cells):
        if out[c] == 0 or (given[c] != 0 and given[c] != out[c]):
            return out[:0]
    full = (1 << (side + 1)) - 2  # 2 + 4 + ... + 2**N
    at = HEAD
    for _ in range(rules[UNITS]):
        seen = 0
        for k in range(at, at + side):
            seen |= 1 << int(out[rules[k]])
        if seen != full:
            return out[:0]
        at += side
    n_cages = rules[CAGES]
    starts = at
    totals = starts + n_cages + 1
    cage_cells = totals + n_cages
    for g in range(n_cages):
        seen = 0
        total = 0
        for k in range(cage_cells + rules[starts + g], cage_cells + rules[starts + g + 1]):
            v = int(out[rules[k]])
            if (seen >> v) & 1:
                return out[:0]
            seen |= 1 << v
            total += v
        if total != rules[totals + g]:
            return out[:0]
    for c in range(cells):
        out[c] = rules[rules[OUTPUT] + out[c]]
    return out


def given_options(values: np.ndarray, rules: np.ndarray) -> np.ndarray:
    """[`givens`][] with numpy, for Python ([`sudoku.reduction.given_array`][])."""
    return given_array(int(rules[SIDE]), values)


def checked_grid(first: np.ndarray, given: np.ndarray, rules: np.ndarray) -> np.ndarray:
    """[`answer`][] with numpy, for Python: the grid the options make (a cell chosen
    twice leaves another empty), checked in a few whole-array steps (the cages by
    [`sudoku.arraycheck.cages_hold`][]), written through the output table."""
    side = int(rules[SIDE])
    cells = side * side
    options = first[first < cells * side]  # no killer cage's filling
    grid = np.zeros(cells, dtype=np.int64)
    if len(options) == cells and options.min() >= 0:
        grid[options // side] = options % side + 1
    starts = HEAD + int(rules[UNITS]) * side
    seen = np.bitwise_or.reduce(np.left_shift(1, grid)[rules[HEAD:starts].reshape(-1, side)],
                                axis=1)
    ok = grid.min() >= 1 and not ((given != 0) & (given != grid)).any() \
        and (seen == (1 << (side + 1)) - 2).all()
    n_cages = int(rules[CAGES])
    if ok and n_cages:
        at = starts + 2 * n_cages + 1  # the cage cells
        ok = cages_hold((rules[at : at + rules[starts + n_cages]],
                         rules[starts : starts + n_cages + 1],
                         rules[starts + n_cages + 1 : at]), grid[None])[0]
    return rules[int(rules[OUTPUT]) + grid].astype(np.uint8) if ok else np.zeros(0, np.uint8)


CODEC = InstanceCodec(givens, answer, InstanceCodec(given_options, checked_grid))
"""The one call's ends, as ``dlx`` runs them around its search: [`givens`][] and
[`answer`][] compiled with it on numba's runner over bit words; elsewhere their numpy
forms, [`given_options`][] and [`checked_grid`][] (the loops cost ~140 us in Python)."""
