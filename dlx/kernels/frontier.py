"""The frontier-based construction of an exact-cover family's ZDD (TdZdd's, Knuth's SIMPATH
family; driven by [`dlx.frontier`][]): the options decided one by one in the store's
variable order, top-down, level by level, then the diagram reduced bottom-up. Written
once; the python backend runs it as written, the numba backend compiles it.

The data structure
------------------

Variable ``k`` (level ``k``) is the ``k``-th option of the order. An item is on the
*frontier* from its first option to its last: only those items' state matters below a
level. Each frontier item owns bits of a node's *state*, ``W`` words of [`BITS`][] bits
(given to an item at its first option and freed after its last, so that the words stay
as short as the widest frontier); bits of items off the frontier are 0, so equal states
are equal words. A primary or plain secondary item owns one bit: 1 if an option taken
above covers it. A secondary item that options color owns a *field* of ``f`` bits (not
necessarily adjacent): each of its colors is a *code*, ``v`` of the field's bits (the
same ``v < f`` for all, so that no code holds another), and the field is 0 (unused), a
color's code (colored so above), or all ones (used without a color). (An item of one
color that no option uses without it constrains nothing and owns no bit.)

``MASK[4Wk : 4Wk + 4W]`` holds variable ``k``'s four masks, ``W`` words each: ``TAKE``
(the bits set by taking it: its plain items', the whole fields of the items it uses
without a color, its colors' codes), ``NEED`` (the bits of the primary items whose last
option it is: covered once ``k`` is decided, or the branch dies), ``LEAVE`` (the bits
of every item whose last option it is: cleared once ``k`` is decided) and ``BLOCK``
(the bits that must be 0 for it to be taken: ``TAKE``'s but its codes, and the rest of
the fields it colors). So a colored item's field must be 0 or the option's own code,
and a field used without a color must be 0; without colors ``BLOCK`` is ``TAKE``.
``MODE[k]`` says whether option ``k`` may be left out and taken ([`FREE`][]), must be
taken ([`TAKEN`][]: forced) or may not be ([`BARRED`][]: it has no primary item, or
clashes with a forced option).

Top-down nodes are numbered level by level from 2 (0 and 1 are the sinks, no set and the
empty set): level ``k``'s are ``LEVEL[k] .. LEVEL[k+1]-1``, node 2 the root (nothing
decided, no bit set). ``LO[n]`` and ``HI[n]`` are its children (option ``k`` left out,
taken): nodes of level ``k+1``, or a sink. Only two levels' states are kept, in the
caller's arrays ``CUR`` and ``NEXT`` (state of node ``n`` of level ``k`` at
``(n - LEVEL[k]) * W``). ``TABLE`` (a power of two long, at most half full) is the
unique table of the level being made, open addressing with linear probing: an entry
below the level's first number is empty (left by an earlier level), so it is never
cleared within a phase.

Reduction ([`reduce`][]), a level at a time from the bottom: node ``n``'s children,
already reduced, are read through ``LO`` (``LO[c]`` of a child ``c`` has become its
reduced node), a node whose ``hi`` is 0 is its ``lo`` (zero suppression), and equal
``(lo, hi)`` pairs of one level are one node of ``OUT``: ``(var, lo, hi)`` three words a
node, from 2, children first (the order [`dlx.zdd_store.Store`][]'s transfer takes).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .declare import Declaration

__all__ = ["FUNCTIONS", "FrontierState"]

# Registers, REG[...].
REG_NODES = 0  # top-down nodes made, the sinks included: the next node's number
REG_OUT = 1  # reduced nodes made, the sinks included: the next one's number
REG_WORDS = 2  # W, the words of a state
N_REG = 3

BITS = 62
"""Bits of a state word (no sign bit, the same on both backends)."""

FREE = 0
"""``MODE``: option ``k`` may be left out or taken."""
TAKEN = 1
"""``MODE``: option ``k`` must be taken (a forced option)."""
BARRED = 2
"""``MODE``: option ``k`` is never taken."""

K1 = 0x9E3779B97F4A7C1
K2 = 0x5851F42D4C957F2
HMASK = (1 << 62) - 1


DTYPES = ("int64", "int64", "int64", "int32", "int32", "int32", "int32", "int64")
"""The dtypes of [`FrontierState`][]'s arrays, compiled: the node numbers (``LO``,
``HI``, ``TABLE``, ``OUT``) 32-bit words, so a construction makes fewer than 2**31
top-down nodes; the states' words and the rest 64-bit."""


class FrontierState(NamedTuple):
    """The arrays of one construction (see the module's docstring)."""

    MASK: Any
    MODE: Any
    LEVEL: Any
    LO: Any
    HI: Any
    TABLE: Any
    OUT: Any
    REG: Any


