"""Layouts: a grid's rules as data (``sudoku.Layout``), and everything derived from them.

* the square layout gives back the classic reduction exactly: the same options, item
  names and Knuth's nodes and updates as the formulas the reduction used before layouts;
* each variant (X, Windoku, 6x6 with 2 x 3 boxes, jigsaw) solves published puzzles of
  ``../shared/data/sudoku_variants`` (skipped when absent) to their published solutions,
  uniquely, on the python and numba backends, one at a time and in batches;
* the checker sees a broken unit of each kind; clashes and bad region maps name the unit;
* random jigsaws and rectangles (hypothesis) give layouts whose first solution is valid.
"""

from __future__ import annotations

import operator
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku
from dlx import ExactCover
from sudoku import (
    ArgumentError,
    ClashError,
    Layout,
    LayoutError,
    NoSolutionError,
    ShapeError,
    count_many,
    count_solutions,
    parse_string,
    solve,
    solve_many,
    solve_string,
    to_exact_cover,
)
from sudoku import grid as grid_module
from sudoku.grid import are_solutions, is_solution
from sudoku.reduction import empty_grid_problem
from tests.helpers.backends import BACKENDS

VARIANTS = Path(__file__).resolve().parents[3] / "shared/data/sudoku_variants"
HARDEST = Path(__file__).resolve().parents[3] / "shared/data/sudoku/norvig_hardest.txt"
SAMPLE = 20
B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
PUZZLES = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
    "." * 81,
]


def _variant(name: str) -> list[tuple[str, str]]:
    """The first SAMPLE (puzzle line, published solution) pairs of a variant file."""
    path = VARIANTS / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    puzzles = path.read_text().splitlines()[:SAMPLE]
    answers = (VARIANTS / "solutions" / name).read_text().splitlines()[:SAMPLE]
    return list(zip(puzzles, answers))


# ----- the square layout is the classic reduction ------------------------------------------


