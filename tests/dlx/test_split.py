"""ExactCover.split: the subproblems are a cut of the serial search tree, in its order.

For random problems at every depth (and refined by ``parts``): the parts' counts add up
to the serial count, their solutions in order are the serial solutions, and their nodes
plus the nodes above the cut are the serial search's nodes. Knuth's estimates are checked
where they are exact (a tree whose levels all branch alike) and close (queens).
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ArgumentError, ExactCover, Split, Subproblem
from dlx.problems import langford, queens
from tests.helpers.random_problems import build, xcc_problems

SETTINGS = settings(max_examples=60, deadline=None)


def serial(problem: ExactCover, backend: str = "python") -> tuple[list[list[int]], int]:
    search = problem.solutions(backend=backend)
    return list(search), search.stats.nodes


def assert_cut(problem: ExactCover, split: Split, backend: str = "python") -> None:
    """The parts of ``split`` are a cut of ``problem``'s tree, in the serial order."""
    solutions, nodes = serial(problem, backend)
    got: list[list[int]] = []
    part_nodes = 0
    for part in split:
        search = problem.solutions(forced=list(part.forced), backend=backend)
        got.extend(search)
        part_nodes += search.stats.nodes
        assert part.estimate >= 1
    assert got == solutions
    assert part_nodes + split.nodes_above == nodes
    if len(split):
        batch = problem.solve_batch(split.forced, limit=None, backend=backend)
        assert int(batch.found.sum()) == len(solutions)
        assert int(batch.nodes.sum()) + split.nodes_above == nodes


@SETTINGS
@given(xcc_problems(), st.integers(0, 6))
def test_every_depth_is_a_cut_of_the_serial_tree(spec, depth):
    problem = build(*spec)
    assert_cut(problem, problem.split(depth=depth))


@SETTINGS
@given(xcc_problems(), st.integers(1, 20), st.integers(0, 3))
def test_refined_splits_are_cuts_too(spec, parts, depth):
    problem = build(*spec)
    split = problem.split(depth=depth or None, parts=parts, probes=2, seed=parts)
    assert_cut(problem, split)


@pytest.mark.parametrize("depth", range(0, 9))
def test_queens_8_at_every_depth_on_both_backends(depth):
    problem = queens(8)
    split = problem.split(depth=depth)
    assert_cut(problem, split, "python")
    batch = problem.solve_batch(split.forced, limit=None, backend="numba")
    assert int(batch.found.sum()) == 92
    assert int(batch.nodes.sum()) + split.nodes_above == 1223  # Knuth's DLX1 nodes


def test_parts_follow_the_search_order_and_nest():
    problem = langford(8)
    coarse, fine = problem.split(depth=1), problem.split(depth=2)
    assert len(coarse) < len(fine)
    # every fine part extends a coarse one, in the same order
    owners = [next(k for k, c in enumerate(coarse) if f.forced[:1] == c.forced) for f in fine]
    assert owners == sorted(owners)
    assert fine.nodes_above == 1 + len(coarse)


def test_refinement_balances_the_parts():
    problem = queens(10)
    split = problem.split(parts=40, probes=8)
    assert len(split) >= 40
    assert max(p.estimate for p in split) <= 2 * split.estimate / 40
    assert_cut(problem, split)


def test_estimates_are_exact_on_a_uniform_tree():
    # 4 items, each with 3 options of its own: every level branches 3 ways
    options = [[f"i{i}", f"o{i}{j}"] for i in range(4) for j in range(3)]
    secondary = sorted({o[1] for o in options})
    problem = ExactCover(options, secondary=secondary)
    (part,) = problem.split(probes=3)
    _, nodes = serial(problem)
    assert part.estimate == nodes == 1 + 3 + 9 + 27 + 81


def test_estimates_are_close_on_queens():
    problem = queens(10)
    split = problem.split(depth=2, probes=32, seed=1)
    assert 0.8 * 16536 < split.estimate < 1.25 * 16536


def test_a_solution_above_the_cut_is_a_part_of_its_own():
    problem = ExactCover([["a"], ["b"], ["a", "b"], ["c"]], primary=["a", "b", "c"])
    split = problem.split(depth=5)
    assert [p.forced for p in split] == [(3, 0, 1), (3, 2)]  # c first: 1 option
    assert [p.estimate for p in split] == [1, 1]
    assert_cut(problem, split)


def test_split_is_reproducible_and_its_digest_says_what_it_cut():
    problem = queens(8)
    a, b = problem.split(parts=20, seed=3), problem.split(parts=20, seed=3)
    assert [p.forced for p in a] == [p.forced for p in b] and a.digest == b.digest
    assert problem.split(depth=2).digest != problem.split(depth=3).digest
    assert a.problem_digest == problem.matrix.digest == queens(8).matrix.digest
    assert queens(9).matrix.digest != a.problem_digest
    q = queens(8)
    renamed = ExactCover([[f"x{name}" for name in option] for option in q.options()],
                         primary=[f"x{name}" for name in q.primary],
                         secondary=[f"x{name}" for name in q.secondary])
    assert renamed.matrix.digest == a.problem_digest  # names do not matter, the arrays do
    assert isinstance(a[0], Subproblem) and next(iter(a)) == a[0]
    assert a.forced[0] == list(a[0].forced)


def test_a_problem_pickles_with_its_digest():
    problem = queens(8)
    problem.count()
    again = pickle.loads(pickle.dumps(problem))
    assert again.matrix.digest == problem.matrix.digest
    assert again.count() == 92


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"depth": -1}, "depth must be at least 0"),
    ({"depth": 1.5}, "depth must be an integer"),
    ({"parts": 0}, "parts must be at least 1"),
    ({"probes": 0}, "probes must be at least 1"),
    ({"seed": "x"}, "seed"),
    ({"smallest": -1}, "smallest must be a number >= 0"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ArgumentError, match=message):
        queens(6).split(**kwargs)
