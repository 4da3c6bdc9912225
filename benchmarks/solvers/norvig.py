"""Constraint propagation and search, after Peter Norvig's essay "Solving Every Sudoku
Puzzle" (https://norvig.com/sudoku.html), rewritten here in his style.

``values`` maps each square to the string of digits still possible there. ``assign``
and ``eliminate`` apply his two strategies: (1) a square reduced to one digit removes it
from its peers; (2) a unit with only one place left for a digit puts it there. ``search``
then tries each digit of the square with the fewest candidates on a copy of ``values``.
Squares are cell indices rather than his "A1" names, so that any box size works.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from benchmarks.grid import SYMBOLS, Solved, parse, side, units

__all__ = ["solve", "solve_counting"]

Values = dict[int, str]


class _Layout(NamedTuple):
    """Norvig's ``units[s]`` (the units containing ``s``) and ``peers[s]`` per square."""

    units: tuple[tuple[tuple[int, ...], ...], ...]
    peers: tuple[frozenset[int], ...]


@cache
def _layout(n: int) -> _Layout:
    unit_list = units(n)
    units_of = tuple(tuple(u for u in unit_list if s in u) for s in range(n * n))
    peers = tuple(frozenset().union(*us) - {s} for s, us in enumerate(units_of))
    return _Layout(units_of, peers)


def solve(puzzle: str) -> str | None:
    """Return the solution of ``puzzle``, or None if it has none."""
    return solve_counting(puzzle).solution


def solve_counting(puzzle: str) -> Solved:
    """Solve ``puzzle``; nodes = digits tried by ``search`` (propagation is not counted)."""
    n = side(puzzle)
    layout = _layout(n)
    digits = SYMBOLS[:n]
    values: Values = dict.fromkeys(range(n * n), digits)
    for s, value in enumerate(parse(puzzle)):
        if value and not assign(values, s, digits[value - 1], layout):
            return Solved(None, 0)

    nodes = 0

    def search(values: Values) -> Values | None:
        """Depth-first search on the square with the fewest remaining digits."""
        nonlocal nodes
        if all(len(values[s]) == 1 for s in values):
            return values
        _, s = min((len(values[s]), s) for s in values if len(values[s]) > 1)
        for d in values[s]:
            nodes += 1
            attempt = values.copy()
            if assign(attempt, s, d, layout) and (solved := search(attempt)):
                return solved
        return None

    solved = search(values)
    return Solved("".join(solved[s] for s in range(n * n)) if solved else None, nodes)


def assign(values: Values, s: int, d: str, layout: _Layout) -> bool:
    """Eliminate every digit but ``d`` from ``values[s]``; False on a contradiction."""
    return all(eliminate(values, s, d2, layout) for d2 in values[s].replace(d, ""))


def eliminate(values: Values, s: int, d: str, layout: _Layout) -> bool:
    """Remove ``d`` from ``values[s]`` and propagate; False on a contradiction."""
    if d not in values[s]:
        return True
    values[s] = values[s].replace(d, "")
    if not values[s]:
        return False
    if len(values[s]) == 1:
        d2 = values[s]
        if not all(eliminate(values, s2, d2, layout) for s2 in layout.peers[s]):
            return False
    for u in layout.units[s]:
        places = [s2 for s2 in u if d in values[s2]]
        if not places:
            return False
        if len(places) == 1 and not assign(values, places[0], d, layout):
            return False
    return True
