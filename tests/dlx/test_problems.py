"""The puzzle builders of :mod:`dlx.problems`: known counts, Knuth's statistics, pictures."""

from __future__ import annotations

import doctest
from collections import Counter
from itertools import product

import pytest

import dlx.problems
from dlx import ExactCover, Status, get_backend
from dlx.problems import (
    PENTOMINOES,
    SATOR,
    langford,
    orientations,
    pentominoes,
    queens,
    rectangle,
    render_langford,
    render_queens,
    render_tiling,
    render_word_rectangle,
    shape,
    tiling,
    word_rectangle,
)
from tests.helpers.datasets import data_dir

DATA = data_dir("exact_cover")


def solve_all(problem: ExactCover, backend: str = "python") -> list[list[int]]:
    """Every solution, each checked independently by ``is_solution``."""
    search = problem.solutions(backend=backend)
    solutions = list(search)
    assert search.stats.status is Status.COMPLETE and problem.stats is search.stats
    assert all(problem.is_solution(s) for s in solutions)
    return solutions


def same_as_file(problem: ExactCover, name: str) -> None:
    """The problem equals the DLX file item for item, option for option (skip if absent)."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} not available")
    expected = ExactCover.from_dlx(path.read_text())
    assert problem.primary == expected.primary
    assert problem.secondary == expected.secondary
    assert list(problem.options()) == list(expected.options())


def test_doctests() -> None:
    assert doctest.testmod(dlx.problems).failed == 0


# ----- queens ---------------------------------------------------------------------------

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]


@pytest.mark.parametrize("n", [
    *range(1, 11),
    *(pytest.param(n, marks=pytest.mark.slow) for n in (11, 12)),
])
def test_queens_count(n: int) -> None:
    solutions = solve_all(queens(n))
    assert len(solutions) == A000170[n - 1]
    for s in solutions[:5]:
        board = render_queens(queens(n), s).splitlines()
        assert [row.count("Q") for row in board] == [1] * n


def test_queens_matches_knuth() -> None:
    """Same encoding as queens8.dlx, hence the same search as Knuth's DLX1."""
    problem = queens(8)
    assert problem.count(backend="python") == 92
    assert (problem.stats.nodes, problem.stats.updates) == (1223, 21456)
    same_as_file(problem, "queens8.dlx")


@pytest.mark.parametrize("n", range(9, 14))
def test_queens_encoding_matches_files(n: int) -> None:
    same_as_file(queens(n), f"queens{n}.dlx")


def test_render_queens() -> None:
    problem = queens(4)
    pictures = {render_queens(problem, s) for s in solve_all(problem)}
    assert pictures == {".Q..\n...Q\nQ...\n..Q.", "..Q.\nQ...\n...Q\n.Q.."}


def test_render_reads_dlx_files() -> None:
    """Renderers need only item names, so they work on the files too."""
    path = DATA / "queens8.dlx"
    if not path.exists():
        pytest.skip(f"{path} not available")
    from_file = ExactCover.from_dlx(path.read_text())
    solution = from_file.first(backend="python")
    assert render_queens(from_file, solution) == render_queens(queens(8), solution)


def test_queens_rejects_bad_size() -> None:
    with pytest.raises(ValueError, match="n must be"):
        queens(0)


# ----- Langford pairs -------------------------------------------------------------------


def is_langford(sequence: list[int]) -> bool:
    positions: dict[int, list[int]] = {}
    for k, v in enumerate(sequence):
        positions.setdefault(v, []).append(k)
    return all(len(p) == 2 and p[1] - p[0] == v + 1 for v, p in positions.items())


@pytest.mark.parametrize(("n", "sym", "expected"), [
    (1, False, 0), (2, False, 0), (3, False, 2), (3, True, 1), (4, True, 1),
    (7, True, 26), (7, False, 52), (8, True, 150), (8, False, 300),
    pytest.param(11, True, 17_792, marks=pytest.mark.slow),
])
def test_langford_count(n: int, sym: bool, expected: int) -> None:
    problem = langford(n, sym=sym)
    solutions = solve_all(problem)
    assert len(solutions) == expected
    sample = solutions if len(solutions) <= 1000 else solutions[::50]
    sequences = [[int(v) for v in render_langford(problem, s).split()] for s in sample]
    assert all(is_langford(seq) and sorted(seq) == sorted(2 * list(range(1, n + 1)))
               for seq in sequences)
    assert len(set(map(tuple, sequences))) == len(sample)
    if not sym:  # every sequence together with its reversal
        assert {tuple(s[::-1]) for s in sequences} == set(map(tuple, sequences))


