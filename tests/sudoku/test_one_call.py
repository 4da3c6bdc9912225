"""The one call's quick readings against the plain ones: puzzle text read by one bytes
translation (an ASCII alphabet) against reading symbol by symbol, and the checker's pass
over bytes (a list of ints in 0..255) against its pass over values (any other sequence)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudoku import ArgumentError, SymbolError, parse_string, solve_string
from sudoku.grid import DEFAULT_SYMBOLS, is_solution
from tests.helpers.profiles import examples

ALPHABETS = [None, "123456789", "ABCDEFGHI", "αβγδεζηθι", "0123456789ABCDEF", "1234"]


def _expected(text: str, alphabet: str | None) -> list[int] | str:
    """The values of ``text`` read one symbol at a time, or the message of its error."""
    cells = [ch for ch in text if ch not in " \t\r\n|-+"]
    side = round(len(cells) ** 0.5)
    symbols = alphabet or DEFAULT_SYMBOLS[:side]
    blanks = "." if "0" in symbols else ".0"
    values = []
    for k, ch in enumerate(cells):
        if ch in blanks:
            values.append(0)
        elif ch in symbols:
            values.append(symbols.index(ch) + 1)
        else:
            return f"bad symbol {ch!r} at r{k // side + 1}c{k % side + 1}"
    return values


@st.composite
def puzzle_texts(draw):
    alphabet = draw(st.sampled_from(ALPHABETS))
    side = len(alphabet) if alphabet else draw(st.sampled_from([4, 9, 16]))
    symbols = alphabet or DEFAULT_SYMBOLS[:side]
    pool = symbols + ".0" + draw(st.sampled_from(["", "x", "é", "\x00", "ÿ"]))
    cells = draw(st.lists(st.sampled_from(pool), min_size=side * side, max_size=side * side))
    separator = draw(st.sampled_from([" | ", ""]))  # ignored; none: a line read at once
    return separator.join(cells), alphabet


@examples(300)
@given(puzzle_texts())
def test_text_is_read_as_symbol_by_symbol(case):
    text, alphabet = case
    expected = _expected(text, alphabet)
    if isinstance(expected, str):
        with pytest.raises(SymbolError) as error:
            parse_string(text, alphabet)
        assert str(error.value) == expected
    else:
        assert parse_string(text, alphabet)[1] == expected


SOLVED = solve_string("4.....8.5.3..........7......2.....6.....8.4......1......."
                      "6.3.7.5..2.....1.4......")


@examples(300)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(-2, 300)), max_size=3),
       st.lists(st.tuples(st.integers(0, 80), st.integers(-1, 300)), max_size=3))
def test_checker_over_bytes_agrees_with_over_values(changes, givens):
    """Random changes to a solved grid and to its givens: the list (read as bytes when it
    can be) and the tuple (read value by value) get the same answer."""
    geo, solution = parse_string(SOLVED)
    puzzle = [0] * 81
    for cell, v in givens:
        puzzle[cell] = v
    for cell, v in changes:
        solution[cell] = v
    expected = is_solution(geo, tuple(puzzle), tuple(solution))
    assert is_solution(geo, puzzle, solution) is expected
    if not changes and all(v in (0, solution[c]) for c, v in givens):
        assert expected


@examples(300)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9)), min_size=1, max_size=4),
       st.randoms(use_true_random=False))
def test_line_sums_agree_with_unit_sums(changes, rng):
    """Grids with every value in 1..9 (a solved grid, shuffled rows within a band, or
    cells changed): the classic 9x9's shifts and adds say what the unit sums say."""
    geo, solution = parse_string(SOLVED)
    if rng.random() < 0.5:
        band = rng.randrange(3) * 27
        rows = [solution[band + 9 * r : band + 9 * r + 9] for r in range(3)]
        rng.shuffle(rows)
        solution[band : band + 27] = [v for row in rows for v in row]  # still valid
    else:
        for cell, v in changes:
            solution[cell] = v
    blank = [0] * 81
    assert is_solution(geo, blank, solution) is is_solution(geo, tuple(blank), tuple(solution))


@pytest.mark.parametrize("junk", [1.0, 1.5, "1", None])
def test_checker_says_no_to_values_that_are_not_ints(junk):
    """A float, a string or None among the values is no solution (it raised TypeError)."""
    geo, solution = parse_string(SOLVED)
    for puzzle, values in (([0] * 81, [junk, *solution[1:]]),
                           ([junk, *[0] * 80], solution)):
        assert is_solution(geo, puzzle, values) is False
        assert is_solution(geo, tuple(puzzle), tuple(values)) is False
    assert is_solution(geo, [0] * 81, [float(v) for v in solution]) is False


@pytest.mark.parametrize("junk, name", [(None, "solution"), ("123", "solution"), (5, "solution")])
def test_checker_refuses_what_is_no_sequence(junk, name):
    geo, _ = parse_string(SOLVED)
    with pytest.raises(ArgumentError, match=name):
        is_solution(geo, [0] * 81, junk)
    with pytest.raises(ArgumentError, match="puzzle"):
        is_solution(geo, junk, [0] * 81)
