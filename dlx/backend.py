"""What a backend is: the entry points every search goes through, and how the kernel is
specialized for one. The algorithm itself is never copied.

A [`Backend`][] (``python``, ``numba``; see [`dlx.registry`][]) is one object with
every entry point: [`kernel`][Backend.kernel] gives, for one problem, the [`Kernel`][]
that searches it (``search``, ``force``, ``choose`` over the backend's own array types),
[`batch`][Backend.batch] searches it once per list of forced options, and
[`learning`][Backend.learning], [`memo`][Backend.memo], [`zdd`][Backend.zdd] and
[`frontier`][Backend.frontier] give the kernels of the learning and the memoized
searches, of the solution sets' store and of their top-down construction. Single
searches ([`dlx.search`][]), batches ([`dlx.batch`][]), solution sets, ``auto`` and the
tests all go through these (no other module picks a kernel by a backend's name); a
backend's kernels are made from their declarations by the one recipe
([`dlx.kernels`][]), which re-creates a kernel's functions from their own code objects
in a namespace where a few global names are bound differently; which kernel is
[`dlx.kernels.kernel_for`][]'s choice.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .kernels.algorithm_c import commit, cover, force_all
from .kernels.cdcl import search as learner
from .kernels.frontier import expand
from .kernels.frontier import reduce as frontier_reduce
from .kernels.memo import rehash_memo, rehash_zdd
from .kernels.memo import search as memo_search
from .kernels.zdd import (
    apply,
    compact,
    count_log2,
    count_mod,
    import_diagram,
    reach,
    recache,
    rehash,
    tally,
    transfer,
)
from .links import INACTIVE, Links
from .slices import Handover
from .state import FIELDS, REG_LEVEL, State

__all__ = ["Backend", "BatchJob", "FrontierKernel", "Kernel", "MemoKernel", "OneInstance",
           "OneThrough", "ZddKernel"]

_RESTRICTED = ("U", "D", "LEN", "LL", "RL")
"""The arrays [`Links.restricted`][] returns, in its order."""


@dataclass(frozen=True)
class Kernel:
    """The kernel specialized for one kind of problem, over one backend's array types.

    ``convert`` turns a pristine numpy array (named as in [`dlx.state.FIELDS`][]) into
    the kernel's type, ``copy`` makes a search's working copy of one. Both are applied as
    the table says: every field once per problem (cached in ``links.converted``), the
    fields a search changes once per search.
    """

    name: str
    search: Callable[[State, int, int], int]
    force_all: Callable[[State, Any], int] | None
    """Forces options link by link ([`dlx.kernels.algorithm_c.force_all`][]); None for a kernel that
    only restricts (below)."""
    inactive: int
    convert: Callable[[Links, str, np.ndarray], Any]
    copy: Callable[[Any], Any]
    restrict: bool = False
    """Force options with numpy ([`Links.restricted`][]) instead of ``force_all``: what
    the python kernels do for problems without colors (faster in CPython)."""
    mcc: bool = False
    """The kernel of multiplicities and costs ([`dlx.kernels.algorithm_m`][]): it reads the fields
    marked ``mcc`` in [`dlx.state.FIELDS`][], which the other kernels get empty."""
    explored: Callable[[State, float], float] | None = None
    """Knuth's estimate of the tree explored, for a kernel whose lists are not the
    links ([`dlx.kernels.bits.explored`][]); None: [`dlx.search.explored`][]."""
    keeps_links: bool = True
    """False for a kernel whose state does not hold the links as the search changes
    them ([`dlx.kernels.bits`][]: bitsets): another kernel that takes over its search
    replays the path instead ([`adopt`][])."""
    check: Callable[[Links, Any, int], None] | None = None
    """Knuth's sanity checker of this kernel's state (``links, state, inactive``),
    for a kernel whose state is not the links ([`dlx.cells.check_cells`][]); None:
    [`dlx.links.check_links`][]."""

    def pristine(self, links: Links) -> State:
        """The problem's arrays converted for this kernel (once per problem)."""
        state = links.converted.get(self.name)
        if state is None:
            arrays = links.arrays._replace(LEN=_with_root(links.arrays.LEN, self.inactive))
            state = State(*(self.convert(links, f.name, a if self.mcc or not f.mcc else a[:0])
                            for f, a in zip(FIELDS, arrays)))
            state = links.converted.setdefault(self.name, state)
        return state

    def start(self, links: Links, replaced: dict[str, Any] | None = None) -> State:
        """A search's own state: copies of what the search changes, the rest shared;
        ``replaced`` gives some fields outright (the forced state of [`prepare`][],
        the weights a restart carries on)."""
        copy, given = self.copy, replaced or {}
        return State(*(given[f.name] if f.name in given else copy(a) if f.changes else a
                       for f, a in zip(FIELDS, self.pristine(links))))

    def prepare(self, links: Links, forced: list[int],
                replaced: dict[str, Any] | None = None) -> tuple[State, int | None]:
        """[`start`][] then [`force`][], without copying what forcing replaces: the
        state a search of ``links`` with the options ``forced`` begins from, and None, or
        the first forced option that an earlier one excludes."""
        if not (forced and self.restrict):
            state = self.start(links, replaced)
            return self.force(links, state, forced) if forced else (state, None)
        arrays = self._restricted(links, forced)
        if isinstance(arrays, int):
            return self.pristine(links), arrays  # nothing to search: no copy needed
        return self.start(links, {**(replaced or {}), **arrays}), None

    def force(self, links: Links, state: State, forced: list[int]) -> tuple[State, int | None]:
        """Take the options ``forced`` (valid, distinct) before the search: the new state,
        and None, or the first option that an earlier one excludes."""
        if self.restrict:
            arrays = self._restricted(links, forced)
            if isinstance(arrays, int):
                return state, arrays
            return state._replace(**arrays), None
        if self.force_all is None:
            raise AssertionError(f"kernel {self.name} cannot force options link by link")
        f = self.force_all(state, self.convert(links, "FORCED", np.asarray(forced)))
        return state, (None if f < 0 else forced[f])

    def adopt(self, links: Links, forced: list[int], source: Kernel, state: State) -> State:
        """This kernel's state at the point where ``source``'s search of ``links`` (with
        the options ``forced``) is, ``state``: what the search goes on from after a move
        mid-search ([`dlx.slices.Handover`][]), with the same solutions, order, nodes and
        updates to come.

        Every array a search changes is converted to this kernel's types, ``LEN``'s
        covered items re-marked with this kernel's ``INACTIVE``: the registers,
        ``CHOICE``, the weights, the lookahead's trail, the links as the search left them
        (numpy's forcing of [`Links.restricted`][] included: the arrays are links all the
        same). A kernel that keeps no links (``keeps_links`` False) has them rebuilt
        ([`_replayed`][]). The arrays no search changes are this kernel's own, shared;
        ``COLOR`` too in a problem without colors (where [`dlx.kernels.unrolled`][] holds its
        option lists instead). Nothing of ``state`` or of the problem is written.
        """
        inactive = source.inactive
        if not source.keeps_links:
            state, inactive = _replayed(links, forced, state), INACTIVE
        arrays = []
        for f, mine, theirs in zip(FIELDS, self.pristine(links), state):
            if not f.changes or (f.mcc and not self.mcc) or (f.name == "COLOR"
                                                           and not links.colored):
                arrays.append(self.copy(mine) if f.changes else mine)
                continue
            values = np.array(theirs, dtype=np.int64)
            if f.name == "LEN" and inactive != self.inactive:
                values[values >= inactive] += self.inactive - inactive
            arrays.append(self.convert(links, f.name, values))
        return State(*arrays)

    def _restricted(self, links: Links, forced: list[int]) -> dict[str, Any] | int:
        """[`Links.restricted`][] in this kernel's types, by field name; or the first
        forced option that an earlier one excludes."""
        arrays = links.restricted(forced, self.inactive)
        if isinstance(arrays, int):
            return arrays
        return {name: self.convert(links, name, a) for name, a in zip(_RESTRICTED, arrays)}


