"""Differential tests: the numba backend must behave exactly like the python backend.

Same solutions in the same order, same ``nodes``, ``updates`` and ``max_level``, with and
without colors, seeds and budgets; and the compiled kernel must resume exactly where it
paused, which is what slicing (time-outs, Ctrl-C) relies on. Skipped without numba.
"""

from __future__ import annotations

import os
import threading
import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import Colored, ExactCover, NoPrimaryItemWarning, Status, get_backend
from dlx.compiled import NUMBA, compiled, compiled_kernel
from dlx.kernels import codes
from dlx.problems import langford, queens, word_rectangle
from dlx.state import REG_MAX_LEVEL, REG_NODES, REG_SOLUTIONS, REG_UPDATES, State
from tests.helpers.backends import needs_numba
from tests.helpers.datasets import data_dir, load_exact_cover
from tests.helpers.interrupt import ctrl_c_after
from tests.helpers.pinned import fresh, is_pristine, pinned

pytestmark = needs_numba

DATA = data_dir("exact_cover")
SMALL_FILES = [
    "knuth_dlx1_example", "knuth_dlx2_color_example", "queens8", "queens9", "queens10",
    "langford7", "langford7_sym", "langford8", "langford8_sym", "langford9", "langford10",
    "shidoku_empty4x4", "sudoku_top95_1_full", "sudoku_top95_1_reduced",
]


_load = load_exact_cover


def _stats(problem: ExactCover, stats=None) -> tuple:
    """What two backends must agree on: the counts, and how the search ended."""
    s = problem.stats if stats is None else stats
    return (s.nodes, s.updates, s.solutions, s.max_level, s.complete, s.stopped, s.status,
            s.conflict)


def _both(problem: ExactCover, **kwargs) -> tuple[tuple, tuple]:
    """(solutions, stats) of ``solutions(**kwargs)`` with python, then with numba."""
    out = []
    for backend in ("python", "numba"):
        search = problem.solutions(backend=backend, **kwargs)
        sols = list(search)
        assert search.stats.backend == backend and problem.stats is search.stats
        assert search.stats.status is not Status.RUNNING
        out.append((sols, _stats(problem, search.stats)))
    return out[0], out[1]


def _assert_same(problem: ExactCover, **kwargs) -> None:
    py, nb = _both(problem, **kwargs)
    assert nb == py


# ----- known problems -------------------------------------------------------------------


@pytest.mark.parametrize("name", SMALL_FILES)
def test_files_same_solutions_and_stats(name):
    _assert_same(_load(name))


@pytest.mark.parametrize("name", ["queens8", "langford8", "shidoku_empty4x4"])
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_files_same_with_seed(name, seed):
    _assert_same(_load(name), seed=seed)


@pytest.mark.parametrize("name", ["queens10", "langford10", "sudoku_top95_1_full"])
def test_files_same_count(name):
    problem = _load(name)
    counts = [(problem.count(backend=b), _stats(problem)) for b in ("python", "numba")]
    assert counts[0] == counts[1]
    assert problem.count(limit=7, backend="numba") == problem.count(limit=7, backend="python")


@pytest.mark.parametrize("max_nodes", [0, 1, 2, 17, 300, 1223])
def test_max_nodes_budget_same_stats(max_nodes):
    _assert_same(queens(8), max_nodes=max_nodes)


def test_limit_and_max_nodes_with_seed():
    problem = langford(8)
    for kwargs in ({"limit": 5}, {"limit": 5, "seed": 9}, {"max_nodes": 900, "seed": 3}):
        _assert_same(problem, **kwargs)
        assert problem.solutions(backend="numba", **kwargs).count() == problem.solutions(
            backend="python", **kwargs).count()


def test_timeout_gives_a_prefix():
    """A time-out stops anywhere, but what was found is the start of the full list."""
    problem = queens(9)
    full = list(problem.solutions(backend="python"))
    for timeout in (0.0, 1e-4, 10.0):
        found = list(problem.solutions(backend="numba", timeout=timeout))
        assert found == full[: len(found)]
        assert problem.stats.status in (Status.COMPLETE, Status.TIMEOUT)
        assert problem.stats.complete == (not problem.stats.stopped)
        assert problem.stats.solutions == len(found)
    assert found == full and problem.stats.status is Status.COMPLETE


# ----- colors ---------------------------------------------------------------------------


def test_colored_word_rectangles():
    words = ["sator", "arepo", "tenet", "opera", "rotas", "satyr", "tenor", "rotor"]
    _assert_same(word_rectangle(words[:5]))
    _assert_same(word_rectangle(words, distinct=True))
    _assert_same(word_rectangle(words, distinct=True), seed=4)


