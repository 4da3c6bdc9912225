"""``ExactCover``: the public face of the engine. Front ends in, solutions out.

A problem is a list of *options*, each a set of *items*. Primary items must be covered
exactly once, secondary items at most once; a secondary item may carry a *color* in an
option, and options that agree on that color may share it (Knuth's XCC problem). With
``multiplicity`` a primary item is covered between ``u`` and ``v`` times instead (Knuth's
MCC problem, DLX3), and with ``costs`` the cheapest solutions can be asked for (DLX5).
Front ends (named options, numpy 0/1 matrices, Knuth's text format) all reduce to the same
validated CSR arrays, which [`dlx.links.build_links`][] turns into dancing links.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Hashable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import IO, TYPE_CHECKING, Any, cast

import numpy as np

from .backend import Backend
from .batch import BatchResult, InstanceSearch, run_batch
from .budget import check_stopped
from .errors import (
    ArgumentError,
    EmptyOptionError,
    NoPrimaryItemWarning,
    RepeatedItemError,
    UnknownItemError,
)
from .frontier import build as build_frontier
from .frontier import use_frontier
from .kinds.memo_split import build_split, wanted
from .links import Links
from .matrix import Matrix
from .memo import build as build_set
from .options import (
    Colored,
    bound_arrays,
    checked_csr,
    cost_array,
    encode_options,
    hashable,
    matrix_csr,
    option_lists,
    unique_items,
)
from .progress import RunProgress
from .registry import BackendName
from .request import CountOptions, FirstOptions, SearchOptions, check_request, takes
from .run import count as count_run
from .run import run
from .search import SearchStats
from .views import MATRIX_LIMIT, html_table, matrix_svg
from .zdd import SolutionSet

if TYPE_CHECKING:
    import concurrent.futures as cf
    from collections.abc import Callable

    from typing_extensions import Unpack

    from .kinds import Solutions
    from .preprocess import Preprocessed
    from .split import Split

__all__ = ["Colored", "ExactCover"]


def _unlisted(options: Sequence[Sequence[Hashable]], listed: set[Hashable]) -> list[Hashable]:
    """The items the options name that are not ``listed``, in order of first appearance."""
    seen: dict[Hashable, None] = {}
    for k, opt in enumerate(options):
        for entry in opt:
            name = hashable(entry.item if isinstance(entry, Colored) else entry,
                            f"option {k}: item")
            if name not in listed:
                seen.setdefault(name, None)
    return list(seen)


class ExactCover:
    """An exact-cover problem with colors (XCC), solved by Algorithm C on dancing links.

    ``options`` is a sequence of iterables of item names (any hashable values; an entry may
    be [`Colored`][]). With ``primary=None`` every item not listed in ``secondary`` is
    primary, in order of first appearance; otherwise the order of ``primary`` then
    ``secondary`` is the item order, which fixes the branching tie-break as in Knuth's
    programs. Solutions are lists of option indices (0-based, in input order, sorted).
    With ``primary`` given, an item in neither list is refused (UnknownItemError: a typo
    is caught), unless ``rest_secondary=True`` makes every such item secondary, in order
    of first appearance after ``secondary`` (xcover's rule, asked for explicitly).

    ``multiplicity`` maps primary items to bounds: ``v`` (covered exactly ``v`` times) or
    ``(u, v)`` (between ``u`` and ``v`` times, ``0 <= u <= v``, ``v >= 1``); unlisted
    items keep 1..1. A solution is still a *set* of options. ``costs`` gives each option a
    nonnegative integer cost, for [`best`][] and ``solutions(order="cost")``. Either
    makes the search Knuth's Algorithm M (`dlx.kernels.algorithm_m`); without them it is
    Algorithm C, exactly as before. Bad bounds raise [`dlx.BoundError`][], bad costs
    [`dlx.CostError`][], each naming the item or option and the value.
    """

    def __init__(
        self,
        options: Iterable[Iterable[Hashable]],
        *,
        primary: Iterable[Hashable] | None = None,
        secondary: Iterable[Hashable] | None = None,
        multiplicity: Any = None,
        costs: Any = None,
        rest_secondary: bool = False,
    ) -> None:
        options = option_lists(options)
        secondary_list = unique_items(secondary or (), "secondary")
        if type(rest_secondary) is not bool:
            raise ArgumentError(f"rest_secondary must be True or False, got {rest_secondary!r}")
        if primary is None:
            if rest_secondary:
                raise ArgumentError("rest_secondary=True goes with primary=[...]: without "
                                    "primary every item not in secondary is primary")
            primary_list = _unlisted(options, set(secondary_list))
        else:
            primary_list = unique_items(primary, "primary")
            if rest_secondary:
                secondary_list += _unlisted(options, {*primary_list, *secondary_list})
        clash = set(primary_list).intersection(secondary_list)
        if clash:
            raise RepeatedItemError(
                f"item {next(iter(clash))!r} is listed as both primary and secondary"
            )
        try:
            csr = encode_options(options, primary_list, secondary_list)
        except UnknownItemError as e:
            if primary is None:
                raise
            raise UnknownItemError(f"{e}, which is in neither primary nor secondary: list it "
                                   "in secondary=, or pass rest_secondary=True to make every "
                                   "item not in primary secondary") from None
        self._init(primary_list, secondary_list, csr, multiplicity, costs)

    def _init(self, primary, secondary, csr, multiplicity=None, costs=None) -> None:
        """Common end of every constructor: names, the CSR arrays, bounds and costs, and
        (lazily) the links."""
        self.primary: list[Hashable] = list(primary)
        self.secondary: list[Hashable] = list(secondary)
        self.items: list[Hashable] = self.primary + self.secondary
        indptr, items, colors, color_names = csr
        bounds = bound_arrays(multiplicity, self.primary, self.secondary)
        cost = cost_array(costs, len(indptr) - 1)
        self._last = threading.local()
        n_primary = len(self.primary)
        lens = np.diff(indptr)
        empty = np.flatnonzero(lens == 0)
        if len(empty):
            raise EmptyOptionError(f"option {int(empty[0])} has no items")
        entry_opt = np.repeat(np.arange(len(lens)), lens)
        has_primary = np.zeros(len(lens), dtype=bool)
        has_primary[entry_opt[items <= n_primary]] = True
        self.dropped: list[int] = np.flatnonzero(~has_primary).tolist()
        """Options without a primary item, which no solution can contain."""
        self.matrix = Matrix(n_primary, len(self.secondary), indptr, items, colors,
                             color_names, bounds, cost, tuple(self.dropped))
        """The problem as the modules below read it ([`dlx.matrix.Matrix`][])."""
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
        read the [`Search`][dlx.search.Search] object's own ``stats``."""
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
        multiplicity: Any = None,
        costs: Any = None,
    ) -> ExactCover:
        """A problem from a 0/1 matrix: rows are options, columns are items.

        Any integer or bool dtype, C or Fortran order; ``secondary`` lists column indices.
        Items are named by their column index unless ``names`` are given; column order is
        item order (secondary columns after the primary ones). ``multiplicity`` (keyed by
        item name) and ``costs`` as for [`ExactCover`][].
        """
        indptr, cols, n_items = matrix_csr(matrix)
        return cls.from_csr(indptr, cols, n_items=n_items, secondary=secondary, names=names,
                            multiplicity=multiplicity, costs=costs)

    @classmethod
    def from_csr(
        cls,
        indptr: Any,
        indices: Any,
        *,
        n_items: int | None = None,
        secondary: Iterable[int] | None = None,
        names: Sequence[Hashable] | None = None,
        multiplicity: Any = None,
        costs: Any = None,
    ) -> ExactCover:
        """A problem in compressed sparse row form, the fast way in for large inputs.

        Option ``k`` covers the columns ``indices[indptr[k]:indptr[k + 1]]`` (ints in
        ``0..n_items-1``, as in ``scipy.sparse.csr_matrix``). ``secondary``, ``names``,
        ``multiplicity`` and ``costs`` are as in [`from_matrix`][]. Validation is
        vectorized: no Python loop per entry.
        """
        primary, secondary_names, indptr, items = checked_csr(indptr, indices, n_items,
                                                              secondary, names)
        self = cls.__new__(cls)  # not _checked: the warnings' stacklevel is the caller's
        self._init(primary, secondary_names, (indptr, items, np.zeros_like(items), []),
                   multiplicity, costs)
        return self

    @classmethod
    def _checked(cls, primary: list[Hashable], secondary: list[Hashable],
                 csr: Any) -> ExactCover:
        """A problem from names and CSR arrays already checked (the reduced problem of
        ``preprocess``)."""
        self = cls.__new__(cls)
        self._init(primary, secondary, csr)
        return self

    @classmethod
    def from_dlx(cls, source: str | bytes | os.PathLike[str] | IO[Any]) -> ExactCover:
        """A problem from Knuth's DLX text format (see `dlx.dlxformat`): the text as
        a str or UTF-8 bytes (a leading byte-order mark is skipped), a file's path as an
        ``os.PathLike`` (``pathlib.Path("queens8.dlx")``), or an open file, text or
        binary. Item bounds ``u:v|name`` and ``v|name`` (DLX3) and option costs ``|n``
        (DLX5) are read too.

        A malformed line, or bytes that are not UTF-8, raise [`dlx.DLXFormatError`][]
        naming the line; any other type of ``source``, or a str without a line break
        that names an existing file (a path given as text: pass a ``Path``), raises
        [`dlx.ArgumentError`][]; a file that cannot be read, OSError.
        """
        from .dlxformat import dlx_source, parse_mcc

        primary, secondary, options, bounds, costs = parse_mcc(dlx_source(source))
        return cls(options, primary=primary, secondary=secondary,
                   multiplicity=bounds or None, costs=costs)

    def to_dlx(self) -> str:
        """This problem in Knuth's DLX text format, readable by DLX1/DLX2 (DLX3 with
        bounds, DLX5 with costs) and ``from_dlx``.

        Names and colors are written with ``str``, and ``from_dlx`` reads the text back
        as the same problem (names and colors as those strings). What cannot be written
        so raises [`dlx.ArgumentError`][] naming it: no primary item, a name or color
        that is empty or holds an ASCII blank or ``|`` (or ``:``, in an item name), or
        two items or two colors with the same ``str`` (``1`` and ``"1"``).
        """
        from .dlxformat import format_dlx

        return format_dlx(self.primary, self.secondary, list(self.options()),
                          self.multiplicity, self.costs if self.matrix.costs is not None else None)

    # ----- looking at the problem --------------------------------------------------------

    def __len__(self) -> int:
        return self.matrix.n_options

    def __repr__(self) -> str:
        extra = (", multiplicities" if self.matrix.bounds is not None else "") + (
            ", costs" if self.matrix.costs is not None else "")
        return (f"ExactCover({len(self)} options, {len(self.primary)} primary + "
                f"{len(self.secondary)} secondary items{extra})")

    def _repr_html_(self) -> str:
        """Jupyter's view: the sizes and, for a small problem, its matrix drawn."""
        m = self.matrix
        rows = [m.items[m.indptr[k]:m.indptr[k + 1]].tolist() for k in range(m.n_options)] \
            if m.n_options <= MATRIX_LIMIT else []
        facts: list[tuple[str, object]] = [("options", m.n_options), ("primary items", m.n_primary),
                 ("secondary items", m.n_secondary)]
        facts += [("multiplicities", len(self.multiplicity))] if m.bounds is not None else []
        facts += [("costs", "given")] if m.costs is not None else []
        return html_table("ExactCover", facts, matrix_svg(rows, m.n_items, m.n_primary))

    @property
    def multiplicity(self) -> dict[Hashable, tuple[int, int]]:
        """The bounds ``(u, v)`` of the primary items whose bounds are not 1..1."""
        if self.matrix.bounds is None:
            return {}
        lower, upper = (b.tolist() for b in self.matrix.bounds)
        return {x: (u, v) for x, u, v in zip(self.primary, lower, upper) if (u, v) != (1, 1)}

    @property
    def costs(self) -> list[int]:
        """Each option's cost (all 0 when none were given)."""
        costs = self.matrix.costs
        return [0] * len(self) if costs is None else costs.tolist()

    def cost(self, solution: Iterable[int]) -> int:
        """The cost of a set of options: the sum of their costs."""
        chosen = list(solution)
        for k in chosen:
            self.option(k)  # ArgumentError for one that is not an option
        costs = self.matrix.costs
        return 0 if costs is None else int(sum(costs[k] for k in chosen))

    def option(self, k: int) -> list[Hashable]:
        """Option ``k`` as item names, colored entries as [`Colored`][]."""
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) \
                or not 0 <= k < len(self):
            raise ArgumentError(f"option {k!r} is not in range 0..{len(self) - 1}")
        m = self.matrix
        lo, hi = int(m.indptr[k]), int(m.indptr[k + 1])
        out: list[Hashable] = []
        for x, c in zip(m.items[lo:hi].tolist(), m.colors[lo:hi].tolist()):
            name = self.items[x - 1]
            out.append(Colored(name, m.color_names[c - 1]) if c else name)
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
        rows = np.repeat(np.arange(len(self)), np.diff(self.matrix.indptr))
        m[rows, self.matrix.items - 1] = 1
        return m

    @cached_property
    def links(self) -> Links:
        """The dancing-links arrays (built on first use, then shared by every search):
        ``matrix.links``, kept here too, where ``solve_batch`` reads it at no cost."""
        return self.matrix.links

    # ----- solving -----------------------------------------------------------------------

    @takes(SearchOptions)
    def solutions(self, limit: int | None = None,
                  **options: Unpack[SearchOptions]) -> Solutions:
        """Lazily yield every solution (at most ``limit``), each a sorted list of options.

        Returns a lazy search ([`dlx.Search`][] for the plain search): iterate over it;
        its ``stats`` are live; ``count()`` runs it to its end. The keyword ``options`` are
        those of [`dlx.request.SearchOptions`][]. ``forced`` options are taken before the
        search and belong to every solution (a Sudoku's givens): the search is that of the
        problem left without their items and the options that clash with them. If they
        exclude one another there is no solution and ``stats.conflict`` names the first that
        clashes. ``max_nodes`` and ``timeout`` (seconds) stop the search early;
        ``stats.status`` then says ``MAX_NODES`` or ``TIMEOUT``, which is how "stopped"
        differs from "no solution". ``seed`` shuffles the order of the items and of the
        options of each item once, at the start (reproducibly, the same on every backend, as
        fast as an unseeded search), so that ties between equally short items and the order
        of the options tried are random; by default the first item is taken, as Knuth does,
        so ``nodes`` and ``updates`` equal those of his DLX1/DLX2 (DLX3 with multiplicities,
        where a ``seed`` breaks ties between equally good items at random instead).
        ``weighted`` branches on the item of least length / weight, an item's weight growing
        each time it runs out of options (dom/wdeg, as in Knuth's SSXCC): for hard
        instances. ``lookahead`` (an int; 0, the default, for none) hides at every node the
        options that item domination excludes: if every option of an item ``i`` of at most
        ``lookahead`` options holds item ``j``, the options of ``j`` without ``i`` go
        (Knuth's DLX-PRE reduction, at every node: fewer nodes, each dearer). None of these
        changes the set of solutions, only their order; ``weighted`` and ``lookahead`` are
        for problems without bounds or costs. ``strategy`` is one of
        [`dlx.arguments.STRATEGIES`][]: ``auto`` (the default; here the plain search),
        ``plain``, ``learn`` or ``race``. ``strategy="learn"`` runs a search of another
        kind, which learns from its conflicts (`dlx.kernels.cdcl`: clause learning, VSIDS,
        restarts), for instances where a subtree fails for the same reason again and again
        (the minimal 25x25 Sudokus); its solutions come in no set order, each once, and its
        ``stats.nodes`` are its decisions; ``strategy="race"`` runs it and the plain
        search in turns for one solution, the first to answer wins
        (`dlx.kinds.portfolio`). ``progress`` is called with a [`dlx.RunProgress`][]
        between the kernel's slices. ``order="cost"`` yields the ``limit`` cheapest
        solutions instead, cheapest first, once the search (branch and bound, see
        [`Search`][dlx.search.Search]) is over. Bad arguments raise [`dlx.ArgumentError`][]
        (forced options: [`dlx.ForcedOptionError`][]), the same on every path and
        backend.

        Given ``executor``, ``workers`` or ``split`` (as for [`count`][]), the
        subproblems are searched there and their solutions come back *in the serial
        order*, the same list as without them, a few chunks searched ahead
        (`dlx.distribute.SplitSearch`: its ``stats`` follow the chunks).
        """
        return run(self, check_request(self.matrix, "solutions", limit, options),
                   self._finished)

    @takes(CountOptions)
    def count(self, limit: int | None = None, **options: Unpack[CountOptions]) -> int:
        """The number of solutions (at most ``limit``), without materializing any of them.
        The count is this call's own, whatever other threads do with the problem.

        With ``strategy="auto"`` (the default) and without ``memo``, a count that the
        memoized search accepts (no limit, ``max_nodes``, seed, ``weighted``,
        ``lookahead``, multiplicities) chooses between it and the plain search as it
        goes (`dlx.kinds.choose`: ``stats.answered_by`` says which answered);
        ``strategy="plain"`` or ``memo=False`` is the plain search (Knuth's node
        counts), ``memo=True`` the memoized one (Knuth's DLX6, exact past 2**64).
        ``max_memory`` (bytes; default a quarter of the machine's memory) and
        ``max_zdd_nodes`` bound the memoized search: the chooser's, out of room, gives
        way to the plain search, which needs no more memory; an explicit ``memo=True``
        raises [`dlx.SearchStoppedError`][]. ``parts=True`` counts by the memoized search
        split into independent parts (as [`solution_set`][] does).

        Given ``executor`` (any ``concurrent.futures.Executor``: a process pool, a Dask
        client's ``get_executor()``, [`dlx.distribute.RayExecutor`][]), ``workers``
        (a pool of that many local processes, at most
        [`dlx.arguments.max_workers`][]), ``checkpoint`` or ``split``, the search
        is cut into subproblems (``split``, default [`split`][] with ``parts=64``) run
        on the executor (see `dlx.distribute`): the same count, and ``stats`` with
        the serial search's ``nodes``. ``checkpoint`` names a JSON file of the finished
        subproblems: a rerun with it resumes. ``forced``, ``max_nodes``, ``timeout``,
        ``seed``, ``weighted``, ``lookahead`` and ``strategy`` are for a single search
        only. With ``memo=True`` each subproblem is counted by the memoized search and
        the exact counts add up (`dlx.kinds.memo_split`: a problem whose subproblems
        repeat across the tree, as domino boards', is counted whole; ``timeout`` bounds
        the whole run, ``max_memory`` and ``max_zdd_nodes`` each part; no checkpoint).
        ``progress`` is called with a [`dlx.RunProgress`][]: after each finished
        chunk, or between the slices of a single search. The keyword ``options`` are
        [`dlx.CountOptions`][].

        A budget (``max_nodes``, ``timeout``) or bound that runs out first raises
        [`dlx.SearchStoppedError`][], whose ``stats.solutions`` is the count so far
        (``solutions(...).count()`` returns such a partial count without raising).
        """
        request = check_request(self.matrix, "count", limit, options)
        total, stats = count_run(self, request, self._finished)
        check_stopped(stats, "count()", request)
        return total

    @takes(SearchOptions)
    def best(self, k: int | None = 1, **options: Unpack[SearchOptions]) -> list[list[int]]:
        """The ``k`` cheapest solutions (None: all), cheapest first; ties in the order
        the search finds them. Their costs: [`cost`][]. A budget (``max_nodes``,
        ``timeout``) that runs out first raises [`dlx.SearchStoppedError`][], as for
        [`count`][] (``solutions(k, order="cost", ...)`` yields the best found so far
        instead, with the stopped status)."""
        if "limit" in options or "order" in options:
            raise ArgumentError("best() takes k, not limit or order")
        request = check_request(self.matrix, "best", k, {**options, "order": "cost"})
        search = run(self, request, self._finished)
        found = list(search)
        check_stopped(search.stats, "best()", request)
        return found

    @takes(FirstOptions)
    def first(self, **options: Unpack[FirstOptions]) -> list[int] | None:
        """One solution, or None if there is none. A budget (``max_nodes``, ``timeout``)
        that runs out first raises [`dlx.SearchStoppedError`][]: None always means
        "no solution" (the rule for budgets; ``solutions(1, ...)`` stops quietly).

        Takes the keyword arguments of [`solutions`][] but ``limit``, and ``restarts``:
        a number of nodes, the unit of Luby's sequence of restarts (run ``k`` searches at
        most ``restarts * luby(k)`` nodes, shuffled afresh from ``seed``, default 0; a
        weighted search carries its weights on; see `dlx.restarts`). With restarts,
        ``max_nodes`` and ``timeout`` bound all the runs together, and ``stats`` sums
        them (``stats.restarts`` counts the runs cut short). For hard instances:
        ``first(weighted=True, restarts=1000)``.
        """
        if "limit" in options:
            raise ArgumentError("first() takes no limit: it is one")
        request = check_request(self.matrix, "first", 1, options)
        search = run(self, request, self._finished)
        solution = next(search, None)
        search.count()  # nothing more to search: marks the search finished
        if solution is None:
            check_stopped(search.stats, "first(restarts=...)" if request.restarts
                            else "first()", request)
        return solution

    def solution_set(self, *, forced: Iterable[int] | None = None,
                     max_nodes: int | None = None, timeout: float | None = None,
                     max_zdd_nodes: int | None = None, max_memory: int | None = None,
                     parts: bool = False, backend: BackendName | Backend = "auto",
                     progress: Callable[[RunProgress], object] | None = None,
                     executor: cf.Executor | None = None, workers: int | None = None,
                     split: Split | None = None, method: str | None = None,
                     option_order: Iterable[int] | None = None) -> SolutionSet:
        """The set of all solutions, as a [`dlx.SolutionSet`][] (a ZDD) built by the
        memoized search (`dlx.memo`, Knuth's DLX6): exact counts past 2**64, uniform
        samples, set operations. The arguments mean what they mean for [`count`][]
        ([`dlx.request.SetOptions`][]): ``forced`` options belong to every solution;
        ``max_nodes`` and ``timeout`` are budgets; ``max_zdd_nodes`` bounds the
        diagram's nodes and ``max_memory`` the bytes of the search's tables (default: a
        quarter of the machine's memory, [`dlx.request.memory_default`][]); a budget or
        bound that runs out raises [`dlx.SearchStoppedError`][]. ``parts=True`` splits
        the problem, wherever the search finds it so (at the root, or once its choices
        have cut it apart), into independent parts, searches each apart and multiplies
        them (a walk that costs a quarter of the search at most); ``progress`` is called
        with a [`dlx.RunProgress`][] (its ``stats`` a [`dlx.MemoStats`][]) about
        five times a second. Multiplicities raise [`dlx.ArgumentError`][]. ``executor``,
        ``workers`` or ``split`` build it on many cores, as [`count`][] counts: the union
        of the sets of the split's parts (`dlx.kinds.memo_split`; ``timeout`` bounds the
        whole, ``max_memory`` and ``max_zdd_nodes`` each part).

        ``method`` says how the set is built: ``"memo"`` by the memoized search,
        ``"frontier"`` top-down over the store's option order (`dlx.frontier`: colors
        too, no ``parts``, one process; ``max_nodes`` and ``max_zdd_nodes`` then bound
        the top-down diagram's nodes); None (the default) chooses top-down when the
        order's frontier takes few states (a colored problem on probation: past
        [`dlx.frontier.PROBE_NODES`][] top-down nodes, the memoized search;
        [`dlx.frontier.use_frontier`][]), the memoized search on many cores. The family
        is the same either way; a set built top-down is in the store's form from the
        start (iterated in option order, as a set an operation made), one the search
        built keeps the search's diagram and order until combined.

        ``option_order`` (a permutation of the option indices; None, the default: the
        automatic order, [`dlx.orders.option_order`][]) is the order of the options in
        the set's store: the top-down construction decides them in that order (its
        frontier decides ``method=None``'s choice), and the set's canonical diagram
        ([`dlx.SolutionSet.canonical`][], [`dlx.SolutionSet.node_count`][] of the sets
        made from it) follows it. Sets of one problem in different orders are equal when
        their families are, hash alike, and combine ([`dlx.SolutionSet.in_order`][]).
        An ``option_order`` that is not a permutation raises [`dlx.ArgumentError`][]
        naming the bad entry."""
        request = check_request(self.matrix, "solution_set", None, {
            "forced": forced, "max_nodes": max_nodes, "timeout": timeout,
            "max_zdd_nodes": max_zdd_nodes, "max_memory": max_memory, "parts": parts,
            "backend": backend, "progress": progress, "executor": executor,
            "workers": workers, "split": split, "method": method,
            "option_order": option_order})
        if wanted(request):
            found, stats = build_split(self, request, True, self._finished)
        elif use_frontier(self, request):
            found, stats = build_frontier(self, request, self._finished)
        else:
            found, stats = build_set(self, request, True, self._finished)
        check_stopped(stats, "solution_set()", request)
        found = cast(SolutionSet, found)
        if request.option_order is not None:
            found = found.in_order(request.option_order)  # (top-down: there already)
        return found

    def solve_batch(
        self,
        forced: Iterable[Iterable[int]] | None = None,
        *,
        indptr: Any = None,
        indices: Any = None,
        limit: int | None = 1,
        max_nodes: int | None = None,
        timeout: float | None = None,
        backend: BackendName = "auto",
        progress: Callable[[RunProgress], object] | None = None,
    ) -> BatchResult:
        """Solve this problem once per instance, each with some options forced into the
        solution, all in one kernel call (see `dlx.batch`).

        ``forced`` lists, per instance, the option indices it forces, e.g. the options of a
        Sudoku's givens in the problem of the empty grid; ``indptr`` and ``indices`` give
        the same in CSR form (instance ``k`` forces ``indices[indptr[k]:indptr[k + 1]]``).
        Each instance counts solutions up to ``limit`` (None: all), keeps the first one,
        and stops after ``max_nodes`` search nodes. ``timeout`` (seconds) bounds the whole
        batch: the instance under way when it runs out, and every later one, stop there
        (status ``TIMEOUT``). Forced options that exclude one another mark the instance
        as a conflict. The result is the same as searching, one at a time, the problem
        left once the forced options are taken: same solutions in the same order, same
        ``nodes`` and ``updates``. Arguments are checked as for [`solutions`][]
        (`dlx.request.check_request`). ``progress``, if given, is called in this
        thread with a [`dlx.RunProgress`][] (instances ``done`` of ``parts``), from time
        to time (between the kernel's slices, about 5 times a second; after each
        instance in Python), for a progress line.
        """
        request = check_request(self.matrix, "solve_batch", limit, {
            "max_nodes": max_nodes, "timeout": timeout, "backend": backend,
            "progress": progress})
        return run_batch(self.links, len(self), self.matrix.min_primary, forced, indptr=indptr,
                         indices=indices, limit=request.limit, max_nodes=request.max_nodes,
                         backend=request.backend, timeout=request.timeout,
                         progress=request.progress)

    def instance_search(self, *, limit: int | None = 1, max_nodes: int | None = None,
                        timeout: float | None = None,
                        backend: BackendName = "auto") -> InstanceSearch:
        """``search(forced)`` is ``solve_batch([forced], ...)``, the arguments checked here
        once (`dlx.request.check_request`, as for ``solve_batch``), at the least fixed
        cost (a ``timeout`` bounds each call): for searches made one at a time, as an
        adapter's one call makes them (``sudoku.solve``)."""
        request = check_request(self.matrix, "instance_search", limit, {
            "max_nodes": max_nodes, "timeout": timeout, "backend": backend})
        return InstanceSearch(self.links, len(self), self.matrix.min_primary,
                              limit=request.limit, max_nodes=request.max_nodes,
                              timeout=request.timeout, backend=request.backend)

    def preprocess(self, forced: Iterable[int] | None = None, *, blocked: bool = True,
                   dominated: bool = True, rounds: int | None = None) -> Preprocessed:
        """Reduce the problem at its root, as Knuth's DLX-PRE does (see
        `dlx.preprocess`): remove the options that would leave some primary item
        without an option (``blocked``) and those that item domination excludes
        (``dominated``), to a fixpoint (or ``rounds`` passes), after taking the ``forced``
        options. Returns a [`dlx.Preprocessed`][]: the smaller problem, whose solutions
        mapped back (``.original``) are exactly this one's, why each option went, and the
        options every solution holds. Problems with bounds or costs raise
        [`dlx.ArgumentError`][].
        """
        from .preprocess import preprocess

        return preprocess(self, forced, blocked=blocked, dominated=dominated, rounds=rounds,
                          build=self._checked)

    def split(self, depth: int | None = None, parts: int | None = None, *,
              probes: int = 8, seed: int = 0, smallest: float = 0.0) -> Split:
        """Cut the search tree into subproblems (see `dlx.split`), listed in the order
        the serial search meets them; each is the list of options chosen on the way down
        to a node (``forced``, for [`solve_batch`][]) with an estimate of the nodes
        below it (Knuth's estimate from ``probes`` random walks, seeded by ``seed``).

        ``depth``: every node at that level (and the solutions above it). ``parts``: then
        split again every subproblem estimated at more than ``1 / parts`` of the whole
        (none estimated below ``smallest`` nodes), so that about ``parts`` subproblems of
        comparable size remain; neither given: one part, the whole problem. The counts of
        the parts add up to [`count`][], their solutions in order are [`solutions`][],
        and their nodes plus ``nodes_above`` are the serial search's ``nodes``.
        """
        from .split import split_problem

        if self.links.mcc:
            raise ArgumentError("a problem with multiplicities or costs cannot be split: "
                                "its subtrees are not its options forced (Algorithm M "
                                "tweaks options and makes null moves)")
        return split_problem(self.links, self.matrix.digest, depth, parts, probes=probes,
                             seed=seed, smallest=smallest)

    def is_solution(self, solution: Iterable[int]) -> bool:
        """Independent check: primary items covered exactly once (within their bounds,
        with multiplicities), secondary at most once (or several times with one color),
        no option twice."""
        if isinstance(solution, (str, bytes)) or not isinstance(solution, Iterable):
            raise ArgumentError(f"solution must be an iterable of option indices, got "
                                f"{solution!r}")
        count: dict[int, int] = {}
        color: dict[int, int] = {}
        m = self.matrix
        dropped = set(self.dropped)
        n_primary = len(self.primary)
        seen: set[int] = set()
        for k in solution:
            if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) \
                    or not 0 <= k < len(self) or k in dropped or k in seen:
                return False
            seen.add(k)
            lo, hi = int(m.indptr[k]), int(m.indptr[k + 1])
            for x, c in zip(m.items[lo:hi].tolist(), m.colors[lo:hi].tolist()):
                if c:
                    if color.setdefault(x, c) != c or count.get(x):
                        return False
                elif x <= n_primary:
                    count[x] = count.get(x, 0) + 1
                else:
                    if x in color or count.get(x):
                        return False
                    count[x] = 1
        lower, upper = ([1] * n_primary, [1] * n_primary) if m.bounds is None else (
            b.tolist() for b in m.bounds)
        return all(lower[x - 1] <= count.get(x, 0) <= upper[x - 1]
                   for x in range(1, n_primary + 1))


# ----- helpers --------------------------------------------------------------------------
