"""A memoized search that builds a ZDD: Knuth's DLX6 (Nishino et al.'s "Dancing with
decision diagrams"), written once for the python and the numba backends.

Algorithm C (:mod:`dlx.kernel`) solves every subproblem it meets as if it were new. Here
each node of the search tree first looks up the *signature* of the problem that remains
there (which primary items are still to be covered and, for each secondary item still in
use, whether and to which color it has been purified). If that problem was solved before,
its answer is reused at once (a *hit*); otherwise it is solved and its answer stored. The
answer is a node of a zero-suppressed decision diagram (ZDD), and the diagram of all
answers is the set of all solutions: :class:`dlx.zdd.SolutionSet`.

The search is DLX6's, step for step: the same item choice (Knuth's, the first item of
fewest options), the same order of options, the same signatures, hence the same search
nodes (a hit is a node; a solution is a node too, as in DLX6). It differs in three ways:

* the ZDD is *reduced* as it is built: every node goes through one unique table, so that
  equal nodes ``(option, lo, hi)`` made in different places are one node (DLX6 makes a new
  node every time, so it may print more);
* its tables are open-addressing hash tables sized to the problem and doubled when half
  full, where DLX6 allocates a fixed 2**30-entry table (4.2 s of page faults on langford12);
* counts are exact: each node's count is kept in 64 bits while it fits, and the diagram is
  counted again with Python integers when it does not (DLX6 prints the count mod 2**64).

Multiplicities are refused (:class:`dlx.ArgumentError`): a signature would then have to
record how often each item is still to be covered. Costs are allowed: they do not change
the search, only :meth:`dlx.zdd.SolutionSet.best`.

The data structure
------------------

A *pointer* is an index into flat ``int64`` arrays (``list`` objects in the python
backend), all held by one :class:`MemoState`. The dancing links are those of
:mod:`dlx.links` (``U``, ``D``, ``TOP``, ``COLOR``; spacers as there), with three changes
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
re-enter their lists (:func:`toggle`), so a lookup costs ``W`` word compares, not a walk.

The memo table: entry ``e`` holds a signature ``MSIG[e*W : e*W + W]``, its hash
``MHASH[e]``, and its answer ``MZDD[e]`` (a ZDD node, 0 if the subproblem has no solution).
``MSLOT`` (a power of two long, at most half full) holds ``e + 1`` per used slot, found by
linear probing from ``hash & (len - 1)``.

The ZDD: node ``n`` is ``(ZOPT[n], ZLO[n], ZHI[n])``: the solutions of ``ZLO[n]``, and those
of ``ZHI[n]`` with option ``ZOPT[n]`` added. Nodes 0 and 1 are the sinks (no solution; the
empty solution). ``ZCNT[n]`` is its number of solutions, or -1 past 2**62. ``ZSLOT`` is the
unique table over them, as ``MSLOT``. Every node is made after its children, so node
numbers are a topological order.

Per level: ``CHOICE`` (the node tried), ``SAVEZ`` (the ZDD node of the options tried so far
at that level), ``MEMOAT`` (the memo entry of that level's subproblem).

The search is a loop over labelled steps with no recursion (any depth), resumable: it
returns after a node budget (for time-outs and Ctrl-C) or when a table is full (the driver
doubles it and calls again), its whole state in the arrays and ``REG``.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .budget import count_budget, time_budget
from .errors import ArgumentError, SearchStoppedError
from .search import SearchStats
from .slices import COMPILED_SLICE_SECONDS, TIMEOUT_SLICE_SECONDS, Slices
from .status import Status
from .zdd import MemoInput, SolutionSet, exact_counts, memo_input

__all__ = ["MemoInput", "MemoStats", "check_memo", "independent_parts", "memo_count",
           "memo_input", "memo_search"]

# ----- the kernel ------------------------------------------------------------------------

# Registers, REG[...].
LEVEL = 0  # the current level
NODES = 1  # search nodes (DLX6's: entries to a level, hits included, plus solutions)
HITS = 2  # memo hits (solutions included, as DLX6 counts them)
MEMOS = 3  # memo entries made (signatures stored)
GOOD = 4  # entries whose subproblem has solutions
UPDATES = 5  # nodes hidden from a list
ZNODES = 6  # ZDD nodes, the two sinks included: the next node's number
STEP = 7  # where the next call resumes: FORWARD or MAKE
ZNODE = 8  # registers of a search paused at MAKE
ZSOL = 9
N1 = 10  # the number of primary items (read-only)
WORDS = 11  # W, the words of a signature (read-only)
ZBOUND = 12  # the most ZDD nodes allowed (the sinks included; read-only)
ROOT = 13  # the answer: the ZDD node of the whole problem, once COMPLETE
MAX_LEVEL = 14  # the deepest level reached
N_REG = 15

# Steps.
FORWARD = 0  # enter a level: a node of the search tree
ADVANCE = 1  # try the option CHOICE[level], or back up if none is left
BACKUP = 2  # the level's item has no option left
BACKDOWN = 3  # return to the level above
MAKE = 4  # record an option that led to solutions: a ZDD node

# Statuses of search().
COMPLETE = int(Status.COMPLETE)
MAX_NODES = int(Status.MAX_NODES)  # the node budget of the call ran out
GROW_MEMO = 100  # the memo table is full: grow it and call again
GROW_ZDD = 101  # the ZDD table is full: grow it and call again
ZDD_BOUND = 102  # ZBOUND ZDD nodes made: stop

HUGE = 1 << 62
"""Larger than any length, count or hash: the empty minimum, the counts' ceiling."""

