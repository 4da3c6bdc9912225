"""The memoized search (Knuth's DLX6, :mod:`dlx.memo`) against the plain count and DLX6.

Groups ``memo-rooms`` and ``memo-rooms-in-a-row``, independent parts (``parts=True``)
against DLX6, interleaved, and our search without them. ``rooms``: three separate 4 x 8
rooms of dominoes, their cells interleaved in the item order, so that Knuth's choice
alternates between rooms: DLX6 (and our search without ``parts``) stores one signature
per combination of the rooms' states (1.45 M nodes); split at the root, it is three small
searches, counts multiplied. ``rooms-in-a-row``: three 6 x 6 rooms joined by corridors,
one board: only the search cuts it into rooms, and ``parts=True`` finds the cuts there
(DLX6: 382,887 nodes).

Group ``memo-<file>``: ``memo_count`` (warm numba; python on the small boards), the plain
``ExactCover.count`` where it finishes in seconds, ``default``: the count that chooses its
search (``count()``, `dlx.kinds.choose`) on every file of the table, interleaved round by
round with the plain (``memo=False``) and the memoized (``memo=True``) count, CPU time
(medians and the ratio default / better in ``extra_info``), and, when its timed build is found
(``--dlx6``, ``$DLX6``, else ``dlx6t`` under ``$ANCHORS/knuth/build``; see
``benchmarks.knuth``), the warm numba memo interleaved with Knuth's DLX6 round by round,
DLX6 timed by its own clocks from the end of its input to the end of its search (CPU and
wall medians and the ratios in ``extra_info``). Every run checks the count, and the memo's
search nodes against DLX6's (SOURCES.md, "Memoized counting"). ``test_memo_user_cpu``: the
same pair in user CPU only (``getrusage``; DLX6's whole process, our warm search, see
``benchmarks.knuth.bench_user_cpu``): issue 40's "at most 1.0x DLX6's user CPU"
(``ratio_user``), on the files of ``USER_CPU``.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmarks.cases import EXACT_COVER_DIR, load_kernel, numba_available
from benchmarks.knuth import bench_interleaved, bench_user_cpu
from dlx import BackendName, ExactCover
from dlx.memo import memo_search

CASES = {  # file: (solutions, DLX6's search nodes)
    "domino_8x8": (12_988_816, 2_317),
    "domino_10x10": (258_584_046_368, 13_562),
    "domino_12x12": (53_060_477_521_960_000, 74_049),
    "domino_14x14": (112_202_208_776_036_178_000_000, 385_185),
    "langford12": (216_288, 1_622_501),
    "queens13": (73_712, 1_438_129),
}
TABLE = {  # every file of SOURCES.md's "Memoized counting" table: its solutions
    "knuth_dlx2_color_example": 1, "domino_8x8": 12_988_816, "queens8": 92, "langford8": 300,
    "pentomino_3x20": 8, "domino_10x10": 258_584_046_368, "queens10": 724, "langford10": 0,
    "domino_12x12": 53_060_477_521_960_000, "pentomino_scott8x8": 520, "langford11": 35_584,
    "queens12": 14_200, "domino_14x14": 112_202_208_776_036_178_000_000,
    "pentomino_6x10_sym": 2_339, "queens13": 73_712, "langford12": 216_288,
    "pentomino_6x10": 9_356,
}
NO_PLAIN = {"domino_10x10", "domino_12x12", "domino_14x14"}  # plain: minutes and more
PYTHON_DEFAULT = {"knuth_dlx2_color_example", "queens8", "langford8", "queens10",
                  "domino_8x8"}  # the python default in well under a second
PLAIN = {"domino_8x8", "langford12", "queens13"}  # the plain count finishes in seconds
PYTHON = {"domino_8x8", "domino_10x10"}  # the python memo in under a second or so
USER_CPU = ("domino_12x12", "domino_14x14", "langford12", "queens13")  # issue 40's files


def load(name: str) -> ExactCover:
    path = EXACT_COVER_DIR / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return ExactCover.from_dlx(path.read_text())


@pytest.mark.parametrize("backend", ["python", "numba"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_memo_count(benchmark, name: str, backend: BackendName) -> None:
    if backend == "numba" and not numba_available():
        pytest.skip("numba is not installed")
    if backend == "python" and name not in PYTHON:
        pytest.skip("seconds to minutes a round in python")
    problem = load(name)
    load_kernel(lambda: memo_search(ExactCover([["a"]]), backend=backend))
    benchmark.group = f"memo-{name}"
    count, stats = benchmark.pedantic(
        lambda: memo_search(problem, backend=backend, keep=False), rounds=5, iterations=1)
    assert (count, stats.nodes) == CASES[name]
    benchmark.extra_info.update(solver=f"memo-{backend}", nodes=stats.nodes,
                                zdd_nodes=stats.zdd_nodes, hits=stats.hits)


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_plain_count(benchmark, name: str) -> None:
    if not numba_available():
        pytest.skip("numba is not installed")
    problem = load(name)
    problem.count(limit=1, backend="numba")
    benchmark.group = f"memo-{name}"
    count = benchmark.pedantic(lambda: problem.count(backend="numba", memo=False), rounds=3,
                               iterations=1)
    assert count == CASES[name][0]
    benchmark.extra_info.update(solver="plain-numba", nodes=problem.stats.nodes)


@pytest.mark.parametrize("backend", ["python", "numba"])
@pytest.mark.parametrize("name", sorted(TABLE))
def test_default_count(benchmark, name: str, backend: BackendName) -> None:
    """``count()`` choosing its search, against the plain and the memoized count, rounds
    interleaved (CPU time): ``default_over_better`` is the issue's "within 1.2x of the
    better of plain and memo"."""
    if backend == "numba" and not numba_available():
        pytest.skip("numba is not installed")
    if backend == "python" and name not in PYTHON_DEFAULT:
        pytest.skip("seconds to minutes a round in python")
    problem = load(name)
    problem.count(1, backend=backend, memo=False)  # kernels compiled and loaded
    problem.count(backend=backend, memo=True)
    modes: dict[str, dict[str, Any]] = {"plain": {"memo": False}, "memo": {"memo": True},
                                        "default": {}}
    if name in NO_PLAIN or (backend == "python" and name.startswith("domino")):
        del modes["plain"]  # minutes and more
    times: dict[str, list[float]] = {mode: [] for mode in modes}

    def one_round() -> str:
        for mode, options in modes.items():
            t = time.process_time()
            count = problem.count(backend=backend, **options)
            times[mode].append(time.process_time() - t)
            assert count == TABLE[name]
        return problem.stats.answered_by

    benchmark.group = f"memo-{name}"
    answered_by = benchmark.pedantic(one_round, rounds=5, iterations=1)
    medians = {mode: statistics.median(t) for mode, t in times.items()}
    better = min(medians.get("plain", medians["memo"]), medians["memo"])
    benchmark.extra_info.update(
        solver=f"default-{backend} (plain, memo, default interleaved)",
        answered_by=answered_by, default_over_better=round(medians["default"] / better, 3),
        **{f"{mode}_cpu_ms": round(1e3 * t, 3) for mode, t in medians.items()})


