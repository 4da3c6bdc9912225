"""The frontier-based construction of a problem's solution set (TdZdd's top-down build,
Knuth's SIMPATH family), and the rule that chooses between it and the memoized search.

The options are decided one by one in the order of the set's store: the problem's
automatic order ([`dlx.orders.option_order`][]: of a few candidate orders, the one that
keeps the fewest items open at once), or the one given to
``solution_set(option_order=...)``; a node's state is which items of the *frontier* (those with
options decided and options still to decide) are covered, one bit each; equal states of
a level are one node. The diagram is then reduced bottom-up, straight into the store's
order: no conversion, and its node count is the canonical one. The kernel is
[`dlx.kernels.frontier`][]; its states take ``ceil(width / 62)`` words, ``width`` the
widest frontier of the order ([`frontier_width`][]).

**The choice** ([`use_frontier`][]): ``solution_set(method=None)`` builds top-down when
the problem has no colors, ``parts`` is not asked, and the order's frontier is at most
[`CHOOSE_WIDTH`][] items wide (a domino board's breadth-first order: ``n + 1`` for an
``n x n`` board); else by the memoized search, whose work follows the subproblems the
search meets instead of the order. ``method="frontier"`` builds top-down whenever the
frontier is at most [`MAX_WIDTH`][] wide (no colors, no ``parts``); ``method="memo"``
never does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from . import orders
from .backend import Backend, FrontierKernel
from .errors import ArgumentError
from .kernels import frontier as kf
from .progress import RunProgress
from .registry import get_backend, handover
from .search import MemoStats
from .status import Status
from .zdd_store import MemoInput, memo_input, store_for

__all__ = ["CHOOSE_WIDTH", "MAX_WIDTH", "build", "frontier_width", "use_frontier"]

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
    """The most items on the frontier at once when the options are decided in ``order``:
    an item is on it from its first option to its last, both included (options without
    a primary item count, as the kernel decides them too;
    [`dlx.orders.frontier_width`][])."""
    return orders.frontier_width(data.indptr, data.items, data.n_items, order)


def _spans(data: MemoInput, order: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each item's first and last variable (-1, -1: no option), and each entry's
    variable."""
    n = len(order)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64)
    var = rank[np.repeat(np.arange(n, dtype=np.int64), np.diff(data.indptr))]
    items = np.asarray(data.items, dtype=np.int64)
    first = np.full(data.n_items + 1, n, dtype=np.int64)
    last = np.full(data.n_items + 1, -1, dtype=np.int64)
    np.minimum.at(first, items, var)
    np.maximum.at(last, items, var)
    first[last < 0] = -1
    return first, last, var


def use_frontier(problem: Any, request: Any) -> bool:
    """Whether ``solution_set`` builds ``problem``'s set top-down under the checked
    ``request``, by the *frontier* of the store's option order: the most items that have
    options decided and options still to decide, as the options are decided in that
    order. ``method="memo"``, ``parts=True`` or colors: never. ``method="frontier"``:
    when the frontier is at most ``MAX_WIDTH`` (248) items wide, else
    [`dlx.ArgumentError`][]. None (the default): when it is at most
    [`dlx.frontier.CHOOSE_WIDTH`][] wide (past that, dead states make the top-down build
    the slower; the memoized search's work follows the subproblems it meets instead)."""
    method = request.method
    if method == "memo" or request.parts or problem.matrix.colors.any():
        return False  # (check_request refuses method="frontier" with either)
    data = memo_input(problem)
    width = frontier_width(data, store_for(problem.matrix, "auto", request.option_order).order)
    if method == "frontier" and width > MAX_WIDTH:
        raise ArgumentError(f"method='frontier': the frontier of this problem's option order "
                            f"is {width} items wide, more than {MAX_WIDTH}; use "
                            "method='memo'")
    return width <= (MAX_WIDTH if method == "frontier" else CHOOSE_WIDTH)


