"""count and solutions on executors: threads, local processes, Dask, Ray; checkpoints;
a worker killed mid-run. Every count is checked against the serial count, every list of
solutions against the serial list, in order."""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import json
import multiprocessing
import os
import signal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ArgumentError, CheckpointError, DistributedError, ExactCover, Status
from dlx import distribute as dist
from dlx.problems import langford, queens
from tests.helpers.backends import BACKENDS
from tests.helpers.random_problems import build, xcc_problems


class Counting(cf.ThreadPoolExecutor):
    """Threads that count the tasks sent, and those that carried the problem."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.tasks = 0
        self.payloads = 0

    def submit(self, fn, /, *args, **kwargs):
        self.tasks += 1
        self.payloads += args[1] is not None
        return super().submit(fn, *args, **kwargs)


@pytest.fixture(autouse=True)
def fresh_cache():
    """Each test starts with workers (this process's threads) that hold no problem."""
    dist._cache.clear()
    yield
    dist._cache.clear()


@pytest.fixture
def small_chunks(monkeypatch):
    """One subproblem a chunk: many tasks, even for small problems."""
    monkeypatch.setattr(dist, "CHUNK_SECONDS", 1e-9)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("problem", "count", "nodes"), [
    (queens(8), 92, 1223), (langford(8), 300, None), (queens(1), 1, 2)])
def test_count_on_threads_equals_the_serial_count(problem, count, nodes, backend,
                                                  small_chunks):
    serial = problem.count(backend=backend)
    nodes = nodes or problem.stats.nodes
    assert serial == count
    with Counting(2) as pool:
        for split in (problem.split(depth=2), problem.split(parts=10, probes=2), None):
            assert problem.count(executor=pool, split=split, backend=backend) == count
            assert problem.stats.nodes == nodes
            assert problem.stats.complete


def test_the_problem_travels_once_per_worker_not_per_task(small_chunks):
    problem = queens(9)
    split = problem.split(depth=2)
    with Counting(2) as pool:
        assert problem.count(executor=pool, split=split) == 352
    # the first two tasks carry it; a task that finds no problem is sent again with it
    assert pool.tasks >= len(split) and pool.payloads <= 4


THREADS = cf.ThreadPoolExecutor(2)


@settings(max_examples=40, deadline=None)
@given(xcc_problems(), st.integers(0, 4), st.sampled_from([None, 1, 3]))
def test_random_problems_on_an_executor_as_in_serial(spec, depth, limit):
    problem = build(*spec)
    dist.CHUNK_SECONDS, old = 1e-9, dist.CHUNK_SECONDS  # one part a task
    try:
        split = problem.split(depth=depth)
        serial = list(problem.solutions(limit, backend="python"))
        nodes = problem.stats.nodes
        got = list(problem.solutions(limit, executor=THREADS, split=split, backend="python"))
        assert got == serial
        assert problem.count(limit, executor=THREADS, split=split, backend="python") == \
            len(serial)
        if limit is None:
            assert problem.stats.nodes == nodes
    finally:
        dist.CHUNK_SECONDS = old


def test_a_worker_holds_one_problem(small_chunks):
    with Counting(2) as pool:
        assert queens(8).count(executor=pool, split=queens(8).split(depth=2)) == 92
        assert langford(7).count(executor=pool, split=langford(7).split(depth=2)) == 52
        assert queens(8).count(executor=pool, split=queens(8).split(depth=1)) == 92
    assert list(dist._cache) == [queens(8).matrix.digest]


@pytest.mark.parametrize("limit", [None, 1, 50, 352, 1000])
def test_solutions_come_in_the_serial_order(limit, small_chunks):
    problem = queens(9)
    expected = list(problem.solutions(limit))
    with Counting(3) as pool:
        for split in (problem.split(depth=1), problem.split(depth=3)):
            got = list(problem.solutions(limit, executor=pool, split=split))
            assert got == expected
            assert problem.stats.solutions == len(expected)
            if limit in (None, 1000):  # the serial search's nodes
                assert problem.stats.nodes == 4625
            else:  # the nodes of the parts searched, a few chunks ahead: no more than all
                assert split.nodes_above < problem.stats.nodes <= 4625
    assert all(problem.is_solution(s) for s in got)