def test_colored_shared_cells():
    options = [["A", Colored("X", 1), Colored("Y", 2)], ["B", Colored("X", 1)],
               ["B", Colored("X", 2)], ["C", Colored("Y", 2), "Z"], ["C", Colored("Y", 1)],
               ["A", "Z"], ["B", "C", Colored("X", 1)]]
    problem = ExactCover(options, secondary=["X", "Y", "Z"])
    _assert_same(problem)
    assert problem.stats.solutions > 0


# ----- the compiled kernel itself ---------------------------------------------------------


def _fresh(problem: ExactCover):
    """The numba kernel a search of ``problem`` gets, and a fresh state of its own."""
    run = get_backend("numba").kernel(problem.links)
    return run, fresh(problem.links, run)


@pytest.mark.parametrize("colors", [True, False], ids=["kernel", "twin"])
@pytest.mark.parametrize("seed", [None, 5])
def test_resumes_exactly_one_node_at_a_time(seed, colors):
    """Pausing before every single node changes nothing (what slicing relies on); with
    the kernel a search of this problem gets (the twin without colors), and the other."""
    problem = langford(7)
    expected = problem.count(backend="python", seed=seed), _stats(problem)[:4]
    links = problem.links if seed is None else problem.links.shuffled(seed)
    run = get_backend("numba").kernel(links)
    S = fresh(links, run)
    assert run is NUMBA.kernels[False]
    run = NUMBA.kernels[colors]
    calls = 0
    while run.search(S, int(S.REG[REG_NODES]) + 1, 1 << 62) != codes.COMPLETE:
        calls += 1
    regs = S.REG
    got = int(regs[REG_SOLUTIONS]), (int(regs[REG_NODES]), int(regs[REG_UPDATES]),
                                        int(regs[REG_SOLUTIONS]), int(regs[REG_MAX_LEVEL]))
    assert got == expected
    assert calls == expected[1][0] - 1  # a pause before every node but the first
    assert is_pristine(links, S)


def test_search_leaves_arrays_pristine_and_problem_untouched():
    problem = _load("knuth_dlx2_color_example")
    before = [a.copy() for a in problem.links.arrays]
    run, S = _fresh(problem)
    assert run is NUMBA.kernels[True]
    assert run.search(S, 1 << 62, 1 << 62) == codes.COMPLETE
    assert int(S.REG[REG_SOLUTIONS]) == 1 and int(S.REG[REG_NODES]) == 4
    assert is_pristine(problem.links, S)
    assert all(np.array_equal(a, b) for a, b in zip(before, problem.links.arrays))
    assert is_pristine(problem.links, run.pristine(problem.links))  # the cached conversion


def test_kernel_accepts_only_int64_arrays():
    """Compilation is closed after the first load: other types fail loudly, not slowly."""
    run, S = _fresh(queens(4))
    links = ("U", "D", "TOP", "COLOR", "LEN", "LL", "RL")
    narrow = S._replace(**{name: np.asarray(getattr(S, name), dtype=np.int32) for name in links})
    for colors in (True, False):
        with pytest.raises(TypeError):
            NUMBA.kernels[colors].search(narrow, 1 << 62, 1 << 62)
    with pytest.raises(TypeError):
        compiled("search")(tuple(S), 1 << 62, 1 << 62)  # a plain tuple is not a State
    assert isinstance(S, State) and run.search(S, 1 << 62, 1 << 62) == codes.COMPLETE


def test_compiled_without_index_wraparound():
    """The indexing hook applied (else the kernel is twice as slow; see dlx.compiled)."""
    assert compiled_kernel().nonnegative_indexing


def test_auto_never_changes_results():
    for problem in (queens(6), _load("sudoku_top95_1_reduced")):
        py = list(problem.solutions(backend="python")), _stats(problem)
        auto = list(problem.solutions(backend="auto")), _stats(problem)
        assert auto == py
    assert get_backend("auto", 10**6) is NUMBA
    compiled_kernel()  # once loaded, auto takes numba for all but tiny problems
    assert NUMBA.loaded()
    assert get_backend("auto", 100) is NUMBA
    assert get_backend("auto", 10) is get_backend("python")


def test_the_twin_without_colors_really_drops_them():
    """Problems without colors run a kernel compiled with ``COLORS`` False; given a
    problem with colors, that twin ignores them (so the constant really is folded), which
    is why a colored problem must never reach it."""
    plain, colored = queens(6), word_rectangle(["ab", "cd", "ac", "bd", "aa", "ca"])
    assert not plain.links.colored and colored.links.colored
    assert get_backend("numba").kernel(plain.links) is NUMBA.kernels[False]
    assert get_backend("numba").kernel(colored.links) is NUMBA.kernels[True]
    assert NUMBA.kernels[False].name == "numba-x" and NUMBA.kernels[True].name == "numba"
    for problem in (plain, colored):
        expected = list(problem.solutions(backend="python")), _stats(problem)
        assert (list(problem.solutions(backend="numba")), _stats(problem)) == expected
    twin = pinned(NUMBA.kernels[False])
    wrong = list(colored.solutions(backend=twin))
    assert wrong != list(colored.solutions(backend="python"))
    assert list(plain.solutions(backend=twin)) == list(plain.solutions(backend="python"))


