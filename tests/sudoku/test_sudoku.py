"""The Sudoku adapter: in-place solving in every board kind and size, real puzzle sets checked
against reference answers, every error with the board left untouched, the exact-cover
reduction, the shipped puzzles and the generator."""

from __future__ import annotations

import copy
import random
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku
from dlx import get_backend
from sudoku import (
    ArgumentError,
    ClashError,
    MultipleSolutionsError,
    NoSolutionError,
    ReadOnlyError,
    SearchStoppedError,
    ShapeError,
    SudokuError,
    SymbolError,
    count_solutions,
    format_grid,
    parse_board,
    parse_string,
    solve,
    solve_string,
    to_exact_cover,
)
from sudoku.generate import generate, random_grid
from sudoku.grid import is_solution
from sudoku.named import load_named, read_lines

DATA = Path(__file__).resolve().parents[3] / "shared/data/sudoku"

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LEET_ANSWER = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
INKALA_ANSWER = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def _numba_usable() -> bool:
    try:
        get_backend("numba")
    except ImportError:
        return False
    return True


FAST = "numba" if _numba_usable() else "python"
"""Backend for the long searches: numba when the compiled kernel can be loaded (``auto``
keeps 9x9 problems on python, which is 30x slower at counting Serg's puzzles)."""


def rows_of(text: str, kind: str = "str"):
    """A one-line puzzle as a board of the given kind: 'str' lists, 'int' lists or numpy."""
    geo, values = parse_string(text)
    side = geo.side
    if kind == "str":
        return [list(text[r * side : (r + 1) * side]) for r in range(side)]
    ints = [values[r * side : (r + 1) * side] for r in range(side)]
    return np.array(ints, dtype=np.int64) if kind == "numpy" else ints


def board_text(board) -> str:
    """A solved or unsolved board of any kind back to one line."""
    geo, values, _ = parse_board(board)
    return format_grid(geo, values)


def puzzle_set(name: str, n: int | None = None) -> tuple[list[str], list[str]]:
    """The first ``n`` puzzles of a shared set and their reference answers (skip if absent)."""
    path = DATA / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"shared data {path} not available")
    puzzles = path.read_text().split()[:n]
    answers_path = DATA / "solutions" / f"{name}.txt"
    answers = answers_path.read_text().split()[:n] if answers_path.exists() else []
    return puzzles, answers


# ----- LeetCode 37: the board kinds, solved in place --------------------------------------


def test_leetcode_solved_in_place():
    board = rows_of(LEETCODE)
    rows = list(board)
    assert solve(board) is board
    assert all(a is b for a, b in zip(board, rows))  # the same row lists, filled in
    assert "".join("".join(row) for row in board) == LEET_ANSWER
    assert all(isinstance(ch, str) for row in board for ch in row)


def test_leetcode_solution_class():
    board = rows_of(LEETCODE)
    rows = list(board)
    assert sudoku.Solution().solveSudoku(board) is None
    assert all(a is b for a, b in zip(board, rows))
    assert "".join(map("".join, board)) == LEET_ANSWER


def test_lists_of_ints():
    board = rows_of(LEETCODE, "int")
    assert solve(board) is board
    assert board[0] == [5, 3, 4, 6, 7, 8, 9, 1, 2]
    assert all(type(v) is int for row in board for v in row)
    assert board_text(board) == LEET_ANSWER


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int16])
def test_numpy_written_in_place(dtype):
    board = rows_of(LEETCODE, "numpy").astype(dtype)
    assert solve(board) is board
    assert board.dtype == dtype
    expected = np.array([int(ch) for ch in LEET_ANSWER]).reshape(9, 9)
    np.testing.assert_array_equal(board, expected)


def test_numpy_view_written_through():
    base = rows_of(LEETCODE, "numpy").T.copy()
    solve(base.T)  # a non-contiguous view: the solution lands in ``base``
    assert board_text(base.T.copy()) == LEET_ANSWER


def test_solve_string_forms():
    assert solve_string(LEETCODE) == LEET_ANSWER
    assert solve_string(LEETCODE.replace(".", "0")) == LEET_ANSWER
    spaced = "\n".join(LEETCODE[r * 9 : r * 9 + 9] for r in range(9))
    assert solve_string(spaced) == LEET_ANSWER


