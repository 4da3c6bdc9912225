"""Dancing cells ([`dlx.kernels.cells`][], Knuth's SSXCC) as a kernel of the search.

[`build_cells`][] lays a problem's [`dlx.links.Links`][] out as sparse sets;
[`CellsKernel`][] is a [`dlx.backend.Kernel`][] over them, so that
[`dlx.search.Search`][] drives it as it drives the links (slices on
[`dlx.slices.drive`][], budgets, timeouts, Ctrl-C, forced options, solutions named by the
links' nodes); [`CellsBackend`][] is a backend that gives it to every problem it can
search (no bounds or costs; Knuth's choice of item), and the links kernel of the backend
under it to the rest, and runs batches, memoized and learning searches there.

The kernel is selected, not chosen by default: ``problem.count(backend=dlx.cells.CELLS)``
searches with it compiled by numba (``CELLS_PYTHON``: as written, over lists;
``CELLS_AUTO``: where [`cells_pay`][], the rule measured, says it wins). Its nodes and
updates are SSXCC's, not DLX2's (``docs/design.md``, "Dancing cells"), which is why the
default searches keep the links: their nodes and updates are Knuth's DLX1/DLX2/DLX3's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from .backend import Backend, BatchJob, FrontierKernel, Kernel, MemoKernel, ZddKernel
from .errors import ArgumentError
from .kernels import cells as kernel_cells
from .kernels.cells import CHANGES, DTYPE, FIELDS, Cells
from .kernels.codes import LEAVE
from .links import Links
from .state import REG_LEVEL, REG_RESUME

__all__ = ["CELLS", "CELLS_AUTO", "CELLS_PYTHON", "Cells", "CellsBackend", "CellsKernel",
           "build_cells", "cells_pay", "check_cells", "explored_cells"]

SAVE_START = 1 << 12
"""``SAVE``'s first length (grown twofold when a level may not fit: ``FULL``)."""


def build_cells(links: Links) -> Cells:
    """The sparse sets of ``links`` (the options it keeps, in its node numbering), all
    items active, nothing chosen: numpy, vectorized, as [`dlx.links.build_links`][].

    Item ``k`` (1..N) gets the set index ``base[k]``: two slots (position, size), then
    one per option of it, in option order, items one after the other."""
    if links.mcc:
        raise AssertionError("dancing cells search problems without bounds or costs")
    A = links.arrays
    N, N1 = links.n_items, links.n_primary
    Z = len(A.TOP)
    lengths = np.asarray(A.LEN[1:], dtype=np.int64)  # no item is covered in pristine links
    base = np.zeros(N + 2, dtype=np.int64)  # base[k] for item k; base[N + 1]: the end
    base[1:] = 2 + np.concatenate(([0], np.cumsum(lengths + 2)))
    size = int(base[N + 1]) - 2 if N else 0
    if max(size, Z) >= np.iinfo(DTYPE).max:
        raise ArgumentError(f"problem too large for dancing cells ({Z} nodes)")
    SET = np.zeros(max(size, 2), dtype=DTYPE)
    items = np.arange(1, N + 1)
    SET[base[items] - 2] = items - 1
    SET[base[items] - 1] = lengths
    TOP = A.TOP
    nodes = np.flatnonzero(TOP > 0)
    nodes = nodes[nodes > N]  # the options' nodes, in node order
    of = TOP[nodes]
    order = np.argsort(of, kind="stable")  # by item, in node (option) order
    by_item = nodes[order]
    first = np.searchsorted(of[order], np.arange(N + 1))  # where each item's run starts
    rank = np.arange(len(by_item)) - first[of[order]]
    ITM = np.zeros(Z, dtype=DTYPE)
    LOC = np.zeros(Z, dtype=DTYPE)
    ITM[nodes] = base[of]
    LOC[by_item] = base[of[order]] + rank
    SET[LOC[by_item]] = by_item
    spacers = np.flatnonzero(TOP[N + 1 :] <= 0) + N + 1
    ITM[spacers[1:]] = -(np.diff(spacers) - 1)
    CLR = np.zeros(Z, dtype=DTYPE)
    CLR[nodes] = A.COLOR[nodes]
    REG = np.zeros(kernel_cells.N_REGS, dtype=np.int64)
    REG[REG_RESUME] = kernel_cells.BEGIN
    REG[kernel_cells.REG_ACTIVE] = N
    REG[kernel_cells.REG_SECOND] = base[N1 + 1] if N > N1 else size + 2
    return Cells(SET=SET, ITM=ITM, LOC=LOC, CLR=CLR, ITEM=base[1 : N + 1].astype(DTYPE),
                 CHOICE=np.zeros(N1 + 1, dtype=DTYPE), SAVED=np.zeros(N1 + 2, dtype=DTYPE),
                 SAVE=np.zeros(SAVE_START, dtype=DTYPE), FORCE=np.zeros(N1 + 1, dtype=DTYPE),
                 FORCING=np.asarray(A.FORCING, dtype=DTYPE), REG=REG,
                 WEIGHT=np.ones(N + 1, dtype=DTYPE))