K1 = 0x9E3779B97F4A7C1
K2 = 0x5851F42D4C957F2
K3 = 0x2545F4914F6CDD1
MASK = (1 << 62) - 1


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


def toggle(k, code, S):
    """Item ``k`` with ``code`` enters or leaves the signature (XOR does both)."""
    S.CUR[S.SOFF[k]] ^= code << S.SSHIFT[k]
    w = S.REG[WORDS]
    S.CUR[w] ^= S.RND[S.SBASE[k] + code]


def leave(k, S):
    """Take item ``k`` out of its active list (and the signature)."""
    left = S.LL[k]
    right = S.RL[k]
    S.RL[left] = right
    S.LL[right] = left
    toggle(k, 1 + S.COLOR[k], S)


def enter(k, S):
    """Put item ``k`` back in its active list (and the signature): undoes :func:`leave`."""
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
    """Undo :func:`hide` of node ``r``'s option, walking it leftward."""
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
    """Undo :func:`cover` of item ``c``, its list walked upward."""
    U = S.U
    r = U[c]
    while r != c:
        unhide(r, S, n1)
        r = U[r]
    enter(c, S)


def purify(p, S, n1):
    """Fix the color of node ``p``'s secondary item: hide the options of other colors,
    mark those of its color -1. Its code in the signature becomes ``1 + color``; if no
    option is left it leaves its list (``LEN`` -1 says so to :func:`unpurify`)."""
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
    """Undo :func:`purify` of node ``p``, the item's list walked upward."""
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
    """Undo :func:`commit`, going left."""
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


