"""The memoized search on many cores: ``count(memo=True, workers=N)`` (or ``executor=``,
``split=``) and ``solution_set(workers=N)``.

The search tree is cut as the plain distributed count cuts it ([`dlx.split`][]): each
subproblem is the problem with a prefix of options forced, and the subproblems hold every
solution once. Each is searched by the memoized search ([`dlx.memo.build`][]) in a
worker, on any executor ([`dlx.distribute`][]: the problem travels once per worker,
failed tasks are sent again). The count is the sum of the parts' exact counts (Python
ints: past 2**64 too); the set is the union of the parts' sets, which are sets of the
same problem, in its canonical store ([`dlx.zdd_store`][]): a worker unites the parts of
its chunk and sends the union's diagram in the store's order, which this process copies
into its store ([`dlx.zdd_store.Store.add_ordered`][], linear) and unites. The result
equals ``solution_set()`` (``==``, and the canonical diagram: ``node_count`` of
``solution_set().canonical()``); it iterates in the store's order, not the search's.

**When it splits.** A part forgets what the other parts learned: a subproblem met in
two parts is solved in both. Where remaining problems repeat across the tree (domino
boards: a memoized search's whole point) each part costs about as much as the whole
(domino 14 x 14: 29 parts of 0.29-0.40 s each, 0.39 s for the whole), so a split
multiplies the work. Where they rarely do (queens, Langford pairs, pentominoes: most
signatures come to nothing) the parts together cost what the whole does (queens 14:
14 parts, 6.7-7.1 s in all against 8.3 s). The two are told apart as the chooser tells
them ([`dlx.kinds.choose`][]): a probe of the memoized search runs
[`PROBE_MAX`][dlx.kinds.choose.PROBE_MAX] nodes here; if at most
[`NO_GOOD`][dlx.kinds.choose.NO_GOOD] of its decided signatures came to nothing, the
search is not split and runs whole in this process; a ``split`` given is always used.
The split made here has about [`PARTS_PER_WORKER`][] parts per worker: few, since
every part pays for what it cannot share.

**Budgets.** ``timeout`` bounds the whole run: each part gets the time left when it
starts (a deadline by the wall clock, the same on every machine of a cluster as far as
their clocks agree), and this process stops waiting at the deadline. ``max_memory`` and
``max_zdd_nodes`` bound each part's search (per worker). A part that a budget or bound
stops stops the whole, its status and ``bound`` in the stats, the parts done counted in
``stats.solutions``: the front door raises [`dlx.SearchStoppedError`][]. ``progress``
is told the parts done after each chunk. A ``checkpoint`` is refused (it records counts,
not sets), as are ``forced`` and ``max_nodes`` (for a single search).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from typing import Any

from ..budget import NEVER
from ..distribute import _MISSING, _cached, _Runner, as_finished, chunks
from ..kernels.memo import COMPLETE
from ..memo import MemoRun, build, problem_links
from ..progress import RunProgress
from ..registry import get_backend
from ..request import SearchRequest
from ..search import MemoStats, SearchStats
from ..split import Split, split_problem
from ..status import Status
from ..zdd import SolutionSet, memo_input
from ..zdd_store import store_for
from .choose import NO_GOOD, PROBE_MAX

__all__ = ["PARTS_PER_WORKER", "Budgets", "build_split", "run_memo_chunk", "splits_well",
           "wanted"]

PARTS_PER_WORKER = 4
"""The split made here asks for about this many parts per worker (a cut of the tree
gives at least the first item's options): enough to balance two workers' loads on
queens and Langford pairs, few enough that little is solved twice."""

TOTALS = ("nodes", "updates", "hits", "memos", "good_memos", "splits")
"""The statistics of the parts' searches that add up into the run's."""


@dataclasses.dataclass(frozen=True)
class Budgets:
    """What a worker's memoized searches are bounded by: ``deadline`` (``time.time()``,
    None: none), ``max_zdd_nodes`` and ``max_memory`` (per part), ``parts`` (independent
    parts, [`dlx.products`][]), and ``keep`` (the parts' set, else their counts)."""

    deadline: float | None
    max_zdd_nodes: int
    max_memory: int
    parts: bool
    keep: bool


def wanted(request: SearchRequest) -> bool:
    """Whether a memoized request is to run split (``executor``, ``workers`` or
    ``split`` given)."""
    return request.executor is not None or request.workers is not None \
        or request.split is not None


# ----- the worker's side -------------------------------------------------------------------


def run_memo_chunk(digest: str, payload: bytes | None, what: str, forced: list[list[int]],
                   backend: str, budgets: Budgets) -> Any:
    """A worker's task: the memoized search of the problem once per list of ``forced``
    options, in turn, until one is stopped. Returns each part's [`dlx.MemoStats`][]
    (``solutions``: its exact count), the diagram of the union of their sets in the
    store's order (``(root, opt, lo, hi)``; None unless ``budgets.keep`` and all
    complete), and (process id, CPU seconds); ``_MISSING`` when this worker does not
    have the problem and no ``payload`` came. (``what`` is ``"memo"``.)"""
    problem = _cached(digest, payload)
    if problem is None:
        return _MISSING
    cpu = time.process_time()
    rows: list[MemoStats] = []
    union, whole = None, True
    for f in forced:
        timeout = None
        if budgets.deadline is not None:
            timeout = budgets.deadline - time.time()
            if timeout <= 0:
                rows.append(MemoStats(status=Status.TIMEOUT, backend=backend))
                whole = False
                break
        request = SearchRequest("memo", forced=tuple(f), timeout=timeout, backend=backend,
                                memo=True, max_zdd_nodes=budgets.max_zdd_nodes,
                                max_memory=budgets.max_memory, parts=budgets.parts)
        found, stats = build(problem, request, budgets.keep)
        rows.append(stats)
        if stats.status.stopped:
            whole = False
            break
        if budgets.keep and isinstance(found, SolutionSet):
            union = found.canonical() if union is None else union | found
    diagram = union._exported() if whole and union is not None else None
    return rows, diagram, (os.getpid(), time.process_time() - cpu)


# ----- the driver ---------------------------------------------------------------------------


def splits_well(problem: Any, request: SearchRequest) -> bool:
    """The chooser's test ([`dlx.kinds.choose`][]) on a probe of [`PROBE_MAX`][] memoized
    nodes: True when more than [`NO_GOOD`][] of its decided signatures came to nothing
    (queens, Langford pairs: the parts then share little); False when few did (domino
    boards: a subproblem met in many parts would be solved in each), or the probe ended
    the search, or its first tables do not fit ``max_memory``."""
    data = memo_input(problem)
    kernel = get_backend(request.backend, len(data.items) + data.n_items).memo()
    run = MemoRun(kernel, data, MemoStats(), request.max_zdd_nodes, problem_links(problem),
                  False, request.max_memory)
    if run.state is None or run.over_memory() or run.advance(PROBE_MAX) == COMPLETE:
        return False
    decided, none = run.no_good()
    return decided > 0 and none / decided > NO_GOOD


def _warm(problem: Any, request: SearchRequest, backend: str) -> None:
    """The memoized kernel (and, for a set, the set algebra) loaded here, so that forked
    workers inherit them (numba: no compile, no cache read, per worker)."""
    if backend == "python":
        return
    data = memo_input(problem)
    kernel = get_backend(backend).memo(request.parts)
    MemoRun(kernel, data, MemoStats(), links=problem_links(problem),
            parts=request.parts).advance(1)
    store = store_for(problem.matrix, backend)
    with store.lock:  # (a raw node: see dlx.zdd_store.Store.gc)
        node = store.family([[k] for k in range(min(problem.matrix.n_options, 2))])
        store.import_diagram(*store.export(node))
        store.count(node)


def build_split(problem: Any, request: SearchRequest, keep: bool,
                on_finish: Callable[[SearchStats], None] | None = None
                ) -> tuple[Any, MemoStats]:
    """[`dlx.memo.build`][] on many cores (see the module): the set (``keep``) or the
    exact count, and the run's stats (nodes, updates, hits, memos: the parts' totals and
    the nodes above the cut; ``zdd_nodes``: the set's canonical diagram, for a count the
    largest part's); None with the stats when a part was stopped. ``on_finish`` is told
    the stats at the end, Ctrl-C included (``INTERRUPTED``)."""
    backend = get_backend(request.backend, NEVER).name
    workers = request.workers or getattr(request.executor, "_max_workers", None) \
        or os.cpu_count() or 1
    if request.split is None and not splits_well(problem, request):
        return build(problem, dataclasses.replace(request, executor=None, workers=None),
                     keep, on_finish)
    matrix = problem.matrix
    split = request.split or split_problem(matrix.links, matrix.digest,
                                           parts=PARTS_PER_WORKER * workers, probes=4)
    return _Run(problem, request, split, backend, keep).run(workers, on_finish)


class _Run:
    """One split memoized search: its parts sent, their answers gathered."""

    def __init__(self, problem: Any, request: SearchRequest, split: Split, backend: str,
                 keep: bool) -> None:
        self.problem, self.request, self.split, self.keep = problem, request, split, keep
        self.stats = MemoStats(backend=backend)
        self.stats.nodes = split.nodes_above
        self.start = time.perf_counter()
        self.done = 0
        self.cpu: dict[int, float] = {}
        self.store = store_for(problem.matrix) if keep else None
        self.union: SolutionSet | None = None
        """The union of the parts' sets so far (a set: a root of the store's gc)."""

    def run(self, workers: int, on_finish: Callable[[SearchStats], None] | None
            ) -> tuple[Any, MemoStats]:
        request, split, stats = self.request, self.split, self.stats
        timeout = request.timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        budgets = Budgets(None if timeout is None else time.time() + timeout,
                          request.max_zdd_nodes, request.max_memory, request.parts, self.keep)
        groups = chunks(split, range(len(split)), split.estimate / (PARTS_PER_WORKER * workers))
        groups.sort(key=lambda g: -sum(split[k].estimate for k in g))  # biggest first
        runner = None
        try:
            if groups:
                if request.executor is None:
                    _warm(self.problem, request, stats.backend)
                runner = _Runner(self.problem, split, request.executor, request.workers,
                                 stats.backend, 3)
                self._report()
                for n, out in as_finished(runner, split, groups, "memo", budgets,
                                          run_memo_chunk, deadline):
                    if not self._gathered(len(groups[n]), *out):
                        break
                else:
                    if self.done < len(split):
                        stats.status = Status.TIMEOUT  # the deadline passed
        except KeyboardInterrupt:
            stats.status = Status.INTERRUPTED
            stats.seconds = time.perf_counter() - self.start
            if on_finish is not None:
                on_finish(stats)
            raise
        finally:
            if runner is not None:
                runner.close()
        return self._end(on_finish)

    def _gathered(self, n: int, rows: list[MemoStats], diagram: Any,
                  cpu: tuple[int, float]) -> bool:
        """A chunk of ``n`` parts came back: its totals added; False when a part was
        stopped (the run stops)."""
        stats = self.stats
        self.cpu[cpu[0]] = self.cpu.get(cpu[0], 0.0) + cpu[1]
        for row in rows:
            for name in TOTALS:
                setattr(stats, name, getattr(stats, name) + getattr(row, name))
            stats.zdd_nodes = max(stats.zdd_nodes, row.zdd_nodes)
            stats.max_level = max(stats.max_level, row.max_level)
            if row.status.stopped:
                stats.status, stats.bound = row.status, row.bound
                return False
            stats.solutions += row.solutions
            stats.backend = row.backend
        self.done += n
        if diagram is not None and self.store is not None:
            store = self.store
            with store.lock:
                part = SolutionSet._made(self.problem, store, store.add_ordered(*diagram),
                                         "auto")
            self.union = part if self.union is None else self.union | part
        self._report()
        return True

    def _report(self) -> None:
        progress = self.request.progress
        if progress is not None:
            progress(RunProgress(self.done, len(self.split), self.stats.solutions,
                                 self.stats.nodes, time.perf_counter() - self.start,
                                 None, dict(self.cpu)))

    def _end(self, on_finish: Callable[[SearchStats], None] | None) -> tuple[Any, MemoStats]:
        stats = self.stats
        stats.seconds = time.perf_counter() - self.start
        found: Any = None
        if not stats.status.stopped:
            stats.status = Status.COMPLETE
            found = stats.solutions
            if self.store is not None:
                found = self.union if self.union is not None else \
                    SolutionSet._made(self.problem, self.store, 0, "auto")
                stats.zdd_nodes = found.node_count
        if on_finish is not None:
            on_finish(stats)
        return found, stats
