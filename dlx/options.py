"""How an option names its items: plain names, and [`Colored`][] entries."""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, cast

import numpy as np

from .budget import NEVER
from .budget import as_index as _index
from .errors import (
    BoundError,
    ColorError,
    CostError,
    EmptyOptionError,
    InputError,
    ItemNameError,
    MatrixError,
    RepeatedItemError,
    UnknownItemError,
)

__all__ = ["Colored", "bound_arrays", "checked_csr", "cost_array", "encode_options", "hashable",
           "integer_array", "item_name", "matrix_csr", "option_lists", "unique_items"]

MAX_BOUND = 1 << 40
"""The largest upper bound of an item (far beyond any search)."""
MAX_TOTAL_COST = NEVER
"""The costs of all options together stay below this (the kernel's int64 registers)."""


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
    if a.dtype.kind == "u" and int(a.max()) < NEVER:
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
    if number is None or number < 0 or number >= NEVER:
        raise MatrixError(f"{name} must be a nonnegative integer, got {value!r}")
    return number


def _bound_pair(item: Hashable, bound: Any) -> tuple[int, int]:
    """``v`` or ``(u, v)`` as ``(u, v)``, or BoundError naming the item and the bound."""
    single = _index(bound)
    if single is not None:
        pair: tuple[int | None, int | None] = (single, single)
    elif isinstance(bound, (tuple, list)) and len(bound) == 2:
        pair = (_index(bound[0]), _index(bound[1]))
    else:
        raise BoundError(f"item {item!r}: bound {bound!r} is not an integer v or a pair "
                         "(u, v) of integers")
    u, v = pair
    if u is None or v is None:
        raise BoundError(f"item {item!r}: bound {bound!r} holds a value that is not an "
                         "integer")
    if u < 0:
        raise BoundError(f"item {item!r}: lower bound {u} is negative")
    if v < 1:
        raise BoundError(f"item {item!r}: upper bound {v} is less than 1 (no option "
                         "holding the item could be chosen)")
    if u > v:
        raise BoundError(f"item {item!r}: lower bound {u} exceeds upper bound {v}")
    if v > MAX_BOUND:
        raise BoundError(f"item {item!r}: upper bound {v} is beyond {MAX_BOUND}")
    return u, v


def bound_arrays(multiplicity: Any, primary: Sequence[Hashable],
                 secondary: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray] | None:
    """The lower and upper bounds of the primary items (int64, in item order) from a
    mapping ``item -> v or (u, v)``; None when every bound is 1..1 (an exact cover).
    BoundError names the item and the bound at fault: not a mapping, an unknown or
    secondary item, a bound that is not ``0 <= u <= v``, ``v >= 1``, integers."""
    if multiplicity is None:
        return None
    if not isinstance(multiplicity, Mapping):
        raise BoundError(f"multiplicity must be a mapping from primary items to bounds, "
                         f"got {multiplicity!r}")
    index = {name: k for k, name in enumerate(primary)}
    lower = np.ones(len(primary), dtype=np.int64)
    upper = np.ones(len(primary), dtype=np.int64)
    others = set(secondary)
    for item, bound in multiplicity.items():
        k = index.get(item)
        if k is None:
            if item in others:
                raise BoundError(f"item {item!r} is secondary: only primary items have "
                                 f"bounds (got {bound!r})")
            raise BoundError(f"multiplicity names {item!r}, which is not an item")
        lower[k], upper[k] = _bound_pair(item, bound)
    if (lower == 1).all() and (upper == 1).all():
        return None
    return lower, upper