def test_solve_string_norvig_drawn_grid():
    drawn = """
    5 3 . |. 7 . |. . .
    6 . . |1 9 5 |. . .
    . 9 8 |. . . |. 6 .
    ------+------+------
    8 . . |. 6 . |. . 3
    4 . . |8 . 3 |. . 1
    7 . . |. 2 . |. . 6
    ------+------+------
    . 6 . |. . . |2 8 .
    . . . |4 1 9 |. . 5
    . . . |. 8 . |. 7 9
    """
    assert solve_string(drawn) == LEET_ANSWER
    assert solve_string(drawn.replace(".", "0")) == LEET_ANSWER


def test_pretty_grid_reads_back():
    geo, values = parse_string(LEET_ANSWER)
    assert parse_string(format_grid(geo, values, pretty=True)) == (geo, values)


def test_pretty_grid_rules_line_up():
    geo, values = parse_string(LEET_ANSWER)
    lines = format_grid(geo, values, pretty=True).splitlines()
    bars = [k for k, ch in enumerate(lines[0]) if ch == "|"]
    crosses = [k for k, ch in enumerate(lines[3]) if ch == "+"]
    assert bars == crosses
    assert len(lines[3]) == len(lines[0])


# ----- real puzzle sets -------------------------------------------------------------------


@pytest.mark.parametrize("name, n", [
    ("norvig_hardest", None),
    ("norvig_top95", None),
    ("euler96_easy50", None),
    ("gecode_9x9", None),
    ("magictour_top1465", 200),
])
def test_puzzle_sets_match_reference_answers(name, n):
    puzzles, answers = puzzle_set(name, n)
    assert len(puzzles) == len(answers) > 0
    backend = FAST if len(puzzles) > 100 else "auto"
    for k, (puzzle, answer) in enumerate(zip(puzzles, answers), 1):
        got = solve_string(puzzle, backend=backend)
        assert got == answer, f"{name} line {k}"
        geo, values = parse_string(puzzle)
        assert is_solution(geo, values, parse_string(got)[1]), f"{name} line {k}"


def test_serg_benchmark_counts():
    puzzles, _ = puzzle_set("serg_benchmark", 300)
    counts = (DATA / "serg_benchmark_counts.txt").read_text().split()[:300]
    got = [count_solutions(p, backend=FAST) for p in puzzles]
    assert got == [int(c) for c in counts]


def test_gecode_16x16():
    puzzles, answers = puzzle_set("gecode_16x16")
    for k, (puzzle, answer) in enumerate(zip(puzzles, answers), 1):
        got = solve_string(puzzle)  # 2-5 ms each in pure Python
        assert got == answer, f"gecode_16x16 line {k}"
        geo, values = parse_string(puzzle)
        assert geo.side == 16 and is_solution(geo, values, parse_string(got)[1])


def test_16x16_custom_alphabet():
    puzzles, answers = puzzle_set("gecode_16x16", 3)
    alphabet = "0123456789ABCDEF"
    default = sudoku.DEFAULT_SYMBOLS[:16]
    to_custom = str.maketrans(default, alphabet)
    for puzzle, answer in zip(puzzles, answers):
        custom = puzzle.translate(to_custom)
        assert "0" in custom  # '0' is a symbol now, so only '.' is blank
        assert solve_string(custom, alphabet=alphabet, backend=FAST) == answer.translate(to_custom)
        board = [list(custom[r * 16 : (r + 1) * 16]) for r in range(16)]
        solve(board, alphabet=alphabet, backend=FAST)
        assert "".join(map("".join, board)) == answer.translate(to_custom)
    with pytest.raises(SymbolError, match="r1c"):  # 'G' is not in the custom alphabet
        solve_string(puzzles[0], alphabet=alphabet)


def test_shipped_generated_16x16():
    text = resources.files("sudoku").joinpath("data/generated_16x16.txt").read_text()
    puzzles = [p for _, p in read_lines(text)]
    assert len(puzzles) == 10
    for puzzle in puzzles:
        geo, values = parse_string(puzzle)
        assert geo.side == 16
        assert count_solutions(puzzle, 2, backend=FAST) == 1
        assert is_solution(geo, values, parse_string(solve_string(puzzle, backend=FAST))[1])
    # as its header says, line k + 1 is generate(16, seed=k, max_nodes=2000)
    assert generate(16, seed=8, max_nodes=2000, backend=FAST) == puzzles[8]


