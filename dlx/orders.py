"""Orders of a problem's options with a narrow *frontier*: the order of the variables of
its canonical ZDD store (`dlx.zdd_store`) and of the top-down construction
(`dlx.frontier`).

An item is *open* (on the frontier) from its first option to its last, both included,
as the options are decided in an order; the most items open at once is the order's
[`frontier_width`][]. A top-down construction keeps one node per reachable state of the
open items, so the width bounds the nodes of a level by ``2 ** width``, and the reduced
diagram follows it (a domino board: 2.6 times fewer nodes at 12 x 12 by diagonals than by
rows). Finding the narrowest order is NP-hard (it is the vertex separation of the
options' hypergraph); [`option_order`][] tries a few orders that the sparse-matrix
literature uses for bandwidth and profile, and keeps the narrowest:

- the options as given;
- *breadth-first* orders: items numbered as a breadth-first walk over the options
  reaches them (each connected part from a start item), options sorted by their first
  and last item in that numbering (graphillion's ``bfs`` order of a graph's edges, for
  any problem); the walk starts from an item of fewest options, or from a
  *pseudo-peripheral* item (George and Liu's: the end of a longest breadth-first walk,
  found by walking again from there until the depth stops growing);
- *Cuthill-McKee* orders: the same walk from the pseudo-peripheral item, each item's new
  neighbours visited fewest options first, and its reverse (reverse Cuthill-McKee);
- for each numbering of the items, the options sorted by their first item, or by their
  last (an option is decided when its last item comes, which closes items sooner).

The choice is by the smallest width, then the smallest sum of the items' open stretches
(the *profile*), then the first candidate in the list above: a pure function of the
problem's content, so that equal problems (a pickled copy, the same file read twice) get
the same order and their sets combine by node (the workers of a split set rely on it:
they send diagrams in the store's order). Every candidate costs a walk over the options
and a few numpy passes: about ``2 log2(items)`` walks, linear in the problem's size each
(pentomino 6 x 10: 70 ms; 5,000 options of a word square: 130 ms).

Measured on the shared problems (``frontier width`` before -> after): pentominoes 68-69
-> 28-39 (hubs left out), the full sudoku encoding 118 -> 82, de Bruijn 5 81 -> 41, a
Latin square of 5 22 -> 16 (the greedy); the canonical diagrams of the pentomino boards
20-39% fewer nodes, de Bruijn 5's 79% (26,285 -> 5,444). Domino boards, Langford's and
the queens' problems keep their order (nothing is narrower by [`MARGIN`][]).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .budget import as_index
from .errors import ArgumentError

__all__ = ["MARGIN", "candidate_orders", "check_option_order", "frontier_width",
           "greedy_order", "option_order", "profile", "spans", "widest"]


def spans(indptr: np.ndarray, items: np.ndarray, n_items: int,
          order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each item's first and last position in ``order`` (-1, -1: no option), and each
    entry's position (the variable of its option)."""
    indptr = np.asarray(indptr, dtype=np.int64)
    items = np.asarray(items, dtype=np.int64)
    n = len(order)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64)
    var = rank[np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))]
    first = np.full(n_items + 1, n, dtype=np.int64)
    last = np.full(n_items + 1, -1, dtype=np.int64)
    np.minimum.at(first, items, var)
    np.maximum.at(last, items, var)
    first[last < 0] = -1
    return first, last, var


def widest(first: np.ndarray, last: np.ndarray, weight: np.ndarray, n: int) -> float:
    """The most ``weight`` open at once over ``n`` positions, item ``i`` open from
    ``first[i]`` to ``last[i]``, both included (0 for no item)."""
    if not len(first):
        return 0
    live = np.zeros(n + 1, dtype=np.asarray(weight).dtype)
    np.add.at(live, first, weight)
    np.add.at(live, last + 1, -weight)
    return np.cumsum(live).max()


def frontier_width(indptr: np.ndarray, items: np.ndarray, n_items: int,
                   order: np.ndarray) -> int:
    """The most items open at once when the options (CSR: option ``k`` holds
    ``items[indptr[k]:indptr[k+1]]``, items ``1..n_items``) are decided in ``order``: an
    item is open from its first option to its last, both included (options without a
    primary item count, as the construction decides them too)."""
    first, last, _ = spans(indptr, items, n_items, order)
    used = last >= 0
    return int(widest(first[used], last[used], np.ones(int(used.sum()), np.int64),
                      len(order)))