def _vs_dlx6(benchmark, dlx6: Path, problem: ExactCover, path: Path, rounds: int,
             parts: bool = False) -> None:
    """The warm numba memo on ``problem`` against DLX6 on ``path`` (the same problem),
    rounds interleaved; the count (modulo 2**64: DLX6's counter) must agree, and the
    search nodes too (``parts``: be fewer)."""
    if not numba_available():
        pytest.skip("numba is not installed")
    load_kernel(lambda: memo_search(ExactCover([["a"]]), backend="numba", parts=parts))
    (count, stats), knuth = bench_interleaved(
        benchmark, lambda: memo_search(problem, backend="numba", keep=False, parts=parts),
        dlx6, path, rounds)
    assert count % 2**64 == knuth.totals[0]  # DLX6 counts modulo 2**64
    assert stats.nodes < knuth.totals[1] if parts else stats.nodes == knuth.totals[1]
    benchmark.extra_info.update(solver=f"memo-numba{'-parts' if parts else ''} vs dlx6",
                                nodes=stats.nodes, splits=stats.splits)


@pytest.mark.parametrize("name", sorted(CASES))
def test_memo_vs_dlx6(benchmark, knuth_program: Callable[[str], Path], name: str) -> None:
    dlx6 = knuth_program("dlx6")
    problem = load(name)
    benchmark.group = f"memo-{name}"
    _vs_dlx6(benchmark, dlx6, problem, EXACT_COVER_DIR / f"{name}.dlx", rounds=5)
    assert benchmark.extra_info["nodes"] == CASES[name][1]


