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

import functools
import time
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from . import orders
from .errors import ArgumentError
from .kernels import frontier as kf
from .progress import RunProgress
from .search import MemoStats
from .status import Status
from .zdd_store import MemoInput, exact_counts, memo_input, store_for

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


@functools.cache
def _kernel(name: str) -> tuple[types.SimpleNamespace, Any]:
    """The kernel's namespace on the backend ``name`` and its array maker."""
    from .kernels import declaration
    from .kernels.declare import namespace

    decl = declaration("frontier")
    if name != "numba":
        return namespace(decl), np.ndarray.tolist
    from .jit import compile_entry, numba_namespace

    ns = numba_namespace(decl)
    for entry in decl.entries:
        compile_entry(decl, ns, entry)
    return ns, lambda a: np.ascontiguousarray(a, dtype=np.int64)


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


def _backend_name(backend: Any, work: int) -> str:
    from .registry import get_backend

    return "numba" if get_backend(backend, work).name == "numba" else "python"


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
    name = _backend_name(request.backend, len(data.items) + data.n_items)
    stats = MemoStats(backend=name)
    try:
        found = _build(problem, request, data, stats, clock)
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


def _build(problem: Any, request: Any, data: MemoInput, stats: MemoStats,
           clock: float) -> Any:
    """[`build`][]'s set, or None (a budget or a bound stopped it), ``stats`` made."""
    from .zdd import SolutionSet

    name = stats.backend
    store = store_for(problem.matrix, "auto", request.option_order)
    forced = list(request.forced)
    plan = _plan(data, store.order, forced)
    if plan is None or isinstance(plan, int):
        stats.status = Status.CONFLICT if isinstance(plan, int) else Status.COMPLETE
        stats.conflict = plan if isinstance(plan, int) else None
        stats.zdd_nodes = 1
        return SolutionSet._made(problem, store, 0, "auto")
    mask, mode, W = plan
    node, status = _construct(name, mask, mode, W, store, request, stats, clock)
    if status is not None:
        stats.status = status
        return None
    stats.status = Status.COMPLETE
    return SolutionSet._made(problem, store, node, "auto")


def _construct(name: str, mask: np.ndarray, mode: np.ndarray, W: int, store: Any,
               request: Any, stats: MemoStats, clock: float) -> tuple[int, Status | None]:
    """The top-down levels, the reduction, and the result moved into ``store``: its node
    there; or a status, the construction stopped."""
    ns, array = _kernel(name)
    n = len(mode)
    if n == 0:  # no option (and no primary item: _plan): the empty solution alone
        stats.zdd_nodes = stats.solutions = 1
        return 1, None
    zeros = (lambda m: np.zeros(m, dtype=np.int64)) if name == "numba" else \
        (lambda m: [0] * m)
    level = np.zeros(n + 2, dtype=np.int64)
    level[0], level[1], level[2] = 2, 3, 3
    reg = np.zeros(kf.N_REG, dtype=np.int64)
    reg[kf.REG_NODES], reg[kf.REG_OUT], reg[kf.REG_WORDS] = 3, 2, W
    S = kf.FrontierState(array(mask), array(mode), array(level), zeros(1024), zeros(1024),
                         zeros(1024), zeros(6), array(reg))
    cur, nxt = zeros(W), zeros(2 * W)
    deadline = None if request.timeout is None else clock + request.timeout
    told = clock
    bound = min(request.max_nodes, request.max_zdd_nodes)
    limit = request.max_memory - store.memory()

    def grown(a: Any, size: int) -> Any:
        if len(a) >= size:
            return a
        size = 1 << (size - 1).bit_length()
        if name == "numba":
            return np.concatenate((a, np.zeros(size - len(a), dtype=np.int64)))
        return a + [0] * (size - len(a))

    def memory(S: kf.FrontierState) -> int:
        return 8 * (len(S.LO) + len(S.HI) + len(S.TABLE) + len(S.OUT) + len(cur) + len(nxt)
                    + len(S.MASK))

    for k in range(n):
        width = int(S.LEVEL[k + 1]) - int(S.LEVEL[k])
        made = int(S.LEVEL[k + 1])
        table = len(S.TABLE)
        S = S._replace(LO=grown(S.LO, made + 2 * width), HI=grown(S.HI, made + 2 * width))
        if table < 4 * width:
            S = S._replace(TABLE=grown(zeros(0), 4 * width))
        nxt = grown(nxt, 2 * width * W)
        if memory(S) > limit:
            stats.bound = "max_memory"
            return 0, Status.MAX_MEMORY
        ns.expand(S, cur, nxt, k)
        cur, nxt = nxt, cur
        stats.nodes = int(S.REG[kf.REG_NODES]) - 2
        if stats.nodes > bound:
            if stats.nodes > request.max_zdd_nodes:
                stats.bound = "max_zdd_nodes"
                return 0, Status.MAX_MEMORY
            return 0, Status.MAX_NODES
        now = time.monotonic()
        if deadline is not None and now > deadline:
            return 0, Status.TIMEOUT
        if request.progress is not None and now > told + PROGRESS_SECONDS:
            told = now
            request.progress(RunProgress(0, 1, 0, stats.nodes, now - clock, stats=stats))
    cur = nxt = zeros(0)
    S = S._replace(HI=S.HI, TABLE=zeros(len(S.TABLE)))
    for k in range(n - 1, -1, -1):
        width = int(S.LEVEL[k + 1]) - int(S.LEVEL[k])
        S = S._replace(OUT=grown(S.OUT, 3 * (int(S.REG[kf.REG_OUT]) + width)))
        if memory(S) > limit:
            stats.bound = "max_memory"
            return 0, Status.MAX_MEMORY
        ns.reduce(S, k)
    root = int(S.LO[2])
    out = int(S.REG[kf.REG_OUT])
    stats.zdd_nodes = out if root >= 2 else root + 1
    if root < 2:
        stats.solutions = root
        return root, None
    triples = np.asarray(S.OUT[: 3 * out], dtype=np.int64).reshape(out, 3)
    columns = [np.ascontiguousarray(triples[:, j]) for j in range(3)]
    del S, triples  # the top-down diagram goes before the store grows (the peak of memory)
    stats.solutions = exact_counts(columns[1], columns[2])[root]
    store.reserve(out)
    return int(store._transfer(*columns)[root]), None