def test_render_langford() -> None:
    problem = langford(3, sym=True)
    assert render_langford(problem, problem.first()) == "3 1 2 1 3 2"


@pytest.mark.parametrize(("n", "sym"), [(7, False), (7, True), (8, False), (11, True),
                                        (12, False)])
def test_langford_encoding_matches_files(n: int, sym: bool) -> None:
    same_as_file(langford(n, sym=sym), f"langford{n}{'_sym' if sym else ''}.dlx")


def test_langford_matches_knuth() -> None:
    problem = langford(8, sym=True)
    assert problem.count(backend="python") == 150
    assert (problem.stats.nodes, problem.stats.updates) == (1681, 22929)


# ----- polyomino tilings ----------------------------------------------------------------


def test_pentomino_orientations() -> None:
    counts = {name: len(orientations(cells)) for name, cells in PENTOMINOES.items()}
    assert counts == dict(F=8, I=2, L=8, N=8, P=8, T=4, U=4, V=4, W=4, X=1, Y=8, Z=4)
    one_sided = {name: len(orientations(cells, reflect=False))
                 for name, cells in PENTOMINOES.items()}
    assert one_sided == dict(F=4, I=2, L=4, N=4, P=4, T=4, U=4, V=4, W=4, X=1, Y=4, Z=2)
    assert all(len(cells) == 5 for cells in PENTOMINOES.values())


def test_orientation_order() -> None:
    """Rotations clockwise, then the mirror image's: the order behind SOURCES.md's files."""
    assert orientations(shape("##/#.")) == [
        ((0, 0), (0, 1), (1, 0)), ((0, 0), (0, 1), (1, 1)),
        ((0, 1), (1, 0), (1, 1)), ((0, 0), (1, 0), (1, 1)),
    ]


@pytest.fixture(scope="module")
def pentomino_3x20() -> tuple[ExactCover, list[list[int]]]:
    problem = pentominoes(3, 20)
    return problem, solve_all(problem)


def test_pentomino_3x20(pentomino_3x20: tuple[ExactCover, list[list[int]]]) -> None:
    """8 tilings, 2 up to symmetry; the search is exactly DLX1's on pentomino_3x20.dlx."""
    problem, solutions = pentomino_3x20
    assert len(solutions) == 8
    assert (problem.stats.nodes, problem.stats.updates) == (32_978, 10_986_975)
    pictures = {render_tiling(problem, s) for s in solutions}
    assert len(pictures) == 8
    flips = {p: {"\n".join(row[::-1] for row in p.splitlines()),
                 "\n".join(p.splitlines()[::-1])} for p in pictures}
    assert all(f <= pictures for f in flips.values())
    for picture in pictures:
        rows = picture.splitlines()
        assert [len(r) for r in rows] == [20, 20, 20]
        assert Counter("".join(rows)) == dict.fromkeys(PENTOMINOES, 5)


@pytest.mark.parametrize(("args", "name"), [
    ((3, 20), "pentomino_3x20.dlx"), ((6, 10), "pentomino_6x10.dlx"),
    ((6, 10, True), "pentomino_6x10_sym.dlx"),
])
def test_pentomino_encoding_matches_files(args: tuple, name: str) -> None:
    same_as_file(pentominoes(*args[:2], sym=len(args) > 2), name)


def test_scott_board_matches_file() -> None:
    """Any board: Dana Scott's 8 x 8 without its centre 2 x 2, Knuth's 1,568 options."""
    board = [(r, c) for r, c in rectangle(8, 8) if not (3 <= r <= 4 and 3 <= c <= 4)]
    problem = tiling(board)
    assert len(problem) == 1568
    same_as_file(problem, "pentomino_scott8x8.dlx")


def test_pentomino_sym_keeps_x_in_a_quadrant() -> None:
    problem = pentominoes(6, 10, sym=True)
    x_options = [o for o in problem.options() if o[0] == "X"]
    assert len(problem) == 2032
    assert len(x_options) == 8
    assert {o[3] for o in x_options} == {"11", "12", "13", "14", "21", "22", "23", "24"}


@pytest.mark.slow
def test_pentomino_6x10_sym_numba() -> None:
    """Haselgrove's 2,339 tilings of the 6 x 10 rectangle, up to symmetry."""
    try:
        get_backend("numba")
    except ImportError as e:
        pytest.skip(str(e))
    problem = pentominoes(6, 10, sym=True)
    assert problem.count(backend="numba") == 2339
    assert problem.stats.status is Status.COMPLETE and problem.stats.backend == "numba"
    assert (problem.stats.nodes, problem.stats.updates) == (909_153, 310_816_489)


