"""Exceptions and warnings raised for bad input (every one names its culprit), and the
exception for a budget that ran out before the answer was known."""

from __future__ import annotations

import warnings
from typing import Any

__all__ = [
    "ArgumentError",
    "BoundError",
    "CheckpointError",
    "ColorError",
    "CostError",
    "DLXFormatError",
    "DistributedError",
    "EmptyOptionError",
    "EmptySetError",
    "ForcedOptionError",
    "InputError",
    "ItemNameError",
    "MatrixError",
    "NoPrimaryItemWarning",
    "RepeatedItemError",
    "SearchStoppedError",
    "SetTooLargeError",
    "UnknownItemError",
    "ZDDFormatError",
    "warn_once",
]


class InputError(ValueError):
    """Base class: the problem given to the engine is not a valid exact-cover problem."""


class UnknownItemError(InputError):
    """An option names an item that is neither primary nor secondary."""


class ItemNameError(InputError):
    """An item or color name cannot serve: it is not hashable (names are dictionary keys)."""


class RepeatedItemError(InputError):
    """An item appears twice in one option, or twice in the item lists."""


class EmptyOptionError(InputError):
    """An option has no items at all."""


class ColorError(InputError):
    """A color is given on a primary item (colors belong to secondary items only), or a
    color is None (an item without a color is named alone, not ``Colored(x, None)``)."""


class BoundError(InputError):
    """A multiplicity is not a pair of bounds ``0 <= u <= v`` with ``v >= 1`` (integers),
    or is given for an item that is not primary; the message names the item and the
    bound."""


class CostError(InputError):
    """An option's cost is not a nonnegative integer (a number that is negative, NaN,
    infinite or fractional, or no number at all), or the costs do not match the
    options; the message names the option and the cost."""


class MatrixError(InputError):
    """A matrix is not a 2-D array of zeros and ones."""


class DLXFormatError(InputError):
    """A line of Knuth's text format is malformed; ``lineno`` is 1-based."""

    def __init__(self, message: str, lineno: int, line: str) -> None:
        super().__init__(f"line {lineno}: {message}: {line.strip()!r}")
        self.lineno = lineno
        self.line = line


class ZDDFormatError(InputError):
    """A ZDD text ([`dlx.SolutionSet.read`][]) cannot be read for this problem: a line
    is malformed, a node is named twice or before its children, an option is out of
    range, or the diagram holds a set that is not a solution. The message names the line
    (1-based) or the node."""


class ArgumentError(ValueError):
    """An argument of a call is out of its domain (a budget, a limit, a seed, a backend);
    the message names the argument and the value given. Raised alike by every entry
    point and every backend."""


class ForcedOptionError(ArgumentError):
    """A forced option is not an option of the problem: not an integer, out of range, or
    dropped (it has no primary item, so no solution can contain it)."""


class CheckpointError(ArgumentError):
    """A checkpoint file cannot serve this run: not a dlx checkpoint, unreadable, or made
    for another problem or another split of it (the message says which and names the
    file)."""


class EmptySetError(ArgumentError):
    """A draw from a set with no solution ([`dlx.SolutionSet.sample`][])."""


class SetTooLargeError(ArgumentError, OverflowError):
    """``len()`` of a [`dlx.SolutionSet`][] of more solutions than Python's ``len`` can
    return (past ``sys.maxsize``); ``count()`` gives the exact number."""


class DistributedError(RuntimeError):
    """A distributed run could not finish: a chunk of subproblems failed on every try, or
    an executor given by the caller broke. A checkpoint, if any, keeps what was done."""


class SearchStoppedError(RuntimeError):
    """A budget (``max_nodes`` or ``timeout``) ran out before a call that returns *the*
    answer (``ExactCover.count``, ``ExactCover.first``) could know it: the one rule for
    budgets (docs/design.md, "Budgets"). ``stats`` is the stopped search's
    [`SearchStats`][dlx.SearchStats] (its ``status``, and the ``solutions`` found so far): what
    was searched is never lost. Objects that carry their own status (a [`Search`][dlx.Search],
    a [`BatchResult`][dlx.BatchResult]) return partial results instead, and never raise this."""

    def __init__(self, message: str, stats: Any = None) -> None:
        super().__init__(message)
        self.stats = stats


class NoPrimaryItemWarning(UserWarning):
    """An option has only secondary items, so Algorithm X can never choose it.

    Knuth's DLX programs drop such options with a warning; so does this engine.
    The option keeps its index but never appears in a solution.
    """


_warned: set[str] = set()


def warn_once(message: str, stacklevel: int) -> None:
    """A RuntimeWarning about this process's set-up (numba that cannot cache or cannot
    run), given once per process: it is the same for every later search. ``stacklevel``
    counts from this function, as for ``warnings.warn``."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=stacklevel)
