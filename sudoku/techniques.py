"""Human solving techniques on a candidates grid, each a function that finds one step.

A technique reads a [`Candidates`][sudoku.candidates.Candidates] grid and returns the first
[`Step`][] it can take (values placed, or candidates eliminated) or None. Techniques
speak of *units* (the layout's sets of cells that hold distinct values), never of rows or
boxes, so they work on every layout: rectangular boxes, X-Sudoku's diagonals, windows,
jigsaw regions. Killer cages add peers (a cage holds distinct values) and the cage
technique. [`TECHNIQUES`][] lists them easiest first with their ratings (the scale of
[`sudoku.rate`][]); a solver always takes the easiest step it can.

Every technique is sound: it never eliminates a candidate that is the cell's value in a
solution, nor places a value that is not (tests check every step of many explained
puzzles against the known solution). None assumes the solution is unique.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from .candidates import Candidates, bits
from .grid import DEFAULT_SYMBOLS
from .layout import Layout
from .reduction import fillings

__all__ = ["TECHNIQUES", "Step", "Technique", "find_step"]


@dataclass(frozen=True)
class Step:
    """One step of a solution: the ``technique`` (its name), its ``rating`` on the scale of
    [`sudoku.rate`][], the ``cells`` and ``values`` of the pattern it saw, the ``units``
    that make the pattern (indices into ``layout.units``), and what it concludes:
    ``placements`` and ``eliminations``, (cell, value) pairs. The last resort
    (``"search"``) also says how much search the engine needed: ``nodes`` and ``guesses``
    (nodes off the path to the solution). ``layout`` is the grid's, set by
    [`sudoku.explain`][] and [`sudoku.hint`][]: [`describe`][] and the repr name
    cells by it (``r6c9``). ``grid`` is the position the step was found in, also set by
    them: the cells' values (0 open) and each open cell's candidates (a bitmask, bit
    ``v - 1`` for value ``v``); [`sudoku.draw_step`][] draws the step on it, and a
    notebook shows that picture."""

    technique: str
    rating: float
    cells: tuple[int, ...] = ()
    values: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    nodes: int = 0
    guesses: int = 0
    layout: Layout | None = field(default=None, repr=False, compare=False)
    grid: tuple[tuple[int, ...], tuple[int, ...]] | None = field(default=None, repr=False,
                                                                 compare=False)

    def __repr__(self) -> str:
        """The step in words when its layout is known (``<Step hidden single 1.5: r3c7 = 5
        ...>``), else its technique, rating and cell numbers."""
        if self.layout is None:
            return f"<Step {self.technique} {self.rating}: cells {list(self.cells)}>"
        name, _, words = self.describe().partition(": ")
        return f"<Step {name} {self.rating}: {words}>"

    def _repr_html_(self) -> str:
        from html import escape

        text = self.describe() if self.layout is not None else repr(self)
        picture = self._repr_svg_() or ""  # the step drawn on its grid, when it has one
        return f"<div><code>{escape(text)}</code> (rating {self.rating}){picture}</div>"

    def _repr_svg_(self) -> str | None:
        """A notebook's picture of the step on its grid ([`sudoku.draw_step`][])."""
        if self.layout is None or self.grid is None:
            return None
        from .draw import draw_step

        return draw_step(self).svg

    def apply(self, grid: Candidates) -> None:
        """Make the step on ``grid``: its placements, then its eliminations."""
        for cell, value in self.placements:
            grid.place(cell, value)
        for cell, value in self.eliminations:
            grid.eliminate(cell, value)

    def describe(self, layout: Layout | None = None, alphabet: str | None = None) -> str:
        """The step in words, cells as ``r3c7`` and units by their labels::

            hidden single: r3c7 = 5 (the only place for 5 in box 3)
            naked pair: r1c1 r1c5 hold 2 7 in row 1 => r1c2 r1c9 <> 2; r1c9 <> 7

        ``layout`` defaults to the step's own, which every step of [`sudoku.explain`][],
        [`sudoku.hint`][] has (whatever the grid); a step made by hand without one needs
        it passed (ArgumentError otherwise: cell numbers alone do not tell the side)."""
        layout = layout or self.layout
        if layout is None:
            from .errors import ArgumentError

            raise ArgumentError(f"layout: this {self.technique} step has none of its own, "
                                "so pass the grid's layout")
        sym = alphabet or DEFAULT_SYMBOLS

        def vals(values: tuple[int, ...] | list[int]) -> str:
            return " ".join(sym[v - 1] for v in values)

        def where(cells: tuple[int, ...] | list[int]) -> str:
            return " ".join(layout.where(c) for c in cells)

        units = " ".join(layout.labels[u] for u in self.units) if self.units else ""
        name = self.technique
        if name == "naked single":
            (c, v), = self.placements
            return f"{name}: {layout.where(c)} = {sym[v - 1]} (its only candidate)"
        if name == "hidden single":
            (c, v), = self.placements
            return f"{name}: {layout.where(c)} = {sym[v - 1]} (the only place for " \
                   f"{sym[v - 1]} in {units})"
        if name == "search":
            return (f"search: the engine placed the last {len(self.placements)} cells "
                    f"({self.nodes} nodes, {self.guesses} off the solution's path)")
        if name == "locked candidates":
            first, second = (layout.labels[u] for u in self.units)
            pattern = f"{vals(self.values)} of {first} lies within {second}"
        elif name.startswith("naked"):
            pattern = f"{where(self.cells)} hold {vals(self.values)} in {units}"
        elif name.startswith("hidden"):
            pattern = f"{vals(self.values)} in {units} lie in {where(self.cells)} only"
        elif name in ("x-wing", "swordfish", "jellyfish"):
            k = len(self.units) // 2
            base = ", ".join(layout.labels[u] for u in self.units[:k])
            cover = ", ".join(layout.labels[u] for u in self.units[k:])
            pattern = f"{vals(self.values)} of {base} lies within {cover}"
        elif name == "cage combination":
            pattern = f"cage at {layout.where(self.cells[0])} can hold only " \
                      f"{vals(self.values)}"
        else:  # wings and chains: the cells of the pattern, in order
            pattern = f"{where(self.cells)} on {vals(self.values)}"
        by_value: dict[int, list[int]] = {}
        for c, v in self.eliminations:
            by_value.setdefault(v, []).append(c)
        out = "; ".join(f"{where(cells)} <> {sym[v - 1]}" for v, cells in sorted(by_value.items()))
        placed = "; ".join(f"{layout.where(c)} = {sym[v - 1]}" for c, v in self.placements)
        return f"{name}: {pattern} => {'; '.join(x for x in (placed, out) if x)}"


