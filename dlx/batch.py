"""Many searches of one problem in one kernel call: each instance forces some options.

A batch is one problem (say the empty 9x9 Sudoku, 729 options x 324 items) and many
*instances*, each a set of options forced into the solution (a puzzle's givens). The
driver loop is :func:`dlx.kernel.search_batch`, run by the same backends as the search:
for every instance it restores the arrays, forces the options with the kernel's own
``cover`` and ``commit``, and runs the kernel's own ``search``. What is left once the
options are forced is exactly the problem without their items and without the options
that clash with them, so ``nodes`` and ``updates`` are those of a search of that smaller
problem (the forcing is not counted), and the solutions are found in the same order.

With the compiled backend the whole batch is one call into machine code: the Python cost
per instance is a few numpy operations over all instances, not a search set-up each.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from functools import cached_property
from itertools import accumulate, chain
from typing import Any

import numpy as np

from . import kernel
from .backends import as_int64, auto_takes_numba, charge_python, get_backend, numba_available
from .links import Links
from .search import (
    COMPILED_SLICE_SECONDS,
    TIMEOUT_SLICE_SECONDS,
    SearchStats,
    Slices,
    run_search,
)

__all__ = ["BatchResult", "run_batch"]

_NUMBA_MIN_WORK = 2_000_000
"""``auto`` takes numba for a batch once instances x nodes reach this (e.g. 700 Sudokus),
or at once if this process has loaded the compiled kernel: loading it costs ~0.6 s, about
what the python backend needs for 600 Sudokus."""


class BatchResult:
    """What each instance's search did; arrays indexed by instance.

    ``found`` is the number of solutions found (at most the limit); it is the exact count
    where ``complete``. ``conflict`` marks instances whose forced options exclude one
    another (nothing was searched; ``conflicting`` is the first forced option that an
    earlier one excludes, -1 elsewhere); ``stopped`` marks those whose node budget ran out
    before the limit or the end. ``nodes``, ``updates`` and ``max_level`` are the search's,
    after the forced options. ``options[k, :size[k]]`` is the first solution of instance
    ``k`` (the forced options included), sorted; the rest of the row is -1. A timeout
    stops the instance under way and every later one (``timed_out``).

    The fields are views of the kernel's table of records, and ``options`` and
    ``conflicting`` are worked out on first use: a batch of one pays for what it reads.
    """

    def __init__(self, table: np.ndarray, backend: str, seconds: float, cut: int) -> None:
        self.table = table  # one record per instance, laid out as kernel.B_*
        self.backend = backend
        self.seconds = seconds
        self.cut = cut  # the first instance that the timeout stopped (len(self): none)

    def __len__(self) -> int:
        return len(self.table)

    def __repr__(self) -> str:
        return f"<BatchResult of {len(self)} instances, backend {self.backend!r}>"

    @property
    def status(self) -> np.ndarray:
        """kernel.DONE, SOLUTION (the limit was reached), PAUSED or CONFLICT."""
        return self.table[:, kernel.B_STATUS]

    @property
    def found(self) -> np.ndarray:
        return self.table[:, kernel.B_SOLUTIONS]

    @property
    def nodes(self) -> np.ndarray:
        return self.table[:, kernel.B_NODES]

    @property
    def updates(self) -> np.ndarray:
        return self.table[:, kernel.B_UPDATES]

    @property
    def max_level(self) -> np.ndarray:
        return self.table[:, kernel.B_MAX_LEVEL]

    @property
    def size(self) -> np.ndarray:
        return self.table[:, kernel.B_SIZE]

    @cached_property
    def options(self) -> np.ndarray:
        first = self.table[:, kernel.B_FIRST :]
        size, width = self.size, first.shape[1]
        if (size == width).all():  # every row a full solution (one Sudoku size): sort
            return np.sort(first, axis=1)
        if (size > width).any():  # cannot happen: every option covers min_width items
            raise AssertionError("a solution has more options than primary items allow")
        never = 1 << 62
        options = np.where(np.arange(width) < size[:, None], first, never)
        options.sort(axis=1)
        options[options == never] = -1
        return options

    @cached_property
    def conflicting(self) -> np.ndarray:
        if self.table.shape[1] == kernel.B_FIRST:  # width 0: no option recorded
            return np.full(len(self), -1, dtype=np.int64)
        return np.where(self.conflict, self.table[:, kernel.B_FIRST], -1)

    @property
    def conflict(self) -> np.ndarray:
        return self.status == kernel.CONFLICT

    @property
    def complete(self) -> np.ndarray:
        """True where the search tree was exhausted (a conflict counts as complete: 0)."""
        return (self.status == kernel.DONE) | (self.status == kernel.CONFLICT)

    @property
    def stopped(self) -> np.ndarray:
        """True where a budget ran out before the limit or the end: ``max_nodes``, or the
        timeout (see :attr:`timed_out`)."""
        return self.status == kernel.PAUSED

    @property
    def timed_out(self) -> np.ndarray:
        """True where the batch's timeout stopped the instance (from :attr:`cut` on, all
        but the conflicts and those that were decided in the last slice)."""
        return self.stopped & (np.arange(len(self)) >= self.cut)

    def solution(self, k: int) -> list[int] | None:
        """The first solution of instance ``k`` as a sorted list of options, or None."""
        record = self.table[k].tolist()
        if not record[kernel.B_SOLUTIONS]:
            return None
        return sorted(record[kernel.B_FIRST : kernel.B_FIRST + record[kernel.B_SIZE]])


def _csr(forced: Iterable[Iterable[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Lists of options as CSR arrays (int64)."""
    rows = [f if isinstance(f, (list, np.ndarray)) else list(f) for f in forced]
    if len(rows) == 1:  # a batch of one (a Sudoku): two array calls instead of four
        indices = np.array(rows[0], dtype=np.int64)
        return np.array((0, len(indices)), dtype=np.int64), indices
    indptr = np.fromiter(accumulate(map(len, rows), initial=0), dtype=np.int64,
                         count=len(rows) + 1)
    return indptr, np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=indptr[-1])


