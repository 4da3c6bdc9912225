"""Puzzle generation: unique puzzles of a chosen difficulty, symmetry and layout.

A puzzle is made as qqwing makes its own: a random solved grid, then clues taken away in
a random order (a whole symmetry orbit at a time) whenever the solution stays unique (the
engine counts to 2); one pass over the cells leaves a *minimal* puzzle, since a clue that
was needed stays needed as others go. The puzzle is then rated ([`sudoku.rate`][]) and
kept if its rating is in the band asked for, else the next attempt starts from a new grid.
Everything is driven by one ``seed``: ``generate(9, seed=5)`` is the same puzzle every time
(for a given version of the engine, whose randomized tie-break the grid depends on).

Killer Sudoku ([`generate_killer`][]) grows random cages of distinct values over a
solved grid and adds givens from it (where two solutions differ) until the solution is
unique, then drops every given that is not needed. Jigsaw layouts come from
[`random_jigsaw`][]: boxes reshaped by random swaps of border cells.

>>> import sudoku
>>> puzzle = sudoku.generate(9, difficulty="easy", symmetry="rotational", seed=1)
>>> sudoku.rate(puzzle).level, sudoku.count_solutions(puzzle, 2)
('easy', 1)
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import dlx
from dlx import NEVER, BackendName, Status

from .arguments import Engine, count_budget, engine
from .errors import ArgumentError, LayoutError, SearchStoppedError
from .grid import Geometry, format_grid, geometry
from .layout import MAX_SIDE, Layout, box_owners
from .rate import LEVELS, level_range, rate_values
from .reduction import (
    Reduction,
    decode,
    forced_problem,
    given_array,
    grid_search,
)
from .tables import tables

__all__ = ["MAX_SIDE_MADE", "SYMMETRIES", "generate", "generate_killer", "layout_of",
           "random_grid", "random_jigsaw", "symmetry_orbits"]

SYMMETRIES = ("none", "rotational", "diagonal", "mirror")
"""Symmetries of the clues' pattern: none; rotational (half-turn about the centre);
diagonal (reflection in the main diagonal); mirror (reflection left to right)."""

MAX_SIDE_MADE = 16
"""The largest grid side that [`generate`][] and [`generate_killer`][] make: 16x16.
Larger grids take thousands of uniqueness checks of hard 25x25 (and larger) searches:
minutes to hours, so they are refused (ArgumentError) rather than started."""

ATTEMPTS = 2000
"""Puzzles tried by default before [`generate`][] gives up on a difficulty."""

_GRID_NODES_PER_CELL = 8
"""Budget of the randomized search for a full grid, in nodes per cell. It needs about one
node per cell when it goes straight down, and can wander for very long on 36x36 boards;
beyond the budget the grid comes from Knuth's deterministic order instead."""


