"""Many searches of one problem in one kernel call: each instance forces some options.

A batch is one problem (say the empty 9x9 Sudoku, 729 options x 324 items) and many
*instances*, each a set of options forced into the solution (a puzzle's givens). The
driver loop is [`dlx.kernels.batch.search_batch`][], run by the same backends as the search:
for every instance it restores the arrays, forces the options with the kernel's own
``cover`` and ``commit``, and runs the kernel's own ``search``. What is left once the
options are forced is exactly the problem without their items and without the options
that clash with them, so ``nodes`` and ``updates`` are those of a search of that smaller
problem (the forcing is not counted), and the solutions are found in the same order.

With the compiled backend the whole batch is one call into machine code: the Python cost
per instance is a few numpy operations over all instances, not a search set-up each.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from .arguments import check_csr, check_forced, check_forced_rows
from .backend import BatchJob
from .budget import NEVER
from .errors import ArgumentError
from .kernels import codes, record
from .links import Links
from .progress import RunProgress
from .registry import NUMBA_MIN_WORK, charge_python, get_backend, handover
from .status import Status
from .views import html_table

__all__ = ["BatchResult", "InstanceCodec", "InstanceSearch", "run_batch"]

_INT64 = np.dtype(np.int64)
_UINT8 = np.dtype(np.uint8)
_COMPLETE = [status.value for status in Status if status.complete]
_STOPPED = [status.value for status in Status if status.stopped]
"""The statuses [`dlx.Status.complete`][] and [`dlx.Status.stopped`][] name, for
whole arrays of them."""


class BatchResult:
    """What each instance's search did; arrays indexed by instance.

    ``status`` says how each ended ([`dlx.Status`][] values: COMPLETE, LIMIT,
    MAX_NODES, TIMEOUT or CONFLICT). ``found`` is the number of solutions found (at most
    the limit); it is the exact count where ``complete``. ``conflict`` marks instances
    whose forced options exclude one another (nothing was searched; ``conflicting`` is the
    first forced option that an earlier one excludes, -1 elsewhere); ``stopped`` marks
    those that a budget stopped before the limit or the end (``max_nodes``, or the
    timeout: ``timed_out``). ``nodes``, ``updates`` and ``max_level`` are the search's,
    after the forced options. ``options[k, :size[k]]`` is the first solution of instance
    ``k`` (the forced options included), sorted; the rest of the row is -1. A timeout
    stops the instance under way and every later one.

    The fields are views of the kernel's table of records, and ``options`` and
    ``conflicting`` are worked out on first use: a batch of one pays for what it reads.
    """

    def __init__(self, table: np.ndarray, backend: str, seconds: float, cut: int) -> None:
        self.table = table  # one record per instance, laid out as record.B_*
        self.backend = backend
        self.seconds = seconds
        self.cut = cut  # the first instance that the timeout stopped (len(self): none)

    def __len__(self) -> int:
        return len(self.table)

    def __repr__(self) -> str:
        return f"<BatchResult of {len(self)} instances, backend {self.backend!r}>"

    def _repr_html_(self) -> str:
        """Jupyter's view: how many instances ended how, the solutions and nodes in all."""
        ended = Counter(Status(int(s)).name for s in self.status)
        return html_table(f"BatchResult of {len(self)} instances", [
            ("backend", self.backend), ("seconds", f"{self.seconds:.3g}"),
            *((f"status {name}", n) for name, n in sorted(ended.items())),
            ("solutions found", int(self.found.sum())), ("nodes", int(self.nodes.sum()))])

    @property
    def status(self) -> np.ndarray:
        """How each instance ended: a [`dlx.Status`][] value."""
        return self.table[:, record.B_STATUS]

    @property
    def found(self) -> np.ndarray:
        return self.table[:, record.B_SOLUTIONS]

    @property
    def nodes(self) -> np.ndarray:
        return self.table[:, record.B_NODES]

    @property
    def updates(self) -> np.ndarray:
        return self.table[:, record.B_UPDATES]

    @property
    def max_level(self) -> np.ndarray:
        return self.table[:, record.B_MAX_LEVEL]

    @property
    def size(self) -> np.ndarray:
        return self.table[:, record.B_SIZE]

    @cached_property
    def options(self) -> np.ndarray:
        first = self.table[:, record.B_FIRST :]
        size, width = self.size, first.shape[1]
        if (size == width).all():  # every row a full solution (one Sudoku size): sort
            return np.sort(first, axis=1)
        if (size > width).any():  # cannot happen: every option covers min_width items
            raise AssertionError("a solution has more options than primary items allow")
        options = np.where(np.arange(width) < size[:, None], first, NEVER)
        options.sort(axis=1)
        options[options == NEVER] = -1
        return options

    @cached_property
    def conflicting(self) -> np.ndarray:
        if self.table.shape[1] == record.B_FIRST:  # width 0: no option recorded
            return np.full(len(self), -1, dtype=np.int64)
        return np.where(self.conflict, self.table[:, record.B_FIRST], -1)

    @property
    def conflict(self) -> np.ndarray:
        return self.status == codes.CONFLICT

    @property
    def complete(self) -> np.ndarray:
        """True where the search tree was exhausted (a conflict counts as complete: 0)."""
        return np.isin(self.status, _COMPLETE)

    @property
    def stopped(self) -> np.ndarray:
        """True where a budget ran out before the limit or the end: ``max_nodes``, or the
        timeout (see [`timed_out`][])."""
        return np.isin(self.status, _STOPPED)

    @property
    def timed_out(self) -> np.ndarray:
        """True where the batch's timeout stopped the instance (from `cut` on, all
        but the conflicts and those that were decided in the last slice)."""
        return self.status == Status.TIMEOUT

    def solution(self, k: int) -> list[int] | None:
        """The first solution of instance ``k`` as a sorted list of options, or None."""
        first = self.solution_array(k)
        return None if first is None else first.tolist()

    def solution_view(self, k: int) -> np.ndarray | None:
        """The first solution of instance ``k`` as the kernel recorded it: its forced
        options, then one option a level, unsorted; a view of the record, not a copy
        (writing to it changes this result), for an adapter that reads each option once,
        as ``sudoku`` decodes a grid; or None."""
        table = self.table
        if not table.item(k, record.B_SOLUTIONS):
            return None
        return table[k, record.B_FIRST : record.B_FIRST + table.item(k, record.B_SIZE)]

    def solution_array(self, k: int) -> np.ndarray | None:
        """[`solution`][] as a sorted int64 array (for arithmetic on all its options at
        once, as decoding a Sudoku does), or None."""
        first = self.solution_view(k)
        if first is None:
            return None
        # sorted by numpy: a Sudoku's 81 options in 1.5 us less than list + sorted (and the
        # array's own sort: 0.3 us less than np.sort's Python layer)
        first = first.copy()
        first.sort()
        return first


