"""The ``python`` backend: the kernel in plain Python, over lists, made fast on purpose.

Five kernels for Knuth's search, chosen per problem ([`PythonBackend.kernel`][]), fastest
first (and, for the weighted choice or the lookahead, the general kernel with those on; for
multiplicities and costs, [`dlx.kernels.algorithm_m`][] over lists):

* Algorithm X over bitsets ([`dlx.kernels.bits`][]) for problems without colors whose
  option lists are long for their number of primary items (tilings, queens, Langford
  pairs; [`bits_pay`][] decides);
* Algorithm X unrolled ([`dlx.kernels.unrolled`][]) for the other problems without colors
  (Sudoku), else the kernel as written ([`dlx.kernels.algorithm_c.search`][]);
* each over a ``bytearray`` ``LEN`` when every item has fewer than 128 options (Sudoku,
  queens, Langford pairs...), with ``INACTIVE = 128`` and the choice of item a handful of
  ``bytearray.find`` calls (memchr); else over a list, where the choice is ``min`` then
  ``index``. Both pick Knuth's item: the first active primary item of minimum length.

Without colors, options are forced with numpy ([`dlx.links.Links.restricted`][]), which
in CPython beats link updates one by one. A batch is each instance searched in turn by
the same driver as a single search ([`dlx.search.Search`][]), with the records
[`dlx.kernels.batch.search_batch`][] writes: in CPython that path (numpy forcing, then
Algorithm X unrolled) solves a Sudoku ~1.4x faster than the kernel's own ``search_batch``.
A batch that ``auto`` gave to python moves to numba as a search does (``job.handover``):
the instance under way goes on there, and the later ones start there.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .backend import Backend, BatchJob, Kernel
from .kernels import bits as kernel_bits
from .kernels import codes, declaration, kernel_for, record
from .kernels import unrolled as kernel_x
from .kernels.bits import bits_pay
from .kernels.declare import namespace
from .links import INACTIVE, Links
from .search import Search
from .slices import COMPILED_SLICE_SECONDS
from .state import REG_PRIMARY_END
from .status import Status

__all__ = ["BITS_KERNEL", "PYTHON", "PythonBackend", "bits_pay"]

SMALL_INACTIVE = 128
"""``INACTIVE`` over a bytearray ``LEN`` (every list shorter than 128)."""


def _choose_min(LEN, LL, RL, REG):
    """C3 over a list: ``min`` and ``index`` in C, restricted to the primary items."""
    end = REG[REG_PRIMARY_END]
    if end == len(LEN):
        return LEN.index(min(LEN))
    return LEN.index(min(LEN[:end]), 0, end)


def _choose_find(LEN, LL, RL, REG):
    """C3 over a bytearray: the first item of length 0, else of length 1, ... (memchr)."""
    end = REG[REG_PRIMARY_END]
    v = 0
    while True:
        k = LEN.find(v, 1, end)
        if k >= 0:
            return k
        v += 1


kernel_list = namespace(declaration("algorithm_c"), {"choose": _choose_min})
kernel_bytes = namespace(declaration("algorithm_c"),
                         {"choose": _choose_find, "INACTIVE": SMALL_INACTIVE})
kernel_mcc = namespace(declaration("algorithm_m"))
"""Algorithm C over lists and over a bytearray ``LEN`` (the choice re-bound, as the table
of [`dlx.kernels`][] says), and Algorithm M, by the recipe."""


def _x(name: str, inactive: int) -> Any:
    """[`dlx.kernels.unrolled`][]'s ``name`` with ``INACTIVE`` re-bound, by the recipe."""
    return getattr(namespace(declaration("unrolled"), {"INACTIVE": inactive}), name)


def _converter(small: bool, unrolled: bool) -> Any:
    """``Kernel.convert`` for lists: ``LEN`` as a bytearray if ``small``; ``COLOR`` as
    Algorithm X's ``(OTHERS, choose)`` if ``unrolled``."""
    choose = _choose_find if small else _choose_min

    def convert(links: Links, name: str, a: np.ndarray) -> Any:
        if name == "LEN" and small:
            return bytearray(a.astype(np.uint8))
        if name == "COLOR" and unrolled:
            return (_others(links), choose)  # read only: shared by copies
        if name in _POINTERS:
            return _ints(links)[a].tolist()
        return a.tolist()

    return convert


_POINTERS = frozenset({"U", "D", "LL", "RL"})
"""Arrays of node or item pointers, all below the number of nodes."""


def _ints(links: Links) -> np.ndarray:
    """The ints ``0..Z-1`` as one object array per problem, so that a list of pointers is
    made of these very int objects (a gather, then ``tolist``) instead of thousands of new
    ones per search: a quarter faster, and no allocation churn (a Sudoku's forced state has
    ~8,000 pointers above 256, the largest small int Python keeps)."""
    ints = links.converted.get("python-ints")
    if ints is None:
        ints = np.array(range(links.n_nodes), dtype=object)
        ints = links.converted.setdefault("python-ints", ints)
    return ints


def _others(links: Links) -> list:
    """[`dlx.kernels.unrolled.option_others`][], once per problem (shuffled copies share it)."""
    others = links.converted.get("python-others")
    if others is None:
        others = links.converted.setdefault("python-others", kernel_x.option_others(links))
    return others


def _copy(a: Any) -> Any:
    return a[:]  # a list or bytearray copied; a tuple (read only) shared


def _kernel(small: bool, unrolled: bool) -> Kernel:
    inactive = SMALL_INACTIVE if small else INACTIVE
    general = kernel_bytes if small else kernel_list
    name = f"python-{'x' if unrolled else 'c'}-{'bytes' if small else 'list'}"
    if unrolled:
        return Kernel(name, _x("search", inactive), None, inactive,
                      _converter(small, True), _copy, restrict=True)
    return Kernel(name, general.search, general.force_all, inactive,
                  _converter(small, False), _copy)


