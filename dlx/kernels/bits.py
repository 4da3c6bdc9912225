"""Algorithm X over bitsets: the python backend's kernel for wide options and few items.

In CPython a dancing-links update costs ~8 list subscripts of bytecode per node removed
([`dlx.kernels.unrolled`][]); a pentomino option is 6 wide, so a node of the 6x10 count removes
~340 of them. Here the *set of active options* is one Python ``int``, bit ``b`` for the
option laid out ``b - N1``-th, and taking an option is a few integer operations in C on
it, whatever the number of options it removes. The search is the same as Knuth's, step by
step (the same item chosen, its options tried in the same order), so it returns the same
solutions in the same order with the same ``nodes``; ``updates`` are those the links would
have made, counted from the bits (below). The read-only tables, per problem
([`tables`][]):

``PM[j - 1]``
    the bits of primary item ``j``'s options, plus ``j``'s *sentinel* bit ``j - 1``: it is
    set in the active set while ``j`` is uncovered, so ``popcount(A & PM[j - 1])`` is 0
    for a covered item and ``LEN[j] + 1`` for an active one. C3 is then Knuth's choice
    (the first active primary item of least length) made in C: a ``map`` of ``&`` and
    ``bit_count`` over ``PM``, the least non-zero count, its first index.
``MR[j]``
    the bits of item ``j``'s options (``j``'s list in the pristine links, in order).
``CL[b]``
    the bits that taking option ``b`` removes: every option that shares an item with it
    (itself included: the union of ``MR`` of its items) and its primary items' sentinels.
``NODE[j][b]``
    the node of option ``b`` in item ``j``'s list: what ``CHOICE`` holds, as in the links.
``BIT[k]``
    option number ``k``'s bit (-1 for an option left out of the links).

**Updates.** Knuth counts one per item covered and one per node unlinked. Covering item
``j`` unlinks the ``w - 1`` other nodes of each ``w``-wide option in ``j``'s list, and an
option leaves the lists once, at the first covered item it holds; so choosing the item
``i`` (C4) costs ``1 + W(R)``, where ``R = A & MR[i]`` are its options and ``W(S)`` sums
``w - 1`` over the options of ``S``, and trying its option ``x`` (C5: covering ``x``'s
other items) costs ``|x| - 1 + W(A & CL[x]) - W(R)``, since ``A & CL[x]`` is everything
that option removes, ``R`` included. With options of one width ``W`` is a popcount (less
the sentinels); else a popcount per width.

Per level ``l`` the search keeps, in the per-search [`Walk`][] that ``S.COLOR`` holds
instead of colors: ``AS[l]``, the active set at that node; ``RS[l]``, the options of its
item still to try; ``WR[l]``, ``W`` of all its options; ``CM[l]`` and ``CI[l]``, the
masks and numbers of the primary items C3 counts there: those still active at the parent
(all of them at the root), in item order. A node keeps for its children the items it
found active (``itertools.compress`` by their counts, in C), so covered items are not
counted again further down: a third off a node of the pentominoes. Nothing is undone on the way up:
a level's active set is kept, not rebuilt (C6-C8 are a lookup). ``U``, ``D``, ``LEN``,
``LL``, ``RL`` are the pristine arrays, never written (Knuth's sanity checker still reads
them). The registers, statuses and ``CHOICE`` are [`dlx.kernels.algorithm_c.search`][]'s, so
[`dlx.search`][] drives this kernel in slices, resumes it, and reads its solutions alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress

import numpy as np

from ..links import Links
from ..state import (
    REG_LEVEL,
    REG_MAX_LEVEL,
    REG_NODES,
    REG_RESUME,
    REG_SOLUTIONS,
    REG_UPDATES,
    REGISTERS,
    State,
)
from .codes import COMPLETE, ENTER, LEAVE, LIMIT, MAX_NODES
from .declare import Declaration

__all__ = ["BITS_ITEM_COST", "BITS_MOST", "BITS_WIDTH", "Tables", "Walk", "bits_pay", "explored",
           "force_all", "search", "tables"]


@dataclass(frozen=True, eq=False)
class Tables:
    """The read-only bitsets of one problem (see the module's docstring)."""

    PM: list
    MR: list
    CL: list
    NODE: list
    BIT: list
    UPD: list
    """``UPD[b]``: the part of option ``b``'s updates known in advance: ``|x| - 1``, less
    ``(w - 1)`` per sentinel in ``CL[b]`` when every option is ``w`` wide."""
    w1: int
    """``w - 1`` when every option has ``w`` items (and ``w > 1``), else 0."""
    widths: tuple
    """Otherwise: ``(w - 1, the bits of the options of width w)`` for each width."""
    root: int
    """The active set before the search: every option and every sentinel."""
    sentinels: int
    levels: int


def _bitset(bits: np.ndarray, size: int) -> int:
    """The ``int`` with the given bit positions set (``size`` bits at most)."""
    packed = np.zeros((size + 7) // 8, dtype=np.uint8)
    np.bitwise_or.at(packed, bits >> 3, (1 << (bits & 7)).astype(np.uint8))
    return int.from_bytes(packed.tobytes(), "little")


def tables(links: Links) -> Tables:
    """The bitsets of ``links`` (a problem without colors or multiplicities), built with
    numpy: for a 6x10 pentomino (2,032 options, 72 items) a few milliseconds."""
    A = links.arrays
    N, N1 = links.n_items, links.n_primary
    TOP = A.TOP
    tail = TOP[N + 1:]
    rank = np.cumsum(tail <= 0) - 1  # the option rank of each node after the first spacer
    nodes = np.flatnonzero(tail > 0) + N + 1
    items = TOP[nodes]
    bits = rank[nodes - N - 1] + N1
    n_kept = int(rank[-1]) if len(rank) else 0
    size = N1 + n_kept
    order = np.argsort(items, kind="stable")  # by item, then node: list order
    cuts = np.searchsorted(items[order], np.arange(1, N + 2))
    by_item = np.split(bits[order], cuts)[1 : N + 1]  # items 1..N
    node_by_item = np.split(nodes[order], cuts)[1 : N + 1]
    MR = [0] + [_bitset(b, size) for b in by_item]
    PM = [MR[j] | 1 << (j - 1) for j in range(1, N1 + 1)]
    NODE: list = [{}] + [dict(zip(b.tolist(), p.tolist()))
                         for b, p in zip(by_item, node_by_item)]
    starts = np.flatnonzero(np.diff(bits, prepend=-1))  # each option's first node
    widths = np.diff(np.append(starts, len(bits)))
    uniform = len(widths) > 0 and bool((widths == widths[0]).all()) and widths[0] > 1
    w1 = int(widths[0]) - 1 if uniform else 0
    CL = [0] * size
    UPD = [0] * size
    option_items = np.split(items, starts[1:]) if len(starts) else []
    for b, mine in zip(bits[starts].tolist(), option_items):
        mine = mine.tolist()
        removed = 0
        for j in mine:
            removed |= MR[j]
        primary = [j for j in mine if j <= N1]
        for j in primary:
            removed |= 1 << (j - 1)
        CL[b] = removed
        UPD[b] = len(mine) - 1 - w1 * len(primary)
    by_width = {}
    if not uniform:
        for w in np.unique(widths).tolist():
            by_width[w - 1] = _bitset(bits[starts][widths == w], size)
    BIT = [-1] * links.n_options
    of_node = links.option_of_node
    for b, k in zip(bits[starts].tolist(), of_node[nodes[starts]].tolist()):
        BIT[k] = b
    sentinels = (1 << N1) - 1
    root = sentinels
    for j in range(1, N1 + 1):
        root |= MR[j]
    return Tables(PM, MR, CL, NODE, BIT, UPD, w1, tuple(by_width.items()), root, sentinels,
                  len(A.CHOICE))


class Walk:
    """One search's stacks, per level (see the module's docstring), and the tables.

    It stands in the state's ``COLOR`` slot; the backend's ``copy`` gives each search
    its own ([`fresh`][]), sharing the tables.
    """

    __slots__ = ("AS", "CI", "CM", "RS", "WR", "tables")

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        size = tables.levels + 1
        self.AS = [0] * size
        self.AS[0] = tables.root
        self.RS = [0] * size
        self.WR = [0] * size
        self.CM: list = [()] * size
        self.CM[0] = tables.PM
        self.CI: list = [()] * size
        self.CI[0] = range(1, len(tables.PM) + 1)

    def fresh(self) -> Walk:
        """A new search's stacks: the active set before the search, nothing tried."""
        return Walk(self.tables)


def weigh(S: int, widths: tuple) -> int:
    """``W(S)``: ``w - 1`` summed over the options of ``S``, one popcount per width."""
    return sum(w1 * (S & bits).bit_count() for w1, bits in widths)


def search(S, node_stop, solution_stop):
    """[`dlx.kernels.algorithm_c.search`][] for problems without colors, over bitsets: same
    registers, statuses, ``CHOICE``, solutions, ``nodes`` and ``updates``."""
    walk = S.COLOR
    T = walk.tables
    MR, CL, NODE, UPD = T.MR, T.CL, T.NODE, T.UPD
    w1, widths, sentinels = T.w1, T.widths, T.sentinels
    AS, RS, WR, CM, CI = walk.AS, walk.RS, walk.WR, walk.CM, walk.CI
    TOP, CHOICE, REG = S.TOP, S.CHOICE, S.REG
    level = REG[REG_LEVEL]
    nodes = REG[REG_NODES]
    updates = REG[REG_UPDATES]
    solutions = REG[REG_SOLUTIONS]
    max_level = REG[REG_MAX_LEVEL]
    step = REG[REG_RESUME]
    status = COMPLETE
    A = AS[level]
    bit_count = int.bit_count
    while True:
        if step == ENTER:
            # C2: enter a level; a node of the search tree. A: its active options.
            if nodes >= node_stop:
                AS[level] = A
                status = MAX_NODES
                break
            nodes += 1
            if level > max_level:
                max_level = level
            if not A & sentinels:  # every primary item is covered: a solution
                solutions += 1
                step = LEAVE
                if solutions >= solution_stop:
                    status = LIMIT
                    break
                continue
            # C3: LEN + 1 of each active primary item, 0 for a covered one; the active
            # ones are the children's candidates.
            items = CM[level]
            lengths = list(map(bit_count, map(A.__and__, items)))
            t = min(filter(None, lengths))
            if t == 1:  # C4 and C7 at once: an empty list is covered and uncovered
                updates += 1
                step = LEAVE
                continue
            i = CI[level][lengths.index(t)]
            CM[level + 1] = list(compress(items, lengths))
            CI[level + 1] = list(compress(CI[level], lengths))
            R = A & MR[i]  # C4: cover i (its options leave the other lists)
            r = w1 * (t - 1) if w1 else weigh(R, widths)
            updates += 1 + r
            AS[level] = A
            WR[level] = r
        else:
            # C8, C6: leave the level and take its item's next option; C7: none left.
            if level == 0:
                break
            level -= 1
            R = RS[level]
            if not R:
                continue
            A = AS[level]
            r = WR[level]
            i = TOP[CHOICE[level]]
        # C5: try the first option x of R: cover x's other items.
        x = R & -R
        b = x.bit_length() - 1
        RS[level] = R ^ x
        CHOICE[level] = NODE[i][b]
        removed = A & CL[b]
        A ^= removed
        updates += UPD[b] - r + (w1 * removed.bit_count() if w1 else weigh(removed, widths))
        level += 1
        step = ENTER
    REG[REG_LEVEL] = level
    REG[REG_NODES] = nodes
    REG[REG_UPDATES] = updates
    REG[REG_SOLUTIONS] = solutions
    REG[REG_MAX_LEVEL] = max_level
    REG[REG_RESUME] = step
    return status


def force_all(S, FORCED):
    """[`dlx.kernels.algorithm_c.force_all`][] over bitsets: take the options ``FORCED`` (option
    numbers) in turn; -1, or the index of the first that an earlier one removed."""
    walk = S.COLOR
    T = walk.tables
    A = walk.AS[0]
    for f, k in enumerate(FORCED):
        b = T.BIT[k]
        if b < 0 or not A >> b & 1:
            return f
        A ^= A & T.CL[b]
    walk.AS[0] = A
    return -1


def explored(S, floor: float = 0.0) -> float:
    """[`dlx.search.explored`][] for this kernel: Knuth's estimate of the part of the
    tree explored, from the options each level has tried out of its item's ``d``; levels
    whose share is under ``floor`` are not read."""
    walk = S.COLOR
    level = int(S.REG[REG_LEVEL])
    share, total = 1.0, 0.0
    for l in range(min(level, len(walk.AS))):
        if share < floor:
            break
        i = S.TOP[S.CHOICE[l]]
        d = (walk.AS[l] & walk.tables.MR[i]).bit_count()
        k = d - walk.RS[l].bit_count()
        if not 1 <= k <= d:  # a snapshot torn by the running search
            break
        share /= d
        total += (k - 1) * share
    return min(1.0, total + share / 2) if level else 0.0


BITS_ITEM_COST = 0.4
"""A node of the bitset kernel costs about this many link updates of [`dlx.kernels.unrolled`][]
per primary item (a ``&`` and a popcount in C per item, for the choice)..."""
BITS_WIDTH = 4000
"""... and as much again per this many bits in the active set (options and primary items)."""
BITS_MOST = 1 << 28
"""At most this many bits (32 MB) in the bitset kernel's tables: a set of options per item
(``MR``, ``PM``) and per option (``CL``)."""


def bits_pay(links: Links) -> bool:
    """True when this kernel should search ``links`` (no colors, no bounds or
    costs): when the updates a node of the links would make, estimated as the primary
    items' mean list length times the options' mean width less one (what covering an
    item of a chosen option unlinks), exceed the cost of its choice of item, a popcount
    per primary item. Sudoku (short lists, many items) stays on [`dlx.kernels.unrolled`][];
    tilings (lists of hundreds) go to the bits. Measured in ``docs/design.md``."""
    pay = links.converted.get("python-bits-pay")
    if pay is None:
        A = links.arrays
        n1 = links.n_primary
        kept = int(np.count_nonzero(A.FORCING >= 0))
        nodes = int(A.LEN[1:].sum())
        size = n1 + kept
        pay = (not links.colored and not links.mcc and n1 > 0 and kept > 0
               and size * (links.n_items + 1 + kept) <= BITS_MOST
               and float(A.LEN[1 : n1 + 1].mean()) * (nodes / kept - 1)
               >= BITS_ITEM_COST * n1 * (1 + size / BITS_WIDTH))
        pay = links.converted.setdefault("python-bits-pay", pay)
    return pay


DECLARATION = Declaration("bits", functions=("search", "force_all"),
                          entries={"search": "Sii", "force_all": "Sa"}, state=State,
                          registers=tuple(name for name, _ in REGISTERS), backends=("python",))
"""Algorithm X over Python ints as bitsets (``COLOR`` holds its [`Walk`][]): never
compiled."""
