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
    SearchStoppedError,
    Status,
)
from dlx.kernels import algorithm_c, codes
from dlx.links import INACTIVE
from dlx.problems import langford, queens
from dlx.slices import Slices

ROOT = Path(__file__).resolve().parents[1]


# ----- structure ------------------------------------------------------------------------


def _assert_no_cycle(graph: dict[str, set[str]]) -> None:
    """Fails naming the first cycle of an import graph (module -> modules it imports)."""
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


def _module_name(path: Path) -> str:
    """The dotted name of a module file under ROOT (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> list[tuple[str, list[str]]]:
    """Every import of ``path``, at any level (function bodies too), as (absolute module,
    names taken from it); relative imports resolved against the module's package."""
    name = _module_name(path)
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((a.name, []) for a in node.names)
    return found


def _import_graph(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (subpackages included; a package's ``__init__`` is the
    package) -> the modules of ``package`` it imports."""
    modules = {_module_name(p): p for p in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for m, path in modules.items():
        for module, names in _imported(path):
            targets = [module, *(f"{module}.{n}" for n in names)]
            graph[m] |= {t for t in targets if t in modules and t != m and t != package}
    return graph


def test_dlx_has_no_import_cycle():
    graph = _import_graph("dlx")
    assert graph["dlx.search"] and graph["dlx.problem"]  # the walk sees imports at all
    assert "dlx.kinds" in graph["dlx.kinds.plain"]  # ... relative ones in subpackages too
    _assert_no_cycle(graph)


def test_kinds_sit_between_the_request_and_the_front_door():
    """The layering of the front door: problem -> run -> kinds -> request, and no module
    below the front door reads the problem (``dlx.problem``)."""
    graph = _import_graph("dlx")
    assert {"dlx.run", "dlx.request"} <= graph["dlx.problem"]
    assert {f"dlx.kinds.{k}" for k in ("plain", "learning", "restarts", "distributed",
                                       "memo")} \
        <= graph["dlx.run"]
    for module, imported in graph.items():
        if module.startswith("dlx.kinds") or module in ("dlx.request", "dlx.run",
                                                         "dlx.distribute", "dlx.split",
                                                         "dlx.preprocess", "dlx.matrix"):
            assert "dlx.problem" not in imported, module
            assert "dlx.run" not in imported or module == "dlx.problem", module


def test_sudoku_imports_only_public_dlx_names():
    """The rule (dlx/command.py, docs/design.md): ``sudoku`` imports only names in
    ``dlx.__all__`` and the module ``dlx.command``."""
    paths = sorted((ROOT / "sudoku").rglob("*.py"))
    assert any(p.parent.name == "cli" for p in paths)  # the command's package is seen
    seen = set()
    for path in paths:
        for module, names in _imported(path):
            if module.split(".")[0] != "dlx":
                continue
            where = f"{path.relative_to(ROOT)} imports {module}"
            assert module in ("dlx", "dlx.command"), where
            seen.add(module)
            if module == "dlx":
                for name in names:
                    assert name in dlx.__all__, f"{where}.{name}"
    assert seen == {"dlx", "dlx.command"}  # the walk sees both kinds


def test_sudoku_has_no_import_cycle():
    modules = {_module_name(p): p for p in (ROOT / "sudoku").rglob("*.py")}
    graph = {m: set() for m in modules}
    for m, path in modules.items():
        for module, names in _imported(path):
            targets = [module, *(f"{module}.{n}" for n in names)]
            graph[m] |= {t for t in targets if t in modules and t != m and t != "sudoku"}
    assert graph["sudoku.cli.making"] >= {"sudoku.cli.solving", "sudoku.formats"}
    _assert_no_cycle(graph)


@pytest.mark.parametrize("name", ["own_process", "Progress", "open_executor"])
def test_command_plumbing_left_the_public_names(name):
    """They were public only for the sudoku command; old imports still work, warned."""
    import dlx.command

    assert name not in dlx.__all__ and name in dlx.command.__all__
    with pytest.warns(DeprecationWarning, match=f"dlx.{name} is no longer public"):
        moved = getattr(dlx, name)
    assert moved is getattr(dlx.command, name)
    with pytest.raises(AttributeError):
        dlx.no_such_name  # noqa: B018


def test_state_table_is_the_kernel_state():
    links = queens(5).links
    for f in dlx.state.FIELDS:
        a = getattr(links.arrays, f.name)
        assert a.dtype == np.dtype(f.dtype)
        assert len(a) == dlx.state.field_length(f.per, links.n_nodes, links.n_items,
                                                links.n_primary, links.n_options)
    names = [n for n, _ in dlx.state.REGISTERS]
    assert [getattr(dlx.state, f"REG_{n}") for n in names] == list(range(len(names)))


def test_statuses_are_one_vocabulary():
    assert (codes.COMPLETE, codes.LIMIT, codes.MAX_NODES, codes.CONFLICT, codes.INVALID) == (
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


def test_the_driver_stops_at_the_deadline_and_on_ctrl_c():
    """slices.drive: a step that never ends stops at the timeout (status TIMEOUT, read
    after a slice that found something too); a step that ends keeps its status; what a
    step found is yielded; Ctrl-C is INTERRUPTED; on_finish is told once, at the end."""
    from dlx.search import SearchStats
    from dlx.slices import drive

    finished: list[Status] = []

    def run(step, timeout=None):
        stats = SearchStats()
        found = list(drive(lambda: step, stats, Slices(0.001, first=1), timeout,
                           lambda s: finished.append(s.status)))
        return found, stats

    budgets: list[int] = []

    def forever(budget):  # finds something in every slice, never ends
        budgets.append(budget)
        return None, 0, budget

    found, stats = run(forever, timeout=0.02)
    assert stats.status is Status.TIMEOUT and found and 0.02 <= stats.seconds < 1
    assert set(budgets) == {1}  # a slice that only returned keeps the pace
    found, stats = run(lambda budget: (Status.COMPLETE, budget, "last"), timeout=0)
    assert (found, stats.status) == (["last"], Status.COMPLETE)  # ended before the clock

    def interrupted(budget):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(interrupted)
    assert finished == [Status.TIMEOUT, Status.COMPLETE, Status.INTERRUPTED]


def test_huge_timeout_is_no_bound():
    """R9 (#32): timeout=10**400 raised OverflowError; it is no bound, as infinity."""
    problem = queens(6)
    assert problem.count(timeout=10**400) == 4
    assert problem.solutions(timeout=10**400).count() == 4
    assert problem.first(timeout=10**400, restarts=10) is not None
    assert problem.count(timeout=math.inf, strategy="learn") == 4


def test_one_list_of_options_for_the_four_calls():
    """The calls' keyword arguments are written once (request.SearchOptions and its two
    extensions), each a field of the request; one that a call does not take is a
    TypeError, as Python's own."""
    from dataclasses import fields

    from dlx.request import ACCEPTS, CountOptions, FirstOptions, SearchRequest

    assert set(CountOptions.__annotations__) | set(FirstOptions.__annotations__) == \
        {f.name for f in fields(SearchRequest)} - {"kind", "limit"}
    assert ACCEPTS["count"] - ACCEPTS["solutions"] == {"checkpoint", "max_zdd_nodes",
                                                       "max_memory", "parts"}
    assert ACCEPTS["solution_set"] <= ACCEPTS["count"]
    problem = queens(5)
    for call, bad in [(problem.solutions, "restarts"), (problem.count, "restarts"),
                      (problem.first, "checkpoint"), (problem.best, "parts"),
                      (problem.count, "nodes")]:
        with pytest.raises(TypeError, match=f"unexpected keyword argument '{bad}'"):
            call(**{bad: 1})


def test_a_kind_of_search_is_one_module_and_one_entry():
    """run() takes the kind a request names from the registry: a new kind plugs in
    without a change to ExactCover (here one that yields the forced options, once)."""
    from dlx import run as runner
    from dlx.kinds import Kind
    from dlx.request import SearchRequest
    from dlx.search import SearchStats

    class Echo:
        def __init__(self, problem, request, on_finish):
            self.stats = SearchStats(solutions=1, status=Status.COMPLETE)
            self._run = iter([sorted(request.forced)])

        def __iter__(self):
            return self

        def __next__(self):
            return next(self._run)

        def count(self):
            return sum(1 for _ in self._run)

    runner.register_kind(Kind("echo", Echo))
    try:
        search = runner.run(queens(4), SearchRequest("echo", forced=(3, 1)))
        assert list(search) == [[1, 3]]
        assert runner.count(queens(4), SearchRequest("echo", forced=(2,))) == (
            1, SearchStats(solutions=1, status=Status.COMPLETE))
    finally:
        del runner.KINDS["echo"]
    with pytest.raises(ArgumentError, match="no search of kind 'echo'"):
        runner.run(queens(4), SearchRequest("echo"))
    for kind in ("plain", "learning", "restarts", "distributed", "memo"):
        assert kind in runner.KINDS


# ----- the choice of item for many primary items (D19) ----------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=300), st.data())
def test_choose_walk_is_knuths_choice(lengths, data):
    """Walk + scan picks Knuth's item (the first active one of least length) for any
    active list in item order."""
    n = len(lengths)
    active = sorted(data.draw(st.sets(st.integers(1, n), min_size=1)))
    LEN = [INACTIVE] + [v if k in active else v + INACTIVE
                          for k, v in enumerate(lengths, 1)]
    LL = list(range(n + 1))
    RL = list(range(n + 1))
    ring = [0, *active]
    for a, b in zip(ring, ring[1:] + ring[:1]):
        RL[a], LL[b] = b, a
    want = min(active, key=lambda k: (LEN[k], k))
    assert algorithm_c.choose_walk(LEN, LL, RL, n + 1) == want


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


def test_dir_lists_the_public_names_only():
    """Issue 30: ``dir(dlx)`` and ``dir(sudoku)`` are the public API (a module __dir__);
    the submodules stay importable and reachable."""
    import importlib

    import sudoku

    for module in (dlx, sudoku):
        assert dir(module) == sorted({*module.__all__, "__version__"})
    assert "problem" not in dir(dlx) and "kernel" not in dir(dlx)
    assert importlib.import_module("dlx.problems").queens(4).count() == 2
    assert dlx.problem.ExactCover is dlx.ExactCover  # an attribute still, once imported


@pytest.mark.parametrize("name", [c[0] for c in _cases() if "seed" not in c[2]])
def test_memo_kind_conformance(name):
    """The memoized search (memo=True) on every backend: the plain search's solutions in
    its order (forced options and conflicts included), and its count; a budget stops it
    as it stops the plain search."""
    problem, kwargs = next((p, k) for n, p, k in _cases() if n == name)
    search = problem.solutions(backend="python", **kwargs)
    plain = list(search)
    for backend in AVAILABLE:
        if "max_nodes" in kwargs:
            memo = problem.solutions(memo=True, backend=backend, **kwargs)
            assert list(memo) == [] and memo.stats.status is Status.MAX_NODES
            with pytest.raises(SearchStoppedError, match="max_nodes"):
                problem.count(memo=True, backend=backend, **kwargs)
            continue
        memo = problem.solutions(memo=True, backend=backend, **kwargs)
        assert list(memo) == plain and memo.stats.backend == backend
        assert (memo.stats.status, memo.stats.conflict) == (search.stats.status,
                                                            search.stats.conflict)
        assert problem.count(memo=True, backend=backend, **kwargs) == len(plain)
