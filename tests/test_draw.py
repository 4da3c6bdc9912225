"""Pictures: the SVG of boards, tilings and queens is well formed and says what it should,
and, rendered by a real browser (headless chromium, skipped without it), shows it: the
pixels of a few chosen points have the colors they must have."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise
from pathlib import Path

import pytest

import dlx
import sudoku
from dlx import ArgumentError, Picture
from dlx.draw import PALETTE, draw, draw_cover, draw_queens, draw_tiling, piece_color
from dlx.problems import langford, pentominoes, queens, word_rectangle
from sudoku import Layout, ShapeError
from sudoku.draw import FILLED, SHADE
from tests.helpers.browser import near, rgb, screenshot

TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SVG = "{http://www.w3.org/2000/svg}"
KILLER = [((0, 1), 3), ((2, 3), 7), ((4, 5, 8, 9), 10), ((6, 7, 10, 11), 10),
          ((12, 13, 14, 15), 10)]


def parse(picture: Picture) -> ET.Element:
    root = ET.fromstring(picture.svg)
    assert root.tag == f"{SVG}svg"
    assert (int(root.get("width")), int(root.get("height"))) == (picture.width, picture.height)
    return root


# ----- the SVG itself -----------------------------------------------------------------


def test_board_marks_givens_and_filled_values() -> None:
    answer = sudoku.solve_string(TOP95_1)
    root = parse(sudoku.draw_board(TOP95_1, answer))
    texts = {(t.get("class"), t.text) for t in root.iter(f"{SVG}text")}
    given = [t for t in root.iter(f"{SVG}text") if t.get("class") == "given"]
    filled = [t for t in root.iter(f"{SVG}text") if t.get("class") == "filled"]
    assert len(given) == 17 and len(filled) == 64
    assert all(t.get("fill") == FILLED for t in filled)
    assert ("given", "4") in texts
    # the symbols, cell by cell, are the answer's
    cells = sorted(given + filled, key=lambda t: (float(t.get("y")), float(t.get("x"))))
    assert "".join(t.text for t in cells) == answer


def test_board_without_solution_and_board_kinds() -> None:
    board = [list(TOP95_1[r * 9:(r + 1) * 9]) for r in range(9)]
    a = sudoku.draw_board(board)
    assert a.svg == sudoku.draw_board(TOP95_1).svg
    assert a._repr_svg_() == str(a) == a.svg


def test_board_refuses_a_solution_that_is_not_one() -> None:
    answer = sudoku.solve_string(TOP95_1)
    with pytest.raises(ShapeError, match="r1c1"):
        sudoku.draw_board(TOP95_1, "5" + answer[1:])
    with pytest.raises(ShapeError, match=r"solution: .*side 4"):
        sudoku.draw_board(TOP95_1, "1" * 16)
    with pytest.raises(sudoku.ArgumentError, match="cell"):
        sudoku.draw_board(TOP95_1, cell=0)


def test_killer_cages_and_sums() -> None:
    layout = Layout.killer(KILLER, block=(2, 2))
    answer = sudoku.solve_string("." * 16, layout=layout)
    root = parse(sudoku.draw_board("." * 16, answer, layout=layout))
    sums = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "cage"]
    assert sums == ["3", "7", "10", "10", "10"]
    dashed = [p for p in root.iter(f"{SVG}path") if p.get("stroke-dasharray")]
    assert len(dashed) == 5


def test_tiling_one_color_per_piece() -> None:
    problem = pentominoes(3, 20)
    root = parse(draw_tiling(problem, problem.first()))
    fills = {}
    for rect in root.iter(f"{SVG}rect"):
        title = rect.find(f"{SVG}title")
        if title is not None:
            fills.setdefault(title.text, set()).add(rect.get("fill"))
    assert sorted(fills) == sorted("FILNPTUVWXYZ")
    assert all(len(f) == 1 for f in fills.values())  # one color per piece...
    assert len({f.pop() for f in fills.values()}) == 12  # ...and each piece its own


def test_draw_chooses_the_picture() -> None:
    q = queens(6)
    assert "queens" in draw(q, q.first()).svg
    p = pentominoes(6, 10)
    assert "tiling" in draw(p, p.first(backend="python")).svg
    lang = langford(3)
    assert "options covering" in draw(lang, lang.first()).svg
    words = word_rectangle(["ab", "ba"])
    root = parse(draw_cover(words, words.first()))
    assert {"a", "b"} <= {t.text for t in root.iter(f"{SVG}text")}


def test_colors_and_bad_solutions() -> None:
    assert [piece_color(k) for k in range(len(PALETTE))] == list(PALETTE)
    many = {piece_color(k) for k in range(200)}
    assert len(many) == 200 and all(len(c) == 7 and c[0] == "#" for c in many)
    q = queens(4)
    with pytest.raises(ArgumentError, match="no solution"):
        draw(q, None)
    with pytest.raises(ArgumentError, match="99"):
        draw_queens(q, [99])
    with pytest.raises(ArgumentError, match="no row"):
        draw_queens(langford(3), [0])
    for bad in (0, True, 2.5, "40", 10**6):
        with pytest.raises(ArgumentError, match="cell"):
            draw_queens(q, q.first(), cell=bad)
    with pytest.raises(ArgumentError, match="not in range"):
        draw(q, ["0"])
    for bad in (5, "0 1"):
        with pytest.raises(ArgumentError, match="list of option numbers"):
            draw(q, bad)
    with pytest.raises(ArgumentError, match="no board cells"):
        draw_tiling(q.__class__([["A", "B"]]), [0])


def test_picture_save(tmp_path: Path) -> None:
    q = queens(5)
    picture = draw_queens(q, q.first())
    picture.save(tmp_path / "q.svg")
    assert (tmp_path / "q.svg").read_text() == picture.svg
    assert isinstance(picture, dlx.Picture)


# ----- rendered by a browser --------------------------------------------------------------


def render(picture: Picture, tmp_path: Path):
    """The picture rendered by headless chromium (:mod:`tests.helpers.browser`): a function
    (x, y) -> (r, g, b)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    svg = tmp_path / "picture.svg"
    picture.save(svg)
    rows = screenshot(svg, picture.width, picture.height, tmp_path)
    return lambda x, y: tuple(rows[int(y)][3 * int(x):3 * int(x) + 3])


