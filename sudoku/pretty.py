"""Grids drawn as text, for people: box lines, region borders, the cells of extra units
in brackets, a killer's cages with their sums ([`sudoku.grid.format_grid`][] with
``pretty``; ``sudoku --pretty``). Reading and solving never come here."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ArgumentError, culprit
from .layout import Layout, box_owners, region_owners
from .tables import tables

__all__ = ["draw_grid", "draw_regions"]


def draw_grid(layout: Layout, chars: Sequence[str],
              cages: Sequence[tuple[Sequence[int], int]] | None = None) -> str:
    """[`format_grid`][] with ``pretty``, of a grid given by its cells' symbols (a
    solved line as it is printed, say: nothing to parse again)."""
    side = layout.side
    if cages is not None:
        return _draw_cages(layout, chars, cages)
    owner = region_owners(layout)
    marked = _marked_cells(layout)
    boxed = owner is None and bool(marked) and layout.block is not None
    if boxed:
        owner = box_owners(layout)
    if owner is not None:
        texts = [f"[{ch}]" if c in marked else f" {ch} " for c, ch in enumerate(chars)]
        lines = draw_regions(side, texts, owner)
        if boxed:  # the rules inside a box are empty: leave them out
            lines = [s for k, s in enumerate(lines) if k % 2 or "-" in s]
        return "\n".join(lines)
    rows, cols = layout.block or (side, side)  # no boxes: no lines
    stacks = side // cols
    rule = "+".join(["-" * (2 * cols)] + ["-" * (2 * cols + 1)] * (stacks - 2)
                    + ["-" * (2 * cols)])
    lines = []
    for r in range(side):
        if r and r % rows == 0:
            lines.append(rule)
        row = chars[r * side : (r + 1) * side]
        lines.append(" | ".join(" ".join(row[b : b + cols]) for b in range(0, side, cols)))
    return "\n".join(lines)


_DRAWN_KINDS = frozenset({"row", "column", "box", "region"})
"""The kinds of unit a drawing shows by its lines; the cells of the others are marked."""


def _marked_cells(layout: Layout) -> frozenset[int]:
    """The cells of the units that lines do not show (diagonals, windows...)."""
    t = tables(layout)
    return frozenset(c for kind, cells in zip(t.kinds, t.units)
                     if kind not in _DRAWN_KINDS for c in cells)


def _draw_cages(layout: Layout, chars: Sequence[str],
                cages: Sequence[tuple[Sequence[int], int]]) -> str:
    """A killer drawn twice side by side with its cage borders and its box lines (dotted
    where no cage border runs): the symbols, and each cage's sum at the cage's first cell
    (row-major). ArgumentError unless the cages are (cells, int sum) pairs that cover each
    cell once."""
    side = layout.side
    owner = [-1] * side * side
    sums = ["   "] * side * side
    for k, (cells, total) in enumerate(cages):
        if not cells or not all(type(c) is int and 0 <= c < side * side and owner[c] == -1
                                for c in cells) or type(total) is not int:
            raise ArgumentError(f"cage {k + 1} ({culprit(cells)}, {culprit(total)}) is not "
                                "a set of cells of the grid, in no other cage, with an int sum")
        for c in cells:
            owner[c] = k
        sums[min(cells)] = f"{total:>3}" if 0 <= total < 1000 else "###"
    if -1 in owner:
        r, c = divmod(owner.index(-1), side)
        raise ArgumentError(f"the cages leave r{r + 1}c{c + 1} out")
    boxes = box_owners(layout)
    left = draw_regions(side, [f" {ch} " for ch in chars], owner, boxes)
    right = draw_regions(side, sums, owner, boxes)
    return "\n".join(f"{a}   {b}" for a, b in zip(left, right))


def draw_regions(side: int, texts: Sequence[str], owner: Sequence[int],
                 dotted: Sequence[int] | None = None) -> list[str]:
    """The lines of a grid of ``texts`` (one per cell, all as wide) framed, with a line
    between any two neighbouring cells of different ``owner`` (region, cage): ``|``
    between cells side by side, ``-`` under a cell whose lower neighbour differs. Where
    only ``dotted`` (a second partition, the boxes under a killer's cages) changes, the
    line is dotted: ``:`` and ``.``. At the corners, ``+`` where lines of both directions
    meet."""
    width = len(texts[0]) if texts else 1

    def line(part: Sequence[int], a: tuple[int, int], b: tuple[int, int]) -> bool:
        inside = [0 <= r < side and 0 <= c < side for r, c in (a, b)]
        if not any(inside):
            return False
        if not all(inside):
            return True
        return part[a[0] * side + a[1]] != part[b[0] * side + b[1]]

    def kind(a: tuple[int, int], b: tuple[int, int]) -> int:  # 2 solid, 1 dotted, 0 none
        return 2 if line(owner, a, b) else 1 if dotted is not None and line(dotted, a, b) \
            else 0

    def wall(r: int, c: int) -> int:  # between (r, c) and (r, c + 1)
        return kind((r, c), (r, c + 1)) if 0 <= r < side else 0

    def floor(r: int, c: int) -> int:  # between (r, c) and (r + 1, c)
        return kind((r, c), (r + 1, c)) if 0 <= c < side else 0

    def corner(r: int, c: int) -> str:  # below-right of (r, c)
        vertical = max(wall(r, c), wall(r + 1, c))
        horizontal = max(floor(r, c), floor(r, c + 1))
        if vertical and horizontal:
            return "+"
        return " :|"[vertical] if vertical else " .-"[horizontal]

    lines = []
    for r in range(-1, side):
        if r >= 0:
            lines.append("".join(" :|"[wall(r, c - 1)] + texts[r * side + c]
                                 for c in range(side)) + "|")
        lines.append("".join(corner(r, c - 1) + " .-"[floor(r, c)] * width
                             for c in range(side)) + corner(r, side - 1))
    return lines
