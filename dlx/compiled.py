"""The ``numba`` backend: :mod:`dlx.kernel` compiled by numba, lazily, cached on disk.

Nothing is copied: :func:`dlx.backends.specialize` re-creates the kernel's own functions
(its ``choose`` loop included, ``INACTIVE = 2**40``) and wraps each in ``numba.njit``, so
this backend runs the very algorithm of the python backend over ``int64`` arrays, with the
same solutions, order, ``nodes`` and ``updates``.

Importing this module neither imports numba nor compiles anything. The first search
imports numba (~0.35 s) and compiles the kernel (~4 s), or loads it from numba's disk
cache (``__pycache__`` beside ``kernel.py``, else numba's user-wide cache dir; ~0.7 s, of
which ~0.4 s is numba importing scipy.linalg: see :func:`own_process`), so only the first
use on a machine pays for compiling. Each entry point (``search``, ``force_all``,
``search_batch``) compiles and loads on its own; past the first, one costs ~10 ms to load.

Two details decide the speed and the correctness of that cache:

* **No negative-index wraparound.** numba indexes arrays like Python, adding the length to
  a negative index; that select on every ``U[q]``/``D[q]``/``TOP[q]`` costs about half the
  speed of this kernel. Every index in the kernel is a valid node or item pointer, never
  negative, so while numba compiles the kernel (under its compiler lock) we plug in an
  index fix-up that only casts. With it the kernel runs as fast as the same loops in C.
* **A tagged cache.** numba keys its cache by source file, qualified name and bytecode,
  not by the globals the functions see. The functions are therefore renamed
  ``<name>__<tag>``, where the tag hashes the kernel's constants, the overrides, the njit
  options and the indexing mode, so that a change to any of them compiles anew instead of
  loading stale machine code.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import numpy as np

from . import kernel
from .backends import Backend, as_int64, specialize
from .search import COMPILED_SLICE_SECONDS

__all__ = ["NUMBA", "NUMBA_X", "compiled", "compiled_kernel", "force_all", "is_loaded",
           "own_process", "search"]

_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "boundscheck": False}
"""numba.njit options. ``nogil`` lets threads search different problems at once."""

_OVERRIDES: dict[str, Any] = {}
"""Globals re-bound for the compiled kernel: none, it is the kernel as written (but for
``COLORS``, False in the twin compiled for problems without colors)."""


def _indexing_hook_available() -> bool:
    """True when this numba has the index fix-up :func:`_nonnegative_indexing` replaces."""
    from numba.np import arrayobj

    original = getattr(arrayobj, "fix_integer_index", None)
    params = list(inspect.signature(original).parameters) if original else []
    return params == ["context", "builder", "idxty", "idx", "size"]


@contextmanager
def _nonnegative_indexing() -> Iterator[bool]:
    """While numba compiles inside this block, integer array indices are not wrapped.

    Yields False (and changes nothing) when this numba lacks the hook, so that a future
    numba only costs speed, never correctness.
    """
    from numba.core import types
    from numba.core.compiler_lock import global_compiler_lock
    from numba.np import arrayobj

    if not _indexing_hook_available():
        yield False
        return
    original = arrayobj.fix_integer_index

    def fix_integer_index(context, builder, idxty, idx, size):
        return context.cast(builder, idx, idxty, types.intp if idxty.signed else types.uintp)

    with global_compiler_lock:  # no other thread compiles while the hook is swapped
        arrayobj.fix_integer_index = fix_integer_index
        try:
            yield True
        finally:
            arrayobj.fix_integer_index = original


def _cache_tag(nonnegative: bool, overrides: dict[str, Any]) -> str:
    """A short hash of everything that shapes the machine code but not numba's cache key."""
    constants = sorted((k, v) for k, v in vars(kernel).items()
                       if isinstance(v, int) and not k.startswith("_"))
    text = repr((constants, sorted(overrides.items()), sorted(_OPTIONS.items()), nonnegative))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


_SIGNATURES = {"search": "a" * 9 + "i" * 2, "search_batch": "a" * 14 + "i" * 4,
               "force_all": "a" * 8}
"""The kernel's entry points and their arguments: ``a`` an int64 array, ``i`` an int64."""


