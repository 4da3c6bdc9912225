"""The dancing-cells kernel (``dlx.kernels.cells``, Knuth's SSXCC), on both backends.

It must explore SSXCC's very tree: its ``nodes`` and ``updates`` equal those SSXCC
prints on the shared data files (measured with the program built by
``../shared/tools/native-anchors/build.sh``, stored below). On random problems it finds
the links kernel's solutions, forced options and their clashes included; compiled and as
written it agrees after every single node, arrays and registers alike, and Knuth's sanity
checker passes there; it runs on the search driver as the links do (budgets, timeouts,
Ctrl-C, growing its stack of sizes).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlx.cells
from dlx import ExactCover, NoPrimaryItemWarning, Status
from dlx.cells import CELLS, CELLS_PYTHON, NUMBA_KERNEL, PYTHON_KERNEL, check_cells
from dlx.kernels.codes import LIMIT, MAX_NODES
from dlx.problems import langford, queens
from dlx.state import REG_NODES as NODES
from tests.helpers.backends import needs_numba
from tests.helpers.datasets import load_exact_cover
from tests.helpers.interrupt import ctrl_c_after
from tests.helpers.oracle import brute_force
from tests.helpers.random_problems import planted_problems, xcc_problems

SSXCC = {
    # file: (solutions, nodes, updates) as SSXCC (ssxcc.w of cwebtest cf98784) prints them
    "knuth_dlx1_example": (1, 5, 27),
    "knuth_dlx2_color_example": (1, 3, 16),
    "queens8": (92, 964, 20032),
    "queens9": (352, 3704, 76209),
    "langford7": (52, 466, 7734),
    "langford8": (300, 2267, 34765),
    "langford8_sym": (150, 1303, 21049),
    "xcc_latin4": (576, 3529, 110953),
    "xcc_shidoku4x4": (288, 2665, 137161),
    "xcc_debruijn4": (16, 177, 5650),
    "shidoku_empty4x4": (288, 2157, 22545),
    "sudoku_top95_1_full": (1, 334, 8170),
    "sudoku_top95_1_reduced": (1, 324, 7344),
}
"""Files small enough for the python backend too."""

SSXCC_LARGE = {
    "queens11": (2680, 52946, 1226473),
    "queens12": (14200, 255435, 5812660),
    "langford10": (0, 38422, 832687),
    "langford11": (35584, 345410, 5532652),
    "langford11_sym": (17792, 190138, 3149617),
    "pentomino_3x20": (8, 9328, 8766977),
    "xcc_debruijn5": (2048, 39349, 2620325),
    "xcc_wordsquare5_sgb500": (8, 10121, 54977198),
    "xcc_latin5": (161280, 1202521, 99254761),
    "pentomino_6x10_sym": (2339, 302449, 256722612),
}
"""Files for the compiled kernel only (the last three take a second or more)."""

SLOW = {"xcc_wordsquare5_sgb500", "xcc_latin5", "pentomino_6x10_sym"}


def _problem(options, primary, secondary) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, primary=primary, secondary=secondary)


def _counts(problem: ExactCover, backend) -> tuple[int, int, int]:
    search = problem.solutions(backend=backend)
    count = search.count()
    assert search.stats.status is Status.COMPLETE
    return count, search.stats.nodes, search.stats.updates


@pytest.mark.parametrize("name", sorted(SSXCC))
def test_nodes_and_updates_equal_ssxcc_python(name: str) -> None:
    assert _counts(load_exact_cover(name), CELLS_PYTHON) == SSXCC[name]


@needs_numba
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n in sorted({**SSXCC, **SSXCC_LARGE})])
def test_nodes_and_updates_equal_ssxcc_numba(name: str) -> None:
    expected = {**SSXCC, **SSXCC_LARGE}[name]
    assert _counts(load_exact_cover(name), CELLS) == expected


def _backends() -> list:
    from tests.helpers.backends import UNAVAILABLE

    numba = pytest.param(CELLS, marks=pytest.mark.skip(reason=UNAVAILABLE["numba"])) \
        if "numba" in UNAVAILABLE else CELLS
    return [CELLS_PYTHON, numba]


CELL_BACKENDS = _backends()


@pytest.mark.slow
@pytest.mark.parametrize("cells", CELL_BACKENDS, ids=["python", "numba"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem=xcc_problems(), data=st.data())
def test_solutions_equal_the_links_kernel(cells, problem, data) -> None:
    """The same set of solutions as the links kernel (and the brute-force oracle), with
    forced options taken first: the same clash reported, or the same solutions."""
    options, primary, secondary = problem
    P = _problem(options, primary, secondary)
    links_backend = cells.base.name
    assert sorted(P.solutions(backend=cells)) == sorted(P.solutions(backend=links_backend))
    assert P.count(backend=cells) == len(brute_force(options, primary, secondary))
    usable = [k for k in range(len(options)) if k not in P.matrix.dropped]
    forced = data.draw(st.lists(st.sampled_from(usable), unique=True, max_size=3)) \
        if usable else []
    mine = P.solutions(forced=forced, backend=cells)
    theirs = P.solutions(forced=forced, backend=links_backend)
    assert sorted(mine) == sorted(theirs)
    assert mine.stats.status is theirs.stats.status
    assert mine.stats.conflict == theirs.stats.conflict


@pytest.mark.parametrize("cells", CELL_BACKENDS, ids=["python", "numba"])
@settings(max_examples=40, deadline=None)
@given(problem=planted_problems())
def test_planted_solutions_are_found(cells, problem) -> None:
    options, primary, secondary, planted = problem
    P = _problem(options, primary, secondary)
    found = [sorted(s) for s in P.solutions(backend=cells)]
    assert sorted(planted) in found
    assert sorted(found) == sorted(sorted(s) for s in P.solutions(backend=cells.base.name))


def _lockstep(problem: ExactCover, forced: list[int]) -> tuple[int, int, int]:
    """Both kernels one node per call: equal arrays and registers at every pause, and
    Knuth's sanity checker content there; returns (solutions, nodes, updates)."""
    links = problem.links
    S, T = (kernel.prepare(links, forced)[0] for kernel in (PYTHON_KERNEL, NUMBA_KERNEL))
    while True:
        stop = S.REG[NODES] + 1
        a = PYTHON_KERNEL.search(S, stop, S.REG[3] + 1)
        b = NUMBA_KERNEL.search(T, stop, int(T.REG[3]) + 1)
        assert a == b
        for name, x, y in zip(dlx.cells.FIELDS, S, T):
            if name == "SAVE":  # grown apart, and beyond SAVED[LEVEL] only leftovers
                top = S.SAVED[S.REG[0]]
                assert list(x[:top]) == y[:top].tolist(), name
            else:
                assert list(x) == np.asarray(y).tolist(), name
        check_cells(links, S)
        if a not in (LIMIT, MAX_NODES):
            return S.REG[3], S.REG[1], S.REG[2]


