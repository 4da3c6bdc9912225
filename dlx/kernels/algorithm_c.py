"""Algorithm C (Algorithm X with colors) on dancing links: the search, written once.

The functions here touch only the integer arrays described in [`dlx.links`][], through
indexing and integer arithmetic, so the very same source runs

* as plain Python over ``list`` objects (the ``python`` backend), and
* compiled by numba over ``numpy.int64`` arrays (the ``numba`` backend, [`dlx.compiled`][]),
  which re-binds the module-level helper names to their compiled twins.

The backend-specific pieces are [`choose`][], the choice of the item to branch on, which
the python backend replaces with a scan in C, and the constant ``INACTIVE``, which depends
on the array type of ``LEN``; [`dlx.backend`][] re-binds both. The strategies for hard
instances are switched on the same way, as constants (``WEIGHTED``: the weighted choice;
``REDUCE``: the lookahead), so that the default search compiles without them.

The search is *resumable*: [`search`][] runs until it finds a solution, exhausts the
tree, or reaches a node budget, then returns a status; its whole state lives in the arrays
plus ``REG``, so calling it again continues exactly where it stopped. This is what gives
lazy iteration, budgets, time-outs and Ctrl-C with a compiled kernel. There is no
recursion: the levels of the tree are an explicit loop with the choices in ``CHOICE``.

Step labels follow Knuth's Algorithm C (TAOCP 7.2.2.1): C2 enter a level, C3 choose an
item, C4 cover it, C5 try an option, C6 try again, C7 backtrack, C8 leave the level.
Counting follows DLX1/DLX2 exactly: ``nodes`` counts entries to C2, ``updates`` counts one
per item covered plus one per node removed from a list.

Reference counting: compiled, a function that holds arrays counts references to them (an
atomic add and subtract each) unless numba's pruning pass can pair them, which it cannot
when the arrays' last uses differ between the ways out of a loop or a function (LLVM merges
the releases). So the loops run per node or per forced option ([`choose_weighted`][],
the batch's [`force_instance`][], which [`force_all`][] calls, [`record_first`][]) have
one way out and bind the state's arrays once; [`force`][] keeps its two, for its callers
in Python.
"""

from __future__ import annotations

from ..links import INACTIVE
from ..state import (
    REG_LEVEL,
    REG_MAX_LEVEL,
    REG_NODES,
    REG_PRIMARY_END,
    REG_RESUME,
    REG_SOLUTIONS,
    REG_TRAIL_TOP,
    REG_UPDATES,
    REGISTERS,
    State,
)
from .codes import COMPLETE, CONFLICT, ENTER, INVALID, LEAVE, LIMIT, MAX_NODES
from .declare import Declaration
from .lookahead import reduce, restore
from .record import B_FIRST, B_SIZE

COLORS = True
"""False in a kernel compiled for problems without colors (every ``COLOR`` is 0): numba
then folds each color test (``COLOR[q] >= 0 or not COLORS``) to True and drops its load,
which leaves DLX1's loops (4% off a pentomino count, 6% off Sudoku). Plain Python never
reads it in the common case, since the color test comes first."""

WALK = True
"""False in the compiled kernels for problems of at most [`SCAN_ITEMS`][] primary items,
where [`choose`][] never walks: numba folds the test away (a Sudoku search ~2% faster)."""

WEIGHTED = False
"""True in the kernels of the weighted choice (dom/wdeg, as Knuth's SSXCC): [`choose`][]
branches on the least ``LEN / WEIGHT`` and adds 1 to the weight of an item it finds empty
(a wipe-out). False, the default, is Knuth's choice; numba folds the test away."""

REDUCE = False
"""True in the kernels of the lookahead ([`reduce`][]): at every node, before the
choice, options that an item's options dominate are hidden. False, the default: Knuth's
search, the test folded away by numba."""

SCAN_ITEMS = 1024
"""Up to this many primary items, [`choose`][] scans ``LEN`` as a vector; beyond, it
walks the active items first, so that a deep search of a huge problem pays for the items
still active, not for all of them (see [`choose`][])."""