def _replayed(links: Links, forced: list[int], state: State) -> State:
    """The links of a search of ``links`` at the point ``state`` is, for a kernel that
    keeps none: the options ``forced`` taken ([`dlx.kernels.algorithm_c.force_all`][]), then at each
    level of ``CHOICE[:LEVEL]`` the chosen option's item covered and the option committed
    (C4, C5), in the search's order, which is what [`dlx.kernels.algorithm_c.search`][] holds there
    (whatever it explored below has been undone exactly); with its registers and
    ``CHOICE``. Over lists, by the kernel as written: a few covers a level."""
    arrays = links.arrays._replace(LEN=_with_root(links.arrays.LEN, INACTIVE))
    S = State(*(a.tolist() for a in arrays))
    if forced:
        force_all(S, forced)
    U, D, TOP, COLOR, LEN, LL, RL = S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL
    for x in state.CHOICE[: state.REG[REG_LEVEL]]:
        cover(TOP[x], U, D, TOP, COLOR, LEN, LL, RL)
        commit(x, U, D, TOP, COLOR, LEN, LL, RL)
    return S._replace(CHOICE=list(state.CHOICE), REG=list(state.REG))


def _with_root(length: np.ndarray, inactive: int) -> np.ndarray:
    """``LEN`` with the root's entry set to this kernel's ``INACTIVE``."""
    length = length.copy()
    length[0] = inactive
    return length