@pytest.mark.slow
def test_browser_shows_tiling_and_queens(tmp_path: Path) -> None:
    problem = pentominoes(6, 10)
    solution = problem.first(backend="python")
    pixel = render(draw_tiling(problem, solution, cell=30), tmp_path)
    pieces = [problem.option(k) for k in solution]
    for k, option in enumerate(pieces):
        for name in option[2:]:  # not the first cell, which holds the piece's name
            r, c = int(str(name)[0], 36), int(str(name)[1], 36)
            assert near(pixel(15 + c * 30 + 15, 15 + r * 30 + 15), rgb(piece_color(k))), \
                (option[0], name)
    q = queens(6)
    places = q.first()
    pixel = render(draw_queens(q, places, cell=40), tmp_path / "q")
    board = {(int(str(q.option(k)[0])[1:], 36), int(str(q.option(k)[1])[1:], 36))
             for k in places}
    for r in range(6):
        for c in range(6):
            x, y = 10 + c * 40 + 20, 10 + r * 40 + 20 + 12  # below the crown
            expected = (0x22, 0x22, 0x22) if (r, c) in board else \
                rgb("#f0d9b5" if (r + c) % 2 == 0 else "#b58863")
            assert near(pixel(x, y), expected), (r, c)


@pytest.mark.slow
def test_browser_shows_board(tmp_path: Path) -> None:
    layout = Layout.x()
    answer = sudoku.solve_string("." * 81, layout=layout)
    puzzle = answer[:9] + "." * 72
    pixel = render(sudoku.draw_board(puzzle, answer, layout=layout, cell=40), tmp_path)
    pad, cell = 10, 40
    white, shade = (255, 255, 255), rgb(SHADE["diagonal"])
    for r in range(9):
        for c in range(9):
            corner = pixel(pad + c * cell + 5, pad + r * cell + 5)  # away from lines and text
            on_diagonal = r == c or r + c == 8
            assert near(corner, shade if on_diagonal else white), (r, c)
            ink = [pixel(pad + c * cell + x, pad + r * cell + y)
                   for x in range(8, 32) for y in range(8, 32)]
            blue = sum(near(p, rgb(FILLED), 40) for p in ink)
            black = sum(max(p) < 80 for p in ink)
            if r == 0:  # givens: black ink, no blue
                assert black > 15 and blue == 0, (r, c)
            else:
                assert blue > 15 and black == 0, (r, c)
    # the box lines are thick and dark, the cell lines thin and grey
    y = pad + 4 * cell + 5
    assert max(pixel(pad + 3 * cell - 1, y)) < 80 and max(pixel(pad + 3 * cell, y)) < 80
    across = [pixel(pad + cell + dx, y) for dx in range(-2, 3)]
    assert all(min(p) > 100 for p in across) and min(map(min, across)) < 230


# ----- --svg on the commands ------------------------------------------------------------


def test_dlx_command_draws_the_first_solution(tmp_path: Path, capsys) -> None:
    from dlx.cli import main

    source = tmp_path / "p.dlx"
    source.write_text(pentominoes(3, 20).to_dlx())
    picture = tmp_path / "p.svg"
    assert main(["--count", str(source), "--svg", str(picture)]) == 0
    assert capsys.readouterr().out == "8\n"
    problem = pentominoes(3, 20)
    assert picture.read_text() == draw(problem, problem.first()).svg
    none = tmp_path / "none.svg"
    source.write_text(langford(5).to_dlx())
    assert main([str(source), "--svg", str(none)]) == 0
    assert "no solution to draw" in capsys.readouterr().err and not none.exists()
    source.write_text(queens(5).to_dlx())
    assert main(["-n", "1", str(source), "--svg", str(tmp_path / "no" / "q.svg")]) == 4


