"""Front ends and back ends: Knuth's text format, 0/1 matrices, CSR arrays."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from dlx import Colored, ExactCover, NoPrimaryItemWarning
from tests.helpers.datasets import data_dir
from tests.helpers.oracle import read_dlx, violation

DATA = data_dir("exact_cover")
BACKEND = "python"

KNUTH_TEXT = """\
| A simple example
A B C D E | F G
C E F
A D G
B C F
A D
B G
D E G
"""

COLOR_TEXT = """\
| A simple example of color controls
A B C | X Y
A B X:0 Y:0
A C X:1 Y:1
X:0 Y:1
B X:1
C Y:1
"""

QUEENS5_TEXT = "\n".join(
    ["r0 c0 r1 c1 r2 c2 r3 c3 r4 c4 | " + " ".join(f"a{d} b{d}" for d in range(9))]
    + [f"r{i} c{j} a{i + j} b{4 - i + j}" for i in range(5) for j in range(5)]
) + "\n"


def parse(text: str) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover.from_dlx(text)


def run(problem: ExactCover, **kwargs):
    """Solutions, count, nodes and updates of a complete search."""
    found = list(problem.solutions(backend=BACKEND, **kwargs))
    stats = problem.stats
    assert stats.complete
    return found, problem.count(backend=BACKEND, **kwargs), stats.nodes, stats.updates


def checked(text: str, problem: ExactCover) -> list[list[int]]:
    primary, secondary, options = read_dlx(text)
    found = list(problem.solutions(backend=BACKEND))
    for s in found:
        assert violation(options, primary, secondary, s) is None
    return found


# ----- Knuth's text format --------------------------------------------------------------


@pytest.mark.parametrize("text", [KNUTH_TEXT, COLOR_TEXT, QUEENS5_TEXT],
                         ids=["dlx1-example", "dlx2-colors", "queens5"])
def test_round_trip(text):
    problem = parse(text)
    again = parse(problem.to_dlx())
    assert (again.primary, again.secondary) == (problem.primary, problem.secondary)
    assert list(again.options()) == list(problem.options())
    assert again.dropped == problem.dropped
    assert run(again) == run(problem)
    assert parse(again.to_dlx()).to_dlx() == again.to_dlx()
    assert checked(text, problem) == run(problem)[0]


def test_round_trip_data_files():
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is absent")
    for name in ["knuth_dlx1_example.dlx", "knuth_dlx2_color_example.dlx", "queens8.dlx",
                 "langford7_sym.dlx", "sudoku_top95_1_reduced.dlx"]:
        text = (DATA / name).read_text()
        problem = parse(text)
        again = parse(problem.to_dlx())
        assert run(again) == run(problem), name
        assert read_dlx(problem.to_dlx()) == read_dlx(text), name


def test_to_dlx_text():
    problem = parse(COLOR_TEXT)
    lines = [line for line in COLOR_TEXT.splitlines() if not line.startswith("|")]
    assert problem.to_dlx() == "\n".join(lines) + "\n"
    assert ExactCover([["a", "b"], ["c"]]).to_dlx() == "a b c\na b\nc\n"


def test_to_dlx_of_named_problem():
    options = [[1, 2, Colored("x", 5)], [3, Colored("x", 5)], [1, 2, 3]]
    problem = ExactCover(options, secondary=["x"])
    text = problem.to_dlx()
    assert text == "1 2 3 | x\n1 2 x:5\n3 x:5\n1 2 3\n"
    assert sorted(run(parse(text))[0]) == sorted(run(problem)[0]) == [[0, 1], [2]]


@pytest.mark.parametrize("bad", ["two words", "a|b", "a:b", ""])
def test_to_dlx_refuses_unwritable_names(bad):
    problem = ExactCover([[bad, "ok"]])
    with pytest.raises(ValueError, match="cannot be written"):
        problem.to_dlx()


def test_comments_and_blank_lines():
    noisy = (
        "\n| leading comment\n   | indented comment\n\n"
        "  A   B\tC D E |  F G  \n"
        "| between the item line and the options\n"
        "C E F\n\n\n"
        "A D G\n   \n"
        "\t| a tab, then a comment\n"
        "B C F\nA D\nB G\n| near the end\nD E G\n\n| trailing\n"
    )
    plain, busy = parse(KNUTH_TEXT), parse(noisy)
    assert (busy.primary, busy.secondary) == (plain.primary, plain.secondary)
    assert list(busy.options()) == list(plain.options())
    assert run(busy) == run(plain)
    assert run(busy)[0] == [[0, 3, 4]]


def test_line_numbers_count_comments_and_blank_lines():
    text = "| c\n\nA B\n| c\n\nA\nB C\n"
    with pytest.raises(ValueError) as info:
        ExactCover.from_dlx(text)
    assert info.value.lineno == 7


def test_items_without_secondary_bar():
    problem = parse("A B C\nA B\nC\nA\nB C\n")
    assert (problem.primary, problem.secondary) == (["A", "B", "C"], [])
    assert sorted(run(problem)[0]) == [[0, 1], [2, 3]]


def test_colors():
    problem = parse(COLOR_TEXT)
    assert problem.secondary == ["X", "Y"]
    assert problem.option(1) == ["A", "C", Colored("X", "1"), Colored("Y", "1")]
    assert problem.dropped == [2]
    found, count, nodes, updates = run(problem)
    assert found == [[1, 3]] and count == 1
    assert (nodes, updates) == (4, 14)  # Knuth's DLX2 on this example


def test_colors_built_from_lists_equal_text():
    options = [
        ["A", "B", Colored("X", "0"), Colored("Y", "0")],
        ["A", "C", Colored("X", "1"), Colored("Y", "1")],
        [Colored("X", "0"), Colored("Y", "1")],
        ["B", Colored("X", "1")],
        ["C", Colored("Y", "1")],
    ]
    with pytest.warns(NoPrimaryItemWarning):
        built = ExactCover(options, primary=["A", "B", "C"], secondary=["X", "Y"])
    assert built.to_dlx() == parse(COLOR_TEXT).to_dlx()
    assert run(built) == run(parse(COLOR_TEXT))


def test_colors_need_not_be_strings():
    options = [["A", Colored("X", 0)], ["B", Colored("X", 0)], ["A", "B", Colored("X", 1)],
               ["C", Colored("X", (1, 2))], ["C"]]
    problem = ExactCover(options, secondary=["X"])
    assert sorted(run(problem)[0]) == [[0, 1, 4], [2, 4]]
    assert problem.option(3) == ["C", Colored("X", (1, 2))]


# ----- matrices -------------------------------------------------------------------------

KNUTH_MATRIX = np.array([
    [0, 0, 1, 0, 1, 1, 0],
    [1, 0, 0, 1, 0, 0, 1],
    [0, 1, 1, 0, 0, 1, 0],
    [1, 0, 0, 1, 0, 0, 0],
    [0, 1, 0, 0, 0, 0, 1],
    [0, 0, 0, 1, 1, 0, 1],
])


def _matrix_variants(matrix):
    return {
        "int64": matrix.astype(np.int64),
        "bool": matrix.astype(bool),
        "int8": matrix.astype(np.int8),
        "uint8": matrix.astype(np.uint8),
        "fortran-int64": np.asfortranarray(matrix.astype(np.int64)),
        "fortran-bool": np.asfortranarray(matrix.astype(bool)),
        "non-contiguous": np.repeat(matrix.astype(np.int8), 2, axis=1)[:, ::2],
        "list": matrix.tolist(),
    }


@pytest.mark.parametrize("secondary", [None, [5, 6]])
def test_from_matrix_dtypes_and_orders_agree(secondary):
    results = {}
    for name, matrix in _matrix_variants(KNUTH_MATRIX).items():
        problem = ExactCover.from_matrix(matrix, secondary=secondary)
        assert np.array_equal(problem.to_matrix(), KNUTH_MATRIX), name
        results[name] = run(problem)
    assert all(r == results["int64"] for r in results.values()), results
    assert results["int64"][0] == [[0, 3, 4]]
    assert results["int64"][2:] == (6, 30)  # nodes and updates of DLX1 on Knuth's example


def test_from_matrix_matches_text():
    via_matrix = ExactCover.from_matrix(KNUTH_MATRIX, secondary=[5, 6], names=list("ABCDEFG"))
    via_text = parse(KNUTH_TEXT)
    assert (via_matrix.primary, via_matrix.secondary) == (via_text.primary, via_text.secondary)
    assert list(via_matrix.options()) == list(via_text.options())
    assert via_matrix.to_dlx() == via_text.to_dlx()


def test_from_matrix_items_are_column_indices():
    problem = ExactCover.from_matrix(KNUTH_MATRIX, secondary=[2])
    assert problem.primary == [0, 1, 3, 4, 5, 6]
    assert problem.secondary == [2]
    assert problem.option(2) == [1, 2, 5]  # the row's columns, in column order
    assert problem.items == [0, 1, 3, 4, 5, 6, 2]
    assert problem.to_matrix()[2].tolist() == [0, 1, 0, 0, 1, 0, 1]  # in item order


@pytest.mark.parametrize("seed", range(6))
def test_from_matrix_random_dtypes_agree(seed):
    rng = np.random.default_rng(seed)
    matrix = (rng.random((14, 8)) < 0.3).astype(np.int64)
    matrix[matrix.sum(axis=1) == 0, 0] = 1
    secondary = [7] if seed % 2 else None
    outcomes = []
    for name, variant in _matrix_variants(matrix).items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NoPrimaryItemWarning)
            problem = ExactCover.from_matrix(variant, secondary=secondary)
        assert np.array_equal(problem.to_matrix(), matrix[:, _item_columns(8, secondary)]), name
        outcomes.append(run(problem))
    assert all(o == outcomes[0] for o in outcomes)
    options = [list(np.flatnonzero(row)) for row in matrix]
    prim = [c for c in range(8) if c not in (secondary or [])]
    for s in outcomes[0][0]:
        assert violation(options, prim, secondary or [], s) is None


def _item_columns(n: int, secondary) -> list[int]:
    secondary = secondary or []
    return [c for c in range(n) if c not in secondary] + list(secondary)


def test_to_matrix():
    problem = ExactCover([["b", "a"], ["c"], ["a", "x"]], secondary=["x"])
    assert problem.items == ["b", "a", "c", "x"]
    matrix = problem.to_matrix()
    assert matrix.shape == (3, 4)
    assert matrix.tolist() == [[1, 1, 0, 0], [0, 0, 1, 0], [0, 1, 0, 1]]
    assert set(np.unique(matrix)) <= {0, 1}
    again = ExactCover.from_matrix(matrix, secondary=[3], names=problem.items)
    assert list(again.options()) == [["b", "a"], ["c"], ["a", "x"]]
    assert run(again) == run(problem)


def test_to_matrix_forgets_colors_only():
    problem = parse(COLOR_TEXT)
    matrix = problem.to_matrix()
    assert matrix.tolist() == [[1, 1, 0, 1, 1], [1, 0, 1, 1, 1], [0, 0, 0, 1, 1],
                               [0, 1, 0, 1, 0], [0, 0, 1, 0, 1]]


def test_from_csr_matches_from_matrix():
    rows, cols = np.nonzero(KNUTH_MATRIX)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=6))])
    via_csr = ExactCover.from_csr(indptr, cols, n_items=7, secondary=[5, 6])
    via_matrix = ExactCover.from_matrix(KNUTH_MATRIX, secondary=[5, 6])
    assert list(via_csr.options()) == list(via_matrix.options())
    assert run(via_csr) == run(via_matrix)


def test_empty_matrix():
    problem = ExactCover.from_matrix(np.zeros((0, 3), dtype=np.int8))
    assert len(problem) == 0 and problem.to_matrix().shape == (0, 3)
    assert run(problem)[:2] == ([], 0)


# ----- from_dlx: text, paths and files (#32, R8) -----------------------------------------


def test_from_dlx_reads_paths_and_files(tmp_path, monkeypatch):
    """R8: a path given as a str was read as a one-line problem (no options: 0 solutions,
    silently). A Path and open files (text or binary) are read; a str without a line
    break that names a file is refused, saying what to pass; text itself still works."""
    import io
    import pathlib

    from dlx import ArgumentError
    from dlx.problems import queens

    text = queens(8).to_dlx()
    path = tmp_path / "queens8.dlx"
    path.write_text(text)
    assert ExactCover.from_dlx(path).count() == 92
    with open(path, encoding="utf-8") as f:
        assert ExactCover.from_dlx(f).count() == 92
    with open(path, "rb") as f:
        assert ExactCover.from_dlx(f).count() == 92
    assert ExactCover.from_dlx(io.StringIO(text)).count() == 92
    assert ExactCover.from_dlx(text).count() == 92
    assert ExactCover.from_dlx(text.encode()).count() == 92
    monkeypatch.chdir(tmp_path)
    for name in ("queens8.dlx", str(path)):
        with pytest.raises(ArgumentError, match=r"names a file.*pathlib\.Path"):
            ExactCover.from_dlx(name)
    assert ExactCover.from_dlx(pathlib.Path("queens8.dlx")).count() == 92
    assert len(ExactCover.from_dlx("no-such-file")) == 0  # a problem of one item, as before
    with pytest.raises(FileNotFoundError):
        ExactCover.from_dlx(tmp_path / "missing.dlx")
    with pytest.raises(ArgumentError, match="must be a str or UTF-8 bytes"):
        ExactCover.from_dlx(3)
