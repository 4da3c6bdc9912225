"""Checks of the arguments of the public calls other than the board and the alphabet
(those are :mod:`sudoku.grid`'s): budgets, the backend, and the puzzles of a batch.

Every public call checks these first, before reading any board, and raises ArgumentError
naming the argument and the value given, so that no TypeError or plain ValueError from
the engine ever reaches the caller. The engine's own checks stay in place; these make the
Sudoku calls say the same thing for every backend and every entry point.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from numbers import Integral, Real
from typing import Any

from dlx import backend_names

from .errors import ArgumentError, culprit

__all__ = ["BACKENDS", "MAX_BUDGET", "STRATEGIES", "backend_name", "count_budget",
           "engine_arguments", "puzzle_list", "strategy_name", "time_budget"]

BACKENDS = backend_names()
"""The ``backend`` names the engine takes: ``auto`` and its registered backends."""

MAX_BUDGET = 2**62
"""Larger ``limit`` and ``max_nodes`` are clamped to this, which no search reaches: the
compiled kernel counts in int64, and 2**70 means "no bound" as much as None does."""


def count_budget(value: Any, name: str) -> int | None:
    """``limit`` or ``max_nodes``: None (no bound) or an int >= 1 (not a bool), clamped to
    :data:`MAX_BUDGET`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ArgumentError(f"{name} must be an int >= 1 or None, got {_shown(value)}")
    if value < 1:
        raise ArgumentError(f"{name} must be at least 1, got {value}")
    return min(int(value), MAX_BUDGET)


def time_budget(value: Any, name: str = "timeout") -> float | None:
    """``timeout``: None or a real number of seconds >= 0 (not a bool, not NaN); infinity,
    or a number too large for a float, is None (no bound)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ArgumentError(f"{name} must be a number of seconds >= 0 or None, got "
                            f"{_shown(value)}")
    try:
        seconds = float(value)
    except OverflowError:  # an int beyond 1e308: as unbounded as infinity
        number: Any = value  # a Real: compared as one (Real declares no <)
        seconds = math.inf if number > 0 else -math.inf
    if math.isnan(seconds) or seconds < 0:
        raise ArgumentError(f"{name} must be a number of seconds >= 0 or None, got {value}")
    return None if math.isinf(seconds) else seconds


def backend_name(value: Any) -> str:
    """``backend``: one of :data:`BACKENDS`."""
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
    return {"backend": backend_name(backend), "max_nodes": count_budget(max_nodes, "max_nodes"),
            "timeout": time_budget(timeout)}


STRATEGIES = ("auto", "plain", "hard")
"""How :func:`sudoku.solve` and :func:`sudoku.count_solutions` search (see
:mod:`sudoku.solver`)."""


def strategy_name(value: Any) -> str:
    """``strategy``: one of :data:`STRATEGIES`."""
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
