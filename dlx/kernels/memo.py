"""The kernel of the memoized search ([`dlx.memo`][], Knuth's DLX6): the search loop
over flat arrays, written once; the python backend runs it as written, the numba backend
compiles it ([`dlx.Backend.memo`][]).

The data structure
------------------

A *pointer* is an index into flat ``int64`` arrays (``list`` objects in the python
backend), all held by one [`MemoState`][]. The dancing links are those of
[`dlx.links`][] (``U``, ``D``, ``TOP``, ``COLOR``; spacers as there), with three changes
that DLX6 makes to DLX2:

``LEN``
    the number of *active* options of each item (no ``INACTIVE`` offset): covering hides
    an option's nodes from their lists and lowers ``LEN``; a node whose item was purified
    to its color (``COLOR`` -1) stays in its list, but ``LEN`` is lowered all the same, so
    that ``LEN`` of a secondary item drops to 0 when no active option uses it. ``LEN`` -1
    marks an item that a purification left without options.
``LL``, ``RL`` (length ``N + 2``)
    two circular lists: the active primary items from the root 0, and the *active
    secondary items* (those with ``LEN`` > 0) from a second head ``N + 1``. A secondary
    item leaves its list when covered or when its ``LEN`` drops to 0 (or -1).
``COLOR``
    colors are renumbered per item, ``1, 2, ...`` in list order, so that a signature needs
    few bits; the header's ``COLOR`` is the color its item is purified to, 0 if none.

The signature of the remaining problem gives each active item a *code*: 1 for a primary
item, ``1 + COLOR[header]`` for a secondary one; inactive items have code 0. Item ``k``
owns the bits from ``SSHIFT[k]`` of word ``SOFF[k]`` of ``CUR[0:W]`` (63 bits a word), and
the random numbers ``RND[SBASE[k] + code]``; ``CUR[W]`` is the XOR of the random numbers of
the active codes, the signature's hash. Both are kept up to date as items leave and
re-enter their lists ([`toggle`][]), so a lookup costs ``W`` word compares, not a walk.

The memo table: entry ``e`` holds a signature ``MSIG[e*W : e*W + W]``, its hash
``MHASH[e]``, and its answer ``MZDD[e]`` (a ZDD node, 0 if the subproblem has no solution).
``MSLOT`` (a power of two long, at most half full) holds ``e + 1`` per used slot, found by
linear probing from ``hash & (len - 1)``, tagged with the hash's high bits (``TAG``).

The ZDD: node ``n`` is ``(ZOPT[n], ZLO[n], ZHI[n])``: the solutions of ``ZLO[n]``, and those
of ``ZHI[n]`` with option ``ZOPT[n]`` added. Nodes 0 and 1 are the sinks (no solution; the
empty solution). ``ZCNT[n]`` is its number of solutions, or -1 past 2**62. ``ZSLOT`` is the
unique table over them, as ``MSLOT``. Every node is made after its children, so node
numbers are a topological order.

Per level: ``CHOICE`` (the node tried), ``SAVEZ`` (the ZDD node of the options tried so far
at that level), ``MEMOAT`` (the memo entry of that level's subproblem).

Independent parts (``REG[REG_PARTS]``, off by default): split levels, their registers and
their arrays (``GROUPS``) are described in [`dlx.kernels.parts`][].

The search is a loop over labelled steps with no recursion (any depth), resumable: it
returns after a node budget (for time-outs and Ctrl-C) or when a table is full (the driver
doubles it and calls again), its whole state in the arrays and ``REG``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .codes import COMPLETE, MAX_NODES, Pause
from .declare import Declaration
from .parts import (
    PART_REGISTERS,
    REG_EARNED,
    REG_GTOP,
    REG_PARTS,
    REG_SPLITS,
    REG_WALKED,
    WALK_PAID,
    WALK_SHARE,
    active_primaries,
    components,
)

__all__ = ["FUNCTIONS", "MemoState"]

# Registers, REG[...].
REG_LEVEL = 0  # the current level
REG_NODES = 1  # search nodes (DLX6's: entries to a level, hits included, plus solutions)
REG_HITS = 2  # memo hits (solutions included, as DLX6 counts them)
REG_MEMOS = 3  # memo entries made (signatures stored)
REG_GOOD = 4  # entries whose subproblem has solutions
REG_UPDATES = 5  # nodes hidden from a list
REG_ZNODES = 6  # ZDD nodes, the two sinks included: the next node's number
REG_STEP = 7  # where the next call resumes: FORWARD or MAKE
REG_ZNODE = 8  # registers of a search paused at MAKE
REG_ZSOL = 9
REG_N1 = 10  # the number of primary items (read-only)
REG_WORDS = 11  # W, the words of a signature (read-only)
REG_ZBOUND = 12  # the most ZDD nodes allowed (the sinks included; read-only)
REG_ROOT = 13  # the answer: the ZDD node of the whole problem, once COMPLETE
REG_MAX_LEVEL = 14  # the deepest level reached
N_REG = REG_EARNED + 1  # registers 15 and up: those of dlx.kernels.parts
REGISTERS = ("LEVEL", "NODES", "HITS", "MEMOS", "GOOD", "UPDATES", "ZNODES", "STEP", "ZNODE",
             "ZSOL", "N1", "WORDS", "ZBOUND", "ROOT", "MAX_LEVEL", *PART_REGISTERS)
"""``REG``'s slots, in order (their indices above; 15 and up: [`dlx.kernels.parts`][])."""

