"""Solution sets in an option order the user gives (``solution_set(option_order=...)``,
``SolutionSet.in_order``; issue 40 item 4): one store per problem content and order, the
same family whatever the order (``==`` and ``hash`` agree across orders, against
Python's frozensets), sets of different orders combine, node counts per order, and
hostile orders refused with an ArgumentError naming the entry."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx.problem
from dlx import ArgumentError
from dlx.frontier import CHOOSE_WIDTH, frontier_width
from dlx.zdd import SolutionSet
from dlx.zdd_store import memo_input, order_for, store_for
from tests.helpers.backends import AVAILABLE
from tests.helpers.memo_problems import domino_problem
from tests.helpers.random_problems import as_set, build, xcc_problems


def families(s: SolutionSet) -> set[frozenset[int]]:
    return as_set(s)


@settings(max_examples=60, deadline=None)
@given(drawn=xcc_problems(max_options=10, colors=False), backend=st.sampled_from(AVAILABLE),
       data=st.data())
def test_any_order_gives_the_same_family(drawn, backend, data):
    p = build(*drawn)
    n = len(p)
    truth = as_set(p.solutions(backend="python"))
    first = data.draw(st.permutations(range(n)))
    second = data.draw(st.permutations(range(n)))
    method = data.draw(st.sampled_from(["memo", "frontier", None]))
    a = p.solution_set(backend=backend, option_order=first, method=method)
    b = p.solution_set(backend=backend, option_order=second)
    auto = p.solution_set(backend=backend)
    assert families(a) == families(b) == families(auto) == truth
    assert a == b == auto and hash(a) == hash(b) == hash(auto)
    assert a.option_order == list(first) and b.option_order == list(second)
    assert a.canonical().node_count == p.solution_set(option_order=first,
                                                      method="memo").canonical().node_count
    assert pickle.loads(pickle.dumps(a)).option_order == list(first)
    assert pickle.loads(pickle.dumps(a)) == b


@settings(max_examples=60, deadline=None)
@given(drawn=xcc_problems(max_options=10, colors=False), backend=st.sampled_from(AVAILABLE),
       data=st.data())
def test_sets_of_different_orders_combine(drawn, backend, data):
    """The result is in the left operand's order; its family is Python's set operation's,
    and equal (with its hash) to the same operation in the other order."""
    p = build(*drawn)
    n = len(p)
    full = as_set(p.solutions(backend="python"))
    orders = [data.draw(st.permutations(range(n))) for _ in range(2)]
    picks = [data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=2)) if n else []
             for _ in range(4)]
    a = p.solution_set(backend=backend, option_order=orders[0]).restrict(picks[0], picks[1])
    b = p.solution_set(backend=backend, option_order=orders[1]).restrict(picks[2], picks[3])
    sa = {x for x in full if set(picks[0]) <= x and not set(picks[1]) & x}
    sb = {x for x in full if set(picks[2]) <= x and not set(picks[3]) & x}
    assert families(a) == sa and families(b) == sb
    for op in ("__or__", "__and__", "__sub__", "__xor__"):
        got, back = getattr(a, op)(b), getattr(b.in_order(orders[0]), op)(a.in_order(orders[1]))
        want = getattr(sa, op)(sb)
        assert families(got) == want and got.option_order == list(orders[0])
        assert got == getattr(a, op)(b.in_order(orders[0]))
        if op in ("__or__", "__and__", "__xor__"):  # commutative: b op a, in b's order
            assert back == got and hash(back) == hash(got)
            assert getattr(b, op)(a).option_order == list(orders[1])
    assert (a == b) == (sa == sb) and (a <= b) == (sa <= sb) and (a < b) == (sa < sb)
    assert (a >= b) == (sa >= sb) and a.isdisjoint(b) == sa.isdisjoint(sb)
    assert a.supersets(b) == a.in_order(orders[1]).supersets(b)


def test_node_counts_follow_the_order():
    """Domino 6 x 6: the automatic order (breadth-first, 7 items wide) and the options
    shuffled (about 30 wide) give one family, in diagrams of different sizes."""
    p = domino_problem(6, 6)
    shuffled = list(range(len(p)))
    random.Random(3).shuffle(shuffled)
    auto = p.solution_set()
    mixed = p.solution_set(option_order=shuffled, method="frontier")
    assert mixed == auto and hash(mixed) == hash(auto)
    assert mixed.count() == auto.count() == 6728
    assert mixed.node_count > 2 * auto.node_count
    assert mixed.in_order(None).node_count == auto.node_count
    assert mixed.in_order(None).option_order == order_for(p.matrix).tolist()
    assert mixed.store is not auto.store


def test_the_automatic_order_given_is_the_same_store():
    p = domino_problem(4, 5)
    auto = p.solution_set()
    given_ = p.solution_set(option_order=order_for(p.matrix).tolist())
    assert given_.store is auto.store and given_ == auto
    assert store_for(p.matrix, "auto", np.arange(len(p))) is not auto.store \
        or np.array_equal(order_for(p.matrix), np.arange(len(p)))


def test_the_choice_follows_the_given_order(monkeypatch):
    """method=None builds top-down when the given order's frontier is narrow, and by the
    memoized search when it is wide (the automatic order of the same board is narrow)."""
    made = []
    real = dlx.problem.build_frontier
    monkeypatch.setattr(dlx.problem, "build_frontier", lambda *a: made.append(1) or real(*a))
    p = domino_problem(6, 6)
    shuffled = list(range(len(p)))
    random.Random(3).shuffle(shuffled)
    assert frontier_width(memo_input(p), np.asarray(shuffled)) > CHOOSE_WIDTH
    s = p.solution_set(option_order=shuffled)
    assert made == [] and s.option_order == shuffled and s.count() == 6728
    assert p.solution_set(option_order=order_for(p.matrix)).count() == 6728 and made == [1]


@pytest.mark.parametrize(("bad", "message"), [
    ("0123", "must be a permutation of the option indices 0..11, got '0123'"),
    (7, "must be a permutation"),
    ({0: 1}, "has 1 entries for 12 options: option 1 is missing"),
    ([0, 1, 2], "has 3 entries for 12 options: option 3 is missing"),
    (list(range(13)), "option_order[12] = 12 is not an option: the indices are 0..11"),
    ([-1, *range(1, 12)], "option_order[0] = -1 is not an option"),
    ([0, 0, *range(2, 12)], "option_order[1] = 0 is repeated"),
    ([0.0, *range(1, 12)], "option_order[0] must be an option index (an integer), got 0.0"),
    ([True, *range(1, 12)], "option_order[0] must be an option index"),
    (["1", *range(1, 12)], "option_order[0] must be an option index"),
    ([[0], *range(1, 12)], "option_order[0] must be an option index"),
    (np.arange(12).reshape(3, 4), "option_order[0] must be an option index"),
    (np.arange(12, dtype=float), "option_order[0] must be an option index"),
    (np.arange(1, 13), "option_order[11] = 12 is not an option"),
])
def test_hostile_orders(bad, message):
    p = domino_problem(3, 3)
    assert len(p) == 12
    with pytest.raises(ArgumentError) as caught:
        p.solution_set(option_order=bad)
    assert message in str(caught.value) and "option_order" in str(caught.value)
    s = p.solution_set()
    with pytest.raises(ArgumentError) as caught:
        s.in_order(bad)
    assert message in str(caught.value)


def test_orders_as_numpy_and_tuples():
    p = domino_problem(3, 4)
    order = np.arange(len(p))[::-1]
    a = p.solution_set(option_order=order)
    b = p.solution_set(option_order=tuple(order.tolist()))
    assert a.store is b.store and a.option_order == order.tolist()
    assert a == p.solution_set() and hash(a) == hash(p.solution_set())


@settings(max_examples=40, deadline=None)
@given(drawn=xcc_problems(max_options=10, colors=False), backend=st.sampled_from(AVAILABLE),
       data=st.data())
def test_the_fingerprint_is_the_weighted_sum_over_the_sets(drawn, backend, data):
    """The store's fingerprint, kept per node by the kernel's tally, is the sum over the
    family's sets of the product of their options' weights, modulo each prime: computed
    here from the Python sets, in any order; also for a family an operation made."""
    from dlx.zdd_store import PRIMES, weights

    p = build(*drawn)
    order = data.draw(st.permutations(range(len(p))))
    s = p.solution_set(backend=backend, option_order=order)
    w = weights(len(p))

    def expected(family: set[frozenset[int]]) -> int:
        prints = []
        for prime, wp in zip(PRIMES, w):
            total = 0
            for one in family:
                product = 1
                for o in one:
                    product = product * int(wp[o]) % prime
                total = (total + product) % prime
            prints.append(total)
        return prints[0] | prints[1] << 31

    store, node = s._canon()
    assert store.fingerprint(node) == expected(as_set(s))
    some = [sorted(x) for x in as_set(s)][: max(1, len(as_set(s)) // 2)]
    part = s & SolutionSet.from_solutions(p, some) if as_set(s) else s
    pstore, pnode = part._canon()
    assert pstore.fingerprint(pnode) == expected(as_set(part))
