"""The kernel of the canonical ZDD store ([`dlx.zdd_store`][]): set algebra over flat
arrays, written once; the python backend runs it as written, the numba backend compiles
it ([`dlx.Backend.zdd`][]).

The data structure
------------------

Node ``n`` is ``NODE[3n : 3n + 3]`` = ``(var, lo, hi)``: the sets of ``lo``, and those
of ``hi`` with the variable ``var`` added (a node read is one memory access; 64-bit
words: over 32-bit ones the operations took 5-15% longer, compiled). Nodes 0 and 1 are
the sinks (no set; the empty set), their ``var`` is [`BOTTOM`][], past every variable.
The diagrams are *ordered*: a node's variable is smaller than its children's, so one
family has one diagram, and ``SLOT``, the unique table (open addressing, linear probing,
at most half full, ``0`` for an empty slot; 32-bit node numbers, so a store holds fewer
than [`MOST_NODES`][]), makes it one node. Its length need not be a power of two (a
store told how many nodes come gets a table of twice as many slots, not of the next
power of two: at 16 x 16, 4 MB instead of 8); a node's first slot is [`home`][]'s, a
mask of the hash in a table of a power of two, else its top bits scaled. Nodes are
numbered after their children, so one pass in order ([`tally`][], from
``REG[REG_TALLIED]`` on, when asked) gives ``COUNT[n]``, the number of sets (-1 past
2**62; the exact count of a larger family is [`count_mod`][]'s, modulo primes), and
``SIG[n]``, the family's *fingerprint*: the sum over its sets of the product of their
options' weights, modulo [`P1`][] in the low 31 bits and [`P2`][] above, made as
``fp(lo) + w[var] * fp(hi)`` (``w`` by variable, the caller's), so the same in every
store of the problem, whatever its option order, and on every backend (a set's
``__hash__``). Both are
made by the first tally (empty until then: a store whose sets are never counted or
hashed does without them).

``CACHE`` holds the operation cache: entries of four words ``(op, f, g, result)``, a
power of two of them, found by one hash and overwritten on collision (a lossy cache, as
CUDD's: its memory stays fixed, and a result lost is computed again). It is empty (no
entry: every lookup misses, nothing is kept) until the store's first operation.

An operation ([`apply`][]) is the textbook recursion on the top variable of its operands,
run as a loop over an explicit stack of frames in ``STACK`` (no recursion: any depth).
A frame makes its node of its two children's results; or, a *tail* frame, runs its
second child on its first child's result and returns that (the queries against a family,
[`SUPERSETS`][] and [`SUBSETS`][], unite the two halves of ``g`` first). A frame's
*level*, the least top variable of its operands, is above its children's, but for a
``_H`` frame, which sits at its parent's level: the stack needs at most two frames per
variable ([`stack_words`][]). When the node arrays are full, [`apply`][] returns
[`FULL`][] with its frames kept: the driver grows the arrays and calls it again with
[`GO_ON`][], and it goes on where it stopped.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from .declare import Declaration

__all__ = ["FUNCTIONS", "ZddState"]

# Registers, REG[...].
REG_NODES = 0  # nodes made, the two sinks included: the next node's number
REG_RESUME = 1  # where import_diagram / transfer stopped (FULL): the node to go on from
REG_TALLIED = 2  # nodes below this have their count and signature (tally)
REG_FRAMES = 3  # frames on the stack of an operation that stopped FULL (0: none)
REG_PENDING = 4  # the result that operation was returning to its top frame
N_REG = 5

NW = 3
"""Words of a node in ``NODE``: ``(var, lo, hi)``."""

MOST_NODES = 1 << 30
"""A store holds fewer nodes than this: node numbers are 32-bit words (``NODE``,
``SLOT``), and the unique table twice as long as the nodes."""

# Operations (the cache's op word; 0 marks an empty entry).
GO_ON = 0  # apply: go on with the operation that stopped FULL
UNION = 1  # the commutative operations first (ops up to XOR: operands sorted)
INTER = 2
XOR = 3
DIFF = 4
WITHOUT = 5  # the sets without variable g
WITH = 6  # the sets with variable g (g kept)
INSERT = 7  # every set with variable g added
ID = 8  # f itself (a frame's child decided already)
SUPERSETS = 9  # the sets of f that hold some set of g (graphillion's supersets)
SUPERSETS_H = 10  # SUPERSETS of f and g's two halves united (g's variable forgotten)
SUBSETS = 11  # the sets of f that some set of g holds (graphillion's subsets)
SUBSETS_H = 12  # SUBSETS of f and g's two halves united
SIZE_EQ = 13  # the sets of f of exactly g variables (g a number, not a node)
SIZE_LE = 14  # the sets of f of at most g variables
SIZE_GE = 15  # the sets of f of at least g variables
ADD = 16  # ADD * (v + 1): f with the sets of g, variable v added to each, in one pass

FULL = -1
"""[`apply`][] and the loops' status: a node array or the unique table is full."""

