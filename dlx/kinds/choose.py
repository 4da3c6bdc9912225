"""The count that chooses its search: ``count()`` without ``memo``, on a problem and a
request that the memoized search ([`dlx.memo`][], Knuth's DLX6) accepts.

Memoization pays where remaining problems repeat (domino tilings: 880x faster on the
8 x 8 board, and the only way to count the larger ones) and costs 1.2-9x where they do
not (queens, Langford pairs, pentominoes: decisions.md, "Where memoization
pays"). The two are told apart from the search itself, in three stages, each search
resuming from its arrays (nothing is searched twice):

1. the plain search runs alone for [`PLAIN_FIRST`][] nodes (about 0.2 ms compiled;
   [`PLAIN_FIRST_PYTHON`][] on the python backend), in one call: a small problem ends
   there and pays nothing but a few microseconds of bookkeeping (nothing at all with at
   most 11 options: its tree has at most 2**11 nodes, so the plain search counts it
   outright);
2. then the memoized search begins, as a probe, in steps of [`PROBE`][] nodes. Once
   [`DECIDED`][] of its signatures are decided (stored, and not on the path of open
   levels), and after every step from there, the share of them that came to nothing is
   read: above [`NO_GOOD`][] (queens, Langford pairs, pentominoes: half or more) it is
   dropped at once; at most that share once [`CONFIRMED`][] are decided (domino boards:
   none), or at [`PROBE_MAX`][] nodes, the memoized search goes on to the end and
   answers (the probe's nodes are then its own first ones, not a cost);
3. else it is dropped (the probe is all it cost) and the plain search resumes where it
   stopped, to the end.

The memoized search is bounded: its tables are not grown past ``max_memory`` bytes
(default [`dlx.request.memory_default`][], a quarter of the machine's memory) nor its
diagram past ``max_zdd_nodes``; out of room, it is dropped as in stage 3 (its stats
``MAX_MEMORY``, ``bound`` naming the bound), and the plain search, which needs no more
memory than its links, resumes and answers. An explicit ``memo=True`` raises
[`dlx.SearchStoppedError`][] instead.

The count is the same either way (the memoized count exact past 2**64). ``stats``
follow the search under way and, at the end, are those of the search that answered
(``answered_by``: ``"plain"`` or ``"memo"``; a plain answer keeps the plain search's
nodes, the probe's are in ``parts["memo"]``); ``parts`` holds each search's own stats
(a memoized search dropped stays ``RUNNING``). ``timeout`` bounds the whole, read
between steps of either search. [`dlx.request.check_request`][] makes this kind for
``count()`` without ``memo``, limit, ``max_nodes`` (a budget of plain nodes), an explicit
``strategy`` or any option the memoized search refuses; ``memo=False`` is the plain
count, ``memo=True`` the memoized one.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from ..kernels.memo import COMPLETE, ZDD_BOUND
from ..memo import MEMORY_BOUND, MemoRun, MemoStats, problem_links, without_forced
from ..progress import reporter
from ..registry import get_backend, handover
from ..request import SearchRequest
from ..search import Search, SearchStats
from ..slices import (
    COMPILED_SLICE_SECONDS,
    TIMEOUT_SLICE_SECONDS,
    Handover,
    Slices,
    Step,
    drive,
)
from ..status import Status
from ..zdd import memo_input
from . import Kind, OnFinish, Problem, plain

__all__ = ["CONFIRMED", "DECIDED", "KIND", "NO_GOOD", "PLAIN_FIRST", "PLAIN_FIRST_PYTHON",
           "PROBE", "PROBE_MAX", "Chooser"]

PLAIN_FIRST = 4096
"""Plain nodes before the memoized search is tried: queens8 (1,223) and langford8 (2,789)
end before; the 8 x 8 domino board's 50 million plain nodes are cut after 0.2 ms."""
PLAIN_FIRST_PYTHON = 2048
"""The same on the python backend, whose plain nodes cost 40 times more: the 8 x 8 domino
board pays 3 ms of plain search before its memoized count (18 ms); langford8 (2,789
nodes) pays the probe, 1.06x."""
PROBE = 32
"""Memoized nodes in a step of the probe."""
DECIDED = 16
"""Decided signatures the probe waits for before it may drop the memoized search (a
domino board decides its first ones only after a path through half its cells)."""
CONFIRMED = 512
"""Decided signatures the probe waits for before it keeps the memoized search. A small
sample misleads: ``xcc_debruijn5`` has 12% of its first 43 signatures without solutions,
31% of its first 453 (its memoized count takes 1.2x the plain one), where every domino
board stays at 0% (decisions.md, "count()'s choice, confirmed")."""
PROBE_MAX = 2048
"""The probe decides after this many memoized nodes, however few signatures are decided
(none: dropped; else kept if at most [`NO_GOOD`][] of them came to nothing)."""
NO_GOOD = 0.25
"""The largest share of decided signatures without solutions for which the memoized
search goes on."""


