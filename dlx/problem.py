"""``ExactCover``: the public face of the engine. Front ends in, solutions out.

A problem is a list of *options*, each a set of *items*. Primary items must be covered
exactly once, secondary items at most once; a secondary item may carry a *color* in an
option, and options that agree on that color may share it (Knuth's XCC problem).
Front ends (named options, numpy 0/1 matrices, Knuth's text format) all reduce to the same
validated CSR arrays, which :func:`dlx.links.build_links` turns into dancing links.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Hashable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any, cast

import numpy as np

from .arguments import check_forced, count_arg, flag_arg, seed_arg, timeout_arg
from .batch import BatchResult, run_batch
from .errors import (
    ArgumentError,
    ColorError,
    EmptyOptionError,
    InputError,
    MatrixError,
    NoPrimaryItemWarning,
    RepeatedItemError,
    UnknownItemError,
)
from .links import Links, build_links
from .options import Colored, count_of, hashable, integer_array, option_lists
from .registry import BackendName, charge_python, get_backend
from .restarts import first_restarting
from .search import Search, SearchStats

__all__ = ["Colored", "ExactCover"]


class ExactCover:
    """An exact-cover problem with colors (XCC), solved by Algorithm C on dancing links.

    ``options`` is a sequence of iterables of item names (any hashable values; an entry may
    be :class:`Colored`). With ``primary=None`` every item not listed in ``secondary`` is
    primary, in order of first appearance; otherwise the order of ``primary`` then
    ``secondary`` is the item order, which fixes the branching tie-break as in Knuth's
    programs. Solutions are lists of option indices (0-based, in input order, sorted).
    """

    def __init__(
        self,
        options: Iterable[Iterable[Hashable]],
        *,
        primary: Iterable[Hashable] | None = None,
        secondary: Iterable[Hashable] | None = None,
    ) -> None:
        options = option_lists(options)
        secondary_list = _unique_items(secondary or (), "secondary")
        if primary is None:
            is_secondary = set(secondary_list)
            seen: dict[Hashable, None] = {}
            for k, opt in enumerate(options):
                for entry in opt:
                    name = hashable(entry.item if isinstance(entry, Colored) else entry,
                                    f"option {k}: item")
                    if name not in is_secondary:
                        seen.setdefault(name, None)
            primary_list = list(seen)
        else:
            primary_list = _unique_items(primary, "primary")
        clash = set(primary_list).intersection(secondary_list)
        if clash:
            raise RepeatedItemError(
                f"item {next(iter(clash))!r} is listed as both primary and secondary"
            )
        self._init(primary_list, secondary_list, _encode_options(
            options, primary_list, secondary_list))

    def _init(self, primary, secondary, csr) -> None:
        """Common end of every constructor: names, the CSR arrays, and (lazily) the links."""
        self.primary: list[Hashable] = list(primary)
        self.secondary: list[Hashable] = list(secondary)
        self.items: list[Hashable] = self.primary + self.secondary
        self._indptr, self._items, self._colors, self._color_names = csr
        self._last = threading.local()
        n_primary = len(self.primary)
        lens = np.diff(self._indptr)
        empty = np.flatnonzero(lens == 0)
        if len(empty):
            raise EmptyOptionError(f"option {int(empty[0])} has no items")
        entry_opt = np.repeat(np.arange(len(lens)), lens)
        has_primary = np.zeros(len(lens), dtype=bool)
        has_primary[entry_opt[self._items <= n_primary]] = True
        self.dropped: list[int] = np.flatnonzero(~has_primary).tolist()
        """Options without a primary item, which no solution can contain."""
        if self.dropped:
            k = self.dropped[0]
            more = f" (and {len(self.dropped) - 1} more)" if len(self.dropped) > 1 else ""
            warnings.warn(
                f"option {k} ({self._option_text(k)}) has no primary item and is ignored{more}",
                NoPrimaryItemWarning,
                stacklevel=3,
            )

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_last"]  # per-thread statistics do not travel
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._last = threading.local()

    @property
    def stats(self) -> SearchStats:
        """The statistics of the last search of this problem that *finished* in the calling
        thread (a count, a ``first``, a lazy search run to its end or its limit); empty
        before any. Each thread sees its own; for a search under way, or to keep several,
        read the :class:`~dlx.search.Search` object's own ``stats``."""
        return getattr(self._last, "stats", None) or SearchStats()

    def _finished(self, stats: SearchStats) -> None:
        self._last.stats = stats

    # ----- other front ends -------------------------------------------------------------

    @classmethod
    def from_matrix(
        cls,
        matrix: Any,
        *,
        secondary: Iterable[int] | None = None,
        names: Sequence[Hashable] | None = None,
    ) -> ExactCover:
        """A problem from a 0/1 matrix: rows are options, columns are items.

        Any integer or bool dtype, C or Fortran order; ``secondary`` lists column indices.
        Items are named by their column index unless ``names`` are given; column order is
        item order (secondary columns after the primary ones).
        """
        try:
            a = np.asarray(matrix)
        except (ValueError, TypeError) as e:  # ragged rows and the like
            raise MatrixError(f"expected a 2-D matrix of zeros and ones: {e}") from None
        if a.ndim != 2:
            raise MatrixError(f"expected a 2-D matrix, got {a.ndim} dimension(s) {a.shape}")
        if a.dtype != bool and not np.issubdtype(a.dtype, np.integer):
            raise MatrixError(f"expected an integer or bool matrix, got dtype {a.dtype}")
        if a.dtype != bool:
            bad = np.argwhere((a != 0) & (a != 1))
            if len(bad):
                r, c = (int(v) for v in bad[0])
                raise MatrixError(f"entry ({r}, {c}) is {a[r, c]}, not 0 or 1")
        rows, cols = np.nonzero(a)
        indptr = np.zeros(a.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=a.shape[0]), out=indptr[1:])
        return cls.from_csr(indptr, cols, n_items=a.shape[1], secondary=secondary, names=names)

    @classmethod
    def from_csr(
        cls,
        indptr: Any,
        indices: Any,
        *,
        n_items: int | None = None,
        secondary: Iterable[int] | None = None,
        names: Sequence[Hashable] | None = None,
    ) -> ExactCover:
        """A problem in compressed sparse row form, the fast way in for large inputs.

        Option ``k`` covers the columns ``indices[indptr[k]:indptr[k + 1]]`` (ints in
        ``0..n_items-1``, as in ``scipy.sparse.csr_matrix``). ``secondary`` and ``names``
        are as in :meth:`from_matrix`. Validation is vectorized: no Python loop per entry.
        """
        indptr = integer_array(indptr, "indptr")
        cols = integer_array(indices, "indices")
        if len(indptr) == 0 or indptr[0] != 0 or indptr[-1] != len(cols):
            raise MatrixError("indptr must start at 0 and end at len(indices)")
        if np.any(indptr[1:] < indptr[:-1]):
            k = int(np.flatnonzero(indptr[1:] < indptr[:-1])[0])
            raise MatrixError(f"indptr must not decrease: indptr[{k + 1}] = "
                              f"{int(indptr[k + 1])} < indptr[{k}] = {int(indptr[k])}")
        if n_items is None:
            n_items = int(cols.max(initial=-1)) + 1
        n_items = count_of(n_items, "n_items")
        if names is not None:
            try:
                names = list(names)
            except TypeError:
                raise MatrixError(f"names must be a sequence of item names, got "
                                  f"{names!r}") from None
            if len(names) != n_items:
                raise MatrixError(f"{len(names)} names for {n_items} items")
            try:
                distinct = len(set(names))
            except TypeError:  # some name is not hashable: say which
                names = [hashable(x, "item name") for x in names]
                raise AssertionError("an unhashable name hashed") from None
            if distinct != n_items:
                _unique_items(names, "names: the")  # raises, naming the one given twice
        bad = np.flatnonzero((cols < 0) | (cols >= n_items))
        rows = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
        if len(bad):
            k = int(bad[0])
            raise UnknownItemError(f"option {rows[k]} names column {cols[k]}, "
                                   f"not in range 0..{n_items - 1}")
        keys = np.sort(rows * n_items + cols)
        twice = np.flatnonzero(keys[1:] == keys[:-1])
        if len(twice):
            row, col = divmod(int(keys[twice[0]]), n_items)
            raise RepeatedItemError(f"option {row} names column {col} more than once")
        sec = _unique_items(secondary or (), "secondary")
        for c in sec:
            if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
                raise UnknownItemError(f"secondary column {c!r} is not an integer")
            if not 0 <= c < n_items:
                raise UnknownItemError(f"secondary column {c!r} is not in range 0..{n_items - 1}")
        is_sec = np.zeros(n_items, dtype=bool)
        is_sec[[cast(int, c) for c in sec]] = True
        prim = np.flatnonzero(~is_sec)
        seco = np.flatnonzero(is_sec)
        number = np.empty(n_items, dtype=np.int64)  # column -> item number 1..n_items
        number[prim] = np.arange(1, len(prim) + 1)
        number[seco] = np.arange(len(prim) + 1, n_items + 1)
        label = list(range(n_items)) if names is None else list(names)
        items = number[cols]
        self = cls.__new__(cls)
        self._init([label[c] for c in prim.tolist()], [label[c] for c in seco.tolist()],
                   (indptr, items, np.zeros_like(items), []))
        return self

    @classmethod
    def from_dlx(cls, text: str | bytes) -> ExactCover:
        """A problem from Knuth's DLX text format (see :mod:`dlx.dlxformat`), given as a
        str or as UTF-8 bytes (a leading byte-order mark is skipped).

        A malformed line, or bytes that are not UTF-8, raise :class:`dlx.DLXFormatError`
        naming the line; any other type of ``text`` raises :class:`dlx.ArgumentError`.
        """
        from .dlxformat import parse_dlx

        primary, secondary, options = parse_dlx(text)
        return cls(options, primary=primary, secondary=secondary)

    def to_dlx(self) -> str:
        """This problem in Knuth's DLX text format, readable by DLX1/DLX2 and ``from_dlx``.

        Names and colors are written with ``str``, and ``from_dlx`` reads the text back
        as the same problem (names and colors as those strings). What cannot be written
        so raises :class:`dlx.ArgumentError` naming it: no primary item, a name or color
        that is empty or holds an ASCII blank or ``|`` (or ``:``, in an item name), or
        two items or two colors with the same ``str`` (``1`` and ``"1"``).
        """
        from .dlxformat import format_dlx

        return format_dlx(self.primary, self.secondary, list(self.options()))

    # ----- looking at the problem --------------------------------------------------------

    def __len__(self) -> int:
        return len(self._indptr) - 1

    def __repr__(self) -> str:
        return (f"ExactCover({len(self)} options, {len(self.primary)} primary + "
                f"{len(self.secondary)} secondary items)")

    def option(self, k: int) -> list[Hashable]:
        """Option ``k`` as item names, colored entries as :class:`Colored`."""
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) \
                or not 0 <= k < len(self):
            raise ArgumentError(f"option {k!r} is not in range 0..{len(self) - 1}")
        lo, hi = int(self._indptr[k]), int(self._indptr[k + 1])
        out: list[Hashable] = []
        for x, c in zip(self._items[lo:hi].tolist(), self._colors[lo:hi].tolist()):
            name = self.items[x - 1]
            out.append(Colored(name, self._color_names[c - 1]) if c else name)
        return out

    def options(self) -> Iterator[list[Hashable]]:
        """Every option, in input order."""
        return (self.option(k) for k in range(len(self)))

    def _option_text(self, k: int) -> str:
        return " ".join(f"{e.item}:{e.color}" if isinstance(e, Colored) else str(e)
                        for e in self.option(k))

    def to_matrix(self) -> np.ndarray:
        """The 0/1 matrix (uint8), rows = options, columns = items in item order."""
        m = np.zeros((len(self), len(self.items)), dtype=np.uint8)
        rows = np.repeat(np.arange(len(self)), np.diff(self._indptr))
        m[rows, self._items - 1] = 1
        return m

    @cached_property
    def links(self) -> Links:
        """The dancing-links arrays (built on first use, then shared by every search)."""
        return build_links(len(self.items), len(self.primary),
                           self._indptr, self._items, self._colors)

    @cached_property
    def _min_primary(self) -> int:
        """The fewest primary items in an option that has any (bounds a solution's size)."""
        if not len(self):
            return 1
        counts = np.add.reduceat(self._items <= len(self.primary), self._indptr[:-1])
        counts = counts[counts > 0]
        return int(counts.min()) if len(counts) else 1

    # ----- solving -----------------------------------------------------------------------

    def solutions(
        self,
        limit: int | None = None,
        *,
        forced: Iterable[int] | None = None,
        max_nodes: int | None = None,
        timeout: float | None = None,
        seed: int | None = None,
        weighted: bool = False,
        lookahead: int = 0,
        backend: BackendName | str = "auto",
    ) -> Search:
        """Lazily yield every solution (at most ``limit``), each a sorted list of options.

        Returns a :class:`~dlx.search.Search`: iterate over it; its ``stats`` are live.
        ``forced`` options are taken before the search and belong to every solution (a
        Sudoku's givens): the search is that of the problem left without their items and
        the options that clash with them. If they exclude one another there is no
        solution and ``stats.conflict`` names the first that clashes. ``max_nodes`` and
        ``timeout`` (seconds) stop the search early; ``stats.status`` then says
        ``MAX_NODES`` or ``TIMEOUT``, which is how "stopped" differs from "no solution".
        ``seed`` shuffles the order of the items and of the options of each item once,
        at the start (reproducibly, the same on every backend, as fast as an unseeded
        search), so that ties between equally short items and the order of the options
        tried are random; by default the first item is taken, as Knuth does, so ``nodes``
        and ``updates`` equal those of his DLX1/DLX2. ``weighted`` branches on the item
        of least length / weight, an item's weight growing each time it runs out of
        options (dom/wdeg, as in Knuth's SSXCC): for hard instances. ``lookahead`` (an
        int; 0, the default, for none) hides at every node the options that item
        domination excludes: if every option of an item ``i`` of at most ``lookahead``
        options holds item ``j``, the options of ``j`` without ``i`` go (Knuth's
        DLX-PRE reduction, at every node: fewer nodes, each dearer). None of these
        changes the set of solutions, only their order. Bad arguments raise
        :class:`dlx.ArgumentError` (forced options: :class:`dlx.ForcedOptionError`), the
        same on every path and backend.
        """
        limit_ = count_arg(limit, "limit", 1)
        max_nodes_ = count_arg(max_nodes, "max_nodes", 0)
        timeout_ = timeout_arg(timeout)
        seed_ = seed_arg(seed)
        weighted_ = flag_arg(weighted, "weighted")
        lookahead_ = count_arg(lookahead, "lookahead", 0)
        forced_ = check_forced(forced, len(self), self.dropped)
        links = self.links
        chosen = get_backend(backend, links.n_nodes)
        return Search(links, chosen, limit=limit_, forced=forced_, max_nodes=max_nodes_,
                      timeout=timeout_, seed=seed_, weighted=weighted_, lookahead=lookahead_,
                      on_finish=self._finished,
                      on_python_time=(charge_python if backend == "auto"
                                      and chosen.name == "python" else None))

    def first(self, *, restarts: int | None = None, **kwargs: Any) -> list[int] | None:
        """One solution, or None (``self.stats.status`` tells "none" from "stopped").

        Takes the keyword arguments of :meth:`solutions` but ``limit``, and ``restarts``:
        a number of nodes, the unit of Luby's sequence of restarts (run ``k`` searches at
        most ``restarts * luby(k)`` nodes, shuffled afresh from ``seed``, default 0; a
        weighted search carries its weights on; see :mod:`dlx.restarts`). With restarts,
        ``max_nodes`` and ``timeout`` bound all the runs together, and ``stats`` sums
        them (``stats.restarts`` counts the runs cut short). For hard instances:
        ``first(weighted=True, restarts=1000)``.
        """
        if "limit" in kwargs:
            raise ArgumentError("first() takes no limit: it is one")
        if restarts is not None:
            return self._first_restarting(restarts, **kwargs)
        search = self.solutions(1, **kwargs)
        solution = next(search, None)
        search.count()  # nothing more to search: marks the search finished
        return solution

    def _first_restarting(self, unit: Any, *, forced: Iterable[int] | None = None,
                          max_nodes: int | None = None, timeout: float | None = None,
                          seed: int | None = None, weighted: bool = False,
                          lookahead: int = 0,
                          backend: BackendName | str = "auto") -> list[int] | None:
        """:meth:`first` with restarts (:func:`dlx.restarts.first_restarting`)."""
        unit_ = count_arg(unit, "restarts", 1)
        max_nodes_ = count_arg(max_nodes, "max_nodes", 0)
        timeout_ = timeout_arg(timeout)
        seed_ = seed_arg(seed)
        weighted_ = flag_arg(weighted, "weighted")
        lookahead_ = count_arg(lookahead, "lookahead", 0)
        forced_ = check_forced(forced, len(self), self.dropped)
        links = self.links
        solution, _ = first_restarting(links, get_backend(backend, links.n_nodes), unit=unit_,
                                       forced=forced_, max_nodes=max_nodes_, timeout=timeout_,
                                       seed=seed_ or 0, weighted=weighted_,
                                       lookahead=lookahead_, on_finish=self._finished)
        return solution

    def count(
        self,
        limit: int | None = None,
        *,
        forced: Iterable[int] | None = None,
        max_nodes: int | None = None,
        timeout: float | None = None,
        seed: int | None = None,
        weighted: bool = False,
        lookahead: int = 0,
        backend: BackendName | str = "auto",
    ) -> int:
        """The number of solutions (at most ``limit``), without materializing any of them.
        The count is this call's own, whatever other threads do with the problem."""
        return self.solutions(limit, forced=forced, max_nodes=max_nodes, timeout=timeout,
                              seed=seed, weighted=weighted, lookahead=lookahead,
                              backend=backend).count()

    def solve_batch(
        self,
        forced: Iterable[Iterable[int]] | None = None,
        *,
        indptr: Any = None,
        indices: Any = None,
        limit: int | None = 1,
        max_nodes: int | None = None,
        timeout: float | None = None,
        backend: BackendName | str = "auto",
    ) -> BatchResult:
        """Solve this problem once per instance, each with some options forced into the
        solution, all in one kernel call (see :mod:`dlx.batch`).

        ``forced`` lists, per instance, the option indices it forces, e.g. the options of a
        Sudoku's givens in the problem of the empty grid; ``indptr`` and ``indices`` give
        the same in CSR form (instance ``k`` forces ``indices[indptr[k]:indptr[k + 1]]``).
        Each instance counts solutions up to ``limit`` (None: all), keeps the first one,
        and stops after ``max_nodes`` search nodes. ``timeout`` (seconds) bounds the whole
        batch: the instance under way when it runs out, and every later one, stop there
        (status ``TIMEOUT``). Forced options that exclude one another mark the instance
        as a conflict. The result is the same as searching, one at a time, the problem
        left once the forced options are taken: same solutions in the same order, same
        ``nodes`` and ``updates``. Arguments are checked as for :meth:`solutions`.
        """
        return run_batch(self.links, len(self), self._min_primary, forced, indptr=indptr,
                         indices=indices, limit=count_arg(limit, "limit", 1),
                         max_nodes=count_arg(max_nodes, "max_nodes", 0), backend=backend,
                         timeout=timeout_arg(timeout))

    def is_solution(self, solution: Iterable[int]) -> bool:
        """Independent check: primary items covered exactly once, secondary at most once
        (or several times with one color)."""
        if isinstance(solution, (str, bytes)) or not isinstance(solution, Iterable):
            raise ArgumentError(f"solution must be an iterable of option indices, got "
                                f"{solution!r}")
        count: dict[int, int] = {}
        color: dict[int, int] = {}
        dropped = set(self.dropped)
        for k in solution:
            if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) \
                    or not 0 <= k < len(self) or k in dropped:
                return False
            lo, hi = int(self._indptr[k]), int(self._indptr[k + 1])
            for x, c in zip(self._items[lo:hi].tolist(), self._colors[lo:hi].tolist()):
                if c:
                    if color.setdefault(x, c) != c or count.get(x):
                        return False
                else:
                    if x in color or count.get(x):
                        return False
                    count[x] = 1
        n_primary = len(self.primary)
        return all(count.get(x) or x in color for x in range(1, n_primary + 1))