def _grown(search: Any, grow: Any) -> Any:
    """``search`` called again after ``grow(S.SAVE)`` while it pauses for room
    ([`dlx.kernels.cells.FULL`][]): the state keeps the same array, enlarged in place."""

    def run(S: Cells, node_stop: int, solution_stop: int) -> int:
        status = search(S, node_stop, solution_stop)
        while status == kernel_cells.FULL:
            grow(S.SAVE)
            status = search(S, node_stop, solution_stop)
        return status

    return run


def _grow_array(a: np.ndarray) -> None:
    a.resize(2 * len(a), refcheck=False)  # owned by the search (a copy): no view of it


def _grow_list(a: list) -> None:
    a.extend([0] * len(a))


@dataclass(frozen=True)
class CellsKernel(Kernel):
    """The dancing-cells kernel over one backend's array types: a [`Kernel`][] whose
    state is [`Cells`][], built from the links ([`build_cells`][]) once per problem and
    copied (what a search writes) per search; options are forced by
    [`dlx.kernels.cells.force_all`][]."""

    def pristine(self, links: Links) -> Any:
        state = links.converted.get(self.name)
        if state is None:
            cells = links.converted.get("cells")
            if cells is None:
                cells = links.converted.setdefault("cells", build_cells(links))
            state = Cells(*(self.convert(links, name, a) for name, a in zip(FIELDS, cells)))
            state = links.converted.setdefault(self.name, state)
        return state

    def start(self, links: Links, replaced: dict[str, Any] | None = None) -> Any:
        given = replaced or {}
        return Cells(*(given[name] if name in given else self.copy(a) if name in CHANGES
                       else a for name, a in zip(FIELDS, self.pristine(links))))

    def prepare(self, links: Links, forced: list[int],
                replaced: dict[str, Any] | None = None) -> tuple[Any, int | None]:
        state = self.start(links, {k: v for k, v in (replaced or {}).items() if k in FIELDS})
        return self.force(links, state, forced) if forced else (state, None)

    def force(self, links: Links, state: Any, forced: list[int]) -> tuple[Any, int | None]:
        if self.force_all is None:
            raise AssertionError(f"kernel {self.name} cannot force options")
        f = self.force_all(state, self.convert(links, "FORCED", np.asarray(forced)))
        return state, (None if f < 0 else forced[f])

    def adopt(self, links: Links, forced: list[int], source: Kernel, state: Any) -> Any:
        raise AssertionError("no search moves to or from dancing cells mid-search")