def _classic(box: int) -> tuple[np.ndarray, list[str]]:
    """The option rows and item names of Knuth's reduction, from its own formulas."""
    side = box * box
    area = side * side
    cell = np.repeat(np.arange(area), side)
    d = np.tile(np.arange(side), area)
    r, c = cell // side, cell % side
    b = (r // box) * box + c // box
    rows = np.stack([cell, area + r * side + d, 2 * area + c * side + d,
                     3 * area + b * side + d], axis=1)
    names = ([f"p{B36[i]}{B36[j]}" for i in range(side) for j in range(side)]
             + [f"{k}{B36[i]}{B36[v]}" for k in "rcb" for i in range(side)
                for v in range(side)])
    return rows, names


@pytest.mark.parametrize("box", [2, 3, 4])
def test_square_layout_is_the_classic_empty_grid(box):
    rows, names = _classic(box)
    classic = ExactCover.from_csr(np.arange(0, rows.size + 1, 4), rows.ravel(),
                                  n_items=len(names), names=names)
    layout = Layout.square(box)
    assert layout == Layout.rect(box, box) and hash(layout) == hash(Layout.rect(box, box))
    assert layout.item_names() == names
    for problem in (empty_grid_problem(box), empty_grid_problem(layout),
                    to_exact_cover("." * box**4, layout=layout)):
        assert problem.to_dlx() == classic.to_dlx()


@pytest.mark.parametrize("givens", ["reduce", "select"])
def test_square_layout_reduction_matches_the_classic_one(givens):
    """The reduced problems are the classic reduction of each puzzle, with the same search."""
    rows, names = _classic(3)
    for puzzle in PUZZLES + HARDEST.read_text().split()[:4] if HARDEST.exists() else PUZZLES:
        values = [0 if ch == "." else int(ch) for ch in puzzle]
        given = {k * 9 + v - 1 for k, v in enumerate(values) if v}
        covered = {int(i) for k in given for i in rows[k]}
        if givens == "reduce":
            keep = [k for k in range(729) if not covered & set(rows[k].tolist())]
            items = [i for i in range(324) if i not in covered]
        else:
            keep = [k for k in range(729)
                    if k in given or not covered & set(rows[k].tolist())]
            items = list(range(324))
        number = {item: n for n, item in enumerate(items)}
        classic = ExactCover.from_csr(
            np.arange(0, 4 * len(keep) + 1, 4),
            np.array([number[int(i)] for k in keep for i in rows[k]]),
            n_items=len(items), names=[names[i] for i in items])
        ours = to_exact_cover(puzzle, givens=givens, layout=Layout.square(3))
        assert ours.to_dlx() == classic.to_dlx()
        assert to_exact_cover(puzzle, givens=givens).to_dlx() == classic.to_dlx()
        ours.count(limit=2)
        classic.count(limit=2)
        mine, theirs = ours.stats, classic.stats
        assert (mine.nodes, mine.updates, mine.solutions) == \
            (theirs.nodes, theirs.updates, theirs.solutions)


# ----- the variants solve published puzzles ------------------------------------------------


VARIANT_FILES = {
    "x_sudoq_9x9.txt": Layout.x(),
    "windoku_sudoq_9x9.txt": Layout.windoku(),
    "rect_2x3_6x6_sudoq.txt": Layout.rect(2, 3),
}


def _cases(name: str) -> list[tuple[Layout, str, str]]:
    """(layout, givens, published solution) of a variant file's sample."""
    if name.startswith("jigsaw_"):
        return [(Layout.jigsaw(line.split()[1]), line.split()[0], answer)
                for line, answer in _variant(name)]
    return [(VARIANT_FILES[name], line, answer) for line, answer in _variant(name)]


NAMES = [*VARIANT_FILES, "jigsaw_janko_9x9.txt", "jigsaw_janko_6x6.txt"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", NAMES)
def test_variants_solve_published_puzzles(name, backend):
    for layout, puzzle, answer in _cases(name):
        assert solve_string(puzzle, layout=layout, backend=backend) == answer
        assert count_solutions(puzzle, limit=2, layout=layout, backend=backend) == 1
        geo, values = parse_string(answer, layout=layout)
        assert is_solution(geo, parse_string(puzzle, layout=layout)[1], values)


@pytest.mark.parametrize("name", NAMES)
def test_variants_solve_in_batches(name):
    cases = _cases(name)
    by_layout: dict[Layout, list[tuple[str, str]]] = {}
    for layout, puzzle, answer in cases:
        by_layout.setdefault(layout, []).append((puzzle, answer))
    for layout, pairs in by_layout.items():
        puzzles = [p for p, _ in pairs]
        assert solve_many(puzzles, layout=layout, unique=True) == [a for _, a in pairs]
        assert count_many(puzzles, 2, layout=layout) == [1] * len(pairs)


def test_a_board_solves_in_place_with_a_layout():
    _, puzzle, answer = _cases("rect_2x3_6x6_sudoq.txt")[0]
    board = [list(puzzle[r * 6 : (r + 1) * 6]) for r in range(6)]
    assert solve(board, layout=Layout.rect(2, 3)) is board
    assert "".join(map("".join, board)) == answer
    ints = np.array([[0 if ch == "." else int(ch) for ch in puzzle[r * 6 : (r + 1) * 6]]
                     for r in range(6)])
    solve(ints, layout=Layout.rect(2, 3))
    assert "".join(map(str, ints.ravel())) == answer


# ----- the checker, clashes and errors -----------------------------------------------------


def _swap(values: list[int], a: int, b: int) -> list[int]:
    out = list(values)
    out[a], out[b] = out[b], out[a]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_checker_catches_a_swap_in_any_unit(name):
    for layout, _, answer in _cases(name)[:5]:
        geo, values = parse_string(answer, layout=layout)
        blank = [0] * len(values)
        assert is_solution(geo, blank, values)
        for label, cells in zip(layout.labels, layout.units):
            a, b = cells[0], cells[-1]
            broken = _swap(values, a, b)
            assert not is_solution(geo, blank, broken), label
        grids = np.array([values] + [_swap(values, u[0], u[1]) for u in layout.units])
        ok = are_solutions(geo, np.zeros_like(grids), grids)
        assert ok.tolist() == [True] + [False] * len(layout.units)


def test_checker_sees_the_extra_units():
    """A plain solution breaks a diagonal, a window or a region: only the layout that has
    that unit refuses it."""
    plain = solve_string("." * 81)
    geo, values = parse_string(plain)
    assert is_solution(geo, [0] * 81, values)
    for layout in (Layout.x(), Layout.windoku()):
        lgeo, _ = parse_string(plain, layout=layout)
        extra = [u for u in layout.units[27:] if len({values[c] for c in u}) < 9]
        assert extra  # the first empty-grid solution has a repeat on the extra units
        assert not is_solution(lgeo, [0] * 81, values)
        assert not are_solutions(lgeo, np.zeros((1, 81)), np.array([values]))[0]
    latin = Layout.latin(9)
    assert is_solution(parse_string(plain, layout=latin)[0], [0] * 81, values)


def test_clash_names_the_unit():
    x = "1" + "." * 9 + "1" + "." * 70  # r1c1 and r2c2: box 1 first
    with pytest.raises(ClashError, match=r"'1' appears twice in box 1: at r1c1 and r2c2"):
        solve_string(x, layout=Layout.x())
    diag = "1" + "." * 39 + "1" + "." * 40  # r1c1 and r5c5: only diagonal 1
    with pytest.raises(ClashError, match=r"twice in diagonal 1: at r1c1 and r5c5"):
        solve_string(diag, layout=Layout.x())
    assert solve_string(diag.replace("1", "2"), layout=Layout.square(3))  # plain rules: fine
    window = ["."] * 81
    window[1 * 9 + 1] = window[2 * 9 + 3] = "7"  # r2c2 (box 1), r3c4 (box 2): window 1
    with pytest.raises(ClashError, match=r"twice in window 1: at r2c2 and r3c4"):
        solve_string("".join(window), layout=Layout.windoku())
    assert isinstance(solve_many(["".join(window)], layout=Layout.windoku())[0], ClashError)
    assert count_solutions("".join(window), layout=Layout.windoku()) == 0


def test_jigsaw_region_clash_and_names():
    layout = Layout.jigsaw("aaabbbaaabbbcccdddcccdddeeefffeeefff")
    assert layout.side == 6 and layout.labels[-6:] == tuple(f"region {x}" for x in "abcdef")
    puzzle = "1......1" + "." * 28  # r1c1 and r2c2: region a
    with pytest.raises(ClashError, match=r"twice in region a: at r1c1 and r2c2"):
        solve_string(puzzle, layout=layout)
    assert "g05" in to_exact_cover("." * 36, layout=layout).to_dlx().split()


@pytest.mark.parametrize("region_map, message", [
    ("aaaabbbbccccddd", "not an N x N grid"),
    ("aaaabbbbccccddde", "needs 4 regions, the map has 5"),
    ("aaaaabbbccccdddd", "region a has 5 cells, not 4"),
    ("aabbaabbccddccdd", None),
    ("abaabbbaccccdddd", "region a is not connected"),
    ("aabbccddaabbccdd", "region a is not connected"),
])
def test_jigsaw_validation_names_the_region(region_map, message):
    if message is None:
        assert Layout.jigsaw(region_map).side == 4
        return
    with pytest.raises(LayoutError, match=message):
        Layout.jigsaw(region_map)


def test_bad_layouts_and_layout_arguments():
    assert issubclass(LayoutError, sudoku.SudokuError)
    with pytest.raises(LayoutError, match="row 1 must hold 4 distinct cells"):
        Layout(4, ((0, 0, 1, 2),), ("row 1",))
    with pytest.raises(LayoutError):
        Layout.rect(0, 3)
    with pytest.raises(LayoutError):
        Layout.latin(37)
    with pytest.raises(LayoutError):
        Layout.jigsaw(["a"] * 16)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="layout"):
        solve_string("." * 81, layout="x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="layout"):
        solve_many(["." * 81], layout=3)  # type: ignore[arg-type]
    with pytest.raises(ShapeError, match="the layout is 6x6"):
        solve_string("." * 81, layout=Layout.rect(2, 3))
    assert isinstance(solve_many(["." * 81], layout=Layout.rect(2, 3))[0], ShapeError)
    with pytest.raises(ShapeError, match="N in 4, 9"):  # no layout: square sides only
        solve_string("." * 36)
    with pytest.raises(sudoku.AlphabetError, match="the layout needs 6"):
        solve_string("." * 36, layout=Layout.rect(2, 3), alphabet="123456789")
    assert solve_string("." * 36, layout=Layout.rect(2, 3), alphabet="ABCDEF") \
        .startswith("ABCDEF")


def test_board_is_untouched_on_error():
    layout = Layout.x()
    board = [["."] * 9 for _ in range(9)]
    board[0][0] = board[4][4] = "1"  # r1c1 and r5c5 share diagonal 1
    before = [row[:] for row in board]
    with pytest.raises(ClashError, match="diagonal 1"):
        solve(board, layout=layout)
    assert board == before


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4)])
def test_rect_sizes_fill_and_draw(rows, cols):
    layout = Layout.rect(rows, cols)
    side = rows * cols
    answer = solve_string("." * side * side, layout=layout)
    geo, values = parse_string(answer, layout=layout)
    assert is_solution(geo, [0] * side * side, values)
    drawn = sudoku.format_grid(geo, values, pretty=True)
    assert parse_string(drawn, layout=layout)[1] == values
    assert drawn.count("\n") == side - 1 + side // rows - 1