DEEP = -2
"""[`apply`][]'s status if its stack were too short (it has two frames per variable)."""

DTYPES = ("int64", "int64", "int64", "int32", "int64", "int64", "int64")
"""The dtypes of [`ZddState`][]'s arrays, compiled: the unique table 32-bit, the rest
64-bit."""

FRAME = 8
"""Words per frame of ``STACK``: op, f, g, top variable, the second child's op, f and g,
and the first child's result (-1 until known, [`TAIL`][] while a tail runs)."""

TAIL = -2
"""A frame's first result word while its second child, a tail, runs: that child's result
is the frame's."""

def stack_words(variables):
    """The words of ``STACK`` for a store of ``variables`` variables (see the module)."""
    return FRAME * (2 * variables + 2)


BOTTOM = (1 << 31) - 1
"""``var`` of the sinks: after every variable (the largest 32-bit word)."""

HUGE = 1 << 62
K1 = 0x9E3779B97F4A7C1
K2 = 0x5851F42D4C957F2
K3 = 0x2545F4914F6CDD1
MASK = (1 << 62) - 1
P1 = 2147483647
"""The first modulus of the fingerprints (below 2**31: a product of two residues fits an
int64)."""
P2 = 2147483629
"""The second modulus of the fingerprints."""
LOW31 = (1 << 31) - 1
SIG0 = 0
"""``SIG`` of the empty sink (no set: 0 modulo both primes)."""
SIG1 = 1 | 1 << 31
"""``SIG`` of the sink of the empty set (one set, the empty product: 1 modulo both)."""


class ZddState(NamedTuple):
    """The arrays of one store (see the module's docstring)."""

    NODE: Any
    COUNT: Any
    SIG: Any
    SLOT: Any
    CACHE: Any
    STACK: Any
    REG: Any


def nhash(a, b, c):
    """A hash of three words, the same in Python and compiled (62 bits, no sign)."""
    h = ((a * K1) ^ (b * K2) ^ (c * K3)) & MASK
    return h ^ (h >> 29)


def home(h, L):
    """The unique table's first slot for the hash ``h`` in a table of ``L`` slots: ``h``'s
    low bits (a mask) when ``L`` is a power of two, as a store grown by doubling has it;
    else its top 31 bits scaled to ``L`` (a store told its size: its table is twice the
    nodes, [`dlx.zdd_store._table`][]). The mask spares a multiply on the path of every
    lookup, which waits for its slot: scaled in every table, 10 x 10's ``A & B`` (all
    but one of its lookups find a node) took 12% longer."""
    if L & (L - 1) == 0:
        return h & (L - 1)
    return ((h >> 31) * L) >> 31


def make(S, v, lo, hi):
    """The node ``(v, lo, hi)``, reduced (``hi`` 0: ``lo``), found in the unique table
    or made; [`FULL`][] if there is no room (grow, then call again)."""
    if hi == 0:
        return lo
    N = S.NODE
    SLOT = S.SLOT
    L = len(SLOT)
    s = home(nhash(v, lo, hi), L)
    while True:
        n = SLOT[s]
        if n == 0:
            break
        b = NW * n
        if N[b] == v and N[b + 1] == lo and N[b + 2] == hi:
            return n
        s += 1
        if s == L:
            s = 0
    REG = S.REG
    n = REG[REG_NODES]
    if NW * n + NW > len(N) or 2 * (n + 1) > len(SLOT):
        return FULL
    REG[REG_NODES] = n + 1
    SLOT[s] = n
    b = NW * n
    N[b] = v
    N[b + 1] = lo
    N[b + 2] = hi
    return n


