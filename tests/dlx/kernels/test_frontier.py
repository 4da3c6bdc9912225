"""The top-down (frontier-based) construction of solution sets (dlx.frontier,
dlx.kernels.frontier; issue 40 item 4): the same family as the memoized search, node for
node in the canonical store, on both backends; the choice between the two; forced
options; bounds; hostile arguments."""

from __future__ import annotations

import time
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx.problem
from dlx import ArgumentError, Colored, ExactCover, NoPrimaryItemWarning, SearchStoppedError, Status
from dlx.backend import FrontierKernel
from dlx.frontier import CHOOSE_WIDTH, MAX_WIDTH, _Levels, _plan, frontier_width
from dlx.problems import langford, queens
from dlx.registry import get_backend
from dlx.search import MemoStats
from dlx.zdd_store import memo_input, store_for
from tests.helpers.backends import AVAILABLE
from tests.helpers.memo_problems import domino_problem, transfer_matrix_dominoes
from tests.helpers.random_problems import as_set, build, xcc_problems


def same_family(problem: ExactCover, backend: str, **options) -> None:
    """The frontier's set of ``problem`` equals the memoized search's: as a value, in
    count and in the canonical store's node count."""
    top = problem.solution_set(method="frontier", backend=backend, **options)
    memo = problem.solution_set(method="memo", backend=backend, **options)
    assert top == memo
    assert top.count() == memo.count()
    assert top.node_count == memo.canonical().node_count
    if top.count() <= 1000:
        assert as_set(top) == as_set(memo)


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("n", range(2, 9))
def test_dominoes_as_the_memo(backend, n):
    p = domino_problem(n, n)
    same_family(p, backend)
    assert p.solution_set(method="frontier", backend=backend).count() == \
        transfer_matrix_dominoes(n, n)


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("problem", [queens(4), queens(6), queens(8), langford(3),
                                     langford(4), langford(7), langford(8),
                                     domino_problem(3, 7)], ids=repr)
def test_queens_and_langford_as_the_memo(backend, problem):
    same_family(problem, backend)


@pytest.mark.parametrize("backend", AVAILABLE)
@settings(max_examples=60, deadline=None)
@given(drawn=xcc_problems(max_options=12, colors=False), data=st.data())
def test_random_problems_as_the_memo(backend, drawn, data):
    """Secondary items, options without a primary item, primary items without options,
    forced options (clashing ones too)."""
    p = build(*drawn)
    same_family(p, backend)
    kept = [k for k in range(len(p)) if k not in p.matrix.dropped]
    if kept:
        forced = data.draw(st.lists(st.sampled_from(kept), max_size=2, unique=True))
        top = p.solution_set(method="frontier", backend=backend, forced=forced)
        assert top == p.solution_set(method="memo", backend=backend, forced=forced)
        assert all(set(forced) <= set(s) for s in top)


def wide(n: int, seed: int) -> ExactCover:
    """Items 0..n-1: one option over them all, one option of each alone, and random
    pairs and triples of neighbours: every item open from the big option to its own, a
    frontier about ``n`` items wide (states of several words), few states."""
    import random

    rng = random.Random(seed)
    options = [[str(i) for i in range(n)]] + [[str(i)] for i in range(n)]
    for i in range(n - 2):
        if rng.random() < 0.5:
            options.append([str(j) for j in range(i, i + rng.choice((2, 3)))])
    return ExactCover(options, primary=[str(i) for i in range(n)])


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("seed", range(3))
def test_states_of_several_words(backend, seed):
    p = wide(130, seed)
    assert frontier_width(memo_input(p), store_for(p.matrix).order) > 2 * 62  # 3 words
    same_family(p, backend)


def test_the_choice_follows_the_frontier(monkeypatch):
    """method=None: top-down on a narrow frontier (colors too), the memo on a wide one
    (the same family either way)."""
    made = []
    real = dlx.problem.build_frontier
    monkeypatch.setattr(dlx.problem, "build_frontier",
                        lambda *a: made.append(1) or real(*a))
    narrow = domino_problem(6, 6)
    assert frontier_width(memo_input(narrow), store_for(narrow.matrix).order) <= CHOOSE_WIDTH
    assert narrow.solution_set().count() == 6728 and made == [1]
    broad = wide(130, 0)
    broad.solution_set()
    assert made == [1]
    colored = ExactCover([["a", Colored("x", "red")], ["b", Colored("x", "red")], ["a", "b"]],
                         primary=["a", "b"], secondary=["x"])
    assert colored.solution_set().count() == 2 and made == [1, 1]  # narrow, on probation
    assert narrow.solution_set(method="memo") == narrow.solution_set(method="frontier")
    assert made == [1, 1, 1]


def test_forced_options():
    p = domino_problem(4, 4)
    top = p.solution_set(method="frontier", forced=[0])
    assert top == p.solution_set(method="frontier").restrict(include=[0])
    a = p.matrix.items  # two dominoes sharing the corner cell: a clash
    clash = [k for k in range(len(p)) if 1 in a[p.matrix.indptr[k]:p.matrix.indptr[k + 1]]]
    empty = p.solution_set(method="frontier", forced=clash[:2])
    assert empty.count() == 0 and not empty
    assert p.stats.status is Status.CONFLICT and p.stats.conflict == clash[1]


