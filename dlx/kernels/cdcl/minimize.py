"""Recursive minimization of a learned clause (MiniSat's): a literal implied by the
others is dropped.

A reason is read as a clause: ``EXCLUDED`` by ``p`` is ``{not p, not q}``; ``COVERED`` by
item ``i`` is "some option of ``i``"; ``LEARNED`` is the clause itself.
[`reason_span`][] and [`reason_option`][] walk the options of any reason alike.
"""

from __future__ import annotations

from .state import COVERED, DECIDED, EXCLUDED, REG_CLEAR_N

__all__ = ["may_follow", "reason_option", "reason_span", "redundant"]


def reason_span(S, kind, rid):
    """Where the options of reason ``(kind, rid)`` lie: positions ``lo..hi`` for
    [`reason_option`][]."""
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
    once on any option for which [`may_follow`][] does not hold. Options found implied
    are marked 3 in ``SEEN`` and listed in ``CLEAR``; a failure unmarks those it
    marked."""
    if not may_follow(S, v, levels):
        return False
    REG = S.REG
    top = REG[REG_CLEAR_N]
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
                S.CLEAR[REG[REG_CLEAR_N]] = r
                REG[REG_CLEAR_N] += 1
            else:
                for j in range(top, REG[REG_CLEAR_N]):
                    S.SEEN[S.CLEAR[j]] = 0
                REG[REG_CLEAR_N] = top
                return False
    return True
