"""What the end of a puzzle's search means: the count [`sudoku.count_solutions`][]
returns, or the SudokuError [`sudoku.solve_string`][] raises, from the search's status,
solutions found and nodes. Shared by the batch kernel's path and the hard strategy's."""

from __future__ import annotations

from dlx import Status

from .errors import MultipleSolutionsError, NoSolutionError, SearchStoppedError, SudokuError
from .grid import Geometry
from .reduction import given_options

__all__ = ["search_count", "search_failure"]


def search_count(status: int, found: int, nodes: int) -> int | SearchStoppedError:
    """What [`sudoku.count_solutions`][] returns (or raises) for a search that ended
    with ``status``, ``found`` solutions and ``nodes`` nodes."""
    if Status(status).stopped:
        return SearchStoppedError(f"count stopped by {_budget(status)} after {found} "
                                  f"solutions and {nodes} nodes")
    return 0 if status == Status.CONFLICT else found


def _budget(status: int) -> str:
    """What a stopped status names: ``"timeout"``, ``"max_nodes"`` or Ctrl-C."""
    return {Status.TIMEOUT: "timeout", Status.INTERRUPTED: "an interrupt (Ctrl-C)"}.get(
        Status(status), "max_nodes")


def search_failure(geo: Geometry, values: list[int], status: int, found: int, nodes: int,
                   unique: bool) -> SudokuError:
    """The error for a search of ``geo``'s puzzle ``values`` that ended with ``status``,
    ``found`` solutions and ``nodes`` nodes, without a (unique) solution."""
    if status == Status.CONFLICT:
        try:
            given_options(geo, values)  # raises the ClashError naming the unit
        except SudokuError as e:
            return e
        raise AssertionError("the batch saw clashing givens that given_options accepts")
    if Status(status).stopped:
        return SearchStoppedError(f"search stopped by {_budget(status)} after {nodes} nodes "
                                  "before the puzzle was decided")
    if found == 0:
        return NoSolutionError(f"no solution: the givens cannot be completed ({nodes} search "
                               "nodes)")
    assert unique and found > 1
    return MultipleSolutionsError("the puzzle has more than one solution")