def test_count_with_a_limit():
    problem = queens(8)
    with Counting(2) as pool:
        assert problem.count(10, executor=pool, split=problem.split(depth=1)) == 10
        assert problem.count(1000, executor=pool, split=problem.split(depth=1)) == 92


def test_local_worker_processes():
    problem = langford(8)
    assert problem.count(workers=2) == 300
    assert problem.stats.nodes == langford(8).split(depth=0).nodes_above + \
        int(problem.solve_batch([[]], limit=None).nodes[0])
    assert list(problem.solutions(workers=2, split=problem.split(depth=2))) == \
        list(problem.solutions())


def test_progress_reports_parts_solutions_and_time_left(small_chunks):
    problem = queens(9)
    seen: list[dist.RunProgress] = []
    with Counting(2) as pool:
        problem.count(executor=pool, split=problem.split(depth=2), progress=seen.append)
    assert seen[0].done == 0 and seen[0].left is None
    assert seen[-1].done == seen[-1].parts and seen[-1].solutions == 352
    assert all(a.done <= b.done for a, b in itertools.pairwise(seen))
    assert seen[-1].left == 0 and "352 solutions" in seen[-1].line()


class Stop(Exception):
    pass


def test_a_checkpoint_resumes_with_the_same_total(tmp_path, small_chunks):
    problem = queens(9)
    split = problem.split(depth=2)
    path = tmp_path / "run.json"

    def stop_early(p: dist.RunProgress) -> None:
        if p.done >= 10:
            raise Stop

    with Counting(1) as pool:
        with pytest.raises(Stop):
            problem.count(executor=pool, split=split, checkpoint=path, progress=stop_early)
        data = json.loads(path.read_text())
        assert data["format"] == "dlx-checkpoint" and data["parts"] == len(split)
        done = len(data["done"])
        assert 10 <= done < len(split)
        seen: list[dist.RunProgress] = []
        assert problem.count(executor=pool, split=split, checkpoint=path,
                             progress=seen.append) == 352
        assert seen[0].done == done  # the finished parts were not searched again
        assert problem.stats.nodes == 4625
        assert len(json.loads(path.read_text())["done"]) == len(split)
        # a finished file gives the count at once
        assert problem.count(executor=pool, split=split, checkpoint=path) == 352
    assert problem.count(workers=1, split=split, checkpoint=path) == 352


def test_a_wrong_checkpoint_is_refused(tmp_path):
    problem = queens(8)
    path = tmp_path / "run.json"
    with Counting(2) as pool:
        problem.count(executor=pool, split=problem.split(depth=2), checkpoint=path)
        with pytest.raises(CheckpointError, match="another problem"):
            queens(9).count(executor=pool, split=queens(9).split(depth=2), checkpoint=path)
        with pytest.raises(CheckpointError, match="another split of this problem"):
            problem.count(executor=pool, split=problem.split(depth=3), checkpoint=path)
        for text, message in [("{", "is not JSON"), ("[]", "not a dlx checkpoint"),
                              ('{"format": "dlx-checkpoint", "version": 9}', "version 9")]:
            path.write_text(text)
            with pytest.raises(CheckpointError, match=message):
                problem.count(executor=pool, split=problem.split(depth=2), checkpoint=path)
        good = problem.split(depth=2)
        data = {"format": "dlx-checkpoint", "version": 1, "problem": good.problem_digest,
                "split": good.digest, "parts": len(good), "done": [[len(good), 1, 1, 1]]}
        path.write_text(json.dumps(data))
        with pytest.raises(CheckpointError, match=r"done\[0\]"):
            problem.count(executor=pool, split=good, checkpoint=path)


