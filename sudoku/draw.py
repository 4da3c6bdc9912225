"""Pictures of Sudoku boards as SVG: givens in black, filled-in values in blue, box or
region borders thick, the extra units of a variant shaded (X diagonals, Windoku windows)
and killer cages dashed with their sums.

`draw_board` returns a :class:`dlx.Picture`, which Jupyter shows by itself and
``Picture.save`` writes to a file; ``sudoku --svg FILE`` writes one too.

>>> import sudoku
>>> puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
>>> picture = sudoku.draw_board(puzzle, sudoku.solve_string(puzzle))
>>> picture.width, picture.svg.count('class="given"'), picture.svg.count('class="filled"')
(380, 17, 64)
"""

from __future__ import annotations

from html import escape
from typing import Any

from dlx import Picture, svg_document

from .errors import ArgumentError, ShapeError, SudokuError
from .grid import Geometry, box_owners, parse_board, parse_string, region_owners
from .layout import Layout

__all__ = ["FILLED", "GIVEN", "draw_board"]

GIVEN = "#111111"
"""The color of the givens' symbols."""
FILLED = "#1f5fbf"
"""The color of the symbols a solution filled in."""
LINE = "#333333"
SHADE = {"diagonal": "#e8e0f5", "window": "#dcebf7"}
"""Background of the cells of a variant's extra units, by kind of unit."""


def _values(board: Any, alphabet: str | None, layout: Layout | None) -> tuple[Geometry,
                                                                               list[int]]:
    if isinstance(board, str):
        return parse_string(board, alphabet, layout)
    geo, values, _ = parse_board(board, alphabet, layout)
    return geo, values


def draw_board(board: Any, solution: Any = None, *, alphabet: str | None = None,
         layout: Layout | None = None, cell: int = 40) -> Picture:
    """A picture of ``board`` (any kind :func:`sudoku.solve` takes, or a puzzle string),
    with the values of ``solution`` (same kinds; optional) in the blanks, in another color.

    The layout's rules are drawn: thick lines around boxes (or a jigsaw's regions), the
    cells of extra units shaded (diagonals, windows), killer cages dashed inside their
    cells with the cage's sum in its first cell. ``cell`` is the size of a cell in pixels.
    The usual :class:`SudokuError` for a bad board; ShapeError if ``solution`` is not a grid
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
    body = []

    def xy(c: int) -> tuple[int, int]:
        return pad + (c % side) * cell, pad + (c // side) * cell

    for label, cells in zip(lay.labels, lay.units):
        fill = SHADE.get(label.split()[0])
        for c in cells if fill else ():
            x, y = xy(c)
            body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                        f'fill="{fill}"/>')
    thin = [f"M{pad} {pad + k * cell}h{side * cell}M{pad + k * cell} {pad}v{side * cell}"
            for k in range(1, side)]
    body.append(f'<path d="{"".join(thin)}" stroke="#9a9a9a" stroke-width="1"/>')
    body.append(_thick(geo, pad, cell))
    body.extend(_cages(lay, pad, cell))
    symbols = "." + geo.alphabet
    size = cell * (0.6 if side <= 9 else 0.5 if side <= 16 else 0.4)
    for c in range(len(values)):
        value, kind, color = ((values[c], "given", GIVEN) if values[c]
                              else (filled[c], "filled", FILLED))
        if not value:
            continue
        x, y = xy(c)
        weight = ' font-weight="bold"' if kind == "given" else ""
        body.append(f'<text class="{kind}" x="{x + cell / 2:g}" y="{y + cell / 2:g}" '
                    f'font-size="{size:g}" text-anchor="middle" dominant-baseline="central" '
                    f'fill="{color}"{weight}>{escape(symbols[value])}</text>')
    body.append(f'<rect x="{pad}" y="{pad}" width="{side * cell}" height="{side * cell}" '
                f'fill="none" stroke="{LINE}" stroke-width="3"/>')
    full = side * cell + 2 * pad
    givens = sum(1 for v in values if v)
    return svg_document(full, full, body, f"a {side}x{side} sudoku with {givens} givens")


def _thick(geo: Geometry, pad: int, cell: int) -> str:
    """Thick lines between cells of different boxes, or of different jigsaw regions."""
    side, lay = geo.side, geo.layout
    owner = region_owners(lay)
    if owner is None:
        owner = box_owners(lay)
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


def _cages(lay: Layout, pad: int, cell: int) -> list[str]:
    """Each cage outlined by a dashed line just inside its cells, its sum at the top left
    of its first cell."""
    side, inset = lay.side, max(2, cell // 10)
    owner = lay.cell_cages()
    out = []
    for i, (cells, total) in enumerate(lay.cages):
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
        r, k = divmod(min(cells), side)
        size = cell * 0.24  # the sum on a white patch, which interrupts the dashes
        out.append(f'<rect x="{pad + k * cell + inset - 1}" y="{pad + r * cell + 1}" '
                   f'width="{len(str(total)) * size * 0.62 + 3:g}" height="{size + 1:g}" '
                   'fill="#ffffff"/>')
        out.append(f'<text class="cage" x="{pad + k * cell + inset + 1}" '
                   f'y="{pad + r * cell + inset + cell * 0.22:g}" font-size="{size:g}" '
                   f'fill="{LINE}">{total}</text>')
    return out