# Steps.
FORWARD = 0  # enter a level: a node of the search tree
ADVANCE = 1  # try the option CHOICE[level], or back up if none is left
BACKUP = 2  # the level's item has no option left
BACKDOWN = 3  # return to the level above
MAKE = 4  # record an option that led to solutions: a ZDD node
PART = 5  # set the other groups of a split level aside, search the group under way
JOIN = 6  # a group is searched: multiply, put the other groups back, take the next

# Statuses of search().
GROW_MEMO = int(Pause.GROW_MEMO)  # pauses for the driver (dlx.kernels.codes.Pause)
GROW_ZDD = int(Pause.GROW_ZDD)
ZDD_BOUND = int(Pause.ZDD_BOUND)
GROW_PARTS = int(Pause.GROW_PARTS)

PRODUCT = -2
"""``ZOPT`` of a product node: its family is every union of a set of ``ZLO``'s and one of
``ZHI``'s (independent parts: no option in both)."""

SPLITTING = True
"""Whether the code of independent parts is there: the numba backend compiles a twin
without it for the searches that do not split (``REG[REG_PARTS]`` 0), a smaller loop."""

HUGE = 1 << 62
"""Larger than any length, count or hash: the empty minimum, the counts' ceiling."""

K1 = 0x9E3779B97F4A7C1
K2 = 0x5851F42D4C957F2
K3 = 0x2545F4914F6CDD1
MASK = (1 << 62) - 1

ENTRY = (1 << 32) - 1
TAG = MASK ^ ENTRY
"""A slot of the memo or unique table: an entry + 1 or a node in the low 32 bits (the
tables stop there), the hash's high 30 bits (its tag) above."""


class MemoState(NamedTuple):
    """The arrays of one memoized search (see the module's docstring)."""

    U: Any
    D: Any
    TOP: Any
    COLOR: Any
    LEN: Any
    LL: Any
    RL: Any
    OPT: Any  # the option of each node (-1 for headers and spacers)
    SOFF: Any
    SSHIFT: Any
    SBASE: Any
    RND: Any
    CUR: Any
    CHOICE: Any
    SAVEZ: Any
    MEMOAT: Any
    REG: Any
    MSLOT: Any
    MHASH: Any
    MZDD: Any
    MSIG: Any
    ZSLOT: Any
    ZOPT: Any
    ZLO: Any
    ZHI: Any
    ZCNT: Any
    GROUPS: Any  # independent parts: per level SPLIT, GEND, CHECKAT; SEEN, OSEEN; groups


def toggle(k, code, S):
    """Item ``k`` with ``code`` enters or leaves the signature (XOR does both)."""
    S.CUR[S.SOFF[k]] ^= code << S.SSHIFT[k]
    w = S.REG[REG_WORDS]
    S.CUR[w] ^= S.RND[S.SBASE[k] + code]


def leave(k, S):
    """Take item ``k`` out of its active list (and the signature)."""
    left = S.LL[k]
    right = S.RL[k]
    S.RL[left] = right
    S.LL[right] = left
    toggle(k, 1 + S.COLOR[k], S)


