"""Fast checks of the benchmark tooling: baseline solvers, peer adapters, puzzle files, report."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import sudoku
from benchmarks import peers, report
from benchmarks.cases import EXACT_COVER_CASES, EXACT_COVER_DIR, LONG, numba_available, param
from benchmarks.grid import parse
from benchmarks.puzzles import (
    ENV_VAR,
    SUBSETS,
    is_solution,
    load_set,
    puzzle_dir,
    read_puzzles,
    set_path,
)
from benchmarks.solvers import SOLVERS, algorithm_x_dict
from dlx.problems import langford, pentominoes, queens

SOLVED_16 = (
    "D92BFCA1G6E743854CFA35G89D1276EB3E71462DF58BC9GAG56897EBA3C4FD21C7G5A8BF3261E49D2D84"
    "C31E5B79AF6G1BAE2964DFG8375C6F935D7G4CAEB218F3EG129578BA6CD49ABCGF87645D213E5842DA36"
    "E19CGB7F761DBE4C2G3F58A9B4C97G528AD31EF68256E1F9C74GDAB3E13F64DAB9258GC7AGD78BC31EF69542"
)  # gecode_16x16.txt line 1's solution

KNOWN = [  # (puzzle, its unique solution)
    pytest.param(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        id="leetcode37",
    ),
    pytest.param(
        "1...34.8....8..5....4.6..21.18......3..1.2..6......81.52..7.9....6..9....9.64...2",
        "152934687763821549984567321618493275375182496249756813521378964436219758897645132",
        id="norvig_hardest-7",
    ),
    pytest.param(".2.....13.....4.", "1234432134122143", id="4x4"),
    pytest.param(
        "".join("." if i % 3 == 0 else c for i, c in enumerate(SOLVED_16)), SOLVED_16, id="16x16"
    ),
]

UNSOLVABLE = [
    pytest.param("11" + "." * 79, id="clashing-givens"),
    pytest.param(".12345678" + "9" + "." * 71, id="no-digit-for-a-cell"),
    pytest.param("123456789" * 2 + "." * 63, id="clashing-rows"),
]

CROSS_CHECKS = [  # (set, first lines, solvers): backtracking needs minutes on top95
    ("norvig_top95", 20, ["norvig", "algorithm_x_dict"]),
    ("euler96_easy50", 20, list(SOLVERS)),
]


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize(("puzzle", "expected"), KNOWN)
def test_solves_known_puzzles(name: str, puzzle: str, expected: str) -> None:
    solved = SOLVERS[name](puzzle)
    assert solved.solution == expected
    assert solved.nodes >= 0


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("puzzle", UNSOLVABLE)
def test_unsolvable_gives_none(name: str, puzzle: str) -> None:
    assert SOLVERS[name](puzzle).solution is None


@pytest.mark.parametrize("name", SOLVERS)
def test_bad_input_raises(name: str) -> None:
    with pytest.raises(ValueError, match="characters"):
        SOLVERS[name]("123")
    with pytest.raises(ValueError, match="bad character"):
        SOLVERS[name]("x" + "." * 80)


@pytest.mark.parametrize(("set_name", "count", "names"), CROSS_CHECKS)
def test_solvers_agree_on_shared_sets(set_name: str, count: int, names: list[str]) -> None:
    path = set_path(set_name)
    solutions = path.parent / "solutions" / path.name
    if not (path.is_file() and solutions.is_file()):
        pytest.skip(f"{path} or its solutions not found")
    puzzles = read_puzzles(path)[:count]
    expected = read_puzzles(solutions)[:count]
    for name in names:
        assert [SOLVERS[name](p).solution for p in puzzles] == expected, name


def test_is_solution() -> None:
    puzzle, solution = KNOWN[0].values
    assert is_solution(puzzle, solution)
    assert is_solution(puzzle.replace(".", "0"), solution)
    assert not is_solution(puzzle, None)
    assert not is_solution(puzzle, solution[:-1])
    assert not is_solution("6" + puzzle[1:], solution)  # contradicts a given
    swapped = solution[1] + solution[0] + solution[2:]  # breaks the columns
    assert not is_solution("." * 81, swapped)
    assert not is_solution("." * 81, "123456789" * 9)  # rows fine, columns not


def test_parse_zero_and_dot_blanks() -> None:
    assert parse("1.0." + "." * 12) == [1] + [0] * 15


def test_read_puzzles_and_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mine.txt").write_text(
        "# header\n\n  .2.....13.....4.  \n# more\n1234432134122143\n"
    )
    assert read_puzzles(tmp_path / "mine.txt") == [".2.....13.....4.", "1234432134122143"]
    assert puzzle_dir(tmp_path) == tmp_path
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert set_path("mine") == tmp_path / "mine.txt"
    monkeypatch.delenv(ENV_VAR)
    assert puzzle_dir().parts[-3:] == ("shared", "data", "sudoku")


def test_load_set_and_subsets(tmp_path: Path) -> None:
    (tmp_path / "norvig_top95.txt").write_text("".join(f"puzzle{i}\n" for i in range(95)))
    assert load_set("norvig_top95", tmp_path)[-1] == "puzzle94"
    set_name, lines = SUBSETS["norvig_top95_sub65"]
    assert set_name == "norvig_top95" and len(lines) == len(set(lines)) == 65
    assert load_set("norvig_top95_sub65", tmp_path) == [f"puzzle{i}" for i in lines]
    with pytest.raises(FileNotFoundError):
        load_set("no_such_set", tmp_path)


def _bench(
    group: str,
    solver: str,
    median: float,
    puzzles: int,
    nodes: int | None,
    **extra: object,
) -> dict:
    """One benchmark entry as pytest-benchmark saves it, reduced to what the report reads."""
    info: dict[str, object] = {"solver": solver, "puzzle_set": group, "puzzles": puzzles}
    if nodes is not None:
        info["nodes"] = nodes
    info.update(extra)
    return {
        "group": group,
        "name": f"test[{solver}]",
        "extra_info": info,
        "stats": {"median": median, "rounds": 3},
    }


def test_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            {
                "benchmarks": [
                    _bench("sudoku-a", "slow", 0.5, 10, 1000, median_per_puzzle_s=0.02,
                           max_per_puzzle_s=0.3),
                    _bench("sudoku-a", "fast", 0.01, 10, 20, updates=1234, median_per_puzzle_s=5e-4,
                           max_per_puzzle_s=0.004),
                    _bench("sudoku-a", "peer", 0.02, 10, None, note="no nodes"),
                    _bench("exact-cover-q", "dlx", 2.0, 1, 16536, updates=312479, solutions=724),
                    _bench("exact-cover-q", "other", 3e-6, 1, None, solutions=724, note="slack"),
                ]
            }
        )
    )
    out = tmp_path / "out"
    assert report.main([str(results), "--out", str(out)]) == 0
    table = (out / "results.md").read_text()
    assert table.strip() in capsys.readouterr().out
    assert "## sudoku-a" in table and "## exact-cover-q" in table
    # Sudoku: median / puzzle, mean / puzzle, slowest, ratio, nodes and updates per puzzle.
    assert "| fast | 10 | 500 µs | 1 ms | 4 ms | 1.00x | 2 | 123.4 | 3 |  |" in table
    assert "| slow | 10 | 20 ms | 50 ms | 300 ms | 50.00x | 100 | - | 3 |  |" in table
    assert "| peer | 10 | - | 2 ms | - | 2.00x | - | - | 3 | no nodes |" in table
    assert table.index("| fast | 10") < table.index("| peer | 10") < table.index("| slow | 10")
    # Single problems: the round median, nodes, updates and solutions.
    assert "| other | 3 µs | 1.00x | - | - | 724 | 3 | slack |" in table
    assert "| dlx | 2 s | 666666.67x | 16,536 | 312,479 | 724 | 3 |  |" in table
    if importlib.util.find_spec("matplotlib") is not None:  # the optional `bench` extra
        assert (out / "time_vs_nodes.png").read_bytes().startswith(b"\x89PNG")
    else:
        assert not (out / "time_vs_nodes.png").exists()


def test_report_rows() -> None:
    rows = report.load_rows(
        {"benchmarks": [_bench("g", "x", 0.75, 3, 30, updates=60, median_per_puzzle_ms=50.0)]}
    )
    assert rows == [
        report.Row(group="g", solver="x", puzzle_set="g", puzzles=3, seconds_per_puzzle=0.25,
                   nodes_per_puzzle=10.0, median_per_puzzle=0.05, updates_per_puzzle=20.0,
                   rounds=3)
    ]
    assert report.format_seconds(None) == "-" and report.format_seconds(2.5e-9) == "2.5 ns"
    assert report.format_count(1234.0) == "1,234" and report.format_count(2.25) == "2.2"


def test_report_without_matplotlib(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"benchmarks": [_bench("g", "x", 1.0, 1, 5)]}))
    assert report.main([str(results)]) == 0
    assert "matplotlib" in capsys.readouterr().err
    assert (tmp_path / "results.md").exists()
    assert not (tmp_path / "time_vs_nodes.png").exists()


# ----- peers (optional libraries: their tests skip when the library is missing) ----------

PEER_SUDOKU = {"xcover": peers.xcover_solve, "exact_cover": peers.exact_cover_solve}


@pytest.mark.parametrize(("puzzle", "expected"), KNOWN)
def test_peer_reduction_is_the_engines(puzzle: str, expected: str) -> None:
    """The peers get the very problem our engine searches: same rows, columns and order."""
    cover = peers.reduce_puzzle(puzzle)
    assert cover is not None
    engine = sudoku.to_exact_cover(puzzle)
    assert np.array_equal(cover.matrix(), engine.to_matrix().astype(bool))
    assert cover.decode(engine.first(backend="python")) == expected


def test_peer_reduction_clash() -> None:
    assert peers.reduce_puzzle("11" + "." * 79) is None
    solved = KNOWN[0].values[1]
    assert peers.reduce_puzzle(solved).n_items == 0


@pytest.mark.parametrize("name", PEER_SUDOKU)
@pytest.mark.parametrize(("puzzle", "expected"), [*KNOWN, pytest.param(
    KNOWN[0].values[1], KNOWN[0].values[1], id="already-solved")])
def test_peer_solves_known_puzzles(name: str, puzzle: str, expected: str) -> None:
    pytest.importorskip(name)
    assert PEER_SUDOKU[name](puzzle) == expected


@pytest.mark.parametrize("name", PEER_SUDOKU)
@pytest.mark.parametrize("puzzle", UNSOLVABLE)
def test_peer_unsolvable_gives_none(name: str, puzzle: str) -> None:
    pytest.importorskip(name)
    assert PEER_SUDOKU[name](puzzle) is None


@pytest.mark.parametrize(
    ("problem", "count"),
    [(queens(6), 4), (queens(3), 0), (langford(4), 2), (langford(5), 0), (queens(8), 92),
     (pentominoes(3, 20), 8)],
    ids=["queens6", "queens3", "langford4", "langford5", "queens8", "pentomino3x20"],
)
def test_peer_counts(problem, count: int) -> None:
    """Counts agree with the engine's; secondary items (queens) go to exact_cover as slack
    rows; the dict-of-sets peer branches on primary items only."""
    assert problem.count(backend="python") == count
    assert algorithm_x_dict.count_cover(problem) == count
    if importlib.util.find_spec("xcover"):
        arrays = peers.xcover_arrays(problem)
        assert peers.xcover_count(arrays) == count
        first = peers.xcover_first(arrays)
        assert first is None if not count else problem.is_solution(first)
    if importlib.util.find_spec("exact_cover"):
        matrix = peers.exact_cover_matrix(problem)
        assert matrix.shape == (len(problem) + len(problem.secondary), len(problem.items))
        assert peers.exact_cover_count(matrix) == count
        first = peers.exact_cover_first(problem, matrix)
        assert first is None if not count else problem.is_solution(first)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")  # registered in benchmarks/
def test_cases() -> None:
    assert all(case.path.name == f"{case.name}.dlx" for case in EXACT_COVER_CASES)
    solver, case = next(iter(LONG))
    assert [m.name for m in param(solver, case, 1).marks] == ["long"]
    assert not param("dlx-numba", "queens10", 1).marks
    assert param("dlx-numba", "queens10", 1).id == "queens10-dlx-numba"


# ----- Knuth's DLX1 (its output parsed; the binary itself is not needed here) -------------

DLX1_STDERR = {  # real stderr of `dlx1 v1 m0 < file` (dlx1.w, items/options version)
    "knuth_dlx1_example": (
        "(6 options, 5+2 items, 22 entries successfully read)\n"
        "Altogether 1 solution, 418+468 mems, 30 updates, 620 bytes, 6 nodes.\n"
    ),
    "langford9": (
        "(108 options, 27+0 items, 432 entries successfully read)\n"
        "Altogether 0 solutions, 11093+2670373 mems, 168205 updates, 7840 bytes, 10797 nodes.\n"
    ),
    "queens8": (
        "(64 options, 16+30 items, 320 entries successfully read)\n"
        "Altogether 92 solutions, 11090+307457 mems, 21456 updates, 6656 bytes, 1223 nodes.\n"
    ),
}
DLX1_TOTALS = {  # (solutions, nodes, updates): those of ../shared/data/exact_cover/SOURCES.md
    "knuth_dlx1_example": (1, 6, 30),
    "langford9": (0, 10_797, 168_205),
    "queens8": (92, 1_223, 21_456),
}


@pytest.mark.parametrize("name", DLX1_STDERR)
def test_parse_dlx1(name: str) -> None:
    totals = peers.parse_dlx1(DLX1_STDERR[name])
    assert totals == DLX1_TOTALS[name]
    assert (totals.solutions, totals.nodes, totals.updates) == DLX1_TOTALS[name]


def test_parse_dlx1_new_and_colored_totals() -> None:
    """Knuth's current dlx1 ends its totals ``nodes, ccost 22%.``; DLX2 adds cleansings."""
    new = ("(64 options, 16+30 items, 320 entries successfully read)\n"
           "Altogether 92 solutions, 91+265184 mems, 21456 updates, 7424 bytes, 1223 nodes,"
           " ccost 22%.\n")
    assert peers.parse_dlx1(new) == DLX1_TOTALS["queens8"]
    dlx2 = ("Altogether 1 solution, 156935+1727951 mems, 105575 updates, 15332 cleansings, "
            "52540 bytes, 1001 nodes, ccost 3%.\n")
    assert peers.parse_dlx1(dlx2) == (1, 1001, 105575)
    with pytest.raises(ValueError, match="no DLX1 totals"):
        peers.parse_dlx1("Altogether 92 solutions, 1+2 mems, 3 updates, 4 bytes, 5 nodes, "
                         "ccost 2\n")  # cut short: no totals


