"""The canonical ZDD store: where every [`dlx.SolutionSet`][] of a problem lives, as one
node of one diagram.

One store per problem (its content: ``problem.matrix.digest``), backend and option order,
shared by every set of it, held as long as a set holds it ([`store_for`][]). Its nodes are
ordered by that order of the options: the problem's automatic one ([`order_for`][],
[`dlx.orders.option_order`][]: of a few candidates, the one with the narrowest frontier),
or one the user gives (``solution_set(option_order=...)``); and made through one unique
table, so that a family has exactly one node in a store: equal sets of one store are the
same node, ``==`` a comparison of numbers. Sets of stores of two orders are compared and
combined by bringing one into the other's order ([`Store.adopt`][]); ``hash`` is a
fingerprint of the family that no order changes ([`Store.fingerprint`][]). The set
algebra ([`dlx.kernels.zdd`][]) runs compiled by numba on the numba backend, as written
on the python one, with an operation cache. The kernel's *variable* of an option is its
rank in the store's order; the store speaks options to its callers.

A diagram made elsewhere (the memoized search's, which follows the search's order; a
text's; a store's of another order) enters once ([`Store.import_diagram`][]): node by
node, children first, as the union of its two halves, in a scratch store whose
intermediate results are dropped; only the nodes of the result are copied into the store
([`Store.add_ordered`][]).

Memory is bounded: a store does not grow past ``max_memory`` bytes (by default
[`dlx.request.memory_default`][], a quarter of the machine's memory); a call that would
need more raises [`dlx.SearchStoppedError`][] (status ``MAX_MEMORY``). Nodes no live set
reaches are garbage, collected ([`Store.gc`][], [`dlx.zdd_gc`][]) when asked and,
as the store nears its bound, at the next set operation. A store is used under its
lock, so sets of one problem may be combined from several threads.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .backend import ZddKernel
from .errors import ArgumentError
from .kernels import zdd as kz
from .orders import option_order
from .zdd_gc import Pin, collect, pinned

__all__ = ["MemoInput", "Store", "exact_counts", "memo_input", "option_order", "order_for",
           "store_for"]

FIRST_NODES = 1 << 10
"""Node slots of a new store (doubled when full)."""

ITEMSIZES = tuple(np.dtype(d).itemsize for d in kz.DTYPES)
"""The bytes of an entry of each of the store's arrays, as compiled."""

MOST_CACHE = 1 << 22
"""At most this many entries in the operation cache (128 MB)."""