def _raise_invalid(record: np.ndarray, k: int, n_options: int) -> None:
    """IndexError or ValueError for instance ``k``, which forced an option not in the
    problem (status INVALID): out of range, or dropped (no primary item)."""
    option = int(record[kernel.B_FIRST])
    if not 0 <= option < n_options:
        raise IndexError(f"instance {k} forces option {option}, not in range "
                         f"0..{n_options - 1}")
    raise ValueError(f"instance {k} forces option {option}, which has no primary item and "
                     "can be in no solution")


def run_batch(
    links: Links,
    n_options: int,
    min_width: int,
    forced: Iterable[Iterable[int]] | None,
    *,
    indptr: Any = None,
    indices: Any = None,
    limit: int | None,
    max_nodes: int | None,
    backend: str,
    timeout: float | None = None,
) -> BatchResult:
    """Search ``links`` once per instance (see :meth:`dlx.ExactCover.solve_batch`).

    ``min_width`` is the fewest primary items of an option, which bounds the size of a
    solution by ``n_primary // min_width``. The kernel checks the forced options itself
    (status INVALID), so that the fixed cost of a call stays at a few numpy operations:
    one Sudoku is a batch of one for the ``sudoku`` adapter.
    """
    start = time.perf_counter()
    if forced is not None:
        if indptr is not None or indices is not None:
            raise TypeError("give either forced or indptr and indices, not both")
        indptr, indices = _csr(forced)
    elif indptr is None or indices is None:
        raise TypeError("give forced, or indptr and indices")
    else:
        indptr = np.ascontiguousarray(indptr, dtype=np.int64)  # as the kernel is compiled
        indices = np.ascontiguousarray(indices, dtype=np.int64)
        if (indptr.ndim != 1 or indices.ndim != 1 or len(indptr) == 0 or indptr[0] != 0
                or indptr[-1] != len(indices) or np.any(np.diff(indptr) < 0)):
            raise ValueError("indptr must rise from 0 to len(indices)")
    n = len(indptr) - 1
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")

    name = _choose_backend(backend, n * links.n_nodes)
    width = links.n_primary // max(min_width, 1)
    record = kernel.B_FIRST + width
    never = 1 << 62
    node_stop = max_nodes if max_nodes is not None else never
    solution_stop = limit if limit is not None else never
    if timeout is not None and timeout < 0:
        raise ValueError(f"timeout must be at least 0 seconds, got {timeout}")
    deadline = start + timeout if timeout is not None else None
    if name == "numba":
        work = _workspace(links)
        out = np.zeros(n * record, dtype=np.int64)
        where = np.array([0, 0, 0, -1], dtype=np.int64)  # instance, phase, forced, INVALID
        slices = Slices(COMPILED_SLICE_SECONDS if deadline is None else TIMEOUT_SLICE_SECONDS)
        cut = n
        with work as arrays:
            t0 = time.perf_counter()
            while work.kernel(*arrays, indices, indptr, out, where, node_stop, solution_stop,
                              width, slices.nodes):
                now = time.perf_counter()  # back in Python: Ctrl-C is seen here
                slices.ran(now - t0)
                t0 = now
                if deadline is not None and now >= deadline and node_stop:
                    cut, node_stop = int(where[0]), 0  # the rest stop at once, undone
        invalid = int(where[3])
    else:
        out, invalid, cut = _python_batch(links, indptr.tolist(), indices.tolist(), record,
                                          limit, max_nodes, deadline)
        if backend == "auto":
            charge_python(time.perf_counter() - start)
    table = out.reshape(n, record)
    if invalid >= 0:
        _raise_invalid(table[invalid], invalid, n_options)
    return BatchResult(table, name, time.perf_counter() - start, cut)