def profile(indptr: np.ndarray, items: np.ndarray, n_items: int, order: np.ndarray) -> int:
    """The sum over items of the stretch from their first option to their last in
    ``order`` (the tie-break of [`option_order`][])."""
    first, last, _ = spans(indptr, items, n_items, order)
    used = last >= 0
    return int((last[used] - first[used]).sum())


class _Graph:
    """The problem as lists, for the walks: each item's options and each option's
    items, and each item's number of options (its degree)."""

    def __init__(self, indptr: np.ndarray, items: np.ndarray, n_items: int) -> None:
        n = len(indptr) - 1
        owner = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        by_item = np.argsort(items, kind="stable")
        starts = np.searchsorted(items[by_item], np.arange(n_items + 2))
        self.n_items = n_items
        self.owners: list[int] = owner[by_item].tolist()
        self.starts: list[int] = starts.tolist()
        self.members: list[int] = items.tolist()
        self.ptr: list[int] = indptr.tolist()
        self.degree: list[int] = np.diff(starts).tolist()

    def walk(self, first: int, position: list[int], k: int, by_degree: bool,
             used: bytearray) -> list[int]:
        """A breadth-first walk from item ``first`` over the items not yet numbered in
        ``position`` (numbering them from ``k``), each option read once (``used``: the
        options read, by this walk or an earlier one of another part); ``by_degree``:
        each item's new neighbours in order of their degree (Cuthill-McKee). Returns the
        items in the order reached."""
        owners, members, starts, ptr, degree = (self.owners, self.members, self.starts,
                                                self.ptr, self.degree)
        position[first] = k
        queue = [first]
        for x in queue:
            new: list[int] = []
            for j in range(starts[x], starts[x + 1]):
                o = owners[j]
                if used[o]:
                    continue
                used[o] = 1
                for y in members[ptr[o]:ptr[o + 1]]:
                    if position[y] == -1:
                        position[y] = -2  # seen: numbered below
                        new.append(y)
            if by_degree:
                new.sort(key=degree.__getitem__)
            for y in new:
                k += 1
                position[y] = k
            queue.extend(new)
        return queue

    def levels(self, first: int) -> list[list[int]]:
        """The items of ``first``'s part by their distance from it (time and memory
        follow the part, not the problem)."""
        owners, members, starts, ptr = self.owners, self.members, self.starts, self.ptr
        depth = {first: 0}
        used: set[int] = set()
        out: list[list[int]] = [[first]]
        for level in out:
            below: list[int] = []
            for x in level:
                for j in range(starts[x], starts[x + 1]):
                    o = owners[j]
                    if o in used:
                        continue
                    used.add(o)
                    for y in members[ptr[o]:ptr[o + 1]]:
                        if y not in depth:
                            depth[y] = len(out)
                            below.append(y)
            if below:
                out.append(below)
        return out

    def peripheral(self, start: int) -> int:
        """George and Liu's pseudo-peripheral item of ``start``'s part: walk from an
        item of the last level of fewest options until the depth stops growing."""
        levels = self.levels(start)
        for _ in range(8):  # a few rounds: it settles in two or three
            last = min(levels[-1], key=lambda y: (self.degree[y], y))
            further = self.levels(last)
            if len(further) <= len(levels):
                return start
            start, levels = last, further
        return start

    def numbering(self, starts: list[int], peripheral: bool, by_degree: bool) -> np.ndarray:
        """Each item's number (0 for item 0, -1 for an item without options): walks
        over the parts, each from the first item of ``starts`` not yet reached (or its
        part's pseudo-peripheral item)."""
        position = [-1] * (self.n_items + 1)
        used = bytearray(len(self.ptr) - 1)
        k = 0
        for first in starts:
            if position[first] >= 0 or self.degree[first] == 0:
                continue
            if peripheral:
                first = self.peripheral(first)
                if position[first] >= 0:
                    continue
            k += len(self.walk(first, position, k, by_degree, used))
        return np.asarray(position, dtype=np.int64)


