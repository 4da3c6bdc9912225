"""Hostile input for the sudoku front ends: boards, puzzle text, alphabets, budgets, files
and command lines that are wrong in every way we could think of (and hypothesis could).

The rule checked everywhere: bad input raises a documented :class:`sudoku.SudokuError`
subclass naming the culprit (never a TypeError, AttributeError, IndexError or numpy
error); a board that cannot be solved is left exactly as given; a solved board is checked
independently; the python and numba backends agree, answers and errors alike. The
command reports every failure as one ``sudoku:`` line on stderr and an exit status from
:class:`dlx.ExitCode`.

The first part pins each defect fixed (D4 ... D19) with a test that failed before its fix;
the second part is the hypothesis suite. ``HYPOTHESIS_PROFILE=fuzz`` runs it with many
more examples (about 20 times the default's).
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import numpy as np
import pytest

import sudoku
from sudoku import (
    AlphabetError,
    ArgumentError,
    ReadOnlyError,
    ShapeError,
    SymbolError,
    count_many,
    count_solutions,
    solve,
    solve_many,
    solve_string,
    to_exact_cover,
)

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LEET_ANSWER = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
FOUR = "1....." + "3..4....." + "2"  # a 4x4 puzzle with one solution
FOUR_ANSWER = "1324423124133142"
ROOT = Path(__file__).resolve().parents[1]


def str_rows(text: str) -> list[list[str]]:
    side = round(len(text) ** 0.5)
    return [list(text[r * side : (r + 1) * side]) for r in range(side)]


def int_rows(text: str) -> list[list[int]]:
    return [[0 if ch == "." else int(ch) for ch in row] for row in str_rows(text)]


def same_board(a, b) -> bool:
    """Deep equality that also compares numpy arrays (values, dtype and shape)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f")))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same_board(x, y) for x, y in zip(a, b)))
    return type(a) is type(b) and a == b


# ----- D7: a board that cannot be written is refused before the search ------------------


def test_d7_last_row_tuple_refused_untouched():
    board = str_rows(LEETCODE)
    board[8] = tuple(board[8])
    before = copy.deepcopy(board)
    with pytest.raises(ReadOnlyError, match=r"row 9 is a tuple"):
        solve(board)
    assert same_board(board, before)  # rows 1-8 were filled in before the fix


def test_d7_board_of_tuples_is_a_shape_error():
    board = [tuple(row) for row in str_rows(LEETCODE)]
    before = list(board)
    with pytest.raises(ShapeError, match=r"row 1 is a tuple"):
        solve(board)
    assert board == before
    assert count_solutions(board) == 1  # reading an immutable board is fine


def test_d7_read_only_numpy_board():
    board = np.array(int_rows(LEETCODE))
    board.flags.writeable = False
    with pytest.raises(ReadOnlyError, match="read-only"):
        solve(board)
    rows = [np.array(row) for row in int_rows(LEETCODE)]
    rows[4].flags.writeable = False
    before = copy.deepcopy(rows)
    with pytest.raises(ReadOnlyError, match="row 5"):
        solve(rows)
    assert same_board(rows, before)


class _Fragile(list):
    """A row that fails on its 5th write: the board must be restored, not half-written."""

    writes = 0

    def __setitem__(self, index, value):
        type(self).writes += 1
        if type(self).writes == 5:
            raise RuntimeError("disk on fire")
        super().__setitem__(index, value)


def test_d7_a_write_that_fails_is_undone():
    board = [list(row) for row in str_rows(LEETCODE)]
    board[3] = _Fragile(board[3])
    before = copy.deepcopy(board)
    with pytest.raises(ReadOnlyError, match=r"row 4 .*disk on fire"):
        solve(board)
    assert [list(row) for row in board] == [list(row) for row in before]


# ----- D9: every argument of the wrong type is a SudokuError naming it ------------------


@pytest.mark.parametrize("alphabet", [123456789, list("123456789"), b"123456789", 1.5])
def test_d9_alphabet_of_the_wrong_type(alphabet):
    for call in (lambda: solve_string(LEETCODE, alphabet=alphabet),
                 lambda: solve(str_rows(LEETCODE), alphabet=alphabet),
                 lambda: count_solutions(LEETCODE, alphabet=alphabet),
                 lambda: to_exact_cover(LEETCODE, alphabet=alphabet)):
        with pytest.raises(AlphabetError, match="alphabet must be a str"):
            call()
    (got,) = solve_many([LEETCODE], alphabet=alphabet)
    assert isinstance(got, AlphabetError) and "alphabet must be a str" in str(got)


