"""The learned clauses: their store, their LBD, and learning one.

Learned clause ``c`` has literals ``CL_LITS[CL_START[c]:CL_START[c]+CL_SIZE[c]]``, the
first two watched ([`dlx.kernels.cdcl.watch`][]), its LBD ``CL_LBD[c]``, ``CL_KEEP[c]`` (1:
never deleted) and ``CL_USED[c]`` (reductions it is spared for). When a clause does not
fit even after a reduction, it waits in ``LEARNT`` (``REG_PENDING``) and the kernel
returns ``NO_ROOM`` for larger arrays.
"""

from __future__ import annotations

from .reduce import KEEP_LBD, TIER2_LBD, reduce_clauses
from .state import (
    DECIDED,
    LEARNED,
    REG_ARENA,
    REG_CLAUSES,
    REG_PENDING,
    REG_PENDING_KEEP,
    REG_STAMP,
)
from .trail import assign, backtrack, lit_value
from .watch import push_watch, relayout

__all__ = ["add_clause", "add_pending", "glue", "learn", "room", "spare", "use_clause"]


def glue(S, lits, start, size):
    """The number of distinct levels among the options of ``lits[start:start+size]`` (a
    clause's LBD)."""
    S.REG[REG_STAMP] += 1
    stamp = S.REG[REG_STAMP]
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


def room(S, size):
    """Whether one more clause of ``size`` literals fits in the arena."""
    return S.REG[REG_CLAUSES] < len(S.CL_START) and S.REG[REG_ARENA] + size <= len(S.CL_LITS)


def add_clause(S, size, lbd, keep):
    """``LEARNT[:size]`` (at least two literals) as a clause watched by its first two."""
    REG = S.REG
    c = REG[REG_CLAUSES]
    s = REG[REG_ARENA]
    S.CL_START[c] = s
    S.CL_SIZE[c] = size
    S.CL_LBD[c] = lbd
    S.CL_KEEP[c] = keep
    spare(S, c)  # as if it had just been used
    for j in range(size):
        S.CL_LITS[s + j] = S.LEARNT[j]
    REG[REG_CLAUSES] = c + 1
    REG[REG_ARENA] = s + size
    for k in range(2):
        if not push_watch(S, S.LEARNT[k], 2 * c + k, S.LEARNT[1 - k]):
            relayout(S)  # the clause is among them
            break
    return c


def add_pending(S):
    """Add the clause that waited in ``LEARNT`` for room (``REG_PENDING`` literals), now
    that the arrays are larger ([`dlx.kernels.cdcl.state.grown`][])."""
    REG = S.REG
    size = REG[REG_PENDING]
    add_clause(S, size, glue(S, S.LEARNT, 0, size), REG[REG_PENDING_KEEP])
    REG[REG_PENDING] = 0


def learn(S, size, back, keep):
    """Jump back to level ``back`` and learn ``LEARNT[:size]``, asserting its first literal
    (with no room left: at level 0, after deleting clauses). False if there is still no
    room: the clause waits in ``LEARNT`` (``REG_PENDING``) for larger arrays."""
    if size > 1 and not room(S, size):
        backtrack(S, 0)
        reduce_clauses(S)
        back = 0
        if not room(S, size):
            S.REG[REG_PENDING] = size
            S.REG[REG_PENDING_KEEP] = keep
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
