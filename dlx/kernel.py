"""Algorithm C (Algorithm X with colors) on dancing links: the search, written once.

The functions here touch only the integer arrays described in :mod:`dlx.links`, through
indexing and integer arithmetic, so the very same source runs

* as plain Python over ``list`` objects (the ``python`` backend), and
* compiled by numba over ``numpy.int64`` arrays (the ``numba`` backend, :mod:`dlx.compiled`),
  which re-binds the module-level helper names to their compiled twins.

The backend-specific pieces are :func:`choose`, the choice of the item to branch on, which
the python backend replaces with a scan in C, and the constant ``INACTIVE``, which depends
on the array type of ``LEN``; :mod:`dlx.backends` re-binds both.

The search is *resumable*: :func:`search` runs until it finds a solution, exhausts the
tree, or reaches a node budget, then returns a status; its whole state lives in the arrays
plus ``REG``, so calling it again continues exactly where it stopped. This is what gives
lazy iteration, budgets, time-outs and Ctrl-C with a compiled kernel. There is no
recursion: the levels of the tree are an explicit loop with the choices in ``CHOICE``.

Step labels follow Knuth's Algorithm C (TAOCP 7.2.2.1): C2 enter a level, C3 choose an
item, C4 cover it, C5 try an option, C6 try again, C7 backtrack, C8 leave the level.
Counting follows DLX1/DLX2 exactly: ``nodes`` counts entries to C2, ``updates`` counts one
per item covered plus one per node removed from a list.
"""

from __future__ import annotations

from .links import INACTIVE

# Indices into REG, the kernel's registers that persist between calls.
LEVEL = 0  # current level of the search tree (number of options chosen so far)
NODES = 1  # search-tree nodes entered (Knuth's "nodes")
UPDATES = 2  # link updates (Knuth's "updates")
SOLUTIONS = 3  # solutions found
RESUME = 4  # where the next call starts: ENTER a level (C2), or LEAVE one (C8)
SEED = 5  # state of the tie-break random generator; 0 = take the first item, as Knuth
MAX_LEVEL = 6  # deepest level reached
PRIMARY_END = 7  # N1 + 1: items 1..N1 are primary (read-only)
N_REGS = 8

COLORS = True
"""False in a kernel compiled for problems without colors (every ``COLOR`` is 0): numba
then folds each color test (``COLOR[q] >= 0 or not COLORS``) to True and drops its load,
which leaves DLX1's loops (4% off a pentomino count, 6% off Sudoku). Plain Python never
reads it in the common case, since the color test comes first."""

ENTER = 0
LEAVE = 1

# Status returned by search().
DONE = 0  # the tree is exhausted
SOLUTION = 1  # REG[SOLUTIONS] reached the requested stop; CHOICE[0:REG[LEVEL]] is the last one
PAUSED = 2  # REG[NODES] reached the node stop; nothing is lost
CONFLICT = 3  # search_batch only: an instance's forced options exclude one another
INVALID = 4  # search_batch only: an instance forces an option not in the problem (the highest)

# Layout of search_batch's record of one instance: these fields, then the first solution.
B_STATUS = 0  # DONE (all solutions counted), SOLUTION (the limit), PAUSED, CONFLICT, INVALID
B_SOLUTIONS = 1  # solutions found
B_NODES = 2  # nodes, updates and deepest level of the search after the forced options
B_UPDATES = 3
B_MAX_LEVEL = 4
B_SIZE = 5  # how many options the first solution has (0: none found), forced ones included
B_FIRST = 6  # from here: the options of the first solution (after a CONFLICT: the forced
# option that an earlier one excludes; after INVALID: the option that is not in the problem)


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
    """Undo :func:`cover` of item ``i``: restore its options, then put it back in the list.

    Like Knuth's ``uncover`` it walks the item's list upward and each option leftward, the
    exact reverse of :func:`cover`. Each node's links are loaded before the spacer test
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
    """Undo :func:`purify` of node ``p``, walking the item's list upward.

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
    """Undo :func:`commit`, going left, so that every cover is undone in reverse order."""
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


