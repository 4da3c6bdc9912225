"""Compiling the kernels with numba: the pipeline every kernel goes through.

Importing this module neither imports numba nor compiles anything. The first search
imports numba (~0.35 s) and compiles the kernel (~4 s), or loads it from numba's disk
cache (``__pycache__`` beside the kernel's module, else numba's user-wide cache dir; ~0.7 s, of
which ~0.4 s is numba importing scipy.linalg: see [`own_process`][]), so only the first
use on a machine pays for compiling. Each entry point compiles and loads on its own;
past the first, one costs ~10 ms to load.

Two details decide the speed and the correctness of that cache:

* **No negative-index wraparound.** numba indexes arrays like Python, adding the length to
  a negative index; that select on every ``U[q]``/``D[q]``/``TOP[q]`` costs about half the
  speed of this kernel. Every index in the kernel is a valid node or item pointer, never
  negative, so while numba compiles the kernel (under its compiler lock) we plug in an
  index fix-up that only casts ([`_nonnegative_indexing`][]). With it the kernel runs as
  fast as the same loops in C.
* **A tagged cache.** numba keys its cache by source file, qualified name and bytecode,
  not by the globals the functions see nor by the functions they call, which may live in
  other files ([`dlx.kernels.cdcl`][] is a package, Algorithm C borrows the batch
  driver). The functions are therefore renamed ``<name>__<tag>`` ([`_wrapper`][]), where
  the tag ([`_cache_tag`][]) hashes the source of every module of the kernel's
  declaration, their constants, its state and register tables, the overrides, the njit
  options and the indexing mode, so that a change to any of them compiles anew instead
  of loading stale machine code.

[`numba_namespace`][] and [`compile_entry`][] are the compiled half of the one recipe
that makes every kernel from its declaration ([`dlx.kernels`][]); [`_compile`][]
compiles one entry point for one signature under both, then refuses any other;
[`dlx.compiled`][] holds the entry points and the backend.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
import sys
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .errors import warn_once
from .kernels.declare import Declaration, namespace, signature, sources
from .state import FIELDS

__all__ = ["compile_entry", "entry_point", "is_loaded", "numba_namespace", "on_compile",
           "own_process"]

_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "boundscheck": False}
"""numba.njit options. ``nogil`` lets threads search different problems at once."""


_HOOK = "fix_integer_index(context, builder, idxty, idx, size)"
"""The index fix-up [`_nonnegative_indexing`][] replaces, as numba defines it."""


@functools.cache
def _indexing_hook_available() -> bool:
    """True when this numba has the index fix-up [`_nonnegative_indexing`][] replaces.

    Read from the source of ``numba.np.arrayobj``, not imported: importing numba's
    lowering of arrays costs a fresh process ~0.1 s, which a load from the disk cache
    never needs, and every cache tag asks this ([`_cache_tag`][]). A compile checks the
    function itself ([`_hook`][]): a numba whose text and code disagree only compiles
    a slower kernel."""
    from importlib.util import find_spec

    try:
        spec = find_spec("numba.np.arrayobj")
        with open(spec.origin, encoding="utf-8") as f:  # type: ignore[union-attr, arg-type]
            return f"\ndef {_HOOK}:" in f.read()
    except (ImportError, OSError, AttributeError, TypeError, ValueError):
        return _hook() is not None


def _hook() -> Any:
    """numba's index fix-up, if it has the one [`_nonnegative_indexing`][] replaces (this
    imports ``numba.np.arrayobj``); else None."""
    from numba.np import arrayobj

    original = getattr(arrayobj, "fix_integer_index", None)
    params = list(inspect.signature(original).parameters) if original else []
    return original if params == ["context", "builder", "idxty", "idx", "size"] else None


@contextmanager
def _nonnegative_indexing() -> Iterator[bool]:
    """While numba compiles inside this block, integer array indices are not wrapped.

    Yields False (and changes nothing) when this numba lacks the hook, so that a future
    numba only costs speed, never correctness.
    """
    from numba.core import types
    from numba.core.compiler_lock import global_compiler_lock
    from numba.np import arrayobj

    original = _hook()
    if original is None or not _indexing_hook_available():
        yield False
        return

    def fix_integer_index(context, builder, idxty, idx, size):
        return context.cast(builder, idx, idxty, types.intp if idxty.signed else types.uintp)

    with global_compiler_lock:  # no other thread compiles while the hook is swapped
        arrayobj.fix_integer_index = fix_integer_index
        try:
            yield True
        finally:
            arrayobj.fix_integer_index = original


def _kernel_sources(decl: Declaration) -> tuple[str, list[tuple[str, Any]]]:
    """The source and the constants of every module ``decl``'s namespace is made of
    ([`dlx.kernels.declare.sources`][]): what the cache tag hashes (read once per
    process and kernel)."""
    return _sources(decl.module)


@functools.cache
def _sources(module: str) -> tuple[str, list[tuple[str, Any]]]:
    from .kernels import declaration

    return sources(declaration(module))


def _cache_tag(nonnegative: bool, decl: Declaration, overrides: dict[str, Any]) -> str:
    """A short hash of everything that shapes ``decl``'s machine code but not numba's
    cache key: the sources and constants of its modules, its state table (fields and
    dtypes) and registers, the ``overrides`` (the switches, anything else that changes
    what a name is bound to), the njit options ([`_OPTIONS`][] and ``decl.options``),
    the functions inlined, the indexing mode."""
    source, constants = _kernel_sources(decl)
    state = decl.state._fields if decl.state is not None else ()
    dtypes = decl.dtypes() if decl.dtypes is not None else None
    text = repr((hashlib.sha256(source.encode()).hexdigest(), constants,
                 sorted(overrides.items()), sorted({**_OPTIONS, **decl.options}.items()),
                 nonnegative, sorted(decl.inline), decl.module, state, dtypes,
                 decl.registers, FIELDS))
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def numba_namespace(decl: Declaration, overrides: dict[str, Any] | None = None,
                    tagged: dict[str, Any] | None = None) -> types.SimpleNamespace:
    """THE compiled recipe: ``decl``'s functions re-created over one namespace
    ([`dlx.kernels.declare.namespace`][]) with ``overrides``, each wrapped by numba
    ([`_wrapper`][]) under the tag of [`_cache_tag`][] (of the overrides that are not
    functions, and ``tagged``: what stands for those); nothing is compiled yet."""
    overrides = overrides or {}
    plain = {k: v for k, v in overrides.items() if not callable(v)}
    tag = _cache_tag(_indexing_hook_available(), decl, {**plain, **(tagged or {})})
    return namespace(decl, overrides, _wrapper(tag, decl.inline, **decl.options))


def compile_entry(decl: Declaration, ns: types.SimpleNamespace, name: str,
                  dtypes: tuple[Any, ...] | None = None) -> Any:
    """Compile (or load from the disk cache) ``decl``'s entry point ``name`` of the
    namespace ``ns`` for its declared signature ([`dlx.kernels.declare.signature`][],
    ``dtypes``: the state's arrays' for a kernel compiled on each call), without
    negative-index wrap-around ([`_compile`][]); its dispatcher, ``nonnegative_indexing``
    set on ``ns``."""
    dispatcher = getattr(ns, name)
    with _compile_lock:
        ns.nonnegative_indexing = _compile(dispatcher, signature(decl, name, dtypes))
    return dispatcher


def entry_point(dispatcher: Any) -> Any:
    """The one compiled version of ``dispatcher``, called without numba's type matching
    (0.7 us a call instead of 2 us with the state as a named tuple): only for callers
    that always pass the arrays of its signature."""
    return dispatcher.overloads[dispatcher.signatures[0]].entry_point


def _njit(f: Any, inline: frozenset[str], **more: Any) -> Any:
    """``numba.njit`` with [`_OPTIONS`][] and ``more``, inlined if its name is in
    ``inline``; without the disk cache if numba finds no writable place for it (then each
    process compiles anew: slower to start, as fast)."""
    import numba

    options = {**_OPTIONS, **more, **({"inline": "always"} if f.__name__ in inline else {})}
    try:
        return numba.njit(**options)(f)
    except RuntimeError as e:  # "cannot cache function ...: no locator available"
        if "cannot cache" not in str(e):
            raise
        warn_once(f"numba cannot cache the compiled kernel ({e}); it is compiled in every "
                  "process instead", stacklevel=4)
        return numba.njit(**{**options, "cache": False})(f)


def _wrapper(tag: str, inline: frozenset[str], **more: Any) -> Callable[[Any], Any]:
    """What wraps each function of a kernel: renamed ``<name>__<tag>`` for the disk cache,
    then [`_njit`][] with the ``inline`` set and the options ``more``."""

    def wrap(f: Any) -> Any:
        f.__qualname__ = f"{f.__name__}__{tag}"
        return _njit(f, inline, **more)

    return wrap


_compile_lock = threading.Lock()
_compile_listeners: list[Callable[[], None]] = []
_compile_announced = False
_listeners_lock = threading.Lock()
_announced_anywhere: Any = None
"""A flag in shared memory, made where the first listener is added: the worker processes
forked from there (``-j 2``) inherit the listeners and the flag, so that one of them, not
each, announces the compile."""


def on_compile(listener: Callable[[], None], *, remove: bool = False) -> None:
    """Call ``listener()`` (or, ``remove=True``, no longer) when the kernel is about to be
    compiled rather than loaded from numba's disk cache: seconds of silence otherwise
    ([`dlx.progress.Progress`][] shows a notice). At most once per process, and once in
    all for the processes forked from the one that added the listener."""
    global _announced_anywhere
    with _listeners_lock:
        if remove:
            with contextlib.suppress(ValueError):
                _compile_listeners.remove(listener)
        else:
            _compile_listeners.append(listener)
            if _announced_anywhere is None:
                with contextlib.suppress(Exception):  # no shared memory here: per process
                    import multiprocessing

                    _announced_anywhere = multiprocessing.Value("b", 0)


def _in_disk_cache(dispatcher: Any) -> bool | None:
    """Whether numba's disk cache holds machine code for ``dispatcher`` (None: this numba
    does not say). Reads the cache's index, as numba does before compiling."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # a numba without these internals: no notice, nothing else changes
        return None


