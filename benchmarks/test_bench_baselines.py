"""Baseline solvers (``benchmarks/solvers``) on public puzzle sets, one whole set per round.

Groups are ``sudoku-<set>``, shared with the engine's benchmarks so one run shows every
solver on the same puzzles side by side. Plain backtracking takes about 11 minutes on
norvig_top95, so it runs on ``norvig_top95_sub65`` instead (see ``puzzles.SUBSETS``),
where the other baselines run too. A round of the slowest benchmark takes about 20 s.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.solvers import SOLVERS

# Rounds per set, so that no benchmark runs much over 30 s.
ROUNDS = {"norvig_hardest": 5, "euler96_easy50": 5, "norvig_top95": 3, "norvig_top95_sub65": 2}
TOO_SLOW = {("backtracking", "norvig_top95"): "about 11 minutes: see norvig_top95_sub65"}


@pytest.mark.parametrize("set_name", ROUNDS)
@pytest.mark.parametrize("solver", SOLVERS)
def test_baseline(bench_set: Callable[..., None], solver: str, set_name: str) -> None:
    if (solver, set_name) in TOO_SLOW:
        pytest.skip(TOO_SLOW[solver, set_name])
    bench_set(SOLVERS[solver], solver, set_name, ROUNDS[set_name])
