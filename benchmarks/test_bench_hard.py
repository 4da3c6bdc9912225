"""Hard instances: the 18 minimal 25x25 puzzles of Gecode's examples (``gecode_25x25.txt``,
from Alain Frisch's page; see ``../shared/data/sudoku/SOURCES.md``), one benchmark per
puzzle and solver, group ``hard``.

* ``dlx-hard``: ``sudoku.solve_string(strategy="learn")``'s path on numba (the root
  reduction, then the learning search, ``strategy="learn"``; what ``auto`` does from 25x25 up),
  stopped after ``HARD_CAP`` seconds;
* ``dlx-plain``: Knuth's search (``strategy="plain"``: the fewest options, the first item),
  stopped after ``PLAIN_CAP`` seconds;
* ``sat-pycosat``: our one-hot CNF of the layout (``benchmarks/solvers/sat.py``), picosat,
  no cap (optional: ``pip install pycosat``).

One round each (a search may take many seconds); ``extra_info`` holds ``solved`` (the
answer verified), ``nodes`` (the engine's: decisions for the learning search), ``wall_s``
and ``cpu_s`` (``process_time``: this machine is shared, so wall time overstates). Run: ``pytest
benchmarks/test_bench_hard.py --benchmark-only --benchmark-json=hard.json``.
"""

from __future__ import annotations

import time

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import dlx
import sudoku
from benchmarks.cases import load_kernel, numba_available
from benchmarks.puzzles import is_solution, set_path

SET = "gecode_25x25"
HARD_CAP = 30.0
"""Seconds (wall) before the hard strategy's search is stopped (target: 10 s of CPU)."""
PLAIN_CAP = 60.0
"""Seconds (wall) before the plain search is stopped."""
SOLVERS = ["dlx-hard", "dlx-plain", "sat-pycosat"]
SYMBOLS = sudoku.DEFAULT_SYMBOLS[:25]


def _puzzles() -> list[str]:
    path = set_path(SET)
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


_PLAIN_SOLVED = "solved: the grid is made again, untimed, to be checked"


def _engine(puzzle: str, strategy: str, cap: float) -> tuple[str | None, int]:
    """The answer of ``strategy`` (None if stopped) and the nodes its search took."""
    if strategy == "plain":  # Knuth's search of the reduced problem: the same nodes
        problem = sudoku.to_exact_cover(puzzle)
        try:
            chosen = problem.first(timeout=cap, backend="numba")
        except dlx.SearchStoppedError:  # the cap ran out: unsolved, its nodes in .stats
            return None, problem.stats.nodes
        return (None if chosen is None else _PLAIN_SOLVED), problem.stats.nodes
    from sudoku.arguments import engine
    from sudoku.hard import first_hard  # the path of solve_string's hard strategy
    from sudoku.reduction import decode

    geo, values = sudoku.parse_string(puzzle)
    chosen, stats = first_hard(geo, values, unique=False,
                               engine=engine("numba", None, cap))
    answer = None if chosen is None else sudoku.format_grid(geo, decode(geo, values, None,
                                                                        chosen))
    return answer, stats.nodes


@pytest.mark.benchmark(group="hard")
@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("index", range(18))
def test_gecode_25x25(benchmark: BenchmarkFixture, index: int, solver: str) -> None:
    puzzles = _puzzles()
    if index >= len(puzzles):
        pytest.skip(f"{SET} has {len(puzzles)} puzzles")
    puzzle = puzzles[index]
    if solver.startswith("dlx") and not numba_available():
        pytest.skip("numba is not installed")
    if solver == "sat-pycosat":
        pytest.importorskip("pycosat", reason="pycosat is not installed (pip install pycosat)")
        from benchmarks.solvers.sat import sat_solve

        layout = sudoku.parse_string(puzzle)[0].layout

        def run() -> tuple[str | None, int]:
            return sat_solve(puzzle, layout, SYMBOLS), 0
    else:
        strategy, cap = ("learn", HARD_CAP) if solver == "dlx-hard" else ("plain", PLAIN_CAP)

        def run() -> tuple[str | None, int]:
            return _engine(puzzle, strategy, cap)

        load_kernel(lambda: sudoku.solve_string(puzzle, strategy=strategy, max_nodes=10,
                                                backend="numba"))
    cpu = time.process_time()
    wall = time.perf_counter()
    answer, nodes = benchmark.pedantic(run, rounds=1, iterations=1)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if answer == _PLAIN_SOLVED:
        answer = sudoku.solve_string(puzzle, strategy="plain", backend="numba")
    benchmark.extra_info.update(
        solved=answer is not None, nodes=nodes, wall_s=round(wall, 3), cpu_s=round(cpu, 3))
    if answer is not None:
        assert is_solution(puzzle, answer), f"puzzle {index}: a wrong answer"


RATE_CASES: dict[str, tuple[dlx.BackendName, int]] = {
    "queens12-count": ("numba", 12), "queens9-count": ("python", 9),
    "16x16-solve": ("numba", 55), "16x16-solve-python": ("python", 10)}
"""Case -> (backend, queens' n or the number of gecode_16x16 puzzles solved)."""


@pytest.mark.benchmark(group="hard-seed")
@pytest.mark.parametrize("seed", [None, 1], ids=["unseeded", "seeded"])
@pytest.mark.parametrize("case", list(RATE_CASES))
def test_seeded_node_rate(benchmark: BenchmarkFixture, case: str, seed: int | None) -> None:
    """A seeded search (one shuffle, then the unseeded kernel) beside an unseeded one:
    ``extra_info['nodes_per_s']`` (target: seeded >= 0.9x unseeded)."""
    from dlx.problems import queens

    backend, n = RATE_CASES[case]
    if backend == "numba" and not numba_available():
        pytest.skip("numba is not installed")
    if case.startswith("queens"):
        problem = queens(n)

        def run() -> int:
            problem.count(seed=seed, backend=backend)
            return problem.stats.nodes
    else:
        path = set_path("gecode_16x16")
        if not path.is_file():
            pytest.skip(f"{path} not found")
        from sudoku.reduction import empty_grid_problem, givens

        puzzles = [sudoku.parse_string(line) for line in path.read_text().split()[:n]]
        problem = empty_grid_problem(puzzles[0][0].layout)
        instances = [givens(geo, values) for geo, values in puzzles]

        def run() -> int:
            nodes = 0
            for forced in instances:
                assert problem.first(forced=forced, seed=seed, backend=backend) is not None
                nodes += problem.stats.nodes
            return nodes

    run()  # load the kernel, convert and shuffle once
    nodes = benchmark.pedantic(run, rounds=5, iterations=1)
    benchmark.extra_info.update(nodes=nodes)
    if benchmark.stats is not None:  # None under --benchmark-disable (a single run)
        benchmark.extra_info.update(nodes_per_s=round(nodes / benchmark.stats.stats.median))
