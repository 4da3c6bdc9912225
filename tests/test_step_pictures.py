"""Explanations a person can look at (issue 43): a step drawn on its grid
(``sudoku.draw_step``, ``Step._repr_svg_``), the ``sudoku --explain --html`` page and
``sudoku --hint --svg``.

Every technique that ``sudoku.explain`` names is drawn: the SVG says where its pattern,
its units, its eliminations and its placements are, and (in the slow run, when headless
Chromium is installed) the rendered picture shows them there: each cell's background is
the colour its role in the step gives it, the eliminated candidates are red, struck
through, and the placed values green.
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace
from html import escape
from pathlib import Path

import pytest

import sudoku
from sudoku import Layout
from sudoku.candidates import Candidates
from sudoku.draw import ELIMINATED, PATTERN, PLACED, PLACED_INK, UNIT, draw_step
from sudoku.techniques import TECHNIQUES
from tests.helpers.browser import near, rgb, screenshot

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
EXPERT = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
"""An expert puzzle (rating 4.5: a w-wing), its steps of many kinds."""

PUZZLES = {  # a 9x9 puzzle whose explanation takes a step of each technique
    "naked single":
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "hidden single":
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "locked candidates":
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "naked pair": EXPERT,
    "hidden pair": EXPERT,
    "xy-wing": EXPERT,
    "w-wing": EXPERT,
    "x-wing": ".8...4.5....7..3............1..85...6.....2......4....3.26............417........",
    "naked triple":
        "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...",
    "xyz-wing": "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...",
    "swordfish":
        "..8.9.1...6.5...2......6....3.1.7.5.........9..4...3...5....2...7...3.8.2..7....4",
    "hidden triple":
        "..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56",
    "naked quad":
        "12......9.5..9.2.3........4.3.........18.........246......67.5...2.41.7.9........",
    "jellyfish":
        "...27...98...........4.8..132...69.......9.3.7..1....2..........948....6.789...2.",
    "simple coloring":
        "..5...987.4..5...1..7......2...48....9.1.....6..2.....3..6..2.......9.7.......5..",
    "x-chain": "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....",
    "search": "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....",
}
FUNCTIONS = {name: find for name, _, find in TECHNIQUES}


def _made(name: str, layout: Layout, grid: Candidates) -> sudoku.Step:
    """The step ``name``'s technique finds on a grid made by hand, with its grid."""
    position = (tuple(grid.values), tuple(grid.masks))
    step = FUNCTIONS[name](grid)
    assert step is not None and step.technique == name
    return replace(step, layout=layout, grid=position)


def _hidden_quad() -> sudoku.Step:
    """A hidden quad no puzzle we ship needs: 1-4 of row 1 only in r1c1-r1c4."""
    layout = Layout.square(3)
    grid = Candidates(layout, [0] * 81)
    for cell in range(4, 9):
        for value in range(1, 5):
            grid.eliminate(cell, value)
    return _made("hidden quad", layout, grid)


def _cage_combination() -> sudoku.Step:
    """A killer cage of two cells summing to 3: only 1 and 2."""
    layout = Layout.killer([((0, 1), 3)], block=(3, 3))
    return _made("cage combination", layout, Candidates(layout, [0] * 81))


@pytest.fixture(scope="module")
def steps() -> dict[str, sudoku.Step]:
    """One step of each technique explain names, each with its grid and layout."""
    found: dict[str, sudoku.Step] = {}
    explained: dict[str, list[sudoku.Step]] = {}
    for name, puzzle in PUZZLES.items():
        if puzzle not in explained:
            explained[puzzle] = sudoku.explain(puzzle, backend="python")
        found[name] = next(s for s in explained[puzzle] if s.technique == name)
    found["hidden quad"] = _hidden_quad()
    found["cage combination"] = _cage_combination()
    return found


def test_every_technique_is_covered() -> None:
    assert {*PUZZLES, "hidden quad", "cage combination"} == {*FUNCTIONS, "search"}


# ----- the SVG -------------------------------------------------------------------------------