def choose(LEN, RL, REG):
    """C3: the active primary item with fewest options, the first such in item order.

    Knuth walks the list of active items from ``RL[0]``; this reads ``LEN[1..N1]`` in
    order instead, where a covered item carries the ``INACTIVE`` offset and so never
    wins. Both find the same item, because the active list is always in item order
    (covers are undone in reverse). Without a seed it takes two passes, the least length,
    then the first item that has it: compiled, the first pass is a vector loop (SIMD) and
    the second stops early, which made a Sudoku search 2.5x faster than Knuth's walk,
    whose every step waits on the ``RL`` load before it.

    With a nonzero ``REG[SEED]``, ties are broken uniformly at random (reservoir sampling
    with the Park-Miller generator, identical on every backend).
    """
    end = REG[PRIMARY_END]
    seed = REG[SEED]
    if seed == 0:
        t = INACTIVE
        for k in range(1, end):
            t = min(t, LEN[k])
        k = 1
        while LEN[k] != t:  # some active item has length t: it is there (see search)
            k += 1
        return k
    best = 0
    t = INACTIVE
    ties = 0
    for k in range(1, end):
        s = LEN[k]
        if s < t:
            best = k
            t = s
            ties = 1
        elif s == t and s < INACTIVE:
            ties += 1
            seed = seed * 48271 % 2147483647
            if seed % ties == 0:
                best = k
    REG[SEED] = seed
    return best


def search(U, D, TOP, COLOR, LEN, LL, RL, CHOICE, REG, node_stop, solution_stop):
    """Run Algorithm C from the state in ``REG`` until a solution, the end, or a budget.

    Returns SOLUTION when ``REG[SOLUTIONS]`` reaches ``solution_stop`` (the solution's
    nodes are ``CHOICE[0:REG[LEVEL]]``), PAUSED when ``REG[NODES]`` reaches ``node_stop``
    before entering a new node, DONE when the tree is exhausted. Solutions found before
    ``solution_stop`` are only counted, which is how counting avoids a return per solution.
    """
    level = REG[LEVEL]
    nodes = REG[NODES]
    updates = REG[UPDATES]
    solutions = REG[SOLUTIONS]
    max_level = REG[MAX_LEVEL]
    step = REG[RESUME]
    status = DONE
    i = 0
    x = 0
    while True:
        if step == ENTER:
            # C2: enter a level; a node of the search tree.
            if nodes >= node_stop:
                status = PAUSED
                break
            nodes += 1
            if level > max_level:
                max_level = level
            if RL[0] == 0:  # every primary item is covered: CHOICE[0:level] is a solution
                solutions += 1
                step = LEAVE
                if solutions >= solution_stop:
                    status = SOLUTION
                    break
                continue
            i = choose(LEN, RL, REG)  # C3
            updates += cover(i, U, D, TOP, COLOR, LEN, LL, RL)  # C4
            x = D[i]
            CHOICE[level] = x
        else:
            # C8: leave the level, then C6: undo the option tried there and take the next.
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
    REG[LEVEL] = level
    REG[NODES] = nodes
    REG[UPDATES] = updates
    REG[SOLUTIONS] = solutions
    REG[MAX_LEVEL] = max_level
    REG[RESUME] = step
    return status


def force(p, U, D, TOP, COLOR, LEN, LL, RL):
    """Select the option of node ``p`` before the search, as C4 and C5 do: cover ``p``'s
    item, then commit ``p``. ``p`` must be a node of a primary item.

    Returns the updates, or -1, changing nothing, when options forced earlier exclude this
    one: an item of it is covered, or a node of it is hidden (its option left the lists).
    """
    q = p
    while True:
        if LEN[TOP[q]] >= INACTIVE or D[U[q]] != q:
            return -1
        q += 1
        if TOP[q] <= 0:  # a spacer: continue with the first node of this option
            q = U[q]
        if q == p:
            break
    return cover(TOP[p], U, D, TOP, COLOR, LEN, LL, RL) + commit(p, U, D, TOP, COLOR, LEN,
                                                                 LL, RL)


def unforce(p, U, D, TOP, COLOR, LEN, LL, RL):
    """Undo :func:`force` of the option of node ``p`` (or C5 and C4 of a search level
    that chose it): uncommit it, then uncover its item."""
    uncommit(p, U, D, TOP, COLOR, LEN, LL, RL)
    uncover(TOP[p], U, D, TOP, COLOR, LEN, LL, RL)


def force_all(NODES, U, D, TOP, COLOR, LEN, LL, RL):
    """:func:`force` each node of ``NODES`` in turn; one call for all (compiled, numba's
    cost of a call is then paid once, not once per option).

    Returns -1, or the index in ``NODES`` of the first one that earlier ones exclude (the
    arrays then hold the earlier ones forced).
    """
    for f in range(len(NODES)):
        if force(NODES[f], U, D, TOP, COLOR, LEN, LL, RL) < 0:
            return f
    return -1


