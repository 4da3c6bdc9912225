"""Feedback on long work, shared by the ``dlx`` and ``sudoku`` commands: one status line
on stderr, redrawn in place, with messages written above it.

[`Progress`][] draws ``1,234/49,158 puzzles  5,678/s  8 s left`` ([`Progress.update`][])
or any text ([`Progress.show`][]), at most ten times a second, from any thread; a thread
of its own can redraw a line once a second ([`Progress.follow`][]: the ``dlx`` command's
solutions, nodes, rate and Knuth's estimate of the tree explored, [`dlx.Search.explored`][]).
While one is open and enabled, the first compilation of the numba kernel in the process
is announced once (it takes seconds, once per machine: numba caches it).

Writing never fails: a stream that is closed or broken just shows nothing. No dependency
beyond the standard library.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from . import jit

__all__ = ["COMPILING", "STEADY", "WINDOW", "Progress", "RunProgress", "SearchLine", "duration",
           "left", "rate_text", "reporter"]

COMPILING = ("compiling the numba kernel (first use on this machine; later runs load it from "
             "numba's cache)...")
"""The one-time notice shown when the compiled kernel is being compiled."""


WINDOW = 1.0
"""Seconds over which [`Progress.update`][] measures the rate for the time left."""
STEADY = 1.5
"""The time left is shown once the rates of the last two windows differ by at most this
factor: not while the first work pays for a compilation (numba's first use), when the
rate so far promises hours."""


def rate_text(count: float, seconds: float, unit: str = "") -> str:
    """A rate as both commands print it, in the progress line and the summary alike:
    ``5,678/s`` or, with a ``unit``, ``5,678 puzzles/s``."""
    rate = count / seconds if seconds > 0 else 0.0
    return f"{rate:,.0f} {unit}/s" if unit else f"{rate:,.0f}/s"


def duration(seconds: float) -> str:
    """A duration as people read it: ``8 s``, ``3 min 04 s``, ``2 h 05 min``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def left(done: float, total: float, seconds: float) -> float | None:
    """Seconds left at the rate so far to go from ``done`` to ``total`` (of any unit, a
    fraction of a tree included), or None while there is no rate yet."""
    if done <= 0 or seconds <= 0 or total <= done:
        return None if done <= 0 or seconds <= 0 else 0.0
    return seconds * (total - done) / done


@dataclass
class RunProgress:
    """Where a search is, as every search's ``progress`` callback is told it: ``count``,
    ``solutions`` and ``solution_set`` (the memoized search, about five times a second),
    a distributed run (after each finished chunk) and ``solve_batch`` (between the
    kernel's slices). One record, one rule (`dlx.arguments.callable_arg`): a
    ``progress`` that is not callable is an [`dlx.ArgumentError`][] before any work.

    ``done`` of ``parts`` units of work are finished: subproblems of a distributed run,
    instances of a batch, 0 of 1 for a single search until it ends. ``left`` is an
    estimate of the seconds left (None while there is none). ``stats`` are the live
    statistics of a single search ([`dlx.MemoStats`][] for the memoized one: its
    ZDD nodes and hits), None for runs of many."""

    done: int
    parts: int
    solutions: int
    nodes: int
    seconds: float
    left: float | None = None
    cpu: dict[int, float] = field(default_factory=dict)
    """CPU seconds of search so far in each worker process (by process id): how evenly the
    work was shared, and what the run would take on cores of its own."""
    stats: Any = None

    @property
    def rate(self) -> float:
        """Search nodes per second so far (this run's own, resumed parts not counted)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        """One line for a terminal."""
        left = "?" if self.left is None else duration(self.left)
        return (f"{self.done:,}/{self.parts:,} parts, {self.solutions:,} solutions, "
                f"{self.rate:,.0f} nodes/s, {duration(self.seconds)} elapsed, ~{left} left")

    def __repr__(self) -> str:
        left = "None" if self.left is None else f"{self.left:.1f}"
        return (f"RunProgress(done={self.done}, parts={self.parts}, "
                f"solutions={self.solutions}, nodes={self.nodes}, "
                f"seconds={self.seconds:.2f}, left={left})")


def reporter(progress: Callable[[RunProgress], object] | None
             ) -> Callable[[Any], None] | None:
    """A single search's ``progress``, as [`dlx.slices.drive`][] calls it after each
    slice with the search's live stats: the one record, [`RunProgress`][] (0 of 1 done
    while the search runs, 1 of 1 once it has ended); None for None."""
    if progress is None:
        return None

    def report(stats: Any) -> None:
        progress(RunProgress(int(stats.status != RUNNING), 1, stats.solutions, stats.nodes,
                             stats.seconds, stats=stats))

    return report


RUNNING = 7
"""[`dlx.Status.RUNNING`][]'s value (this module needs nothing of the engine's)."""


class Progress:
    """A one-line status on ``stream`` (stderr), for ``total`` items of ``unit``.

    Use as a context manager: on exit the line is wiped. Disabled (``enabled=False`` or no
    stream), every call does nothing. Thread-safe: one lock guards the line.
    """

    def __init__(self, stream: TextIO | None, *, enabled: bool = True, total: int | None = None,
                 unit: str = "", interval: float = 0.1) -> None:
        self.stream = stream
        self.enabled = enabled and stream is not None
        self.total = total
        self.unit = unit
        self.interval = interval
        self.start = self.last = time.perf_counter()
        self._window = (self.start, 0)  # (time, done) where the rate's window began
        self._rates: list[float] = []  # the rates of the last two windows
        self.width = 0
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ----- the line -----------------------------------------------------------------------

    def update(self, done: int, force: bool = False) -> None:
        """Draw ``done/total unit  rate/s  time left`` (at most every ``interval`` s); the
        time left only once the rate is steady (`STEADY`), at the latest rate."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self.last < self.interval:
            return
        since, before = self._window
        if now - since >= WINDOW:
            self._rates = [*self._rates[-1:], (done - before) / (now - since)]
            self._window = (now, done)
        text = f"  {done:,}/{self.total:,} {self.unit}" if self.total is not None \
            else f"  {done:,} {self.unit}"
        text += "  " + rate_text(done, now - self.start)
        if self.total is not None and done < self.total and self.steady():
            text += f"  {duration((self.total - done) / self._rates[-1])} left"
        self.show(text, force=True)

    def took(self, done: int) -> str:
        """The end of a summary, in the status line's formats: ``in 2.34 s (5,678
        puzzles/s)`` for ``done`` items since the start."""
        seconds = time.perf_counter() - self.start
        return f"in {seconds:.2f} s ({rate_text(done, seconds, self.unit)})"

    def steady(self) -> bool:
        """Whether the last two windows' rates agree within `STEADY` (and are not 0)."""
        rates = self._rates
        return len(rates) == 2 and min(rates) > 0 and max(rates) <= STEADY * min(rates)

    def show(self, text: str, force: bool = False) -> None:
        """Draw ``text`` as the status line (at most every ``interval`` s unless ``force``)."""
        if not self.enabled:
            return
        with self._lock:
            now = time.perf_counter()
            if not force and now - self.last < self.interval:
                return
            self.last = now
            self._write("\r" + text.ljust(self.width))
            self.width = len(text)

    def clear(self) -> None:
        """Wipe the status line."""
        with self._lock:
            if self.width:
                self._write("\r" + " " * self.width + "\r")
                self.width = 0

    def note(self, message: str) -> None:
        """Write ``message`` on a line of its own, above the status line; also when the
        line is disabled (a failure to report, a summary): only a missing stream hides it."""
        with self._lock:
            self.clear()
            self._write(message + "\n")

    def _write(self, text: str) -> None:
        if self.stream is not None:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write(text)
                self.stream.flush()

    # ----- a line redrawn by a thread ------------------------------------------------------

    @contextlib.contextmanager
    def follow(self, text: Callable[[], str], interval: float = 1.0) -> Iterator[None]:
        """While in the block, a thread draws ``text()`` every ``interval`` seconds."""
        if not self.enabled:
            yield
            return

        def run() -> None:
            while not self._stop.wait(interval):
                self.show(text(), force=True)

        self._stop.clear()
        self._thread = threading.Thread(target=run, daemon=True, name="dlx-progress")
        self._thread.start()
        try:
            yield
        finally:
            self._stop.set()
            self._thread.join()
            self._thread = None

    # ----- the compile notice --------------------------------------------------------------

    def _compiling(self) -> None:
        self.note(COMPILING)

    def __enter__(self) -> Progress:
        if self.stream is not None:  # the notice as a note: in a pipe too (issue 43)
            jit.on_compile(self._compiling)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.stream is not None:
            jit.on_compile(self._compiling, remove=True)
        self.clear()


class SearchLine:
    """The ``dlx`` command's status line for a search (anything with live ``stats``; an
    ``explored()`` method adds Knuth's estimate): solutions, nodes, nodes per second over
    the last second, and, for a [`dlx.Search`][], the share of the tree explored and
    the time left at that pace. Called by [`Progress.follow`][]'s thread."""

    def __init__(self, search: object) -> None:
        self.search = search
        self.nodes = 0
        self.time = time.perf_counter()

    def __call__(self) -> str:
        stats = self.search.stats  # type: ignore[attr-defined]
        now = time.perf_counter()
        rate = (stats.nodes - self.nodes) / max(now - self.time, 1e-9)
        self.nodes, self.time = stats.nodes, now
        text = (f"{stats.solutions:,} solutions, {stats.nodes:,} nodes, {rate:,.0f} nodes/s, "
                f"{stats.seconds:.0f} s")
        explored = getattr(self.search, "explored", None)
        if callable(explored):
            fraction = explored()
            text += f", {100 * fraction:.1f}% explored"
            rest = left(fraction, 1.0, stats.seconds)
            if rest is not None and 0.001 <= fraction < 1:  # a first guess is no guess
                text += f", ~{duration(rest)} left"
        return text
