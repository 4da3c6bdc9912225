"""``Matrix``: a problem as the modules below [`dlx.ExactCover`][] read it.

An [`dlx.ExactCover`][] validates its input once and keeps it as one frozen
[`Matrix`][]: CSR arrays of item numbers and color ids, the bounds and costs, and what
follows from them (the options without a primary item, the digest, the dancing links).
Searches, preprocessing, splits and distributed runs read this view, never the problem's
own attributes, so that what they may rely on is written down here, once.

Items are numbered ``1..n_items``, primary items first (``1..n_primary``); option ``k``
holds ``items[indptr[k]:indptr[k + 1]]``, with ``colors`` beside them (0: no color, else
``color_names[c - 1]``). The arrays are shared and never written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .links import Links, build_links

__all__ = ["Matrix", "problem_digest"]


def problem_digest(n_primary: int, n_secondary: int, indptr: np.ndarray, items: np.ndarray,
                   colors: np.ndarray) -> str:
    """A hash of what decides a problem's search: how many items (primary, secondary) and
    every option's items and colors as CSR arrays (names do not matter)."""
    h = hashlib.sha256(f"dlx-problem {n_primary} {n_secondary} {len(indptr) - 1};".encode())
    for array in (indptr, items, colors):
        h.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    return h.hexdigest()[:32]


@dataclass(frozen=True, eq=False)
class Matrix:
    """A validated problem in CSR form, with its bounds and costs (see the module)."""

    n_primary: int
    n_secondary: int
    indptr: np.ndarray
    items: np.ndarray
    colors: np.ndarray
    color_names: list[Hashable]
    bounds: tuple[np.ndarray, np.ndarray] | None
    """The primary items' lower and upper bounds, or None: all 1..1."""
    costs: np.ndarray | None
    """Each option's cost, or None: no costs given."""
    dropped: tuple[int, ...]
    """The options without a primary item, which no solution can contain."""

    @property
    def n_items(self) -> int:
        return self.n_primary + self.n_secondary

    @property
    def n_options(self) -> int:
        return len(self.indptr) - 1

    @property
    def mcc(self) -> bool:
        """True when bounds or costs make the search Algorithm M (`dlx.kernels.algorithm_m`)."""
        return self.bounds is not None or self.costs is not None

    @cached_property
    def digest(self) -> str:
        """`problem_digest` of this problem: names it to workers and checkpoints."""
        return problem_digest(self.n_primary, self.n_secondary, self.indptr, self.items,
                              self.colors)

    @cached_property
    def links(self) -> Links:
        """The dancing-links arrays (built on first use, then shared by every search)."""
        return build_links(self.n_items, self.n_primary, self.indptr, self.items,
                           self.colors, self.bounds, self.costs)

    @cached_property
    def min_primary(self) -> int:
        """The fewest primary items in an option that has any (bounds a solution's size)."""
        if not self.n_options:
            return 1
        counts = np.add.reduceat(self.items <= self.n_primary, self.indptr[:-1])
        counts = counts[counts > 0]
        return int(counts.min()) if len(counts) else 1
