"""The arguments of [`dlx.SolutionSet`][]'s queries checked, and the two that read its
diagram in Python: the solutions ranked by cost ([`ranked`][]), and an explicit list of
solutions checked against the problem ([`check_solutions`][]).

The set queries themselves (supersets, subsets, sizes) run in the store's kernel
([`dlx.kernels.zdd`][]); what is here is what they are given.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from .budget import as_index
from .errors import ArgumentError
from .zdd_store import memo_input

__all__ = ["check_costs", "check_solutions", "option_sets", "ranked", "size_bound", "unlink"]


def unlink(chosen: Any) -> list[int]:
    """A linked list ``(option, rest)`` as a sorted list."""
    out = []
    while chosen is not None:
        out.append(chosen[0])
        chosen = chosen[1]
    out.sort()
    return out


def size_bound(k: Any, n_options: int) -> int:
    """A number of options ``k`` of a size query, an integer (else
    [`dlx.ArgumentError`][] naming ``k``), brought into ``-1..n_options + 1`` (the
    kernel's words are 64 bits; past those ends every answer is the same)."""
    n = as_index(k)
    if n is None:
        raise ArgumentError(f"k must be an integer (a number of options), got {k!r}")
    return min(max(n, -1), n_options + 1)


def check_costs(costs: Any, problem: Any) -> list[Any]:
    """The cost of each option: ``costs`` given (a sequence of one finite real number per
    option, else [`dlx.ArgumentError`][] naming ``costs``), or the problem's own (0
    without)."""
    n = len(problem)
    if costs is None:
        own = memo_input(problem).costs
        return [0] * n if own is None else [int(c) for c in own]
    if isinstance(costs, (str, bytes)) or not isinstance(costs, Iterable):
        raise ArgumentError(f"costs must be a sequence of {n} numbers (one per option), "
                            f"got {costs!r}")
    out = list(costs.tolist() if isinstance(costs, np.ndarray) else costs)
    if len(out) != n:
        raise ArgumentError(f"costs must give one number per option: {n} of them, got "
                            f"{len(out)}")
    for i, c in enumerate(out):
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, float, np.integer,
                                                                 np.floating)) \
                or not math.isfinite(c):
            raise ArgumentError(f"costs[{i}] must be a finite number, got {c!r}")
        out[i] = c.item() if isinstance(c, np.generic) else c
    return out


def ranked(root: int, opt: list[int], lo: list[int], hi: list[int],
           cost: list[Any]) -> Iterator[list[int]]:
    """Every set of the diagram, cheapest first under ``cost`` (per option), one at a
    time as asked: the cheapest paths, found best first (a node's least cost to the
    sink, exact, bounds each partial path, so any costs work, negative ones too). Equal
    costs in the order of iteration."""
    least = [math.inf, 0] + [0] * (len(opt) - 2)
    for m in range(2, len(opt)):
        least[m] = min(least[lo[m]], cost[opt[m]] + least[hi[m]])
    # A partial path: (bound, its branches (0: lo, 1: hi), cost so far, node, options).
    # Equal bounds pop in the order of the branches: the order of iteration.
    heap: list[tuple[Any, tuple[int, ...], Any, int, Any]] = []
    if least[root] < math.inf:
        heap.append((least[root], (), 0, root, None))
    while heap:
        _, branches, spent, m, chosen = heapq.heappop(heap)
        if m == 1:
            yield unlink(chosen)
            continue
        for bit, child, extra, more in ((0, lo[m], 0, chosen),
                                        (1, hi[m], cost[opt[m]], (opt[m], chosen))):
            if least[child] < math.inf:
                heapq.heappush(heap, (spent + extra + least[child], (*branches, bit),
                                      spent + extra, child, more))


def options_of(given: Any, n_options: int, name: str) -> list[int]:
    """``given``, an iterable of option indices, as a list; else
    [`dlx.ArgumentError`][] naming ``name``."""
    if not isinstance(given, Iterable) or isinstance(given, (str, bytes)):
        raise ArgumentError(f"{name} must be an iterable of option indices, got {given!r}")
    out = []
    for k in given:
        i = as_index(k)
        if i is None or not 0 <= i < n_options:
            raise ArgumentError(f"{name}: {k!r} is not an option of the problem (0.."
                                f"{n_options - 1})")
        out.append(i)
    return out


def option_sets(given: Any, n_options: int, name: str) -> list[list[int]]:
    """``given``, an iterable of sets of option indices (any options: partial
    solutions, say), as lists; else [`dlx.ArgumentError`][] naming ``name`` and the
    set at fault."""
    if not isinstance(given, Iterable) or isinstance(given, (str, bytes)):
        raise ArgumentError(f"{name} must be a SolutionSet or an iterable of sets of option "
                            f"indices, got {given!r}")
    return [options_of(chosen, n_options, f"{name}[{i}]") for i, chosen in enumerate(given)]


def check_solutions(problem: Any, solutions: Any) -> list[list[int]]:
    """``solutions`` as lists of option indices, each checked to be a solution of
    ``problem``: every primary item covered once, a secondary item at most once or
    always with one color, no option twice, no option without a primary item (no
    search chooses one). Else [`dlx.ArgumentError`][] naming the solution (its position
    and value) and the item or option at fault."""
    data = memo_input(problem)  # a problem with multiplicities: ArgumentError
    indptr, items, colors = data.indptr.tolist(), data.items.tolist(), data.colors.tolist()
    n1, names = data.n_primary, problem.items
    kept = data.kept()
    out = option_sets(solutions, len(problem), "solutions")
    for i, chosen in enumerate(out):
        where = f"solutions[{i}] = {chosen!r} is not a solution of the problem"
        seen: dict[int, int] = {}  # item -> its color (0: none) where first met
        taken: set[int] = set()
        for o in chosen:
            if not kept[o]:
                raise ArgumentError(f"{where}: option {o} has no primary item")
            if o in taken:
                raise ArgumentError(f"{where}: option {o} is in it twice")
            taken.add(o)
            for j in range(indptr[o], indptr[o + 1]):
                x, c = items[j], colors[j]
                if x in seen and (x <= n1 or c == 0 or seen[x] != c):
                    raise ArgumentError(f"{where}: item {names[x - 1]!r} is covered twice"
                                        + ("" if x <= n1 or c == 0 or seen[x] == 0
                                           else " with two colors"))
                seen[x] = c
        for x in range(1, n1 + 1):
            if x not in seen:
                raise ArgumentError(f"{where}: item {names[x - 1]!r} is not covered")
    return out