def cost_array(costs: Any, n_options: int) -> np.ndarray | None:
    """The options' costs as int64, or None when there are none (or all are 0).
    CostError names the option and the value at fault: not one cost per option, or a
    cost that is not a nonnegative integer (whole floats are integers; NaN, infinities,
    fractions and non-numbers are refused), or costs summing to 2**62 or more."""
    if costs is None:
        return None
    if isinstance(costs, (str, bytes, Mapping)) or not isinstance(costs, Iterable):
        raise CostError(f"costs must be a sequence of one cost per option, got {costs!r}")
    values = costs.tolist() if isinstance(costs, np.ndarray) else list(costs)
    if len(values) != n_options:
        raise CostError(f"costs has {len(values)} entries for {n_options} options")
    out = []
    for k, value in enumerate(values):
        cost = _index(value)
        if cost is None:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise CostError(f"option {k}: cost {value!r} is not a number")
            number = float(value)
            if not math.isfinite(number):
                raise CostError(f"option {k}: cost {value!r} is not finite")
            if number != int(number):
                raise CostError(f"option {k}: cost {value!r} is not an integer (costs are "
                                "integers, as in DLX5: scale them)")
            cost = int(number)
        if cost < 0:
            raise CostError(f"option {k}: cost {value!r} is negative")
        out.append(cost)
    if sum(out) >= MAX_TOTAL_COST:
        raise CostError(f"costs sum to {sum(out)}, beyond {MAX_TOTAL_COST - 1}")
    if not any(out):
        return None
    return np.array(out, dtype=np.int64)


def unique_items(names: Iterable[Hashable], kind: str) -> list[Hashable]:
    """``names`` as a list of item names, or an InputError naming one that is not hashable
    or given twice (``kind``: which list, for the message)."""
    if isinstance(names, (bytes, int, float)) or not isinstance(names, Iterable):
        raise InputError(f"{kind} must be an iterable of item names, got {names!r}")
    out = [hashable(name, f"{kind} item") for name in names]
    seen: set[Hashable] = set()
    for name in out:
        if name in seen:
            raise RepeatedItemError(f"{kind} item {name!r} is listed twice")
        seen.add(name)
    return out


def encode_options(
    options: Sequence[list[Hashable]],
    primary: list[Hashable],
    secondary: list[Hashable],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Hashable]]:
    """Named options validated and numbered: CSR arrays of item numbers (primary items
    first, from 1) and of color ids (0: none), and the colors' names."""
    number = {name: k for k, name in enumerate(primary, 1)}
    n_primary = len(primary)
    number.update((name, k) for k, name in enumerate(secondary, n_primary + 1))
    color_id: dict[Hashable, int] = {}
    items: list[int] = []
    colors: list[int] = []
    indptr = [0]
    for k, opt in enumerate(options):
        if not opt:
            raise EmptyOptionError(f"option {k} has no items")
        start = len(items)
        for entry in opt:
            c = 0
            if isinstance(entry, Colored):
                color = hashable(entry.color, f"option {k}: color")
                if color is None:  # "no color" is written as the plain item
                    raise ColorError(f"option {k} gives item {entry.item!r} the color None; "
                                     "for no color, name the item alone")
                entry = entry.item
                c = color_id.setdefault(color, len(color_id) + 1)
            try:
                x = number[entry]
            except (KeyError, TypeError):
                raise UnknownItemError(f"option {k} names unknown item {entry!r}") from None
            if c and x <= n_primary:
                raise ColorError(f"option {k} gives a color to primary item {entry!r}")
            items.append(x)
            colors.append(c)
        if len(set(items[start:])) != len(items) - start:
            dup = next(x for x in items[start:] if items[start:].count(x) > 1)
            raise RepeatedItemError(f"option {k} names item {item_name(dup, primary, secondary)!r}"
                                    " more than once")
        indptr.append(len(items))
    return (np.array(indptr, dtype=np.int64), np.array(items, dtype=np.int64),
            np.array(colors, dtype=np.int64), list(color_id))


def item_name(x: int, primary: list[Hashable], secondary: list[Hashable]) -> Hashable:
    """The name of item number ``x`` (from 1, primary items first)."""
    return primary[x - 1] if x <= len(primary) else secondary[x - 1 - len(primary)]