def _by_items(indptr: np.ndarray, items: np.ndarray, position: np.ndarray,
              last_first: bool) -> np.ndarray:
    """The options sorted by their first and last item in the numbering ``position``
    (``last_first``: by their last, then their first), ties by index. Items numbered -1
    (hubs, or without options) do not count; an option of such items only comes first."""
    n = len(indptr) - 1
    pos = position[items]
    skip = pos < 0
    nonempty = np.diff(indptr) > 0
    low = np.full(n, -1, dtype=np.int64)
    high = np.full(n, -1, dtype=np.int64)
    starts = indptr[:-1][nonempty]
    if len(starts):
        big = np.int64(len(position) + 1)
        low[nonempty] = np.minimum.reduceat(np.where(skip, big, pos), starts)
        high[nonempty] = np.maximum.reduceat(pos, starts)
        low[low == big] = -1
    given = np.arange(n, dtype=np.int64)
    return np.lexsort((given, low, high) if last_first else (given, high, low))


def _without(indptr: np.ndarray, items: np.ndarray,
             hubs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The options (CSR) with the items ``hubs`` left out of them."""
    keep = ~np.isin(items, hubs)
    counts = np.zeros(len(indptr) - 1, dtype=np.int64)
    np.add.at(counts, np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)), keep)
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64), items[keep]


def _reach(indptr: np.ndarray, items: np.ndarray, n_items: int) -> np.ndarray:
    """Each item's *reach*: how many items share an option with it (itself included;
    item 0: -1)."""
    ptr, members = indptr.tolist(), items.tolist()
    near: list[set[int]] = [set() for _ in range(n_items + 1)]
    for o in range(len(ptr) - 1):
        mine = members[ptr[o]:ptr[o + 1]]
        for i in mine:
            near[i].update(mine)
    reach = np.fromiter((len(s) for s in near), dtype=np.int64, count=n_items + 1)
    reach[0] = -1
    return reach


def greedy_order(indptr: np.ndarray, items: np.ndarray, n_items: int) -> np.ndarray:
    """The options one at a time, each the one that widens the frontier least: the
    items it opens less those it closes (its items whose other options are all
    placed), ties by index. A heap of the options by that score, updated as items open
    and close (each item once or twice: linear in the problem's size, times a log)."""
    import heapq

    n = len(indptr) - 1
    ptr, members = indptr.tolist(), items.tolist()
    owner = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    by_item = np.argsort(items, kind="stable")
    starts = np.searchsorted(items[by_item], np.arange(n_items + 2)).tolist()
    owners = owner[by_item].tolist()
    left = np.bincount(items, minlength=n_items + 1).tolist()
    score = [sum(1 - (left[i] == 1) for i in members[ptr[o]:ptr[o + 1]]) for o in range(n)]
    heap = [(s, o) for o, s in enumerate(score)]
    heapq.heapify(heap)
    opened = [False] * (n_items + 1)
    placed = [False] * n
    order: list[int] = []
    while heap:
        s, o = heapq.heappop(heap)
        if placed[o] or s != score[o]:
            continue
        placed[o] = True
        order.append(o)
        for i in members[ptr[o]:ptr[o + 1]]:
            left[i] -= 1
            if not opened[i]:
                opened[i] = True
                for j in range(starts[i], starts[i + 1]):  # i no longer opens
                    p = owners[j]
                    if not placed[p]:
                        score[p] -= 1
                        heapq.heappush(heap, (score[p], p))
            if left[i] == 1:  # the last option of i closes it
                for j in range(starts[i], starts[i + 1]):
                    p = owners[j]
                    if not placed[p]:
                        score[p] -= 1
                        heapq.heappush(heap, (score[p], p))
    return np.asarray(order, dtype=np.int64)


def candidate_orders(indptr: np.ndarray, items: np.ndarray,
                     n_items: int) -> list[tuple[str, np.ndarray]]:
    """The orders [`option_order`][] chooses from, named, in its order of preference
    on ties (see the module)."""
    indptr = np.asarray(indptr, dtype=np.int64)
    items = np.asarray(items, dtype=np.int64)
    n = len(indptr) - 1
    given = np.arange(n, dtype=np.int64)
    out = [("given", given)]
    if n < 3 or len(items) == 0:
        return out
    graph = _Graph(indptr, items, n_items)
    fewest = (np.argsort(np.asarray(graph.degree[1:n_items + 1]), kind="stable") + 1).tolist()
    bfs = graph.numbering(fewest, False, False)
    out.append(("bfs", _by_items(indptr, items, bfs, False)))
    out.append(("bfs-last", _by_items(indptr, items, bfs, True)))
    cm = graph.numbering(fewest, True, True)
    rcm = np.where(cm >= 0, cm.max() - cm, -1)
    for name, position in (("peripheral", graph.numbering(fewest, True, False)), ("cm", cm),
                           ("rcm", rcm)):
        out.append((name, _by_items(indptr, items, position, False)))
        out.append((name + "-last", _by_items(indptr, items, position, True)))
    out.append(("greedy", greedy_order(indptr, items, n_items)))
    reach = _reach(indptr, items, n_items)
    widest = np.lexsort((np.arange(n_items + 1), -reach))  # items by reach, widest first
    k = 1
    while k <= n_items // 2:
        hubs = widest[:k]
        graph = _Graph(*_without(indptr, items, hubs), n_items)
        for name, peripheral in ((f"hubless{k}", False), (f"hubless{k}-peripheral", True)):
            position = graph.numbering(fewest, peripheral, False)
            position[hubs] = -1
            out.append((name, _by_items(indptr, items, position, False)))
            out.append((name + "-last", _by_items(indptr, items, position, True)))
        k *= 2
    return out


MARGIN = 2
"""How many items narrower than today's choice (the given or the breadth-first order,
the one of the smaller [`profile`][]) another candidate must be to replace it. Measured
(the top-down construction, numba): one item narrower was as often worse as better
(domino 6 x 30, 8 -> 7 wide: 23% fewer nodes; the 12 x 12 board with its centre cut out,
12 -> 11: 18% more; queens9, 27 -> 26: 22% more and 5x the time; langford11 ``--sym``,
24 -> 23: 5% fewer nodes, 2.5x the time), while the candidates that win, win by many
items (pentominoes 68 -> 28-39, the full sudoku encoding 118 -> 82)."""


def option_order(indptr: np.ndarray, items: np.ndarray, n_items: int) -> np.ndarray:
    """The options in the order of a problem's canonical store: of
    [`candidate_orders`][], the one of the smallest [`frontier_width`][] (then the
    smallest [`profile`][], then the first), if it is at least [`MARGIN`][] items
    narrower than the given order or the breadth-first one, whichever has the smaller
    profile (the given one on a tie: the store's order before these candidates); else
    that one. Never wider than it."""
    indptr = np.asarray(indptr, dtype=np.int64)
    items = np.asarray(items, dtype=np.int64)
    candidates = candidate_orders(indptr, items, n_items)
    keys = [(frontier_width(indptr, items, n_items, order),
             profile(indptr, items, n_items, order), i)
            for i, (_, order) in enumerate(candidates)]
    best = min(keys)
    named = {name: key for key, (name, _) in zip(keys, candidates)}
    base = named["given"]  # the order before: breadth-first only when its profile is smaller
    if "bfs" in named and named["bfs"][1] < base[1]:
        base = named["bfs"]
    return candidates[best[2] if best[0] <= base[0] - MARGIN else base[2]][1]


def check_option_order(value: Any, n_options: int, where: str = "option_order") -> np.ndarray:
    """A user's order of the options (``solution_set(option_order=...)``,
    ``SolutionSet.in_order``) as an int64 array: a permutation of ``0..n_options-1``,
    each option once; else [`dlx.ArgumentError`][] naming ``where`` and the culprit (not
    an iterable of integers, an entry not an integer, out of range or repeated, an
    option missing)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError(f"{where} must be a permutation of the option indices "
                            f"0..{n_options - 1}, got {value!r}")
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.ndim == 1:
        entries = value.astype(np.int64).tolist()
    else:
        entries = []
        for k, entry in enumerate(value):
            i = as_index(entry)
            if i is None:
                raise ArgumentError(f"{where}[{k}] must be an option index (an integer), "
                                    f"got {entry!r}")
            entries.append(i)
    seen = bytearray(n_options)
    for k, i in enumerate(entries):
        if not 0 <= i < n_options:
            raise ArgumentError(f"{where}[{k}] = {i} is not an option: the indices are "
                                f"0..{n_options - 1}")
        if seen[i]:
            raise ArgumentError(f"{where}[{k}] = {i} is repeated: each option comes once")
        seen[i] = 1
    if len(entries) != n_options:
        missing = seen.find(0)
        raise ArgumentError(f"{where} has {len(entries)} entries for {n_options} options: "
                            f"option {missing} is missing")
    return np.asarray(entries, dtype=np.int64)