def cover(i, U, D, TOP, COLOR, LEN, LL, RL):
    """Remove item ``i`` from the active list and hide every option in its list."""
    left = LL[i]
    right = RL[i]
    RL[left] = right
    LL[right] = left
    LEN[i] += INACTIVE
    updates = 1
    p = D[i]
    while p != i:
        q = p + 1
        while q != p:
            x = TOP[q]
            u = U[q]
            if x <= 0:  # a spacer: continue with the first node of this option
                q = u
                continue
            if COLOR[q] >= 0 or not COLORS:
                d = D[q]
                D[u] = d
                U[d] = u
                LEN[x] -= 1
                updates += 1
            q += 1
        p = D[p]
    return updates


def uncover(i, U, D, TOP, COLOR, LEN, LL, RL):
    """Undo [`cover`][] of item ``i``: restore its options, then put it back in the list.

    Like Knuth's ``uncover`` it walks the item's list upward and each option leftward, the
    exact reverse of [`cover`][]. Each node's links are loaded before the spacer test
    (as DLX1 does), so the loads overlap: compiled, 5% off a pentomino count.
    """
    p = U[i]
    while p != i:
        q = p - 1
        while q != p:
            x = TOP[q]
            d = D[q]
            if x <= 0:  # a spacer: continue with the last node of this option
                q = d
                continue
            if COLOR[q] >= 0 or not COLORS:
                D[U[q]] = q
                U[d] = q
                LEN[x] += 1
            q -= 1
        p = U[p]
    LEN[i] -= INACTIVE
    RL[LL[i]] = i
    LL[RL[i]] = i


def purify(p, U, D, TOP, COLOR, LEN):
    """Fix the color of node ``p``'s secondary item: hide the options that disagree.

    Options that agree are marked with color -1 so that choosing them later does nothing.
    """
    i = TOP[p]
    c = COLOR[p]
    COLOR[i] = c
    updates = 0
    r = D[i]
    while r != i:
        if COLOR[r] != c:
            q = r + 1
            while q != r:
                x = TOP[q]
                if x <= 0:
                    q = U[q]
                    continue
                if COLOR[q] >= 0 or not COLORS:
                    u = U[q]
                    d = D[q]
                    D[u] = d
                    U[d] = u
                    LEN[x] -= 1
                    updates += 1
                q += 1
        elif r != p:
            COLOR[r] = -1
        r = D[r]
    return updates


def unpurify(p, U, D, TOP, COLOR, LEN):
    """Undo [`purify`][] of node ``p``, walking the item's list upward.

    Unlike DLX2 it also clears the header's display color, so that a finished search
    leaves every array exactly as it found it.
    """
    i = TOP[p]
    c = COLOR[p]
    COLOR[i] = 0
    r = U[i]
    while r != i:
        if COLOR[r] < 0:
            COLOR[r] = c
        elif r != p:
            q = r - 1
            while q != r:
                x = TOP[q]
                if x <= 0:  # a spacer: continue with the last node of this option
                    q = D[q]
                    continue
                if COLOR[q] >= 0 or not COLORS:
                    D[U[q]] = q
                    U[D[q]] = q
                    LEN[x] += 1
                q -= 1
        r = U[r]


def commit(p, U, D, TOP, COLOR, LEN, LL, RL):
    """Cover or purify every item of ``p``'s option except ``p``'s own, going right."""
    updates = 0
    q = p + 1
    while q != p:
        j = TOP[q]
        if j <= 0:
            q = U[q]
            continue
        c = COLOR[q]
        if c == 0 or not COLORS:
            updates += cover(j, U, D, TOP, COLOR, LEN, LL, RL)
        elif c > 0:
            updates += purify(q, U, D, TOP, COLOR, LEN)
        q += 1
    return updates


def uncommit(p, U, D, TOP, COLOR, LEN, LL, RL):
    """Undo [`commit`][], going left, so that every cover is undone in reverse order."""
    q = p - 1
    while q != p:
        j = TOP[q]
        if j <= 0:
            q = D[q]
            continue
        c = COLOR[q]
        if c == 0 or not COLORS:
            uncover(j, U, D, TOP, COLOR, LEN, LL, RL)
        elif c > 0:
            unpurify(q, U, D, TOP, COLOR, LEN)
        q -= 1


