"""Pictures of solutions as SVG: tilings (one color per piece), queens, and, for any
problem, the chosen options against the items (the exact cover itself).

Each function returns a [`Picture`][], which Jupyter shows by itself (``_repr_svg_``)
and [`Picture.save`][] writes to a file. Like the text renderers of
[`dlx.problems`][], they read only the item names, so they work as well on a problem read
back from Knuth's format. Nothing here knows of Sudoku (``sudoku.draw`` draws boards).

>>> from dlx.problems import queens
>>> problem = queens(4)
>>> picture = draw_queens(problem, problem.first())
>>> picture.svg.startswith("<svg") and picture.width == picture.height
True
"""

from __future__ import annotations

import colorsys
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from html import escape, unescape
from pathlib import Path

from .errors import ArgumentError
from .options import Colored
from .problem import ExactCover
from .problems import _parse_cell

__all__ = ["PALETTE", "Picture", "draw", "draw_cover", "draw_queens", "draw_tiling",
           "piece_color", "svg_document"]

PALETTE = ("#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0",
           "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8",
           "#800000", "#aaffc3", "#808000", "#ffd8b1", "#000075", "#808080")
"""Twenty colors that tell neighbours apart (Sasha Trubetskoy's list); piece ``k`` takes
``PALETTE[k]``, and pieces beyond twenty take hues spaced by the golden angle."""

GRID = "#333333"
"""The color of lines and text."""
CHAR_WIDTH = 0.65
"""The widest advance of a character of the pictures' fonts (DejaVu Sans, Arial), in units of
the font size: text of ``n`` characters is at most ``n * CHAR_WIDTH * size`` wide."""


def piece_color(k: int) -> str:
    """The fill color of the ``k``-th piece (0-based): [`PALETTE`][], then golden-angle
    hues, so any number of pieces get colors, neighbours distinct as far as possible."""
    if k < len(PALETTE):
        return PALETTE[k]
    r, g, b = colorsys.hls_to_rgb((k * 0.618033988749895) % 1.0, 0.6, 0.65)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


