"""The trail: options assigned in order, by level, and the values of literals.

``TRAIL[:REG_TRAIL_LEN]`` holds the options assigned, in order; level ``l`` begins at
``TRAIL_LIM[l]``; ``TPOS`` is an option's place on it. Assigning an option false lowers
``FREE`` of each of its primary items (and updates ``FREE_XOR``), undoing raises it:
the counts propagation reads ([`dlx.kernels.cdcl.propagate`][]).
"""

from __future__ import annotations

from .heap import heap_insert
from .state import (
    DECIDED,
    REG_ASSIGNS,
    REG_DECISIONS,
    REG_LEVEL,
    REG_MAX_LEVEL,
    REG_N_PRIMARY,
    REG_QHEAD,
    REG_TRAIL_LEN,
    UNSET,
)

__all__ = ["assign", "backtrack", "decide", "false_literal", "lit_value"]


def lit_value(S, lit):
    """1 if literal ``lit`` is true, 0 if false, -1 if its option is not assigned."""
    x = S.VAL[lit >> 1]
    if x < 0:
        return -1
    return x ^ (lit & 1)


def false_literal(S, v):
    """The literal of option ``v`` that is false now."""
    return 2 * v + S.VAL[v]


def assign(S, v, value, kind, rid):
    """Option ``v`` set to ``value`` at the current level, for ``kind`` and ``rid``."""
    S.VAL[v] = value
    S.LVL[v] = S.REG[REG_LEVEL]
    S.RKIND[v] = kind
    S.RID[v] = rid
    S.TRAIL[S.REG[REG_TRAIL_LEN]] = v
    S.TPOS[v] = S.REG[REG_TRAIL_LEN]
    S.REG[REG_TRAIL_LEN] += 1
    S.REG[REG_ASSIGNS] += 1
    if value == 0:
        n1 = S.REG[REG_N_PRIMARY]
        for k in range(S.OPT_PTR[v], S.OPT_PTR[v + 1]):
            i = S.OPT_ITEM[k]
            if i < n1:
                S.FREE[i] -= 1
                S.FREE_XOR[i] ^= v


def backtrack(S, level):
    """Undo every assignment above ``level``, saving each option's phase."""
    REG = S.REG
    if REG[REG_LEVEL] <= level:
        return
    stop = S.TRAIL_LIM[level + 1]
    n1 = REG[REG_N_PRIMARY]
    for t in range(REG[REG_TRAIL_LEN] - 1, stop - 1, -1):
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
    REG[REG_TRAIL_LEN] = stop
    REG[REG_QHEAD] = stop
    REG[REG_LEVEL] = level


def decide(S, v):
    """A new level, whose decision is option ``v``: its target phase if it has one, else
    its saved phase."""
    REG = S.REG
    REG[REG_DECISIONS] += 1
    REG[REG_LEVEL] += 1
    if REG[REG_LEVEL] > REG[REG_MAX_LEVEL]:
        REG[REG_MAX_LEVEL] = REG[REG_LEVEL]
    S.TRAIL_LIM[REG[REG_LEVEL]] = REG[REG_TRAIL_LEN]
    value = S.TARGET[v]
    assign(S, v, S.PHASE[v] if value < 0 else value, DECIDED, -1)
