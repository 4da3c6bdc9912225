"""The compiled batch over bit words (``dlx.kernels.words``) against the batch over links.

A second formulation of one search is held to the first: on random problems without
colors (secondary items, mixed widths, options dropped, forced options that clash or are
not in the problem, budgets, limits, slices of a few nodes) and on Sudoku data sets of
two sizes, every record of a batch (status, solutions found, the first solution, nodes,
updates, deepest level) equals the record of the kernel over links, and the errors are
the same. The batch tests (``test_batch.py``) hold both to single searches.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import Colored, ExactCover, ForcedOptionError, NoPrimaryItemWarning
from dlx.kernels import words as kernel_words
from sudoku import parse_string, to_exact_cover
from sudoku.reduction import empty_grid_problem
from tests.helpers.backends import needs_numba
from tests.helpers.datasets import data_dir
from tests.helpers.random_problems import xcc_problems
from tests.helpers.slices import tiny_slices

pytestmark = needs_numba

DATA = data_dir("sudoku")


def _twins(options, primary, secondary) -> tuple[ExactCover, ExactCover]:
    """The problem twice, with links of its own each: the first batches on words, the
    second on links."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        words, links = (ExactCover(options, primary=primary, secondary=secondary)
                        for _ in range(2))
    links.links.converted["numba-words"] = False
    return words, links


def _outcome(problem: ExactCover, instances, **budgets) -> tuple:
    """The batch's whole table, or the error it raised (its type and message)."""
    try:
        return "table", problem.solve_batch(instances, backend="numba", **budgets).table.tolist()
    except ForcedOptionError as e:
        return "error", str(e)


@st.composite
def cases(draw):
    options, primary, secondary = draw(xcc_problems(max_options=12, colors=False))
    n = len(options)
    option = st.integers(-1, n) if n else st.just(0)  # -1 and n: not in the problem
    instances = draw(st.lists(st.lists(option, max_size=4), max_size=6))
    budgets = {"limit": draw(st.sampled_from([1, 2, None])),
               "max_nodes": draw(st.sampled_from([None, None, 1, 4]))}
    return (options, primary, secondary), instances, budgets


@settings(max_examples=300, deadline=None)
@given(cases())
def test_words_equal_links_on_random_problems(case):
    problem, instances, budgets = case
    words, links = _twins(*problem)
    got = _outcome(words, instances, **budgets)
    assert got == _outcome(links, instances, **budgets)
    if instances and words.links.n_options:  # it really ran on words
        assert words.links.converted.get("numba-words")


@pytest.mark.parametrize("nodes", [1, 3])
def test_words_in_slices_give_the_same_records(monkeypatch, nodes):
    """The words batch returns to Python every few nodes and resumes: nothing changes."""
    import dlx.compiled

    problem = empty_grid_problem(3)
    puzzles = [_givens(p) for p in _lines("norvig_top95.txt", 8)]
    expected = [problem.solve_batch(puzzles, limit=limit, max_nodes=300,
                                    backend="numba").table.tolist() for limit in (1, 3)]
    slices = tiny_slices(monkeypatch, nodes)
    monkeypatch.setattr(dlx.compiled, "first_slice", lambda links: nodes)
    problem.links.converted.pop("numba-batch-setup", None)  # the first slice anew
    for limit, table in zip((1, 3), expected):
        assert problem.solve_batch(puzzles, limit=limit, max_nodes=300,
                                   backend="numba").table.tolist() == table
    assert sum(s.calls for s in slices) > 100  # it really ran in many slices
    problem.links.converted.pop("numba-batch-setup")  # later tests: the usual first slice


def _lines(name: str, n: int | None = None) -> list[str]:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not there")
    return [s.strip() for s in path.read_text().splitlines() if s.strip()][:n]


def _givens(puzzle: str) -> list[int]:
    geo, values = parse_string(puzzle)
    return [cell * geo.side + v - 1 for cell, v in enumerate(values) if v]


@pytest.mark.parametrize("name, n", [("royle_17clue.txt", 3000),
                                     ("forum_hardest_1905_11plus.txt", 300),
                                     ("norvig_top95.txt", None), ("gecode_16x16.txt", None)])
def test_words_equal_links_on_sudoku_sets(name, n):
    """Counting to 2 (so every tree is searched to its second solution or its end)."""
    puzzles = _lines(name, n)
    side = parse_string(puzzles[0])[0].side
    words = empty_grid_problem(round(side**0.5))
    links = to_exact_cover("." * side * side, givens="select")  # the same problem, own links
    links.links.converted["numba-words"] = False
    instances = [_givens(p) for p in puzzles]
    got = words.solve_batch(instances, limit=2, backend="numba")
    assert words.links.converted.get("numba-words")
    expected = links.solve_batch(instances, limit=2, backend="numba")
    assert np.array_equal(got.table, expected.table)