def test_a_killed_worker_loses_only_its_chunk(small_chunks):
    problem = queens(10)
    split = problem.split(depth=3)
    killed: list[int] = []

    def kill_one(p: dist.RunProgress) -> None:
        if not killed and p.done >= 5:
            victim = multiprocessing.active_children()[0]
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    assert problem.count(workers=2, split=split, backend="python", progress=kill_one) == 724
    assert killed and problem.stats.nodes == 16536


class Failing(cf.ThreadPoolExecutor):
    """Every task's first try raises, as a lost worker's would."""

    def __init__(self) -> None:
        super().__init__(2)
        self.failed: set[tuple] = set()

    def submit(self, fn, /, *args, **kwargs):
        key = tuple(map(tuple, args[3]))
        if key not in self.failed:
            self.failed.add(key)
            future: cf.Future = cf.Future()
            future.set_exception(ConnectionError("worker lost"))
            return future
        return super().submit(fn, *args, **kwargs)


def test_failed_tasks_are_retried_then_reported():
    problem = queens(8)
    with Failing() as pool:
        assert problem.count(executor=pool, split=problem.split(depth=1)) == 92
        assert list(problem.solutions(executor=pool, split=problem.split(depth=2))) == \
            list(problem.solutions())
    with cf.ThreadPoolExecutor(1) as pool:
        pool.shutdown()
        with pytest.raises(DistributedError):
            problem.count(executor=pool, split=problem.split(depth=1))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"workers": 0}, "workers must be at least 1"),
    ({"workers": 2, "forced": [0]}, "forced is for a single search"),
    ({"workers": 2, "timeout": 1}, "timeout is for a single search"),
    ({"split": [1, 2]}, "split must be a dlx Split"),
    ({"checkpoint": "x.json", "limit": 5}, "give no limit with it"),
    ({"split": queens(5).split()}, "split was made for another problem"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ArgumentError, match=message):
        queens(6).count(**kwargs)


def test_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    problem = queens(9)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        executor = client.get_executor()
        assert problem.count(executor=executor, split=problem.split(depth=2)) == 352
        assert problem.stats.nodes == 4625
        assert list(problem.solutions(executor=executor, split=problem.split(depth=1))) == \
            list(problem.solutions())


@pytest.mark.slow
def test_ray_local_instance():
    ray = pytest.importorskip("ray")
    problem = langford(8)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        executor = dist.RayExecutor()
        assert problem.count(executor=executor, split=problem.split(depth=2)) == 300
        assert list(problem.solutions(executor=executor, split=problem.split(depth=1))) == \
            list(problem.solutions())
    finally:
        ray.shutdown()


def test_an_executor_named_on_a_command_line():
    with pytest.raises(ArgumentError, match="is not one of"):
        dist.open_executor("ftp://x")
    owned = dist.open_executor("processes", 2)
    try:
        assert queens(6).count(executor=owned.executor) == 4
    finally:
        owned.close()


def test_a_problem_with_no_solution_and_an_empty_one():
    empty = ExactCover([], primary=[])
    with Counting(1) as pool:
        assert empty.count(executor=pool) == 1
        assert queens(3).count(executor=pool, split=queens(3).split(depth=2)) == 0
        assert list(queens(3).solutions(executor=pool)) == []


# ----- the reliability issue's defects (#32: R3, R6, R7) ---------------------------------


class Refusing(cf.ThreadPoolExecutor):
    """An executor that fails the test if any task reaches it: the call must refuse first."""

    def submit(self, fn, /, *args, **kwargs):
        raise AssertionError("a task was submitted before the arguments were checked")


@pytest.mark.parametrize("checkpoint", ["/no-such-dir/run.json", b"/no-such-dir/run.json",
                                        "", ".", "a\0b.json"])
