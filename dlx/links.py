"""The dancing-links data structure: Knuth's flat arrays, built once per problem.

A *pointer* is an index into flat integer arrays, as in Knuth's DLX1/DLX2; no Python
object exists per node. With ``N`` items, ``N1`` of them primary::

    pointer  0            the root: head of the circular list of active primary items
    pointers 1..N         item headers: primary items 1..N1, then secondary N1+1..N
    pointer  N+1          the first spacer
    then, for each option in input order: one node per item of the option, then a spacer

Arrays indexed by node (length ``Z``, the total number of nodes):

``U``, ``D``
    up / down links of the circular vertical list of each item (header included).
    In a spacer, ``U`` points to the first node of the option before it and ``D`` to the
    last node of the option after it, so an option is walked circularly in either
    direction without left/right links.
``TOP``
    the item of a node (``1..N``); ``<= 0`` marks a spacer: ``-(k + 1)`` after option ``k``
    (``0`` for the first spacer). Never changes.
``COLOR``
    the color of a node: ``0`` none, ``> 0`` a color id (secondary items only), ``-1`` while
    the node's item has been purified to that same color (Algorithm C). In a header it is
    the item's current color, for display only.

Arrays indexed by item (length ``N + 1``):

``LL``, ``RL``
    left / right links of the list of active primary items, root 0 included. Secondary
    items link to themselves, as in DLX2, so covering one touches no list.
``WEIGHT``
    the weights of the weighted choice (``dlx.kernels.algorithm_c.choose_weighted``), 1 to
    begin with;
    only the weighted kernels read or change them.
``TRAIL``, ``TRAIL_AT``
    the options hidden by the lookahead (``dlx.kernels.lookahead.reduce``), a node of each,
    and where
    each level's start; only the lookahead kernels read or change them.
``LEN``
    the number of options in the item's list, *plus* an offset ``INACTIVE`` while the item
    is covered (and always for the root). Knuth keeps the length in the header's ``TOP``
    field; we keep it apart, with this offset, so that the python backend finds the
    minimum-remaining-values item among ``LEN[1..N1]`` in one pass in C instead of a Python
    loop over the item list (see ``docs/design.md``). ``INACTIVE`` is larger than any
    length: ``2**40`` in a ``list`` or ``int64`` array, 128 in a ``bytearray``.

Options that hold no primary item are not linked in (Knuth's programs drop them too).

Read only by the kernel of multiplicities and costs ([`dlx.kernels.algorithm_m`][], Knuth's DLX3 and
DLX5), built for every problem but handed to the other kernels empty:

``BOUND``, ``SLACK`` (per item)
    DLX3's residual capacity of a primary item (how many more chosen options may hold it;
    ``v`` to begin with) and its slack ``v - u``, for bounds ``u..v`` (1..1 by default), so
    that the item still needs ``BOUND - SLACK`` options. 0 for the root and secondary items.
``TWEAK`` (per level)
    the first option *tweaked* at a level (DLX3's ``first_tweak``), 0 when the level
    covered its item as DLX2 does. A level of an MCC search picks one option of an item
    whose bound or slack lets it take more, or a *null move* (no option, the item set
    aside), so a search has at most ``min(sum of v, options) + (items with slack) + 1``
    levels: that is the length of ``CHOICE`` and ``TWEAK`` for such problems.
``COST`` (per node)
    the net cost of the node's option (0 on headers and spacers). As in DLX5 each item
    that must be covered exactly ``v`` times is *taxed* the least net cost of its options,
    item by item, and its options' costs are lowered by that tax: every solution's cost
    drops by the same total (``Links.tax``), no net cost is negative, and every such item
    has an option of net cost 0, which sharpens the lower bounds. With costs, each item's
    list is sorted by net cost (ties in input order), so the cheapest comes first.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .budget import NEVER
from .state import FIELDS, N_REGS, REGISTER_INDEX, State, field_length

__all__ = ["INACTIVE", "Links", "build_links", "check_links"]

INACTIVE = 1 << 40
"""Offset added to ``LEN`` of covered items, so that they are never chosen for branching."""


@dataclass(frozen=True, eq=False)
class Links:
    """The pristine arrays of one problem (numpy int64, as [`dlx.state`][] lists them),
    plus the node -> option map. Never changed once built: every search works on copies.

    ``converted`` caches what backends derive from the arrays (their own array types, a
    compiled batch's workspace); it is not pickled or copied with the links.
    """

    n_items: int
    n_primary: int
    n_options: int
    arrays: State
    option_of_node: np.ndarray  # original option index of each node, -1 for headers/spacers
    mcc: bool = False
    """True when some bound is not 1..1 or options have costs: [`dlx.kernels.algorithm_m`][]
    searches."""
    tax: int = 0
    """What every solution's cost exceeds its net cost by (see ``COST`` above)."""
    converted: dict = field(default_factory=dict, compare=False, repr=False)
    item_number: np.ndarray | None = None
    """In a [`shuffled`][] copy: the number each item of the problem has here (by the
    problem's item number, 0 for the root); None in the problem's own links."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["converted"] = {}
        for name in ("option_list", "_by_item"):  # derived again on demand
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    @property
    def n_nodes(self) -> int:
        return len(self.arrays.TOP)

    @cached_property
    def max_len(self) -> int:
        """The length of the longest item list (decides the python backend's LEN type)."""
        return int(self.arrays.LEN[1:].max(initial=0))

    @cached_property
    def colored(self) -> bool:
        """True when some option gives a color to an item (Algorithm C, not only X)."""
        return bool(self.arrays.COLOR.any())

    @property
    def capacity(self) -> int:
        """The most primary items a solution can cover, each counted as often as it may be:
        the sum of their upper bounds (``n_primary`` without multiplicities)."""
        return int(self.arrays.BOUND.sum()) if self.mcc else self.n_primary

    @property
    def forcing_node(self) -> np.ndarray:
        """Option -> the first node of its first primary item, -1 for a dropped option.

        Forcing an option (``force`` in the kernels) starts from this node.
        """
        return self.arrays.FORCING

    @cached_property
    def _by_item(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Option nodes grouped by item in list order, their items and their options (in
        the problem's own links the list order is the node order)."""
        nodes = np.flatnonzero(self.option_of_node >= 0)
        items = self.arrays.TOP[nodes]
        order = np.argsort(items, kind="stable")
        return nodes[order], items[order], self.option_of_node[nodes[order]]

    def restricted(self, forced: list[int], inactive: int = INACTIVE):
        """The arrays ``U, D, LEN, LL, RL`` once the options ``forced`` are taken, or the
        first forced option that an earlier one excludes (an ``int``). No colors.

        What the kernels' ``force`` does one link at a time, done at once with numpy: the
        forced options' items leave the active list, every option that meets one of them
        leaves every list, and what is left is linked as [`build_links`][] would link
        the smaller problem. Lists of covered items are left as built: the search never
        walks them, since it never uncovers a forced item.
        """
        nodes, items, options = self._by_item
        taken = np.zeros(self.n_options + 1, dtype=bool)  # [-1]: no option
        taken[forced] = True
        covered_items = items[taken[options]]
        covered = np.zeros(self.n_items + 1, dtype=bool)
        covered[covered_items] = True
        if np.count_nonzero(covered) < len(covered_items) or len(set(forced)) < len(forced):
            return _first_conflict(self, forced)  # an option twice clashes with itself
        dead = np.zeros(len(taken), dtype=bool)
        dead[options[covered[items]]] = True
        keep = ~dead[options]
        N = self.n_items
        U = self.arrays.U.copy()
        D = self.arrays.D.copy()
        headers = np.arange(N + 1, dtype=np.int64)
        U[: N + 1] = headers
        D[: N + 1] = headers
        _link_lists(U, D, nodes[keep], items[keep])
        LEN = np.bincount(items[keep], minlength=N + 1).astype(np.int64)
        LEN[covered] += inactive
        LEN[0] = inactive
        LL = headers.copy()
        RL = headers.copy()
        active = np.flatnonzero(~covered[: self.n_primary + 1])  # the root is never covered
        LL[active] = np.roll(active, 1)
        RL[active] = np.roll(active, -1)
        return U, D, LEN, LL, RL

    def shuffled(self, seed: int, run: int = 0) -> Links:
        """The same problem with its primary items renumbered and its options reordered
        at random, determined by ``seed`` and ``run`` (any integer, and a run number for
        restarts; numpy's SeedSequence and PCG64: the same on every machine).

        A seeded search runs on these links, with the very kernel of an unseeded one, so
        it is as fast (DLX1's ``s`` option: shuffle once, not at every node). The choice
        of item then breaks ties in the shuffled item order, and each item's options are
        tried in the shuffled option order; options keep their numbers (``FORCING``,
        ``option_of_node``, the spacers' ``TOP``), so solutions and forced options read
        the same. Only the order of the search changes, never its set of solutions.
        The options are laid out anew in the shuffled order ([`build_links`][]), not
        only relinked: lists that jump about memory made the python backend's nodes 40%
        dearer. The last [`SHUFFLES_KEPT`][] shuffles are
        kept with the problem's conversions, so that searches with one seed (a Sudoku of
        each puzzle, say) pay for the shuffle and its conversions once.
        """
        if self.mcc:  # dlx.kernels.algorithm_m breaks its ties itself, from REG[SEED]
            raise AssertionError("shuffled links serve the plain kernel only")
        cache = self.converted.get("shuffled")
        if cache is None:
            cache = self.converted.setdefault("shuffled", {})
        key = (seed, run)
        links = cache.get(key)
        if links is None:
            links = self._shuffled(seed, run)
            if len(cache) >= SHUFFLES_KEPT:  # FIFO: a restart's seeds are each used once
                with suppress(StopIteration, KeyError, RuntimeError):
                    del cache[next(iter(cache))]
            links = cache.setdefault(key, links)
        return links

    def _shuffled(self, seed: int, run: int) -> Links:
        """[`shuffled`][], made anew: the options laid out again in a random order (so
        that each list, in node order, runs forward through memory), the items renumbered."""
        rng = np.random.default_rng([abs(seed) * 2 + (seed < 0), run])
        N, N1 = self.n_items, self.n_primary
        number = np.arange(N + 1, dtype=np.int64)
        number[1 : N1 + 1] = rng.permutation(N1) + 1
        nodes = np.flatnonzero(self.option_of_node >= 0)
        options = self.option_of_node[nodes]  # runs of equal numbers, one per option
        first = np.flatnonzero(np.diff(options, prepend=-1))
        kept = options[first]
        order = rng.permutation(len(kept))  # new rank -> old rank
        lens = np.diff(np.append(first, len(nodes)))
        indptr = np.zeros(len(order) + 1, dtype=np.int64)
        np.cumsum(lens[order], out=indptr[1:])
        take = nodes[np.arange(len(nodes)) + np.repeat(first[order] - indptr[:-1], lens[order])]
        A = self.arrays
        built = build_links(N, N1, indptr, number[A.TOP[take]], A.COLOR[take])
        original = kept[order]  # new rank -> the option's number in the problem
        of_node = built.option_of_node
        on = of_node >= 0
        of_node[on] = original[of_node[on]]
        TOP = built.arrays.TOP
        spacers = np.flatnonzero(TOP < 0)
        TOP[spacers] = -(original[-TOP[spacers] - 1] + 1)
        FORCING = np.full(self.n_options, -1, dtype=np.int64)
        FORCING[original] = built.arrays.FORCING[: len(original)]
        links = Links(N, N1, self.n_options, built.arrays._replace(FORCING=FORCING), of_node,
                      item_number=number)
        if "python-ints" in self.converted:  # the ints 0..Z-1: the same Z
            links.converted["python-ints"] = self.converted["python-ints"]
        return links

    @cached_property
    def option_list(self) -> list[int]:
        """``option_of_node`` as a list, for fast decoding of solutions."""
        return self.option_of_node.tolist()


SHUFFLES_KEPT = 8
"""Shuffled copies of a problem kept by [`Links.shuffled`][] (the last ones made)."""


def build_links(
    n_items: int,
    n_primary: int,
    indptr: np.ndarray,
    items: np.ndarray,
    colors: np.ndarray,
    bounds: tuple[np.ndarray, np.ndarray] | None = None,
    costs: np.ndarray | None = None,
) -> Links:
    """Link options given in CSR form: option ``k`` is ``items[indptr[k]:indptr[k + 1]]``.

    Items are numbered ``1..n_items`` (primary first); ``colors`` run beside ``items``;
    ``bounds`` are the primary items' lower and upper bounds (None: all 1..1), ``costs``
    the options' costs (None: none). Input must already be validated. Options without a
    primary item are left out. Built with vectorized numpy so that a 729-option Sudoku
    links in microseconds.
    """
    indptr = np.asarray(indptr, dtype=np.int64)
    items = np.asarray(items, dtype=np.int64)
    colors = np.asarray(colors, dtype=np.int64)
    n_opts = len(indptr) - 1
    N = n_items
    lens = np.diff(indptr)
    entry_opt = np.repeat(np.arange(n_opts, dtype=np.int64), lens)
    has_primary = np.zeros(n_opts, dtype=bool)
    has_primary[entry_opt[items <= n_primary]] = True
    if has_primary.all():
        kept = np.arange(n_opts, dtype=np.int64)
        rank_of_entry = entry_opt
    else:  # leave out the options without a primary item
        keep = has_primary[entry_opt]
        items, colors, entry_opt = items[keep], colors[keep], entry_opt[keep]
        kept = np.flatnonzero(has_primary)
        rank_of_entry = (np.cumsum(has_primary) - 1)[entry_opt]
        lens = lens[kept]
    n_kept, n_entries = len(kept), len(items)

    Z = N + 2 + n_entries + n_kept
    U = np.empty(Z, dtype=np.int64)
    D = np.empty(Z, dtype=np.int64)
    TOP = np.zeros(Z, dtype=np.int64)
    COLOR = np.zeros(Z, dtype=np.int64)
    option_of_node = np.full(Z, -1, dtype=np.int64)

    # Node positions: kept option r starts after r + 1 spacers.
    pos = np.arange(N + 2, N + 2 + n_entries, dtype=np.int64) + rank_of_entry
    TOP[pos] = items
    if colors.any():
        COLOR[pos] = colors
    option_of_node[pos] = entry_opt
    last = np.cumsum(lens) + np.arange(N + 1, N + 1 + n_kept)  # last node of each option
    spacer_after = last + 1
    TOP[spacer_after] = -(kept + 1)
    U[spacer_after] = last - lens + 1
    D[N + 1] = last[0] if n_kept else 0
    D[spacer_after] = 0
    D[spacer_after[:-1]] = last[1:]
    U[N + 1] = 0

    mcc = bounds is not None or costs is not None
    lower = np.ones(n_primary, dtype=np.int64) if bounds is None else bounds[0]
    upper = np.ones(n_primary, dtype=np.int64) if bounds is None else bounds[1]
    net, tax = _net_costs(costs[kept], items, rank_of_entry, n_primary, lower, upper) \
        if costs is not None else (np.zeros(n_kept, dtype=np.int64), 0)
    COST = np.zeros(Z, dtype=np.int64)
    COST[pos] = net[rank_of_entry]

    # Vertical lists: nodes of each item in node order (by net cost first, if costs are
    # given), closed through the header.
    if costs is not None:
        order = np.lexsort((net[rank_of_entry], items))
    else:
        order = np.argsort(_small(items, N), kind="stable")
    headers = np.arange(N + 1, dtype=np.int64)
    U[: N + 1] = headers
    D[: N + 1] = headers
    _link_lists(U, D, pos[order], items[order])

    LEN = np.bincount(items, minlength=N + 1).astype(np.int64)
    LEN[0] = INACTIVE
    LL = headers.copy()
    RL = headers.copy()
    active = np.arange(n_primary + 1, dtype=np.int64)  # root and primary items, circular
    LL[active] = np.roll(active, 1)
    RL[active] = np.roll(active, -1)
    # FORCING: option -> the first node of its first primary item (-1: dropped).
    FORCING = np.full(n_opts, -1, dtype=np.int64)
    first = np.flatnonzero(items <= n_primary)[::-1]  # the last write wins: the first node
    FORCING[entry_opt[first]] = pos[first]
    n_levels = n_primary + 1
    if mcc:  # options chosen, then null moves (only items with slack make them)
        n_levels = min(int(upper.sum()), n_kept) + int(np.count_nonzero(upper > lower)) + 1
    CHOICE = np.zeros(n_levels, dtype=np.int64)
    REG = np.zeros(N_REGS, dtype=np.int64)
    REG[REGISTER_INDEX["PRIMARY_END"]] = n_primary + 1
    REG[REGISTER_INDEX["CUTOFF"]] = NO_CUTOFF
    BOUND = np.zeros(N + 1, dtype=np.int64)
    BOUND[1 : n_primary + 1] = upper
    SLACK = np.zeros(N + 1, dtype=np.int64)
    SLACK[1 : n_primary + 1] = upper - lower
    built = {"U": U, "D": D, "TOP": TOP, "COLOR": COLOR, "LEN": LEN, "LL": LL, "RL": RL,
             "CHOICE": CHOICE, "REG": REG, "FORCING": FORCING,
             "WEIGHT": np.ones(N + 1, dtype=np.int64),
             "TRAIL": np.zeros(n_opts, dtype=np.int64), "TRAIL_AT": np.zeros_like(CHOICE),
             "BOUND": BOUND, "SLACK": SLACK, "TWEAK": np.zeros(n_levels, dtype=np.int64),
             "COST": COST}
    for f in FIELDS:  # the table in dlx.state says what each array is
        a = built[f.name]
        if a.dtype != np.dtype(f.dtype) or len(a) != field_length(f.per, Z, N, n_primary,
                                                                  n_opts, n_levels):
            raise AssertionError(f"array {f.name} is not per {f.per} of {f.dtype}")
    return Links(N, n_primary, n_opts, State(**built), option_of_node, mcc, tax)


NO_CUTOFF = NEVER
"""``REG[CUTOFF]`` when nothing is pruned (no cost bound known yet): no net cost reaches
it (costs are checked to sum below it)."""


def _net_costs(costs: np.ndarray, items: np.ndarray, option: np.ndarray, n_primary: int,
               lower: np.ndarray, upper: np.ndarray) -> tuple[np.ndarray, int]:
    """DLX5's taxes: for each primary item in turn that must be covered exactly ``v``
    times, the least net cost among its options is taken off all of them; returns the
    net costs (per kept option) and the total tax (every solution pays it: ``v`` times
    each item's tax). Items with ``u < v`` are not taxed: a solution may cover them any
    number of times in ``u..v``, so their tax would not be the same for every solution."""
    net = np.asarray(costs, dtype=np.int64).copy()
    primary = items <= n_primary
    by_item = np.argsort(items[primary], kind="stable")
    item_of, option_of = items[primary][by_item], option[primary][by_item]
    starts = np.searchsorted(item_of, np.arange(1, n_primary + 2))
    tax = 0
    for j in np.flatnonzero(lower == upper).tolist():
        mine = option_of[starts[j] : starts[j + 1]]
        if len(mine):
            least = int(net[mine].min())
            if least:
                net[mine] -= least
                tax += least * int(upper[j])
    return net, tax


def _small(items: np.ndarray, n_items: int) -> np.ndarray:
    """``items`` as int16 when they fit, which numpy's stable argsort sorts by radix."""
    return items.astype(np.int16) if n_items < 1 << 15 else items


def _first_conflict(links: Links, forced: list[int]) -> int:
    """The first of ``forced`` that meets an item of an earlier one."""
    _, items, options = links._by_item
    seen: set[int] = set()
    for k in forced:
        mine = set(items[options == k].tolist())
        if mine & seen:
            return k
        seen |= mine
    raise AssertionError("no conflict among the forced options")


def _link_lists(U: np.ndarray, D: np.ndarray, nodes: np.ndarray, items: np.ndarray) -> None:
    """Link ``nodes`` (grouped by item, in list order; ``items`` beside them) into the
    circular list of each item through its header; other items' headers are left alone."""
    n = len(nodes)
    if n == 0:
        return
    starts = np.ones(n, dtype=bool)
    starts[1:] = items[1:] != items[:-1]
    ends = np.ones(n, dtype=bool)
    ends[:-1] = starts[1:]
    up = np.empty(n, dtype=np.int64)
    up[1:] = nodes[:-1]
    up[starts] = items[starts]
    down = np.empty(n, dtype=np.int64)
    down[:-1] = nodes[1:]
    down[ends] = items[ends]
    U[nodes] = up
    D[nodes] = down
    D[items[starts]] = nodes[starts]
    U[items[ends]] = nodes[ends]


def check_links(links: Links, S: State, inactive: int = INACTIVE) -> None:
    """Knuth's sanity check: raise ``AssertionError`` if any link of a live state is broken.

    Walks the active primary items from the root, and the vertical list of every item,
    checking that each ``U`` mirrors its ``D``, that nodes sit in their item's list, and that
    ``LEN`` (without its ``INACTIVE`` offset) equals the list's length. Used by the tests after
    every search step; it costs O(nodes) so the search never calls it by itself.
    """
    N, N1 = links.n_items, links.n_primary
    U, D, TOP, LEN, LL, RL = S.U, S.D, S.TOP, S.LEN, S.LL, S.RL
    q, p, seen = 0, RL[0], 0
    while True:
        if LL[p] != q:
            raise AssertionError(f"bad LL at item {p}")
        if p == 0:
            break
        if not 1 <= p <= N1:
            raise AssertionError(f"item {p} in the active list is not primary")
        if LEN[p] >= inactive:
            raise AssertionError(f"active item {p} has the INACTIVE offset")
        seen += 1
        if seen > N1:
            raise AssertionError("active item list does not close")
        q, p = p, RL[p]
    for x in range(1, N + 1):
        k, prev, node = 0, x, D[x]
        while True:
            if U[node] != prev:
                raise AssertionError(f"bad U at node {node} of item {x}")
            if node == x:
                break
            if TOP[node] != x:
                raise AssertionError(f"node {node} in the list of item {x} has TOP {TOP[node]}")
            k += 1
            if k > links.n_nodes:
                raise AssertionError(f"list of item {x} does not close")
            prev, node = node, D[node]
        if LEN[x] % inactive != k:
            raise AssertionError(f"LEN of item {x} is {LEN[x] % inactive}, list holds {k}")