Technique = Callable[[Candidates], "Step | None"]


def _cells(mask: int) -> list[int]:
    """The cell numbers of a bitmask over cells."""
    return [b - 1 for b in bits(mask)]


# ----- singles ------------------------------------------------------------------------------


def naked_single(g: Candidates) -> Step | None:
    """An open cell with one candidate left takes it."""
    for c, m in enumerate(g.masks):
        if m and not m & (m - 1):
            return Step("naked single", 1.0, (c,), (m.bit_length(),),
                        placements=((c, m.bit_length()),))
    return None


def hidden_single(g: Candidates) -> Step | None:
    """A value with one place left in a unit goes there."""
    masks = g.masks
    for u, cells in enumerate(g.tables.units):
        once = twice = 0
        for c in cells:
            m = masks[c]
            twice |= once & m
            once |= m
        only = once & ~twice
        if only:
            low = only & -only
            v = low.bit_length()
            c = next(c for c in cells if masks[c] & low)
            return Step("hidden single", 1.5, (c,), (v,), (u,), placements=((c, v),))
    return None


# ----- killer cages -------------------------------------------------------------------------


def cage_combination(g: Candidates) -> Step | None:
    """A killer cage's cells take values of the fillings (sets of distinct values with the
    cage's total) that its placed values and candidates still allow: other candidates go."""
    t = g.tables
    if not t.cages:
        return None
    masks, values = g.masks, g.values
    for cells, total in t.cages:
        placed = 0
        for c in cells:
            if values[c]:
                placed |= 1 << (values[c] - 1)
        open_cells = [c for c in cells if not values[c]]
        if not open_cells:
            continue
        allowed = 0
        for filling in fillings(t.side, len(cells), total):
            fmask = sum(1 << (v - 1) for v in filling)
            rest = fmask & ~placed
            if placed & ~fmask or not all(masks[c] & rest for c in open_cells):
                continue
            union = 0
            for c in open_cells:
                union |= masks[c] & rest
            if union == rest:  # every value still missing has a cell to go
                allowed |= rest
        out = tuple((c, v) for c in open_cells for v in bits(masks[c] & ~allowed))
        if out:
            return Step("cage combination", 2.0, cells, tuple(bits(allowed)),
                        eliminations=out)
    return None


