"""The independent checker's passes over bytes, for [`sudoku.grid.is_solution`][] when a
grid's values are ints in 0..255: the range and the givens in two passes in C, and the
units of a classic 9x9 grid by shifts and adds of one number (a field of ``2**v`` per
cell; ``docs/decisions.md``, "The words kernel, second round"). Other grids are checked value
by value, as before. The checking is this module's own, shared with neither the engine
nor the reduction; whether a layout is the classic 9x9 is read from the shared rules data
([`sudoku.tables.Tables`][]: its ``unit_family``)."""

from __future__ import annotations

from functools import lru_cache

from .layout import Layout
from .tables import CACHE_SIZE, tables

__all__ = ["LINE_FIELD", "LinePlan", "line_plan", "lines_hold_all", "read_bytes",
           "values_kept"]

_BYTE_LIKE = (list, bytes)
"""What [`read_bytes`][] reads (a numpy array is not: ``bytes`` of one is its memory)."""
_GIVEN_MASK = bytes.maketrans(bytes(range(256)), bytes([0] + [255] * 255))
"""A given's byte -> 0xFF, a blank's -> 0: the bytes of a solution that must match."""


def read_bytes(puzzle: object, solution: object) -> tuple[bytes, bytes]:
    """``puzzle`` and ``solution`` as bytes when both are lists (or bytes) of ints in
    0..255, else two empty bytes (then the checker reads them value by value)."""
    if type(solution) in _BYTE_LIKE and type(puzzle) in _BYTE_LIKE:
        try:
            return bytes(puzzle), bytes(solution)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            pass
    return b"", b""


def values_kept(side: int, given: bytes, solved: bytes) -> bool:
    """Every value of ``solved`` in 1..N, and every given (nonzero byte) of ``given``
    where ``solved`` has it: a deletion, then the solution's bytes under the givens."""
    if solved.translate(None, _value_bytes(side)):  # a value not in 1..N is left
        return False
    return int.from_bytes(solved, "big") & int.from_bytes(given.translate(_GIVEN_MASK), "big") \
        == int.from_bytes(given, "big")


@lru_cache(maxsize=CACHE_SIZE)
def _value_bytes(side: int) -> bytes:
    """The values 1..N of a grid of side N, as bytes."""
    return bytes(range(1, side + 1))


LINE_FIELD = 16
"""Bits per cell in [`lines_hold_all`][]: ``2**v`` (v <= 9), and nine of them added."""
LinePlan = tuple[bytes, bytes, int, int, int, int, int, int]
"""[`line_plan`][]: the byte tables of ``2**v``, then mask and sum for rows, columns,
boxes."""


@lru_cache(maxsize=CACHE_SIZE)
def line_plan(layout: Layout) -> LinePlan | None:
    """For [`lines_hold_all`][]: when ``layout`` is a classic 9x9 grid (rows, columns,
    3x3 boxes, nothing else), the byte tables of each value's ``2**v`` (its low and its
    high byte), the mask of the fields where a row, a column and a box add up (each at
    its first cell), and what a valid grid shows there; else None."""
    side, box, w = 9, 3, LINE_FIELD
    if layout.side != side or layout.cages \
            or tables(layout).unit_family != tables(Layout.square(box)).unit_family:
        return None
    power = [1 << v if 1 <= v <= side else 0 for v in range(256)]
    sums: list[int] = []
    for firsts in (range(0, side * side, side), range(side),
                   [r * side + c for r in range(0, side, box) for c in range(0, side, box)]):
        sums.append(sum(((1 << w) - 1) << (w * c) for c in firsts))  # their fields
        sums.append(sum(((1 << (side + 1)) - 2) << (w * c) for c in firsts))  # 2 + .. + 512
    low, high = bytes(p & 255 for p in power), bytes(p >> 8 for p in power)
    return low, high, sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]


def lines_hold_all(plan: LinePlan, solved: bytes) -> bool:
    """Whether every unit of a classic 9x9 grid (values 1..9 as bytes) holds nine
    different values, by shifts and adds of one number: cell ``c`` holding ``v`` is
    ``2**v`` in the field of ``W`` bits at ``W * c``; a row's fields (each ``W`` on), a
    column's (``9 W``) and a box's add up at its first cell, where nine distinct values
    give ``2 + 4 + ... + 512`` and a repeat cannot (it carries). No field carries into the
    next (nine values add up to less than 2**W). About 1.5 us less than a lookup per cell.
    """
    low, high, row_mask, row_full, col_mask, col_full, box_mask, box_full = plan
    w = LINE_FIELD
    fields = bytearray(2 * len(solved))
    fields[0::2] = solved.translate(low)
    fields[1::2] = solved.translate(high)
    x = int.from_bytes(fields, "little")
    pair = x + (x >> w)
    four = pair + (pair >> 2 * w)
    rows = four + (four >> 4 * w) + (x >> 8 * w)  # fields c .. c + 8
    pair = x + (x >> 9 * w)
    four = pair + (pair >> 18 * w)
    cols = four + (four >> 36 * w) + (x >> 72 * w)  # fields c, c + 9, .., c + 72
    three = x + (x >> w) + (x >> 2 * w)
    boxes = three + (three >> 9 * w) + (three >> 18 * w)  # three rows of three
    return rows & row_mask == row_full and cols & col_mask == col_full \
        and boxes & box_mask == box_full
