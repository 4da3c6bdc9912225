"""The frontier-based construction of a problem's solution set (TdZdd's top-down build,
Knuth's SIMPATH family), and the rule that chooses between it and the memoized search.

The options are decided one by one in the order of the set's store: the problem's
automatic order ([`dlx.orders.option_order`][]: of a few candidate orders, the one that
keeps the fewest items open at once), or the one given to
``solution_set(option_order=...)``; a node's state is what the items of the *frontier*
(those with options decided and options still to decide) hold: one bit for an item
without colors (covered or not), a *field* of bits for a secondary item that options
color (unused, colored in one of its colors, used without a color: [`fields`][]); equal
states of a level are one node. The diagram is then reduced bottom-up, straight into
the store's order: no conversion, and its node count is the canonical one. The kernel
is [`dlx.kernels.frontier`][]; its states take ``ceil(width / 62)`` words, ``width``
the widest frontier of the order in bits ([`frontier_width`][]).

**Colors.** A color is a constant-weight code of its item's field (``v`` of ``f`` bits,
``v < f``), so no code holds another and the all-ones field (used without a color) holds
none: an option may color the item iff the field holds nothing but its code (0 or its
code: ``state & BLOCK == 0``, ``BLOCK`` the field's other bits), and taking it sets its
code (``state | TAKE``): the kernel's word operations as without colors, one mask more
an option. Equal states are still equal words, so the diagram stays canonical.

**The choice** ([`use_frontier`][]): ``solution_set(method=None)`` builds top-down when
``parts`` is not asked and the order's frontier takes at most ``2 ** CHOOSE_WIDTH``
states ([`state_width`][]; without colors, [`CHOOSE_WIDTH`][] items: a domino board's
breadth-first order is ``n + 1`` wide at ``n x n``), or ``2 ** CHOOSE_COLORED`` with
colors, on probation: past [`PROBE_NODES`][] top-down nodes (about 0.05 s) the memoized
search builds it instead ([`Declined`][]). Else the memoized search, whose work follows
the subproblems the search meets instead of the order. ``method="frontier"`` builds
top-down whenever the frontier is at most [`MAX_WIDTH`][] bits wide (no ``parts``, no
probation); ``method="memo"`` never does.

Colored problems of one width go either way, hence the probation. Measured (numba, CPU
medians, top-down against the memo, load 2-2.6 on 2 cores): Knuth's latin squares 4 and
shidoku 4 x 4 (``2 ** 24.2`` states) 0.010 / 0.008 s against 0.0017 / 0.0015 s, de Bruijn
4 (``2 ** 27.1``) 0.004 against 0.0004 s, word squares of random 3-letter words on 6
letters (``2 ** 20.7``) 0.47 s against 0.075 s: the top-down states are nearly all the
partial fillings, which the search never meets (latin 4: 162,456 top-down nodes for
2,258 canonical ones); latin squares 5 (``2 ** 39.8``) and word squares 5 of 500 words
(``2 ** 71.3``) ran out of 2 GB after 66 million top-down nodes, against the memo's 1.1 s
and 0.35 s. Domino tilings with colors win as the plain ones do: boards where a
horizontal domino on another lies exactly on it (the grid lines between rows colored
``L``/``R``; ``tests/dlx/kernels/test_frontier_colors.py``) 0.004-0.007 s top-down at
6 x 20, 6 x 30 and 4 x 40, which the memo cannot build in 2 GB; 8 x 16 (``2 ** 29.6``)
0.024 s against 1.9 s, 12 x 12 and 14 x 14 (``2 ** 31``, ``2 ** 36.2``) 0.055 / 0.46 s
against 0.16 / 2.1 s (the second past the probation and the choice's width). The
choice's loss on the others is at most the probation's 0.03-0.06 s.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from . import orders
from .backend import Backend, FrontierKernel
from .errors import ArgumentError
from .kernels import frontier as kf
from .memo import build as build_memo
from .memo import without_forced
from .progress import RunProgress
from .registry import get_backend, handover
from .search import MemoStats, SearchStats
from .status import Status
from .zdd_store import MemoInput, memo_input, store_for

__all__ = ["CHOOSE_COLORED", "CHOOSE_WIDTH", "MAX_WIDTH", "PROBE_NODES", "Declined", "build",
           "fields", "frontier_width", "state_width", "use_frontier"]

PROGRESS_SECONDS = 0.2
"""How often ``progress`` is told, at most (between levels)."""

MAX_WIDTH = 4 * kf.BITS
"""The widest frontier the construction takes: four words of state."""

CHOOSE_WIDTH = 22
"""The widest frontier that ``method=None`` builds top-down. Measured (numba, CPU): the
domino boards, frontier ``n + 1`` wide at ``n x n``, build top-down 3-15x faster from
14 x 14 on (the memo runs out of 1 GB at 18 x 18, 6 x 30 and 8 x 40, which take 0.01-0.6 s
top-down); Langford's and the queens' problems, 17-33 wide, 1.5-5x slower top-down (dead
states: langford11, 23 wide, 1.0 s against 0.2 s; langford12, 25 wide, out of 1 GB against
1.5 s), a loss of at most 0.05 s up to 22 wide (see the decisions log, issue 40 item 4).
Measured again with [`dlx.orders`][]' narrower orders: the pentomino boards, 68 -> 28-39
wide, still lose top-down (3 x 20, 28 wide: 0.10 s against the memo's 0.036 s; 4 x 15 to
6 x 10, 32-39 wide: out of 1 GB against 0.4-4.8 s)."""


def frontier_width(data: MemoInput, order: np.ndarray) -> int:
    """The most bits of state on the frontier at once when the options are decided in
    ``order``: an item is on it from its first option to its last, both included
    (options without a primary item count, as the kernel decides them too), with the
    bits of its field ([`fields`][]: one for an item without colors). Without colors,
    the most items at once ([`dlx.orders.frontier_width`][])."""
    if not data.colors.any():
        return orders.frontier_width(data.indptr, data.items, data.n_items, order)
    first, last, _ = _spans(data, order)
    size = fields(data)[0]
    used = (last >= 0) & (size > 0)
    return int(orders.widest(first[used], last[used], size[used], len(order)))


def state_width(data: MemoInput, order: np.ndarray) -> float:
    """The base-2 logarithm of how many states the widest frontier of ``order`` may take
    (of the items on it at once, [`frontier_width`][]'s): one bit (2 states) for an
    item without colors, ``log2(n + 1)`` for one that options color in ``n`` colors, or
    ``log2(n + 2)`` if some option also uses it without a color; none for one color and
    no such use. Without colors, the width in items. A level has at most
    ``2 ** state_width`` nodes: what ``method=None``'s choice bounds
    ([`CHOOSE_WIDTH`][]), with colors or without."""
    if not data.colors.any():
        return float(orders.frontier_width(data.indptr, data.items, data.n_items, order))
    first, last, _ = _spans(data, order)
    size, codes = fields(data)
    items = np.asarray(data.items, dtype=np.int64)
    plain = np.zeros(data.n_items + 1, dtype=bool)
    plain[items[np.asarray(data.colors) == 0]] = True
    weight = np.array([np.log2(len(c) + 1 + plain[i]) if c else float(size[i] > 0)
                       for i, c in enumerate(codes)])
    used = (last >= 0) & (weight > 0)
    return float(orders.widest(first[used], last[used], weight[used], len(order)))


def fields(data: MemoInput) -> tuple[np.ndarray, list[dict[int, list[int]]]]:
    """Each item's bits on the frontier (its *field*; item 0 has none) and, for each
    item, its colors' codes (the field's bits each sets, numbered from 0; the dict is
    empty for an item without colors). An item that options use without a color only
    owns one bit. One that they color, with ``n`` colors, owns ``f`` bits, each color
    ``v`` of them (the first ``n`` combinations of ``v`` of ``f`` in lexicographic
    order), ``f`` the least with ``C(f, v) >= n`` for some ``v < f``: codes of one
    weight hold no other, and the all-ones field (used without a color) none of them.
    A single color that no option uses without it constrains nothing: no bit."""
    items = np.asarray(data.items, dtype=np.int64)
    colors = np.asarray(data.colors, dtype=np.int64)
    size = np.zeros(data.n_items + 1, dtype=np.int64)
    size[np.unique(items)] = 1
    codes: list[dict[int, list[int]]] = [{} for _ in range(data.n_items + 1)]
    colored = colors != 0
    if not colored.any():
        return size, codes
    plain = np.zeros(data.n_items + 1, dtype=bool)
    plain[items[~colored]] = True
    pairs = np.unique(np.stack((items[colored], colors[colored])), axis=1)
    for i in np.unique(pairs[0]).tolist():
        palette = pairs[1][pairs[0] == i].tolist()
        n = len(palette)
        if n == 1 and not plain[i]:
            size[i] = 0
            continue
        f = 2
        while math.comb(f, f // 2) < n:
            f += 1
        size[i] = f
        combos = itertools.combinations(range(f), f // 2)
        codes[i] = {c: list(next(combos)) for c in palette}
    return size, codes


def _spans(data: MemoInput, order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each item's first and last variable (-1, -1: no option), and each entry's
    variable ([`dlx.orders.spans`][])."""
    return orders.spans(data.indptr, data.items, data.n_items, order)