def test_auto_takes_numba_once_python_has_had_its_share():
    """The ski-rental rule, in a new process (this one has loaded the kernel already):
    auto keeps a Sudoku on python, counting the time, until python has had a second."""
    import subprocess
    import sys

    code = """if True:
        import sys
        import dlx.registry as b
        from dlx import ExactCover
        from dlx.compiled import NUMBA
        problem = ExactCover.from_dlx(open(sys.argv[1]).read())
        problem.first(backend="python")
        assert b._python_seconds == 0  # python by name is not counted
        problem.first()
        assert problem.stats.backend == "python" and b._python_seconds > 0
        assert not NUMBA.loaded() and "numba" not in sys.modules
        b.charge_python(b.AUTO_PYTHON_SECONDS)  # as if python had searched for a second
        first = problem.first()
        assert problem.stats.backend == "numba" and first == problem.first(backend="python")
        assert NUMBA.loaded()
        print("ok")
    """
    path = DATA / "sudoku_top95_1_reduced.dlx"
    if not path.exists():
        pytest.skip(f"{path} is not there")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, timeout=300, check=False)
    assert out.stdout.strip() == "ok", out.stderr


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT delivered to this process")
def test_ctrl_c_interrupts_the_compiled_kernel():
    """Without a timeout the compiled kernel still runs in slices, so Ctrl-C gets through."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    problem = queens(15)  # about 20 s of compiled search: never finishes within the test
    problem.solutions(backend="numba", max_nodes=1).count()  # load the kernel before timing
    start = time.perf_counter()
    with ctrl_c_after(0.3), pytest.raises(KeyboardInterrupt):
        problem.count(backend="numba")
    assert time.perf_counter() - start < 5.0
    assert problem.stats.nodes > 0 and not problem.stats.complete
    assert problem.stats.status is Status.INTERRUPTED and problem.stats.stopped


# ----- random problems --------------------------------------------------------------------


@st.composite
def xcc_problems(draw):
    """Small random XCC problems: up to 6 primary and 4 secondary items, some colored."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 6)))]
    secondary = [f"s{j}" for j in range(draw(st.integers(0, 4)))]
    palette = draw(st.sampled_from([[], ["r"], ["r", "g"], ["r", "g", "b"]]))
    items = primary + secondary
    options = []
    for _ in range(draw(st.integers(1, 14))):
        names = draw(st.lists(st.sampled_from(items), min_size=1, max_size=min(5, len(items)),
                              unique=True))
        entries = []
        for name in names:
            color = draw(st.sampled_from([None, *palette])) if name in secondary else None
            entries.append(Colored(name, color) if color is not None else name)
        options.append(entries)
    return options, primary, secondary


@settings(max_examples=150, deadline=None)
@given(xcc_problems(), st.sampled_from([None, 1, 77]),
       st.sampled_from([None, 1, 3, 10]), st.sampled_from([None, 0, 2, 5]))
def test_random_problems_same_on_both_backends(spec, seed, limit, max_nodes):
    options, primary, secondary = spec
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        problem = ExactCover(options, primary=primary, secondary=secondary)
    _assert_same(problem, seed=seed, limit=limit, max_nodes=max_nodes)
    assert (problem.count(seed=seed, limit=limit, backend="numba"),
            _stats(problem)) == (problem.count(seed=seed, limit=limit, backend="python"),
                                 _stats(problem))


@needs_numba
def test_a_batch_over_bit_words_loads_numba_for_auto():
    """A process whose only compiled kernel is the batch over bit words (one-call
    Sudokus) has numba loaded, and auto keeps it for the next puzzle (NUMBA.loaded()
    said False: auto went on counting python's share, and the one call on auto decoded
    the numpy way, 1.9x slower)."""
    import subprocess
    import sys

    code = """if True:
        import sudoku
        from dlx.compiled import NUMBA
        from dlx.registry import NUMBA_MIN_WORK, get_backend
        from sudoku.reduction import empty_grid_problem
        sudoku.solve_string("." * 81, backend="numba")
        work = empty_grid_problem(3).links.n_nodes
        assert NUMBA.loaded() and get_backend("auto", work, NUMBA_MIN_WORK) is NUMBA
        print("ok")
    """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.stdout.strip() == "ok", out.stderr
