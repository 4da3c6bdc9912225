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
need more raises [`dlx.SearchStoppedError`][] (status ``MAX_MEMORY``). A store is used
under its lock, so sets of one problem may be combined from several threads.
"""

from __future__ import annotations

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

__all__ = ["MemoInput", "Store", "exact_counts", "memo_input", "option_order", "order_for",
           "store_for"]

FIRST_NODES = 1 << 10
"""Node slots of a new store (doubled when full)."""

MOST_CACHE = 1 << 22
"""At most this many entries in the operation cache (128 MB)."""


class Store:
    """The canonical nodes of one problem's sets in one option order (see the module).
    ``order`` lists the options in the store's order ([`option_order`][], or the user's);
    ``backend`` names the backend whose
    kernel runs the operations (``auto``: python while small, numba from
    [`dlx.registry.NUMBA_MIN_NODES`][] nodes on, when it can run); ``max_memory`` is the
    most bytes its arrays may take; ``work``, the nodes expected (``auto``'s choice);
    ``slots``, the nodes it has room for before it first grows."""

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
        self._prints: dict[int, int] = {}
        """Node -> its [`fingerprint`][] (nodes are never freed: a node's stays true)."""
        self.backend = backend
        self._max_memory = memory_default() if max_memory is None else max_memory
        self.lock = threading.RLock()
        """Held around every use of the arrays (they are replaced when they grow)."""
        self.kernel = _kernel(backend, work)
        room = max(FIRST_NODES, 1 << max(slots - 1, 0).bit_length())
        while room > FIRST_NODES and 8 * (7 * room + 4 * _cache(room)) > self.max_memory:
            room //= 2
        self.S = self._fresh(room)

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

    def _fresh(self, slots: int) -> kz.ZddState:
        """Empty arrays with room for ``slots`` nodes: the two sinks only."""
        k = self.kernel
        NODE = np.zeros(4 * slots, dtype=np.int64)
        NODE[0] = NODE[4] = kz.BOTTOM
        NODE[7] = 1  # the count of the empty set's sink
        SIG = np.zeros(slots, dtype=np.int64)
        SIG[:2] = kz.SIG0, kz.SIG1
        REG = np.zeros(kz.N_REG, dtype=np.int64)
        REG[kz.REG_NODES] = REG[kz.REG_TALLIED] = 2
        return kz.ZddState(k.array(NODE), k.array(SIG), k.zeros(2 * slots),
                           k.zeros(4 * _cache(slots)), k.zeros(kz.stack_words(len(self.order))),
                           k.array(REG))

    # ----- size ----------------------------------------------------------------------------

    @property
    def nodes(self) -> int:
        """Nodes made so far, the two sinks included."""
        return int(self.S.REG[kz.REG_NODES])

    def memory(self) -> int:
        """The bytes of the store's arrays (8 a slot)."""
        return 8 * sum(len(a) for a in self.S)

    def _grow(self, slots: int = 0) -> None:
        """Double the node slots (or make them ``slots``, a larger power of two: one step
        instead of many, the old arrays and the new alive together once), the unique
        table and the cache with them; or raise [`dlx.SearchStoppedError`][] if that would
        pass ``max_memory``. An ``auto`` store that has grown past a few thousand nodes
        moves to numba here."""
        S = self.S
        slots = max(slots, 2 * len(S.SIG))
        cache = 4 * _cache(slots)
        need = 8 * (7 * slots + cache + len(S.STACK) + len(S.REG))
        if need > self.max_memory:
            _out_of_memory(self, need)
        kernel = _kernel(self.backend, slots) if self.kernel.name == "python" else self.kernel
        if kernel is not self.kernel:
            S = kz.ZddState(*(kernel.array(np.asarray(a, dtype=np.int64)) for a in S))
            self.kernel = kernel
        k = self.kernel
        old_cache = S.CACHE
        S = S._replace(NODE=_grown(k, S.NODE, 4 * slots), SIG=_grown(k, S.SIG, slots),
                       SLOT=k.zeros(2 * slots),
                       CACHE=k.zeros(cache) if cache != len(S.CACHE) else S.CACHE)
        k.rehash(S)
        if S.CACHE is not old_cache:
            k.recache(old_cache, S)
        self.S = S

    def reserve(self, more: int) -> None:
        """Grow now (as [`_grow`][] would, under ``max_memory``) until ``more`` nodes fit
        without growing again."""
        with self.lock:
            if 2 * (self.nodes + more) > len(self.S.SLOT):
                self._grow(1 << (self.nodes + more - 1).bit_length())

    def clear_cache(self) -> None:
        """Forget the operation cache (results are computed again when asked)."""
        with self.lock:
            cache = self.S.CACHE
            cache[:] = self.kernel.zeros(len(cache))  # in place: its pages stay mapped

    # ----- operations ------------------------------------------------------------------------

    def apply(self, op: int, f: int, g: int) -> int:
        """``f op g`` ([`dlx.kernels.zdd`][]'s binary operations) in the store: its node."""
        with self.lock:
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
        if other.order is self.order or np.array_equal(other.order, self.order):
            return self.add_ordered(*other.export(node))
        return self.import_diagram(*other.export(node))

    def add_ordered(self, root: int, opt: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> int:
        """The node here of ``root`` in a reduced diagram ordered as the store orders
        options (an [`export`][] of a store of the same problem): each node made here in
        turn, children first."""
        if root < 2:
            return root
        return int(self._transfer(self.rank[np.asarray(opt, dtype=np.int64)], lo, hi)[root])

    def _transfer(self, var: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
        """The nodes here of every node of an ordered diagram given by variables (sinks
        0 and 1, nodes after their children), made in turn: their numbers here."""
        n = len(var)
        given = [np.asarray(var, dtype=np.int64), np.asarray(lo, dtype=np.int64),
                 np.asarray(hi, dtype=np.int64), np.ones(n, dtype=np.int64),
                 np.arange(n, dtype=np.int64)]
        start = 2
        with self.lock:
            while True:
                k = self.kernel
                arrays = [a if k.name == "numba" and a.flags.c_contiguous else k.array(a)
                          for a in given]  # numba's: as given (a large diagram: no copy)
                status = int(k.transfer(self.S, *arrays, start, n))
                if status == 0:
                    return k.numpy(arrays[4])
                start = int(self.S.REG[kz.REG_RESUME])
                given[4] = k.numpy(arrays[4])  # what is done so far (the kernel may change)
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
        made = self._transfer(np.asarray(var, dtype=np.int64), lo, hi)
        roots = made[np.asarray(tops, dtype=np.int64)].tolist()
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
            MARK, STACK = _blank(k, n), _blank(k, n)
            k.reach(S.NODE, node, MARK, STACK)
            NODE = k.numpy(S.NODE)[: 4 * n].reshape(n, 4)
            at = np.flatnonzero(k.numpy(MARK))
            chosen = NODE[at]
        new = np.zeros(n, dtype=np.int64)
        new[1] = 1
        new[at] = np.arange(2, len(at) + 2)
        return (int(new[node]), np.concatenate((sink, self.order[chosen[:, 0]])),
                np.concatenate((np.zeros(2, np.int64), new[chosen[:, 1]])),
                np.concatenate((np.zeros(2, np.int64), new[chosen[:, 2]])))

    def _tallied(self) -> Any:
        """The arrays, every node's count and signature made (the caller holds the
        lock)."""
        S = self.S
        if S.REG[kz.REG_TALLIED] < S.REG[kz.REG_NODES]:
            self.kernel.tally(S)
        return S

    def count(self, node: int) -> int:
        """The number of sets of ``node``, exact."""
        with self.lock:
            c = int(self._tallied().NODE[4 * node + 3])
        if c >= 0:
            return c
        root, _, lo, hi = self.export(node)
        counts = [0, 1]
        for a, b in zip(lo[2:].tolist(), hi[2:].tolist()):
            counts.append(counts[a] + counts[b])
        return counts[root]

    def node_count(self, node: int) -> int:
        """Nodes of ``node``'s diagram, the two sinks included (1 for the empty set, as
        DLX6 counts it)."""
        if node < 2:
            return node + 1
        with self.lock:
            k = self.kernel
            return 2 + int(k.reach(self.S.NODE, node, _blank(k, self.nodes),
                                   _blank(k, self.nodes)))

    def signature(self, node: int) -> int:
        """A hash of ``node``'s diagram, the same in every store of the same problem and
        option order."""
        with self.lock:
            return int(self._tallied().SIG[node])

    def fingerprint(self, node: int) -> int:
        """A hash of ``node``'s family that does not depend on the option order (a set's
        ``__hash__``, equal for equal families in stores of any order): the sum over
        its sets of the product of their options' weights ([`weights`][]), modulo two
        primes, made bottom-up as ``fp(n) = fp(lo) + w[option] * fp(hi)``, a level of the
        diagram at a time (numpy). Two different families agree with probability about
        ``options / 2**31`` per prime."""
        if node < 2:
            return node
        with self.lock:
            known = self._prints.get(node)
        if known is not None:
            return known
        root, opt, lo, hi = self.export(node)
        var = self.rank[opt]
        w = weights(len(self.order))
        prints = []
        inner = np.argsort(-var[2:], kind="stable") + 2  # the last variable first
        cuts = np.flatnonzero(np.diff(var[inner])) + 1
        for p, wp in zip(PRIMES, w):
            fp = np.zeros(len(opt), dtype=np.int64)
            fp[1] = 1
            for level in np.split(inner, cuts):
                fp[level] = (fp[lo[level]] + wp[opt[level]] * fp[hi[level]]) % p
            prints.append(int(fp[root]))
        value = prints[0] << 31 | prints[1]
        with self.lock:
            self._prints[node] = value
        return value


PRIMES = (2147483647, 2147483629)
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


def _grown(k: ZddKernel, a: Any, n: int) -> Any:
    """``a`` lengthened to ``n`` with zeros: numba's in one new array (no array of zeros
    made first, which would be a third copy at the peak of memory)."""
    if k.name != "numba":
        return k.grown(a, n)
    out = np.empty(n, dtype=np.int64)
    out[: len(a)] = a
    out[len(a):] = 0
    return out


def _blank(k: ZddKernel, n: int) -> Any:
    """``n`` zeros of a walk's own (a list, or an array mapped only where written)."""
    return [0] * n if k.name == "python" else np.zeros(n, dtype=np.int64)


def _cache(slots: int) -> int:
    """Entries of the operation cache for ``slots`` node slots: half as many (a larger
    cache outgrows the processor's caches sooner than it saves work: domino 12 x 12,
    ``A | B`` from a cold cache took 1.5 ms with 64K entries, 3-4 ms with 128K)."""
    return min(max(slots // 2, 1024), MOST_CACHE)


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
