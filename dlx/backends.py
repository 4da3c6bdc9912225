"""Backends: where :func:`dlx.kernel.search` runs. The algorithm itself is never copied.

``python``
    the kernel's own source over Python lists, with one substitution: the C3 choice is
    ``LEN.index(min(LEN))``, which scans the item array in C and picks the same item as
    Knuth's loop (the first active primary item of minimum length; see :mod:`dlx.links`).
``numba``
    the kernel's source compiled by numba over ``int64`` arrays (:mod:`dlx.compiled`),
    only when numba is installed; compiled code is cached on disk.
``auto``
    numba when it is installed and the problem is large enough to repay the call overhead,
    else python. Every backend returns the same solutions in the same order with the same
    ``nodes`` and ``updates``; only the time differs.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import kernel

__all__ = ["BACKENDS", "Backend", "get_backend"]

BACKENDS = ("auto", "python", "numba")


def _choose_python(LEN, RL, REG):  # noqa: N803
    """C3 for the python backend: one ``min`` in C instead of a loop over the items."""
    if REG[kernel.SEED]:
        return kernel.choose(LEN, RL, REG)
    return LEN.index(min(LEN))


def _rebind(func: types.FunctionType, **names: Any) -> types.FunctionType:
    """The same code object as ``func``, with some of its global names bound elsewhere."""
    namespace = dict(func.__globals__)
    namespace.update(names)
    return types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__)


@dataclass(frozen=True)
class Backend:
    """A kernel plus the array type it runs over."""

    name: str
    search: Callable[..., int]
    as_array: Callable[[Any], Any]  # numpy int64 array -> the backend's array type


PYTHON = Backend(
    "python",
    _rebind(kernel.search, choose=_choose_python),
    lambda a: a.tolist(),
)

_NUMBA_MIN_NODES = 5_000
"""Below this many nodes in the problem, ``auto`` keeps to python: a compiled call costs more."""


def numba_available() -> bool:
    """True when numba can be imported (the ``fast`` extra)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def get_backend(name: str, n_nodes: int = 0) -> Backend:
    """The backend called ``name``; ``auto`` decides from the problem's size."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")
    if name == "auto":
        name = "numba" if n_nodes >= _NUMBA_MIN_NODES and numba_available() else "python"
    if name == "python":
        return PYTHON
    if not numba_available():
        raise ImportError("backend='numba' needs numba: pip install 'dancing-cover[fast]'")
    from .compiled import NUMBA

    return NUMBA