def test_sudoku_command_draws_the_puzzle(tmp_path: Path, capsys) -> None:
    from sudoku.cli import main

    picture = tmp_path / "s.svg"
    assert main([TOP95_1, "--svg", str(picture)]) == 0
    assert picture.read_text() == sudoku.draw_board(TOP95_1,
                                                    sudoku.solve_string(TOP95_1)).svg
    assert main(["--variant", "x", "." * 81, "--svg", str(picture)]) == 0
    assert SHADE["diagonal"] in picture.read_text()
    clash = "11" + "." * 79
    assert main([clash, "--svg", str(picture)]) == 1  # unsolvable: the puzzle alone
    assert 'class="filled"' not in picture.read_text()
    assert main(["-f", "-", "--svg", str(picture)]) == 2
    assert "--svg draws one puzzle" in capsys.readouterr().err


def test_pictures_in_the_docs_are_up_to_date() -> None:
    """docs/img is what docs/make_pictures.py writes with today's drawing code."""
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("make_pictures",
                                                  root / "docs" / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    for name, svg in module.pictures().items():
        assert (root / "docs" / "img" / name).read_text(encoding="utf-8") == svg, \
            f"docs/img/{name} is stale: run python docs/make_pictures.py"


# ----- readable pictures (issue 30): labels that do not touch, killer sums clear of digits --


def _names(length: int, count: int = 8) -> list[str]:
    return [(chr(ord("A") + k) + "@" * length)[:length] if length > 1 else chr(ord("A") + k)
            for k in range(count)]


def _label_spans(root: ET.Element) -> list[tuple[float, float, float]]:
    """(left, right, top) of each item label, from its font size and characters (at most
    CHAR_WIDTH a character wide, a line at most 1.2 sizes high, as the fonts draw them)."""
    from dlx.draw import CHAR_WIDTH

    spans = []
    for t in root.iter(f"{SVG}text"):
        if t.get("class") != "item":
            continue
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        length = len(t.text) * CHAR_WIDTH * size
        if t.get("transform"):  # written upwards, centred on x
            spans.append((x - 0.6 * size, x + 0.6 * size, y - length))
        else:
            spans.append((x - length / 2, x + length / 2, y - size))
    return spans


@pytest.mark.parametrize("length", range(1, 13))
def test_cover_labels_never_overlap(length: int) -> None:
    names = _names(length)
    problem = dlx.ExactCover([[names[k], names[k + 1]] for k in range(0, 8, 2)])
    picture = draw_cover(problem, problem.first())
    root = parse(picture)
    spans = sorted(_label_spans(root))
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "item"] == names
    assert len(spans) == 8
    for (_, right, _), (left, _, _) in pairwise(spans):
        assert right <= left, (length, spans)
    assert all(top >= 0 for _, _, top in spans)  # inside the picture


@pytest.mark.slow
def test_browser_shows_long_labels_apart(tmp_path: Path) -> None:
    names = ["Ann@Monday-1", "Bob@Monday-1", "Ann@Tuesday2", "Bob@Tuesday2", "Cy"]
    problem = dlx.ExactCover([names[:2], names[2:4], [names[4]]])
    cell = 18
    picture = draw_cover(problem, problem.first(), cell=cell)
    pixel = render(picture, tmp_path)
    rects = [r for r in parse(picture).iter(f"{SVG}rect") if r.get("stroke") == "#333333"]
    left, top = float(rects[-1].get("x")), float(rects[-1].get("y"))
    for j in range(len(names) + 1):  # between two columns, above the matrix: no ink
        x = left + j * cell
        assert all(near(pixel(x, y), (255, 255, 255), 30) for y in range(int(top) - 2)), j
    for j in range(len(names)):  # and each column has its label's ink
        x0 = int(left + j * cell)
        assert any(max(pixel(x, y)) < 120 for x in range(x0 + 3, x0 + cell - 3)
                   for y in range(int(top) - 2)), j


@pytest.mark.slow
def test_browser_shows_killer_sums_clear_of_digits(tmp_path: Path) -> None:
    layout = Layout.killer(KILLER, block=(2, 2))
    answer = sudoku.solve_string("." * 16, layout=layout)
    cell, pad = 60, 15
    pixel = render(sudoku.draw_board("." * 16, answer, layout=layout, cell=cell), tmp_path)
    inset = cell // 10
    for cells, total in KILLER:
        r, c = divmod(cells[0], 4)
        x0, y0 = pad + c * cell, pad + r * cell
        # the sum is there, dark and bold, at the top left
        sum_ink = [pixel(x, y) for x in range(x0 + inset, x0 + cell // 2)
                   for y in range(y0 + inset, y0 + int(0.32 * cell))]
        assert sum(max(p) < 100 for p in sum_ink) > 20, total
        # no stub of the dashes beside it, nor under it before the digit starts
        left = [pixel(x, y) for x in range(x0 + inset - 1, x0 + inset + 1)
                for y in range(y0 + inset, y0 + int(0.3 * cell))]
        assert all(near(p, (255, 255, 255), 40) for p in left), total
        gap = [pixel(x, y) for x in range(x0 + inset + 2, x0 + cell - inset - 2)
               for y in range(y0 + int(0.35 * cell), y0 + int(0.42 * cell))]
        assert all(near(p, (255, 255, 255), 40) for p in gap), total
