"""Puzzle generation: a random solved grid, then clues removed while the solution stays unique.

Everything is driven by one ``seed``, so ``generate(box, seed)`` returns the same puzzle every
time (for a given version of the engine, whose randomized tie-break the grid depends on).
This is a library function for tests and sample data, not a puzzle-quality generator: it
knows nothing of difficulty, only of uniqueness.
"""

from __future__ import annotations

import random

import dlx

from .errors import SearchStoppedError
from .grid import Geometry, format_grid, geometry
from .reduction import Reduction
from .solver import count_solutions

__all__ = ["generate", "random_grid"]

_GRID_NODES_PER_CELL = 8
"""Budget of the randomized search for a full grid, in nodes per cell. It needs about one
node per cell when it goes straight down, and can wander for very long on 36x36 boards;
beyond the budget the grid comes from Knuth's deterministic order instead."""


def random_grid(box: int = 3, seed: int = 0, *, backend: dlx.BackendName = "auto") -> str:
    """A solved grid of side ``box*box``, as one line of symbols, determined by ``seed``.

    The engine fills an empty board breaking ties at random (``ExactCover.first(seed=)``),
    then the grid is shuffled by validity-preserving symmetries: symbols relabeled, bands
    and rows within bands permuted, stacks and columns likewise, and maybe transposed.
    """
    geo = geometry(box * box)
    return format_grid(geo, _random_values(geo, seed, random.Random(seed), backend))


def generate(
    box: int = 3,
    seed: int = 0,
    *,
    clues: int | None = None,
    max_nodes: int | None = None,
    backend: dlx.BackendName = "auto",
) -> str:
    """A puzzle with a unique solution, as one line (``.`` for blanks), determined by ``seed``.

    Starting from :func:`random_grid`, cells are blanked one at a time in a random order; a
    blank that would allow a second solution (``count_solutions(limit=2) == 2``) is put back.
    By default every cell is tried once, giving a *minimal* puzzle (no clue can be removed);
    ``clues`` stops as soon as only that many are left. ``max_nodes`` bounds each uniqueness
    check: a check that runs out keeps its clue, which bounds the time on large boards at the
    price of more clues.
    """
    geo = geometry(box * box)
    rng = random.Random(seed)
    puzzle = _random_values(geo, seed, rng, backend)
    order = list(range(geo.cells))
    rng.shuffle(order)
    given = geo.cells
    target = clues if clues is not None else 0
    for cell in order:
        if given <= target:
            break
        value, puzzle[cell] = puzzle[cell], 0
        try:
            unique = count_solutions(format_grid(geo, puzzle), 2, max_nodes=max_nodes,
                                     backend=backend) == 1
        except SearchStoppedError:
            unique = False
        if unique:
            given -= 1
        else:
            puzzle[cell] = value
    return format_grid(geo, puzzle)


def _random_values(geo: Geometry, seed: int, rng: random.Random,
                   backend: dlx.BackendName) -> list[int]:
    """A full grid of values: the engine's randomized first solution, then shuffled."""
    red = Reduction(geo, [0] * geo.cells)
    try:
        found = red.problem.first(seed=seed, max_nodes=_GRID_NODES_PER_CELL * geo.cells,
                                  backend=backend)
    except dlx.SearchStoppedError:  # wandered too long: Knuth's order goes straight down
        found = red.problem.first(backend=backend)
    assert found is not None, "an empty board always has a solution"
    return _shuffle(geo, red.decode(found), rng)


def _shuffle(geo: Geometry, values: list[int], rng: random.Random) -> list[int]:
    """``values`` under a random symmetry of the grid (each keeps a valid grid valid)."""
    n, side = geo.box, geo.side

    def lines() -> list[int]:  # bands in random order, lines within each band likewise
        bands = rng.sample(range(n), n)
        return [b * n + i for b in bands for i in rng.sample(range(n), n)]

    rows, cols = lines(), lines()
    symbols = rng.sample(range(1, side + 1), side)
    transpose = rng.random() < 0.5
    out = []
    for r in range(side):
        for c in range(side):
            rr, cc = (cols[c], rows[r]) if transpose else (rows[r], cols[c])
            out.append(symbols[values[rr * side + cc] - 1])
    return out