@pytest.mark.parametrize("name", USER_CPU)
def test_memo_user_cpu(benchmark, knuth_program: Callable[[str], Path], name: str) -> None:
    """The warm numba memo against DLX6 in user CPU, rounds interleaved (median of 5):
    ``ratio_user`` is issue 40's "at most 1.0x". Counts and nodes checked as above."""
    if not numba_available():
        pytest.skip("numba is not installed")
    dlx6 = knuth_program("dlx6")
    problem = load(name)
    load_kernel(lambda: memo_search(ExactCover([["a"]]), backend="numba"))
    memo_search(problem, backend="numba", keep=False)  # the problem's links, once
    benchmark.group = f"memo-{name}"
    (count, stats), knuth = bench_user_cpu(
        benchmark, lambda: memo_search(problem, backend="numba", keep=False), dlx6,
        EXACT_COVER_DIR / f"{name}.dlx", rounds=5)
    assert count % 2**64 == knuth.totals[0]  # DLX6 counts modulo 2**64
    assert stats.nodes == knuth.totals[1] == CASES[name][1]
    benchmark.extra_info.update(solver="memo-numba vs dlx6 (user CPU)", nodes=stats.nodes)


def rooms(count: int, m: int, n: int) -> ExactCover:
    """``count`` separate m x n rooms of dominoes, cells interleaved in the item order."""
    options, cells = [], []
    for r in range(count):
        room = [f"{chr(97 + r)}{i}_{j}" for i in range(m) for j in range(n)]
        cells.append(room)
        for i in range(m):
            for j in range(n):
                here = f"{chr(97 + r)}{i}_{j}"
                if j + 1 < n:
                    options.append([here, f"{chr(97 + r)}{i}_{j + 1}"])
                if i + 1 < m:
                    options.append([here, f"{chr(97 + r)}{i + 1}_{j}"])
    return ExactCover(options, primary=list(itertools.chain(*zip(*cells))))


def rooms_in_a_row(count: int, m: int, n: int) -> ExactCover:
    """``count`` m x n rooms of dominoes side by side, each joined to the next by a
    corridor of two cells on row 1, cells row-major: one board, which only the search
    cuts into rooms (once a corridor is covered)."""
    cells = set()
    for k in range(count):
        cells |= {(r, k * (n + 2) + c) for r in range(m) for c in range(n)}
        cells |= {(1, k * (n + 2) + n + j) for j in range(2)} if k + 1 < count else set()
    name = {p: f"{p[0]}_{p[1]}" for p in sorted(cells)}
    return ExactCover([[name[(r, c)], name[q]] for r, c in sorted(cells)
                       for q in ((r, c + 1), (r + 1, c)) if q in name],
                      primary=list(name.values()))


BOARDS = {  # name: (problem, tilings, DLX6's (and parts=False) nodes)
    "rooms": (lambda: rooms(3, 4, 8), 2_245**3, 1_453_804),
    "rooms-in-a-row": (lambda: rooms_in_a_row(3, 6, 6), 6_728**3, 382_887),
}


@pytest.mark.parametrize("parts", [False, True])
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_rooms(benchmark, board: str, parts: bool) -> None:
    if not numba_available():
        pytest.skip("numba is not installed")
    make, tilings, nodes = BOARDS[board]
    problem = make()
    load_kernel(lambda: memo_search(ExactCover([["a"]]), backend="numba", parts=parts))
    benchmark.group = f"memo-{board}"
    count, stats = benchmark.pedantic(
        lambda: memo_search(problem, backend="numba", keep=False, parts=parts), rounds=3,
        iterations=1)
    assert count == tilings
    assert (stats.nodes == nodes) != parts
    benchmark.extra_info.update(solver=f"memo-numba{'-parts' if parts else ''}",
                                nodes=stats.nodes, splits=stats.splits)


@pytest.mark.parametrize("parts", [False, True])
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_rooms_vs_dlx6(benchmark, knuth_program: Callable[[str], Path], tmp_path: Path,
                       board: str, parts: bool) -> None:
    """Interleaved with DLX6: ``parts=False`` node for node, ``parts=True`` the factor
    independent parts win (``ratio_cpu``)."""
    dlx6 = knuth_program("dlx6")
    problem = BOARDS[board][0]()
    path = tmp_path / f"{board}.dlx"
    path.write_text(problem.to_dlx())
    benchmark.group = f"memo-{board}"
    _vs_dlx6(benchmark, dlx6, problem, path, rounds=3, parts=parts)
