"""Knuth's ZDD text format for [`dlx.SolutionSet`][]: writing it, and reading it back
in time and memory linear in the text, every line and every set checked.

The format is the one DLX6 prints with ``m1``: one line per node, children first,
``id: (~v?lo:hi)`` with ``id``, ``lo`` and ``hi`` in hexadecimal (0 and 1 the sinks)
and ``v`` the option's number counted from 1 among the options that have a primary item
(DLX6 drops the others); then a dummy root ``id: (~0?0:root)``.
"""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path
from typing import IO, Any

from .errors import ArgumentError, ZDDFormatError
from .zdd_store import memo_input, order_for

__all__ = ["kept_numbers", "parse", "path_arg", "read_source", "to_text", "write_text"]


def to_text(problem: Any, root: int, opt: list[int], lo: list[int], hi: list[int]) -> str:
    """The diagram ``(root, opt, lo, hi)`` of a set of ``problem`` as Knuth's text."""
    number = kept_numbers(problem)
    lines = [f"{n:x}: (~{number[v]}?{a:x}:{b:x})"
             for n, (v, a, b) in enumerate(zip(opt, lo, hi)) if n > 1]
    lines.append(f"{len(opt):x}: (~0?0:{root:x})")
    return "\n".join(lines) + "\n"


def write_text(file: str | os.PathLike[str] | IO[str], text: str) -> None:
    """[`dlx.SolutionSet.write`][]: ``text`` to a path or an open text file."""
    if isinstance(file, (str, os.PathLike)):
        Path(path_arg(file, "file")).write_text(text)
    elif callable(getattr(file, "write", None)):
        file.write(text)
    else:
        raise ArgumentError(f"file must be a path or a text file open for writing, got "
                            f"{file!r}")


def read_source(source: str | os.PathLike[str] | IO[str]) -> str:
    """[`dlx.SolutionSet.read`][]'s text: the file at a path, or what an open text file
    reads; else [`dlx.ArgumentError`][] naming ``source``."""
    if isinstance(source, (str, os.PathLike)):
        name = path_arg(source, "source")
        try:
            return Path(name).read_text()
        except OSError as e:
            hint = " (ZDD text? SolutionSet.from_text reads it)" \
                if _LINE.fullmatch(name) else ""
            raise ArgumentError(f"source: cannot read the ZDD file {name!r}: "
                                f"{e.strerror or e}{hint}") from None
        except UnicodeDecodeError as e:
            raise ArgumentError(f"source: the ZDD file {name!r} is no text: {e}") from None
    if callable(getattr(source, "read", None)):
        text = source.read()  # type: ignore[union-attr]
        if not isinstance(text, str):
            raise ArgumentError(f"source must be a path or a file open in text mode, "
                                f"got one that reads {type(text).__name__}")
        return text
    raise ArgumentError(f"source must be a path or a text file (ZDD text: "
                        f"SolutionSet.from_text), got {source!r}")


def path_arg(file: str | os.PathLike[str], name: str) -> str:
    """A path argument as a str, or ArgumentError naming ``name``: no file name (empty,
    bytes) or a NUL in it."""
    try:
        path = os.fspath(file)
    except TypeError:
        path = None
    if not isinstance(path, str) or not path or "\0" in path:
        raise ArgumentError(f"{name} must name a file, got {file!r}")
    return path



def kept_numbers(problem: Any) -> list[int]:
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


def parse(problem: Any, text: str) -> tuple[int, list[int], list[int], list[int]]:
    """[`dlx.SolutionSet.from_text`][]'s diagram ``(root, opt, lo, hi)``: parse, check
    each line, reduce through a unique table, then check that the diagram holds
    solutions only ([`_check_solutions`][]). Time and memory linear in the text (see
    there)."""
    numbers = kept_numbers(problem)
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
    return (new[root], [-1, -1] + [opt[n] for n in keep], [0, 0] + [new[lo[n]] for n in keep],
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
    """Each option's rank in the order of the problem's store
    ([`dlx.zdd_store.order_for`][])."""
    order = order_for(problem.matrix)
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