def test_a_checkpoint_that_cannot_be_written_is_refused_before_the_search(checkpoint):
    """R3: a raw FileNotFoundError at the first save, the partial count lost (and a bytes
    path written as "b'...'.tmpPID"); now CheckpointError before any task."""
    with Refusing(1) as pool, pytest.raises(CheckpointError, match="checkpoint"):
        queens(8).count(executor=pool, split=queens(8).split(depth=1),
                        checkpoint=checkpoint)


def test_a_checkpoint_path_may_be_bytes_or_a_path(tmp_path):
    """R3: str, os.PathLike and bytes name the same file (bytes decoded as the file
    system does), and no temporary file is left beside it."""
    problem = queens(8)
    split = problem.split(depth=2)
    for name in (tmp_path / "a.json", str(tmp_path / "b.json"),
                 os.fsencode(tmp_path / "c.json")):
        with Counting(2) as pool:
            assert problem.count(executor=pool, split=split, checkpoint=name) == 92
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "c.json"]


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"executor": "processes"}, ArgumentError, "executor must be a concurrent.futures"),
    ({"executor": object()}, ArgumentError, "executor must be a concurrent.futures"),
    ({"workers": 2, "progress": 5}, ArgumentError, "progress must be callable or None"),
    ({"workers": 2, "checkpoint": 3}, CheckpointError, "checkpoint must be a file name"),
    ({"workers": 5000}, ArgumentError, r"workers must be at most \d+ \(8 per usable CPU"),
    ({"workers": 2, "seed": 0}, ArgumentError, "seed is for a single search"),
    ({"workers": 2, "order": "cost"}, ArgumentError, "order is for a single search"),
])
def test_bad_distributed_arguments_are_refused_before_any_work(kwargs, error, message,
                                                               monkeypatch):
    """R6: AttributeError, TypeError, the first three only after the split was made; now
    the ArgumentError (or CheckpointError) of the argument, before the split."""
    def no_split(*args, **kwargs):
        raise AssertionError("the split was made before the arguments were checked")

    monkeypatch.setattr("dlx.kinds.distributed.split_problem", no_split)
    with pytest.raises(error, match=message) as info:
        queens(12).count(backend="python", **kwargs)
    assert type(info.value) is error


def test_a_deeply_nested_checkpoint_is_refused(tmp_path):
    """R6: RecursionError out of json.load; now CheckpointError naming the file."""
    path = tmp_path / "run.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with Counting(1) as pool, pytest.raises(CheckpointError, match="nested too deeply"):
        queens(8).count(executor=pool, split=queens(8).split(depth=1), checkpoint=path)


def test_two_threads_share_a_checkpoint_file(tmp_path, monkeypatch):
    """R7: the temporary file was path + pid, the same for two threads of one process:
    one of them lost it (FileNotFoundError). Both finish now, and the file is whole."""
    import threading

    monkeypatch.setattr(dist.Checkpoint.__init__, "__defaults__", (0.0,))  # save often
    path = tmp_path / "run.json"
    problem = queens(9)
    split = problem.split(depth=3)
    counts: list[int] = []
    errors: list[BaseException] = []

    def count() -> None:
        try:
            with cf.ThreadPoolExecutor(2) as pool:
                for _ in range(3):
                    counts.append(problem.count(executor=pool, split=split, checkpoint=path))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=count) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and counts == [352] * 6
    assert len(json.loads(path.read_text())["done"]) == len(split)
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_split_search_has_live_stats():
    """The distributed ``solutions`` was a bare generator (cast to Search): it has stats
    now, and tells the problem its statistics once it ends."""
    problem = queens(8)
    with Counting(2) as pool:
        search = problem.solutions(executor=pool, split=problem.split(depth=2))
        first = next(search)
        assert search.stats.solutions == 1 and search.stats.status is Status.RUNNING
        assert [first, *search] == list(problem.solutions())
        assert search.stats.status is Status.COMPLETE and search.count() == 92
        assert problem.stats.nodes == 1223
        limited = problem.solutions(3, executor=pool, split=problem.split(depth=2))
        assert limited.count() == 3 and problem.stats.status is Status.LIMIT
