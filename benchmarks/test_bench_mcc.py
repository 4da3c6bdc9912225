"""Multiplicities (Algorithm M, Knuth's DLX3) and costs (branch and bound, DLX5's bound).

Groups ``mcc-<name>`` time ``ExactCover.count`` on a multiplicity instance of
``shared/data/exact_cover`` (DLX3's nodes and updates are checked, from SOURCES.md);
``best-rod-cutting`` times ``best(3)`` of a weighted set partitioning problem. Only our
engine runs here: the peers read no bounds or costs.
"""

from __future__ import annotations

import pytest

from benchmarks.cases import EXACT_COVER_DIR, load_kernel, numba_available
from dlx import BackendName, ExactCover
from dlx.problems import rod_cutting

BACKENDS = ["python"] + (["numba"] if numba_available() else [])

MCC_CASES = {  # file: (solutions, DLX3's nodes, DLX3's updates), SOURCES.md
    "mcc_rowcol6_2": (67_950, 198_658, 715_151),
    "mcc_queens8_k5": (46_736, 190_918, 1_432_660),
    "mcc_queens12x10_rowslack": (160_964, 1_090_730, 13_084_211),
    "mcc_matchings4x4": (10_012, 24_610, 51_879),
    "mcc_tetromino_5x8_2each": (3_106, 95_203, 10_628_425),
}
PYTHON_SKIP = {"mcc_queens12x10_rowslack", "mcc_tetromino_5x8_2each"}  # 10-30 s a round


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(MCC_CASES))
def test_count_mcc(benchmark, name: str, backend: BackendName) -> None:
    path = EXACT_COVER_DIR / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    if backend == "python" and name in PYTHON_SKIP:
        pytest.skip("10-30 s a round in python")
    problem = ExactCover.from_dlx(path.read_text())
    problem.count(limit=1, backend=backend)  # links, numba's load
    benchmark.group = f"mcc-{name}"
    count = benchmark.pedantic(lambda: problem.count(backend=backend), rounds=3, iterations=1)
    assert (count, problem.stats.nodes, problem.stats.updates) == MCC_CASES[name]
    benchmark.extra_info.update(solver=f"dlx-{backend}", nodes=problem.stats.nodes,
                                updates=problem.stats.updates)


@pytest.mark.parametrize("backend", BACKENDS)
def test_best_rod_cutting(benchmark, backend: BackendName) -> None:
    """The 3 cheapest cuts of a rod of length 60 (2**59 cuts in all)."""
    problem = rod_cutting(60)
    problem.best(1, backend=backend)
    benchmark.group = "best-rod-cutting"
    best = benchmark.pedantic(lambda: problem.best(3, backend=backend), rounds=3, iterations=1)
    assert [problem.cost(s) for s in best] == [0, 3, 3]
    benchmark.extra_info.update(solver=f"dlx-{backend}", nodes=problem.stats.nodes)


def test_best_weighted_pentominoes(benchmark) -> None:
    """The 10 cheapest of the 4,040 tilings of 5 x 12 by the pentominoes, each placement
    costing 0..20 (seeded): branch and bound visits ~0.5 M nodes where counting them all
    visits 2.3 M. Numba only (python: minutes)."""
    import random

    from dlx.problems import pentominoes

    if not numba_available():
        pytest.skip("numba is not installed")
    plain = pentominoes(5, 12)
    rng = random.Random(1)
    problem = ExactCover(list(plain.options()), primary=plain.primary,
                         costs=[rng.randint(0, 20) for _ in range(len(plain))])
    load_kernel(lambda: problem.best(1, max_nodes=10, backend="numba"))
    benchmark.group = "best-pentomino-5x12"
    best = benchmark.pedantic(lambda: problem.best(10, backend="numba"), rounds=3,
                              iterations=1)
    assert [problem.cost(s) for s in best] == [54, 56, 57, 58, 59, 61, 61, 66, 66, 66]
    benchmark.extra_info.update(solver="dlx-numba", nodes=problem.stats.nodes)
