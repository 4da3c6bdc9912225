"""The explainer: a puzzle's solution as the ordered steps a human solver would take.

[`explain`][] starts from the givens and always takes the easiest step a technique of
`sudoku.techniques` finds; when none finds one, the last resort is the engine's
search, which places the remaining cells and reports the nodes it needed. [`hint`][]
is the next step only, for applications. Both first make sure the puzzle has exactly one
solution (``count_solutions(limit=2)`` through the engine), since a step is meant to be
what any solver can see, and the errors are those of [`sudoku.solve`][].

>>> import sudoku
>>> puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
>>> steps = sudoku.explain(puzzle)
>>> steps[0].technique, len(steps)
('naked single', 49)
>>> print(steps[0].describe())
naked single: r5c6 = 4 (its only candidate)
>>> steps[0]
<Step naked single 1.0: r5c6 = 4 (its only candidate)>
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from dlx import BackendName

from .arguments import engine
from .batch import failure, solved_mask
from .candidates import Candidates
from .grid import Geometry, Layout, parse_board, parse_string
from .reduction import decode, forced_problem
from .techniques import Step, find_step

__all__ = ["explain", "hint", "solution_steps"]


def explain(board: Any, *, alphabet: str | None = None, layout: Layout | None = None,
            backend: BackendName = "auto") -> list[Step]:
    """The steps that solve ``board`` (a board or puzzle string, as for
    [`sudoku.count_solutions`][]), in order; each a [`sudoku.Step`][] whose
    ``describe(layout)`` says it in words. A puzzle without exactly one solution raises
    NoSolutionError, ClashError or MultipleSolutionsError; the board is only read."""
    geo, values, solution = _prepared(board, alphabet, layout, backend)
    return list(solution_steps(geo, values, solution, backend=backend))


def hint(board: Any, *, alphabet: str | None = None, layout: Layout | None = None,
         backend: BackendName = "auto") -> Step | None:
    """The next step from ``board`` (a puzzle, or one partly filled in by a player), or
    None if it is full. Errors as for [`explain`][]: a player's wrong entry that leaves
    no solution is a NoSolutionError."""
    geo, values, solution = _prepared(board, alphabet, layout, backend)
    return next(solution_steps(geo, values, solution, backend=backend), None)


def solution_steps(geo: Geometry, values: list[int], solution: list[int] | None = None, *,
                   backend: BackendName = "auto", ceiling: float | None = None) -> Iterator[Step]:
    """The steps from ``values`` (a puzzle of ``geo`` with one solution) to the full grid,
    lazily, each with the position it was found in (``Step.grid``). With ``ceiling``,
    techniques rated above it are not tried, and the last resort comes at once.
    ``solution`` (if known) is checked against every placement."""
    grid = Candidates(geo.layout, values)
    while not grid.solved():
        step = find_step(grid, ceiling)
        if step is None:
            step = last_resort(geo, grid.values, backend)
        if solution is not None:
            for cell, value in step.placements:
                if solution[cell] != value:  # a technique's bug, never bad input
                    raise AssertionError(f"{step.technique} placed {value} at "
                                         f"{geo.where(cell)}")
        position = (tuple(grid.values), tuple(grid.masks))
        step.apply(grid)
        yield replace(step, layout=geo.layout, grid=position)


def last_resort(geo: Geometry, values: list[int], backend: BackendName = "auto") -> Step:
    """The engine's search from the cells placed so far: a ``search`` step that places all
    the others, with its ``nodes`` and its ``guesses`` (the nodes off the path to the
    solution: each a choice that had to be undone)."""
    problem, forced = forced_problem(geo, values)
    result = problem.solve_batch([forced], limit=1, **engine(backend).budgets())
    chosen = result.solution(0)
    if chosen is None:
        raise failure(geo, values, result, 0, False)
    full = decode(geo, values, None, chosen)
    nodes, depth = int(result.nodes[0]), int(result.max_level[0])
    placements = tuple((c, v) for c, (was, v) in enumerate(zip(values, full)) if not was)
    return Step("search", search_rating(nodes - depth - 1), tuple(c for c, _ in placements),
                placements=placements, nodes=nodes, guesses=max(0, nodes - depth - 1))


def search_rating(guesses: int) -> float:
    """The rating of the last resort, 7.0 to 11.9: 7.0 when the engine went straight to the
    solution, then 0.5 more for every doubling of its guesses (1: 7.5, 2-3: 8.0, 4-7: 8.5,
    32-63: 10.0, 512 and more: 11.9)."""
    return round(min(11.9, 7.0 + 0.5 * max(0, guesses).bit_length()), 1)


def _prepared(board: Any, alphabet: str | None, layout: Layout | None,
              backend: BackendName) -> tuple[Geometry, list[int], list[int]]:
    """The board's geometry, values and unique solution, or the SudokuError saying why
    there is none."""
    budgets = engine(backend).budgets()
    if isinstance(board, str):
        geo, values = parse_string(board, alphabet, layout)
    else:
        geo, values, _ = parse_board(board, alphabet, layout)
    problem, forced = forced_problem(geo, values)
    result = problem.solve_batch([forced], limit=2, **budgets)
    if not solved_mask(result, True)[0]:
        raise failure(geo, values, result, 0, True)
    solution = result.solution(0)
    assert solution is not None
    return geo, values, decode(geo, values, None, solution)
