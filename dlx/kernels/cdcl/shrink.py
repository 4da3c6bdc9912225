"""Shrinking (Fleury and Biere; CaDiCaL's ``shrink``): the literals of each lower level of
a learned clause replaced by that level's unique implication point, where the level's
reasons allow it.
"""

from __future__ import annotations

from .heap import bump
from .minimize import reason_option, reason_span, redundant
from .state import DECIDED, REG_CLEAR_N, REG_SHRUNK, REG_STAMP
from .trail import false_literal

__all__ = ["block_uip", "shrink"]


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
                S.CLEAR[S.REG[REG_CLEAR_N]] = r
                S.REG[REG_CLEAR_N] += 1
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
    REG[REG_STAMP] += 2
    done = REG[REG_STAMP]  # LEVEL_STAMP of a level shrunk to one literal; done - 1: kept as is
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
                    S.CLEAR[REG[REG_CLEAR_N]] = u
                    REG[REG_CLEAR_N] += 1
                S.LEARNT[out] = false_literal(S, u)
                out += 1
                continue
            S.LEVEL_STAMP[lv] = done - 1
        S.LEARNT[out] = lit
        out += 1
    REG[REG_SHRUNK] += kept - out
    return out
