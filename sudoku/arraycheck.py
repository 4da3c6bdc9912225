"""The independent checker over numpy arrays, for batches ([`sudoku.grid.are_solutions`][]):
one bool per grid, the values in range, the givens kept, every unit holding N distinct
values (one bit per value, ORed along the unit) and every cage its distinct values and
total. The checking is this module's own, shared with neither the engine nor the
reduction; only the rules *data* are shared: the units and cages as arrays, read from the
layout's [`sudoku.tables.Tables`][] (``unit_array``, ``cage_arrays``), as the other
checkers read them."""

from __future__ import annotations

from typing import Any

import numpy as np

from .layout import Layout
from .tables import tables

__all__ = ["all_hold", "cages_hold"]


def all_hold(layout: Layout, puzzles: Any, solutions: Any) -> np.ndarray:
    """Per row of the ``(n, N*N)`` integer arrays ``puzzles`` and ``solutions`` (0 is
    blank), whether the solution is a full valid grid of ``layout`` that keeps the
    puzzle's givens."""
    puzzles = _integers(puzzles)
    solutions = _integers(solutions)
    side = layout.side
    if solutions.ndim != 2 or solutions.shape[1] != side * side \
            or puzzles.shape != solutions.shape:
        raise ValueError(f"expected two (n, {side * side}) arrays, got {puzzles.shape} and "
                         f"{solutions.shape}")
    ok = ((solutions >= 1) & (solutions <= side)).all(axis=1)
    ok &= ((puzzles == 0) | (puzzles == solutions)).all(axis=1)
    if not ok.all():  # a value out of 1..N: its row is refused already; keep shifts in range
        solutions = np.clip(solutions, 0, side)
    t = tables(layout)
    units = t.unit_array
    full = (1 << (side + 1)) - 2  # bits 1..N: a unit holds N distinct values 1..N
    step = 512  # rows at a time: the (rows, units, N) temporary stays in the cache
    bit = np.int16 if side < 15 else np.int32 if side < 31 else np.int64  # 2**N fits
    for lo in range(0, len(solutions), step):  # (the gather below: 1/4 the bytes of int64)
        bits = np.left_shift(bit(1), solutions[lo : lo + step].astype(bit))
        seen = np.bitwise_or.reduce(bits[:, units], axis=2)
        ok[lo : lo + step] &= (seen == full).all(axis=1)
    if layout.cages:
        ok &= cages_hold(t.cage_arrays, solutions.astype(np.int64))
    return ok


def _integers(values: Any) -> np.ndarray:
    """``values`` as an array of integers: as it is if it is one (no copy to int64),
    else converted to int64 (lists, floats...)."""
    array = np.asarray(values)
    return array if array.dtype.kind in "iu" else np.asarray(values, dtype=np.int64)


def cages_hold(cages: tuple[np.ndarray, np.ndarray, np.ndarray],
               solutions: np.ndarray) -> np.ndarray:
    """Per row of ``solutions`` (values 0..N), whether every cage holds distinct values
    with its total; ``cages``: their cells, where each starts among them (one more than
    cages) and their totals. With one bit per value, the bits of a cage add up to their
    OR exactly when no value repeats."""
    cells, starts, totals = cages
    values = solutions[:, cells]
    bits = np.left_shift(np.int64(1), values)
    starts = starts[:-1]
    return ((np.add.reduceat(values, starts, axis=1) == totals).all(axis=1)
            & (np.add.reduceat(bits, starts, axis=1)
               == np.bitwise_or.reduceat(bits, starts, axis=1)).all(axis=1))
