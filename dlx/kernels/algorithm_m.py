"""Algorithm M (multiplicities, Knuth's DLX3) with costs (DLX5's pruning): the search of
problems whose primary items are covered ``u..v`` times, or whose options cost something.

Like [`dlx.kernels.algorithm_c`][] the functions touch only integer arrays ([`dlx.links`][]
describes them; this kernel also reads ``BOUND``, ``SLACK``, ``TWEAK`` and ``COST``), so
the very same source runs in Python over lists and compiled by numba, through
[`dlx.kernels.declare.namespace`][]. It reuses the kernel's ``cover``, ``uncover``, ``purify``
and ``unpurify``, and the batch driver ``search_batch`` calls this module's ``search``,
``force_instance``, ``undo_instance`` and ``record_first`` in a namespace where they
replace the kernel's.

Step labels follow Algorithm M (TAOCP 7.2.2.1, "exact covering with multiplicities and
colors"; DLX3's labels in brackets): M2 enter a level [forward], M3 choose an item, M4
prepare to branch on it, M5 possibly tweak the option [advance], M6 try it, M7 go down,
M8 restore the item [backup], M9 leave the level [backdown]. With bounds ``u..v`` an item's residual
capacity ``BOUND`` starts at ``v`` and its ``SLACK`` is ``v - u``. An item whose bound
falls to 0 with no slack is covered as in Algorithm C; otherwise the options of its list
are *tweaked* one at a time (hidden, the first first), each chosen option leaving the
item active for the levels below, and the last branch is the *null move* that sets the
item aside when it may take no more. The choice of item minimizes DLX3's score ``l + s -
b + 1`` (``l`` the list length, ``b = BOUND``, ``s = min(SLACK, b)``): the branching degree;
ties go to the smaller ``s``, then the larger ``l``, then the first item in the active
list. ``nodes`` and ``updates`` count as DLX3's do: one update per item covered, one per
node removed from a list, tweaks included.

Costs: ``COST`` is each node's option's net cost (sorted lists, see [`dlx.links`][]);
``REG[REG_SPENT]`` the net cost of the options chosen, ``REG[REG_CUTOFF]`` the net cost at which
a partial solution is abandoned (the k-th best found so far, set by the driver between
calls). With a cutoff, M3 abandons a node when some item that still needs an option has
none cheaper than what is left (DLX5's bound: the partial cost plus the largest of those
items' cheapest options) and scores items by the options they have under the cutoff (as
DLX5 counts branches), and M5 skips an option that would reach the cutoff (in a list
sorted by cost, the rest of the list too unless the item may take a null move).
Without a cutoff (``NO_CUTOFF``) none of this runs: a search with costs but no bound is
DLX3's on the item lists sorted by cost.

Compiled, a function that takes arrays counts references to them (an atomic add and
subtract each) unless numba's pruning pass can pair them, which it cannot in a function
with a path that raises (``%``'s ZeroDivisionError), or whose branches last use different
arrays (LLVM merges the releases). So the functions that run at every node (``choose``,
``restore``, M9's ``reinstate``) read what they test up front, store on every path and
divide with ``np.remainder``: with 14 such pairs a node (``perf``: ~45% of the time in
``NRT_incref``/``NRT_decref``), a count of ``mcc_rowcol6_2`` took 5x DLX3's time; without,
0.63x (``docs/decisions.md``, "Multiplicities and costs").
"""

from __future__ import annotations

import numpy as np

from ..links import INACTIVE, NO_CUTOFF
from ..state import (
    REG_CUTOFF,
    REG_LEVEL,
    REG_MAX_LEVEL,
    REG_NODES,
    REG_PRIMARY_END,
    REG_RESUME,
    REG_SEED,
    REG_SOLUTIONS,
    REG_SPENT,
    REG_UPDATES,
    REGISTERS,
    State,
)
from .algorithm_c import COLORS, cover, purify, uncover, unpurify
from .codes import COMPLETE, CONFLICT, ENTER, INVALID, LEAVE, LIMIT, MAX_NODES
from .declare import Declaration
from .record import B_FIRST, B_SIZE

