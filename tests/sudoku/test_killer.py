"""Killer Sudoku: cages in the layout (``Layout.killer``), in the exact cover, in the checker.

* the first puzzles of each killer file of ``../shared/data/sudoku_variants`` (skipped when
  absent) solve to their published solutions on the python and numba backends, one at a
  time and in a batch, and a sample is unique;
* the checker catches a cage whose sum is off and a cage that repeats a value;
* every bad cage is a LayoutError naming it;
* random cages grown on a solved grid (hypothesis) keep that grid as a solution.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku import (
    Layout,
    LayoutError,
    count_solutions,
    parse_string,
    solve_many,
    solve_string,
    to_exact_cover,
)
from sudoku.formats import read_variant
from sudoku.grid import are_solutions, is_solution
from sudoku.reduction import remainders
from tests.helpers.backends import BACKENDS

VARIANTS = Path(__file__).resolve().parents[3] / "shared/data/sudoku_variants"
SAMPLE = 20
LABELS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
FILES = {  # file -> box shape (rows, cols)
    "killer_janko_9x9.txt": (3, 3),
    "killer_krazydad_9x9.txt": (3, 3),
    "killer_janko_2x3_6x6.txt": (2, 3),
    "killer_janko_2x2_4x4.txt": (2, 2),
}


def killer_layout(line: str, block: tuple[int, int]) -> Layout:
    """A line ``CAGEMAP SUMS`` (see SOURCES.md) as a layout; the test's own small reader."""
    cage_map, sums = line.split()[:2]
    cells: dict[int, list[int]] = {}
    for cell, label in enumerate(cage_map):
        cells.setdefault(LABELS.index(label), []).append(cell)
    return Layout.killer([(cells[i], int(s)) for i, s in enumerate(sums.split(","))], block)


def _puzzles(name: str) -> list[tuple[Layout, str]]:
    """The first SAMPLE (layout, published solution) pairs of a killer file."""
    path = VARIANTS / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    lines = path.read_text().splitlines()[:SAMPLE]
    answers = (VARIANTS / "solutions" / name).read_text().splitlines()[:SAMPLE]
    return [(killer_layout(line, FILES[name]), answer) for line, answer in zip(lines, answers)]


# ----- published puzzles --------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow) if name == "killer_krazydad_9x9.txt" else name
    for name in sorted(FILES)])
def test_published_killers_solve(name: str, backend: str) -> None:
    for layout, answer in _puzzles(name):
        empty = "." * layout.cells
        assert solve_string(empty, layout=layout, backend=backend) == answer
        assert solve_many([empty], layout=layout, unique=True, backend=backend) == [answer]


@pytest.mark.parametrize("name", sorted(FILES))
def test_published_killers_are_unique(name: str) -> None:
    for layout, _ in _puzzles(name)[:5]:
        assert count_solutions("." * layout.cells, layout=layout, limit=2) == 1


def test_exact_cover_of_a_killer() -> None:
    """Cell options first (cell * N + value - 1), then one filling option per set of values:
    a 4x4 with cages {r1c1, r1c2} = 3 (only {1, 2}) and {r1c3} = 4, then the units'
    remainders (r1c4 = 3; box 1 less the first cage, {r2c1, r2c2} = 7: {3, 4}; column 3
    and box 2 less the second cage, 6: {1, 2, 3}), one filling each."""
    layout = Layout.killer([((0, 1), 3), ((2,), 4)], (2, 2))
    assert sorted(remainders(layout)) == [((3,), 3), ((3, 6, 7), 6), ((4, 5), 7),
                                          ((6, 10, 14), 6)]
    problem = to_exact_cover("." * 16, layout=layout)
    assert problem.first() is not None
    assert len(list(problem.options())) == 64 + 2 + 4
    assert layout != Layout.rect(2, 2) and hash(layout) == hash(
        Layout.killer([([1, 0], 3), ([2], 4)], (2, 2)))
    grid = solve_string("." * 16, layout=layout)
    assert sorted(grid[:2]) == ["1", "2"] and grid[2] == "4"


def test_unit_remainders_cut_the_search() -> None:
    """Line 290 of the janko 9x9 killers: 2,733,148 nodes to count 2 (python) when only the
    cages were encoded, 8,326 with the units' remainders (the "45 rule")."""
    path = VARIANTS / "killer_janko_9x9.txt"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    layout, givens = read_variant(path.read_text().splitlines()[289], "killer", block=(3, 3))
    problem = to_exact_cover(givens, layout=layout)
    assert problem.count(limit=2, backend="python") == 1
    assert problem.stats.nodes < 20_000


def test_remainders_need_cages() -> None:
    """A plain layout implies no sums; a cage as large as a unit leaves no remainder."""
    assert remainders(Layout.rect(2, 2)) == ()
    assert remainders(Layout.killer([((0, 1, 2, 3), 10)], (2, 2))) == ()


# ----- the checker --------------------------------------------------------------------------