def check_cells(links: Links, S: Any, inactive: int = 0) -> None:
    """Knuth's sanity check of a dancing-cells state (ssxcc.w, ``sanity``): raise
    ``AssertionError`` if a redundant part of it has gone awry.

    ``ITEM`` is a permutation and ``SET[x - 2]`` its inverse; every node sits where its
    ``LOC`` says in its item's set, within its original stretch; sizes stay within it;
    an option is in the sets of all its active items or of none (Knuth's "flipped
    status") while the search is under way; the levels' saves nest. It costs a pass
    over every array, so the search never calls it by itself (the tests call it after
    every step)."""
    SET, ITM, LOC, ITEM, REG = (list(map(int, a)) for a in (S.SET, S.ITM, S.LOC, S.ITEM,
                                                             S.REG))
    cells = build_cells(links)
    N = links.n_items
    bases = [int(b) for b in cells.ITEM]
    length = {x: int(cells.SET[x - 1]) for x in bases}
    active = REG[kernel_cells.REG_ACTIVE]
    if sorted(ITEM) != sorted(bases):
        raise AssertionError("ITEM is not a permutation of the items")
    for k, x in enumerate(ITEM):
        if SET[x - 2] != k:
            raise AssertionError(f"bad pos of item at set index {x}: {SET[x - 2]}, not {k}")
        if not 0 <= SET[x - 1] <= length[x]:
            raise AssertionError(f"size {SET[x - 1]} of item {x} outside 0..{length[x]}")
    if not 0 <= active <= N:
        raise AssertionError(f"ACTIVE {active} outside 0..{N}")
    for p in np.flatnonzero(np.asarray(cells.ITM) > 0).tolist():
        x, r = ITM[p], LOC[p]
        if not x <= r < x + length[x] or SET[r] != p:
            raise AssertionError(f"bad LOC {r} of node {p} in the set of item {x}")
    level = REG[REG_LEVEL]
    if REG[REG_RESUME] == LEAVE and level == 0:
        return  # the search is over: like SSXCC, it leaves the last sizes as they were
    TOP = links.arrays.TOP
    spacers = np.flatnonzero(TOP[N + 1 :] <= 0) + N + 1
    for a, b in zip(spacers[:-1].tolist(), spacers[1:].tolist()):
        inside = {SET[ITM[p] - 2] < active and LOC[p] < ITM[p] + SET[ITM[p] - 1]
                  for p in range(a + 1, b) if SET[ITM[p] - 2] < active}
        if len(inside) > 1:
            raise AssertionError(f"flipped status in the option after spacer {a}")
    SAVED = list(map(int, S.SAVED))
    if any(SAVED[k] > SAVED[k + 1] for k in range(level)) or SAVED[0] != 0:
        raise AssertionError("the levels' saved sizes do not nest")


def explored_cells(S: Any, floor: float = 0.0) -> float:
    """Knuth's estimate of the part of the tree explored (ssxcc.w, ``print_progress``):
    at level ``l`` the option tried is the ``k``-th of the ``d`` in its item's set, read
    off ``LOC`` and the item's size (a branching item's set is left alone below it); as
    [`dlx.search.explored`][] for the links."""
    level = int(S.REG[REG_LEVEL])
    if level == 0:
        return 0.0
    SET, ITM, LOC, CHOICE = S.SET, S.ITM, S.LOC, S.CHOICE
    share, total = 1.0, 0.0
    for l in range(min(level, len(CHOICE))):
        p = int(CHOICE[l])
        if not 0 <= p < len(ITM) or share < floor:
            break
        x = int(ITM[p])
        if not 2 <= x < len(SET):
            break
        d = int(SET[x - 1])
        k = int(LOC[p]) - x + 1
        if not 1 <= k <= d:  # a snapshot torn by the search under way
            break
        share /= d
        total += (k - 1) * share
    return min(1.0, total + share / 2)


# ----- the kernel as written, over lists (the python backend) ------------------------


def _python_convert(links: Links, name: str, a: np.ndarray) -> Any:
    return a.tolist()


def _copy(a: Any) -> Any:
    return a[:]


PYTHON_KERNEL = CellsKernel("python-cells", _grown(kernel_cells.search, _grow_list),
                            kernel_cells.force_all, 0, _python_convert, _copy,
                            explored=explored_cells, keeps_links=False,
                            check=check_cells)
"""[`dlx.kernels.cells`][] as written, over Python lists."""


# ----- compiled by numba --------------------------------------------------------------


@functools.cache
def compiled(name: str) -> Any:
    """The compiled entry point ``name`` (compiled, or loaded from numba's disk cache,
    on the first call; without negative-index wrap-around, as every kernel), made by the
    one recipe from [`dlx.kernels.cells.DECLARATION`][]."""
    from .jit import compile_entry, entry_point

    return entry_point(compile_entry(kernel_cells.DECLARATION, _namespace(), name))