class InstanceCodec(NamedTuple):
    """An adapter's two ends of an instance search ([`InstanceSearch.through`][]), two
    functions that numba can compile (plain loops over arrays), run as written on the
    python backend:

    * ``encode(data, context)``: the options to force, an int64 array, for the instance
      ``data`` (a uint8 array in the adapter's own terms: a Sudoku's cell values);
    * ``decode(first, data, context)``: the adapter's answer, a uint8 array, from the
      first solution's options as the kernel recorded them (forced ones first).

    ``context`` is an int64 array the adapter fixes per kind of instance (a Sudoku
    layout's rules). On numba's runner over bit words both are compiled with the search
    into one call, once per codec (so a codec is a module-level pair, made once).
    Elsewhere they run as written, or, if given, as ``plain``: a codec of the same two
    ends written for Python (loops over numpy scalars cost ~0.1 us a step there)."""

    encode: Callable[..., np.ndarray]
    decode: Callable[..., np.ndarray]
    plain: InstanceCodec | None = None


class InstanceSearch:
    """Searches of one problem, an instance (its forced options) a call, the budgets
    checked once ([`dlx.ExactCover.instance_search`][]): each call is a batch of one,
    the very result of ``solve_batch([forced])``, at the least fixed cost; what an
    adapter's one call wants (one Sudoku a call). Holds no state of a search: threads
    may call one at once."""

    __slots__ = ("_backend", "_budgets", "_last", "_problem")

    def __init__(self, links: Links, n_options: int, min_width: int, *, limit: int,
                 max_nodes: int, timeout: float | None, backend: Any) -> None:
        chosen = get_backend(backend, 0)  # an unknown or unavailable backend: refused now
        self._backend = None if backend == "auto" else chosen  # auto: chosen per call
        self._last: tuple[Any, Any, Any] = (None, None, None)  # through's last runner
        self._problem = (links, n_options, min_width)
        self._budgets = (limit, max_nodes, timeout, backend)  # checked: read only

    @property
    def limit(self) -> int:
        return self._budgets[0]

    @property
    def max_nodes(self) -> int:
        return self._budgets[1]

    @property
    def timeout(self) -> float | None:
        return self._budgets[2]

    @property
    def backend(self) -> Any:
        return self._budgets[3]

    def __repr__(self) -> str:
        return (f"<InstanceSearch limit={self.limit} max_nodes={self.max_nodes} "
                f"timeout={self.timeout} backend={self.backend!r}>")

    def __call__(self, forced: Any) -> BatchResult:
        """Search the instance forcing ``forced`` (an iterable of option indices; an int64
        array is taken as it is); errors as ``solve_batch``'s."""
        links, n_options, min_width = self._problem
        limit, max_nodes, timeout, backend = self._budgets
        if timeout is None:
            one = _run_one(links, n_options, min_width, forced, limit, max_nodes,
                           self._backend or backend, time.perf_counter())
            if one is not None:
                return one
        return run_batch(links, n_options, min_width, [forced], limit=limit,
                         max_nodes=max_nodes, backend=backend, timeout=timeout)

    def through(self, codec: InstanceCodec, data: np.ndarray,
                context: np.ndarray) -> tuple[BatchResult, np.ndarray | None]:
        """The instance ``codec.encode`` makes of ``data``, searched as a call does, and
        ``codec.decode``'s answer from its first solution (None without one): in one
        compiled call where the backend can ([`dlx.backend.Backend.one_through`][];
        an adapter's one call then pays one crossing from Python, not three). ``data``:
        a uint8 array, ``context``: an int64 array (contiguous, 1-d), else
        ArgumentError."""
        _check_through(codec, data, context)
        compiled = self._compiled(codec, data, context, True)
        if compiled is not None:
            return compiled  # type: ignore[return-value]  # keep: a result
        encode, decode = _plain(codec)
        result = self(encode(data, context))
        first = result.solution_view(0)
        return result, None if first is None else decode(first, data, context)

    def answer(self, codec: InstanceCodec, data: np.ndarray,
               context: np.ndarray) -> np.ndarray | BatchResult:
        """[`through`][]'s answer where the search finds a first solution (``decode``'s
        array, as [`through`][] gives it), else [`through`][]'s result, which says why
        there is none: what an adapter's one call wants when an answer is all it needs.
        An answer comes without its result, whose table a compiled call then never makes
        (it keeps the record in its own buffers: ~0.7 us of a Sudoku's ~12). Arguments
        and errors as [`through`][]'s."""
        _check_through(codec, data, context)
        compiled = self._compiled(codec, data, context, False)
        result, answer = compiled if compiled is not None else self.through(codec, data,
                                                                            context)
        return result if answer is None else answer  # type: ignore[return-value]

    def answerer(self, codec: InstanceCodec,
                 context: np.ndarray) -> Callable[[np.ndarray], np.ndarray | BatchResult]:
        """[`answer`][] with ``codec`` and ``context`` bound and checked once: a function of
        ``data`` alone, for an adapter that answers many instances of one kind (a Sudoku
        line after line). A named backend's runner is found once too, so that a call
        checks ``data`` and crosses into the compiled search, and no more (~2 us less
        than [`answer`][] on a Sudoku's ~12). Same answers and errors as [`answer`][];
        safe to call from several threads. ``context`` is copied: the caller may change
        its own afterwards."""
        _check_through(codec, np.zeros(0, _UINT8), context)
        context = context.copy()
        context.flags.writeable = False
        limit, max_nodes, timeout, _ = self._budgets
        run: Any = False  # the runner (False: none, every call takes answer's way)
        if self._backend is not None and timeout is None:
            run = self._runner(self._backend, codec)

        def answer(data: np.ndarray) -> np.ndarray | BatchResult:
            if run is False or not _vector(data, _UINT8):  # the way with every check
                return self.answer(codec, data, context)
            start = time.perf_counter()
            table, invalid, got = run(data, context, max_nodes, limit, False)
            if got is not None:
                return got
            return self._result(self._backend, codec, data, context, table, invalid, start)

        return answer

    def _result(self, chosen: Any, codec: InstanceCodec, data: np.ndarray,
                context: np.ndarray, table: np.ndarray, invalid: int,
                start: float) -> BatchResult:
        """The result of a compiled call that found no answer (its ``table`` and
        ``invalid``): the fault it met raised (``solve_batch``'s errors), else the record."""
        links, n_options, _ = self._problem
        if invalid >= 0 or table.item(0, record.B_STATUS) == codes.CONFLICT:  # faults
            forced = _plain(codec)[0](data, context)
            _check_faults(links, n_options, table, invalid, np.array((0, len(forced))),
                          forced)
        return BatchResult(table, chosen.name, time.perf_counter() - start, 1)

    def _compiled(self, codec: InstanceCodec, data: np.ndarray, context: np.ndarray,
                  keep: bool) -> tuple[BatchResult | None, np.ndarray | None] | None:
        """[`through`][] in one compiled call (``keep``: the result made even beside an
        answer, else None there), or None where the backend has none (or a timeout is
        set): then the caller goes the way around in Python."""
        links = self._problem[0]
        limit, max_nodes, timeout, backend = self._budgets
        if timeout is not None:
            return None
        start = time.perf_counter()
        chosen = self._backend or get_backend(backend, links.n_nodes, NUMBA_MIN_WORK)
        last = self._last
        run = last[2] if last[0] is chosen and last[1] is codec else \
            self._runner(chosen, codec)
        if run is False:
            return None
        table, invalid, answer = run(data, context, max_nodes, limit, keep)
        if table is None:
            return None, answer
        if answer is not None:
            return BatchResult(table, chosen.name, time.perf_counter() - start, 1), answer
        return self._result(chosen, codec, data, context, table, invalid, start), None

    def _runner(self, chosen: Any, codec: InstanceCodec) -> Any:
        """``chosen``'s runner of one instance through ``codec``, made once per problem
        (False: none, the way around in Python), remembered for the next call."""
        links, n_options, min_width = self._problem
        key = (chosen, n_options, min_width, codec)
        run = links.converted.get(key)
        if run is None:
            run = links.converted.setdefault(key, chosen.one_through(
                links, _width(links, n_options, min_width), codec.encode, codec.decode)
                or False)
        self._last = (chosen, codec, run)
        return run


