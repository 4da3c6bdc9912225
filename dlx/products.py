"""Product nodes: the diagram of a memoized search that split into independent parts.

With ``parts=True`` the memoized search ([`dlx.memo`][]) answers a node whose active items
fall into groups that no option joins by the product of the groups' answers: a ZDD node
``(PRODUCT, a, b)`` whose family is every union of a set of ``a`` and a set of ``b``
(the two share no option). Its count is the product of theirs, so counting stays exact
and cheap ([`product_counts`][]). Everything else about a [`dlx.SolutionSet`][] (iteration,
sampling, ``best``, set operations, Knuth's text format) reads plain nodes only, so the
diagram is [`expanded`][] once, when the set is made: the product of ``a`` and ``b`` is
the diagram of ``a`` with its empty-set sink replaced by ``b``'s root. That copy is what
the kernel avoids: inside the search it would be made again for every different ``b``,
and so may the expansion, when a group met in many places is multiplied each time by a
different rest: the plain diagram can be exponentially larger than the one with
products (rooms in a row: 8,511 kernel nodes for 13 rooms, more than 4 million plain
ones). So the expansion stops at a bound ([`EXPANDED_NODES`][] unless the caller's
``max_zdd_nodes`` says otherwise), and counting never expands.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .kernels.memo import PRODUCT

__all__ = ["EXPANDED_NODES", "PRODUCT", "expanded", "has_products", "product_counts"]

EXPANDED_NODES = 1 << 22
"""The most plain nodes an expansion makes when the caller sets no bound (~1 GB)."""


def has_products(opt: np.ndarray) -> bool:
    """Whether a diagram (its ``ZOPT``, sinks included) holds a product node."""
    return bool((opt[2:] == PRODUCT).any())


def product_counts(opt: Sequence[int] | np.ndarray, lo: Sequence[int] | np.ndarray,
                   hi: Sequence[int] | np.ndarray) -> list[int]:
    """The number of sets of each node as exact Python ints (children come first): a
    product node multiplies its children's counts, another node adds them."""
    opt_list = opt.tolist() if isinstance(opt, np.ndarray) else list(opt)
    lo_list = lo.tolist() if isinstance(lo, np.ndarray) else list(lo)
    hi_list = hi.tolist() if isinstance(hi, np.ndarray) else list(hi)
    counts = [0, 1]
    for n in range(2, len(lo_list)):
        a, b = counts[lo_list[n]], counts[hi_list[n]]
        counts.append(a * b if opt_list[n] == PRODUCT else a + b)
    return counts


def expanded(root: int, opt: np.ndarray, lo: np.ndarray, hi: np.ndarray,
             bound: int = EXPANDED_NODES) -> tuple[int, np.ndarray, np.ndarray, np.ndarray] | None:
    """The diagram of ``root`` with plain nodes only: ``(root, opt, lo, hi)``, children
    first, reduced through a unique table; None once it would take more than ``bound``
    nodes (the sinks included). ``(n, t)`` stands for the family of ``n`` with the family
    of the plain node ``t`` added to each set: a plain node gives ``(opt, (lo, t), (hi,
    t))``, a product ``(a, (b, t))``. A loop over an explicit stack of pairs, each made
    once (no recursion: any depth)."""
    opts, los, his = opt.tolist(), lo.tolist(), hi.tolist()
    new_opt, new_lo, new_hi = [-1, -1], [0, 0], [0, 0]
    unique: dict[tuple[int, int, int], int] = {}
    made: dict[tuple[int, int], int] = {}

    def known(n: int, t: int) -> int | None:
        return 0 if n == 0 else t if n == 1 else made.get((n, t))

    stack = [(root, 1)]
    while stack:
        n, t = stack[-1]
        if known(n, t) is not None:
            stack.pop()
            continue
        if opts[n] == PRODUCT:
            inner = known(his[n], t)
            if inner is None:
                stack.append((his[n], t))
                continue
            outer = known(los[n], inner)
            if outer is None:
                stack.append((los[n], inner))
                continue
            made[n, t] = outer
        else:
            a, b = known(los[n], t), known(his[n], t)
            if a is None or b is None:
                stack.append((los[n], t) if a is None else (his[n], t))
                continue
            key = (opts[n], a, b)
            node = unique.get(key)
            if node is None:
                if len(new_opt) >= bound:
                    return None
                node = unique[key] = len(new_opt)
                new_opt.append(opts[n])
                new_lo.append(a)
                new_hi.append(b)
            made[n, t] = node
        stack.pop()
    top = known(root, 1)
    return (0 if top is None else top, np.array(new_opt, dtype=np.int64),
            np.array(new_lo, dtype=np.int64), np.array(new_hi, dtype=np.int64))
