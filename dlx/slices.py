"""The time-sliced driver: a kernel run in calls of a bounded amount of work, the clock read
between them, for timeouts and for Ctrl-C (compiled code never sees it).

[`drive`][] is the one loop that does this, for every search that runs a kernel in
slices: the plain search ([`dlx.search.Search`][], and so the restarts), the compiled
batch ([`dlx.compiled.NumbaBackend.batch`][]), and the learning search. [`Slices`][]
says how much work the next call may do. A slice boundary is also where a search may
move to another backend ([`Handover`][]: ``auto``'s move from python to numba).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

from .budget import NEVER
from .status import Status

__all__ = ["COMPILED_SLICE_SECONDS", "TIMEOUT_SLICE_SECONDS", "Due", "Handover", "Lazy",
           "Slices", "Step", "drive", "projected"]

COMPILED_SLICE_SECONDS = 0.2
"""Without a timeout, a compiled kernel still returns to Python about this often, so that
Ctrl-C gets through."""

TIMEOUT_SLICE_SECONDS = 0.02
"""With a timeout, slices this short, so that the clock is read often."""

CUT_PAST = 0.002
"""A slice that a [`Handover`][] cuts to end where the move is due is given this many
seconds more (and a tenth), so that the pace's noise does not leave it just short,
wanting another slice of a few nodes."""

T = TypeVar("T")


class Slices:
    """The number of search nodes the next kernel call may run ([`nodes`][]).

    It follows the measured cost of a node, so that a slice takes about ``seconds`` and
    never runs past a deadline by more than about one node: the first slice is ``first``
    nodes (1 with a timeout, where the first node's cost is unknown), each later one at
    most twice the last, and at most what the time left allows at the last rate. Nodes
    cost anything from 50 ns (a Sudoku, compiled) to seconds (an item with a million
    options, in Python), so no fixed count serves. ``seconds=None``: no slices, one call
    runs to the end.
    """

    def __init__(self, seconds: float | None, first: int = 1024) -> None:
        self.seconds = seconds
        self.nodes = max(1, min(first, NEVER)) if seconds is not None else NEVER

    @classmethod
    def timed(cls, timed: bool, seconds: float | None, first: int) -> Slices:
        """The slices of a call with a timeout (``timed``: [`TIMEOUT_SLICE_SECONDS`][],
        from one node) or without (``seconds`` each, from ``first`` nodes)."""
        return cls(TIMEOUT_SLICE_SECONDS, first=1) if timed else cls(seconds, first=first)

    def ran(self, nodes: int, seconds: float, left: float | None = None) -> None:
        """Adapt after a slice that ran ``nodes`` nodes in ``seconds``; ``left``: seconds
        until the deadline, if there is one."""
        if self.seconds is None:
            return
        target = self.seconds if left is None else max(min(self.seconds, left), 0.0)
        if nodes <= 0:  # a slice that only returned (a solution): keep the pace
            return
        fit = int(target * nodes / seconds) if seconds > 0 else NEVER
        self.nodes = max(1, min(fit, 2 * nodes, NEVER))


class Outcome(Protocol):
    """What [`drive`][] keeps up to date: how the search ended, and its time."""

    status: Status
    seconds: float


O = TypeVar("O", bound="Outcome")

Step = Callable[[int], tuple[Status | None, int, T | None]]
"""One slice: ``step(budget)`` runs at most ``budget`` units of work (nodes; a learner's
conflicts) and returns ``(end, ran, found)``: the status that ends the search (None: go
on), the units it ran when it stopped at its budget (0 when it returned early, which
keeps the pace), and a value to yield (a solution) or None."""


Due = Callable[[float, "float | None", Callable[[], "float | None"]], bool]
"""A [`Handover`][]'s rule: ``due(seconds, left, remaining)`` says whether a search
moves now, from the seconds its handover's slices have run on the source, the seconds
``left`` to its deadline (None: none) and ``remaining()``, the seconds it projects the
search still needs there (None: no estimate; [`projected`][]). Called after every slice:
it should call ``remaining`` only when the cheaper tests leave the answer open."""


def _no_estimate() -> float | None:
    """``remaining`` for a search not yet begun: no estimate."""
    return None


def projected(seconds: float, explored: float) -> float | None:
    """The seconds a search that has run ``seconds`` still needs, if its tree is
    ``explored`` done and the rest costs as much a share: ``seconds (1 - e) / e``; None
    before any estimate (``explored`` 0, at the root) or after (1)."""
    if not 0.0 < explored < 1.0:
        return None
    return seconds * (1.0 - explored) / explored


def drive(begin: Callable[[], Step[T] | None], outcome: O, slices: Slices,
          timeout: float | None = None,
          on_finish: Callable[[O], None] | None = None,
          progress: Callable[[O], None] | None = None) -> Iterator[T]:
    """The one time-sliced loop: ``begin()`` sets the search up (None: it decided the
    search alone, having set ``outcome.status``: a conflict, an empty limit) and returns
    its [`Step`][]; each step gets ``slices.nodes`` units of work; between steps the
    clock is read, and the search ends with ``TIMEOUT`` once ``timeout`` seconds have
    passed since ``begin`` was called (a step that ended the search, with ``COMPLETE``
    say, keeps its status), else the slice is adapted ([`Slices.ran`][]). What a step
    found is yielded, after ``outcome.status`` is set if it ended the search.

    Ctrl-C (KeyboardInterrupt), in a step or in ``begin``, sets ``INTERRUPTED`` and goes
    on up. ``outcome.seconds`` is kept up to date, and ``on_finish(outcome)`` is called
    once the search has ended (not when its caller abandons it while RUNNING);
    ``progress(outcome)``, if given, after each step, or once if ``begin`` decided the
    search (a search's ``progress`` argument, [`dlx.progress.reporter`][]).

    How the searches plug in. The plain search's step is one call of ``kernel.search``
    to ``nodes + budget`` (end: ``COMPLETE``, ``LIMIT`` at the limit, ``MAX_NODES`` at
    ``max_nodes``; found: the solution the kernel stopped at). A restarting search's step
    is one whole run (no slices: ``Slices(None)``). The compiled batch calls
    ``search_batch`` once before it comes here, so that a batch done in one call pays
    nothing for the loop; its step is one more call (end: ``COMPLETE`` when it returns
    0), and at a ``TIMEOUT`` the batch sweeps the instances left with a node budget of 0.

    The learning search ([`dlx.learning.LearningSearch`][]) fits as it is: its
    ``begin`` returns None for a clash of the forced options (``CONFLICT``), a timeout
    of 0 (``TIMEOUT``) or a decision at level 0 (``COMPLETE``), and else makes its
    arrays, held by the step. Its budget is in conflicts (``Slices(SLICE_SECONDS,
    first=FIRST_SLICE)``, or [`Slices.timed`][]); the step sets ``STOP_CONFLICTS`` to
    ``CONFLICTS + budget`` and ``STOP_DECISIONS`` to ``DECISIONS + 16 * budget`` (at most
    ``max_nodes``), calls ``cdcl`` once, copies the registers into the stats, and
    returns: for ``FOUND`` the solution as found, with end ``LIMIT`` at the limit (else
    None, after setting ``BLOCK``: the clock is then read after a slice that found a
    solution too, which issue 32's R1 asks); for ``EXHAUSTED`` end ``COMPLETE``; for
    ``FULL`` ``(None, 0, None)`` after growing the arrays (a slice that only returned
    keeps the pace); at ``max_nodes`` decisions end ``MAX_NODES``; else ``ran`` = the
    conflicts of the slice (or its decisions / 16, if more, so that a slice without
    conflicts still grows). One change of behaviour comes with it: a learning search
    abandoned by its caller stays RUNNING and is not reported to ``on_finish``, as a
    plain one (it is now marked INTERRUPTED and reported).
    """
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    try:
        step = begin()
        if step is None:
            if progress is not None:
                progress(outcome)
            return
        budget = slices.nodes
        while True:
            t0 = time.perf_counter()
            end, ran, found = step(budget)
            now = time.perf_counter()
            outcome.seconds = now - start
            if end is None and deadline is not None and now >= deadline:
                end = Status.TIMEOUT
            if end is not None:
                outcome.status = end
            if progress is not None:
                progress(outcome)
            if found is not None:
                yield found
            if end is not None:
                return
            slices.ran(ran, now - t0, None if deadline is None else deadline - now)
            budget = slices.nodes
    except KeyboardInterrupt:
        outcome.status = Status.INTERRUPTED
        raise
    finally:
        outcome.seconds = time.perf_counter() - start
        if outcome.status is not Status.RUNNING and on_finish is not None:
            on_finish(outcome)


class Lazy:
    """A search whose solutions come off a generator, ``_run`` (most often [`drive`][]'s):
    iterate it for them, lazily; [`count`][] runs it to its end. Its ``stats`` count the
    solutions. The searches of every kind share this (a [`dlx.kinds.Solutions`][])."""

    _run: Iterator[list[int]]
    stats: Any

    def __iter__(self) -> Iterator[list[int]]:
        return self

    def __next__(self) -> list[int]:
        return next(self._run)

    def count(self) -> int:
        """Run to the end (or the limit, or a budget): the number of solutions found in
        all, those already iterated over included."""
        for _ in self:
            pass
        return int(self.stats.solutions)


class Handover:
    """A search's move from one backend to another at a slice boundary, going on from
    the same point: ``auto``'s move from python to numba ([`dlx.registry.handover`][]).

    [`watch`][] wraps a search's [`Step`][] on ``source``: it times each slice (CPU
    time of the thread), tells ``charge`` the seconds, and after a slice that leaves the
    search running, once ``due(seconds, left)`` says so (``seconds``: the slices so far;
    ``left``: seconds until the search's deadline, None without one), calls ``move()``:
    the search's step on ``target``, from its state converted, which then takes the old
    step's place. The rule is ``due``'s; this is only the mechanism, the same for every
    search that runs in slices (plain, learning, batch, restarts, portfolio).

    One handover may serve several searches in turn (a batch's instances, the runs of a
    restarting search): their slices add up, and a search made once the move is due (or
    made) starts on ``target`` ([`starting`][]). It is not shared between threads.
    """

    def __init__(self, source: Any, target: Any, due: Due,
                 charge: Callable[[float], None] | None = None,
                 by: Callable[[], float | None] | None = None) -> None:
        self.source = source
        self.target = target
        self.backend = source
        """``source``, then ``target`` once a search has moved (or started there)."""
        self.seconds = 0.0
        """CPU seconds of the slices run on ``source``."""
        self.route = f"{source.name}->{target.name}"
        """The backend a search that moved reports: ``"python->numba"``."""
        self._due = due
        self._charge = charge
        self._by = by
        """``by()``: the seconds on ``source`` at which the move will be due whatever the
        search (None: no such bound); a slice is cut to end there ([`watch`][])."""

    def starting(self) -> Any:
        """The backend a search made now starts on: ``target`` once moved, or once the
        slices of the searches before it make the move due; else ``source``."""
        if self.backend is not self.target and self.seconds > 0 and self._due(
                self.seconds, None, _no_estimate):
            self.backend = self.target
        return self.backend

    @property
    def moved(self) -> bool:
        """True once a search has moved to ``target``."""
        return self.backend is self.target

    @property
    def name(self) -> str:
        """The backend to report: ``source``'s name, ``"source->target"`` once moved
        (``"python->numba"``)."""
        return self.route if self.moved else self.source.name

    def watch(self, step: Step[T], move: Callable[[], Step[T]],
              deadline: float | None = None,
              explored: Callable[[], float] | None = None) -> Step[T]:
        """``step``, timed, until ``due`` asks for the move; then ``move()``'s step.
        ``deadline``: the search's, by ``time.perf_counter`` (None: none). At the pace of
        this search's slices so far, a slice is cut short to end about when the move is
        due by ``by`` (python's slices double up to 0.2 s: the move came up to that late,
        rent paid for nothing). ``explored``:
        the share of this search's tree already explored (Knuth's estimate,
        [`dlx.search.Search.explored`][]), for a search that runs to the end of its tree
        (a count): ``due`` may then weigh the seconds it projects on ``source``
        ([`projected`][])."""
        current = step
        own = 0.0  # this search's slices on source (the handover's seconds add up all)
        nodes = 0  # the units of work those slices ran, for the pace

        def remaining() -> float | None:
            return None if explored is None else projected(own, explored())

        def watched(budget: int) -> tuple[Status | None, int, T | None]:
            nonlocal current
            if current is not step:  # moved: the target's step, untimed
                return current(budget)
            nonlocal own, nodes
            by = None if self._by is None or nodes <= 0 else self._by()
            if by is not None and by > self.seconds:  # end the slice where the move is due
                reach = (by - self.seconds) * 1.1 + CUT_PAST  # a little past: one cut
                budget = max(1, min(budget, int(reach * nodes / own) + 1))
            t0 = time.thread_time()
            out = step(budget)
            seconds = time.thread_time() - t0
            own += seconds
            nodes += out[1]
            self.seconds += seconds
            if self._charge is not None:
                self._charge(seconds)
            left = None if deadline is None else deadline - time.perf_counter()
            if out[0] is None and self._due(self.seconds, left, remaining):
                current = move()
                self.backend = self.target
            return out

        return watched

