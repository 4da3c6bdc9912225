"""Root reductions of an exact-cover problem, after Knuth's DLX-PRE: options that no
solution can hold are removed, items that say nothing new are dropped, and what is left is
an equivalent, smaller problem ([`dlx.ExactCover.preprocess`][]).

Two rules, applied to a fixpoint (both only ever remove options that lie in no solution,
so they can be applied together, in any order, and they reach the same fixpoint: an
option that one of them condemns stays condemned when others go):

*blocked*
    option ``r`` is removed when choosing it would leave some primary item ``p`` (not in
    ``r``) with no option: every option of ``p`` clashes with ``r``. Two options *clash*
    when they share a primary item, or a secondary item that one of them leaves uncolored
    or that they give two colors.
*dominated*
    if every option of a primary item ``i`` holds item ``j`` uncolored, the options of
    ``j`` without ``i`` go: ``i`` must be covered, which covers ``j``. Then ``j``'s
    options are ``i``'s, and ``j`` itself is dropped (a primary item ``j`` identical to a
    primary ``i`` listed before it; a secondary one always).

A secondary item that can no longer clash (at most one option holds it, or all of them give
it one color) is dropped too. An option that is the only one left of some primary item is
*forced*: every solution holds it. The options taken with ``forced=`` first remove every
option that clashes with them (reason ``"clashes"``).

Knuth's program works on dancing links, option by option. Here each round is a few numpy
passes over all the options at once: for each primary item, the options that clash with its
first option (from the lists of that option's items), sifted by its second option, its
third... until only the blocked ones are left; the co-occurrences of items within options
give the dominations. No Python loop runs per option or per entry, and the graph of
clashing options (dense when secondary items have many colors) is never built.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

import numpy as np

from .arguments import check_forced, flag_arg
from .budget import count_budget
from .errors import ArgumentError

__all__ = ["Preprocessed", "Removal", "preprocess"]

WHY = ("no primary item", "clashes", "blocked", "dominated", "infeasible")
"""The reasons an option is removed, in [`Removal.why`][]."""
_NONE, _CLASHES, _BLOCKED, _DOMINATED, _INFEASIBLE = 0, 2, 3, 4, 5  # codes: WHY[code - 1]
_TABLE = 1 << 22  # 16 MB of int32
"""Below this many (option, item) pairs, a table of them answers "does option ``o`` hold
item ``x``, and with which color?" (else a binary search in the sorted entries)."""


class Removal(NamedTuple):
    """Why option ``option`` (the original number) is in no solution.

    ``why`` is ``"blocked"`` (choosing it would leave primary item ``item`` with no
    option), ``"dominated"`` (every option of primary item ``item`` holds an item of this
    option that this option holds without ``item``), ``"clashes"`` (it clashes with a
    forced option on ``item``), ``"infeasible"`` (primary item ``item`` has no option
    left: there is no solution at all) or ``"no primary item"`` (``item`` is None).
    """

    option: int
    why: str
    item: Hashable


@dataclass(frozen=True)
class Preprocessed:
    """What [`dlx.ExactCover.preprocess`][] found: the reduced problem and how to read
    its solutions as the original's.

    ``problem`` is an [`ExactCover`][dlx.ExactCover] whose option ``k`` is the original option
    ``options[k]``, less the items that were dropped; its solutions, mapped back by
    [`original`][], are exactly the original problem's solutions (the options forced on
    the call included). ``removed`` says why each other option is in no solution,
    ``dropped_items`` names the items left out, ``forced`` lists the options (original
    numbers) every solution holds (each the only option of one of its primary items in
    ``problem``; [`taken`][] gives their numbers there, to pass as ``forced=`` to a
    search of ``problem``, which then spends no node on them), and ``infeasible`` names a
    primary item with no option left, or an item on which two forced options clash (then
    there is no solution, and ``problem`` is that item alone, as a primary item without
    options). ``rounds`` counts the passes.
    """

    problem: Any
    options: list[int]
    removed: list[Removal]
    dropped_items: list[Hashable]
    forced: list[int]
    infeasible: Hashable | None = None
    rounds: int = 0
    _index: dict[int, int] = field(default_factory=dict, repr=False, compare=False)

    def original(self, solution: Iterable[int]) -> list[int]:
        """A solution of ``problem`` as the original's: its option numbers, sorted."""
        try:
            return sorted(self.options[k] for k in solution)
        except (IndexError, TypeError):
            raise ArgumentError(f"solution must list options of the reduced problem "
                                f"(0..{len(self.options) - 1}), got {solution!r}") from None

    @property
    def taken(self) -> list[int]:
        """The numbers in ``problem`` of the ``forced`` options."""
        return [cast(int, self.reduced(k)) for k in self.forced]

    def reduced(self, option: int) -> int | None:
        """The number in ``problem`` of original option ``option``, or None if removed."""
        if not self._index:
            self._index.update((k, i) for i, k in enumerate(self.options))
        return self._index.get(option)