@needs_numba
@settings(max_examples=60, deadline=None)
@given(problem=xcc_problems(), data=st.data())
def test_compiled_and_written_agree_after_every_node(problem, data) -> None:
    options, primary, secondary = problem
    P = _problem(options, primary, secondary)
    usable = [k for k in range(len(options)) if k not in P.matrix.dropped]
    forced = data.draw(st.lists(st.sampled_from(usable), unique=True, max_size=2)) \
        if usable else []
    search = P.solutions(forced=forced, backend=CELLS_PYTHON)
    count = search.count()
    if search.stats.status is Status.CONFLICT:
        return  # nothing to search (the clash is tested above)
    assert _lockstep(P, forced) == (count, search.stats.nodes, search.stats.updates)


@needs_numba
def test_lockstep_on_colors_and_forced_moves() -> None:
    for name in ("xcc_latin4", "knuth_dlx2_color_example", "langford7"):
        problem = load_exact_cover(name)
        assert _lockstep(problem, []) == SSXCC[name]


@pytest.mark.parametrize("cells", CELL_BACKENDS, ids=["python", "numba"])
def test_the_stack_of_sizes_grows(cells, monkeypatch) -> None:
    """A tiny ``SAVE`` grows in place as the search goes deeper (FULL), counting nothing
    twice."""
    monkeypatch.setattr(dlx.cells, "SAVE_START", 2)
    problem = queens(8)  # a new problem: its cells are built with the tiny stack
    assert _counts(problem, cells) == SSXCC["queens8"]
    assert len(problem.links.converted["cells"].SAVE) == 2