def choose(LEN, LL, RL, REG):
    """C3: the active primary item with fewest options, the first such in item order.

    Knuth walks the list of active items from ``RL[0]``; with up to [`SCAN_ITEMS`][]
    primary items this reads ``LEN[1..N1]`` in order instead, where a covered item carries
    the ``INACTIVE`` offset and so never wins. Both find the same item, because the active
    list is always in item order (covers are undone in reverse). It takes
    two passes, the least length, then the first item that has it: compiled, the first
    pass is a vector loop (SIMD) and the second stops early, which made a Sudoku search
    2.5x faster than Knuth's walk, whose every step waits on the ``RL`` load before it.

    With more primary items a scan of all of them at every node makes a deep search
    quadratic, so the walk comes first: it follows ``RL`` for at most ``N1 / 64`` items
    and, if the list goes on, scans the lengths from there to the last active item as
    above ([`choose_walk`][]). The cost is then that of Knuth's walk while the active
    items are few (< N1 / 64), and at most a vector scan of the active list's span.
    Measured (numba, one option per item, 100,000 deep): 0.6 s, 2.1 s with the full
    scan; python (memchr over bytes) 0.34 s.
    """
    end = REG[REG_PRIMARY_END]
    if WALK and end > SCAN_ITEMS:
        return choose_walk(LEN, LL, RL, end)
    t = INACTIVE
    for k in range(1, end):
        t = min(t, LEN[k])
    k = 1
    while LEN[k] != t:  # some active item has length t: it is there (see search)
        k += 1
    return k


def choose_walk(LEN, LL, RL, end):
    """[`choose`][] for many primary items: Knuth's walk for ``end // 64`` steps,
    then (if the list goes on) the two passes of [`choose`][] over the lengths from
    there to the last active item ``LL[0]``, which are in item order; the same item."""
    best = 0
    t = INACTIVE
    k = RL[0]
    steps = end >> 6
    while k != 0 and steps > 0:
        s = LEN[k]
        if s < t:
            best = k
            t = s
            if s == 0:
                return best
        k = RL[k]
        steps -= 1
    if k != 0:  # the rest: items k..LL[0], where covered ones carry INACTIVE
        last = LL[0] + 1
        u = INACTIVE
        for j in range(k, last):  # a vector loop, as in choose
            u = min(u, LEN[j])
        if u < t:
            best = k
            while LEN[best] != u:
                best += 1
    return best


def choose_weighted(LEN, LL, RL, WEIGHT):
    """C3 of the weighted choice, as Knuth's SSXCC: an active primary item with no
    option left (a wipe-out: it gains 1 in weight, and the search backtracks), else one
    with a single option (forced), else the one of least ``LEN / WEIGHT``; the first such
    in item order. Scans the span of the active list, ``RL[0]..LL[0]``, where covered
    items carry ``INACTIVE``."""
    best = 0
    t = INACTIVE
    w = 1
    k = RL[0]
    last = LL[0]
    while k <= last:  # one way out (compiled, a return in the loop costs a reference count
        s = LEN[k]  # of LEN and WEIGHT at every node: see "Reference counting" above)
        if s <= 1:
            if s == 0:
                WEIGHT[k] += 1
                best = k
                last = 0  # the scan stops here
            elif t > 1:
                best = k
                t = 1
        elif t > 1 and s < INACTIVE and (best == 0 or s * w < t * WEIGHT[k]):
            best = k
            t = s
            w = WEIGHT[k]
        k += 1
    return best


