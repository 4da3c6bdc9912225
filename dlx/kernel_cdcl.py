"""Conflict-driven clause learning over an exact-cover problem (``learn=True``).

Dancing links search a tree: a subtree that failed is forgotten, so a hard instance
fails the same way again and again under other choices (the minimal 25x25 Sudokus: tens
of millions of nodes). This kernel searches the same problem as a satisfiability solver
does (Knuth, TAOCP 7.2.2.2, Algorithm C; MiniSat): each *option* is a boolean variable,
true when chosen; every conflict is analysed into a *learned clause* that forbids its
cause, and the search jumps back over the levels that played no part in it.

The constraints are never written out as clauses: they are the problem's own lists.

* An option set **true** sets false every other option that shares an item with it
  (for a secondary item with colors: every option of another color, or without one).
  Such a false option's *reason* is the true option (``EXCLUDED``).
* An option set **false** lowers ``FREE[i]`` (options of primary item ``i`` not yet
  false) for each of its primary items; an item left with none is a *conflict*, an item
  left with one option not yet assigned sets it true with the item as reason
  (``COVERED``).
* A learned clause, a list of literals, is watched by two of them (the two-watched-
  literal scheme): it is looked at only when a watched literal becomes false.

A *literal* is ``2 * option`` (the option is chosen) or ``2 * option + 1`` (it is not).
A reason or conflict is read as a clause: ``EXCLUDED`` by ``p`` is ``{not p, not q}``;
``COVERED`` by item ``i`` (or the conflict "item ``i`` empty") is "some option of ``i``";
``LEARNED`` is the clause itself. Conflict analysis resolves these back to the first
unique implication point (1-UIP), drops literals implied by the others (recursive
minimization), replaces the literals of each lower level by that level's own unique
implication point where the level's reasons allow it (Fleury and Biere's shrinking),
and learns the rest; the choice of the next option is VSIDS (the option
most active in recent conflicts, from a binary heap), its value the one it had in the
longest assignment free of conflict since the last restart (target phases) or else the
one it had last (phase saving), these saved phases being set, ever more seldom, in turn
to the longest assignment's since the last such setting (best phases) and to their
opposites (CaDiCaL's rephasing); restarts follow Luby's sequence times ``RESTART_UNIT``
conflicts, and when the learned clauses pass a growing budget after a conflict, the least
useful are deleted (largest LBD, Audemard and Simon's "glucose level", first), sparing
those that took part in a conflict since the last reduction (two reductions for LBD <= 6:
CaDiCaL's and Kissat's tiers) and those that are the reason of an option assigned.
Blocking clauses, kept for good, enumerate further solutions.

All the state is in the arrays of :class:`Learner`, a pointer is an index, and the kernel
returns after a budget of conflicts or decisions with everything needed to go on, so
that :mod:`dlx.learning` can check the clock between slices and numba can compile the
very same source (:func:`dlx.compiled.learning_entry`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["FUNCTIONS", "Learner", "begin", "cdcl"]

# Reasons (RKIND) and conflicts (REG[CONFLICT_KIND]).
DECIDED = 0
"""No reason: a decision, a forced option, or a unit learned clause at level 0."""
EXCLUDED = 1
"""False because the true option ``RID`` shares an item with it (conflict: two true
options ``CONFLICT_A`` and ``CONFLICT_B`` share an item)."""
COVERED = 2
"""True because it is the only option left of primary item ``RID`` (conflict: primary
item ``CONFLICT_A`` has no option left)."""
LEARNED = 3
"""Implied by learned clause ``RID`` (conflict: every literal of clause ``CONFLICT_A``
is false)."""

UNSET = -1
"""``VAL`` of an option not yet assigned."""

# Registers (REG).
LEVEL = 0  # the current decision level
TOP = 1  # the trail's length
QHEAD = 2  # the next trail entry to propagate
HEAP_N = 3  # options in the heap
CLAUSES = 4  # learned clauses
ARENA = 5  # literals used in CL_LITS
CONFLICTS = 6
DECISIONS = 7
ASSIGNS = 8
RESTARTS = 9
LUBY_I = 10  # the term of Luby's sequence of the current run
NEXT_RESTART = 11  # CONFLICTS at which the next restart happens
MAX_LEARNED = 12  # learned clauses kept at most before a reduction
STOP_CONFLICTS = 13  # return RUNNING when CONFLICTS reaches it
STOP_DECISIONS = 14  # return RUNNING when DECISIONS reaches it
CONFLICT_KIND = 15
CONFLICT_A = 16
CONFLICT_B = 17
RESTART_UNIT = 18
BLOCK = 19  # 1: block the solution found before going on
N_PRIMARY = 20
MAX_LEVEL = 21
STAMP = 22  # the last stamp used in LEVEL_STAMP (levels of a learned clause)
DELETED = 23  # learned clauses deleted so far
CLEAR_N = 24  # options listed in CLEAR
PENDING = 25  # the size of a learned clause waiting in LEARNT for room (0: none)
PENDING_KEEP = 26  # whether it is to be kept for good (a blocking clause)
TARGET_TOP = 27  # the longest trail free of conflict since the last restart
SHRUNK = 28  # literals taken out of learned clauses by shrinking
WTOP = 29  # pairs of WL in use (lists and the room left behind by the lists moved)
RELAYOUTS = 30  # times the watch lists were laid out anew
BEST_TOP = 31  # the longest trail free of conflict since the last rephasing to BEST
REPHASES = 32  # rephasings so far
NEXT_REPHASE = 33  # CONFLICTS at which the next rephasing happens
REPHASE_UNIT = 34  # conflicts before the first rephasing; the k-th comes k times as many after
N_REGS = 35

# Float registers (FREG).
VAR_INC = 0
N_FREGS = 1

VAR_DECAY = 0.95
"""VSIDS: each conflict makes the bumps that follow 1/0.95 times larger (MiniSat's)."""
RESCALE = 1e100
"""Activities are scaled down together when one passes this."""
KEEP_LBD = 2
"""Learned clauses of at most this many levels ("glue clauses") are never deleted."""
TIER2_LBD = 6
"""A clause of at most this many levels survives two reductions after it last took part
in a conflict, any other one reduction (CaDiCaL's tier two and ``used`` flag)."""

# Statuses returned by cdcl().
RUNNING = 0  # a budget of the slice ran out: call again to go on
FOUND = 1  # every option is assigned: the true ones are a solution
EXHAUSTED = 2  # no (further) solution
FULL = 3  # no room for a learned clause, even after deleting: give larger arrays


class Learner(NamedTuple):
    """The arrays of one learning search: the problem's lists (read only), then the state.

    By option ``v`` (``V`` of them): ``OPT_PTR[v]..OPT_PTR[v+1]`` index ``OPT_ITEM`` (its
    items, ``0..N-1``, primary first) and ``OPT_COLOR`` (0: none). By item ``i``:
    ``ITEM_PTR[i]..ITEM_PTR[i+1]`` index ``ITEM_OPT`` (its options) and ``ITEM_COLOR``.
    ``VAL`` (``UNSET``, 0 or 1), ``LVL``, ``RKIND`` and ``RID`` (its reason), ``PHASE``
    (the value saved when it was last unassigned), ``TARGET`` (the value in the longest
    assignment free of conflict, -1: none; decisions take it first), ``BEST`` (the same
    since the last rephasing to it, the saved phases at the next), ``ACT`` (VSIDS
    activity), ``HEAP_POS`` (-1: not in ``HEAP``), ``SEEN`` (marks of the analysis: 1 in
    the learned clause, 2 implied by the rest of it, 3 implied, found by
    :func:`redundant`; bit 8: being resolved by :func:`block_uip`), ``TPOS`` (its place
    on ``TRAIL``) are by option; ``STACK`` is :func:`redundant`'s, ``CLEAR`` lists the
    options marked in ``SEEN``, to unmark them;
    ``FREE`` is by primary item, and ``FREE_XOR``, the exclusive or of the options it
    counts (the last one, when ``FREE`` is 1); ``TRAIL`` the options in the order
    assigned, ``TRAIL_LIM[l]`` where level ``l`` begins in it; ``LEARNT`` the clause being
    learned; ``LEVEL_STAMP`` and ``LEVEL_FIRST`` (the earliest place on the trail of the
    clause's literals of the level) by level; ``BY_LBD`` (zeros between uses) counts clauses by
    LBD for :func:`reduce_clauses`. Learned clause ``c``: literals
    ``CL_LITS[CL_START[c]:CL_START[c]+CL_SIZE[c]]``,
    the first two watched; ``CL_LBD[c]``, ``CL_KEEP[c]`` (1: never deleted; 2, during a
    reduction only: locked, the reason of an option assigned), ``CL_USED[c]``
    (reductions it is spared for: it took part in a conflict since). Watch ``e =
    2c + k`` is on literal ``CL_LITS[CL_START[c] + k]``'s list, a vector (MiniSat's and
    CaDiCaL's layout): pairs ``WL[2p], WL[2p+1]`` for ``p`` in ``WS[lit]..WS[lit]+WN[lit]``,
    room for ``WC[lit]``, each pair the watch and its *blocker*, another literal of the
    clause looked at first (MiniSat's): while it is true the clause is satisfied and not
    read. A watch joins the end of its list, so the clauses kept longest are visited
    first; a full list moves to ``WL``'s free end (``REG[WTOP]``) with twice the room,
    and :func:`relayout` lays all of them out anew, oldest clause first, at each
    reduction or when that end is reached.

    The integers are 32-bit while the positions fit (:func:`dlx.learning.index_type`),
    the flags (``VAL``, ``RKIND``, ``PHASE``, ``TARGET``, ``BEST``, ``SEEN``,
    ``CL_KEEP``) bytes: the search is bound by the memory it reads, and int64 made it
    1.2x slower.
    """

    OPT_PTR: np.ndarray
    OPT_ITEM: np.ndarray
    OPT_COLOR: np.ndarray
    ITEM_PTR: np.ndarray
    ITEM_OPT: np.ndarray
    ITEM_COLOR: np.ndarray
    VAL: np.ndarray
    LVL: np.ndarray
    RKIND: np.ndarray
    RID: np.ndarray
    PHASE: np.ndarray
    TARGET: np.ndarray
    BEST: np.ndarray
    ACT: np.ndarray
    HEAP: np.ndarray
    HEAP_POS: np.ndarray
    SEEN: np.ndarray
    STACK: np.ndarray
    CLEAR: np.ndarray
    FREE: np.ndarray
    FREE_XOR: np.ndarray
    TRAIL: np.ndarray
    TPOS: np.ndarray
    TRAIL_LIM: np.ndarray
    LEARNT: np.ndarray
    LEVEL_STAMP: np.ndarray
    LEVEL_FIRST: np.ndarray
    BY_LBD: np.ndarray
    CL_START: np.ndarray
    CL_SIZE: np.ndarray
    CL_LBD: np.ndarray
    CL_KEEP: np.ndarray
    CL_USED: np.ndarray
    CL_LITS: np.ndarray
    WS: np.ndarray
    WN: np.ndarray
    WC: np.ndarray
    WL: np.ndarray
    REG: np.ndarray
    FREG: np.ndarray


# ----- the heap of options by activity ---------------------------------------------------


def heap_up(S, k):
    """Move the option at ``HEAP[k]`` up to its place."""
    HEAP, POS, ACT = S.HEAP, S.HEAP_POS, S.ACT
    v = HEAP[k]
    a = ACT[v]
    while k > 0:
        parent = (k - 1) >> 1
        p = HEAP[parent]
        if ACT[p] >= a:
            break
        HEAP[k] = p
        POS[p] = k
        k = parent
    HEAP[k] = v
    POS[v] = k


def heap_down(S, k):
    """Move the option at ``HEAP[k]`` down to its place."""
    HEAP, POS, ACT = S.HEAP, S.HEAP_POS, S.ACT
    n = S.REG[HEAP_N]
    v = HEAP[k]
    a = ACT[v]
    while True:
        child = 2 * k + 1
        if child >= n:
            break
        if child + 1 < n and ACT[HEAP[child + 1]] > ACT[HEAP[child]]:
            child += 1
        c = HEAP[child]
        if ACT[c] <= a:
            break
        HEAP[k] = c
        POS[c] = k
        k = child
    HEAP[k] = v
    POS[v] = k


def heap_insert(S, v):
    n = S.REG[HEAP_N]
    S.HEAP[n] = v
    S.HEAP_POS[v] = n
    S.REG[HEAP_N] = n + 1
    heap_up(S, n)


def heap_pop(S):
    """The most active option, taken out of the heap (-1 if it is empty)."""
    n = S.REG[HEAP_N]
    if n == 0:
        return -1
    v = S.HEAP[0]
    S.HEAP_POS[v] = -1
    n -= 1
    S.REG[HEAP_N] = n
    if n > 0:
        last = S.HEAP[n]
        S.HEAP[0] = last
        S.HEAP_POS[last] = 0
        heap_down(S, 0)
    return v


def bump(S, v):
    """VSIDS: raise option ``v``'s activity (it took part in a conflict)."""
    ACT = S.ACT
    ACT[v] += S.FREG[VAR_INC]
    if ACT[v] > RESCALE:
        for u in range(len(ACT)):
            ACT[u] *= 1.0 / RESCALE
        S.FREG[VAR_INC] *= 1.0 / RESCALE
    k = S.HEAP_POS[v]
    if k >= 0:
        heap_up(S, k)


# ----- assigning and undoing -------------------------------------------------------------


def assign(S, v, value, kind, rid):
    """Option ``v`` set to ``value`` at the current level, for ``kind`` and ``rid``."""
    S.VAL[v] = value
    S.LVL[v] = S.REG[LEVEL]
    S.RKIND[v] = kind
    S.RID[v] = rid
    S.TRAIL[S.REG[TOP]] = v
    S.TPOS[v] = S.REG[TOP]
    S.REG[TOP] += 1
    S.REG[ASSIGNS] += 1
    if value == 0:
        n1 = S.REG[N_PRIMARY]
        for k in range(S.OPT_PTR[v], S.OPT_PTR[v + 1]):
            i = S.OPT_ITEM[k]
            if i < n1:
                S.FREE[i] -= 1
                S.FREE_XOR[i] ^= v


def backtrack(S, level):
    """Undo every assignment above ``level``, saving each option's phase."""
    REG = S.REG
    if REG[LEVEL] <= level:
        return
    stop = S.TRAIL_LIM[level + 1]
    n1 = REG[N_PRIMARY]
    for t in range(REG[TOP] - 1, stop - 1, -1):
        v = S.TRAIL[t]
        if S.VAL[v] == 0:
            for k in range(S.OPT_PTR[v], S.OPT_PTR[v + 1]):
                i = S.OPT_ITEM[k]
                if i < n1:
                    S.FREE[i] += 1
                    S.FREE_XOR[i] ^= v
        S.PHASE[v] = S.VAL[v]
        S.VAL[v] = UNSET
        if S.HEAP_POS[v] < 0:
            heap_insert(S, v)
    REG[TOP] = stop
    REG[QHEAD] = stop
    REG[LEVEL] = level


# ----- propagation -----------------------------------------------------------------------


def lit_value(S, lit):
    """1 if literal ``lit`` is true, 0 if false, -1 if its option is not assigned."""
    x = S.VAL[lit >> 1]
    if x < 0:
        return -1
    return x ^ (lit & 1)


def relayout(S):
    """Lay every watch list out anew from the clauses, oldest clause first, each with
    room for half as many more watches again (and 4): in ``WL``'s
    :func:`dlx.learning.watch_room`, which leaves room for any list to double after."""
    WS, WN, WC, WL = S.WS, S.WN, S.WC, S.WL
    for lit in range(len(WN)):
        WN[lit] = 0
    n = S.REG[CLAUSES]
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
    S.REG[WTOP] = top
    S.REG[RELAYOUTS] += 1
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
        top = S.REG[WTOP]
        if 2 * (top + cap) > len(WL):
            return False
        old = WS[lit]
        for j in range(2 * n):
            WL[2 * top + j] = WL[2 * old + j]
        WS[lit] = top
        WC[lit] = cap
        S.REG[WTOP] = top + cap
    p = WS[lit] + n
    WL[2 * p] = e
    WL[2 * p + 1] = blocker
    WN[lit] = n + 1
    return True


def watch(S, x):
    """Visit the clauses watching literal ``x``, just made false: move each watch to
    another literal not false, or imply the other watched literal, or find a conflict
    (1); 2 if a watch could not move for want of room in ``WL`` (the list is left whole,
    ``x`` to be visited again after :func:`relayout`); else 0."""
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
            S.REG[CONFLICT_KIND] = LEARNED
            S.REG[CONFLICT_A] = c
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


def propagate(S):
    """Propagate the trail from ``QHEAD``; True at a conflict (``CONFLICT_KIND``...)."""
    REG, VAL = S.REG, S.VAL
    OPT_PTR, OPT_ITEM, OPT_COLOR = S.OPT_PTR, S.OPT_ITEM, S.OPT_COLOR
    ITEM_PTR, ITEM_OPT, ITEM_COLOR = S.ITEM_PTR, S.ITEM_OPT, S.ITEM_COLOR
    n1 = REG[N_PRIMARY]
    while REG[QHEAD] < REG[TOP]:
        v = S.TRAIL[REG[QHEAD]]
        REG[QHEAD] += 1
        if VAL[v] == 1:  # every option that shares an item with v is false
            x = 2 * v + 1  # v's literal now false: "not v"
            for k in range(OPT_PTR[v], OPT_PTR[v + 1]):
                i = OPT_ITEM[k]
                primary = i < n1
                if primary and S.FREE[i] == 1:  # v is the only option of i not false
                    continue
                color = OPT_COLOR[k]
                for m in range(ITEM_PTR[i], ITEM_PTR[i + 1]):
                    q = ITEM_OPT[m]
                    if q == v or (color != 0 and ITEM_COLOR[m] == color):
                        continue
                    if VAL[q] == 1:
                        REG[CONFLICT_KIND] = EXCLUDED
                        REG[CONFLICT_A] = v
                        REG[CONFLICT_B] = q
                        return True
                    if VAL[q] < 0:
                        assign(S, q, 0, EXCLUDED, v)
                        if primary and S.FREE[i] == 1:  # the rest are false already
                            break
        else:  # each primary item of v may be left with one option, or none
            x = 2 * v  # "v"
            for k in range(OPT_PTR[v], OPT_PTR[v + 1]):
                i = OPT_ITEM[k]
                if i >= n1:
                    continue
                free = S.FREE[i]
                if free == 0:
                    REG[CONFLICT_KIND] = COVERED
                    REG[CONFLICT_A] = i
                    return True
                if free == 1:
                    q = S.FREE_XOR[i]
                    if VAL[q] < 0:
                        assign(S, q, 1, COVERED, i)
        w = watch(S, x)
        if w == 2:  # no room to move a watch: v is propagated again after a relayout
            REG[QHEAD] -= 1
            relayout(S)
        elif w:
            return True
    return False


# ----- conflict analysis -----------------------------------------------------------------


def false_literal(S, v):
    """The literal of option ``v`` that is false now."""
    return 2 * v + S.VAL[v]


def see(S, v, skip, level, size, path):
    """Analysis: take option ``v`` of the clause being resolved (unless it is ``skip``, the
    option the clause implied). Returns the new ``size`` of ``LEARNT`` and ``path`` (the
    options of the current level still to resolve)."""
    if v != skip and S.SEEN[v] == 0 and S.LVL[v] > 0:
        S.SEEN[v] = 1
        bump(S, v)
        if S.LVL[v] == level:
            path += 1
        else:
            S.LEARNT[size] = false_literal(S, v)
            size += 1
    return size, path


def reason_span(S, kind, rid):
    """Where the options of reason ``(kind, rid)`` lie: positions ``lo..hi`` for
    :func:`reason_option`."""
    if kind == EXCLUDED:
        return 0, 1
    if kind == COVERED:
        return S.ITEM_PTR[rid], S.ITEM_PTR[rid + 1]
    return S.CL_START[rid], S.CL_START[rid] + S.CL_SIZE[rid]


def reason_option(S, kind, rid, m):
    """The option at position ``m`` of reason ``(kind, rid)`` (the option it implies
    is among them, for the caller to pass over)."""
    if kind == EXCLUDED:
        return rid
    if kind == COVERED:
        return S.ITEM_OPT[m]
    return S.CL_LITS[m] >> 1


def may_follow(S, r, levels):
    """Whether option ``r``'s literal may follow from the other literals of the learned
    clause: it has a reason, its level is one of the clause's (``levels``, as bits
    ``1 << (level & 31)``), and it lies on the trail after the clause's first literal of
    that level (``LEVEL_FIRST``). Without chronological backtracking an implied option's
    level holds an option of its reason, so its implication can only go back through
    that level's own literals of the clause, or to its decision (CaDiCaL's test)."""
    lv = S.LVL[r]
    return (S.RKIND[r] != DECIDED and ((1 << (lv & 31)) & levels) != 0
            and S.TPOS[r] > S.LEVEL_FIRST[lv])


def redundant(S, v, levels):
    """Recursive minimization (MiniSat's, with an explicit stack): option ``v``'s literal
    follows from the others of the learned clause, because every option of its reason is
    in the clause, at level 0, or (recursively) implied by such options; it gives up at
    once on any option for which :func:`may_follow` does not hold. Options found implied
    are marked 3 in ``SEEN`` and listed in ``CLEAR``; a failure unmarks those it
    marked."""
    if not may_follow(S, v, levels):
        return False
    REG = S.REG
    top = REG[CLEAR_N]
    S.STACK[0] = v
    n = 1
    while n > 0:
        n -= 1
        q = S.STACK[n]
        kind = S.RKIND[q]
        rid = S.RID[q]
        lo, hi = reason_span(S, kind, rid)
        for m in range(lo, hi):
            r = reason_option(S, kind, rid, m)
            if r == q or S.SEEN[r] != 0 or S.LVL[r] == 0:
                continue
            if may_follow(S, r, levels):
                S.SEEN[r] = 3
                S.STACK[n] = r
                n += 1
                S.CLEAR[REG[CLEAR_N]] = r
                REG[CLEAR_N] += 1
            else:
                for j in range(top, REG[CLEAR_N]):
                    S.SEEN[S.CLEAR[j]] = 0
                REG[CLEAR_N] = top
                return False
    return True


def block_uip(S, level, start, kept, levels):
    """Shrinking, for one level: the option whose literal alone can stand for the
    literals of ``level`` in ``LEARNT[start:kept]`` (their unique implication point on
    that level: the others follow from it and from the clause's literals of lower
    levels), or -1 (one literal only, or a reason needs a literal of a lower level that
    the clause does not imply). Marks the options of ``level`` being resolved with bit 8
    of ``SEEN``, and clears it again."""
    SEEN = S.SEEN
    n = 0  # options of the level marked and not yet resolved
    t = 0
    for j in range(start, kept):
        v = S.LEARNT[j] >> 1
        if S.LVL[v] == level:
            SEEN[v] |= 8
            n += 1
            t = max(t, S.TPOS[v])
    if n < 2:
        for j in range(start, kept):
            SEEN[S.LEARNT[j] >> 1] &= 7
        return -1
    hi = t + 1
    failed = False
    while n > 1:  # resolve the latest marked option with its reason
        u = S.TRAIL[t]
        t -= 1
        if SEEN[u] & 8 == 0:
            continue
        n -= 1
        kind = S.RKIND[u]
        rid = S.RID[u]
        if kind == DECIDED:  # the first of its level: the others cannot all be above it
            failed = True
            break
        a, b = reason_span(S, kind, rid)
        for m in range(a, b):
            r = reason_option(S, kind, rid, m)
            lv = S.LVL[r]
            if r == u or lv == 0:
                continue
            if lv == level:
                if SEEN[r] & 8 == 0:
                    SEEN[r] |= 8
                    n += 1
            elif SEEN[r] == 0:
                if not redundant(S, r, levels):
                    failed = True
                    break
                SEEN[r] = 3
                S.CLEAR[S.REG[CLEAR_N]] = r
                S.REG[CLEAR_N] += 1
        if failed:
            break
    for j in range(t + 1, hi):  # the options looked at
        SEEN[S.TRAIL[j]] &= 7
    uip = -1
    while n > 0:  # the n options still marked are below: the last one is the UIP
        u = S.TRAIL[t]
        t -= 1
        if SEEN[u] & 8:
            SEEN[u] &= 7
            n -= 1
            uip = u
    return -1 if failed else uip


def shrink(S, kept, levels):
    """Fleury and Biere's shrinking (CaDiCaL's ``shrink``): the literals of each lower
    level of the learned clause ``LEARNT[:kept]`` replaced by their level's unique
    implication point, where there is one; a point not seen by the analysis is bumped, as
    CaDiCaL bumps it. Returns the new size."""
    REG = S.REG
    REG[STAMP] += 2
    done = REG[STAMP]  # LEVEL_STAMP of a level shrunk to one literal; done - 1: kept as is
    out = 1
    for j in range(1, kept):
        lit = S.LEARNT[j]
        lv = S.LVL[lit >> 1]
        stamp = S.LEVEL_STAMP[lv]
        if stamp == done:
            continue
        if stamp != done - 1:
            u = block_uip(S, lv, j, kept, levels)
            if u >= 0:
                S.LEVEL_STAMP[lv] = done
                S.LEVEL_FIRST[lv] = min(S.LEVEL_FIRST[lv], S.TPOS[u])
                if S.SEEN[u] == 0:  # new to the clause: bumped as the others were
                    S.SEEN[u] = 1
                    bump(S, u)
                    S.CLEAR[REG[CLEAR_N]] = u
                    REG[CLEAR_N] += 1
                S.LEARNT[out] = false_literal(S, u)
                out += 1
                continue
            S.LEVEL_STAMP[lv] = done - 1
        S.LEARNT[out] = lit
        out += 1
    REG[SHRUNK] += kept - out
    return out


def glue(S, lits, start, size):
    """The number of distinct levels among the options of ``lits[start:start+size]`` (a
    clause's LBD)."""
    S.REG[STAMP] += 1
    stamp = S.REG[STAMP]
    n = 0
    for j in range(start, start + size):
        lv = S.LVL[lits[j] >> 1]
        if S.LEVEL_STAMP[lv] != stamp:
            S.LEVEL_STAMP[lv] = stamp
            n += 1
    return n


def spare(S, c):
    """Learned clause ``c`` was just learned or used: the next reductions pass it over,
    two of them if its LBD is at most ``TIER2_LBD``."""
    S.CL_USED[c] = 2 if S.CL_LBD[c] <= TIER2_LBD else 1


def use_clause(S, c):
    """Learned clause ``c`` takes part in a conflict: spare it at the next reductions, and
    lower its LBD if its literals now lie on fewer levels (Glucose's dynamic LBD)."""
    if S.CL_KEEP[c] or S.CL_LBD[c] <= KEEP_LBD:
        return
    S.CL_LBD[c] = min(S.CL_LBD[c], glue(S, S.CL_LITS, S.CL_START[c], S.CL_SIZE[c]))
    spare(S, c)


def analyze(S):
    """The 1-UIP clause of the conflict in ``LEARNT``, its asserting literal first and a
    literal of the level to jump back to second. Returns (size, that level)."""
    REG = S.REG
    level = REG[LEVEL]
    kind = REG[CONFLICT_KIND]
    a = REG[CONFLICT_A]
    b = REG[CONFLICT_B]
    skip = -1
    size = 1
    path = 0
    t = REG[TOP] - 1
    u = -1
    while True:
        if kind == EXCLUDED:
            size, path = see(S, a, skip, level, size, path)
            size, path = see(S, b, skip, level, size, path)
        elif kind == COVERED:
            for m in range(S.ITEM_PTR[a], S.ITEM_PTR[a + 1]):
                size, path = see(S, S.ITEM_OPT[m], skip, level, size, path)
        else:
            use_clause(S, a)
            s = S.CL_START[a]
            for p in range(s, s + S.CL_SIZE[a]):
                size, path = see(S, S.CL_LITS[p] >> 1, skip, level, size, path)
        while S.SEEN[S.TRAIL[t]] == 0:
            t -= 1
        u = S.TRAIL[t]
        t -= 1
        S.SEEN[u] = 0
        path -= 1
        if path == 0:
            break
        kind = S.RKIND[u]
        a = S.RID[u]
        b = u
        skip = u
    S.LEARNT[0] = false_literal(S, u)
    levels = 0
    for j in range(1, size):
        lv = S.LVL[S.LEARNT[j] >> 1]
        levels |= 1 << (lv & 31)
        S.LEVEL_FIRST[lv] = REG[TOP]
    for j in range(1, size):
        v = S.LEARNT[j] >> 1
        S.LEVEL_FIRST[S.LVL[v]] = min(S.LEVEL_FIRST[S.LVL[v]], S.TPOS[v])
    REG[CLEAR_N] = 0
    for j in range(1, size):  # marked 2: implied by the rest (still "in the clause")
        v = S.LEARNT[j] >> 1
        if redundant(S, v, levels):
            S.SEEN[v] = 2
    kept = 1
    for j in range(1, size):
        v = S.LEARNT[j] >> 1
        if S.SEEN[v] == 1:
            S.LEARNT[kept] = S.LEARNT[j]
            kept += 1
        S.CLEAR[REG[CLEAR_N]] = v  # unmarked below: shrinking reads the marks
        REG[CLEAR_N] += 1
    kept = shrink(S, kept, levels)
    for j in range(REG[CLEAR_N]):
        S.SEEN[S.CLEAR[j]] = 0
    back = 0
    for j in range(1, kept):  # the deepest level of the rest goes second
        lv = S.LVL[S.LEARNT[j] >> 1]
        if lv > back:
            back = lv
            x = S.LEARNT[1]
            S.LEARNT[1] = S.LEARNT[j]
            S.LEARNT[j] = x
    return kept, back


def room(S, size):
    """Whether one more clause of ``size`` literals fits in the arena."""
    return S.REG[CLAUSES] < len(S.CL_START) and S.REG[ARENA] + size <= len(S.CL_LITS)


def add_clause(S, size, lbd, keep):
    """``LEARNT[:size]`` (at least two literals) as a clause watched by its first two."""
    REG = S.REG
    c = REG[CLAUSES]
    s = REG[ARENA]
    S.CL_START[c] = s
    S.CL_SIZE[c] = size
    S.CL_LBD[c] = lbd
    S.CL_KEEP[c] = keep
    spare(S, c)  # as if it had just been used
    for j in range(size):
        S.CL_LITS[s + j] = S.LEARNT[j]
    REG[CLAUSES] = c + 1
    REG[ARENA] = s + size
    for k in range(2):
        if not push_watch(S, S.LEARNT[k], 2 * c + k, S.LEARNT[1 - k]):
            relayout(S)  # the clause is among them
            break
    return c


def learn(S, size, back, keep):
    """Jump back to level ``back`` and learn ``LEARNT[:size]``, asserting its first literal
    (with no room left: at level 0, after deleting clauses). False if there is still no
    room: the clause waits in ``LEARNT`` (``REG[PENDING]``) for larger arrays."""
    if size > 1 and not room(S, size):
        backtrack(S, 0)
        reduce_clauses(S)
        back = 0
        if not room(S, size):
            S.REG[PENDING] = size
            S.REG[PENDING_KEEP] = keep
            return False
    backtrack(S, back)
    lit = S.LEARNT[0]
    if size == 1:
        assign(S, lit >> 1, 1 - (lit & 1), DECIDED, -1)
        return True
    c = add_clause(S, size, glue(S, S.LEARNT, 0, size), keep)
    if lit_value(S, S.LEARNT[1]) == 0:  # else at level 0 the clause implies nothing yet
        assign(S, lit >> 1, 1 - (lit & 1), LEARNED, c)
    return True


def deletable(S, c):
    """Whether a reduction may delete learned clause ``c``: not kept for good, not a glue
    clause, not spared."""
    return S.CL_KEEP[c] == 0 and S.CL_LBD[c] > KEEP_LBD and S.CL_USED[c] == 0


def reduce_due(S):
    """Whether the learned clauses have passed their budget, or fill 3/4 of the arena."""
    return S.REG[CLAUSES] >= S.REG[MAX_LEARNED] or 4 * S.REG[ARENA] >= 3 * len(S.CL_LITS)


def reduce_clauses(S):
    """Delete the worse half of the deletable learned clauses (not kept for good, not the
    reason of an option assigned, LBD above ``KEEP_LBD``, not used since the last
    reduction; largest LBD, then oldest, first), compact the arena, renumber the reasons
    and watch every clause anew (the same two literals); then allow 10% more clauses
    before the next reduction, at most as many as the arrays hold."""
    REG = S.REG
    n = REG[CLAUSES]
    BY_LBD = S.BY_LBD
    for t in range(REG[TOP]):  # lock the reasons on the trail
        v = S.TRAIL[t]
        if S.RKIND[v] == LEARNED:
            S.CL_KEEP[S.RID[v]] |= 2
    candidates = 0
    worst = 0
    for c in range(n):
        lbd = S.CL_LBD[c]
        if deletable(S, c):
            BY_LBD[lbd] += 1
            candidates += 1
            worst = max(worst, lbd)
    drop = candidates // 2
    cut = worst  # delete those of LBD above cut, and the oldest ``drop`` of LBD cut
    while cut > KEEP_LBD and BY_LBD[cut] <= drop:
        drop -= BY_LBD[cut]
        cut -= 1
    for lbd in range(worst + 1):
        BY_LBD[lbd] = 0
    kept = 0
    top = 0
    for c in range(n):
        lbd = S.CL_LBD[c]
        used = S.CL_USED[c]
        if lbd >= cut and deletable(S, c):
            if lbd > cut:
                continue
            if drop > 0:
                drop -= 1
                continue
        s = S.CL_START[c]
        size = S.CL_SIZE[c]
        for j in range(size):
            S.CL_LITS[top + j] = S.CL_LITS[s + j]
        S.CL_START[kept] = top
        S.CL_SIZE[kept] = size
        S.CL_LBD[kept] = lbd
        S.CL_KEEP[kept] = S.CL_KEEP[c] & 1
        S.CL_USED[kept] = max(used - 1, 0)
        S.WL[c] = kept  # its new number (the watches are laid out anew below)
        top += size
        kept += 1
    REG[DELETED] += n - kept
    for t in range(REG[TOP]):
        v = S.TRAIL[t]
        if S.RKIND[v] == LEARNED:
            S.RID[v] = S.WL[S.RID[v]]
    REG[CLAUSES] = kept
    REG[ARENA] = top
    relayout(S)
    REG[MAX_LEARNED] = min(REG[MAX_LEARNED] + REG[MAX_LEARNED] // 10, len(S.CL_START))


def luby(i):
    """The ``i``-th term (from 1) of Luby's sequence, as :func:`dlx.restarts.luby`."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def keep_phases(S, phases, longest, top):
    """If the trail's first ``top`` options are more than register ``longest`` holds, it
    holds ``top`` now and ``phases`` takes their values."""
    if top > S.REG[longest]:
        S.REG[longest] = top
        for t in range(top):
            v = S.TRAIL[t]
            phases[v] = S.VAL[v]


def keep_target(S):
    """Target phases (Biere's CaDiCaL): at a conflict, if the assignment before the last
    decision is the longest free of conflict since the last restart, its values become
    the phases that decisions take; if since the last rephasing to the best phases, they
    become the best phases (:func:`rephase`)."""
    top = S.TRAIL_LIM[S.REG[LEVEL]]
    keep_phases(S, S.TARGET, TARGET_TOP, top)
    keep_phases(S, S.BEST, BEST_TOP, top)


def restart(S):
    """Back to level 0; schedule the next restart."""
    REG = S.REG
    backtrack(S, 0)
    REG[RESTARTS] += 1
    REG[TARGET_TOP] = 0
    REG[LUBY_I] += 1
    REG[NEXT_RESTART] = REG[CONFLICTS] + REG[RESTART_UNIT] * luby(REG[LUBY_I])


def rephase(S):
    """Rephasing (Biere's CaDiCaL, its stable mode without local search): back to level
    0, the saved phases become in turn the best ones (``BEST``, where known) and their
    own opposites, and the target phases are forgotten; the ``k``-th rephasing comes
    ``k * REPHASE_UNIT`` conflicts after the one before."""
    REG = S.REG
    backtrack(S, 0)
    best = REG[REPHASES] % 2 == 0
    PHASE, BEST, TARGET = S.PHASE, S.BEST, S.TARGET
    for v in range(len(PHASE)):
        if not best:
            PHASE[v] ^= 1
        elif BEST[v] >= 0:
            PHASE[v] = BEST[v]
        TARGET[v] = -1
    if best:
        REG[BEST_TOP] = 0
    REG[TARGET_TOP] = 0
    REG[REPHASES] += 1
    REG[NEXT_REPHASE] = REG[CONFLICTS] + REG[REPHASE_UNIT] * (REG[REPHASES] + 1)


def block(S):
    """Forbid the solution just found (a clause of its negated decisions, kept for good),
    jumping back one level; False if it was found without a decision: none is left."""
    level = S.REG[LEVEL]
    if level == 0:
        return False
    for j in range(level):  # the deepest decision first
        S.LEARNT[j] = false_literal(S, S.TRAIL[S.TRAIL_LIM[level - j]])
    learn(S, level, level - 1, 1)  # if it waits for room, cdcl() returns FULL at once
    return True


# ----- the search ------------------------------------------------------------------------


def begin(S, forced):
    """Level 0: the ``forced`` options true, then every primary item with a single option
    takes it; ``EXHAUSTED`` if an item has none (or the forced options clash), else
    ``RUNNING``."""
    for j in range(len(forced)):
        v = forced[j]
        if S.VAL[v] == 1:
            continue
        if S.VAL[v] == 0:
            return EXHAUSTED
        assign(S, v, 1, DECIDED, -1)
    if propagate(S):
        return EXHAUSTED
    for i in range(S.REG[N_PRIMARY]):
        free = S.FREE[i]
        if free == 0:
            return EXHAUSTED
        if free == 1:
            q = S.FREE_XOR[i]
            if S.VAL[q] < 0:
                assign(S, q, 1, COVERED, i)
                if propagate(S):
                    return EXHAUSTED
    return RUNNING



def cdcl(S):
    """Search until a solution (``FOUND``), none left (``EXHAUSTED``) or a budget of the
    slice (``STOP_CONFLICTS``, ``STOP_DECISIONS``: ``RUNNING``); call again to go on.
    With ``REG[BLOCK]`` set, the solution found last is forbidden first."""
    REG = S.REG
    if REG[PENDING]:  # the arrays were made larger for the clause waiting in LEARNT
        add_clause(S, REG[PENDING], glue(S, S.LEARNT, 0, REG[PENDING]), REG[PENDING_KEEP])
        REG[PENDING] = 0
    if REG[BLOCK]:
        REG[BLOCK] = 0
        if not block(S):
            return EXHAUSTED
        if REG[PENDING]:
            return FULL
    while True:
        # C1. Propagate.
        if propagate(S):
            # C2. A conflict: learn from it, or stop at level 0.
            REG[CONFLICTS] += 1
            if REG[LEVEL] == 0:
                return EXHAUSTED
            keep_target(S)
            size, back = analyze(S)
            if not learn(S, size, back, 0):
                return FULL
            S.FREG[VAR_INC] *= 1.0 / VAR_DECAY
            if reduce_due(S):
                reduce_clauses(S)
            if REG[CONFLICTS] >= REG[NEXT_RESTART]:
                restart(S)
            if REG[CONFLICTS] >= REG[NEXT_REPHASE]:
                rephase(S)
            if REG[CONFLICTS] >= REG[STOP_CONFLICTS]:
                return RUNNING
            continue
        # C3. Decide: the most active option not assigned yet, in its saved phase.
        if REG[DECISIONS] >= REG[STOP_DECISIONS]:
            return RUNNING
        v = heap_pop(S)
        while v >= 0 and S.VAL[v] >= 0:
            v = heap_pop(S)
        if v < 0:
            return FOUND
        REG[DECISIONS] += 1
        REG[LEVEL] += 1
        if REG[LEVEL] > REG[MAX_LEVEL]:
            REG[MAX_LEVEL] = REG[LEVEL]
        S.TRAIL_LIM[REG[LEVEL]] = REG[TOP]
        value = S.TARGET[v]
        assign(S, v, S.PHASE[v] if value < 0 else value, DECIDED, -1)


FUNCTIONS = ("heap_up", "heap_down", "heap_insert", "heap_pop", "bump", "assign",
             "backtrack", "lit_value", "relayout", "push_watch", "watch", "propagate",
             "false_literal", "see", "reason_span", "reason_option", "may_follow", "redundant",
             "block_uip", "shrink", "glue", "spare", "use_clause", "analyze", "room",
             "add_clause", "learn", "deletable", "reduce_due", "reduce_clauses", "luby",
             "keep_phases", "keep_target", "restart", "rephase", "block", "begin", "cdcl")
"""Every function above, in an order where each calls only earlier ones (numba wraps
them over one namespace: :func:`dlx.compiled.learning_entry`)."""