def enter(k, S):
    """Put item ``k`` back in its active list (and the signature): undoes [`leave`][]."""
    S.RL[S.LL[k]] = k
    S.LL[S.RL[k]] = k
    toggle(k, 1 + S.COLOR[k], S)


def hide(r, S, n1):
    """Hide the option of node ``r`` from the lists of its other items; an active
    secondary item left without options leaves its list. Returns the updates."""
    U = S.U
    D = S.D
    TOP = S.TOP
    LEN = S.LEN
    COLOR = S.COLOR
    updates = 0
    q = r + 1
    while q != r:
        x = TOP[q]
        if x <= 0:  # a spacer: continue with the first node of this option
            q = U[q]
            continue
        if COLOR[q] >= 0:  # a node of a purified item stays in its list (DLX6)
            u = U[q]
            d = D[q]
            D[u] = d
            U[d] = u
        updates += 1
        t = LEN[x] - 1
        LEN[x] = t
        if t == 0 and x > n1:
            leave(x, S)
        q += 1
    return updates


def unhide(r, S, n1):
    """Undo [`hide`][] of node ``r``'s option, walking it leftward."""
    U = S.U
    D = S.D
    TOP = S.TOP
    LEN = S.LEN
    COLOR = S.COLOR
    q = r - 1
    while q != r:
        x = TOP[q]
        if x <= 0:  # a spacer: continue with the last node of this option
            q = D[q]
            continue
        if COLOR[q] >= 0:
            D[U[q]] = q
            U[D[q]] = q
        t = LEN[x] + 1
        LEN[x] = t
        if t == 1 and x > n1:
            enter(x, S)
        q -= 1


def cover(c, S, n1):
    """Cover item ``c``: it leaves its list and every option in its list is hidden."""
    leave(c, S)
    updates = 1
    D = S.D
    r = D[c]
    while r != c:
        updates += hide(r, S, n1)
        r = D[r]
    return updates


def uncover(c, S, n1):
    """Undo [`cover`][] of item ``c``, its list walked upward."""
    U = S.U
    r = U[c]
    while r != c:
        unhide(r, S, n1)
        r = U[r]
    enter(c, S)


def purify(p, S, n1):
    """Fix the color of node ``p``'s secondary item: hide the options of other colors,
    mark those of its color -1. Its code in the signature becomes ``1 + color``; if no
    option is left it leaves its list (``LEN`` -1 says so to [`unpurify`][])."""
    TOP = S.TOP
    D = S.D
    COLOR = S.COLOR
    c = TOP[p]
    x = COLOR[p]
    COLOR[c] = x
    t = S.LEN[c]
    updates = 0
    r = D[c]
    while r != c:
        if COLOR[r] != x:
            t -= 1
            updates += hide(r, S, n1)
        else:
            COLOR[r] = -1
        r = D[r]
    toggle(c, 1, S)
    if t > 0:
        S.LEN[c] = t
        toggle(c, 1 + x, S)
    else:
        S.LEN[c] = -1
        left = S.LL[c]
        right = S.RL[c]
        S.RL[left] = right
        S.LL[right] = left
    return updates


def unpurify(p, S, n1):
    """Undo [`purify`][] of node ``p``, the item's list walked upward."""
    TOP = S.TOP
    U = S.U
    COLOR = S.COLOR
    c = TOP[p]
    x = COLOR[p]
    COLOR[c] = 0
    t = S.LEN[c]
    if t < 0:
        t = 0
        S.RL[S.LL[c]] = c
        S.LL[S.RL[c]] = c
    else:
        toggle(c, 1 + x, S)
    toggle(c, 1, S)
    r = U[c]
    while r != c:
        if COLOR[r] < 0:
            COLOR[r] = x
        else:
            t += 1
            unhide(r, S, n1)
        r = U[r]
    S.LEN[c] = t


def commit(p, S, n1):
    """Cover or purify the other items of node ``p``'s option, going right; secondary
    items already out of use (``LEN`` 0) are left alone, as in DLX6."""
    TOP = S.TOP
    updates = 0
    q = p + 1
    while q != p:
        j = TOP[q]
        if j <= 0:
            q = S.U[q]
            continue
        if j <= n1 or S.LEN[j] != 0:
            c = S.COLOR[q]
            if c == 0:
                updates += cover(j, S, n1)
            elif c > 0:
                updates += purify(q, S, n1)
        q += 1
    return updates


