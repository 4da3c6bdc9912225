"""Known answers, Knuth's node and update counts, budgets and scale for the dlx engine.

Every solution the engine returns is checked by the independent verifier in
``tests/helpers/oracle.py`` (and ``ExactCover.is_solution`` must agree). The problems are built
here from the encodings in ``shared/data/exact_cover/SOURCES.md``, so that these tests do
not depend on ``dlx.problems``; the ``.dlx`` files are used when the data folder exists.
"""

from __future__ import annotations

import functools
import itertools
import time
import warnings
from collections.abc import Hashable
from pathlib import Path

import numpy as np
import pytest

from dlx import (
    ArgumentError,
    Colored,
    ExactCover,
    NoPrimaryItemWarning,
    SearchStoppedError,
    Status,
)
from tests.helpers.datasets import SHIPPED
from tests.helpers.knuth import DATA, NODE_LIMIT, figures
from tests.helpers.oracle import read_dlx, violation

BACKEND = "python"  # the compiled backend has its own tests

Options = list[list[Hashable]]


# ----- problems, built from the encodings of SOURCES.md ---------------------------------


def base36(k: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[k]


def queens(n: int) -> tuple[Options, list[str], list[str]]:
    primary = [f"{t}{base36(i)}" for i in range(n) for t in "rc"]
    secondary = [f"{t}{base36(d)}" for d in range(2 * n - 1) for t in "ab"]
    options: Options = [
        [f"r{base36(i)}", f"c{base36(j)}", f"a{base36(i + j)}", f"b{base36(n - 1 - i + j)}"]
        for i in range(n)
        for j in range(n)
    ]
    return options, primary, secondary


def langford(n: int) -> tuple[Options, list[str], list[str]]:
    primary = [f"v{i}" for i in range(1, n + 1)] + [f"s{j}" for j in range(1, 2 * n + 1)]
    options: Options = [
        [f"v{i}", f"s{j}", f"s{j + i + 1}"]
        for i in range(1, n + 1)
        for j in range(1, 2 * n - i)
    ]
    return options, primary, []


def sudoku_empty(box: int) -> tuple[Options, list[str], list[str]]:
    n = box * box
    cells = [(r, c) for r in range(n) for c in range(n)]
    primary = (
        [f"p{base36(r)}{base36(c)}" for r, c in cells]
        + [f"r{base36(r)}{base36(d)}" for r in range(n) for d in range(n)]
        + [f"c{base36(c)}{base36(d)}" for c in range(n) for d in range(n)]
        + [f"b{base36(b)}{base36(d)}" for b in range(n) for d in range(n)]
    )
    options: Options = []
    for r, c in cells:
        b = (r // box) * box + c // box
        for d in range(n):
            options.append([f"p{base36(r)}{base36(c)}", f"r{base36(r)}{base36(d)}",
                            f"c{base36(c)}{base36(d)}", f"b{base36(b)}{base36(d)}"])
    return options, primary, []


PENTOMINOES = {
    "F": [".XX", "XX.", ".X."],
    "I": ["XXXXX"],
    "L": ["X.", "X.", "X.", "XX"],
    "N": ["XXX.", "..XX"],
    "P": ["XX", "XX", "X."],
    "T": ["XXX", ".X.", ".X."],
    "U": ["X.X", "XXX"],
    "V": ["X..", "X..", "XXX"],
    "W": ["X..", "XX.", ".XX"],
    "X": [".X.", "XXX", ".X."],
    "Y": [".X", "XX", ".X", ".X"],
    "Z": ["XX.", ".X.", ".XX"],
}


def _orientations(picture: list[str]) -> list[list[tuple[int, int]]]:
    cells = [(r, c) for r, row in enumerate(picture) for c, ch in enumerate(row) if ch == "X"]
    shapes: list[list[tuple[int, int]]] = []
    for reflect in (False, True):
        shape = [(r, -c) for r, c in cells] if reflect else cells
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]
            r0 = min(r for r, _ in shape)
            c0 = min(c for _, c in shape)
            normal = sorted((r - r0, c - c0) for r, c in shape)
            if normal not in shapes:
                shapes.append(normal)
    return shapes


def pentominoes(rows: int, cols: int) -> tuple[Options, list[str], list[str]]:
    def cell(r: int, c: int) -> str:
        return base36(r) + base36(c)

    primary = list(PENTOMINOES) + [cell(r, c) for r in range(rows) for c in range(cols)]
    options: Options = []
    for name, picture in PENTOMINOES.items():
        for shape in _orientations(picture):
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            for r0 in range(rows - height + 1):
                for c0 in range(cols - width + 1):
                    options.append([name, *sorted(cell(r0 + r, c0 + c) for r, c in shape)])
    return options, primary, []


def chain(n: int) -> tuple[Options, list[str], list[str]]:
    """Items a_k, b_k; options {a_k b_k} and decoys {a_k b_k+1}: one solution, n deep.

    Option 2k is {a_k b_k}. A decoy {a_k b_k+1} leaves b_k to {a_k-1 b_k}, which clashes
    with the option already covering a_k-1, so the n options {a_k b_k} are the only cover.
    """
    primary = [f"{t}{k}" for k in range(n) for t in "ab"]
    options: Options = []
    for k in range(n):
        options.append([f"a{k}", f"b{k}"])
        if k + 1 < n:
            options.append([f"a{k}", f"b{k + 1}"])
    return options, primary, []


# ----- checking solutions ---------------------------------------------------------------


def solve(
    problem: ExactCover, options: Options, primary: list, secondary: list,
    bounds: dict | None = None, **kwargs
) -> list[list[int]]:
    """All solutions (within budgets), each checked by the oracle and by is_solution."""
    found = [list(s) for s in problem.solutions(backend=BACKEND, **kwargs)]
    for s in found:
        assert s == sorted(s)
        assert violation(options, primary, secondary, s, bounds) is None, violation(
            options, primary, secondary, s, bounds)
        assert problem.is_solution(s)
    assert len({tuple(s) for s in found}) == len(found), "a solution is repeated"
    return found


def build(options: Options, primary: list, secondary: list) -> ExactCover:
    return ExactCover(options, primary=primary, secondary=secondary)


def needs_data(name: str) -> Path:
    path = DATA / name
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path


# ----- Knuth's examples -----------------------------------------------------------------

KNUTH_OPTIONS: Options = [["C", "E", "F"], ["A", "D", "G"], ["B", "C", "F"],
                          ["A", "D"], ["B", "G"], ["D", "E", "G"]]


def test_knuth_seven_item_example_all_primary():
    """Matrix (3) of "Dancing Links": the only cover is {A D}, {C E F}, {B G}."""
    primary = list("ABCDEFG")
    problem = build(KNUTH_OPTIONS, primary, [])
    assert solve(problem, KNUTH_OPTIONS, primary, []) == [[0, 3, 4]]
    assert problem.stats.complete and problem.stats.solutions == 1


def test_knuth_dlx1_example_file():
    text = needs_data("knuth_dlx1_example.dlx").read_text()
    primary, secondary, options = read_dlx(text)
    assert (primary, secondary) == (list("ABCDE"), ["F", "G"])
    problem = ExactCover.from_dlx(text)
    assert solve(problem, options, primary, secondary) == [[0, 3, 4]]
    assert [problem.option(k) for k in (0, 3, 4)] == [["C", "E", "F"], ["A", "D"], ["B", "G"]]
    assert (problem.stats.nodes, problem.stats.updates) == (6, 30)


def test_knuth_dlx2_color_example():
    """dlx2.w's example: {A C X:1 Y:1} and {B X:1} share X with one color."""
    primary, secondary = ["A", "B", "C"], ["X", "Y"]
    options: Options = [
        ["A", "B", Colored("X", "0"), Colored("Y", "0")],
        ["A", "C", Colored("X", "1"), Colored("Y", "1")],
        [Colored("X", "0"), Colored("Y", "1")],
        ["B", Colored("X", "1")],
        ["C", Colored("Y", "1")],
    ]
    with pytest.warns(NoPrimaryItemWarning):
        problem = build(options, primary, secondary)
    assert problem.dropped == [2]
    assert solve(problem, options, primary, secondary) == [[1, 3]]
    assert (problem.stats.nodes, problem.stats.updates) == (4, 14)


# ----- families with known counts -------------------------------------------------------

QUEENS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724}  # A000170