def roles(step: sudoku.Step) -> dict[int, str]:
    """Each highlighted cell's role in ``step``, as the picture must show it: the cells of
    its units, over them its pattern's cells, over those the cells it fills in."""
    assert step.layout is not None
    marks = {c: "unit" for u in step.units for c in step.layout.units[u]}
    marks.update({c: "pattern" for c in step.cells})
    if step.technique != "search":
        marks.update({c: "placed" for c, _ in step.placements})
    return marks


def _cell_of(x: float, y: float, pad: float, cell: float, side: int) -> int:
    return int((y - pad) // cell) * side + int((x - pad) // cell)


def check_svg(step: sudoku.Step, cell: int = 40) -> ET.Element:
    """The picture's elements say what the step says, where it says it."""
    assert step.layout is not None and step.grid is not None
    side, pad = step.layout.side, cell // 4
    picture = draw_step(step, cell=cell)
    root = ET.fromstring(picture.svg)
    assert root.find(f"{SVG}title").text == step.describe()
    rects = {}
    for r in root.iter(f"{SVG}rect"):
        if r.get("class") in ("unit", "pattern", "placed"):
            rects[_cell_of(float(r.get("x")) + 1, float(r.get("y")) + 1, pad, cell, side)] = \
                r.get("class")
    assert rects == roles(step), step
    texts = list(root.iter(f"{SVG}text"))
    out = sorted(_cell_of(float(t.get("x")), float(t.get("y")), pad, cell, side)
                 for t in texts if t.get("class") == "eliminated")
    assert out == sorted(c for c, _ in step.eliminations)
    assert sum(1 for line in root.iter(f"{SVG}line") if line.get("class") == "strike") == \
        len(step.eliminations)
    symbols = {t.text for t in texts if t.get("class") == "eliminated"}
    assert symbols == {str(v) for _, v in step.eliminations}
    placed = {(_cell_of(float(t.get("x")), float(t.get("y")), pad, cell, side), t.text)
              for t in texts if t.get("class") == "placed"}
    expected = set() if step.technique == "search" else \
        {(c, str(v)) for c, v in step.placements}
    assert placed == expected
    # every open cell shows its candidates, every placed cell its value
    values, masks = step.grid
    shown = Counter(_cell_of(float(t.get("x")), float(t.get("y")), pad, cell, side)
                    for t in texts if t.get("class") != "cage")
    for c in range(side * side):
        want = 1 if values[c] or (c in dict(step.placements) and step.technique != "search") \
            else bin(masks[c]).count("1")
        assert shown[c] == want, (c, step)
    return root


def test_a_step_draws_itself_in_a_notebook() -> None:
    steps = sudoku.explain(EXPERT)
    wing = next(s for s in steps if s.technique == "w-wing")
    assert wing._repr_svg_() == draw_step(wing).svg
    html = wing._repr_html_()
    assert html.startswith("<div><code>w-wing: ") and draw_step(wing).svg in html
    check_svg(wing)
    check_svg(steps[0], cell=60)
    bare = sudoku.Step("naked single", 1.0, (53,), (4,), placements=((53, 4),))
    assert bare._repr_svg_() is None and "<svg" not in bare._repr_html_()
    with pytest.raises(sudoku.ArgumentError, match="no grid"):
        draw_step(bare)
    with pytest.raises(sudoku.ArgumentError, match="cell"):
        draw_step(wing, cell=10)
    assert sudoku.hint(EXPERT).grid == steps[0].grid  # a hint has its grid too


@pytest.mark.slow
def test_every_technique_draws_where_the_step_says(steps) -> None:
    for step in steps.values():
        check_svg(step)


# ----- in a browser --------------------------------------------------------------------------


def _mode(rows: list[bytes], x0: int, y0: int, size: int) -> tuple[int, int, int]:
    """The commonest colour inside a cell (3 pixels in from its lines): its background."""
    colours = Counter(rows[y][3 * x:3 * x + 3] for y in range(y0 + 3, y0 + size - 3)
                      for x in range(x0 + 3, x0 + size - 3))
    return tuple(colours.most_common(1)[0][0])


def _has(rows: list[bytes], x0: int, y0: int, w: int, h: int, colour: str) -> int:
    """How many pixels of the box are near ``colour``."""
    want = rgb(colour)
    return sum(near(tuple(rows[y][3 * x:3 * x + 3]), want, 60)
               for y in range(y0, y0 + h) for x in range(x0, x0 + w))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted({*PUZZLES, "hidden quad", "cage combination"}))
