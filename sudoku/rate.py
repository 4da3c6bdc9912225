"""Difficulty: a numeric rating in the spirit of Sudoku Explainer, and level names.

A puzzle's **rating** is that of the hardest step in its explanation
([`sudoku.explain`][]: always the easiest step available), on this scale:

=====  ===================================  =====  ==================================
1.0    naked single                         3.8    swordfish
1.5    hidden single                        4.0    hidden triple
2.0    cage combination (killer)            4.2    XY-wing
2.6    locked candidates (pointing,         4.4    XYZ-wing
       claiming)                            4.5    W-wing
3.0    naked pair                           5.0    naked quad
3.4    hidden pair                          5.2    jellyfish
3.5    X-wing                               5.4    hidden quad
3.6    naked triple                         6.0    simple coloring
                                            6.5    X-chain
7.0 - 11.9  last resort: the engine's search, 7.0 plus 0.5 per doubling of its guesses
=====  ===================================  =====  ==================================

The **levels** cut the scale so that the first four mean what qqwing's mean. qqwing solves
with naked singles, then hidden singles, then naked pairs, pointing and box/line
reductions and hidden pairs, and guesses only when those are stuck; its level is the
hardest kind it used: *simple* (naked singles only), *easy* (hidden singles),
*intermediate* (pairs and intersections), *expert* (a guess). So: ``simple`` is 1.0,
``easy`` up to 1.9, ``intermediate`` up to 3.4, and everything above is qqwing's
``expert``, which this scale divides into ``expert`` (3.5-5.9: fish, triples, wings,
quads), ``master`` (6.0-6.9: coloring, chains) and ``extreme`` (7.0 and up: no technique
here suffices, the engine searched). [`Rating.qqwing`][] gives qqwing's name.

>>> import sudoku
>>> puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
>>> r = sudoku.rate(puzzle)
>>> r.level, r.rating, r.hardest
('simple', 1.0, 'naked single')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from dlx import BackendName

from .explain import _prepared, solution_steps
from .grid import Layout

__all__ = ["LEVELS", "QQWING_LEVELS", "Rating", "level_of", "level_range", "rate"]

LEVELS: tuple[tuple[str, float, float], ...] = (
    ("simple", 1.0, 1.0),
    ("easy", 1.1, 1.9),
    ("intermediate", 2.0, 3.4),
    ("expert", 3.5, 5.9),
    ("master", 6.0, 6.9),
    ("extreme", 7.0, 11.9),
)
"""The levels, easiest first: (name, lowest rating, highest rating)."""

QQWING_LEVELS = ("simple", "easy", "intermediate", "expert")
"""qqwing's level names: the first four of [`LEVELS`][]; qqwing's ``expert`` is ours
from ``expert`` up."""


@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty: ``rating`` (the hardest step's, 1.0-11.9), ``level`` (its
    name, [`LEVELS`][]), the ``hardest`` technique, the number of ``steps``, how many
    steps each technique took (``counts``), and the last resort's ``nodes`` and
    ``guesses`` (0 if it was not needed)."""

    rating: float
    level: str
    hardest: str
    steps: int
    counts: tuple[tuple[str, int], ...]
    nodes: int = 0
    guesses: int = 0

    @property
    def qqwing(self) -> str:
        """The level as qqwing names it: ``simple``, ``easy``, ``intermediate`` or
        ``expert`` (for ``expert``, ``master`` and ``extreme``)."""
        return self.level if self.level in QQWING_LEVELS else "expert"

    def __str__(self) -> str:
        return f"{self.level} {self.rating:.1f}"

    def _repr_html_(self) -> str:
        """Jupyter's view: the level and rating, then the steps each technique took."""
        from html import escape

        rows = "".join(f"<tr><td>{escape(name)}</td><td>{n}</td></tr>"
                       for name, n in self.counts)
        guesses = f", {self.guesses} guesses in {self.nodes} nodes" if self.nodes else ""
        return (f"<div><strong>{escape(self.level)} {self.rating:.1f}</strong> (qqwing: "
                f"{self.qqwing}; hardest: {escape(self.hardest)}; {self.steps} steps"
                f"{guesses})<table>{rows}</table></div>")


def level_of(rating: float) -> str:
    """The name of the level of a numeric ``rating``."""
    for name, _, high in LEVELS:
        if rating <= high + 1e-9:
            return name
    return LEVELS[-1][0]


def level_range(level: str) -> tuple[float, float]:
    """(lowest, highest) rating of ``level``; ValueError (an ArgumentError) names a level
    that is not one of [`LEVELS`][]."""
    for name, low, high in LEVELS:
        if name == level:
            return low, high
    from .errors import ArgumentError

    raise ArgumentError(f"difficulty must be one of {', '.join(n for n, _, _ in LEVELS)}, "
                        f"got {level!r}")


def rate(board: Any, *, alphabet: str | None = None, layout: Layout | None = None,
         backend: BackendName = "auto") -> Rating:
    """The [`Rating`][] of a puzzle (a board or a puzzle string, as for
    [`sudoku.count_solutions`][]). Errors as for [`sudoku.explain`][]: the puzzle must
    have exactly one solution."""
    geo, values, solution = _prepared(board, alphabet, layout, backend)
    return rate_values(geo, values, solution, backend=backend)


def rate_values(geo: Any, values: list[int], solution: list[int] | None = None, *,
                backend: BackendName = "auto", ceiling: float | None = None) -> Rating:
    """[`rate`][] of a checked puzzle (its geometry and values, one solution). With
    ``ceiling``, no technique above it is tried: the last resort comes first, which rates
    a puzzle beyond ``ceiling`` quickly when only that matters."""
    counts: Counter[str] = Counter()
    hardest, top, nodes, guesses = "none", 0.0, 0, 0
    for step in solution_steps(geo, values, solution, backend=backend, ceiling=ceiling):
        counts[step.technique] += 1
        if step.rating > top:
            hardest, top = step.technique, step.rating
        if step.technique == "search":
            nodes, guesses = step.nodes, step.guesses
    return Rating(top, level_of(top), hardest, sum(counts.values()),
                  tuple(sorted(counts.items(), key=lambda kv: -kv[1])), nodes, guesses)