class Store:
    """The canonical nodes of one problem's sets in one option order (see the module).
    ``order`` lists the options in the store's order ([`option_order`][], or the user's);
    ``backend`` names the backend whose
    kernel runs the operations (``auto``: python while small, numba from
    [`dlx.registry.NUMBA_MIN_NODES`][] nodes on, when it can run); ``max_memory`` is the
    most bytes its arrays may take; ``work``, the nodes expected (``auto``'s choice);
    ``slots``, the nodes it has room for before it first grows.

    Its memory ([`memory`][]): 32 bytes a node slot (the node's three words, two 32-bit
    slots of the unique table); from the first count or hash on,
    16 more (the counts and fingerprints); from the first operation on, the operation cache
    (16 bytes a slot, at most [`MOST_CACHE`][] entries). The slots double when full,
    unless the nodes to come are known ([`reserve`][]): then they are made that many at
    once."""

    def __init__(self, digest: str, order: np.ndarray, backend: str = "auto",
                 max_memory: int | None = None, work: int = 0, slots: int = 0) -> None:
        from .request import memory_default

        self.digest = digest
        self.order = np.asarray(order, dtype=np.int64)
        """The options in the store's order: variable ``k`` is option ``order[k]``."""
        self.rank = np.empty(len(self.order) + 1, dtype=np.int64)
        """Option -> its variable (and -1, a sink's option, -> -1)."""
        self.rank[self.order] = np.arange(len(self.order))
        self.rank[-1] = -1
        self._weights: tuple[Any, Any, Any] | None = None
        """The kernel, and each variable's weights in it ([`fingerprint`][]), once made."""
        self.backend = backend
        self._max_memory = memory_default() if max_memory is None else max_memory
        self.lock = threading.RLock()
        """Held around every use of the arrays (they are replaced when they grow)."""
        self.kernel = _kernel(backend, work)
        room = max(FIRST_NODES, min(slots, kz.MOST_NODES - 1))
        while room > FIRST_NODES and _bytes(room, 0, len(self.order)) > self.max_memory:
            room //= 2
        self.S = self._fresh(room)
        self._sets: list[weakref.ref[Any]] = []
        """Weak references to the sets whose node is here (``_at``; not a ``WeakSet``: a
        set's hash and ``==`` are its family's, and equal sets are two roots): roots of
        [`gc`][], renumbered by it; the dead ones dropped when the list has doubled."""
        self._prune_at = 1024
        self._kept = 0
        """The nodes the last collection kept ([`safe_point`][]'s rule)."""
        self._roomy: Any = None
        """The arrays ``S`` last found under half of ``max_memory`` ([`safe_point`][]:
        the bytes change only with the arrays)."""
        self._pins: list[Pin] = []
        """Nodes held by code across calls ([`pinned`][]): roots of [`gc`][] too."""

    @property
    def max_memory(self) -> int:
        """The most bytes the store's arrays may take (settable: a positive integer, else
        [`dlx.ArgumentError`][])."""
        return self._max_memory

    @max_memory.setter
    def max_memory(self, value: int) -> None:
        from .budget import as_index
        from .errors import ArgumentError

        bound = as_index(value)
        if bound is None or bound <= 0:
            raise ArgumentError(f"max_memory must be a positive number of bytes, got "
                                f"{value!r}")
        self._max_memory = bound
        self._roomy = None

    def _fresh(self, slots: int) -> kz.ZddState:
        """Empty arrays with room for ``slots`` nodes: the two sinks only (no cache yet:
        it is made by the first operation)."""
        NODE = np.zeros(kz.NW * slots, dtype=kz.DTYPES[0])
        NODE[0] = NODE[kz.NW] = kz.BOTTOM
        REG = np.zeros(kz.N_REG, dtype=np.int64)
        REG[kz.REG_NODES] = 2
        k = self.kernel
        return kz.ZddState(k.array(NODE), k.zeros(0, np.int64), k.zeros(0, np.int64),
                           k.zeros(_table(slots), kz.DTYPES[3]), k.zeros(0, np.int64),
                           k.zeros(kz.stack_words(len(self.order)), np.int64), k.array(REG))

    # ----- size ----------------------------------------------------------------------------

    @property
    def nodes(self) -> int:
        """Nodes made so far, the two sinks included."""
        return int(self.S.REG[kz.REG_NODES])

    @property
    def slots(self) -> int:
        """Nodes the arrays have room for."""
        return len(self.S.NODE) // kz.NW

    def memory(self) -> int:
        """The bytes of the store's arrays (as compiled: 4 a 32-bit field, 8 the
        others)."""
        return sum([len(a) * w for a, w in zip(self.S, ITEMSIZES)])

    def _grow(self, slots: int = 0) -> None:
        """Double the node slots (or make them ``slots``, more: one step instead of many,
        the old arrays and the new alive together once), the unique table and the cache
        with them; or raise [`dlx.SearchStoppedError`][] if that would pass
        ``max_memory`` (or [`dlx.kernels.zdd.MOST_NODES`][]). An ``auto`` store that has
        grown past a few thousand nodes moves to numba here."""
        S = self.S
        slots = max(slots, 2 * self.slots)
        cache = 4 * _cache(slots) if len(S.CACHE) else 0
        need = _bytes(slots, cache, len(self.order))
        if need > self.max_memory or slots >= kz.MOST_NODES:
            _out_of_memory(self, need)
        kernel = _kernel(self.backend, slots)
        if kernel is not self.kernel:  # auto's move (python to numba: never back)
            S = kz.ZddState(*(kernel.array(np.asarray(self.kernel.numpy(a), dtype=d))
                              for a, d in zip(S, kz.DTYPES)))
            self.kernel = kernel
        k = self.kernel
        old_cache = S.CACHE
        tallied = len(S.COUNT) > 0  # (else made by the first tally)
        S = S._replace(NODE=k.grown(S.NODE, kz.NW * slots),
                       COUNT=k.grown(S.COUNT, slots) if tallied else S.COUNT,
                       SIG=k.grown(S.SIG, slots) if tallied else S.SIG,
                       SLOT=k.zeros(_table(slots), kz.DTYPES[3]),
                       CACHE=k.zeros(cache, np.int64) if cache != len(S.CACHE) else S.CACHE)
        k.rehash(S)
        if S.CACHE is not old_cache and len(old_cache):
            k.recache(old_cache, S)
        self.S = S

    def reserve(self, more: int) -> None:
        """Grow now (as [`_grow`][] would, under ``max_memory``) until ``more`` nodes fit
        without growing again: to that many slots exactly, not to the next doubling."""
        with self.lock:
            if self.nodes + more > self.slots:
                self._grow(self.nodes + more)

    def _cached(self) -> None:
        """Make the operation cache if there is none yet (the first operation; the caller
        holds the lock): zeros that the system maps page by page as the operations write
        them (a small operation on a large store costs a few pages, not the whole
        cache)."""
        if len(self.S.CACHE) == 0:
            cache = 4 * _cache(self.slots)
            while cache > 4 * 1024 and self.memory() + 8 * cache > self.max_memory:
                cache //= 2  # a smaller cache: lossy all the same
            if self.memory() + 8 * cache > self.max_memory:
                _out_of_memory(self, self.memory() + 8 * cache)
            self.S = self.S._replace(CACHE=self.kernel.blank(cache))

    def clear_cache(self) -> None:
        """Forget the operation cache (results are computed again when asked); a store
        without one yet has it made, empty, its memory written: as the cache of a store
        in use, which the first operation then finds ready."""
        with self.lock:
            self._cached()
            cache = self.S.CACHE
            cache[:] = self.kernel.zeros(len(cache), np.int64)  # in place: pages stay mapped

    # ----- garbage collection -----------------------------------------------------------------

    def register(self, holder: Any) -> None:
        """Keep ``holder`` (a set whose ``_at`` is ``(self, node)``) as a root of [`gc`][]
        while it lives: [`gc`][] writes its new node into its ``_at``. The caller holds
        the lock from making the node to registering it."""
        self._sets.append(weakref.ref(holder))
        if len(self._sets) > self._prune_at:
            with self.lock:
                self._sets = [r for r in self._sets if r() is not None]
                self._prune_at = 2 * len(self._sets) + 1024

    def pinned(self, *nodes: int) -> contextlib.AbstractContextManager[Pin]:
        """Hold raw node numbers across calls that release the lock: a
        [`dlx.zdd_gc.Pin`][] whose ``nodes`` are roots of [`gc`][], renumbered by it,
        until the block ends (``with store.pinned(node) as pin:``)."""
        return pinned(self, nodes)

    def gc(self) -> int:
        """Drop the nodes no live set and no pinned node reaches, and renumber the others
        in their order ([`dlx.zdd_gc.collect`][]): the nodes dropped."""
        return collect(self)

    def safe_point(self) -> Store:
        """Collect ([`gc`][]) if it is due, at a point where the calling thread holds no
        raw node (a set operation, before it reads its operands): when the store is
        more than half full, past half its ``max_memory`` (it could not double), and
        has at least twice the nodes the last collection kept (CUDD's rule of thumb: a
        collection's cost, linear in the nodes, is paid for by as many nodes made).
        Returns the store."""
        with self.lock:
            nodes = self.nodes
            if self.S is not self._roomy and nodes > 2 * self._kept and \
                    2 * nodes > self.slots:
                if 2 * self.memory() > self.max_memory:
                    self.gc()
                else:
                    self._roomy = self.S
        return self

    # ----- operations ------------------------------------------------------------------------

    def apply(self, op: int, f: int, g: int) -> int:
        """``f op g`` ([`dlx.kernels.zdd`][]'s binary operations) in the store: its node."""
        with self.lock:
            if not len(self.S.CACHE):
                self._cached()
            r = int(self.kernel.apply(self.S, op, f, g))
            while r < 0:
                if r != kz.FULL:
                    raise AssertionError(f"the ZDD kernel returned {r}")
                self._grow()  # the operation's frames wait in its stack
                r = int(self.kernel.apply(self.S, kz.GO_ON, 0, 0))
            return r

    def apply_option(self, op: int, f: int, option: int) -> int:
        """``WITHOUT``, ``WITH`` or ``INSERT`` of ``option`` on ``f``: its node."""
        return self.apply(op, f, int(self.rank[option]))

    def import_diagram(self, root: int, opt: Sequence[int] | np.ndarray,
                       lo: Sequence[int] | np.ndarray, hi: Sequence[int] | np.ndarray) -> int:
        """The node of the family of ``root`` in a diagram in any order of options (the
        search's, a text's: nodes after their children, sinks 0 and 1, no set below a
        node holding its option), brought into the store's order in a scratch store
        first (see the module). The scratch store starts with room for eight times the
        diagram's nodes, about what the domino boards' imports make (grown from small
        instead, the imports of 12 x 12 and 14 x 14 took 1.1-1.3 times as long)."""
        if root < 2:
            return root
        n = root + 1  # nodes above the root do not count
        scratch = Store(self.digest, self.order, self.backend,
                        max(self.max_memory - self.memory(), 0), work=n, slots=8 * n)
        given = [self.rank[np.asarray(opt[:n], dtype=np.int64)],
                 np.asarray(lo[:n], dtype=np.int64), np.asarray(hi[:n], dtype=np.int64),
                 np.arange(n, dtype=np.int64)]
        start = 2
        with scratch.lock:
            scratch._cached()
            while True:
                k = scratch.kernel
                OPT, LO, HI, MAP = (k.array(a) for a in given)
                status = int(k.import_diagram(scratch.S, OPT, LO, HI, MAP, start, n))
                if status == 0:
                    break
                start = int(scratch.S.REG[kz.REG_RESUME])
                given[3] = k.numpy(MAP)  # what is done so far (the kernel may change)
                scratch._grow()
        return self.adopt(scratch, int(MAP[root]))

    def adopt(self, other: Store, node: int) -> int:
        """The node here of ``node``, a node of another store of the same problem: copied
        node by node if the two stores order the options alike, else brought into this
        store's order ([`import_diagram`][])."""
        if other is self or node < 2:
            return node
        return self.take(other, other.export(node))

    def take(self, other: Store, diagram: tuple[int, Any, Any, Any]) -> int:
        """The node here of ``diagram``, an [`export`][] of ``other`` (a store of the same
        problem): [`add_ordered`][] if the two order the options alike, else
        [`import_diagram`][]."""
        if other.order is self.order or np.array_equal(other.order, self.order):
            return self.add_ordered(*diagram)
        return self.import_diagram(*diagram)

    def add_ordered(self, root: int, opt: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> int:
        """The node here of ``root`` in a reduced diagram ordered as the store orders
        options (an [`export`][] of a store of the same problem): each node made here in
        turn, children first."""
        if root < 2:
            return root
        return int(self._transfer(_triples(self.rank[np.asarray(opt, dtype=np.int64)], lo,
                                           hi))[root])

    def _transfer(self, triples: Any) -> np.ndarray:
        """The nodes here of every node of an ordered diagram, ``triples`` (node ``n``:
        ``(var, lo, hi)`` at ``3n``; sinks 0 and 1, nodes after their children; 32-bit
        words), made in turn: their numbers here. ``triples`` is the kernel's map as it
        goes (each ``var`` replaced by the node made): written over."""
        T = np.asarray(triples, dtype=np.int32)
        T[0], T[3] = 0, 1  # the sinks are themselves
        n = len(T) // 3
        start = 2
        with self.lock:
            while True:
                k = self.kernel
                given = k.array(T)  # numba's: T itself, no copy
                status = int(k.transfer(self.S, given, start, n))
                T = np.asarray(k.numpy(given), dtype=np.int32)  # what is done so far
                if status == 0:
                    return T[0::3]
                start = int(self.S.REG[kz.REG_RESUME])
                self._grow()

    def family(self, sets: Sequence[Sequence[int]]) -> int:
        """The node of the family of ``sets``, each a set of options (any; repeats
        count once): each set a chain of nodes, all made in one pass, then united two
        by two (a balanced tree of unions: each set takes part in about log2 of their
        number)."""
        var: list[int] = [-1, -1]
        lo: list[int] = [0, 0]
        hi: list[int] = [0, 0]
        tops: list[int] = []
        rank = self.rank.tolist()
        for chosen in sets:
            below = 1
            for v in sorted({rank[o] for o in chosen}, reverse=True):
                var.append(v)
                lo.append(0)
                hi.append(below)
                below = len(var) - 1
            tops.append(below)
        if not tops:
            return 0
        with self.lock:  # (the roots are raw nodes until united: see gc)
            made = self._transfer(_triples(var, lo, hi))
            roots = np.asarray(made)[np.asarray(tops, dtype=np.int64)].tolist()
            while len(roots) > 1:
                roots = [self.apply(kz.UNION, roots[i], roots[i + 1]) if i + 1 < len(roots)
                         else roots[i] for i in range(0, len(roots), 2)]
            return int(roots[0])

    # ----- reading -----------------------------------------------------------------------------

    def export(self, node: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """The diagram of ``node`` alone, its nodes renumbered ``2, 3, ...`` in their order
        here (children first): ``(root, opt, lo, hi)``, int64 arrays of options and nodes,
        sinks 0 and 1 (option -1)."""
        sink = np.array([-1, -1], dtype=np.int64)
        if node < 2:
            return node, sink, np.zeros(2, np.int64), np.zeros(2, np.int64)
        with self.lock:
            k, S = self.kernel, self.S
            n = self.nodes
            MARK, STACK = k.blank(n), k.blank(n)
            k.reach(S.NODE, node, MARK, STACK)
            at = np.flatnonzero(k.numpy(MARK))
            del MARK, STACK
            NODE = np.asarray(k.numpy(S.NODE)[: kz.NW * n], dtype=np.int64)
            chosen = NODE.reshape(n, kz.NW)[at]
        new = np.zeros(n, dtype=np.int64)
        new[1] = 1
        new[at] = np.arange(2, len(at) + 2)
        return (int(new[node]), np.concatenate((sink, self.order[chosen[:, 0]])),
                np.concatenate((np.zeros(2, np.int64), new[chosen[:, 1]])),
                np.concatenate((np.zeros(2, np.int64), new[chosen[:, 2]])))

    def _tallied(self) -> Any:
        """The arrays, every node's count and fingerprint made (the caller holds the
        lock); the first tally makes their arrays."""
        S = self.S
        if len(S.COUNT) == 0:
            k, slots = self.kernel, self.slots
            if self.memory() + 16 * slots > self.max_memory:
                _out_of_memory(self, self.memory() + 16 * slots)
            COUNT, SIG = k.zeros(slots, np.int64), k.zeros(slots, np.int64)
            COUNT[1] = 1  # the empty set's sink holds one set
            SIG[0], SIG[1] = kz.SIG0, kz.SIG1
            S.REG[kz.REG_TALLIED] = 2
            S = self.S = S._replace(COUNT=COUNT, SIG=SIG)
        if S.REG[kz.REG_TALLIED] < S.REG[kz.REG_NODES]:
            k = self.kernel
            if self._weights is None or self._weights[0] is not k:
                w1, w2 = weights(len(self.order))
                self._weights = (k, k.array(w1[self.order]), k.array(w2[self.order]))
            k.tally(S, self._weights[1], self._weights[2])
        return S

    def count(self, node: int) -> int:
        """The number of sets of ``node``, exact: the count kept per node ([`_tallied`][]),
        or past 2**62 [`count_by_residues`][]'s (no big number per node)."""
        with self.lock:
            c = int(self._tallied().COUNT[node])
            return c if c >= 0 else self.count_by_residues(node)

    def count_by_residues(self, node: int) -> int:
        """The number of sets of ``node``, exact, from its residues modulo as many primes
        as its size needs (a bound from the counts' logarithms), joined by the Chinese
        remainder theorem: two passes over the nodes up to ``node``, with no count kept
        per node (what a construction reports, before anything is tallied)."""
        if node < 2:
            return node
        with self.lock:
            k, N = self.kernel, self.S.NODE
            bits = float(k.count_log2(N, node, k.floats(node + 1)))
            R = k.blank(node + 1)
            primes = _primes(int(bits + 2) // 60 + 1)
            residues = [int(k.count_mod(N, node, R, p)) for p in primes]
        total, modulus = 0, 1
        for p, r in zip(primes, residues):  # Garner's way, one prime at a time
            total += modulus * ((r - total) * pow(modulus, -1, p) % p)
            modulus *= p
        return total

    def node_count(self, node: int) -> int:
        """Nodes of ``node``'s diagram, the two sinks included (1 for the empty set, as
        DLX6 counts it)."""
        if node < 2:
            return node + 1
        with self.lock:
            k = self.kernel
            return 2 + int(k.reach(self.S.NODE, node, k.blank(self.nodes),
                                   k.blank(self.nodes)))

    def fingerprint(self, node: int) -> int:
        """A hash of ``node``'s family that does not depend on the option order (a set's
        ``__hash__``, equal for equal families in stores of any order): the sum over
        its sets of the product of their options' weights ([`weights`][]) modulo the two
        primes of [`PRIMES`][], kept per node by the tally (``SIG``, made bottom-up as
        ``fp(lo) + w[option] * fp(hi)``: a hash costs the nodes made since the last).
        Two different families agree with probability about ``options / 2**31`` per
        prime."""
        with self.lock:
            return int(self._tallied().SIG[node])


def _triples(var: Any, lo: Any, hi: Any) -> np.ndarray:
    """The columns of a diagram as [`Store._transfer`][] takes it: ``(var, lo, hi)``
    a node, 32-bit words."""
    return np.stack([np.asarray(c, dtype=np.int32) for c in (var, lo, hi)], axis=1).ravel()


def _table(slots: int) -> int:
    """Slots of the unique table for ``slots`` nodes: twice as many."""
    return 2 * slots


def _bytes(slots: int, cache: int, variables: int) -> int:
    """The bytes of a store's arrays with room for ``slots`` nodes and ``cache`` words
    of cache."""
    node, slot = (np.dtype(kz.DTYPES[i]).itemsize for i in (0, 3))
    return ((kz.NW * node + 16) * slots + slot * _table(slots)
            + 8 * (cache + kz.stack_words(variables) + kz.N_REG))


@functools.cache
def _primes(k: int) -> tuple[int, ...]:
    """The ``k`` largest primes below 2**61 (Miller and Rabin's test with the first
    twelve primes as bases: exact below 3.3 * 10**24)."""
    found: list[int] = []
    n = (1 << 61) - 1
    while len(found) < k:
        if _is_prime(n):
            found.append(n)
        n -= 2
    return tuple(found)


def _is_prime(n: int) -> bool:
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


PRIMES = (kz.P1, kz.P2)
"""The moduli of [`Store.fingerprint`][] (below 2**31: a product of two residues fits an
int64)."""


def weights(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each option's weights in [`Store.fingerprint`][], one per prime of [`PRIMES`][]:
    1 .. p-1, a fixed hash (splitmix64) of the option's index, the same in every process
    and order."""
    z = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE5AB)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    w1, w2 = ((z % np.uint64(p - 1)).astype(np.int64) + 1 for p in PRIMES)
    return w1, w2


def _cache(slots: int) -> int:
    """Entries of the operation cache for ``slots`` node slots: half as many, rounded up
    to a power of two (a larger cache outgrows the processor's caches sooner than it
    saves work: domino 12 x 12, ``A | B`` from a cold cache took 1.5 ms with 64K entries,
    3-4 ms with 128K). A power of two always: the kernel finds an entry by masking its
    hash, and any other length leaves most entries unused (a store reserved to 27,552
    slots had 1,024 usable of 13,776: ``restrict`` at 12 x 12 took minutes, the
    operations' work no longer shared)."""
    return min(1 << (max(slots // 2, 1024) - 1).bit_length(), MOST_CACHE)


def _kernel(backend: str, work: int) -> ZddKernel:
    """The kernel of the backend named ``backend`` (``auto``: by the registry's rule for
    ``work`` nodes)."""
    from .registry import get_backend

    return get_backend(backend, work).zdd()


def _out_of_memory(store: Store, need: int) -> None:
    """Raise [`dlx.SearchStoppedError`][]: the store would need ``need`` bytes."""
    from .errors import SearchStoppedError
    from .search import MemoStats
    from .status import Status

    stats = MemoStats(status=Status.MAX_MEMORY, bound="max_memory", zdd_nodes=store.nodes,
                      backend=store.kernel.name)
    raise SearchStoppedError(f"the solution sets of this problem need more than "
                             f"max_memory={store.max_memory} bytes ({need} for "
                             f"{2 * store.nodes} nodes): the store of their ZDD nodes "
                             "(SolutionSet.store.max_memory) is full", stats)


_stores: weakref.WeakValueDictionary[tuple[str, str, bytes | None], Store] = \
    weakref.WeakValueDictionary()
_orders: dict[str, np.ndarray] = {}
_stores_lock = threading.Lock()


def order_for(matrix: Any) -> np.ndarray:
    """The automatic option order of the problem ``matrix`` ([`option_order`][]), kept
    for the last few problems (a pure function of the content: made again when
    dropped)."""
    digest = matrix.digest
    with _stores_lock:
        order = _orders.get(digest)
    if order is None:
        order = option_order(matrix.indptr, matrix.items, matrix.n_items)
        with _stores_lock:
            order = _orders.setdefault(digest, order)
            if len(_orders) > 64:  # keep a few: a problem's order is cheap to make again
                _orders.pop(next(iter(_orders)))
    return order


def store_for(matrix: Any, backend: str = "auto", order: np.ndarray | None = None) -> Store:
    """The store of the problem ``matrix`` ([`dlx.matrix.Matrix`][]) on ``backend``, its
    options in ``order`` (a permutation of the option indices, checked by the caller;
    None: the automatic one, [`order_for`][]): one per problem content, backend and
    order in a process while a set holds it, made on first use."""
    digest = matrix.digest
    key: tuple[str, str, bytes | None] = (digest, backend, None)
    if order is not None:
        order = np.asarray(order, dtype=np.int64)
        if not np.array_equal(order, order_for(matrix)):
            key = (digest, backend, order.tobytes())
    with _stores_lock:
        store = _stores.get(key)
        if store is not None:
            return store
    chosen = order_for(matrix) if key[2] is None or order is None else order
    with _stores_lock:
        store = _stores.get(key)
        if store is None:
            store = _stores[key] = Store(digest, chosen, backend)
        return store


# ----- the problem as the memoized search and its sets read it -----------------------------


@dataclass(frozen=True)
class MemoInput:
    """What the memoized search needs of a problem: its options in CSR form (items
    numbered ``1..n_items``, primary first; colors beside them, 0 for none), the counts
    of items and options, and the options' costs (None: none)."""

    @property
    def n_options(self) -> int:
        return len(self.indptr) - 1

    def kept(self) -> list[bool]:
        """For each option: whether it has a primary item (Knuth's programs drop the
        others)."""
        indptr, items = self.indptr.tolist(), self.items.tolist()
        return [min(items[indptr[k]:indptr[k + 1]]) <= self.n_primary
                for k in range(len(indptr) - 1)]

    n_items: int
    n_primary: int
    indptr: np.ndarray
    items: np.ndarray
    colors: np.ndarray
    costs: np.ndarray | None


def memo_input(problem: Any) -> MemoInput:
    """The problem's options as [`MemoInput`][]: the one place where the memoized
    search and its solution sets read the problem's internals. Multiplicities raise
    [`dlx.ArgumentError`][] (a signature would have to say how often each item is
    still to be covered)."""
    m = problem.matrix
    if m.bounds is not None:
        raise ArgumentError("the memoized search does not take multiplicities: this problem "
                            "gives some primary item bounds other than 1..1")
    return MemoInput(m.n_primary + m.n_secondary, m.n_primary, m.indptr, m.items, m.colors,
                     m.costs)


def exact_counts(lo: Sequence[int] | np.ndarray, hi: Sequence[int] | np.ndarray) -> list[int]:
    """The number of sets of each node, as exact Python ints (children come first)."""
    lo_list = lo.tolist() if isinstance(lo, np.ndarray) else list(lo)
    hi_list = hi.tolist() if isinstance(hi, np.ndarray) else list(hi)
    counts = [0, 1]
    for n in range(2, len(lo_list)):
        counts.append(counts[lo_list[n]] + counts[hi_list[n]])
    return counts
