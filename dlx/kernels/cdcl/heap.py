"""The choice of the next decision: VSIDS, a binary heap of the options by activity.

An option's activity (``ACT``) is raised by each conflict it takes part in ([`bump`][]),
by an amount that grows after every conflict ([`decay`][]), so recent conflicts count
most (MiniSat's; Moskewicz et al.'s Chaff). ``HEAP`` holds the options not yet assigned
(and some assigned ones, taken out lazily by [`next_decision`][]), the most active at
``HEAP[0]``; ``HEAP_POS`` is an option's place in it, -1 when out.
"""

from __future__ import annotations

from .state import FREG_VAR_INC, REG_HEAP_N

__all__ = ["RESCALE", "VAR_DECAY", "bump", "decay", "heap_down", "heap_insert", "heap_pop",
           "heap_up", "next_decision"]

VAR_DECAY = 0.95
"""VSIDS: each conflict makes the bumps that follow 1/0.95 times larger (MiniSat's)."""
RESCALE = 1e100
"""Activities are scaled down together when one passes this."""


def heap_up(S, k):
    """Move the option at ``HEAP[k]`` up to its place."""
    HEAP, POS, ACT = S.HEAP, S.HEAP_POS, S.ACT
    v = HEAP[k]
    a = ACT[v]
    while k > 0:
        parent = (k - 1) >> 1
        p = HEAP[parent]
        if ACT[p] >= a:
            break
        HEAP[k] = p
        POS[p] = k
        k = parent
    HEAP[k] = v
    POS[v] = k


def heap_down(S, k):
    """Move the option at ``HEAP[k]`` down to its place."""
    HEAP, POS, ACT = S.HEAP, S.HEAP_POS, S.ACT
    n = S.REG[REG_HEAP_N]
    v = HEAP[k]
    a = ACT[v]
    while True:
        child = 2 * k + 1
        if child >= n:
            break
        if child + 1 < n and ACT[HEAP[child + 1]] > ACT[HEAP[child]]:
            child += 1
        c = HEAP[child]
        if ACT[c] <= a:
            break
        HEAP[k] = c
        POS[c] = k
        k = child
    HEAP[k] = v
    POS[v] = k


def heap_insert(S, v):
    n = S.REG[REG_HEAP_N]
    S.HEAP[n] = v
    S.HEAP_POS[v] = n
    S.REG[REG_HEAP_N] = n + 1
    heap_up(S, n)


def heap_pop(S):
    """The most active option, taken out of the heap (-1 if it is empty)."""
    n = S.REG[REG_HEAP_N]
    if n == 0:
        return -1
    v = S.HEAP[0]
    S.HEAP_POS[v] = -1
    n -= 1
    S.REG[REG_HEAP_N] = n
    if n > 0:
        last = S.HEAP[n]
        S.HEAP[0] = last
        S.HEAP_POS[last] = 0
        heap_down(S, 0)
    return v


def next_decision(S):
    """The most active option not assigned yet, taken out of the heap with the assigned
    ones above it; -1 if every option is assigned."""
    v = heap_pop(S)
    while v >= 0 and S.VAL[v] >= 0:
        v = heap_pop(S)
    return v


def bump(S, v):
    """VSIDS: raise option ``v``'s activity (it took part in a conflict)."""
    ACT = S.ACT
    ACT[v] += S.FREG[FREG_VAR_INC]
    if ACT[v] > RESCALE:
        for u in range(len(ACT)):
            ACT[u] *= 1.0 / RESCALE
        S.FREG[FREG_VAR_INC] *= 1.0 / RESCALE
    k = S.HEAP_POS[v]
    if k >= 0:
        heap_up(S, k)


def decay(S):
    """VSIDS: the bumps that follow one conflict are ``1 / VAR_DECAY`` times larger than
    those before it (the same as decaying every activity, without touching them)."""
    S.FREG[FREG_VAR_INC] *= 1.0 / VAR_DECAY
