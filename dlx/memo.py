"""A memoized search that builds a ZDD: Knuth's DLX6 (Nishino et al.'s "Dancing with
decision diagrams"), written once for the python and the numba backends.

Algorithm C ([`dlx.kernels.algorithm_c`][]) solves every subproblem it meets as if it were new. Here
each node of the search tree first looks up the *signature* of the problem that remains
there (which primary items are still to be covered and, for each secondary item still in
use, whether and to which color it has been purified). If that problem was solved before,
its answer is reused at once (a *hit*); otherwise it is solved and its answer stored. The
answer is a node of a zero-suppressed decision diagram (ZDD), and the diagram of all
answers is the set of all solutions: [`dlx.zdd.SolutionSet`][].

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

Multiplicities are refused ([`dlx.ArgumentError`][]): a signature would then have to
record how often each item is still to be covered. Costs are allowed: they do not change
the search, only [`dlx.zdd.SolutionSet.best`][].

The kernel and its data structure: [`dlx.kernels.memo`][]; here its driver (tables
sized to the problem and grown when full, budgets, independent parts) and the set-up.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .arguments import flag_arg
from .backend import MemoKernel
from .budget import NEVER, check_stopped
from .errors import ArgumentError
from .kernels.codes import Pause
from .kernels.memo import (
    COMPLETE,
    ENTRY,
    GROW_MEMO,
    GROW_PARTS,
    GROW_ZDD,
    N_REG,
    REG_GOOD,
    REG_HITS,
    REG_LEVEL,
    REG_MAX_LEVEL,
    REG_MEMOS,
    REG_N1,
    REG_NODES,
    REG_ROOT,
    REG_UPDATES,
    REG_WORDS,
    REG_ZBOUND,
    REG_ZNODES,
    TAG,
    ZDD_BOUND,
    MemoState,
    zhash,
)
from .kernels.parts import REG_GTOP, REG_OSEEN_AT, REG_PARTS, REG_SEEN_AT, REG_SPLITS
from .links import Links, build_links
from .products import EXPANDED_NODES, expanded, has_products, product_counts
from .progress import reporter
from .registry import get_backend, handover
from .search import MemoStats, SearchStats
from .slices import COMPILED_SLICE_SECONDS, Slices, Step, drive
from .status import Status
from .zdd import MemoInput, SolutionSet, exact_counts, memo_input

__all__ = ["MemoInput", "MemoRun", "MemoStats", "check_memo", "memo_count",
           "memo_input", "memo_search", "problem_links", "without_forced"]

# ----- input and set-up ------------------------------------------------------------------


def _arrays(data: MemoInput, links: Links | None = None,
            parts: bool = False) -> dict[str, np.ndarray]:
    """The pristine arrays of the search (numpy), from the links of [`dlx.links`][]
    (``links``: those of ``data``, already built); ``parts``: with room for split levels
    (a split level is followed by one that covers an item, so at most twice the levels)."""
    N, P = data.n_items, data.n_primary
    if links is None:
        links = build_links(N, P, data.indptr, data.items, data.colors)
    A = links.arrays
    U, D, TOP = A.U.copy(), A.D.copy(), A.TOP.copy()
    LEN = np.zeros(N + 2, dtype=np.int64)
    LEN[1 : N + 1] = A.LEN[1 : N + 1]
    COLOR = [0] * len(TOP)
    ncodes = [1] * (N + 1)  # codes 1..ncodes[k] of item k (see toggle)
    color, down = A.COLOR.tolist(), D.tolist()
    for k in range(P + 1, N + 1) if data.colors.any() else ():  # renumbered, list order
        local: dict[int, int] = {}
        p = down[k]
        while p != k:
            c = color[p]
            if c:
                COLOR[p] = local.setdefault(c, len(local) + 1)
            p = down[p]
        ncodes[k] = len(local) + 1
    LL = np.arange(N + 2, dtype=np.int64)
    RL = LL.copy()
    active = list(range(P + 1))
    lengths = LEN.tolist()
    used = [k for k in range(P + 1, N + 1) if lengths[k] > 0]  # unused ones never enter
    for ring in (active, [N + 1, *used]):
        LL[ring], RL[ring] = ring[-1:] + ring[:-1], ring[1:] + ring[:1]
    # The signature: item k's code takes `bits` bits; items packed 63 bits to a word.
    SOFF, SSHIFT, SBASE = _layout(ncodes)
    W = SOFF[-1] + 1
    base = SBASE[-1] + ncodes[-1] + 1
    RND = _random(base + 1)
    rnd = RND.tolist()
    cur = [0] * (W + 1)
    for k in active[1:] + used:
        cur[SOFF[k]] ^= 1 << SSHIFT[k]
        cur[W] ^= rnd[SBASE[k] + 1]
    levels = 2 * P + 4 if parts else P + 2
    REG = np.zeros(N_REG, dtype=np.int64)
    REG[REG_N1] = data.n_primary
    REG[REG_WORDS] = W
    REG[REG_ZNODES] = 2
    REG[REG_PARTS] = parts
    GROUPS = np.full(3 * levels + N + 2 + data.n_options + 1 + 4 * (N + 2) if parts else levels,
                     -1, dtype=np.int64)
    if parts:  # per level SPLIT (-1), GEND and CHECKAT; SEEN per item, OSEEN per option
        REG[REG_SEEN_AT] = 3 * levels
        REG[REG_OSEEN_AT] = 3 * levels + N + 2
        REG[REG_GTOP] = REG[REG_OSEEN_AT] + data.n_options + 1
        GROUPS[levels:REG[REG_GTOP]] = 0
    ints = {name: np.array(a, dtype=np.int64) for name, a in
            (("COLOR", COLOR), ("SOFF", SOFF), ("SSHIFT", SSHIFT), ("SBASE", SBASE),
             ("CUR", cur))}
    return {"U": U, "D": D, "TOP": TOP, "LEN": LEN, "LL": LL, "RL": RL,
            "OPT": links.option_of_node.copy(), "RND": RND, **ints,
            "CHOICE": np.zeros(levels, dtype=np.int64),
            "SAVEZ": np.zeros(levels, dtype=np.int64),
            "MEMOAT": np.zeros(levels, dtype=np.int64), "REG": REG, "GROUPS": GROUPS}


def _layout(ncodes: list[int]) -> tuple[list[int], list[int], list[int]]:
    """Where each item's code goes in a signature: item ``k``'s code takes the bits its
    ``ncodes[k]`` codes need, items packed 63 bits to a word (``SOFF``, ``SSHIFT``), and
    its random numbers start at ``SBASE[k]`` (one per code, and one for code 0)."""
    n = len(ncodes)
    if max(ncodes) == 1:  # no colors: a bit an item
        items = range(n - 1)
        return ([0, *(j // 63 for j in items)], [0, *(j % 63 for j in items)],
                [0, *(2 * j for j in items)])
    SOFF, SSHIFT, SBASE = [0] * n, [0] * n, [0] * n
    word = shift = base = 0
    for k in range(1, n):
        bits = ncodes[k].bit_length()
        if shift + bits > 63:
            word, shift = word + 1, 0
        SOFF[k], SSHIFT[k], SBASE[k] = word, shift, base
        shift += bits
        base += ncodes[k] + 1
    return SOFF, SSHIFT, SBASE


@functools.cache
def _random_table(size: int) -> np.ndarray:
    """``size`` random 62-bit numbers, fixed: the same tables on every machine."""
    return np.random.default_rng(20171).integers(1, 1 << 62, size=size, dtype=np.int64)


def _random(n: int) -> np.ndarray:
    """The first ``n`` numbers of the fixed random sequence (a draw of more numbers
    begins with those of a draw of fewer), from a table kept and grown by doubling."""
    return _random_table(1 << max(10, (n - 1).bit_length()))[:n].copy()


def _state(backend: MemoKernel, data: MemoInput, zbound: int,
           links: Links | None = None, parts: bool = False) -> MemoState:
    """A fresh search's state, its tables sized to the problem (grown when full)."""
    arrays = _arrays(data, links, parts)
    W = int(arrays["REG"][REG_WORDS])
    memo = 1 << max(10, (4 * data.n_primary).bit_length())  # slots; entries: half of it
    zdd = memo
    arrays["REG"][REG_ZBOUND] = zbound
    S = {name: backend.array(a) for name, a in arrays.items()}
    ZCNT = backend.zeros(zdd // 2)
    ZCNT[1] = 1
    return MemoState(**S, MSLOT=backend.zeros(memo), MHASH=backend.zeros(memo // 2),
                     MZDD=backend.zeros(memo // 2), MSIG=backend.zeros(memo // 2 * W),
                     ZSLOT=backend.zeros(zdd), ZOPT=backend.zeros(zdd // 2),
                     ZLO=backend.zeros(zdd // 2), ZHI=backend.zeros(zdd // 2), ZCNT=ZCNT)


def _grow_memo(backend: MemoKernel, S: MemoState) -> MemoState:
    """The memo table doubled, its entries rehashed."""
    slots = 2 * len(S.MSLOT)
    W = int(S.REG[REG_WORDS])
    S = S._replace(MSLOT=backend.zeros(slots), MHASH=backend.grown(S.MHASH, slots // 2),
                   MZDD=backend.grown(S.MZDD, slots // 2),
                   MSIG=backend.grown(S.MSIG, slots // 2 * W))
    backend.rehash_memo(S.MSLOT, S.MHASH, int(S.REG[REG_MEMOS]))
    return S


def _grow_zdd(backend: MemoKernel, S: MemoState) -> MemoState:
    """The ZDD's arrays and unique table doubled, its nodes rehashed."""
    slots = 2 * len(S.ZSLOT)
    S = S._replace(ZSLOT=backend.zeros(slots), ZOPT=backend.grown(S.ZOPT, slots // 2),
                   ZLO=backend.grown(S.ZLO, slots // 2), ZHI=backend.grown(S.ZHI, slots // 2),
                   ZCNT=backend.grown(S.ZCNT, slots // 2))
    backend.rehash_zdd(S.ZSLOT, S.ZOPT, S.ZLO, S.ZHI, int(S.REG[REG_ZNODES]))
    return S


def _grow_parts(backend: MemoKernel, S: MemoState) -> MemoState:
    """The room of independent parts doubled (the group stack is at its end)."""
    return S._replace(GROUPS=backend.grown(S.GROUPS, 2 * len(S.GROUPS)))


MEMORY_BOUND = int(Pause.MEMORY_BOUND)
"""[`MemoRun.advance`][]'s status when a table would grow past ``max_memory`` (the
driver's own; the kernel's are [`dlx.kernels.memo`][]'s)."""

_GROW = {GROW_MEMO: (("MSLOT", "MHASH", "MZDD", "MSIG"), _grow_memo),
         GROW_ZDD: (("ZSLOT", "ZOPT", "ZLO", "ZHI", "ZCNT"), _grow_zdd),
         GROW_PARTS: (("GROUPS",), _grow_parts)}
"""For each kernel status that asks for room: the arrays that double, and how."""


# ----- the driver ------------------------------------------------------------------------


def memo_search(problem: Any, *, keep: bool = True,
                **options: Any) -> tuple[Any, MemoStats]:
    """Build the ZDD of all solutions of ``problem`` by the memoized search: what
    [`dlx.ExactCover.solution_set`][] (``keep``) and ``count(memo=True)`` run.

    Returns ``(solutions, stats)``: a [`dlx.zdd.SolutionSet`][] if ``keep``, else the
    exact number of solutions (a Python int). The keyword ``options`` are
    [`dlx.request.SetOptions`][], checked by [`dlx.request.check_request`][] as for
    ``solution_set``; a budget or bound that runs out raises
    [`dlx.SearchStoppedError`][] with the stats (status ``MAX_NODES``, ``TIMEOUT`` or
    ``MAX_MEMORY``).
    """
    from .request import check_request

    flag_arg(keep, "keep")
    request = check_request(problem.matrix, "solution_set", None, options)
    if request.executor is not None or request.workers is not None \
            or request.split is not None:
        raise ArgumentError("memo_search() searches in one process: count(memo=True, ...) "
                            "and solution_set(...) take executor, workers or split")
    found, stats = build(problem, request, bool(keep))
    check_stopped(stats, "memo_search()", request)
    return found, stats


def build(problem: Any, request: Any, keep: bool,
          on_finish: Callable[[SearchStats], None] | None = None) -> tuple[Any, MemoStats]:
    """The memoized search of ``problem`` under the checked ``request`` (kind ``memo``),
    run by [`dlx.slices.drive`][]: its set (``keep``) or its exact count, and its stats;
    None with the stats of a search that a budget or a bound stopped (the callers apply
    the rule for budgets, [`dlx.budget.check_stopped`][]). ``on_finish`` is told the
    stats once it has ended, Ctrl-C included (``INTERRUPTED``)."""
    search = MemoSearch(problem, request)
    for _ in drive(search.begin, search.stats,
                   Slices.timed(request.timeout is not None, COMPILED_SLICE_SECONDS, 1024),
                   request.timeout, search.finish(keep, on_finish),
                   reporter(request.progress)):
        pass
    return search.found, search.stats


class MemoSearch:
    """One memoized search of a problem under a checked request, as [`dlx.slices.drive`][]
    runs it: [`begin`][] takes the forced options and makes the state, each step runs the
    kernel to a node count ([`MemoRun.advance`][]); the answer is read off the diagram
    once the search is complete ([`finish`][]). A budget, the bound on the diagram's nodes
    or on the tables' memory ends the search with a status, as in every other kind."""

    def __init__(self, problem: Any, request: Any) -> None:
        self.problem, self.request = problem, request
        self.data = memo_input(problem)
        backend = get_backend(request.backend, len(self.data.items) + self.data.n_items)
        self.kernel = backend.memo(request.parts)
        """The kernel the search starts on (after a move, the run's: ``run.kernel``)."""
        self.handover = handover(request.backend, backend)
        """``auto``'s move to numba mid-search (`dlx.registry.handover`), when ``auto``
        gave the search to python: the tables converted, numba's kernel from there on."""
        self.stats = MemoStats(backend=self.kernel.name)
        self.run: MemoRun | None = None
        self.options: np.ndarray | None = None  # the problem left's options -> the problem's
        self.found: Any = None

    def begin(self) -> Step[list[int]] | None:
        """The forced options taken (a clash decides all: ``CONFLICT``) and the state
        made (no primary item: ``COMPLETE``, the empty set); else the step."""
        taken = list(self.request.forced)
        reduced = without_forced(self.data, taken) if taken else (self.data, None)
        stats = self.stats
        if isinstance(reduced, int):
            stats.status, stats.conflict = Status.CONFLICT, reduced
            return None
        data, self.options = reduced
        run = MemoRun(self.kernel, data, stats, self.request.max_zdd_nodes,
                      None if taken else problem_links(self.problem), self.request.parts,
                      self.request.max_memory)
        self.run = run
        if run.state is None:
            run.advance(0)
            stats.status = Status.COMPLETE
            return None
        if run.over_memory():
            stats.status, stats.bound = Status.MAX_MEMORY, "max_memory"
            return None
        if self.handover is None:
            return self._step
        timeout = self.request.timeout
        deadline = None if timeout is None else time.perf_counter() + timeout
        return self.handover.watch(self._step, self._move, deadline)

    def _move(self) -> Step[list[int]]:
        """The handover's move: the same search, its tables as numba's arrays, numba's
        kernel from now on (a search that ``auto`` gave to python, and that ran long)."""
        moving = self.handover
        if moving is None or self.run is None:  # cannot be: only a watched step moves
            raise AssertionError("a move without a handover")
        self.run.move_to(moving.target.memo(self.request.parts), moving.route)
        return self._step

    def _step(self, budget: int) -> tuple[Status | None, int, list[int] | None]:
        run, stats, request = self.run, self.stats, self.request
        assert run is not None  # made by begin
        before = stats.nodes
        status = run.advance(min(request.max_nodes, before + budget))
        end = (Status.COMPLETE if status == COMPLETE else
               Status.MAX_MEMORY if status in (ZDD_BOUND, MEMORY_BOUND) else
               Status.MAX_NODES if stats.nodes >= request.max_nodes else None)
        if end is Status.MAX_MEMORY:
            stats.bound = "max_zdd_nodes" if status == ZDD_BOUND else "max_memory"
        return end, stats.nodes - before, None

    def finish(self, keep: bool, on_finish: Callable[[SearchStats], None] | None
               ) -> Callable[[MemoStats], None]:
        """What [`dlx.slices.drive`][] calls once the search has ended: the answer read
        off a complete diagram (into ``found``), then ``on_finish`` told."""
        def finished(stats: MemoStats) -> None:
            if stats.status in (Status.COMPLETE, Status.CONFLICT):
                self._answer(keep)
            if on_finish is not None:
                on_finish(stats)
        return finished

    def _answer(self, keep: bool) -> None:
        stats, problem = self.stats, self.problem
        if stats.status is Status.CONFLICT:
            self.found = SolutionSet(problem, 0, [-1, -1], [0, 0], [0, 0]) if keep else 0
            return
        run = self.run
        assert run is not None
        zbound = self.request.max_zdd_nodes
        bound = EXPANDED_NODES if zbound >= NEVER else zbound
        diagram = _diagram(run.kernel, run.state, self.options, keep, bound)
        if diagram is None:
            stats.status, stats.bound = Status.MAX_MEMORY, f"products:{bound}"
            return
        root, opt, lo, hi, counts = diagram
        taken = list(self.request.forced)
        if taken and root != 0:
            root, opt, lo, hi, counts = _on_top(taken, root, opt, lo, hi, counts)
        stats.solutions = counts[root]
        if root == 0:
            stats.zdd_nodes = 1  # as DLX6 counts an empty diagram
        self.found = SolutionSet._from_search(problem, root, opt, lo, hi, counts) if keep \
            else counts[root]


Diagram = tuple[int, np.ndarray, np.ndarray, np.ndarray, list[int]]
"""A finished search's ZDD: its root, ``ZOPT``, ``ZLO``, ``ZHI`` and the exact counts."""


def _diagram(kernel: MemoKernel, S: MemoState | None, options: np.ndarray | None,
             plain: bool, bound: int) -> Diagram | None:
    """The ZDD of a completed search, its options renumbered by ``options`` (the problem
    left -> the problem's), its counts exact (Python ints past the kernel's 2**62);
    ``plain``: its product nodes expanded ([`dlx.products`][]) into at most ``bound``
    nodes, else None."""
    if S is None:  # no primary item: the one solution is the empty set
        zero = np.zeros(2, dtype=np.int64)
        return 1, zero, zero, zero, [0, 1]
    n = int(S.REG[REG_ZNODES])
    root = int(S.REG[REG_ROOT])
    opt, lo, hi = (kernel.numpy(a)[:n].copy() for a in (S.ZOPT, S.ZLO, S.ZHI))
    products = int(S.REG[REG_SPLITS]) > 0 and has_products(opt)
    if plain and products:
        flat = expanded(root, opt, lo, hi, bound)
        if flat is None:
            return None
        root, opt, lo, hi = flat
        counts = exact_counts(lo, hi)
    else:
        counts = kernel.numpy(S.ZCNT)[:n].tolist()
        if counts[root] < 0:
            counts = product_counts(opt, lo, hi)
    if options is not None:
        opt[2:] = np.where(opt[2:] >= 0, options[np.maximum(opt[2:], 0)], opt[2:])
    return root, opt, lo, hi, counts


def _on_top(options: list[int], root: int, opt: np.ndarray, lo: np.ndarray, hi: np.ndarray,
            counts: list[int]) -> Diagram:
    """The diagram with the ``options`` taken first added to each of its sets: a chain of
    nodes above ``root``, one per option."""
    k = len(opt)
    chain = np.arange(k - 1, k + len(options) - 1, dtype=np.int64)
    chain[0] = root
    return (k + len(options) - 1, np.concatenate((opt, options)).astype(np.int64),
            np.concatenate((lo, np.zeros(len(options), dtype=np.int64))),
            np.concatenate((hi, chain)), counts + [counts[root]] * len(options))


def problem_links(problem: Any) -> Links | None:
    """The links of ``problem`` as the memoized search reads them, when it has no costs
    (which [`dlx.links.build_links`][] would lay in): built once, shared with the plain
    search."""
    matrix = problem.matrix
    return matrix.links if matrix.costs is None else None


def without_forced(data: MemoInput, forced: list[int]) -> tuple[MemoInput, np.ndarray] | int:
    """The problem left once the options ``forced`` are taken, as the plain search sees it
    ([`dlx.links.Links.restricted`][]): their items gone, with every option that clashes
    with them (a primary item in common, a secondary item taken uncolored or in another
    color); a secondary item they color leaves the options that agree with it. Items and
    options keep their order, so Knuth's choice makes the same tree. With the map of its
    option numbers to the problem's; or the first forced option that an earlier one
    excludes."""
    indptr, items, colors = data.indptr.tolist(), data.items.tolist(), data.colors.tolist()
    n1 = data.n_primary
    taken: dict[int, int] = {}  # item -> the color it was taken in (0: none)

    def clashes(k: int) -> bool:
        span = slice(indptr[k], indptr[k + 1])
        return any(x in taken and (x <= n1 or c == 0 or taken[x] != c)
                   for x, c in zip(items[span], colors[span]))

    for k in forced:
        if clashes(k):
            return k
        taken.update(zip(items[indptr[k]:indptr[k + 1]], colors[indptr[k]:indptr[k + 1]]))
    left = [x for x in range(1, data.n_items + 1) if x not in taken]
    number = {x: j + 1 for j, x in enumerate(left)}
    skip = set(forced)
    starts, its, cols, options = [0], [], [], []
    for k in range(len(indptr) - 1):
        if k in skip or clashes(k):
            continue
        for j in range(indptr[k], indptr[k + 1]):
            if items[j] not in taken:
                its.append(number[items[j]])
                cols.append(colors[j])
        starts.append(len(its))
        options.append(k)
    costs = None if data.costs is None else data.costs[options]
    return (MemoInput(len(left), sum(x <= n1 for x in left), np.array(starts, dtype=np.int64),
                      np.array(its, dtype=np.int64), np.array(cols, dtype=np.int64), costs),
            np.array(options, dtype=np.int64))


def memo_count(problem: Any, **kwargs: Any) -> int:
    """The exact number of solutions of ``problem``, by the memoized search
    (``count(memo=True)``); keyword arguments as [`memo_search`][]."""
    count, _ = memo_search(problem, keep=False, **kwargs)
    return int(count)


class MemoRun:
    """One memoized search of a problem, resumable: [`advance`][] runs it to a node
    count, growing its tables when full. [`memo_search`][] drives it in slices; the count
    that chooses its search ([`dlx.kinds.choose`][]) starts one as a probe, reads
    [`no_good`][], and goes on with it or drops it. ``state`` is None for a problem
    without primary items (one solution, the empty set, in one node)."""

    def __init__(self, kernel: MemoKernel, data: MemoInput, stats: MemoStats,
                 zbound: int = NEVER, links: Links | None = None, parts: bool = False,
                 max_memory: int = NEVER) -> None:
        self.kernel = kernel
        self.stats = stats
        self.max_memory = max_memory
        """The bound on the tables' bytes: a table is not grown past it ([`advance`][]
        returns ``MEMORY_BOUND`` instead)."""
        self.state: MemoState | None = None if data.n_primary == 0 else \
            _state(kernel, data, zbound, links, parts)

    def move_to(self, kernel: MemoKernel, route: str) -> None:
        """Go on with ``kernel`` (another backend's): every array of the state converted,
        as it stands between two calls of [`advance`][]; the stats report ``route``
        (``"python->numba"``)."""
        if self.state is not None:
            self.state = type(self.state)(*(kernel.array(self.kernel.numpy(a))
                                            for a in self.state))
        self.kernel = kernel
        self.stats.backend = route

    def memory(self) -> int:
        """The bytes of the search's tables (8 a slot: int64 arrays, or the python
        backend's lists of small ints)."""
        S = self.state
        return 0 if S is None else 8 * sum(len(a) for a in S)

    def over_memory(self) -> bool:
        """True when the tables already take more than ``max_memory`` (a bound below
        what the problem's first tables need)."""
        return self.memory() > self.max_memory

    def advance(self, node_stop: int) -> int:
        """Search until ``stats.nodes`` reaches ``node_stop`` (kernel status ``MAX_NODES``),
        the search ends (``COMPLETE``), the diagram reaches its bound (``ZDD_BOUND``) or a
        table would have to grow past ``max_memory`` bytes (``MEMORY_BOUND``: the search
        stops there, its state as it was); the stats are read from the registers."""
        S, kernel = self.state, self.kernel
        if S is None:
            self.stats.nodes = 1
            return COMPLETE
        while True:
            status = int(kernel.search(S, node_stop))
            grow = _GROW.get(status)
            if grow is None:
                break
            table, grown = grow
            if 8 * (sum(len(a) for a in S) + sum(len(getattr(S, n)) for n in table)) \
                    > self.max_memory:
                status = MEMORY_BOUND
                break
            S = grown(kernel, S)
        self.state = S
        _read(S, self.stats)
        return status

    def no_good(self) -> tuple[int, int]:
        """The signatures decided so far (stored, and not on the path of open levels:
        read between calls of [`advance`][]) and those among them that came to nothing:
        on domino boards almost none, on queens, Langford pairs and pentominoes half or
        more (decisions.md, "Where memoization pays")."""
        if self.state is None:
            return 0, 0
        R = self.state.REG
        decided = int(R[REG_MEMOS]) - int(R[REG_LEVEL])
        return decided, decided - int(R[REG_GOOD])

    def count(self) -> int:
        """The exact number of solutions of a completed search (a Python int)."""
        S = self.state
        if S is None:
            return 1
        root = int(S.REG[REG_ROOT])
        found = int(self.kernel.numpy(S.ZCNT)[root])
        if found >= 0:
            return found
        n = int(S.REG[REG_ZNODES])
        return product_counts(*(self.kernel.numpy(a)[:n] for a in (S.ZOPT, S.ZLO, S.ZHI)))[root]


def _read(S: MemoState, stats: MemoStats) -> None:
    """The registers into ``stats``."""
    R = S.REG
    stats.nodes = int(R[REG_NODES])
    stats.updates = int(R[REG_UPDATES])
    stats.max_level = int(R[REG_MAX_LEVEL])
    stats.hits = int(R[REG_HITS])
    stats.memos = int(R[REG_MEMOS])
    stats.good_memos = int(R[REG_GOOD])
    stats.zdd_nodes = int(R[REG_ZNODES])
    stats.splits = int(R[REG_SPLITS])


# ----- the sanity checker ------------------------------------------------------------------


def check_memo(S: MemoState) -> None:
    """Knuth's sanity check of a live state, between kernel calls (raises AssertionError):
    the active lists against ``LEN``, each list's links, the signature and its hash against
    one computed afresh from the active lists, the memo and unique tables (each entry
    once, each slot's tag its entry's), and that every ZDD node is reduced and made
    after its children. O(size): for tests."""
    R = [int(v) for v in S.REG]
    n1, W = R[REG_N1], R[REG_WORDS]
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
    if sorted(v & ENTRY for v in slots) != list(range(1, R[REG_MEMOS] + 1)):
        raise AssertionError("the memo table does not hold each entry once")
    if any(v & TAG != int(S.MHASH[(v & ENTRY) - 1]) & TAG for v in slots):
        raise AssertionError("a memo slot's tag differs from its entry's hash")
    nodes = R[REG_ZNODES]
    for n in range(2, nodes):
        lo, hi = int(S.ZLO[n]), int(S.ZHI[n])
        if not (0 <= lo < n and 1 <= hi < n):
            raise AssertionError(f"ZDD node {n} points to ({lo}, {hi})")
    zslots = [int(v) for v in S.ZSLOT if v]
    if sorted(v & ENTRY for v in zslots) != list(range(2, nodes)):
        raise AssertionError("the unique table does not hold each ZDD node once")
    if any(v & TAG != zhash(int(S.ZOPT[v & ENTRY]), int(S.ZLO[v & ENTRY]),
                            int(S.ZHI[v & ENTRY])) & TAG for v in zslots):
        raise AssertionError("a unique-table slot's tag differs from its node's hash")
    triples = {(int(S.ZOPT[n]), int(S.ZLO[n]), int(S.ZHI[n])) for n in range(2, nodes)}
    if len(triples) != nodes - 2:
        raise AssertionError("two ZDD nodes are equal")
