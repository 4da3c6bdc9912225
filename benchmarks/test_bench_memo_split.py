"""Group ``memo-split``: the memoized count and set on two worker processes
(``count(memo=True, workers=2)``, ``solution_set(workers=2)``, `dlx.kinds.memo_split`)
beside the single memoized search, in one interleaved run.

queens 14 (365,596 solutions; 8 s alone with ``memo=True``): most of its signatures come to
nothing, so its parts share little and the split pays. Each round records wall and CPU
seconds (this process and its reaped children: the workers, as ``test_bench_scale``
does) and, for the split, each worker's CPU seconds of search (``RunProgress.cpu``) and
the parts, and ``own_cores_seconds``: the probe, the split, the pool's start and the
busiest worker, what the run takes with a core per worker (on a shared machine Linux's
autogroup gives a session's two workers together about the share its one process got,
so the wall clock there says less). Domino 14 x 14 is timed too, to show the opposite
case: there the probe keeps the search whole (``splits_well`` False), and the forced
split (``split=`` depth 1, two parts) takes about twice the CPU of the whole.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from typing import Any

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.cases import EXACT_COVER_DIR, load_kernel, numba_available
from dlx import ExactCover, RunProgress
from dlx.kinds import memo_split
from dlx.problems import queens
from dlx.request import check_request

pytestmark = pytest.mark.skipif(not numba_available(), reason="needs numba (the fast extra)")

QUEENS14 = 365_596
DOMINO14 = 112_202_208_776_036_178_000_000


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(benchmark: BenchmarkFixture, run: Callable[[], Any]) -> Any:
    walls: list[float] = []
    cpus: list[float] = []

    def once() -> Any:
        c, t = _cpu(), time.perf_counter()
        found = run()
        walls.append(time.perf_counter() - t)
        cpus.append(_cpu() - c)
        return found

    found = benchmark.pedantic(once, rounds=1, iterations=1)
    benchmark.extra_info.update(wall_seconds=walls, cpu_seconds=cpus)
    return found


@pytest.mark.parametrize("how", ["single", "workers2", "set-single", "set-workers2"])
def test_memo_split_queens14(benchmark: BenchmarkFixture, how: str) -> None:
    problem = queens(14)
    load_kernel(lambda: queens(8).solution_set(backend="numba"))
    benchmark.group = "memo-split"
    seen: list[RunProgress] = []
    workers: dict[str, Any] = {}
    if how.endswith("workers2"):
        workers = {"workers": 2, "progress": seen.append}
    if how.startswith("set"):
        found = _timed(benchmark, lambda: problem.solution_set(backend="numba", **workers))
        found = found.count()
    else:
        found = _timed(benchmark, lambda: problem.count(memo=True, backend="numba", **workers))
    assert found == QUEENS14
    if seen:
        cpu = sorted(seen[-1].cpu.values())
        t = time.process_time()
        memo_split.splits_well(problem, check_request(problem.matrix, "count", None,
                                                      {"memo": True}))
        problem.split(parts=memo_split.PARTS_PER_WORKER * 2, probes=4)
        ahead = time.process_time() - t  # the probe and the split, before any part
        benchmark.extra_info.update(
            parts=seen[-1].parts, worker_cpu_seconds=cpu, probe_split_cpu_seconds=ahead,
            start_seconds=seen[0].seconds,
            # what the run would take with a core per worker: probe, split, start, busiest
            own_cores_seconds=ahead + seen[0].seconds + cpu[-1])
    benchmark.extra_info.update(how=how, solutions=found)


@pytest.mark.parametrize("how", ["single", "workers2", "split-depth1-workers2"])
def test_memo_split_domino14(benchmark: BenchmarkFixture, how: str) -> None:
    path = EXACT_COVER_DIR / "domino_14x14.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    problem = ExactCover.from_dlx(path.read_text())
    load_kernel(lambda: queens(8).solution_set(backend="numba"))
    benchmark.group = "memo-split"
    options: dict[str, Any] = {}
    if how != "single":
        options["workers"] = 2
    if how.startswith("split"):
        options["split"] = problem.split(depth=1)
    found = _timed(benchmark, lambda: problem.count(memo=True, backend="numba", **options))
    assert found == DOMINO14
    benchmark.extra_info.update(how=how, solutions=str(found))
