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
item finds the solutions (``ExactCover.solutions()``). Every set also lives in the
problem's canonical store ([`dlx.zdd_store`][]): nodes ordered by option index and made
through one unique table, so that one family is one node there. A set enters it on its
first comparison or operation; the set operations (compiled by numba, with an operation
cache) work there, and their results are canonical: their iteration follows the option
order, and equal families have equal diagrams. Sets of one problem combine whatever
object the problem is: its identity is its content (``problem.matrix.digest``).

Knuth's ZDD text format, the one DLX6 prints with ``m1``: one line per node, children
first, ``id: (~v?lo:hi)`` with ``id``, ``lo`` and ``hi`` in hexadecimal (0 and 1 the
sinks) and ``v`` the option's number counted from 1 among the options that have a primary
item (DLX6 drops the others); then a dummy root ``id: (~0?0:root)``.
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
import random
import re
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import IO, Any

import numpy as np

from .budget import as_index
from .errors import ArgumentError, EmptySetError, SetTooLargeError, ZDDFormatError
from .kernels import zdd as kz
from .zdd_store import Store, store_for

__all__ = ["EmptySetError", "MemoInput", "SetTooLargeError", "SolutionSet", "ZDDFormatError",
           "exact_counts", "memo_input"]


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
    (a pickled copy, the same file read twice); else [`dlx.ArgumentError`][].
    """

    def __init__(self, problem: Any, root: int, opt: Sequence[int], lo: Sequence[int],
                 hi: Sequence[int], counts: list[int] | None = None) -> None:
        self._problem = problem
        self._diagram: _Diagram | None = _Diagram(int(root), list(opt), list(lo), list(hi),
                                                  counts)
        self._at: tuple[Store, int] | None = None
        self._backend = "auto"
        self._nodes: int | None = None

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
        return s

    def __reduce__(self) -> tuple[Any, ...]:
        d = self._read()
        return (SolutionSet, (self._problem, d.root, d.opt, d.lo, d.hi))

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
            store, node = self._at
            root, opt, lo, hi = store.export(node)
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
        """The store of this set and its node there (imported on first use)."""
        at = self._at
        if at is None:
            d = self._diagram
            assert d is not None
            store = store_for(self._problem.matrix, self._backend)
            at = self._at = (store, store.import_diagram(d.root, d.opt, d.lo, d.hi))
        return at

    def _node_in(self, store: Store) -> int:
        """This set's node in ``store`` (another store of the same problem: copied)."""
        mine, node = self._canon()
        return node if mine is store else store.adopt(mine, node)

    @property
    def store(self) -> Store:
        """The canonical store this set lives in (a ``dlx.zdd_store.Store``), shared by
        the sets of its problem: its ``max_memory`` (bytes, settable) bounds them all."""
        return self._canon()[0]

    def canonical(self) -> SolutionSet:
        """This family in the store's form: the same solutions, ordered by option index,
        its diagram the one every equal set has (its [`node_count`][] too)."""
        store, node = self._canon()
        return SolutionSet._made(self._problem, store, node, self._backend)

    def using(self, backend: str) -> SolutionSet:
        """This family, its operations (and those of the sets made from it) run on
        ``backend`` (``"python"``, ``"numba"`` or ``"auto"``, the default)."""
        from .registry import get_backend

        if not isinstance(backend, str):
            raise ArgumentError(f"backend must be 'auto', 'python' or 'numba', got "
                                f"{backend!r}")
        get_backend(backend)  # an unknown name: ArgumentError; one that cannot run: ImportError
        store = store_for(self._problem.matrix, backend)
        d = self._diagram
        node = self._node_in(store) if self._at is not None or d is None else \
            store.import_diagram(d.root, d.opt, d.lo, d.hi)
        return SolutionSet._made(self._problem, store, node, backend)

    # ----- size ---------------------------------------------------------------------------

    def count(self) -> int:
        """The number of solutions, exact."""
        d = self._diagram
        if d is not None:
            return d.counts[d.root]
        assert self._at is not None
        store, node = self._at
        return store.count(node)

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
        assert self._at is not None
        return self._at[1] != 0

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
            assert self._at is not None
            store, node = self._at
            self._nodes = store.node_count(node)
        return self._nodes

    def __repr__(self) -> str:
        count = self.count()
        return (f"<SolutionSet: {count} solution{'' if count == 1 else 's'}, "
                f"{self.node_count} ZDD nodes>")

    # ----- reading solutions ----------------------------------------------------------------

    def __iter__(self) -> Iterator[list[int]]:
        """Each solution once, as a sorted list of option indices, ``lo`` before ``hi``:
        the order of the search."""
        opt, lo, hi = self._opt, self._lo, self._hi
        stack: list[tuple[int, Any]] = [(self._root, None)]
        while stack:
            n, chosen = stack.pop()
            if n == 1:
                yield _unlink(chosen)
            elif n > 1:
                stack.append((hi[n], (opt[n], chosen)))
                stack.append((lo[n], chosen))

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
            i = as_index(k)
            if i is None:
                raise ArgumentError(f"a solution holds option indices, got {k!r}")
            left.add(i)
        n = self._root
        while n > 1:
            v = self._opt[n]
            if v in left:
                left.discard(v)
                n = self._hi[n]
            else:
                n = self._lo[n]
        return n == 1 and not left

    def best(self, k: int = 1) -> list[list[int]]:
        """The ``k`` cheapest solutions under the problem's option costs (fewer if the set
        has fewer), cheapest first: the cheapest paths of the diagram, found best first
        (a node's least cost to the sink bounds each partial path). Ties in the order
        of iteration; without costs, the first ``k`` solutions."""
        n = _k(k)
        costs = memo_input(self._problem).costs
        cost = [0] * len(self._problem) if costs is None else [int(c) for c in costs]
        opt, lo, hi = self._opt, self._lo, self._hi
        least = [math.inf, 0.0] + [0.0] * (len(opt) - 2)
        for m in range(2, len(opt)):
            least[m] = min(least[lo[m]], cost[opt[m]] + least[hi[m]])
        out: list[list[int]] = []
        # A partial path: (bound, its branches (0: lo, 1: hi), cost so far, node, options).
        # Equal bounds pop in the order of the branches: the order of iteration.
        heap: list[tuple[float, tuple[int, ...], int, int, Any]] = []
        if least[self._root] < math.inf:
            heap.append((least[self._root], (), 0, self._root, None))
        while heap and len(out) < n:
            _, branches, spent, m, chosen = heapq.heappop(heap)
            if m == 1:
                out.append(_unlink(chosen))
                continue
            for bit, child, extra, more in ((0, lo[m], 0, chosen),
                                            (1, hi[m], cost[opt[m]], (opt[m], chosen))):
                if least[child] < math.inf:
                    heapq.heappush(heap, (spent + extra + least[child], (*branches, bit),
                                          spent + extra, child, more))
        return out


    # ----- new sets -----------------------------------------------------------------------

    def restrict(self, include: Iterable[int] = (), exclude: Iterable[int] = ()) -> SolutionSet:
        """The solutions that hold every option of ``include`` and none of ``exclude``."""
        ins = self._options(include, "include")
        outs = self._options(exclude, "exclude")
        store, node = self._canon()
        for v in outs:
            node = store.apply_option(kz.WITHOUT, node, v)
        for v in ins:
            node = store.apply_option(kz.WITH, node, v)
        return SolutionSet._made(self._problem, store, node, self._backend)

    def _options(self, given: Iterable[int], name: str) -> list[int]:
        if not isinstance(given, Iterable) or isinstance(given, (str, bytes)):
            raise ArgumentError(f"{name} must be an iterable of option indices, got {given!r}")
        out = []
        for k in given:
            i = as_index(k)
            if i is None or not 0 <= i < len(self._problem):
                raise ArgumentError(f"{name}: {k!r} is not an option of the problem (0.."
                                    f"{len(self._problem) - 1})")
            out.append(i)
        return out

    def _pair(self, other: object, op: str) -> tuple[Store, int, int]:
        """The store of this set, and the nodes there of this set and ``other``: a set of
        a problem of the same content, else [`dlx.ArgumentError`][] naming ``op``."""
        if not isinstance(other, SolutionSet):
            raise ArgumentError(f"{op} combines two SolutionSets, got {type(other).__name__}")
        if other._problem is not self._problem and \
                other._problem.matrix.digest != self._problem.matrix.digest:
            raise ArgumentError(f"{op} of solution sets of different problems: each set "
                                "belongs to the problem it was built for (or one of the "
                                "same items and options)")
        store, f = self._canon()
        return store, f, other._node_in(store)

    def _combine(self, other: object, op: str) -> SolutionSet:
        store, f, g = self._pair(other, op)
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
        store, f = self._canon()
        return f == other._node_in(store)

    def __hash__(self) -> int:
        store, node = self._canon()
        return hash((self._problem.matrix.digest, store.signature(node)))

    def __le__(self, other: object) -> bool:
        """Every solution of this set is one of ``other``'s."""
        store, f, g = self._pair(other, "<=")
        return f == g or store.apply(kz.DIFF, f, g) == 0

    def __lt__(self, other: object) -> bool:
        store, f, g = self._pair(other, "<")
        return f != g and store.apply(kz.DIFF, f, g) == 0

    def __ge__(self, other: object) -> bool:
        store, f, g = self._pair(other, ">=")
        return f == g or store.apply(kz.DIFF, g, f) == 0

    def __gt__(self, other: object) -> bool:
        store, f, g = self._pair(other, ">")
        return f != g and store.apply(kz.DIFF, g, f) == 0

    def isdisjoint(self, other: SolutionSet) -> bool:
        """No solution in both sets."""
        store, f, g = self._pair(other, "isdisjoint")
        return store.apply(kz.INTER, f, g) == 0

    # ----- Knuth's text format --------------------------------------------------------------

    def to_text(self) -> str:
        """The diagram in Knuth's ZDD text format (as DLX6 prints it with ``m1``)."""
        number = _kept_numbers(self._problem)
        lines = [f"{n:x}: (~{number[v]}?{lo:x}:{hi:x})"
                 for n, (v, lo, hi) in enumerate(zip(self._opt, self._lo, self._hi)) if n > 1]
        lines.append(f"{len(self._opt):x}: (~0?0:{self._root:x})")
        return "\n".join(lines) + "\n"

    def write(self, file: str | os.PathLike[str] | IO[str]) -> None:
        """Write [`to_text`][] to a path or an open text file."""
        if isinstance(file, (str, os.PathLike)):
            Path(_path(file, "file")).write_text(self.to_text())
        elif callable(getattr(file, "write", None)):
            file.write(self.to_text())
        else:
            raise ArgumentError(f"file must be a path or a text file open for writing, got "
                                f"{file!r}")

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
        if isinstance(source, (str, os.PathLike)):
            name = _path(source, "source")
            try:
                text = Path(name).read_text()
            except OSError as e:
                hint = " (ZDD text? SolutionSet.from_text reads it)" \
                    if _LINE.fullmatch(name) else ""
                raise ArgumentError(f"source: cannot read the ZDD file {name!r}: "
                                    f"{e.strerror or e}{hint}") from None
            except UnicodeDecodeError as e:
                raise ArgumentError(f"source: the ZDD file {name!r} is no text: "
                                    f"{e}") from None
        elif callable(getattr(source, "read", None)):
            text = source.read()  # type: ignore[union-attr]
            if not isinstance(text, str):
                raise ArgumentError(f"source must be a path or a file open in text mode, "
                                    f"got one that reads {type(text).__name__}")
        else:
            raise ArgumentError(f"source must be a path or a text file (ZDD text: "
                                f"SolutionSet.from_text), got {source!r}")
        return cls.from_text(problem, text)

    @classmethod
    def from_text(cls, problem: Any, text: str) -> SolutionSet:
        """A set of ``problem`` from Knuth's ZDD text. Every line is checked, and every
        set of the diagram must be a solution of ``problem``: else
        [`ZDDFormatError`][], naming the line or node; nothing is built then."""
        if not isinstance(text, str):
            raise ArgumentError(f"text must be a str of ZDD text (a file: SolutionSet.read), "
                                f"got {type(text).__name__}")
        return _parse(problem, text)


    # ----- a picture ------------------------------------------------------------------------

    def _repr_svg_(self) -> str:
        """The diagram drawn (up to [`SVG_NODES`][] nodes): nodes in rows by their depth
        from the root, ``hi`` edges solid, ``lo`` edges dashed, the sinks as squares.
        Past that, a summary of a few kilobytes whatever the size: the count, the nodes,
        and how the nodes spread over the options."""
        if self.node_count > SVG_NODES:
            return _summary_svg(self)
        return _svg(self)


