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

import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import kernel
from .backends import get_backend, kernel_bytes, kernel_list, numba_available
from .links import Links

__all__ = ["BatchResult", "run_batch"]

_NUMBA_MIN_WORK = 2_000_000
"""``auto`` takes numba for a batch once instances x nodes reach this (e.g. 500 Sudokus),
or at once if this process has loaded the compiled kernel: loading it costs ~1 s, about
what the python backend needs for 500 Sudokus."""


@dataclass(frozen=True)
class BatchResult:
    """What each instance's search did; arrays indexed by instance.

    ``found`` is the number of solutions found (at most the limit); it is the exact count
    where ``complete``. ``conflict`` marks instances whose forced options exclude one
    another (nothing was searched; ``conflicting`` is the first forced option that an
    earlier one excludes, -1 elsewhere); ``stopped`` marks those whose node budget ran out
    before the limit or the end. ``nodes``, ``updates`` and ``max_level`` are the search's,
    after the forced options. ``options[k, :size[k]]`` is the first solution of instance
    ``k`` (the forced options included), sorted; the rest of the row is -1.
    """

    status: np.ndarray  # kernel.DONE, SOLUTION (the limit was reached), PAUSED or CONFLICT
    found: np.ndarray
    nodes: np.ndarray
    updates: np.ndarray
    max_level: np.ndarray
    size: np.ndarray
    options: np.ndarray
    conflicting: np.ndarray
    backend: str
    seconds: float

    def __len__(self) -> int:
        return len(self.status)

    @property
    def conflict(self) -> np.ndarray:
        return self.status == kernel.CONFLICT

    @property
    def complete(self) -> np.ndarray:
        """True where the search tree was exhausted (a conflict counts as complete: 0)."""
        return (self.status == kernel.DONE) | (self.status == kernel.CONFLICT)

    @property
    def stopped(self) -> np.ndarray:
        return self.status == kernel.PAUSED

    def solution(self, k: int) -> list[int] | None:
        """The first solution of instance ``k`` as a sorted list of options, or None."""
        if not self.found[k]:
            return None
        return self.options[k, : int(self.size[k])].tolist()


