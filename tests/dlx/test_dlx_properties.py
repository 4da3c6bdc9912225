"""Property tests of the dlx engine against the brute-force oracle, and its invariants.

Small random XCC problems (with and without secondary items and colors) must have exactly
the oracle's solutions; planted covers hidden among noise options must be found; the link
arrays must pass Knuth's sanity check after every node of the search and be restored at
its end.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import (
    ArgumentError,
    Colored,
    ExactCover,
    NoPrimaryItemWarning,
    Search,
    SearchStoppedError,
    Status,
)
from dlx.kernels import codes
from dlx.state import REG_LEVEL, REG_NODES, REG_SOLUTIONS, REG_UPDATES
from tests.helpers.oracle import brute_force, violation
from tests.helpers.pinned import PYTHON_X_BYTES, differing_arrays, is_pristine, pinned
from tests.helpers.random_problems import (
    as_set,
    build,
    planted_problems,
    shared_color_problems,
    xcc_problems,
)

BACKEND = "python"
SETTINGS = settings(max_examples=100, deadline=None)


# ----- helpers --------------------------------------------------------------------------


def has_colors(options) -> bool:
    return any(isinstance(e, Colored) for opt in options for e in opt)


def capture_state(problem: ExactCover, seed=None, backend=BACKEND) -> Search:
    """A fresh search, stopped before its first node (``max_nodes=0``): its live state is
    ``search._state``, its kernel ``search.kernel``, and ``search.check()`` runs Knuth's
    sanity checker on it."""
    search = problem.solutions(max_nodes=0, seed=seed, backend=backend)
    assert list(search) == []
    assert search.stats.status is Status.MAX_NODES and search.stats.nodes == 0
    assert search._state is not None
    return search


def assert_restored(search: Search) -> None:
    """After a full search every array is exactly as built (header colors included)."""
    assert differing_arrays(search.links, search._state) == []
    assert is_pristine(search.links, search._state)


def step_by_node(problem: ExactCover, seed=None, at_solution=None):
    """Run the kernel one node per call with Knuth's sanity check after every call.

    Returns the search (its live state is ``search._state``) and the solutions, in the
    order found; ``at_solution(S)`` is called with the live state at each solution, while
    the search is in the middle of the tree.
    """
    search = capture_state(problem, seed)
    search.check()
    S = search._state
    assert is_pristine(search.links, S)  # a seeded search's links: the problem's shuffled
    regs = S.REG
    run = search.kernel.search
    option_of_node = search.links.option_of_node  # a seeded search: its shuffled links
    found = []
    while True:
        nodes = regs[REG_NODES]
        status = run(S, nodes + 1, regs[REG_SOLUTIONS] + 1)
        search.check()
        assert regs[REG_NODES] <= nodes + 1
        if status == codes.COMPLETE:
            return search, found
        if status == codes.LIMIT:
            level = regs[REG_LEVEL]
            found.append(sorted(int(option_of_node[x]) for x in S.CHOICE[:level]))
            if at_solution is not None:
                at_solution(S)
        else:
            assert status == codes.MAX_NODES and regs[REG_NODES] == nodes + 1


# ----- solutions against the oracle -----------------------------------------------------


@SETTINGS
@given(xcc_problems())
def test_solutions_equal_brute_force(spec):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    found = list(problem.solutions(backend=BACKEND))
    assert problem.stats.status is Status.COMPLETE and problem.stats.complete
    assert not problem.stats.stopped
    expected = brute_force(options, primary, secondary)
    assert as_set(found) == expected
    assert len(found) == len(expected)  # no solution twice
    for s in found:
        assert s == sorted(s)
        assert violation(options, primary, secondary, s) is None
        assert problem.is_solution(s)
    assert problem.stats.solutions == len(found)
    assert problem.count(backend=BACKEND) == len(found)
    first = problem.first(backend=BACKEND)
    if expected:
        assert first == found[0]
    else:
        assert first is None and problem.stats.status is Status.COMPLETE


@SETTINGS
@given(xcc_problems(colors=False))
def test_solutions_without_colors_equal_brute_force(spec):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    assert as_set(problem.solutions(backend=BACKEND)) == brute_force(options, primary, secondary)


@SETTINGS
@given(shared_color_problems())
def test_shared_colors_equal_brute_force(spec):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    found = list(problem.solutions(backend=BACKEND))
    assert as_set(found) == brute_force(options, primary, secondary)
    assert len(found) == len(as_set(found)) == problem.count(backend=BACKEND)
    search, stepped = step_by_node(problem)
    assert stepped == found
    assert_restored(search)


@SETTINGS
@given(xcc_problems(), st.data())
def test_is_solution_agrees_with_oracle(spec, data):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    linked = [k for k in range(len(options)) if k not in problem.dropped]
    chosen = data.draw(st.lists(st.sampled_from(linked), max_size=5) if linked else st.just([]))
    expected = violation(options, primary, secondary, chosen) is None
    assert problem.is_solution(chosen) == expected


def test_is_solution_rejects_dropped_options():
    with pytest.warns(NoPrimaryItemWarning):
        problem = ExactCover([["A"], ["X"]], secondary=["X"])
    assert problem.dropped == [1]
    assert list(problem.solutions(backend=BACKEND)) == [[0]]
    assert not problem.is_solution([0, 1])


@SETTINGS
@given(xcc_problems(max_options=7), st.integers(0, 2**40))
def test_seeded_tie_break_finds_the_same_solutions(spec, seed):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    plain = as_set(problem.solutions(backend=BACKEND))
    seeded = list(problem.solutions(seed=seed, backend=BACKEND))
    assert as_set(seeded) == plain and len(seeded) == len(plain)
    assert list(problem.solutions(seed=seed, backend=BACKEND)) == seeded  # reproducible
    assert problem.count(seed=seed, backend=BACKEND) == len(plain)
    first = problem.first(seed=seed, backend=BACKEND)
    assert first == (seeded[0] if seeded else None)


@settings(max_examples=40, deadline=None)
@given(xcc_problems(max_options=6), st.sampled_from([None, 7]))
def test_long_item_lists(spec, seed):
    """An item with 130 options (>= 128) makes the python backend keep LEN in a list
    (or search over bitsets, where lengths are popcounts)."""
    options, primary, secondary = spec
    copies = 130
    wide = [*options, *[["Z"] for _ in range(copies)]]
    problem = build(wide, [*primary, "Z"], secondary)
    assert problem.links.max_len >= 128
    assert problem.solutions(backend=BACKEND).kernel.name.endswith(("-list", "-bits"))
    base = brute_force(options, primary, secondary)
    expected = {s | {len(options) + k} for s in base for k in range(copies)}
    found = list(problem.solutions(seed=seed, backend=BACKEND))
    assert as_set(found) == expected and len(found) == len(expected)
    assert problem.count(seed=seed, backend=BACKEND) == len(expected)


@settings(max_examples=100, deadline=None)
@given(planted_problems())
def test_planted_cover_is_found(spec):
    options, primary, secondary, planted = spec
    assert violation(options, primary, secondary, planted) is None  # the generator's promise
    problem = build(options, primary, secondary)
    found = list(problem.solutions(backend=BACKEND))
    assert planted in as_set(found)
    for s in found:
        assert violation(options, primary, secondary, s) is None
        assert problem.is_solution(s)
    assert problem.count(backend=BACKEND) == len(found) == len(as_set(found))
    assert problem.first(backend=BACKEND) in found
    if len(options) - len(problem.dropped) <= 10:
        assert as_set(found) == brute_force(options, primary, secondary)


# ----- budgets on random problems -------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(xcc_problems(max_options=8))
def test_node_budgets_give_prefixes(spec):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    full = list(problem.solutions(backend=BACKEND))
    total = problem.stats.nodes
    for budget in range(total + 1):
        part = list(problem.solutions(max_nodes=budget, backend=BACKEND))
        stats = problem.stats
        assert part == full[: len(part)]
        assert stats.nodes == budget
        assert stats.complete == (budget == total)
        assert stats.stopped == (budget != total)
        assert stats.status is (Status.COMPLETE if budget == total else Status.MAX_NODES)
        assert problem.solutions(max_nodes=budget, backend=BACKEND).count() == len(part)
        if budget < total:  # the rule for budgets: count() does not return a partial count
            with pytest.raises(SearchStoppedError) as stop:
                problem.count(max_nodes=budget, backend=BACKEND)
            assert stop.value.stats.solutions == len(part) and stop.value.stats.nodes == budget
        else:
            assert problem.count(max_nodes=budget, backend=BACKEND) == len(part)


@settings(max_examples=40, deadline=None)
@given(xcc_problems(max_options=8))
def test_limits(spec):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    full = list(problem.solutions(backend=BACKEND))
    for bad in (0, -1):  # a limit is at least 1 on every path
        with pytest.raises(ArgumentError, match=f"limit must be at least 1, got {bad}"):
            problem.solutions(bad, backend=BACKEND)
        with pytest.raises(ArgumentError, match=f"limit must be at least 1, got {bad}"):
            problem.count(limit=bad, backend=BACKEND)
    for limit in range(1, len(full) + 2):
        search = problem.solutions(limit, backend=BACKEND)
        assert list(search) == full[:limit]
        assert search.stats.status is (Status.COMPLETE if limit > len(full) else Status.LIMIT)
        assert problem.count(limit=limit, backend=BACKEND) == min(limit, len(full))
        if limit > len(full):
            assert problem.stats.complete and problem.stats.status is Status.COMPLETE
        else:
            assert problem.stats.status is Status.LIMIT and not problem.stats.complete
            assert not problem.stats.stopped


# ----- invariants: Knuth's sanity check, restored links ---------------------------------


@settings(max_examples=80, deadline=None)
@given(xcc_problems(), st.sampled_from([None, 3]))
def test_sanity_check_after_every_node(spec, seed):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    search, found = step_by_node(problem, seed)
    assert found == list(problem.solutions(seed=seed, backend=BACKEND))
    regs = search._state.REG
    assert problem.stats.status is Status.COMPLETE
    assert int(regs[REG_NODES]) == problem.stats.nodes
    assert int(regs[REG_UPDATES]) == problem.stats.updates
    assert int(regs[REG_SOLUTIONS]) == problem.stats.solutions == len(found)
    assert int(regs[REG_LEVEL]) == 0
    assert_restored(search)


@SETTINGS
@given(xcc_problems())
def test_links_restored_after_full_search(spec):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    A = problem.links.arrays
    originals = [a.copy() for a in (A.U, A.D, A.LEN)]
    search = problem.solutions(backend=BACKEND)
    found = list(search)
    assert search.stats.status is Status.COMPLETE
    assert as_set(found) == brute_force(options, primary, secondary)
    assert search._state is not None
    search.check()
    assert_restored(search)
    assert all(np.array_equal(a, b) for a, b in
               zip(originals, (A.U, A.D, A.LEN)))


KNOWN_STEPPED = {
    "queens 6": ([[f"r{i}", f"c{j}", f"a{i + j}", f"b{5 - i + j}"]
                  for i in range(6) for j in range(6)],
                 [f"{t}{i}" for i in range(6) for t in "rc"],
                 [f"{t}{d}" for d in range(11) for t in "ab"], 4),
    "langford 4": ([[f"v{i}", f"s{j}", f"s{j + i + 1}"]
                    for i in range(1, 5) for j in range(1, 8 - i)],
                   [f"v{i}" for i in range(1, 5)] + [f"s{j}" for j in range(1, 9)], [], 2),
}


@pytest.mark.parametrize("name", sorted(KNOWN_STEPPED))
def test_sanity_check_after_every_node_of_known_problems(name):
    options, primary, secondary, count = KNOWN_STEPPED[name]
    problem = build(options, primary, secondary)
    search, found = step_by_node(problem)
    assert len(found) == count
    assert all(violation(options, primary, secondary, s) is None for s in found)
    assert is_pristine(problem.links, search._state)


DLX2_EXAMPLE = (
    [["A", "B", Colored("X", "0"), Colored("Y", "0")],
     ["A", "C", Colored("X", "1"), Colored("Y", "1")],
     [Colored("X", "0"), Colored("Y", "1")],
     ["B", Colored("X", "1")],
     ["C", Colored("Y", "1")]],
    ["A", "B", "C"],
    ["X", "Y"],
)


def test_sanity_check_after_every_node_with_colors():
    problem = build(*DLX2_EXAMPLE)
    x, y = problem.items.index("X") + 1, problem.items.index("Y") + 1
    header_colors = []
    search, found = step_by_node(
        problem, at_solution=lambda S: header_colors.append((S.COLOR[x], S.COLOR[y])))
    assert found == [[1, 3]]
    assert header_colors[0] != (0, 0)  # X and Y were purified on the way to the solution
    assert_restored(search)


def test_sanity_checker_detects_broken_links():
    options, primary, secondary, _ = KNOWN_STEPPED["langford 4"]
    problem = build(options, primary, secondary)
    search = capture_state(problem, backend=pinned(PYTHON_X_BYTES))  # a kernel of links
    search.check()
    S = search._state
    D, LEN = S.D, S.LEN
    first = D[1]
    D[1] = D[first]  # unlink a node from below only: U no longer mirrors D
    with pytest.raises(AssertionError):
        search.check()
    assert not is_pristine(problem.links, S)
    assert differing_arrays(problem.links, S) == ["D"]
    D[1] = first
    search.check()
    LEN[2] += 1
    with pytest.raises(AssertionError, match="LEN"):
        search.check()
    assert differing_arrays(problem.links, S) == ["LEN"]
    LEN[2] -= 1
    assert is_pristine(problem.links, S)


def test_abandoned_search_leaves_the_problem_intact():
    options, primary, secondary, count = KNOWN_STEPPED["queens 6"]
    problem = build(options, primary, secondary)
    full = list(problem.solutions(backend=BACKEND))
    links = problem.links
    before = [a.copy() for a in links.arrays]
    iterator = problem.solutions(backend=BACKEND)
    assert next(iterator) == full[0]
    assert iterator.stats.status is Status.RUNNING
    del iterator  # abandoned in the middle of the tree
    problem.solutions(max_nodes=20, backend=BACKEND).count()
    assert problem.stats.status is Status.MAX_NODES and problem.stats.stopped
    assert list(problem.solutions(backend=BACKEND)) == full and len(full) == count
    assert all(np.array_equal(a, b) for a, b in zip(before, links.arrays))
    run = problem.solutions(backend=BACKEND).kernel  # what every search copies from:
    assert is_pristine(links, run.pristine(links))  # the kernel's conversion, kept as built