KERNELS = {(small, unrolled): _kernel(small, unrolled)
           for small in (True, False) for unrolled in (True, False)}
"""The python kernels by (every list shorter than 128, no colors)."""

MCC_KERNEL = Kernel("python-m", kernel_mcc.search, kernel_mcc.force_all, INACTIVE,
                    _converter(False, False), _copy, mcc=True)
"""Multiplicities and costs ([`dlx.kernels.algorithm_m`][]), over lists."""


def _bits_convert(links: Links, name: str, a: np.ndarray) -> Any:
    """``Kernel.convert`` of the bitset kernel: ``COLOR`` as a search's
    [`Walk`][dlx.kernels.bits.Walk] over the problem's tables (built once per problem),
    ``CHOICE`` and the registers as lists; the links, which it never writes, as tuples
    that every search shares."""
    if name == "COLOR":
        tables = links.converted.get("python-bit-tables")
        if tables is None:
            tables = links.converted.setdefault("python-bit-tables",
                                                kernel_bits.tables(links))
        return kernel_bits.Walk(tables)
    if name in ("CHOICE", "REG", "FORCED"):
        return a.tolist()
    return tuple(a.tolist())


def _bits_copy(a: Any) -> Any:
    return a.fresh() if isinstance(a, kernel_bits.Walk) else a[:]  # a tuple: shared


BITS_KERNEL = Kernel("python-bits", kernel_bits.search, kernel_bits.force_all, INACTIVE,
                     _bits_convert, _bits_copy, explored=kernel_bits.explored,
                     keeps_links=False)
"""Algorithm X over bitsets ([`dlx.kernels.bits`][]), for the problems [`bits_pay`][]
picks."""

def _strategy(small: bool, weighted: bool, reduce: bool) -> Kernel:
    """The general kernel with the weighted choice and/or the lookahead (no fast path)."""
    choose = _choose_find if small else _choose_min
    inactive = SMALL_INACTIVE if small else INACTIVE
    general = namespace(declaration("algorithm_c"), {
        "choose": choose, "INACTIVE": inactive, "WEIGHTED": weighted, "REDUCE": reduce})
    name = (f"python-{'w' if weighted else ''}{'r' if reduce else ''}-"
            f"{'bytes' if small else 'list'}")
    return Kernel(name, general.search, general.force_all, inactive, _converter(small, False),
                  _copy)


STRATEGY_KERNELS = {(small, weighted, reduce): _strategy(small, weighted, reduce)
                    for small in (True, False) for weighted in (True, False)
                    for reduce in (True, False) if weighted or reduce}
"""The python kernels of the strategies for hard instances, by (every list shorter than
128, weighted choice, lookahead)."""


class PythonBackend(Backend):
    """The kernel in plain Python; always available."""

    name = "python"
    slice_seconds = COMPILED_SLICE_SECONDS  # Ctrl-C is seen at once in Python code, but
    # stats are updated between slices: a progress line can follow a long count

    def kernel(self, links: Links, weighted: bool = False, reduce: bool = False) -> Kernel:
        module, switches = kernel_for(links, "python", weighted=weighted, reduce=reduce)
        on = dict(switches)
        if module == "algorithm_m":
            return MCC_KERNEL
        if module == "bits":
            return BITS_KERNEL
        if weighted or reduce:
            return STRATEGY_KERNELS[(bool(on["SMALL"]), weighted, reduce)]
        return KERNELS[(bool(on["SMALL"]), module == "unrolled")]

    def batch(self, job: BatchJob) -> None:
        links, table = job.links, job.table
        indptr, indices = job.indptr.tolist(), job.indices.tolist()
        forcing = links.forcing_node.tolist()
        n = len(indptr) - 1
        width = job.width
        job.invalid, job.cut = -1, n
        for k in range(n):
            if job.progress is not None:
                job.progress(k)
            forced = indices[indptr[k] : indptr[k + 1]]
            row = table[k]
            bad = [o for o in forced if not 0 <= o < len(forcing) or forcing[o] < 0]
            if bad:  # B1 fails: an option not in the problem
                row[record.B_STATUS], row[record.B_FIRST] = codes.INVALID, bad[0]
                job.invalid = k if job.invalid < 0 else job.invalid
                continue
            left = None if job.deadline is None else max(job.deadline - time.perf_counter(), 0)
            search = Search(links, self, limit=job.solution_stop, forced=forced,
                            max_nodes=0 if job.cut < n else job.node_stop, timeout=left,
                            seed=None, weighted=False, handover=job.handover)
            first = next(search, None)  # B2, then B3
            if first is not None and job.solution_stop > 1:
                search.count()
            stats = search.stats
            if stats.status is Status.TIMEOUT and job.cut == n:
                job.cut = k  # this one and the rest stop at once
            if stats.status is Status.CONFLICT:
                row[record.B_STATUS], row[record.B_FIRST] = codes.CONFLICT, stats.conflict
                continue
            row[record.B_STATUS] = (stats.status if stats.status in (Status.COMPLETE,
                                                                     Status.LIMIT)
                                    else codes.MAX_NODES)
            row[record.B_SOLUTIONS] = stats.solutions
            row[record.B_NODES], row[record.B_UPDATES] = stats.nodes, stats.updates
            row[record.B_MAX_LEVEL] = stats.max_level
            if first is not None:
                row[record.B_SIZE] = len(first)
                if len(first) <= width:
                    row[record.B_FIRST : record.B_FIRST + len(first)] = first


PYTHON = PythonBackend()
