"""The option orders of the canonical store (dlx.orders; issue 40 item 4): a pure
function of the problem's content, never wider than the order the store had before
(the given or the breadth-first one), narrower where the candidates find it (the
pentomino boards, whose piece items are hubs), and the same family whatever the order."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dlx.orders import (
    MARGIN,
    candidate_orders,
    frontier_width,
    greedy_order,
    option_order,
    profile,
)
from dlx.problems import langford, pentominoes, queens
from tests.helpers.memo_problems import domino_problem


@st.composite
def csr_problems(draw):
    """(indptr, items, n_items): up to 40 items, up to 80 options of 1-6 items, each
    drawn near a random centre (a banded problem, as boards and sequences are) or
    anywhere (hubs)."""
    n_items = draw(st.integers(1, 40))
    rows = []
    for _ in range(draw(st.integers(0, 80))):
        centre = draw(st.integers(1, n_items))
        spread = draw(st.sampled_from([2, 3, 5, n_items]))
        size = draw(st.integers(1, 6))
        chosen = {min(max(centre + draw(st.integers(-spread, spread)), 1), n_items)
                  for _ in range(size)}
        rows.append(sorted(chosen))
    indptr = np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)
    items = np.asarray([i for r in rows for i in r], dtype=np.int64)
    return indptr, items, n_items


def old_option_order(indptr: np.ndarray, items: np.ndarray, n_items: int) -> np.ndarray:
    """The store's order before dlx.orders (kept as the reference): the options as
    given or breadth-first, the one of the smaller sum of open stretches."""
    indptr = np.asarray(indptr, dtype=np.int64)
    items = np.asarray(items, dtype=np.int64)
    n = len(indptr) - 1
    given = np.arange(n, dtype=np.int64)
    if n < 3 or len(items) == 0:
        return given
    owner = np.repeat(given, np.diff(indptr))
    by_item = np.argsort(items, kind="stable")
    starts = np.searchsorted(items[by_item], np.arange(n_items + 2))
    owners, members = owner[by_item].tolist(), items.tolist()
    start_list, ptr = starts.tolist(), indptr.tolist()
    degree = np.diff(starts)
    position = [-1] * (n_items + 1)
    seen = bytearray(n)
    k = 0
    for first in np.argsort(degree[1 : n_items + 1], kind="stable").tolist():
        first += 1
        if position[first] >= 0 or degree[first] == 0:
            continue
        position[first] = k
        k += 1
        queue = [first]
        for x in queue:
            for j in range(start_list[x], start_list[x + 1]):
                o = owners[j]
                if seen[o]:
                    continue
                seen[o] = 1
                for y in members[ptr[o] : ptr[o + 1]]:
                    if position[y] < 0:
                        position[y] = k
                        k += 1
                        queue.append(y)
    pos = np.asarray(position, dtype=np.int64)[items]
    low = np.minimum.reduceat(pos, indptr[:-1]) if n else pos
    high = np.maximum.reduceat(pos, indptr[:-1]) if n else pos
    empty = np.diff(indptr) == 0
    low[empty], high[empty] = -1, -1
    walked = np.lexsort((given, high, low))
    return walked if _spread(walked, owner, items, n) < _spread(given, owner, items, n) \
        else given


def _spread(order: np.ndarray, owner: np.ndarray, items: np.ndarray, n: int) -> int:
    """The sum over items of the stretch from their first option to their last, options
    placed in ``order``."""
    place = np.empty(n, dtype=np.int64)
    place[order] = np.arange(n)
    at = place[owner]
    first = np.full(int(items.max()) + 1, n, dtype=np.int64)
    last = np.full(int(items.max()) + 1, -1, dtype=np.int64)
    np.minimum.at(first, items, at)
    np.maximum.at(last, items, at)
    used = last >= 0
    return int((last[used] - first[used]).sum())



@settings(max_examples=200, deadline=None)
@given(problem=csr_problems())
@example(problem=(np.array([0, 1, 2, 3, 5, 8, 10, 11]),  # given and breadth-first: one
                  np.array([3, 1, 1, 1, 2, 2, 3, 4, 1, 2, 2]), 4))  # profile, widths 4, 3
def test_never_wider_than_the_order_before(problem):
    indptr, items, n_items = problem
    order = option_order(indptr, items, n_items)
    n = len(indptr) - 1
    assert sorted(order.tolist()) == list(range(n))
    before = old_option_order(indptr, items, n_items)
    width = frontier_width(indptr, items, n_items, order)
    assert width <= frontier_width(indptr, items, n_items, before)
    if not np.array_equal(order, before):  # replaced: narrower by the margin at least
        assert width <= frontier_width(indptr, items, n_items, before) - MARGIN
    widths = [frontier_width(indptr, items, n_items, o)
              for _, o in candidate_orders(indptr, items, n_items)]
    assert width == min(widths) or width > min(widths) - MARGIN
    assert sorted(greedy_order(indptr, items, n_items).tolist()) == list(range(n))


@settings(max_examples=50, deadline=None)
@given(problem=csr_problems())
def test_a_pure_function_of_the_content(problem):
    """The same arrays (copied, pickled) give the same order, in every candidate."""
    indptr, items, n_items = problem
    again = pickle.loads(pickle.dumps((indptr.copy(), items.copy(), n_items)))
    assert np.array_equal(option_order(indptr, items, n_items), option_order(*again))
    for (a, x), (b, y) in zip(candidate_orders(indptr, items, n_items),
                              candidate_orders(*again)):
        assert a == b and np.array_equal(x, y)


def widths(problem):
    m = problem.matrix
    return (frontier_width(m.indptr, m.items, m.n_items,
                           option_order(m.indptr, m.items, m.n_items)),
            frontier_width(m.indptr, m.items, m.n_items,
                           old_option_order(m.indptr, m.items, m.n_items)))


@pytest.mark.parametrize(("rows", "cols", "now", "before"),
                         [(3, 20, 28, 69), (6, 10, 39, 68)])
def test_pentominoes_sweep_the_board(rows, cols, now, before):
    """The twelve piece items are in an option anywhere on the board: a walk through
    them reaches every cell in two steps. Left out of the walk (hubs), the cells are
    numbered along the board and the options follow."""
    assert widths(pentominoes(rows, cols)) == (now, before)


@pytest.mark.parametrize("problem", [domino_problem(12, 12), domino_problem(6, 30), queens(8),
                                     langford(8), langford(11, sym=True)], ids=repr)
def test_orders_kept_where_nothing_is_much_narrower(problem):
    m = problem.matrix
    assert np.array_equal(option_order(m.indptr, m.items, m.n_items),
                          old_option_order(m.indptr, m.items, m.n_items))


def test_profile_and_width_of_a_chain():
    """Options {1,2}, {2,3}, {3,4}: in order, two items open at once, stretches 0, 1,
    1, 0; the middle option last, three open at once (2, 3 and 4), stretches 0, 2, 1,
    0."""
    indptr = np.array([0, 2, 4, 6])
    items = np.array([1, 2, 2, 3, 3, 4])
    assert frontier_width(indptr, items, 4, np.array([0, 1, 2])) == 2
    assert frontier_width(indptr, items, 4, np.array([0, 2, 1])) == 3
    assert profile(indptr, items, 4, np.array([0, 1, 2])) == 2
    assert profile(indptr, items, 4, np.array([0, 2, 1])) == 3