def uncommit(p, S, n1):
    """Undo [`commit`][], going left."""
    TOP = S.TOP
    q = p - 1
    while q != p:
        j = TOP[q]
        if j <= 0:
            q = S.D[q]
            continue
        if j <= n1 or S.LEN[j] != 0:
            c = S.COLOR[q]
            if c == 0:
                uncover(j, S, n1)
            elif c > 0:
                unpurify(q, S, n1)
        q -= 1


def choose(LEN, RL):
    """Knuth's choice: the first active primary item with the fewest active options."""
    best = 0
    t = HUGE
    k = RL[0]
    while k != 0:
        s = LEN[k]
        if s < t:
            best = k
            t = s
            if s == 0:
                break
        k = RL[k]
    return best


def aside(S, start, end, cur):
    """Take the items of every group in ``GROUPS[start:end]`` but the one at ``cur`` out
    of their active lists (and the signature)."""
    G = S.GROUPS
    last = cur - G[cur]
    for t in range(start, end):
        x = G[t]
        if x > 0 and (t < cur or t > last):
            leave(x, S)


def back(S, start, end, cur):
    """Undo [`aside`][]: the items put back in the reverse order."""
    G = S.GROUPS
    last = cur - G[cur]
    t = end - 1
    while t >= start:
        x = G[t]
        if x > 0 and (t < cur or t > last):
            enter(x, S)
        t -= 1


def lookup(S):
    """The memo entry of the current signature if there is one (>= 0), else a new entry
    ``e`` for it, returned as ``-e - 1``. The table must have room (see [`search`][]);
    only a slot whose tag agrees costs a read of its entry's signature."""
    REG = S.REG
    CUR = S.CUR
    MSLOT = S.MSLOT
    W = REG[REG_WORDS]
    h = CUR[W]
    tag = h & TAG
    mask = len(MSLOT) - 1
    s = h & mask
    while True:
        v = MSLOT[s]
        if v == 0:
            break
        if (v & TAG) == tag:
            e = (v & ENTRY) - 1
            base = e * W
            w = 0
            while w < W and S.MSIG[base + w] == CUR[w]:
                w += 1
            if w == W:
                return e
        s = (s + 1) & mask
    e = REG[REG_MEMOS]
    REG[REG_MEMOS] = e + 1
    MSLOT[s] = tag | (e + 1)
    S.MHASH[e] = h
    S.MZDD[e] = 0
    base = e * W
    for w in range(W):
        S.MSIG[base + w] = CUR[w]
    return -e - 1


def zhash(opt, lo, hi):
    """The hash of a ZDD node, the same in Python and compiled (62 bits, no sign)."""
    h = ((opt * K1) ^ (lo * K2) ^ (hi * K3)) & MASK
    return h ^ (h >> 29)


def make(S, opt, lo, hi):
    """The ZDD node ``(opt, lo, hi)``, found in the unique table or made; -1 if the table
    is full (grow it, then call again), -2 if ``REG[REG_ZBOUND]`` (or ``ENTRY``) nodes
    exist already. Slots are tagged as the memo's ([`lookup`][])."""
    ZOPT = S.ZOPT
    ZLO = S.ZLO
    ZHI = S.ZHI
    ZSLOT = S.ZSLOT
    mask = len(ZSLOT) - 1
    h = zhash(opt, lo, hi)
    tag = h & TAG
    s = h & mask
    while True:
        v = ZSLOT[s]
        if v == 0:
            break
        if (v & TAG) == tag:
            n = v & ENTRY
            if ZOPT[n] == opt and ZLO[n] == lo and ZHI[n] == hi:
                return n
        s = (s + 1) & mask
    REG = S.REG
    n = REG[REG_ZNODES]
    if n >= REG[REG_ZBOUND] or n >= ENTRY:
        return -2
    if n >= len(ZOPT) or 2 * (n + 1) > len(ZSLOT):
        return -1
    REG[REG_ZNODES] = n + 1
    ZSLOT[s] = tag | n
    ZOPT[n] = opt
    ZLO[n] = lo
    ZHI[n] = hi
    a = S.ZCNT[lo]
    b = S.ZCNT[hi]
    S.ZCNT[n] = a + b if a >= 0 and b >= 0 and a + b < HUGE else -1
    return n