def lookup(S):
    """The memo entry of the current signature if there is one (>= 0), else a new entry
    ``e`` for it, returned as ``-e - 1``. The table must have room (see :func:`search`)."""
    REG = S.REG
    CUR = S.CUR
    W = REG[WORDS]
    h = CUR[W]
    mask = len(S.MSLOT) - 1
    s = h & mask
    while True:
        e = S.MSLOT[s] - 1
        if e < 0:
            break
        if S.MHASH[e] == h:
            base = e * W
            w = 0
            while w < W and S.MSIG[base + w] == CUR[w]:
                w += 1
            if w == W:
                return e
        s = (s + 1) & mask
    e = REG[MEMOS]
    REG[MEMOS] = e + 1
    S.MSLOT[s] = e + 1
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
    is full (grow it, then call again), -2 if ``REG[ZBOUND]`` nodes exist already."""
    ZOPT = S.ZOPT
    ZLO = S.ZLO
    ZHI = S.ZHI
    mask = len(S.ZSLOT) - 1
    s = zhash(opt, lo, hi) & mask
    while True:
        n = S.ZSLOT[s]
        if n == 0:
            break
        if ZOPT[n] == opt and ZLO[n] == lo and ZHI[n] == hi:
            return n
        s = (s + 1) & mask
    REG = S.REG
    n = REG[ZNODES]
    if n >= REG[ZBOUND]:
        return -2
    if n >= len(ZOPT) or 2 * (n + 1) > len(S.ZSLOT):
        return -1
    REG[ZNODES] = n + 1
    S.ZSLOT[s] = n
    ZOPT[n] = opt
    ZLO[n] = lo
    ZHI[n] = hi
    a = S.ZCNT[lo]
    b = S.ZCNT[hi]
    S.ZCNT[n] = a + b if a >= 0 and b >= 0 and a + b < HUGE else -1
    return n


def search(S, node_stop):
    """Run the memoized search until it ends (COMPLETE: the answer is ``REG[ROOT]``),
    ``REG[NODES]`` reaches ``node_stop`` (MAX_NODES), a table is full (GROW_MEMO,
    GROW_ZDD) or the ZDD reaches its bound (ZDD_BOUND). Call again to resume.

    M1 enter a level: count the node, look the signature up (a hit returns its ZDD node
    at once); M2 choose an item and cover it; M3 try the next option of the level (commit
    it; a solution if no primary item is left, else go down); M4 no option left: uncover,
    store the level's answer in its memo entry; M5 back to the level above, undo the
    option; M6 if it led to solutions, add a ZDD node for it (DLX6's "recover").
    """
    REG = S.REG
    D = S.D
    TOP = S.TOP
    CHOICE = S.CHOICE
    SAVEZ = S.SAVEZ
    n1 = REG[N1]
    level = REG[LEVEL]
    nodes = REG[NODES]
    hits = REG[HITS]
    updates = REG[UPDATES]
    max_level = REG[MAX_LEVEL]
    step = REG[STEP]
    znode = REG[ZNODE]
    zsol = REG[ZSOL]
    status = COMPLETE
    x = CHOICE[level]
    i = TOP[x] if x > 0 else 0
    while True:
        if step == FORWARD:  # M1
            if nodes >= node_stop:
                status = MAX_NODES
                break
            if REG[MEMOS] >= len(S.MZDD) or 2 * (REG[MEMOS] + 1) > len(S.MSLOT):
                status = GROW_MEMO
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
            i = choose(S.LEN, S.RL)  # M2
            updates += cover(i, S, n1)
            x = D[i]
            CHOICE[level] = x
            step = ADVANCE
        elif step == BACKUP:  # M4
            uncover(i, S, n1)
            if znode != 0:
                S.MZDD[S.MEMOAT[level]] = znode
                REG[GOOD] += 1
            step = BACKDOWN
        elif step == BACKDOWN:  # M5
            if level == 0:
                REG[ROOT] = znode
                break
            level -= 1
            x = CHOICE[level]
            i = TOP[x]
            zsol = znode
            znode = SAVEZ[level]
            uncommit(x, S, n1)
            step = MAKE
        elif step == MAKE:  # M6
            if zsol != 0:
                z = make(S, S.OPT[x], znode, zsol)
                if z < 0:
                    status = GROW_ZDD if z == -1 else ZDD_BOUND
                    break
                znode = z
            x = D[x]
            CHOICE[level] = x
            step = ADVANCE
        else:  # M3
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
    REG[LEVEL] = level
    REG[NODES] = nodes
    REG[HITS] = hits
    REG[UPDATES] = updates
    REG[MAX_LEVEL] = max_level
    REG[STEP] = step
    REG[ZNODE] = znode
    REG[ZSOL] = zsol
    return status


def rehash_memo(MSLOT, MHASH, count):
    """Fill the (zeroed) memo slots with entries ``0..count-1``, after growing."""
    mask = len(MSLOT) - 1
    for e in range(count):
        s = MHASH[e] & mask
        while MSLOT[s] != 0:
            s = (s + 1) & mask
        MSLOT[s] = e + 1


def rehash_zdd(ZSLOT, ZOPT, ZLO, ZHI, count):
    """Fill the (zeroed) unique table with nodes ``2..count-1``, after growing."""
    mask = len(ZSLOT) - 1
    for n in range(2, count):
        s = zhash(ZOPT[n], ZLO[n], ZHI[n]) & mask
        while ZSLOT[s] != 0:
            s = (s + 1) & mask
        ZSLOT[s] = n


KERNEL_FUNCTIONS = ("toggle", "leave", "enter", "hide", "unhide", "cover", "uncover", "purify",
                    "unpurify", "commit", "uncommit", "choose", "lookup", "zhash", "make",
                    "search", "rehash_memo", "rehash_zdd")
"""The kernel: plain Python over lists, or compiled by numba over int64 arrays."""


# ----- the two backends ------------------------------------------------------------------


class _Python:
    """The kernel as written, over Python lists."""

    name = "python"
    search = staticmethod(search)
    rehash_memo = staticmethod(rehash_memo)
    rehash_zdd = staticmethod(rehash_zdd)
    slice_seconds = COMPILED_SLICE_SECONDS

    @staticmethod
    def array(a: np.ndarray) -> Any:
        return a.tolist()

    @staticmethod
    def zeros(n: int) -> Any:
        return [0] * n

    @staticmethod
    def grown(a: Any, n: int) -> Any:
        return a + [0] * (n - len(a))

    @staticmethod
    def numpy(a: Any) -> np.ndarray:
        return np.array(a, dtype=np.int64)


class _Numba(_Python):
    """The same kernel compiled by numba (:func:`compiled_kernel`), over int64 arrays."""

    name = "numba"

    def __init__(self) -> None:
        ns = compiled_kernel()
        self.search = ns.search
        self.rehash_memo = ns.rehash_memo
        self.rehash_zdd = ns.rehash_zdd

    @staticmethod
    def array(a: np.ndarray) -> Any:
        return np.ascontiguousarray(a, dtype=np.int64).copy()

    @staticmethod
    def zeros(n: int) -> Any:
        return np.zeros(n, dtype=np.int64)

    @staticmethod
    def grown(a: Any, n: int) -> Any:
        b = np.zeros(n, dtype=np.int64)
        b[: len(a)] = a
        return b

    @staticmethod
    def numpy(a: Any) -> np.ndarray:
        return a


@functools.cache
def compiled_kernel() -> types.SimpleNamespace:
    """The kernel's functions re-created over this module's globals and wrapped in
    ``numba.njit(cache=True, nogil=True)``: the same source as the python backend. Lazy
    (numba is imported on the first call) and the only place that knows about numba, so
    that it can move into :mod:`dlx.compiled`'s pipeline as it stands. The first search
    compiles (a few seconds) inside numba's index fix-up of :mod:`dlx.compiled`."""
    import numba

    namespace = dict(globals())
    for name in KERNEL_FUNCTIONS:
        f = namespace[name]
        g = types.FunctionType(f.__code__, namespace, name)
        g.__qualname__ = f"{name}__memo"
        namespace[name] = numba.njit(cache=True, nogil=True, boundscheck=False)(g)
    return types.SimpleNamespace(**{name: namespace[name] for name in KERNEL_FUNCTIONS})


def _backend(name: Any) -> _Python:
    if name == "python":
        return _Python()
    if name == "numba":
        try:
            return _Numba()
        except ImportError as e:
            raise ArgumentError(f"backend 'numba' needs numba, which cannot be imported "
                                f"({e})") from None
    raise ArgumentError(f"backend must be 'python' or 'numba', got {name!r}")


_numba_lock = threading.Lock()
_numba_ready: list[bool] = []


def _call(backend: _Python, S: MemoState, node_stop: int) -> int:
    """One kernel call. The compiled kernel's first call (which compiles or loads every
    entry point) runs under :mod:`dlx.compiled`'s non-negative indexing: every index in
    the kernel is a pointer >= 0, so numba need not wrap negative ones."""
    if backend.name == "numba" and not _numba_ready:
        with _numba_lock:
            if not _numba_ready:
                from .compiled import _nonnegative_indexing

                with _nonnegative_indexing():
                    status = backend.search(S, node_stop)
                    zero = np.zeros(2, dtype=np.int64)
                    backend.rehash_memo(zero, zero, 0)
                    backend.rehash_zdd(zero, zero, zero, zero, 2)
                _numba_ready.append(True)
                return int(status)
    return int(backend.search(S, node_stop))


# ----- input and set-up ------------------------------------------------------------------


def _arrays(data: MemoInput) -> dict[str, np.ndarray]:
    """The pristine arrays of the search (numpy), from the links of :mod:`dlx.links`."""
    from .links import build_links

    N, P = data.n_items, data.n_primary
    links = build_links(N, P, data.indptr, data.items, data.colors)
    A = links.arrays
    U, D, TOP = A.U.copy(), A.D.copy(), A.TOP.copy()
    LEN = np.zeros(N + 2, dtype=np.int64)
    LEN[1 : N + 1] = A.LEN[1 : N + 1]
    COLOR = np.zeros(len(TOP), dtype=np.int64)
    ncodes = np.ones(N + 1, dtype=np.int64)  # codes 1..ncodes[k] of item k (see toggle)
    for k in range(P + 1, N + 1):  # colors renumbered per item, in list order
        local: dict[int, int] = {}
        p = int(D[k])
        while p != k:
            c = int(A.COLOR[p])
            if c:
                COLOR[p] = local.setdefault(c, len(local) + 1)
            p = int(D[p])
        ncodes[k] = len(local) + 1
    LL = np.arange(N + 2, dtype=np.int64)
    RL = LL.copy()
    active = np.arange(P + 1, dtype=np.int64)
    LL[active], RL[active] = np.roll(active, 1), np.roll(active, -1)
    used = np.flatnonzero(LEN[P + 1 : N + 1] > 0) + P + 1  # unused ones never enter
    ring = np.concatenate(([N + 1], used)).astype(np.int64)
    LL[ring], RL[ring] = np.roll(ring, 1), np.roll(ring, -1)
    # The signature: item k's code takes `bits` bits; items packed 63 bits to a word.
    SOFF = np.zeros(N + 1, dtype=np.int64)
    SSHIFT = np.zeros(N + 1, dtype=np.int64)
    SBASE = np.zeros(N + 1, dtype=np.int64)
    word = shift = base = 0
    for k in range(1, N + 1):
        bits = int(ncodes[k]).bit_length()
        if shift + bits > 63:
            word, shift = word + 1, 0
        SOFF[k], SSHIFT[k], SBASE[k] = word, shift, base
        shift += bits
        base += int(ncodes[k]) + 1
    W = word + 1
    rng = np.random.default_rng(20171)  # fixed: the same tables on every machine
    RND = rng.integers(1, 1 << 62, size=base + 1, dtype=np.int64)
    CUR = np.zeros(W + 1, dtype=np.int64)
    for k in np.concatenate((active[1:], used)).tolist():
        CUR[SOFF[k]] ^= 1 << int(SSHIFT[k])
        CUR[W] ^= RND[SBASE[k] + 1]
    levels = P + 2
    REG = np.zeros(N_REG, dtype=np.int64)
    REG[N1] = data.n_primary
    REG[WORDS] = W
    REG[ZNODES] = 2
    return {"U": U, "D": D, "TOP": TOP, "COLOR": COLOR, "LEN": LEN, "LL": LL, "RL": RL,
            "OPT": links.option_of_node.copy(), "SOFF": SOFF, "SSHIFT": SSHIFT,
            "SBASE": SBASE, "RND": RND, "CUR": CUR,
            "CHOICE": np.zeros(levels, dtype=np.int64),
            "SAVEZ": np.zeros(levels, dtype=np.int64),
            "MEMOAT": np.zeros(levels, dtype=np.int64), "REG": REG}


def _state(backend: _Python, data: MemoInput, zbound: int) -> MemoState:
    """A fresh search's state, its tables sized to the problem (grown when full)."""
    arrays = _arrays(data)
    W = int(arrays["REG"][WORDS])
    memo = 1 << max(10, (4 * data.n_primary).bit_length())  # slots; entries: half of it
    zdd = memo
    arrays["REG"][ZBOUND] = zbound
    S = {name: backend.array(a) for name, a in arrays.items()}
    ZCNT = backend.zeros(zdd // 2)
    ZCNT[1] = 1
    return MemoState(**S, MSLOT=backend.zeros(memo), MHASH=backend.zeros(memo // 2),
                     MZDD=backend.zeros(memo // 2), MSIG=backend.zeros(memo // 2 * W),
                     ZSLOT=backend.zeros(zdd), ZOPT=backend.zeros(zdd // 2),
                     ZLO=backend.zeros(zdd // 2), ZHI=backend.zeros(zdd // 2), ZCNT=ZCNT)


def _grow_memo(backend: _Python, S: MemoState) -> MemoState:
    """The memo table doubled, its entries rehashed."""
    slots = 2 * len(S.MSLOT)
    W = int(S.REG[WORDS])
    S = S._replace(MSLOT=backend.zeros(slots), MHASH=backend.grown(S.MHASH, slots // 2),
                   MZDD=backend.grown(S.MZDD, slots // 2),
                   MSIG=backend.grown(S.MSIG, slots // 2 * W))
    backend.rehash_memo(S.MSLOT, S.MHASH, int(S.REG[MEMOS]))
    return S


def _grow_zdd(backend: _Python, S: MemoState) -> MemoState:
    """The ZDD's arrays and unique table doubled, its nodes rehashed."""
    slots = 2 * len(S.ZSLOT)
    S = S._replace(ZSLOT=backend.zeros(slots), ZOPT=backend.grown(S.ZOPT, slots // 2),
                   ZLO=backend.grown(S.ZLO, slots // 2), ZHI=backend.grown(S.ZHI, slots // 2),
                   ZCNT=backend.grown(S.ZCNT, slots // 2))
    backend.rehash_zdd(S.ZSLOT, S.ZOPT, S.ZLO, S.ZHI, int(S.REG[ZNODES]))
    return S


# ----- the driver ------------------------------------------------------------------------


@dataclass
class MemoStats(SearchStats):
    """:class:`dlx.SearchStats` of a memoized search, with DLX6's other totals: ``hits``
    (solutions included, as DLX6 counts them), ``memos`` (signatures stored), ``good_memos``
    (those with solutions) and ``zdd_nodes`` (the sinks included, as DLX6 counts them)."""

    hits: int = 0
    memos: int = 0
    good_memos: int = 0
    zdd_nodes: int = 0


def memo_search(problem: Any, *, backend: str = "python", max_nodes: Any = None,
                timeout: Any = None, max_zdd_nodes: Any = None, keep: bool = True,
                parts: bool = False,
                progress: Callable[[MemoStats], None] | None = None) -> tuple[Any, MemoStats]:
    """Build the ZDD of all solutions of ``problem`` by the memoized search.

    Returns ``(solutions, stats)``: a :class:`dlx.zdd.SolutionSet` if ``keep``, else the
    exact number of solutions (a Python int). ``max_nodes`` bounds the search nodes,
    ``timeout`` the seconds, ``max_zdd_nodes`` the diagram's nodes (the two sinks
    included); when one runs out, :class:`dlx.SearchStoppedError` is raised with the
    stats (status ``MAX_NODES`` for either count, or ``TIMEOUT``); Ctrl-C gets through
    between two slices of the kernel as ``KeyboardInterrupt``. ``parts=True`` first splits
    the problem into independent parts (:func:`independent_parts`), searches each alone
    and multiplies: DLX6's nodes then differ; without it the search is DLX6's.
    ``progress``, if given, is called after each slice of the kernel (about 5 times a
    second, and at the end of each part) with the stats so far, for a progress line.
    """
    kernel = _backend(backend)
    node_budget = count_budget(max_nodes, "max_nodes")
    seconds = time_budget(timeout)
    zbound = count_budget(max_zdd_nodes, "max_zdd_nodes", minimum=2)
    for name, flag in (("keep", keep), ("parts", parts)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ArgumentError(f"{name} must be True or False, got {flag!r}")
    data = memo_input(problem)
    pieces = independent_parts(data) if parts else [(data, None)]
    stats = MemoStats(backend=kernel.name)
    start = time.perf_counter()
    diagrams: list[Diagram] = []
    try:
        for piece, options in pieces:
            one = MemoStats(backend=kernel.name)
            left = None if seconds is None else seconds - (time.perf_counter() - start)
            report = None if progress is None else functools.partial(
                _report, progress, stats, not diagrams)
            try:
                S = _run(kernel, piece, one, node_budget - stats.nodes, left,
                         zbound - stats.zdd_nodes + 2 * bool(diagrams), time.perf_counter(),
                         report)
            finally:
                _add(stats, one, first=not diagrams)
            diagrams.append(_diagram(kernel, S, options))
            if diagrams[-1][0] == 0:
                break  # a part without solutions: none at all
    except KeyboardInterrupt:  # between two slices: the stats say how far it got
        stats.status = Status.INTERRUPTED
        raise
    except SearchStoppedError as e:
        raise SearchStoppedError(str(e), stats) from None
    finally:
        stats.seconds = time.perf_counter() - start
    root, opt, lo, hi, counts = _product(diagrams)
    stats.status = Status.COMPLETE
    stats.solutions = counts[root]
    if root == 0:
        stats.zdd_nodes = 1  # as DLX6 counts an empty diagram
    if not keep:
        return counts[root], stats
    return SolutionSet._from_search(problem, root, opt, lo, hi, counts), stats


Diagram = tuple[int, np.ndarray, np.ndarray, np.ndarray, list[int]]
"""A finished search's ZDD: its root, ``ZOPT``, ``ZLO``, ``ZHI`` and the exact counts."""


def _diagram(kernel: _Python, S: MemoState | None, options: np.ndarray | None) -> Diagram:
    """The ZDD of a completed search, its options renumbered by ``options`` (a part's
    option -> the problem's), its counts exact (Python ints past the kernel's 2**62)."""
    if S is None:  # no primary item: the one solution is the empty set
        zero = np.zeros(2, dtype=np.int64)
        return 1, zero, zero, zero, [0, 1]
    n = int(S.REG[ZNODES])
    opt, lo, hi = (kernel.numpy(a)[:n].copy() for a in (S.ZOPT, S.ZLO, S.ZHI))
    if options is not None:
        opt[2:] = options[opt[2:]]
    counts = kernel.numpy(S.ZCNT)[:n].tolist()
    root = int(S.REG[ROOT])
    if counts[root] < 0:
        counts = exact_counts(lo, hi)
    return root, opt, lo, hi, counts


def _product(diagrams: list[Diagram]) -> Diagram:
    """The product of the families of independent parts (no option in two of them): the
    diagrams laid one above the other, the empty-set sink of each replaced by the root of
    the one below. Counts multiply. A part without solutions empties the product."""
    root, opt, lo, hi, counts = diagrams[-1]
    for r, o, lo2, hi2, c in reversed(diagrams[:-1]):
        if root == 0 or r == 0:
            zero = np.zeros(2, dtype=np.int64)
            return 0, zero, zero, zero, [0, 1]
        shift = len(opt) - 2
        move = np.arange(len(o), dtype=np.int64) + shift  # a node's number in the product
        move[0], move[1] = 0, root
        opt = np.concatenate((opt, o[2:]))
        lo = np.concatenate((lo, move[lo2[2:]]))
        hi = np.concatenate((hi, move[hi2[2:]]))
        below = counts[root]
        counts = counts + [x * below for x in c[2:]]
        root = int(move[r])
    return root, opt, lo, hi, counts


def independent_parts(data: MemoInput) -> list[tuple[MemoInput, np.ndarray | None]]:
    """The problem split into parts that share no item: primary items joined by an option
    (through any of its items, secondary ones included) belong to one part. Each part is
    a problem of its own, with its options (those with a primary item) and the map of
    its option numbers to the problem's; one part: the problem itself, no map. The
    solutions are the products of the parts' solutions (DXD's decomposition, applied
    before the search)."""
    n, n1 = data.n_items, data.n_primary
    parent = list(range(n + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    indptr = data.indptr.tolist()
    items = data.items.tolist()
    kept = [k for k, keep in enumerate(data.kept()) if keep]  # others are never chosen
    for k in kept:
        mine = items[indptr[k]:indptr[k + 1]]
        r = find(mine[0])
        for x in mine[1:]:
            parent[find(x)] = r
    roots = sorted({find(x) for x in range(1, n1 + 1)}, key=lambda r: min(
        x for x in range(1, n1 + 1) if find(x) == r))
    if len(roots) <= 1:
        return [(data, None)]
    out: list[tuple[MemoInput, np.ndarray | None]] = []
    for r in roots:
        primary = [x for x in range(1, n1 + 1) if find(x) == r]
        secondary = [x for x in range(n1 + 1, n + 1) if find(x) == r]
        number = {x: j + 1 for j, x in enumerate(primary + secondary)}
        options = [k for k in kept if find(items[indptr[k]]) == r]
        starts, its, cols = [0], [], []
        for k in options:
            for j in range(indptr[k], indptr[k + 1]):
                its.append(number[items[j]])
                cols.append(int(data.colors[j]))
            starts.append(len(its))
        costs = None if data.costs is None else data.costs[options]
        out.append((MemoInput(len(number), len(primary), np.array(starts, dtype=np.int64),
                              np.array(its, dtype=np.int64), np.array(cols, dtype=np.int64),
                              costs), np.array(options, dtype=np.int64)))
    return out


def _report(progress: Callable[[MemoStats], None], done: MemoStats, first: bool,
            part: MemoStats) -> None:
    """Call ``progress`` with the totals: the parts done and the part under way."""
    total = dataclasses.replace(done)
    _add(total, part, first)
    progress(total)


def _add(total: MemoStats, part: MemoStats, first: bool) -> None:
    """Add a part's search to the totals (its two sinks are counted once)."""
    total.nodes += part.nodes
    total.updates += part.updates
    total.max_level = max(total.max_level, part.max_level)
    total.hits += part.hits
    total.memos += part.memos
    total.good_memos += part.good_memos
    total.zdd_nodes += part.zdd_nodes - (0 if first else 2)
    total.status = part.status


def memo_count(problem: Any, **kwargs: Any) -> int:
    """The exact number of solutions of ``problem``, by the memoized search
    (``count(memo=True)``); keyword arguments as :func:`memo_search`."""
    count, _ = memo_search(problem, keep=False, **kwargs)
    return int(count)


def _run(kernel: _Python, data: MemoInput, stats: MemoStats, node_budget: int,
         seconds: float | None, zbound: int, start: float,
         report: Callable[[MemoStats], None] | None = None) -> MemoState | None:
    """The kernel in slices until it completes (returns its state) or a budget runs out
    (raises :class:`SearchStoppedError`); None for a problem without primary items."""
    if data.n_primary == 0:
        stats.nodes = 1
        stats.status = Status.COMPLETE
        return None
    S = _state(kernel, data, zbound)
    if seconds is not None:
        slices = Slices(TIMEOUT_SLICE_SECONDS, first=1)
        deadline: float | None = start + seconds
    else:
        slices = Slices(kernel.slice_seconds, first=1024)
        deadline = None
    while True:
        before = int(S.REG[NODES])
        t0 = time.perf_counter()
        status = _call(kernel, S, min(node_budget, before + slices.nodes))
        now = time.perf_counter()
        _read(S, stats)
        if report is not None:
            report(stats)
        if status == GROW_MEMO:
            S = _grow_memo(kernel, S)
        elif status == GROW_ZDD:
            S = _grow_zdd(kernel, S)
        elif status == COMPLETE:
            stats.status = Status.COMPLETE
            return S
        elif status == ZDD_BOUND:
            stats.status = Status.MAX_NODES
            raise SearchStoppedError("max_zdd_nodes ran out: the diagram needs more nodes",
                                     stats)
        elif stats.nodes >= node_budget:
            stats.status = Status.MAX_NODES
            raise SearchStoppedError("max_nodes ran out before the memoized search finished",
                                     stats)
        left = None if deadline is None else deadline - now
        if left is not None and left <= 0:
            stats.status = Status.TIMEOUT
            raise SearchStoppedError("timeout ran out before the memoized search finished",
                                     stats)
        slices.ran(stats.nodes - before, now - t0, left)


def _read(S: MemoState, stats: MemoStats) -> None:
    """The registers into ``stats``."""
    R = S.REG
    stats.nodes = int(R[NODES])
    stats.updates = int(R[UPDATES])
    stats.max_level = int(R[MAX_LEVEL])
    stats.hits = int(R[HITS])
    stats.memos = int(R[MEMOS])
    stats.good_memos = int(R[GOOD])
    stats.zdd_nodes = int(R[ZNODES])


# ----- the sanity checker ------------------------------------------------------------------


def check_memo(S: MemoState) -> None:
    """Knuth's sanity check of a live state, between kernel calls (raises AssertionError):
    the active lists against ``LEN``, each list's links, the signature and its hash against
    one computed afresh from the active lists, the memo and unique tables, and that every
    ZDD node is reduced and made after its children. O(size): for tests."""
    R = [int(v) for v in S.REG]
    n1, W = R[N1], R[WORDS]
    N = len(S.LEN) - 2
    LL, RL, LEN, COLOR = list(S.LL), list(S.RL), list(S.LEN), list(S.COLOR)
    sig = [0] * (W + 1)
    for head, items in ((0, range(1, n1 + 1)), (N + 1, range(n1 + 1, N + 1))):
        q, p, seen = head, RL[head], set()
        while p != head:
            if LL[p] != q or p not in items or p in seen:
                raise AssertionError(f"bad active list at item {p}")
            if head and LEN[p] <= 0:
                raise AssertionError(f"active secondary item {p} has LEN {LEN[p]}")
            seen.add(p)
            code = 1 + COLOR[p]
            sig[S.SOFF[p]] ^= code << S.SSHIFT[p]
            sig[W] ^= int(S.RND[S.SBASE[p] + code])
            q, p = p, RL[p]
        if LL[head] != q:
            raise AssertionError(f"bad LL at list head {head}")
    if sig != [int(v) for v in S.CUR]:
        raise AssertionError("the signature differs from the active lists")
    U, D, TOP = list(S.U), list(S.D), list(S.TOP)
    for x in range(1, N + 1):
        prev, node, k = x, D[x], 0
        while node != x:
            if U[node] != prev or TOP[node] != x:
                raise AssertionError(f"bad link at node {node} of item {x}")
            k += COLOR[node] >= 0
            prev, node = node, D[node]
            if k > len(TOP):
                raise AssertionError(f"list of item {x} does not close")
        if COLOR[x] == 0 and LEN[x] >= 0 and k != LEN[x]:
            raise AssertionError(f"LEN of item {x} is {LEN[x]}, its list holds {k}")
    slots = [int(v) for v in S.MSLOT if v]
    if sorted(slots) != list(range(1, R[MEMOS] + 1)):
        raise AssertionError("the memo table does not hold each entry once")
    nodes = R[ZNODES]
    for n in range(2, nodes):
        lo, hi = int(S.ZLO[n]), int(S.ZHI[n])
        if not (0 <= lo < n and 1 <= hi < n):
            raise AssertionError(f"ZDD node {n} points to ({lo}, {hi})")
    unique = sorted(int(v) for v in S.ZSLOT if v)
    if unique != list(range(2, nodes)):
        raise AssertionError("the unique table does not hold each ZDD node once")
    triples = {(int(S.ZOPT[n]), int(S.ZLO[n]), int(S.ZHI[n])) for n in range(2, nodes)}
    if len(triples) != nodes - 2:
        raise AssertionError("two ZDD nodes are equal")