def _announce_compiling(dispatcher: Any) -> None:
    """Tell the listeners, once per process, that ``dispatcher`` will be compiled now."""
    global _compile_announced
    with _listeners_lock:
        listeners = list(_compile_listeners)
    if _compile_announced or not listeners or _in_disk_cache(dispatcher) is not False:
        return
    _compile_announced = True
    shared = _announced_anywhere
    if shared is not None:
        with shared.get_lock():
            if shared.value:  # a process forked from the same one said it already
                return
            shared.value = 1
    for listener in listeners:
        listener()


def _compile(dispatcher: Any, signature: tuple) -> bool:
    """Compile ``dispatcher`` for ``signature`` (or load it from the disk cache), under
    [`_nonnegative_indexing`][], then refuse any other signature (a call with other
    types raises TypeError rather than compile a slower kernel without the hook). The
    caller holds ``_compile_lock``. Returns whether the hook was in place. Every entry
    point passes here, so [`is_loaded`][] starts to say True here."""
    global _any_compiled
    hooked: list[bool] = []  # whether the hook went in, for a compile (a cache miss)
    with _without_scipy_linalg(_skip_blas_check), contextlib.ExitStack() as hook:
        _announce_compiling(dispatcher)
        dispatcher.disable_compile(False)
        with _lean_load(dispatcher, lambda: hooked.append(hook.enter_context(
                _nonnegative_indexing()))):
            dispatcher.compile(signature)
    dispatcher.disable_compile()
    _any_compiled = True
    return hooked[0] if hooked else _indexing_hook_available()  # loaded: as tagged


