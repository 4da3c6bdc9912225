"""The checks of one argument each, shared by every entry point: a seed, an order, a
switch, a callback, forced options (one list, or a batch's lists as CSR arrays).

A bad value raises [`dlx.ArgumentError`][] (forced options
[`dlx.ForcedOptionError`][]) with the same message on every path and backend. Budgets
are [`dlx.budget`][]'s; the rules that tie a search's arguments together are
[`dlx.request.check_request`][]'s.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from .budget import NEVER, count_budget
from .budget import as_index as _index
from .errors import ArgumentError, ForcedOptionError

__all__ = ["ORDERS", "RENAMED", "STRATEGIES", "WORKERS_PER_CPU", "callable_arg", "check_csr",
           "check_forced", "check_forced_rows", "flag_arg", "max_workers", "order_arg",
           "seed_arg", "strategy_arg", "usable_cpus", "workers_arg"]

ORDERS = ("search", "cost")
"""``order``: solutions as the search finds them, or the cheapest first."""


STRATEGIES = ("auto", "plain", "learn", "race")
"""``strategy``, one name one meaning in both packages: ``auto`` (the default) lets the
library choose (``count()``: the plain or the memoized search, `dlx.kinds.choose`;
``sudoku``: the plain search, the learning one on large boards); ``plain`` is Knuth's
search and nothing else (his node counts); ``learn`` the learning search (clause
learning, `dlx.learning`; ``sudoku`` preprocesses first); ``race`` the plain and the
learning search in turns, the first to answer wins (`dlx.kinds.portfolio`)."""

RENAMED = {"hard": "learn"}
"""Old spellings that still work, with a DeprecationWarning: sudoku's ``hard``."""


def strategy_arg(value: Any, allowed: tuple[str, ...] = STRATEGIES) -> str:
    """``strategy``: one of ``allowed`` (a subset of [`STRATEGIES`][]); None is
    ``auto``; an old spelling (``RENAMED``) its new name, with a DeprecationWarning."""
    if value is None:
        return "auto"
    if type(value) is str and value in RENAMED and RENAMED[value] in allowed:
        warnings.warn(f"strategy={value!r} is now strategy={RENAMED[value]!r}",
                      DeprecationWarning, stacklevel=3)
        return RENAMED[value]
    if type(value) is not str or value not in allowed:
        names = ", ".join(map(repr, allowed))
        raise ArgumentError(f"strategy must be one of {names}, got {value!r}")
    return value


