"""The ``numba`` backend: every kernel compiled by numba, lazily, cached on disk.

Nothing is copied: each kernel is made from its declaration ([`dlx.kernels`][]) by the
one recipe, [`dlx.jit.numba_namespace`][] (its functions re-created over one namespace,
each wrapped by numba under a tag for the disk cache) and [`dlx.jit.compile_entry`][]
(an entry point compiled for the signature its declaration derives), so this backend
runs the very algorithm of the python backend over ``int64`` arrays, with the same
solutions, order, ``nodes`` and ``updates``. Each entry point (``search``,
``force_all``, ``search_batch``, ...) compiles and loads on its own. Which kernel
searches a problem is [`dlx.kernels.kernel_for`][]'s choice.
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

from .backend import (
    Backend,
    BatchJob,
    FrontierKernel,
    Kernel,
    MemoKernel,
    OneInstance,
    OneThrough,
    ZddKernel,
)
from .errors import ArgumentError
from .jit import (
    _compile_lock,
    _njit,
    compile_entry,
    entry_point,
    is_loaded,
    numba_namespace,
    on_compile,
    own_process,
)
from .kernels import Choice, declaration, kernel_for
from .kernels import words as kernel_words
from .kernels.cdcl import state as learner_state
from .kernels.record import B_FIRST, B_SIZE, B_SOLUTIONS, N_WHERE, W_INSTANCE, W_INVALID
from .links import INACTIVE, Links
from .search import SearchStats, first_slice
from .slices import COMPILED_SLICE_SECONDS, Slices, drive
from .state import State
from .status import Status

__all__ = ["NUMBA", "NumbaBackend", "compiled", "compiled_kernel", "is_loaded", "on_compile",
           "own_process"]


Twin = tuple[str, tuple[tuple[str, Any], ...]]
"""A kernel's module and the switches of one compiled twin ([`dlx.kernels.Choice`][])."""


@functools.cache
def _namespace(twin: Twin) -> types.SimpleNamespace:
    """The twin's functions wrapped as numba dispatchers ([`numba_namespace`][]: its
    switches re-bound, its own tag, so its own cache entries); nothing is compiled yet.
    Algorithm C's ``COLORS=False``: the twin for problems without colors; ``WALK=False``:
    for at most ``SCAN_ITEMS`` primary items; ``WEIGHTED``, ``REDUCE``: the strategies."""
    module, switches = twin
    return numba_namespace(declaration(module), dict(switches))


def _twin(choice: Choice) -> Twin:
    """The compiled twin of a choice (its module and switches)."""
    return choice.module, choice.switches


_compiled: dict[tuple[str, Twin], Any] = {}
_entries: dict[tuple[str, Twin], Any] = {}
"""The one compiled version of each entry point, called without the dispatcher's type
matching ([`dlx.jit.entry_point`][]). Only this module calls them, always with the
arrays of the signature (contiguous int64): anything else goes through [`compiled`][],
whose dispatcher refuses other types."""


def _compiled_twin(name: str, twin: Twin) -> Any:
    """The entry point ``name`` of ``twin``, compiled (or loaded from the disk cache) on
    the first call only. Further compilation is then disabled, so a call with other array
    types raises TypeError instead of silently compiling a slower kernel without the
    indexing hook."""
    key = (name, twin)
    dispatcher = _compiled.get(key)
    if dispatcher is not None:
        return dispatcher
    with _compile_lock:  # one thread compiles; the others wait for it
        dispatcher = _compiled.get(key)
        if dispatcher is None:
            ns = _namespace(twin)
            dispatcher = getattr(ns, name)
            _compile_locked(declaration(twin[0]), ns, name)
            _entries[key] = entry_point(dispatcher)
            _compiled[key] = dispatcher
    return dispatcher


def _compile_locked(decl: Any, ns: Any, name: str) -> None:
    """[`compile_entry`][] for a caller that holds the compile lock already."""
    from .jit import _compile
    from .kernels.declare import signature

    ns.nonnegative_indexing = _compile(getattr(ns, name), signature(decl, name))