def _check_through(codec: Any, data: Any, context: Any) -> None:
    """[`InstanceSearch.through`][]'s arguments, or the ArgumentError naming the first
    that is wrong."""
    if type(codec) is not InstanceCodec:
        raise ArgumentError(f"codec must be a dlx.InstanceCodec (encode, decode[, "
                            f"plain]), got {type(codec).__name__}")
    if not (_vector(data, _UINT8) and _vector(context, _INT64)):
        _refuse_arrays(data=(data, _UINT8), context=(context, _INT64))


def _vector(array: Any, dtype: np.dtype) -> bool:
    """``array`` is a contiguous 1-d array of ``dtype``: what a compiled runner takes as
    it is."""
    return type(array) is np.ndarray and (array.dtype is dtype or array.dtype == dtype) \
        and array.ndim == 1 and array.flags.c_contiguous  # (numpy's own dtypes: is)


def _refuse_arrays(**arrays: tuple[Any, np.dtype]) -> None:
    """ArgumentError naming the first of ``arrays`` (name -> (value, dtype)) that is not
    a contiguous 1-d array of its dtype."""
    for name, (array, dtype) in arrays.items():
        if not _vector(array, dtype):
            raise ArgumentError(f"{name} must be a contiguous 1-d {dtype} array, got "
                                f"{_described(array)}")