@functools.cache
def _namespace(colors: bool = True) -> Any:
    """The kernel's functions wrapped as numba dispatchers; nothing is compiled yet.
    ``colors=False``: the twin for problems without colors (``COLORS`` False)."""
    import numba

    overrides = {**_OVERRIDES, "COLORS": colors}
    tag = _cache_tag(_indexing_hook_available(), overrides)

    def wrap(f):
        f.__qualname__ = f"{f.__name__}__{tag}"
        return numba.njit(**_OPTIONS)(f)

    return specialize(overrides, wrap)


@functools.cache
def compiled(name: str, colors: bool = True) -> Any:
    """The entry point ``name`` (``search``, ``force_all`` or ``search_batch``), compiled,
    for problems with colors or (``colors=False``) without.

    Compiled (or loaded from the disk cache) on the first call only; each entry point
    loads on its own, so a process that only searches never loads the batch driver.
    Further compilation is then disabled, so a call with other array types raises
    TypeError instead of silently compiling a slower kernel without the indexing hook.
    """
    with _without_scipy_linalg(_skip_blas_check):
        import numba

        ns = _namespace(colors)
        dispatcher = getattr(ns, name)
        types = {"a": numba.types.Array(numba.types.int64, 1, "C"), "i": numba.types.int64}
        signature = tuple(types[t] for t in _SIGNATURES[name])
        with _nonnegative_indexing() as nonnegative:
            ns.nonnegative_indexing = nonnegative
            dispatcher.compile(signature)
    dispatcher.disable_compile()
    return dispatcher


_skip_blas_check = False


def own_process() -> None:
    """Say that this process runs a program of this package (a command-line tool), not
    someone's code that may use numba for other things.

    Loading the kernel, even from the disk cache, makes numba set up its whole numpy
    support once per process; part of that checks for a BLAS by importing
    ``scipy.linalg``, which (with scipy installed) is half of the ~0.8 s the load takes.
    In our own process nothing needs numba's linear algebra, so the load then skips that
    import: numba finds no BLAS, and compiled ``np.dot`` and friends are unavailable in
    this process, which is why a library must never call this.
    """
    global _skip_blas_check
    _skip_blas_check = True


@contextmanager
def _without_scipy_linalg(skip: bool) -> Iterator[None]:
    """While numba loads, ``import scipy.linalg`` fails (if ``skip``, and unless it is
    imported already). ``import numba`` itself imports only ``scipy`` (~15 ms)."""
    if not skip or "scipy.linalg" in sys.modules:
        yield
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # now an ImportError
    try:
        yield
    finally:
        if sys.modules.get("scipy.linalg", 0) is None:
            del sys.modules["scipy.linalg"]


def compiled_kernel() -> Any:
    """The kernel's functions as numba dispatchers, ``search`` compiled (see :func:`compiled`)."""
    compiled("search")
    return _namespace(True)


def is_loaded() -> bool:
    """True once this process has a compiled entry point (so using it costs nothing more)."""
    return compiled.cache_info().currsize > 0


def search(U, D, TOP, COLOR, LEN, LL, RL, CHOICE, REG, node_stop, solution_stop) -> int:
    """:func:`dlx.kernel.search`, compiled; the first call compiles or loads it."""
    return compiled("search")(U, D, TOP, COLOR, LEN, LL, RL, CHOICE, REG,
                              node_stop, solution_stop)


def search_x(U, D, TOP, COLOR, LEN, LL, RL, CHOICE, REG, node_stop, solution_stop) -> int:
    """:func:`search` for problems without colors (``COLORS`` False)."""
    return compiled("search", False)(U, D, TOP, COLOR, LEN, LL, RL, CHOICE, REG,
                                     node_stop, solution_stop)


def force_all(NODES, U, D, TOP, COLOR, LEN, LL, RL) -> int:
    """:func:`dlx.kernel.force_all`, compiled; the first call compiles or loads it."""
    return compiled("force_all")(NODES, U, D, TOP, COLOR, LEN, LL, RL)


def force_all_x(NODES, U, D, TOP, COLOR, LEN, LL, RL) -> int:
    """:func:`force_all` for problems without colors (``COLORS`` False)."""
    return compiled("force_all", False)(NODES, U, D, TOP, COLOR, LEN, LL, RL)


NUMBA = Backend("numba", search, kernel.INACTIVE, as_int64, as_int64, np.copy,
                slice_seconds=COMPILED_SLICE_SECONDS, force_all=force_all, compiled_force=True)
NUMBA_X = replace(NUMBA, search=search_x, force_all=force_all_x)
"""The numba backend for problems without colors."""