def _c_twin(colors: bool = True, walk: bool = True, weighted: bool = False,
            reduce: bool = False, mcc: bool = False) -> Twin:
    """The twin of Algorithm C (or, ``mcc``, M) with these switches."""
    if mcc:
        return "algorithm_m", (("COLORS", colors),)
    return "algorithm_c", (("COLORS", colors), ("WALK", walk), ("WEIGHTED", weighted),
                           ("REDUCE", reduce))


def compiled(name: str, colors: bool = True, walk: bool = True, weighted: bool = False,
             reduce: bool = False, mcc: bool = False) -> Any:
    """The entry point ``name`` (``search``, ``force_all`` or ``search_batch``) of
    Algorithm C's twin (``mcc``: M's) with these switches, compiled on the first call."""
    return _compiled_twin(name, _c_twin(colors, walk, weighted, reduce, mcc))


def entry(name: str, twin: Twin) -> Any:
    """The compiled entry point ``name`` of ``twin`` itself (compiling it on first use)."""
    point = _entries.get((name, twin))
    if point is None:
        _compiled_twin(name, twin)
        point = _entries[(name, twin)]
    return point


def compiled_kernel() -> Any:
    """Algorithm C's functions as numba dispatchers, ``search`` compiled."""
    compiled("search")
    return _namespace(_c_twin())


def as_int64(links: Links, name: str, a: np.ndarray) -> np.ndarray:
    """``Kernel.convert``: a contiguous int64 copy (the compiled kernel takes no other)."""
    return np.array(a, dtype=np.int64, order="C")


_WHERE = np.zeros(N_WHERE, dtype=np.int64)
_WHERE[W_INVALID] = -1
"""A batch's place before it starts (instance 0, phase 0, no option forced, none INVALID)."""


def _entry(name: str, twin: Twin) -> Any:
    """A Python function that calls the compiled entry point (compiling it on first use)."""
    key = (name, twin)

    def call(*args: Any) -> Any:
        point = _entries.get(key)
        return (point or entry(name, twin))(*args)

    call.__name__ = name
    return call


@functools.cache
def learning_entry() -> tuple[Any, Any]:
    """The learner's ``begin`` and ``cdcl``, each compiled without index wrap-around
    (1.1x as fast), or loaded from the disk cache, on the first call with each new set
    of array types (32-bit or 64-bit positions)."""
    ns = numba_namespace(declaration("cdcl"))
    return _compiled_on_call(ns, "begin"), _compiled_on_call(ns, "cdcl")


def _compiled_on_call(ns: types.SimpleNamespace, name: str) -> Callable[..., Any]:
    """The entry point ``name`` of ``ns`` as a function that compiles it for the array
    types of each call that brings new ones ([`dlx.kernels.cdcl.state.dtypes`][])."""
    done: set[tuple[np.dtype, ...]] = set()
    dispatcher = getattr(ns, name)
    decl = declaration("cdcl")

    def call(S: Any, *rest: Any) -> Any:
        key = learner_state.dtypes(S)
        if key not in done:
            compile_entry(decl, ns, name, key)
            call.nonnegative_indexing = ns.nonnegative_indexing  # type: ignore[attr-defined]
            done.add(key)
        return dispatcher(S, *rest)

    call.__name__ = name
    call.dispatcher = dispatcher  # type: ignore[attr-defined]
    return call


@functools.cache
def memo_entry(parts: bool = False) -> MemoKernel:
    """The memoized search's kernel compiled or loaded from the disk cache, on the first
    call, over contiguous int64 arrays; ``parts``: the twin that splits into independent
    parts (``SPLITTING``)."""
    decl = declaration("memo")
    ns = numba_namespace(decl, {"SPLITTING": parts})
    for name in decl.entries:
        compile_entry(decl, ns, name)
    return MemoKernel("numba", ns.search, ns.rehash_memo, ns.rehash_zdd,
                      array=lambda a: np.array(a, dtype=np.int64, order="C"),
                      zeros=lambda n: np.zeros(n, dtype=np.int64),
                      grown=lambda a, n: np.concatenate((a, np.zeros(n - len(a), np.int64))),
                      numpy=lambda a: a)