def tally(S, W1, W2):
    """The count and fingerprint of every node made since the last tally, in order
    (``W1``, ``W2``: each variable's weights modulo [`P1`][] and [`P2`][])."""
    N = S.NODE
    C = S.COUNT
    SIG = S.SIG
    for n in range(S.REG[REG_TALLIED], S.REG[REG_NODES]):
        b = NW * n
        v = N[b]
        lo = N[b + 1]
        hi = N[b + 2]
        x = C[lo]
        y = C[hi]
        C[n] = x + y if x >= 0 and y >= 0 and x + y < HUGE else -1
        f = SIG[lo]
        g = SIG[hi]
        SIG[n] = ((f & LOW31) + W1[v] * (g & LOW31)) % P1 \
            | (((f >> 31) + W2[v] * (g >> 31)) % P2) << 31
    S.REG[REG_TALLIED] = S.REG[REG_NODES]


def count_mod(N, root, R, p):
    """The number of sets of ``root`` modulo ``p`` (below 2**61), made for every node up
    to it in ``R`` (nodes come after their children)."""
    R[0] = 0
    R[1] = 1 % p
    for n in range(2, root + 1):
        R[n] = (R[N[NW * n + 1]] + R[N[NW * n + 2]]) % p
    return R[root]


def count_log2(N, root, F):
    """``log2`` of the number of sets of every node up to ``root``, in ``F`` (floats: a
    bound on the bits of an exact count; -1 for no set)."""
    F[0] = -1.0
    F[1] = 0.0
    for n in range(2, root + 1):
        a = F[N[NW * n + 1]]
        b = F[N[NW * n + 2]]
        if a < b:
            t = a
            a = b
            b = t
        F[n] = a if b < 0.0 else a + math.log2(1.0 + 2.0 ** (b - a))
    return F[root]


def cached(S, op, f, g):
    """The result of ``(op, f, g)`` if the cache holds it, else -1."""
    C = S.CACHE
    if len(C) == 0:
        return -1
    i = (nhash(op, f, g) & ((len(C) >> 2) - 1)) << 2
    if C[i] == op and C[i + 1] == f and C[i + 2] == g:
        return C[i + 3]
    return -1


def remember(S, op, f, g, r):
    """Keep ``r`` as the result of ``(op, f, g)`` (over whatever the entry held)."""
    C = S.CACHE
    if len(C) == 0:
        return
    i = (nhash(op, f, g) & ((len(C) >> 2) - 1)) << 2
    C[i] = op
    C[i + 1] = f
    C[i + 2] = g
    C[i + 3] = r


def decided(S, op, f, g):
    """The result of ``(op, f, g)`` when the operands decide it without a node to make,
    else -1. For WITHOUT, WITH and INSERT, ``g`` is the variable."""
    if op == UNION:
        if f == 0:
            return g
        if g == 0 or f == g:
            return f
        return -1
    if op == INTER:
        if f == 0 or g == 0:
            return 0
        if f == g:
            return f
        return -1
    if op == DIFF:
        if f == 0 or f == g:
            return 0
        if g == 0:
            return f
        return -1
    if op == XOR:
        if f == 0:
            return g
        if g == 0:
            return f
        if f == g:
            return 0
        return -1
    if op == WITHOUT:
        if f < 2:
            return f
        v = S.NODE[NW * f]
        if v > g:
            return f
        if v == g:
            return S.NODE[NW * f + 1]
        return -1
    if op == WITH:
        if f < 2 or S.NODE[NW * f] > g:
            return 0
        return -1
    if op == INSERT:
        if f == 0:
            return 0
        return -1
    if op >= SIZE_EQ and op < ADD:  # g: a number of variables
        if f == 0 or (g < 0 and op != SIZE_GE):
            return 0
        if op == SIZE_GE and g <= 0:
            return f
        if f == 1:
            return 1 if op == SIZE_LE or (op == SIZE_EQ and g == 0) else 0
        return -1
    if op >= SUPERSETS and op < ADD:
        if f == 0 or g == 0:
            return 0
        if op == SUPERSETS and (f == g or g == 1):
            return f  # every set holds itself, and the empty set
        if op == SUBSETS and f == g:
            return f
        if f == 1 and op >= SUBSETS:
            return 1  # the empty set is in every set (and g is not empty)
        return -1
    if op >= ADD:
        if g == 0:
            return f
        return -1
    return f  # ID