__all__ = ["FUNCTIONS", "NO_CUTOFF", "search"]

AFFORD = 10  # M3 counts at most this many options cheaper than the cutoff (DLX5's h)

FUNCTIONS = ("cover", "uncover", "purify", "unpurify", "tweak", "untweak", "commit",
             "uncommit", "choose", "restore", "reinstate", "leave", "search", "force", "unforce",
             "force_all", "force_instance", "undo_instance", "record_first")
"""This kernel's functions, callees before callers (``cover``, ``uncover``, ``purify``
and ``unpurify`` Algorithm C's, imported; the batch driver borrowed: [`DECLARATION`][])."""


def tweak(x, block, U, D, TOP, COLOR, LEN):
    """Hide the option of node ``x``, the first in its item's list: remove its nodes from
    their lists, ``x`` itself last; with ``block`` 0 (the item is covered, so the option's
    other nodes are hidden already) only ``x``. Returns the updates."""
    updates = 0
    q = x + 1 if block else x
    while True:
        t = TOP[q]
        if t <= 0:  # a spacer: continue with the first node of this option
            q = U[q]
            continue
        if COLOR[q] >= 0 or not COLORS:
            u = U[q]
            d = D[q]
            D[u] = d
            U[d] = u
            LEN[t] -= 1
            updates += 1
        if q == x:
            break
        q += 1
    return updates


def untweak(i, first, unblock, U, D, TOP, COLOR, LEN, LL, RL):
    """Undo the tweaks of item ``i``'s level, whose first tweaked node is ``first``: put
    the tweaked nodes back at the top of ``i``'s list (they still point down to one
    another) and, with ``unblock``, their options' other nodes into their lists; without
    it, the item was covered, so uncover it (its list whole again)."""
    last = D[i]
    D[i] = first
    above = i
    k = 0
    x = first
    while x != last:
        U[x] = above
        k += 1
        if unblock:
            q = x + 1
            while q != x:
                t = TOP[q]
                if t <= 0:
                    q = U[q]
                    continue
                if COLOR[q] >= 0 or not COLORS:
                    D[U[q]] = q
                    U[D[q]] = q
                    LEN[t] += 1
                q += 1
        above = x
        x = D[x]
    U[last] = above
    LEN[i] += k
    if not unblock:
        uncover(i, U, D, TOP, COLOR, LEN, LL, RL)


def commit(x, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND):
    """M6: the other items of ``x``'s option, going right: a primary item's bound drops
    by one (covered when it reaches 0), a secondary item is covered or purified."""
    updates = 0
    q = x + 1
    while q != x:
        j = TOP[q]
        if j <= 0:
            q = U[q]
            continue
        if j < end:
            BOUND[j] -= 1
            if BOUND[j] == 0:
                updates += cover(j, U, D, TOP, COLOR, LEN, LL, RL)
        else:
            c = COLOR[q]
            if c == 0 or not COLORS:
                updates += cover(j, U, D, TOP, COLOR, LEN, LL, RL)
            elif c > 0:
                updates += purify(q, U, D, TOP, COLOR, LEN)
        q += 1
    return updates


def uncommit(x, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND):
    """Undo [`commit`][], going left."""
    q = x - 1
    while q != x:
        j = TOP[q]
        if j <= 0:
            q = D[q]
            continue
        if j < end:
            if BOUND[j] == 0:
                uncover(j, U, D, TOP, COLOR, LEN, LL, RL)
            BOUND[j] += 1
        else:
            c = COLOR[q]
            if c == 0 or not COLORS:
                uncover(j, U, D, TOP, COLOR, LEN, LL, RL)
            elif c > 0:
                unpurify(q, U, D, TOP, COLOR, LEN)
        q -= 1


