"""A search cut into subproblems: the prefixes of its tree, each with an estimate of its size.

The search tree of Algorithm C is fixed by the problem (Knuth's choice of item, options
tried top to bottom). A node of the tree at level ``d`` is the list of the ``d`` options
chosen on the way down to it, and the search below it is exactly a search of the problem
with those options *forced* ([`dlx.ExactCover.solve_batch`][]): the same solutions in the
same order, the same ``nodes``. A [`Split`][] is a cut across the tree: subproblems that
together hold every node below the cut, listed in the order the serial search meets them,
so that their counts add up to the serial count and their solutions, concatenated, are the
serial solutions in order. The nodes above the cut (``nodes_above``) are the ones the
split itself walked.

Sizes are estimated by Knuth's random probes (TAOCP 7.2.2, "estimating the running time"):
walk down from a subproblem's root taking a random option at each level; with ``d_k`` the
number of options at level ``k`` of the walk, ``1 + d_0 + d_0 d_1 + ...`` is an unbiased
estimate of the nodes below. The walks run on the python kernel's own ``choose``, ``force``
and ``unforce`` (no second search loop), and their number is bounded so that a split costs
a small fraction of the search it cuts.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np

from . import pure
from .arguments import seed_arg
from .budget import count_budget
from .errors import ArgumentError
from .links import Links
from .matrix import problem_digest

__all__ = ["Split", "Subproblem", "problem_digest", "split_problem"]

MAX_PARTS = 1 << 20
"""No split makes more subproblems than this (a guard against a runaway refinement)."""


@dataclass(frozen=True)
class Subproblem:
    """One node of the search tree: the options chosen on the way down to it, in the order
    the search chose them (``forced``), and the estimated number of search nodes below it,
    itself included (``estimate``; exactly 1 for a node that is already a solution)."""

    forced: tuple[int, ...]
    estimate: float


class Split(Sequence[Subproblem]):
    """Subproblems that cut a problem's search tree, in the serial search's order.

    ``nodes_above`` is the number of nodes of the serial search that no subproblem holds
    (the nodes the split expanded), so that the nodes of all subproblems' searches plus
    ``nodes_above`` are the serial search's nodes. ``digest`` identifies the problem and
    the cut (a checkpoint is valid for one digest only).
    """

    def __init__(self, problem_digest: str, parts: Sequence[Subproblem],
                 nodes_above: int) -> None:
        self.parts: tuple[Subproblem, ...] = tuple(parts)
        self.nodes_above = nodes_above
        self.problem_digest = problem_digest
        h = hashlib.sha256(problem_digest.encode())
        for part in self.parts:
            h.update(np.asarray(part.forced, dtype=np.int64).tobytes() + b";")
        self.digest = h.hexdigest()[:32]

    @overload
    def __getitem__(self, k: int) -> Subproblem: ...
    @overload
    def __getitem__(self, k: slice) -> Sequence[Subproblem]: ...

    def __getitem__(self, k: Any) -> Any:
        return self.parts[k]

    def __len__(self) -> int:
        return len(self.parts)

    def __iter__(self) -> Iterator[Subproblem]:
        return iter(self.parts)

    def __repr__(self) -> str:
        return (f"<Split of {len(self)} subproblems, ~{self.estimate:,.0f} nodes estimated, "
                f"{self.nodes_above} above>")

    @property
    def estimate(self) -> float:
        """The estimated nodes of the whole search (the parts' estimates and the nodes
        above them)."""
        return sum(p.estimate for p in self.parts) + self.nodes_above

    @property
    def forced(self) -> list[list[int]]:
        """Each subproblem's forced options, as [`dlx.ExactCover.solve_batch`][] takes
        them."""
        return [list(p.forced) for p in self.parts]


class _Tree:
    """The search tree of one problem, walked from its forced prefixes on the python
    kernel (the general one, over lists: it has ``force`` and ``unforce``)."""

    def __init__(self, links: Links) -> None:
        small = links.max_len < pure.SMALL_INACTIVE
        self.links = links
        self.kernel = pure.KERNELS[(small, False)]
        self.steps = pure.kernel_bytes if small else pure.kernel_list
        self.option_of = links.option_list

    def _state(self, prefix: tuple[int, ...]) -> Any:
        state, conflict = self.kernel.prepare(self.links, list(prefix))
        if conflict is not None:  # a prefix is a path of the tree: cannot clash
            raise AssertionError(f"prefix {prefix} clashes at option {conflict}")
        return state

    def children(self, prefix: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        """The prefixes one level down, in the order the search tries them (C3 chooses the
        item, its options top to bottom); None if ``prefix`` is already a solution."""
        S = self._state(prefix)
        if S.RL[0] == 0:
            return None
        i = self.steps.choose(S.LEN, S.LL, S.RL, S.REG)
        out = []
        x = S.D[i]
        while x != i:
            out.append((*prefix, self.option_of[x]))
            x = S.D[x]
        return out

    def estimate(self, prefix: tuple[int, ...], probes: int, rng: random.Random) -> float:
        """Knuth's estimate of the nodes below ``prefix`` (itself included), averaged over
        ``probes`` random walks down the tree."""
        S = self._state(prefix)
        U, D, TOP, COLOR, LEN, LL, RL, REG = S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL, S.REG
        choose, force, unforce = self.steps.choose, self.steps.force, self.steps.unforce
        total = 0.0
        for _ in range(probes):
            path = []
            weight = estimate = 1.0
            while RL[0] != 0:
                i = choose(LEN, LL, RL, REG)
                d = LEN[i]
                if d == 0:
                    break
                weight *= d
                estimate += weight
                x = D[i]
                for _ in range(rng.randrange(d)):
                    x = D[x]
                force(x, U, D, TOP, COLOR, LEN, LL, RL)
                path.append(x)
            for x in reversed(path):
                unforce(x, U, D, TOP, COLOR, LEN, LL, RL)
            total += estimate
        return total / probes


def split_problem(links: Links, digest: str, depth: int | None = None,
                  parts: int | None = None, *, probes: int = 8, seed: int = 0,
                  smallest: float = 0.0) -> Split:
    """See [`dlx.ExactCover.split`][]: ``links`` are the problem's, ``digest`` its
    [`problem_digest`][]."""
    depth_ = None if depth is None else count_budget(depth, "depth", 0)
    parts_ = None if parts is None else count_budget(parts, "parts", 1)
    probes_ = count_budget(probes, "probes", 1)
    if depth_ is None and parts_ is None:
        parts_ = 1
    seed_ = seed_arg(seed) or 0
    if isinstance(smallest, bool) or not isinstance(smallest, (int, float)) \
            or not smallest >= 0:
        raise ArgumentError(f"smallest must be a number >= 0, got {smallest!r}")
    tree = _Tree(links)
    rng = random.Random(seed_)
    above = 0
    frontier: list[tuple[int, ...]] = [()]
    for _ in range(depth_ or 0):  # every node down to the level asked, in the search's order
        nxt: list[tuple[int, ...]] = []
        expanded = False
        for prefix in frontier:
            kids = tree.children(prefix)
            if kids is None:
                nxt.append(prefix)  # a solution above the level: a part of its own
            else:
                above += 1
                expanded = True
                nxt.extend(kids)
            if len(nxt) > MAX_PARTS:
                raise ArgumentError(f"depth {depth} makes more than {MAX_PARTS} subproblems")
        frontier = nxt
        if not expanded:  # every node left is a solution: the tree is no deeper
            break
    found = [Subproblem(p, tree.estimate(p, probes_, rng)) for p in frontier]
    if parts_ is not None:  # refine: split the biggest until each is at most total / parts
        while len(found) < MAX_PARTS:
            target = max((sum(p.estimate for p in found) + above) / parts_, smallest, 1.0)
            refined: list[Subproblem] = []
            changed = False
            for part in found:
                kids = tree.children(part.forced) if part.estimate > target else None
                if kids is None:
                    refined.append(part)
                    continue
                above += 1
                changed = True
                refined.extend(Subproblem(k, tree.estimate(k, probes_, rng)) for k in kids)
            found = refined
            if not changed:
                break
    return Split(digest, found, above)