def product(S, a, b):
    """The ZDD node of the product of nodes ``a`` and ``b`` (neither 0), as [`make`][],
    its count the product of theirs (the check in floating point: no division)."""
    if a == 1:
        return b
    if b == 1:
        return a
    n = make(S, PRODUCT, a, b)
    if n > 0:
        x = S.ZCNT[a]
        y = S.ZCNT[b]
        S.ZCNT[n] = x * y if x >= 0 and y >= 0 and 1.0 * x * y < 0.8 * HUGE else -1
    return n


def search(S, node_stop):
    """Run the memoized search until it ends (COMPLETE: the answer is ``REG[REG_ROOT]``),
    ``REG[REG_NODES]`` reaches ``node_stop`` (MAX_NODES), a table is full (GROW_MEMO,
    GROW_ZDD) or the ZDD reaches its bound (ZDD_BOUND). Call again to resume.

    D1 enter a level: count the node, look the signature up (a hit returns its ZDD node
    at once; with parts, a miss may split the level: D7); D2 choose an item and cover it;
    D3 try the next option of the level (commit it; a solution if no primary item is
    left, else go down); D4 no option left: uncover, store the level's answer in its memo
    entry; D5 back to the level above, undo the option; D6 if it led to solutions, add a
    ZDD node for it (DLX6's "recover"); D7 set the other groups aside, go down to search
    the group under way; D8 multiply its answer in, put the others back, on to the next
    group or, after the last (or a group without solutions), store the level's answer.
    """
    REG = S.REG
    D = S.D
    TOP = S.TOP
    CHOICE = S.CHOICE
    SAVEZ = S.SAVEZ
    n1 = REG[REG_N1]
    level = REG[REG_LEVEL]
    nodes = REG[REG_NODES]
    hits = REG[REG_HITS]
    updates = REG[REG_UPDATES]
    max_level = REG[REG_MAX_LEVEL]
    step = REG[REG_STEP]
    znode = REG[REG_ZNODE]
    zsol = REG[REG_ZSOL]
    status = COMPLETE
    G = S.GROUPS  # per level: SPLIT at level, GEND at L + level, CHECKAT at 2 L + level
    L = len(CHOICE)
    parts = REG[REG_PARTS] if SPLITTING else 0
    x = CHOICE[level]
    i = TOP[x] if x > 0 and (not SPLITTING or G[level] < 0) else 0
    while True:
        if step == FORWARD:  # D1
            if nodes >= node_stop:
                status = MAX_NODES
                break
            if REG[REG_MEMOS] >= len(S.MZDD) or 2 * (REG[REG_MEMOS] + 1) > len(S.MSLOT):
                status = GROW_MEMO if 2 * len(S.MZDD) < ENTRY else ZDD_BOUND  # a slot's room
                break
            if SPLITTING and parts and REG[REG_GTOP] + 2 * len(S.LEN) > len(G):
                status = GROW_PARTS
                break
            nodes += 1
            if level > max_level:
                max_level = level
            e = lookup(S)
            if e >= 0:  # a hit: the answer is known
                hits += 1
                znode = S.MZDD[e]
                step = BACKDOWN
                continue
            S.MEMOAT[level] = -e - 1
            znode = 0
            i = choose(S.LEN, S.RL)  # D2
            if SPLITTING and parts and S.LEN[i] > 0:
                last = G[2 * L + level - 1] if level > 0 else 2 * n1 + 2
                active = active_primaries(S.RL)
                G[2 * L + level] = last
                if active < last and REG[REG_WALKED] <= (updates >> WALK_SHARE) + REG[REG_EARNED]:
                    G[2 * L + level] = active
                    walked = REG[REG_WALKED]
                    groups, top = components(S, n1, i)
                    if groups > 1:  # a split level
                        REG[REG_EARNED] += WALK_PAID * (REG[REG_WALKED] - walked)
                        G[level] = REG[REG_GTOP]
                        G[L + level] = top
                        REG[REG_GTOP] = top
                        REG[REG_SPLITS] += 1
                        CHOICE[level] = G[level]
                        SAVEZ[level] = 1
                        step = PART
                        continue
            updates += cover(i, S, n1)
            x = D[i]
            CHOICE[level] = x
            step = ADVANCE
        elif step == BACKUP:  # D4
            uncover(i, S, n1)
            if znode != 0:
                S.MZDD[S.MEMOAT[level]] = znode
                REG[REG_GOOD] += 1
            step = BACKDOWN
        elif step == BACKDOWN:  # D5
            if level == 0:
                REG[REG_ROOT] = znode
                break
            level -= 1
            if SPLITTING and G[level] >= 0:
                step = JOIN
                continue
            x = CHOICE[level]
            i = TOP[x]
            zsol = znode
            znode = SAVEZ[level]
            uncommit(x, S, n1)
            step = MAKE
        elif step == MAKE:  # D6
            if zsol != 0:
                z = make(S, S.OPT[x], znode, zsol)
                if z < 0:
                    status = GROW_ZDD if z == -1 else ZDD_BOUND
                    break
                znode = z
            x = D[x]
            CHOICE[level] = x
            step = ADVANCE
        elif SPLITTING and step == PART:  # D7
            aside(S, G[level], G[L + level], CHOICE[level])
            G[2 * L + level] = active_primaries(S.RL)
            level += 1
            step = FORWARD
        elif SPLITTING and step == JOIN:  # D8
            if znode != 0:
                z = product(S, SAVEZ[level], znode)
                if z < 0:
                    status = GROW_ZDD if z == -1 else ZDD_BOUND
                    break
                SAVEZ[level] = z
            g = CHOICE[level]
            back(S, G[level], G[L + level], g)
            g += 1 - G[g]
            if znode != 0 and g < G[L + level]:
                CHOICE[level] = g
                step = PART
                continue
            if znode != 0:
                znode = SAVEZ[level]
                S.MZDD[S.MEMOAT[level]] = znode
                REG[REG_GOOD] += 1
            REG[REG_GTOP] = G[level]
            G[level] = -1
            CHOICE[level] = 0  # no node: a later call must not read it as one
            step = BACKDOWN
        else:  # D3
            if x == i:
                step = BACKUP
                continue
            updates += commit(x, S, n1)
            if S.RL[0] == 0:  # every primary item is covered: a solution
                nodes += 1
                hits += 1
                if level + 1 > max_level:
                    max_level = level + 1
                uncommit(x, S, n1)
                zsol = 1
                step = MAKE
                continue
            SAVEZ[level] = znode
            level += 1
            step = FORWARD
    REG[REG_LEVEL] = level
    REG[REG_NODES] = nodes
    REG[REG_HITS] = hits
    REG[REG_UPDATES] = updates
    REG[REG_MAX_LEVEL] = max_level
    REG[REG_STEP] = step
    REG[REG_ZNODE] = znode
    REG[REG_ZSOL] = zsol
    return status


