"""Conflict analysis: the conflict resolved back to its first unique implication point
(1-UIP), then minimized ([`dlx.kernels.cdcl.minimize`][]) and shrunk
([`dlx.kernels.cdcl.shrink`][]).

Every option met is bumped ([`dlx.kernels.cdcl.heap.bump`][]); the clause's asserting literal
comes first and a literal of the level to jump back to second.
"""

from __future__ import annotations

from .clauses import use_clause
from .heap import bump
from .minimize import redundant
from .shrink import shrink
from .state import (
    COVERED,
    EXCLUDED,
    REG_CLEAR_N,
    REG_CONFLICT_A,
    REG_CONFLICT_B,
    REG_CONFLICT_KIND,
    REG_LEVEL,
    REG_TRAIL_LEN,
)
from .trail import false_literal

__all__ = ["analyze", "see"]


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


def analyze(S):
    """The 1-UIP clause of the conflict in ``LEARNT``, its asserting literal first and a
    literal of the level to jump back to second. Returns (size, that level)."""
    REG = S.REG
    level = REG[REG_LEVEL]
    kind = REG[REG_CONFLICT_KIND]
    a = REG[REG_CONFLICT_A]
    b = REG[REG_CONFLICT_B]
    skip = -1
    size = 1
    path = 0
    t = REG[REG_TRAIL_LEN] - 1
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
        S.LEVEL_FIRST[lv] = REG[REG_TRAIL_LEN]
    for j in range(1, size):
        v = S.LEARNT[j] >> 1
        S.LEVEL_FIRST[S.LVL[v]] = min(S.LEVEL_FIRST[S.LVL[v]], S.TPOS[v])
    REG[REG_CLEAR_N] = 0
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
        S.CLEAR[REG[REG_CLEAR_N]] = v  # unmarked below: shrinking reads the marks
        REG[REG_CLEAR_N] += 1
    kept = shrink(S, kept, levels)
    for j in range(REG[REG_CLEAR_N]):
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
