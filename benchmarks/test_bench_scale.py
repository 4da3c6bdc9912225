"""Group ``scale``: counts split into subproblems and run on two worker processes, beside
the serial compiled count, and what a subproblem costs on local processes and on Dask.

``test_scale_count``: queens 14-16 and Langford L(2,15) (``langford15_sym``: the count up
to reversal, 39,809,640) counted exactly by the serial numba count and by
``count(workers=2)`` (split, pool start, the problem sent to each worker, chunks). Each
round records wall and CPU seconds (this process and its reaped children: the workers),
so the speed-up can be read on a shared machine too, and each worker's CPU seconds of
search (``RunProgress.cpu``): with the split and the start, the busiest worker's gives what
the run takes with a core per worker (``own_cores_seconds``). (Linux's autogroup shares
the CPU between sessions, not processes: while other sessions are busy, a session's two
workers together get about the share its one serial process got.) queens16 and langford15_sym take
minutes and are ``long`` (``--long``).

``test_scale_overhead``: 1,221 tiny subproblems of queens 10 (depth 4), one a task, on a
warm pool of two processes or a local Dask cluster of two worker processes, against the
same parts in one batch: the difference per task is the cost of a task.
"""

from __future__ import annotations

import concurrent.futures as cf
import resource
import time
from collections.abc import Callable

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.cases import EXACT_COVER_DIR, load_kernel, numba_available
from dlx import ExactCover, RunProgress
from dlx import distribute as dist
from dlx.problems import queens

pytestmark = pytest.mark.skipif(not numba_available(), reason="needs numba (the fast extra)")

CASES = {"queens14": 365_596, "queens15": 2_279_184, "queens16": 14_772_512,
         "langford15_sym": 39_809_640}
LONG = {"queens16", "langford15_sym"}


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(benchmark: BenchmarkFixture, run: Callable[[], int]) -> int:
    walls: list[float] = []
    cpus: list[float] = []

    def once() -> int:
        c, t = _cpu(), time.perf_counter()
        n = run()
        walls.append(time.perf_counter() - t)
        cpus.append(_cpu() - c)
        return n

    found = benchmark.pedantic(once, rounds=1, iterations=1)
    benchmark.extra_info.update(wall_seconds=walls, cpu_seconds=cpus)
    return found


def _params() -> list:
    out = []
    for name in CASES:
        for how in ("serial", "workers2"):
            marks = [pytest.mark.long("minutes a round")] if name in LONG else []
            out.append(pytest.param(name, how, marks=marks, id=f"{name}-{how}"))
    return out


@pytest.mark.parametrize(("name", "how"), _params())
def test_scale_count(benchmark: BenchmarkFixture, name: str, how: str) -> None:
    path = EXACT_COVER_DIR / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    problem = ExactCover.from_dlx(path.read_text())
    load_kernel(lambda: problem.count(backend="numba", max_nodes=1000))
    benchmark.group = "scale"
    if how == "serial":
        found = _timed(benchmark, lambda: problem.count(backend="numba"))
    else:
        seen: list[RunProgress] = []
        found = _timed(benchmark, lambda: problem.count(workers=2, backend="numba",
                                                         progress=seen.append))
        t = time.process_time()
        problem.split(parts=dist.DEFAULT_PARTS, probes=4)
        split_cpu = time.process_time() - t
        workers = sorted(seen[-1].cpu.values())
        benchmark.extra_info.update(
            split_cpu_seconds=split_cpu, start_seconds=seen[0].seconds,
            worker_cpu_seconds=workers, chunks=len(seen) - 1,
            # what the run would take with a core per worker: split, start, busiest worker
            own_cores_seconds=split_cpu + seen[0].seconds + workers[-1])
    assert found == CASES[name]
    benchmark.extra_info.update(solutions=found, nodes=problem.stats.nodes, how=how)


def _overhead(benchmark: BenchmarkFixture, executor: cf.Executor, label: str) -> None:
    problem = queens(10)
    split = problem.split(depth=4)
    problem.solve_batch(split.forced[:5], limit=None, backend="numba")
    t = time.perf_counter()
    problem.count(split=split, executor=cf.ThreadPoolExecutor(1), backend="numba")
    batch = problem.solve_batch(split.forced, limit=None, backend="numba")
    one_batch = batch.seconds
    assert int(batch.found.sum()) == 724
    problem.count(split=problem.split(depth=2), executor=executor)  # workers warm
    old = dist.CHUNK_SECONDS
    dist.CHUNK_SECONDS = 1e-9  # one subproblem a task
    try:
        benchmark.group = "scale"
        found = _timed(benchmark, lambda: problem.count(split=split, executor=executor,
                                                         backend="numba"))
    finally:
        dist.CHUNK_SECONDS = old
    assert found == 724
    wall = benchmark.extra_info["wall_seconds"][0]
    benchmark.extra_info.update(
        tasks=len(split), one_batch_seconds=one_batch,
        seconds_per_task=(wall - one_batch) / len(split), executor=label,
        setup_seconds=time.perf_counter() - t - wall)


def test_scale_overhead_processes(benchmark: BenchmarkFixture) -> None:
    with cf.ProcessPoolExecutor(2) as pool:
        _overhead(benchmark, pool, "ProcessPoolExecutor(2)")


def test_scale_overhead_dask(benchmark: BenchmarkFixture) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        _overhead(benchmark, client.get_executor(), "Dask LocalCluster, 2 worker processes")
