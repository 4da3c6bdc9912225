"""Dancing cells: Knuth's SSXCC (TAOCP 7.2.2.3), the search written once.

Where [`dlx.kernels.algorithm_c`][] keeps every item's options in a doubly linked list, this kernel
keeps them in a *sparse set*: a stretch of one array whose first ``size`` entries are the
options still active, the others parked after them. Removing an option from an item's set
swaps it with the last active one and shrinks the size by one; undoing the removals of a
whole subtree is then only a matter of putting the sizes back, saved on a stack, since a
removed option never left its stretch. The set of active items is a sparse set too. This
is Knuth's program SSXCC (after Christine Solnon's XCC with dancing cells) with its forced
moves: an item left with one option is taken at once, without saving any size.

As in [`dlx.kernels.algorithm_c`][], the functions touch only integer arrays, through indexing and
integer arithmetic, so the same source runs as plain Python over lists (the python
backend) and compiled by numba (the numba backend, [`dlx.cells`][]).

**The data structure** (built by [`dlx.cells.build_cells`][] from [`dlx.links.Links`][]).
A *node* is an entry of an option, numbered exactly as in the links (items' headers
``0..N``, the first spacer ``N + 1``, then each option's nodes followed by a spacer), so
that a node chosen here names the same option there. An *item* ``x`` is not its number but
the index in ``SET`` where its set begins, items laid out in their order:

``SET``
    for each item ``x``: ``SET[x - 2]`` its position in ``ITEM`` (Knuth's ``pos(x)``),
    ``SET[x - 1]`` its size (``size(x)``), then ``SET[x : x + size(x)]`` the nodes of
    its active options, and after them (up to its original length) those removed. Item
    ``x`` is primary when ``x < REG[REG_SECOND]``; comparing ``x`` compares item numbers.
``ITM``, ``LOC`` (per node)
    the node's item and the node's place in that item's set: ``SET[LOC[p]] == p``. In a
    spacer ``ITM`` is minus the width of the option before it (so ``p + ITM[p]`` is that
    option's first node), 0 in the first spacer and the headers. ``ITM`` never changes.
``CLR`` (per node)
    the node's color (0: none; else a color's number), for secondary items only.
``ITEM``
    the items, a permutation: ``ITEM[0 : REG[REG_ACTIVE]]`` are the active ones (primary items
    not yet covered, secondary items not yet given a color or covered).
``CHOICE`` (per level)
    the node tried at each level of the search: its option is the one chosen there, its
    item (``ITM``) the item branched on, its place (``LOC``) how far through that item's
    set the level has gone.
``SAVED`` (per level), ``SAVE``
    the stack of saved sizes: a branching level ``l`` (one that chose among several
    options) saves the pair (item, size) of every active item in ``SAVE[SAVED[l] :
    SAVED[l + 1]]``, which restores them before its next option is tried; a forced
    level saves nothing (``SAVED[l + 1] == SAVED[l]``), since it has no next option.
``FORCE``
    the stack of primary items known to have a single option left (``REG[REG_FORCED]`` of
    them): each becomes a forced level in turn, the last found first, as Knuth's.
``FORCING`` (per option)
    the option's first primary node (the links' ``FORCING``), to force options before the
    search.

Node counts follow SSXCC's exactly: ``nodes`` counts entries to a level (forced levels
included), ``updates`` one per item swapped out of the active set and one per option
removed from a set. They differ from DLX2's, because SSXCC explores another tree: forced
moves first, and at a node the first item of fewest options *in the order of the active
set*, which the swaps keep changing, for forced moves (ties among branching items still
go to the first in item order, as DLX2's).

The search is resumable like [`dlx.kernels.algorithm_c.search`][] and uses its registers and
statuses
(``REG[0:N_REGS]`` as [`dlx.state.REGISTERS`][] names them, so that [`dlx.search`][]
drives both alike), with three more below. Its steps carry Knuth's labels in ssxcc.w:
*forward* (enter a level: a node), *advance* (try the option at a place of the branching
item's set), *tryit* (take it: swap its items out, hide their other options), *abort* (the
option failed or is done: the next one, after restoring the sizes), *backup* (leave the
level). It pauses only at *forward* (``RESUME = ENTER``) and after a solution or at the
end (``LEAVE``, then *backup*); everything else a pause needs lives in the arrays.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any

import numpy as np

from ..state import N_REGS as LINK_REGS
from ..state import REG_LEVEL, REG_MAX_LEVEL, REG_NODES, REG_RESUME, REG_SOLUTIONS, REG_UPDATES
from ..state import REGISTERS as LINK_REGISTERS
from .codes import COMPLETE, ENTER, LEAVE, LIMIT, MAX_NODES, Pause
from .declare import Declaration

__all__ = ["BEGIN", "FULL", "FUNCTIONS", "N_REGS", "REG_ACTIVE", "REG_FORCED", "REG_SECOND",
           "choose", "force_all", "hide", "search"]

FIELDS = ("SET", "ITM", "LOC", "CLR", "ITEM", "CHOICE", "SAVED", "SAVE", "FORCE", "FORCING",
          "REG", "WEIGHT")
"""The arrays of a search's state, in order (what each holds: the module's docstring;
``WEIGHT``, per item, all 1, only so that ``Search.weights`` reads a cells search as an
unweighted one: the kernel never reads it)."""

CHANGES = frozenset({"SET", "LOC", "ITEM", "CHOICE", "SAVED", "SAVE", "FORCE", "REG"})
"""The arrays a search writes: each search works on its own copies; the others (``ITM``,
``CLR``, ``FORCING``) are shared by every search of the problem."""

if TYPE_CHECKING:
    class Cells(tuple):
        def __getattr__(self, name: str) -> Any: ...
        def __new__(cls, *args: Any, **kwargs: Any) -> Cells: ...
        def _replace(self, **kwargs: Any) -> Cells: ...
else:
    Cells = namedtuple("Cells", FIELDS)
    Cells.__doc__ = "A dancing-cells state: the arrays of [`FIELDS`][], read by name."

DTYPE = np.int64
"""The arrays' type. SSXCC's ``int`` (int32, with ``REG`` int64) was measured 3-17%
slower compiled (the sign extensions of every index; these sets fit the caches either
way: ``docs/design.md``, "Dancing cells")."""

# Registers beyond those of dlx.kernels.algorithm_c (REG[0:LINK_REGS], the same slots, read alike).
REG_ACTIVE = LINK_REGS  # items active: ITEM[0:REG[REG_ACTIVE]]
REG_FORCED = LINK_REGS + 1  # primary items on the FORCE stack: FORCE[0:REG[REG_FORCED]]
REG_SECOND = LINK_REGS + 2  # the set index of the first secondary item (or past every set)
N_REGS = LINK_REGS + 3

BEGIN = 2
"""``REG[REG_RESUME]`` of a search not yet begun: as SSXCC, a primary item without options
decides it at once (no node); else it enters the root (``ENTER``)."""

TRY = 3
ABORT = 4
"""Steps inside one call (never in ``REG[REG_RESUME]``): *advance*/*tryit*, and *abort*."""

FULL = int(Pause.SAVE_FULL)
"""The status of a pause at *forward* when ``SAVE`` may lack room for this level's sizes:
the caller grows ``SAVE`` (in place) and calls again; nothing is counted twice."""

NONE = 1 << 62
"""More options than any item has: the choice's starting minimum."""


def hide(c, color, check, oactive, active, second, SET, ITM, LOC, CLR, FORCE, forced):
    """Hide the options of item ``c``'s set that do not give it ``color`` (0: all of
    them): remove each from the sets of the other items in it that are active, i.e. of
    position below ``oactive`` (``c`` itself is not: its set stays whole).

    With ``check`` (the items of an option being taken), a primary item still active
    (position below ``active``) left with one option is pushed on ``FORCE``, and one left
    with none stops the hiding at once: it returns ``(0, updates, forced)``, the sizes
    then to be restored by the level. Else ``(1, updates, forced)``. A node is never
    removed twice: an option hidden leaves the sets of every active item but ``c``, and
    ``c`` is no longer active."""
    updates = 0
    end = c + SET[c - 1]
    r = c
    while r < end:
        t = SET[r]
        if color == 0 or CLR[t] != color:
            n = t + 1
            while n != t:
                u = ITM[n]
                if u < 0:  # a spacer: continue with the option's first node
                    n += u
                    continue
                if SET[u - 2] < oactive:
                    s = SET[u - 1] - 1
                    if s <= 1 and check and u < second and SET[u - 2] < active:
                        if s == 0:
                            return 0, updates, forced
                        FORCE[forced] = u
                        forced += 1
                    v = LOC[n]
                    last = SET[u + s]  # swap node n with the last active one, shrink
                    SET[u - 1] = s
                    SET[u + s] = n
                    SET[v] = last
                    LOC[n] = u + s
                    LOC[last] = v
                    updates += 1
                n += 1
        r += 1
    return 1, updates, forced


def choose(ITEM, SET, FORCE, active, second, forced):
    """The best item for branching, scanning the active items in the order of ``ITEM``:
    every primary item with one option left is pushed on ``FORCE`` (in that order);
    among those with more, the one of fewest options, the first in item order.

    Returns ``(best, forced, empty)``: ``best`` 0 when no primary item has two options
    or more, ``empty`` 1 when some active primary item has none (never, in a search
    begun as SSXCC's: ``hide`` catches it; kept so that no state can fake a solution)."""
    best = 0
    t = NONE
    empty = 0
    for k in range(active):
        x = ITEM[k]
        if x < second:
            s = SET[x - 1]
            if s <= 1:
                if s == 0:
                    empty = 1
                else:
                    FORCE[forced] = x
                    forced += 1
            elif s < t or (s == t and x < best):
                best = x
                t = s
    return best, forced, empty


def swap_out(x, active, ITEM, SET):
    """Move active item ``x`` to position ``active - 1`` of ``ITEM`` (the last active
    one takes its place); the caller then counts one item fewer."""
    p = active - 1
    q = SET[x - 2]
    y = ITEM[p]
    ITEM[p] = x
    ITEM[q] = y
    SET[y - 2] = q
    SET[x - 2] = p


def search(S, node_stop, solution_stop):
    """Run SSXCC on the state ``S`` until a solution, the end, or a budget.

    Returns LIMIT when ``REG[REG_SOLUTIONS]`` reaches ``solution_stop`` (the solution's nodes
    are ``CHOICE[0:REG[REG_LEVEL]]``), MAX_NODES when ``REG[REG_NODES]`` reaches ``node_stop``
    before entering a new node, FULL when ``SAVE`` must grow first, COMPLETE when the tree
    is exhausted: the statuses and registers of [`dlx.kernels.algorithm_c.search`][].
    """
    SET = S.SET
    ITM = S.ITM
    LOC = S.LOC
    CLR = S.CLR
    ITEM = S.ITEM
    CHOICE = S.CHOICE
    SAVED = S.SAVED
    SAVE = S.SAVE
    FORCE = S.FORCE
    REG = S.REG
    level = REG[REG_LEVEL]
    nodes = REG[REG_NODES]
    updates = REG[REG_UPDATES]
    solutions = REG[REG_SOLUTIONS]
    max_level = REG[REG_MAX_LEVEL]
    active = REG[REG_ACTIVE]
    forced = REG[REG_FORCED]
    second = REG[REG_SECOND]
    step = REG[REG_RESUME]
    status = COMPLETE
    if step == BEGIN:  # a primary item without options: no search at all (SSXCC's baditem)
        step = ENTER
        for k in range(active):
            x = ITEM[k]
            if x < second and SET[x - 1] == 0:
                step = LEAVE
                level = 0
    x = 0  # the node to try (advance, tryit)
    while True:
        if step == ENTER:
            # forward: enter a level, a node of the search tree.
            top = SAVED[level]
            if nodes >= node_stop:
                status = MAX_NODES
                break
            if top + 2 * active > len(SAVE):
                status = FULL
                break
            nodes += 1
            if level > max_level:
                max_level = level
            best = 0
            while forced > 0:  # a forced move found earlier, if its item is still active
                forced -= 1
                c = FORCE[forced]
                if SET[c - 2] < active:
                    best = c
                    break
            branching = False
            if best == 0:
                best, forced, empty = choose(ITEM, SET, FORCE, active, second, forced)
                if forced > 0:  # the last forced item found
                    forced -= 1
                    best = FORCE[forced]
                elif empty:  # cannot happen in a search begun as SSXCC's (see choose)
                    step = LEAVE
                    continue
                elif best == 0:  # no primary item left: CHOICE[0:level] is a solution
                    solutions += 1
                    step = LEAVE
                    if solutions >= solution_stop:
                        status = LIMIT
                        break
                    continue
                else:
                    branching = True
            swap_out(best, active, ITEM, SET)  # best leaves the active items,
            active -= 1
            updates += 1
            _, hidden, forced = hide(best, 0, 0, active, active, second, SET, ITM, LOC, CLR,
                                     FORCE, forced)  # and its options every other set
            updates += hidden
            if branching:  # save the active items' sizes, for its next options
                for k in range(active):
                    y = ITEM[k]
                    SAVE[top + 2 * k] = y
                    SAVE[top + 2 * k + 1] = SET[y - 1]
                top += 2 * active
            SAVED[level + 1] = top
            x = SET[best]  # advance: its first option
            step = TRY
        elif step == LEAVE:
            # backup: leave the level, and abort the option taken at the level above.
            if level == 0:
                break
            level -= 1
            step = ABORT
        if step == ABORT:
            # abort: the option CHOICE[level] is done; the next one of its item, if any.
            x = CHOICE[level]
            best = ITM[x]
            place = LOC[x] + 1
            if place >= best + SET[best - 1]:
                step = LEAVE
                continue
            top = SAVED[level + 1]  # restore the sizes this level saved
            bottom = SAVED[level]
            active = (top - bottom) >> 1
            for k in range(bottom, top, 2):
                SET[SAVE[k] - 1] = SAVE[k + 1]
            x = SET[place]
        # advance and tryit: take the option of node x at this level.
        CHOICE[level] = x
        oactive = active
        q = x + 1
        while q != x:  # swap out its other items that are active
            c = ITM[q]
            if c < 0:  # a spacer: continue with the option's first node
                q += c
                continue
            if SET[c - 2] < active:
                swap_out(c, active, ITEM, SET)
                active -= 1
                updates += 1
            q += 1
        ok = 1
        q = x + 1
        while q != x and ok:  # hide the other options of those items
            c = ITM[q]
            if c < 0:
                q += c
                continue
            if c < second:
                ok, hidden, forced = hide(c, 0, 1, oactive, active, second, SET, ITM, LOC,
                                          CLR, FORCE, forced)
                updates += hidden
            elif SET[c - 2] < oactive:  # a secondary item without a color so far
                ok, hidden, forced = hide(c, CLR[q], 1, oactive, active, second, SET, ITM,
                                          LOC, CLR, FORCE, forced)
                updates += hidden
            q += 1
        if ok:
            level += 1
            step = ENTER
        else:  # an item left without options: abort (the forced moves found are void)
            forced = 0
            step = ABORT
    REG[REG_LEVEL] = level
    REG[REG_NODES] = nodes
    REG[REG_UPDATES] = updates
    REG[REG_SOLUTIONS] = solutions
    REG[REG_MAX_LEVEL] = max_level
    REG[REG_ACTIVE] = active
    REG[REG_FORCED] = forced
    REG[REG_RESUME] = step
    return status


def alive(p, active, second, SET, ITM, LOC):
    """True when the option of node ``p`` may still be taken: each of its primary items
    is active and holds it in its set. (An option hidden left the sets of all its items
    then active but one; a primary item of it that is active now was active then.)"""
    q = p
    while True:
        c = ITM[q]
        if c < second and (SET[c - 2] >= active or LOC[q] >= c + SET[c - 1]):
            return False
        q += 1
        if ITM[q] < 0:  # a spacer: continue with the option's first node
            q += ITM[q]
        if q == p:
            return True


def force_all(S, FORCED):
    """Take the options ``FORCED`` in turn (valid, distinct option numbers), from their
    nodes ``S.FORCING``, as forced moves below the root: for each, its item leaves the
    active set and hides its options, then its other items leave and hide theirs, as
    *tryit* does (nothing is counted, nothing is saved: the search never undoes them).

    Returns -1, or the index in ``FORCED`` of the first one that earlier ones exclude
    (the state then holds the earlier ones taken). An item that they leave without
    options ends the search at its start ([`BEGIN`][])."""
    SET = S.SET
    ITM = S.ITM
    LOC = S.LOC
    CLR = S.CLR
    ITEM = S.ITEM
    FORCE = S.FORCE
    REG = S.REG
    active = REG[REG_ACTIVE]
    second = REG[REG_SECOND]
    conflict = -1
    f = 0
    while f < len(FORCED) and conflict < 0:  # one way out (dlx.kernels.algorithm_c)
        p = S.FORCING[FORCED[f]]
        if not alive(p, active, second, SET, ITM, LOC):
            conflict = f
            continue
        best = ITM[p]
        swap_out(best, active, ITEM, SET)
        active -= 1
        hide(best, 0, 0, active, active, second, SET, ITM, LOC, CLR, FORCE, 0)
        oactive = active
        q = p + 1
        while q != p:
            c = ITM[q]
            if c < 0:
                q += c
                continue
            if SET[c - 2] < active:
                swap_out(c, active, ITEM, SET)
                active -= 1
            q += 1
        q = p + 1
        while q != p:
            c = ITM[q]
            if c < 0:
                q += c
                continue
            if c < second:
                hide(c, 0, 0, oactive, active, second, SET, ITM, LOC, CLR, FORCE, 0)
            elif SET[c - 2] < oactive:
                hide(c, CLR[q], 0, oactive, active, second, SET, ITM, LOC, CLR, FORCE, 0)
            q += 1
        f += 1
    REG[REG_ACTIVE] = active
    return conflict


FUNCTIONS = ("hide", "choose", "swap_out", "search", "alive", "force_all")
"""The kernel's functions, callees before callers (the order numba compiles them in)."""


INLINE = frozenset({"swap_out", "choose"})
"""Inlined into their callers by numba (``inline="always"``)."""

DECLARATION = Declaration(
    "cells",
    functions=FUNCTIONS,
    entries={"search": "Sii", "force_all": "Sa"},
    state=Cells,
    registers=(*(name for name, _ in LINK_REGISTERS), "ACTIVE", "FORCED", "SECOND"),
    dtypes=lambda: tuple("int64" if f == "REG" else np.dtype(DTYPE).name for f in FIELDS),
    inline=INLINE,
)
"""Dancing cells (SSXCC)."""