def state_hash(A, b, W):
    """A hash of the ``W`` words ``A[b : b + W]`` (62 bits, no sign)."""
    h = 0
    for w in range(W):
        h = ((h * K2) ^ (A[b + w] * K1)) & HMASK
        h = h ^ (h >> 29)
    return h


def expand(S, CUR, NEXT, k):
    """Level ``k+1``: the children of level ``k``'s nodes (states in ``CUR``, theirs made
    in ``NEXT``), ``LEVEL[k+2]`` set. The caller leaves room for two children a node in
    ``LO``, ``HI`` and ``NEXT``, and ``TABLE`` twice as long. The children of the last
    level are sinks: 1 where every item was settled. Returns the nodes made."""
    REG = S.REG
    W = REG[REG_WORDS]
    M = S.MASK
    LO = S.LO
    HI = S.HI
    TABLE = S.TABLE
    tmask = len(TABLE) - 1
    start = S.LEVEL[k]
    end = S.LEVEL[k + 1]
    last = k + 1 == len(S.MODE)
    mode = S.MODE[k]
    base = 4 * W * k
    made = end
    for node in range(start, end):
        c = (node - start) * W
        for side in range(2):
            # E1. [The branch.] Option k left out (side 0) or taken (side 1), if allowed.
            ok = not ((side == 0 and mode == TAKEN) or (side == 1 and mode == BARRED))
            b = (made - end) * W
            w = 0
            while ok and w < W:
                s = CUR[c + w]
                if side == 1:
                    if s & M[base + 3 * W + w] != 0:  # an item covered twice, or recolored
                        ok = False
                        break
                    s = s | M[base + w]
                need = M[base + W + w]
                if s & need != need:  # a primary item left uncovered for good
                    ok = False
                    break
                NEXT[b + w] = s & ~M[base + 2 * W + w]
                w += 1
            child = 0
            if ok and last:
                child = 1
            elif ok:
                # E2. [Merge.] The child is the node of level k+1 with its state, or new.
                h = state_hash(NEXT, b, W) & tmask
                while True:
                    e = TABLE[h]
                    if e < end:  # empty for this level: the new node
                        TABLE[h] = made
                        child = made
                        made += 1
                        break
                    eb = (e - end) * W
                    same = True
                    for v in range(W):
                        if NEXT[eb + v] != NEXT[b + v]:
                            same = False
                            break
                    if same:
                        child = e
                        break
                    h = (h + 1) & tmask
            if side == 0:
                LO[node] = child
            else:
                HI[node] = child
    S.LEVEL[k + 2] = made
    REG[REG_NODES] = made
    return made - end


def reduce(S, k):
    """Level ``k`` reduced (levels below it are): ``LO[n]`` of each of its nodes becomes
    its node of ``OUT``. The caller leaves room for every node of the level in ``OUT``;
    ``TABLE`` holds no number of ``OUT`` at or past ``REG[REG_OUT]``. Returns the nodes
    made."""
    LO = S.LO
    HI = S.HI
    OUT = S.OUT
    TABLE = S.TABLE
    tmask = len(TABLE) - 1
    REG = S.REG
    first = REG[REG_OUT]
    r = first
    for node in range(S.LEVEL[k], S.LEVEL[k + 1]):
        # R1. [Children.] Their reduced nodes (a sink is its own).
        a = LO[node]
        lo = LO[a] if a >= 2 else a
        a = HI[node]
        hi = LO[a] if a >= 2 else a
        if hi == 0:  # R2. [Zero-suppress.]
            LO[node] = lo
            continue
        # R3. [Share.] The node (k, lo, hi) of this level, or a new one.
        h = (((lo * K1) ^ (hi * K2)) & HMASK)
        h = (h ^ (h >> 29)) & tmask
        while True:
            e = TABLE[h]
            if e < first:
                TABLE[h] = r
                OUT[3 * r] = k
                OUT[3 * r + 1] = lo
                OUT[3 * r + 2] = hi
                LO[node] = r
                r += 1
                break
            if OUT[3 * e + 1] == lo and OUT[3 * e + 2] == hi:
                LO[node] = e
                break
            h = (h + 1) & tmask
    REG[REG_OUT] = r
    return r - first


FUNCTIONS = ("state_hash", "expand", "reduce")
"""The kernel: plain Python over lists, or compiled by numba over int64 arrays."""


DECLARATION = Declaration(
    "frontier",
    functions=FUNCTIONS,
    entries={"expand": "Saai", "reduce": "Si"},
    state=FrontierState,
    registers=("NODES", "OUT", "WORDS"),
    dtypes=lambda: DTYPES,
    inline=frozenset({"state_hash"}),
    options={"_nrt": False},
)
"""The frontier construction. No reference counting (``_nrt``), as the ZDD store's: the
kernel allocates nothing."""
