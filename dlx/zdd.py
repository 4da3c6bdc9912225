"""The set of all solutions of a problem, as a zero-suppressed decision diagram (ZDD).

A [`SolutionSet`][] is what the memoized search ([`dlx.memo`][], Knuth's DLX6) builds:
nodes ``n = 2, 3, ...`` each holding ``(option, lo, hi)``, and two sinks, 0 (no solution)
and 1 (the empty one). The family of node ``n`` is that of ``lo``, plus that of ``hi``
with ``option`` added to each set. Every node is numbered after its children. One
invariant holds in every diagram here, whether the search made it or a set operation:
*no set below a node holds the node's option*. So the two parts are disjoint, a set's
path is unique, counts add up exactly, and membership is a walk (``option`` in the set:
take ``hi``, else ``lo``).

The diagram the search makes is ordered by the search, not by option number: a node's
``lo`` holds the options tried before it at that level. Iteration follows that order
(``lo`` first), which is the order in which Algorithm C with Knuth's choice of item finds
the solutions (``ExactCover.solutions()``). Set operations split both operands on one
option at a time ([`_Store.offset`][] and [`_Store.onset`][]) and so accept any two
diagrams of the invariant; their results are reduced through a unique table too.

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


class _Store:
    """ZDD nodes under construction, reduced: a unique table, and no node whose ``hi`` is
    the empty sink (zero suppression)."""

    def __init__(self) -> None:
        self.opt = [-1, -1]
        self.lo = [0, 0]
        self.hi = [0, 0]
        self.unique: dict[tuple[int, int, int], int] = {}
        self.memo: dict[tuple[Any, ...], int] = {}

    def make(self, v: int, lo: int, hi: int) -> int:
        if hi == 0:
            return lo
        key = (v, lo, hi)
        n = self.unique.get(key)
        if n is None:
            n = len(self.opt)
            self.unique[key] = n
            self.opt.append(v)
            self.lo.append(lo)
            self.hi.append(hi)
        return n

    def add(self, s: SolutionSet) -> int:
        """Copy the diagram of ``s`` in; returns its root here."""
        new = [0, 1]
        for v, lo, hi in zip(s._opt[2:], s._lo[2:], s._hi[2:]):
            new.append(self.make(v, new[lo], new[hi]))
        return new[s._root]

    def offset(self, n: int, v: int) -> int:
        """The sets of ``n`` without option ``v``."""
        return self._cofactor(n, v, False)

    def onset(self, n: int, v: int) -> int:
        """The sets of ``n`` with option ``v``, ``v`` taken out."""
        return self._cofactor(n, v, True)

    def _cofactor(self, n: int, v: int, on: bool) -> int:
        """[`offset`][] (``on`` False) or [`onset`][], without recursion: the nodes
        above the ones of option ``v`` are rebuilt children first (a child's number is
        below its parent's), each result kept under ``(on, node, v)``."""
        done = self._done(n, v, on)
        if done is not None:
            return done
        opt, lo, hi, memo = self.opt, self.lo, self.hi, self.memo
        todo, stack = set(), [n]
        while stack:
            m = stack.pop()
            if m not in todo and self._done(m, v, on) is None:
                todo.add(m)
                stack += (lo[m], hi[m])
        for m in sorted(todo):
            memo[(on, m, v)] = self.make(opt[m], self._done(lo[m], v, on),  # type: ignore[arg-type]
                                         self._done(hi[m], v, on))  # type: ignore[arg-type]
        return memo[(on, n, v)]

    def _done(self, n: int, v: int, on: bool) -> int | None:
        """The cofactor of ``n`` if it needs no rebuilding (a sink, a node of option ``v``)
        or was rebuilt already; else None."""
        if n < 2:
            return 0 if on else n
        if self.opt[n] == v:
            return self.hi[n] if on else self.lo[n]
        return self.memo.get((on, n, v))

    def has_empty(self, n: int) -> bool:
        while n > 1:
            n = self.lo[n]
        return n == 1

    def without_empty(self, n: int) -> int:
        return self._lo_sink(n, 0)

    def with_empty(self, n: int) -> int:
        return self._lo_sink(n, 1)

    def _lo_sink(self, n: int, sink: int) -> int:
        """``n`` with the sink at the end of its ``lo`` chain replaced by ``sink``: with
        (1) or without (0) the empty set."""
        chain = []
        while n > 1:
            chain.append(n)
            n = self.lo[n]
        for m in reversed(chain):
            sink = self.make(self.opt[m], sink, self.hi[m])
        return sink

    def union(self, f: int, g: int) -> int:
        return self._apply("|", f, g)

    def intersection(self, f: int, g: int) -> int:
        return self._apply("&", f, g)

    def difference(self, f: int, g: int) -> int:
        return self._apply("-", f, g)

    def _base(self, op: str, f: int, g: int) -> tuple[int | None, int, int]:
        """The result of ``f op g`` when a sink or equal operands decide it, else None;
        and the operands to split, ``f`` not a sink (union: swapped if need be)."""
        if op == "|":
            if f == 0 or f == g:
                return g, f, g
            if g == 0:
                return f, f, g
            if f < 2:  # f is {∅}: split on g's option instead
                f, g = g, f
            return (self.with_empty(f) if g == 1 else None), f, g
        if op == "&":
            if f == 0 or g == 0:
                return 0, f, g
            if f == g:
                return f, f, g
            if f == 1 or g == 1:
                return int(self.has_empty(g if f == 1 else f)), f, g
            return None, f, g
        if f == 0 or f == g:
            return 0, f, g
        if g == 0:
            return f, f, g
        if f == 1:
            return int(not self.has_empty(g)), f, g
        return (self.without_empty(f) if g == 1 else None), f, g

    def _apply(self, op: str, f: int, g: int) -> int:
        """``f op g`` (``|``, ``&``, ``-``) without recursion: each pair is split on the
        option of ``f``, ``(lo f) op (g without it)`` and ``(hi f) op (g with it)``; a
        pair is made once both halves are known (an explicit stack), each result kept
        under ``(op, f, g)``."""
        memo = self.memo
        stack = [(f, g)]
        while stack:
            pair = stack[-1]
            result, a, b = self._base(op, *pair)
            if result is not None or (op, a, b) in memo:
                stack.pop()
                continue
            v = self.opt[a]
            halves = (self.lo[a], self.offset(b, v)), (self.hi[a], self.onset(b, v))
            known = [self._known(op, *h) for h in halves]
            if None in known:
                stack += [h for h, k in zip(halves, known) if k is None]
                continue
            stack.pop()
            memo[(op, a, b)] = self.make(v, known[0], known[1])  # type: ignore[arg-type]
        return self._known(op, f, g)  # type: ignore[return-value]

    def _known(self, op: str, f: int, g: int) -> int | None:
        """``f op g`` if a base case decides it or it was made already, else None."""
        result, a, b = self._base(op, f, g)
        return result if result is not None else self.memo.get((op, a, b))

    def solution_set(self, problem: Any, root: int) -> SolutionSet:
        """The nodes that ``root`` reaches, renumbered in order, as a set of ``problem``."""
        seen = {0, 1}
        stack = [root]
        while stack:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                stack += (self.lo[n], self.hi[n])
        order = sorted(seen)
        new = {n: k for k, n in enumerate(order)}
        opt = [-1, -1] + [self.opt[n] for n in order[2:]]
        lo = [0, 0] + [new[self.lo[n]] for n in order[2:]]
        hi = [0, 0] + [new[self.hi[n]] for n in order[2:]]
        return SolutionSet(problem, new[root], opt, lo, hi)


class SolutionSet:
    """All solutions of a problem (or a part of them), held as a ZDD.

    Made by the memoized search (``dlx.memo.memo_search``) or read from Knuth's text
    format ([`read`][] a file, [`from_text`][] a text). ``len()`` and [`count`][] are
    exact (no 64-bit ceiling; ``len`` stops at ``sys.maxsize``, Python's own limit);
    iteration yields each solution once as a sorted list of option indices, in the order
    of the search (the order of ``ExactCover.solutions()``); [`solution`][] gives the
    ``i``-th in that order, [`sample`][] (a list) and [`samples`][] (one at a time)
    exactly uniform draws. ``&``, ``|`` and ``-`` combine sets of the same problem.
    """

    def __init__(self, problem: Any, root: int, opt: Sequence[int], lo: Sequence[int],
                 hi: Sequence[int], counts: list[int] | None = None) -> None:
        self._problem = problem
        self._root = int(root)
        self._opt = list(opt)
        self._lo = list(lo)
        self._hi = list(hi)
        self._counts = counts if counts is not None else exact_counts(self._lo, self._hi)

    @classmethod
    def _from_search(cls, problem: Any, root: int, opt: np.ndarray, lo: np.ndarray,
                     hi: np.ndarray, counts: list[int]) -> SolutionSet:
        opt = np.asarray(opt).copy()
        opt[:2] = -1
        return cls(problem, root, opt.tolist(), np.asarray(lo).tolist(),
                   np.asarray(hi).tolist(), counts)

    @property
    def problem(self) -> Any:
        """The problem whose solutions these are."""
        return self._problem

    # ----- size ---------------------------------------------------------------------------

    def count(self) -> int:
        """The number of solutions, exact."""
        return self._counts[self._root]

    def __len__(self) -> int:
        n = self.count()
        if n > sys.maxsize:
            raise SetTooLargeError(f"the set has {n} solutions, more than len() can return; "
                                   "count() gives the number")
        return n

    def __bool__(self) -> bool:
        return self._root != 0

    @property
    def node_count(self) -> int:
        """Nodes of the diagram, the two sinks included; 1 (the empty sink) for a set
        without solutions (as DLX6 counts them)."""
        return len(self._opt) if self._root != 0 else 1

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
        store = _Store()
        root = store.add(self)
        for v in outs:
            root = store.offset(root, v)
        for v in ins:
            root = store.make(v, 0, store.onset(root, v))
        return store.solution_set(self._problem, root)

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

    def _combine(self, other: object, op: str) -> SolutionSet:
        if not isinstance(other, SolutionSet):
            raise ArgumentError(f"{op} combines two SolutionSets, got {type(other).__name__}")
        if other._problem is not self._problem:
            raise ArgumentError(f"{op} of solution sets of different problems: each set "
                                "belongs to the problem it was built for")
        store = _Store()
        f, g = store.add(self), store.add(other)
        root = {"&": store.intersection, "|": store.union, "-": store.difference}[op](f, g)
        return store.solution_set(self._problem, root)

    def __and__(self, other: object) -> SolutionSet:
        return self._combine(other, "&")

    def __or__(self, other: object) -> SolutionSet:
        return self._combine(other, "|")

    def __sub__(self, other: object) -> SolutionSet:
        return self._combine(other, "-")

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

    def _repr_svg_(self) -> str | None:
        """The diagram drawn (for at most 80 nodes; None beyond, so that Jupyter shows the
        repr): nodes in rows by their depth from the root, ``hi`` edges solid, ``lo``
        edges dashed, the sinks as squares."""
        if self.node_count > 80:
            return None
        return _svg(self)


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


_LINE = re.compile(r"\s*([0-9a-fA-F]+):\s*\(~(\d+)\?([0-9a-fA-F]+):([0-9a-fA-F]+)\)\s*")


def _parse(problem: Any, text: str) -> SolutionSet:
    """[`SolutionSet.from_text`][]: parse, check each line, then check that the diagram
    holds solutions only ([`_check_solutions`][])."""
    numbers = _kept_numbers(problem)
    option_of = {number: i for i, number in enumerate(numbers[:-1]) if number}
    lines = [(k, line) for k, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise ZDDFormatError("the ZDD text is empty: it needs at least the root line")
    store = _Store()
    here: dict[int, int] = {0: 0, 1: 1}
    root = None
    for k, line in lines:
        m = _LINE.fullmatch(line)
        if not m:
            raise ZDDFormatError(f"line {k}: not a ZDD node 'id: (~v?lo:hi)': {line.strip()!r}")
        ident, var, lo, hi = int(m[1], 16), int(m[2]), int(m[3], 16), int(m[4], 16)
        if root is not None:
            raise ZDDFormatError(f"line {k}: a line after the root line (~0)")
        if ident in here:
            raise ZDDFormatError(f"line {k}: node {ident:x} is defined twice (or is a sink)")
        for child in (lo, hi):
            if child not in here:
                raise ZDDFormatError(f"line {k}: node {ident:x} points to node {child:x}, "
                                     "not defined before it")
        if var == 0:
            if lo != 0:
                raise ZDDFormatError(f"line {k}: the root line must read '(~0?0:root)'")
            root = here[hi]
            continue
        if var not in option_of:
            raise ZDDFormatError(f"line {k}: option number {var} is not in 1.."
                                 f"{len(option_of)}")
        here[ident] = store.make(option_of[var], here[lo], here[hi])
    if root is None:
        raise ZDDFormatError("the ZDD text has no root line 'id: (~0?0:root)' at its end")
    result = store.solution_set(problem, root)
    _check_solutions(problem, result)
    return result


def _option_masks(problem: Any) -> tuple[list[int], list[int], list[int], int]:
    """Per option, as bit sets: its primary items; its secondary (item, color) pairs;
    the pairs that clash with them (another color, or any use of an item it takes
    uncolored). And the set of all primary items."""
    data = memo_input(problem)
    indptr = data.indptr.tolist()
    items = data.items.tolist()
    colors = data.colors.tolist()
    n1 = data.n_primary
    pair: dict[tuple[int, int], int] = {}
    by_item: dict[int, list[int]] = {}
    for x, c in zip(items, colors):
        if x > n1 and (x, c) not in pair:
            pair[(x, c)] = len(pair)
            by_item.setdefault(x, []).append(pair[(x, c)])
    prim, own, clash = [], [], []
    for k in range(len(indptr) - 1):
        p = o = c_mask = 0
        for j in range(indptr[k], indptr[k + 1]):
            x, c = items[j], colors[j]
            if x <= n1:
                p |= 1 << (x - 1)
                continue
            bit = pair[(x, c)]
            o |= 1 << bit
            for other in by_item[x]:
                if other != bit or c == 0:
                    c_mask |= 1 << other
        prim.append(p)
        own.append(o)
        clash.append(c_mask)
    return prim, own, clash, (1 << n1) - 1


def _check_solutions(problem: Any, s: SolutionSet) -> None:
    """Raise [`ZDDFormatError`][] unless every set of ``s`` is a solution and no node's
    option occurs below it. Per node, bit sets: the primary items its sets cover (the
    same for all of them, in a diagram of solutions), the options and the secondary
    (item, color) pairs that occur in some set."""
    prim, own, clash, everything = _option_masks(problem)
    opt, lo, hi = s._opt, s._lo, s._hi
    covers = [0, 0]
    options = [0, 0]
    pairs = [0, 0]
    for n in range(2, len(opt)):
        v, a, b = opt[n], lo[n], hi[n]
        mine = prim[v] | covers[b]
        if prim[v] & covers[b] or clash[v] & pairs[b]:
            raise ZDDFormatError(f"node {n}: option {v} clashes with the options below it")
        if a != 0 and covers[a] != mine:
            raise ZDDFormatError(f"node {n}: its sets do not all cover the same items")
        if (options[a] | options[b]) >> v & 1:
            raise ZDDFormatError(f"node {n}: option {v} occurs again below it")
        covers.append(mine)
        options.append(options[a] | options[b] | 1 << v)
        pairs.append(pairs[a] | pairs[b] | own[v])
    if s._root != 0 and covers[s._root] != everything:
        raise ZDDFormatError("the diagram's sets do not cover every primary item")


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
