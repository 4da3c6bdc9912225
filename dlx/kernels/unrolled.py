"""Algorithm X for the python backend: [`dlx.kernels.algorithm_c`][] with its inner loops unrolled.

Problems without colors (every Sudoku, queens, Langford pairs, polyomino tilings) need
only Algorithm X, Knuth's DLX1. In CPython the cost of the general kernel is not the link
updates themselves but everything around them: a function call per cover, a spacer test
and a color test per node. This kernel does the same updates in the same order with less
around them, for about twice the speed (``docs/decisions.md``, "The python fast path"):

* ``OTHERS[p]`` is a precomputed list of the other nodes of ``p``'s option, in Knuth's
  cyclic order, so that hiding an option is a ``for`` loop over a list, with no spacer
  test. It replaces ``COLOR``, which Algorithm X does not need.
* Covering and uncovering are written out once each, inside the search loop: every step
  of the loop first uncovers the items of a list of nodes, then covers the items of
  another (C4 and C5 fuse into one covering of the items of ``x`` and ``OTHERS[x]``,
  where ``x`` is the first option of the chosen item ``i``).

The registers, the statuses, ``CHOICE`` and the choice of item are those of
[`dlx.kernels.algorithm_c.search`][], so [`dlx.search`][] drives both alike and the two return the
same solutions in the same order with the same ``nodes`` and ``updates`` (differential
tests in ``tests/dlx/kernels/test_unrolled.py``). It never runs compiled: numba compiles the general
kernel, where none of this overhead exists.
"""

from __future__ import annotations

import numpy as np

from ..links import INACTIVE, Links
from ..state import (
    REG_LEVEL,
    REG_MAX_LEVEL,
    REG_NODES,
    REG_PRIMARY_END,
    REG_RESUME,
    REG_SOLUTIONS,
    REG_UPDATES,
    REGISTERS,
    State,
)
from .codes import COMPLETE, ENTER, LEAVE, LIMIT, MAX_NODES
from .declare import Declaration

__all__ = ["option_others", "search"]


def option_others(links: Links) -> list:
    """``OTHERS[p]`` for every node ``p`` of an option: the option's other nodes as a list,
    going right cyclically from ``p + 1`` (Knuth's order). Other entries are empty.

    Vectorized per option width; for a 9x9 Sudoku this costs tens of microseconds, most of
    it in one ``tolist``.
    """
    TOP = links.arrays.TOP
    others: list = [()] * len(TOP)
    spacers = np.flatnonzero(TOP[links.n_items + 1:] <= 0) + links.n_items + 1
    starts, widths = spacers[:-1] + 1, np.diff(spacers) - 1
    single_width = len(widths) > 0 and bool((widths == widths[0]).all())
    for w in np.unique(widths).tolist():
        s = starts if single_width else starts[widths == w]
        cyc = (np.arange(w)[:, None] + np.arange(1, w)) % w  # row j: j + 1, ..., j - 1
        rows = (s[:, None, None] + cyc).reshape(len(s) * w, w - 1).tolist()
        if single_width:  # the nodes with shift j are every (w + 1)-th from starts[0] + j
            lo, hi = int(s[0]), int(s[-1]) + w
            for j in range(w):
                others[lo + j:hi:w + 1] = rows[j::w]
        else:
            for p, row in zip((s[:, None] + np.arange(w)).ravel().tolist(), rows):
                others[p] = row
    return others


def search(S, node_stop, solution_stop):
    """[`dlx.kernels.algorithm_c.search`][] for problems without colors; ``S.COLOR`` holds
    ``(OTHERS, choose)`` instead of colors: [`option_others`][] and the backend's choice
    of item. Same registers, same statuses, same counts. Over a bytearray ``LEN``, the
    choice (``bytearray.find`` of the lengths 0, 1, 2, ... among the primary items) is
    written out here too, sparing a call per node.
    """
    U, D, TOP, LEN, LL, RL, CHOICE, REG = S.U, S.D, S.TOP, S.LEN, S.LL, S.RL, S.CHOICE, S.REG
    OTHERS, choose = S.COLOR
    find = LEN.find if isinstance(LEN, bytearray) else None
    end = REG[REG_PRIMARY_END]
    level = REG[REG_LEVEL]
    nodes = REG[REG_NODES]
    updates = REG[REG_UPDATES]
    solutions = REG[REG_SOLUTIONS]
    max_level = REG[REG_MAX_LEVEL]
    step = REG[REG_RESUME]
    status = COMPLETE
    uncover = cover = ()
    while True:
        if step == ENTER:
            # C2: enter a level; a node of the search tree.
            if nodes >= node_stop:
                status = MAX_NODES
                break
            nodes += 1
            if level > max_level:
                max_level = level
            if RL[0] == 0:  # every primary item is covered: CHOICE[0:level] is a solution
                solutions += 1
                step = LEAVE
                if solutions >= solution_stop:
                    status = LIMIT
                    break
                continue
            if find is None:  # C3
                i = choose(LEN, LL, RL, REG)
            else:
                v = 0
                i = find(0, 1, end)
                while i < 0:
                    v += 1
                    i = find(v, 1, end)
            x = D[i]
            if x == i:  # C4 and C7 at once: an empty list is covered and uncovered
                updates += 1
                step = LEAVE
                continue
            CHOICE[level] = x  # C4 and C5: cover i, then commit its first option x
            cover = (x, *OTHERS[x])
            uncover = ()
            level += 1
        else:
            # C8, C6: leave the level, uncommit its option x and take the next one;
            # C7: or, when x was the last, uncover the item too and leave again.
            if level == 0:
                break
            level -= 1
            y = CHOICE[level]
            i = TOP[y]
            x = D[y]
            if x == i:
                uncover = (*OTHERS[y][::-1], y)
                cover = ()
            else:
                uncover = OTHERS[y][::-1]
                CHOICE[level] = x
                cover = OTHERS[x]
                level += 1
                step = ENTER
        for z in uncover:  # the items of these nodes, in the reverse order of covering
            j = TOP[z]
            p = U[j]
            while p != j:
                for q in OTHERS[p]:
                    U[D[q]] = q
                    D[U[q]] = q
                    LEN[TOP[q]] += 1
                p = U[p]
            LEN[j] -= INACTIVE
            RL[LL[j]] = j
            LL[RL[j]] = j
        for z in cover:
            j = TOP[z]
            left = LL[j]
            right = RL[j]
            RL[left] = right
            LL[right] = left
            LEN[j] += INACTIVE
            updates += 1
            p = D[j]
            while p != j:
                row = OTHERS[p]
                updates += len(row)
                for q in row:
                    u = U[q]
                    d = D[q]
                    D[u] = d
                    U[d] = u
                    LEN[TOP[q]] -= 1
                p = D[p]
    REG[REG_LEVEL] = level
    REG[REG_NODES] = nodes
    REG[REG_UPDATES] = updates
    REG[REG_SOLUTIONS] = solutions
    REG[REG_MAX_LEVEL] = max_level
    REG[REG_RESUME] = step
    return status


DECLARATION = Declaration("unrolled", functions=("search",), entries={"search": "Sii"},
                          state=State, registers=tuple(name for name, _ in REGISTERS),
                          switches={"INACTIVE": INACTIVE}, backends=("python",))
"""Algorithm X unrolled for CPython (``COLOR`` holds its option lists): never compiled."""
