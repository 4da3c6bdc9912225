"""Knuth's Algorithm X on dictionaries of sets, after Ali Assaf's "Algorithm X in 30 lines!"
(https://www.cs.mcgill.ca/~aassaf9/python/algorithm_x.html).

``X`` maps each item (constraint) to the set of options still covering it, ``Y`` maps each
option to its items. ``select`` removes an option's items and every option clashing with
it; ``deselect`` undoes that in reverse. Python's sets stand in for the dancing links.
An option ``(cell, digit)`` covers four items: the cell is filled, and ``digit`` appears
in the cell's row, column and box. :func:`count_cover` runs the same search on any exact
cover problem with secondary items (a ``dlx.ExactCover`` without colors): the pure-Python
peer of the engine's exact-cover counts.
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from benchmarks.grid import Solved, coordinates, format_grid, parse, side

__all__ = ["count_cover", "deselect", "select", "solve", "solve_counting"]

Option = tuple[int, int]
Item = tuple[str | int, ...]
ItemOptions = dict[Item, set[Option]]
OptionItems = dict[Option, tuple[Item, ...]]
I = TypeVar("I")  # an item, in select/deselect: any hashable
O = TypeVar("O")  # an option


@cache
def _options(n: int) -> OptionItems:
    """``Y`` for an ``n x n`` grid: option ``(cell, digit)`` -> its four items (read-only)."""
    return {
        (cell, d): (("cell", cell), ("row", r, d), ("col", c, d), ("box", b, d))
        for cell, (r, c, b) in enumerate(coordinates(n))
        for d in range(1, n + 1)
    }


def solve(puzzle: str) -> str | None:
    """Return the solution of ``puzzle``, or None if it has none."""
    return solve_counting(puzzle).solution


def solve_counting(puzzle: str) -> Solved:
    """Solve ``puzzle``; nodes = options selected by the search (givens excluded)."""
    Y = _options(side(puzzle))
    X: ItemOptions = {}
    for option, items in Y.items():
        for item in items:
            X.setdefault(item, set()).add(option)
    values = parse(puzzle)
    for cell, digit in enumerate(values):
        if digit:
            if any(item not in X for item in Y[cell, digit]):
                return Solved(None, 0)  # clashes with an earlier given
            select(X, Y, (cell, digit))

    nodes = 0

    def search() -> bool:
        """Cover the item with the fewest options by each of them in turn."""
        nonlocal nodes
        if not X:
            return True
        item = min(X, key=lambda i: len(X[i]))
        for option in list(X[item]):
            nodes += 1
            removed = select(X, Y, option)
            if search():
                cell, digit = option
                values[cell] = digit
                return True
            deselect(X, Y, option, removed)
        return False

    return Solved(format_grid(values) if search() else None, nodes)


def select(X: dict[I, set[O]], Y: dict[O, tuple[I, ...]], option: O) -> list[set[O]]:
    """Take ``option``: drop its items and every other option on them; return the items' sets."""
    removed = []
    for j in Y[option]:
        for other in X[j]:
            for k in Y[other]:
                if k != j:
                    X[k].remove(other)
        removed.append(X.pop(j))
    return removed


def deselect(X: dict[I, set[O]], Y: dict[O, tuple[I, ...]], option: O,
             removed: list[set[O]]) -> None:
    """Undo ``select(X, Y, option)``, given what it returned."""
    for j in reversed(Y[option]):
        X[j] = removed.pop()
        for other in X[j]:
            for k in Y[other]:
                if k != j:
                    X[k].add(other)


def count_cover(problem: Any) -> int:
    """The number of solutions of ``problem`` (a ``dlx.ExactCover`` without colors or
    multiplicities), by the search of :func:`solve_counting`: branch on an active primary
    item with the fewest options (``min`` over the items: ties fall as the dict or set
    orders them), ``select``/``deselect`` as above. Secondary items are in ``X`` (so that
    selecting an option removes the options it clashes with) but are never branched on:
    the active primary items are then a set of their own."""
    Y: dict[int, tuple[Any, ...]] = dict(enumerate(tuple(o) for o in problem.options()))
    X: dict[Any, set[int]] = {item: set() for item in problem.items}
    for k, items in Y.items():
        for j in items:
            X[j].add(k)
    primary = set(problem.primary)
    pool = primary if problem.secondary else X  # without secondary items: Assaf's own

    def length(j: Any) -> int:
        return len(X[j])

    def count() -> int:
        if not pool:
            return 1
        item = min(pool, key=length)
        found = 0
        for option in list(X[item]):
            removed = select(X, Y, option)
            held = [j for j in Y[option] if j in primary] if pool is primary else ()
            primary.difference_update(held)
            found += count()
            primary.update(held)
            deselect(X, Y, option, removed)
        return found

    return count()
