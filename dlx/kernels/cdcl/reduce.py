"""Reduction of the learned clauses: the least useful deleted, when they pass a growing
budget after a conflict.

Largest LBD (Audemard and Simon's "glucose level") first, then oldest; sparing those that
took part in a conflict since the last reduction (two reductions for LBD <= 6: CaDiCaL's
and Kissat's tiers), the glue clauses and those that are the reason of an option
assigned. Blocking clauses (of the solutions found) are kept for good.
"""

from __future__ import annotations

from .state import LEARNED, REG_ARENA, REG_CLAUSES, REG_DELETED, REG_MAX_LEARNED, REG_TRAIL_LEN
from .watch import relayout

__all__ = ["KEEP_LBD", "TIER2_LBD", "deletable", "reduce_clauses", "reduce_due"]

KEEP_LBD = 2
"""Learned clauses of at most this many levels ("glue clauses") are never deleted."""
TIER2_LBD = 6
"""A clause of at most this many levels survives two reductions after it last took part
in a conflict, any other one reduction (CaDiCaL's tier two and ``used`` flag)."""


def deletable(S, c):
    """Whether a reduction may delete learned clause ``c``: not kept for good, not a glue
    clause, not spared."""
    return S.CL_KEEP[c] == 0 and S.CL_LBD[c] > KEEP_LBD and S.CL_USED[c] == 0


def reduce_due(S):
    """Whether the learned clauses have passed their budget, or fill 3/4 of the arena."""
    REG = S.REG
    return REG[REG_CLAUSES] >= REG[REG_MAX_LEARNED] or 4 * REG[REG_ARENA] >= 3 * len(S.CL_LITS)


def reduce_clauses(S):
    """Delete the worse half of the deletable learned clauses (not kept for good, not the
    reason of an option assigned, LBD above ``KEEP_LBD``, not used since the last
    reduction; largest LBD, then oldest, first), compact the arena, renumber the reasons
    and watch every clause anew (the same two literals); then allow 10% more clauses
    before the next reduction, at most as many as the arrays hold."""
    REG = S.REG
    n = REG[REG_CLAUSES]
    BY_LBD = S.BY_LBD
    for t in range(REG[REG_TRAIL_LEN]):  # lock the reasons on the trail
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
    REG[REG_DELETED] += n - kept
    for t in range(REG[REG_TRAIL_LEN]):
        v = S.TRAIL[t]
        if S.RKIND[v] == LEARNED:
            S.RID[v] = S.WL[S.RID[v]]
    REG[REG_CLAUSES] = kept
    REG[REG_ARENA] = top
    relayout(S)
    REG[REG_MAX_LEARNED] = min(REG[REG_MAX_LEARNED] + REG[REG_MAX_LEARNED] // 10, len(S.CL_START))