def matrix_csr(matrix: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """A 0/1 matrix (rows options, columns items; any integer or bool dtype) as CSR:
    ``(indptr, columns, n_items)``; MatrixError names a ragged, non-2-D or non-0/1
    input, and the first entry that is not 0 or 1."""
    try:
        a = np.asarray(matrix)
    except (ValueError, TypeError) as e:  # ragged rows and the like
        raise MatrixError(f"expected a 2-D matrix of zeros and ones: {e}") from None
    if a.ndim != 2:
        raise MatrixError(f"expected a 2-D matrix, got {a.ndim} dimension(s) {a.shape}")
    if a.dtype != bool and not np.issubdtype(a.dtype, np.integer):
        raise MatrixError(f"expected an integer or bool matrix, got dtype {a.dtype}")
    if a.dtype != bool:
        bad = np.argwhere((a != 0) & (a != 1))
        if len(bad):
            r, c = (int(v) for v in bad[0])
            raise MatrixError(f"entry ({r}, {c}) is {a[r, c]}, not 0 or 1")
    rows, cols = np.nonzero(a)
    indptr = np.zeros(a.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=a.shape[0]), out=indptr[1:])
    return indptr, cols, a.shape[1]


def checked_csr(indptr: Any, indices: Any, n_items: int | None,
                secondary: Iterable[int] | None, names: Sequence[Hashable] | None
                ) -> tuple[list[Hashable], list[Hashable], np.ndarray, np.ndarray]:
    """The CSR front end checked, vectorized (no Python loop per entry): the primary and
    the secondary items' names (column numbers unless ``names``), ``indptr``, and each
    entry's item number 1..n_items (primary items first). MatrixError,
    UnknownItemError or RepeatedItemError name the entry, column or name at fault."""
    indptr = integer_array(indptr, "indptr")
    cols = integer_array(indices, "indices")
    if len(indptr) == 0 or indptr[0] != 0 or indptr[-1] != len(cols):
        raise MatrixError("indptr must start at 0 and end at len(indices)")
    if np.any(indptr[1:] < indptr[:-1]):
        k = int(np.flatnonzero(indptr[1:] < indptr[:-1])[0])
        raise MatrixError(f"indptr must not decrease: indptr[{k + 1}] = "
                          f"{int(indptr[k + 1])} < indptr[{k}] = {int(indptr[k])}")
    if n_items is None:
        n_items = int(cols.max(initial=-1)) + 1
    n_items = count_of(n_items, "n_items")
    if names is not None:
        try:
            names = list(names)
        except TypeError:
            raise MatrixError(f"names must be a sequence of item names, got "
                              f"{names!r}") from None
        if len(names) != n_items:
            raise MatrixError(f"{len(names)} names for {n_items} items")
        try:
            distinct = len(set(names))
        except TypeError:  # some name is not hashable: say which
            names = [hashable(x, "item name") for x in names]
            raise AssertionError("an unhashable name hashed") from None
        if distinct != n_items:
            unique_items(names, "names: the")  # raises, naming the one given twice
    bad = np.flatnonzero((cols < 0) | (cols >= n_items))
    rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    if len(bad):
        k = int(bad[0])
        raise UnknownItemError(f"option {rows[k]} names column {cols[k]}, "
                               f"not in range 0..{n_items - 1}")
    keys = np.sort(rows * n_items + cols)
    twice = np.flatnonzero(keys[1:] == keys[:-1])
    if len(twice):
        row, col = divmod(int(keys[twice[0]]), n_items)
        raise RepeatedItemError(f"option {row} names column {col} more than once")
    sec = unique_items(secondary or (), "secondary")
    for c in sec:
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
            raise UnknownItemError(f"secondary column {c!r} is not an integer")
        if not 0 <= c < n_items:
            raise UnknownItemError(f"secondary column {c!r} is not in range 0..{n_items - 1}")
    is_sec = np.zeros(n_items, dtype=bool)
    is_sec[[cast(int, c) for c in sec]] = True
    prim = np.flatnonzero(~is_sec)
    seco = np.flatnonzero(is_sec)
    number = np.empty(n_items, dtype=np.int64)  # column -> item number 1..n_items
    number[prim] = np.arange(1, len(prim) + 1)
    number[seco] = np.arange(len(prim) + 1, n_items + 1)
    label = list(range(n_items)) if names is None else list(names)
    items = number[cols]
    return ([label[c] for c in prim.tolist()], [label[c] for c in seco.tolist()], indptr,
            items)