def _plan(data: MemoInput, order: np.ndarray, forced: list[int]
          ) -> tuple[np.ndarray, np.ndarray, int] | int | None:
    """The masks, modes and words of a state for ``order``; None if the family is empty
    (a primary item without options), or the first forced option that an earlier one
    excludes."""
    n = len(order)
    first, last, var = _spans(data, order)
    primary = np.arange(data.n_items + 1) <= data.n_primary
    primary[0] = False
    if (last[primary] < 0).any():
        return None
    items = np.asarray(data.items, dtype=np.int64)
    # Each item's bit: the lowest free when its first option comes, freed after its last.
    slot = np.full(data.n_items + 1, -1, dtype=np.int64)
    starts: list[list[int]] = [[] for _ in range(n)]
    ends: list[list[int]] = [[] for _ in range(n)]
    for i in np.flatnonzero(last >= 0).tolist():
        starts[first[i]].append(i)
        ends[last[i]].append(i)
    free: list[int] = []
    top = 0
    import heapq

    for k in range(n):
        for i in starts[k]:
            if free:
                slot[i] = heapq.heappop(free)
            else:
                slot[i] = top
                top += 1
        for i in ends[k]:
            heapq.heappush(free, int(slot[i]))
    W = max(1, -(-top // kf.BITS))
    mask = np.zeros(3 * W * n, dtype=np.int64)
    bit = np.left_shift(np.int64(1), slot % kf.BITS)
    word = slot // kf.BITS
    np.bitwise_or.at(mask, 3 * W * var + word[items], bit[items])  # TAKE
    used = np.flatnonzero(last >= 0)
    np.bitwise_or.at(mask, 3 * W * last[used] + 2 * W + word[used], bit[used])  # LEAVE
    need = used[primary[used]]
    np.bitwise_or.at(mask, 3 * W * last[need] + W + word[need], bit[need])  # NEED
    mode = np.zeros(n, dtype=np.int64)
    has_primary = np.zeros(n, dtype=bool)
    np.logical_or.at(has_primary, var, items <= data.n_primary)
    mode[~has_primary] = kf.BARRED
    if forced:
        taken = np.zeros(data.n_items + 1, dtype=bool)
        ptr = data.indptr
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n)
        for o in forced:
            mine = items[ptr[o]:ptr[o + 1]]
            if taken[mine].any():
                return int(o)
            taken[mine] = True
        clash = np.zeros(n, dtype=bool)
        np.logical_or.at(clash, var, taken[items])
        mode[clash] = kf.BARRED
        mode[rank[np.asarray(forced, dtype=np.int64)]] = kf.TAKEN
    return mask, mode, W


def build(problem: Any, request: Any,
          on_finish: Callable[[MemoStats], None] | None = None) -> tuple[Any, MemoStats]:
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
    node, status = _construct(backend, mask, mode, W, store, request, stats, clock)
    if status is not None:
        stats.status = status
        return None
    stats.status = Status.COMPLETE
    return SolutionSet._made(problem, store, node, "auto")


def _construct(backend: Backend, mask: np.ndarray, mode: np.ndarray, W: int, store: Any,
               request: Any, stats: MemoStats, clock: float) -> tuple[int, Status | None]:
    """The top-down levels, the reduction, and the result moved into ``store``: its node
    there; or a status, the construction stopped. A build that ``auto`` gave to python
    moves to numba between two levels once it has run long (``auto``'s rule,
    [`dlx.registry.handover`][]): its arrays converted, the stats' backend
    ``"python->numba"``."""
    n = len(mode)
    if n == 0:  # no option (and no primary item: _plan): the empty solution alone
        stats.zdd_nodes = stats.solutions = 1
        return 1, None
    levels = _Levels(backend.frontier(), mask, mode, W, request, stats, clock,
                     request.max_memory - store.memory())
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
        return 0, status
    root, nodes = levels.reduced()  # the top-down diagram let go before the store grows
    if nodes is None:                 # (the peak of memory)
        return root, None
    store.reserve(len(nodes) // 3)
    node = int(store._transfer(nodes)[root])
    del nodes
    stats.solutions = store.count_by_residues(node)  # (no count or signature made yet)
    return node, None


class _Levels:
    """One top-down construction's arrays on one kernel, run a level at a time: the
    ``n`` levels made top-down ([`dlx.kernels.frontier.expand`][]), then reduced from
    the bottom ([`dlx.kernels.frontier.reduce`][]); the bounds checked between levels.
    Between two levels the arrays may move to another backend's kernel
    ([`move_to`][])."""

    def __init__(self, kernel: FrontierKernel, mask: np.ndarray, mode: np.ndarray, W: int,
                 request: Any, stats: MemoStats, clock: float, limit: int) -> None:
        self.kernel = kernel
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
