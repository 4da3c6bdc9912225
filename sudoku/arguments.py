"""Checks of the arguments of the public calls other than the board and the alphabet
(those are [`sudoku.grid`][]'s): budgets, the backend, the strategy, a callback, and the
puzzles of a batch.

Every public call checks these first, before reading any board, and raises ArgumentError
naming the argument and the value given, so that no TypeError or plain ValueError from
the engine ever reaches the caller. The engine's own checks stay in place; these make the
Sudoku calls say the same thing for every backend and every entry point. Each rule is
``dlx``'s ([`dlx.count_budget`][], [`dlx.time_budget`][],
`dlx.arguments.strategy_arg`, `dlx.arguments.callable_arg`): the same bad value gets
the same message from both packages, raised here as [`sudoku.ArgumentError`][] (which is
also a [`dlx.ArgumentError`][]).

The engine's arguments of one call (``backend``, ``max_nodes``, ``timeout``,
``strategy``) are checked together, once, into one frozen value, an [`Engine`][], which
the modules that search take as it is.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, cast

import dlx
import dlx.command as _dlx_arguments
from dlx import NEVER, BackendName, backend_names

from .errors import ArgumentError, culprit

__all__ = ["BACKENDS", "STRATEGIES", "Engine", "ProgressCallback", "backend_name",
           "callable_arg", "count_budget", "engine", "puzzle_list", "strategy_arg",
           "time_budget"]

BACKENDS = backend_names()
"""The ``backend`` names the engine takes: ``auto`` and its registered backends."""

STRATEGIES = tuple(name for name in _dlx_arguments.STRATEGIES if name != "race")
"""``strategy``: ``dlx``'s names (`dlx.arguments.STRATEGIES`) that a Sudoku call takes,
each with its one meaning: ``auto`` (the default) lets the library choose (the plain
search; from 25x25 up, a head start of it, then the learning way), ``plain`` is Knuth's
search and nothing else, ``learn`` the learning way (the puzzle's problem reduced at its
root, then clause learning: [`sudoku.hard`][]). The old name ``hard`` is ``learn``,
with a DeprecationWarning (`dlx.arguments.RENAMED`)."""


def count_budget(value: Any, name: str, minimum: int = 1) -> int:
    """A count (``limit``, ``max_nodes``, ``clues``...) by [`dlx.count_budget`][]'s rule
    and message: None is [`dlx.NEVER`][] (no bound), an integer or whole float of at
    least ``minimum`` is itself, clamped to [`dlx.NEVER`][]; raised as
    [`sudoku.ArgumentError`][]."""
    if type(value) is int and minimum <= value < NEVER:  # the common case, at once
        return value
    try:
        return dlx.count_budget(value, name, minimum)
    except dlx.ArgumentError as e:
        raise ArgumentError(str(e)) from None


def time_budget(value: Any, name: str = "timeout") -> float | None:
    """A time in seconds by [`dlx.time_budget`][]'s rule and message (None, infinity or
    a number too large for a float: no bound), raised as [`sudoku.ArgumentError`][]."""
    try:
        return dlx.time_budget(value, name)
    except dlx.ArgumentError as e:
        raise ArgumentError(str(e)) from None


def backend_name(value: Any) -> BackendName:
    """``backend``: one of [`BACKENDS`][]."""
    if not isinstance(value, str) or value not in BACKENDS:
        names = ", ".join(map(repr, BACKENDS))
        raise ArgumentError(f"backend must be one of {names}, got {culprit(value)}")
    return cast(BackendName, value)


def strategy_arg(value: Any, stacklevel: int = 2) -> str:
    """``strategy``: one of [`STRATEGIES`][] by `dlx.arguments.strategy_arg`'s rule and
    message (None is ``auto``), raised as [`sudoku.ArgumentError`][]. An old name
    (``hard``) is its new one, with dlx's DeprecationWarning, pointed ``stacklevel``
    frames up (2: the caller of this function's caller)."""
    try:
        if type(value) is str and value in _dlx_arguments.RENAMED:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                name = _dlx_arguments.strategy_arg(value, STRATEGIES)
            for warning in caught:
                warnings.warn(warning.message, warning.category, stacklevel=stacklevel + 1)
            return name
        return _dlx_arguments.strategy_arg(value, STRATEGIES)
    except dlx.ArgumentError as e:
        raise ArgumentError(str(e)) from None


def callable_arg(value: Any, name: str) -> Any:
    """A callback (``progress``): None or something callable, by
    `dlx.arguments.callable_arg`'s rule and message, raised as
    [`sudoku.ArgumentError`][]."""
    try:
        return _dlx_arguments.callable_arg(value, name)
    except dlx.ArgumentError as e:
        raise ArgumentError(str(e)) from None


@dataclass(frozen=True, slots=True)
class Engine:
    """The engine's arguments of one call, checked ([`engine`][] makes them): what every
    module that searches takes, as it is.

    ``backend`` is one of [`BACKENDS`][]; ``max_nodes`` bounds each search's nodes
    ([`dlx.NEVER`][]: no bound); ``timeout`` is the call's time budget as given, in
    seconds (None: none), and ``deadline`` the ``time.perf_counter()`` at which it runs
    out: a call's searches share it (each search gets the time [`left`][Engine.left]);
    ``strategy`` is one of [`STRATEGIES`][]."""

    backend: BackendName = "auto"
    max_nodes: int = NEVER
    timeout: float | None = None
    deadline: float | None = None
    strategy: str = "auto"

    def left(self) -> float | None:
        """The seconds left before the deadline (at least 0), None without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())

    def expired(self) -> bool:
        """Whether the deadline has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def budgets(self, max_nodes: int | None = None) -> dict[str, Any]:
        """The keyword arguments of a ``dlx`` search (``solve_batch``, ``count``,
        ``solutions``): the backend, ``max_nodes`` (or the one given) and the time
        left."""
        return {"backend": self.backend,
                "max_nodes": self.max_nodes if max_nodes is None else max_nodes,
                "timeout": self.left()}

    def less(self, nodes: int) -> Engine:
        """These arguments with ``nodes`` already searched counted out of ``max_nodes``
        (itself when there is no bound, or nothing was searched)."""
        if nodes == 0 or self.max_nodes >= NEVER:
            return self
        return replace(self, max_nodes=max(0, self.max_nodes - nodes))

    def with_time(self, seconds: float | None) -> Engine:
        """These arguments with a deadline ``seconds`` from now (None: none): the
        deadline of a call, carried to another process as the seconds left."""
        if seconds is None:
            return replace(self, timeout=None, deadline=None)
        return replace(self, timeout=seconds, deadline=time.perf_counter() + seconds)


_COMMON = {(backend, strategy): Engine(backend_name(backend), NEVER, None, None, strategy)
           for backend in BACKENDS for strategy in STRATEGIES}
"""The common case, checked once: a backend's name, a strategy and no budget (one puzzle
a call costs ~30 µs in all, so its checks must cost little)."""


def engine(backend: Any = "auto", max_nodes: Any = None, timeout: Any = None,
           strategy: Any = "auto", *, stacklevel: int = 2) -> Engine:
    """The [`Engine`][] of a call: ``backend``, ``max_nodes``, ``timeout`` and
    ``strategy`` checked (ArgumentError naming the first that is wrong); the deadline is
    ``timeout`` seconds from now. ``hard`` warns ([`strategy_arg`][]) as from
    ``stacklevel`` frames above this function (2: the caller of the public call that
    called this; 3 when a helper of that call called this)."""
    if max_nodes is None and timeout is None and type(backend) is str \
            and type(strategy) is str:
        common = _COMMON.get((backend, strategy))
        if common is not None:
            return common
    name = backend_name(backend)
    nodes = count_budget(max_nodes, "max_nodes", 0)
    seconds = time_budget(timeout)
    chosen = strategy_arg(strategy, stacklevel=stacklevel + 1)
    deadline = None if seconds is None else time.perf_counter() + seconds
    return Engine(name, nodes, seconds, deadline, chosen)


def puzzle_list(puzzles: Any) -> list[Any]:
    """The puzzles of ``solve_many`` or ``count_many`` as a list: any iterable (a list, a
    tuple, a generator, a file's lines...) but not a single str or bytes. The items are not
    checked here: one that is not a str is that puzzle's ArgumentError."""
    if isinstance(puzzles, (str, bytes, bytearray)) or not isinstance(puzzles, Iterable):
        raise ArgumentError("puzzles must be an iterable of puzzle strings (a list, say), got "
                            f"{_shown(puzzles)}; for one puzzle use solve_string()")
    return list(puzzles)


def _shown(value: Any) -> str:
    """A value and its type, for a message: ``'9' (str)``, cut short if long."""
    return f"{culprit(value)} ({type(value).__name__})"


ProgressCallback = Callable[[dlx.RunProgress], object]
"""A ``progress`` callback: told a [`dlx.RunProgress`][] from time to time."""
