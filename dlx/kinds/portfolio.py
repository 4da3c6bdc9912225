"""The portfolio (``strategy="race"``): the plain search and the learning search of one
problem in turns, for one solution; the first to answer wins.

Which search wins depends on the problem (Langford pairs: plain DLX proves there is no
solution in seconds, the learner not in minutes; 200 queens: the learner finds one in
hundredths of a second, plain DLX not in minutes), and a caller cannot know in advance.
Both kernels resume from their arrays at a slice boundary (their ``begin`` returns a
[`dlx.slices.Step`][]), so one [`dlx.slices.drive`][] runs both, turn by turn, in one
thread:

* the schedule is a fair race with a lead for the plain search. The plain search runs
  alone for its first [`HEAD_START`][] seconds (an easy problem ends there, and the
  learner's arrays are never made), and keeps that lead: the learner's turn comes when it
  has had [`HEAD_START`][] less CPU time than the plain search (``time.thread_time``:
  fair on a loaded machine). A turn is one slice of a kernel, sized by its own
  [`dlx.slices.Slices`][] to take about [`TURN_SECONDS`][] (doubling from a small first
  slice: [`dlx.search.first_slice`][] nodes, [`LEARN_FIRST`][] conflicts). A turn costs
  a Python call, not a restart (each kernel resumes from its arrays), so turns can be
  short. With no knowledge of which search will win, no split does better in the worst
  case than halves: ``auto`` then takes about twice the better one's time, never more
  than the two together;
* but the plain search knows how far it has come: Knuth's estimate of the tree explored
  ([`dlx.Search.explored`][]), read after each of its turns from the end of its head
  start on, gives its time left, ``t (1 - e) / e`` after ``t`` seconds with ``e``
  explored. Once that is at most the learner's time so far, the plain search keeps the
  turn, up to [`PLAIN_AHEAD`][] times the learner's time: a search that proves there is
  no solution (Langford 13) ends at about 1.5 times its own time instead of 2. And while
  it has explored less than [`LOST`][] of its tree, it is lost there (200 queens: 1e-255
  after 10 ms) and the learner keeps the turn, up to [`PLAIN_AHEAD`][] times the plain
  search's time: the learner's wins then cost 1.5 times its time. Either way an estimate
  that misleads costs at most 3 times the better search's time, where the fair race
  costs 2. For a first solution the estimate is of the whole tree: an upper bound. It is
  read to a precision of [`ESTIMATE_FLOOR`][] (a few levels, not the 400 of 500 queens);
* the budgets count the total: ``max_nodes`` bounds the plain nodes plus the learner's
  decisions (each turn may use what is left), ``timeout`` the whole (read after each turn);
* the answer is a solution (status ``LIMIT``) or the proof that there is none
  (``COMPLETE``), from whichever search gives it first (``stats.answered_by``);
  ``CONFLICT`` for forced options that clash. ``stats.parts`` holds each search's stats
  (the one that did not answer stays ``RUNNING``: it was left, not ended).

[`dlx.request.check_request`][] makes this kind for ``strategy="race"`` with a limit of
one solution (``first``, ``solutions(1)``, ``count(1)``), on problems without bounds or
costs, in the order found, without restarts. Otherwise ``auto`` is the plain search: a
count or many solutions are an enumeration, which the learner does badly (each solution
is forbidden by a clause before the next is sought, so its clauses grow with the count)
and which a race would only end when one search had enumerated them all; multiplicities
and costs are Algorithm M's alone. Another kind of search joins by adding a
[`Part`][].
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..learning import LearningSearch
from ..request import SearchRequest
from ..search import Search, SearchStats, first_slice
from ..slices import Lazy, Slices, Step, drive
from ..status import Status
from . import Kind, OnFinish, Problem, learning, plain

__all__ = ["ANSWERS", "ESTIMATE_FLOOR", "HEAD_START", "KIND", "LEARN_FIRST", "LOST",
           "PLAIN_AHEAD", "TURN_SECONDS", "Part", "Portfolio"]

HEAD_START = 0.01
"""Seconds the plain search runs alone before the learner is made (easy problems), and the
lead in CPU time it keeps over the learner after that."""
TURN_SECONDS = 0.01
"""A turn is one slice of a kernel, of about this many seconds once its pace is known."""
LEARN_FIRST = 1
"""Conflicts in the learner's first slice (at most 16 decisions; then doubling, up to a
turn). Its decisions can be slow (word squares: 0.2 ms each), so the first is small."""
PLAIN_AHEAD = 2.0
"""Near its end by its own estimate, the plain search keeps the turn until it has had this
many times the learner's CPU time; lost in its tree, it gets the turn back when the learner
has had this many times its time."""
LOST = 1e-12
"""A plain search that has explored less than this share of its tree (by its estimate)
after its head start is lost in it: it finds a solution only by luck."""
ESTIMATE_FLOOR = LOST / 1000
"""The precision of the plain search's estimate of the tree explored."""


ANSWERS = (Status.COMPLETE, Status.LIMIT, Status.CONFLICT)
"""How a search of the portfolio answers: no solution, a solution, a clash."""