def preprocess(problem: Any, forced: Any = None, *, blocked: Any = True,
               dominated: Any = True, rounds: Any = None,
               build: Callable[..., Any]) -> Preprocessed:
    """[`dlx.ExactCover.preprocess`][] (``problem`` is an ExactCover, read through its
    ``matrix`` and item names; ``build(primary, secondary, csr)`` makes the reduced
    problem from checked CSR arrays)."""
    if problem.matrix.mcc:
        raise ArgumentError("preprocess is for problems without bounds or costs (with "
                            "multiplicities an item's options do not exclude one another)")
    forced_ = check_forced(forced, len(problem), problem.dropped)
    blocked_ = flag_arg(blocked, "blocked")
    dominated_ = flag_arg(dominated, "dominated")
    max_rounds = count_budget(rounds, "rounds", 0)
    return _Reduction(problem, blocked_, dominated_, build).run(forced_, max_rounds)


class _Reduction:
    """The arrays of one preprocessing: entries (one per item of an option) as parallel
    arrays, and per option its state (``why``: 0 while alive) and the item blamed."""

    def __init__(self, problem: Any, blocked: bool, dominated: bool,
                 build: Callable[..., Any]) -> None:
        self.problem = problem
        self.build = build
        self.blocked, self.dominated = blocked, dominated
        self.matrix = matrix = problem.matrix
        indptr = matrix.indptr
        self.n_options = len(indptr) - 1
        self.n_items = len(problem.items)
        self.n_primary = len(problem.primary)
        self.opt = np.repeat(np.arange(self.n_options), np.diff(indptr))
        self.item = matrix.items - 1  # 0-based: primary items first
        self.color = matrix.colors
        self.why = np.zeros(self.n_options, dtype=np.int64)
        self.blame = np.full(self.n_options, -1, dtype=np.int64)
        self.why[problem.dropped] = 1
        # The entries sorted by item (then option): each item's list, in option order.
        self.by_item = np.lexsort((self.opt, self.item))
        keys = self.opt * self.n_items + self.item
        self.key_order = np.argsort(keys, kind="stable")  # entry of each sorted key
        self.entry_keys = keys[self.key_order]  # sorted: "does option o hold item x?"
        self.table: np.ndarray | None = None
        if self.n_options * self.n_items <= _TABLE:  # the same answers, by one lookup
            self.table = np.full(self.n_options * self.n_items, -1, dtype=np.int32)
            self.table[keys] = self.color
        self.infeasible = -1

    # ----- the state ---------------------------------------------------------------------

    def _remove(self, options: np.ndarray, why: int, items: np.ndarray) -> int:
        """Mark alive ``options`` removed for ``why``, blaming ``items``; how many were."""
        fresh = self.why[options] == _NONE
        options, items = options[fresh], items[fresh]
        options, first = np.unique(options, return_index=True)
        self.why[options] = why
        self.blame[options] = items[first]
        return len(options)

    def _alive_lists(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each item's list of alive options: (entries sorted by item, start of each item's
        run in it, length of each item's run)."""
        entries = self.by_item[self.why[self.opt[self.by_item]] == _NONE]
        lengths = np.bincount(self.item[entries], minlength=self.n_items)
        starts = np.zeros(self.n_items, dtype=np.int64)
        np.cumsum(lengths[:-1], out=starts[1:])
        return entries, starts, lengths

    def _contains(self, options: np.ndarray, items: np.ndarray) -> np.ndarray:
        """Whether each option holds the item beside it."""
        return self._held(options * self.n_items + items) >= 0

    def _held(self, keys: np.ndarray) -> np.ndarray:
        """For each key ``o * n_items + x``: the color option ``o`` gives item ``x`` (0
        for none), or -1 if it does not hold ``x``."""
        if self.table is not None:
            return self.table[keys]
        at = np.minimum(np.searchsorted(self.entry_keys, keys), len(self.entry_keys) - 1)
        return np.where(self.entry_keys[at] == keys, self.color[self.key_order[at]], -1)

    # ----- the rules ---------------------------------------------------------------------

    def _partners(self, sources: np.ndarray, entries: np.ndarray, starts: np.ndarray,
                  lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The alive options that clash with each of ``sources`` (options), as triples
        (index into ``sources``, partner option, the item they clash on): one per item
        they clash on, in the order of each source's items."""
        indptr = self.matrix.indptr
        width = np.diff(indptr)[sources]
        mine = np.repeat(indptr[sources], width) + _runs(width)  # the sources' entries
        source = np.repeat(np.arange(len(sources)), width)
        items = self.item[mine]
        reach = lengths[items]  # each entry meets every alive entry of its item's list
        left = np.repeat(mine, reach)
        right = entries[np.repeat(starts[items], reach) + _runs(reach)]
        a, b = self.color[left], self.color[right]
        clash = (self.opt[left] != self.opt[right]) & (
            (self.item[left] < self.n_primary) | (a == 0) | (b == 0) | (a != b))
        return (np.repeat(source, reach)[clash], self.opt[right[clash]],
                self.item[left[clash]])

    def _clash(self, r: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Whether options ``r`` and ``s`` are two options that clash, for each pair."""
        indptr = self.matrix.indptr
        width = np.diff(indptr)[s]
        at = np.repeat(indptr[s], width) + _runs(width)  # the entries of each s
        a = self._held(np.repeat(r, width) * self.n_items + self.item[at])
        b = self.color[at]
        hit = (a >= 0) & ((self.item[at] < self.n_primary) | (a == 0) | (b == 0) | (a != b))
        return (np.bincount(np.repeat(np.arange(len(s)), width)[hit], minlength=len(s)) > 0) \
            & (r != s)

    def _blocked(self, entries: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> None:
        """Remove the options that clash with every option of some primary item ``p``. The
        candidates for ``p`` are the options that clash with its first option; its second,
        third... option sifts them, until none is left or ``p``'s list ends. (An option of
        ``p`` never stays: it does not clash with itself.)"""
        p = np.flatnonzero(lengths[: self.n_primary])
        first = self.opt[entries[starts[p]]]
        k, cand_r, _ = self._partners(first, entries, starts, lengths)
        keys = _distinct(p[k] * self.n_options + cand_r)
        cand_p, cand_r = np.divmod(keys, self.n_options)
        outside = ~self._contains(cand_r, cand_p)  # p's own options cannot block p
        cand_p, cand_r = cand_p[outside], cand_r[outside]
        step = 1
        while len(cand_p):
            more = lengths[cand_p] > step
            self._remove(cand_r[~more], _BLOCKED, cand_p[~more])
            cand_p, cand_r = cand_p[more], cand_r[more]
            s = self.opt[entries[starts[cand_p] + step]]
            hit = self._clash(cand_r, s)
            cand_p, cand_r = cand_p[hit], cand_r[hit]
            step += 1

    def _co_occurrences(self, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The pairs (``i``, ``j``): primary ``i`` and another item ``j`` that every alive
        option of ``i`` holds uncolored."""
        alive = self.why[self.opt] == _NONE
        opt, item, color = self.opt[alive], self.item[alive], self.color[alive]
        widths = np.bincount(opt, minlength=self.n_options)
        starts = np.zeros(self.n_options, dtype=np.int64)
        np.cumsum(widths[:-1], out=starts[1:])
        reach = widths[opt]
        left = np.repeat(np.arange(len(opt)), reach)
        right = np.repeat(starts[opt], reach) + _runs(reach)
        keep = (item[left] < self.n_primary) & (left != right) & (color[right] == 0)
        keys = np.sort(item[left[keep]] * self.n_items + item[right[keep]])
        new = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if len(keys) else keys
        counts = np.diff(np.r_[new, len(keys)])
        keys = keys[new]
        i, j = np.divmod(keys, self.n_items)
        full = counts == lengths[i]
        return i[full], j[full]

    def _dominated(self, entries: np.ndarray, starts: np.ndarray,
                   lengths: np.ndarray) -> None:
        """Remove the options of ``j`` without ``i`` for each domination (``i``, ``j``)."""
        i, j = self._co_occurrences(lengths)
        reach = lengths[j]
        at = np.repeat(starts[j], reach) + _runs(reach)
        options = self.opt[entries[at]]
        by = np.repeat(i, reach)
        without = ~self._contains(options, by)
        self._remove(options[without], _DOMINATED, by[without])

    # ----- the fixpoint ------------------------------------------------------------------

    def run(self, forced: list[int], max_rounds: int) -> Preprocessed:
        if forced:
            self._clear_forced(np.asarray(forced, dtype=np.int64))
        rounds = 0
        while self.infeasible < 0:
            entries, starts, lengths = self._alive_lists()
            empty = np.flatnonzero(lengths[: self.n_primary] == 0)
            if len(empty):
                self.infeasible = int(empty[0])
                break
            if rounds == max_rounds:
                break
            before = np.count_nonzero(self.why)
            if self.blocked:
                self._blocked(entries, starts, lengths)
            if self.dominated:
                self._dominated(entries, starts, lengths)
            rounds += 1
            if np.count_nonzero(self.why) == before:
                break
        return self._result(rounds)

    def _clear_forced(self, forced: np.ndarray) -> None:
        """Remove every option that clashes with a forced one, blaming the first item they
        clash on; forced options that clash with one another make the problem infeasible
        (that item is named)."""
        entries, starts, lengths = self._alive_lists()
        _, others, blame = self._partners(forced, entries, starts, lengths)
        both = np.flatnonzero(np.isin(others, forced))
        if len(both):
            self.infeasible = int(blame[both[0]])
            return
        self._remove(others, _CLASHES, blame)

    def _result(self, rounds: int) -> Preprocessed:
        problem = self.problem
        names = problem.items
        if self.infeasible >= 0:
            alive = np.flatnonzero(self.why == _NONE)
            self.why[alive] = _INFEASIBLE
            self.blame[alive] = self.infeasible
            name = names[self.infeasible]
            reduced = _build(self.build, [name], [], [0], [], [], [])
            return Preprocessed(reduced, [], self._removals(), [x for x in names if x != name],
                                [], name, rounds)
        entries, starts, lengths = self._alive_lists()
        drop = np.zeros(self.n_items, dtype=bool)
        if self.dominated:
            i, j = self._co_occurrences(lengths)
            same = (lengths[i] == lengths[j]) & ((j >= self.n_primary) | (i < j))
            drop[j[same]] = True
        drop[self.n_primary:] |= ~self._constraining(entries, lengths)
        keep = ~drop[self.item] & (self.why[self.opt] == _NONE)
        options = np.flatnonzero(self.why == _NONE)
        renumber = np.cumsum(~drop) - 1  # old item (0-based) -> new item number - 1
        width = np.bincount(self.opt[keep], minlength=self.n_options)[options]
        indptr = np.zeros(len(options) + 1, dtype=np.int64)
        np.cumsum(width, out=indptr[1:])
        colors = self.color[keep]
        used = np.unique(colors[colors > 0])
        recolor = np.zeros(max(int(self.color.max(initial=0)), 0) + 1, dtype=np.int64)
        recolor[used] = np.arange(1, len(used) + 1)
        primary = [x for x, d in zip(problem.primary, drop[: self.n_primary].tolist())
                   if not d]
        secondary = [x for x, d in zip(problem.secondary, drop[self.n_primary:].tolist())
                     if not d]
        reduced = _build(self.build, primary, secondary, indptr, renumber[self.item[keep]] + 1,
                         recolor[colors], [self.matrix.color_names[c - 1] for c in used.tolist()])
        only = entries[starts[: self.n_primary][lengths[: self.n_primary] == 1]]
        forced = np.unique(self.opt[only]).tolist()
        return Preprocessed(reduced, options.tolist(), self._removals(),
                            [x for x, d in zip(names, drop.tolist()) if d], forced, None,
                            rounds)

    def _constraining(self, entries: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """For each secondary item: can two of its alive options still clash on it (two
        options, one of them uncolored or two colors)?"""
        sec = np.arange(self.n_primary, self.n_items)
        out = np.zeros(len(sec), dtype=bool)
        if not len(sec):
            return out
        items = self.item[entries]
        colors = self.color[entries]
        secondary = items >= self.n_primary
        it, co = items[secondary], colors[secondary]
        lowest = np.full(self.n_items, np.iinfo(np.int64).max, dtype=np.int64)
        highest = np.full(self.n_items, -1, dtype=np.int64)
        np.minimum.at(lowest, it, co)
        np.maximum.at(highest, it, co)
        out = (lengths[sec] > 1) & ((lowest[sec] == 0) | (lowest[sec] != highest[sec]))
        return out

    def _removals(self) -> list[Removal]:
        names = self.problem.items
        gone = np.flatnonzero(self.why != _NONE)
        return [Removal(k, WHY[w - 1], None if b < 0 else names[b])
                for k, w, b in zip(gone.tolist(), self.why[gone].tolist(),
                                   self.blame[gone].tolist())]


def _build(build: Callable[..., Any], primary: list[Hashable], secondary: list[Hashable],
           indptr: Any, items: Any, colors: Any, color_names: list[Hashable]) -> Any:
    """The reduced problem: ``build`` given checked CSR arrays (int64)."""
    return build(primary, secondary, (np.asarray(indptr, dtype=np.int64),
                                      np.asarray(items, dtype=np.int64),
                                      np.asarray(colors, dtype=np.int64), color_names))


def _runs(lengths: np.ndarray) -> np.ndarray:
    """``0, 1, ..., n - 1`` for each ``n`` of ``lengths``, concatenated."""
    ends = np.cumsum(lengths)
    return np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - lengths, lengths)


def _distinct(keys: np.ndarray) -> np.ndarray:
    """The distinct values of ``keys``, sorted (``np.unique`` hashes, slowly, here)."""
    keys = np.sort(keys)
    return keys[np.r_[True, keys[1:] != keys[:-1]]] if len(keys) else keys