CHOOSE_COLORED = 32
"""The most states, ``2 ** CHOOSE_COLORED`` ([`state_width`][]), of the frontier of a
colored problem that ``method=None`` builds top-down, on probation
([`PROBE_NODES`][])."""

PROBE_NODES = 1 << 20
"""The top-down nodes that ``method=None`` lets the construction make on a colored
problem before it gives the problem to the memoized search ([`Declined`][]): colored
problems of one frontier width go either way (see the module's docstring), and this many
nodes take about 0.05 s (numba)."""


class Declined(Exception):
    """The top-down construction of a colored problem that ``method=None`` gave it made
    more than [`PROBE_NODES`][] nodes: ``solution_set`` builds the set by the memoized
    search instead."""


def use_frontier(problem: Any, request: Any) -> bool:
    """Whether ``solution_set`` builds ``problem``'s set top-down under the checked
    ``request``, by the *frontier* of the store's option order (the items that have
    options decided and options still to decide, as the options are decided in that
    order). ``method="memo"`` or ``parts=True``: never. ``method="frontier"``: when the
    frontier's state is at most ``MAX_WIDTH`` (248) bits ([`frontier_width`][]: one an
    item, a field a colored item), else [`dlx.ArgumentError`][]. None (the default): when
    the frontier takes at most ``2 ** CHOOSE_WIDTH`` states ([`state_width`][]: without
    colors, [`dlx.frontier.CHOOSE_WIDTH`][] items; past that, dead states make the
    top-down build the slower, while the memoized search's work follows the subproblems
    it meets); a colored problem then on probation ([`PROBE_NODES`][])."""
    method = request.method
    if method == "memo" or request.parts:
        return False  # (check_request refuses method="frontier" with parts)
    data = memo_input(problem)
    order = store_for(problem.matrix, "auto", request.option_order).order
    if method is None:
        return state_width(data, order) <= (CHOOSE_COLORED if data.colors.any() else
                                             CHOOSE_WIDTH)
    width = frontier_width(data, order)
    if width > MAX_WIDTH:
        raise ArgumentError(f"method='frontier': the frontier of this problem's option order "
                            f"is {width} bits wide, more than {MAX_WIDTH}; use "
                            "method='memo'")
    return True


