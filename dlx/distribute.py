"""A split search run on many processes or machines: any ``concurrent.futures.Executor``.

A [`dlx.split.Split`][] cuts the search tree into subproblems; here they are grouped
into *chunks* of consecutive subproblems (about [`CHUNK_SECONDS`][] of search each, by
their estimates), and each chunk is one task: one batch search (``solve_batch``) of the
problem with each subproblem's options forced. The tasks go to any executor: a local
process pool (``workers=N``), a Dask cluster (``distributed.Client(...).get_executor()``),
Ray ([`RayExecutor`][]), threads.

**The problem travels once per worker, not per task.** A task names the problem by its
digest; each worker process keeps the last problem it was sent ([`CACHE_SIZE`][]): a
worker holds one problem and its chunk. A pool made here
installs the problem in each worker as it starts (an initializer). On another executor the
first tasks carry the pickled problem; a task that finds its worker without it returns at
once saying so, and is sent again with the problem.

**Failures.** A task that raises (a worker killed, a machine lost) is sent again, up to
``retries`` times; a pool made here that breaks (``BrokenProcessPool``: a worker died) is
made anew and every unfinished chunk resubmitted. A checkpoint ([`Checkpoint`][])
records each finished subproblem, so a run that stops resumes with what is left.

**Order.** ``count`` adds the parts in any order (biggest chunks first, for balance);
``solutions`` yields them in the serial search's order (a chunk's solutions wait until
every earlier chunk's are out), a bounded number of chunks ahead.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import os
import pickle
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .errors import ArgumentError, CheckpointError, DistributedError
from .progress import RunProgress
from .search import SearchStats
from .slices import Lazy
from .status import Status

if TYPE_CHECKING:
    from .split import Split

ExactCover = Any
"""A [`dlx.ExactCover`][] (not imported: [`dlx.problem`][] imports this module)."""

__all__ = ["CHUNK_SECONDS", "Checkpoint", "RayExecutor", "RunProgress", "SplitSearch",
           "as_finished", "checkpoint_path", "chunks", "count_split", "map_ordered",
           "open_executor", "solutions_split"]

CHUNK_SECONDS = 0.25
"""About how long one task's search should take: long enough that the cost of a task
(~1-10 ms on local processes, more on a cluster) is small, short enough to balance the
load and lose little when a worker dies (the issue's 0.1-1 s)."""

NODES_PER_SECOND = {"numba": 1e7, "python": 4e5}
"""Rough search speeds (queens and Langford pairs on this project's machine), to turn
[`CHUNK_SECONDS`][] into estimated nodes per chunk."""

CHUNKS_PER_WORKER = 8
"""A run makes at least about this many chunks per worker when the chunks can stay above
a tenth of [`CHUNK_SECONDS`][]: the last chunks to finish then leave the other workers
idle for little of the run."""

DEFAULT_PARTS = 64
"""The split a distributed count makes unless given one: about this many parts of
comparable size (the same whatever the number of workers, so a checkpoint resumes with
any number)."""

CACHE_SIZE = 1
"""Problems a worker process keeps (by digest): one, so a worker holds one problem and
the chunk it searches (a worker shared by runs of two problems is sent each anew)."""

_MISSING = "dlx-missing-problem"


# ----- the worker's side ------------------------------------------------------------------

_cache: OrderedDict[str, Any] = OrderedDict()
_cache_lock = threading.Lock()


def install(digest: str, payload: bytes) -> None:
    """Put a pickled problem in this process's cache (a pool's initializer)."""
    problem = pickle.loads(payload)
    with _cache_lock:
        _cache[digest] = problem
        _cache.move_to_end(digest)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def _cached(digest: str, payload: bytes | None) -> Any:
    with _cache_lock:
        problem = _cache.get(digest)
        if problem is not None:
            _cache.move_to_end(digest)
            return problem
    if payload is None:
        return None
    install(digest, payload)
    return _cached(digest, None)


def run_chunk(digest: str, payload: bytes | None, what: str, forced: list[list[int]],
              backend: str, limit: int | None) -> Any:
    """A worker's task: search the problem once per list of ``forced`` options.

    ``what`` is ``"count"``: per subproblem (solutions, nodes, updates), and the backend;
    or ``"solutions"``: per subproblem its solutions, in order, and (nodes, updates).
    [`_MISSING`][] when this worker does not have the problem and no ``payload`` came.
    """
    problem = _cached(digest, payload)
    if problem is None:
        return _MISSING
    if what == "count":
        cpu = time.process_time()
        result = problem.solve_batch(forced, limit=limit, backend=backend)
        return ([[int(a), int(b), int(c)] for a, b, c in
                 zip(result.found, result.nodes, result.updates)], result.backend,
                (os.getpid(), time.process_time() - cpu))
    out = []
    for f in forced:
        search = problem.solutions(limit, forced=f, backend=backend)
        sols = list(search)
        out.append((sols, search.stats.nodes, search.stats.updates))
    return out, search.stats.backend if forced else backend


# ----- chunks, progress, checkpoints --------------------------------------------------------


def chunks(split: Split, todo: Sequence[int], target: float) -> list[list[int]]:
    """Consecutive subproblems of ``todo`` (indices into ``split``) grouped so that each
    group's estimated nodes stay under ``target`` (a bigger part is a group alone)."""
    out: list[list[int]] = []
    group: list[int] = []
    size = 0.0
    for k in todo:
        e = split[k].estimate
        if group and size + e > target:
            out.append(group)
            group, size = [], 0.0
        group.append(k)
        size += e
    if group:
        out.append(group)
    return out


class Checkpoint:
    """A JSON file of the finished subproblems of one split of one problem.

    ``{"format": "dlx-checkpoint", "version": 1, "problem": DIGEST, "split": DIGEST,
    "parts": N, "done": [[part, solutions, nodes, updates], ...]}``, rewritten atomically
    (a temporary file, then a rename) at most every [`every`][] seconds and at the end,
    so a run killed at any moment leaves the last good file. A file made for another
    problem or another split is refused ([`dlx.CheckpointError`][])."""

    FORMAT = "dlx-checkpoint"
    VERSION = 1

    def __init__(self, path: str | os.PathLike[str], split: Split, every: float = 2.0) -> None:
        self.path = checkpoint_path(path)
        self.split = split
        self.every = every
        self.done: dict[int, tuple[int, int, int]] = {}
        self._saved = time.monotonic()
        self._dirty = False
        if os.path.exists(self.path):
            self.done = self._load()

    def _load(self) -> dict[int, tuple[int, int, int]]:
        where = f"checkpoint {self.path}"
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except json.JSONDecodeError as e:
            raise CheckpointError(f"{where} is not JSON (line {e.lineno}: {e.msg})") from None
        except RecursionError:
            raise CheckpointError(f"{where} is not a dlx checkpoint (JSON nested too "
                                  "deeply)") from None
        except (OSError, UnicodeDecodeError) as e:
            raise CheckpointError(f"{where} cannot be read: {e}") from None
        if not isinstance(data, dict) or data.get("format") != self.FORMAT:
            raise CheckpointError(f"{where} is not a dlx checkpoint (no \"format\": "
                                  f"\"{self.FORMAT}\")")
        if data.get("version") != self.VERSION:
            raise CheckpointError(f"{where} has version {data.get('version')!r}; this dlx "
                                  f"reads version {self.VERSION}")
        if data.get("problem") != self.split.problem_digest:
            raise CheckpointError(f"{where} was made for another problem (digest "
                                  f"{data.get('problem')!r}, this one "
                                  f"{self.split.problem_digest!r})")
        if data.get("split") != self.split.digest or data.get("parts") != len(self.split):
            raise CheckpointError(f"{where} was made for another split of this problem "
                                  f"({data.get('parts')!r} parts, digest "
                                  f"{data.get('split')!r}; this one {len(self.split)} parts, "
                                  f"{self.split.digest!r}): give the same depth, parts, "
                                  f"probes and seed, or another file")
        done: dict[int, tuple[int, int, int]] = {}
        rows = data.get("done")
        if not isinstance(rows, list):
            raise CheckpointError(f"{where}: \"done\" is not a list")
        for n, row in enumerate(rows):
            if not (isinstance(row, list) and len(row) == 4
                    and all(type(v) is int and v >= 0 for v in row)
                    and row[0] < len(self.split)):
                raise CheckpointError(f"{where}: done[{n}] is not [part, solutions, nodes, "
                                      f"updates] with a part below {len(self.split)}: {row!r}")
            done[row[0]] = (row[1], row[2], row[3])
        return done

    def record(self, part: int, result: tuple[int, int, int]) -> None:
        self.done[part] = result
        self._dirty = True
        if time.monotonic() - self._saved >= self.every:
            self.save()

    def save(self) -> None:
        """Write the file now (if anything changed)."""
        if not self._dirty and os.path.exists(self.path):
            return
        data = {"format": self.FORMAT, "version": self.VERSION,
                "problem": self.split.problem_digest, "split": self.split.digest,
                "parts": len(self.split),
                "done": [[k, *v] for k, v in sorted(self.done.items())]}
        folder, name = os.path.split(self.path)
        try:  # a temporary file of its own (threads, processes), then an atomic rename
            fd, tmp = tempfile.mkstemp(prefix=f"{name}.", suffix=".tmp", dir=folder or ".")
            try:
                with open(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, separators=(",", ":"))
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as e:
            raise CheckpointError(f"checkpoint {self.path} cannot be written: {e}") from None
        self._saved = time.monotonic()
        self._dirty = False


def checkpoint_path(value: object) -> str:
    """``checkpoint`` as a file name (a str, ``os.PathLike`` or bytes, decoded as the file
    system does) in a directory that exists and may be written to, which is not itself a
    directory; else [`dlx.CheckpointError`][], before any work is done."""
    try:
        path = os.fsdecode(os.fspath(value))  # type: ignore[call-overload]
    except TypeError:
        raise CheckpointError(f"checkpoint must be a file name (str or os.PathLike), got "
                              f"{value!r}") from None
    folder = os.path.dirname(path) or "."
    if not path or "\0" in path or os.path.isdir(path):
        raise CheckpointError(f"checkpoint {path!r} is not a file name")
    if not os.path.isdir(folder):
        raise CheckpointError(f"checkpoint {path}: no directory {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CheckpointError(f"checkpoint {path}: directory {folder} is not writable")
    return path


# ----- executors ------------------------------------------------------------------------------


class RayExecutor(cf.Executor):
    """A ``concurrent.futures.Executor`` over Ray: each task a remote function call
    (``ray.remote``), its future Ray's own (``ObjectRef.future()``). Ray must be
    initialized (``ray.init(...)``) before the first task."""

    def __init__(self, num_cpus: float = 1) -> None:
        import ray

        self._ray = ray
        self._num_cpus = num_cpus
        self._remote: dict[Any, Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(num_cpus=self._num_cpus)(fn)
        return remote.remote(*args, **kwargs).future()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._remote.clear()


class _Owned:
    """An executor and what to do with it at the end: one made here is shut down."""

    def __init__(self, executor: cf.Executor, close: Callable[[], None]) -> None:
        self.executor = executor
        self.close = close


def open_executor(spec: str, workers: int | None = None) -> _Owned:
    """The executor a command line names: ``dask://HOST:PORT`` (a Dask scheduler),
    ``ray://HOST:PORT`` or ``ray`` (a local Ray), ``processes`` (a local pool of
    ``workers``); raises [`dlx.ArgumentError`][] for anything else, or when the
    package it needs is missing."""
    if spec.startswith(("dask://", "tcp://")):
        try:
            from distributed import Client
        except ImportError:
            raise ArgumentError(f"executor {spec!r} needs Dask: pip install "
                                "'dancing-cover[dask]'") from None
        client = Client("tcp://" + spec.split("://", 1)[1])
        return _Owned(client.get_executor(), client.close)
    if spec == "ray" or spec.startswith("ray://"):
        try:
            import ray
        except ImportError:
            raise ArgumentError(f"executor {spec!r} needs Ray: pip install "
                                "'dancing-cover[ray]'") from None
        ray.init(address=None if spec == "ray" else spec, ignore_reinit_error=True,
                 log_to_driver=False)
        return _Owned(RayExecutor(), ray.shutdown)
    if spec == "processes":
        pool = cf.ProcessPoolExecutor(workers)
        return _Owned(pool, lambda: pool.shutdown(cancel_futures=True))
    raise ArgumentError(f"executor {spec!r} is not one of dask://HOST:PORT, ray://HOST:PORT, "
                        "ray, processes")


# ----- the driver ---------------------------------------------------------------------------


class _Runner:
    """Chunks of one split on one executor: submission, the problem's travel, retries."""

    def __init__(self, problem: ExactCover, split: Split, executor: cf.Executor | None,
                 workers: int | None, backend: str, retries: int) -> None:
        self.digest = split.problem_digest
        self.payload = pickle.dumps(problem, protocol=pickle.HIGHEST_PROTOCOL)
        self.backend = backend
        self.retries = retries
        self.own = executor is None
        if executor is None:
            self.workers = workers or os.cpu_count() or 1
            if backend != "python":  # forked workers inherit the kernel loaded here
                problem.solve_batch([[]], max_nodes=0, backend=backend)
            self.executor: cf.Executor = self._pool()
        else:
            self.executor = executor
            self.workers = workers or getattr(executor, "_max_workers", None) or \
                os.cpu_count() or 1
        self.sent = 0  # tasks sent with the problem attached (not counting a pool's)
        self.tries: dict[int, int] = {}

    def _pool(self) -> cf.Executor:
        return cf.ProcessPoolExecutor(self.workers, initializer=install,
                                      initargs=(self.digest, self.payload))

    def submit(self, what: str, forced: list[list[int]], limit: Any,
               with_problem: bool = False, task: Callable[..., Any] | None = None) -> cf.Future:
        """Start ``task(digest, payload, what, forced, backend, limit)`` ([`run_chunk`][]
        unless given: the memoized search's task takes its budgets in ``limit``)."""
        payload = None
        if not self.own and (with_problem or self.sent < self.workers):
            payload = self.payload
            self.sent += 1
        fn: Callable[..., Any] = run_chunk if task is None else task
        args = (self.digest, payload, what, forced, self.backend, limit)
        try:
            return self.executor.submit(fn, *args)
        except (RuntimeError, cf.BrokenExecutor) as error:  # shut down, or broken
            if not self.own:
                raise DistributedError(f"the executor refuses tasks ({type(error).__name__}: "
                                       f"{error}); a checkpoint keeps what was done") from error
            self.renew()
            return self.executor.submit(fn, *args)

    def failed(self, chunk_id: int, error: BaseException) -> bool:
        """After a task raised ``error``: False to send it again; True when the pool made
        here broke and was made anew (every unfinished task must go again). Raises
        DistributedError when the task failed too often or the caller's executor broke."""
        n = self.tries[chunk_id] = self.tries.get(chunk_id, 0) + 1
        if n > self.retries:
            raise DistributedError(f"a chunk of subproblems failed {n} times; last error: "
                                   f"{type(error).__name__}: {error}") from error
        if not isinstance(error, cf.BrokenExecutor):
            return False
        if not self.own:
            raise DistributedError(f"the executor broke ({type(error).__name__}: "
                                   f"{error}); a checkpoint keeps what was done") from error
        self.renew()
        return True

    def renew(self) -> None:
        """A pool made here broke (a worker died): make another."""
        _stop(self.executor)
        self.executor = self._pool()

    def close(self) -> None:
        if self.own:
            _stop(self.executor)


def _stop(executor: cf.Executor) -> None:
    """Shut a process pool made here down at once, its workers terminated."""
    processes = getattr(executor, "_processes", None) or {}
    executor.shutdown(wait=False, cancel_futures=True)
    for p in list(processes.values()):
        if p.is_alive():
            p.terminate()
    for p in list(processes.values()):
        p.join(timeout=5)


def _target(backend: str, nodes: float = float("inf"), workers: int = 1) -> float:
    """Estimated nodes per chunk: about [`CHUNK_SECONDS`][] of search, less for a run
    of ``nodes`` in all that would then make fewer than [`CHUNKS_PER_WORKER`][] chunks
    a worker (down to a tenth)."""
    full = CHUNK_SECONDS * NODES_PER_SECOND.get(backend, NODES_PER_SECOND["numba"])
    return min(full, max(full / 10, nodes / (CHUNKS_PER_WORKER * workers)))


def count_split(problem: ExactCover, split: Split, *, executor: cf.Executor | None,
                workers: int | None, checkpoint: str | os.PathLike[str] | None,
                progress: Callable[[RunProgress], object] | None, backend: str,
                limit: int | None = None, retries: int = 3) -> tuple[int, SearchStats]:
    """Count the solutions of ``problem`` through ``split``'s subproblems on ``executor``
    (None: a pool of ``workers`` processes made here); the count and the statistics
    (nodes: the parts' and the split's own, as the serial search's; updates: the parts')."""
    start = time.perf_counter()
    book = Checkpoint(checkpoint, split) if checkpoint is not None else None
    results: dict[int, tuple[int, int, int]] = dict(book.done) if book else {}
    todo = [k for k in range(len(split)) if k not in results]
    first_left = left_estimate = max(sum(split[k].estimate for k in todo), 1.0)
    runner = _Runner(problem, split, executor, workers, backend, retries) if todo else None
    groups = chunks(split, todo, _target(backend, left_estimate,
                                         runner.workers if runner else 1))
    groups.sort(key=lambda g: -sum(split[k].estimate for k in g))  # biggest first
    ran_nodes = 0
    cpu: dict[int, float] = {}
    used = backend
    solutions = sum(r[0] for r in results.values())

    def report() -> None:
        if progress is None:
            return
        seconds = time.perf_counter() - start
        share = 1 - left_estimate / first_left  # of this run's work, by the estimates
        left = seconds * (1 - share) / share if share > 0 else None
        progress(RunProgress(len(results), len(split), min(solutions, limit or solutions),
                          ran_nodes, seconds, left, dict(cpu)))

    try:
        if runner is not None:
            report()
            for n, out in as_finished(runner, split, groups, "count", limit):
                rows, used, (pid, seconds) = out
                cpu[pid] = cpu.get(pid, 0.0) + seconds
                for k, row in zip(groups[n], rows):
                    results[k] = (row[0], row[1], row[2])
                    solutions += row[0]
                    ran_nodes += row[1]
                    left_estimate -= split[k].estimate
                    if book is not None:
                        book.record(k, results[k])
                report()
                if limit is not None and solutions >= limit:
                    break
    finally:
        if runner is not None:
            runner.close()
        if book is not None:
            book.save()
    total = solutions if limit is None else min(solutions, limit)
    complete = len(results) == len(split)
    stats = SearchStats(
        nodes=sum(r[1] for r in results.values()) + split.nodes_above,
        updates=sum(r[2] for r in results.values()), solutions=total,
        max_level=0, status=Status.COMPLETE if complete and (limit is None or
                                                              solutions < limit)
        else Status.LIMIT, seconds=time.perf_counter() - start, backend=used)
    return total, stats


def as_finished(runner: _Runner, split: Split, groups: Sequence[Sequence[int]], what: str,
                limit: Any, task: Callable[..., Any] | None = None,
                deadline: float | None = None) -> Iterator[tuple[int, Any]]:
    """Each chunk of ``groups`` (indices into ``split``) run by ``runner``, ``(chunk,
    result)`` as each finishes, in any order: a task that raises is sent again (every
    unfinished one when the pool made here broke and was made anew), one whose worker
    lacked the problem is sent again with it. Ends early, the rest cancelled, once
    ``deadline`` (``time.monotonic()``) has passed, or when the caller stops reading."""
    def submit(n: int, with_problem: bool = False) -> cf.Future:
        return runner.submit(what, split_forced(split, groups[n]), limit, with_problem, task)

    futures: dict[cf.Future, int] = {}
    try:
        for n in range(len(groups)):
            futures[submit(n)] = n
        while futures:
            wait = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            finished, _ = cf.wait(futures, timeout=wait, return_when=cf.FIRST_COMPLETED)
            if not finished:  # the deadline passed
                return
            for fut in finished:
                if fut not in futures:  # resubmitted when the pool broke
                    continue
                n = futures.pop(fut)
                try:
                    out = fut.result()
                except Exception as error:  # the worker's failure: retried
                    again = [n, *futures.values()] if runner.failed(n, error) else [n]
                    if len(again) > 1:
                        futures.clear()
                    for m in again:
                        futures[submit(m)] = m
                    continue
                if isinstance(out, str) and out == _MISSING:
                    futures[submit(n, True)] = n
                    continue
                yield n, out
    finally:
        for f in futures:
            f.cancel()


def _succeeded(future: cf.Future) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def split_forced(split: Split, group: Sequence[int]) -> list[list[int]]:
    return [list(split[k].forced) for k in group]


def solutions_split(problem: ExactCover, split: Split, *, executor: cf.Executor | None,
                    workers: int | None, backend: str, limit: int | None = None,
                    retries: int = 3, ahead: int | None = None,
                    stats: SearchStats | None = None) -> Iterator[list[int]]:
    """The solutions of ``problem`` through ``split``'s subproblems on ``executor``, in
    the serial search's order; at most ``ahead`` chunks (default: twice the workers) are
    searched ahead of the one being yielded, so memory stays bounded. ``stats`` (if
    given) follow the run: solutions yielded, nodes of the chunks done, the status."""
    stats = SearchStats(backend=backend) if stats is None else stats
    start = time.perf_counter()
    stats.nodes = split.nodes_above
    if not len(split):  # no part: the tree ends above the cut, without a solution
        stats.status = Status.COMPLETE
        return
    runner = _Runner(problem, split, executor, workers, backend, retries)
    groups = chunks(split, range(len(split)), _target(backend, split.estimate,
                                                      runner.workers) / 4)

    def submit(n: int, with_problem: bool) -> cf.Future:
        return runner.submit("solutions", split_forced(split, groups[n]), limit,
                             with_problem)

    try:
        for rows, used in _in_order(len(groups), submit, ahead or 2 * runner.workers,
                                    runner.failed):
            stats.backend = used
            for sols, part_nodes, part_updates in rows:
                stats.nodes += part_nodes
                stats.updates += part_updates
                for s in sols:
                    stats.solutions += 1
                    stats.seconds = time.perf_counter() - start
                    if limit is not None and stats.solutions >= limit:
                        stats.status = Status.LIMIT
                        yield s
                        return
                    yield s
        stats.status = Status.COMPLETE
    finally:
        stats.seconds = time.perf_counter() - start
        runner.close()


class SplitSearch(Lazy):
    """[`solutions_split`][] with the protocol of [`dlx.Search`][]: iterate for the
    solutions (in the serial order), ``count()``, live ``stats`` (``nodes`` as the chunks
    come back); ``on_finish`` gets the stats once the run ends or stops at its limit."""

    def __init__(self, problem: ExactCover, split: Split, *, executor: cf.Executor | None,
                 workers: int | None, backend: str, limit: int | None,
                 on_finish: Callable[[SearchStats], None] | None = None) -> None:
        self.stats = SearchStats(backend=backend)
        self._on_finish = on_finish
        self._run = solutions_split(problem, split, executor=executor, workers=workers,
                                    backend=backend, limit=limit, stats=self.stats)

    def __next__(self) -> list[int]:
        try:
            return next(self._run)
        except StopIteration:
            self._finish()
            raise
        finally:
            if self.stats.status is Status.LIMIT:
                self._finish()

    def __repr__(self) -> str:
        return f"<dlx SplitSearch {self.stats}>"

    def _finish(self) -> None:
        if self._on_finish is not None:
            self._on_finish(self.stats)
            self._on_finish = None


def _in_order(n: int, submit: Callable[[int, bool], cf.Future], ahead: int,
              failed: Callable[[int, Exception], bool]) -> Iterator[Any]:
    """The results of tasks ``0..n-1`` in order, at most ``ahead`` started beyond the one
    awaited. ``submit(k, with_problem)`` starts task ``k``; a task that raises is started
    again (all unfinished ones when ``failed`` says the pool was made anew); one whose
    worker lacked the problem is started again with it."""
    futures: dict[int, cf.Future] = {}
    started = 0
    try:
        for k in range(n):
            while started < n and started <= k + ahead:
                futures[started] = submit(started, False)
                started += 1
            while True:
                try:
                    out = futures[k].result()
                except Exception as error:  # the worker's failure: retried
                    again = [m for m, f in futures.items() if not _succeeded(f)] \
                        if failed(k, error) else [k]
                    for m in again:
                        futures[m] = submit(m, False)
                    continue
                if isinstance(out, str) and out == _MISSING:
                    futures[k] = submit(k, True)
                    continue
                break
            del futures[k]
            yield out
    finally:
        for f in futures.values():
            f.cancel()


def map_ordered(executor: cf.Executor, fn: Callable[..., Any], tasks: Sequence[tuple],
                *, ahead: int | None = None, retries: int = 3) -> Iterator[Any]:
    """``fn(*task)`` for each task on ``executor``, the results in the tasks' order, at
    most ``ahead`` tasks (default: twice the executor's workers, else the CPUs) started
    beyond the one awaited; a task that raises is tried again, ``retries`` times, then
    [`dlx.DistributedError`][]. (How ``sudoku.solve_many`` runs chunks of puzzles.)"""
    tries: dict[int, int] = {}

    def submit(k: int, _: bool) -> cf.Future:
        try:
            return executor.submit(fn, *tasks[k])
        except (RuntimeError, cf.BrokenExecutor) as error:
            raise DistributedError(f"the executor refuses tasks ({type(error).__name__}: "
                                   f"{error})") from error

    def failed(k: int, error: Exception) -> bool:
        tries[k] = tries.get(k, 0) + 1
        if tries[k] > retries or isinstance(error, cf.BrokenExecutor):
            raise DistributedError(f"task {k} failed {tries[k]} times; last error: "
                                   f"{type(error).__name__}: {error}") from error
        return False

    workers = getattr(executor, "_max_workers", None) or os.cpu_count() or 1
    return _in_order(len(tasks), submit, ahead or 2 * workers, failed)