def test_parse_dlx1_without_totals() -> None:
    with pytest.raises(ValueError, match="no DLX1 totals"):
        peers.parse_dlx1("Unknown item name!\n3: x1 y9\n")


def _fake_dlx1(tmp_path: Path, stderr: str, status: int = 0) -> Path:
    """A shell script standing in for DLX1: reads stdin, prints ``stderr``, exits ``status``."""
    (tmp_path / "out.txt").write_text(stderr)
    script = tmp_path / "dlx1"
    script.write_text(f'#!/bin/sh\ncat > /dev/null\ncat "{tmp_path}/out.txt" >&2\nexit {status}\n')
    script.chmod(0o755)
    return script


@pytest.mark.skipif(sys.platform == "win32", reason="a /bin/sh script stands in for DLX1")
def test_dlx1_count_runs_and_parses(tmp_path: Path) -> None:
    dlx = tmp_path / "queens8.dlx"
    dlx.write_text("r0 c0 | a0 b0\nr0 c0 a0 b0\n")
    fake = _fake_dlx1(tmp_path, DLX1_STDERR["queens8"])
    assert peers.dlx1_count(fake, dlx) == DLX1_TOTALS["queens8"]
    for stderr, status in [(DLX1_STDERR["queens8"], 255), ("TIMEOUT!\n", 0), ("", 0)]:
        with pytest.raises(RuntimeError, match="dlx1"):
            peers.dlx1_count(_fake_dlx1(tmp_path, stderr, status), dlx)


