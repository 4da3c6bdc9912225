"""Dancing cells against Knuth's SSXCC, beside our links, rounds interleaved (issue 44).

Group ``ssxcc``: on each file, one round is SSXCC's timed build (``ssxcct``, by
``../shared/tools/native-anchors/build.sh``; ``$SSXCC`` names another), then our links
kernel (``count(backend="numba", memo=False)``: DLX2's search), then the dancing-cells
kernel (``count(backend=dlx.cells.CELLS, memo=False)``: SSXCC's search, node for node),
all warm (kernels loaded, problem built, by an untimed count). SSXCC is timed by its own
clock from the end of its input to the end of its search, ours by the whole ``count()``
call. The benchmark's own statistics are the cells' wall times; ``extra_info`` has the
CPU medians of the three (``cells_cpu_s``, ``links_cpu_s``, ``ssxcc_search_cpu_s``) and
the ratios (``ratio_cpu``: cells / SSXCC, the target being at most 1.0; ``links_ratio_cpu``:
links / SSXCC; ``cells_over_links``), with the load. Every round checks that the cells'
solutions, nodes and updates equal SSXCC's.

The files: every shared ``xcc_*`` file whose SSXCC search takes at least 5 ms (measured
in the run: those under it are skipped, saying so), and ``langford11``,
``pentomino_6x10_sym`` and ``queens12``. No binary or no data: skipped.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import pytest

from benchmarks.cases import EXACT_COVER_DIR, numba_available
from benchmarks.knuth import Run, default_program, run
from dlx import ExactCover

ROUNDS = 5
MIN_SSXCC_SECONDS = 0.005
"""An ``xcc_*`` file is in the target when SSXCC's search takes at least this (CPU)."""

FILES = (*sorted(p.stem for p in EXACT_COVER_DIR.glob("xcc_*.dlx")), "langford11",
         "pentomino_6x10_sym", "queens12")


def _ssxcc() -> Path:
    """SSXCC's timed build: ``$SSXCC`` (a path), else ``$ANCHORS/knuth/build/ssxcct``;
    the test is skipped when there is none."""
    given = os.environ.get("SSXCC")
    path = Path(os.path.expanduser(given)) if given else default_program("ssxcc")
    if not os.access(path, os.X_OK):
        pytest.skip(f"SSXCC not found: SSXCC=PATH or {path} "
                    "(../shared/tools/native-anchors/build.sh)")
    return path


@pytest.mark.parametrize("name", FILES)
def test_cells_vs_ssxcc(benchmark, name: str) -> None:
    if not numba_available():
        pytest.skip("numba is not installed")
    from dlx.cells import CELLS

    binary = _ssxcc()
    path = EXACT_COVER_DIR / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    first = run(binary, path)
    if first.times is None:
        pytest.fail(f"{binary} printed no search time: not a timed build", pytrace=False)
    if name.startswith("xcc_") and first.times.search_cpu_s < MIN_SSXCC_SECONDS:
        pytest.skip(f"SSXCC searches {name} in {first.times.search_cpu_s * 1e3:.2f} ms, "
                    f"under {MIN_SSXCC_SECONDS * 1e3:.0f} ms: out of the target")
    problem = ExactCover.from_dlx(path.read_text())
    problem.count(backend=CELLS, memo=False)  # warm: kernels loaded, cells built
    problem.count(backend="numba", memo=False)
    benchmark.group = "ssxcc"
    theirs: list[Run] = []
    links_cpu: list[float] = []
    cells_cpu: list[float] = []
    cells_wall: list[float] = []

    def setup() -> None:  # SSXCC, then the links (untimed by pytest-benchmark)
        theirs.append(run(binary, path))
        c = time.process_time()
        problem.count(backend="numba", memo=False)
        links_cpu.append(time.process_time() - c)

    def cells() -> tuple[int, int, int]:
        c, w = time.process_time(), time.perf_counter()
        count = problem.count(backend=CELLS, memo=False)
        cells_wall.append(time.perf_counter() - w)
        cells_cpu.append(time.process_time() - c)
        return count, problem.stats.nodes, problem.stats.updates

    ours = benchmark.pedantic(cells, setup=setup, rounds=ROUNDS, iterations=1)
    assert ours == theirs[-1].totals, f"cells {ours}, SSXCC {theirs[-1].totals}"
    ssxcc_cpu = statistics.median(r.times.search_cpu_s for r in theirs if r.times)
    cpu, links = statistics.median(cells_cpu), statistics.median(links_cpu)
    benchmark.extra_info.update(
        file=name, rounds=ROUNDS, solutions=ours[0], nodes=ours[1], updates=ours[2],
        cells_cpu_s=cpu, cells_wall_s=statistics.median(cells_wall), links_cpu_s=links,
        ssxcc_search_cpu_s=ssxcc_cpu, ratio_cpu=cpu / ssxcc_cpu,
        links_ratio_cpu=links / ssxcc_cpu, cells_over_links=cpu / links,
        cells_cpu_rounds_s=cells_cpu, links_cpu_rounds_s=links_cpu,
        ssxcc_cpu_rounds_s=[r.times.search_cpu_s for r in theirs if r.times],
        load=os.getloadavg()[0])