class Chooser:
    """The count of ``problem`` under ``request`` by the plain or the memoized search,
    chosen as the module says: ``count()`` runs it to its end; ``stats`` are live."""

    def __init__(self, problem: Problem, request: SearchRequest, on_finish: OnFinish) -> None:
        self._problem, self._request, self._on_finish = problem, request, on_finish
        self._plain: Search = plain.solutions(problem, request, None)
        self._first = PLAIN_FIRST_PYTHON if self._plain.backend.name == "python" \
            else PLAIN_FIRST
        timed = request.timeout is not None
        self._plain_slices = Slices.timed(timed, self._plain.backend.slice_seconds,
                                          self._first)
        self._memo: MemoRun | None = None
        self._advance: Callable[[int], int] | None = None  # the memo's, watched by auto
        self._memo_slices = self._plain_slices  # made when the memoized search begins
        self._probing = False
        self._tried = False  # the memoized search was tried (kept or dropped)
        self._deadline: float | None = None
        self.stats = SearchStats(backend=self._plain.stats.backend,
                                 parts={"plain": self._plain.stats})

    def __repr__(self) -> str:
        return f"<dlx Chooser {self.stats}>"

    def count(self) -> int:
        """Run to the end: the number of solutions (with a budget run out: the count of
        the search under way so far, 0 for the memoized one)."""
        for _ in drive(self._begin, self.stats, Slices(None), self._request.timeout,
                       self._on_finish, reporter(self._request.progress)):
            pass
        return self.stats.solutions

    def _begin(self) -> Step[list[int]] | None:
        """The plain search begun (a clash of forced options decides all) and, without a
        timeout, its first [`PLAIN_FIRST`][] nodes run in one call (a small problem ends
        there); the chooser's step."""
        timeout = self._request.timeout
        if timeout is not None:
            self._deadline = time.perf_counter() + timeout
        step = self._plain.begin(counting=True)
        end = None
        if step is None:
            self._answered(self._plain.stats, "plain")
            end = self._plain.stats.status
        elif timeout is None:  # one call, without a turn of the driver's loop
            started = time.perf_counter()
            end, ran, _ = step(self._first)
            self._plain_ran(end, ran, time.perf_counter() - started, None)
        if end is not None or step is None:
            self.stats.status = end if end is not None else self._plain.stats.status
            return None
        return functools.partial(self._step, step)

    def _step(self, step: Step[list[int]],
              _budget: int) -> tuple[Status | None, int, list[int] | None]:
        """One step of the search under way: a slice of the plain search (at most up to
        [`PLAIN_FIRST`][] before the memoized one is tried), or of the memoized search
        (a probe's step until it decides)."""
        started = time.perf_counter()
        left = None if self._deadline is None else self._deadline - started
        if self._memo is not None:
            return self._memo_step(self._memo, started, left)
        budget = self._plain_slices.nodes
        if not self._tried:
            budget = min(budget, self._first - self._plain.stats.nodes)
        end, ran, _ = step(budget)
        self._plain_ran(end, ran, time.perf_counter() - started, left)
        return end, 0, None

    def _plain_ran(self, end: Status | None, ran: int, seconds: float,
                   left: float | None) -> None:
        """A slice of the plain search ran ``ran`` nodes in ``seconds`` (``left``: seconds
        to the deadline when it began): its answer, or the memoized search begun once
        it has run [`PLAIN_FIRST`][] nodes."""
        stats = self._plain.stats  # (auto's python time: charged by the search's handover)
        stats.seconds += seconds
        self._follow(stats)
        if end is not None:
            self._answered(stats, "plain")
            stats.status = end
            return
        self._plain_slices.ran(ran, seconds, None if left is None else left - seconds)
        if not self._tried and stats.nodes >= self._first:
            self._tried = True
            self._memo = self._memo_begin()

    def _memo_begin(self) -> MemoRun | None:
        """The memoized search of the problem left by the forced options, not yet run;
        None if they clash (the plain search, which took them first, says so)."""
        data = memo_input(self._problem)
        backend = get_backend(self._request.backend, len(data.items) + data.n_items)
        kernel = backend.memo()
        forced = list(self._request.forced)
        reduced = without_forced(data, forced) if forced else data
        if isinstance(reduced, int):
            return None
        stats = MemoStats(backend=kernel.name)
        self.stats.parts["memo"] = stats
        self._probing = True
        self._memo_slices = Slices(COMPILED_SLICE_SECONDS if self._deadline is None
                                   else TIMEOUT_SLICE_SECONDS, first=PROBE)
        request = self._request
        run = MemoRun(kernel, reduced[0], stats, request.max_zdd_nodes, None, False,
                      request.max_memory) if isinstance(reduced, tuple) else \
            MemoRun(kernel, data, stats, request.max_zdd_nodes,
                    problem_links(self._problem), False, request.max_memory)
        if run.over_memory():
            self._dropped(run, "max_memory")
            return None
        moving = handover(request.backend, backend)
        self._advance = run.advance if moving is None else self._watched(run, moving)
        return run

    def _watched(self, run: MemoRun, moving: Handover) -> Callable[[int], int]:
        """``run.advance``, its slices on python watched by ``auto``'s handover: once the
        move is due, the tables converted and numba's kernel from there on, as
        [`dlx.memo.MemoSearch`][] moves (a count the chooser gave the memo, in a fresh
        process: domino 14x14 ran 4.5 s on python to its end)."""
        status = [COMPLETE]

        def step(budget: int) -> tuple[Status | None, int, list[int] | None]:
            before = run.stats.nodes
            status[0] = run.advance(before + budget)
            end = Status.COMPLETE if status[0] == COMPLETE else \
                Status.MAX_MEMORY if status[0] in (ZDD_BOUND, MEMORY_BOUND) else None
            return end, run.stats.nodes - before, None

        def move() -> Step[list[int]]:
            run.move_to(moving.target.memo(), moving.route)
            return step

        watched = moving.watch(step, move, self._deadline)

        def advance(node_stop: int) -> int:
            watched(max(0, node_stop - run.stats.nodes))
            return status[0]

        return advance

    def _memo_step(self, run: MemoRun, started: float,
                   left: float | None) -> tuple[Status | None, int, list[int] | None]:
        """A slice of the memoized search (of at most [`PROBE`][] nodes while it is a
        probe); the probe decided: go on, or drop it for the plain search."""
        stats = run.stats
        budget = min(self._memo_slices.nodes, PROBE) if self._probing else \
            self._memo_slices.nodes
        before = stats.nodes
        status = (self._advance or run.advance)(before + budget)
        now = time.perf_counter()
        self._memo_slices.ran(stats.nodes - before, now - started,
                              None if left is None else left - (now - started))
        stats.seconds += now - started
        if status in (ZDD_BOUND, MEMORY_BOUND):  # out of room: the plain search resumes
            self._dropped(run, "max_zdd_nodes" if status == ZDD_BOUND else "max_memory")
            self._memo = None
            return None, 0, None
        if status == int(Status.COMPLETE):
            stats.solutions = run.count()
            stats.status = Status.COMPLETE
            self._answered(stats, "memo")
            return Status.COMPLETE, 0, None
        self._follow(stats)
        if self._probing:
            decided, no_good = run.no_good()
            if decided >= DECIDED or stats.nodes >= PROBE_MAX:
                if not decided or no_good > NO_GOOD * decided:
                    self._probing = False
                    self._memo = None  # dropped: the plain search resumes
                    self._follow(self._plain.stats)
                elif decided >= CONFIRMED or stats.nodes >= PROBE_MAX:
                    self._probing = False  # kept: it goes on to the end
        return None, 0, None

    def _dropped(self, run: MemoRun, bound: str) -> None:
        """The memoized search out of room (``bound``): its tables freed, its stats
        ``MAX_MEMORY``, and the plain search, which needs no more memory, resumes."""
        run.state = None
        run.stats.status = Status.MAX_MEMORY
        run.stats.bound = bound
        self._probing = False
        self._follow(self._plain.stats)

    def _follow(self, part: SearchStats) -> None:
        """The chooser's counts are those of the search under way."""
        stats = self.stats
        stats.nodes, stats.updates = part.nodes, part.updates
        stats.solutions, stats.max_level = part.solutions, part.max_level
        stats.backend = part.backend

    def _answered(self, part: SearchStats, name: str) -> None:
        """``part`` answered: its counts are the chooser's."""
        self._follow(part)
        self.stats.conflict = part.conflict
        self.stats.answered_by = name


def count(problem: Problem, request: SearchRequest,
          on_finish: OnFinish) -> tuple[int, SearchStats]:
    """The count, by the chooser; a problem of at most 11 options by the plain search
    outright: a node of its tree is a set of options, so it has at most ``2**11`` nodes
    and the plain search would answer within [`PLAIN_FIRST`][] (or
    [`PLAIN_FIRST_PYTHON`][]) anyway."""
    if problem.matrix.n_options < min(PLAIN_FIRST, PLAIN_FIRST_PYTHON).bit_length():
        search = plain.solutions(problem, request, on_finish)
        search.stats.answered_by = "plain"
        return search.count(), search.stats
    chooser = Chooser(problem, request, on_finish)
    return chooser.count(), chooser.stats


KIND = Kind("choose", plain.solutions, count)