def split(S, op, f, g):
    """How ``(op, f, g)`` recurses: its node's variable, and its two children, each an
    ``(op, f, g)`` of its own: ``(top, op0, f0, g0, op1, f1, g1)``."""
    N = S.NODE
    b = NW * f
    vf = N[b]
    if op >= ADD or op <= DIFF:  # split both operands on the smaller variable
        c = NW * g
        vg = N[c]
        if op >= ADD:  # f with {v} x g: no set of f or g holds v
            v = op // ADD - 1
            if v < vf and v < vg:
                return v, ID, f, 0, ID, g, 0
        top = vf if vf < vg else vg
        f0 = f
        f1 = 0
        g0 = g
        g1 = 0
        if vf == top:
            f0 = N[b + 1]
            f1 = N[b + 2]
        if vg == top:
            g0 = N[c + 1]
            g1 = N[c + 2]
        return top, op, f0, g0, op, f1, g1
    if op >= SIZE_EQ:  # the hi half has one variable more
        return vf, op, N[b + 1], g, op, N[b + 2], g - 1
    if op >= SUPERSETS:
        return split_family(N, op, f, g, vf)
    if vf < g:  # WITHOUT, WITH, INSERT above the variable: both halves
        return vf, op, N[b + 1], g, op, N[b + 2], g
    if op == WITH:  # vf == g: the sets with g are the hi half
        return g, ID, 0, 0, ID, N[b + 2], 0
    if vf == g:  # INSERT on sets that hold g already: all of them with g
        return g, ID, 0, 0, UNION, N[b + 1], N[b + 2]
    return g, ID, 0, 0, ID, f, 0  # INSERT below its variable: one new node


def split_family(N, op, f, g, vf):
    """[`split`][] of the queries against a family: [`SUPERSETS`][], [`SUBSETS`][] and
    their ``_H`` forms. A child whose ``op`` is negative is a *tail*: its ``g`` is the
    first child's result, and its result is the frame's (no node made). A child
    ``(ID, 0, 0)`` second makes the frame's result its first child's (``make`` of a
    ``hi`` of 0 is its ``lo``)."""
    c = NW * g
    vg = N[c]
    if (op - SUPERSETS) % 2 == 1:  # an _H form: g's halves united, then the query on them
        return vg, UNION, N[c + 1], N[c + 2], -(op - 1), f, 0
    if op == SUPERSETS:
        if vf < vg:  # no set of g holds vf: both halves of f keep theirs
            return vf, op, N[NW * f + 1], g, op, N[NW * f + 2], g
        if vg < vf:  # no set of f holds vg: the sets of g without it only
            return vg, op, f, N[c + 1], ID, 0, 0
        return vf, op, N[NW * f + 1], N[c + 1], SUPERSETS_H, N[NW * f + 2], g
    if vf < vg:  # SUBSETS: no set of g holds vf, so no set of f that does is below one
        return vf, op, N[NW * f + 1], g, ID, 0, 0
    if vg < vf:  # no set of f holds vg: below a set of g with or without it
        return vg, UNION, N[c + 1], N[c + 2], -op, f, 0
    return vf, SUBSETS_H, N[NW * f + 1], g, op, N[NW * f + 2], N[c + 2]