def _csr(forced: Iterable[Iterable[int]]) -> tuple[np.ndarray, np.ndarray]:
    rows = [np.asarray(list(f) if not isinstance(f, np.ndarray) else f, dtype=np.int64)
            for f in forced]
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=indptr[1:])
    indices = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    return indptr, indices.astype(np.int64, copy=False)


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
) -> BatchResult:
    """Search ``links`` once per instance (see :meth:`dlx.ExactCover.solve_batch`).

    ``min_width`` is the fewest primary items of an option, which bounds the size of a
    solution by ``n_primary // min_width``.
    """
    start = time.perf_counter()
    if forced is not None:
        if indptr is not None or indices is not None:
            raise TypeError("give either forced or indptr and indices, not both")
        indptr, indices = _csr(forced)
    elif indptr is None or indices is None:
        raise TypeError("give forced, or indptr and indices")
    indptr = np.asarray(indptr, dtype=np.int64)
    indices = np.asarray(indices, dtype=np.int64)
    if (indptr.ndim != 1 or indices.ndim != 1 or len(indptr) == 0 or indptr[0] != 0
            or indptr[-1] != len(indices) or np.any(np.diff(indptr) < 0)):
        raise ValueError("indptr must rise from 0 to len(indices)")
    n = len(indptr) - 1
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    bad = np.flatnonzero((indices < 0) | (indices >= n_options))
    if len(bad):
        k = int(np.searchsorted(indptr, bad[0], side="right")) - 1
        raise IndexError(f"instance {k} forces option {indices[bad[0]]}, "
                         f"not in range 0..{n_options - 1}")
    forcing = np.full(n_options, -1, dtype=np.int64)  # option -> its node; -1: dropped
    forcing[: len(links.forcing_node)] = links.forcing_node
    nodes = forcing[indices]
    bad = np.flatnonzero(nodes < 0)
    if len(bad):
        k = int(np.searchsorted(indptr, bad[0], side="right")) - 1
        raise ValueError(f"instance {k} forces option {indices[bad[0]]}, which has no "
                         "primary item and can be in no solution")

    name = _choose_backend(backend, n * links.n_nodes)
    width = links.n_primary // max(min_width, 1)
    record = kernel.B_FIRST + width
    never = 1 << 62
    node_stop = max_nodes if max_nodes is not None else never
    solution_stop = limit if limit is not None else never
    regs = np.zeros(kernel.N_REGS, dtype=np.int64)
    regs[kernel.PRIMARY_END] = links.n_primary + 1
    choice = np.zeros(links.n_primary + 1, dtype=np.int64)
    if name == "numba":
        from .compiled import search_batch

        U, D, TOP, COLOR, LEN, LL, RL = _arrays(links, "numba", kernel.INACTIVE, _as_int64,
                                                _as_int64)
        out = np.zeros(n * record, dtype=np.int64)
        search_batch(U.copy(), D.copy(), TOP, COLOR.copy(), LEN.copy(), LL.copy(), RL.copy(),
                     choice, regs, nodes, indptr, out, node_stop, solution_stop, width)
    else:
        small = links.max_len < 128  # as the python backend: LEN a bytearray, INACTIVE 128
        as_len = (lambda a: bytearray(a.astype(np.uint8))) if small else np.ndarray.tolist
        U, D, TOP, COLOR, LEN, LL, RL = _arrays(
            links, "python", 128 if small else kernel.INACTIVE, np.ndarray.tolist, as_len)
        out_list = [0] * (n * record)
        ns = kernel_bytes if small else kernel_list
        ns.search_batch(U[:], D[:], TOP, COLOR[:], LEN[:], LL[:], RL[:], choice.tolist(),
                        regs.tolist(), nodes.tolist(), indptr.tolist(), out_list,
                        node_stop, solution_stop, width)
        out = np.array(out_list, dtype=np.int64)
    table = out.reshape(n, record)
    status = table[:, kernel.B_STATUS].copy()
    size = table[:, kernel.B_SIZE].copy()
    if np.any(size > width):  # cannot happen: every option covers min_width primary items
        raise AssertionError("a solution has more options than primary items allow")
    options = table[:, kernel.B_FIRST :]
    conflicting = np.where(status == kernel.CONFLICT, options[:, 0], -1) if width \
        else np.full(n, -1, dtype=np.int64)
    if np.all(size == width):  # every row full (one Sudoku size): sort, nothing to pad
        options = np.sort(options, axis=1)
    else:
        options = np.where(np.arange(width) < size[:, None], options, never)
        options.sort(axis=1)
        options[options == never] = -1
    return BatchResult(
        status=status, found=table[:, kernel.B_SOLUTIONS].copy(),
        nodes=table[:, kernel.B_NODES].copy(), updates=table[:, kernel.B_UPDATES].copy(),
        max_level=table[:, kernel.B_MAX_LEVEL].copy(), size=size, options=options,
        conflicting=conflicting, backend=name, seconds=time.perf_counter() - start)


def _choose_backend(backend: str, work: int) -> str:
    """``auto``: numba once it is loaded, or for ``work`` (instances x nodes) that repays
    loading it; otherwise the backend named (ValueError, ImportError as for one search)."""
    if backend != "auto":
        return get_backend(backend).name
    compiled = sys.modules.get("dlx.compiled")
    if compiled is not None and compiled.is_loaded():
        return "numba"
    return "numba" if work >= _NUMBA_MIN_WORK and numba_available() else "python"


def _as_int64(a: np.ndarray) -> np.ndarray:
    return np.array(a, dtype=np.int64, order="C")


def _arrays(links: Links, name: str, inactive: int, as_array, as_len) -> Sequence[Any]:
    """The pristine U, D, TOP, COLOR, LEN, LL, RL for one backend, converted once."""
    key = ("batch", name, inactive)
    arrays = links.converted.get(key)
    if arrays is None:
        length = links.LEN.copy()
        length[0] = inactive
        arrays = links.converted[key] = (
            as_array(links.U), as_array(links.D), as_array(links.TOP), as_array(links.COLOR),
            as_len(length), as_array(links.LL), as_array(links.RL))
    return arrays
