"""One entrance (dlx.request; issue 42): every search through the one request
(``check_request``), the memoized search on the one sliced loop with a bound on its
memory, one progress record, one vocabulary of strategies, and the same message for the
same bad argument on every call that takes it."""

from __future__ import annotations

import itertools
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlx
from dlx import ArgumentError, ExactCover, RunProgress, SearchStoppedError, Status
from dlx.kinds import choose
from dlx.memo import MEMORY_BOUND, MemoRun, MemoStats, build
from dlx.request import check_request, memory_default
from dlx.zdd import memo_input
from tests.helpers.backends import AVAILABLE


def dominoes(m: int, n: int) -> ExactCover:
    options = []
    for r, c in itertools.product(range(m), range(n)):
        if c + 1 < n:
            options.append([(r, c), (r, c + 1)])
        if r + 1 < m:
            options.append([(r, c), (r + 1, c)])
    return ExactCover(options)


def matchings(n: int) -> ExactCover:
    """Perfect matchings of K_n: (n - 1)!! of them; every remaining problem is new to the
    plain search and old to the memoized one (the chooser takes the memo)."""
    return ExactCover([[i, j] for i in range(n) for j in range(i + 1, n)])


def double_factorial(n: int) -> int:
    return 1 if n <= 1 else n * double_factorial(n - 2)


# ----- defect 1: the memoized search's memory is bounded ------------------------------


def test_every_memoized_request_has_a_memory_bound():
    m = matchings(10).matrix
    for call, options in (("count", {}), ("count", {"memo": True}),
                          ("solution_set", {})):
        request = check_request(m, call, None, options)
        assert request.max_memory == memory_default() < (1 << 62)
    assert check_request(m, "count", None, {"max_memory": 10**6}).max_memory == 10**6


@pytest.mark.parametrize("backend", AVAILABLE)
def test_a_table_is_not_grown_past_the_bound(backend):
    problem = matchings(16)
    data = memo_input(problem)
    kernel = dlx.get_backend(backend).memo()
    run = MemoRun(kernel, data, MemoStats(), max_memory=1)
    run.max_memory = run.memory() + 1  # room for not one doubling
    status = run.advance(1 << 40)
    assert status == MEMORY_BOUND and run.memory() <= run.max_memory


@pytest.mark.parametrize("backend", AVAILABLE)
def test_an_explicit_memo_out_of_memory_raises_naming_the_bound(backend):
    problem = matchings(16)
    with pytest.raises(SearchStoppedError, match="max_memory=100000 ran out") as e:
        problem.count(memo=True, max_memory=100_000, backend=backend)
    assert e.value.stats.status is Status.MAX_MEMORY
    assert problem.stats.status is Status.MAX_MEMORY
    with pytest.raises(SearchStoppedError, match="max_memory"):
        problem.solution_set(max_memory=100_000, backend=backend)
    with pytest.raises(SearchStoppedError, match="max_zdd_nodes=50 ran out"):
        problem.count(memo=True, max_zdd_nodes=50, backend=backend)


@pytest.mark.parametrize("backend", AVAILABLE)
def test_the_chooser_out_of_memory_falls_back_to_the_plain_search(backend, monkeypatch):
    monkeypatch.setattr(choose, "PLAIN_FIRST", 64)
    monkeypatch.setattr(choose, "PLAIN_FIRST_PYTHON", 64)
    problem = matchings(14)
    assert problem.count(backend=backend) == double_factorial(13)
    assert problem.stats.answered_by == "memo"  # unbounded, the memo answers
    assert problem.count(backend=backend, max_memory=100_000) == double_factorial(13)
    stats = problem.stats
    assert stats.answered_by == "plain" and stats.status is Status.COMPLETE
    assert stats.parts["memo"].status is Status.MAX_MEMORY
    assert stats.parts["memo"].bound == "max_memory"
    assert problem.count(backend=backend, max_zdd_nodes=40) == double_factorial(13)
    assert problem.stats.answered_by == "plain"
    assert problem.stats.parts["memo"].bound == "max_zdd_nodes"