def apply(S, op, f, g):
    """``f op g`` in the store ([`UNION`][], [`INTER`][], [`DIFF`][], [`XOR`][]; or
    [`WITHOUT`][], [`WITH`][], [`INSERT`][] of variable ``g``; [`SUPERSETS`][],
    [`SUBSETS`][] of family ``g``; [`SIZE_EQ`][], [`SIZE_LE`][], [`SIZE_GE`][] of ``g``
    variables; or ``ADD * (v + 1)``), canonical; [`FULL`][] when a node has no room:
    grow, then call with [`GO_ON`][]."""
    STK = S.STACK
    REG = S.REG
    depth = len(STK) // FRAME
    sp = 0
    r = 0
    returning = False
    if op == GO_ON:
        sp = REG[REG_FRAMES]
        r = REG[REG_PENDING]
        returning = True
    while True:
        if not returning:  # evaluate (op, f, g): decided, cached, or a new frame
            if op <= XOR and f > g:
                t = f
                f = g
                g = t
            r = decided(S, op, f, g)
            if r < 0:
                r = cached(S, op, f, g)
            if r < 0:
                if sp == depth:
                    return DEEP  # cannot happen: two frames per variable
                top, op0, a0, b0, op1, a1, b1 = split(S, op, f, g)
                base = sp * FRAME
                STK[base] = op
                STK[base + 1] = f
                STK[base + 2] = g
                STK[base + 3] = top
                STK[base + 4] = op1
                STK[base + 5] = a1
                STK[base + 6] = b1
                STK[base + 7] = -1
                sp += 1
                op = op0
                f = a0
                g = b0
                continue
        # Return r to the frame above: its first child's result is kept, its second's
        # makes its node.
        if sp == 0:
            REG[REG_FRAMES] = 0
            return r
        base = (sp - 1) * FRAME
        first = STK[base + 7]
        if first == -1:
            op = STK[base + 4]
            f = STK[base + 5]
            g = STK[base + 6]
            if op < 0:  # a tail: on the first child's result, and the frame's result
                op = -op
                g = r
                STK[base + 7] = TAIL
            else:
                STK[base + 7] = r
            returning = False
            continue
        n = r if first == TAIL else make(S, STK[base + 3], first, r)
        if n < 0:
            REG[REG_FRAMES] = sp
            REG[REG_PENDING] = r
            return n
        remember(S, STK[base], STK[base + 1], STK[base + 2], n)
        sp -= 1
        r = n
        returning = True


def import_diagram(S, OPT, LO, HI, MAP, start, end):
    """Nodes ``start..end-1`` of a diagram that need not be ordered (the search's, or a
    text's) into the store, children first: ``MAP[n]`` is node ``n``'s family here, the
    union of ``MAP[LO[n]]`` and ``MAP[HI[n]]`` with variable ``OPT[n]`` added (no set of
    ``HI[n]`` holds it). 0 when done; [`FULL`][] with ``REG[REG_RESUME]`` the node to go on
    from (its operation goes on where it stopped)."""
    for n in range(start, end):
        if n == start and S.REG[REG_FRAMES] > 0:  # node start's operation stopped FULL
            u = apply(S, GO_ON, 0, 0)
        else:
            u = apply(S, ADD * (OPT[n] + 1), MAP[LO[n]], MAP[HI[n]])
        if u < 0:
            S.REG[REG_RESUME] = n
            return u
        MAP[n] = u
    return 0


def reach(N, root, MARK, STACK):
    """Mark (``MARK[n]`` 1) the nodes of ``N`` (a ``NODE`` array) that ``root`` reaches,
    the sinks left out; returns how many. ``STACK`` has room for every node."""
    if root < 2 or MARK[root] != 0:
        return 0
    found = 0
    sp = 1
    STACK[0] = root
    MARK[root] = 1
    while sp > 0:
        sp -= 1
        n = STACK[sp]
        found += 1
        a = N[NW * n + 1]
        if a >= 2 and MARK[a] == 0:
            MARK[a] = 1
            STACK[sp] = a
            sp += 1
        b = N[NW * n + 2]
        if b >= 2 and MARK[b] == 0:
            MARK[b] = 1
            STACK[sp] = b
            sp += 1
    return found