def _plain(codec: InstanceCodec) -> tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]:
    """The ends that run in Python: ``plain``'s, or the codec's as written (numba's
    ``py_func`` of a compiled one)."""
    if codec.plain is not None:
        return codec.plain.encode, codec.plain.decode
    return (getattr(codec.encode, "py_func", codec.encode),
            getattr(codec.decode, "py_func", codec.decode))


def _described(value: Any) -> str:
    """An argument that is no array of the right kind, for a message."""
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}, {value.ndim}-d" + (
            "" if value.flags.c_contiguous else ", not contiguous")
    return type(value).__name__


def _width(links: Links, n_options: int, min_width: int) -> int:
    """The options a record has room for: a solution's most (``capacity`` primary items
    or bounds, each option ``min_width`` of them at least), at most all options, at
    least 1 (for the option at fault)."""
    return max(min(links.capacity // max(min_width, 1), n_options), 1)


def run_batch(
    links: Links,
    n_options: int,
    min_width: int,
    forced: Any,
    *,
    indptr: Any = None,
    indices: Any = None,
    limit: int,
    max_nodes: int,
    backend: Any,
    timeout: float | None = None,
    progress: Callable[[RunProgress], object] | None = None,
) -> BatchResult:
    """Search ``links`` once per instance (see [`dlx.ExactCover.solve_batch`][]); the
    budgets are already validated and normalized ([`dlx.arguments`][]).

    ``min_width`` is the fewest primary items of an option, which bounds the size of a
    solution by ``links.capacity // min_width`` (``capacity``: ``n_primary``, or the sum
    of the upper bounds with multiplicities), and by ``n_options``. The kernel checks the
    forced options itself (status INVALID, or CONFLICT for a repeat), so that the fixed
    cost of a call stays at a few numpy operations: one Sudoku is a batch of one for the
    ``sudoku`` adapter.
    """
    start = time.perf_counter()
    if timeout is None and progress is None and type(forced) is list and len(forced) == 1:
        one = _run_one(links, n_options, min_width, forced[0], limit, max_nodes, backend,
                       start)
        if one is not None:
            return one
    if forced is not None:
        if indptr is not None or indices is not None:
            raise ArgumentError("give either forced or indptr and indices, not both")
        indptr, indices = check_forced_rows(forced)
    elif indptr is None or indices is None:
        raise ArgumentError("give forced, or indptr and indices")
    else:
        indptr, indices = check_csr(indptr, indices)
    n = len(indptr) - 1
    chosen = get_backend(backend, n * links.n_nodes, NUMBA_MIN_WORK)
    width = _width(links, n_options, min_width)  # room for the option at fault, too
    table = np.zeros((n, record.B_FIRST + width), dtype=np.int64)
    job = BatchJob(links, indptr, indices, width, max_nodes, limit,
                   None if timeout is None else start + timeout, table,
                   progress=None if progress is None else _reporter(progress, table, start),
                   handover=handover(backend, chosen, charge=False))
    if n:
        chosen.batch(job)
        if job.progress is not None:  # the last report: every instance done
            job.progress(n)
        if job.handover is not None:  # auto gave it to python: the ski-rental count
            charge_python(time.perf_counter() - start)
    else:
        job.invalid, job.cut = -1, 0
    if job.invalid >= 0 or (int(table[0, record.B_STATUS]) == codes.CONFLICT if n == 1
                            else (table[:, record.B_STATUS] == codes.CONFLICT).any()):
        _check_faults(links, n_options, table, job.invalid, indptr, indices)
    if job.cut < n:  # stopped by the timeout, not by max_nodes
        late = table[job.cut:, record.B_STATUS]
        late[late == codes.MAX_NODES] = Status.TIMEOUT
    name = chosen.name if job.handover is None else job.handover.name  # "python->numba"
    return BatchResult(table, name, time.perf_counter() - start, job.cut)


def _reporter(progress: Callable[[RunProgress], object], table: np.ndarray,
              start: float) -> Callable[[int], None]:
    """The kernel's report (the instances done) as the one progress record: instances done
    of all, and their solutions and nodes, read off the table between slices; a count
    told already is not told again."""
    told = [-1]

    def report(done: int) -> None:
        if done == told[0]:
            return
        told[0] = done
        rows = table[:done]
        progress(RunProgress(done, len(table), int(rows[:, record.B_SOLUTIONS].sum()),
                             int(rows[:, record.B_NODES].sum()), time.perf_counter() - start))
    return report


def _run_one(links: Links, n_options: int, min_width: int, row: Any, limit: int,
             max_nodes: int, backend: Any, start: float) -> BatchResult | None:
    """[`run_batch`][] of one instance given as an int64 array (as ``sudoku`` hands a
    puzzle's givens over), on a backend that runs it without a [`BatchJob`][]
    ([`dlx.backend.Backend.one_instance`][], its runner made once per problem and
    backend); None: not that case, take the general way."""
    if not _vector(row, _INT64):
        return None
    chosen = get_backend(backend, links.n_nodes, NUMBA_MIN_WORK)
    key = (chosen, n_options, min_width)
    run = links.converted.get(key)
    if run is None:
        run = links.converted.setdefault(key, chosen.one_instance(
            links, _width(links, n_options, min_width)) or False)
    if run is False:
        return None
    table, invalid = run(row, max_nodes, limit)
    if invalid >= 0 or table.item(0, record.B_STATUS) == codes.CONFLICT:
        _check_faults(links, n_options, table, invalid, np.array((0, len(row))), row)
    return BatchResult(table, chosen.name, time.perf_counter() - start, 1)


def _check_faults(links: Links, n_options: int, table: np.ndarray, invalid: int,
                  indptr: np.ndarray, indices: np.ndarray) -> None:
    """ForcedOptionError, as a single search raises it, for the first instance that forced
    an option not in the problem (status INVALID) or an option twice (a CONFLICT of the
    option with itself). The kernel stops an instance at its first fault, in order, so
    re-checking only these instances, in full, finds what a single search would."""
    status = table[:, record.B_STATUS]
    suspects = np.flatnonzero(status == codes.CONFLICT).tolist()
    if invalid >= 0:
        suspects = sorted([*suspects, invalid])
    dropped = np.flatnonzero(links.forcing_node < 0).tolist()
    for k in suspects:
        row = indices[indptr[k] : indptr[k + 1]].tolist()
        check_forced(row, n_options, dropped, where=f"forced[{k}]")
        if status[k] == codes.INVALID:  # cannot be: check_forced finds what it found
            raise AssertionError(f"instance {k}: the kernel and check_forced disagree")