def test_25x25_generated():
    """An easy 25x25: a generated grid with 40% of its cells blanked (half is sometimes
    a minute of search in pure Python)."""
    grid = random_grid(5, seed=3, backend=FAST)
    geo, full = parse_string(grid)
    assert geo.side == 25 and is_solution(geo, full, full)
    rng = random.Random(0)
    puzzle = list(full)
    for cell in rng.sample(range(geo.cells), geo.cells * 2 // 5):
        puzzle[cell] = 0
    board = np.array(puzzle).reshape(25, 25)
    solve(board, backend=FAST)
    assert is_solution(geo, puzzle, board.ravel().tolist())


def test_4x4():
    assert count_solutions("." * 16) == 288
    assert count_solutions([[0] * 4 for _ in range(4)], limit=10) == 10
    board = [["1", ".", ".", "."], [".", ".", "3", "."], [".", "4", ".", "."], [".", ".", ".", "2"]]
    solve(board, unique=True)
    assert board_text(board) == "1324423124133142"


# ----- the shipped named puzzles ----------------------------------------------------------

NAMED_COUNTS = {  # count_solutions(limit=2): 1 = unique
    "inkala-2012": 1, "ai-escargot": 1, "platinum-blonde": 1, "golden-nugget": 1,
    "easter-monster": 1, "anti-brute-force": 1, "leetcode-37": 1, "norvig-hard1": 2,
}


def test_load_named():
    named = load_named()
    assert set(named) == set(NAMED_COUNTS)
    assert named["leetcode-37"] == LEETCODE
    named.clear()  # a fresh dict each time
    assert load_named()


@pytest.mark.parametrize("name", sorted(NAMED_COUNTS))
def test_named_puzzles(name):
    puzzle = load_named()[name]
    geo, values = parse_string(puzzle)
    answer = solve_string(puzzle)
    assert is_solution(geo, values, parse_string(answer)[1])
    assert count_solutions(puzzle, limit=2) == NAMED_COUNTS[name]
    if name == "inkala-2012":
        assert answer == INKALA_ANSWER


def test_named_puzzles_in_shared_sets():
    """Provenance: the forum puzzles are where named.txt says they are."""
    path = DATA / "forum_hardest_1106.txt"
    if not path.exists():
        pytest.skip("shared data not available")
    lines = path.read_text().split()
    named = load_named()
    assert lines[77 - 1] == named["platinum-blonde"]
    assert lines[57 - 1] == named["golden-nugget"]
    assert lines[90 - 1] == named["easter-monster"]
    assert (DATA / "norvig_hardest.txt").read_text().split()[6 - 1] == named["ai-escargot"]


# ----- errors: clear messages, ValueError, the board untouched ------------------------------


def _empty_with(side: int = 9, **cells: str) -> str:
    """An empty grid with givens named like r1c3='5'."""
    chars = ["."] * side * side
    for where, ch in cells.items():
        r, c = map(int, re.fullmatch(r"r(\d+)c(\d+)", where).groups())
        chars[(r - 1) * side + c - 1] = ch
    return "".join(chars)


UNSOLVABLE = "12345678." + _empty_with(r1c9=".", r2c9="9")[9:]
"""Row 1 needs its 9 at r1c9, but column 9 already has one at r2c9: no clash, no solution."""

BAD_PUZZLES = [  # (one-line puzzle, error, message pattern)
    (_empty_with(r1c1="5", r1c9="5"), ClashError, r"'5' appears twice in row 1: at r1c1 and r1c9"),
    (_empty_with(r1c1="5", r9c1="5"), ClashError,
     r"'5' appears twice in column 1: at r1c1 and r9c1"),
    (_empty_with(r4c4="7", r6c5="7"), ClashError, r"'7' appears twice in box 5: at r4c4 and r6c5"),
    (LEETCODE[:2] + "5" + LEETCODE[3:], ClashError,
     r"'5' appears twice in row 1: at r1c1 and r1c3"),
    (UNSOLVABLE, NoSolutionError, r"no solution"),
    (load_named()["norvig-hard1"], MultipleSolutionsError, r"more than one solution"),
]


@pytest.mark.parametrize("kind", ["str", "int", "numpy"])
@pytest.mark.parametrize("puzzle, error, pattern", BAD_PUZZLES)
def test_unsolvable_boards_unchanged(kind, puzzle, error, pattern):
    board = rows_of(puzzle, kind)
    before = copy.deepcopy(board)
    with pytest.raises(error, match=pattern) as info:
        solve(board, unique=True)
    assert isinstance(info.value, ValueError) and isinstance(info.value, SudokuError)
    if kind == "numpy":
        assert np.array_equal(board, before)
    else:
        assert board == before
    with pytest.raises(error, match=pattern):
        solve_string(puzzle, unique=True)


def test_unsolvable_has_zero_solutions():
    assert count_solutions(UNSOLVABLE) == 0
    assert count_solutions(BAD_PUZZLES[0][0]) == 0  # clashing givens count as none


def _bad_shapes():
    good = rows_of(LEETCODE)
    short_row = copy.deepcopy(good)
    del short_row[2][4]
    bad_symbol = copy.deepcopy(good)
    bad_symbol[2][6] = "x"
    bad_int = rows_of(LEETCODE, "int")
    bad_int[2][6] = 10
    bad_np = rows_of(LEETCODE, "numpy")
    bad_np[2, 6] = -1
    return [
        (good[:8], ShapeError, r"N x N"),
        (short_row, ShapeError, r"row 3 .*9 cells"),
        ([["."] * 10 for _ in range(10)], ShapeError, r"side 10"),
        ([[0] * 9 for _ in range(8)] + [[0] * 8], ShapeError, r"row 9"),
        (np.zeros((9, 8), dtype=int), ShapeError, r"shape"),
        (np.zeros((10, 10), dtype=int), ShapeError, r"side 10"),
        (LEETCODE, ShapeError, r"solve_string"),
        (42, ShapeError, r"list of rows"),
        (bad_symbol, SymbolError, r"'x' at r3c7"),
        (bad_int, SymbolError, r"10 at r3c7"),
        (bad_np, SymbolError, r"-1 at r3c7"),
        (np.full((9, 9), 0.5), SymbolError, r"0.5 at r1c1"),  # whole floats are accepted
        (np.zeros((9, 9), dtype=complex), SymbolError, r"dtype complex"),
        ([[True] * 9 for _ in range(9)], SymbolError, r"r1c1"),
    ]


@pytest.mark.parametrize("board, error, pattern", _bad_shapes())
def test_bad_boards_unchanged(board, error, pattern):
    before = copy.deepcopy(board)
    with pytest.raises(error, match=pattern) as info:
        solve(board)
    assert isinstance(info.value, ValueError)
    if isinstance(board, np.ndarray):
        assert np.array_equal(board, before)
    else:
        assert board == before


@pytest.mark.parametrize("text, error, pattern", [
    (LEETCODE[:-1], ShapeError, r"80 cells"),
    (LEETCODE[:40] + "x" + LEETCODE[41:], SymbolError, r"'x' at r5c5"),
    ("." * 100, ShapeError, r"side 10"),
    ("", ArgumentError, r"blank line"),
])
def test_bad_strings(text, error, pattern):
    with pytest.raises(error, match=pattern):
        solve_string(text)
    with pytest.raises(error, match=pattern):
        count_solutions(text)


def test_budgets_stop_cleanly():
    board = rows_of(load_named()["inkala-2012"])
    before = copy.deepcopy(board)
    with pytest.raises(SearchStoppedError, match="max_nodes"):
        solve(board, max_nodes=5)
    with pytest.raises(SearchStoppedError, match="timeout"):
        solve(board, timeout=1e-9)
    assert board == before
    with pytest.raises(SearchStoppedError):
        count_solutions("." * 81, max_nodes=100)
    with pytest.raises(ValueError, match="backend"):
        solve_string(LEETCODE, backend="nope")


def test_full_grids():
    assert solve_string(LEET_ANSWER, unique=True) == LEET_ANSWER
    assert count_solutions(LEET_ANSWER) == 1
    with pytest.raises(ClashError):
        solve_string(LEET_ANSWER[1:] + LEET_ANSWER[0])


def test_tuple_rows_are_not_written():
    """Rows must be mutable; a board of tuples is refused and left as it was."""
    board = [tuple(row) for row in rows_of(LEETCODE)]
    before = list(board)
    with pytest.raises(ReadOnlyError, match="row 1 is a tuple"):
        solve(board)
    assert board == before


def test_aliased_rows_refused():
    """``[[0] * 9] * 9`` is nine times one row: solving it in place cannot work."""
    board = [[0] * 9] * 9
    with pytest.raises(ShapeError, match="distinct"):
        solve(board)
    assert board == [[0] * 9 for _ in range(9)]


# ----- counting and the reduction ---------------------------------------------------------


def test_count_solutions_limits():
    hard1 = load_named()["norvig-hard1"]
    assert count_solutions(hard1, limit=1) == 1
    assert count_solutions(hard1, limit=50) == 50
    assert count_solutions(LEETCODE) == 1
    assert count_solutions(rows_of(LEETCODE, "numpy"), limit=5) == 1
    assert count_solutions(rows_of(LEETCODE, "int")) == 1
    assert count_solutions("." * 16, limit=1000) == 288
    assert count_solutions("." * 16, limit=1000, timeout=60) == 288  # the sliced search
    assert count_solutions("1.1" + "." * 13) == 0  # clashing givens
    for timeout in (None, 60):
        with pytest.raises(ValueError, match="limit must be at least 1"):
            count_solutions(LEETCODE, limit=0, timeout=timeout)
    with pytest.raises(SearchStoppedError, match="max_nodes"):
        count_solutions(hard1, max_nodes=5)


def test_to_exact_cover_empty_9x9():
    problem = to_exact_cover("." * 81)
    assert len(problem) == 729
    assert len(problem.items) == len(problem.primary) == 324 and not problem.secondary
    m = problem.to_matrix()
    assert m.shape == (729, 324)
    assert (m.sum(axis=1) == 4).all() and (m.sum(axis=0) == 9).all()
    assert problem.option(0) == ["p00", "r00", "c00", "b00"]
    assert problem.option(728) == ["p88", "r88", "c88", "b88"]


def _decode(problem, solution: list[int], side: int) -> str:
    """A grid from the item names of the chosen options (independent of the reduction)."""
    cells = ["."] * side * side
    for k in solution:
        names = {str(name)[0]: str(name)[1:] for name in problem.option(k)}
        r, c = (int(ch, 36) for ch in names["p"])
        cells[r * side + c] = sudoku.DEFAULT_SYMBOLS[int(names["r"][1], 36)]
    return "".join(cells)


@pytest.mark.parametrize("puzzle", [LEETCODE, INKALA_ANSWER[:40] + "." * 41,
                                    load_named()["easter-monster"]])
def test_givens_select_variant_agrees(puzzle):
    reduced = to_exact_cover(puzzle)
    selected = to_exact_cover(puzzle, givens="select")
    assert len(selected.items) == 324 and len(reduced.items) < 324
    a = _decode(reduced, reduced.first(), 9)
    b = _decode(selected, selected.first(), 9)
    expected = solve_string(puzzle)
    assert b == expected
    assert [ch for ch, p in zip(a, puzzle) if p == "."] == \
           [ch for ch, p in zip(expected, puzzle) if p == "."]
    assert reduced.count(20) == selected.count(20)
    with pytest.raises(ValueError, match="givens"):
        to_exact_cover(puzzle, givens="other")


def test_to_exact_cover_boards():
    problem = to_exact_cover(rows_of(LEETCODE, "int"))
    assert problem.count() == 1
    assert len(to_exact_cover(np.zeros((4, 4), dtype=int))) == 64


# ----- generation -------------------------------------------------------------------------


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_random_grid_valid_and_deterministic(box):
    grid = random_grid(box, seed=7, backend=FAST)
    geo, values = parse_string(grid)
    assert geo.box == box and 0 not in values
    assert is_solution(geo, values, values)
    assert random_grid(box, seed=7, backend=FAST) == grid


def test_random_grids_differ_by_seed():
    assert len({random_grid(3, seed=s) for s in range(10)}) == 10


def test_generate_9x9_unique_minimal_deterministic():
    puzzle = generate(9, seed=5)
    assert generate(9, seed=5) == puzzle and generate(9, seed=6) != puzzle
    assert count_solutions(puzzle, 2) == 1
    for k, ch in enumerate(puzzle):  # minimal: every clue is needed
        if ch != ".":
            assert count_solutions(puzzle[:k] + "." + puzzle[k + 1 :], 2) == 2


def test_generate_options():
    assert sum(ch != "." for ch in generate(9, seed=1, clues=40)) == 40
    small = generate(4, seed=3)
    assert len(small) == 16 and count_solutions(small, 2) == 1
    big = generate(16, seed=2, max_nodes=200, backend=FAST)
    assert len(big) == 256 and count_solutions(big, 2, backend=FAST) == 1


# ----- property: a shuffled solved grid, partly blanked, solves back ------------------------


@st.composite
def shuffled_grids(draw) -> list[int]:
    """LeetCode's answer under a random relabeling, row/column swaps within bands/stacks,
    band/stack swaps and maybe a transposition: always a valid grid."""
    _, values = parse_string(LEET_ANSWER)
    symbols = draw(st.permutations(range(1, 10)))

    def lines() -> list[int]:
        bands = draw(st.permutations(range(3)))
        return [b * 3 + i for b in bands for i in draw(st.permutations(range(3)))]

    rows, cols = lines(), lines()
    transpose = draw(st.booleans())
    out = []
    for r in range(9):
        for c in range(9):
            rr, cc = (cols[c], rows[r]) if transpose else (rows[r], cols[c])
            out.append(symbols[values[rr * 9 + cc] - 1])
    return out


@settings(max_examples=60, deadline=None)
@given(grid=shuffled_grids(), blanks=st.sets(st.integers(0, 80)), kind=st.sampled_from(
    ["str", "int", "numpy"]))
def test_property_blanked_grid_solves_back(grid, blanks, kind):
    geo, _ = parse_string("." * 81)
    assert is_solution(geo, grid, grid)
    puzzle = [0 if k in blanks else v for k, v in enumerate(grid)]
    board = rows_of(format_grid(geo, puzzle), kind)
    solve(board)
    _, result, _ = parse_board(board)
    assert is_solution(geo, puzzle, result)
    if count_solutions(format_grid(geo, puzzle), limit=2) == 1:
        assert result == grid


@pytest.mark.parametrize("backend", ["python", FAST])
def test_strategies_agree(backend):
    """``strategy="learn"`` (the root reduction, then clause learning) finds the same
    solutions and counts as the plain search, and fails the same way; a bad strategy is
    an ArgumentError; None is ``auto``, as in dlx."""
    named = load_named()
    for name in ("inkala-2012", "norvig-hard1"):
        puzzle = named[name]
        plain = count_solutions(puzzle, 50, strategy="plain", backend=backend)
        assert count_solutions(puzzle, 50, strategy="learn", backend=backend) == plain
        answer = solve_string(puzzle, strategy="learn", backend=backend)
        geo, values = parse_string(puzzle)
        assert is_solution(geo, values, parse_string(answer)[1])
        if plain == 1:
            assert answer == solve_string(puzzle, strategy="plain", backend=backend)
            assert solve_string(puzzle, unique=True, strategy="learn", backend=backend) == answer
        else:
            with pytest.raises(MultipleSolutionsError):
                solve_string(puzzle, unique=True, strategy="learn", backend=backend)
    board = [["5", "5"] + ["."] * 7] + [["."] * 9 for _ in range(8)]
    before = copy.deepcopy(board)
    with pytest.raises(ClashError):
        solve(board, strategy="learn", backend=backend)
    assert board == before and count_solutions(board, strategy="learn", backend=backend) == 0
    with pytest.raises(SearchStoppedError):
        solve_string(named["inkala-2012"], strategy="learn", max_nodes=3, backend=backend)
    with pytest.raises(ArgumentError, match="strategy must be one of 'auto', 'plain', 'learn'"):
        solve_string(named["inkala-2012"], strategy="fast")
    assert count_solutions(named["inkala-2012"], strategy=None) == 1


GECODE_25 = DATA / "gecode_25x25.txt"


@pytest.mark.slow
def test_gecode_25x25_hard_strategy():
    """One of Gecode's 25x25 puzzles (#90: #19 with more of row 1 given) that the plain
    search does not solve in a minute: ``auto`` takes the hard strategy for it."""
    if not GECODE_25.is_file():
        pytest.skip(f"{GECODE_25} is absent")
    puzzle = GECODE_25.read_text().split()[17]
    answer = solve_string(puzzle, backend=FAST)
    geo, values = parse_string(puzzle)
    assert is_solution(geo, values, parse_string(answer)[1])