WORKERS_PER_CPU = 8
"""Local worker processes a run may ask for, per usable CPU: each loads the kernel
(~100 MB with numba), so more than a few per core only costs memory and start-up."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity on macOS and Windows
        return os.cpu_count() or 1


def max_workers() -> int:
    """The most local worker processes a run may ask for (``workers``, ``--workers``):
    ``WORKERS_PER_CPU`` per usable CPU."""
    return WORKERS_PER_CPU * usable_cpus()


def workers_arg(value: Any, name: str = "workers") -> int | None:
    """``workers``: None (not given) or a count of local processes, 1 to
    [`max_workers`][]."""
    if value is None:
        return None
    workers = count_budget(value, name, 1)
    bound = max_workers()
    if workers > bound:
        raise ArgumentError(f"{name} must be at most {bound} ({WORKERS_PER_CPU} per usable "
                            f"CPU on this machine), got {value!r}")
    return workers


def seed_arg(value: Any) -> int | None:
    """``seed``: None (Knuth's first-item choice) or any integer."""
    if value is None:
        return None
    seed = _index(value)
    if seed is None:
        raise ArgumentError(f"seed must be an integer or None, got {value!r}")
    return seed


def order_arg(value: Any) -> str:
    """``order``: one of [`ORDERS`][]."""
    if type(value) is not str or value not in ORDERS:
        raise ArgumentError(f"order must be 'search' or 'cost', got {value!r}")
    return value


def flag_arg(value: Any, name: str) -> bool:
    """A switch (``weighted``): True or False (numpy's bools too), nothing else."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ArgumentError(f"{name} must be True or False, got {value!r}")


def callable_arg(value: Any, name: str) -> Any:
    """A callback (``progress``): None or something callable, nothing else."""
    if value is not None and not callable(value):
        raise ArgumentError(f"{name} must be callable or None, got {value!r}")
    return value


def check_forced(forced: Any, n_options: int, dropped: Iterable[int],
                 where: str = "forced") -> list[int]:
    """Forced options as a list of distinct option indices, or ForcedOptionError naming
    the culprit: not an iterable of integers, out of range, dropped, or repeated. A
    repeated option is an error, not "forced once": an option can be chosen only once,
    and the kernels would see it clash with itself."""
    if forced is None:
        return []
    if isinstance(forced, (str, bytes)) or not isinstance(forced, Iterable):
        raise ForcedOptionError(f"{where} must be an iterable of option indices, "
                                f"got {forced!r}")
    out: list[int] = []
    seen: set[int] = set()
    gone = set(dropped)
    for value in forced:
        k = _index(value)
        if k is None:
            raise ForcedOptionError(f"{where}: option {value!r} is not an integer")
        if not 0 <= k < n_options:
            raise ForcedOptionError(f"{where}: option {k} is not in range "
                                    f"0..{n_options - 1}")
        if k in gone:
            raise ForcedOptionError(f"{where}: option {k} has no primary item and can be "
                                    "in no solution")
        if k in seen:
            raise ForcedOptionError(f"{where}: option {k} is forced twice")
        seen.add(k)
        out.append(k)
    return out


def check_forced_rows(forced: Any) -> tuple[np.ndarray, np.ndarray]:
    """``solve_batch``'s per-instance lists of forced options as CSR arrays (int64), or
    ForcedOptionError for one that is not a list of integers. Range, dropped options and
    repeats are checked by the kernel (status INVALID or CONFLICT), at no cost here."""
    if type(forced) is list and len(forced) == 1:  # a batch of one (a Sudoku)
        row = forced[0]
        if type(row) is list:
            try:
                row = np.array(row)  # fast when numpy reads
            except (ValueError, TypeError, OverflowError):  # ragged, or not numbers
                row = None  # the general way below names the fault
        if type(row) is np.ndarray and row.dtype == np.int64 and row.ndim == 1 \
                and row.flags.c_contiguous:  # as the kernel reads it (which never writes it)
            return np.array((0, len(row)), dtype=np.int64), row
    if isinstance(forced, (str, bytes)) or not isinstance(forced, Iterable):
        raise ForcedOptionError(f"forced must be an iterable of lists of option indices, "
                                f"got {forced!r}")
    rows = []
    for k, row in enumerate(forced):
        a = _int_row(row)
        if a is None:
            check_forced(row, NEVER, (), where=f"forced[{k}]")  # raises, naming the value
            raise ForcedOptionError(f"forced[{k}] is not a list of option indices: {row!r}")
        rows.append(a)
    if len(rows) == 1:  # a batch of one (a Sudoku): two array calls instead of four
        return np.array((0, len(rows[0])), dtype=np.int64), rows[0]
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=indptr[1:])
    indices = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    return indptr, indices


def _int_row(row: Any) -> np.ndarray | None:
    """One instance's forced options as int64, or None if they are not all integers."""
    if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
        return None
    try:
        a = np.asarray(row if isinstance(row, (list, tuple, np.ndarray)) else list(row))
    except (ValueError, TypeError):
        return None
    if a.ndim != 1 and a.size:
        return None
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if a.dtype.kind == "i" or (a.dtype.kind == "u" and int(a.max()) < NEVER):
        return np.ascontiguousarray(a, dtype=np.int64)  # what the compiled kernel takes
    return None


def check_csr(indptr: Any, indices: Any) -> tuple[np.ndarray, np.ndarray]:
    """Instances given as CSR arrays: contiguous int64, or ArgumentError naming the array."""
    arrays = []
    for name, value in (("indptr", indptr), ("indices", indices)):
        try:
            a = np.asarray(value)
        except (ValueError, TypeError):
            raise ArgumentError(f"{name} must be a 1-D array of integers") from None
        if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
            raise ArgumentError(f"{name} must be a 1-D array of integers, got "
                                f"{a.ndim}-D {a.dtype}")
        if a.dtype.kind == "u" and a.size and int(a.max()) >= NEVER:
            raise ForcedOptionError(f"{name} holds {int(a.max())}, out of range")
        arrays.append(np.ascontiguousarray(a, dtype=np.int64))
    p, i = arrays
    if len(p) == 0 or p[0] != 0 or p[-1] != len(i) or np.any(p[1:] < p[:-1]):
        raise ArgumentError("indptr must rise from 0 to len(indices)")
    return p, i
