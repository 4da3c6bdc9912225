"""The learning search's main loop: [`begin`][] at level 0, then [`cdcl`][] in slices.

Dancing links search a tree: a subtree that failed is forgotten, so a hard instance fails
the same way again and again under other choices (the minimal 25x25 Sudokus: tens of
millions of nodes). This search treats the same problem as a satisfiability solver does
(Knuth, TAOCP 7.2.2.2, Algorithm C; MiniSat): each *option* is a boolean variable, true
when chosen; every conflict is analysed into a *learned clause* that forbids its cause,
and the search jumps back over the levels that played no part in it. [`cdcl`][] is the
table of contents, one call per concern, each in its module of [`dlx.kernels.cdcl`][]:
propagation, analysis (with minimization and shrinking), learning, reduction, restarts,
rephasing, and the decision. Blocking clauses, kept for good, enumerate further
solutions.

All the state is in the arrays of [`dlx.kernels.cdcl.state.Learner`][], and [`cdcl`][]
returns after a budget of conflicts or decisions with everything needed to go on, so that
[`dlx.learning`][] can check the clock between slices and numba can compile the very
same source ([`dlx.compiled`][]).
"""

from __future__ import annotations

from .analyze import analyze
from .clauses import add_pending, learn
from .heap import decay, next_decision
from .propagate import propagate
from .reduce import reduce_clauses, reduce_due
from .rephase import keep_target, rephase
from .restart import restart
from .state import (
    COMPLETE,
    COVERED,
    DECIDED,
    LIMIT,
    MAX_NODES,
    NO_ROOM,
    REG_BLOCK,
    REG_CONFLICTS,
    REG_DECISIONS,
    REG_LEVEL,
    REG_N_PRIMARY,
    REG_NEXT_REPHASE,
    REG_NEXT_RESTART,
    REG_PENDING,
    REG_STOP_CONFLICTS,
    REG_STOP_DECISIONS,
    RUNNING,
)
from .trail import assign, decide, false_literal

__all__ = ["begin", "block", "cdcl"]


def begin(S, forced):
    """Level 0: the ``forced`` options true, then every primary item with a single option
    takes it; ``COMPLETE`` if an item has none (or the forced options clash), else
    ``RUNNING``."""
    for j in range(len(forced)):
        v = forced[j]
        if S.VAL[v] == 1:
            continue
        if S.VAL[v] == 0:
            return COMPLETE
        assign(S, v, 1, DECIDED, -1)
    if propagate(S):
        return COMPLETE
    for i in range(S.REG[REG_N_PRIMARY]):
        free = S.FREE[i]
        if free == 0:
            return COMPLETE
        if free == 1:
            q = S.FREE_XOR[i]
            if S.VAL[q] < 0:
                assign(S, q, 1, COVERED, i)
                if propagate(S):
                    return COMPLETE
    return RUNNING


def block(S):
    """Forbid the solution just found (a clause of its negated decisions, kept for good),
    jumping back one level; False if it was found without a decision: none is left."""
    level = S.REG[REG_LEVEL]
    if level == 0:
        return False
    for j in range(level):  # the deepest decision first
        S.LEARNT[j] = false_literal(S, S.TRAIL[S.TRAIL_LIM[level - j]])
    learn(S, level, level - 1, 1)  # if it waits for room, cdcl() returns NO_ROOM at once
    return True


def cdcl(S):
    """Search until a solution (``LIMIT``), none left (``COMPLETE``) or a budget of the
    slice (``REG_STOP_CONFLICTS``, ``REG_STOP_DECISIONS``: ``MAX_NODES``); call again to
    go on (after ``NO_ROOM``, with larger arrays). With ``REG_BLOCK`` set, the solution
    found last is forbidden first."""
    REG = S.REG
    if REG[REG_PENDING]:  # the arrays were made larger for the clause waiting in LEARNT
        add_pending(S)
    if REG[REG_BLOCK]:
        REG[REG_BLOCK] = 0
        if not block(S):
            return COMPLETE
        if REG[REG_PENDING]:
            return NO_ROOM
    while True:
        # C1. Propagate.
        if propagate(S):
            # C2. A conflict: learn from it, or stop at level 0.
            REG[REG_CONFLICTS] += 1
            if REG[REG_LEVEL] == 0:
                return COMPLETE
            keep_target(S)
            size, back = analyze(S)
            if not learn(S, size, back, 0):
                return NO_ROOM
            decay(S)
            # C3. Forget, restart, rephase, when due.
            if reduce_due(S):
                reduce_clauses(S)
            if REG[REG_CONFLICTS] >= REG[REG_NEXT_RESTART]:
                restart(S)
            if REG[REG_CONFLICTS] >= REG[REG_NEXT_REPHASE]:
                rephase(S)
            if REG[REG_CONFLICTS] >= REG[REG_STOP_CONFLICTS]:
                return MAX_NODES
            continue
        # C4. Decide: the most active option not assigned yet, in its phase.
        if REG[REG_DECISIONS] >= REG[REG_STOP_DECISIONS]:
            return MAX_NODES
        v = next_decision(S)
        if v < 0:
            return LIMIT
        decide(S, v)
