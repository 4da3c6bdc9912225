"""The rater, the explainer and the generator (``sudoku.rate``, ``sudoku.explain``,
``sudoku.generate``).

* every technique fires on a position where it must (constructed by hand, or a position
  reached by explaining a known puzzle), and its conclusion holds in the solution;
* soundness: every step of the explanation of many puzzles (generated, hypothesis-drawn,
  the hardest of the forum, every variant) agrees with the solution the engine finds;
* generated puzzles are unique and minimal (checked with ``count_solutions``, not with
  the generator's own code), symmetric, of the level asked, on every layout;
* calibration against qqwing when it is installed (skipped otherwise), and the shared
  data sets (skipped when absent).
"""

from __future__ import annotations

import doctest
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sudoku
from dlx import ExitCode
from sudoku import (
    ArgumentError,
    Layout,
    MultipleSolutionsError,
    NoSolutionError,
    count_solutions,
    explain,
    generate,
    generate_killer,
    hint,
    random_jigsaw,
    rate,
    solve_string,
)
from sudoku.candidates import Candidates, bits
from sudoku.cli import main
from sudoku.formats import read_killer, read_variant
from sudoku.generate import symmetry_orbits
from sudoku.grid import parse_string
from sudoku.rate import LEVELS, level_of
from sudoku.techniques import TECHNIQUES, Step

DATA = Path(__file__).resolve().parents[3] / "shared/data/sudoku"
QQWING = shutil.which("qqwing")
SQUARE = Layout.square(3)
FUNCTIONS = {name: function for name, _, function in TECHNIQUES}


def _lines(name: str, count: int | None = None) -> list[str]:
    path = DATA / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    lines = [s for line in path.read_text().splitlines() if (s := line.strip())]
    return lines[:count] if count else lines


def _solution(puzzle: str, layout: Layout | None = None) -> list[int]:
    """The puzzle's solution by the engine, as values."""
    return parse_string(solve_string(puzzle, layout=layout), None, layout)[1]


def _check_steps(puzzle: str, layout: Layout | None = None) -> list[Step]:
    """Explain ``puzzle`` and check every step against the engine's solution: no true
    candidate eliminated, no wrong value placed, every eliminated candidate present."""
    solution = _solution(puzzle, layout)
    geo, values = parse_string(puzzle, None, layout)
    grid = Candidates(geo.layout, values)
    steps = explain(puzzle, layout=layout)
    for step in steps:
        assert step.placements or step.eliminations, step
        for cell, value in step.placements:
            assert solution[cell] == value, (step, puzzle)
        for cell, value in step.eliminations:
            assert solution[cell] != value, (step, puzzle)
            assert grid.masks[cell] >> (value - 1) & 1, (step, "eliminates nothing")
        step.apply(grid)
    assert grid.values == solution
    return steps


# ----- each technique on a position where it must fire -------------------------------------


def _empty() -> Candidates:
    return Candidates(SQUARE, [0] * 81)


def _keep(grid: Candidates, cells, values) -> None:
    """Restrict ``cells`` to ``values``."""
    mask = sum(1 << (v - 1) for v in values)
    for c in cells:
        grid.masks[c] &= mask


def _drop(grid: Candidates, cells, values) -> None:
    for c in cells:
        for v in values:
            grid.eliminate(c, v)


def rc(r: int, c: int) -> int:
    return (r - 1) * 9 + c - 1


