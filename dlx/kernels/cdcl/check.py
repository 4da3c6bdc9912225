"""Knuth's sanity check of a learning search's state (a test and debugging aid)."""

from __future__ import annotations

import itertools

import numpy as np

from .state import (
    COVERED,
    DECIDED,
    EXCLUDED,
    REG_BEST_LEN,
    REG_CLAUSES,
    REG_HEAP_N,
    REG_N_PRIMARY,
    REG_PENDING,
    REG_QHEAD,
    REG_TARGET_LEN,
    REG_TRAIL_LEN,
    REG_WL_END,
    UNSET,
    Learner,
)

__all__ = ["check_learner"]


def check_learner(S: Learner) -> None:
    """Knuth's sanity check of a learning search's state between slices (or steps):
    ``FREE``, the trail and levels, the heap, the phases and the watches agree with one
    another, and once the trail is propagated no learned clause is left unit or false.
    Raises AssertionError naming what is wrong (a test and debugging aid)."""
    REG = S.REG
    n1 = int(REG[REG_N_PRIMARY])
    top = int(REG[REG_TRAIL_LEN])
    on_trail = S.TRAIL[:top]
    if len(set(on_trail.tolist())) != top:
        raise AssertionError("an option is on the trail twice")
    for t, v in enumerate(on_trail.tolist()):
        if S.TPOS[v] != t:
            raise AssertionError(f"option {v} is at {t} on the trail, not at TPOS {S.TPOS[v]}")
        if S.VAL[v] == UNSET:
            raise AssertionError(f"option {v} is on the trail (position {t}) but not assigned")
    assigned = np.flatnonzero(S.VAL != UNSET)
    extra = set(assigned.tolist()) - set(on_trail.tolist()) - set(
        np.flatnonzero((S.VAL == 0) & (S.LVL == 0) & (S.RKIND == DECIDED)).tolist())
    if extra:
        raise AssertionError(f"options {sorted(extra)[:5]} are assigned but not on the trail")
    for i in range(n1):
        options = S.ITEM_OPT[S.ITEM_PTR[i]:S.ITEM_PTR[i + 1]]
        free = int(np.count_nonzero(S.VAL[options] != 0))
        if free != S.FREE[i]:
            raise AssertionError(f"FREE[{i}] is {S.FREE[i]}, but {free} of its options are "
                                 "not false")
        xor = int(np.bitwise_xor.reduce(options[S.VAL[options] != 0], initial=0))
        if xor != S.FREE_XOR[i]:
            raise AssertionError(f"FREE_XOR[{i}] is {S.FREE_XOR[i]}, not the exclusive or of "
                                 f"its options not false ({xor})")
    where = {v: t for t, v in enumerate(on_trail.tolist())}
    for t, v in enumerate(on_trail.tolist()):
        kind, rid = int(S.RKIND[v]), int(S.RID[v])
        if kind == DECIDED or S.LVL[v] == 0:
            continue
        if kind == EXCLUDED:
            others = [(rid, 0)]
        elif kind == COVERED:
            others = [(q, 1) for q in S.ITEM_OPT[S.ITEM_PTR[rid]:S.ITEM_PTR[rid + 1]].tolist()]
        else:
            start, size = S.CL_START[rid], S.CL_SIZE[rid]
            others = [(lit >> 1, 1 - (lit & 1)) for lit in S.CL_LITS[start:start + size].tolist()]
        for q, holds in others:  # (option, the value that would satisfy the reason)
            if q == v:
                continue
            if S.VAL[q] == UNSET or S.VAL[q] == holds or where.get(q, -1) > t:
                raise AssertionError(f"option {v}'s reason ({kind}, {rid}) does not imply "
                                     f"it: option {q} is not falsified before it")
    for v in range(len(S.VAL)):
        if S.VAL[v] == UNSET and S.HEAP_POS[v] < 0:
            raise AssertionError(f"option {v} is not assigned and not in the heap")
    for k in range(int(REG[REG_HEAP_N])):
        if S.HEAP_POS[S.HEAP[k]] != k or (k and S.ACT[S.HEAP[(k - 1) >> 1]] < S.ACT[S.HEAP[k]]):
            raise AssertionError(f"the heap is out of order at {k}")
    for name, low in (("PHASE", 0), ("TARGET", -1), ("BEST", -1)):
        phases = getattr(S, name)
        if phases.size and (phases.min() < low or phases.max() > 1):
            raise AssertionError(f"{name} holds a value outside {low}..1")
    for name, r in (("TARGET_LEN", REG_TARGET_LEN), ("BEST_LEN", REG_BEST_LEN)):
        if not 0 <= REG[r] <= len(S.VAL):
            raise AssertionError(f"{name} is {REG[r]}, not a trail's length")
    used = S.CL_USED[:int(REG[REG_CLAUSES])]
    if used.size and (used.min() < 0 or used.max() > 2):
        raise AssertionError(f"a clause is to be spared {int(used.max())} reductions; 2 at most")
    if 2 * REG[REG_WL_END] > len(S.WL):
        raise AssertionError(f"WL_END {REG[REG_WL_END]} is past the end of WL")
    visited = 0
    spans = []
    for lit in range(len(S.WS)):
        start, n, cap = int(S.WS[lit]), int(S.WN[lit]), int(S.WC[lit])
        if not 0 <= n <= cap or start + cap > REG[REG_WL_END]:
            raise AssertionError(f"literal {lit}'s watch list ({start}, {n}, {cap}) is out "
                                 f"of its room")
        spans.append((start, start + cap))
        for p in range(start, start + n):
            e = int(S.WL[2 * p])
            c, k = e >> 1, e & 1
            if not 0 <= c < REG[REG_CLAUSES] or S.CL_LITS[S.CL_START[c] + k] != lit:
                raise AssertionError(f"watch {e} of clause {c} is on literal {lit}'s list, "
                                     f"not on its literal's")
            visited += 1
    spans.sort()
    for (_, end), (start, _) in itertools.pairwise(spans):
        if start < end:
            raise AssertionError("two watch lists overlap")
    if visited != 2 * REG[REG_CLAUSES]:
        raise AssertionError(f"{visited} watches on the lists for {REG[REG_CLAUSES]} clauses")
    if REG[REG_QHEAD] == top and not REG[REG_PENDING]:  # propagated: no clause is unit or false
        for c in range(int(REG[REG_CLAUSES])):
            lits = S.CL_LITS[S.CL_START[c]:S.CL_START[c] + S.CL_SIZE[c]].tolist()
            values = [-1 if S.VAL[lit >> 1] < 0 else int(S.VAL[lit >> 1]) ^ (lit & 1)
                      for lit in lits]
            if 1 not in values and values.count(-1) < 2:
                raise AssertionError(f"learned clause {c} {lits} is unit or false after "
                                     f"propagation")
