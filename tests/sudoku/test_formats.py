"""The variant line formats (:mod:`sudoku.formats`) and the ``sudoku --variant`` command.

* every line of the variant files of ``../shared/data/sudoku_variants`` (skipped when
  absent) parses, and jigsaw and killer lines write back to themselves;
* the command solves the first SAMPLE lines of each file, in this process and as a
  subprocess with ``-j 2``, to the published solutions, in input order;
* malformed lines are usage errors (2) naming the line, and read_variant names the field
  and position at fault; random junk lets only SudokuError subclasses escape (hypothesis);
* ``--pretty`` draws lines exactly where regions (or boxes) change.

Killer tests need ``Layout.killer`` (another branch) and skip until it is there.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ExitCode
from sudoku import (
    FormatError,
    Layout,
    SudokuError,
    format_grid,
    parse_string,
    read_variant,
    solve_string,
    write_variant,
)
from sudoku.cli import main
from sudoku.formats import cage_map, killer_cages, read_killer

DATA = Path(__file__).resolve().parents[3] / "shared/data/sudoku_variants"
SAMPLE = 20
FILES = [  # (file, variant, box)
    ("x_sudoq_9x9", "x", None),
    ("windoku_sudoq_9x9", "windoku", None),
    ("jigsaw_janko_9x9", "jigsaw", None),
    ("jigsaw_janko_6x6", "jigsaw", None),
    ("rect_2x3_6x6_sudoq", "rect", (2, 3)),
    ("killer_janko_9x9", "killer", None),
    ("killer_janko_2x3_6x6", "killer", (2, 3)),
]
JIGSAW_6 = ("4...351.6.......2..3.......6.452...1 aaabbbaabbbcadddccddcccedfffeefffeee")


def _lines(name: str, count: int | None = None) -> list[str]:
    """The lines of a data file (all, or the first ``count``); skip if it is absent."""
    path = DATA / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path.read_text().splitlines()[:count]


def _box_args(box: tuple[int, int] | None) -> list[str]:
    return [] if box is None else ["--box", f"{box[0]}x{box[1]}"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ----- reading and writing lines --------------------------------------------------------------


@pytest.mark.parametrize(("name", "variant", "box"), FILES)
def test_every_line_parses(name, variant, box):
    for k, line in enumerate(_lines(name), 1):
        layout, givens = read_variant(line, variant, block=box)
        assert isinstance(layout, Layout) and len(givens) == layout.cells, f"line {k}"
        if variant == "jigsaw":
            assert write_variant("jigsaw", givens, layout=layout) == line
        if variant in ("x", "windoku", "rect"):
            assert givens == line and layout.block is not None


@pytest.mark.parametrize("name", ["killer_janko_9x9", "killer_janko_2x3_6x6",
                                  "killer_janko_2x2_4x4", "killer_krazydad_9x9"])
def test_killer_cages_round_trip(name):
    """CAGEMAP and SUMS read into cages and written back: the same fields (no layout
    needed, so this runs before Layout.killer exists)."""
    for line in _lines(name):
        cagemap, sums = line.split(" ")
        cages = killer_cages(cagemap, sums)
        assert sorted(c for cells, _ in cages for c in cells) == list(range(len(cagemap)))
        assert cage_map(cages, round(len(cagemap) ** 0.5)) == (cagemap, sums)


@pytest.mark.parametrize(("name", "box"), [("killer_janko_9x9", None),
                                           ("killer_janko_2x3_6x6", (2, 3))])
def test_killer_lines_round_trip(name, box):
    for line in _lines(name, SAMPLE):
        layout, givens, cages = read_killer(line, block=box)
        assert write_variant("killer", givens, layout=layout, cages=cages) == line
        with_givens = givens[:-1] + "5"
        again = write_variant("killer", with_givens, cages=cages)
        assert read_variant(again, "killer", block=box) == (layout, with_givens)


@pytest.mark.parametrize(("line", "variant", "box", "words"), [
    (JIGSAW_6.replace(" ", "  "), "jigsaw", None, ["GIVENS REGIONS", "3 fields"]),
    (JIGSAW_6[:-1], "jigsaw", None, ["REGIONS", "35 characters"]),
    (JIGSAW_6.replace(" aaab", " aaac"), "jigsaw", None, ["REGIONS", "region c has 7 cells"]),
    (JIGSAW_6.replace(" aaa", " a+a"), "jigsaw", None, ["REGIONS", "position 2"]),
    (JIGSAW_6[1:].replace(" ", ". "), "jigsaw", None, []),  # still fine: a blank moved
    ("." * 35 + "x " + JIGSAW_6.split()[1], "jigsaw", None, ["GIVENS", "'x'", "r6c6"]),
    ("." * 30 + " " + JIGSAW_6.split()[1], "jigsaw", None, ["GIVENS", "30 symbols"]),
    ("." * 80, "x", None, ["GIVENS", "80"]),
    ("." * 36, "windoku", None, ["GIVENS", "81 cells"]),
    ("." * 36, "rect", (3, 3), ["3x3", "6x6"]),
    ("0011 1,2,3", "killer", (1, 2), ["SUMS", "3 sums for 2 cages"]),
    ("0011 1,x", "killer", (1, 2), ["SUMS", "sum 2", "'x'", "not an int"]),
    ("0011 1,-2", "killer", (1, 2), ["SUMS", "sum 2"]),
    ("0021 1,2", "killer", (1, 2), ["CAGEMAP", "position 3", "r2c1", "'1'"]),
    ("00112 1,2", "killer", (1, 2), ["CAGEMAP", "5 characters"]),
    ("0011", "killer", (1, 2), ["CAGEMAP SUMS [GIVENS]", "got 1 field"]),
    ("0011 3,7 ...", "killer", (1, 2), ["GIVENS", "3 symbols"]),
])
def test_errors_name_the_field(line, variant, box, words):
    if not words:  # a control: the line is good
        read_variant(line, variant, block=box)
        return
    with pytest.raises(FormatError) as info:
        read_variant(line, variant, block=box)
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(("line", "variant", "box"), [
    ("." * 81, "rect", None),  # rect needs its boxes
    ("." * 81, "x", (3, 3)),  # and x takes none
    ("." * 81, "sudoku", None),
    (b"." * 81, "x", None),
    ("." * 81, "rect", [3, 3]),
])
def test_argument_errors(line, variant, box):
    with pytest.raises(SudokuError):
        read_variant(line, variant, block=box)


JUNK = st.text(alphabet="..0123456789abcdefxyzAB ,|-+\t\u00e9", max_size=120)
SHAPED = st.builds(lambda g, sep, m: g + sep + m,
                   st.text(alphabet=".123456789x", min_size=30, max_size=40),
                   st.sampled_from([" ", "  ", "\t", ""]),
                   st.text(alphabet="abcdefg01234,", min_size=30, max_size=40))


@pytest.mark.parametrize(("variant", "box"), [("x", None), ("windoku", None),
                                              ("jigsaw", None), ("rect", (2, 3)),
                                              ("killer", None), ("killer", (2, 3))])
@settings(max_examples=150, deadline=None)
@given(line=st.one_of(JUNK, SHAPED, st.text(max_size=100)))
def test_junk_raises_only_sudoku_errors(variant, box, line):
    try:
        layout, givens = read_variant(line, variant, block=box)
    except SudokuError:
        return
    assert len(givens) == layout.cells


# ----- the command --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "variant", "box"), FILES)
def test_command_solves_files(capsys, tmp_path, name, variant, box):
    lines = _lines(name, SAMPLE)
    answers = (DATA / "solutions" / f"{name}.txt").read_text().splitlines()[:SAMPLE]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "--variant", variant, *_box_args(box), "-f", str(path))
    assert (code, err) == (ExitCode.OK, "")
    assert out.splitlines() == answers
    code, out, _ = run(capsys, "--variant", variant, *_box_args(box), "--count",
                       "--limit", "2", "-f", str(path))
    assert out.splitlines() == ["1"] * len(lines)
    code, out, _ = run(capsys, "--variant", variant, *_box_args(box), "--unique", lines[0])
    assert (code, out) == (ExitCode.OK, answers[0] + "\n")


@pytest.mark.parametrize(("name", "variant", "box"),
                         [FILES[2], FILES[4], FILES[6]])
def test_command_subprocess_jobs(name, variant, box):
    lines = _lines(name, SAMPLE)
    answers = (DATA / "solutions" / f"{name}.txt").read_text().splitlines()[:SAMPLE]
    done = subprocess.run([sys.executable, "-m", "sudoku", "--variant", variant,
                           *_box_args(box), "-j", "2"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == answers


def test_malformed_lines_are_usage_errors(capsys, tmp_path):
    """Bad lines print the marker line on stdout, their line number on stderr, and exit 2;
    the good lines around them are solved, in order."""
    lines = _lines("jigsaw_janko_6x6", 3)
    answers = (DATA / "solutions" / "jigsaw_janko_6x6.txt").read_text().splitlines()[:3]
    path = tmp_path / "in.txt"
    path.write_text(f"# a comment\n{lines[0]}\n{lines[1].split()[0]}\n\n{lines[1]}\n"
                    f"{lines[2][:-1]}x\n{lines[2]}\n")
    code, out, err = run(capsys, "--variant", "jigsaw", "-f", str(path))
    assert code == ExitCode.USAGE
    mark = "# FormatError"
    assert out.splitlines() == ["# a comment", answers[0], mark, "", answers[1], mark,
                                answers[2]]  # line k answers line k
    assert "line 3: FormatError" in err and "line 6: FormatError" in err
    assert "REGIONS" in err and "line 2" not in err


@pytest.mark.parametrize("argv", [
    ["--variant", "rect", "." * 36],  # no --box
    ["--variant", "x", "--box", "3x3", "." * 81],
    ["--box", "2x3", "." * 36],
    ["--variant", "rect", "--box", "2y3", "." * 36],
    ["--variant", "rect", "--box", "7x7", "." * 36],
    ["--variant", "jigsaw", "--named", "inkala-2012"],
    ["--variant", "jigsaw", "." * 36],  # one field
    ["--variant", "tetris", "." * 81],
])
def test_variant_usage_errors(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == ExitCode.USAGE and out == "" and err


def test_alphabet_with_a_variant(capsys):
    line = _lines("rect_2x3_6x6_sudoq", 1)[0]
    answer = (DATA / "solutions" / "rect_2x3_6x6_sudoq.txt").read_text().splitlines()[0]
    moved = line.translate(str.maketrans("123456", "ABCDEF"))
    code, out, _ = run(capsys, "--variant", "rect", "--box", "2x3", "--alphabet", "ABCDEF",
                       moved)
    assert code == ExitCode.OK
    assert out.strip() == answer.translate(str.maketrans("123456", "ABCDEF"))


# ----- drawing --------------------------------------------------------------------------------


def test_pretty_jigsaw_draws_region_borders(capsys):
    line = _lines("jigsaw_janko_9x9", 1)[0]
    answer = (DATA / "solutions" / "jigsaw_janko_9x9.txt").read_text().splitlines()[0]
    regions = line.split()[1]
    code, out, _ = run(capsys, "--variant", "jigsaw", "--pretty", line)
    assert code == ExitCode.OK
    drawn = out.rstrip("\n").split("\n")
    side = 9
    assert len(drawn) == 2 * side + 1 and len({len(s) for s in drawn}) == 1
    assert set(drawn[0]) == set(drawn[-1]) == {"+", "-"}  # the frame
    for r in range(side):
        row = drawn[2 * r + 1]
        assert row[0] == row[-1] == "|"
        assert "".join(row[4 * c + 2] for c in range(side)) == answer[r * side:][:side]
        for c in range(1, side):  # the wall left of cell c
            differ = regions[r * side + c] != regions[r * side + c - 1]
            assert (row[4 * c] == "|") == differ, (r, c)
        if r:  # the rule above row r
            rule = drawn[2 * r]
            for c in range(side):
                differ = regions[r * side + c] != regions[(r - 1) * side + c]
                assert rule[4 * c + 1 : 4 * c + 4] == ("---" if differ else "   "), (r, c)


def test_pretty_rect_draws_box_lines(capsys):
    line = _lines("rect_2x3_6x6_sudoq", 1)[0]
    answer = (DATA / "solutions" / "rect_2x3_6x6_sudoq.txt").read_text().splitlines()[0]
    code, out, _ = run(capsys, "--variant", "rect", "--box", "2x3", "--pretty", line)
    assert code == ExitCode.OK
    drawn = out.rstrip("\n").split("\n")
    assert len(drawn) == 6 + 2  # 3 bands of 2 rows, a rule between bands
    rules = [k for k, s in enumerate(drawn) if set(s) <= {"-", "+"}]
    assert rules == [2, 5]
    rows = [s for k, s in enumerate(drawn) if k not in rules]
    for r, row in enumerate(rows):
        stacks = row.split(" | ")
        assert len(stacks) == 2 and "|" not in "".join(stacks)  # only between 3-column stacks
        assert "".join(row.split()).replace("|", "") == answer[6 * r : 6 * r + 6]


@pytest.mark.parametrize("make", [Layout.x, Layout.windoku])
def test_pretty_marks_the_cells_of_the_extra_units(make):
    """X and windoku: box lines as for the plain grid, and the cells of the diagonals or
    windows (the units that lines cannot show) in brackets, those and no others."""
    layout = make()
    answer = solve_string("." * 81, layout=layout)
    geo, values = parse_string(answer, layout=layout)
    drawn = format_grid(geo, values, pretty=True).split("\n")
    assert len(drawn) == 9 + 4 and len({len(s) for s in drawn}) == 1
    rules = [k for k, s in enumerate(drawn) if set(s) <= {"-", "+"}]
    assert rules == [0, 4, 8, 12]
    extra = {c for label, cells in zip(layout.labels, layout.units)
             if label.split()[0] in ("diagonal", "window") for c in cells}
    rows = [s for k, s in enumerate(drawn) if k not in rules]
    for r, row in enumerate(rows):
        cells = [row[4 * c + 1 : 4 * c + 4] for c in range(9)]
        assert "".join(t[1] for t in cells) == answer[9 * r : 9 * r + 9]
        for c, text in enumerate(cells):
            assert (text[0], text[2]) == (("[", "]") if 9 * r + c in extra else (" ", " "))
        assert [row[4 * c] for c in range(10)] == list("|  |  |  |")


def test_pretty_killer_dots_the_box_lines_inside_a_cage():
    """A killer's cages drawn solid; a box line that runs inside a cage, dotted."""
    rows = [[9 * r + c for c in range(9)] for r in range(9)]
    # cage 1: the first two cells of row 0, across no box line; cage 2: r1c3-r1c4, across
    # the line between boxes 1 and 2; cage 3: r3c1 over r4c1, across the line between
    # bands; every other cell a cage of its own
    pairs = [(0, 1), (11, 12), (18, 27)]
    cells = [c for pair in pairs for c in pair]
    grid = solve_string("." * 81)
    _, values = parse_string(grid)
    cages = [(pair, values[pair[0]] + values[pair[1]]) for pair in pairs]
    cages += [((c,), values[c]) for r in rows for c in r if c not in cells]
    layout = Layout.killer(cages)
    geo, _ = parse_string(grid, layout=layout)
    drawn = format_grid(geo, values, pretty=True, cages=layout.cages).split("\n")
    left = [s[: 4 * 9 + 1] for s in drawn]
    assert left[1][4] == " "  # inside cage 1: no line
    assert left[3][4 * 3] == ":"  # cage 2 crosses the box line between columns 2 and 3
    assert left[2 * 3][1:4] == "..."  # cage 3 crosses the line between rows 2 and 3
    assert left[2 * 3][5:8] == "---"  # beside it, two cages of one cell: solid
    assert left[3][4 * 6] == "|"  # a box line between cages: solid
    assert left[1][4 * 5] == "|"  # a line between two cages of one cell
    assert ":" not in "".join(s[4 * 9 + 1 :] for s in drawn if ":" not in s[: 4 * 9 + 1])