@contextmanager
def _lean_load(dispatcher: Any, compiling: Callable[[], None]) -> Iterator[None]:
    """While numba loads ``dispatcher``'s machine code from its disk cache, it sets up
    only its runtime (NRT, whose symbols the code links to), not its whole compiler; and
    ``compiling()`` is called only if it must compile instead (a miss), just before:
    [`_compile`][] puts the index hook in there, whose import of numba's lowering of
    arrays (~0.1 s) a load does without.

    numba's own load first refreshes its target context: it imports the lowering of every
    Python and numpy feature it supports (``numba.np.arraymath``, ``numba.cpython.*``,
    ``numba.np.linalg``...) and installs their registries, ~0.1-0.25 s of a fresh
    process's CPU, which a load from the cache never uses: the machine code is linked as
    it is. A miss still compiles as before (numba's compiler refreshes everything itself),
    and so does any later compile in the process, ours or the user's. Only this
    dispatcher's cache object is changed, and only inside the block, which runs under
    the compile locks; a numba without these internals loads as it always did."""
    cache: Any = getattr(dispatcher, "_cache", None)
    try:
        from numba.core.runtime import nrt

        load, guard = cache._load_overload, cache._guard_against_spurious_io_errors
        initialize = nrt.rtsys.initialize
    except (ImportError, AttributeError):  # another numba, or no disk cache
        compiling()
        yield
        return

    def load_overload(signature: Any, target_context: Any) -> Any:
        initialize(target_context)
        loaded = None
        with guard():  # an I/O error swallowed: a miss
            loaded = load(signature, target_context)
        if loaded is None:
            compiling()
        return loaded

    cache.load_overload = load_overload  # this instance only: shadows the class's method
    try:
        yield
    finally:
        with contextlib.suppress(AttributeError):
            del cache.load_overload


_any_compiled = False  # set by _compile, read by is_loaded
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


def is_loaded() -> bool:
    """True once this process has a compiled entry point of any kernel (the search, the
    batch over bit words, the learner, the memoized search): using numba then costs
    nothing more."""
    return _any_compiled
