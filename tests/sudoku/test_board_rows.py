"""LeetCode 37's board (a list of lists of one-character strings) is read and written a
row at a time (``sudoku.rows``); every other board cell by cell. The same board with a
tuple of rows takes the cell-by-cell way: both must read the same values or raise the same
error, and write the same cells. The one call's other quick readings (the text as bytes,
the givens as an array) are held to the plain ones too."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku import (
    ReadOnlyError,
    SudokuError,
    format_grid,
    parse_board,
    parse_string,
    solve,
    solve_string,
)
from sudoku.grid import _NO_SYMBOL, _byte_values, geometry, read_string, write_back
from sudoku.named import load_named
from sudoku.reduction import given_array, givens
from sudoku.rows import read_rows, write_rows
from tests.helpers.profiles import examples

LEETCODE = load_named()["leetcode-37"]


def _board(text: str, side: int = 9) -> list[list[str]]:
    return [list(text[r * side : (r + 1) * side]) for r in range(side)]


def _read(board) -> tuple | str:
    try:
        _geo, values, kind = parse_board(board)
    except SudokuError as e:
        return f"{type(e).__name__}: {e}"
    return values, kind


CELLS = st.sampled_from([*"123456789.", "0", "", "12", "x", "é", 5, None, "\x00"])


@examples(300)
@given(st.lists(st.lists(CELLS, min_size=9, max_size=9), min_size=9, max_size=9),
       st.booleans())
def test_list_rows_read_as_cell_by_cell(rows, mostly_good):
    if mostly_good:  # most drawn boards have a bad cell: make a good one likely too
        rows = [[c if isinstance(c, str) and len(c) == 1 and c in "123456789." else "."
                 for c in row] for row in rows[:8]] + rows[8:]
    board = [list(row) for row in rows]
    assert _read(board) == _read(tuple(list(row) for row in rows))
    assert board == rows  # only read


def test_shapes_the_rows_do_not_take_read_as_before():
    board = _board(LEETCODE)
    assert read_rows(board, 9, None, 255) is None  # a non-ASCII alphabet's boards
    shared = board[0]
    assert _read([shared] * 9).startswith("ShapeError: rows must be distinct")
    assert _read([*board[:8], board[8][:8]]).startswith("ShapeError: row 9")

    for a, b in (("", "12"), ("", "1\x00"), ("\x00", "1"), ("12", "")):  # N*N characters
        odd = _board(LEETCODE)
        odd[2][3], odd[7][0] = a, b
        assert read_rows(odd, 9, _byte_values(geometry(9)), _NO_SYMBOL) is None
        assert _read(odd) == _read(tuple(odd)) and _read(odd).startswith("SymbolError")

    class Row(list):
        pass

    assert _read([Row(r) for r in board]) == _read(board)


def test_solve_writes_the_rows_in_place():
    board = _board(LEETCODE)
    assert read_rows(board, 9, _byte_values(geometry(9)), _NO_SYMBOL) \
        == bytes(parse_string(LEETCODE)[1])  # the quick way, taken
    rows = list(board)
    assert solve(board) is board and [r for r in board] == rows  # the same row objects
    assert "".join(map("".join, board)) == solve_string(LEETCODE)


@examples(100)
@given(st.permutations(range(1, 10)), st.sampled_from([None, "ABCDEFGHI"]))
def test_rows_write_what_cells_write(perm, alphabet):
    values = [perm[(r * 3 + r // 3 + c) % 9] for r in range(9) for c in range(9)]
    geo = geometry(9, alphabet)
    fast, slow = _board("." * 81), tuple(_board("." * 81))
    assert write_rows(fast, 9, format_grid(geo, values))
    write_back(slow, geo, bytes(values), "str")
    assert fast == list(slow)
    assert not write_rows(tuple(fast), 9, "1" * 81) and not write_rows(fast, 9, "1" * 80)


def test_a_row_that_refuses_is_still_restored():
    class Stubborn(list):
        def __setitem__(self, k, v):
            raise TypeError("no")

    board = _board(LEETCODE)
    board[4] = Stubborn(board[4])
    before = [list(r) for r in board]
    with pytest.raises(ReadOnlyError):
        solve(board)
    assert [list(r) for r in board] == before


@examples(200)
@given(st.lists(st.sampled_from("123456789.0x"), min_size=81, max_size=81))
def test_text_as_bytes_and_givens_as_an_array(cells):
    text = "".join(cells)
    try:
        geo, values = parse_string(text)
    except SudokuError as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            read_string(text)
        return
    geo2, read = read_string(text)
    assert geo2 == geo and list(read) == values
    assert given_array(9, read).tolist() == givens(geo, values)