def _choose_backend(backend: str, work: int) -> str:
    """``auto``: as :func:`dlx.backends.auto_takes_numba` says for ``work`` (instances x
    nodes); otherwise the backend named (ValueError, ImportError as for one search)."""
    if (backend == "numba" and numba_available()) or backend == "python":
        return backend
    if backend != "auto":
        return get_backend(backend).name  # the error that says why not
    return "numba" if auto_takes_numba(work, _NUMBA_MIN_WORK) else "python"


def _python_batch(links: Links, indptr: list[int], indices: list[int], record: int,
                  limit: int | None, max_nodes: int | None,
                  deadline: float | None) -> tuple[np.ndarray, int, int]:
    """The python backend: each instance searched on its own by the driver that serves
    ``ExactCover.solutions(forced=...)``, with the records ``search_batch`` writes.

    In CPython that driver's fast path (the forced state computed with numpy, then
    Algorithm X unrolled: :mod:`dlx.kernel_x`) solves a Sudoku ~1.4x faster than the
    kernel's ``search_batch``, which forces with link updates in Python and runs the
    general kernel. Nodes, updates and solutions are the same (tested). Returns the
    records, the first INVALID instance or -1 (as ``search_batch`` does), and the first
    instance that the ``deadline`` cut short (``n``: none).
    """
    n = len(indptr) - 1
    out = np.zeros((n, record), dtype=np.int64)
    forcing = links.forcing_node.tolist()
    width = record - kernel.B_FIRST
    invalid = -1
    cut = n
    for k in range(n):
        forced = indices[indptr[k] : indptr[k + 1]]
        row = out[k]
        bad = [o for o in forced if not 0 <= o < len(forcing) or forcing[o] < 0]
        if bad:
            row[kernel.B_STATUS], row[kernel.B_FIRST] = kernel.INVALID, bad[0]
            invalid = k if invalid < 0 else invalid
            continue
        timeout = None if deadline is None else deadline - time.perf_counter()
        stats = SearchStats()
        first = None
        for solution in run_search(links, stats, limit=limit, count_only=False,
                                   max_nodes=0 if cut < n else max_nodes,
                                   timeout=None if timeout is None else max(timeout, 0),
                                   seed=None, backend="python", forced=forced):
            if first is None:
                first = solution
        if stats.stopped == "timeout" and cut == n:
            cut = k  # this one and the rest stop at once
        if stats.conflict is not None:
            row[kernel.B_STATUS], row[kernel.B_FIRST] = kernel.CONFLICT, stats.conflict
            continue
        row[kernel.B_STATUS] = (kernel.DONE if stats.complete else
                                kernel.SOLUTION if stats.stopped == "limit" else kernel.PAUSED)
        row[kernel.B_SOLUTIONS] = stats.solutions
        row[kernel.B_NODES], row[kernel.B_UPDATES] = stats.nodes, stats.updates
        row[kernel.B_MAX_LEVEL] = stats.max_level
        if first is not None:
            row[kernel.B_SIZE] = len(first)
            row[kernel.B_FIRST : kernel.B_FIRST + min(len(first), width)] = first[:width]
    return out, invalid, cut


class _Workspace(threading.local):
    """One thread's working arrays for compiled batches of one problem.

    ``search_batch`` undoes every instance, so the arrays are pristine again after each
    call and are reused instead of copied (10 copies cost a batch of one Sudoku 10 µs).
    A call that does not finish (an error) may leave them half-covered: they are then
    dropped, and the next call converts them afresh.
    """

    def __init__(self, links: Links) -> None:
        from .compiled import compiled

        self.links = links
        self.kernel = compiled("search_batch", links.colored)
        self.arrays: list[np.ndarray] | None = None
        self.held: list[np.ndarray] | None = None

    def __enter__(self) -> list[np.ndarray]:
        if self.arrays is None:
            links = self.links
            length = links.LEN.copy()
            length[0] = kernel.INACTIVE
            regs = np.zeros(kernel.N_REGS, dtype=np.int64)
            regs[kernel.PRIMARY_END] = links.n_primary + 1
            self.arrays = [as_int64(a) for a in (
                links.U, links.D, links.TOP, links.COLOR, length, links.LL, links.RL,
                np.zeros(links.n_primary + 1, dtype=np.int64), regs, links.forcing_node)]
        self.held, self.arrays = self.arrays, None  # this call's, until it returns
        return self.held

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self.arrays = self.held
        self.held = None


def _workspace(links: Links) -> _Workspace:
    """The calling thread's :class:`_Workspace` for ``links``."""
    work = links.converted.get("batch")
    if work is None:
        work = links.converted.setdefault("batch", _Workspace(links))
    return work