@dataclass(frozen=True)
class MemoKernel:
    """The memoized search's kernel ([`dlx.kernels.memo`][]) over one backend's array
    types: its entry points ``search``, ``rehash_memo`` and ``rehash_zdd``, and how its
    arrays are made: ``array`` converts a numpy array, ``zeros(n)`` makes a zeroed one,
    ``grown(a, n)`` is ``a`` lengthened with zeros, ``numpy`` reads one back."""

    name: str
    search: Callable[[Any, int], int]
    rehash_memo: Callable[[Any, Any, int], None]
    rehash_zdd: Callable[[Any, Any, Any, Any, int], None]
    array: Callable[[np.ndarray], Any] = np.ndarray.tolist
    zeros: Callable[[int], Any] = lambda n: [0] * n
    grown: Callable[[Any, int], Any] = lambda a, n: a + [0] * (n - len(a))
    numpy: Callable[[Any], np.ndarray] = lambda a: np.array(a, dtype=np.int64)


PYTHON_MEMO = MemoKernel("python", memo_search, rehash_memo, rehash_zdd)
"""The memoized search's kernel as written, over Python lists."""


@dataclass(frozen=True)
class ZddKernel:
    """The canonical ZDD store's kernel ([`dlx.kernels.zdd`][]) over one backend's array
    types: its entry points, and how its arrays are made: ``array`` converts a numpy
    array of the dtype the kernel takes there ([`dlx.kernels.zdd.DTYPES`][]; numba's:
    no copy), ``zeros(n, dtype)`` makes a zeroed one (numba's: its pages written now),
    ``blank(n)`` a scratch array of int64 zeros (numba's: mapped where written),
    ``floats(n)`` one of float zeros, ``grown(a, n)`` is ``a`` lengthened with zeros,
    ``cleared(a)`` is ``a`` zeroed (numba's: in place, its pages kept mapped; the
    garbage collector empties the unique table and the cache so), ``numpy`` reads one
    back."""

    name: str
    apply: Callable[[Any, int, int, int], int]
    import_diagram: Callable[..., int]
    reach: Callable[..., int]
    tally: Callable[[Any, Any, Any], None]
    transfer: Callable[..., int]
    rehash: Callable[[Any], None]
    recache: Callable[[Any, Any], None]
    count_mod: Callable[[Any, int, Any, int], int]
    count_log2: Callable[[Any, int, Any], float]
    compact: Callable[[Any, Any, Any], int]
    array: Callable[[np.ndarray], Any] = np.ndarray.tolist
    zeros: Callable[[int, Any], Any] = lambda n, dtype: [0] * n
    blank: Callable[[int], Any] = lambda n: [0] * n
    floats: Callable[[int], Any] = lambda n: [0.0] * n
    grown: Callable[[Any, int], Any] = lambda a, n: a + [0] * (n - len(a))
    cleared: Callable[[Any], Any] = lambda a: [0] * len(a)
    numpy: Callable[[Any], np.ndarray] = lambda a: np.array(a, dtype=np.int64)


PYTHON_ZDD = ZddKernel("python", apply, import_diagram, reach, tally, transfer, rehash,
                       recache, count_mod, count_log2, compact)
"""The ZDD store's kernel as written, over Python lists."""


@dataclass(frozen=True)
class FrontierKernel:
    """The frontier construction's kernel ([`dlx.kernels.frontier`][]) over one backend's
    array types: its entry points ``expand`` and ``reduce``, and how its arrays are made
    (as [`ZddKernel`][]'s: ``array`` takes a numpy array of the dtype the kernel takes
    there, [`dlx.kernels.frontier.DTYPES`][]); ``grown(a, n)`` and ``shrunk(a, n)``
    give ``a`` with ``n`` words, in place where they can (the construction's arrays are
    its own: no second copy at the peak)."""

    name: str
    expand: Callable[[Any, Any, Any, int], int]
    reduce: Callable[[Any, int], int]
    array: Callable[[np.ndarray], Any] = np.ndarray.tolist
    zeros: Callable[[int, Any], Any] = lambda n, dtype: [0] * n
    grown: Callable[[Any, int], Any] = lambda a, n: _list_resized(a, n)
    shrunk: Callable[[Any, int], Any] = lambda a, n: _list_resized(a, n)
    numpy: Callable[[Any], np.ndarray] = lambda a: np.array(a, dtype=np.int64)


def _list_resized(a: list, n: int) -> list:
    """The list ``a`` with ``n`` items, in place (zeros added at its end, or its tail
    dropped)."""
    if n < len(a):
        del a[n:]
    else:
        a.extend([0] * (n - len(a)))
    return a


PYTHON_FRONTIER = FrontierKernel("python", expand, frontier_reduce)
"""The frontier construction's kernel as written, over Python lists."""


