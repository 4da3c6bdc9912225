"""The exact-cover data files and Knuth's figures for them: for each file of SOURCES.md's
DLX1, DLX2 and DLX3 tables, its solutions, and the nodes and updates of Knuth's program.

Read by the known-count tests of every search (plain, multiplicities, strategies,
preprocessing, learning).
"""

from __future__ import annotations

import re

from tests.helpers.datasets import data_dir

__all__ = ["DATA", "NODE_LIMIT", "figures"]

DATA = data_dir("exact_cover")
"""The ``.dlx`` files and their SOURCES.md: the public set when present, else the shipped one."""

NODE_LIMIT = 100_000
"""Files whose DLX1 search is larger belong to the numba tests."""


def figures() -> list[tuple[str, int, int, int]]:
    """(file, solutions, nodes, updates) for each row of SOURCES.md's DLX1, DLX2 and DLX3
    tables.

    Columns are found by their headers ("solutions", "dlx1 nodes", "dlx2 nodes" or "dlx3
    nodes", and the updates beside them), so tables may gain columns. Rows without figures
    (a run that was stopped) are left out.
    """
    rows = []
    columns: dict[str, int] | None = None
    for line in (DATA / "SOURCES.md").read_text().splitlines():
        if not line.startswith("|"):
            columns = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if columns is None:  # a table's header row
            named = {c.lower(): k for k, c in enumerate(cells)}
            nodes = next((k for c, k in named.items()
                          if c in ("dlx1 nodes", "dlx2 nodes", "dlx3 nodes")), None)
            columns = {} if nodes is None or "solutions" not in named else {
                "solutions": named["solutions"], "nodes": nodes,
                "updates": named[cells[nodes].lower().replace("nodes", "updates")]}
            continue
        match = re.match(r"`([\w.]+\.dlx)`$", cells[0])
        if not columns or not match:
            continue
        figures = [re.match(r"[\d,]+", cells[columns[key]])
                   for key in ("solutions", "nodes", "updates")]
        if all(figures):
            solutions, nodes, updates = (int(m.group().replace(",", "")) for m in figures)
            rows.append((match.group(1), solutions, nodes, updates))
    return rows
