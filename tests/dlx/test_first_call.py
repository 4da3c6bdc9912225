"""A first call without the wait (issue 44, part 3): what a new process pays before its
first numba search, and ``auto``'s early move to numba.

No clock is read here: the tests hold the behaviour that the timings rest on (numba's
disk-cache load sets up only its runtime; a search that the tree-size estimate says is
long moves at once; one that ends soon never loads numba), and that results never depend
on which backend ran.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from dlx import registry, slices
from dlx.budget import NEVER
from dlx.compiled import NUMBA
from dlx.problems import langford, queens
from dlx.pure import PYTHON
from dlx.slices import Handover, projected
from tests.helpers.backends import needs_numba


def _fresh(code: str) -> subprocess.CompletedProcess:
    """``code`` in a new Python process (numba's disk cache as this machine has it)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=False)


@needs_numba
def test_a_cache_load_sets_up_only_numbas_runtime_and_numba_still_compiles():
    """A kernel loaded from numba's disk cache does not import numba's lowering of every
    feature (``numba.np.arraymath`` among them: ~0.1-0.25 s of a fresh process); a
    compile afterwards, of the user's own function, gets it all, and runs."""
    queens(6).count(backend="numba")  # fills the cache, if this machine had none
    code = """if True:
        import sys
        from dlx.problems import queens
        assert queens(6).count(backend="numba") == 4
        print("arraymath" if "numba.np.arraymath" in sys.modules else "lean")
        import numba, numpy as np

        @numba.njit
        def f(a):
            return np.sum(np.sqrt(a)) + len(str(12))

        print(f(np.array([1.0, 4.0, 9.0])))
        assert queens(7).count(backend="numba") == 40
    """
    out = _fresh(code)
    assert out.stdout.split() == ["lean", "8.0"], out.stderr


@needs_numba
def test_a_cache_load_does_without_numbas_lowering_of_arrays():
    """The index hook goes in only for a compile: a load from the cache neither imports
    ``numba.np.arrayobj`` (~0.1 s) nor loses the hook's tag (the code loaded was
    compiled with it). The same kernel is loaded here first, so that a fresh clone's
    cold cache is warm for the child."""
    from dlx.compiled import compiled_kernel

    compiled_kernel()
    code = """if True:
        import sys
        from dlx.compiled import compiled_kernel
        print(compiled_kernel().nonnegative_indexing, "numba.np.arrayobj" in sys.modules)
    """
    out = _fresh(code)
    assert out.stdout.split() == ["True", "False"], out.stderr


@needs_numba
def test_a_compile_still_puts_the_index_hook_in(tmp_path):
    """A cache miss (an empty cache directory) compiles with the hook in place, as before;
    the next process loads what it compiled."""
    code = """if True:
        import sys
        from dlx.compiled import compiled, _c_twin, _namespace
        from dlx.problems import queens
        compiled("search", False, False)
        print(_namespace(_c_twin(False, False)).nonnegative_indexing,
              queens(8).count(backend="numba", memo=False), "numba.np.arrayobj" in sys.modules)
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=600, check=False, env=env) for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["True", "92", "True"],
                                                ["True", "92", "False"]], runs[0].stderr


# ----- auto's early move ------------------------------------------------------------------


@pytest.fixture
def numba_unloaded(monkeypatch):
    """numba available but, as far as the rule knows, not loaded yet."""
    monkeypatch.setattr(NUMBA, "unavailable", lambda: None)
    monkeypatch.setattr(NUMBA, "loaded", lambda: False)


def test_the_rule_moves_early_on_a_long_projection(numba_unloaded):
    due, share = registry._switch_due, registry.AUTO_SWITCH_SECONDS
    sample = registry.AUTO_ESTIMATE_SECONDS

    def unasked() -> float:
        raise AssertionError("the estimate was read before the sample was taken")

    assert not due(sample / 2, None, unasked)  # too soon to read the estimate
    assert due(sample, None, lambda: share) and due(sample, None, lambda: 10 * share)
    assert not due(sample, None, lambda: share / 2)  # python finishes before the load
    assert not due(sample, None, lambda: None)  # no estimate: the ski-rental rule
    assert due(share, None, lambda: None)
    assert not due(sample, share / 2, lambda: 10 * share)  # the load would not fit
    assert not due(sample, share / 2, unasked)


def test_without_numba_no_estimate_moves(monkeypatch):
    monkeypatch.setattr(NUMBA, "unavailable", lambda: "numba is not here")
    assert not registry._switch_due(registry.AUTO_ESTIMATE_SECONDS, None, lambda: 1e9)


def test_projected():
    assert projected(1.0, 0.25) == 3.0 and projected(0.5, 0.5) == 0.5
    assert projected(1.0, 0.0) is None and projected(1.0, 1.0) is None


def test_a_handover_projects_from_its_own_searchs_slices(monkeypatch):
    """``remaining`` projects the seconds of the search under way, not those of the
    searches before it on the same handover (a batch's instances)."""
    clock = iter(range(1000))
    monkeypatch.setattr(slices.time, "thread_time", lambda: float(next(clock)))
    seen = []

    class B:
        def __init__(self, name):
            self.name = name

    def due(seconds, left, remaining):
        seen.append((seconds, remaining()))
        return False

    handover = Handover(B("a"), B("b"), due)

    def step(budget):
        return (None, budget, None)

    first = handover.watch(step, lambda: step, explored=lambda: 0.25)
    first(1), first(1)  # each slice takes one second of the fake clock
    second = handover.watch(step, lambda: step, explored=lambda: 0.5)
    second(1)
    unestimated = handover.watch(step, lambda: step)
    unestimated(1)
    assert seen == [(1.0, 3.0), (2.0, 6.0), (3.0, 1.0), (4.0, None)]


def _remainders(monkeypatch, call) -> list:
    """What ``remaining()`` said after each slice of ``call()`` by ``auto`` on python."""
    monkeypatch.setattr(registry, "NUMBA_LOADED_MIN_NODES", NEVER)
    monkeypatch.setattr(registry, "NUMBA_MIN_NODES", NEVER)
    seen = []

    def due(seconds, left, remaining):
        seen.append(remaining())
        return False

    monkeypatch.setattr(registry, "_switch_due", due)
    call()
    return seen


def test_only_a_search_to_the_end_of_its_tree_is_estimated(monkeypatch):
    """A count, or all the solutions, runs to the end of its tree: its remaining time is
    projected. A search with a limit or a node budget may stop anywhere: none is."""
    problem = queens(10)
    counted = _remainders(monkeypatch, lambda: problem.count(backend="auto", memo=False))
    assert counted and all(r is not None and r > 0 for r in counted)
    assert problem.stats.backend == "python"
    listed = _remainders(monkeypatch, lambda: list(problem.solutions(backend="auto")))
    assert listed and all(r is not None for r in listed)
    nothing = langford(9)  # no solution: a limit of 1 searches the whole tree
    limited = _remainders(monkeypatch, lambda: nothing.count(backend="auto", limit=1))
    budget = _remainders(monkeypatch, lambda: nothing.count(backend="auto", max_nodes=10**9))
    assert limited and budget and set(limited) == set(budget) == {None}


@needs_numba
def test_a_long_count_moves_on_the_estimate_in_a_fresh_process():
    """A count that the estimate projects long moves before python has had the
    ski-rental share (CPU seconds of its slices, not a clock of the test); its answer,
    nodes and updates are python's."""
    queens(6).count(backend="numba")
    code = """if True:
        import dlx.registry as r
        from dlx.problems import queens
        rule, moved = r._switch_due, []

        def due(seconds, left, remaining):
            if rule(seconds, left, remaining):
                moved.append(seconds < r.AUTO_SWITCH_SECONDS)
                return True
            return False

        r._switch_due = due
        problem = queens(12)
        print(problem.count(memo=False), problem.stats.backend, problem.stats.nodes,
              problem.stats.updates, moved)
    """
    out = _fresh(code)
    problem = queens(12)
    expected = [str(problem.count(backend="numba", memo=False)), "python->numba",
                str(problem.stats.nodes), str(problem.stats.updates), "[True]"]
    assert out.stdout.split() == expected, out.stderr


def test_a_short_count_never_loads_numba_in_a_fresh_process():
    """A count that python ends within the estimate's sample never reads it, never
    imports numba."""
    code = """if True:
        import sys
        from dlx.problems import queens
        problem = queens(8)
        print(problem.count(), problem.stats.backend, "numba" in sys.modules)
    """
    out = _fresh(code)
    assert out.stdout.split() == ["92", "python", "False"], out.stderr


def test_a_handover_cuts_the_slice_that_would_run_past_the_move(monkeypatch):
    """At the pace of the search's slices so far, the slice under way when the move falls
    due is cut to end there (a python slice runs up to 0.2 s: the move came that late);
    without a bound, or before any pace, budgets pass as the driver gives them."""
    clock = iter(range(1000))
    monkeypatch.setattr(slices.time, "thread_time", lambda: float(next(clock)))

    class B:
        def __init__(self, name):
            self.name = name

    budgets = []

    def step(budget):
        budgets.append(budget)
        return (None, budget, None)

    for by, expected in ((lambda: 10.0, [100, 991, 10**6]), (lambda: None, [100, 10**6]),
                         (None, [100, 10**6])):
        budgets.clear()
        handover = Handover(B("a"), B("b"), lambda seconds, left, remaining: False, by=by)
        watched = handover.watch(step, lambda: step)
        watched(100)  # one fake second: 100 nodes a second
        watched(10**6)  # cut to end about 9 seconds later, at 10
        if len(expected) == 3:
            handover.seconds = 20.0  # past the bound: no cut (the rule moves, or never will)
            watched(10**6)
        assert budgets == expected
    auto = registry.handover("auto", PYTHON)
    assert auto is not None and auto._by is registry._switch_by