SVG_NODES = 80
"""The most nodes [`SolutionSet._repr_svg_`][] draws one by one."""



def _k(k: Any) -> int:
    """A number of draws: a nonnegative integer."""
    n = as_index(k)
    if n is None or n < 0:
        raise ArgumentError(f"k must be a nonnegative integer, got {k!r}")
    return n


def _path(file: str | os.PathLike[str], name: str) -> str:
    """A path argument as a str, or ArgumentError naming ``name``: no file name (empty,
    bytes) or a NUL in it."""
    try:
        path = os.fspath(file)
    except TypeError:
        path = None
    if not isinstance(path, str) or not path or "\0" in path:
        raise ArgumentError(f"{name} must name a file, got {file!r}")
    return path


def _unlink(chosen: Any) -> list[int]:
    """A linked list ``(option, rest)`` as a sorted list."""
    out = []
    while chosen is not None:
        out.append(chosen[0])
        chosen = chosen[1]
    out.sort()
    return out


def _kept_numbers(problem: Any) -> list[int]:
    """Option index -> its number in Knuth's format: 1, 2, ... among the options that have
    a primary item (0 for a dropped one); index -1 (a sink) -> 0."""
    numbers, k = [], 0
    for kept in memo_input(problem).kept():
        k += kept
        numbers.append(k if kept else 0)
    return [*numbers, 0]