def transfer(S, T, start, end):
    """Nodes ``start..end-1`` of another ordered diagram (the same variables; node ``n``
    is ``T[3n : 3n + 3]`` = ``(var, lo, hi)``, after its children) into this store, each
    node's ``var`` replaced by its node here once made (``T[0]``, ``T[3]``: 0 and 1, the
    sinks), so that the diagram is its own map. 0 when done; [`FULL`][] with
    ``REG[REG_RESUME]`` the node to go on from."""
    for n in range(start, end):
        b = 3 * n
        m = make(S, T[b], T[3 * T[b + 1]], T[3 * T[b + 2]])
        if m < 0:
            S.REG[REG_RESUME] = n
            return m
        T[b] = m
    return 0


def rehash(S):
    """Fill the (zeroed) unique table with nodes ``2..REG[REG_NODES]-1``, after growing."""
    SLOT = S.SLOT
    N = S.NODE
    L = len(SLOT)
    for n in range(2, S.REG[REG_NODES]):
        s = home(nhash(N[NW * n], N[NW * n + 1], N[NW * n + 2]), L)
        while SLOT[s] != 0:
            s += 1
            if s == L:
                s = 0
        SLOT[s] = n


def compact(S, MARK, MAP):
    """Keep the marked nodes of ``S`` (``MARK[n]`` nonzero; every child of a marked node
    marked: [`reach`][]'s marks from the live roots) and drop the others: the kept ones
    move down in their order, so children stay before parents and one forward pass
    renumbers each node's children through ``MAP`` (``MAP[n]``: node ``n``'s new number,
    the sinks themselves). A node's count and fingerprint move with it (those tallied
    stay a prefix: ``REG[REG_TALLIED]`` becomes the kept nodes below it). The unique
    table and the cache are the caller's to clear and fill again ([`rehash`][]).
    Returns the nodes kept, the sinks included."""
    N = S.NODE
    C = S.COUNT
    SIG = S.SIG
    REG = S.REG
    tallied = REG[REG_TALLIED]
    keep = len(C) > 0
    MAP[0] = 0
    MAP[1] = 1
    m = 2
    below = 2
    for n in range(2, REG[REG_NODES]):
        if MARK[n] != 0:
            b = NW * n
            c = NW * m
            N[c] = N[b]
            N[c + 1] = MAP[N[b + 1]]
            N[c + 2] = MAP[N[b + 2]]
            if keep and n < tallied:
                C[m] = C[n]
                SIG[m] = SIG[n]
                below = m + 1
            MAP[n] = m
            m += 1
    REG[REG_NODES] = m
    if keep:
        REG[REG_TALLIED] = below
    return m


def recache(OLD, S):
    """The entries of the cache ``OLD`` into ``S.CACHE`` (larger, zeroed)."""
    for i in range(0, len(OLD), 4):
        if OLD[i] != 0:
            remember(S, OLD[i], OLD[i + 1], OLD[i + 2], OLD[i + 3])


FUNCTIONS = ("nhash", "home", "make", "tally", "count_mod", "count_log2", "cached", "remember",
             "decided", "split_family", "split", "apply", "import_diagram", "reach",
             "transfer", "rehash", "compact", "recache")
"""The kernel: plain Python over lists, or compiled by numba over int64 arrays."""


DECLARATION = Declaration(
    "zdd",
    functions=FUNCTIONS,
    entries={"apply": "Siii", "import_diagram": "Saaaaii", "reach": "aiaa", "tally": "Saa",
             "transfer": "Slii", "rehash": "S", "compact": "Saa", "recache": "aS",
             "count_mod": "aiai", "count_log2": "aif"},
    state=ZddState,
    dtypes=lambda: DTYPES,
    registers=("NODES", "RESUME", "TALLIED", "FRAMES", "PENDING"),
    options={"_nrt": False},
)
"""The canonical ZDD store's algebra. No reference counting (``_nrt``): its helpers take
the store's state, a tuple of arrays, and a count of references to each at every call
made set operations twice as slow; the kernel allocates nothing."""
