"""The set of all solutions of a problem, as a zero-suppressed decision diagram (ZDD).

A [`SolutionSet`][] is what the memoized search ([`dlx.memo`][], Knuth's DLX6) builds:
nodes ``n = 2, 3, ...`` each holding ``(option, lo, hi)``, and two sinks, 0 (no solution)
and 1 (the empty one). The family of node ``n`` is that of ``lo``, plus that of ``hi``
with ``option`` added to each set. Every node is numbered after its children. One
invariant holds in every diagram here, whether the search made it or a set operation:
*no set below a node holds the node's option*. So the two parts are disjoint, a set's
path is unique, counts add up exactly, and membership is a walk (``option`` in the set:
take ``hi``, else ``lo``).

Two forms of one family. The diagram the search makes is ordered by the search, not by
option number: a node's ``lo`` holds the options tried before it at that level, and a
set made by the search (or read from a text) keeps that diagram for reading: iteration
follows it (``lo`` first), which is the order in which Algorithm C with Knuth's choice of
item finds the solutions (``ExactCover.solutions()``). Every set also lives in a
canonical store of its problem ([`dlx.zdd_store`][]): nodes ordered by one order of the
options (the problem's automatic one, [`dlx.orders.option_order`][], or one the user
gives: ``solution_set(option_order=...)``, [`SolutionSet.in_order`][]) and made through
one unique table, so that one family is one node there. A set enters it on its first
comparison or operation; the set operations (compiled by numba, with an operation cache)
work there, and their results are canonical: their iteration follows the store's order,
and equal families have equal diagrams in it ([`SolutionSet.node_count`][] is per order).
Sets of one problem combine whatever object the problem is, and whatever their orders:
its identity is its content (``problem.matrix.digest``); an operand of another order is
brought into the left one's, and ``hash`` does not depend on the order.

Knuth's ZDD text format (DLX6's ``m1``) is [`dlx.zdd_text`][]'s; the pictures,
[`dlx.zdd_svg`][]'s.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

import numpy as np

from .budget import as_index
from .errors import ArgumentError, EmptySetError, SetTooLargeError, ZDDFormatError
from .kernels import zdd as kz
from .orders import check_option_order
from .zdd_queries import check_costs, check_solutions, option_sets, options_of, ranked, size_bound
from .zdd_store import MemoInput, Store, exact_counts, memo_input, order_for, store_for
from .zdd_svg import SVG_NODES, diagram_svg, summary_svg
from .zdd_text import parse, read_source, to_text, write_text

__all__ = ["EmptySetError", "MemoInput", "SetTooLargeError", "SolutionSet", "ZDDFormatError",
           "exact_counts", "memo_input"]


class _Diagram:
    """A diagram as lists, for reading: ``root``, ``opt``, ``lo``, ``hi`` (sinks 0 and 1,
    nodes after their children) and the exact counts of its nodes (made when first
    needed)."""

    __slots__ = ("_counts", "hi", "lo", "opt", "root")

    def __init__(self, root: int, opt: list[int], lo: list[int], hi: list[int],
                 counts: list[int] | None = None) -> None:
        self.root, self.opt, self.lo, self.hi = root, opt, lo, hi
        self._counts = counts

    @property
    def counts(self) -> list[int]:
        if self._counts is None:
            self._counts = exact_counts(self.lo, self.hi)
        return self._counts


_OPS = {"|": kz.UNION, "&": kz.INTER, "^": kz.XOR, "-": kz.DIFF}


class SolutionSet:
    """All solutions of a problem (or a part of them), held as a ZDD.

    Made by the memoized search (``dlx.memo.memo_search``), read from Knuth's text
    format ([`read`][] a file, [`from_text`][] a text), or by the set operations.
    ``len()`` and [`count`][] are exact (no 64-bit ceiling; ``len`` stops at
    ``sys.maxsize``, Python's own limit); iteration yields each solution once as a
    sorted list of option indices, in the order of the search (the order of
    ``ExactCover.solutions()``) for a set the search made, in the option order for one
    an operation made; [`solution`][] gives the ``i``-th in that order, [`sample`][] (a
    list) and [`samples`][] (one at a time) exactly uniform draws.

    A set is a value: ``&``, ``|``, ``-``, ``^`` and [`restrict`][] make new sets,
    ``==``, ``<=``, ``<``, ``>=``, ``>`` and [`isdisjoint`][] compare families, and
    ``hash`` agrees with ``==``. Sets combine when their problems have the same content
    (a pickled copy, the same file read twice); else [`dlx.ArgumentError`][]. Each set's
    store has an order of the options ([`option_order`][]; another: [`in_order`][]):
    sets of different orders still compare, hash and combine as families (the result in
    the left operand's order).
    """

    def __init__(self, problem: Any, root: int, opt: Sequence[int], lo: Sequence[int],
                 hi: Sequence[int], counts: list[int] | None = None) -> None:
        self._problem = problem
        self._diagram: _Diagram | None = _Diagram(int(root), list(opt), list(lo), list(hi),
                                                  counts)
        self._at: tuple[Store, int] | None = None
        self._backend = "auto"
        self._nodes: int | None = None
        self._order: np.ndarray | None = None  # the store's order to enter (None: automatic)

    @classmethod
    def _from_search(cls, problem: Any, root: int, opt: np.ndarray, lo: np.ndarray,
                     hi: np.ndarray, counts: list[int]) -> SolutionSet:
        opt = np.asarray(opt).copy()
        opt[:2] = -1
        return cls(problem, root, opt.tolist(), np.asarray(lo).tolist(),
                   np.asarray(hi).tolist(), counts)

    @classmethod
    def _made(cls, problem: Any, store: Store, node: int, backend: str) -> SolutionSet:
        """The set of ``node`` in ``store`` (its diagram exported when first read)."""
        s = cls.__new__(cls)
        s._problem = problem
        s._diagram = None
        s._at = (store, node)
        s._backend = backend
        s._nodes = None
        s._order = None
        store.register(s)  # (the caller holds the lock since the node was made)
        return s

    def __reduce__(self) -> tuple[Any, ...]:
        d = self._read()
        order = self._given_order()
        if order is None:
            return (SolutionSet, (self._problem, d.root, d.opt, d.lo, d.hi))
        return (_rebuilt, (self._problem, d.root, d.opt, d.lo, d.hi, order.tolist()))

    def _given_order(self) -> np.ndarray | None:
        """The option order this set's store has, or is to have: None for the automatic
        one."""
        if self._at is None:
            return self._order
        order = self._at[0].order
        automatic = order_for(self._problem.matrix)
        return None if order is automatic or np.array_equal(order, automatic) else order

    @property
    def problem(self) -> Any:
        """The problem whose solutions these are."""
        return self._problem

    # ----- the two forms -------------------------------------------------------------------

    def _read(self) -> _Diagram:
        """The diagram this set is read from (the search's, a text's, or the store's)."""
        d = self._diagram
        if d is None:
            assert self._at is not None
            root, opt, lo, hi = self._exported()
            d = self._diagram = _Diagram(root, opt.tolist(), lo.tolist(), hi.tolist())
        return d

    @property
    def _root(self) -> int:
        return self._read().root

    @property
    def _opt(self) -> list[int]:
        return self._read().opt

    @property
    def _lo(self) -> list[int]:
        return self._read().lo

    @property
    def _hi(self) -> list[int]:
        return self._read().hi

    @property
    def _counts(self) -> list[int]:
        return self._read().counts

    def _canon(self) -> tuple[Store, int]:
        """The store of this set and its node there (imported on first use; the node is
        good under the store's lock alone: [`_node`][])."""
        at = self._at
        if at is None:
            d = self._diagram
            assert d is not None
            store = store_for(self._problem.matrix, self._backend, self._order)
            with store.lock:
                at = self._at = (store, store.import_diagram(d.root, d.opt, d.lo, d.hi))
                store.register(self)
        return at

    def _node(self) -> int:
        """This set's node in its store: good while the caller holds the store's lock."""
        assert self._at is not None
        return self._at[1]

    def _exported(self) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        """This set's diagram alone, from its store ([`dlx.zdd_store.Store.export`][])."""
        store = self._canon()[0]
        with store.lock:
            return store.export(self._node())

    def _moved(self, store: Store) -> tuple[Store, Any] | None:
        """This set's store and diagram, to bring into ``store`` (None: it lives there);
        called without ``store``'s lock (two stores' locks are never held together)."""
        mine = self._canon()[0]
        return None if mine is store else (mine, self._exported())

    def _node_at(self, store: Store, moved: tuple[Store, Any] | None) -> int:
        """This set's node in ``store``, ``moved`` its [`_moved`][]: the caller holds
        ``store``'s lock (a node copied in is a raw node until a set holds it)."""
        return self._node() if moved is None else store.take(*moved)

    @property
    def option_order(self) -> list[int]:
        """The options in the order of this set's store (its variables, top to bottom):
        the problem's automatic order ([`dlx.orders.option_order`][]), or the one given
        to ``solution_set(option_order=...)`` or [`in_order`][]."""
        return self._canon()[0].order.tolist()

    def in_order(self, option_order: Iterable[int] | None) -> SolutionSet:
        """This family in the store of another order of the options (a permutation of
        the option indices, [`dlx.orders.check_option_order`][]; None: the automatic
        one): converted once, its [`node_count`][] and iteration those of that order.
        Sets of one problem in different orders are equal when their families are
        (``==``, ``hash``) and combine (the result in the left operand's order)."""
        order = None if option_order is None else \
            check_option_order(option_order, len(self._problem), "option_order")
        store = store_for(self._problem.matrix, self._backend, order)
        if self._at is None and self._diagram is not None:
            copy = SolutionSet.__new__(SolutionSet)
            copy.__dict__.update(self.__dict__)
            copy._order = order
            return copy
        moved = self._moved(store)
        with store.lock:
            return SolutionSet._made(self._problem, store, self._node_at(store, moved),
                                     self._backend)

    @property
    def store(self) -> Store:
        """The canonical store this set lives in (a ``dlx.zdd_store.Store``), shared by
        the sets of its problem: its ``max_memory`` (bytes, settable) bounds them all."""
        return self._canon()[0]

    def canonical(self) -> SolutionSet:
        """This family in the store's form: the same solutions, ordered by the store's
        option order ([`option_order`][]), its diagram the one every equal set of that
        order has (its [`node_count`][] too)."""
        store = self._canon()[0]
        with store.lock:
            return SolutionSet._made(self._problem, store, self._node(), self._backend)

    def using(self, backend: str) -> SolutionSet:
        """This family, its operations (and those of the sets made from it) run on
        ``backend`` (``"python"``, ``"numba"`` or ``"auto"``, the default)."""
        from .registry import get_backend

        if not isinstance(backend, str):
            raise ArgumentError(f"backend must be 'auto', 'python' or 'numba', got "
                                f"{backend!r}")
        get_backend(backend)  # an unknown name: ArgumentError; one that cannot run: ImportError
        store = store_for(self._problem.matrix, backend, self._given_order())
        d = self._diagram
        moved = self._moved(store) if self._at is not None or d is None else None
        with store.lock:
            node = self._node_at(store, moved) if self._at is not None or d is None else \
                store.import_diagram(d.root, d.opt, d.lo, d.hi)
            return SolutionSet._made(self._problem, store, node, backend)

    # ----- size ---------------------------------------------------------------------------

    def count(self) -> int:
        """The number of solutions, exact."""
        d = self._diagram
        if d is not None:
            return d.counts[d.root]
        store = self._canon()[0]
        with store.lock:
            return store.count(self._node())

    def __len__(self) -> int:
        n = self.count()
        if n > sys.maxsize:
            raise SetTooLargeError(f"the set has {n} solutions, more than len() can return; "
                                   "count() gives the number")
        return n

    def __bool__(self) -> bool:
        d = self._diagram
        if d is not None:
            return d.root != 0
        return self._node() != 0

    @property
    def node_count(self) -> int:
        """Nodes of the diagram, the two sinks included; 1 (the empty sink) for a set
        without solutions (as DLX6 counts them). For a set the search made (or a text
        gave), its diagram as made; for a set an operation made, the canonical diagram
        (the same for every equal set: [`canonical`][])."""
        d = self._diagram
        if d is not None:
            return len(d.opt) if d.root != 0 else 1
        if self._nodes is None:
            store = self._canon()[0]
            with store.lock:
                self._nodes = store.node_count(self._node())
        return self._nodes

    def __repr__(self) -> str:
        count = self.count()
        return (f"<SolutionSet: {count} solution{'' if count == 1 else 's'}, "
                f"{self.node_count} ZDD nodes>")

    # ----- reading solutions ----------------------------------------------------------------

    def __iter__(self) -> Iterator[list[int]]:
        """Each solution once, as a sorted list of option indices, ``lo`` before ``hi``:
        the order of the search.

        A depth-first walk that keeps one ``path``, the options taken down to the node
        it stands on: it runs down each ``lo`` chain, leaving on ``stack`` the ``hi``
        branch of every node it passes (the node, the path's length there, the option),
        and a branch taken cuts the path back to its length. So a solution costs a
        ``sorted`` copy of the path, not a walk of it in Python."""
        d = self._read()
        opt, lo, hi = d.opt, d.lo, d.hi
        path: list[int] = []
        stack = [(d.root, 0, -1)]
        while stack:
            n, depth, o = stack.pop()
            del path[depth:]
            if o >= 0:
                path.append(o)
            while n > 1:
                stack.append((hi[n], len(path), opt[n]))
                n = lo[n]
            if n == 1:
                yield sorted(path)

    def solution(self, index: int) -> list[int]:
        """The solution of position ``index`` (0-based) in the order of iteration; an
        empty set has none ([`EmptySetError`][])."""
        i = as_index(index)
        total = self.count()
        if i is None:
            raise ArgumentError(f"index must be an integer, got {index!r}")
        if total == 0:
            raise EmptySetError(f"index {index!r}: the set has no solution")
        if not 0 <= i < total:
            raise ArgumentError(f"index must be an integer in 0..{total - 1}, got {index!r}")
        return self._unrank(i)

    def _unrank(self, i: int) -> list[int]:
        opt, lo, hi, counts = self._opt, self._lo, self._hi, self._counts
        n, chosen = self._root, []
        while n > 1:
            below = counts[lo[n]]
            if i < below:
                n = lo[n]
            else:
                i -= below
                chosen.append(opt[n])
                n = hi[n]
        return sorted(chosen)

    def sample(self, k: int = 1, *, seed: Any = None) -> list[list[int]]:
        """``k`` solutions drawn independently and exactly uniformly (with replacement),
        as a list: [`samples`][]'s first ``k``. ``seed`` (anything `random.Random` takes)
        makes the draws repeatable. A ``k`` past what a list can hold is refused
        (``samples(k)`` draws them one at a time)."""
        n = _k(k)
        if n > sys.maxsize:
            raise ArgumentError(f"k must be at most sys.maxsize for a list, got {k!r}: "
                                "samples() draws them one at a time")
        return list(self.samples(n, seed=seed))

    def samples(self, k: int | None = None, *, seed: Any = None) -> Iterator[list[int]]:
        """Solutions drawn independently and exactly uniformly (with replacement), one
        at a time as they are read: ``k`` of them, or without end (``k`` None). Each draw
        is a uniform position below [`count`][], read off the node counts. ``seed``
        (anything `random.Random` takes) makes the draws repeatable. The arguments are
        checked at the call; drawing from an empty set raises [`EmptySetError`][]
        there too (unless ``k`` is 0)."""
        n = None if k is None else _k(k)
        total = self.count()
        if total == 0 and n != 0:
            raise EmptySetError("sample from a set with no solution")
        try:
            rng = random.Random(seed)
        except TypeError:
            raise ArgumentError(f"seed must be None, an int, a float, a str or bytes, got "
                                f"{seed!r}") from None
        return self._draws(rng, total, n)

    def _draws(self, rng: random.Random, total: int, n: int | None) -> Iterator[list[int]]:
        for _ in itertools.count() if n is None else range(n):
            yield self._unrank(rng.randrange(total))

    def __contains__(self, solution: object) -> bool:
        """True when ``solution`` (an iterable of option indices) is in the set."""
        if not isinstance(solution, Iterable) or isinstance(solution, (str, bytes)):
            raise ArgumentError(f"a solution is an iterable of option indices, got "
                                f"{solution!r}")
        left = set()
        for k in solution:
            i = k if type(k) is int else as_index(k)  # the common case, without a call
            if i is None:
                raise ArgumentError(f"a solution holds option indices, got {k!r}")
            left.add(i)
        d = self._read()
        opt, lo, hi, n = d.opt, d.lo, d.hi, d.root
        while n > 1:
            v = opt[n]
            if v in left:
                left.discard(v)
                n = hi[n]
            else:
                n = lo[n]
        return n == 1 and not left

    def best(self, k: int = 1, *, costs: Sequence[float] | None = None) -> list[list[int]]:
        """The ``k`` cheapest solutions (fewer if the set has fewer), cheapest first:
        [`ranked`][]'s first ``k``. Without costs (given or the problem's), the first
        ``k`` solutions."""
        n = _k(k)
        return list(itertools.islice(self.ranked(costs), n))

    def ranked(self, costs: Sequence[float] | None = None) -> Iterator[list[int]]:
        """Every solution, cheapest first, one at a time as read (graphillion's
        ``min_iter``): the cheapest paths of the diagram, found best first. ``costs``
        gives one finite number per option for this call (any sign); None, the
        problem's own costs (0 without). A ``costs`` of the wrong length or with
        anything but finite numbers raises [`dlx.ArgumentError`][] naming it, at the
        call. Ties in the order of iteration."""
        cost = check_costs(costs, self._problem)
        d = self._read()
        return ranked(d.root, d.opt, d.lo, d.hi, cost)

    # ----- new sets -----------------------------------------------------------------------

    def restrict(self, include: Iterable[int] = (), exclude: Iterable[int] = ()) -> SolutionSet:
        """The solutions that hold every option of ``include`` and none of ``exclude``."""
        ins = self._options(include, "include")
        outs = self._options(exclude, "exclude")
        store = self._canon()[0].safe_point()
        with store.lock:
            node = self._node()
            for v in outs:
                node = store.apply_option(kz.WITHOUT, node, v)
            for v in ins:
                node = store.apply_option(kz.WITH, node, v)
            return SolutionSet._made(self._problem, store, node, self._backend)

    def _options(self, given: Iterable[int], name: str) -> list[int]:
        return options_of(given, len(self._problem), name)

    @contextlib.contextmanager
    def _pair(self, other: object, op: str) -> Iterator[tuple[Store, int, int]]:
        """The store of this set, and the nodes there of this set and ``other``, its lock
        held for the block ([`_operands`][])."""
        store, other, moved = self._operands(other, op)
        with store.lock:
            yield store, self._node(), other._node_at(store, moved)

    def _operands(self, other: object, op: str) -> tuple[Store, SolutionSet, Any]:
        """The store of this set (past its safe point), ``other`` and its
        [`_moved`][]: a set of a problem of the same content, else
        [`dlx.ArgumentError`][] naming ``op``."""
        if not isinstance(other, SolutionSet):
            raise ArgumentError(f"{op} combines two SolutionSets, got {type(other).__name__}")
        if other._problem is not self._problem and \
                other._problem.matrix.digest != self._problem.matrix.digest:
            raise ArgumentError(f"{op} of solution sets of different problems: each set "
                                "belongs to the problem it was built for (or one of the "
                                "same items and options)")
        store = self._canon()[0].safe_point()
        return store, other, other._moved(store)

    def _combine(self, other: object, op: str) -> SolutionSet:
        store, other, moved = self._operands(other, op)  # (_pair's generator: +1 us)
        with store.lock:
            f, g = self._node(), other._node_at(store, moved)
            return SolutionSet._made(self._problem, store, store.apply(_OPS[op], f, g),
                                     self._backend)

    def __and__(self, other: object) -> SolutionSet:
        return self._combine(other, "&")

    def __or__(self, other: object) -> SolutionSet:
        return self._combine(other, "|")

    def __sub__(self, other: object) -> SolutionSet:
        return self._combine(other, "-")

    def __xor__(self, other: object) -> SolutionSet:
        """The solutions in exactly one of the two sets."""
        return self._combine(other, "^")

    # ----- comparisons ------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        """The same family of solutions of problems of the same content."""
        if not isinstance(other, SolutionSet):
            return NotImplemented
        if other is self:
            return True
        if other._problem is not self._problem and \
                other._problem.matrix.digest != self._problem.matrix.digest:
            return False
        if self.count() != other.count():
            return False
        store = self._canon()[0]
        theirs = other._canon()[0]
        if theirs is store:
            with store.lock:
                return self._at == other._at
        if not np.array_equal(theirs.order, store.order) and \
                other._fingerprint() != self._fingerprint():
            return False  # (different orders: no conversion where the families differ)
        moved = other._moved(store)
        with store.lock:
            return self._node() == other._node_at(store, moved)

    def _fingerprint(self) -> int:
        """The fingerprint of this set's family ([`dlx.zdd_store.Store.fingerprint`][])."""
        store = self._canon()[0]
        with store.lock:
            return store.fingerprint(self._node())

    def __hash__(self) -> int:
        """A hash of the problem's content and the family, whatever the store's order
        ([`dlx.zdd_store.Store.fingerprint`][])."""
        return hash((self._problem.matrix.digest, self._fingerprint()))

    def __le__(self, other: object) -> bool:
        """Every solution of this set is one of ``other``'s."""
        with self._pair(other, "<=") as (store, f, g):
            return f == g or store.apply(kz.DIFF, f, g) == 0

    def __lt__(self, other: object) -> bool:
        with self._pair(other, "<") as (store, f, g):
            return f != g and store.apply(kz.DIFF, f, g) == 0

    def __ge__(self, other: object) -> bool:
        with self._pair(other, ">=") as (store, f, g):
            return f == g or store.apply(kz.DIFF, g, f) == 0

    def __gt__(self, other: object) -> bool:
        with self._pair(other, ">") as (store, f, g):
            return f != g and store.apply(kz.DIFF, g, f) == 0

    def isdisjoint(self, other: SolutionSet) -> bool:
        """No solution in both sets."""
        with self._pair(other, "isdisjoint") as (store, f, g):
            return store.apply(kz.INTER, f, g) == 0

    # ----- queries (graphillion's) -------------------------------------------------------------

    def supersets(self, other: SolutionSet | Iterable[Iterable[int]]) -> SolutionSet:
        """The solutions of this set that hold some set of ``other``, as graphillion's
        ``supersets`` (``GraphSet.supergraphs``): each set of ``self`` that is a
        superset of some set of ``other``. ``other`` is a set of the same problem, or
        any sets of options (partial solutions: ``s.supersets([[a, b], [c]])``, the
        solutions holding ``a`` and ``b``, or ``c``); else [`dlx.ArgumentError`][]
        naming ``other``."""
        return self._query(kz.SUPERSETS, other, "supersets")

    def non_supersets(self, other: SolutionSet | Iterable[Iterable[int]]) -> SolutionSet:
        """The solutions of this set that hold no set of ``other`` (graphillion's
        ``non_supersets``, ``GraphSet.non_supergraphs``): ``self - self.supersets(other)``."""
        return self - self.supersets(other)

    def subsets(self, other: SolutionSet | Iterable[Iterable[int]]) -> SolutionSet:
        """The solutions of this set that some set of ``other`` holds, as graphillion's
        ``subsets`` (``GraphSet.subgraphs``): each set of ``self`` that is a subset of
        some set of ``other`` (``s.subsets([allowed])``: the solutions made of the
        options ``allowed`` only). ``other`` as for [`supersets`][]."""
        return self._query(kz.SUBSETS, other, "subsets")

    def non_subsets(self, other: SolutionSet | Iterable[Iterable[int]]) -> SolutionSet:
        """The solutions of this set that no set of ``other`` holds (graphillion's
        ``non_subsets``, ``GraphSet.non_subgraphs``): ``self - self.subsets(other)``."""
        return self - self.subsets(other)

    def len(self, k: int) -> SolutionSet:
        """The solutions of exactly ``k`` options (graphillion's ``len(k)``). ``k`` must
        be an integer, else [`dlx.ArgumentError`][] naming ``k``."""
        return self._sized(kz.SIZE_EQ, k)

    def larger(self, k: int) -> SolutionSet:
        """The solutions of more than ``k`` options (graphillion's ``larger``; at least
        ``k``: ``larger(k - 1)``). ``k`` as for [`len`][]."""
        return self._sized(kz.SIZE_GE, k, 1)

    def smaller(self, k: int) -> SolutionSet:
        """The solutions of fewer than ``k`` options (graphillion's ``smaller``; at most
        ``k``: ``smaller(k + 1)``). ``k`` as for [`len`][]."""
        return self._sized(kz.SIZE_LE, k, -1)

    def _sized(self, op: int, k: int, shift: int = 0) -> SolutionSet:
        bound = size_bound(k, len(self._problem)) + shift
        store = self._canon()[0].safe_point()
        with store.lock:
            return SolutionSet._made(self._problem, store, store.apply(op, self._node(), bound),
                                     self._backend)

    def _query(self, op: int, other: object, name: str) -> SolutionSet:
        if isinstance(other, SolutionSet):
            with self._pair(other, name) as (store, f, g):
                return SolutionSet._made(self._problem, store, store.apply(op, f, g),
                                         self._backend)
        sets = option_sets(other, len(self._problem), "other")
        store = self._canon()[0].safe_point()
        with store.lock:
            g = store.family(sets)
            return SolutionSet._made(self._problem, store, store.apply(op, self._node(), g),
                                     self._backend)

    @classmethod
    def from_solutions(cls, problem: Any, solutions: Iterable[Iterable[int]]) -> SolutionSet:
        """The set of the given solutions of ``problem`` (each an iterable of option
        indices; repeats count once), made in the problem's store: it combines with, and
        equals, the sets the search makes (``from_solutions(p, p.solutions()) ==
        p.solution_set()``). Each is checked against the problem: one that is not an
        exact cover of it raises [`dlx.ArgumentError`][] naming the solution (its
        position and value) and the item or option at fault; nothing is built then."""
        chosen = check_solutions(problem, solutions)
        store = store_for(problem.matrix)
        with store.lock:
            return cls._made(problem, store, store.family(chosen), "auto")

    # ----- Knuth's text format --------------------------------------------------------------

    def to_text(self) -> str:
        """The diagram in Knuth's ZDD text format (as DLX6 prints it with ``m1``)."""
        return to_text(self._problem, self._root, self._opt, self._lo, self._hi)

    def write(self, file: str | os.PathLike[str] | IO[str]) -> None:
        """Write [`to_text`][] to a path or an open text file."""
        write_text(file, self.to_text())

    @classmethod
    def read(cls, problem: Any, source: str | os.PathLike[str] | IO[str]) -> SolutionSet:
        """A set of ``problem`` from a file of Knuth's ZDD text: ``source`` is a path (a
        str or a path object, whatever its name: ``run:1.zdd`` too) or a file open in
        text mode. The text itself is [`from_text`][]'s (a str holding a newline is
        still taken for text here, with a DeprecationWarning). Anything else is an
        [`dlx.ArgumentError`][] naming ``source``."""
        if isinstance(source, str) and "\n" in source:
            warnings.warn("SolutionSet.read(problem, text) is now "
                          "SolutionSet.from_text(problem, text): read takes a path or a "
                          "text file", DeprecationWarning, stacklevel=2)
            return cls.from_text(problem, source)
        return cls.from_text(problem, read_source(source))

    @classmethod
    def from_text(cls, problem: Any, text: str) -> SolutionSet:
        """A set of ``problem`` from Knuth's ZDD text. Every line is checked, and every
        set of the diagram must be a solution of ``problem``: else
        [`ZDDFormatError`][], naming the line or node; nothing is built then."""
        if not isinstance(text, str):
            raise ArgumentError(f"text must be a str of ZDD text (a file: SolutionSet.read), "
                                f"got {type(text).__name__}")
        return cls(problem, *parse(problem, text))


    # ----- a picture ------------------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The diagram drawn (up to ``dlx.zdd_svg.SVG_NODES`` nodes): nodes in rows by their depth
        from the root, ``hi`` edges solid, ``lo`` edges dashed, the sinks as squares.
        Past that, a summary of a few kilobytes whatever the size: the count, the nodes,
        and how the nodes spread over the options."""
        if self.node_count > SVG_NODES:
            return summary_svg(self.count(), self.node_count, len(self._problem), self._opt)
        return diagram_svg(self._root, self._opt, self._lo, self._hi)


def _rebuilt(problem: Any, root: int, opt: list[int], lo: list[int], hi: list[int],
             option_order: list[int]) -> SolutionSet:
    """A pickled set of a store of a given option order, made again (see ``__reduce__``)."""
    s = SolutionSet(problem, root, opt, lo, hi)
    s._order = np.asarray(option_order, dtype=np.int64)
    return s


def _k(k: Any) -> int:
    """A number of draws: a nonnegative integer."""
    n = as_index(k)
    if n is None or n < 0:
        raise ArgumentError(f"k must be a nonnegative integer, got {k!r}")
    return n