@pytest.mark.parametrize("n", sorted(QUEENS))
def test_queens(n):
    options, primary, secondary = queens(n)
    problem = build(options, primary, secondary)
    found = solve(problem, options, primary, secondary)
    assert len(found) == QUEENS[n]
    assert problem.stats.complete and problem.stats.status is Status.COMPLETE
    assert problem.count(backend=BACKEND) == QUEENS[n]
    for s in found:  # decode: one queen per row and column, no two on a diagonal
        squares = [divmod(k, n) for k in s]
        assert len({r for r, _ in squares}) == len({c for _, c in squares}) == n
        assert len({r + c for r, c in squares}) == len({r - c for r, c in squares}) == n


@pytest.mark.parametrize("n", [8, 9, 10])
def test_queens_builder_matches_file(n):
    options, primary, secondary = queens(n)
    assert read_dlx(needs_data(f"queens{n}.dlx").read_text()) == (primary, secondary, options)


LANGFORD = {3: 2, 4: 2, 7: 52, 8: 300}  # 2 x A014552: a sequence and its reversal


@pytest.mark.parametrize("n", sorted(LANGFORD))
def test_langford_pairs(n):
    options, primary, secondary = langford(n)
    problem = build(options, primary, secondary)
    found = solve(problem, options, primary, secondary)
    assert len(found) == LANGFORD[n]
    sequences = set()
    for s in found:  # decode: the two copies of value i are i positions apart
        seq = [0] * (2 * n)
        for k in s:
            v, a, b = (int(e[1:]) for e in options[k])
            assert b - a == v + 1
            seq[a - 1] = seq[b - 1] = v
        assert sorted(seq) == sorted(list(range(1, n + 1)) * 2)
        sequences.add(tuple(seq))
    assert {seq[::-1] for seq in sequences} == sequences


