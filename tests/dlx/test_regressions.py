"""Regression tests of the engine's core: one test per defect of the reliability issue
(D1, D2, D3, D5, D8, D13, D17, D19) and of the hostile review (R9), each of which failed
before its fix.

* D1: a search is an object; threads sharing a problem get their own answers and stats;
* D2, D8, D13, D5: one validation on every path (``solutions``, ``count``, ``first``,
  ``solve_batch``) and backend: the same error and message for the same bad argument;
  huge budgets (and R9, a huge timeout) mean unbounded; no primary items;
* D19: the choice of item among many primary items is Knuth's; deep searches;
* D17: a problem pickles and copies after searches;
* D3: numba that cannot run (JIT disabled, no cache) falls back or compiles anyway.
"""

from __future__ import annotations

import copy
import math
import pickle
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from dlx import (
    ArgumentError,
    ExactCover,
    ForcedOptionError,
    NoPrimaryItemWarning,
    Status,
)
from dlx.problems import queens
from tests.helpers.backends import BACKENDS, needs_numba

ROOT = Path(__file__).resolve().parents[2]


# ----- a search is an object: threads (D1) ----------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_threads_share_a_problem(backend):
    """D1: one thread counts, another counts to a limit, a third iterates: every answer is
    its own (before: 9-11 of 200 counts returned 0 or 1 instead of 352)."""
    problem = queens(9)
    problem.count(limit=1, backend=backend)  # links built, kernel loaded
    errors: list[str] = []

    def worker(kind: int) -> None:
        for _ in range(30):
            if kind == 0:
                n = problem.count(backend=backend)
                ok = n == 352 and problem.stats.solutions == 352
            elif kind == 1:
                n = problem.count(limit=1, backend=backend)
                ok = n == 1 and problem.stats.status is Status.LIMIT
            else:
                search = problem.solutions(limit=5, backend=backend)
                got = list(search)
                n = len(got)
                ok = n == 5 and all(problem.is_solution(s) for s in got) \
                    and search.stats.solutions == 5
            if not ok:
                errors.append(f"kind {kind}: {n}")

    threads = [threading.Thread(target=worker, args=(k % 3,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_stats_are_per_search_and_per_thread():
    problem = queens(6)
    a = problem.solutions(backend="python")
    b = problem.solutions(limit=1, backend="python")
    next(a)
    assert list(b) and b.stats.status is Status.LIMIT
    assert a.stats.status is Status.RUNNING and a.stats.solutions == 1
    assert problem.stats.status is Status.LIMIT  # b finished, a did not
    assert a.count() == 4 and a.stats.status is Status.COMPLETE
    seen = []
    t = threading.Thread(target=lambda: seen.append(problem.stats.status))
    t.start()
    t.join()
    assert seen == [Status.RUNNING]  # another thread has finished no search


# ----- one validation on every path and backend (D2, D8, D13) ---------------------------

ENTRIES = {
    "solutions": lambda p, kw: list(p.solutions(**kw)),
    "count": lambda p, kw: p.count(**kw),
    "first": lambda p, kw: p.first(**{k: v for k, v in kw.items() if k != "limit"}),
    "solve_batch": lambda p, kw: p.solve_batch(
        [kw.pop("forced", [])], **{k: v for k, v in kw.items() if k != "seed"}),
}

BAD = [
    ({"limit": 0}, ArgumentError, "limit must be at least 1, got 0"),
    ({"limit": -1}, ArgumentError, "limit must be at least 1, got -1"),
    ({"limit": 2.5}, ArgumentError, "limit must be an integer or None, got 2.5"),
    ({"limit": "3"}, ArgumentError, "limit must be an integer or None, got '3'"),
    ({"limit": True}, ArgumentError, "limit must be an integer or None, got True"),
    ({"max_nodes": 10_000 / 3}, ArgumentError, "max_nodes must be an integer or None"),
    ({"max_nodes": -1}, ArgumentError, "max_nodes must be at least 0, got -1"),
    ({"max_nodes": "x"}, ArgumentError, "max_nodes must be an integer or None, got 'x'"),
    ({"timeout": -1}, ArgumentError, "timeout must be at least 0 seconds, got -1"),
    ({"timeout": math.nan}, ArgumentError, "timeout must be at least 0 seconds, got nan"),
    ({"timeout": "1"}, ArgumentError, "timeout must be a number of seconds or None"),
    ({"seed": 1.5}, ArgumentError, "seed must be an integer or None, got 1.5"),
    ({"seed": "1"}, ArgumentError, "seed must be an integer or None, got '1'"),
    ({"backend": "nmba"}, ArgumentError, "backend must be one of"),
    ({"backend": None}, ArgumentError, "backend must be one of"),
    ({"forced": [92]}, ForcedOptionError, "option 92 is not in range 0..64"),
    ({"forced": [-1]}, ForcedOptionError, "option -1 is not in range 0..64"),
    ({"forced": [0.7]}, ForcedOptionError, "option 0.7 is not an integer"),
    ({"forced": [None]}, ForcedOptionError, "option None is not an integer"),
    ({"forced": [2**70]}, ForcedOptionError, f"option {2**70} is not in range"),
    ({"forced": [0, 0]}, ForcedOptionError, "option 0 is forced twice"),
    ({"forced": [64]}, ForcedOptionError, "option 64 has no primary item"),
]


def _problem_with_a_dropped_option() -> ExactCover:
    options = [list(o) for o in queens(8).options()] + [["a0"]]  # 64: secondary only
    with pytest.warns(NoPrimaryItemWarning):
        return ExactCover(options, primary=queens(8).primary, secondary=queens(8).secondary)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize(("kwargs", "error", "message"), BAD,
                         ids=[repr(b[0])[:40] for b in BAD])
def test_bad_arguments_same_everywhere(entry, backend, kwargs, error, message):
    if entry == "first" and "limit" in kwargs:
        pytest.skip("first() has no limit")
    if entry == "solve_batch" and "seed" in kwargs:
        pytest.skip("batches have no seed")
    problem = _problem_with_a_dropped_option()
    kw = {"backend": backend, **kwargs}
    with pytest.raises(error) as info:
        ENTRIES[entry](problem, dict(kw))
    text = str(info.value)
    if entry == "solve_batch":
        text = text.replace("forced[0]", "forced")
    assert message in text
    assert type(info.value) is error


@pytest.mark.parametrize("backend", BACKENDS)
def test_huge_budgets_mean_unbounded(backend):
    """D13: 2**70 is "unbounded" on every backend (was OverflowError on numba)."""
    problem = queens(6)
    assert problem.count(limit=2**70, backend=backend) == 4
    assert problem.count(max_nodes=2**70, backend=backend) == 4
    assert problem.solve_batch([[]], limit=2**70, max_nodes=2**70,
                               backend=backend).found.tolist() == [4]
    assert problem.count(max_nodes=1e9, backend=backend) == 4  # a whole float is a count


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_primary_items(backend):
    """D5: no write outside the record table, and a clear error, on every backend."""
    with pytest.warns(NoPrimaryItemWarning):
        problem = ExactCover([["x"]], secondary=["x"])
    with pytest.raises(ForcedOptionError, match="option 0 has no primary item"):
        problem.solve_batch([[0]], backend=backend)
    assert problem.count(backend=backend) == 1  # the empty set covers no primary item
    empty = ExactCover([])
    with pytest.raises(ForcedOptionError, match="option 0 is not in range"):
        empty.solve_batch([[0]], backend=backend)
    assert empty.solve_batch([[]], backend=backend).found.tolist() == [1]


def test_forced_not_iterable():
    with pytest.raises(ForcedOptionError, match="forced must be an iterable"):
        queens(4).count(forced=3)
    with pytest.raises(ForcedOptionError, match="forced must be an iterable"):
        queens(4).solve_batch(3)
    with pytest.raises(ArgumentError, match="indptr must rise"):
        queens(4).solve_batch(indptr=[0, 2, 1], indices=[0, 1])
    with pytest.raises(ArgumentError, match="indices must be a 1-D array of integers"):
        queens(4).solve_batch(indptr=[0, 1], indices=[0.5])


def test_huge_timeout_is_no_bound():
    """R9 (#32): timeout=10**400 raised OverflowError; it is no bound, as infinity."""
    problem = queens(6)
    assert problem.count(timeout=10**400) == 4
    assert problem.solutions(timeout=10**400).count() == 4
    assert problem.first(timeout=10**400, restarts=10) is not None
    assert problem.count(timeout=math.inf, strategy="learn") == 4


@pytest.mark.parametrize("backend", BACKENDS)
def test_deep_search_with_many_items(backend):
    """The only solution of 3,000 one-item options is 3,000 deep; counts agree."""
    n = 3000
    problem = ExactCover.from_csr(np.arange(n + 1), np.arange(n)[::-1].copy())
    assert problem.count(backend=backend) == 1
    assert problem.stats.nodes == n + 1 and problem.stats.max_level == n


# ----- pickling (D17) -------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_problem_pickles_after_searches(backend):
    problem = queens(6)
    problem.count(backend=backend)
    problem.solve_batch([[0], []], backend=backend)
    for clone in (pickle.loads(pickle.dumps(problem)), copy.deepcopy(problem)):
        assert clone.count(backend=backend) == 4
        assert clone.solve_batch([[0], []], limit=None,
                                 backend=backend).found.tolist() == [0, 4]
        assert clone.links.converted is not problem.links.converted


# ----- numba that cannot run (D3) -------------------------------------------------------


@needs_numba
def test_numba_disabled_falls_back():
    code = ("import warnings, sudoku, dlx\n"
            "warnings.simplefilter('always')\n"
            "p = ('4.....8.5.3..........7......2.....6.....8.4......'\n"
            "     '1.......6.3.7.5..2.....1.4......')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    out = sudoku.solve_many([p] * 1000)\n"
            "assert all(isinstance(o, str) for o in out), out[0]\n"
            "assert any('NUMBA_DISABLE_JIT' in str(x.message) for x in w), w\n"
            "try:\n"
            "    dlx.ExactCover([['a']]).count(backend='numba')\n"
            "except ImportError as e:\n"
            "    assert 'NUMBA_DISABLE_JIT' in str(e)\n"
            "else:\n"
            "    raise AssertionError('numba ran with the JIT disabled')\n")
    env = {**__import__("os").environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
@needs_numba
def test_numba_without_a_cache_compiles_anyway():
    code = ("import numba, warnings\n"
            "real = numba.njit\n"
            "def njit(*args, **kw):\n"
            "    if kw.get('cache'):\n"
            "        raise RuntimeError('cannot cache function x: no locator available')\n"
            "    return real(*args, **kw)\n"
            "numba.njit = njit\n"
            "from dlx.problems import queens\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    assert queens(6).count(backend='numba') == 4\n"
            "assert any('cannot cache' in str(x.message) for x in w)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
