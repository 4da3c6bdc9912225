"""The memoized search on many cores (``dlx.kinds.memo_split``): the parts' exact counts
add up to the single count, the union of the parts' sets is the single set (``==``, the
canonical diagram, the count), on known and random problems, threads and processes;
budgets stop the whole; what it refuses."""

from __future__ import annotations

import concurrent.futures as cf

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ArgumentError, RunProgress, SearchStoppedError, Status
from dlx import distribute as dist
from dlx.kinds import memo_split
from dlx.memo import memo_search
from dlx.problems import langford, queens
from tests.helpers.backends import AVAILABLE, BACKENDS
from tests.helpers.memo_problems import domino_problem, transfer_matrix_dominoes, xcc_problems
from tests.helpers.random_problems import build
from tests.helpers.random_problems import xcc_problems as random_problems

THREADS = cf.ThreadPoolExecutor(2)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with workers (this process's threads) that hold no problem."""
    dist._cache.clear()
    yield
    dist._cache.clear()


def _same_set(split_set, single):
    assert split_set == single
    assert single == split_set
    assert split_set.count() == single.count()
    assert split_set.node_count == single.canonical().node_count
    assert sorted(split_set) == sorted(single)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("problem", "count"), [
    (queens(8), 92), (langford(8), 300), (domino_problem(4, 5), 95), (queens(1), 1),
    (queens(3), 0)])
def test_parts_sum_to_the_single_count_and_unite_to_the_single_set(problem, count, backend):
    single = problem.solution_set(backend=backend)
    assert problem.count(memo=True, backend=backend) == count
    for depth in (1, 2, 3):
        split = problem.split(depth=depth)
        assert problem.count(memo=True, split=split, executor=THREADS, backend=backend) == count
        assert problem.stats.status is Status.COMPLETE
        _same_set(problem.solution_set(split=split, executor=THREADS, backend=backend), single)


@settings(max_examples=40, deadline=None)
@given(xcc_problems(), st.integers(0, 3), st.sampled_from(AVAILABLE))
def test_random_problems_split_as_single(problem, depth, backend):
    single = problem.solution_set(backend=backend)
    split = problem.split(depth=depth)
    assert problem.count(memo=True, split=split, executor=THREADS, backend=backend) == \
        single.count() == problem.count(memo=False)
    _same_set(problem.solution_set(split=split, executor=THREADS, backend=backend), single)


@settings(max_examples=30, deadline=None)
@given(random_problems(), st.integers(0, 3))
def test_random_problems_with_dropped_options_split_as_single(spec, depth):
    problem = build(*spec)
    single = problem.solution_set(backend="python")
    split = problem.split(depth=depth)
    assert problem.count(memo=True, split=split, executor=THREADS, backend="python") == \
        single.count()
    _same_set(problem.solution_set(split=split, executor=THREADS, backend="python"), single)


def test_two_worker_processes():
    problem = queens(10)
    assert memo_split.splits_well(problem, _request(problem))
    seen: list[RunProgress] = []
    assert problem.count(memo=True, workers=2, progress=seen.append) == 724
    assert seen[-1].done == seen[-1].parts > 1
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    assert seen[-1].solutions == 724 and len(seen[-1].cpu) >= 1
    _same_set(problem.solution_set(workers=2), problem.solution_set())
    with pytest.raises(ArgumentError, match="memo_search\\(\\) searches in one process"):
        memo_search(problem, keep=False, workers=2)


def _request(problem, **options):
    from dlx.request import check_request

    return check_request(problem.matrix, "count", None, {"memo": True, **options})


def test_domino_boards_are_not_split():
    """Sharing across the tree is what the memoized search lives on there: split, each
    part would cost about the whole (the module's figures); it runs in one piece."""
    problem = domino_problem(8, 8)
    assert not memo_split.splits_well(problem, _request(problem))
    assert memo_split.splits_well(queens(10), _request(queens(10)))
    seen: list[RunProgress] = []
    assert problem.count(memo=True, executor=THREADS, progress=seen.append) == 12_988_816
    assert all(p.parts == 1 for p in seen)  # the single search's progress
    assert problem.solution_set(executor=THREADS) == problem.solution_set()


@pytest.mark.slow
def test_counts_past_two_to_the_64_stay_exact():
    problem = domino_problem(14, 14)
    exact = transfer_matrix_dominoes(14, 14)
    assert exact > 2**64
    assert problem.count(memo=True, split=problem.split(depth=1), executor=THREADS,
                         backend="numba") == exact


def test_a_part_stopped_stops_the_whole():
    problem = queens(9)
    split = problem.split(depth=1)
    with pytest.raises(SearchStoppedError, match="max_zdd_nodes=3 ran out") as e:
        problem.count(memo=True, split=split, executor=THREADS, max_zdd_nodes=3)
    assert e.value.stats.status is Status.MAX_MEMORY
    with pytest.raises(SearchStoppedError, match="max_memory=100 ran out"):
        problem.solution_set(split=split, executor=THREADS, max_memory=100)
    with pytest.raises(SearchStoppedError, match="timeout=1e-09 ran out") as e:
        problem.count(memo=True, split=split, executor=THREADS, timeout=1e-9)
    assert e.value.stats.status is Status.TIMEOUT
    with pytest.raises(SearchStoppedError, match="timeout"):
        problem.solution_set(workers=2, split=split, timeout=1e-9)


def test_a_limit_caps_the_count():
    problem = queens(8)
    assert problem.count(5, memo=True, split=problem.split(depth=1), executor=THREADS) == 5
    assert problem.stats.status is Status.LIMIT


@pytest.mark.parametrize(("call", "kwargs", "message"), [
    ("count", {"memo": True, "checkpoint": "x.json"}, "takes no checkpoint"),
    ("solutions", {"memo": True, "workers": 2}, r"solutions\(\) takes no executor, workers"),
    ("count", {"memo": True, "workers": 2, "forced": [0]}, "forced is for a single search"),
    ("count", {"memo": True, "workers": 2, "max_nodes": 9}, "max_nodes is for a single"),
    ("count", {"memo": True, "executor": "pool"}, "executor must be a concurrent.futures"),
    ("count", {"memo": True, "split": "cut"}, "split must be a dlx Split"),
    ("count", {"memo": True, "split": queens(5).split(depth=1)}, "another problem"),
    ("count", {"memo": True, "workers": 0}, "workers"),
    ("count", {"memo": True, "workers": "2"}, "workers"),
    ("solution_set", {"workers": -1}, "workers"),
    ("solution_set", {"executor": 3}, "executor must be"),
    ("solution_set", {"split": queens(5).split(depth=1)}, "another problem"),
    ("solution_set", {"workers": 2, "forced": [0]}, "forced is for a single search"),
])
def test_hostile_arguments_are_refused_before_any_work(call, kwargs, message):
    problem = queens(6)
    with pytest.raises(ArgumentError, match=message):
        result = getattr(problem, call)(**kwargs)
        if call == "solutions":
            next(iter(result))


def test_the_plain_distributed_count_is_unchanged():
    """Without memo=True, count(workers=N) stays the plain distributed count (its nodes
    are the serial plain search's)."""
    problem = queens(8)
    assert problem.count(executor=THREADS, split=problem.split(depth=2)) == 92
    assert problem.stats.nodes == 1223


def test_ctrl_c_is_recorded(monkeypatch):
    problem = queens(8)

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(memo_split._Run, "_gathered", interrupt)
    with pytest.raises(KeyboardInterrupt):
        problem.count(memo=True, split=problem.split(depth=1), executor=THREADS)
    assert problem.stats.status is Status.INTERRUPTED