def test_memory_bounds_are_for_the_memoized_search():
    problem = matchings(6)
    for options in ({"memo": False, "max_memory": 10**6}, {"strategy": "plain",
                                                             "max_zdd_nodes": 10}):
        with pytest.raises(ArgumentError, match="bounds the memoized search"):
            problem.count(**options)
    with pytest.raises(ArgumentError, match="max_memory must be"):
        problem.count(max_memory=0)


# ----- defect 7: one progress rule, one record ---------------------------------------


CALLS = {
    "count": lambda p, f: p.count(progress=f),
    "count(strategy='plain')": lambda p, f: p.count(strategy="plain", progress=f),
    "count(memo=True)": lambda p, f: p.count(memo=True, progress=f),
    "solutions": lambda p, f: list(p.solutions(progress=f)),
    "first(strategy='learn')": lambda p, f: p.first(strategy="learn", progress=f),
    "solution_set": lambda p, f: p.solution_set(progress=f),
    "solve_batch": lambda p, f: p.solve_batch([[], [0]], progress=f, backend="python"),
}


@pytest.mark.parametrize("call", CALLS)
def test_one_progress_rule(call):
    with pytest.raises(ArgumentError, match="progress must be callable or None, got 3"):
        CALLS[call](dominoes(4, 4), 3)


@pytest.mark.parametrize("call", CALLS)
def test_one_progress_record(call):
    seen: list[object] = []
    CALLS[call](dominoes(4, 4), seen.append)
    assert seen and all(type(r) is RunProgress for r in seen)
    last = seen[-1]
    assert isinstance(last, RunProgress) and last.done == last.parts


def test_the_memoized_search_reports_its_stats():
    seen: list[RunProgress] = []
    dominoes(6, 6).solution_set(progress=seen.append)
    assert isinstance(seen[-1].stats, MemoStats) and seen[-1].stats.zdd_nodes > 2


# ----- defect 8: count(memo=True, parts=True) ----------------------------------------


def rooms(k: int) -> ExactCover:
    """``k`` 2 x 3 rooms side by side (3 tilings each), no domino across a wall."""
    options = []
    for room in range(k):
        for r, c in itertools.product(range(2), range(3)):
            if c + 1 < 3:
                options.append([(room, r, c), (room, r, c + 1)])
            if r + 1 < 2:
                options.append([(room, r, c), (room, r + 1, c)])
    return ExactCover(options)


@pytest.mark.parametrize("backend", AVAILABLE)
def test_count_takes_parts(backend):
    problem = rooms(13)
    assert problem.count(memo=True, parts=True, backend=backend) == 3**13
    assert problem.stats.splits > 0
    assert problem.count(parts=True, backend=backend) == 3**13
    with pytest.raises(ArgumentError, match="parts=True splits the memoized search"):
        problem.count(memo=False, parts=True)


def test_a_set_too_large_to_expand_names_a_call_that_works(monkeypatch):
    import dlx.memo

    problem = rooms(13)
    monkeypatch.setattr(dlx.memo, "expanded", lambda *args: None)  # past its bound
    with pytest.raises(SearchStoppedError) as e:
        problem.solution_set(parts=True)
    assert e.value.stats.status is Status.MAX_MEMORY
    assert "count(memo=True, parts=True)" in str(e.value)
    assert problem.count(memo=True, parts=True) == 3**13


# ----- the memoized search runs on slices.drive --------------------------------------


def test_one_sliced_loop():
    import dlx.memo

    assert not hasattr(dlx.memo, "_run")
    seen: list[str] = []
    import dlx.slices

    real = dlx.slices.drive

    def spy(*args, **kwargs):
        seen.append("drive")
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dlx.memo, "drive", spy)
        dominoes(4, 4).solution_set(method="memo")
    assert seen == ["drive"]


def test_ctrl_c_in_the_memoized_search_is_recorded(monkeypatch):
    problem = dominoes(6, 6)
    request = check_request(problem.matrix, "solution_set", None, {})

    def interrupt(self, node_stop):
        raise KeyboardInterrupt

    monkeypatch.setattr(MemoRun, "advance", interrupt)
    for call in (lambda: problem.solution_set(method="memo"),
                 lambda: problem.count(memo=True)):
        with pytest.raises(KeyboardInterrupt):
            call()
        assert problem.stats.status is Status.INTERRUPTED
    with pytest.raises(KeyboardInterrupt):
        build(problem, request, True)