def _resized(a: np.ndarray, n: int) -> np.ndarray:
    """``a`` with ``n`` words, in place where numpy can: its memory reallocated (no
    second copy alive at the peak; the pages of a shrunk tail given back), the new words
    zeros; else a new array. For arrays that nothing views (the frontier construction's
    own: numpy's check of references is skipped)."""
    try:
        a.resize(n, refcheck=False)
        return a
    except ValueError:  # not its own memory
        out = np.zeros(n, dtype=a.dtype)
        m = min(n, len(a))
        out[:m] = a[:m]
        return out


@functools.cache
def frontier_entry() -> FrontierKernel:
    """The frontier construction's kernel compiled or loaded from the disk cache, on the
    first call, over contiguous arrays of the dtypes it declares (32-bit node
    numbers)."""
    decl = declaration("frontier")
    ns = numba_namespace(decl)
    for name in decl.entries:
        compile_entry(decl, ns, name)
    return FrontierKernel("numba", ns.expand, ns.reduce, array=np.ascontiguousarray,
                          zeros=lambda n, dtype: np.zeros(n, dtype=dtype), grown=_resized,
                          shrunk=_resized, numpy=lambda a: a)


def _written_grown(a: np.ndarray, n: int) -> np.ndarray:
    """``a`` lengthened to ``n`` with zeros written now (as [`_written_zeros`][]: the
    store's new slots are touched when they are made, not by the next operation)."""
    out = np.empty(n, dtype=a.dtype)
    out[: len(a)] = a
    out[len(a):] = 0
    return out


def _written_zeros(n: int, dtype: Any = np.int64) -> np.ndarray:
    """``n`` zeros, written now: the store's tables are touched when they are made (a
    ``np.zeros`` array is mapped page by page as the kernel first writes it, which made
    the first operation after the store grew up to twice as slow)."""
    a = np.empty(n, dtype=dtype)
    a.fill(0)
    return a


@functools.cache
def zdd_entry() -> ZddKernel:
    """The ZDD store's kernel compiled or loaded from the disk cache, on the first call,
    over contiguous arrays of the dtypes it declares (32-bit node fields)."""
    decl = declaration("zdd")
    ns = numba_namespace(decl)
    for name in decl.entries:
        compile_entry(decl, ns, name)
    return ZddKernel("numba", ns.apply, ns.import_diagram, ns.reach, ns.tally, ns.transfer,
                     ns.rehash, ns.recache, ns.count_mod, ns.count_log2, ns.compact,
                     array=np.ascontiguousarray, zeros=_written_zeros,
                     blank=lambda n: np.zeros(n, dtype=np.int64),
                     floats=lambda n: np.zeros(n, dtype=np.float64), grown=_written_grown,
                     cleared=_cleared, numpy=lambda a: a)


def _cleared(a: np.ndarray) -> np.ndarray:
    """``a`` zeroed in place ([`dlx.backend.ZddKernel`][]'s ``cleared``): a fresh array's
    page faults made the next operations up to 4x slower (12 x 12: 6 -> 26 ms)."""
    a.fill(0)
    return a