def choose(LEN, RL, D, BOUND, SLACK, COST, REG, pruning, budget):
    """M3: the active item of least score ``l + s - b + 1`` (DLX3's rule, above), its
    score (``INACTIVE`` when no item is active: a solution), and, if ``pruning``, the
    lower bound on what the rest must cost: the largest, over the items that still need
    an option (``b > SLACK``), of the cheapest option left in the list. Walks the active
    list as DLX3 does; a nonzero ``REG[REG_SEED]`` breaks full ties at random.

    When pruning, ``l`` counts only the options cheaper than ``budget`` (what is left
    below the cutoff), as DLX5 counts its branches: its lists are sorted by cost, so the
    count stops at the first dear one, or after [`AFFORD`][] options (then ``l`` is
    the list's length, an upper bound)."""
    score = INACTIVE
    best = 0
    best_s = 0
    best_l = 0
    ties = 0
    least = 0
    seed = REG[REG_SEED]
    k = RL[0]
    while k != 0:
        b = BOUND[k]
        s = SLACK[k]
        if s > b:
            s = b
        length = LEN[k]
        if pruning and length > 0:
            p = D[k]
            if b > SLACK[k] and COST[p] > least:
                least = COST[p]
            n = 0
            while p != k and n < AFFORD and COST[p] < budget:
                n += 1
                p = D[p]
            if p == k or COST[p] >= budget:
                length = n
        t = length + s - b + 1
        if t <= score:
            if t < score or s < best_s or (s == best_s and length > best_l):
                score = t
                best = k
                best_s = s
                best_l = length
                ties = 1
            elif s == best_s and length == best_l and seed != 0:
                ties += 1
                seed = seed * 48271 % 2147483647
                if np.remainder(seed, ties) == 0:  # no ZeroDivisionError path (module note)
                    best = k
        k = RL[k]
    REG[REG_SEED] = seed  # unchanged when 0; stored on every path (module note)
    return best, score, least


def restore(i, first, U, D, TOP, COLOR, LEN, LL, RL, BOUND, SLACK):
    """M8: undo M4 for item ``i`` (``first``: the level's first tweaked node): uncover it
    or untweak its options, and give its bound back."""
    b = BOUND[i]
    s = SLACK[i]
    if b == 0 and s == 0:
        uncover(i, U, D, TOP, COLOR, LEN, LL, RL)
    else:
        untweak(i, first, b, U, D, TOP, COLOR, LEN, LL, RL)
    BOUND[i] = b + 1


def reinstate(i, LL, RL):
    """Undo M5's null move of item ``i``: put it back in the active list."""
    RL[LL[i]] = i
    LL[RL[i]] = i


def leave(x, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND):
    """M9 for the move ``x`` of a level: a null move (``x`` is the item's header, whose
    ``TOP`` is 0) puts the item back in the active list; an option is uncommitted.
    Returns the item the level branched on."""
    if TOP[x] <= 0:
        reinstate(x, LL, RL)
        return x
    uncommit(x, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND)
    return TOP[x]