def test_which_problems_take_words():
    """Colors, multiplicities, shuffled lists and too many options stay on links."""
    plain = ExactCover([["a", "b"], ["b"], ["a"]], primary=["a", "b"])
    assert kernel_words.words(plain.links) is not None
    colored = ExactCover([["a", Colored("x", "red")], ["a", Colored("x", "blue")]],
                         primary=["a"], secondary=["x"])
    assert kernel_words.words(colored.links) is None
    bounded = ExactCover([["a"], ["a"]], primary=["a"], multiplicity={"a": (1, 2)})
    assert kernel_words.words(bounded.links) is None
    many = ExactCover([["a"]] * (kernel_words.MAX_OPTIONS + 1), primary=["a"])
    assert kernel_words.words(many.links) is None
    assert kernel_words.words(plain.links.shuffled(1)) is None


def test_levels_kept_are_those_a_solution_can_use(monkeypatch):
    """A search holds at most (primary items) // (fewest primary items of an option)
    levels, plus the root: a Sudoku, 324 // 4 = 81; its copies of the lengths (levels
    times primary items, the root's item 0 included) must fit ``MAX_SAVED``, or the
    problem stays on links."""
    tables = kernel_words.words(empty_grid_problem(3).links)
    assert len(tables.LEFT) == 82 and len(tables.LENS) == 82 * 325
    monkeypatch.setattr(kernel_words, "MAX_SAVED", 82 * 325 - 1)
    assert kernel_words.words(empty_grid_problem(3).links) is None


def test_a_search_as_deep_as_the_levels_kept():
    """Two-item options over four items: every solution is two levels deep, the most the
    tables hold; counted to the end, the records are the links' own."""
    problem = ([["a", "b"], ["c", "d"], ["a", "c"], ["b", "d"], ["a", "d"], ["b", "c"]],
               ["a", "b", "c", "d"], [])
    words, links = _twins(*problem)
    assert len(kernel_words.words(words.links).LEFT) == 3
    got = _outcome(words, [[], [0], [2, 3]], limit=None)
    assert got == _outcome(links, [[], [0], [2, 3]], limit=None)
    assert [row[1] for row in got[1]] == [3, 1, 1]


@pytest.mark.parametrize("box", [2, 3, 4])
def test_a_packed_state_unpacks_to_views_of_itself(box):
    """``pack``: every field in two arrays; ``unpack`` (as written, and as the compiled
    call unpacks it) gives each field back equal, as a view: what the search writes
    lands in the packed arrays."""
    tables = kernel_words.words(empty_grid_problem(box).links)
    state = kernel_words.workspace(tables)
    state.LEN[:] = np.arange(len(state.LEN), dtype=np.int32)  # something to see
    state.REG[:] = 7
    mem, lmem = kernel_words.pack(state)
    back = kernel_words.unpack(mem, lmem)
    for name, a, b in zip(state._fields, state, back):
        assert a.dtype == b.dtype and np.array_equal(a, b), name
        assert b.flags.c_contiguous and (np.shares_memory(b, mem) or np.shares_memory(b, lmem))
    back.LENS[3] = -5
    back.AS[1] = 99
    again = kernel_words.unpack(mem, lmem)
    assert again.LENS[3] == -5 and again.AS[1] == 99


def test_short_lengths_where_they_fit():
    """The short twin (int16 lengths) takes fewer than 2**10 primary items, each in
    fewer than 16 options; other problems keep int32 lengths."""
    assert kernel_words.is_short(kernel_words.words(empty_grid_problem(3).links))
    assert not kernel_words.is_short(kernel_words.words(empty_grid_problem(4).links))  # 1,024
    fifteen = ExactCover([["a"]] * 15 + [["b"]], primary=["a", "b"])
    sixteen = ExactCover([["a"]] * 16 + [["b"]], primary=["a", "b"])
    assert kernel_words.is_short(kernel_words.words(fifteen.links))
    assert not kernel_words.is_short(kernel_words.words(sixteen.links))
    assert kernel_words.dtypes(True)[kernel_words.Words._fields.index("LEN")] == "int16"


@settings(max_examples=150, deadline=None)
@given(cases(), st.integers(16, 20))
def test_words_with_int32_lengths_equal_links(case, many):
    """The random problems above all fit the short twin: with an item of 16 options or
    more added (its options at the end, so the instances name the same options), the
    batch runs on int32 lengths, and its records are still the links' own."""
    (options, primary, secondary), instances, budgets = case
    words, links = _twins([*options, *[["many"]] * many], [*primary, "many"], secondary)
    got = _outcome(words, instances, **budgets)
    assert got == _outcome(links, instances, **budgets)
    if instances:  # it really ran on words, int32 lengths
        tables = words.links.converted.get("numba-words")
        assert tables and not kernel_words.is_short(tables)