class Part:
    """One search of the portfolio, begun at its first turn: ``stats`` (live; ``seconds``
    the CPU time of its turns), its ``step`` once begun, and the ``slices`` of its turns."""

    def __init__(self, name: str, make: Callable[[], Search | LearningSearch],
                 first: int) -> None:
        self.name = name
        self._make = make
        self._first = first
        self.search: Search | LearningSearch | None = None
        self.stats = SearchStats()
        self.step: Step[list[int]] | None = None
        self.slices = Slices(None)

    def begin(self) -> Status | None:
        """Make the search and its step: None, or the status that decides it at once.
        A first slice of 0 is the plain search's first without a timeout
        ([`dlx.search.first_slice`][])."""
        self.search = search = self._make()
        seconds, self.stats = self.stats.seconds, search.stats
        self.stats.seconds = seconds
        first = self._first
        if first == 0 and isinstance(search, Search):
            first = first_slice(search.links)
        self.slices = Slices(TURN_SECONDS, first=first)
        self.step = search.begin()
        return self.stats.status if self.step is None else None


class Portfolio(Lazy):
    """The plain and the learning search of one problem in turns: a lazy search of one
    solution (iterate; ``count()``; live ``stats``, with ``answered_by`` and ``parts``)."""

    def __init__(self, problem: Problem, request: SearchRequest, on_finish: OnFinish) -> None:
        # Each search is made from the request as it is: the portfolio gives each step
        # the nodes left, and a learner's max_nodes before each of its steps.
        self._plain = Part("plain", lambda: plain.solutions(problem, request, None),
                           1 if request.timeout is not None else 0)
        self._learn = Part("learn", lambda: learning.solutions(problem, request, None),
                           LEARN_FIRST)
        self.stats = SearchStats(parts={"plain": self._plain.stats,
                                        "learn": self._learn.stats})
        self._max_nodes = request.max_nodes
        self._timeout = request.timeout
        self._deadline: float | None = None
        self._plain_explored = 1.0  # the plain search's estimate of its tree explored
        self._plain_left = float("inf")  # and of its seconds left
        self._run = drive(self._begin, self.stats, Slices(None), request.timeout, on_finish)

    def __repr__(self) -> str:
        return f"<dlx Portfolio {self.stats}>"

    def _begin(self) -> Step[list[int]] | None:
        """The plain search begun (its clash of forced options decides all), and the
        portfolio's step."""
        if self._timeout is not None:
            self._deadline = time.perf_counter() + self._timeout
        end = self._plain.begin()
        self.stats.backend = self._plain.stats.backend
        self.stats.parts["plain"] = self._plain.stats
        if end is not None:
            self._answered(self._plain, end)
            self.stats.status, self.stats.conflict = end, self._plain.stats.conflict
            return None
        return self._step

    def _turn(self) -> Part:
        """Whose turn it is: the plain search's in its head start; then, by its estimate,
        the learner's while the plain search is lost in its tree, the plain search's while
        it is near its end, each up to [`PLAIN_AHEAD`][] times the other's time; else the
        plain search's while it leads by less than its head start."""
        plain_, learn = self._plain, self._learn
        plain_seconds, learn_seconds = plain_.stats.seconds, learn.stats.seconds
        if plain_seconds < HEAD_START:
            return plain_
        if self._plain_explored < LOST:
            return learn if learn_seconds < PLAIN_AHEAD * plain_seconds else plain_
        if self._plain_left <= learn_seconds:
            return plain_ if plain_seconds < PLAIN_AHEAD * learn_seconds else learn
        return plain_ if plain_seconds < learn_seconds + HEAD_START else learn

    def _step(self, _budget: int) -> tuple[Status | None, int, list[int] | None]:
        """One turn: a slice of one search (the learner begun at its first), at most the
        nodes left of ``max_nodes``; an answer ends the portfolio."""
        part = self._turn()
        started, cpu = time.perf_counter(), time.thread_time()
        end: Status | None = None
        found: list[int] | None = None
        ran = 0
        if part.step is None:
            end = part.begin()
            self.stats.parts[part.name] = part.stats
        step, search = part.step, part.search
        if step is not None:
            left = self._max_nodes - self.stats.nodes
            if isinstance(search, LearningSearch):  # its decisions, at most what is left
                search.max_nodes = part.stats.nodes + left
            end, ran, found = step(min(part.slices.nodes, left))
        now = time.perf_counter()
        part.stats.seconds += time.thread_time() - cpu  # (auto's python time: charged by
        # each search's handover, which may also move it to numba: dlx.registry.handover)
        if isinstance(search, Search) and end is None and part.stats.seconds >= HEAD_START:
            self._plain_explored = explored = search.explored(ESTIMATE_FLOOR)
            self._plain_left = (part.stats.seconds * (1 - explored) / explored if explored
                                else float("inf"))
        part.slices.ran(ran, now - started,
                        None if self._deadline is None else self._deadline - now)
        self._sum()
        if end in ANSWERS:
            self._answered(part, end)
        elif self.stats.nodes >= self._max_nodes:
            end = Status.MAX_NODES
        return end, 0, found

    def _answered(self, part: Part, end: Status) -> None:
        """``part`` answered: a solution (LIMIT), none (COMPLETE), a clash (CONFLICT)."""
        part.stats.status = end
        self.stats.answered_by = part.name

    def _sum(self) -> None:
        """The portfolio's counts: the sums of its searches' (the deepest level of any)."""
        stats, plain_, learn = self.stats, self._plain.stats, self._learn.stats
        stats.backend = plain_.backend  # "python->numba" once auto moved it
        stats.nodes = plain_.nodes + learn.nodes
        stats.updates = plain_.updates + learn.updates
        stats.solutions = plain_.solutions + learn.solutions
        stats.max_level = max(plain_.max_level, learn.max_level)
        stats.conflicts = learn.conflicts
        stats.restarts = learn.restarts


KIND = Kind("portfolio", Portfolio)