@pytest.mark.parametrize("cells", CELL_BACKENDS, ids=["python", "numba"])
def test_budgets_and_laziness(cells) -> None:
    problem = queens(8)
    search = problem.solutions(max_nodes=500, backend=cells)
    partial = search.count()
    assert search.stats.status is Status.MAX_NODES and search.stats.nodes == 500
    assert 0 < partial < 92
    lazy = problem.solutions(backend=cells)
    first = [next(lazy) for _ in range(5)]
    assert lazy.count() == 92 and lazy.stats.nodes == 964
    assert len({tuple(s) for s in first}) == 5
    assert sorted(map(sorted, problem.solutions(backend=cells))) == \
        sorted(map(sorted, problem.solutions(backend="python")))
    assert problem.solutions(limit=3, backend=cells).count() == 3
    explored = problem.solutions(backend=cells)
    next(explored)
    assert 0.0 < explored.explored() < 1.0
    explored.check()  # Knuth's sanity checker, through the search
    explored.count()
    assert explored.explored() == 1.0


@needs_numba
def test_timeout_and_ctrl_c() -> None:
    problem = load_exact_cover("pentomino_6x10")
    search = problem.solutions(timeout=0.05, backend=CELLS)
    search.count()
    assert search.stats.status is Status.TIMEOUT
    search = problem.solutions(backend=CELLS)
    with ctrl_c_after(0.3), pytest.raises(KeyboardInterrupt):
        search.count()
    assert search.stats.status is Status.INTERRUPTED


@pytest.mark.parametrize("cells", CELL_BACKENDS, ids=["python", "numba"])
def test_no_primary_item_without_options_searches(cells) -> None:
    """As SSXCC: a primary item without options decides the search before its root."""
    problem = _problem([["a"], ["a", "b"]], ["a", "b", "c"], [])
    assert _counts(problem, cells) == (0, 0, 0)
    empty = _problem([], [], [])
    assert _counts(empty, cells) == (1, 1, 0)


@pytest.mark.parametrize("cells", CELL_BACKENDS, ids=["python", "numba"])
def test_what_cells_do_not_take_goes_to_the_links(cells) -> None:
    """Bounds, the weighted choice, the lookahead and batches run on the base backend."""
    problem = langford(7)
    assert problem.count(weighted=True, backend=cells) == 52
    assert problem.count(lookahead=3, backend=cells) == 52
    batch = problem.solve_batch([[], [0]], limit=100, backend=cells)
    assert batch.found.tolist() == [52, problem.count(forced=[0])]
    bounded = ExactCover([["a"], ["a"], ["b"]], primary=["a", "b"],
                         multiplicity={"a": (1, 2)})
    assert bounded.count(backend=cells) == 3


@needs_numba
def test_cells_auto_takes_the_rule() -> None:
    """``CELLS_AUTO``: cells where ``cells_pay`` says (no uncolored secondary majority),
    numba's links elsewhere (queens: DLX1's nodes)."""
    from dlx.cells import CELLS_AUTO, cells_pay

    lang, board = langford(7), queens(8)
    assert cells_pay(lang.links) and not cells_pay(board.links)
    assert cells_pay(load_exact_cover("xcc_latin4").links)
    assert CELLS_AUTO.kernel(lang.links) is NUMBA_KERNEL
    assert CELLS_AUTO.kernel(board.links) is not NUMBA_KERNEL
    assert _counts(lang, CELLS_AUTO) == SSXCC["langford7"]
    assert _counts(board, CELLS_AUTO) == (92, 1223, 21456)  # DLX1's


@pytest.mark.parametrize("cells", CELL_BACKENDS, ids=["python", "numba"])
def test_the_other_searches_take_a_cells_backend(cells) -> None:
    """Restarts, seeds, the race, the learning and memoized searches, costs, solution
    sets and item weights all work with a cells backend (each where it runs)."""
    problem = langford(8)
    assert problem.first(restarts=3, backend=cells) is not None
    assert problem.solutions(seed=1, backend=cells).count() == 300
    assert problem.first(strategy="race", backend=cells) is not None
    assert problem.count(strategy="learn", backend=cells) == 300
    assert problem.count(memo=True, backend=cells) == 300
    assert len(problem.solution_set(backend=cells)) == 300
    search = problem.solutions(backend=cells)
    assert search.count() == 300 and search.weights().tolist() == [1] * 25
