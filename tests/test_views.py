"""Notebook views and short reprs (issue 30, point 3): what Jupyter shows for a problem, a
search, a batch, a layout, a rating and a step, and the one-line reprs."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import sudoku
from dlx import ExactCover
from dlx.problems import queens
from sudoku import Layout

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def cells(html: str) -> dict[str, str]:
    """The (name, value) rows of a view's table."""
    root = ET.fromstring(html)
    return {row[0].text: row[1].text for row in root.iter("tr")}


def test_problem_view_has_sizes_and_a_small_matrix() -> None:
    problem = queens(4)
    html = problem._repr_html_()
    facts = cells(html)
    assert facts["options"] == "16" and facts["primary items"] == "8"
    assert facts["secondary items"] == "14"  # Knuth: 2n - 1 diagonals each way
    squares = [e for e in ET.fromstring(html).iter("{http://www.w3.org/2000/svg}rect")
               if e.get("fill") in ("#333333", "#999999")]
    assert len(squares) == sum(len(problem.option(k)) for k in range(len(problem)))
    big = ExactCover([[i] for i in range(100)])
    assert "<svg" not in big._repr_html_() and cells(big._repr_html_())["options"] == "100"


def test_search_and_batch_views_say_how_it_went() -> None:
    problem = queens(6)
    search = problem.solutions()
    assert cells(search._repr_html_())["status"] == "RUNNING"
    assert search.count() == 4
    facts = cells(search._repr_html_())
    assert facts["status"] == "COMPLETE" and facts["solutions"] == "4"
    assert int(facts["nodes"]) == search.stats.nodes
    result = problem.solve_batch([[], [0, 1]], limit=10)
    facts = cells(result._repr_html_())
    assert facts["status COMPLETE"] == "1" and facts["status CONFLICT"] == "1"
    assert facts["solutions found"] == str(int(result.found.sum()))


def test_layout_repr_is_one_short_line_and_its_view_a_picture() -> None:
    assert repr(Layout.square(3)) == "<Layout 9x9: 9 rows, 9 columns, 9 boxes>"
    assert repr(Layout.x()) == "<Layout 9x9: 9 rows, 9 columns, 9 boxes, 2 diagonals>"
    killer = Layout.killer([((0, 1), 3)], block=(2, 2))
    assert repr(killer) == "<Layout 4x4: 4 rows, 4 columns, 4 boxes, 1 cages>"
    for layout in (Layout.square(6), Layout.rect(3, 4), Layout.windoku()):
        assert len(repr(layout)) < 80
    svg = ET.fromstring(killer._repr_svg_())
    sums = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert sums == ["3"]


def test_rating_and_step_views() -> None:
    rating = sudoku.rate(PUZZLE)
    root = ET.fromstring(rating._repr_html_())
    assert root.find("strong").text == "simple 1.0"
    assert [(r[0].text, r[1].text) for r in root.iter("tr")] == [("naked single", "49")]
    steps = sudoku.explain(PUZZLE)
    assert repr(steps[0]) == "<Step naked single 1.0: r5c6 = 4 (its only candidate)>"
    assert "cells=" not in repr(steps[0])
    assert steps[0].describe() == "naked single: r5c6 = 4 (its only candidate)"
    assert ET.fromstring(steps[0]._repr_html_()).find("code").text == steps[0].describe()
    hint = sudoku.hint(PUZZLE)
    assert hint is not None and hint.describe() == steps[0].describe()


def test_step_describes_itself_on_any_layout() -> None:
    layout = Layout.rect(2, 3)
    puzzle = sudoku.generate(6, seed=3)
    step = sudoku.explain(puzzle, layout=layout)[0]
    assert step.describe() == step.describe(layout)
    assert f"r{step.cells[0] // 6 + 1}c{step.cells[0] % 6 + 1}" in repr(step)
    bare = sudoku.Step("naked single", 1.0, (53,), (4,), placements=((53, 4),))
    assert repr(bare) == "<Step naked single 1.0: cells [53]>"
    assert bare.describe(Layout.square(3)) == "naked single: r6c9 = 4 (its only candidate)"
    with pytest.raises(sudoku.ArgumentError, match="layout"):
        bare.describe()


def test_format_grid_takes_a_board_or_a_string() -> None:
    board = [list(PUZZLE[r * 9:(r + 1) * 9]) for r in range(9)]
    assert sudoku.format_grid(PUZZLE) == sudoku.format_grid(board) == PUZZLE
    drawn = sudoku.format_grid(PUZZLE, pretty=True)
    assert drawn.splitlines()[0] == ". . 3 | . 2 . | 6 . ."
    from sudoku.grid import parse_string

    geo, values = parse_string(PUZZLE)
    assert sudoku.format_grid(geo, values, pretty=True) == drawn  # the older call
    with pytest.raises(sudoku.ArgumentError, match="values"):
        sudoku.format_grid(PUZZLE, values)
    with pytest.raises(sudoku.ArgumentError, match="values"):
        sudoku.format_grid(geo)
    killer = Layout.killer([((0, 1), 3), ((2, 3), 7), ((4, 5, 8, 9), 10), ((6, 7, 10, 11), 10),
                            ((12, 13, 14, 15), 10)], block=(2, 2))
    assert "3" in sudoku.format_grid("." * 16, pretty=True, layout=killer).splitlines()[1]
