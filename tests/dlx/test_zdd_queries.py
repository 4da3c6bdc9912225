"""Issue 40, the queries graphillion users expect, on dlx.SolutionSet: supersets and
subsets with respect to another family (and their complements), families by size,
solutions ranked by costs given per call, and a set made from an explicit list of
solutions; each against Python frozensets on random XCC problems, on both backends,
with hostile arguments, and under the store's memory bound."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import (
    ArgumentError,
    Colored,
    ExactCover,
    NoPrimaryItemWarning,
    SearchStoppedError,
    Status,
)
from dlx.zdd import SolutionSet
from tests.helpers.backends import AVAILABLE
from tests.helpers.memo_problems import domino_problem, xcc_problems

Family = set[frozenset[int]]


def families(s: SolutionSet) -> Family:
    return {frozenset(x) for x in s}


def option_families(n: int) -> st.SearchStrategy[list[list[int]]]:
    """Any sets of options of a problem of ``n`` options (not solutions: partial ones,
    the empty set, repeats)."""
    if n == 0:
        return st.lists(st.just([]), max_size=2)
    return st.lists(st.lists(st.integers(0, n - 1), max_size=4), max_size=6)


def restricted(full: SolutionSet, every: Family, data: st.DataObject,
               n: int) -> tuple[SolutionSet, Family]:
    """A random part of the whole set (by restrict), and its family."""
    ins = data.draw(st.lists(st.integers(0, n - 1), max_size=1)) if n else []
    outs = data.draw(st.lists(st.integers(0, n - 1), max_size=2)) if n else []
    want = {x for x in every if set(ins) <= x and not set(outs) & x}
    return full.restrict(include=ins, exclude=outs), want


# ----- against Python sets, both backends ---------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE), st.data())
def test_queries_equal_python_sets(problem, backend, data):
    full = problem.solution_set(backend="python").using(backend)
    every = families(full)
    n = len(problem)
    a, sa = restricted(full, every, data, n)
    sets = data.draw(option_families(n))
    other = {frozenset(x) for x in sets}
    b, sb = restricted(full, every, data, n)
    for given_other, fam in ((sets, other), (b, sb)):
        sup = {x for x in sa if any(y <= x for y in fam)}
        sub = {x for x in sa if any(x <= y for y in fam)}
        for got, want in ((a.supersets(given_other), sup), (a.subsets(given_other), sub),
                          (a.non_supersets(given_other), sa - sup),
                          (a.non_subsets(given_other), sa - sub)):
            assert families(got) == want and got.count() == len(want)
            assert got <= a and got.store is a.store
    sizes = {len(x) for x in every} | {0, 1, n}
    for k in sorted(sizes | {-1, n + 1}):
        for got, want in ((a.len(k), {x for x in sa if len(x) == k}),
                          (a.larger(k), {x for x in sa if len(x) > k}),
                          (a.smaller(k), {x for x in sa if len(x) < k})):
            assert families(got) == want and got.count() == len(want)
    for k in sorted(sizes):
        assert a.len(k) | a.larger(k) | a.smaller(k) == a
        assert a.len(k).isdisjoint(a.larger(k)) and a.len(k).isdisjoint(a.smaller(k))


@settings(max_examples=60, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE), st.data())
def test_ranked_is_every_solution_by_cost(problem, backend, data):
    full = problem.solution_set(backend="python").using(backend)
    n = len(problem)
    costs = data.draw(st.lists(st.integers(-5, 9) | st.floats(-4, 4, allow_nan=False),
                               min_size=n, max_size=n))
    order = list(full.ranked(costs))
    cost = [math.fsum(costs[o] for o in x) for x in order]
    assert sorted(map(tuple, order)) == sorted(tuple(sorted(x)) for x in full)
    assert all(p <= q + 1e-9 for p, q in itertools.pairwise(cost))
    k = data.draw(st.integers(0, 4))
    assert [math.fsum(costs[o] for o in x) for x in full.best(k, costs=costs)] == \
        pytest.approx(cost[:k])
    assert full.canonical().best(k, costs=costs) is not None


@settings(max_examples=60, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE), st.data())
def test_from_solutions_equals_the_searched_set(problem, backend, data):
    full = problem.solution_set(backend="python").using(backend)
    listed = list(problem.solutions(backend="python"))
    made = SolutionSet.from_solutions(problem, listed)
    assert made == full and hash(made) == hash(full)
    assert made.node_count == full.canonical().node_count
    part = data.draw(st.lists(st.sampled_from(listed), max_size=4)) if listed else []
    some = SolutionSet.from_solutions(problem, part)
    assert families(some) == {frozenset(x) for x in part} and some <= full
    assert (full - some) | some == full and (some & full) == some


# ----- the domino board: what the queries mean there ---------------------------------------


@pytest.fixture(scope="module")
def board() -> ExactCover:
    return domino_problem(6, 6)


def test_queries_on_a_board(board):
    s = board.solution_set()
    a, b = 0, 3
    both = s.restrict(include=[a, b])
    either = s.restrict(include=[a]) | s.restrict(include=[b])
    assert s.supersets([[a, b]]) == both and s.supersets([[a], [b]]) == either
    assert s.supersets([[]]) == s and s.supersets([]).count() == 0
    assert s.non_supersets([[a], [b]]) == s - either
    allowed = [o for o in range(len(board)) if o != a]
    assert s.subsets([allowed]) == s.restrict(exclude=[a])
    assert s.subsets(s) == s and s.supersets(s.restrict(include=[a])) == \
        s.restrict(include=[a])
    assert s.len(18) == s and s.len(17).count() == 0 and s.larger(17) == s
    assert s.smaller(18).count() == 0 and s.smaller(19) == s
    assert SolutionSet.from_solutions(board, board.solutions()) == s
    assert s.best(3, costs=np.arange(len(board))) == list(
        s.ranked(np.arange(len(board))))[:3]


def test_costs_default_to_the_problems_own():
    problem = ExactCover([["a"], ["b"], ["a", "b"]], costs=[1, 1, 5])
    s = problem.solution_set()
    assert list(s.ranked()) == [[0, 1], [2]] == s.best(2)
    assert list(s.ranked([3, 3, 5])) == [[2], [0, 1]] and s.best(costs=[3, 3, 5]) == [[2]]


# ----- hostile arguments ----------------------------------------------------------------


@pytest.mark.parametrize("bad", ["3", 2.0, None, True, [3], object()])
def test_a_size_bound_must_be_an_integer(board, bad):
    s = board.solution_set()
    for query in (s.len, s.larger, s.smaller):
        with pytest.raises(ArgumentError, match=r"\bk must be an integer"):
            query(bad)


def test_huge_size_bounds_are_fine(board):
    s = board.solution_set()
    assert s.len(10**30).count() == 0 and s.larger(-10**30) == s
    assert s.smaller(10**30) == s and s.len(np.int64(18)) == s


@pytest.mark.parametrize("bad, match", [
    ([1, 2], "costs must give one number per option: 60 of them, got 2"),
    ("cheap", "costs must be a sequence"),
    (5, "costs must be a sequence"),
    ([0] * 59 + [math.nan], r"costs\[59\] must be a finite number"),
    ([0] * 59 + [math.inf], r"costs\[59\] must be a finite number"),
    ([0] * 59 + ["1"], r"costs\[59\] must be a finite number"),
    ([True] + [0] * 59, r"costs\[0\] must be a finite number"),
])
def test_costs_of_the_wrong_shape_are_refused(board, bad, match):
    s = board.solution_set()
    with pytest.raises(ArgumentError, match=match):
        s.ranked(bad)  # at the call, not at the first solution
    with pytest.raises(ArgumentError, match=match):
        s.best(2, costs=bad)


@pytest.mark.parametrize("bad, match", [
    (5, "other must be a SolutionSet or an iterable"),
    ("ab", "other must be a SolutionSet or an iterable"),
    ([[0], 3], r"other\[1\] must be an iterable of option indices"),
    ([[0, 60]], r"other\[0\]: 60 is not an option"),
    ([[-1]], r"other\[0\]: -1 is not an option"),
    ([["x"]], r"other\[0\]: 'x' is not an option"),
])
def test_the_other_family_is_checked(board, bad, match):
    s = board.solution_set()
    for query in (s.supersets, s.subsets, s.non_supersets, s.non_subsets):
        with pytest.raises(ArgumentError, match=match):
            query(bad)


def test_queries_of_sets_of_different_problems_are_refused(board):
    other = domino_problem(4, 9).solution_set()
    with pytest.raises(ArgumentError, match="different problems"):
        board.solution_set().supersets(other)


def test_invalid_solutions_name_the_solution_and_the_item():
    with pytest.warns(NoPrimaryItemWarning):
        problem = ExactCover([["a", "x"], ["b"], ["a", "b"], ["a", Colored("y", "red")],
                              ["b", Colored("y", "blue")], ["c"], ["x"]],
                             primary=["a", "b", "c"], secondary=["x", "y"])
    cases = [
        ([[0, 1, 5], [2]], r"solutions\[1\] = \[2\] is not a solution.*item 'c' is not "
         "covered"),
        ([[0, 2, 5]], r"solutions\[0\] = \[0, 2, 5\].*item 'a' is covered twice"),
        ([[3, 4, 5]], r"solutions\[0\].*item 'y' is covered twice with two colors"),
        ([[0, 1, 5, 6]], r"option 6 has no primary item"),
        ([[0, 1, 1, 5]], r"option 1 is in it twice"),
        ([[0, 1, 9]], r"solutions\[0\]: 9 is not an option"),
        ([[0, 1, 5], "ab"], r"solutions\[1\] must be an iterable"),
        (7, "solutions must be a SolutionSet or an iterable"),
    ]
    for solutions, match in cases:
        with pytest.raises(ArgumentError, match=match):
            SolutionSet.from_solutions(problem, solutions)
    good = SolutionSet.from_solutions(problem, [[0, 1, 5], [2, 5], (5, 2)])
    full = problem.solution_set()
    assert good.count() == 2 and good < full
    assert full - good == SolutionSet.from_solutions(problem, [[1, 3, 5], [0, 4, 5]])


def test_from_solutions_of_nothing_is_the_empty_set(board):
    empty = SolutionSet.from_solutions(board, [])
    assert empty.count() == 0 and not empty and empty == board.solution_set().len(3)


# ----- memory stays bounded ----------------------------------------------------------------


@pytest.mark.parametrize("backend", AVAILABLE)
def test_queries_stop_at_the_stores_memory_bound(backend):
    p = domino_problem(8, 8)
    s = p.solution_set().using(backend)
    store = s.store
    s.count()
    sets = [[k, k + 40] for k in range(0, len(p) - 40, 3)]
    before = store.memory()
    store.max_memory = before  # no room to grow
    try:
        with pytest.raises(SearchStoppedError, match="max_memory") as e:
            for k in range(len(p)):
                s.restrict(exclude=[k]).supersets(sets)
                s.restrict(exclude=[k]).subsets([list(range(k, len(p)))])
                s.restrict(exclude=[k]).len(32)
        assert e.value.stats.status is Status.MAX_MEMORY and store.memory() <= before
    finally:
        store.max_memory = 1 << 40
    assert s.supersets(sets) <= s  # the store is whole and goes on


def test_from_solutions_stops_at_the_stores_memory_bound():
    """A store holds every node made until its sets are gone: a board of this test's own,
    so that the nodes of the chains are new."""
    p = domino_problem(7, 8)
    some = list(itertools.islice(p.solutions(), 5000))
    auto = SolutionSet.from_solutions(p, []).store  # from_solutions: the "auto" store
    auto.max_memory = auto.memory()
    try:
        with pytest.raises(SearchStoppedError, match="max_memory"):
            SolutionSet.from_solutions(p, some)
    finally:
        auto.max_memory = 1 << 40
    assert SolutionSet.from_solutions(p, some) == SolutionSet.from_solutions(p, some[::-1])