def search_batch(U, D, TOP, COLOR, LEN, LL, RL, CHOICE, REG, FORCING, FORCED, START, OUT,
                 BATCH, node_stop, solution_stop, width, slice_nodes):
    """Solve one problem once per instance, each with some options forced; one call for all
    (or a few: it returns after about ``slice_nodes`` search nodes, and resumes).

    Instance ``k`` forces the options ``FORCED[START[k]:START[k + 1]]`` in turn with
    :func:`force`, from their nodes ``FORCING[option]`` (the first node of a primary item;
    -1 for an option that has none). An option outside ``FORCING`` or without a node ends
    the instance with status INVALID; the first that an earlier one excludes, with status
    CONFLICT. Then :func:`search` runs from a fresh ``REG`` to ``solution_stop`` solutions
    or ``node_stop`` nodes, exactly as one search of the problem left once the forced
    options are taken. Finally everything is undone, last first (the search's levels, then
    the forced options), which leaves the arrays as they were for the next instance:
    cheaper than copying them afresh, since only what changed is touched. The arrays must
    therefore start in their pristine state.

    Record ``k`` of ``OUT`` (``B_FIRST + width`` slots from ``k * (B_FIRST + width)``,
    zero to begin with) receives the status, the solutions found, the search's nodes,
    updates and deepest level (the forcing is not counted), and the option numbers of the
    first solution: the forced ones, then the search's choices; after a CONFLICT or
    INVALID, the option at fault. At most ``width`` options are written (``width`` >= 1);
    ``B_SIZE`` holds the solution's true size.

    ``BATCH`` holds where the batch is: the instance, its phase (0 not begun, 1 searching
    for the first solution, 2 counting on to ``solution_stop``), how many of its forced
    options are taken, and the first INVALID instance (-1: none). Returns 1 when the slice
    of nodes ran out first (call again with the same arguments to go on: nothing is lost),
    0 when every instance is done. Slices are what let Python see Ctrl-C during a long
    compiled batch; they never change a result.
    """
    record = B_FIRST + width
    n_options = len(FORCING)
    k = BATCH[0]
    phase = BATCH[1]
    f = BATCH[2]
    left = slice_nodes
    while k < len(START) - 1:
        base = k * record
        first = START[k]
        end = START[k + 1]
        if phase == 0:
            REG[LEVEL] = 0
            REG[NODES] = 0
            REG[UPDATES] = 0
            REG[SOLUTIONS] = 0
            REG[RESUME] = ENTER
            REG[MAX_LEVEL] = 0
            status = DONE
            f = first
            while f < end:
                o = FORCED[f]
                if o < 0 or o >= n_options or FORCING[o] < 0:
                    status = INVALID
                    break
                if force(FORCING[o], U, D, TOP, COLOR, LEN, LL, RL) < 0:
                    status = CONFLICT
                    break
                f += 1
            if status != DONE:  # nothing searched: the option at fault, then undo
                OUT[base + B_STATUS] = status
                OUT[base + B_FIRST] = FORCED[f]
                if status == INVALID and BATCH[3] < 0:
                    BATCH[3] = k
                while f > first:
                    f -= 1
                    unforce(FORCING[FORCED[f]], U, D, TOP, COLOR, LEN, LL, RL)
                k += 1
                continue
            phase = 1
        stop = node_stop
        if REG[NODES] + left < node_stop:
            stop = REG[NODES] + left
        nodes = REG[NODES]
        status = search(U, D, TOP, COLOR, LEN, LL, RL, CHOICE, REG, stop,
                        1 if phase == 1 else solution_stop)
        left -= REG[NODES] - nodes
        if status == PAUSED and REG[NODES] < node_stop:  # the slice ran out, not the budget
            BATCH[0] = k
            BATCH[1] = phase
            BATCH[2] = f
            return 1
        if phase == 1:
            size = 0
            if status == SOLUTION:
                size = end - first + REG[LEVEL]
                for j in range(size if size <= width else 0):
                    if j < end - first:
                        x = FORCED[first + j]
                    else:
                        x = CHOICE[j - end + first]
                        while TOP[x] > 0:  # on to the spacer after it: -(its number + 1)
                            x += 1
                        x = -TOP[x] - 1
                    OUT[base + B_FIRST + j] = x
            OUT[base + B_SIZE] = size
            if status == SOLUTION and solution_stop > 1:
                phase = 2  # count on, in this slice if it lasts
                continue
        OUT[base + B_STATUS] = status
        OUT[base + B_SOLUTIONS] = REG[SOLUTIONS]
        OUT[base + B_NODES] = REG[NODES]
        OUT[base + B_UPDATES] = REG[UPDATES]
        OUT[base + B_MAX_LEVEL] = REG[MAX_LEVEL]
        level = REG[LEVEL]  # undo: C8 at every level the search still holds, then forced
        while level > 0:
            level -= 1
            unforce(CHOICE[level], U, D, TOP, COLOR, LEN, LL, RL)
        while f > first:
            f -= 1
            unforce(FORCING[FORCED[f]], U, D, TOP, COLOR, LEN, LL, RL)
        k += 1
        phase = 0
    BATCH[0] = k
    BATCH[1] = 0
    BATCH[2] = 0
    return 0
