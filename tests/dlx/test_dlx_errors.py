"""Bad input: every error is a ValueError subclass whose message names the culprit."""

from __future__ import annotations

import numpy as np
import pytest

from dlx import (
    ArgumentError,
    Colored,
    ColorError,
    DLXFormatError,
    EmptyOptionError,
    ExactCover,
    ForcedOptionError,
    InputError,
    MatrixError,
    NoPrimaryItemWarning,
    RepeatedItemError,
    UnknownItemError,
)

BACKEND = "python"


@pytest.mark.parametrize("error", [InputError, UnknownItemError, RepeatedItemError,
                                   EmptyOptionError, ColorError, MatrixError, DLXFormatError])
def test_every_error_is_a_value_error(error):
    assert issubclass(error, ValueError)
    assert issubclass(error, InputError)


def test_argument_errors_are_value_errors():
    """Bad arguments to a search (not a bad problem): ArgumentError, ForcedOptionError."""
    assert issubclass(ArgumentError, ValueError) and not issubclass(ArgumentError, InputError)
    assert issubclass(ForcedOptionError, ArgumentError)


def test_unknown_item():
    with pytest.raises(UnknownItemError, match=r"option 1 .*'Q'"):
        ExactCover([["A"], ["B", "Q"]], primary=["A", "B"])


def test_unknown_item_with_secondary_list():
    with pytest.raises(UnknownItemError, match="'zeta'"):
        ExactCover([["A", "X"], ["A", "zeta"]], primary=["A"], secondary=["X"])


def test_unknown_column_in_csr():
    with pytest.raises(UnknownItemError, match=r"option 1 .*column 7"):
        ExactCover.from_csr([0, 1, 2], [0, 7], n_items=3)


def test_unknown_secondary_column():
    with pytest.raises(UnknownItemError, match="5"):
        ExactCover.from_matrix(np.eye(3, dtype=int), secondary=[5])


def test_item_repeated_in_an_option():
    with pytest.raises(RepeatedItemError, match=r"option 2 .*'B'"):
        ExactCover([["A"], ["B"], ["A", "B", "C", "B"]])


def test_item_repeated_in_a_colored_option():
    with pytest.raises(RepeatedItemError, match=r"option 0 .*'X'"):
        ExactCover([["A", Colored("X", 1), Colored("X", 2)]], secondary=["X"])


def test_column_repeated_in_csr():
    with pytest.raises(RepeatedItemError, match=r"option 0 .*column 1"):
        ExactCover.from_csr([0, 3], [0, 1, 1], n_items=2)


def test_empty_option():
    with pytest.raises(EmptyOptionError, match="option 1"):
        ExactCover([["A"], [], ["B"]])


def test_empty_matrix_row():
    with pytest.raises(EmptyOptionError, match="option 2"):
        ExactCover.from_matrix([[1, 0], [0, 1], [0, 0]])


def test_color_on_primary_item():
    with pytest.raises(ColorError, match=r"option 1 .*'A'"):
        ExactCover([["B"], [Colored("A", "red"), "B"]], primary=["A", "B"])


def test_color_on_implicitly_primary_item():
    with pytest.raises(ColorError, match="'A'"):
        ExactCover([[Colored("A", "red")]])


@pytest.mark.parametrize("matrix", [np.zeros(4, dtype=int), np.zeros((2, 2, 2), dtype=int),
                                    np.int64(1)])
def test_matrix_not_two_dimensional(matrix):
    with pytest.raises(MatrixError, match="2-D") as info:
        ExactCover.from_matrix(matrix)
    assert str(matrix.shape) in str(info.value)


def test_matrix_not_zero_one():
    matrix = np.zeros((3, 4), dtype=np.int64)
    matrix[0, 0] = matrix[2, 3] = 1
    matrix[1, 2] = 2
    with pytest.raises(MatrixError, match=r"\(1, 2\) is 2"):
        ExactCover.from_matrix(matrix)


def test_matrix_negative_entry():
    with pytest.raises(MatrixError, match=r"\(0, 1\) is -1"):
        ExactCover.from_matrix(np.array([[1, -1]], dtype=np.int8))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, object, str])
def test_matrix_of_non_integer_dtype(dtype):
    matrix = np.array([[1, 0], [0, 1]]).astype(dtype)
    with pytest.raises(MatrixError, match="dtype") as info:
        ExactCover.from_matrix(matrix)
    assert str(matrix.dtype) in str(info.value)


