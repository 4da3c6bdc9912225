"""The engine's structure: searches as objects, one registry of backends, one validation,
no import cycles, and the defects of the reliability issue that live in the core.

The conformance suite at the end runs the same cases on every registered backend.
"""

from __future__ import annotations

import ast
import copy
import math
import pickle
import random
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from backends import AVAILABLE, BACKENDS, needs_numba
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
from dlx import (
    ArgumentError,
    Colored,
    ExactCover,
    ForcedOptionError,
    NoPrimaryItemWarning,
    Status,
)
from dlx import kernel as K
from dlx.problems import langford, queens
from dlx.slices import Slices

ROOT = Path(__file__).resolve().parents[1]


# ----- structure ------------------------------------------------------------------------


def _imports(path: Path, package: str) -> set[str]:
    """Modules of ``package`` that ``path`` imports, at any level (function bodies too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from . import x, from .x import y
                base = node.module or ""
                if base:
                    found.add(f"{package}.{base}")
                else:
                    found.update(f"{package}.{a.name}" for a in node.names)
            elif node.module and node.module.split(".")[0] == package:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == package)
    return found


def test_dlx_has_no_import_cycle():
    modules = {f"dlx.{p.stem}": p for p in (ROOT / "dlx").glob("*.py") if p.stem != "__init__"}
    graph = {m: {d for d in _imports(p, "dlx") if d in modules and d != m}
             for m, p in modules.items()}
    assert graph["dlx.search"] and graph["dlx.problem"]  # the walk sees imports at all
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                raise AssertionError(f"import cycle: {' -> '.join([*path, m, d])}")
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_sudoku_imports_only_public_dlx_names():
    for path in (ROOT / "sudoku").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                    "dlx"):
                assert node.module == "dlx", f"{path.name} imports {node.module}"
                for alias in node.names:
                    assert alias.name in dlx.__all__, f"{path.name}: dlx.{alias.name}"
            if isinstance(node, ast.Import):
                assert all(not a.name.startswith("dlx.") for a in node.names), path.name


def test_state_table_is_the_kernel_state():
    links = queens(5).links
    for f in dlx.state.FIELDS:
        a = getattr(links.arrays, f.name)
        assert a.dtype == np.dtype(f.dtype)
        assert len(a) == dlx.state.field_length(f.per, links.n_nodes, links.n_items,
                                                links.n_primary, links.n_options)
    names = [n for n, _ in dlx.state.REGISTERS]
    assert [getattr(K, n) if hasattr(K, n) else getattr(dlx.kernel_m, n)
            for n in names] == list(range(len(names)))


def test_statuses_are_one_vocabulary():
    assert (K.COMPLETE, K.LIMIT, K.MAX_NODES, K.CONFLICT, K.INVALID) == (
        Status.COMPLETE, Status.LIMIT, Status.MAX_NODES, Status.CONFLICT, Status.INVALID)
    assert Status.COMPLETE.complete and Status.CONFLICT.complete
    assert Status.TIMEOUT.stopped and not Status.LIMIT.stopped


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


# ----- slices: time-outs do not overshoot (D6) ------------------------------------------


def test_first_timed_slice_is_one_node():
    """D6: with a timeout the first slice is one node, so a timeout of 0 stops after at
    most one node, however costly (before: never fewer than 1024)."""
    rng = random.Random(1)
    options = [rng.sample(range(40), 5) for _ in range(2000)]
    problem = ExactCover(options)
    for backend in AVAILABLE:
        assert problem.solutions(timeout=0, backend=backend).count() == 0
        assert problem.stats.status is Status.TIMEOUT and problem.stats.nodes <= 1


def test_slices_follow_the_cost_of_a_node():
    slices = Slices(0.02, first=1)
    assert slices.nodes == 1
    slices.ran(1, 0.001)  # 1 ms a node: 20 fit, but at most twice the last
    assert slices.nodes == 2
    slices.ran(2, 0.002, left=0.003)  # 3 ms left: 3 nodes fit
    assert slices.nodes == 3
    slices.ran(3, 3.0)  # a second a node: one node at a time
    assert slices.nodes == 1
    assert Slices(None).nodes >= 1 << 62


# ----- the choice of item for many primary items (D19) ----------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=300), st.data())
def test_choose_walk_is_knuths_choice(lengths, data):
    """Walk + scan picks Knuth's item (the first active one of least length) for any
    active list in item order."""
    n = len(lengths)
    active = sorted(data.draw(st.sets(st.integers(1, n), min_size=1)))
    LEN = [K.INACTIVE] + [v if k in active else v + K.INACTIVE
                          for k, v in enumerate(lengths, 1)]
    LL = list(range(n + 1))
    RL = list(range(n + 1))
    ring = [0, *active]
    for a, b in zip(ring, ring[1:] + ring[:1]):
        RL[a], LL[b] = b, a
    want = min(active, key=lambda k: (LEN[k], k))
    assert K.choose_walk(LEN, LL, RL, n + 1) == want


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


# ----- conformance: every registered backend, the same answers --------------------------


def _cases() -> list[tuple[str, ExactCover, dict]]:
    with pytest.warns(NoPrimaryItemWarning):
        colored = ExactCover([["A", "B", Colored("X", 0)], ["A", "C", Colored("X", 1)],
                              ["B", Colored("X", 1)], ["C", Colored("Y", 1)], ["C"],
                              [Colored("Y", 2)]], primary="ABC", secondary="XY")
    return [
        ("queens7", queens(7), {}),
        ("queens7-forced", queens(7), {"forced": [3]}),
        ("queens7-seed", queens(7), {"seed": 11}),
        ("langford7", langford(7), {}),
        ("langford7-limit", langford(7), {"limit": 5}),
        ("langford8-budget", langford(8), {"max_nodes": 500}),
        ("colored", colored, {}),
        ("colored-forced", colored, {"forced": [1]}),
        ("conflict", queens(6), {"forced": [0, 1]}),
    ]


@pytest.mark.parametrize("name", [c[0] for c in _cases()])
def test_conformance(name):
    """Every registered backend: the same solutions in the same order, the same nodes,
    updates and status, for single searches and for batches."""
    problem, kwargs = next((p, k) for n, p, k in _cases() if n == name)
    results = {}
    for backend in AVAILABLE:
        search = problem.solutions(backend=backend, **kwargs)
        solutions = list(search)
        s = search.stats
        batch = None
        if "seed" not in kwargs:
            batch = problem.solve_batch([kwargs.get("forced", [])], backend=backend,
                                        limit=kwargs.get("limit"),
                                        max_nodes=kwargs.get("max_nodes"))
            batch = (batch.status.tolist(), batch.found.tolist(), batch.nodes.tolist(),
                     batch.updates.tolist(), batch.solution(0))
        results[backend] = (solutions, s.nodes, s.updates, s.status, s.conflict, batch)
        assert all(problem.is_solution(x) for x in solutions)
    assert len({repr(r) for r in results.values()}) == 1, results
