"""Pictures of Sudoku boards as SVG: givens in black, filled-in values in blue, box or
region borders thick, the extra units of a variant shaded (X diagonals, Windoku windows)
and killer cages dashed with their sums.

`draw_board` returns a [`dlx.Picture`][], which Jupyter shows by itself and
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
from .grid import Geometry, parse_board, parse_string
from .layout import SHADE, Layout, rules_body

__all__ = ["FILLED", "GIVEN", "SHADE", "draw_board"]

GIVEN = "#111111"
"""The color of the givens' symbols."""
FILLED = "#1f5fbf"
"""The color of the symbols a solution filled in."""


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
