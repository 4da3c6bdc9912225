"""Baseline Sudoku solvers (``benchmarks/solvers``) on public puzzle sets, one whole set per round.

Groups are ``sudoku-<set>``, shared with the engine's and the peers' benchmarks so that one
run shows every solver on the same puzzles side by side. Plain backtracking takes about 11
minutes a round on norvig_top95, so that run is ``long`` (``--long``); by default it runs on
``norvig_top95_sub65`` (see ``puzzles.SUBSETS``), where every other solver runs too.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.cases import SUDOKU_SETS, param
from benchmarks.solvers import SOLVERS


@pytest.mark.parametrize(
    ("solver", "set_name"),
    [param(solver, set_name, solver, set_name) for set_name in SUDOKU_SETS for solver in SOLVERS],
)
def test_baseline(bench_set: Callable[..., None], solver: str, set_name: str) -> None:
    bench_set(SOLVERS[solver], solver, set_name)