def test_checker_sees_a_broken_cage() -> None:
    layout, answer = _puzzles("killer_janko_9x9.txt")[0]
    geo, values = parse_string(answer, layout=layout)
    blank = [0] * layout.cells
    assert is_solution(geo, blank, values)
    # a sum off by one: a cage of two cells whose total + 1 is still reachable
    cage = next(k for k, (c, t) in enumerate(layout.cages) if len(c) == 2 and t < 17)
    off = Layout.killer([(c, t + (k == cage)) for k, (c, t) in enumerate(layout.cages)])
    # a repeated value: two cells holding 5 (in no common unit) as one cage of total 10
    fives = [c for c in range(layout.cells) if values[c] == 5]
    twice = Layout.killer([((fives[0], fives[1]), 10)])
    batch = np.array([values, values])
    assert are_solutions(geo, np.zeros_like(batch), batch).all()
    for broken in (off, twice):
        geo_broken, _ = parse_string(answer, layout=broken)
        assert not is_solution(geo_broken, blank, values)
        assert not are_solutions(geo_broken, np.zeros_like(batch), batch).any()


# ----- bad cages ----------------------------------------------------------------------------


@pytest.mark.parametrize(("cages", "message"), [
    ([((0, 1), 3), ((), 5)], "cage 2 has no cells"),
    ([(tuple(range(10)), 45)], "cage 1 at r1c1 has 10 cells, more than 9"),
    ([((20, 81), 10)], "cage 1 at r3c3: cell 81 is outside the 9x9 grid"),
    ([((-1, 5), 10)], "cage 1: cell -1 is outside"),
    ([((0, 1), 3), ((1, 2), 3)], "cage 2 at r1c2: r1c2 is in cage 1 too"),
    ([((0, 1), 3), ((24, 25), 2)], "cage 2 at r3c7: no 2 distinct values 1..9 add up to 2"),
    ([((24, 25), 18)], "cage 1 at r3c7: no 2 distinct values 1..9 add up to 18"),
    ([((24,), 0)], "cage 1 at r3c7: no 1 distinct values 1..9 add up to 0"),
    ([((0, 1), "3")], "cage 1 must hold int cells and an int total"),
    ([5], "cage 1 must be a (cells, total) pair"),
])
def test_bad_cages_name_the_cage(cages: list, message: str) -> None:
    with pytest.raises(LayoutError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Layout.killer(cages)


def test_cages_need_not_cover_the_grid() -> None:
    layout = Layout.killer([((0, 1, 9), 6)])
    grid = solve_string("." * 81, layout=layout)
    assert sorted(grid[i] for i in (0, 1, 9)) == ["1", "2", "3"]


# ----- random cages on a solved grid --------------------------------------------------------


def _random_cages(side: int, grid: list[int], seed: int) -> list[tuple[list[int], int]]:
    """The cells of a grid cut into random connected groups of 1..4 cells, the sums
    taken from ``grid`` (a group grows only onto values it does not hold yet)."""
    rng = random.Random(seed)
    free = set(range(side * side))
    cages = []
    for start in rng.sample(range(side * side), side * side):
        if start not in free:
            continue
        cage, size = [start], rng.randint(1, 4)
        free.discard(start)
        while len(cage) < size:
            r, c = divmod(rng.choice(cage), side)
            steps = [(r + dr) * side + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                     if 0 <= r + dr < side and 0 <= c + dc < side]
            steps = [k for k in steps if k in free
                     and grid[k] not in {grid[j] for j in cage}]
            if not steps:
                break
            k = rng.choice(steps)
            cage.append(k)
            free.discard(k)
        cages.append((cage, sum(grid[k] for k in cage)))
    return cages


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3)]), st.integers(0, 2**32 - 1))
def test_random_cages_keep_their_grid(block: tuple[int, int], seed: int) -> None:
    rows, cols = block
    side = rows * cols
    base = Layout.rect(rows, cols)
    digits = "123456789"[:side]
    # a random solved grid: the first solution of the empty grid, its digits relabelled
    first = solve_string("." * side * side, layout=base)
    rng = random.Random(seed)
    relabel = dict(zip(digits, rng.sample(digits, side)))
    grid = [int(relabel[ch]) for ch in first]
    layout = Layout.killer(_random_cages(side, grid, seed), block)
    geo, values = parse_string("".join(map(str, grid)), layout=layout)
    assert is_solution(geo, [0] * side * side, values)
    assert are_solutions(geo, np.zeros((1, side * side)), np.array([values])).all()
    answer = solve_string("." * side * side, layout=layout, backend="numba")
    _, found = parse_string(answer, layout=layout)
    assert is_solution(geo, [0] * side * side, found)
    # the grid itself, every cell given, is a solution of the exact cover (exactly one)
    assert count_solutions("".join(map(str, grid)), layout=layout, backend="python") == 1


def test_public_reader_agrees_with_this_one():
    """sudoku.formats.read_variant and this test's own reader build the same layout, with
    all cells blank, for every line of every killer file (two readers, written apart)."""
    from sudoku.formats import read_variant

    for name, block in FILES.items():
        path = VARIANTS / name
        if not path.exists():
            pytest.skip(f"{path} is not here")
        for line in path.read_text().splitlines():
            layout, givens = read_variant(line, "killer", block=block)
            assert layout == killer_layout(line, block) and set(givens) == {"."}
