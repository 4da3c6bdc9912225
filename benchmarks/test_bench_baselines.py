"""Baseline Sudoku solvers (``benchmarks/solvers``) on public puzzle sets, one whole set per round.

Groups are ``sudoku-<set>``, shared with the engine's and the peers' benchmarks so that one
run shows every solver on the same puzzles side by side. Plain backtracking takes about 11
minutes a round on norvig_top95, so that run is ``long`` (``--long``); by default it runs on
``norvig_top95_sub65`` (see ``puzzles.SUBSETS``), where every other solver runs too.

The exact-cover groups (``exact-cover-<name>``) get the pure-Python peer of our python
backend: Algorithm X on dictionaries of sets (``algorithm_x_dict.count_cover``), counting
every solution of a problem read before timing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.cases import EXACT_COVER_CASES, SUDOKU_SETS, ExactCoverCase, param
from benchmarks.solvers import SOLVERS, algorithm_x_dict
from dlx import ExactCover


@pytest.mark.parametrize(
    ("solver", "set_name"),
    [param(solver, set_name, solver, set_name) for set_name in SUDOKU_SETS for solver in SOLVERS],
)
def test_baseline(bench_set: Callable[..., None], solver: str, set_name: str) -> None:
    bench_set(SOLVERS[solver], solver, set_name)


@pytest.mark.parametrize(
    "case", [param("algorithm_x_dict", c.name, c) for c in EXACT_COVER_CASES]
)
def test_count_baseline(bench_count: Callable[..., None], case: ExactCoverCase) -> None:
    if not case.path.exists():
        pytest.skip(f"{case.path} not found")
    problem = ExactCover.from_dlx(case.path.read_text())

    def count() -> int:
        return algorithm_x_dict.count_cover(problem)

    bench_count(count, "algorithm_x_dict", case, note="its own order of ties: other nodes")