# ----- one vocabulary -----------------------------------------------------------------


def test_strategy_names():
    problem = dominoes(4, 4)
    assert dlx.arguments.STRATEGIES == ("auto", "plain", "learn", "race")
    assert problem.first(strategy="race") is not None
    with pytest.warns(DeprecationWarning, match="strategy='learn'"):
        problem.first(learn=True)
    with pytest.warns(FutureWarning, match="strategy='race'"):
        problem.first(strategy="auto")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        problem.first()
        problem.count(strategy="auto")
    with pytest.raises(ArgumentError, match="strategy must be one of 'auto', 'plain', "
                                            "'learn', 'race', got 'fast'"):
        problem.first(strategy="fast")


def test_messages_read_as_sentences():
    problem = dominoes(4, 4)
    with pytest.raises(ArgumentError) as e:
        problem.solutions(memo=True, workers=2)
    assert "solutions() takes no executor, workers or split with it" in str(e.value)
    assert "no a " not in str(e.value)


# ----- every call through check_request: the same bad argument, the same message -----


ARGUMENTS = {  # name -> bad values, and the calls that take it
    "max_nodes": ([-1, 1.5, "9", True], ("count", "first", "solutions", "best",
                                        "solution_set", "solve_batch", "instance_search")),
    "timeout": ([-1, "1", float("nan")], ("count", "first", "solutions", "best",
                                          "solution_set", "solve_batch", "instance_search")),
    "backend": (["fortran", 3], ("count", "first", "solutions", "best", "solution_set",
                                 "solve_batch", "instance_search")),
    "progress": ([3, "x"], ("count", "first", "solutions", "best", "solution_set",
                            "solve_batch")),
    "forced": ([[99], "ab", [0, 0.5]], ("count", "first", "solutions", "best",
                                        "solution_set")),
    "max_zdd_nodes": ([1, -2, "x"], ("count", "solution_set")),
    "max_memory": ([0, 2.5, "x"], ("count", "solution_set")),
    "parts": ([1, "yes"], ("count", "solution_set")),
    "strategy": (["hard!", 1], ("count", "first", "solutions", "best")),
}


def call(problem: ExactCover, name: str, options: dict) -> object:
    if name == "count":
        return problem.count(**options)
    if name == "first":
        return problem.first(**options)
    if name == "solutions":
        return list(problem.solutions(**options))
    if name == "best":
        return problem.best(**options)
    if name == "solution_set":
        return problem.solution_set(**options)
    if name == "solve_batch":
        return problem.solve_batch([[]], **options)
    return problem.instance_search(**options)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_the_same_bad_argument_gets_the_same_message_everywhere(data):
    problem = dominoes(2, 4)
    name = data.draw(st.sampled_from(sorted(ARGUMENTS)))
    values, calls = ARGUMENTS[name]
    value = data.draw(st.sampled_from(values))
    messages = set()
    for c in calls:
        with pytest.raises(ArgumentError) as e:
            call(problem, c, {name: value})
        messages.add(str(e.value))
    assert len(messages) == 1, messages
    assert name in messages.pop()


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_a_random_valid_call_answers_as_the_plain_count(data):
    problem = dominoes(2, data.draw(st.integers(1, 6)))
    total = problem.count(memo=False)
    name = data.draw(st.sampled_from(("count", "first", "solutions", "solution_set",
                                      "solve_batch", "instance_search")))
    options: dict = {"backend": data.draw(st.sampled_from(AVAILABLE))}
    if name != "instance_search" and data.draw(st.booleans()):
        options["max_nodes"] = data.draw(st.sampled_from([None, 10**9]))
    if name in ("count", "solution_set") and data.draw(st.booleans()):
        options["max_memory"] = data.draw(st.sampled_from([None, 1 << 30]))
    found = call(problem, name, options)
    if name == "count":
        assert found == total
    elif name == "first":
        assert (found is None) == (total == 0)
    elif name == "solutions":
        assert len(found) == total
    elif name == "solution_set":
        assert found.count() == total
    elif name == "solve_batch":
        assert int(found.found[0]) == min(total, 1)
    else:
        assert int(found([]).found[0]) == min(total, 1)