def search(S, node_stop, solution_stop):
    """Run Algorithm C on the state ``S`` until a solution, the end, or a budget.

    Returns LIMIT when ``REG[REG_SOLUTIONS]`` reaches ``solution_stop`` (the solution's nodes
    are ``CHOICE[0:REG[REG_LEVEL]]``), MAX_NODES when ``REG[REG_NODES]`` reaches ``node_stop``
    before entering a new node, COMPLETE when the tree is exhausted. Solutions found before
    ``solution_stop`` are only counted, which is how counting avoids a return per solution.
    """
    U = S.U
    D = S.D
    TOP = S.TOP
    COLOR = S.COLOR
    LEN = S.LEN
    LL = S.LL
    RL = S.RL
    CHOICE = S.CHOICE
    REG = S.REG
    WEIGHT = S.WEIGHT  # bound once, not at every node (see "Reference counting" above)
    level = REG[REG_LEVEL]
    nodes = REG[REG_NODES]
    updates = REG[REG_UPDATES]
    solutions = REG[REG_SOLUTIONS]
    max_level = REG[REG_MAX_LEVEL]
    step = REG[REG_RESUME]
    status = COMPLETE
    i = 0
    x = 0
    while True:
        if step == ENTER:
            # C2: enter a level; a node of the search tree.
            if REDUCE:
                S.TRAIL_AT[level] = REG[REG_TRAIL_TOP]
            if nodes >= node_stop:
                status = MAX_NODES
                break
            nodes += 1
            if level > max_level:
                max_level = level
            if RL[0] == 0:  # every primary item is covered: CHOICE[0:level] is a solution
                solutions += 1
                step = LEAVE
                if solutions >= solution_stop:
                    status = LIMIT
                    break
                continue
            if REDUCE:  # the lookahead, then C3
                updates += reduce(S)
            i = choose_weighted(LEN, LL, RL, WEIGHT) if WEIGHTED else choose(LEN, LL, RL,
                                                                               REG)  # C3
            updates += cover(i, U, D, TOP, COLOR, LEN, LL, RL)  # C4
            x = D[i]
            CHOICE[level] = x
        else:
            # C8: leave the level, then C6: undo the option tried there and take the next.
            if REDUCE:
                restore(S, level)
            if level == 0:
                break
            level -= 1
            x = CHOICE[level]
            i = TOP[x]
            uncommit(x, U, D, TOP, COLOR, LEN, LL, RL)
            x = D[x]
            CHOICE[level] = x
        if x == i:
            # C7: no option left for item i: backtrack.
            uncover(i, U, D, TOP, COLOR, LEN, LL, RL)
            step = LEAVE
        else:
            # C5: try option x, and go down a level.
            updates += commit(x, U, D, TOP, COLOR, LEN, LL, RL)
            level += 1
            step = ENTER
    REG[REG_LEVEL] = level
    REG[REG_NODES] = nodes
    REG[REG_UPDATES] = updates
    REG[REG_SOLUTIONS] = solutions
    REG[REG_MAX_LEVEL] = max_level
    REG[REG_RESUME] = step
    return status


def excluded(p, U, D, TOP, LEN):
    """True when options forced earlier exclude the option of node ``p``: an item of it
    is covered, or a node of it is hidden (its option left the lists)."""
    q = p
    while True:
        if LEN[TOP[q]] >= INACTIVE or D[U[q]] != q:
            return True
        q += 1
        if TOP[q] <= 0:  # a spacer: continue with the first node of this option
            q = U[q]
        if q == p:
            return False


def force(p, U, D, TOP, COLOR, LEN, LL, RL):
    """Select the option of node ``p`` before the search, as C4 and C5 do: cover ``p``'s
    item, then commit ``p``. ``p`` must be a node of a primary item.

    Returns the updates, or -1, changing nothing, when options forced earlier exclude this
    one ([`excluded`][]). Compiled, its two ways out make numba count references to its
    seven arrays at each call, so [`force_instance`][] (which [`force_all`][] calls) spells
    it out, its arrays bound once (see "Reference counting" above).
    """
    if excluded(p, U, D, TOP, LEN):
        return -1
    return cover(TOP[p], U, D, TOP, COLOR, LEN, LL, RL) + commit(p, U, D, TOP, COLOR, LEN,
                                                                 LL, RL)


def unforce(p, U, D, TOP, COLOR, LEN, LL, RL):
    """Undo [`force`][] of the option of node ``p`` (or C5 and C4 of a search level
    that chose it): uncommit it, then uncover its item."""
    uncommit(p, U, D, TOP, COLOR, LEN, LL, RL)
    uncover(TOP[p], U, D, TOP, COLOR, LEN, LL, RL)