def test_constructed_singles_and_subsets():
    g = _empty()
    _keep(g, [5], [3])
    assert FUNCTIONS["naked single"](g).placements == ((5, 3),)
    g = _empty()
    _drop(g, [c for c in range(9) if c != 4], [7])
    assert FUNCTIONS["hidden single"](g).placements == ((4, 7),)
    g = _empty()  # 5 of box 1 only in row 1: the rest of row 1 loses 5
    _drop(g, [rc(2, 1), rc(2, 2), rc(2, 3), rc(3, 1), rc(3, 2), rc(3, 3)], [5])
    step = FUNCTIONS["locked candidates"](g)
    assert set(step.eliminations) == {(c, 5) for c in range(3, 9)}
    for k, name in ((2, "naked pair"), (3, "naked triple"), (4, "naked quad")):
        g = _empty()
        _keep(g, range(k), range(1, k + 1))
        step = FUNCTIONS[name](g)
        assert step.units == (0,) and set(step.eliminations) == {
            (c, v) for c in range(k, 9) for v in range(1, k + 1)}
    for k, name in ((2, "hidden pair"), (3, "hidden triple"), (4, "hidden quad")):
        g = _empty()
        _drop(g, range(k, 9), range(1, k + 1))
        step = FUNCTIONS[name](g)
        assert step.units == (0,) and set(step.eliminations) == {
            (c, v) for c in range(k) for v in range(k + 1, 10)}


@pytest.mark.parametrize("name, rows, cols", [
    ("x-wing", (1, 5), (2, 7)),
    ("swordfish", (1, 4, 7), (2, 5, 8)),
    ("jellyfish", (1, 3, 5, 8), (1, 4, 6, 9)),
])
def test_constructed_fish(name, rows, cols):
    g = _empty()
    for r in rows:
        _drop(g, [rc(r, c) for c in range(1, 10) if c not in cols], [4])
    step = FUNCTIONS[name](g)
    assert set(step.eliminations) == {(rc(r, c), 4) for c in cols for r in range(1, 10)
                                      if r not in rows}


def test_constructed_wings():
    g = _empty()  # pivot r1c1 {1,2}, arms r1c2 {1,3} and r4c1 {2,3}: z = 3
    _keep(g, [rc(1, 1)], [1, 2])
    _keep(g, [rc(1, 2)], [1, 3])
    _keep(g, [rc(4, 1)], [2, 3])
    step = FUNCTIONS["xy-wing"](g)
    assert set(step.eliminations) == {(rc(2, 1), 3), (rc(3, 1), 3), (rc(4, 2), 3),
                                      (rc(5, 2), 3), (rc(6, 2), 3)}
    g = _empty()  # pivot r1c1 {1,2,3}, arms r1c2 {1,3}, r1c3 {2,3}
    _keep(g, [rc(1, 1)], [1, 2, 3])
    _keep(g, [rc(1, 2)], [1, 3])
    _keep(g, [rc(1, 3)], [2, 3])
    step = FUNCTIONS["xyz-wing"](g)
    assert set(step.eliminations) == {(c, 3) for c in [*range(3, 9), 9, 10, 11, 18, 19, 20]}
    g = _empty()  # r1c1 and r5c9 {1,2}; 1 in row 9 only at r9c1 and r9c9
    _keep(g, [rc(1, 1), rc(5, 9)], [1, 2])
    _drop(g, [rc(9, c) for c in range(2, 9)], [1])
    step = FUNCTIONS["w-wing"](g)
    assert set(step.eliminations) == {(rc(1, 9), 2), (rc(5, 1), 2)}


