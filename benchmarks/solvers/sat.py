"""A SAT peer for Sudoku variants: our own CNF of a layout, solved by pycosat (picosat).

The encoding is the usual one-hot one: variable ``cell * N + value`` (1-based) says the
cell holds the value; every cell holds at least one value and at most one (pairwise);
every unit holds every value at least once and at most once (pairwise); each given is a
unit clause. It reads only the layout's units, so it serves every variant whose rules
are units (X, windoku, jigsaw, rectangular boxes), not cages. Clauses are built once per
layout; a puzzle adds its givens. The solver is optional (``pip install pycosat``).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from sudoku import Layout

__all__ = ["sat_solve"]


@lru_cache(maxsize=64)
def _clauses(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """The CNF of an empty grid of ``layout``."""
    n = layout.side

    def var(cell: int, value: int) -> int:
        return cell * n + value

    out: list[tuple[int, ...]] = []
    for cell in range(n * n):
        out.append(tuple(var(cell, v) for v in range(1, n + 1)))
        out.extend((-var(cell, a), -var(cell, b)) for a, b in combinations(range(1, n + 1), 2))
    for unit in layout.units:
        for v in range(1, n + 1):
            out.append(tuple(var(cell, v) for cell in unit))
            out.extend((-var(a, v), -var(b, v)) for a, b in combinations(unit, 2))
    return tuple(out)


def sat_solve(givens: str, layout: Layout, symbols: str) -> str | None:
    """The solution of ``givens`` (one line, ``.`` blank) under ``layout``, or None."""
    import pycosat

    n = layout.side
    value = {ch: v for v, ch in enumerate(symbols[:n], 1)}
    clauses = list(_clauses(layout))
    clauses.extend((cell * n + value[ch],) for cell, ch in enumerate(givens) if ch in value)
    model = pycosat.solve(clauses)
    if not isinstance(model, list):
        return None
    grid = ["."] * (n * n)
    for literal in model:
        if literal > 0:
            cell, v = divmod(literal - 1, n)
            grid[cell] = symbols[v]
    return "".join(grid)
