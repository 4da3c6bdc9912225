"""How an option names its items: plain names, and :class:`Colored` entries."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any, NamedTuple

import numpy as np

from .errors import InputError, ItemNameError, MatrixError

__all__ = ["Colored", "hashable", "integer_array", "option_lists"]


class Colored(NamedTuple):
    """An item of an option together with its color: ``Colored("X", "red")``.

    Only secondary items may be colored. Knuth writes this ``X:red`` in his text format.
    """

    item: Hashable
    color: Hashable


def hashable(name: Any, what: str) -> Hashable:
    """``name`` if it can be an item or color name (a dictionary key), else ItemNameError."""
    try:
        hash(name)
    except TypeError:
        raise ItemNameError(f"{what} {name!r} is not hashable") from None
    return name


def option_lists(options: Any) -> list[list[Hashable]]:
    """The options as lists of entries, or InputError naming the one that is not iterable."""
    if isinstance(options, (str, bytes)) or not isinstance(options, Iterable):
        raise InputError(f"options must be an iterable of options (iterables of item "
                         f"names), got {options!r}")
    out = []
    for k, option in enumerate(options):
        if isinstance(option, bytes) or not isinstance(option, Iterable):
            raise InputError(f"option {k} is not an iterable of item names: {option!r}")
        out.append(list(option))
    return out


def integer_array(value: Any, name: str) -> np.ndarray:
    """A 1-D array of integers as int64 (whole floats accepted), or MatrixError naming it."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError):
        raise MatrixError(f"{name} must be a 1-D array of integers") from None
    if a.ndim != 1:
        raise MatrixError(f"{name} must be a 1-D array of integers, got {a.ndim} dimensions")
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if a.dtype.kind == "f" and np.isfinite(a).all() and (a == np.round(a)).all():
        a = a.astype(np.float64)
        if np.abs(a).max() < 2.0**62:
            return a.astype(np.int64)
    if a.dtype.kind == "u" and int(a.max()) < 1 << 62:
        return a.astype(np.int64)
    if a.dtype.kind == "i":
        return a.astype(np.int64, copy=False)
    raise MatrixError(f"{name} must be a 1-D array of integers below 2**62, got dtype "
                      f"{a.dtype}" + (f" ({a[0]!r}...)" if a.dtype == object else ""))


def count_of(value: Any, name: str) -> int:
    """A nonnegative integer argument (``n_items``), or MatrixError naming it."""
    if isinstance(value, (bool, np.bool_)):
        raise MatrixError(f"{name} must be a nonnegative integer, got {value!r}")
    try:
        number = int(value) if isinstance(value, (int, np.integer)) or (
            isinstance(value, float) and math.isfinite(value) and value == int(value)) else None
    except (TypeError, ValueError):
        number = None
    if number is None or number < 0 or number >= 1 << 62:
        raise MatrixError(f"{name} must be a nonnegative integer, got {value!r}")
    return number
