"""Pictures of Sudoku boards as SVG: givens in black, filled-in values in blue, box or
region borders thick, the extra units of a variant shaded (X diagonals, Windoku windows)
and killer cages dashed with their sums; and pictures of one step of an explanation.

[`draw_board`][] returns a [`dlx.Picture`][], which Jupyter shows by itself and
``Picture.save`` writes to a file; ``sudoku --svg FILE`` writes one too. [`draw_step`][]
draws a [`sudoku.Step`][] on the position it was found in, as HoDoKu and SudokuWiki show
a step: the pencil marks, the units of the pattern in one colour and its cells in
another, the candidates it eliminates struck through in red, the value it places in green.

>>> import sudoku
>>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> picture = sudoku.draw_board(puzzle, sudoku.solve_string(puzzle))
>>> picture.width, picture.svg.count('class="given"'), picture.svg.count('class="filled"')
(380, 17, 64)
"""

from __future__ import annotations

from html import escape
from math import isqrt
from typing import Any

from dlx import Picture, svg_document

from .errors import ArgumentError, ShapeError, SudokuError
from .grid import DEFAULT_SYMBOLS, Geometry, parse_board, parse_string
from .layout import Layout, box_owners, draws_layouts, region_owners
from .tables import tables

__all__ = ["ELIMINATED", "FILLED", "GIVEN", "LINE", "PATTERN", "PLACED", "SHADE", "UNIT",
           "draw_board", "draw_rules", "draw_step", "rules_body"]

GIVEN = "#111111"
"""The color of the givens' symbols."""
FILLED = "#1f5fbf"
"""The color of the symbols a solution filled in."""
UNIT = "#fff1b8"
"""A step's picture: the background of the cells of the units that make its pattern."""
PATTERN = "#bcd8ff"
"""A step's picture: the background of the pattern's cells (their pattern values bold in
``FILLED``'s blue)."""
PLACED = "#c9efc2"
"""A step's picture: the background of a cell the step fills in; its value in
``PLACED_INK``."""
PLACED_INK = "#1a7f1a"
"""A step's picture: the color of the value the step places."""
ELIMINATED = "#d0191b"
"""A step's picture: the color of an eliminated candidate and of the line through it."""
PENCIL = "#6b6b6b"
"""A step's picture: the color of the other candidates."""
SHADE = {"diagonal": "#e8e0f5", "window": "#dcebf7"}
"""Background of the cells of a variant's extra units, by kind of unit, in pictures."""
LINE = "#333333"
"""The color of a picture's box lines, cage lines and sums."""


def _values(board: Any, alphabet: str | None, layout: Layout | None) -> tuple[Geometry,
                                                                               list[int]]:
    if isinstance(board, str):
        return parse_string(board, alphabet, layout)
    geo, values, _ = parse_board(board, alphabet, layout)
    return geo, values


def draw_board(board: Any, solution: Any = None, *, alphabet: str | None = None,
         layout: Layout | None = None, cell: int = 40) -> Picture:
    """A picture of ``board`` (any kind [`sudoku.solve`][] takes, or a puzzle string),
    with the values of ``solution`` (same kinds; optional) in the blanks, in another color.

    The layout's rules are drawn: thick lines around boxes (or a jigsaw's regions), the
    cells of extra units shaded (diagonals, windows), killer cages dashed inside their
    cells with the cage's sum in its first cell. ``cell`` is the size of a cell in pixels.
    The usual [`SudokuError`][] for a bad board; ShapeError if ``solution`` is not a grid
    of the same size, or changes a given.
    """
    geo, values = _values(board, alphabet, layout)
    filled = [0] * len(values)
    if solution is not None:
        try:
            _, answer = _values(solution, alphabet, geo.layout)
        except SudokuError as e:  # the same error, saying which argument is at fault
            raise type(e)(f"solution: {e}") from None
        if len(answer) != len(values):
            raise ShapeError(f"solution has {len(answer)} cells, the board {len(values)}")
        for c, (given, value) in enumerate(zip(values, answer)):
            if given and value != given:
                raise ShapeError(f"solution changes the given at {geo.where(c)}")
            filled[c] = 0 if given else value
    if not isinstance(cell, int) or isinstance(cell, bool) or not 8 <= cell <= 400:
        raise ArgumentError(f"cell must be an int number of pixels in 8..400, got {cell!r}")
    return _picture(geo, values, filled, cell)