# ----- helpers --------------------------------------------------------------------------


def _unique_items(names: Iterable[Hashable], kind: str) -> list[Hashable]:
    if isinstance(names, (bytes, int, float)) or not isinstance(names, Iterable):
        raise InputError(f"{kind} must be an iterable of item names, got {names!r}")
    out = [hashable(name, f"{kind} item") for name in names]
    seen: set[Hashable] = set()
    for name in out:
        if name in seen:
            raise RepeatedItemError(f"{kind} item {name!r} is listed twice")
        seen.add(name)
    return out


def _encode_options(
    options: Sequence[list[Hashable]],
    primary: list[Hashable],
    secondary: list[Hashable],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Hashable]]:
    """Validate named options and number them: CSR arrays of item numbers and color ids."""
    number = {name: k for k, name in enumerate(primary, 1)}
    n_primary = len(primary)
    number.update((name, k) for k, name in enumerate(secondary, n_primary + 1))
    color_id: dict[Hashable, int] = {}
    items: list[int] = []
    colors: list[int] = []
    indptr = [0]
    for k, opt in enumerate(options):
        if not opt:
            raise EmptyOptionError(f"option {k} has no items")
        start = len(items)
        for entry in opt:
            c = 0
            if isinstance(entry, Colored):
                color = hashable(entry.color, f"option {k}: color")
                if color is None:  # "no color" is written as the plain item
                    raise ColorError(f"option {k} gives item {entry.item!r} the color None; "
                                     "for no color, name the item alone")
                entry = entry.item
                c = color_id.setdefault(color, len(color_id) + 1)
            try:
                x = number[entry]
            except (KeyError, TypeError):
                raise UnknownItemError(f"option {k} names unknown item {entry!r}") from None
            if c and x <= n_primary:
                raise ColorError(f"option {k} gives a color to primary item {entry!r}")
            items.append(x)
            colors.append(c)
        if len(set(items[start:])) != len(items) - start:
            dup = next(x for x in items[start:] if items[start:].count(x) > 1)
            raise RepeatedItemError(f"option {k} names item {_name(dup, primary, secondary)!r}"
                                    " more than once")
        indptr.append(len(items))
    return (np.array(indptr, dtype=np.int64), np.array(items, dtype=np.int64),
            np.array(colors, dtype=np.int64), list(color_id))


def _name(x: int, primary: list[Hashable], secondary: list[Hashable]) -> Hashable:
    return primary[x - 1] if x <= len(primary) else secondary[x - 1 - len(primary)]