_LINE = re.compile(r"\s*([0-9a-fA-F]{1,16}):\s*\(~(\d{1,19})\?([0-9a-fA-F]{1,16}):"
                   r"([0-9a-fA-F]{1,16})\)\s*")
"""A node line; numbers of bounded length (a longer one is no node of any diagram here, and
Python's int() of a long decimal string takes time quadratic in its length)."""


def _parse(problem: Any, text: str) -> SolutionSet:
    """[`SolutionSet.from_text`][]: parse, check each line, reduce through a unique table,
    then check that the diagram holds solutions only ([`_check_solutions`][]). Time and
    memory linear in the text (see there)."""
    numbers = _kept_numbers(problem)
    option_of = {number: i for i, number in enumerate(numbers[:-1]) if number}
    opt, lo, hi, line_of = [-1, -1], [0, 0], [0, 0], [0, 0]
    here: dict[int, int] = {0: 0, 1: 1}
    unique: dict[tuple[int, int, int], int] = {}
    root = None
    seen = False
    for k, line in enumerate(text.splitlines(), 1):
        if not line or line.isspace():
            continue
        seen = True
        m = _LINE.fullmatch(line)
        if not m:
            raise ZDDFormatError(f"line {k}: not a ZDD node 'id: (~v?lo:hi)': "
                                 f"{line.strip()[:80]!r}")
        ident, var, a, b = int(m[1], 16), int(m[2]), int(m[3], 16), int(m[4], 16)
        if root is not None:
            raise ZDDFormatError(f"line {k}: a line after the root line (~0)")
        if ident in here:
            raise ZDDFormatError(f"line {k}: node {ident:x} is defined twice (or is a sink)")
        for child in (a, b):
            if child not in here:
                raise ZDDFormatError(f"line {k}: node {ident:x} points to node {child:x}, "
                                     "not defined before it")
        if var == 0:
            if a != 0:
                raise ZDDFormatError(f"line {k}: the root line must read '(~0?0:root)'")
            root = here[b]
            continue
        v = option_of.get(var)
        if v is None:
            raise ZDDFormatError(f"line {k}: option number {var} is not in 1.."
                                 f"{len(option_of)}")
        a, b = here[a], here[b]
        if b == 0:  # zero suppression: the node is its lo
            here[ident] = a
            continue
        key = (v, a, b)
        n = unique.get(key)
        if n is None:
            n = unique[key] = len(opt)
            opt.append(v)
            lo.append(a)
            hi.append(b)
            line_of.append(k)
        here[ident] = n
    if not seen:
        raise ZDDFormatError("the ZDD text is empty: it needs at least the root line")
    if root is None:
        raise ZDDFormatError("the ZDD text has no root line 'id: (~0?0:root)' at its end")
    del here, unique
    keep = _reached(root, lo, hi)
    _check_solutions(problem, root, opt, lo, hi, line_of, keep)
    new = [0] * len(opt)
    new[1] = 1
    for i, n in enumerate(keep):
        new[n] = i + 2
    return SolutionSet(problem, new[root], [-1, -1] + [opt[n] for n in keep],
                       [0, 0] + [new[lo[n]] for n in keep],
                       [0, 0] + [new[hi[n]] for n in keep])