def test_latin_squares():
    for n in (2, 5, 7):
        layout = Layout.latin(n)
        answer = solve_string("." * n * n, layout=layout)
        geo, values = parse_string(answer, layout=layout)
        assert is_solution(geo, [0] * n * n, values)
    assert count_solutions("." * 9, layout=Layout.latin(3)) == 12


# ----- random layouts ----------------------------------------------------------------------


def _grow_regions(side: int, rng: random.Random) -> str | None:
    """A random region map: N seeds grown one free edge-neighbour at a time, the smallest
    region first (None when the growth gets stuck)."""
    owner = [-1] * (side * side)
    for region, cell in enumerate(rng.sample(range(side * side), side)):
        owner[cell] = region
    sizes = [1] * side
    while min(sizes) < side:
        order = sorted(range(side), key=lambda g: (sizes[g], rng.random()))
        for g in order:
            if sizes[g] == side:
                continue
            free = [n for c, o in enumerate(owner) if o == g
                    for n in _neighbours(side, c) if owner[n] == -1]
            if free:
                owner[rng.choice(free)] = g
                sizes[g] += 1
                break
        else:
            return None
    letters = {}
    return "".join(letters.setdefault(o, "abcdefghijklmnop"[len(letters)]) for o in owner)


def _neighbours(side: int, cell: int) -> list[int]:
    r, c = divmod(cell, side)
    return [rr * side + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < side and 0 <= cc < side]


