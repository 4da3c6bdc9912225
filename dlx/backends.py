"""Backends: where :func:`dlx.kernel.search` runs. The algorithm itself is never copied.

Every backend is made by :func:`specialize`: it re-creates the kernel's functions from
their own code objects in a namespace where a few global names are bound differently.

``python``
    the kernel over Python lists. ``choose`` scans ``LEN`` in C instead of walking the
    item list in Python. When every item has fewer than 128 options (Sudoku, queens,
    Langford pairs...) ``LEN`` is a ``bytearray`` with ``INACTIVE = 128`` and the choice
    is a handful of ``bytearray.find`` calls (memchr); otherwise ``LEN`` is a list and the
    choice is ``min`` then ``index``. Both pick Knuth's item: the first active primary
    item of minimum length.
``numba``
    the kernel compiled by numba over ``int64`` arrays (:mod:`dlx.compiled`), when numba
    is installed; compiled code is cached on disk.
``auto``
    numba when it is installed and the problem is large enough to repay the call overhead,
    else python. Every backend returns the same solutions in the same order with the same
    ``nodes`` and ``updates``; only the time differs.
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from . import kernel, kernel_x
from .links import Links

__all__ = ["BACKENDS", "Backend", "auto_takes_numba", "charge_python", "get_backend", "specialize"]

BACKENDS = ("auto", "python", "numba")

KERNEL_FUNCTIONS = ("cover", "uncover", "purify", "unpurify", "commit", "uncommit",
                    "choose", "search", "force", "unforce", "force_all", "search_batch")
"""The kernel's functions, callees before callers (the order numba compiles them in)."""


def specialize(
    overrides: dict[str, Any], wrap: Callable[[Callable], Callable] = lambda f: f
) -> types.SimpleNamespace:
    """The kernel's functions re-created over ``kernel``'s globals with ``overrides``.

    ``wrap`` is applied to each function (numba's ``njit`` for the compiled backend); a
    function named in ``overrides`` replaces the kernel's own.
    """
    namespace = dict(vars(kernel))
    namespace.update(overrides)
    for name in KERNEL_FUNCTIONS:
        if name not in overrides:
            f = getattr(kernel, name)
            namespace[name] = wrap(types.FunctionType(f.__code__, namespace, name))
    return types.SimpleNamespace(**{name: namespace[name] for name in KERNEL_FUNCTIONS},
                                 INACTIVE=namespace["INACTIVE"])


def _choose_min(LEN, RL, REG):
    """C3 over a list: ``min`` and ``index`` in C, restricted to the primary items."""
    if REG[kernel.SEED]:
        return kernel_list.choose_scan(LEN, RL, REG)
    end = REG[kernel.PRIMARY_END]
    if end == len(LEN):
        return LEN.index(min(LEN))
    return LEN.index(min(LEN[:end]), 0, end)


def _choose_find(LEN, RL, REG):
    """C3 over a bytearray: the first item of length 0, else of length 1, ... (memchr)."""
    if REG[kernel.SEED]:
        return kernel_bytes.choose_scan(LEN, RL, REG)
    end = REG[kernel.PRIMARY_END]
    v = 0
    while True:
        k = LEN.find(v, 1, end)
        if k >= 0:
            return k
        v += 1


kernel_list = specialize({"choose": _choose_min})
kernel_list.choose_scan = kernel.choose
kernel_bytes = specialize({"choose": _choose_find, "INACTIVE": 128})
kernel_bytes.choose_scan = specialize({"INACTIVE": 128}).choose


@dataclass(frozen=True)
class Backend:
    """A kernel, the array types it runs over, and how to copy them cheaply."""

    name: str
    search: Callable[..., int]
    inactive: int
    as_array: Callable[[np.ndarray], Any]  # pristine numpy int64 array -> backend array
    as_len: Callable[[np.ndarray], Any]  # the same for LEN
    copy: Callable[[Any], Any]  # a working copy of a backend array, for one search
    slice_seconds: float | None = None  # without a timeout, still return to Python this
    # often (a compiled kernel cannot see Ctrl-C); None: one call runs to the end
    tuples: Callable[[Links], Any] | None = None  # Algorithm X only: what the kernel gets
    # in place of COLOR (read-only), for problems without colors
    force_all: Callable[..., int] = kernel.force_all  # selects options before the search;
    # the kernel's own in Python by default, which works on every array type
    compiled_force: bool = False  # force_all is compiled: use it even without colors,
    # where the python backends compute the forced state with numpy instead


def as_int64(a: np.ndarray) -> np.ndarray:
    """A contiguous int64 copy of a pristine array (the compiled kernel takes no other)."""
    return np.array(a, dtype=np.int64, order="C")


def _copy_list(a):
    return a[:]


PYTHON_LIST = Backend("python", kernel_list.search, kernel.INACTIVE,
                      np.ndarray.tolist, np.ndarray.tolist, _copy_list,
                      force_all=kernel_list.force_all)