@functools.cache
def _namespace() -> Any:
    from .jit import numba_namespace

    return numba_namespace(kernel_cells.DECLARATION)


def _numba_convert(links: Links, name: str, a: np.ndarray) -> Any:
    dtype = np.int64 if name in ("REG", "FORCED") else DTYPE
    return np.array(a, dtype=dtype, order="C")


def _numba_search(S: Any, node_stop: int, solution_stop: int) -> int:
    return compiled("search")(S, node_stop, solution_stop)


def _numba_force_all(S: Any, FORCED: Any) -> int:
    return compiled("force_all")(S, FORCED)


NUMBA_KERNEL = CellsKernel("numba-cells", _grown(_numba_search, _grow_array),
                           _numba_force_all, 0, _numba_convert, np.copy,
                           explored=explored_cells, keeps_links=False,
                           check=check_cells)
"""[`dlx.kernels.cells`][] compiled by numba, over arrays of [`DTYPE`][]."""


# ----- backends -------------------------------------------------------------------------


def cells_pay(links: Links) -> bool:
    """The rule by which dancing cells beat the links (compiled, whole counts): a problem
    without bounds or costs, with colors, or with no more secondary items than primary
    ones. Measured on every shared file (``docs/decisions.md``, "Dancing cells"): cells
    0.64-0.89x the links' CPU on the colored ``xcc_*`` files, Langford pairs, pentominoes
    and Sudoku; 1.07-1.33x on n queens, whose uncolored diagonals (46 secondary items to
    24 primary for n = 12) the cells scan and save at every node where the links never
    look at them."""
    return not links.mcc and (links.colored or links.n_items - links.n_primary
                              <= links.n_primary)


class CellsBackend(Backend):
    """A backend that searches with dancing cells every problem they take (no bounds or
    costs; Knuth's choice of item: not ``weighted`` nor ``lookahead``) and, if ``when``
    is given, for which ``when(links)`` holds; it gives the rest, batches, the
    memoized and learning searches and the solution sets' kernels to ``base``, the
    backend whose arrays the kernel runs over (``numba`` or ``python``)."""

    def __init__(self, base: Backend, cells: CellsKernel, name: str | None = None,
                 when: Any = None) -> None:
        self.base = base
        self.cells = cells
        self.name = name or cells.name
        self.when = when
        self.slice_seconds = base.slice_seconds

    def unavailable(self) -> str | None:
        return self.base.unavailable()

    def loaded(self) -> bool:
        return self.base.loaded()

    def kernel(self, links: Links, weighted: bool = False, reduce: bool = False) -> Kernel:
        if links.mcc or weighted or reduce or (self.when is not None and not self.when(links)):
            return self.base.kernel(links, weighted, reduce)
        return self.cells

    def batch(self, job: BatchJob) -> None:
        self.base.batch(job)

    def learning(self) -> tuple[Any, Any]:
        return self.base.learning()

    def memo(self, parts: bool = False) -> MemoKernel:
        return self.base.memo(parts)

    def zdd(self) -> ZddKernel:
        return self.base.zdd()

    def frontier(self) -> FrontierKernel:
        return self.base.frontier()


def _backends() -> tuple[CellsBackend, CellsBackend, CellsBackend]:
    from .compiled import NUMBA
    from .pure import PYTHON

    return (CellsBackend(NUMBA, NUMBA_KERNEL), CellsBackend(PYTHON, PYTHON_KERNEL),
            CellsBackend(NUMBA, NUMBA_KERNEL, "numba-cells-auto", cells_pay))


CELLS, CELLS_PYTHON, CELLS_AUTO = _backends()
"""The dancing-cells backends: compiled by numba (``CELLS``), as written over lists
(``CELLS_PYTHON``: slower than the python backend's own kernels, for tests), and compiled
where [`cells_pay`][] says they win, numba's links elsewhere (``CELLS_AUTO``). Pass one
as ``backend=`` to ``count``, ``solutions`` or ``first``."""