# ----- intersections ------------------------------------------------------------------------


def locked_candidates(g: Candidates) -> Step | None:
    """When a value's places in one unit all lie in a second unit, the second unit's other
    cells lose it (pointing and claiming, for any two units that meet)."""
    t, masks = g.tables, g.masks
    for u, cells in enumerate(t.units):
        if not t.meets[u]:
            continue
        union = 0
        for c in cells:
            union |= masks[c]
        for v in bits(union):
            bit = 1 << (v - 1)
            where = [c for c in cells if masks[c] & bit]
            if len(where) < 2:
                continue
            for w, shared in t.meets[u]:
                if all(c in shared for c in where):
                    inside = set(cells)
                    out = tuple((c, v) for c in t.units[w]
                                if c not in inside and masks[c] & bit)
                    if out:
                        return Step("locked candidates", 2.6, tuple(where), (v,), (u, w),
                                    eliminations=out)
    return None


# ----- subsets ------------------------------------------------------------------------------


def _naked(size: int, name: str, rating: float) -> Technique:
    def naked_subset(g: Candidates) -> Step | None:
        masks = g.masks
        for u, cells in enumerate(g.tables.units):
            small = [c for c in cells if masks[c] and masks[c].bit_count() <= size]
            if len(small) < size:
                continue
            for group in combinations(small, size):
                union = 0
                for c in group:
                    union |= masks[c]
                if union.bit_count() != size:
                    continue
                out = tuple((c, v) for c in cells if c not in group
                            for v in bits(masks[c] & union))
                if out:
                    return Step(name, rating, group, tuple(bits(union)), (u,),
                                eliminations=out)
        return None

    naked_subset.__name__ = name.replace(" ", "_")
    naked_subset.__doc__ = f"{size} cells of a unit with {size} candidates between them: " \
                           "the unit's other cells lose those values."
    return naked_subset


def _hidden(size: int, name: str, rating: float) -> Technique:
    def hidden_subset(g: Candidates) -> Step | None:
        masks = g.masks
        for u, cells in enumerate(g.tables.units):
            places: dict[int, int] = {}  # value -> its places in the unit, a bitmask over cells
            for i, c in enumerate(cells):
                for v in bits(masks[c]):
                    places[v] = places.get(v, 0) | 1 << i
            few = [v for v, p in places.items() if p.bit_count() <= size]
            if len(few) < size or len(places) <= size:
                continue
            for group in combinations(sorted(few), size):
                where = 0
                for v in group:
                    where |= places[v]
                if where.bit_count() != size:
                    continue
                keep = sum(1 << (v - 1) for v in group)
                chosen = tuple(cells[b - 1] for b in bits(where))
                out = tuple((c, v) for c in chosen for v in bits(masks[c] & ~keep))
                if out:
                    return Step(name, rating, chosen, group, (u,), eliminations=out)
        return None

    hidden_subset.__name__ = name.replace(" ", "_")
    hidden_subset.__doc__ = f"{size} values with only {size} places between them in a " \
                            "unit: those cells lose their other candidates."
    return hidden_subset