@dataclass(slots=True)
class BatchJob:
    """One call of [`Backend.batch`][]: validated inputs, and where the records go.

    Instance ``k`` forces ``indices[indptr[k]:indptr[k + 1]]``. ``table`` has one record
    of ``kernel.B_FIRST + width`` slots per instance (zeros to begin with), which the
    backend fills as [`dlx.kernels.batch.search_batch`][] does. The backend also sets
    ``invalid`` (the first instance with an INVALID option, -1: none) and ``cut`` (the
    first instance that the ``deadline`` stopped, ``n``: none).
    """

    links: Links
    indptr: np.ndarray
    indices: np.ndarray
    width: int
    node_stop: int
    solution_stop: int
    deadline: float | None
    table: np.ndarray
    invalid: int = -1
    cut: int = 0
    progress: Callable[[int], object] | None = None
    """Called with the instances finished so far, between slices (see ``solve_batch``)."""
    handover: Handover | None = None
    """``auto``'s move to numba mid-batch, for a batch it gave to python
    ([`dlx.registry.handover`][]): the instance under way moves, the later ones start
    there."""


OneInstance = Callable[[np.ndarray, int, int], tuple[np.ndarray, int]]
"""[`Backend.one_instance`][]'s runner: ``run(indices, node_stop, solution_stop)``
searches the one instance forcing ``indices`` (int64, contiguous; read, never written)
and returns its table of one record, filled as [`Backend.batch`][] fills
``BatchJob.table``, and ``BatchJob.invalid``. Safe to call from several threads."""


OneThrough = Callable[[np.ndarray, np.ndarray, int, int, bool],
                     tuple[np.ndarray | None, int, np.ndarray | None]]
"""[`Backend.one_through`][]'s runner: ``run(data, context, node_stop, solution_stop,
keep)`` returns the table and ``invalid`` as [`OneInstance`][]'s, and ``decode``'s
answer for the first solution, or None when there is none. Without ``keep`` the table
is None beside an answer (the record was kept in the runner's own buffers, and not
copied out: an adapter that wants the answer alone pays nothing for it)."""


class Backend(ABC):
    """A place where searches run; registered by name in `dlx.registry`.

    Every backend returns the same solutions in the same order with the same ``nodes``
    and ``updates`` (a conformance suite checks this on every registered backend); only
    the time differs.
    """

    name: str
    slice_seconds: float | None = None
    """Without a timeout, a search still returns to Python about this often (a compiled
    kernel cannot see Ctrl-C); None: one call runs to the end."""

    def unavailable(self) -> str | None:
        """Why this backend cannot run here (a package missing...), or None when it can."""
        return None

    def loaded(self) -> bool:
        """True when using this backend costs this process nothing more to set up."""
        return True

    @abstractmethod
    def kernel(self, links: Links, weighted: bool = False, reduce: bool = False) -> Kernel:
        """The kernel that searches this problem (chosen by its colors and list lengths),
        with Knuth's choice of item or (``weighted``) the weighted one, and (``reduce``)
        the lookahead at every node."""

    @abstractmethod
    def batch(self, job: BatchJob) -> None:
        """Search ``job.links`` once per instance of ``job``, filling ``job.table``."""

    def one_instance(self, links: Links, width: int) -> OneInstance | None:
        """A runner of batches of one instance of ``links`` (records ``width`` options
        wide), without a deadline or progress, each one call with no set-up when this
        backend can (the one-call Sudoku); made once per problem. None (the default):
        every batch takes [`batch`][]."""
        return None

    def one_through(self, links: Links, width: int, encode: Any,
                    decode: Any) -> OneThrough | None:
        """As [`one_instance`][], for an adapter's ``encode`` and ``decode``
        ([`dlx.InstanceSearch.through`][]): the runner makes, searches and answers an
        instance in one call when this backend can. None (the default): the adapter's
        functions run in Python around [`one_instance`][]'s way."""
        return None

    def learning(self) -> tuple[Callable[..., int], Callable[..., int]]:
        """The learning search's ``begin`` and ``cdcl`` (`dlx.kernels.cdcl.search`), which
        return [`dlx.Status`][] values; by default as written, in Python."""
        return learner.begin, learner.cdcl

    def memo(self, parts: bool = False) -> MemoKernel:
        """The memoized search's kernel (`dlx.memo`); by default as written, over
        Python lists (which read ``parts``, whether it splits into independent parts, from
        the state; a compiled backend may keep a twin for each)."""
        return PYTHON_MEMO

    def zdd(self) -> ZddKernel:
        """The canonical ZDD store's kernel (``dlx.zdd_store``); by default as written,
        over Python lists."""
        return PYTHON_ZDD

    def frontier(self) -> FrontierKernel:
        """The frontier construction's kernel (``dlx.frontier``); by default as written,
        over Python lists."""
        return PYTHON_FRONTIER

    def __repr__(self) -> str:
        return f"<dlx backend {self.name!r}>"