def _reached(root: int, lo: list[int], hi: list[int]) -> list[int]:
    """The nodes ``root`` reaches, sinks left out, in increasing order."""
    mark = bytearray(len(lo))
    stack = [root] if root > 1 else []
    while stack:
        n = stack.pop()
        if not mark[n]:
            mark[n] = 1
            for child in (lo[n], hi[n]):
                if child > 1 and not mark[child]:
                    stack.append(child)
    return [n for n in range(2, len(lo)) if mark[n]]


_PRIME = (1 << 61) - 1
"""The modulus of [`_check_solutions`][]'s sums (a Mersenne prime)."""


def _check_solutions(problem: Any, root: int, opt: list[int], lo: list[int], hi: list[int],
                     line_of: list[int], keep: list[int]) -> None:
    """Raise [`ZDDFormatError`][] (naming the line) unless every set of the diagram of
    ``root`` (its nodes ``keep``, in order) is a solution, each once: time and memory
    linear in the text.

    * Primary items, exactly once in every set: each item gets two random weights
      below a 61-bit prime (drawn anew for each text), and each node the sums of the
      weights of the items its sets cover, which must agree between its two halves
      and, at the root, be the sum of all. A set that covers an item twice or misses
      one passes with probability below 2**-120, whatever the text.
    * Each set once (no option below a node in its ``lo`` half): either the node's
      option shares an item with every option of its ``lo`` chain, in a monotone order
      (the diagrams of the search and of DLX6: each level's options cover its item,
      and the sets below them do not), or it comes before every option below (an
      ordered diagram: the option order, or the store's). A diagram of neither form is
      checked exactly instead ([`_check_once`][]: a bit set of options per node).
    * Secondary items: per node, the (item, color) pairs used below it, as a bit set
      (one bit per pair of the problem), against the node's option.

    Every per-node record is dropped once the node's last parent is read."""
    data = memo_input(problem)
    n1 = data.n_primary
    indptr, items, colors = data.indptr.tolist(), data.items.tolist(), data.colors.tolist()
    pair: dict[tuple[int, int], int] = {}
    by_item: dict[int, list[int]] = {}
    for x, c in zip(items, colors):
        if x > n1 and (x, c) not in pair:
            pair[(x, c)] = len(pair)
            by_item.setdefault(x, []).append(pair[(x, c)])
    draw = random.SystemRandom()
    w1 = [draw.randrange(1, _PRIME) for _ in range(n1 + 1)]
    w2 = [draw.randrange(1, _PRIME) for _ in range(n1 + 1)]
    parents = [0] * len(opt)
    for n in keep:
        parents[lo[n]] += 1
        parents[hi[n]] += 1
    size = len(opt)
    h1, h2 = [0] * size, [0] * size
    used: list[int] = [0] * size  # secondary pairs below (dropped: 0)
    common: list[frozenset[int] | None] = [None] * size  # items shared along the lo chain
    trend = [0] * size  # the lo chain's options: rise (1), fall (-1), neither (2); none (0)
    least = [sys.maxsize] * size  # the least option index below
    least_rank = [sys.maxsize] * size  # the least rank below, in the store's order
    rank: list[int] | None = None
    exact = False
    for n in keep:
        v, a, b, k = opt[n], lo[n], hi[n], line_of[n]
        prim = []
        s1 = s2 = 0
        own = clash = 0
        for j in range(indptr[v], indptr[v + 1]):
            x, c = items[j], colors[j]
            if x <= n1:
                prim.append(x)
                s1 += w1[x]
                s2 += w2[x]
                continue
            bit = pair[(x, c)]
            own |= 1 << bit
            for other in by_item[x]:
                if other != bit or c == 0:
                    clash |= 1 << other
        if clash & used[b] or (b > 1 and not set(prim).isdisjoint(
                x for x in items[indptr[opt[b]]:indptr[opt[b] + 1]] if x <= n1)):
            raise ZDDFormatError(f"line {k}: option {v} clashes with the options below it")
        s1, s2 = (s1 + h1[b]) % _PRIME, (s2 + h2[b]) % _PRIME
        if a != 0 and (h1[a], h2[a]) != (s1, s2):
            raise ZDDFormatError(f"line {k}: the sets of node {n} do not all cover the same "
                                 "items")
        h1[n], h2[n] = s1, s2
        used[n] = used[a] | used[b] | own
        least[n] = min(v, least[a], least[b])
        mine = frozenset(prim)
        if a > 1:
            shared = common[a]
            assert shared is not None
            mine &= shared
            t = 1 if v > opt[a] else -1 if v < opt[a] else 2
            trend[n] = t if trend[a] in (0, t) else 2
            if (not mine or trend[n] == 2) and v >= least[a]:
                if rank is None:
                    rank = _store_rank(problem)
                    for m in keep:  # the least rank below each node, as far as read
                        if m == n:
                            break
                        least_rank[m] = min(rank[opt[m]], least_rank[lo[m]],
                                            least_rank[hi[m]])
                exact = exact or rank[v] >= least_rank[a]
        common[n] = mine
        if rank is not None:
            least_rank[n] = min(rank[v], least_rank[a], least_rank[b])
        for child in (a, b):
            parents[child] -= 1
            if child > 1 and parents[child] == 0:
                used[child], common[child] = 0, None
    if root != 0 and (h1[root], h2[root]) != (sum(w1[1:]) % _PRIME, sum(w2[1:]) % _PRIME):
        raise ZDDFormatError("the diagram's sets do not cover every primary item exactly once")
    if exact:
        _check_once(opt, lo, hi, line_of, keep)


