"""Unit propagation over the problem's own lists and the learned clauses.

The constraints are never written out as clauses. An option set **true** sets false every
other option that shares an item with it (for a secondary item with colors: every option
of another color, or without one); its reason is the true option (``EXCLUDED``). An
option set **false** lowers ``FREE`` of each of its primary items: an item left with none
is a conflict, an item left with one option not yet assigned sets it true, the item its
reason (``COVERED``). Then the learned clauses watching the literal just made false are
visited ([`dlx.kernels.cdcl.watch.watch`][]).
"""

from __future__ import annotations

from .state import (
    COVERED,
    EXCLUDED,
    REG_CONFLICT_A,
    REG_CONFLICT_B,
    REG_CONFLICT_KIND,
    REG_N_PRIMARY,
    REG_QHEAD,
    REG_TRAIL_LEN,
)
from .trail import assign
from .watch import relayout, watch

__all__ = ["propagate"]


def propagate(S):
    """Propagate the trail from ``REG_QHEAD``; True at a conflict (``REG_CONFLICT_KIND``...)."""
    REG, VAL = S.REG, S.VAL
    OPT_PTR, OPT_ITEM, OPT_COLOR = S.OPT_PTR, S.OPT_ITEM, S.OPT_COLOR
    ITEM_PTR, ITEM_OPT, ITEM_COLOR = S.ITEM_PTR, S.ITEM_OPT, S.ITEM_COLOR
    n1 = REG[REG_N_PRIMARY]
    while REG[REG_QHEAD] < REG[REG_TRAIL_LEN]:
        v = S.TRAIL[REG[REG_QHEAD]]
        REG[REG_QHEAD] += 1
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
                        REG[REG_CONFLICT_KIND] = EXCLUDED
                        REG[REG_CONFLICT_A] = v
                        REG[REG_CONFLICT_B] = q
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
                    REG[REG_CONFLICT_KIND] = COVERED
                    REG[REG_CONFLICT_A] = i
                    return True
                if free == 1:
                    q = S.FREE_XOR[i]
                    if VAL[q] < 0:
                        assign(S, q, 1, COVERED, i)
        w = watch(S, x)
        if w == 2:  # no room to move a watch: v is propagated again after a relayout
            REG[REG_QHEAD] -= 1
            relayout(S)
        elif w:
            return True
    return False