def rehash_memo(MSLOT, MHASH, count):
    """Fill the (zeroed) memo slots with entries ``0..count-1``, after growing."""
    mask = len(MSLOT) - 1
    for e in range(count):
        s = MHASH[e] & mask
        while MSLOT[s] != 0:
            s = (s + 1) & mask
        MSLOT[s] = (MHASH[e] & TAG) | (e + 1)


def rehash_zdd(ZSLOT, ZOPT, ZLO, ZHI, count):
    """Fill the (zeroed) unique table with nodes ``2..count-1``, after growing."""
    mask = len(ZSLOT) - 1
    for n in range(2, count):
        h = zhash(ZOPT[n], ZLO[n], ZHI[n])
        s = h & mask
        while ZSLOT[s] != 0:
            s = (s + 1) & mask
        ZSLOT[s] = (h & TAG) | n


FUNCTIONS = ("toggle", "leave", "enter", "hide", "unhide", "cover", "uncover", "purify",
             "unpurify", "commit", "uncommit", "choose", "aside", "back", "lookup", "zhash",
             "make", "product", "search", "rehash_memo", "rehash_zdd")
"""The kernel: plain Python over lists, or compiled by numba over int64 arrays."""


DECLARATION = Declaration(
    "memo",
    functions=FUNCTIONS,
    entries={"search": "Si", "rehash_memo": "aai", "rehash_zdd": "aaaai"},
    state=MemoState,
    registers=REGISTERS,
    borrows=("parts",),
    switches={"SPLITTING": SPLITTING},
    inline=frozenset({"toggle", "leave", "enter", "hide", "unhide", "cover", "uncover",
                      "commit", "uncommit", "choose", "lookup", "zhash", "make"}),
    options={"_nrt": False},  # it allocates nothing; reference counts took a third of it
)
"""DLX6's memoized search, its independent parts borrowed from [`dlx.kernels.parts`][]."""