def _picture(geo: Geometry, values: list[int], filled: list[int], cell: int) -> Picture:
    lay, side = geo.layout, geo.side
    pad = cell // 4

    def xy(c: int) -> tuple[int, int]:
        return pad + (c % side) * cell, pad + (c // side) * cell

    body = rules_body(lay, pad, cell)
    symbols = "." + geo.alphabet
    size = cell * (0.6 if side <= 9 else 0.5 if side <= 16 else 0.4)
    low = 0.5
    if lay.cages:  # room for the cage sums at the top left: the symbols a little lower
        size, low = size * 0.75, 0.62
    for c in range(len(values)):
        value, kind, color = ((values[c], "given", GIVEN) if values[c]
                              else (filled[c], "filled", FILLED))
        if not value:
            continue
        x, y = xy(c)
        weight = ' font-weight="bold"' if kind == "given" else ""
        body.append(f'<text class="{kind}" x="{x + cell / 2:g}" y="{y + cell * low:g}" '
                    f'font-size="{size:g}" text-anchor="middle" dominant-baseline="central" '
                    f'fill="{color}"{weight}>{escape(symbols[value])}</text>')
    full = side * cell + 2 * pad
    givens = sum(1 for v in values if v)
    return svg_document(full, full, body, f"a {side}x{side} sudoku with {givens} givens")


def draw_step(step: Any, *, alphabet: str | None = None, cell: int = 54) -> Picture:
    """A picture of ``step`` on the position it was found in (``step.grid``, which the steps
    of [`sudoku.explain`][] and [`sudoku.hint`][] carry): the board with the values
    placed so far in black and every open cell's candidates pencilled in small; the cells
    of the units that make the step's pattern in yellow (``UNIT``), the pattern's own
    cells in blue (``PATTERN``) with the pattern's values bold; each candidate the step
    eliminates in red, struck through (``ELIMINATED``), and each value it places large
    in green (on ``PLACED``). The layout's rules are drawn as by [`draw_board`][]; the
    picture's title is the step in words.

    ``cell`` is the size of a cell in pixels (24..400). ArgumentError for a step without
    its grid or layout (one made by hand).
    """
    # a Step by what it has: sudoku.techniques draws its steps with this module, which
    # therefore does not import it (no import cycle, tests/test_architecture.py)
    if not all(hasattr(step, name) for name in ("technique", "grid", "eliminations")):
        raise ArgumentError(f"step must be a sudoku.Step, got {type(step).__name__}")
    if step.layout is None or step.grid is None:
        raise ArgumentError(f"this {step.technique} step has no grid of its own (the steps "
                            "of sudoku.explain and sudoku.hint have one)")
    if not isinstance(cell, int) or isinstance(cell, bool) or not 24 <= cell <= 400:
        raise ArgumentError(f"cell must be an int number of pixels in 24..400, got {cell!r}")
    layout = step.layout
    symbols = "." + (alphabet or DEFAULT_SYMBOLS)[:layout.side]
    return svg_document(*_step_body(step, layout, symbols, cell), title=step.describe(
        alphabet=alphabet))


def step_marks(step: Any) -> dict[int, str]:
    """How [`draw_step`][] colours each cell of ``step``'s picture: ``"placed"``,
    ``"pattern"`` or ``"unit"`` (the cells it highlights; the rest are plain)."""
    assert step.layout is not None
    units = tables(step.layout).units
    marks = {c: "unit" for u in step.units for c in units[u]}
    marks.update({c: "pattern" for c in step.cells})
    if step.technique != "search":
        marks.update({c: "placed" for c, _ in step.placements})
    return marks


def _step_body(step: Any, layout: Layout, symbols: str, cell: int) -> tuple[int, int,
                                                                            list[str]]:
    side = layout.side
    values, masks = step.grid  # type: ignore[misc]
    pad = cell // 4
    marks = step_marks(step)
    fills = {"unit": UNIT, "pattern": PATTERN, "placed": PLACED}
    body = []
    for c, mark in sorted(marks.items()):
        r, k = divmod(c, side)
        body.append(f'<rect class="{mark}" x="{pad + k * cell}" y="{pad + r * cell}" '
                    f'width="{cell}" height="{cell}" fill="{fills[mark]}"/>')
    shaded = {(pad + (c % side) * cell, pad + (c // side) * cell) for c in marks}
    for element in rules_body(layout, pad, cell):  # a variant's shading gives way
        if element.startswith('<rect x="') and f'width="{cell}"' in element:
            x, y = (int(element.split(f'{a}="')[1].split('"')[0]) for a in "xy")
            if (x, y) in shaded:
                continue
        body.append(element)
    placed = dict(step.placements) if step.technique != "search" else {}
    out = {(c, v) for c, v in step.eliminations}
    pattern_values = set(step.values)
    columns = isqrt(side - 1) + 1  # the candidates of a cell in a grid: 3 x 3 for 9
    rows = -(-side // columns)
    small = cell / (max(columns, rows) + 0.9) * (0.75 if layout.cages else 1)
    big = cell * (0.6 if side <= 9 else 0.5 if side <= 16 else 0.4)
    low = 0.62 if layout.cages else 0.5
    shown, pencil, marked = [], [], []
    for c in range(side * side):
        x, y = pad + (c % side) * cell, pad + (c // side) * cell
        if values[c] or c in placed:
            kind = ' class="placed" fill="' + PLACED_INK + '"' if c in placed else ""
            value = placed.get(c) or values[c]
            shown.append(f'<text{kind} x="{x + cell / 2:g}" y="{y + cell * low:g}">'
                         f"{escape(symbols[value])}</text>")
            continue
        # inside a killer's dashed cage lines, below its sum: a smaller box
        left, top = (x + cell * 0.12, y + cell * 0.3) if layout.cages else (x, y)
        width, height = x + cell - left - (left - x), y + cell - top - (left - x)
        for v in range(1, side + 1):
            if not masks[c] >> (v - 1) & 1:
                continue
            i, j = divmod(v - 1, columns)
            cx = left + width * (j + 0.5) / columns
            cy = top + height * (i + 0.5) / rows
            where = f'x="{cx:g}" y="{cy:g}">{escape(symbols[v])}</text>'
            if (c, v) in out:
                half = small * 0.45
                marked.append(f'<text class="eliminated" fill="{ELIMINATED}" {where}'
                              f'<line class="strike" x1="{cx - half:g}" y1="{cy + half:g}" '
                              f'x2="{cx + half:g}" y2="{cy - half:g}" stroke="{ELIMINATED}" '
                              f'stroke-width="{max(1.5, small / 8):g}"/>')
            elif marks.get(c) == "pattern" and v in pattern_values:
                marked.append(f'<text class="pattern-value" fill="{FILLED}" {where}')
            else:
                pencil.append(f"<text {where}")
    centred = 'text-anchor="middle" dominant-baseline="central"'
    body.append(f'<g class="values" {centred} font-size="{big:g}" font-weight="bold" '
                f'fill="{GIVEN}">{"".join(shown)}</g>')
    body.append(f'<g class="candidates" {centred} font-size="{small:g}" fill="{PENCIL}">'
                f'{"".join(pencil)}</g>')
    body.append(f'<g class="marked" {centred} font-size="{small:g}" font-weight="bold">'
                f'{"".join(marked)}</g>')
    full = side * cell + 2 * pad
    return full, full, body


# ----- the rules drawn (Layout.picture, draw_board, draw_step) ------------------------------


@draws_layouts
def draw_rules(layout: Layout, cell: int = 24) -> Picture:
    """The rules of ``layout`` drawn on an empty grid: boxes or regions, shaded extra
    units, cages with their sums; ``cell`` pixels a cell (what ``Layout.picture`` and
    Jupyter's view of a layout show)."""
    pad = cell // 4
    full = layout.side * cell + 2 * pad
    return svg_document(full, full, rules_body(layout, pad, cell), repr(layout)[1:-1])


def rules_body(layout: Layout, pad: int, cell: int) -> list[str]:
    """The SVG elements of the rules, the grid's top left at (``pad``, ``pad``): shaded
    extra units, thin cell lines, thick box or region lines, cages, and the frame."""
    side, t = layout.side, tables(layout)
    body = []
    for kind, cells in zip(t.kinds, t.units):
        fill = SHADE.get(kind)
        for c in cells if fill else ():
            r, k = divmod(c, side)
            body.append(f'<rect x="{pad + k * cell}" y="{pad + r * cell}" width="{cell}" '
                        f'height="{cell}" fill="{fill}"/>')
    thin = [f"M{pad} {pad + k * cell}h{side * cell}M{pad + k * cell} {pad}v{side * cell}"
            for k in range(1, side)]
    body.append(f'<path d="{"".join(thin)}" stroke="#9a9a9a" stroke-width="1"/>')
    body.append(_thick(layout, pad, cell))
    body.extend(_cages(layout, pad, cell))
    body.append(f'<rect x="{pad}" y="{pad}" width="{side * cell}" height="{side * cell}" '
                f'fill="none" stroke="{LINE}" stroke-width="3"/>')
    return body


def _thick(layout: Layout, pad: int, cell: int) -> str:
    """Thick lines between cells of different boxes, or of different jigsaw regions."""
    side = layout.side
    owner = region_owners(layout)
    if owner is None:
        owner = box_owners(layout)
    if owner is None:  # a Latin square: no boxes
        return ""
    segments = []
    for c in range(side * side):
        r, k = divmod(c, side)
        x, y = pad + k * cell, pad + r * cell
        if k + 1 < side and owner[c] != owner[c + 1]:
            segments.append(f"M{x + cell} {y}v{cell}")
        if r + 1 < side and owner[c] != owner[c + side]:
            segments.append(f"M{x} {y + cell}h{cell}")
    return (f'<path d="{"".join(segments)}" stroke="{LINE}" stroke-width="2.5" '
            'stroke-linecap="square"/>')


def _cages(layout: Layout, pad: int, cell: int) -> list[str]:
    """Each cage outlined by a dashed line just inside its cells, its sum in a white
    patch at the top left of its first cell (the patch cuts the dashes, so that no stub of
    them sits beside the sum)."""
    side, inset = layout.side, max(2, cell // 10)
    owner = tables(layout).cage_of
    out = []
    for i, (cells, total) in enumerate(layout.cages):
        segments = []
        for c in cells:
            r, k = divmod(c, side)
            x0, y0 = pad + k * cell + inset, pad + r * cell + inset
            x1, y1 = pad + (k + 1) * cell - inset, pad + (r + 1) * cell - inset

            def other(dr: int, dk: int, r: int = r, k: int = k, i: int = i) -> bool:
                rr, kk = r + dr, k + dk
                return not (0 <= rr < side and 0 <= kk < side) or owner[rr * side + kk] != i

            # each side of the cell: to the inset line if a neighbour is outside the cage,
            # else through to the cell's edge (so the dashes of one cage join up)
            left = x0 if other(0, -1) else x0 - inset
            right = x1 if other(0, 1) else x1 + inset
            top = y0 if other(-1, 0) else y0 - inset
            bottom = y1 if other(1, 0) else y1 + inset
            if other(-1, 0):
                segments.append(f"M{left} {y0}H{right}")
            if other(1, 0):
                segments.append(f"M{left} {y1}H{right}")
            if other(0, -1):
                segments.append(f"M{x0} {top}V{bottom}")
            if other(0, 1):
                segments.append(f"M{x1} {top}V{bottom}")
        out.append(f'<path d="{"".join(segments)}" stroke="{LINE}" stroke-width="1" '
                   'stroke-dasharray="3 2" fill="none"/>')
        r, k = divmod(cells[0], side)
        size = cell * 0.26
        x, y = pad + k * cell + inset, pad + r * cell + inset
        out.append(f'<rect x="{x - 1.5:g}" y="{y - 1.5:g}" '
                   f'width="{len(str(total)) * size * 0.62 + 4:g}" height="{size + 3:g}" '
                   'fill="#ffffff"/>')
        out.append(f'<text class="cage" x="{x + 1:g}" y="{y + size * 0.85:g}" '
                   f'font-size="{size:g}" font-weight="bold" fill="{LINE}">{total}</text>')
    return out