def test_browser_shows_each_technique_where_the_step_says(name: str, steps,
                                                          tmp_path: Path) -> None:
    step = steps[name]
    cell = 40
    picture = draw_step(step, cell=cell)
    page = tmp_path / "step.svg"
    picture.save(page)
    rows = screenshot(page, picture.width, picture.height, tmp_path)
    side, pad = step.layout.side, cell // 4
    marks = roles(step)
    colours = {"unit": UNIT, "pattern": PATTERN, "placed": PLACED}
    out_cells = {c for c, _ in step.eliminations}
    for c in range(side * side):
        x0, y0 = pad + (c % side) * cell, pad + (c // side) * cell
        background = _mode(rows, x0, y0, cell)
        want = colours.get(marks.get(c, ""), "#ffffff")
        assert near(background, rgb(want), 6), (name, step.layout.where(c), background, want)
        red = _has(rows, x0 + 2, y0 + 2, cell - 4, cell - 4, ELIMINATED)
        assert (red > 3) == (c in out_cells), (name, step.layout.where(c), red)
    root = ET.fromstring(picture.svg)  # red ink where each eliminated candidate is written
    for text in root.iter(f"{SVG}text"):
        if text.get("class") == "eliminated":
            x, y = float(text.get("x")), float(text.get("y"))
            half = int(cell / 8)
            assert _has(rows, int(x) - half, int(y) - half, 2 * half, 2 * half,
                        ELIMINATED) > 3, (name, x, y)
    if step.technique != "search":
        for c, _ in step.placements:
            x0, y0 = pad + (c % side) * cell, pad + (c // side) * cell
            assert _has(rows, x0, y0, cell, cell, PLACED_INK) > 20, (name, c)


# ----- the command ---------------------------------------------------------------------------


def _sudoku(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sudoku", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_explain_writes_one_self_contained_page(tmp_path: Path) -> None:
    done = _sudoku("--explain", EXPERT, "--html", "steps.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "rating: expert 4.5 (w-wing)" in done.stdout  # the text, as without --html
    html = (tmp_path / "steps.html").read_text(encoding="utf-8")
    steps = sudoku.explain(EXPERT)
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing fetched
    assert "Rating: expert 4.5, hardest step: w-wing, 86 steps" in html
    sections = re.findall(r'<section class="step" id="step-(\d+)">(.*?)</section>', html,
                          re.S)
    assert [int(k) for k, _ in sections] == list(range(1, len(steps) + 1))
    for (_, body), step in zip(sections, steps):
        assert body.startswith("<svg") and f"<p>{escape(step.describe())}</p>" in body
    assert "<tr><td>w-wing</td><td>1</td></tr>" in html
    ET.fromstring(re.search(r"<svg.*?</svg>", sections[0][1], re.S).group(0))


def test_hint_prints_the_next_step_and_draws_it(tmp_path: Path, capsys,
                                               monkeypatch) -> None:
    from sudoku.cli import main

    done = _sudoku("--hint", EXPERT, "--svg", "hint.svg", cwd=tmp_path)  # as a user runs it
    assert done.returncode == 0, done.stderr
    step = sudoku.hint(EXPERT)
    assert done.stdout == step.describe() + "\n"
    assert (tmp_path / "hint.svg").read_text(encoding="utf-8") == draw_step(step).svg
    monkeypatch.chdir(tmp_path)
    assert main(["--hint", sudoku.solve_string(EXPERT)]) == 0
    assert capsys.readouterr().out == "solved: the grid is full\n"
    for args, message in ((["--hint", EXPERT, "--html", "x.html"], "--html goes with"),
                          (["--explain", EXPERT, "--svg", "x.svg"], "--html FILE draws"),
                          (["--hint", EXPERT, "-f", "x"], "--hint takes its puzzle"),
                          (["--hint", EXPERT, "--rate"], "give one of")):
        assert main(args) == 2, args
        assert message in capsys.readouterr().err, args
    assert main(["--hint", "11" + "." * 79]) == 1
    assert "ClashError" in capsys.readouterr().err
