"""Search strategies for hard instances: seeds (one shuffle per search), the weighted
choice, the lookahead and restarts. None may change a count or the set of solutions; each
gives the same answer on every backend; restarts' statistics add up over the runs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import (
    ArgumentError,
    ExactCover,
    NoPrimaryItemWarning,
    Search,
    SearchStoppedError,
    Status,
    get_backend,
)
from dlx.problems import langford, queens
from dlx.restarts import first_restarting, luby
from tests.helpers.knuth import DATA, NODE_LIMIT, figures
from tests.helpers.oracle import brute_force, read_dlx, violation
from tests.helpers.pinned import differing_arrays, is_pristine
from tests.helpers.random_problems import as_set, build, xcc_problems

STRATEGIES = [{"weighted": True}, {"lookahead": 2}, {"lookahead": 5, "weighted": True},
              {"lookahead": 1 << 40, "seed": 3}, {"weighted": True, "seed": -8}]


def _same_on_both(problem: ExactCover, **kw) -> list[list[int]]:
    """The solutions of a search with ``kw``, equal (in order, nodes and updates) on the
    python and numba backends."""
    runs = []
    for backend in ("python", "numba"):
        search = problem.solutions(backend=backend, **kw)
        found = list(search)
        runs.append((found, search.stats.nodes, search.stats.updates, search.stats.solutions))
        if not kw.get("forced"):
            assert differing_arrays(search.links, search._state) == []  # the trail undone
            assert is_pristine(search.links, search._state)
    assert runs[0] == runs[1]
    return runs[0][0]


@settings(max_examples=60, deadline=None)
@given(xcc_problems(), st.sampled_from(STRATEGIES))
def test_strategies_find_exactly_the_solutions(spec, kw):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    expected = brute_force(options, primary, secondary)
    found = _same_on_both(problem, **kw)
    assert as_set(found) == expected and len(found) == len(expected)
    for s in found:
        assert violation(options, primary, secondary, s) is None
    assert problem.count(backend="python", **kw) == len(expected)
    first = problem.first(backend="python", **kw)
    assert first == (found[0] if found else None)


@settings(max_examples=40, deadline=None)
@given(xcc_problems(max_options=8), st.integers(-2**70, 2**70), st.integers(1, 4),
       st.booleans())
def test_restarts_find_a_solution_or_prove_none(spec, seed, unit, weighted):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    expected = brute_force(options, primary, secondary)
    got = [problem.first(restarts=unit, seed=seed, weighted=weighted, backend=backend)
           for backend in ("python", "numba")]
    assert got[0] == got[1]
    if expected:
        assert frozenset(got[0]) in expected and problem.stats.status is Status.LIMIT
    else:
        assert got[0] is None and problem.stats.status is Status.COMPLETE


@pytest.mark.slow
@pytest.mark.parametrize("kw", STRATEGIES, ids=str)
def test_strategies_keep_the_counts_of_the_data_files(kw):
    if not (DATA / "SOURCES.md").is_file():
        pytest.skip(f"{DATA} is absent")
    rows = [row for row in figures() if row[2] < NODE_LIMIT]
    assert len(rows) > 10
    for name, solutions, _, _ in rows:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NoPrimaryItemWarning)
            problem = ExactCover.from_dlx((DATA / name).read_text())
        if problem.links.mcc:  # DLX3's files: the strategies are for Knuth's search only
            with pytest.raises(ArgumentError, match="without bounds or costs"):
                problem.count(backend="numba", **kw)
            continue
        assert problem.count(backend="numba", **kw) == solutions, name
        if solutions:
            first = problem.first(restarts=50, backend="numba", **kw)
            assert problem.is_solution(first), name


def test_known_counts_under_every_strategy():
    for problem, count in ((queens(8), 92), (langford(7), 52), (queens(6), 4)):
        for kw in STRATEGIES:
            assert problem.count(backend="numba", **kw) == count
            assert problem.count(backend="python", **kw) == count


def test_seed_is_one_shuffle_and_reproducible():
    """A seed renumbers the items and lays the options out in another order, once: the
    same on every backend and every call, other seeds other orders, the same solutions."""
    problem = queens(8)
    links = problem.links
    a, b = links.shuffled(5), links.shuffled(5)
    for x, y in zip(a.arrays, b.arrays):
        assert np.array_equal(x, y)
    assert not np.array_equal(a.arrays.TOP, links.shuffled(6).arrays.TOP)
    assert sorted(a.item_number.tolist()) == list(range(len(problem.items) + 1))
    assert sorted(a.option_of_node.tolist()) == sorted(links.option_of_node.tolist())
    assert a.shuffled(1) is a.shuffled(1) and links.shuffled(5) is a  # kept, not made anew
    firsts = {tuple(problem.first(seed=s, backend="numba")) for s in range(12)}
    assert len(firsts) > 3  # the seeds do reach other solutions first
    for s in (0, 1, -1, 2**80):
        assert _same_on_both(problem, seed=s) == _same_on_both(problem, seed=s)


def test_seed_with_forced_options():
    problem = queens(8)
    forced = [problem.first()[0]]
    found = _same_on_both(problem, seed=4, forced=forced)
    plain = list(problem.solutions(forced=forced))
    assert as_set(found) == as_set(plain) and all(forced[0] in s for s in found)


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    with pytest.raises(ValueError):
        luby(0)


@pytest.mark.parametrize("weighted", [False, True])
def test_restart_statistics_add_up(weighted):
    """The driver's figures are the sums of its runs, each replayed here by hand: run k
    shuffled by (seed, k), ``unit * luby(k)`` nodes, the weights carried on."""
    problem = langford(10)  # no solution: every run is cut short until max_nodes
    links, backend = problem.links, get_backend("numba")
    unit, seed, budget = 30, 7, 1000
    solution, total = first_restarting(links, backend, unit=unit, forced=[], max_nodes=budget,
                                       timeout=None, seed=seed, weighted=weighted)
    assert solution is None and total.status is Status.MAX_NODES
    nodes = updates = runs = 0
    weights = None
    while nodes < budget:
        runs += 1
        search = Search(links, backend, limit=1, forced=[], max_nodes=min(budget - nodes,
                                                                        unit * luby(runs)),
                        timeout=None, seed=seed, run=runs, weighted=weighted, weights=weights)
        assert next(search, None) is None
        nodes += search.stats.nodes
        updates += search.stats.updates
        weights = search.weights() if weighted else None
    assert (total.nodes, total.updates, total.restarts) == (nodes, updates, runs - 1) \
        == (budget, updates, runs - 1)
    with pytest.raises(SearchStoppedError) as stop:  # the rule for budgets: first() raises
        problem.first(restarts=unit, seed=seed, weighted=weighted, max_nodes=budget)
    assert (stop.value.stats.nodes, stop.value.stats.updates) == (nodes, updates)
    assert (problem.stats.nodes, problem.stats.updates) == (nodes, updates)


def test_restarts_solve_and_sum():
    problem = queens(30)
    solution = problem.first(restarts=10, seed=1, weighted=True, backend="numba")
    assert problem.is_solution(solution)
    stats = problem.stats
    assert stats.status is Status.LIMIT and stats.solutions == 1
    assert stats.nodes >= stats.restarts  # every run entered its root at least


def test_weights_grow_and_carry_over():
    problem = langford(9)  # no solution: many wipe-outs
    search = problem.solutions(weighted=True, max_nodes=500, backend="numba")
    search.count()
    weights = search.weights()
    assert weights.sum() > len(weights) and weights.min() >= 1
    again = problem.solutions(weighted=True, max_nodes=500, backend="python")
    again.count()
    assert np.array_equal(again.weights(), weights)  # the same on both backends


@pytest.mark.parametrize("bad, message", [
    ({"weighted": 1}, "weighted must be True or False, got 1"),
    ({"weighted": "yes"}, "weighted must be True or False, got 'yes'"),
    ({"lookahead": -1}, "lookahead must be at least 0, got -1"),
    ({"lookahead": 2.5}, "lookahead must be an integer or None, got 2.5"),
])
def test_bad_strategy_arguments(bad, message):
    problem = queens(4)
    for call in (problem.count, problem.solutions, problem.first):
        with pytest.raises(ArgumentError, match=message):
            call(**bad)


@pytest.mark.parametrize("bad, message", [
    (0, "restarts must be at least 1, got 0"),
    ("10", "restarts must be an integer or None, got '10'"),
])
def test_bad_restarts(bad, message):
    with pytest.raises(ArgumentError, match=message):
        queens(4).first(restarts=bad)


def test_lookahead_hides_options_and_cuts_nodes():
    """Item domination at every node: on Sudoku it is "locked candidates", fewer nodes."""
    from sudoku import to_exact_cover

    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    problem = to_exact_cover(puzzle)
    plain = problem.count(backend="numba")
    nodes = problem.stats.nodes
    assert problem.count(lookahead=9, backend="numba") == plain == 1
    assert problem.stats.nodes < nodes


def test_read_dlx_oracle_agrees_on_a_strategy():
    text = (DATA / "knuth_dlx2_color_example.dlx")
    if not text.is_file():
        pytest.skip(f"{DATA} is absent")
    primary, secondary, options = read_dlx(text.read_text())
    with pytest.warns(NoPrimaryItemWarning, match="option 2"):  # Knuth's example has one
        problem = ExactCover.from_dlx(text.read_text())
    found = _same_on_both(problem, weighted=True, lookahead=3, seed=2)
    assert as_set(found) == brute_force(options, primary, secondary)