def test_no_solution_and_no_primary_item():
    p = ExactCover([["a"], ["b"]], primary=["a", "b", "c"])  # c has no option
    assert p.solution_set(method="frontier").count() == 0
    with pytest.warns(NoPrimaryItemWarning):
        q = ExactCover([["x"]], primary=[], secondary=["x"])
    assert q.solution_set(method="frontier").count() == 1  # the empty solution
    assert q.solution_set(method="frontier") == q.solution_set(method="memo")


@pytest.mark.parametrize("backend", AVAILABLE)
def test_bounds_stop_the_construction(backend):
    p = domino_problem(8, 8)
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, max_memory=20_000)
    assert e.value.stats.status is Status.MAX_MEMORY and e.value.stats.bound == "max_memory"
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, max_zdd_nodes=100)
    assert e.value.stats.bound == "max_zdd_nodes"
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, max_nodes=100)
    assert e.value.stats.status is Status.MAX_NODES
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, timeout=0.0)
    assert e.value.stats.status is Status.TIMEOUT


@pytest.mark.parametrize("method", ["top-down", 1, b"memo", ["memo"], True])
def test_hostile_methods(method):
    with pytest.raises(ArgumentError, match="method"):
        domino_problem(2, 2).solution_set(method=method)


def test_frontier_refuses_what_it_cannot_build():
    with pytest.raises(ArgumentError, match="parts"):
        domino_problem(2, 2).solution_set(method="frontier", parts=True)
    with pytest.raises(ArgumentError, match="method='frontier' builds the set in one process"):
        domino_problem(2, 2).solution_set(method="frontier", workers=2)
    board = domino_problem(4, 4)  # many cores: the memoized search's parts, the same set
    assert board.solution_set(workers=2) == board.solution_set()
    n = MAX_WIDTH + 10  # one option over every item first: all of them open at once
    options = [[str(i) for i in range(n)]] + [[str(i)] for i in range(n)]
    huge = ExactCover(options, primary=[str(i) for i in range(n)])
    with pytest.raises(ArgumentError, match="frontier"):
        huge.solution_set(method="frontier")
    assert huge.solution_set().count() == 2  # the memo, chosen


def test_progress_and_ctrl_c(monkeypatch):
    import dlx.frontier
    from dlx import MemoStats, RunProgress

    seen: list[RunProgress] = []
    p = domino_problem(6, 6)
    p.solution_set(method="frontier", progress=seen.append)
    assert seen and seen[-1].done == seen[-1].parts == 1
    assert isinstance(seen[-1].stats, MemoStats) and seen[-1].stats.zdd_nodes > 2
    assert seen[-1].solutions == 6728

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(dlx.frontier, "_construct", interrupt)
    with pytest.raises(KeyboardInterrupt):
        p.solution_set(method="frontier")
    assert p.stats.status is Status.INTERRUPTED


# ----- the kernel through the Backend protocol: conformance, and the move between levels --


def _levels(problem: ExactCover, kernel: FrontierKernel) -> _Levels:
    """The construction of ``problem``'s diagram on ``kernel``, not started."""
    data = memo_input(problem)
    plan = _plan(data, store_for(problem.matrix).order, [])
    assert isinstance(plan, tuple)
    request = types.SimpleNamespace(timeout=None, max_nodes=10**12, max_zdd_nodes=10**12,
                                    progress=None)
    return _Levels(kernel, *plan, request, MemoStats(), time.monotonic(), 1 << 40)


def _reduced(levels: _Levels, move: int | None = None,
             to: FrontierKernel | None = None) -> tuple[int, list[int]]:
    """The construction run to its end (moved to ``to`` after ``move`` levels): its root
    and reduced diagram, node for node."""
    done, steps = None, 0
    while done is None:
        if steps == move and to is not None:
            levels.move_to(to, "moved")
        done = levels.step(0)[0]
        steps += 1
    assert done is Status.COMPLETE
    root, nodes = levels.reduced()
    return root, np.asarray(nodes, dtype=np.int64).tolist()


CONFORMANCE = [domino_problem(4, 5), queens(6), langford(7), wide(70, 1)]


@pytest.mark.parametrize("problem", CONFORMANCE, ids=repr)
def test_every_backend_gives_the_same_diagram(problem):
    """Every registered backend gives its frontier kernel through the Backend protocol
    (``Backend.frontier``), and each builds the same reduced diagram, node for node."""
    diagrams = {}
    for name in AVAILABLE:
        kernel = get_backend(name).frontier()
        assert isinstance(kernel, FrontierKernel) and kernel.name == name
        diagrams[name] = _reduced(_levels(problem, kernel))
    assert len({repr(d) for d in diagrams.values()}) == 1, diagrams.keys()
    assert len(diagrams["python"][1]) > 6, "a diagram of nodes, not a sink"


@pytest.mark.skipif("numba" not in AVAILABLE, reason="numba cannot run here")
@pytest.mark.parametrize("problem", [domino_problem(4, 4), langford(4)], ids=repr)
def test_a_build_moves_between_any_two_levels(problem):
    """``auto``'s move (python to numba) after any level, top-down or in the reduction,
    gives the diagram built on one backend alone, node for node."""
    python, numba = get_backend("python").frontier(), get_backend("numba").frontier()
    alone = _reduced(_levels(problem, python))
    steps = 2 * len(store_for(problem.matrix).order)
    for move in range(steps + 1):
        assert _reduced(_levels(problem, python), move, numba) == alone, move
