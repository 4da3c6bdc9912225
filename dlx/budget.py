"""Budgets: how much a search may do, checked the same way by every public call.

A budget is a count (``limit``: solutions; ``max_nodes``: search nodes; ``workers``) or a
time (``timeout``, in seconds). [`count_budget`][] and [`time_budget`][] are the one
rule for each, used by ``dlx`` and by ``sudoku`` alike, so that a bad budget raises the
same [`dlx.ArgumentError`][] with the same message wherever it is given.

"No bound" is written ``None`` by a caller and [`NEVER`][] inside: a count no search
reaches and an int64 register holds, so that ``limit=2**70`` means "unbounded" on every
backend alike. Whole-number floats are counts too (``max_nodes=1e6``); other floats,
bools and strings are not. A time of infinity, or too large for a float, is no bound.
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any

import numpy as np

from .errors import ArgumentError, SearchStoppedError
from .status import Status

__all__ = ["NEVER", "as_index", "check_stopped", "count_budget", "time_budget"]

NEVER = 1 << 62
"""The count that means "no bound": beyond any search's nodes, solutions or costs, and
within the compiled kernels' int64 registers (their sums stay below 2**63)."""


def as_index(value: Any) -> int | None:
    """``value`` as an int if it is an integer (bools excluded: True is no count or
    option), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _whole(value: Any) -> int | None:
    """[`as_index`][], whole floats accepted too (``max_nodes=1e6``)."""
    number = value if type(value) is int else as_index(value)
    if number is None and isinstance(value, (float, np.floating)) and math.isfinite(value) \
            and value == int(value):
        return int(value)
    return number


def _shown(value: Any) -> str:
    """A value for a message: its repr, cut short if long, and its type."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def count_budget(value: Any, name: str, minimum: int = 1) -> int:
    """A count budget (``limit``, ``max_nodes``, ``workers``): None -> [`NEVER`][]; an
    integer (or whole float) of at least ``minimum``, clamped to [`NEVER`][]. Anything
    else raises [`dlx.ArgumentError`][] naming ``name`` and the value."""
    if value is None:
        return NEVER
    if type(value) is int and minimum <= value < NEVER:  # the common case, at once
        return value
    number = _whole(value)
    if number is None:
        raise ArgumentError(f"{name} must be an integer or None, got {_shown(value)}")
    if number < minimum:
        raise ArgumentError(f"{name} must be at least {minimum}, got {number}")
    return min(number, NEVER)


def time_budget(value: Any, name: str = "timeout") -> float | None:
    """A time budget in seconds: None, infinity or a number too large for a float -> None
    (no bound); a real number of at least 0 (not a bool, not NaN). Anything else raises
    [`dlx.ArgumentError`][] naming ``name`` and the value."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ArgumentError(f"{name} must be a number of seconds or None, got "
                            f"{_shown(value)}")
    try:
        seconds = float(value)
    except OverflowError:  # an int beyond 1e308: as unbounded as infinity
        number: Any = value
        seconds = math.inf if number > 0 else -math.inf
    if math.isnan(seconds) or seconds < 0:
        raise ArgumentError(f"{name} must be at least 0 seconds, got {value!r}")
    return None if math.isinf(seconds) else seconds


def check_stopped(stats: Any, call: str, request: Any) -> None:
    """The rule for budgets, one for every call that answers in one piece (``count``,
    ``first``, ``best``, ``solution_set``): raise [`dlx.SearchStoppedError`][] if the
    search whose ``stats`` these are was stopped by a budget or a bound, naming it
    (``max_nodes=1000 ran out``; ``request`` holds its value), with what was found so
    far in its ``stats``. A lazy search stops quietly instead, its status saying why."""
    if not stats.status.stopped:
        return
    bound = getattr(stats, "bound", "")  # the memoized search's: which bound stopped it
    if bound.startswith("products:"):
        raise SearchStoppedError(
            f"{call}: the set of independent parts takes more than "
            f"{int(bound[9:]):,} ZDD nodes without its product nodes: count it with "
            "count(memo=True, parts=True), or raise max_zdd_nodes", stats)
    name = bound or {Status.MAX_NODES: "max_nodes", Status.TIMEOUT: "timeout",
                     Status.MAX_MEMORY: "max_memory"}.get(stats.status, "")
    what = f"{name}={getattr(request, name)!r} ran out" if name else "interrupted"
    raise SearchStoppedError(
        f"{call}: {what} after {stats.nodes:,} nodes and {stats.solutions:,} solutions, "
        "before the answer was known (its .stats hold them; solutions(...) stops quietly "
        "instead)", stats)