KNOWN = {  # a technique: a puzzle and the index of a step that uses it (explained here)
    "simple coloring":
        (18, "...4...7....1.69.......318....84......3..5...7.........7.....24.85..7..1.2639.7.."),
    "x-chain":
        (26, ".6..5..7....83...99..1.......3...2....5...791.8..4..3.8.951....5....8.....7...5.."),
    "w-wing":
        (35, "..........4......2..8.46.....3..7..19.....5..78....4.9.6...1....15.8.9.4..9..5.23"),
    "xyz-wing":
        (28, ".....8..7...1.76.8....4.9....8...3...3...2..645.7...1.96..1......1..45..8..3....4"),
    "xy-wing":
        (20, ".1......352.9..1....94..5...4...6.722....8..61....7...........846.2.5........4..."),
    "jellyfish":
        (20, "....2....5.1..74.2.......1...3...........29..28.9.5.6..7..4.2..3....9.51...2.6..9"),
    "swordfish":
        (24, ".6..5..7....83...99..1.......3...2....5...791.8..4..3.8.951....5....8.....7...5.."),
    "naked quad":
        (15, "..618...9..1.....5.5....43......45....4.7...68...2..7..32.4.........3....196....."),
    "hidden triple":
        (24, ".........7.3...5.....518........6.2.43....95...78.....2........19....6.3.764....."),
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_technique_on_a_known_position(name):
    """The position before the step: the technique, called alone, fires there, and every
    candidate it eliminates is false in the solution."""
    index, puzzle = KNOWN[name]
    steps = explain(puzzle)
    assert steps[index].technique == name
    solution = _solution(puzzle)
    grid = Candidates(SQUARE, parse_string(puzzle)[1])
    for step in steps[:index]:
        step.apply(grid)
    step = FUNCTIONS[name](grid)
    assert step is not None and step.eliminations
    assert all(solution[c] != v for c, v in step.eliminations)
    assert name in step.describe(SQUARE)


def test_killer_cage_combination():
    layout = Layout.killer([((0, 1), 3), ((2, 3), 7)], (2, 2))  # {1,2} and {3,4}
    g = Candidates(layout, [0] * 16)
    step = FUNCTIONS["cage combination"](g)
    assert step.technique == "cage combination"
    assert set(step.eliminations) == {(0, 3), (0, 4), (1, 3), (1, 4)}


# ----- soundness ----------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31 - 1))
def test_every_step_is_true_on_generated_puzzles(seed):
    _check_steps(generate(9, seed=seed))


def test_every_step_is_true_on_hard_puzzles():
    """The forum's hardest puzzles call on every technique before the last resort."""
    lines = _lines("forum_hardest_1905_11plus")
    for puzzle in random.Random(13).sample(lines, 12) + _lines("norvig_top95", 12):
        _check_steps(puzzle)


@pytest.mark.parametrize("layout", [Layout.x(), Layout.windoku(), Layout.rect(2, 3),
                                    Layout.rect(3, 4), Layout.square(2), Layout.square(4)],
                         ids=["x", "windoku", "6x6", "12x12", "4x4", "16x16"])
def test_every_step_is_true_on_layouts(layout):
    for seed in range(3):
        puzzle = generate(layout, seed=seed, max_nodes=20_000)
        steps = _check_steps(puzzle, layout)
        assert rate(puzzle, layout=layout).steps == len(steps)


def test_jigsaw_and_killer_steps():
    jigsaw = random_jigsaw(9, seed=4)
    _check_steps(generate(jigsaw, seed=1), jigsaw)
    for seed in range(3):
        layout, givens = generate_killer(seed=seed)
        _check_steps(givens, layout)


# ----- explain, hint, rate ------------------------------------------------------------------


def test_explain_and_hint():
    puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    steps = explain(puzzle)
    assert steps[0] == hint(puzzle)
    assert sum(len(s.placements) for s in steps) == puzzle.count(".")
    done = solve_string(puzzle)
    assert hint(done) is None
    half = list(puzzle)
    for step in steps[:10]:
        for cell, value in step.placements:
            half[cell] = str(value)
    assert hint("".join(half)) == steps[10]
    with pytest.raises(MultipleSolutionsError):
        explain("." * 81)
    grid = Candidates(SQUARE, parse_string(puzzle)[1])  # a player's wrong entry
    cell = puzzle.index(".")
    wrong = next(v for v in bits(grid.masks[cell]) if str(v) != done[cell])
    with pytest.raises(NoSolutionError):
        hint(puzzle[:cell] + str(wrong) + puzzle[cell + 1:])
    with pytest.raises(sudoku.ClashError, match="row 1"):
        rate("11" + "." * 79)
    board = [list(puzzle[r * 9:(r + 1) * 9]) for r in range(9)]
    assert explain(board) == steps and board[0][0] == "."  # a board is only read


def test_rating_scale_and_levels():
    assert [name for name, _, _ in LEVELS] == ["simple", "easy", "intermediate", "expert",
                                               "master", "extreme"]
    ratings = [rating for _, rating, _ in TECHNIQUES]
    assert ratings == sorted(ratings) and ratings[0] == 1.0
    assert level_of(1.0) == "simple" and level_of(1.5) == "easy"
    assert level_of(3.4) == "intermediate" and level_of(3.5) == "expert"
    assert level_of(6.5) == "master" and level_of(7.0) == level_of(11.9) == "extreme"
    r = rate(_lines("forum_hardest_1905_11plus")[0])
    assert r.level == "extreme" and r.hardest == "search" and r.nodes > 0
    assert r.qqwing == "expert" and str(r).startswith("extreme ")


def test_forum_hardest_all_extreme():
    """Sudoku Explainer rates these >= 11: every one needs the last resort here (a
    sample; all 48,766 were rated for the closing note)."""
    lines = _lines("forum_hardest_1905_11plus")
    for puzzle in random.Random(5).sample(lines, 60):
        assert rate(puzzle).level == "extreme"


def test_euler96_levels_match_qqwing():
    """qqwing (``qqwing --solve --stats``) rates these 50 as 12 simple, 28 easy, 9
    intermediate, 1 expert: so do we (the same level for every puzzle)."""
    from collections import Counter

    levels = Counter(rate(p).qqwing for p in _lines("euler96_easy50"))
    assert levels == {"simple": 12, "easy": 28, "intermediate": 9, "expert": 1}


# ----- the generator ------------------------------------------------------------------------


def _clues(puzzle: str) -> list[int]:
    return [k for k, ch in enumerate(puzzle) if ch != "."]


def _assert_unique_minimal(puzzle: str, layout: Layout | None = None,
                           orbits: list[tuple[int, ...]] | None = None) -> None:
    """By count_solutions: one solution, and every clue orbit is needed."""
    assert count_solutions(puzzle, 2, layout=layout) == 1
    clues = set(_clues(puzzle))
    for orbit in orbits or [(k,) for k in clues]:
        if set(orbit) <= clues:
            less = list(puzzle)
            for k in orbit:
                less[k] = "."
            assert count_solutions("".join(less), 2, layout=layout) == 2


@pytest.mark.parametrize("symmetry", ["none", "rotational", "diagonal", "mirror"])
def test_generate_symmetric_unique_minimal(symmetry):
    for seed in range(2):
        puzzle = generate(9, symmetry=symmetry, seed=seed)
        assert generate(9, symmetry=symmetry, seed=seed) == puzzle
        clues = set(_clues(puzzle))
        image = {"none": lambda r, c: (r, c), "rotational": lambda r, c: (8 - r, 8 - c),
                 "diagonal": lambda r, c: (c, r), "mirror": lambda r, c: (r, 8 - c)}[symmetry]
        assert {image(*divmod(k, 9))[0] * 9 + image(*divmod(k, 9))[1] for k in clues} == clues
        _assert_unique_minimal(puzzle, None, symmetry_orbits(SQUARE, symmetry))


@pytest.mark.parametrize("level", ["simple", "easy", "intermediate", "expert", "master",
                                   "extreme"])
def test_generate_difficulty(level):
    puzzle = generate(9, difficulty=level, seed=3)
    assert rate(puzzle).level == level
    _assert_unique_minimal(puzzle)


def test_generate_not_minimal_stays_in_band():
    puzzle = generate(9, difficulty="simple", minimal=False, seed=4)
    assert rate(puzzle).level == "simple" and count_solutions(puzzle, 2) == 1
    low, high = 2.0, 3.4
    r = rate(generate(9, difficulty=(low, high), seed=4))
    assert low <= r.rating <= high


@pytest.mark.parametrize("layout", [Layout.x(), Layout.windoku(), Layout.rect(2, 3),
                                    Layout.rect(2, 4), Layout.square(2)],
                         ids=["x", "windoku", "6x6", "8x8", "4x4"])
def test_generate_variants(layout):
    puzzle = generate(layout, symmetry="rotational", seed=2)
    _assert_unique_minimal(puzzle, layout, symmetry_orbits(layout, "rotational"))


def test_generate_sizes():
    assert len(generate(6, seed=1)) == 36 and len(generate(4, seed=1)) == 16
    big = generate(16, seed=1, max_nodes=5000)
    assert len(big) == 256 and count_solutions(big, 2) == 1


@pytest.mark.slow
def test_generate_16x16_minimal():
    puzzle = generate(16, seed=3)
    _assert_unique_minimal(puzzle, None, [(k,) for k in random.Random(1).sample(
        _clues(puzzle), 16)])


def test_generate_jigsaw():
    layout = random_jigsaw(9, seed=7)
    assert sorted(len(u) for u in layout.units) == [9] * 27
    puzzle = generate(layout, seed=1)
    _assert_unique_minimal(puzzle, layout)
    assert random_jigsaw(9, seed=7) == layout


def test_generate_killer():
    for seed in range(3):
        layout, givens = generate_killer(seed=seed)
        cells = sorted(c for cage, _ in layout.cages for c in cage)
        assert cells == list(range(81))  # the cages cover the grid
        assert max(len(cage) for cage, _ in layout.cages) <= 4
        _assert_unique_minimal(givens, layout)  # each given needed
        assert generate_killer(seed=seed) == (layout, givens)
    layout, givens = generate_killer((2, 3), seed=1)
    assert layout.side == 6 and count_solutions(givens, 2, layout=layout) == 1


def test_generate_arguments():
    for bad in ({"difficulty": "hard"}, {"difficulty": (3, 2)}, {"symmetry": "spiral"},
                {"seed": 1.5}, {"seed": True}, {"minimal": 1}, {"attempts": 0}):
        with pytest.raises(ArgumentError):
            generate(9, **bad)
    for size in (3, 7, 37, "9", True):
        with pytest.raises(ArgumentError):
            generate(size)
    with pytest.raises(ArgumentError, match="generate_killer"):
        generate(Layout.killer([((0, 1), 3)], (2, 2)))
    with pytest.raises(sudoku.SearchStoppedError, match="attempts"):
        generate(4, difficulty="extreme", attempts=3, seed=1)
    with pytest.raises(ArgumentError):
        generate_killer((3, 3), max_cage=10)


def test_doctests():
    import sys

    for name in ("sudoku", "sudoku.explain", "sudoku.rate", "sudoku.generate"):
        assert doctest.testmod(sys.modules[name]).failed == 0  # sudoku.rate is the function


# ----- qqwing -------------------------------------------------------------------------------


needs_qqwing = pytest.mark.skipif(QQWING is None, reason="qqwing is not installed")


def _qqwing(*argv: str) -> str:
    return subprocess.run([QQWING, *argv], capture_output=True, text=True, check=True,
                          timeout=300).stdout


@needs_qqwing
@pytest.mark.parametrize("level", ["simple", "easy", "intermediate", "expert"])
def test_qqwing_levels_agree(level):
    """qqwing's puzzles of a level rate as that level (the closing note rates 250 each)."""
    puzzles = [s for s in _qqwing("--generate", "12", "--difficulty", level,
                                  "--one-line").split() if len(s) == 81]
    assert len(puzzles) == 12
    assert [rate(p).qqwing for p in puzzles] == [level] * 12


@needs_qqwing
def test_qqwing_rates_ours_alike():
    """qqwing's own solver (``--solve --stats``) gives our puzzles our level."""
    ours = {level: generate(9, difficulty=level, seed=11) for level in
            ("simple", "easy", "intermediate", "expert")}
    out = subprocess.run([QQWING, "--solve", "--stats", "--one-line"], input="\n".join(
        ours.values()) + "\n", capture_output=True, text=True, check=True).stdout
    said = [line.split(":")[1].strip().lower() for line in out.splitlines()
            if line.startswith("Difficulty")]
    assert said == list(ours)


# ----- the command --------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_command_generate(capsys):
    code, out, _ = run(capsys, "--generate", "3", "--difficulty", "easy", "--symmetry",
                       "mirror", "--seed", "9")
    puzzles = out.split()
    assert code == ExitCode.OK and len(puzzles) == 3
    assert run(capsys, "--generate", "3", "--difficulty", "easy", "--symmetry", "mirror",
               "--seed", "9")[1] == out
    for p in puzzles:
        assert rate(p).level == "easy"
    code, out, _ = run(capsys, "--generate", "1", "--variant", "killer", "--seed", "2")
    layout, givens, _ = read_killer(out.strip())
    assert count_solutions(givens, 2, layout=layout) == 1
    code, out, _ = run(capsys, "--generate", "1", "--variant", "jigsaw", "--seed", "2")
    layout, givens = read_variant(out.strip(), "jigsaw")
    assert count_solutions(givens, 2, layout=layout) == 1
    code, out, _ = run(capsys, "--generate", "1", "--box", "2x3", "--seed", "2")
    assert count_solutions(out.strip(), 2, layout=Layout.rect(2, 3)) == 1


def test_command_rate_and_explain(capsys, tmp_path):
    path = tmp_path / "p.txt"
    easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    hardest = _lines("forum_hardest_1905_11plus")[0]
    path.write_text(f"{easy}\n# a comment\n{'.' * 81}\n{hardest}\n")
    code, out, err = run(capsys, "--rate", "-f", str(path))
    rated = out.splitlines()  # one line per line, the failed one's the marker
    assert rated[:3] == ["simple 1.0", "# a comment", "# MultipleSolutionsError"]
    assert len(rated) == 4 and rated[3].startswith("extreme")
    assert code == ExitCode.UNSOLVED and "line 3: MultipleSolutionsError" in err
    code, out, _ = run(capsys, "--explain", easy)
    assert code == ExitCode.OK
    assert out.startswith(" 1. naked single: r5c6 = 4") and "rating: simple 1.0" in out
    code, _, err = run(capsys, "--explain", easy, "--seed", "3")
    assert code == ExitCode.USAGE and "--seed" in err
    code, _, err = run(capsys, "--generate", "2", "--rate")
    assert code == ExitCode.USAGE


def test_hostile_arguments():
    puzzle = generate(9, seed=1)
    for call in (rate, explain, hint):
        with pytest.raises(ArgumentError):
            call(puzzle, backend="gpu")
        with pytest.raises(sudoku.ShapeError):  # as count_solutions says
            call(puzzle.encode())
        with pytest.raises(sudoku.ShapeError):
            call(puzzle[:80])
        with pytest.raises(sudoku.ShapeError):
            call(None)
        with pytest.raises(sudoku.SymbolError, match="r1c"):
            call("x" + puzzle[1:])
        with pytest.raises(ArgumentError):
            call(puzzle, layout="x")
    with pytest.raises(sudoku.ShapeError):
        rate(puzzle, layout=Layout.rect(2, 3))


def test_threads_agree():
    """Explaining is thread-safe: each call has its own candidates grid."""
    from concurrent.futures import ThreadPoolExecutor

    puzzles = [generate(9, seed=s) for s in range(6)] + _lines("norvig_top95", 6)
    alone = [explain(p) for p in puzzles]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(explain, puzzles * 2)) == alone * 2


@pytest.mark.parametrize("side", [9, 16])
def test_a_starved_generator_still_removes_naked_singles(side):
    """R5 (issue 32): with ``max_nodes=1`` every uniqueness check stops, so only the cells
    whose peers' clues hold the other N-1 values may go; they were kept, and the solved
    grid came back with no blank."""
    puzzle = generate(side, seed=1, max_nodes=1)
    assert puzzle.count(".") > 0
    assert count_solutions(puzzle, 2) == 1