# ----- the hard group's engine runs ------------------------------------------------------


def test_hard_group_reports_a_capped_plain_search_as_unsolved() -> None:
    """``dlx-plain`` stopped by its cap is a row "not solved" with its nodes, not a failed
    benchmark (``first`` raises SearchStoppedError when its budget runs out)."""
    from benchmarks.test_bench_hard import _PLAIN_SOLVED, _engine

    if not numba_available():
        pytest.skip("numba is not installed")
    puzzle = KNOWN[0].values[0]
    answer, nodes = _engine(puzzle, "plain", 0.0)
    assert answer is None and nodes <= 1
    assert _engine(puzzle, "plain", 60.0)[0] == _PLAIN_SOLVED


class _Untimed:
    """Just enough of pytest-benchmark's fixture to run a benchmark body once, untimed."""

    def __init__(self) -> None:
        self.group = ""
        self.extra_info: dict[str, object] = {}

    def pedantic(self, fn, rounds: int = 1, iterations: int = 1):  # type: ignore[no-untyped-def]
        return fn()


@pytest.mark.slow
def test_mcc_benchmark_warms_up_past_its_node_budget() -> None:
    """The weighted pentomino benchmark loads the kernel with a search of 10 nodes, which
    raises SearchStoppedError now that ``best`` states a spent budget: it must carry on."""
    from benchmarks.test_bench_mcc import test_best_weighted_pentominoes

    if not numba_available():
        pytest.skip("numba is not installed")
    bench = _Untimed()
    test_best_weighted_pentominoes(bench)  # asserts the ten best costs itself
    assert bench.group == "best-pentomino-5x12" and bench.extra_info["nodes"] > 0


@pytest.mark.filterwarnings("ignore::pytest.PytestUnknownMarkWarning")  # registered in benchmarks/
def test_scale_benchmark_warms_up_past_its_node_budget() -> None:
    """The same for the scale group's counts (``count(max_nodes=1000)`` first)."""
    from benchmarks.test_bench_scale import test_scale_count

    if not numba_available():
        pytest.skip("numba is not installed")
    if not (EXACT_COVER_DIR / "queens14.dlx").exists():
        pytest.skip("queens14.dlx not found")
    bench = _Untimed()
    test_scale_count(bench, "queens14", "serial")  # asserts the count, 365,596
    assert bench.extra_info["solutions"] == 365_596