PYTHON_BYTES = Backend("python", kernel_bytes.search, 128, np.ndarray.tolist,
                       lambda a: bytearray(a.astype(np.uint8)), _copy_list,
                       force_all=kernel_bytes.force_all)


def _x(name: str, inactive: int) -> Callable[..., int]:
    """:mod:`dlx.kernel_x`'s ``name`` with ``INACTIVE`` re-bound, as :func:`specialize` does."""
    f = getattr(kernel_x, name)
    return types.FunctionType(f.__code__, {**vars(kernel_x), "INACTIVE": inactive}, f.__name__)


def _x_tuples(choose: Callable) -> Callable[[Links], Any]:
    return lambda links: (kernel_x.option_others(links), choose)


PYTHON_X_LIST = replace(PYTHON_LIST, search=_x("search", kernel.INACTIVE),
                        force_all=_x("force_all", kernel.INACTIVE),
                        tuples=_x_tuples(_choose_min))
PYTHON_X_BYTES = replace(PYTHON_BYTES, search=_x("search", 128), force_all=_x("force_all", 128),
                         tuples=_x_tuples(_choose_find))
PYTHON_BACKENDS = (PYTHON_X_BYTES, PYTHON_X_LIST, PYTHON_BYTES, PYTHON_LIST)
"""The python backends, fastest first: Algorithm X unrolled (no colors), then the kernel
as written; each over a bytearray ``LEN`` (every item has < 128 options) or a list."""


_NUMBA_MIN_NODES = 5_000
"""Below this many nodes in the problem, ``auto`` keeps to python unless this process has
loaded the compiled kernel already. Loading it costs ~0.6 s once per process (0.3 s to
import numba, 0.2 s for numba's set-up and its disk cache; 3-4 s to compile on a machine's
first use), which a small problem rarely repays: python finds one Sudoku in ~1 ms. Size
predicts search time poorly (python: first() of the 14,000-node 6x10 pentomino board
0.15 s, count() of the 800-node queens12 2 s), so this is a compromise that spares small
problems the load; the ski-rental rule below mends it when they come by the thousand."""

_NUMBA_LOADED_MIN_NODES = 64
"""With the kernel loaded, ``auto`` takes numba from this size on: below it python is a
few µs faster (numba's fixed cost is ~10 µs a search: array copies and the call); above,
numba wins, e.g. 70 µs against 1.4 ms for one Sudoku, 20-50x per search-tree node."""


_AUTO_PYTHON_SECONDS = 1.0
"""Once the searches that ``auto`` gave to python have taken this long in all, ``auto``
takes numba (loading it costs ~0.6 s, ~4 s the first time on a machine), as if it were
loaded: a program that solves many small problems one by one (a loop over Sudokus) then
pays at most about twice what the best choice made in advance would have cost, the
ski-rental rule, instead of staying 10x slower for ever."""

_python_seconds = 0.0  # the searches auto gave to python so far, in seconds


def charge_python(seconds: float) -> None:
    """Count ``seconds`` of a search that ``auto`` gave to the python backend."""
    global _python_seconds
    _python_seconds += seconds


def auto_takes_numba(n_nodes: int, min_nodes: int = _NUMBA_MIN_NODES) -> bool:
    """``auto``'s choice for a search of ``n_nodes`` nodes (a batch: instances x nodes):
    numba once this process has loaded it (for all but tiny problems), for work of at
    least ``min_nodes`` that repays loading it, or once python has had its share."""
    compiled = sys.modules.get("dlx.compiled")
    if compiled is not None and compiled.is_loaded():
        return n_nodes >= _NUMBA_LOADED_MIN_NODES
    if n_nodes < _NUMBA_LOADED_MIN_NODES:
        return False
    return ((n_nodes >= min_nodes or _python_seconds >= _AUTO_PYTHON_SECONDS)
            and numba_available())


@functools.cache
def numba_available() -> bool:
    """True when numba (the ``fast`` extra) and the compiled backend can be imported."""
    from importlib.util import find_spec

    return find_spec("numba") is not None and find_spec("dlx.compiled") is not None


def get_backend(
    name: str | Backend, n_nodes: int = 0, max_len: int = 0, colored: bool = True
) -> Backend:
    """The backend called ``name`` for a problem of ``n_nodes`` nodes whose longest item
    list has ``max_len`` options, with or without colors; ``auto`` decides with
    :func:`auto_takes_numba`. A Backend passes through unchanged (tests use it to pin
    one python kernel)."""
    if isinstance(name, Backend):
        return name
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")
    if name == "auto":
        name = "numba" if auto_takes_numba(n_nodes) else "python"
    if name == "python":
        return PYTHON_BACKENDS[(2 if colored else 0) + (max_len >= 128)]
    if not numba_available():
        raise ImportError("backend='numba' needs numba: pip install 'dancing-cover[fast]'")
    from .compiled import NUMBA, NUMBA_X

    return NUMBA if colored else NUMBA_X