def force_all(S, FORCED):
    """Force the options ``FORCED`` in turn (valid, distinct option numbers), from their
    nodes ``S.FORCING``; one call for all (compiled, numba's cost of a call is paid once).

    Returns -1, or the index in ``FORCED`` of the first one that earlier ones exclude (the
    state then holds the earlier ones forced).
    """
    status, f = force_instance(S, FORCED, 0, len(FORCED))  # FORCED valid: never INVALID
    return -1 if status == COMPLETE else f


# ----- the batch protocol's steps (dlx.kernels.record) ----------------------------------


def force_instance(S, FORCED, f, end):
    """B1 of [`search_batch`][]: force ``FORCED[f:end]`` in turn. Returns the status
    (COMPLETE when all are taken, else INVALID or CONFLICT) and the index of the first
    option not taken (``end`` when all are)."""
    U = S.U
    D = S.D
    TOP = S.TOP
    COLOR = S.COLOR
    LEN = S.LEN
    LL = S.LL
    RL = S.RL
    FORCING = S.FORCING
    status = COMPLETE
    while f < end and status == COMPLETE:  # one way out (see "Reference counting" above)
        o = FORCED[f]
        if o < 0 or o >= len(FORCING) or FORCING[o] < 0:
            status = INVALID
        elif excluded(FORCING[o], U, D, TOP, LEN):
            status = CONFLICT
        else:
            p = FORCING[o]
            cover(TOP[p], U, D, TOP, COLOR, LEN, LL, RL)  # force, spelled out (see force)
            commit(p, U, D, TOP, COLOR, LEN, LL, RL)
            f += 1
    return status, f


def undo_instance(S, FORCED, first, f):
    """B4 of [`search_batch`][]: C8 at every level the search still holds, then unforce
    ``FORCED[first:f]``, last first. The arrays are then as they were before B1."""
    U = S.U
    D = S.D
    TOP = S.TOP
    COLOR = S.COLOR
    LEN = S.LEN
    LL = S.LL
    RL = S.RL
    CHOICE = S.CHOICE
    FORCING = S.FORCING
    level = S.REG[REG_LEVEL]
    while level > 0:
        level -= 1
        unforce(CHOICE[level], U, D, TOP, COLOR, LEN, LL, RL)
    S.REG[REG_LEVEL] = 0
    while f > first:
        f -= 1
        unforce(FORCING[FORCED[f]], U, D, TOP, COLOR, LEN, LL, RL)


def record_first(S, FORCED, first, end, OUT, base, width):
    """B3 of [`search_batch`][], at the first solution: its size and (if at most
    ``width``) its options, the forced ones first, then the search's choices (an option's
    number is read off the spacer after its node: ``-(number + 1)``)."""
    TOP = S.TOP
    size = end - first + S.REG[REG_LEVEL]
    OUT[base + B_SIZE] = size
    fits = size <= width  # no branch around the loops (see "Reference counting" above)
    for j in range(end - first if fits else 0):
        OUT[base + B_FIRST + j] = FORCED[first + j]
    for j in range(S.REG[REG_LEVEL] if fits else 0):
        x = S.CHOICE[j]
        while TOP[x] > 0:
            x += 1
        OUT[base + B_FIRST + end - first + j] = -TOP[x] - 1


DECLARATION = Declaration(
    "algorithm_c",
    functions=("cover", "uncover", "purify", "unpurify", "commit", "uncommit", "choose_walk",
               "choose_weighted", "choose", "search", "excluded", "force", "unforce",
               "force_all", "force_instance", "undo_instance", "record_first"),
    entries={"search": "Sii", "force_all": "Sa", "search_batch": "Saaaaiiii"},
    state=State,
    registers=tuple(name for name, _ in REGISTERS),
    borrows=("lookahead", "record", "batch"),
    switches={"COLORS": COLORS, "WALK": WALK, "WEIGHTED": WEIGHTED, "REDUCE": REDUCE},
    inline=frozenset({"begin", "force_instance", "undo_instance", "record_first", "record",
                      "choose"}),
)
"""Algorithm C: its steps, the lookahead and the batch driver over one namespace. The
batch's steps are inlined into ``search_batch`` by numba: passed the state as a call,
they cost a Sudoku batch of one ~3 us."""
