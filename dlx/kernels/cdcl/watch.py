"""The watch lists: each learned clause is watched by two of its literals.

Watch ``e = 2c + k`` is on literal ``CL_LITS[CL_START[c] + k]``'s list, a vector
(MiniSat's and CaDiCaL's layout): pairs ``WL[2p], WL[2p+1]`` for ``p`` in
``WS[lit]..WS[lit]+WN[lit]``, room for ``WC[lit]``, each pair the watch and its
*blocker*, another literal of the clause looked at first (MiniSat's): while it is true the
clause is satisfied and not read. A watch joins the end of its list, so the clauses kept
longest are visited first; a full list moves to ``WL``'s free end (``REG_WL_END``) with
twice the room, and [`relayout`][] lays all of them out anew, oldest clause first, at
each reduction or when that end is reached. numba inlines [`watch`][] and
[`push_watch`][] into their callers ([`dlx.compiled`][]).
"""

from __future__ import annotations

from .state import (
    LEARNED,
    REG_CLAUSES,
    REG_CONFLICT_A,
    REG_CONFLICT_KIND,
    REG_RELAYOUTS,
    REG_WL_END,
)
from .trail import assign, lit_value

__all__ = ["push_watch", "relayout", "watch"]


def relayout(S):
    """Lay every watch list out anew from the clauses, oldest clause first, each with
    room for half as many more watches again (and 4): in ``WL``'s
    [`dlx.kernels.cdcl.state.watch_room`][], which leaves room for any list to double after."""
    WS, WN, WC, WL = S.WS, S.WN, S.WC, S.WL
    for lit in range(len(WN)):
        WN[lit] = 0
    n = S.REG[REG_CLAUSES]
    for c in range(n):
        s = S.CL_START[c]
        WN[S.CL_LITS[s]] += 1
        WN[S.CL_LITS[s + 1]] += 1
    top = 0
    for lit in range(len(WN)):
        WS[lit] = top
        cap = WN[lit] + (WN[lit] >> 1) + 4
        WC[lit] = cap
        top += cap
        WN[lit] = 0
    S.REG[REG_WL_END] = top
    S.REG[REG_RELAYOUTS] += 1
    for c in range(n):
        s = S.CL_START[c]
        for k in range(2):
            lit = S.CL_LITS[s + k]
            p = WS[lit] + WN[lit]
            WL[2 * p] = 2 * c + k
            WL[2 * p + 1] = S.CL_LITS[s + 1 - k]
            WN[lit] += 1


def push_watch(S, lit, e, blocker):
    """Watch ``e`` with ``blocker`` put last on literal ``lit``'s list, moved to the end
    of ``WL`` with twice the room when it is full; False if ``WL`` has no room left."""
    WS, WN, WC, WL = S.WS, S.WN, S.WC, S.WL
    n = WN[lit]
    if n == WC[lit]:
        cap = 2 * n + 4
        top = S.REG[REG_WL_END]
        if 2 * (top + cap) > len(WL):
            return False
        old = WS[lit]
        for j in range(2 * n):
            WL[2 * top + j] = WL[2 * old + j]
        WS[lit] = top
        WC[lit] = cap
        S.REG[REG_WL_END] = top + cap
    p = WS[lit] + n
    WL[2 * p] = e
    WL[2 * p + 1] = blocker
    WN[lit] = n + 1
    return True


def watch(S, x):
    """Visit the clauses watching literal ``x``, just made false: move each watch to
    another literal not false, or imply the other watched literal, or find a conflict
    (1); 2 if a watch could not move for want of room in ``WL`` (the list is left whole,
    ``x`` to be visited again after [`relayout`][]); else 0."""
    CL_LITS, WL = S.CL_LITS, S.WL
    start = S.WS[x]
    end = start + S.WN[x]
    i = start
    j = start
    result = 0
    while i < end:
        e = WL[2 * i]
        blocker = WL[2 * i + 1]
        i += 1
        if lit_value(S, blocker) == 1:  # satisfied: the clause is not even read
            WL[2 * j] = e
            WL[2 * j + 1] = blocker
            j += 1
            continue
        c = e >> 1
        k = e & 1
        s = S.CL_START[c]
        other = CL_LITS[s + 1 - k]
        if lit_value(S, other) == 1:
            WL[2 * j] = e
            WL[2 * j + 1] = other
            j += 1
            continue
        found = -1
        for p in range(s + 2, s + S.CL_SIZE[c]):
            if lit_value(S, CL_LITS[p]) != 0:
                found = p
                break
        if found >= 0:  # the watch moves to the literal at ``found``
            y = CL_LITS[found]
            if push_watch(S, y, e, other):
                CL_LITS[found] = x
                CL_LITS[s + k] = y
                continue
            result = 2
        elif lit_value(S, other) == 0:
            S.REG[REG_CONFLICT_KIND] = LEARNED
            S.REG[REG_CONFLICT_A] = c
            result = 1
        else:
            assign(S, other >> 1, 1 - (other & 1), LEARNED, c)
        WL[2 * j] = e
        WL[2 * j + 1] = blocker
        j += 1
        if result:
            while i < end:
                WL[2 * j] = WL[2 * i]
                WL[2 * j + 1] = WL[2 * i + 1]
                i += 1
                j += 1
    S.WN[x] = j - start
    return result
