"""The ``numba`` backend: [`dlx.kernel`][] compiled by numba, lazily, cached on disk.

Nothing is copied: [`dlx.backend.specialize`][] re-creates the kernel's own functions
(its ``choose`` loop included, ``INACTIVE = 2**40``) and wraps each in ``numba.njit``, so
this backend runs the very algorithm of the python backend over ``int64`` arrays, with the
same solutions, order, ``nodes`` and ``updates``.

Every kernel goes through the same pipeline ([`dlx.jit`][]: no negative-index
wrap-around, a tagged disk cache): its functions re-created over one namespace
([`_namespace`][] for the DLX kernels, [`_learning_namespace`][] for the learner,
[`_memo_namespace`][] for the memoized search, [`_words_namespace`][] for the batch over
bit words and the one call through an adapter's codec), each wrapped by
[`dlx.jit._wrapper`][] under the tag of [`dlx.jit._cache_tag`][], and compiled for a
signature derived from its state table by [`dlx.jit._compile`][]. Each entry point
(``search``, ``force_all``, ``search_batch``, ...) compiles and loads on its own.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import sys
import time
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from . import cdcl, kernel, kernel_memo, kernel_parts, kernel_words, kernel_zdd
from .backend import (
    Backend,
    BatchJob,
    Kernel,
    MemoKernel,
    OneInstance,
    OneThrough,
    ZddKernel,
    specialize,
)
from .errors import ArgumentError
from .jit import (
    _cache_tag,
    _compile,
    _compile_lock,
    _indexing_hook_available,
    _njit,
    _wrapper,
    is_loaded,
    on_compile,
    own_process,
)
from .links import Links
from .search import SearchStats, first_slice
from .slices import COMPILED_SLICE_SECONDS, Slices, drive
from .state import FIELDS, State
from .status import Status

__all__ = ["NUMBA", "NumbaBackend", "compiled", "compiled_kernel", "is_loaded", "on_compile",
           "own_process"]


_OVERRIDES: dict[str, Any] = {}
"""Globals re-bound for the compiled kernel: none, it is the kernel as written (but for
``COLORS``, False in the twin compiled for problems without colors)."""


def _signature(name: str) -> tuple:
    """The numba signature of the entry point ``name``, derived from [`FIELDS`][]: the
    state is a named tuple of its arrays; ``a`` is another int64 array, ``i`` an int64."""
    import numba

    arrays = [numba.types.Array(numba.from_dtype(np.dtype(f.dtype)), 1, "C") for f in FIELDS]
    state: Any = (numba.types.NamedUniTuple(arrays[0], len(arrays), State)
                  if all(a == arrays[0] for a in arrays) else numba.types.NamedTuple(arrays, State))
    types = {"a": numba.types.Array(numba.types.int64, 1, "C"), "i": numba.types.int64}
    rest = {"search": "ii", "force_all": "a", "search_batch": "aaaaiiii"}[name]
    return (state, *(types[t] for t in rest))


_INLINE = frozenset({"begin", "force_instance", "undo_instance", "record_first", "record",
                     "choose"})
"""The batch's steps, inlined into ``search_batch`` by numba (``inline="always"``): passed
the state as a call, they cost a Sudoku batch of one ~3 µs."""


@functools.cache
def _namespace(colors: bool = True, walk: bool = True, weighted: bool = False,
               reduce: bool = False, mcc: bool = False) -> Any:
    """The kernel's functions wrapped as numba dispatchers; nothing is compiled yet.
    ``colors=False``: the twin for problems without colors (``COLORS`` False);
    ``walk=False``: the twin for at most ``SCAN_ITEMS`` primary items (``WALK`` False);
    ``weighted=True``: the twin of the weighted choice (``WEIGHTED`` True);
    ``reduce=True``: the twin with the lookahead (``REDUCE`` True);
    ``mcc``: [`dlx.kernel_m`][], multiplicities and costs (its ``search_batch``, the
    kernel's own code over other callees, gets its own tag, so its own cache entry)."""
    overrides = {**_OVERRIDES, "COLORS": colors, "WALK": walk, "WEIGHTED": weighted,
                 "REDUCE": reduce, "MCC": mcc}
    tag = _cache_tag(_indexing_hook_available(), overrides, inline=_INLINE)
    return specialize(overrides, _wrapper(tag, _INLINE), mcc)


def compiled(name: str, colors: bool = True, walk: bool = True, weighted: bool = False,
             reduce: bool = False, mcc: bool = False) -> Any:
    """The entry point ``name`` (``search``, ``force_all`` or ``search_batch``), compiled,
    for problems with colors or (``colors=False``) without.

    Compiled (or loaded from the disk cache) on the first call only; each entry point
    loads on its own, so a process that only searches never loads the batch driver.
    Further compilation is then disabled, so a call with other array types raises
    TypeError instead of silently compiling a slower kernel without the indexing hook.
    """
    key = (name, colors, walk, weighted, reduce, mcc)
    dispatcher = _compiled.get(key)
    if dispatcher is not None:
        return dispatcher
    with _compile_lock:  # one thread compiles; the others wait for it
        dispatcher = _compiled.get(key)
        if dispatcher is None:
            ns = _namespace(colors, walk, weighted, reduce, mcc)
            dispatcher = getattr(ns, name)
            ns.nonnegative_indexing = _compile(dispatcher, _signature(name))
            _entries[key] = dispatcher.overloads[dispatcher.signatures[0]].entry_point
            _compiled[key] = dispatcher
    return dispatcher


_WHERE = np.zeros(kernel.N_WHERE, dtype=np.int64)
_WHERE[kernel.W_INVALID] = -1
"""A batch's place before it starts (instance 0, phase 0, no option forced, none INVALID)."""

_compiled: dict[tuple[str, bool, bool, bool, bool, bool], Any] = {}
_entries: dict[tuple[str, bool, bool, bool, bool, bool], Any] = {}
"""The one compiled version of each entry point, called without the dispatcher's type
matching (0.7 µs a call instead of 2 µs with the state as a named tuple). Only this
module calls them, always with the arrays of the signature (contiguous int64): anything
else goes through [`compiled`][], whose dispatcher refuses other types."""


def entry(name: str, colors: bool = True, walk: bool = True, weighted: bool = False,
          reduce: bool = False, mcc: bool = False) -> Any:
    """The compiled entry point ``name`` itself (compiling it on first use)."""
    key = (name, colors, walk, weighted, reduce, mcc)
    point = _entries.get(key)
    if point is None:
        compiled(*key)
        point = _entries[key]
    return point


def compiled_kernel() -> Any:
    """The kernel's functions as numba dispatchers, ``search`` compiled (see [`compiled`][])."""
    compiled("search")
    return _namespace(True, True, False, False, False)


def as_int64(links: Links, name: str, a: np.ndarray) -> np.ndarray:
    """``Kernel.convert``: a contiguous int64 copy (the compiled kernel takes no other)."""
    return np.array(a, dtype=np.int64, order="C")


def _twin(links: Links) -> tuple[bool, bool, bool]:
    """Which compiled twin searches ``links``: (with colors, walking in ``choose``,
    multiplicities and costs). [`dlx.kernel_m`][] always walks: it has no ``WALK``."""
    if links.mcc:
        return links.colored, False, True
    return links.colored, links.n_primary + 1 > kernel.SCAN_ITEMS, False


def _batch_twin(links: Links) -> tuple[bool, bool, bool, bool, bool]:
    """The twin key of the batch driver for ``links``: no strategy, a batch is Knuth's
    search (or Algorithm M's) of each instance."""
    colors, walk, mcc = _twin(links)
    return colors, walk, False, False, mcc


def _entry(name: str, colors: bool, walk: bool, weighted: bool = False,
           reduce: bool = False, mcc: bool = False) -> Any:
    """A Python function that calls the compiled entry point (compiling it on first use)."""
    key = (name, colors, walk, weighted, reduce, mcc)

    def call(*args: Any) -> Any:
        point = _entries.get(key)
        return (point or entry(*key))(*args)

    call.__name__ = name
    return call


_LEARNING_OPTIONS: dict[str, Any] = {"_nrt": False}
"""More numba options for [`dlx.cdcl`][]: no reference counting. Its functions take the
state, a tuple of ~40 arrays, and numba counted a reference to each array at every call
(two atomic operations apiece): 60% of the time, by ``perf``; without it the learning
search runs 3-4 times as fast. The kernel allocates nothing (numba refuses to compile an
allocation without it), and the arrays belong to the caller."""


_LEARNING_INLINE = frozenset({"watch", "push_watch"})
"""The learning kernel's functions inlined by numba itself (``inline="always"``) where
LLVM would not: a call passes the state, ~40 arrays of several words each, on the stack,
and ``watch`` is called for every option assigned (the search was 1.25x slower with the
watch lists as vectors until it was inlined: the cost once put down to the vectors)."""


@functools.cache
def _learning_namespace() -> types.SimpleNamespace:
    """[`dlx.cdcl`][]'s functions wrapped by numba over one namespace of their own, the
    modules' globals merged ([`dlx.cdcl.namespace`][]; the modules themselves are left
    as written, for the python backend); nothing is compiled yet."""
    namespace = cdcl.namespace()
    tag = _cache_tag(_indexing_hook_available(), {}, _LEARNING_OPTIONS, _LEARNING_INLINE)
    wrap = _wrapper(tag, _LEARNING_INLINE, **_LEARNING_OPTIONS)
    for name in cdcl.FUNCTIONS:
        namespace[name] = wrap(types.FunctionType(namespace[name].__code__, namespace, name))
    return types.SimpleNamespace(**{name: namespace[name] for name in cdcl.FUNCTIONS})


def _learning_signature(dtypes: tuple[np.dtype, ...], name: str) -> tuple:
    """The numba signature of the learner's entry point ``name`` (``begin``: the state and
    the forced options, int64; ``cdcl``: the state) for arrays of ``dtypes``, the kinds of
    [`dlx.cdcl.state.FIELDS`][] made concrete ([`dlx.cdcl.state.dtypes`][])."""
    import numba

    arrays = [numba.types.Array(numba.from_dtype(d), 1, "C") for d in dtypes]
    state = numba.types.NamedTuple(arrays, cdcl.state.Learner)
    forced = numba.types.Array(numba.types.int64, 1, "C")
    return (state, forced) if name == "begin" else (state,)


@functools.cache
def learning_entry() -> tuple[Any, Any]:
    """The learner's ``begin`` and ``cdcl`` ([`_learning_namespace`][]), each compiled
    without index wrap-around ([`_compile`][]: 1.1x as fast), or loaded from the disk
    cache, on the first call with each new set of array types (32-bit or 64-bit
    positions)."""
    ns = _learning_namespace()
    return _compiled_on_call(ns.begin), _compiled_on_call(ns.cdcl)


def _compiled_on_call(dispatcher: Any) -> Callable[..., Any]:
    """``dispatcher`` as a function that compiles it ([`_compile`][]) for the array
    types of each call that brings new ones."""
    done: set[tuple[np.dtype, ...]] = set()
    name = dispatcher.py_func.__name__

    def call(S: Any, *rest: Any) -> Any:
        key = cdcl.state.dtypes(S)
        if key not in done:
            with _compile_lock:
                nonnegative = _compile(dispatcher, _learning_signature(key, name))
            call.nonnegative_indexing = nonnegative  # type: ignore[attr-defined]
            done.add(key)
        return dispatcher(S, *rest)

    call.__name__ = name
    call.dispatcher = dispatcher  # type: ignore[attr-defined]
    return call


@functools.cache
def _memo_namespace(parts: bool) -> types.SimpleNamespace:
    """[`dlx.kernel_memo`][]'s functions wrapped by numba over a copy of its globals;
    nothing is compiled yet. ``parts=False``: the twin without independent parts
    (``SPLITTING`` False)."""
    namespace = {**vars(kernel_parts), **vars(kernel_memo), "SPLITTING": parts}
    wrap = _wrapper(_cache_tag(_indexing_hook_available(), {"MEMO": True, "SPLITTING": parts}),
                    frozenset())
    for name in kernel_memo.FUNCTIONS:
        namespace[name] = wrap(types.FunctionType(namespace[name].__code__, namespace, name))
    return types.SimpleNamespace(**{name: namespace[name] for name in kernel_memo.FUNCTIONS})


def _memo_signature(name: str) -> tuple:
    """The numba signature of the memoized search's entry point ``name``: its state is a
    named tuple of int64 arrays ([`dlx.kernel_memo.MemoState`][]), the rest int64
    arrays and an int64."""
    import numba

    a = numba.types.Array(numba.types.int64, 1, "C")
    i = numba.types.int64
    if name == "search":
        return numba.types.NamedUniTuple(a, len(kernel_memo.MemoState._fields),
                                         kernel_memo.MemoState), i
    return (a, a, i) if name == "rehash_memo" else (a, a, a, a, i)


@functools.cache
def memo_entry(parts: bool = False) -> MemoKernel:
    """The memoized search's kernel compiled ([`_compile`][]: without index wrap-around)
    or loaded from the disk cache, on the first call, over contiguous int64 arrays;
    ``parts``: the twin that splits into independent parts."""
    ns = _memo_namespace(parts)
    with _compile_lock:
        for name in ("search", "rehash_memo", "rehash_zdd"):
            _compile(getattr(ns, name), _memo_signature(name))
    return MemoKernel("numba", ns.search, ns.rehash_memo, ns.rehash_zdd,
                      array=lambda a: np.array(a, dtype=np.int64, order="C"),
                      zeros=lambda n: np.zeros(n, dtype=np.int64),
                      grown=lambda a, n: np.concatenate((a, np.zeros(n - len(a), np.int64))),
                      numpy=lambda a: a)


_ZDD_OPTIONS: dict[str, Any] = {"_nrt": False}
"""More numba options for [`dlx.kernel_zdd`][]: no reference counting (as the learner's,
[`_LEARNING_OPTIONS`][]): its helpers take the store's state, a tuple of arrays, and a
count of references to each at every call made set operations twice as slow. The
kernel allocates nothing."""


@functools.cache
def _zdd_namespace() -> types.SimpleNamespace:
    """[`dlx.kernel_zdd`][]'s functions wrapped by numba over a copy of its globals;
    nothing is compiled yet. Its tag hashes its own source too (it is not one of the
    modules [`dlx.jit`][] hashes for every kernel)."""
    namespace = dict(vars(kernel_zdd))
    source = hashlib.sha256(inspect.getsource(kernel_zdd).encode()).hexdigest()
    wrap = _wrapper(_cache_tag(_indexing_hook_available(), {"ZDD": source}, _ZDD_OPTIONS),
                    frozenset(), **_ZDD_OPTIONS)
    for name in kernel_zdd.FUNCTIONS:
        namespace[name] = wrap(types.FunctionType(namespace[name].__code__, namespace, name))
    return types.SimpleNamespace(**{name: namespace[name] for name in kernel_zdd.FUNCTIONS})


def _zdd_signatures() -> dict[str, tuple]:
    """The numba signatures of the ZDD store's entry points: its state a named tuple of
    int64 arrays ([`dlx.kernel_zdd.ZddState`][]), the rest int64 arrays and int64s."""
    import numba

    a = numba.types.Array(numba.types.int64, 1, "C")
    i = numba.types.int64
    S = numba.types.NamedUniTuple(a, len(kernel_zdd.ZddState._fields), kernel_zdd.ZddState)
    return {"apply": (S, i, i, i), "import_diagram": (S, a, a, a, a, i, i),
            "reach": (a, i, a, a), "tally": (S,), "transfer": (S, a, a, a, a, a, i, i),
            "rehash": (S,), "recache": (a, S)}


def _written_zeros(n: int) -> np.ndarray:
    """``n`` zeros, written now: the store's tables are touched when they are made (a
    ``np.zeros`` array is mapped page by page as the kernel first writes it, which made
    the first operation after the store grew up to twice as slow)."""
    a = np.empty(n, dtype=np.int64)
    a.fill(0)
    return a


@functools.cache
def zdd_entry() -> ZddKernel:
    """The ZDD store's kernel compiled ([`_compile`][]: without index wrap-around) or
    loaded from the disk cache, on the first call, over contiguous int64 arrays."""
    ns = _zdd_namespace()
    with _compile_lock:
        for name, signature in _zdd_signatures().items():
            _compile(getattr(ns, name), signature)
    return ZddKernel("numba", ns.apply, ns.import_diagram, ns.reach, ns.tally, ns.transfer,
                     ns.rehash, ns.recache, array=lambda a: np.array(a, dtype=np.int64, order="C"),
                     zeros=_written_zeros,
                     grown=lambda a, n: np.concatenate((a, np.zeros(n - len(a), np.int64))),
                     numpy=lambda a: a)


def _popcount() -> Any:
    """numba's intrinsic for LLVM's ``ctpop`` of an integer (the ``popcnt`` instruction)."""
    from numba.extending import intrinsic

    @intrinsic
    def popcount(typingctx: Any, word: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return word(word), codegen

    return popcount


def _words_namespace(adapter: tuple[Any, Any] | None = None) -> dict[str, Any]:
    """[`dlx.kernel_words`][]' functions wrapped over one namespace (nothing compiled
    yet); with an adapter's ``(encode, decode)``, those too and ``search_through``, under
    a tag that also hashes their names and their modules' sources (the disk cache keys
    ``search_through`` by its own source only: two codecs of one module must not share
    an entry)."""
    from numba.cpython.unsafe.numbers import trailing_zeros

    namespace = {**vars(kernel), **vars(kernel_words)}
    overrides: dict[str, Any] = {"ctz": "trailing_zeros", "popcount": "ctpop"}
    names: tuple[str, ...] = kernel_words.FUNCTIONS[2:]  # ctz, popcount: the CPU's own
    if adapter is not None:  # which functions, and their modules' sources
        overrides["adapter"] = hashlib.sha256("".join(
            f"{f.__module__}.{f.__qualname__}:{inspect.getsource(sys.modules[f.__module__])}"
            for f in adapter).encode()).hexdigest()
        names = (*names, "unpack", "search_through")
        namespace["encode"], namespace["decode"] = (_njit(f, frozenset()) for f in adapter)
    wrap = _wrapper(_cache_tag(_indexing_hook_available(), overrides, inline=_INLINE),
                    _INLINE | {"adjust", "adjust_words", "mark", "force_instance", "unpack"})
    for name in names:
        namespace[name] = wrap(types.FunctionType(namespace[name].__code__, namespace, name))
    namespace["ctz"] = trailing_zeros
    namespace["popcount"] = _popcount()
    return namespace


def _words_types() -> tuple[Any, Any, Any]:
    """numba's types of the [`dlx.kernel_words.Words`][] state, an int64 array, an int64."""
    import numba

    a = numba.types.Array(numba.types.int64, 1, "C")
    state = numba.types.NamedTuple(
        [numba.types.Array(numba.types.int32, 1, "C") if name.startswith("LEN") else a
         for name in kernel_words.Words._fields], kernel_words.Words)
    return state, a, numba.types.int64


@functools.cache
def words_entry() -> Any:
    """[`dlx.kernel_words`][]' batch driver (the kernel's ``search_batch`` over its
    steps, which numba inlines), compiled ([`_compile`][]) or loaded from the disk cache
    on the first call."""
    state, a, i = _words_types()
    dispatcher = _words_namespace()["search_batch"]
    with _compile_lock:
        _compile(dispatcher, (state, a, a, a, a, i, i, i, i))
    return dispatcher.overloads[dispatcher.signatures[0]].entry_point


_throughs: dict[tuple[Any, Any], tuple[Any, Any, Any]] = {}


def through_entry(encode: Any, decode: Any) -> tuple[Any, Any, Any]:
    """[`dlx.kernel_words.search_through`][] compiled over an adapter's ``encode`` and
    ``decode`` (or loaded from the disk cache), once per pair; with those two compiled,
    for a search that outlasts its first slice. Like the kernels, they are compiled
    without negative-index wrap-around."""
    key = (encode, decode)
    found = _throughs.get(key)
    if found is not None:
        return found
    import numba

    _, a, i = _words_types()
    u8, l32 = (numba.types.Array(t, 1, "C") for t in (numba.types.uint8, numba.types.int32))
    with _compile_lock:
        found = _throughs.get(key)
        if found is None:
            namespace = _words_namespace(key)
            dispatcher = namespace["search_through"]
            _compile(dispatcher, (a, l32, u8, a, a, a, i, i, i, i))
            found = _throughs[key] = (dispatcher.overloads[dispatcher.signatures[0]].entry_point,
                                      namespace["encode"], namespace["decode"])
    return found


class NumbaBackend(Backend):
    """[`dlx.kernel`][] compiled by numba, cached on disk; needs the ``fast`` extra."""

    name = "numba"
    slice_seconds = COMPILED_SLICE_SECONDS

    def __init__(self) -> None:
        def make(colors: bool, walk: bool, weighted: bool = False, reduce: bool = False,
                 mcc: bool = False) -> Kernel:
            name = "numba" + ("" if colors else "-x") + ("-walk" if walk else "") + (
                "-weighted" if weighted else "") + ("-lookahead" if reduce else "") + (
                "-m" if mcc else "")
            return Kernel(name, _entry("search", colors, walk, weighted, reduce, mcc),
                          _entry("force_all", colors, walk, False, False, mcc),
                          kernel.INACTIVE, as_int64, np.copy, mcc=mcc)

        self.kernels = {colors: make(colors, False) for colors in (True, False)}
        """By colors: the kernels for problems of at most ``SCAN_ITEMS`` primary items."""
        self.walk_kernels = {colors: make(colors, True) for colors in (True, False)}
        """By colors: the kernels for more primary items (``choose`` walks first)."""
        self.mcc_kernels = {colors: make(colors, False, mcc=True) for colors in (True, False)}
        """By colors: the kernels of multiplicities and costs ([`dlx.kernel_m`][])."""
        self.strategy_kernels = {(colors, walk, weighted, reduce): make(colors, walk and not
                                                                        weighted, weighted,
                                                                        reduce)
                                 for colors in (True, False) for walk in (True, False)
                                 for weighted in (True, False) for reduce in (True, False)
                                 if weighted or reduce}
        """By (colors, walk, weighted, lookahead): the kernels of the strategies for hard
        instances, each a twin of its own so that the default search pays nothing for
        them. (The weighted choice never calls ``choose``: it needs no walking twin.)"""

    def unavailable(self) -> str | None:
        return numba_unavailable()

    def loaded(self) -> bool:
        return is_loaded()

    def kernel(self, links: Links, weighted: bool = False, reduce: bool = False) -> Kernel:
        colors, walk, mcc = _twin(links)
        if mcc:  # the strategies are refused for these problems (ExactCover.solutions)
            return self.mcc_kernels[colors]
        if weighted or reduce:
            return self.strategy_kernels[(colors, walk, weighted, reduce)]
        return (self.walk_kernels if walk else self.kernels)[colors]

    def learning(self) -> tuple[Any, Any]:
        return learning_entry()

    def memo(self, parts: bool = False) -> MemoKernel:
        return memo_entry(parts)

    def zdd(self) -> ZddKernel:
        return zdd_entry()

    def batch(self, job: BatchJob) -> None:
        links = job.links
        setup = links.converted.get("numba-batch-setup")
        if setup is None:  # the entry point and the first slice, once per problem
            setup = links.converted.setdefault("numba-batch-setup", (
                entry("search_batch", *_batch_twin(links)), first_slice(links)))
        search_batch, first = setup
        state: Any = kernel_words.pooled(links)  # small, without colors: bit words
        if state is not None:
            search_batch, pool = words_entry(), "numba-words-pool"
        else:
            state, pool = self._workspace(links), "numba-batch"
        where = _WHERE.copy()  # see kernel.W_*
        timed = job.deadline is not None
        if timed:
            first = 1
        job.cut = len(job.indptr) - 1
        out = job.table.reshape(-1)
        t0 = time.perf_counter()
        if search_batch(state, job.indices, job.indptr, out, where, job.node_stop,
                        job.solution_stop, job.width, first):  # most batches end here
            self._sliced(job, search_batch, (state, job.indices, job.indptr, out, where),
                         first, time.perf_counter() - t0)
        links.converted.setdefault(pool, []).append(state)  # pristine (words: any): keep it
        job.invalid = int(where[kernel.W_INVALID])

    def one_instance(self, links: Links, width: int) -> OneInstance | None:
        """[`batch`][] of one instance on bit words, without the job's bookkeeping: the
        entry point, the first slice and each length's ``indptr`` found once; a search
        that outlasts the first slice goes on as [`batch`][]'s would."""
        state = kernel_words.pooled(links)
        if state is None:
            return None
        tables = links.converted["numba-words"]  # the problem's, for more working arrays
        search_batch, first, size = words_entry(), first_slice(links), kernel.B_FIRST + width
        pool = [state]  # working arrays, pristine between calls (list.pop is atomic)
        indptrs: dict[int, np.ndarray] = {}  # (0, n) by n, read only by the kernel

        def run(indices: np.ndarray, node_stop: int, solution_stop: int) -> tuple[
                np.ndarray, int]:
            state = pool.pop() if pool else kernel_words.workspace(tables)
            table = np.zeros((1, size), dtype=np.int64)
            where = _WHERE.copy()
            indptr = indptrs.get(len(indices))
            if indptr is None:
                indptr = indptrs.setdefault(len(indices), np.array((0, len(indices))))
            args = (state, indices, indptr, table.reshape(-1), where)
            t0 = time.perf_counter()
            if search_batch(*args, node_stop, solution_stop, width, first):  # rare: long
                self._go_on(links, width, table, args, node_stop, solution_stop, first, t0)
            pool.append(state)
            return table, where.item(kernel.W_INVALID)

        return run

    def one_through(self, links: Links, width: int, encode: Any,
                    decode: Any) -> OneThrough | None:
        """[`one_instance`][] with an adapter's ends compiled in: ``encode``, the batch of
        one on bit words, ``decode``, in one call ([`through_entry`][]); a search that
        outlasts the first slice goes on as [`batch`][]'s would, then is decoded."""
        state = kernel_words.pooled(links)
        if state is None:
            return None
        tables = links.converted["numba-words"]  # the problem's, for more working arrays
        try:
            point, encoded, decoded = through_entry(encode, decode)
        except Exception as e:  # numba's: the codec is no code numba compiles
            if not type(e).__module__.startswith("numba"):
                raise
            why = str(e).strip().splitlines()[0] if str(e).strip() else ""
            raise ArgumentError(f"codec: numba cannot compile {encode.__qualname__} and "
                                f"{decode.__qualname__} with the search (they must take "
                                f"and return arrays as dlx.InstanceCodec says; "
                                f"{type(e).__name__}: {why})") from None
        first, size = first_slice(links), kernel.B_FIRST + width
        pool = [kernel_words.pack(state)]  # pristine between calls (list.pop is atomic)

        def run(data: np.ndarray, context: np.ndarray, node_stop: int,
                solution_stop: int) -> tuple[np.ndarray, int, np.ndarray | None]:
            packed = pool.pop() if pool else kernel_words.pack(kernel_words.workspace(tables))
            table = np.zeros((1, size), dtype=np.int64)
            out, where = table.reshape(-1), _WHERE.copy()
            t0 = time.perf_counter()
            answer = point(*packed, data, context, out, where, node_stop, solution_stop, width,
                           first)
            if not where.item(kernel.W_INSTANCE):  # rare: a long search goes on, as batch's
                forced = encoded(data, context)
                args = (kernel_words.unpack(*packed), forced, np.array((0, len(forced))), out,
                        where)
                self._go_on(links, width, table, args, node_stop, solution_stop, first, t0)
                if out.item(kernel.B_SOLUTIONS):
                    answer = decoded(out[kernel.B_FIRST : kernel.B_FIRST
                                         + out.item(kernel.B_SIZE)], data, context)
            pool.append(packed)
            return table, where.item(kernel.W_INVALID), \
                answer if out.item(kernel.B_SOLUTIONS) else None

        return run

    def _go_on(self, links: Links, width: int, table: np.ndarray, args: tuple,
               node_stop: int, solution_stop: int, first: int, t0: float) -> None:
        """The rest of a batch of one over bit words that outlasted its first slice
        (begun at ``t0``; ``args``: the state, the forced options, their ``indptr``, the
        record, the place), as [`batch`][]'s goes on."""
        self._sliced(BatchJob(links, args[2], args[1], width, node_stop, solution_stop, None,
                              table, cut=1), words_entry(), args, first,
                     time.perf_counter() - t0)

    @staticmethod
    def _sliced(job: BatchJob, search_batch: Any, args: tuple, first: int,
                seconds: float) -> None:
        """The rest of a batch whose first call returned before the end: on the driver
        ([`dlx.slices.drive`][]), reporting progress after each slice; at the deadline
        the instance under way and every later one stop (a node budget of 0)."""
        where = args[-1]
        slices = Slices.timed(job.deadline is not None, COMPILED_SLICE_SECONDS, first)
        now = time.perf_counter()
        if job.progress is not None:
            job.progress(int(where[kernel.W_INSTANCE]))
        slices.ran(first, seconds, None if job.deadline is None else job.deadline - now)

        def step(budget: int) -> tuple[Status | None, int, None]:
            if not search_batch(*args, job.node_stop, job.solution_stop, job.width, budget):
                return Status.COMPLETE, 0, None
            if job.progress is not None:
                job.progress(int(where[kernel.W_INSTANCE]))
            return None, budget, None

        outcome = SearchStats()
        timeout = None if job.deadline is None else job.deadline - now
        if timeout is not None and timeout <= 0:
            outcome.status = Status.TIMEOUT
        else:
            for _ in drive(lambda: step, outcome, slices, timeout):
                pass
        if outcome.status is Status.TIMEOUT:
            job.cut = int(where[kernel.W_INSTANCE])  # the rest stop now
            while search_batch(*args, 0, job.solution_stop, job.width, first):
                pass

    def _workspace(self, links: Links) -> State:
        """A working state for a batch of ``links``, taken from the problem's pool.

        ``search_batch`` undoes every instance, so the arrays are pristine after each call
        and go back to the pool, to be reused rather than copied (copies cost a batch of
        one Sudoku ~10 us). Each call takes its own (``list.pop`` is atomic), so threads
        never share one; a call that does not finish (an error, Ctrl-C) does not give it
        back, and a later one copies anew."""
        try:
            return links.converted.get("numba-batch", []).pop()
        except IndexError:
            return self.kernel(links).start(links)


@functools.cache
def numba_unavailable() -> str | None:
    """Why the numba backend cannot run here, or None when it can (asked once: numba reads
    ``NUMBA_DISABLE_JIT`` once, when it is imported)."""
    from importlib.util import find_spec

    if find_spec("numba") is None:
        return "backend 'numba' needs numba: pip install 'dancing-cover[fast]'"
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return "backend 'numba' is unavailable: NUMBA_DISABLE_JIT is set"
    return None


NUMBA = NumbaBackend()