def _store_rank(problem: Any) -> list[int]:
    """Each option's rank in the order of the problem's store ([`option_order`][])."""
    from .zdd_store import option_order

    m = problem.matrix
    order = option_order(m.indptr, m.items, m.n_items)
    rank = [0] * len(order)
    for r, o in enumerate(order.tolist()):
        rank[o] = r
    return rank


def _check_once(opt: list[int], lo: list[int], hi: list[int], line_of: list[int],
                keep: list[int]) -> None:
    """The exact check that no node's option occurs below it, for a diagram of neither
    of the forms [`_check_solutions`][] recognises: a bit set of the options below each
    node (time: the nodes times the options, in words)."""
    parents = [0] * len(opt)
    for n in keep:
        parents[lo[n]] += 1
        parents[hi[n]] += 1
    below = [0] * len(opt)
    for n in keep:
        v, a, b = opt[n], lo[n], hi[n]
        if (below[a] | below[b]) >> v & 1:
            raise ZDDFormatError(f"line {line_of[n]}: option {v} occurs again below it")
        below[n] = below[a] | below[b] | 1 << v
        for child in (a, b):
            parents[child] -= 1
            if child > 1 and parents[child] == 0:
                below[child] = 0


def _svg(s: SolutionSet) -> str:
    """The picture of [`SolutionSet._repr_svg_`][]."""
    opt, lo, hi = s._opt, s._lo, s._hi
    depth = {s._root: 0}
    for n in range(len(opt) - 1, 1, -1):  # parents have larger numbers
        if n in depth:
            for child in (lo[n], hi[n]):
                depth[child] = max(depth.get(child, 0), depth[n] + 1)
    sink_row = max([d for n, d in depth.items() if n > 1], default=-1) + 1
    for n in (0, 1):
        depth[n] = sink_row
    rows: dict[int, list[int]] = {}
    for n in sorted(depth, reverse=True):
        rows.setdefault(depth[n], []).append(n)
    width = 60 * max(len(r) for r in rows.values()) + 40
    height = 70 * (sink_row + 1) + 30
    at = {n: (40 + 60 * i + (width - 40 - 60 * len(r)) // 2, 35 + 70 * d)
          for d, r in rows.items() for i, n in enumerate(r)}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">']
    for n in depth:
        if n > 1:
            x, y = at[n]
            for child, dash in ((lo[n], ' stroke-dasharray="4 3"'), (hi[n], "")):
                cx, cy = at[child]
                parts.append(f'<line x1="{x}" y1="{y}" x2="{cx}" y2="{cy}" stroke="#333"'
                             f'{dash}/>')
    for n in depth:
        x, y = at[n]
        if n > 1:
            parts.append(f'<circle cx="{x}" cy="{y}" r="15" fill="#fff" stroke="#333"/>'
                         f'<text x="{x}" y="{y + 4}" text-anchor="middle">'
                         f'{escape(str(opt[n]))}</text>')
        else:
            parts.append(f'<rect x="{x - 12}" y="{y - 12}" width="24" height="24" '
                         f'fill="#eee" stroke="#333"/><text x="{x}" y="{y + 4}" '
                         f'text-anchor="middle">{n}</text>')
    parts.append("</svg>")
    return "".join(parts)


SUMMARY_BARS = 120
"""The most bars of [`_summary_svg`][]'s profile."""


def _summary_svg(s: SolutionSet) -> str:
    """The picture of a set too large to draw node by node: its count and nodes, and a
    profile, the diagram's nodes by option index in at most [`SUMMARY_BARS`][] bars. A
    few kilobytes, whatever the size."""
    count, nodes = s.count(), s.node_count
    n_options = max(len(s.problem), 1)
    bars = min(SUMMARY_BARS, n_options)
    opt = np.asarray(s._opt[2:], dtype=np.int64)
    heights = np.bincount(opt * bars // n_options, minlength=bars)[:bars] if len(opt) \
        else np.zeros(bars, dtype=np.int64)
    top = max(int(heights.max()), 1)
    shown = f"{count:,}" if count < 10**24 else f"{count:.3e}"
    width, height, left, base = 2 * SUMMARY_BARS + 120, 170, 50, 140
    step = 2 * SUMMARY_BARS / bars
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="10" y="18">SolutionSet: {escape(shown)} solution'
             f'{"" if count == 1 else "s"}, {nodes:,} ZDD nodes</text>',
             f'<text x="10" y="36" fill="#555">nodes by option (0..{n_options - 1}), '
             f'tallest bar {top:,}</text>',
             f'<line x1="{left}" y1="{base}" x2="{left + 2 * SUMMARY_BARS}" y2="{base}" '
             'stroke="#333"/>']
    for i, h in enumerate(heights.tolist()):
        if h:
            tall = max(1.0, 90.0 * h / top)
            parts.append(f'<rect x="{left + i * step:.1f}" y="{base - tall:.1f}" '
                         f'width="{max(step - 0.4, 0.6):.1f}" height="{tall:.1f}" '
                         'fill="#4a7ab5"/>')
    parts.append(f'<text x="{left}" y="{base + 16}" fill="#555">0</text>'
                 f'<text x="{left + 2 * SUMMARY_BARS}" y="{base + 16}" fill="#555" '
                 f'text-anchor="end">{n_options - 1}</text></svg>')
    return "".join(parts)
