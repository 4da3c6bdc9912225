"""Our engine against Knuth's own programs, search against search, rounds interleaved.

Group ``knuth-<program>-<file>``: ``ExactCover.count`` on numba, the plain search
(``memo=False``: Knuth's programs are plain searches, node for node; ``count()`` left to
itself may choose the memoized one), warm (the kernel loaded and the problem linked by an
untimed ``count(limit=1)``), against the timed build of
Knuth's program on the same ``.dlx`` file (``benchmarks.knuth``): DLX1 on plain exact
cover (the files of the ``exact-cover-*`` groups, and ``queens14``), DLX2 on the colored
``xcc_*`` files, DLX3 on the multiplicity ``mcc_*`` files.
Rounds alternate, Knuth's then ours, so that a change in the machine's load hits both.
Knuth's program is timed by its own clocks from the end of its input to the end of its
search; ours by the whole ``count()`` call (which copies the links before it searches).
Both CPU and wall time are recorded (``extra_info``; ``benchmarks.report`` tabulates
them). Every run checks that ours and Knuth's agree on solutions, nodes and updates.
DLX6 against the memoized count is in ``test_bench_memo.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.cases import EXACT_COVER_CASES, EXACT_COVER_DIR, numba_available
from benchmarks.knuth import bench_interleaved
from dlx import ExactCover

ROUNDS = 5

FILES = {
    "dlx1": (*(case.name for case in EXACT_COVER_CASES), "queens14"),
    "dlx2": ("xcc_debruijn4", "xcc_debruijn5", "xcc_latin4", "xcc_latin5", "xcc_shidoku4x4",
             "xcc_wordsquare5_sgb500"),
    "dlx3": ("mcc_rowcol6_2", "mcc_queens8_k5", "mcc_queens12x10_rowslack",
             "mcc_matchings4x4", "mcc_tetromino_5x8_2each"),
}
"""Knuth's program -> the files it is compared on."""


@pytest.mark.parametrize(
    ("program", "name"),
    [pytest.param(p, f, id=f"{p}-{f}") for p, files in FILES.items() for f in files],
)
def test_count_vs_knuth(benchmark, knuth_program: Callable[[str], Path], program: str,
                        name: str) -> None:
    if not numba_available():
        pytest.skip("numba is not installed")
    binary = knuth_program(program)
    path = EXACT_COVER_DIR / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    problem = ExactCover.from_dlx(path.read_text())
    problem.count(limit=1, backend="numba")  # links, numba's load
    benchmark.group = f"knuth-{program}-{name}"
    count, knuth = bench_interleaved(benchmark,
                                     lambda: problem.count(backend="numba", memo=False),
                                     binary, path, ROUNDS)
    ours = (count, problem.stats.nodes, problem.stats.updates)
    assert ours == knuth.totals, f"ours {ours}, {program} {knuth.totals}"
    benchmark.extra_info.update(solver="dlx-numba", puzzle_set=name, solutions=count,
                                nodes=problem.stats.nodes, updates=problem.stats.updates)