@pytest.mark.parametrize(
    ("text", "lineno", "culprit"),
    [
        ("A B\nA C\n", 2, "'C'"),
        ("| comment\n\nA B | X\nA X\nB X:red Z\n", 5, "'Z'"),
        ("A B\nA B A\n", 2, "'A'"),
        ("A B | X\nA X:red\nB:red\n", 3, "'B'"),
        ("A B | X\nA X:\n", 2, "X:"),
        ("A B | X | Y\nA\n", 1, "'|'"),
        ("A B:c\nA\n", 1, "'B:c'"),
        ("A B\nA |B\n", 2, "'|B'"),
    ],
    ids=["unknown", "unknown-after-comments", "repeated", "color-on-primary", "empty-color",
         "two-bars", "colon-in-item", "bar-in-option"],
)
def test_malformed_text_line(text, lineno, culprit):
    with pytest.raises(DLXFormatError) as info:
        ExactCover.from_dlx(text)
    error = info.value
    assert error.lineno == lineno
    assert f"line {lineno}" in str(error)
    assert culprit in str(error)
    assert error.line == text.splitlines()[lineno - 1]


def test_text_without_item_line():
    with pytest.raises(DLXFormatError) as info:
        ExactCover.from_dlx("| only a comment\n\n")
    assert "no item line" in str(info.value)


def test_duplicate_item_names():
    with pytest.raises(RepeatedItemError, match="'A'"):
        ExactCover([["A"]], primary=["A", "B", "A"])
    with pytest.raises(RepeatedItemError, match="'X'"):
        ExactCover([["A"]], primary=["A"], secondary=["X", "X"])


def test_duplicate_item_names_in_text():
    with pytest.raises(DLXFormatError, match="'B'") as info:
        ExactCover.from_dlx("| items\nA B | B\nA\n")
    assert info.value.lineno == 2


def test_item_both_primary_and_secondary():
    with pytest.raises(RepeatedItemError, match="'X'"):
        ExactCover([["A", "X"]], primary=["A", "X"], secondary=["X"])


def test_option_without_primary_item_is_dropped():
    options = [["A", "X"], ["X", "Y"], ["B"], [Colored("Y", "red")], ["A", "B"]]
    with pytest.warns(NoPrimaryItemWarning, match=r"option 1 \(X Y\).*1 more"):
        problem = ExactCover(options, secondary=["X", "Y"])
    assert problem.dropped == [1, 3]
    found = list(problem.solutions(backend=BACKEND))
    assert sorted(found) == [[0, 2], [4]]
    assert all(k not in s for s in found for k in problem.dropped)
    assert problem.count(backend=BACKEND) == 2
    assert problem.option(3) == [Colored("Y", "red")]  # kept, with its index


def test_option_without_primary_item_in_text():
    with pytest.warns(NoPrimaryItemWarning, match="option 1"):
        problem = ExactCover.from_dlx("A | X\nA\nX\n")
    assert problem.dropped == [1]
    assert list(problem.solutions(backend=BACKEND)) == [[0]]


def test_matrix_row_of_secondary_columns_only():
    with pytest.warns(NoPrimaryItemWarning):
        problem = ExactCover.from_matrix([[1, 0], [0, 1], [1, 1]], secondary=[1])
    assert problem.dropped == [1]
    assert sorted(problem.solutions(backend=BACKEND)) == [[0], [2]]


def test_unknown_backend():
    problem = ExactCover([["A"]])
    for call in (problem.count, problem.first, problem.solutions):
        with pytest.raises(ArgumentError, match="'fortran'"):
            call(backend="fortran")
    with pytest.raises(ArgumentError, match="'fortran'"):
        problem.solve_batch([[0]], backend="fortran")


def test_item_in_neither_list_and_the_opt_in():
    """Issue 30: with primary= given, an item in neither list is refused, the message says
    how to list it; rest_secondary=True (asked for explicitly) makes the rest secondary."""
    from dlx import ArgumentError, ExactCover

    options = [["a", "x"], ["b", "y"], ["a", "b"], ["b", "x"]]
    with pytest.raises(UnknownItemError, match=r"'x', which is in neither primary nor "
                                               r"secondary: .*secondary=.*rest_secondary=True"):
        ExactCover(options, primary=["a", "b"])
    problem = ExactCover(options, primary=["a", "b"], rest_secondary=True)
    assert problem.secondary == ["x", "y"]
    assert sorted(problem.solutions()) == [[0, 1], [2]]
    assert ExactCover(options, primary=["a", "b"], secondary=["y"],
                      rest_secondary=True).secondary == ["y", "x"]
    with pytest.raises(ArgumentError, match="rest_secondary=True goes with primary"):
        ExactCover(options, rest_secondary=True)
    with pytest.raises(ArgumentError, match="rest_secondary must be True or False"):
        ExactCover(options, primary=["a", "b"], rest_secondary=1)


def test_a_serial_count_reports_progress():
    """Issue 30 had a serial count refuse ``progress`` (it reported a distributed run's
    chunks only); issue 42 gives every search one progress rule and record: a serial
    count reports between its slices, and once at its end."""
    from dlx import RunProgress
    from dlx.problems import queens

    calls: list[RunProgress] = []
    assert queens(5).count(progress=calls.append) == 10
    assert calls and all(type(c) is RunProgress for c in calls)
    assert calls[-1].done == calls[-1].parts == 1 and calls[-1].solutions == 10