def search(S, node_stop, solution_stop):
    """Run Algorithm M on the state ``S`` until a solution, the end, or a budget: the
    same contract as [`dlx.kernels.algorithm_c.search`][] (registers, statuses, resumption). A
    solution's moves are ``CHOICE[0:REG[REG_LEVEL]]``: option nodes, and item headers for
    the null moves. ``REG[REG_SPENT]`` is its net cost."""
    U = S.U
    D = S.D
    TOP = S.TOP
    COLOR = S.COLOR
    LEN = S.LEN
    LL = S.LL
    RL = S.RL
    CHOICE = S.CHOICE
    REG = S.REG
    BOUND = S.BOUND
    SLACK = S.SLACK
    TWEAK = S.TWEAK
    COST = S.COST
    end = REG[REG_PRIMARY_END]
    level = REG[REG_LEVEL]
    nodes = REG[REG_NODES]
    updates = REG[REG_UPDATES]
    solutions = REG[REG_SOLUTIONS]
    max_level = REG[REG_MAX_LEVEL]
    cost = REG[REG_SPENT]
    cutoff = REG[REG_CUTOFF]
    pruning = cutoff < NO_CUTOFF
    step = REG[REG_RESUME]
    status = COMPLETE
    i = 0
    x = 0
    while True:
        if step == ENTER:
            # M2: enter a level; a node of the search tree.
            if nodes >= node_stop:
                status = MAX_NODES
                break
            nodes += 1
            if level > max_level:
                max_level = level
            if RL[0] == 0:  # no active item: CHOICE[0:level] is a solution
                solutions += 1
                step = LEAVE
                if solutions >= solution_stop:
                    status = LIMIT
                    break
                continue
            i, score, least = choose(LEN, RL, D, BOUND, SLACK, COST, REG, pruning,  # M3
                                     cutoff - cost)
            if score <= 0 or (pruning and cost + least >= cutoff):
                step = LEAVE  # too few options left, or too dear: back up (DLX3, DLX5)
                continue
            # M4: prepare to branch on i.
            x = D[i]
            CHOICE[level] = x
            BOUND[i] -= 1
            TWEAK[level] = 0
            if BOUND[i] == 0 and SLACK[i] == 0:
                updates += cover(i, U, D, TOP, COLOR, LEN, LL, RL)
            else:
                TWEAK[level] = x
                if BOUND[i] == 0:
                    updates += cover(i, U, D, TOP, COLOR, LEN, LL, RL)
        else:
            # M9: leave a level; then M5 with the next option of its item.
            if level == 0:
                break
            level -= 1
            x = CHOICE[level]
            if TOP[x] <= 0:  # a null move was the last branch: M8 (leave, spelled out)
                reinstate(x, LL, RL)
                restore(x, TWEAK[level], U, D, TOP, COLOR, LEN, LL, RL, BOUND, SLACK)
                continue
            cost -= COST[x]
            uncommit(x, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND)
            i = TOP[x]
            x = D[x]
            CHOICE[level] = x
        while True:
            # M5: possibly tweak x; or go to M8 when the item has no branch left.
            if BOUND[i] == 0 and SLACK[i] == 0:
                if x == i or (pruning and cost + COST[x] >= cutoff):
                    x = -1  # every option tried (or the rest, sorted by cost, too dear)
                break
            if LEN[i] <= BOUND[i] - SLACK[i]:
                x = -1  # too few options left to meet the item's lower bound
                break
            if x == i:  # the null move: the item takes no more options
                if BOUND[i] != 0:
                    RL[LL[i]] = RL[i]
                    LL[RL[i]] = LL[i]
                break
            updates += tweak(x, BOUND[i], U, D, TOP, COLOR, LEN)
            if not pruning or cost + COST[x] < cutoff:
                break
            x = D[x]  # too dear: skip it (it stays tweaked) and try the next
            CHOICE[level] = x
        if x < 0:
            # M8: restore item i, then M9.
            restore(i, TWEAK[level], U, D, TOP, COLOR, LEN, LL, RL, BOUND, SLACK)
            step = LEAVE
            continue
        if x != i:
            # M6: try option x.
            updates += commit(x, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND)
            cost += COST[x]
        # M7: go down a level.
        level += 1
        step = ENTER
    REG[REG_LEVEL] = level
    REG[REG_NODES] = nodes
    REG[REG_UPDATES] = updates
    REG[REG_SOLUTIONS] = solutions
    REG[REG_MAX_LEVEL] = max_level
    REG[REG_RESUME] = step
    REG[REG_SPENT] = cost
    return status


# ----- forced options and batches -------------------------------------------------------


def force(p, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND):
    """Take the option of node ``p`` before the search: hide it (it is chosen once), then
    commit every item of it, ``p``'s own included. Returns -1, changing nothing, when
    options forced earlier exclude it: a primary item of it has no capacity left, a
    secondary one is covered, or a node of it is hidden."""
    q = p
    while True:
        j = TOP[q]
        if (j < end and BOUND[j] == 0) or LEN[j] >= INACTIVE or D[U[q]] != q:
            return -1
        q += 1
        if TOP[q] <= 0:
            q = U[q]
        if q == p:
            break
    updates = tweak(p, 1, U, D, TOP, COLOR, LEN)
    BOUND[TOP[p]] -= 1
    if BOUND[TOP[p]] == 0:
        updates += cover(TOP[p], U, D, TOP, COLOR, LEN, LL, RL)
    return updates + commit(p, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND)


