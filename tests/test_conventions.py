"""One rule for budgets and one set of option names, across dlx and sudoku."""

from __future__ import annotations

import pytest

import dlx
import sudoku
from dlx.cli import _parser as dlx_parser
from dlx.problems import langford, queens
from sudoku.cli import _parser as sudoku_parser

SHARED_OPTIONS = {"-V", "--version", "-f", "--file", "-c", "--count", "-n", "--limit",
                  "--max-nodes", "--timeout", "--backend", "--progress", "--no-progress",
                  "--svg"}


def _options(parser) -> set[str]:
    return {s for action in parser._actions for s in action.option_strings}


def test_both_commands_share_the_option_names() -> None:
    assert _options(dlx_parser()) >= SHARED_OPTIONS
    assert _options(sudoku_parser(["x"])) >= SHARED_OPTIONS


def test_answer_calls_raise_when_a_budget_runs_out(backend: str) -> None:
    problem = queens(8)
    with pytest.raises(dlx.SearchStoppedError) as stop:
        problem.count(max_nodes=100, backend=backend)
    assert stop.value.stats.status is dlx.Status.MAX_NODES
    partial = stop.value.stats.solutions
    # the objects that carry their status return the partial answer instead
    search = problem.solutions(max_nodes=100, backend=backend)
    assert search.count() == partial and search.stats.status is dlx.Status.MAX_NODES
    batch = problem.solve_batch([[], [0]], limit=1000, max_nodes=100, backend=backend)
    assert list(batch.status) == [dlx.Status.MAX_NODES] * 2
    with pytest.raises(dlx.SearchStoppedError, match="first"):
        langford(9).first(max_nodes=10, backend=backend)
    assert langford(9).first(backend=backend) is None  # None: no solution, never "stopped"
    # the limit is no budget: asked for, so no error
    assert problem.count(limit=3, backend=backend) == 3


def test_sudoku_follows_the_same_rule() -> None:
    with pytest.raises(dlx.SearchStoppedError) as stop:
        sudoku.count_solutions("." * 81, max_nodes=5)
    assert isinstance(stop.value, sudoku.SearchStoppedError)
    assert isinstance(stop.value, sudoku.SudokuError)
    with pytest.raises(dlx.SearchStoppedError):
        sudoku.solve_string("." * 81, max_nodes=5)
    (answer,) = sudoku.count_many(["." * 81], max_nodes=5)  # a batch returns it per puzzle
    assert isinstance(answer, dlx.SearchStoppedError)