def _plan(data: MemoInput, order: np.ndarray, forced: list[int]
          ) -> tuple[np.ndarray, np.ndarray, int] | int | None:
    """The masks, modes and words of a state for ``order``; None if the family is empty
    (a primary item without options), or the first forced option that an earlier one
    excludes ([`dlx.memo.without_forced`][]'s)."""
    n = len(order)
    left = without_forced(data, forced) if forced else None
    if isinstance(left, int):  # (before an empty family, as the memo's stats say)
        return left
    first, last, var = _spans(data, order)
    primary = np.arange(data.n_items + 1) <= data.n_primary
    primary[0] = False
    if (last[primary] < 0).any():
        return None
    items = np.asarray(data.items, dtype=np.int64)
    colors = np.asarray(data.colors, dtype=np.int64)
    size, codes = fields(data)
    # Each item's field: the lowest free bits when its first option comes, freed after
    # its last.
    slots: list[list[int]] = [[] for _ in range(data.n_items + 1)]
    starts: list[list[int]] = [[] for _ in range(n)]
    ends: list[list[int]] = [[] for _ in range(n)]
    for i in np.flatnonzero((last >= 0) & (size > 0)).tolist():
        starts[first[i]].append(i)
        ends[last[i]].append(i)
    free: list[int] = []
    top = 0
    for k in range(n):
        for i in starts[k]:
            for _ in range(size[i]):
                if free:
                    slots[i].append(heapq.heappop(free))
                else:
                    slots[i].append(top)
                    top += 1
        for i in ends[k]:
            for b in slots[i]:
                heapq.heappush(free, b)
    W = max(1, -(-top // kf.BITS))
    mask = np.zeros(4 * W * n, dtype=np.int64)
    # The masks' bits as (variables, slots) pairs, in MASK's order: TAKE, NEED, LEAVE,
    # BLOCK. An entry of a one-bit item sets and blocks its bit; one that colors an item
    # sets its code and blocks the field's other bits; one that uses a field without a
    # color sets and blocks it all.
    slot = np.array([f[0] if len(f) == 1 else -1 for f in slots], dtype=np.int64)
    one = (size[items] == 1) & (colors == 0)
    used = np.flatnonzero((last >= 0) & (size > 0))
    need = used[primary[used]]
    pairs = [(var[one], slot[items[one]]), (last[need], slot[need]),
             (np.repeat(last[used], size[used]),
              np.array([at for i in used.tolist() for at in slots[i]], dtype=np.int64)),
             (var[one], slot[items[one]])]
    more: list[tuple[list[int], list[int]]] = [([], []) for _ in range(4)]
    for j in np.flatnonzero(~one & (size[items] > 0)).tolist():
        i, c, v = int(items[j]), int(colors[j]), int(var[j])
        code = codes[i][c] if c else range(size[i])
        for b, at in enumerate(slots[i]):
            for part in ((0,) if b in code else ()) + ((3,) if not c or b not in code else ()):
                more[part][0].append(v)
                more[part][1].append(at)
    for part in range(4):
        where = np.concatenate((pairs[part][0], np.array(more[part][0], dtype=np.int64)))
        bits = np.concatenate((pairs[part][1], np.array(more[part][1], dtype=np.int64)))
        np.bitwise_or.at(mask, 4 * W * where + part * W + bits // kf.BITS,
                         np.left_shift(np.int64(1), bits % kf.BITS))
    mode = np.zeros(n, dtype=np.int64)
    has_primary = np.zeros(n, dtype=bool)
    np.logical_or.at(has_primary, var, items <= data.n_primary)
    mode[~has_primary] = kf.BARRED
    if left is not None:
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n)
        mode[:] = kf.BARRED  # every option but those left and the forced ones clashes
        mode[rank[left[1]]] = np.where(has_primary[rank[left[1]]], kf.FREE, kf.BARRED)
        mode[rank[np.asarray(forced, dtype=np.int64)]] = kf.TAKEN
    return mask, mode, W


def build(problem: Any, request: Any,
          on_finish: Callable[[SearchStats], None] | None = None) -> tuple[Any, MemoStats]:
    """The solution set of ``problem`` built top-down under the checked ``request``, and
    its stats ([`_top_down`][]); a colored problem that outgrows its probation
    ([`Declined`][]) built by the memoized search instead ([`dlx.memo.build`][])."""
    try:
        return _top_down(problem, request, on_finish)
    except Declined:
        return build_memo(problem, request, True, on_finish)


def _top_down(problem: Any, request: Any, on_finish: Callable[[SearchStats], None] | None
              ) -> tuple[Any, MemoStats]:
    """The solution set of ``problem`` built top-down under the checked ``request``, and
    the stats (``nodes``: the top-down diagram's nodes; ``zdd_nodes``: the reduced
    one's, the sinks included); None for a set that a budget or a bound stopped
    (``max_nodes`` and ``max_zdd_nodes`` bound the top-down nodes, ``max_memory`` the
    bytes of the construction and the store, ``timeout`` is checked after each level).
    ``request.progress`` is told after levels, about five times a second, and at the
    end; ``on_finish`` the stats once it has ended, Ctrl-C included (``INTERRUPTED``)."""
    data = memo_input(problem)
    clock = time.monotonic()
    backend = get_backend(request.backend, len(data.items) + data.n_items)
    stats = MemoStats(backend=backend.name)
    try:
        found = _build(problem, request, data, backend, stats, clock)
    except KeyboardInterrupt:
        stats.status = Status.INTERRUPTED
        raise
    finally:
        stats.seconds = time.monotonic() - clock
        if on_finish is not None:
            on_finish(stats)
    if request.progress is not None:
        request.progress(RunProgress(1, 1, stats.solutions, stats.nodes, stats.seconds,
                                     stats=stats))
    return found, stats


def _build(problem: Any, request: Any, data: MemoInput, backend: Backend, stats: MemoStats,
           clock: float) -> Any:
    """[`build`][]'s set, or None (a budget or a bound stopped it), ``stats`` made."""
    from .zdd import SolutionSet

    store = store_for(problem.matrix, "auto", request.option_order)
    forced = list(request.forced)
    plan = _plan(data, store.order, forced)
    if plan is None or isinstance(plan, int):
        stats.status = Status.CONFLICT if isinstance(plan, int) else Status.COMPLETE
        stats.conflict = plan if isinstance(plan, int) else None
        stats.zdd_nodes = 1
        return SolutionSet._made(problem, store, 0, "auto")
    mask, mode, W = plan
    found, status = _construct(backend, mask, mode, W, store, request, stats, clock,
                               bool(data.colors.any()),
                               lambda node: SolutionSet._made(problem, store, node, "auto"))
    if status is not None:
        stats.status = status
        return None
    stats.status = Status.COMPLETE
    return found


def _construct(backend: Backend, mask: np.ndarray, mode: np.ndarray, W: int, store: Any,
               request: Any, stats: MemoStats, clock: float, probe: bool,
               made: Callable[[int], Any]) -> tuple[Any, Status | None]:
    """The top-down levels, the reduction, and the result moved into ``store``: the set
    ``made`` of its node there (made under the store's lock: a node no set holds is the
    garbage collector's, [`dlx.zdd_store.Store.gc`][]); or a status, the construction
    stopped. ``probe`` (a colored problem that
    ``method=None`` gave it): [`Declined`][] past [`PROBE_NODES`][] top-down nodes. A
    build that ``auto`` gave to python moves to numba between two levels once it has run
    long (``auto``'s rule, [`dlx.registry.handover`][]): its arrays converted, the stats'
    backend ``"python->numba"``."""
    n = len(mode)
    if n == 0:  # no option (and no primary item: _plan): the empty solution alone
        stats.zdd_nodes = stats.solutions = 1
        return made(1), None
    levels = _Levels(backend.frontier(), mask, mode, W, request, stats, clock,
                     request.max_memory - store.memory(), probe)
    moving = handover(request.backend, backend)
    step: Callable[[int], tuple[Status | None, int, None]] = levels.step
    if moving is not None:
        deadline = None if request.timeout is None else time.perf_counter() + request.timeout

        def move() -> Any:
            levels.move_to(moving.target.frontier(), moving.route)
            return levels.step

        step = moving.watch(levels.step, move, deadline)
    status: Status | None = None
    while status is None:
        status = step(0)[0]
    if status is not Status.COMPLETE:
        return None, status
    root, nodes = levels.reduced()  # the top-down diagram let go before the store grows
    if nodes is None:                 # (the peak of memory)
        return made(root), None
    with store.lock:
        store.reserve(len(nodes) // 3)
        node = int(store._transfer(nodes)[root])
        del nodes
        stats.solutions = store.count_by_residues(node)  # (no count or signature made yet)
        return made(node), None


class _Levels:
    """One top-down construction's arrays on one kernel, run a level at a time: the
    ``n`` levels made top-down ([`dlx.kernels.frontier.expand`][]), then reduced from
    the bottom ([`dlx.kernels.frontier.reduce`][]); the bounds checked between levels.
    Between two levels the arrays may move to another backend's kernel
    ([`move_to`][])."""

    def __init__(self, kernel: FrontierKernel, mask: np.ndarray, mode: np.ndarray, W: int,
                 request: Any, stats: MemoStats, clock: float, limit: int,
                 probe: bool = False) -> None:
        self.kernel = kernel
        self.probe = probe
        self.request, self.stats, self.clock, self.limit = request, stats, clock, limit
        self.n = n = len(mode)
        level = np.zeros(n + 2, dtype=np.int64)
        level[0], level[1], level[2] = 2, 3, 3
        reg = np.zeros(kf.N_REG, dtype=np.int64)
        reg[kf.REG_NODES], reg[kf.REG_OUT], reg[kf.REG_WORDS] = 3, 2, W
        k = kernel
        i32 = np.int32
        self.S = kf.FrontierState(k.array(mask), k.array(mode), k.array(level),
                                  k.zeros(1024, i32), k.zeros(1024, i32), k.zeros(1024, i32),
                                  k.zeros(6, i32), k.array(reg))
        self.cur, self.nxt = k.zeros(W, np.int64), k.zeros(2 * W, np.int64)
        self.W = W
        self.k = 0
        """The next level to make (``0..n-1``), then ``n + j``: the ``j``-th level to
        reduce from the bottom."""
        self.told = clock
        self.deadline = None if request.timeout is None else clock + request.timeout
        self.bound = min(request.max_nodes, request.max_zdd_nodes)

    def move_to(self, kernel: FrontierKernel, route: str) -> None:
        """Go on with ``kernel`` (another backend's): every array converted, between
        two levels; the stats report ``route`` (``"python->numba"``)."""
        old = self.kernel
        self.S = kf.FrontierState(*(kernel.array(np.asarray(old.numpy(a), dtype=d))
                                    for a, d in zip(self.S, kf.DTYPES)))
        self.cur, self.nxt = (kernel.array(np.asarray(old.numpy(a), dtype=np.int64))
                              for a in (self.cur, self.nxt))
        self.kernel = kernel
        self.stats.backend = route

    def _grown(self, a: Any, size: int) -> Any:
        """``a`` if it has ``size`` words, else lengthened by half at least (the levels
        to come are not known: a few copies in all, a third of the words unused at
        worst, where doubling left half)."""
        if len(a) >= size:
            return a
        return self.kernel.grown(a, max(size, len(a) + len(a) // 2))

    def memory(self) -> int:
        """The bytes of the construction's arrays (as compiled: the node numbers 4 a
        word, the states' words 8)."""
        S = self.S
        return (4 * (len(S.LO) + len(S.HI) + len(S.TABLE) + len(S.OUT))
                + 8 * (len(self.cur) + len(self.nxt) + len(S.MASK)))

    def step(self, budget: int) -> tuple[Status | None, int, None]:
        """The next level (``budget`` is not read: a level is the unit of work): None
        while levels are left, ``COMPLETE`` after the last, or the status that stopped
        the construction; and the nodes the level took."""
        k = self.k
        self.k += 1
        return self._expand(k) if k < self.n else self._reduce(2 * self.n - 1 - k)

    def _over(self) -> bool:
        if self.memory() > self.limit:
            self.stats.bound = "max_memory"
            return True
        return False

    def _expand(self, k: int) -> tuple[Status | None, int, None]:
        S, stats, request, W = self.S, self.stats, self.request, self.W
        width = int(S.LEVEL[k + 1]) - int(S.LEVEL[k])
        made = int(S.LEVEL[k + 1])
        S = S._replace(LO=self._grown(S.LO, made + 2 * width),
                       HI=self._grown(S.HI, made + 2 * width))
        if len(S.TABLE) < 4 * width:  # a power of two, at most half full
            S = S._replace(TABLE=self.kernel.zeros(1 << (4 * width - 1).bit_length(),
                                                   np.int32))
        self.S = S
        self.nxt = self._grown(self.nxt, 2 * width * W)
        if self._over() or made + 2 * width >= 1 << 31:  # (node numbers: 32-bit words)
            return Status.MAX_MEMORY, 0, None
        self.kernel.expand(S, self.cur, self.nxt, k)
        self.cur, self.nxt = self.nxt, self.cur
        stats.nodes = int(S.REG[kf.REG_NODES]) - 2
        if self.probe and stats.nodes > PROBE_NODES and request.method is None:
            stats.status = Status.MAX_NODES
            raise Declined(stats.nodes)
        if stats.nodes > self.bound:
            if stats.nodes > request.max_zdd_nodes:
                stats.bound = "max_zdd_nodes"
                return Status.MAX_MEMORY, width, None
            return Status.MAX_NODES, width, None
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            return Status.TIMEOUT, width, None
        if request.progress is not None and now > self.told + PROGRESS_SECONDS:
            self.told = now
            request.progress(RunProgress(0, 1, 0, stats.nodes, now - self.clock, stats=stats))
        if k == self.n - 1:  # the reduction's table starts empty
            self.cur = self.nxt = self.kernel.zeros(0, np.int64)
            self.S = S._replace(TABLE=self.kernel.zeros(len(S.TABLE), np.int32))
        return None, width, None

    def _reduce(self, k: int) -> tuple[Status | None, int, None]:
        S = self.S
        width = int(S.LEVEL[k + 1]) - int(S.LEVEL[k])
        S = self.S = S._replace(OUT=self._grown(S.OUT, 3 * (int(S.REG[kf.REG_OUT]) + width)))
        if self._over():
            return Status.MAX_MEMORY, 0, None
        self.kernel.reduce(S, k)
        dead = int(S.LEVEL[k + 1])  # the levels below k are read no more: given back
        if len(S.LO) - dead > len(S.LO) // 8:
            self.S = S._replace(LO=self.kernel.shrunk(S.LO, dead),
                                HI=self.kernel.shrunk(S.HI, dead))
        return (Status.COMPLETE if k == 0 else None), width, None

    def reduced(self) -> tuple[int, Any]:
        """The reduced diagram, once complete: its root and its nodes as
        [`dlx.zdd_store.Store`][]'s transfer takes them (``(var, lo, hi)`` a node, the
        sinks first, children before parents: ``OUT`` itself); None when the family is a
        sink, the root (``stats`` told). The construction's other arrays are let go."""
        S, stats = self.S, self.stats
        root = int(S.LO[2])
        out = int(S.REG[kf.REG_OUT])
        stats.zdd_nodes = out if root >= 2 else root + 1
        self.S = self.cur = self.nxt = None  # type: ignore[assignment]
        if root < 2:
            stats.solutions = root
            return root, None
        return root, S.OUT[: 3 * out]