@dataclass(frozen=True)
class Picture:
    """An SVG drawing: ``svg`` is the whole document, ``width`` and ``height`` its size in
    pixels. Shown by Jupyter (``_repr_svg_``), written by [`save`][], ``str()`` is the
    SVG text."""

    svg: str
    width: int
    height: int

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        """One line: the size and the title, not the document (``str()`` is that)."""
        start = self.svg.find("<title>")
        title = "" if start < 0 else self.svg[start + 7:self.svg.find("</title>", start)]
        about = f" {unescape(title)!r}" if title else ""
        return f"<Picture {self.width}x{self.height}{about}: {len(self.svg):,} bytes of SVG>"

    def __str__(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> None:
        """Write the SVG document to ``path`` (UTF-8)."""
        Path(path).write_text(self.svg, encoding="utf-8")


def svg_document(width: int, height: int, body: Iterable[str], title: str = "") -> Picture:
    """A [`Picture`][] of ``width`` x ``height`` pixels holding the SVG elements ``body``
    on a white background (``title`` becomes the document's tooltip and accessible name)."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">')
    parts = [head]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(f'<rect width="{width}" height="{height}" fill="#ffffff"/>')
    parts.extend(body)
    parts.append("</svg>\n")
    return Picture("\n".join(parts), width, height)


def _size(cell: int) -> int:
    """``cell``, a size in pixels (an int in 4..400), or ArgumentError naming it."""
    if type(cell) is not int or not 4 <= cell <= 400:
        raise ArgumentError(f"cell must be an int number of pixels in 4..400, got {cell!r}")
    return cell


def _solution(problem: ExactCover, solution: Iterable[int] | None) -> list[int]:
    """The option numbers of ``solution``, checked: ArgumentError for None (no solution to
    draw) or an index that is no option of ``problem``."""
    if solution is None:
        raise ArgumentError("solution is None: there is no solution to draw")
    if isinstance(solution, (str, bytes)) or not isinstance(solution, Iterable):
        raise ArgumentError(f"solution must be a list of option numbers, got {solution!r}")
    chosen = list(solution)
    for k in chosen:
        problem.option(k)  # ArgumentError naming k unless it is an option's number
    return [int(k) for k in chosen]


def _cell(name: Hashable) -> tuple[int, int] | None:
    """The (row, column) a cell item names (``<r><c>`` in base 36, or ``<r>_<c>``), or
    None for any other item."""
    text = str(name)
    if "_" in text:
        r, _, c = text.partition("_")
        return (int(r), int(c)) if r.isdigit() and c.isdigit() else None
    if len(text) == 2 and text.isalnum() and text.isascii() and text == text.lower():
        return _parse_cell(text)
    return None


def draw_tiling(problem: ExactCover, solution: Iterable[int], *, cell: int = 32) -> Picture:
    """A tiling ([`dlx.problems.tiling`][], ``pentominoes``): each piece filled with its
    own color, outlined, with its name at its first cell; ``cell`` pixels per square.
    ArgumentError if the chosen options name no board cells."""
    cell = _size(cell)
    owner: dict[tuple[int, int], int] = {}
    names: list[str] = []
    for k in _solution(problem, solution):
        option = problem.option(k)
        squares = [rc for rc in map(_cell, option) if rc is not None]
        label = next((str(x) for x in option if _cell(x) is None), str(k))
        for rc in squares:
            owner[rc] = len(names)
        names.append(label)
    if not owner:
        raise ArgumentError("solution: its options name no board cells (<r><c>), so there "
                            "is no tiling to draw")
    r0, c0 = min(r for r, _ in owner), min(c for _, c in owner)
    rows = max(r for r, _ in owner) - r0 + 1
    cols = max(c for _, c in owner) - c0 + 1
    pad = cell // 2
    body = []
    for (r, c), k in sorted(owner.items()):
        x, y = pad + (c - c0) * cell, pad + (r - r0) * cell
        body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                    f'fill="{piece_color(k)}"><title>{escape(names[k])}</title></rect>')
    body.extend(_borders(owner, r0, c0, cell, pad))
    first: dict[int, tuple[int, int]] = {}
    for rc, k in sorted(owner.items()):
        first.setdefault(k, rc)
    size = cell * 0.45
    for k, (r, c) in sorted(first.items()):
        tx, ty = pad + (c - c0 + 0.5) * cell, pad + (r - r0 + 0.5) * cell
        body.append(f'<text x="{tx:g}" y="{ty:g}" font-size="{size:g}" text-anchor="middle" '
                    f'dominant-baseline="central" fill="{GRID}">{escape(names[k])}</text>')
    return svg_document(cols * cell + 2 * pad, rows * cell + 2 * pad, body,
                        f"a tiling with {len(names)} pieces")


def _borders(owner: dict[tuple[int, int], int], r0: int, c0: int, cell: int,
             pad: int) -> list[str]:
    """Thick segments between cells of different pieces (or a cell and the outside)."""
    segments = []
    for (r, c), k in owner.items():
        x, y = pad + (c - c0) * cell, pad + (r - r0) * cell
        for (dr, dc), (x1, y1, x2, y2) in (((-1, 0), (x, y, x + cell, y)),
                                           ((1, 0), (x, y + cell, x + cell, y + cell)),
                                           ((0, -1), (x, y, x, y + cell)),
                                           ((0, 1), (x + cell, y, x + cell, y + cell))):
            if owner.get((r + dr, c + dc)) != k:
                segments.append(f"M{x1} {y1}L{x2} {y2}")
    return [f'<path d="{"".join(segments)}" stroke="{GRID}" stroke-width="2.5" '
            'stroke-linecap="square" fill="none"/>']


def draw_queens(problem: ExactCover, solution: Iterable[int], *, cell: int = 40) -> Picture:
    """Queens ([`dlx.problems.queens`][], or any problem whose options name ``r<i>`` and
    ``c<j>``) on a checkerboard, each queen a dark disc with a crown."""
    cell = _size(cell)
    places = []
    for k in _solution(problem, solution):
        where = {str(x)[0]: str(x)[1:] for x in problem.option(k) if str(x)[:1] in "rc"}
        try:
            places.append((int(where["r"], 36), int(where["c"], 36)))
        except (KeyError, ValueError):
            raise ArgumentError(f"solution: option {k} names no row r<i> and column c<j>, "
                                "so it is no queen") from None
    n = sum(str(x).startswith("r") for x in problem.primary)
    n = max([n, *(max(p) + 1 for p in places)])
    pad = cell // 4
    body = []
    for r in range(n):
        for c in range(n):
            fill = "#f0d9b5" if (r + c) % 2 == 0 else "#b58863"
            body.append(f'<rect x="{pad + c * cell}" y="{pad + r * cell}" width="{cell}" '
                        f'height="{cell}" fill="{fill}"/>')
    for r, c in places:
        x, y = pad + (c + 0.5) * cell, pad + (r + 0.5) * cell
        q = cell * 0.3
        crown = (f"M{x - q:g} {y + q * 0.2:g}L{x - q * 0.6:g} {y - q * 0.7:g}"
                 f"L{x - q * 0.2:g} {y - q * 0.1:g}L{x:g} {y - q * 0.9:g}"
                 f"L{x + q * 0.2:g} {y - q * 0.1:g}L{x + q * 0.6:g} {y - q * 0.7:g}"
                 f"L{x + q:g} {y + q * 0.2:g}Z")
        body.append(f'<circle cx="{x:g}" cy="{y:g}" r="{cell * 0.38:g}" fill="#222222">'
                    f"<title>queen at row {r + 1}, column {c + 1}</title></circle>")
        body.append(f'<path d="{crown}" fill="#f5f5f5"/>')
    body.append(f'<rect x="{pad}" y="{pad}" width="{n * cell}" height="{n * cell}" '
                f'fill="none" stroke="{GRID}" stroke-width="2"/>')
    side = n * cell + 2 * pad
    return svg_document(side, side, body, f"{len(places)} queens on a {n}x{n} board")


def draw_cover(problem: ExactCover, solution: Iterable[int], *, cell: int = 18) -> Picture:
    """Any solution as the exact cover itself: one row per chosen option, one column per
    item (primary, then secondary after a gap), each option's items filled with its
    color, a colored item's color written in it. Every primary column has exactly one
    filled square: that is what a solution is.

    Item names of up to two characters stand above their columns; longer ones are written
    upwards, one per column (a label's box is then as wide as the font is high, less than
    a column), so that no two touch however long they are."""
    cell = _size(cell)
    chosen = _solution(problem, solution)
    items: Sequence[Hashable] = [*problem.primary, *problem.secondary]
    column = {x: j + (j >= len(problem.primary)) for j, x in enumerate(items)}
    width = len(items) + (1 if problem.secondary else 0)
    label = max(10, cell * 3)
    pad = cell // 2
    font = cell * 0.5
    names = [str(x) for x in items]
    upright = max(map(len, names), default=0) > 2
    head = round(max(map(len, names)) * font * CHAR_WIDTH) + pad if upright else cell
    body = []
    for x, name in zip(items, names):
        cx = label + pad + (column[x] + 0.5) * cell
        if upright:  # written upwards from just above the matrix, centred on the column
            y = pad + head - 3
            body.append(f'<text class="item" x="{cx:g}" y="{y:g}" font-size="{font:g}" '
                        f'transform="rotate(-90 {cx:g} {y:g})" dominant-baseline="central" '
                        f'fill="{GRID}">{escape(name)}</text>')
        else:
            body.append(f'<text class="item" x="{cx:g}" y="{pad + cell * 0.8:g}" '
                        f'font-size="{font:g}" text-anchor="middle" '
                        f'fill="{GRID}">{escape(name)}</text>')
    top = pad + head
    for i, k in enumerate(chosen):
        y = top + i * cell
        body.append(f'<text x="{label + pad - 4}" y="{y + cell * 0.7:g}" '
                    f'font-size="{cell * 0.55:g}" text-anchor="end" fill="{GRID}">{k}</text>')
        for entry in problem.option(k):
            item, color = ((entry.item, entry.color) if isinstance(entry, Colored)
                           else (entry, None))
            x = label + pad + column[item] * cell
            body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" '
                        f'fill="{piece_color(i)}" stroke="#ffffff"/>')
            if color is not None:
                body.append(f'<text x="{x + cell / 2:g}" y="{y + cell * 0.7:g}" '
                            f'font-size="{font:g}" text-anchor="middle" '
                            f'fill="{GRID}">{escape(str(color))}</text>')
    body.append(f'<rect x="{label + pad}" y="{top}" width="{width * cell}" '
                f'height="{max(1, len(chosen)) * cell}" fill="none" stroke="{GRID}"/>')
    return svg_document(label + width * cell + 2 * pad,
                        top + max(1, len(chosen)) * cell + pad, body,
                        f"{len(chosen)} options covering {len(problem.primary)} items")


def draw(problem: ExactCover, solution: Iterable[int]) -> Picture:
    """The picture that suits the problem: queens when its options name rows ``r<i>``,
    columns ``c<j>`` and diagonals, a tiling when each is a piece's name then board cells
    (as [`dlx.problems.tiling`][] writes them), else the cover
    ([`draw_cover`][])."""
    chosen = _solution(problem, solution)
    if chosen:
        first = [str(x) for x in problem.option(chosen[0])]
        kinds = sorted(x[:1] for x in first)
        if len(first) == 4 and kinds == ["a", "b", "c", "r"]:
            return draw_queens(problem, chosen)
        if _cell(first[0]) is None and len(first) > 1 and all(map(_cell, first[1:])):
            return draw_tiling(problem, chosen)
    return draw_cover(problem, chosen)
