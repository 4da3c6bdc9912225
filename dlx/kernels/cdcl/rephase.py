"""Phases: the values decisions take (target phases) and rephasing (Biere's CaDiCaL).

A decision takes the option's value in the longest assignment free of conflict since the
last restart (``TARGET``), else the one it had last (``PHASE``, saved by
[`dlx.kernels.cdcl.trail.backtrack`][]). Ever more seldom, the saved phases are set in turn to
the longest assignment's since the last such setting (``BEST``) and to their opposites.
"""

from __future__ import annotations

from .state import (
    REG_BEST_LEN,
    REG_CONFLICTS,
    REG_LEVEL,
    REG_NEXT_REPHASE,
    REG_REPHASE_UNIT,
    REG_REPHASES,
    REG_TARGET_LEN,
)
from .trail import backtrack

__all__ = ["keep_phases", "keep_target", "rephase"]


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
    become the best phases ([`rephase`][])."""
    top = S.TRAIL_LIM[S.REG[REG_LEVEL]]
    keep_phases(S, S.TARGET, REG_TARGET_LEN, top)
    keep_phases(S, S.BEST, REG_BEST_LEN, top)


def rephase(S):
    """Rephasing (Biere's CaDiCaL, its stable mode without local search): back to level
    0, the saved phases become in turn the best ones (``BEST``, where known) and their
    own opposites, and the target phases are forgotten; the ``k``-th rephasing comes
    ``k * REG_REPHASE_UNIT`` conflicts after the one before."""
    REG = S.REG
    backtrack(S, 0)
    best = REG[REG_REPHASES] % 2 == 0
    PHASE, BEST, TARGET = S.PHASE, S.BEST, S.TARGET
    for v in range(len(PHASE)):
        if not best:
            PHASE[v] ^= 1
        elif BEST[v] >= 0:
            PHASE[v] = BEST[v]
        TARGET[v] = -1
    if best:
        REG[REG_BEST_LEN] = 0
    REG[REG_TARGET_LEN] = 0
    REG[REG_REPHASES] += 1
    REG[REG_NEXT_REPHASE] = REG[REG_CONFLICTS] + REG[REG_REPHASE_UNIT] * (REG[REG_REPHASES] + 1)