def layout_of(size: Layout | int) -> Layout:
    """The layout for [`generate`][]'s first argument: a Layout itself, or a side N: the
    square boxes when N is a square (4, 9, 16, 25, 36), else the boxes closest to square
    (6: 2 x 3, 8: 2 x 4, 10: 2 x 5, 12: 3 x 4...). ArgumentError for a side without boxes."""
    if isinstance(size, Layout):
        return size
    if isinstance(size, bool) or not isinstance(size, int) or not 4 <= size <= MAX_SIDE:
        raise ArgumentError(f"size must be a sudoku.Layout or a side in 4..{MAX_SIDE}, got "
                            f"{size!r}")
    rows = max(r for r in range(1, int(size**0.5) + 1) if size % r == 0)
    if rows == 1:
        raise ArgumentError(f"a grid of side {size} has no boxes (it is prime): pass "
                            f"sudoku.Layout.latin({size}) for a Latin square")
    return Layout.rect(rows, size // rows)


def symmetry_orbits(layout: Layout, symmetry: str) -> list[tuple[int, ...]]:
    """The cells in orbits of ``symmetry`` (one of [`SYMMETRIES`][]): each orbit is the
    cells that must be clues together (one or two cells), in cell order."""
    if symmetry not in SYMMETRIES:
        raise ArgumentError(f"symmetry must be one of {', '.join(SYMMETRIES)}, got "
                            f"{symmetry!r}")
    n = layout.side
    image = {
        "none": lambda r, c: (r, c),
        "rotational": lambda r, c: (n - 1 - r, n - 1 - c),
        "diagonal": lambda r, c: (c, r),
        "mirror": lambda r, c: (r, n - 1 - c),
    }[symmetry]
    seen: set[int] = set()
    out: list[tuple[int, ...]] = []
    for cell in range(layout.cells):
        if cell not in seen:
            r, c = image(*divmod(cell, n))
            orbit = tuple(sorted({cell, r * n + c}))
            seen.update(orbit)
            out.append(orbit)
    return out


def random_grid(box: int = 3, seed: int = 0, *, backend: dlx.BackendName = "auto") -> str:
    """A solved grid of side ``box*box``, as one line of symbols, determined by ``seed``.

    The engine fills an empty board breaking ties at random (``ExactCover.first(seed=)``),
    then the grid is shuffled by validity-preserving symmetries: symbols relabeled, bands
    and rows within bands permuted, stacks and columns likewise, and maybe transposed.
    """
    geo = geometry(box * box)
    return format_grid(geo, _random_values(geo, seed, random.Random(seed), engine(backend)))


def generate(
    size: Layout | int = 9,
    *,
    difficulty: str | tuple[float, float] | None = None,
    symmetry: str = "none",
    minimal: bool = True,
    seed: int | None = None,
    clues: int | None = None,
    max_nodes: int | None = None,
    attempts: int = ATTEMPTS,
    backend: dlx.BackendName = "auto",
    timeout: float | None = None,
) -> str:
    """A puzzle with a unique solution, as one line (``.`` for blanks).

    ``size`` is a [`sudoku.Layout`][] (X, Windoku, jigsaw, rectangular boxes...) or a
    side (9, 16, 6...: the boxes closest to square). ``difficulty`` is a level name of
    [`sudoku.rate.LEVELS`][] (``"simple"`` ... ``"extreme"``) or a (lowest, highest)
    rating; None takes the first puzzle made. ``symmetry`` is one of [`SYMMETRIES`][]:
    the clues' pattern has it. ``minimal`` (the default): no clue orbit can be taken away
    without a second solution; with ``minimal=False`` a clue whose removal would rate the
    puzzle above the band asked for is kept instead (quicker for the easy levels, and more
    clues). ``seed`` (an int; None: a random one) fixes the result; ``clues`` stops the
    removal at that many clues; ``max_nodes`` bounds each uniqueness check (a check that
    runs out keeps its clue: large boards, at the price of more clues); without it, a
    check that runs over ``RESTART_NODES_PER_CELL`` (400) nodes a cell abandons the grid
    for a new one. ``timeout`` (in seconds) bounds the whole call: once it runs out,
    SearchStoppedError (a [`dlx.SearchStoppedError`][] too), and a timeout that does not
    run out changes nothing (the same puzzle, seed for seed). Budgets follow
    [`dlx.count_budget`][] and [`dlx.time_budget`][], as everywhere. After ``attempts``
    grids (None: no bound) none of which gave a puzzle of the difficulty asked,
    SearchStoppedError. Grids larger than 16x16 (`sudoku.generate.MAX_SIDE_MADE`) are
    refused (ArgumentError): their uniqueness checks alone take hours.
    """
    layout = layout_of(size)
    if layout.cages:
        raise ArgumentError("a killer layout brings its own cages: use "
                            "sudoku.generate_killer() to make cages and givens")
    _made_side(layout)
    low, high = _band(difficulty)
    orbits = symmetry_orbits(layout, symmetry)
    if not isinstance(minimal, bool):
        raise ArgumentError(f"minimal must be True or False, got {minimal!r}")
    checked = engine(backend, max_nodes, timeout)
    target = 0 if clues is None else count_budget(clues, "clues")
    attempts = count_budget(attempts, "attempts")
    seed = _seed(seed)
    geo = geometry(layout.side, None, layout)
    rng = random.Random(seed)
    grid_seed = seed
    restart = checked.max_nodes >= NEVER
    budget = RESTART_NODES_PER_CELL * layout.cells
    tried = 0
    while tried < attempts:
        tried += 1
        check = replace(checked, max_nodes=budget) if restart else checked
        grid = _random_values(geo, grid_seed, rng, checked)
        ceiling = high if difficulty is not None and high < LEVELS[-1][1] else None
        try:
            puzzle = _remove(geo, grid, orbits, rng, target, check,
                             None if minimal else ceiling, restart)
        except _Restart:
            budget *= 2  # so that a layout whose checks are all long still ends
            grid_seed = rng.randrange(2**31)
            continue
        if difficulty is None:
            return format_grid(geo, puzzle)
        rating = rate_values(geo, puzzle, grid, backend=checked.backend,
                             ceiling=ceiling if ceiling is not None and ceiling < 7 else None)
        _in_time(checked)
        if low - 1e-9 <= rating.rating <= high + 1e-9:
            return format_grid(geo, puzzle)
        grid_seed = rng.randrange(2**31)
    raise SearchStoppedError(f"no puzzle of difficulty {difficulty!r} found in {attempts} "
                             "attempts")


def _made_side(layout: Layout) -> None:
    """ArgumentError for a layout larger than [`MAX_SIDE_MADE`][]."""
    if layout.side > MAX_SIDE_MADE:
        raise ArgumentError(f"the generator makes grids up to {MAX_SIDE_MADE}x"
                            f"{MAX_SIDE_MADE}, got {layout.side}x{layout.side}")


def _in_time(checked: Engine) -> None:
    """SearchStoppedError once the call's ``timeout`` has run out."""
    if checked.expired():
        raise _out_of_time(checked)


def _out_of_time(checked: Engine) -> SearchStoppedError:
    return SearchStoppedError(f"the generator was stopped by its timeout "
                              f"({checked.timeout:g} s) before a puzzle was made")


def _band(difficulty: Any) -> tuple[float, float]:
    """(lowest, highest) rating of a ``difficulty`` argument."""
    if difficulty is None:
        return 0.0, LEVELS[-1][2]
    if isinstance(difficulty, str):
        return level_range(difficulty)
    try:
        low, high = (float(x) for x in difficulty)
    except (TypeError, ValueError):
        raise ArgumentError(f"difficulty must be a level name or a (lowest, highest) "
                            f"rating, got {difficulty!r}") from None
    if not low <= high:
        raise ArgumentError(f"difficulty: lowest rating {low} above highest {high}")
    return low, high


def _seed(seed: Any) -> int:
    if seed is None:
        return random.SystemRandom().randrange(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"seed must be an int or None, got {seed!r}")
    return seed


def _unique(geo: Geometry, values: list[int], checked: Engine) -> bool | None:
    """Whether ``values`` (clues of a valid grid, so they cannot clash) has exactly one
    solution, by the engine counting to 2 in a batch of one; None if the node budget
    stopped the count first (no proof either way). SearchStoppedError once the call's
    timeout has run out."""
    _in_time(checked)
    result = grid_search(geo.layout, 2, checked)(given_array(geo.side, bytes(values)))
    status = Status(int(result.status[0]))
    if status == Status.TIMEOUT:
        raise _out_of_time(checked)
    if status.stopped:
        return None
    return int(result.found[0]) == 1


class _Restart(Exception):
    """A uniqueness check ran over [`RESTART_NODES_PER_CELL`][]: start from a new grid."""


RESTART_NODES_PER_CELL = 400
"""Without ``max_nodes``, a uniqueness check that needs more nodes than this per cell
abandons the grid for a new one. The checks' costs have a heavy tail on 16x16 grids (one
seed in nine took 12 s, a few checks of 0.5-2 million nodes each, where the median check
takes ~1,000): a restart bounds the tail. 9x9 checks stay far below (hundreds of nodes).
The budget doubles at each restart, so that a layout whose checks are all long ends too."""


def _remove(geo: Geometry, grid: list[int], orbits: list[tuple[int, ...]], rng: random.Random,
            target: int, checked: Engine, ceiling: float | None,
            restart: bool = False) -> list[int]:
    """``grid`` less the clue orbits whose removal keeps the solution unique, tried once
    each in a random order, until ``target`` clues are left; with a ``ceiling``, a removal
    that would rate the puzzle above it is refused too. A check stopped by the node budget
    keeps its clue, or with ``restart`` raises [`_Restart`][]. A cell whose peers' clues leave it
    one value (a naked single) needs no search: about a third of the cells of a 9x9."""
    puzzle = list(grid)
    order = list(orbits)
    rng.shuffle(order)
    given = len(puzzle)
    peers = tables(geo.layout).peers
    others = geo.side - 1  # the other N - 1 values among a cell's peers' clues
    for orbit in order:
        if given <= target:
            break
        for c in orbit:
            puzzle[c] = 0
        keep = all(len({puzzle[p] for p in peers[c]} - {0}) == others for c in orbit) \
            or _unique(geo, puzzle, checked)
        if keep is None:
            if restart:
                raise _Restart
            keep = False
        if keep and ceiling is not None:
            keep = rate_values(geo, puzzle, grid, backend=checked.backend,
                               ceiling=ceiling).rating <= ceiling
            _in_time(checked)
        if keep:
            given -= len(orbit)
        else:
            for c in orbit:
                puzzle[c] = grid[c]
    return puzzle


def _random_values(geo: Geometry, seed: int, rng: random.Random,
                   checked: Engine) -> list[int]:
    """A full grid of values: the engine's randomized first solution, then shuffled (a
    plain square layout: bands, rows, stacks, columns and symbols; any other: symbols),
    within the call's timeout (``checked``'s deadline; its backend)."""
    plain = geo.layout.block is not None and geo.layout.block[0] == geo.layout.block[1] \
        and geo.layout == Layout.square(geo.layout.block[0])
    red = Reduction(geo, [0] * geo.cells)
    backend = checked.backend
    try:
        try:
            found = red.problem.first(seed=seed, max_nodes=_GRID_NODES_PER_CELL * geo.cells,
                                      backend=backend, timeout=checked.left())
        except dlx.SearchStoppedError as stop:
            if stop.stats.status == Status.TIMEOUT:
                raise
            # wandered too long: Knuth's order goes straight down
            found = red.problem.first(backend=backend, timeout=checked.left())
    except dlx.SearchStoppedError:  # only a timeout: the first search had no node budget
        raise _out_of_time(checked) from None
    if found is None:
        raise LayoutError("the layout has no solved grid at all")
    values = red.decode(found)
    if plain:
        return _shuffle(geo, values, rng)
    symbols = rng.sample(range(1, geo.side + 1), geo.side)
    return [symbols[v - 1] for v in values]


def _shuffle(geo: Geometry, values: list[int], rng: random.Random) -> list[int]:
    """``values`` under a random symmetry of the grid (each keeps a valid grid valid)."""
    n, side = geo.box, geo.side

    def lines() -> list[int]:  # bands in random order, lines within each band likewise
        bands = rng.sample(range(n), n)
        return [b * n + i for b in bands for i in rng.sample(range(n), n)]

    rows, cols = lines(), lines()
    symbols = rng.sample(range(1, side + 1), side)
    transpose = rng.random() < 0.5
    out = []
    for r in range(side):
        for c in range(side):
            rr, cc = (cols[c], rows[r]) if transpose else (rows[r], cols[c])
            out.append(symbols[values[rr * side + cc] - 1])
    return out


# ----- killer -------------------------------------------------------------------------------


def generate_killer(
    block: tuple[int, int] = (3, 3),
    *,
    difficulty: str | tuple[float, float] | None = None,
    max_cage: int = 4,
    seed: int | None = None,
    attempts: int = ATTEMPTS,
    backend: BackendName = "auto",
) -> tuple[Layout, str]:
    """A killer Sudoku with a unique solution: its layout (boxes of ``block``, cages of 1 to
    ``max_cage`` cells with their sums) and its givens as one line (all ``.`` when the cages
    alone decide the grid). Cages are grown at random over a solved grid, each holding
    distinct values; givens are added from the grid where two solutions differ until the
    solution is unique, then every given that is not needed is taken away again.
    ``difficulty``, ``seed``, ``attempts`` as for [`generate`][]; boxes of more than 16
    cells (a grid above 16x16) are refused, as there.
    """
    if not isinstance(block, tuple) or len(block) != 2:
        raise ArgumentError(f"block must be a (rows, cols) tuple, got {block!r}")
    base = Layout.rect(*block)
    _made_side(base)
    if isinstance(max_cage, bool) or not isinstance(max_cage, int) \
            or not 1 <= max_cage <= base.side:
        raise ArgumentError(f"max_cage must be an int in 1..{base.side}, got {max_cage!r}")
    low, high = _band(difficulty)
    attempts = count_budget(attempts, "attempts")
    seed = _seed(seed)
    rng = random.Random(seed)
    checked = engine(backend, 50_000)
    grid_seed = seed
    tried = 0
    while tried < attempts:
        tried += 1
        grid = _random_values(geometry(base.side, None, base), grid_seed, rng, checked)
        grid_seed = rng.randrange(2**31)
        cages = _grow_cages(base.side, grid, max_cage, rng)
        layout = Layout.killer(cages, block)
        geo = geometry(layout.side, None, layout)
        puzzle = _killer_givens(geo, grid, rng, checked)
        if difficulty is not None:
            rating = rate_values(geo, puzzle, grid, backend=backend)
            if not low - 1e-9 <= rating.rating <= high + 1e-9:
                continue
        return layout, format_grid(geo, puzzle)
    raise SearchStoppedError(f"no killer of difficulty {difficulty!r} found in {attempts} "
                             "attempts")


def _grow_cages(side: int, grid: list[int], max_cage: int,
                rng: random.Random) -> list[tuple[list[int], int]]:
    """Cages covering the grid: from each free cell in a random order, a cage grows into
    free neighbours (sharing an edge) whose values it does not hold yet, up to a random
    size in 1..``max_cage`` (2 and 3 the most likely)."""
    owner = [-1] * (side * side)
    order = list(range(side * side))
    rng.shuffle(order)
    cages: list[tuple[list[int], int]] = []
    sizes = list(range(1, max_cage + 1))
    weights = [1 if s == 1 else 4 if s in (2, 3) else 2 for s in sizes]
    for start in order:
        if owner[start] >= 0:
            continue
        size = rng.choices(sizes, weights)[0]
        cells, held = [start], {grid[start]}
        owner[start] = len(cages)
        while len(cells) < size:
            frontier = []
            for c in cells:
                r, k = divmod(c, side)
                for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
                    n = rr * side + kk
                    if 0 <= rr < side and 0 <= kk < side and owner[n] < 0 \
                            and grid[n] not in held:
                        frontier.append(n)
            if not frontier:
                break
            n = rng.choice(frontier)
            owner[n] = len(cages)
            cells.append(n)
            held.add(grid[n])
        cages.append((cells, sum(grid[c] for c in cells)))
    return cages


def _killer_givens(geo: Geometry, grid: list[int], rng: random.Random,
                   checked: Engine) -> list[int]:
    """Givens from ``grid`` that make the killer of ``geo`` unique, none of them useless:
    while two solutions exist, the grid's value of a cell where they differ is given (a
    cell at random if the search ran out of nodes first); then each given is taken away
    again if the solution stays unique."""
    puzzle = [0] * geo.cells
    while True:
        found, complete = _two_solutions(geo, puzzle, checked)
        if len(found) == 1 and complete:
            break
        open_cells = [c for c in range(geo.cells) if not puzzle[c]]
        differ = [c for c in open_cells if len(found) == 2 and found[0][c] != found[1][c]]
        cell = rng.choice(differ or open_cells)
        puzzle[cell] = grid[cell]
    for cell in [c for c in range(geo.cells) if puzzle[c]]:
        puzzle[cell] = 0
        if not _unique(geo, puzzle, checked):
            puzzle[cell] = grid[cell]
    return puzzle


def _two_solutions(geo: Geometry, puzzle: list[int],
                   checked: Engine) -> tuple[list[list[int]], bool]:
    """Up to two solutions of ``puzzle`` (as values), and whether the search was not cut
    short by its node budget."""
    problem, forced = forced_problem(geo, puzzle)
    search = problem.solutions(forced=forced, **checked.budgets())
    found = []
    for options in search:
        found.append(decode(geo, puzzle, None, sorted(options)))
        if len(found) == 2:
            return found, True
    return found, not search.stats.stopped


# ----- jigsaw -------------------------------------------------------------------------------


def random_jigsaw(side: int = 9, *, seed: int | None = None, swaps: int | None = None,
                  backend: BackendName = "auto") -> Layout:
    """A random jigsaw layout of ``side`` (a square, 4..36): its boxes reshaped by
    ``swaps`` random exchanges of two border cells between neighbouring regions (each
    region stays connected and keeps N cells), kept only if a solved grid exists."""
    box = int(side**0.5) if isinstance(side, int) and not isinstance(side, bool) else 0
    if box * box != side or not 2 <= box <= 6:
        raise ArgumentError(f"side must be 4, 9, 16, 25 or 36, got {side!r}")
    rng = random.Random(_seed(seed))
    if swaps is None:
        swaps = side * side
    elif isinstance(swaps, bool) or not isinstance(swaps, int) or swaps < 0:
        raise ArgumentError(f"swaps must be an int >= 0 or None, got {swaps!r}")
    boxes = box_owners(Layout.square(box))
    assert boxes is not None  # a square layout has boxes
    for _ in range(JIGSAW_SHAPES):
        owner = list(boxes)
        for _ in range(swaps):
            _swap(side, owner, rng)
        letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
        layout = Layout.jigsaw("".join(letters[k] for k in owner))
        problem = Reduction(geometry(side, None, layout), [0] * side * side).problem
        try:
            problem.first(max_nodes=200 * side * side, backend=backend)
        except dlx.SearchStoppedError:  # the budget ran out: another shape
            continue
        return layout
    raise SearchStoppedError(f"no {side}x{side} jigsaw shape with a solved grid found in "
                             f"{JIGSAW_SHAPES} tries")


JIGSAW_SHAPES = 1000
"""Shapes [`random_jigsaw`][] tries before it gives up."""


def _swap(side: int, owner: list[int], rng: random.Random) -> None:
    """Exchange a random cell ``a`` with a cell ``b`` of a neighbouring region, where ``a``
    touches ``b``'s region and ``b`` touches ``a``'s, if both regions stay connected."""
    def neighbours(c: int) -> list[int]:
        r, k = divmod(c, side)
        return [rr * side + kk for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
                if 0 <= rr < side and 0 <= kk < side]

    a = rng.randrange(side * side)
    others = [owner[n] for n in neighbours(a) if owner[n] != owner[a]]
    if not others:
        return
    ra, rb = owner[a], rng.choice(others)
    candidates = [b for b in range(side * side) if owner[b] == rb and b != a
                  and any(owner[n] == ra for n in neighbours(b))]
    if not candidates:
        return
    b = rng.choice(candidates)
    owner[a], owner[b] = rb, ra
    if not (_connected(side, owner, ra) and _connected(side, owner, rb)):
        owner[a], owner[b] = ra, rb


def _connected(side: int, owner: list[int], region: int) -> bool:
    cells = [c for c in range(side * side) if owner[c] == region]
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, k = divmod(todo.pop(), side)
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            n = rr * side + kk
            if 0 <= rr < side and 0 <= kk < side and owner[n] == region and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)
