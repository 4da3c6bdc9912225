"""Pictures of a [`dlx.SolutionSet`][] for notebooks (``_repr_svg_``): a small diagram
node by node, a large one as a summary of a few kilobytes whatever its size."""

from __future__ import annotations

from html import escape

import numpy as np

__all__ = ["SUMMARY_BARS", "SVG_NODES", "diagram_svg", "summary_svg"]

SVG_NODES = 80
"""The most nodes drawn one by one."""


def diagram_svg(root: int, opt: list[int], lo: list[int], hi: list[int]) -> str:
    """The diagram ``(root, opt, lo, hi)`` drawn node by node."""
    depth = {root: 0}
    for n in range(len(opt) - 1, 1, -1):  # parents have larger numbers
        if n in depth:
            for child in (lo[n], hi[n]):
                depth[child] = max(depth.get(child, 0), depth[n] + 1)
    sink_row = max([d for n, d in depth.items() if n > 1], default=-1) + 1
    for n in (0, 1):
        depth[n] = sink_row
    rows: dict[int, list[int]] = {}
    for n in sorted(depth, reverse=True):
        rows.setdefault(depth[n], []).append(n)
    width = 60 * max(len(r) for r in rows.values()) + 40
    height = 70 * (sink_row + 1) + 30
    at = {n: (40 + 60 * i + (width - 40 - 60 * len(r)) // 2, 35 + 70 * d)
          for d, r in rows.items() for i, n in enumerate(r)}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">']
    for n in depth:
        if n > 1:
            x, y = at[n]
            for child, dash in ((lo[n], ' stroke-dasharray="4 3"'), (hi[n], "")):
                cx, cy = at[child]
                parts.append(f'<line x1="{x}" y1="{y}" x2="{cx}" y2="{cy}" stroke="#333"'
                             f'{dash}/>')
    for n in depth:
        x, y = at[n]
        if n > 1:
            parts.append(f'<circle cx="{x}" cy="{y}" r="15" fill="#fff" stroke="#333"/>'
                         f'<text x="{x}" y="{y + 4}" text-anchor="middle">'
                         f'{escape(str(opt[n]))}</text>')
        else:
            parts.append(f'<rect x="{x - 12}" y="{y - 12}" width="24" height="24" '
                         f'fill="#eee" stroke="#333"/><text x="{x}" y="{y + 4}" '
                         f'text-anchor="middle">{n}</text>')
    parts.append("</svg>")
    return "".join(parts)


SUMMARY_BARS = 120
"""The most bars of [`summary_svg`][]'s profile."""


def summary_svg(count: int, nodes: int, n_options: int, options: list[int]) -> str:
    """The picture of a set too large to draw node by node: its count and nodes, and a
    profile, the diagram's nodes by option index in at most [`SUMMARY_BARS`][] bars. A
    few kilobytes, whatever the size."""
    n_options = max(n_options, 1)
    bars = min(SUMMARY_BARS, n_options)
    opt = np.asarray(options[2:], dtype=np.int64)
    heights = np.bincount(opt * bars // n_options, minlength=bars)[:bars] if len(opt) \
        else np.zeros(bars, dtype=np.int64)
    top = max(int(heights.max()), 1)
    shown = f"{count:,}" if count < 10**24 else f"{count:.3e}"
    width, height, left, base = 2 * SUMMARY_BARS + 120, 170, 50, 140
    step = 2 * SUMMARY_BARS / bars
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="10" y="18">SolutionSet: {escape(shown)} solution'
             f'{"" if count == 1 else "s"}, {nodes:,} ZDD nodes</text>',
             f'<text x="10" y="36" fill="#555">nodes by option (0..{n_options - 1}), '
             f'tallest bar {top:,}</text>',
             f'<line x1="{left}" y1="{base}" x2="{left + 2 * SUMMARY_BARS}" y2="{base}" '
             'stroke="#333"/>']
    for i, h in enumerate(heights.tolist()):
        if h:
            tall = max(1.0, 90.0 * h / top)
            parts.append(f'<rect x="{left + i * step:.1f}" y="{base - tall:.1f}" '
                         f'width="{max(step - 0.4, 0.6):.1f}" height="{tall:.1f}" '
                         'fill="#4a7ab5"/>')
    parts.append(f'<text x="{left}" y="{base + 16}" fill="#555">0</text>'
                 f'<text x="{left + 2 * SUMMARY_BARS}" y="{base + 16}" fill="#555" '
                 f'text-anchor="end">{n_options - 1}</text></svg>')
    return "".join(parts)
