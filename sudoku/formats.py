"""The Sudoku-variant line formats: one puzzle per line, its rules in the line itself.

Read with [`read_variant`][], written back with [`write_variant`][] (the formats of
``shared/data/sudoku_variants/SOURCES.md``):

============  ==========================  ==============================================
variant       line                        rules
============  ==========================  ==============================================
``x``         ``GIVENS``                  square boxes and both main diagonals
``windoku``   ``GIVENS`` (81 symbols)     3x3 boxes and the four windows
``rect``      ``GIVENS``                  boxes of ``block=(rows, cols)``
``jigsaw``    ``GIVENS REGIONS``          rows, columns and N irregular regions
``killer``    ``CAGEMAP SUMS [GIVENS]``   boxes of ``block`` and cages that add up
============  ==========================  ==============================================

Fields are separated by one space. ``REGIONS`` names each cell's region with a letter
(``a-zA-Z``, in any order, as [`Layout.jigsaw`][] takes them), ``CAGEMAP`` each cell's
cage with a label of ``0-9a-zA-Z``, both row-major; cage labels are assigned in order of
first appearance (the first cell is in cage ``0``), and [`write_variant`][] writes region
letters so too (the first cell is in region ``a``), so that each layout has one written
spelling. ``SUMS`` holds the cage sums, comma-separated, in label order; a killer without
``GIVENS`` starts empty. Every mistake is a [`FormatError`][] naming the field and the
position at fault (the givens' symbols are read as [`sudoku.parse_string`][] reads them,
with the line's layout). Nothing is cached here: the layouts' own constructors are.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from math import isqrt
from typing import Any

from .errors import AlphabetError, ArgumentError, FormatError, SudokuError, culprit
from .grid import parse_string, region_owners
from .layout import Layout

__all__ = ["CAGE_LABELS", "REGION_LABELS", "VARIANTS", "Cages", "cage_map", "killer_cages",
           "read_killer", "read_line", "read_variant", "region_map", "write_variant"]

VARIANTS = ("x", "windoku", "jigsaw", "killer", "rect")
"""The variant names [`read_variant`][] reads (and the ``sudoku --variant`` choices)."""
REGION_LABELS = string.ascii_lowercase + string.ascii_uppercase
"""Jigsaw region letters, in the order regions first appear: ``a``, ``b``, ..."""
CAGE_LABELS = string.digits + string.ascii_lowercase + string.ascii_uppercase
"""Killer cage labels, in the order cages first appear: ``0``-``9``, ``a``-``z``, ``A``-``Z``."""
MAX_SUM_DIGITS = 6
"""Longest cage sum read: larger numbers are no sum of any grid, and ``int()`` of a
thousand digits is slow (and refused from 4301 digits on)."""

Cages = tuple[tuple[tuple[int, ...], int], ...]
"""Killer cages: per cage, its cells (cell numbers, row-major) and their sum."""

_FIELDS = {"x": ("GIVENS",), "windoku": ("GIVENS",), "rect": ("GIVENS",),
           "jigsaw": ("GIVENS", "REGIONS"), "killer": ("CAGEMAP", "SUMS", "GIVENS")}


def read_variant(line: str, variant: str, *, block: tuple[int, int] | None = None,
                 alphabet: str | None = None) -> tuple[Layout, str]:
    """The layout and the givens of one line of ``variant`` (one of `VARIANTS`).

    The lines, fields separated by one space, grids row-major, one character a cell:

    * ``x``: ``GIVENS`` (16, 81, 256... symbols); square boxes and both diagonals.
    * ``windoku``: ``GIVENS`` (81 symbols); 3x3 boxes and the four windows.
    * ``rect``: ``GIVENS``, with ``block=(rows, cols)``, the boxes.
    * ``jigsaw``: ``GIVENS REGIONS``; REGIONS gives each cell's region as a letter
      (``a-zA-Z``, any order): N regions of N connected cells.
    * ``killer``: ``CAGEMAP SUMS [GIVENS]``; CAGEMAP gives each cell's cage as a label
      ``0-9a-zA-Z``, new labels in that order as cages first appear; SUMS the cage sums,
      comma-separated, in label order; without GIVENS the grid starts empty.

    For example ``"0011002234553456 10,4,6,5,5,6,4 .........2.1...."`` with
    ``block=(2, 2)`` is a 4x4 killer of seven cages and two givens.

    ``block`` is the (rows, cols) of the boxes: required for ``rect``, and for a killer
    that is not 9x9 (3 x 3 by default); no other variant takes one. ``alphabet`` is the
    symbols of the givens, as for [`sudoku.parse_string`][]. FormatError names the field
    and position at fault; a bad ``variant``, ``block`` or ``line`` type is an
    ArgumentError, a bad alphabet an AlphabetError.
    """
    if variant == "killer":
        layout, givens, _ = _read_killer(line, block, alphabet)
        return layout, givens
    fields = _fields(line, variant, block)
    givens = fields[0]
    if variant == "jigsaw":
        regions = fields[1]
        _check_labels(regions, REGION_LABELS, "REGIONS", "region", ordered=False)
        layout = _layout("REGIONS", Layout.jigsaw, regions)
    else:
        side = _side(givens, "GIVENS")
        if variant == "rect":
            layout = _layout("--box", Layout.rect, *_block(block, side))
        elif variant == "windoku":
            if side != 9:
                raise FormatError(f"GIVENS: a Windoku has 81 cells, got {len(givens)}")
            layout = Layout.windoku()
        else:
            box = isqrt(side)
            if box * box != side:
                raise FormatError(f"GIVENS: an X-Sudoku has n^4 cells (16, 81, 256...), got "
                                  f"{len(givens)}")
            layout = _layout("GIVENS", Layout.x, box)
    _check_givens(givens, layout, alphabet, "GIVENS")
    return layout, givens


def read_killer(line: str, *, block: tuple[int, int] | None = None,
                alphabet: str | None = None) -> tuple[Layout, str, Cages]:
    """[`read_variant`][] of a killer line, with its cages too (for drawing them)."""
    return _read_killer(line, block, alphabet)


def read_line(line: str, variant: str | None, *, block: tuple[int, int] | None = None,
              alphabet: str | None = None) -> tuple[Layout | None, str, Cages | None]:
    """One puzzle line of ``variant``, or of a plain puzzle (None: boxes of ``block`` if
    given, else square boxes by its size): its layout (None for square boxes), its givens
    and, for a killer, its cages (else None). The one dispatch on the variant, which every
    path of the ``sudoku`` command takes; errors as for [`read_variant`][]."""
    if variant is None:
        return (None if block is None else Layout.rect(*block)), line, None
    if variant == "killer":
        return _read_killer(line, block, alphabet)
    layout, givens = read_variant(line, variant, block=block, alphabet=alphabet)
    return layout, givens, None


def write_variant(variant: str, givens: str, *, layout: Layout | None = None,
                  cages: Cages | None = None) -> str:
    """The line [`read_variant`][] reads back as ``givens`` with these rules: for a
    jigsaw the regions of ``layout``, for a killer ``cages`` (its third field, the givens,
    is left out when they are all blank). The other variants are their givens alone."""
    if variant not in VARIANTS:
        raise ArgumentError(f"variant must be one of {', '.join(VARIANTS)}, got "
                            f"{culprit(variant)}")
    if variant == "jigsaw":
        if not isinstance(layout, Layout):
            raise ArgumentError("a jigsaw line needs the layout of its regions")
        return f"{givens} {region_map(layout)}"
    if variant == "killer":
        if cages is None:
            raise ArgumentError("a killer line needs its cages")
        side = isqrt(len(givens))
        cagemap, sums = cage_map(cages, side)
        blank = givens == "." * len(givens)  # what a line without GIVENS reads back as
        return f"{cagemap} {sums}" if blank else f"{cagemap} {sums} {givens}"
    return givens


def region_map(layout: Layout) -> str:
    """The REGIONS field of a jigsaw layout: per cell its region's letter, letters given in
    order of first appearance. ArgumentError if the layout has no region units."""
    owner = region_owners(layout)
    if owner is None:
        raise ArgumentError("the layout has no regions covering every cell (not a jigsaw)")
    return _relabel(owner, REGION_LABELS)


def killer_cages(cagemap: str, sums: str) -> Cages:
    """The cages of a CAGEMAP and SUMS pair, in label order (FormatError if malformed)."""
    side = _side(cagemap, "CAGEMAP")
    cells = _check_labels(cagemap, CAGE_LABELS, "CAGEMAP", "cage")
    totals = sums.split(",")
    if len(totals) != len(cells):
        raise FormatError(f"SUMS: {len(totals)} sums for {len(cells)} cages (labels "
                          f"{CAGE_LABELS[0]}..{CAGE_LABELS[len(cells) - 1]} of the "
                          f"{side}x{side} cage map)")
    for k, total in enumerate(totals):
        if not (total.isascii() and total.isdigit()) or len(total) > MAX_SUM_DIGITS:
            raise FormatError(f"SUMS: sum {k + 1} (cage {CAGE_LABELS[k]}) is "
                              f"{culprit(total)}, not an int of 1 to {MAX_SUM_DIGITS} digits")
    return tuple((tuple(group), int(total)) for group, total in zip(cells, totals))


def cage_map(cages: Cages, side: int) -> tuple[str, str]:
    """The CAGEMAP and SUMS fields of ``cages`` on a ``side`` x ``side`` grid, cages
    relabelled in order of first appearance. ArgumentError unless the cages cover each
    cell exactly once (and there are at most 62 of them)."""
    owner = [-1] * (side * side)
    for k, (cells, _) in enumerate(cages):
        for c in cells:
            if not 0 <= c < side * side or owner[c] != -1:
                raise ArgumentError(f"cage {k + 1}: cell {culprit(c)} is off the grid or "
                                    "in another cage")
            owner[c] = k
    if -1 in owner:
        raise ArgumentError(f"cell {owner.index(-1)} is in no cage")
    if len(cages) > len(CAGE_LABELS):
        raise ArgumentError(f"{len(cages)} cages: the format labels at most "
                            f"{len(CAGE_LABELS)}")
    order = list(dict.fromkeys(owner))  # cage numbers in order of first appearance
    return _relabel(owner, CAGE_LABELS), ",".join(str(cages[k][1]) for k in order)


# ----- helpers --------------------------------------------------------------------------------


def _read_killer(line: Any, block: Any, alphabet: str | None) -> tuple[Layout, str, Cages]:
    fields = _fields(line, "killer", block)
    cagemap, sums = fields[0], fields[1]
    cages = killer_cages(cagemap, sums)
    side = isqrt(len(cagemap))
    givens = fields[2] if len(fields) == 3 else "." * (side * side)
    if len(givens) != side * side:
        raise FormatError(f"GIVENS: {len(givens)} symbols for the {side}x{side} cage map")
    rows, cols = _block((3, 3) if block is None and side == 9 else block, side)
    layout = _layout("CAGEMAP/SUMS", Layout.killer, cages, block=(rows, cols))
    _check_givens(givens, layout, alphabet, "GIVENS")
    return layout, givens, cages


def _fields(line: Any, variant: Any, block: Any) -> list[str]:
    """The line's fields, checked against the variant's list (a killer's GIVENS may be
    left out); ``block`` only for the variants that take one."""
    if variant not in VARIANTS:
        raise ArgumentError(f"variant must be one of {', '.join(VARIANTS)}, got "
                            f"{culprit(variant)}")
    if not isinstance(line, str):
        raise ArgumentError(f"a line must be a str, got {type(line).__name__}")
    if block is not None and variant not in ("rect", "killer"):
        raise ArgumentError(f"a {variant} line takes no block (box shape), got "
                            f"{culprit(block)}")
    names = _FIELDS[variant]
    fields = line.strip().split(" ")
    least = 2 if variant == "killer" else len(names)
    if not least <= len(fields) <= len(names):
        want = "CAGEMAP SUMS [GIVENS]" if variant == "killer" else " ".join(names)
        raise FormatError(f"expected {want}, fields one space apart: got {len(fields)} "
                          f"field{'s' if len(fields) != 1 else ''}")
    for name, text in zip(names, fields):
        if not text:
            raise FormatError(f"{name} is empty (fields are separated by one space)")
    return fields


def _side(text: str, name: str) -> int:
    """The side N of a field of N*N characters (FormatError naming the field if none)."""
    side = isqrt(len(text))
    if side * side != len(text) or side < 2:
        raise FormatError(f"{name}: {len(text)} characters is not an N x N grid")
    return side


def _block(block: Any, side: int) -> tuple[int, int]:
    """``block`` checked: two ints (rows, cols) whose product is the side."""
    if block is None:
        raise ArgumentError(f"a {side}x{side} grid needs its box shape: block=(rows, cols) "
                            "(--box RxC)")
    if not isinstance(block, tuple) or len(block) != 2 \
            or not all(type(n) is int and n >= 1 for n in block):
        raise ArgumentError(f"block must be a tuple (rows, cols) of ints >= 1, got "
                            f"{culprit(block)}")
    if block[0] * block[1] != side:
        raise FormatError(f"boxes of {block[0]}x{block[1]} do not tile a {side}x{side} grid")
    return block


def _check_labels(text: str, labels: str, name: str, kind: str,
                  ordered: bool = True) -> list[list[int]]:
    """The cells of each label of a map, checking that each is one of ``labels`` and, if
    ``ordered``, that labels are taken in order of first appearance (row-major); FormatError
    names the first cell at fault."""
    side = _side(text, name)
    groups: dict[str, list[int]] = {}
    for cell, ch in enumerate(text):
        if ch not in groups:
            expected = labels[len(groups)] if len(groups) < len(labels) else None
            if ch != expected and (ordered or ch not in labels):
                r, c = divmod(cell, side)
                why = (f"is no {kind} label ({labels[0]}..{labels[-1]})" if ch not in labels
                       else f"is out of order: the next new {kind} must be {expected!r}"
                       if expected else f"is a {kind} too many")
                raise FormatError(f"{name}: {culprit(ch)} at position {cell + 1} "
                                  f"(r{r + 1}c{c + 1}) {why}")
            groups[ch] = []
        groups[ch].append(cell)
    return list(groups.values())


def _relabel(owner: Sequence[int], labels: str) -> str:
    """A map of cell owners (any ids) as labels given in order of first appearance."""
    names: dict[int, str] = {}
    for k in owner:
        if k not in names:
            names[k] = labels[len(names)]
    return "".join(map(names.__getitem__, owner))


def _layout(name: str, build: Any, *args: Any, **kwargs: Any) -> Layout:
    """A layout constructor's LayoutError as a FormatError naming the field."""
    try:
        return build(*args, **kwargs)
    except SudokuError as e:
        raise FormatError(f"{name}: {e}") from e


def _check_givens(givens: str, layout: Layout, alphabet: str | None, name: str) -> None:
    """FormatError naming the field unless ``givens`` are N*N symbols or blanks of the
    layout's side (an AlphabetError for the alphabet itself stays one)."""
    if len(givens) != layout.cells:
        raise FormatError(f"{name}: {len(givens)} symbols, the {layout.side}x{layout.side} "
                          f"grid has {layout.cells} cells")
    try:
        parse_string(givens, alphabet, layout)
    except AlphabetError:
        raise
    except SudokuError as e:
        raise FormatError(f"{name}: {e}") from e