@pytest.mark.parametrize("puzzle", [None, LEETCODE.encode(), list(LEETCODE), 81, bytearray(81)])
def test_d9_puzzle_that_is_not_a_str(puzzle):
    with pytest.raises(ArgumentError, match=r"puzzle must be a str, got " + type(puzzle).__name__):
        solve_string(puzzle)
    assert [type(x) for x in solve_many([LEETCODE, puzzle])] == [str, ArgumentError]
    assert [type(x) for x in count_many([puzzle, LEETCODE])] == [ArgumentError, int]


def test_d9_bytes_puzzle_says_how_to_decode():
    with pytest.raises(ArgumentError, match=r"decode"):
        solve_string(LEETCODE.encode())


def test_d9_solve_many_takes_any_iterable_of_str():
    assert solve_many(p for p in [LEETCODE, FOUR]) == [LEET_ANSWER, FOUR_ANSWER]
    assert count_many(iter([LEETCODE, FOUR])) == [1, 1]
    assert solve_many((LEETCODE,)) == [LEET_ANSWER]
    assert solve_many([]) == [] and count_many(()) == []
    for puzzles in (LEETCODE, LEETCODE.encode(), 5, None):
        with pytest.raises(ArgumentError, match="puzzles must be an iterable"):
            solve_many(puzzles)
        with pytest.raises(ArgumentError, match="puzzles must be an iterable"):
            count_many(puzzles)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_d9_numpy_boards_of_other_kinds():
    m = np.matrix(int_rows(LEETCODE))
    assert solve(m) is m and "".join(map(str, np.asarray(m).ravel())) == LEET_ANSWER
    for dtype in (np.float64, np.float32, np.uint8, np.int16):
        a = np.array(int_rows(LEETCODE), dtype=dtype)
        solve(a)
        assert a.dtype == dtype and "".join(str(int(v)) for v in a.ravel()) == LEET_ANSWER
    for bad, pattern in ((0.5, r"0.5 at r1c1"), (np.nan, r"nan at r1c1"),
                         (np.inf, r"inf at r1c1")):
        a = np.array(int_rows(LEETCODE), dtype=float)
        a[0, 0] = bad
        before = a.copy()
        with pytest.raises(SymbolError, match=pattern):
            solve(a)
        assert same_board(a, before)
    for a in (np.zeros((9, 9), dtype=complex), np.zeros((9, 9), dtype=bool),
              np.full((9, 9), "1"), np.zeros((9, 9), dtype=object)):
        with pytest.raises(SymbolError, match="dtype"):
            solve(a)


BAD_BUDGETS = [  # (keyword, value, pattern)
    ("timeout", "1", r"timeout must be a number of seconds .*got '1' \(str\)"),
    ("timeout", float("nan"), r"timeout .*got nan"),
    ("timeout", -1, r"timeout .*got -1"),
    ("timeout", True, r"timeout .*got True \(bool\)"),
    ("timeout", [1], r"timeout .*\(list\)"),
    ("max_nodes", 0, r"max_nodes must be at least 1, got 0"),
    ("max_nodes", -5, r"max_nodes .*got -5"),
    ("max_nodes", 1.5, r"max_nodes must be an int >= 1 or None, got 1.5 \(float\)"),
    ("max_nodes", "9", r"max_nodes .*got '9' \(str\)"),
    ("max_nodes", False, r"max_nodes .*got False \(bool\)"),
    ("backend", "fortran", r"backend must be one of 'auto', 'python', 'numba', got 'fortran'"),
    ("backend", 3, r"backend must be one of .*got 3"),
    ("backend", None, r"backend must be one of .*got None"),
]


@pytest.mark.parametrize("keyword, value, pattern", BAD_BUDGETS)
def test_d9_bad_budgets_and_backends(keyword, value, pattern):
    board = str_rows(LEETCODE)
    calls = [lambda: solve(board, **{keyword: value}),
             lambda: solve_string(LEETCODE, **{keyword: value}),
             lambda: count_solutions(LEETCODE, **{keyword: value})]
    if keyword != "timeout":  # the batch calls take no timeout
        calls += [lambda: solve_many([LEETCODE], **{keyword: value}),
                  lambda: count_many([LEETCODE], **{keyword: value})]
    for call in calls:
        with pytest.raises(ArgumentError, match=pattern):
            call()
    assert board == str_rows(LEETCODE)


@pytest.mark.parametrize("limit, pattern", [
    (0, r"limit must be at least 1, got 0"), (-1, r"limit .*got -1"),
    (True, r"limit .*\(bool\)"), (2.0, r"limit .*\(float\)"), ("2", r"limit .*\(str\)")])
def test_d9_bad_limits(limit, pattern):
    with pytest.raises(ArgumentError, match=pattern):
        count_solutions(LEETCODE, limit)
    with pytest.raises(ArgumentError, match=pattern):
        count_many([LEETCODE], limit)