# ----- fish ---------------------------------------------------------------------------------


def _fish(size: int, name: str, rating: float) -> Technique:
    def fish(g: Candidates) -> Step | None:
        t, masks = g.tables, g.masks
        for p, q in t.crossings:
            base_units, cover_units = t.partitions[p], t.partitions[q]
            cover_index = {}
            for j, w in enumerate(cover_units):
                for c in t.units[w]:
                    cover_index[c] = j
            for v in range(1, t.side + 1):
                bit = 1 << (v - 1)
                rows = []  # (base unit, its value's covers as a bitmask over cover_units)
                for u in base_units:
                    covers = 0
                    for c in t.units[u]:
                        if masks[c] & bit:
                            covers |= 1 << cover_index[c]
                    if 2 <= covers.bit_count() <= size:
                        rows.append((u, covers))
                if len(rows) < size:
                    continue
                for group in combinations(rows, size):
                    covers = 0
                    for _, k in group:
                        covers |= k
                    if covers.bit_count() != size:
                        continue
                    bases = tuple(u for u, _ in group)
                    inside = {c for u in bases for c in t.units[u]}
                    chosen = tuple(cover_units[b - 1] for b in bits(covers))
                    out = tuple((c, v) for w in chosen for c in t.units[w]
                                if c not in inside and masks[c] & bit)
                    if out:
                        cells = tuple(sorted(c for c in inside if masks[c] & bit))
                        return Step(name, rating, cells, (v,), bases + chosen,
                                    eliminations=out)
        return None

    fish.__name__ = name.replace("-", "_")
    fish.__doc__ = f"A value whose places in {size} disjoint units lie in {size} units " \
                   "crossing them: those units' other cells lose it."
    return fish


# ----- wings --------------------------------------------------------------------------------


def _sees_both(g: Candidates, cells: tuple[int, ...], value: int) -> tuple[tuple[int, int], ...]:
    """(cell, value) for every open cell that has ``value`` and is a peer of all ``cells``."""
    t, bit = g.tables, 1 << (value - 1)
    common = -1
    for c in cells:
        common &= t.peer_mask[c]
    masks = g.masks
    return tuple((c, value) for c in _cells(common) if masks[c] & bit)


def xy_wing(g: Candidates) -> Step | None:
    """A pivot with candidates xy sees a cell with xz and one with yz: whichever value the
    pivot takes, one of those holds z, so cells that see both lose z."""
    t, masks = g.tables, g.masks
    for pivot, m in enumerate(masks):
        if m.bit_count() != 2:
            continue
        arms = [c for c in t.peers[pivot] if masks[c].bit_count() == 2
                and (masks[c] & m).bit_count() == 1]
        for a, b in combinations(arms, 2):
            ma, mb = masks[a], masks[b]
            if ma & mb & m or (ma & m) == (mb & m):
                continue
            z = ma & mb
            if z.bit_count() != 1:
                continue
            out = _sees_both(g, (a, b), z.bit_length())
            if out:
                return Step("xy-wing", 4.2, (pivot, a, b), tuple(bits(m | z)),
                            eliminations=out)
    return None


def xyz_wing(g: Candidates) -> Step | None:
    """A pivot with xyz sees a cell with xz and one with yz: z is in one of the three, so
    cells that see all three lose z."""
    t, masks = g.tables, g.masks
    for pivot, m in enumerate(masks):
        if m.bit_count() != 3:
            continue
        arms = [c for c in t.peers[pivot] if masks[c].bit_count() == 2 and masks[c] & ~m == 0]
        for a, b in combinations(arms, 2):
            ma, mb = masks[a], masks[b]
            z = ma & mb
            if z.bit_count() != 1 or (ma | mb) != m:
                continue
            out = _sees_both(g, (pivot, a, b), z.bit_length())
            if out:
                return Step("xyz-wing", 4.4, (pivot, a, b), tuple(bits(m)), eliminations=out)
    return None


