"""The one call's remembered line (`sudoku.solver._Line`): once a call has checked its
arguments, the next call of the same kind goes straight to the search; it must answer,
and fail, exactly as the general way does."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku import SudokuError, solve_string, solver
from tests.helpers.profiles import examples

SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _outcome(puzzle: object, **options: object) -> object:
    """What ``solve_string`` answers: the line, or the error's type and message."""
    try:
        return solve_string(puzzle, **options)  # type: ignore[arg-type]
    except SudokuError as e:
        return type(e).__name__, str(e)


@st.composite
def lines(draw):
    """A 9x9 line of the solved grid with cells blanked ('.' or '0'), maybe a clash (a
    given repeated in its row) or a character that is no symbol (ASCII or not)."""
    cells = list(SOLVED)
    for k in draw(st.sets(st.integers(0, 80), max_size=70)):
        cells[k] = draw(st.sampled_from(".0"))
    change = draw(st.sampled_from(["", "clash", "x", "é", " "]))
    k = draw(st.integers(0, 80))
    if change == "clash":
        row = k - k % 9
        other = row + (k % 9 + 1) % 9
        cells[k] = cells[other] = SOLVED[other]
    elif change:
        cells[k] = change
    return "".join(cells)


@examples(150)
@given(puzzle=lines(), unique=st.booleans(),
       backend=st.sampled_from(["numba", "python", "auto"]),
       strategy=st.sampled_from(["auto", "plain"]))
def test_a_remembered_line_answers_as_the_general_way(puzzle, unique, backend, strategy):
    options = {"unique": unique, "backend": backend, "strategy": strategy}
    solver._LINES.clear()
    solve_string(EASY, **options)  # checks the arguments, remembers the line's plan
    assert (81, backend, strategy, unique) in solver._LINES
    remembered = _outcome(puzzle, **options)
    solver._LINES.clear()
    assert remembered == _outcome(puzzle, **options)


def test_only_plain_calls_without_budgets_are_remembered():
    solver._LINES.clear()
    solve_string(EASY, backend="numba", max_nodes=10**6)
    solve_string(EASY, backend="numba", timeout=60)
    solve_string(EASY, backend="numba", strategy="learn")
    solve_string(EASY, backend="numba", alphabet="123456789")
    solve_string(" ".join(EASY), backend="numba")  # a line with separators
    assert solver._LINES == {}
    solve_string(EASY, backend="numba")
    assert list(solver._LINES) == [(81, "numba", "auto", False)]


def test_a_remembered_line_still_warns_of_the_old_strategy_name():
    solver._LINES.clear()
    for _ in range(2):
        with pytest.warns(DeprecationWarning):
            solve_string(EASY, backend="numba", strategy="hard")
    assert solver._LINES == {}


def test_a_remembered_line_still_refuses_what_is_no_puzzle():
    solver._LINES.clear()
    solve_string(EASY, backend="numba")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for bad in (EASY.encode(), None, ["1"] * 81):
            assert _outcome(bad, backend="numba")[0] == "ArgumentError"
    with pytest.raises(SudokuError, match="bad symbol 'x' at r1c2"):
        solve_string(EASY[0] + "x" + EASY[2:], backend="numba")