BACKENDS = ["python", "numba"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_d9_huge_budgets_mean_unbounded(backend):
    huge = 2**70
    assert solve_string(LEETCODE, max_nodes=huge, backend=backend) == LEET_ANSWER
    assert count_solutions(LEETCODE, huge, max_nodes=huge, backend=backend) == 1
    assert solve_many([LEETCODE], max_nodes=huge, backend=backend) == [LEET_ANSWER]
    assert count_many([LEETCODE], huge, max_nodes=huge, backend=backend) == [1]
    for timeout in (float("inf"), 1e300, huge, np.float32(30), 0.5):
        assert solve_string(LEETCODE, timeout=timeout, backend=backend) == LEET_ANSWER
    assert count_solutions(LEETCODE, np.int64(3), max_nodes=np.int32(10**6)) == 1


def test_d9_to_exact_cover_bad_givens():
    with pytest.raises(ArgumentError, match="givens"):
        to_exact_cover(LEETCODE, givens="ignore")
    with pytest.raises(ArgumentError, match="givens"):
        to_exact_cover(LEETCODE, givens=["reduce"])


# ----- D14: caches keyed by alphabet are bounded -------------------------------------------


def _caches() -> dict[str, object]:
    import sudoku.batch
    import sudoku.grid

    names = {"grid": ["_geometry", "_symbol_values", "_ascii_symbols", "_unit_getters",
                      "_unit_cells"], "batch": ["_symbol_table"]}
    modules = {"grid": sudoku.grid, "batch": sudoku.batch}
    return {f"{m}.{n}": getattr(modules[m], n) for m, ns in names.items() for n in ns}


def test_d14_caches_stay_bounded_over_5000_alphabets():
    pool = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    rng = random.Random(14)
    alphabets = set()
    while len(alphabets) < 5000:
        alphabets.add("".join(rng.sample(pool, 4)))
    for alphabet in sorted(alphabets):
        to_alphabet = str.maketrans("1234", alphabet)
        puzzle, answer = FOUR.translate(to_alphabet), FOUR_ANSWER.translate(to_alphabet)
        assert solve_string(puzzle, alphabet=alphabet) == answer
        assert solve_many([puzzle], alphabet=alphabet) == [answer]
    for name, cache in _caches().items():
        info = cache.cache_info()
        assert info.maxsize is not None and info.maxsize <= 64, name
        assert info.currsize <= info.maxsize, name


# ----- D16: alphabets that clash with the puzzle syntax are refused -----------------------


@pytest.mark.parametrize("alphabet, pattern", [
    ("12345678 ", r"' ' .*position 9"),
    ("12345678|", r"'\|'"),
    ("1234-6789", r"'-' .*position 5"),
    ("+23456789", r"'\+' .*position 1"),
    ("#23456789", r"'#'"),
    ("1234.6789", r"'\.'"),
    ("1234\t6789", r"'\\t'"),
    ("1234\u20286789", r"'\\u2028'"),
    ("1234\x006789", r"'\\x00'"),
    ("1234\ufeff6789", r"'\\ufeff'"),
    ("1123", r"repeats '1'"),
    ("ABC", r"3 symbols.*4, 9, 16, 25 or 36"),
    ("", r"0 symbols"),
    pytest.param("x" * 10**6, r"1000000 symbols", id="a-million-symbols"),
])
def test_d16_unusable_alphabets(alphabet, pattern):
    puzzle = "." * (len(alphabet) ** 2 if len(alphabet) < 40 else 81)
    for call in (lambda: solve_string(puzzle, alphabet=alphabet),
                 lambda: solve([["."] * 9 for _ in range(9)], alphabet=alphabet),
                 lambda: count_solutions(puzzle, alphabet=alphabet),
                 lambda: sudoku.parse_string(puzzle, alphabet=alphabet)):
        with pytest.raises(AlphabetError, match=pattern) as info:
            call()
        assert len(str(info.value)) < 300  # a huge alphabet is not copied into the message
    for batch in (solve_many, count_many):
        (got,) = batch([puzzle], alphabet=alphabet)
        assert isinstance(got, AlphabetError) and re.search(pattern, str(got))


def test_d16_alphabet_of_another_size_names_both():
    with pytest.raises(AlphabetError, match=r"9 symbols but the grid is 4x4"):
        solve_string(FOUR, alphabet="123456789")
    got = solve_many([FOUR, LEETCODE], alphabet="123456789")
    assert isinstance(got[0], AlphabetError) and got[1] == LEET_ANSWER


def test_d16_zero_is_a_symbol_when_in_the_alphabet():
    alphabet = "0123456789ABCDEF"
    puzzle = "." * 256
    (answer,) = solve_many([puzzle], alphabet=alphabet)
    assert answer == solve_string(puzzle, alphabet=alphabet) and "0" in answer