def unforce(p, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND):
    """Undo [`force`][] of the option of node ``p``: uncommit it, give its item's
    bound back, then put its nodes back in their lists (``p`` first, then leftward)."""
    uncommit(p, end, U, D, TOP, COLOR, LEN, LL, RL, BOUND)
    i = TOP[p]
    if BOUND[i] == 0:
        uncover(i, U, D, TOP, COLOR, LEN, LL, RL)
    BOUND[i] += 1
    q = p
    while True:
        if COLOR[q] >= 0 or not COLORS:
            D[U[q]] = q
            U[D[q]] = q
            LEN[TOP[q]] += 1
        q -= 1
        if TOP[q] <= 0:  # a spacer: continue with the last node of this option
            q = D[q]
        if q == p:
            break


def force_all(S, FORCED):
    """[`dlx.kernels.algorithm_c.force_all`][] for this kernel: force ``FORCED`` in turn; -1, or the
    index of the first one that earlier ones exclude."""
    end = S.REG[REG_PRIMARY_END]
    for f in range(len(FORCED)):
        if force(S.FORCING[FORCED[f]], end, S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL,
                 S.BOUND) < 0:
            return f
    return -1


def force_instance(S, FORCED, f, end):
    """B1 of [`dlx.kernels.batch.search_batch`][] for this kernel (same contract)."""
    FORCING = S.FORCING
    primary_end = S.REG[REG_PRIMARY_END]
    while f < end:
        o = FORCED[f]
        if o < 0 or o >= len(FORCING) or FORCING[o] < 0:
            return INVALID, f
        if force(FORCING[o], primary_end, S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL,
                 S.BOUND) < 0:
            return CONFLICT, f
        f += 1
    return COMPLETE, f


def undo_instance(S, FORCED, first, f):
    """B4 of [`dlx.kernels.batch.search_batch`][] for this kernel: M9 and M8 at every level
    the search still holds, then unforce ``FORCED[first:f]``, last first."""
    end = S.REG[REG_PRIMARY_END]
    level = S.REG[REG_LEVEL]
    while level > 0:
        level -= 1
        x = S.CHOICE[level]
        i = leave(x, end, S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL, S.BOUND)
        restore(i, S.TWEAK[level], S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL, S.BOUND,
                S.SLACK)
    S.REG[REG_LEVEL] = 0
    S.REG[REG_SPENT] = 0
    while f > first:
        f -= 1
        unforce(S.FORCING[FORCED[f]], end, S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL,
                S.BOUND)


def record_first(S, FORCED, first, end, OUT, base, width):
    """B3 of [`dlx.kernels.batch.search_batch`][] for this kernel: as the kernel's, the null
    moves left out."""
    TOP = S.TOP
    n = end - first
    for j in range(S.REG[REG_LEVEL]):
        if TOP[S.CHOICE[j]] > 0:
            n += 1
    OUT[base + B_SIZE] = n
    if n > width:
        return
    for j in range(end - first):
        OUT[base + B_FIRST + j] = FORCED[first + j]
    k = end - first
    for j in range(S.REG[REG_LEVEL]):
        x = S.CHOICE[j]
        if TOP[x] > 0:
            while TOP[x] > 0:
                x += 1
            OUT[base + B_FIRST + k] = -TOP[x] - 1
            k += 1


DECLARATION = Declaration(
    "algorithm_m",
    functions=FUNCTIONS,
    entries={"search": "Sii", "force_all": "Sa", "search_batch": "Saaaaiiii"},
    state=State,
    registers=tuple(name for name, _ in REGISTERS),
    borrows=("record", "batch"),
    switches={"COLORS": COLORS},
    inline=frozenset({"begin", "force_instance", "undo_instance", "record_first", "record"}),
)
"""Algorithm M: Algorithm C's ``cover`` and ``purify`` (imported), its own steps, the
batch driver over them."""