def test_pretty_killer_draws_cages_and_sums(capsys):
    line = _lines("killer_janko_2x3_6x6", 1)[0]
    code, out, _ = run(capsys, "--variant", "killer", "--box", "2x3", "--pretty", line)
    assert code == ExitCode.OK
    drawn = out.rstrip("\n").split("\n")
    assert len(drawn) == 2 * 6 + 1
    sums = [int(total) for total in line.split()[1].split(",")]
    width = 4 * 6 + 1  # the left grid; the sums' grid starts 3 spaces after it
    assert all(s[width : width + 3] == "   " for s in drawn)
    shown = [int(word) for s in drawn
             for word in s[width:].translate(str.maketrans("|-+:.", "     ")).split()]
    assert sorted(shown) == sorted(sums)


def test_region_letters_in_any_order():
    """Issue 30: REGIONS takes its letters in any order, as Layout.jigsaw does; the line is
    written back in first-use order."""
    givens, regions = JIGSAW_6.split()
    swapped = regions.translate(str.maketrans("abcdef", "fAcZeb"))
    layout, read = read_variant(f"{givens} {swapped}", "jigsaw")
    assert read == givens and layout.units == read_variant(JIGSAW_6, "jigsaw")[0].units
    assert write_variant("jigsaw", givens, layout=layout) == JIGSAW_6
    assert solve_string(givens, layout=layout) == solve_string(
        givens, layout=read_variant(JIGSAW_6, "jigsaw")[0])
    with pytest.raises(FormatError, match=r"'\+' at position 2 .* is no region label"):
        read_variant(f"{givens} {swapped[0]}+{swapped[2:]}", "jigsaw")


def test_a_variant_line_without_variant_suggests_it(capsys, tmp_path):
    """Issue 30: a jigsaw or killer line read as a plain puzzle says to give the variant."""
    jigsaw = JIGSAW_6
    killer = "0011001122332233 3,7,3,7"
    for line in (jigsaw, killer, killer + " " + "." * 16, "0" * 81 + " 45"):
        with pytest.raises(SudokuError, match=r"not a square grid.*--variant jigsaw\|killer"):
            parse_string(line)
    with pytest.raises(SudokuError) as info:
        parse_string("." * 80)  # a short line is only short
    assert "variant" not in str(info.value)
    path = tmp_path / "j.txt"
    path.write_text(jigsaw + "\n")
    assert main(["-f", str(path)]) == ExitCode.USAGE
    assert "sudoku --variant jigsaw|killer" in capsys.readouterr().err