@pytest.mark.parametrize("n", [7, 8])
def test_langford_builder_matches_file(n):
    options, primary, secondary = langford(n)
    assert read_dlx(needs_data(f"langford{n}.dlx").read_text()) == (primary, secondary, options)


def test_empty_shidoku_has_288_grids():
    options, primary, secondary = sudoku_empty(2)
    problem = build(options, primary, secondary)
    found = solve(problem, options, primary, secondary)
    assert len(found) == 288
    grids = set()
    for s in found:
        grid = [[-1] * 4 for _ in range(4)]
        for k in s:
            cell, d = divmod(k, 4)
            grid[cell // 4][cell % 4] = d
        digits = set(range(4))
        assert all(set(row) == digits for row in grid)
        assert all({grid[r][c] for r in range(4)} == digits for c in range(4))
        assert all({grid[r][c] for r in range(b0, b0 + 2) for c in range(c0, c0 + 2)} == digits
                   for b0 in (0, 2) for c0 in (0, 2))
        grids.add(tuple(map(tuple, grid)))
    assert len(grids) == 288
    # Same encoding and item order as shidoku_empty4x4.dlx, so the same search as DLX1.
    assert (problem.stats.nodes, problem.stats.updates) == (2157, 22545)


def test_shidoku_builder_matches_file():
    options, primary, secondary = sudoku_empty(2)
    assert read_dlx(needs_data("shidoku_empty4x4.dlx").read_text()) == (primary, secondary, options)


@functools.cache
def _run_file(name: str):
    """Parse and fully solve one data file, once per session (pentomino 3x20 takes seconds)."""
    text = (DATA / name).read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        problem = ExactCover.from_dlx(text)
    primary, secondary, options, bounds = read_dlx(text, bounds=True)
    found = solve(problem, options, primary, secondary, bounds=bounds)
    return problem, found, problem.stats


@pytest.mark.slow
def test_pentominoes_3x20():
    if (DATA / "pentomino_3x20.dlx").is_file():
        problem, found, stats = _run_file("pentomino_3x20.dlx")
        options = read_dlx((DATA / "pentomino_3x20.dlx").read_text())[2]
    else:
        options, primary, secondary = pentominoes(3, 20)
        problem = build(options, primary, secondary)
        found = solve(problem, options, primary, secondary)
        stats = problem.stats
    assert len(found) == 8 and stats.complete
    for s in found:  # every piece once, every one of the 60 cells once
        pieces = [options[k][0] for k in s]
        assert sorted(pieces) == sorted(PENTOMINOES)
        assert len({cell for k in s for cell in options[k][1:]}) == 60


def test_pentomino_builder_matches_file():
    text = needs_data("pentomino_3x20.dlx").read_text()
    primary, secondary, options = read_dlx(text)
    built_options, built_primary, built_secondary = pentominoes(3, 20)
    assert (built_primary, built_secondary) == (primary, secondary)
    assert len(built_options) == len(options) == 1236
    assert {tuple(o) for o in built_options} == {tuple(o) for o in options}


# ----- Knuth's DLX1/DLX2 statistics on the data files -----------------------------------


def _table_cases():
    if not (DATA / "SOURCES.md").is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{DATA} is absent"))]
    cases = []
    for row in figures():
        marks = [pytest.mark.slow] if row[0].startswith("pentomino") or row[3] > 5_000_000 \
            else []
        if row[2] < NODE_LIMIT:
            cases.append(pytest.param(row, id=row[0], marks=marks))
    return cases


def test_sources_table_is_parsed():
    if not (DATA / "SOURCES.md").is_file():
        pytest.skip(f"{DATA} is absent")
    rows = {row[0]: row[1:] for row in figures()}
    assert rows["knuth_dlx1_example.dlx"] == (1, 6, 30)
    assert rows["queens8.dlx"] == (92, 1223, 21456)
    if DATA.parent != SHIPPED:  # the shipped table has only the shipped files
        assert rows["pentomino_6x10.dlx"] == (9356, 3637261, 1242377480)
    small = {name for name, (_, nodes, _) in rows.items() if nodes < NODE_LIMIT}
    assert "langford10.dlx" in small and "queens12.dlx" not in small
    if DATA.parent == SHIPPED:
        return
    assert rows["xcc_latin4.dlx"] == (576, 4873, 115897)  # the DLX2 table
    assert rows["mcc_rowcol6_2.dlx"] == (67950, 198658, 715151)  # the DLX3 table
    assert rows["knuth_dlx3_example.dlx"] == (1, 6, 14)
    assert "langford16_sym.dlx" not in rows  # stopped: no figures
    assert len(small) == 28
    assert "mcc_random_c1.dlx" in small and "mcc_queens8_k5.dlx" not in small


@pytest.mark.parametrize("row", _table_cases())
def test_nodes_and_updates_equal_knuth(row):
    name, solutions, nodes, updates = row
    _, found, stats = _run_file(name)
    assert len(found) == solutions == stats.solutions
    assert stats.complete and stats.status is Status.COMPLETE
    assert (stats.nodes, stats.updates) == (nodes, updates)


@pytest.mark.parametrize("name", ["knuth_dlx2_color_example.dlx", "queens8.dlx",
                                  "langford8_sym.dlx", "sudoku_top95_1_reduced.dlx"])
def test_count_searches_like_solutions(name):
    """count() takes the same path through the tree as solutions(): same nodes and updates."""
    needs_data(name)
    problem, found, stats = _run_file(name)
    assert problem.count(backend=BACKEND) == len(found)
    assert (problem.stats.nodes, problem.stats.updates) == (stats.nodes, stats.updates)


def test_default_backend_solves_a_large_problem():
    options, primary, secondary = chain(2000)
    problem = build(options, primary, secondary)
    assert problem.links.n_nodes >= 5000
    assert problem.count() == 1 and problem.stats.status is Status.COMPLETE


# ----- budgets --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def queens8():
    options, primary, secondary = queens(8)
    problem = build(options, primary, secondary)
    return problem, solve(problem, options, primary, secondary)


def test_max_nodes_stops_the_search(queens8):
    problem, everything = queens8
    search = problem.solutions(max_nodes=300, backend=BACKEND)
    part = list(search)
    stats = search.stats
    assert stats is problem.stats  # the last search that finished in this thread
    assert stats.status is Status.MAX_NODES and stats.stopped and not stats.complete
    assert stats.nodes == 300
    assert 0 < len(part) < 92 and part == everything[: len(part)]


def test_max_nodes_boundary(queens8):
    problem, _ = queens8  # the whole tree has 1223 nodes
    assert problem.solutions(max_nodes=1222, backend=BACKEND).count() == 92
    assert problem.stats.status is Status.MAX_NODES and not problem.stats.complete
    with pytest.raises(SearchStoppedError, match=r"count\(\): max_nodes=1222 ran out after "
                       "1,222 nodes and 92 solutions") as stop:  # all found, none known
        problem.count(max_nodes=1222, backend=BACKEND)
    assert stop.value.stats.status is Status.MAX_NODES
    assert problem.count(max_nodes=1223, backend=BACKEND) == 92
    assert problem.stats.status is Status.COMPLETE and not problem.stats.stopped
    assert problem.solutions(max_nodes=0, backend=BACKEND).count() == 0
    assert problem.stats.status is Status.MAX_NODES and problem.stats.nodes == 0
    with pytest.raises(ArgumentError, match="max_nodes must be at least 0, got -1"):
        problem.count(max_nodes=-1, backend=BACKEND)
    assert problem.count(max_nodes=2**70, backend=BACKEND) == 92  # huge: unbounded
    assert problem.stats.status is Status.COMPLETE and problem.stats.nodes == 1223


def test_stopped_differs_from_no_solution():
    options, primary, secondary = langford(9)  # no solution: n = 1 (mod 4)
    problem = build(options, primary, secondary)
    with pytest.raises(SearchStoppedError, match=r"first\(\): max_nodes=500"):
        problem.first(max_nodes=500, backend=BACKEND)  # None would say "no solution"
    assert problem.stats.status is Status.MAX_NODES and not problem.stats.complete
    assert next(problem.solutions(1, max_nodes=500, backend=BACKEND), None) is None
    assert problem.first(backend=BACKEND) is None
    assert problem.stats.status is Status.COMPLETE and not problem.stats.stopped
    assert problem.stats.nodes == 10797  # langford9.dlx in SOURCES.md


def test_timeout_stops_a_long_search():
    options, primary, secondary = langford(10)  # 60,790 nodes, no solution
    problem = build(options, primary, secondary)
    start = time.perf_counter()
    with pytest.raises(SearchStoppedError, match=r"timeout=0\.05"):
        problem.count(timeout=0.05, backend=BACKEND)
    elapsed = time.perf_counter() - start
    assert problem.stats.status is Status.TIMEOUT and not problem.stats.complete
    assert problem.stats.stopped
    assert 0 < problem.stats.nodes < 60790
    assert problem.stats.seconds >= 0.05
    assert elapsed < 2.0


def test_timeout_while_listing_no_solutions():
    options, primary, secondary = langford(10)
    problem = build(options, primary, secondary)
    assert list(problem.solutions(timeout=0.05, backend=BACKEND)) == []
    assert problem.stats.status is Status.TIMEOUT and not problem.stats.complete


def test_timeout_while_listing_many_solutions():
    n = 17  # 2**17 solutions, one every other node: listing them all takes about a second
    problem = ExactCover([[i] for i in range(n) for _ in range(2)])
    search = problem.solutions(timeout=0.05, backend=BACKEND)
    found = sum(1 for _ in search)
    assert problem.stats is search.stats
    assert search.stats.status is Status.TIMEOUT and not search.stats.complete
    assert 0 < found == search.stats.solutions < 2**n


def test_generous_timeout_completes(queens8):
    problem, _ = queens8
    assert problem.count(timeout=60, backend=BACKEND) == 92
    assert problem.stats.status is Status.COMPLETE and not problem.stats.stopped


def test_limit(queens8):
    problem, everything = queens8
    assert list(problem.solutions(3, backend=BACKEND)) == everything[:3]
    assert problem.stats.status is Status.LIMIT and not problem.stats.complete
    assert not problem.stats.stopped
    assert problem.count(limit=5, backend=BACKEND) == 5
    assert problem.stats.status is Status.LIMIT and problem.stats.solutions == 5
    for call in (problem.count, problem.solutions):  # a limit is at least 1 now
        with pytest.raises(ArgumentError, match="limit must be at least 1, got 0"):
            call(limit=0, backend=BACKEND)
    assert problem.stats.status is Status.LIMIT and problem.stats.solutions == 5
    assert problem.count(limit=1000, backend=BACKEND) == 92
    assert problem.stats.status is Status.COMPLETE and not problem.stats.stopped
    assert problem.count(limit=2**70, backend=BACKEND) == 92  # huge: unbounded
    assert problem.stats.status is Status.COMPLETE


def test_lazy_iteration_resumes(queens8):
    problem, everything = queens8
    iterator = problem.solutions(backend=BACKEND)
    first_three = list(itertools.islice(iterator, 3))
    assert first_three == everything[:3]
    stats = iterator.stats  # live while the search runs
    assert stats.solutions == 3 and not stats.complete and not stats.stopped
    assert stats.status is Status.RUNNING and problem.stats is not stats  # not finished
    assert stats.nodes < 1223
    assert first_three + list(iterator) == everything
    assert stats.status is Status.COMPLETE and stats.nodes == 1223
    assert problem.stats is stats


def test_interleaved_iterators_do_not_interfere(queens8):
    problem, everything = queens8
    a = problem.solutions(backend=BACKEND)
    b = problem.solutions(backend=BACKEND)
    pairs = list(zip(a, b))
    assert [x for x, _ in pairs] == [y for _, y in pairs] == everything
    assert next(b, None) is None  # zip stopped at a's end, before asking b again
    for s in (a.stats, b.stats):
        assert s.status is Status.COMPLETE and (s.nodes, s.solutions) == (1223, 92)


def test_first(queens8):
    problem, everything = queens8
    assert problem.first(backend=BACKEND) == everything[0]
    assert problem.stats.status is Status.LIMIT and problem.stats.solutions == 1
    with pytest.raises(ArgumentError, match="no limit"):
        problem.first(limit=1, backend=BACKEND)


# ----- scale ----------------------------------------------------------------------------


@pytest.mark.slow
def test_solution_100000_options_deep():
    n = 100_000
    options, primary, secondary = chain(n)
    # The same problem through the vectorized front end: column 2k is a_k, 2k + 1 is b_k.
    columns = np.stack([2 * np.arange(n), 2 * np.arange(n) + 1, 2 * np.arange(n),
                        2 * np.arange(n) + 3], axis=1).ravel()[:-2]
    problem = ExactCover.from_csr(np.arange(0, len(columns) + 1, 2), columns,
                                  n_items=2 * n, names=primary)
    assert [problem.option(k) for k in (0, 1, 2 * n - 2)] == [options[0], options[1],
                                                              options[2 * n - 2]]
    assert len(problem) == len(options)
    found = solve(problem, options, primary, secondary)
    assert found == [list(range(0, 2 * n - 1, 2))]
    assert problem.stats.max_level == n and problem.stats.status is Status.COMPLETE
    assert problem.stats.nodes == n + 1


@pytest.mark.slow
def test_more_than_a_million_search_nodes():
    """19 items with two one-item options each: 2**19 covers, 2**20 - 1 nodes of the plain
    search; ``count()`` left to itself takes the memoized search, which meets each of the
    19 subproblems once (two nodes a level, one of them a hit)."""
    n = 19
    problem = ExactCover([[i] for i in range(n) for _ in range(2)])
    assert problem.count(backend=BACKEND, memo=False) == 2**n
    stats = problem.stats
    assert stats.status is Status.COMPLETE
    assert (stats.nodes, stats.updates, stats.max_level) == (2 ** (n + 1) - 1, 2**n - 1, n)
    assert problem.count(backend=BACKEND) == 2**n
    assert (problem.stats.answered_by, problem.stats.nodes) == ("memo", 2 * n + 1)


@pytest.mark.slow
def test_more_than_a_million_link_nodes():
    """200,000 options of 4 items (800 copies of each block of 4 among 1,000 items)."""
    n_items, copies = 1000, 800
    blocks = np.arange(n_items).reshape(-1, 4)
    indices = np.tile(blocks, (copies, 1)).ravel()
    indptr = np.arange(0, len(indices) + 1, 4)
    problem = ExactCover.from_csr(indptr, indices, n_items=n_items)
    assert problem.links.n_nodes > 1_000_000
    solution = problem.first(backend=BACKEND)
    assert solution is not None and len(solution) == n_items // 4
    covered = np.sort(np.concatenate([indices[4 * k: 4 * k + 4] for k in solution]))
    assert np.array_equal(covered, np.arange(n_items))
    assert problem.is_solution(solution)