def _strong_links(g: Candidates, value: int) -> list[tuple[int, int, int]]:
    """The units where ``value`` has exactly two places: (cell, cell, unit)."""
    bit, masks, out = 1 << (value - 1), g.masks, []
    for u, cells in enumerate(g.tables.units):
        where = [c for c in cells if masks[c] & bit]
        if len(where) == 2:
            out.append((where[0], where[1], u))
    return out


def w_wing(g: Candidates) -> Step | None:
    """Two cells with the same candidates xy that do not see each other, joined by a unit
    where x has two places, one seen by each: one of the two cells is y, so cells that see
    both lose y."""
    t, masks = g.tables, g.masks
    pairs: dict[int, list[int]] = {}
    for c, m in enumerate(masks):
        if m.bit_count() == 2:
            pairs.setdefault(m, []).append(c)
    links: dict[int, list[tuple[int, int, int]]] = {}
    for m, cells in pairs.items():
        for a, b in combinations(cells, 2):
            if t.peer_mask[a] >> b & 1:
                continue
            for x in bits(m):
                if x not in links:
                    links[x] = _strong_links(g, x)
                y = (m & ~(1 << (x - 1))).bit_length()
                for s1, s2, _u in links[x]:
                    if a in (s1, s2) or b in (s1, s2):
                        continue
                    pa, pb = t.peer_mask[a], t.peer_mask[b]
                    if (pa >> s1 & 1 and pb >> s2 & 1) or (pa >> s2 & 1 and pb >> s1 & 1):
                        out = _sees_both(g, (a, b), y)
                        if out:
                            return Step("w-wing", 4.5, (a, s1, s2, b), (y, x),
                                        eliminations=out)
    return None


# ----- chains -------------------------------------------------------------------------------


def simple_coloring(g: Candidates) -> Step | None:
    """For one value, the cells joined by strong links (units where it has two places) take
    two colors, one of which is all true: a cell that sees both colors loses the value
    (a trap), and a color with two cells that see each other is false (a wrap)."""
    t, masks = g.tables, g.masks
    for v in range(1, t.side + 1):
        bit = 1 << (v - 1)
        adjacent: dict[int, list[int]] = {}
        for a, b, _ in _strong_links(g, v):
            adjacent.setdefault(a, []).append(b)
            adjacent.setdefault(b, []).append(a)
        seen: set[int] = set()
        for start in adjacent:
            if start in seen:
                continue
            color = {start: 0}
            todo = [start]
            while todo:  # a breadth of strong links, two colors alternating
                c = todo.pop()
                for d in adjacent[c]:
                    if d not in color:
                        color[d] = 1 - color[c]
                        todo.append(d)
            seen.update(color)
            if len(color) < 3:
                continue
            sides = [[c for c, k in color.items() if k == side] for side in (0, 1)]
            cells = tuple(sorted(color))
            for side in (0, 1):  # wrap: two cells of one color see each other
                group = sides[side]
                if any(t.peer_mask[a] >> b & 1 for a, b in combinations(group, 2)):
                    return Step("simple coloring", 6.0, cells, (v,),
                                eliminations=tuple((c, v) for c in sorted(group)))
            see = [0, 0]
            for side in (0, 1):
                for c in sides[side]:
                    see[side] |= t.peer_mask[c]
            trap = see[0] & see[1]
            out = tuple((c, v) for c in _cells(trap) if c not in color and masks[c] & bit)
            if out:
                return Step("simple coloring", 6.0, cells, (v,), eliminations=out)
    return None


MAX_CHAIN = 12
"""Longest X-chain looked for, in links."""