def _popcount() -> Any:
    """numba's intrinsic for LLVM's ``ctpop`` of an integer (the ``popcnt`` instruction)."""
    from numba.extending import intrinsic

    @intrinsic
    def popcount(typingctx: Any, word: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return word(word), codegen

    return popcount


def _words_namespace(adapter: tuple[Any, Any] | None = None,
                     short: bool = False) -> types.SimpleNamespace:
    """[`dlx.kernels.words`][] by the recipe, ``ctz`` and ``popcount`` the CPU's own
    (``short``: its short twin's constants, [`dlx.kernels.words.SHORT`][]); with an
    adapter's ``(encode, decode)``, those compiled in, under a tag that also hashes
    their names and their modules' sources (the disk cache keys ``search_through`` by its
    own source only: two codecs of one module must not share an entry)."""
    from numba.cpython.unsafe.numbers import trailing_zeros

    overrides: dict[str, Any] = {"ctz": trailing_zeros, "popcount": _popcount(),
                                 **(kernel_words.SHORT if short else {})}
    tagged: dict[str, Any] = {"ctz": "trailing_zeros", "popcount": "ctpop"}
    if adapter is not None:  # which functions, and their modules' sources
        tagged["adapter"] = hashlib.sha256("".join(
            f"{f.__module__}.{f.__qualname__}:{inspect.getsource(sys.modules[f.__module__])}"
            for f in adapter).encode()).hexdigest()
        overrides["encode"], overrides["decode"] = (_njit(f, frozenset()) for f in adapter)
    return numba_namespace(declaration("words"), overrides, tagged)


@functools.cache
def words_entry(short: bool = False) -> Any:
    """[`dlx.kernels.words`][]' batch driver (the batch driver over its steps, which
    numba inlines), compiled or loaded from the disk cache on the first call; ``short``:
    its short twin's ([`dlx.kernels.words.SHORT`][])."""
    ns = _words_namespace(short=short)
    return entry_point(compile_entry(declaration("words"), ns, "search_batch",
                                     kernel_words.dtypes(short)))


def _short(links: Links) -> bool:
    """Whether the words tables of ``links`` (made already) are the short twin's."""
    return kernel_words.is_short(links.converted["numba-words"])


_throughs: dict[tuple[Any, Any, bool], tuple[Any, Any, Any]] = {}


def through_entry(encode: Any, decode: Any, short: bool = False) -> tuple[Any, Any, Any]:
    """[`dlx.kernels.words.search_through`][] compiled over an adapter's ``encode`` and
    ``decode`` (or loaded from the disk cache), once per pair and twin (``short``); with
    those two compiled, for a search that outlasts its first slice. Like the kernels,
    they are compiled without negative-index wrap-around."""
    key = (encode, decode, short)
    found = _throughs.get(key)
    if found is not None:
        return found
    with _compile_lock:
        found = _throughs.get(key)
    if found is None:
        ns = _words_namespace((encode, decode), short)
        point = entry_point(compile_entry(declaration("words"), ns, "search_through",
                                          kernel_words.dtypes(short)))
        with _compile_lock:
            found = _throughs.setdefault(key, (point, ns.encode, ns.decode))
    return found


def _through_work(state: Any, size: int, length: int) -> tuple[np.ndarray, ...]:
    """A working copy for [`NumbaBackend.one_through`][]'s runner: ``state`` packed
    ([`dlx.kernels.words.pack`][]: two arrays), a record of ``size`` slots and a batch's
    place (``WHERE``), which the compiled call sets afresh each time, and room for an
    answer of ``length`` bytes (grown when one does not fit)."""
    return (*kernel_words.pack(state), np.zeros(size, dtype=np.int64), _WHERE.copy(),
            np.zeros(length, dtype=np.uint8))


def _words_for_one_call(links: Links) -> Any:
    """A pooled bit-words state of ``links`` when [`dlx.kernels.kernel_for`][] gives the
    one call to the words kernel, else None (the links' batch serves)."""
    if kernel_for(links, "numba", "one_call").module != "words":
        return None
    return kernel_words.pooled(links)


class NumbaBackend(Backend):
    """[`dlx.kernels.algorithm_c`][] compiled by numba, cached on disk; needs the ``fast`` extra."""

    name = "numba"
    slice_seconds = COMPILED_SLICE_SECONDS

    def __init__(self) -> None:
        self._kernels: dict[Twin, Kernel] = {}
        self.kernels = {c: self._kernel(_c_twin(c, False)) for c in (True, False)}
        """By colors: the kernels for problems of at most ``SCAN_ITEMS`` primary items."""
        self.walk_kernels = {c: self._kernel(_c_twin(c, True)) for c in (True, False)}
        """By colors: the kernels for more primary items (``choose`` walks first)."""
        self.mcc_kernels = {c: self._kernel(_c_twin(c, mcc=True)) for c in (True, False)}
        """By colors: the kernels of multiplicities and costs ([`dlx.kernels.algorithm_m`][])."""
        self.strategy_kernels = {
            (c, walk, weighted, reduce): self._kernel(_c_twin(c, walk and not weighted,
                                                              weighted, reduce))
            for c in (True, False) for walk in (True, False) for weighted in (True, False)
            for reduce in (True, False) if weighted or reduce}
        """By (colors, walk, weighted, lookahead): the kernels of the strategies for hard
        instances, each a twin of its own so that the default search pays nothing for
        them. (The weighted choice never calls ``choose``: it needs no walking twin.)"""

    def _kernel(self, twin: Twin) -> Kernel:
        """The [`Kernel`][] of one compiled twin (made once; compiled on first use)."""
        made = self._kernels.get(twin)
        if made is None:
            module, switches = twin
            on = dict(switches)
            name = "numba" + ("" if on.get("COLORS", True) else "-x") + (
                "-walk" if on.get("WALK") else "") + ("-weighted" if on.get("WEIGHTED") else
                                                       "") + (
                "-lookahead" if on.get("REDUCE") else "") + (
                "-m" if module == "algorithm_m" else "")
            kept = ("COLORS", "WALK")  # force_all: the strategies off
            force = (module, tuple((k, v if k in kept else False) for k, v in switches)
                     if module == "algorithm_c" else switches)
            made = self._kernels.setdefault(twin, Kernel(
                name, _entry("search", twin), _entry("force_all", force), INACTIVE,
                as_int64, np.copy, mcc=module == "algorithm_m"))
        return made

    def unavailable(self) -> str | None:
        return numba_unavailable()

    def loaded(self) -> bool:
        return is_loaded()

    def kernel(self, links: Links, weighted: bool = False, reduce: bool = False) -> Kernel:
        return self._kernel(_twin(kernel_for(links, "numba", weighted=weighted,
                                             reduce=reduce)))

    def learning(self) -> tuple[Any, Any]:
        return learning_entry()

    def memo(self, parts: bool = False) -> MemoKernel:
        return memo_entry(parts)

    def zdd(self) -> ZddKernel:
        return zdd_entry()

    def frontier(self) -> FrontierKernel:
        return frontier_entry()

    def batch(self, job: BatchJob) -> None:
        links = job.links
        setup = links.converted.get("numba-batch-setup")
        if setup is None:  # the kernel, the entry point and the first slice, once per problem
            twin = _twin(kernel_for(links, "numba", "batch"))
            setup = links.converted.setdefault("numba-batch-setup", (
                twin[0] == "words", words_entry(_short(links)) if twin[0] == "words"
                else entry("search_batch", twin), first_slice(links)))
        words, search_batch, first = setup
        state: Any = kernel_words.pooled(links) if words else None  # bit words
        if state is not None:
            pool = "numba-words-pool"
        else:
            state, pool = self._workspace(links), "numba-batch"
        where = _WHERE.copy()  # see the W_ names of dlx.kernels.record
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
        job.invalid = int(where[W_INVALID])

    def one_instance(self, links: Links, width: int) -> OneInstance | None:
        """[`batch`][] of one instance on bit words, without the job's bookkeeping: the
        entry point, the first slice and each length's ``indptr`` found once; a search
        that outlasts the first slice goes on as [`batch`][]'s would. None when the
        problem is not for the words ([`dlx.kernels.kernel_for`][]'s one call)."""
        state = _words_for_one_call(links)
        if state is None:
            return None
        tables = links.converted["numba-words"]  # the problem's, for more working arrays
        search_batch, first, size = words_entry(_short(links)), first_slice(links), \
            B_FIRST + width
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
            return table, where.item(W_INVALID)

        return run

    def one_through(self, links: Links, width: int, encode: Any,
                    decode: Any) -> OneThrough | None:
        """[`one_instance`][] with an adapter's ends compiled in: ``encode``, the batch of
        one on bit words, ``decode``, in one call ([`through_entry`][]); a search that
        outlasts the first slice goes on as [`batch`][]'s would, then is decoded."""
        state = _words_for_one_call(links)
        if state is None:
            return None
        tables = links.converted["numba-words"]  # the problem's, for more working arrays
        try:
            point, encoded, decoded = through_entry(encode, decode, _short(links))
        except Exception as e:  # numba's: the codec is no code numba compiles
            if not type(e).__module__.startswith("numba"):
                raise
            why = str(e).strip().splitlines()[0] if str(e).strip() else ""
            raise ArgumentError(f"codec: numba cannot compile {encode.__qualname__} and "
                                f"{decode.__qualname__} with the search (they must take "
                                f"and return arrays as dlx.InstanceCodec says; "
                                f"{type(e).__name__}: {why})") from None
        first, size = first_slice(links), B_FIRST + width
        pool = [_through_work(state, size, 0)]  # pristine between calls (list.pop is atomic)

        def run(data: np.ndarray, context: np.ndarray, node_stop: int, solution_stop: int,
                keep: bool = True) -> tuple[np.ndarray | None, int, np.ndarray | None]:
            work = pool.pop() if pool else \
                _through_work(kernel_words.workspace(tables), size, len(data))
            mem, lmem, out, where, answers = work  # set afresh by the call, but answers
            table = None
            if keep:  # the record in a table of its own, returned
                table = np.zeros((1, size), dtype=np.int64)
                out = table.reshape(-1)
            t0 = time.perf_counter()
            n = point(mem, lmem, data, context, out, where, answers, node_stop, solution_stop,
                      width, first)  # (no *args: a tuple to unpack costs a call ~0.15 us)
            if n >= 0:  # the answer: the search is done, it found a first solution
                got = answers.copy() if n == len(answers) else answers[:n].copy()
                pool.append(work)
                return table, -1, got
            if not where.item(W_INSTANCE):  # rare: a long search goes on, as batch's
                if table is None:
                    table = out.reshape(1, size).copy()
                    out = table.reshape(-1)
                forced = encoded(data, context)
                args = (kernel_words.unpack(mem, lmem), forced, np.array((0, len(forced))),
                        out, where)
                self._go_on(links, width, table, args, node_stop, solution_stop, first, t0)
            answer = None
            if n == -2 or out.item(B_SOLUTIONS):  # decoded here
                answer = decoded(out[B_FIRST : B_FIRST + out.item(B_SIZE)], data, context)
                if len(answer) > len(answers):  # the next answers fit
                    work = (*work[:4], np.zeros(len(answer), dtype=np.uint8))
            found, invalid = out.item(B_SOLUTIONS), where.item(W_INVALID)
            if table is None and not found:  # no answer: the record says why
                table = out.reshape(1, size).copy()
            pool.append(work)
            return table, invalid, answer if found else None

        return run

    def _go_on(self, links: Links, width: int, table: np.ndarray, args: tuple,
               node_stop: int, solution_stop: int, first: int, t0: float) -> None:
        """The rest of a batch of one over bit words that outlasted its first slice
        (begun at ``t0``; ``args``: the state, the forced options, their ``indptr``, the
        record, the place), as [`batch`][]'s goes on."""
        self._sliced(BatchJob(links, args[2], args[1], width, node_stop, solution_stop, None,
                              table, cut=1), words_entry(_short(links)), args, first,
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
            job.progress(int(where[W_INSTANCE]))
        slices.ran(first, seconds, None if job.deadline is None else job.deadline - now)

        def step(budget: int) -> tuple[Status | None, int, None]:
            if not search_batch(*args, job.node_stop, job.solution_stop, job.width, budget):
                return Status.COMPLETE, 0, None
            if job.progress is not None:
                job.progress(int(where[W_INSTANCE]))
            return None, budget, None

        outcome = SearchStats()
        timeout = None if job.deadline is None else job.deadline - now
        if timeout is not None and timeout <= 0:
            outcome.status = Status.TIMEOUT
        else:
            for _ in drive(lambda: step, outcome, slices, timeout):
                pass
        if outcome.status is Status.TIMEOUT:
            job.cut = int(where[W_INSTANCE])  # the rest stop now
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
