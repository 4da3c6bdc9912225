"""Checks of the arguments of the public calls other than the board and the alphabet
(those are [`sudoku.grid`][]'s): budgets, the backend, and the puzzles of a batch.

Every public call checks these first, before reading any board, and raises ArgumentError
naming the argument and the value given, so that no TypeError or plain ValueError from
the engine ever reaches the caller. The engine's own checks stay in place; these make the
Sudoku calls say the same thing for every backend and every entry point. Budgets follow
``dlx``'s one rule ([`dlx.count_budget`][], [`dlx.time_budget`][]): the same bad budget
gets the same message from both packages, raised here as [`sudoku.ArgumentError`][]
(which is also a [`dlx.ArgumentError`][]).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import dlx
from dlx import backend_names

from .errors import ArgumentError, culprit

__all__ = ["BACKENDS", "STRATEGIES", "backend_name", "count_budget", "engine_arguments",
           "puzzle_list", "strategy_name", "time_budget"]

BACKENDS = backend_names()
"""The ``backend`` names the engine takes: ``auto`` and its registered backends."""


def count_budget(value: Any, name: str, minimum: int = 1) -> int | None:
    """A count (``limit``, ``max_nodes``, ``clues``...) by [`dlx.count_budget`][]'s rule
    and message (an integer or whole float of at least ``minimum``, clamped to
    [`dlx.NEVER`][]), raised as [`sudoku.ArgumentError`][]; None stays None."""
    if value is None:
        return None
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


def backend_name(value: Any) -> str:
    """``backend``: one of [`BACKENDS`][]."""
    if not isinstance(value, str) or value not in BACKENDS:
        names = ", ".join(map(repr, BACKENDS))
        raise ArgumentError(f"backend must be one of {names}, got {culprit(value)}")
    return value


_UNBOUNDED = {name: {"backend": name, "max_nodes": None, "timeout": None} for name in BACKENDS}
"""The common case, checked once: a backend's name and no budget (one puzzle per call costs
~60 µs in all, so its checks must cost little)."""


def engine_arguments(backend: Any, max_nodes: Any, timeout: Any = None) -> dict[str, Any]:
    """``backend``, ``max_nodes`` and ``timeout`` checked, as keyword arguments of
    ``ExactCover.solve_batch`` (not to be changed: the common case is shared)."""
    if max_nodes is None and timeout is None and type(backend) is str \
            and backend in _UNBOUNDED:
        return _UNBOUNDED[backend]
    return {"backend": backend_name(backend),
            "max_nodes": count_budget(max_nodes, "max_nodes", 0),
            "timeout": time_budget(timeout)}


STRATEGIES = ("auto", "plain", "hard")
"""How [`sudoku.solve`][] and [`sudoku.count_solutions`][] search (see
[`sudoku.solver`][])."""


def strategy_name(value: Any) -> str:
    """``strategy``: one of [`STRATEGIES`][]."""
    if not isinstance(value, str) or value not in STRATEGIES:
        names = ", ".join(map(repr, STRATEGIES))
        raise ArgumentError(f"strategy must be one of {names}, got {culprit(value)}")
    return value


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