@settings(max_examples=40, deadline=None)
@given(side=st.integers(3, 7), seed=st.integers(0, 2**32 - 1))
def test_random_jigsaws_solve_to_valid_grids(side, seed):
    rng = random.Random(seed)
    region_map = next((m for m in (_grow_regions(side, rng) for _ in range(50)) if m), None)
    if region_map is None:
        return
    layout = Layout.jigsaw(region_map)
    try:
        answer = solve_string("." * side * side, layout=layout)
    except NoSolutionError:  # some region shapes admit no grid at all
        return
    geo, values = parse_string(answer, layout=layout)
    assert is_solution(geo, [0] * side * side, values)
    for name in set(region_map):  # and, independently, each region holds 1..N
        assert sorted(v for v, g in zip(values, region_map) if g == name) == \
            list(range(1, side + 1))


@settings(max_examples=20, deadline=None)
@given(rows=st.integers(1, 4), cols=st.integers(2, 4), seed=st.integers(0, 99))
def test_random_rects_first_solution_is_valid(rows, cols, seed):
    layout = Layout.rect(rows, cols)
    side = rows * cols
    grid = solve_string("." * side * side, layout=layout)
    geo, values = parse_string(grid, layout=layout)
    assert is_solution(geo, [0] * side * side, values)
    rng = random.Random(seed)
    puzzle = "".join(ch if rng.random() < 0.3 else "." for ch in grid)
    assert count_solutions(puzzle, limit=1, layout=layout) == 1


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.sampled_from([Layout.square(2), Layout.rect(2, 3), Layout.x(), Layout.windoku(),
                        Layout.latin(5), Layout.square(4), Layout.square(5)]),
       st.randoms(use_true_random=False), st.integers(0, 4))
def test_both_unit_checks_agree_with_brute_force(layout, rnd, changes):
    """The checker's two ways to test the units (a sum of bit windows up to side 16, the set
    of (unit, value) pairs beyond) against sets, unit by unit, on valid grids with a few
    cells changed to other values in 1..N."""
    side = layout.side
    geo, values = parse_string(solve_string("." * layout.cells, layout=layout), layout=layout)
    perm = list(range(1, side + 1))
    rnd.shuffle(perm)
    values = [perm[v - 1] for v in values]
    for _ in range(changes):
        values[rnd.randrange(len(values))] = rnd.randint(1, side)
    expected = all(len({values[c] for c in unit}) == side for unit in layout.units)
    assert grid_module._units_hold_all(layout, values) is expected
    gather, offsets = grid_module._unit_pairs(layout)
    assert (len(set(map(operator.add, offsets, gather(values)))) == len(offsets)) is expected
    if side <= grid_module.SUM_CHECK_SIDE:
        table, full = grid_module._unit_sums(layout)
        assert (sum(map(operator.getitem, table, values)) == full) is expected
    assert is_solution(geo, [0] * len(values), values) is expected


@pytest.mark.parametrize("cages", [None, 5, 2.5])
def test_killer_without_cages_is_a_layout_error(cages):
    """R6 (issue 32): ``Layout.killer(None)`` raised TypeError."""
    with pytest.raises(LayoutError, match="cages must be an iterable"):
        Layout.killer(cages)  # type: ignore[arg-type]
