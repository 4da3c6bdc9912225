"""A search is an object: its own working arrays, budgets and statistics, around the kernel.

[`Search`][] is what [`dlx.ExactCover.solutions`][] returns: an iterator over the
solutions that owns everything it changes, so that any number of searches of one problem
may run at once, in one thread (interleaved generators) or in many. Nothing here writes to
the problem; the problem only remembers, per thread, the statistics of the last search
that finished there.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from .backend import Backend, Kernel
from .budget import NEVER
from .kernels import codes
from .links import Links, check_links
from .slices import Handover, Lazy, Slices, Step, drive
from .state import (
    REG_CUTOFF,
    REG_LEVEL,
    REG_LOOKAHEAD,
    REG_MAX_LEVEL,
    REG_NODES,
    REG_SEED,
    REG_SOLUTIONS,
    REG_SPENT,
    REG_UPDATES,
    State,
)
from .status import Status
from .views import search_html

__all__ = ["MemoStats", "Search", "SearchStats", "explored", "first_slice"]


@dataclass
class SearchStats:
    """What one search did; live while the search runs.

    ``status`` says how it ended ([`dlx.Status`][]): ``COMPLETE`` when the whole tree
    was explored, so that ``solutions`` is the exact count; ``LIMIT`` when the requested
    number of solutions was found; ``MAX_NODES``, ``TIMEOUT`` or ``INTERRUPTED`` when a
    budget ran out (*not* the same as "no solution"); ``CONFLICT`` when the forced options
    exclude one another (``conflict`` is the first that an earlier one excludes; nothing
    was searched; no solution); ``RUNNING`` while it goes on. ``nodes`` and ``updates`` are
    Knuth's counts (DLX1/DLX2), ``max_level`` the deepest level reached.
    """

    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    max_level: int = 0
    status: Status = Status.RUNNING
    seconds: float = 0.0
    backend: str = ""
    """The backend the search ran on: ``"python"``, ``"numba"``, or ``"python->numba"``
    for one that ``auto`` moved to numba mid-search (`dlx.registry.handover`)."""
    conflict: int | None = None
    restarts: int = 0
    """Restarts made (`dlx.restarts.first_restarting`); the counts above are then
    summed over every run."""
    conflicts: int = 0
    """Conflicts analysed by a learning search (``learn=True``, `dlx.learning`),
    whose ``nodes`` are its decisions and ``updates`` its assignments."""
    answered_by: str = ""
    """A portfolio (``strategy="auto"``, `dlx.kinds.portfolio`): the search that
    answered, ``"plain"`` or ``"learn"``; ``count()`` choosing its search
    (`dlx.kinds.choose`): ``"plain"`` or ``"memo"`` ("" while none has, and for other
    searches)."""
    parts: dict[str, SearchStats] = field(default_factory=dict)
    """A portfolio: the stats of each of its searches, by name, ``seconds`` the CPU time
    of its turns; the counts above are their sums (``nodes``: plain nodes + decisions).
    ``count()`` choosing its search: the plain and (once tried) the memoized search's;
    the counts above are those of the search under way, at the end of the one that
    answered."""

    def __repr__(self) -> str:
        """The fields as the dataclass writes them, less those at their defaults, and
        ``seconds`` to 4 significant digits."""
        shown = [f"nodes={self.nodes}", f"updates={self.updates}",
                 f"solutions={self.solutions}", f"max_level={self.max_level}",
                 f"status={self.status.name}", f"seconds={self.seconds:.4g}",
                 f"backend={self.backend!r}"]
        shown += [f"{name}={value!r}" for name, value, default in (
            ("conflict", self.conflict, None), ("restarts", self.restarts, 0),
            ("conflicts", self.conflicts, 0), ("answered_by", self.answered_by, ""),
            ("parts", self.parts, {})) if value != default]
        return f"SearchStats({', '.join(shown)})"

    @property
    def complete(self) -> bool:
        """True when the search decided: the tree was exhausted (or the forced options
        conflict), so ``solutions`` is the exact count."""
        return self.status.complete

    @property
    def stopped(self) -> bool:
        """True when a budget (``max_nodes``, ``timeout``, Ctrl-C) ended it early."""
        return self.status.stopped


@dataclass
class MemoStats(SearchStats):
    """[`dlx.SearchStats`][] of a memoized search, with DLX6's other totals: ``hits``
    (solutions included, as DLX6 counts them), ``memos`` (signatures stored), ``good_memos``
    (those with solutions) and ``zdd_nodes`` (the sinks included, as DLX6 counts them); and
    ``splits``, the nodes that split into independent parts (``parts=True``)."""

    hits: int = 0
    memos: int = 0
    good_memos: int = 0
    zdd_nodes: int = 0
    splits: int = 0
    bound: str = ""
    """Which bound stopped the search (status ``MAX_MEMORY``): ``max_memory``,
    ``max_zdd_nodes``, or ``products`` (the product nodes of independent parts, expanded
    for a set, past ``max_zdd_nodes`` or 2**22); else empty."""


def first_slice(links: Links) -> int:
    """Nodes in a compiled kernel's first slice without a timeout: 1024, fewer for huge
    problems, whose nodes may each touch much of the problem (so that Ctrl-C gets through
    within about a slice's time however costly the nodes are)."""
    return max(1, min(1024, (1 << 22) // max(len(links.arrays.TOP), 1)))


ESTIMATE_FLOOR = 1e-6
"""The precision of the estimate a handover reads after each slice ([`Search.explored`][]'s
``floor``): a projection from a share of a millionth is noise anyway."""


def explored(S: State, floor: float = 0.0) -> float:
    """Knuth's estimate of the part of the tree explored, from the choices on the path.

    At level ``l`` the option tried, ``CHOICE[l]``, is the ``k``-th of the ``d`` options in
    its item's list (an item's own list stays linked while it is covered, so both are read
    by walking it). The subtree of each option is taken as an equal share of its parent's,
    so the subtrees to the left of the path weigh ``(k_l - 1) / (d_0 ... d_l)``; their sum,
    plus half the share of the node under way, is the estimate (dlx1.w, "print_progress").
    Each walk is bounded by the number of nodes, so a snapshot torn by a concurrent update
    gives a poor estimate, never a hang. The walk stops at the first level whose share is
    under ``floor``: the levels below it move the estimate by less than that (a portfolio
    reads the estimate after every turn, and 500 queens are 400 levels deep).
    """
    D, TOP, CHOICE = S.D, S.TOP, S.CHOICE
    level = int(S.REG[REG_LEVEL])
    if level == 0:  # at the root (not started, or between its subtrees): no estimate yet
        return 0.0
    bound = len(D)
    share, total = 1.0, 0.0
    for l in range(min(level, len(CHOICE))):
        x = int(CHOICE[l])
        if not 0 <= x < bound or share < floor:
            break
        i = int(TOP[x])
        k = d = 0
        p = int(D[i]) if 0 <= i < bound else i
        while p != i and d < bound and 0 <= p < bound:
            d += 1
            if p == x:
                k = d
            p = int(D[p])
        if k == 0:  # x no longer in the list: the snapshot was torn
            break
        share /= d
        total += (k - 1) * share
    return min(1.0, total + share / 2)


class Search(Lazy):
    """One search of a problem: iterate over it for its solutions, lazily.

    Each solution is a sorted list of option indices, the forced options included.
    `stats` is live; [`count`][] runs the search to its end without building
    solutions. Made by [`dlx.ExactCover.solutions`][] (`dlx.request` checks every
    argument); budgets here are already normalized (``NEVER`` for none).

    With ``order="cost"`` it yields the ``limit`` cheapest solutions, cheapest first
    (ties in the order found), once the search is over: branch and bound, DLX5's way. At
    every solution the kernel returns; the ``limit`` best so far are kept in a heap, and
    once there are ``limit`` of them the kernel's cutoff is the dearest, so that only
    cheaper solutions are searched for. ``costs`` then holds each yielded solution's cost.
    If a budget stops the search, the best found so far are yielded (status MAX_NODES or
    TIMEOUT: they are not proven the cheapest). When no option has a positive net cost,
    every solution costs the same: the first ``limit`` found are yielded as found, and the
    search stops there (status LIMIT).

    A ``seed`` (problems without bounds or costs) searches the problem's
    `shuffled` links (items and options in a random order fixed for
    the whole search; ``run`` is a restart's number), with the kernel of an unseeded
    search. ``weighted`` takes the weighted choice of item
    (dom/wdeg), starting from the item weights ``weights`` (by the problem's item number;
    None: all 1). ``lookahead``
    hides, at every node, the options that item domination excludes (testing the items of
    2 to ``lookahead`` options; see `dlx.kernels.lookahead.reduce`).
    With bounds or costs, a ``seed`` breaks `dlx.kernels.algorithm_m`'s ties at random instead,
    and ``weighted`` and ``lookahead`` are refused ([`dlx.ExactCover.solutions`][]).

    A ``handover`` (a search that ``auto`` started on python, `dlx.registry.handover`)
    moves the search to numba at a slice boundary once python has had its share: its
    arrays converted (`dlx.backend.Kernel.adopt`), the same search goes on. If the
    searches before it on the handover (a batch's earlier instances, earlier restarts)
    have had that share, the search starts on numba.
    """

    def __init__(
        self,
        links: Links,
        backend: Backend,
        *,
        limit: int,
        forced: list[int],
        max_nodes: int,
        timeout: float | None,
        seed: int | None,
        run: int = 0,
        weighted: bool = False,
        weights: np.ndarray | None = None,
        lookahead: int = 0,
        on_finish: Callable[[SearchStats], None] | None = None,
        handover: Handover | None = None,
        order: str = "search",
        progress: Callable[[SearchStats], None] | None = None,
    ) -> None:
        self.links = links if seed is None or links.mcc else links.shuffled(seed, run)
        if handover is not None and handover.starting() is handover.target:
            backend, handover = handover.target, None
        self.backend = backend
        self._handover = handover
        self._weighted = weighted
        self.lookahead = lookahead
        self._live: tuple[Kernel, State] | None = None  # the kernel and its state, once begun
        self.kernel: Kernel = backend.kernel(links, weighted, lookahead > 1)
        self._weights = weights
        self.limit = limit
        self.forced = forced
        self.max_nodes = max_nodes
        self.timeout = timeout
        self.seed = seed
        self.stats = SearchStats(backend=backend.name)
        self._on_finish = on_finish
        self._progress = progress
        self._counting = False
        self.order = order
        self.costs: list[int] = []
        """``order="cost"``: the cost of each solution yielded, in order."""
        if order == "cost" and links.arrays.COST.any():
            self._best = limit
            self.limit = NEVER  # the kernel returns at every solution; the heap keeps limit
            self._run = self._cheapest()
        elif order == "cost":  # every solution costs the same: the first found are the best
            self._run = self._same_cost()
        else:
            self._run = self._search()

    def __repr__(self) -> str:
        s = self.stats
        return (f"<Search {s.status.name}: {s.solutions} solutions, {s.nodes} nodes, "
                f"{s.seconds:.3g} s, {s.backend or '?'}>")

    def _repr_html_(self) -> str:
        """Jupyter's view: the status and counts of [`stats`][]."""
        return search_html(self.stats)

    def count(self) -> int:
        """Run the search to its end (or its limit or budget) and return the number of
        solutions found in all, those already iterated over included (``order="cost"``:
        the number of solutions it yields)."""
        if self.order == "cost":
            for _ in self._run:
                pass
            return len(self.costs)
        self._counting = True
        for _ in self._run:
            pass
        return self.stats.solutions

    def explored(self, floor: float = 0.0) -> float:
        """Knuth's estimate of the fraction of the search tree already explored, in [0, 1]
        (as DLX1's progress reports): 1.0 once the search is complete, 0.0 before it starts.
        Meant for progress lines: another thread may call it while the search runs; it
        reads the live arrays, so an estimate taken mid-slice may be a little off.
        ``floor``: the precision wanted; levels whose share of the tree is under it are
        not read (see [`dlx.search.explored`][])."""
        if self.stats.status is Status.COMPLETE:
            return 1.0
        live = self._live  # one read: a move to numba replaces kernel and state together
        if live is None:
            return 0.0
        run, state = live
        return (run.explored or explored)(state, floor)

    def weights(self) -> np.ndarray | None:
        """The item weights of a weighted search as it left them (by the problem's item
        number), to carry on to another search of the problem; None before it starts."""
        if self._state is None:
            return None
        weights = np.array(self._state.WEIGHT, dtype=np.int64)
        number = self.links.item_number
        return weights if number is None else weights[number]

    def check(self) -> None:
        """Knuth's sanity checker on the live arrays (raises AssertionError)."""
        live = self._live
        if live is not None:
            (live[0].check or check_links)(self.links, live[1], live[0].inactive)

    @property
    def _state(self) -> State | None:
        """The kernel's state, once begun."""
        return None if self._live is None else self._live[1]

    def _search(self) -> Iterator[list[int]]:
        """The kernel in slices ([`dlx.slices.drive`][]), the clock read between them."""
        slices = Slices.timed(self.timeout is not None, self.backend.slice_seconds,
                              first_slice(self.links))
        return drive(self.begin, self.stats, slices, self.timeout, self._on_finish,
                     self._progress)

    def begin(self, counting: bool = False) -> Step[list[int]] | None:
        """The state this search starts from (the forced options taken, the weights
        given), and its step; None when that decides it (a limit of 0, a clash).
        [`count`][] and iterating drive it; a portfolio runs it in turns. ``counting``:
        its steps count without stopping at each solution, as [`count`][]'s do. With a
        handover, the step moves to numba once due (`dlx.slices.Handover.watch`)."""
        self._counting = self._counting or counting
        stats, links, run = self.stats, self.links, self.kernel
        deadline = None if self.timeout is None else time.perf_counter() + self.timeout
        if self.limit <= 0:
            stats.status = Status.LIMIT
            return None
        given = None
        if self._weights is not None:
            weights = self._weights
            if links.item_number is not None:  # to the shuffled item numbers
                weights = np.empty_like(weights)
                weights[links.item_number] = self._weights
            given = {"WEIGHT": run.convert(links, "WEIGHT", weights)}
        state, conflict = run.prepare(links, self.forced, given)
        if conflict is not None:
            stats.conflict = conflict
            stats.status = Status.CONFLICT
            return None
        regs = state.REG
        regs[REG_LOOKAHEAD] = self.lookahead
        if links.mcc and self.seed is not None:  # kernel_m's tie-break generator
            regs[REG_SEED] = self.seed % 2147483646 + 1
        step = self._stepper(run, state)
        if self._handover is not None:
            whole = self.limit >= NEVER and self.max_nodes >= NEVER  # the tree, to its end
            step = self._handover.watch(step, self._move, deadline,
                                        self._estimate if whole else None)
        return step

    def _estimate(self) -> float:
        """[`explored`][] to the precision a handover's projection needs."""
        return self.explored(ESTIMATE_FLOOR)

    def _move(self) -> Step[list[int]]:
        """The handover's move: this search's state converted for its target's kernel
        (`dlx.backend.Kernel.adopt`), and the step that goes on from there."""
        handover, live = self._handover, self._live
        if handover is None or live is None:  # cannot be: only a begun watched step moves
            raise AssertionError("a move without a handover or a state")
        source, state = live
        target = handover.target
        run = target.kernel(self.links, self._weighted, self.lookahead > 1)
        state = run.adopt(self.links, self.forced, source, state)
        self.backend, self.kernel = target, run
        self.stats.backend = handover.route
        return self._stepper(run, state)

    def _stepper(self, run: Kernel, state: State) -> Step[list[int]]:
        """The step of ``run`` on ``state``: one call of its ``search``, to a node budget,
        its registers copied into the live stats (see [`dlx.slices.drive`][])."""
        self._live = run, state
        stats, links = self.stats, self.links
        regs, choice = state.REG, state.CHOICE
        option_of_node = links.option_list
        null_moves = links.mcc  # CHOICE also holds item headers (kernel_m's null moves)
        forced, limit, max_nodes = self.forced, self.limit, self.max_nodes
        search = run.search

        def step(budget: int) -> tuple[Status | None, int, list[int] | None]:
            solution_stop = limit if self._counting else int(regs[REG_SOLUTIONS]) + 1
            before = int(regs[REG_NODES])
            status = search(state, min(max_nodes, before + budget), solution_stop)
            stats.nodes = nodes = int(regs[REG_NODES])
            stats.updates = int(regs[REG_UPDATES])
            stats.solutions = solutions = int(regs[REG_SOLUTIONS])
            stats.max_level = int(regs[REG_MAX_LEVEL])
            if status == codes.COMPLETE:
                return Status.COMPLETE, 0, None
            if status == codes.LIMIT:
                end = Status.LIMIT if solutions >= limit else None
                if self._counting:
                    return end, 0, None
                chosen = [option_of_node[x] for x in choice[:int(regs[REG_LEVEL])]]
                if null_moves:
                    chosen = [k for k in chosen if k >= 0]
                return end, 0, sorted(chosen + forced if forced else chosen)
            # MAX_NODES: the budget, or just the end of a slice.
            return (Status.MAX_NODES if nodes >= max_nodes else None), nodes - before, None

        return step

    def _cheapest(self) -> Iterator[list[int]]:
        """``order="cost"``: the search to its end, keeping the ``limit`` cheapest
        solutions (a heap, dearest on top) and telling the kernel the cutoff; then they
        are yielded, cheapest first."""
        heap: list[tuple[int, int, list[int]]] = []  # (-net cost, -rank found, solution)
        keep = self._best
        for rank, solution in enumerate(self._search()):
            regs = self._state.REG  # type: ignore[union-attr]
            net = int(regs[REG_SPENT])
            item = (-net, -rank, solution)
            if len(heap) < keep:
                heapq.heappush(heap, item)
            else:
                heapq.heappushpop(heap, item)
            if len(heap) >= keep:
                regs[REG_CUTOFF] = -heap[0][0]
        base = self._base_cost()
        for net, _, solution in sorted(heap, key=lambda e: (-e[0], -e[1])):
            self.costs.append(base - net)
            yield solution

    def _same_cost(self) -> Iterator[list[int]]:
        """``order="cost"`` when no net cost is positive: every solution costs the same,
        so the first ``limit`` found are the cheapest (ties in the order found)."""
        base = self._base_cost()
        for solution in self._search():
            self.costs.append(base)
            yield solution

    def _base_cost(self) -> int:
        """What every solution costs beyond its searched options' net costs: the taxes
        and the forced options' net costs."""
        arrays = self.links.arrays
        return self.links.tax + sum(int(arrays.COST[arrays.FORCING[k]]) for k in self.forced)