def x_chain(g: Candidates) -> Step | None:
    """For one value, a chain of links alternately strong (a unit where it has two places)
    and weak (two cells that see each other), starting and ending with a strong link: if
    the first cell is not the value the last one is, so cells that see both lose it."""
    t, masks = g.tables, g.masks
    for v in range(1, t.side + 1):
        bit = 1 << (v - 1)
        strong: dict[int, set[int]] = {}
        for a, b, _ in _strong_links(g, v):
            strong.setdefault(a, set()).add(b)
            strong.setdefault(b, set()).add(a)
        if len(strong) < 4:
            continue
        holders = [c for c, m in enumerate(masks) if m & bit]
        for start in sorted(strong):
            # states: a cell reached after a strong link (``on``: it holds v if start does
            # not) or after a weak one (``off``); a breadth-first search, shortest first
            came: _Came = {(start, False): None}
            frontier = [(start, False)]
            for _ in range(MAX_CHAIN):
                later = []
                for cell, on in frontier:
                    nexts = strong.get(cell, ()) if not on else \
                        (c for c in holders if t.peer_mask[cell] >> c & 1)
                    for nxt in nexts:
                        state = (nxt, not on)
                        if nxt == start or state in came:
                            continue
                        came[state] = (cell, on)
                        later.append(state)
                        if not on and _chain_links(came, state) >= 3:
                            out = _sees_both(g, (start, nxt), v)
                            if out:
                                path = _chain_cells(came, state)
                                return Step("x-chain", 6.5, path, (v,), eliminations=out)
                frontier = later
                if not frontier:
                    break
    return None


_Came = dict[tuple[int, bool], "tuple[int, bool] | None"]
"""An X-chain search's states, each with the state it was reached from (None: the start)."""


def _chain_links(came: _Came, state: tuple[int, bool]) -> int:
    """The links of the chain that ends at ``state``."""
    return len(_chain_cells(came, state)) - 1


def _chain_cells(came: _Came, state: tuple[int, bool]) -> tuple[int, ...]:
    """The cells of the chain that ends at ``state``, from its start."""
    out = [state[0]]
    back = came[state]
    while back is not None:
        out.append(back[0])
        back = came[back]
    return tuple(reversed(out))


TECHNIQUES: tuple[tuple[str, float, Technique], ...] = (
    ("naked single", 1.0, naked_single),
    ("hidden single", 1.5, hidden_single),
    ("cage combination", 2.0, cage_combination),
    ("locked candidates", 2.6, locked_candidates),
    ("naked pair", 3.0, _naked(2, "naked pair", 3.0)),
    ("hidden pair", 3.4, _hidden(2, "hidden pair", 3.4)),
    ("x-wing", 3.5, _fish(2, "x-wing", 3.5)),
    ("naked triple", 3.6, _naked(3, "naked triple", 3.6)),
    ("swordfish", 3.8, _fish(3, "swordfish", 3.8)),
    ("hidden triple", 4.0, _hidden(3, "hidden triple", 4.0)),
    ("xy-wing", 4.2, xy_wing),
    ("xyz-wing", 4.4, xyz_wing),
    ("w-wing", 4.5, w_wing),
    ("naked quad", 5.0, _naked(4, "naked quad", 5.0)),
    ("jellyfish", 5.2, _fish(4, "jellyfish", 5.2)),
    ("hidden quad", 5.4, _hidden(4, "hidden quad", 5.4)),
    ("simple coloring", 6.0, simple_coloring),
    ("x-chain", 6.5, x_chain),
)
"""Every technique, easiest first: (name, rating, function). The ratings follow Sudoku
Explainer's where it has the technique, with two changes so that the levels mean what
qqwing's mean (see [`sudoku.rate`][]): a naked single is the easiest step (1.0), and an
X-wing (3.2 there) comes after the hidden pair (3.4)."""


def find_step(g: Candidates, ceiling: float | None = None) -> Step | None:
    """The easiest step a technique finds on ``g`` (rated at most ``ceiling``), or None."""
    for _, rating, technique in TECHNIQUES:
        if ceiling is not None and rating > ceiling:
            return None
        step = technique(g)
        if step is not None:
            return step
    return None
