"""The lookahead (``lookahead=K``): item domination at every node of Algorithm C.

[`dlx.kernels.algorithm_c.search`][] calls [`reduce`][] at C2 and [`restore`][] at C8 in
the kernels compiled with ``REDUCE`` (its compile switch); the default search never
reads this module. An option is hidden from every list it is in ([`hide_option`][]) and
put back in reverse ([`unhide_option`][]); the hidden options' nodes go on ``TRAIL``
(``TRAIL_AT[level]`` is where each level's start), both fields of [`dlx.state.FIELDS`][].
"""

from __future__ import annotations

from ..state import REG_LOOKAHEAD, REG_TRAIL_TOP, REGISTERS, State
from .declare import Declaration

__all__ = ["FUNCTIONS", "hide_option", "option_holds", "reduce", "restore", "unhide_option"]

COLORS = True
"""Algorithm C's compile switch ([`dlx.kernels.algorithm_c.COLORS`][]), read here too:
one namespace binds both."""

FUNCTIONS = ("hide_option", "unhide_option", "option_holds", "reduce", "restore")
"""This module's functions, callees before callers."""


def hide_option(p, U, D, TOP, COLOR, LEN):
    """Take the option of node ``p`` out of every list it is in (its own item's too);
    returns the updates."""
    updates = 0
    q = p
    while True:
        x = TOP[q]
        if x <= 0:  # a spacer: continue with the first node of this option
            q = U[q]
        else:
            if COLOR[q] >= 0 or not COLORS:
                u = U[q]
                d = D[q]
                D[u] = d
                U[d] = u
                LEN[x] -= 1
                updates += 1
            q += 1
        if q == p:
            return updates


def unhide_option(p, U, D, TOP, COLOR, LEN):
    """Undo [`hide_option`][] of node ``p``, walking the option leftward."""
    q = p
    while True:
        q -= 1
        x = TOP[q]
        if x <= 0:  # a spacer: continue with the last node of this option
            q = D[q]
            x = TOP[q]
        if COLOR[q] >= 0 or not COLORS:
            D[U[q]] = q
            U[D[q]] = q
            LEN[x] += 1
        if q == p:
            return


def option_holds(p, j, U, TOP, COLOR):
    """True when the option of node ``p`` has another node, uncolored, of item ``j``."""
    q = p + 1
    while q != p:
        x = TOP[q]
        if x <= 0:
            q = U[q]
            continue
        if x == j:
            return COLOR[q] == 0 or not COLORS
        q += 1
    return False


def reduce(S):
    """The lookahead at a node (kernels with ``REDUCE``): item domination.
    For each active primary item ``i`` of 2 to ``REG[REG_LOOKAHEAD]`` options, each item
    ``j`` that every option of ``i`` holds (uncolored): an option of ``j`` without ``i``
    would leave ``i`` no option, so it is hidden (Sudoku's "locked candidates" are such
    dominations). Hidden options go on ``TRAIL`` from ``TRAIL_AT`` of the node's level
    (set in C2), undone by [`restore`][] when the search leaves it. Returns the updates."""
    U = S.U
    D = S.D
    TOP = S.TOP
    COLOR = S.COLOR
    LEN = S.LEN
    RL = S.RL
    REG = S.REG
    TRAIL = S.TRAIL
    most = REG[REG_LOOKAHEAD]
    top = REG[REG_TRAIL_TOP]
    updates = 0
    i = RL[0]
    while i != 0:
        if 2 <= LEN[i] <= most:
            first = D[i]
            q = first + 1
            while q != first:  # each item j of i's first option: do all of i's hold it?
                j = TOP[q]
                if j <= 0:
                    q = U[q]
                    continue
                q += 1
                if LEN[j] <= LEN[i] or (COLOR[q - 1] != 0 and COLORS):
                    continue  # (fewer options: none of j's lacks i if all of i's hold j)
                p = D[first]
                while p != i and option_holds(p, j, U, TOP, COLOR):
                    p = D[p]
                if p != i:
                    continue
                r = D[j]  # every option of i holds j: j's options without i go
                while r != j:
                    if not option_holds(r, i, U, TOP, COLOR):
                        updates += hide_option(r, U, D, TOP, COLOR, LEN)
                        TRAIL[top] = r
                        top += 1
                    r = D[r]
        i = RL[i]
    REG[REG_TRAIL_TOP] = top
    return updates


def restore(S, level):
    """Undo [`reduce`][] at ``level``: unhide ``TRAIL[TRAIL_AT[level]:]``, last first."""
    top = S.REG[REG_TRAIL_TOP]
    bottom = S.TRAIL_AT[level]
    while top > bottom:
        top -= 1
        unhide_option(S.TRAIL[top], S.U, S.D, S.TOP, S.COLOR, S.LEN)
    S.REG[REG_TRAIL_TOP] = top


DECLARATION = Declaration("lookahead", functions=FUNCTIONS, entries={}, state=State,
                          registers=tuple(name for name, _ in REGISTERS),
                          switches={"COLORS": COLORS})
"""A piece of Algorithm C's kernel (borrowed by it), with no entry point of its own."""
