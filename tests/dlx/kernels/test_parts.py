"""Independent parts in the memoized search (``parts=True``): a node whose active items
fall into groups that no option joins is split, at the root or anywhere in the search,
each group searched alone and the answers multiplied (product nodes, dlx.products).

Cross-checks against the plain search and the search without parts on random XCC
problems, on both backends; Knuth's sanity check after every node; boards whose rooms are
cut apart by the search, counted independently (a transfer matrix per room).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import Colored, ExactCover, SearchStoppedError
from dlx.kernels.memo import PRODUCT
from dlx.memo import (
    memo_count,
    memo_search,
)
from dlx.products import expanded, product_counts
from dlx.zdd import SolutionSet
from tests.helpers.backends import AVAILABLE, needs_numba
from tests.helpers.memo_problems import (
    domino_problem,
    plain,
    run_node_by_node,
    transfer_matrix_dominoes,
    xcc_problems,
)


def rooms_in_a_row(rooms: int, m: int, n: int, corridor: int = 2) -> ExactCover:
    """Domino tilings of ``rooms`` m x n rooms side by side, each joined to the next by a
    corridor ``corridor`` cells long on row 1; cells row-major, so that the item order
    (and Knuth's choice) goes from room to room. The board is one piece: only the search
    cuts it apart, once a corridor is covered."""
    cells = set()
    for k in range(rooms):
        left = k * (n + corridor)
        cells |= {(r, left + c) for r in range(m) for c in range(n)}
        if k + 1 < rooms:
            cells |= {(1, left + n + j) for j in range(corridor)}
    name = {p: f"{p[0]}_{p[1]}" for p in sorted(cells)}
    options = [[name[(r, c)], name[q]] for r, c in sorted(cells)
               for q in ((r, c + 1), (r + 1, c)) if q in name]
    return ExactCover(options, primary=list(name.values()))


def two_rooms() -> ExactCover:
    """A 4 x 4 and a 2 x 3 board of dominoes, their cells interleaved in the item order
    (so that Knuth's choice alternates between them), with a colored secondary item per
    room: 36 * 3 tilings, split at the root."""
    a, b = domino_problem(4, 4), domino_problem(2, 3)
    options = [[f"a{x}" for x in o] + [Colored("A", "x")] for o in a.options()]
    options += [[f"b{x}" for x in o] + [Colored("B", "y")] for o in b.options()]
    primary = [f"a{x}" for x in a.primary]
    for k, x in enumerate(b.primary):
        primary.insert(2 * k + 1, f"b{x}")
    return ExactCover(options, primary=primary, secondary=["A", "B"])


@settings(max_examples=100, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE))
def test_parts_give_the_same_solutions(problem, backend):
    s, stats = memo_search(problem, backend=backend, parts=True)
    expected = plain(problem)
    assert s.count() == len(expected) == stats.solutions
    assert sorted(s) == sorted(expected)
    assert all(x in s for x in expected)
    assert memo_count(problem, backend=backend, parts=True) == len(expected)
    for x in s.sample(3, seed=0) if expected else []:
        assert x in s


@settings(max_examples=40, deadline=None)
@given(xcc_problems())
def test_kernel_state_is_sane_at_every_node_with_parts(problem):
    assert run_node_by_node(problem, parts=True)[1] == len(plain(problem))


def test_the_group_stack_grows():
    """No room for a split at first: the kernel asks for room, and gets it, before each
    split it could not hold."""
    problem = rooms_in_a_row(3, 2, 2)
    grown, count = run_node_by_node(problem, parts=True, room=0)
    assert grown >= 1 and count == 2**3


def test_rooms_split_at_the_root():
    problem = two_rooms()
    whole, plain_stats = memo_search(problem)
    split, split_stats = memo_search(problem, parts=True)
    assert whole.count() == split.count() == 108
    assert {tuple(x) for x in whole} == {tuple(x) for x in split}
    assert plain_stats.splits == 0 and split_stats.splits >= 1
    assert split_stats.nodes < plain_stats.nodes
    assert SolutionSet.from_text(problem, split.to_text()).count() == 108
    with pytest.raises(SearchStoppedError) as e:
        memo_search(problem, parts=True, max_nodes=split_stats.nodes - 20)
    assert e.value.stats.nodes == split_stats.nodes - 20


def test_a_part_without_solutions_empties_the_product():
    problem = ExactCover([["a", "b"], ["c"], ["d"]], primary=["a", "b", "c", "d", "e"])
    s, stats = memo_search(problem, parts=True)
    assert s.count() == 0 and list(s) == [] and stats.zdd_nodes == 1


@pytest.mark.parametrize("backend", AVAILABLE)
def test_the_search_cuts_the_rooms_apart(backend):
    """One board, three 4 x 4 rooms: the parts are found inside the search, many times
    over; the count is the rooms' counts multiplied (36 each), the set the plain one."""
    problem = rooms_in_a_row(3, 4, 4)
    expected = transfer_matrix_dominoes(4, 4) ** 3
    whole, whole_stats = memo_search(problem, backend=backend)
    split, stats = memo_search(problem, backend=backend, parts=True)
    assert split.count() == whole.count() == expected == stats.solutions
    assert stats.splits > 1 and stats.nodes < whole_stats.nodes / 2
    assert sorted(split) == sorted(whole)
    assert memo_count(problem, backend=backend, parts=True) == expected


@needs_numba
def test_backends_split_alike():
    problem = rooms_in_a_row(4, 4, 6)
    python = memo_search(problem, backend="python", parts=True, keep=False)
    numba = memo_search(problem, backend="numba", parts=True, keep=False)
    assert python[0] == numba[0] == transfer_matrix_dominoes(4, 6) ** 4
    fields = ("nodes", "updates", "hits", "memos", "good_memos", "zdd_nodes", "splits")
    assert [getattr(python[1], f) for f in fields] == [getattr(numba[1], f) for f in fields]


@pytest.mark.parametrize("backend", AVAILABLE)
def test_products_count_exactly_past_the_kernels_ceiling(backend):
    """Thirteen 4 x 4 rooms in a row: 36**13 > 2**64 tilings, counted through product
    nodes found in the search."""
    problem = rooms_in_a_row(13, 4, 4)
    expected = transfer_matrix_dominoes(4, 4) ** 13
    assert expected > 2**64
    count, stats = memo_search(problem, backend=backend, parts=True, keep=False)
    assert count == expected and stats.splits >= 12


@pytest.mark.parametrize("backend", AVAILABLE)
def test_sets_of_parts_are_expanded_within_a_bound(backend):
    """A set is made of plain nodes (the product nodes expanded): four rooms give a set
    that samples, holds its samples and reads back from Knuth's text; thirteen expand
    past the bound, which stops with SearchStoppedError, not with the memory."""
    problem = rooms_in_a_row(4, 4, 4)
    s, stats = memo_search(problem, backend=backend, parts=True)
    assert len(s) == 36**4 and stats.splits >= 3
    for x in s.sample(5, seed=1):
        assert x in s and problem.is_solution(x)
    assert SolutionSet.from_text(problem, s.to_text()).count() == 36**4
    big = rooms_in_a_row(13, 4, 4)
    with pytest.raises(SearchStoppedError, match="max_zdd_nodes") as e:
        memo_search(big, backend=backend, parts=True, max_zdd_nodes=50_000)
    assert e.value.stats.splits >= 12


def test_expanded_products_are_the_products_of_the_sets():
    """By hand, options 0..3: node 3 = {0} or {1} (node 2 = {1}), node 4 = {2}, node 5 =
    their product, node 6 = node 5 or {3}. Expanded: {0 2}, {1 2}, {3}; counts multiply
    at the product, add elsewhere."""
    opt = np.array([-1, -1, 1, 0, 2, PRODUCT, 3], dtype=np.int64)
    lo = np.array([0, 0, 0, 2, 0, 3, 5], dtype=np.int64)
    hi = np.array([0, 0, 1, 1, 1, 4, 1], dtype=np.int64)
    assert product_counts(opt, lo, hi) == [0, 1, 1, 2, 1, 2, 3]
    root, o, lo2, hi2 = expanded(6, opt, lo, hi)
    problem = ExactCover([["p"], ["p"], ["q"], ["p", "q"]])
    s = SolutionSet(problem, root, o, lo2, hi2)
    assert sorted(s) == [[0, 2], [1, 2], [3]]
    assert PRODUCT not in o.tolist()
