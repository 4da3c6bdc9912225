"""Notebook views: the short HTML that Jupyter shows for a problem, a search and a batch.

Each view is a small table (a title, then one row per fact: sizes, status, counts) with,
for a problem small enough to see, a drawing of its matrix: one row per option, one
column per item, a filled square where the option holds the item. The objects' own
``_repr_html_`` methods call these; nothing here runs a search or changes an object.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

__all__ = ["MATRIX_LIMIT", "html_table", "matrix_svg"]

MATRIX_LIMIT = 60
"""The largest number of options, and of items, whose matrix a view draws."""


def html_table(title: str, rows: Iterable[tuple[str, object]], picture: str = "") -> str:
    """A titled two-column table of ``rows`` (name, value), and ``picture`` (SVG or HTML
    text, already escaped) under it."""
    cells = "".join(f'<tr><th style="text-align:left;padding-right:1em">{escape(name)}</th>'
                    f'<td style="text-align:left">{escape(str(value))}</td></tr>'
                    for name, value in rows)
    return (f'<div><strong>{escape(title)}</strong><table>{cells}</table>'
            f"{picture}</div>")


def matrix_svg(rows: Sequence[Sequence[int]], n_items: int, n_primary: int,
               cell: int = 8) -> str:
    """The matrix of options ``rows`` (each the item numbers it holds) over ``n_items``
    items as an inline SVG: primary columns dark, secondary ones grey; "" when either side
    is beyond [`MATRIX_LIMIT`][] (a drawing of a large problem says nothing)."""
    if not rows or not n_items or len(rows) > MATRIX_LIMIT or n_items > MATRIX_LIMIT:
        return ""
    width, height = n_items * cell + 1, len(rows) * cell + 1
    squares = [f'<rect x="{j * cell}" y="{i * cell}" width="{cell}" height="{cell}" '
               f'fill="{"#333333" if j < n_primary else "#999999"}"/>'
               for i, option in enumerate(rows) for j in option]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            f'<rect width="{width}" height="{height}" fill="#ffffff" stroke="#cccccc"/>'
            f'{"".join(squares)}</svg>')


def search_html(stats: object) -> str:
    """The view of a search's [`dlx.SearchStats`][]: status, solutions and Knuth's
    counts, and the restarts and conflicts when there were any."""
    s = vars(stats)
    facts: list[tuple[str, object]] = [
        ("status", s["status"].name), ("solutions", s["solutions"]), ("nodes", s["nodes"]),
        ("updates", s["updates"]), ("deepest level", s["max_level"]),
        ("backend", s["backend"]), ("seconds", f"{s['seconds']:.3g}")]
    facts += [(name, s[name]) for name in ("restarts", "conflicts") if s.get(name)]
    return html_table("Search", facts)