def test_pentomino_sym_with_an_odd_side() -> None:
    """3 x 20: X's centre is always on the middle row, so only one mirror is broken."""
    problem = pentominoes(3, 20, sym=True)
    assert len(problem) == 1236 - 18 + 9
    with pytest.raises(ValueError, match="60 cells"):
        pentominoes(6, 11)


def test_render_tiling_small() -> None:
    board = tiling(rectangle(2, 3), {"A": shape("##/#."), "B": shape("##/.#")})
    pictures = {render_tiling(board, s) for s in solve_all(board)}
    assert pictures == {"AAB\nABB", "ABB\nAAB", "BAA\nBBA", "BBA\nBAA"}


def test_render_tiling_holes_and_long_names() -> None:
    board = [(0, 0), (0, 1), (0, 3), (1, 3)]  # a gap at (0, 2), nothing at (1, 0..2)
    problem = tiling(board, {"ab": shape("##"), "c": shape("#/#")})
    assert render_tiling(problem, problem.first()) == "ab ab    c\n         c"


def test_large_board_cell_names() -> None:
    problem = tiling(rectangle(1, 40), {"I": shape("#" * 40)}, reflect=False)
    assert problem.primary[1:3] == ["0_0", "0_1"]
    assert render_tiling(problem, problem.first()) == "I" * 40


def test_tiling_rejects_clashing_names() -> None:
    with pytest.raises(ValueError, match="also the name of a cell"):
        tiling(rectangle(1, 2), {"01": shape("##")})


# ----- word rectangles (colors) ---------------------------------------------------------

WORDS3 = ["ace", "act", "ant", "ape", "apt", "arc", "art", "ate", "bat", "cab", "car", "cat",
          "eat", "era", "ice", "nap", "net", "pan", "pat", "pea", "pet", "rat", "tab", "tan",
          "tap", "tar", "tea", "ten", "tin", "pit"]
WORDS2 = ["an", "at", "be", "no", "on", "to", "ta", "pa", "it", "in", "ti", "ah", "ha"]


def brute_force(rows: list[str], columns: list[str], distinct: bool) -> set[str]:
    """Every grid whose rows are in ``rows`` and columns in ``columns``, by enumeration."""
    found = set()
    for grid in product(rows, repeat=len(columns[0])):
        cols = ["".join(w[j] for w in grid) for j in range(len(rows[0]))]
        if all(c in columns for c in cols) and (
                not distinct or len(set(grid) | set(cols)) == len(grid) + len(cols)):
            found.add("\n".join(grid))
    return found


def test_sator_square() -> None:
    """The Sator square and its reversal are the only squares on its five words."""
    problem = word_rectangle(SATOR)
    assert problem.secondary[:2] == ["p00", "p01"]
    pictures = [render_word_rectangle(problem, s) for s in solve_all(problem)]
    assert sorted(pictures) == ["rotas\nopera\ntenet\narepo\nsator",
                                "sator\narepo\ntenet\nopera\nrotas"]
    # it is symmetric (each word is both a row and a column), so no double word square
    assert word_rectangle(SATOR, distinct=True).count(backend="python") == 0


@pytest.mark.parametrize("distinct", [False, True])
def test_word_squares_by_brute_force(distinct: bool) -> None:
    problem = word_rectangle(WORDS3, distinct=distinct)
    pictures = {render_word_rectangle(problem, s) for s in solve_all(problem)}
    expected = brute_force(WORDS3, WORDS3, distinct)
    assert pictures == expected
    assert len(expected) > 0
    assert {"\n".join(map("".join, zip(*p.splitlines()))) for p in pictures} == pictures


def test_word_rectangle_by_brute_force() -> None:
    problem = word_rectangle(WORDS3, WORDS2)
    pictures = {render_word_rectangle(problem, s) for s in solve_all(problem)}
    assert pictures == brute_force(WORDS3, WORDS2, False)
    assert all(len(p.splitlines()) == 2 for p in pictures) and pictures


def test_word_rectangle_rejects_bad_words() -> None:
    with pytest.raises(ValueError, match="different lengths"):
        word_rectangle(["ab", "abc"])
    with pytest.raises(ValueError, match="alphabetic"):
        word_rectangle(["a:"])
