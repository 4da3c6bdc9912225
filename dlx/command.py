"""The plumbing of the two commands, ``dlx`` (`dlx.cli`) and ``sudoku``
(`sudoku.cli`), written once: reading the input, writing output that survives a
closed pipe, the argparse types of budgets, the choice of a progress line, the guarded
``main`` that turns every failure into one line on stderr and an [`dlx.ExitCode`][],
and the one local pool of worker processes.

**The rule.** ``sudoku`` imports only names in ``dlx.__all__`` and this module
(``dlx.command``): the library's public face, and the commands' shared plumbing. A test
(``tests/test_architecture.py``) parses every ``sudoku`` module's imports, those inside functions
included, and fails on any other ``dlx`` import.

**Failures.** A command raises [`CommandError`][] (a usage error, unreadable input, a
failed write: [`OutputError`][]) and `guarded` reports it as ``prog: message``
with the error's exit code. A broken pipe (``dlx ... | head``) means the reader has had
enough: exit 0, quietly. A distributed run that fails ([`dlx.DistributedError`][]: a
cluster, or a task of the local [`Pool`][] that failed on every try) stops the run:
exit 3. Ctrl-C: 130.
Only writes to stdout go through [`Output`][], so any other ``OSError`` (a checkpoint,
a cluster) is not mistaken for a failed stdout.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from .arguments import (
    RENAMED,
    STRATEGIES,
    callable_arg,
    max_workers,
    strategy_arg,
    usable_cpus,
    workers_arg,
)
from .budget import count_budget, time_budget
from .distribute import map_ordered, open_executor
from .errors import ArgumentError, DistributedError
from .jit import own_process
from .progress import Progress, SearchLine
from .status import ExitCode

__all__ = [
    "BOM",
    "RENAMED",
    "STRATEGIES",
    "Command",
    "CommandError",
    "Output",
    "OutputError",
    "Pool",
    "Progress",
    "SearchLine",
    "WorkerError",
    "callable_arg",
    "count_type",
    "executor",
    "isatty",
    "map_ordered",
    "max_workers",
    "open_executor",
    "own_process",
    "seconds_type",
    "show_progress",
    "silence_stdout",
    "strategy_arg",
    "usable_cpus",
    "worker_count",
    "workers_arg",
    "workers_type",
]

BOM = "\ufeff"
"""A byte-order mark, which a UTF-8 input may start with: skipped."""


# ----- failures and their exit codes ---------------------------------------------------------


class CommandError(Exception):
    """A failure of the command as a whole: reported as one line, ``prog: message``, and
    exit ``code``; with ``usage``, the usage line is printed first."""

    def __init__(self, message: str, code: ExitCode = ExitCode.USAGE,
                 usage: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.usage = usage


class OutputError(CommandError):
    """stdout cannot be written: closed, a full disk, an encoding that lacks a character.
    (A broken pipe is no error: it passes as ``BrokenPipeError``.)"""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, ExitCode.OUTPUT)
        self.reason = reason


@dataclass(frozen=True)
class Command:
    """How one command speaks: its name (the prefix of its messages) and its words for
    standard input and for a failed write, which each command has kept as it was."""

    prog: str
    stdin: str = "stdin"
    """How a message names standard input: ``cannot read stdin: ...``."""
    stdin_closed: str = "it is closed"
    output: str = "cannot write output"
    """How a message begins that says stdout cannot be written."""
    newline_on_interrupt: bool = False
    """Ctrl-C ends the line it came on (after ``^C``), so the shell's prompt starts clean."""

    def say(self, text: str) -> None:
        """A line on stderr, if there is one that can be written: failing to report a
        failure is no reason for another."""
        if sys.stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write(text + "\n")
                sys.stderr.flush()

    def fail(self, message: str, code: ExitCode = ExitCode.USAGE) -> ExitCode:
        """Report ``message`` as ``prog: message`` on stderr; return ``code``."""
        self.say(f"{self.prog}: {message}")
        return code

    def main(self, parser: argparse.ArgumentParser, argv: list[str] | None,
             body: Callable[[argparse.Namespace], int]) -> int:
        """Parse ``argv`` and run ``body`` on it, guarded: every failure is one line on
        stderr and an exit code (see the module's docstring), never a traceback. A bad
        command line is USAGE, ``--help`` OK (argparse's ``SystemExit`` is caught)."""
        if sys.stderr is None:  # 2>&-: the messages are lost, but they must not go to stdout
            sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the process's own stderr)
        try:
            try:
                args = parser.parse_args(argv)
            except SystemExit as stop:  # --help (0) or a bad command line (2)
                if sys.stdout is not None:
                    Output(sys.stdout).flush()  # --help to a full disk is an output error
                return ExitCode.OK if stop.code in (0, None) else ExitCode.USAGE
            return body(args)
        except OutputError as e:
            silence_stdout()
            return self.fail(f"{self.output}: {e.reason}", ExitCode.OUTPUT)
        except CommandError as e:
            if e.usage:
                with contextlib.suppress(OSError, ValueError):
                    parser.print_usage(sys.stderr)
                return self.fail(f"error: {e}", e.code)
            return self.fail(str(e), e.code)
        except DistributedError as e:  # a cluster, or a worker process, failed
            return self.fail(str(e), ExitCode.STOPPED)
        except BrokenPipeError:  # `... | head`: the reader has had enough; stop quietly
            silence_stdout()
            return ExitCode.OK
        except KeyboardInterrupt:
            if self.newline_on_interrupt:
                self.say("")
            return ExitCode.INTERRUPTED

    def read(self, path: str, decode: Callable[[bytes], str]) -> str:
        """The text of file ``path`` (``-``: standard input), its bytes decoded by
        ``decode``; a text stream without a byte buffer (a StringIO put in place of
        stdin) is read as it is. Unreadable (missing, a NUL in the name, stdin closed or
        not decodable): [`CommandError`][], USAGE, naming the input."""
        name = self.stdin if path == "-" else path
        try:
            if path != "-":
                with open(path, "rb") as f:
                    return decode(f.read())
            if sys.stdin is None:  # <&-
                raise CommandError(f"cannot read {name}: {self.stdin_closed}")
            binary = getattr(sys.stdin, "buffer", None)
            return sys.stdin.read() if binary is None else decode(binary.read())
        except OSError as e:
            raise CommandError(f"cannot read {name}: {e.strerror or e}") from None
        except UnicodeDecodeError as e:  # a text stdin that is not UTF-8
            raise CommandError(f"cannot read {name}: {e}") from None
        except ValueError as e:  # a NUL in the name, a closed stream
            if type(e) is not ValueError:  # a decoder's own error (a format error...)
                raise
            raise CommandError(f"cannot read {name}: bad file name ({e})" if path != "-"
                               else f"cannot read {name}: {e}") from None


class Output:
    """stdout for a command: a failed write other than a broken pipe becomes an
    [`OutputError`][]; a broken pipe passes, for [`Command.main`][] to end quietly."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        self._do(lambda stream: stream.write(text))

    def flush(self) -> None:
        self._do(lambda stream: stream.flush())

    def _do(self, action: Callable[[TextIO], object]) -> None:
        if self.stream is None:
            raise OutputError("stdout is closed")
        try:
            action(self.stream)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as e:  # ValueError: a closed file, UnicodeEncodeError
            raise OutputError(getattr(e, "strerror", None) or str(e)) from None


def silence_stdout() -> None:
    """After a broken pipe or a failed write, point stdout at /dev/null so that Python's
    flush at exit neither fails again nor prints "Exception ignored" (and exits 120).
    A stdout with no file descriptor (a StringIO in tests) is left alone."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)


def isatty(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal (a closed or missing stream is not)."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def show_progress(flag: bool | None, default: bool | None = None) -> bool:
    """``--progress``/``--no-progress`` if given, else ``default``, else whether stderr is
    a terminal."""
    if flag is not None:
        return flag
    return isatty(sys.stderr) if default is None else default


def executor(spec: str, workers: int | None = None) -> Any:
    """``--executor SPEC``: [`dlx.distribute.open_executor`][] (use its ``executor``,
    then call its ``close``); a spec that names none, or a cluster that cannot be
    reached, is a usage error naming ``--executor``, not a failed stdout."""
    try:
        return open_executor(spec, workers)
    except (ArgumentError, OSError) as e:
        raise CommandError(f"--executor: {e}") from None


# ----- argparse types of budgets ----------------------------------------------------------


def count_type(name: str) -> Callable[[str], int]:
    """An argparse type for a count (``--limit``, ``--max-nodes``...): a whole number
    written as one, at least 1 (a command line that asks for no nodes or no solutions
    is taken for a mistake), checked and clamped by [`dlx.count_budget`][] under
    ``name``, so that the commands say what the libraries say."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        try:
            return count_budget(value, name, 1)
        except ArgumentError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    convert.__name__ = name  # argparse names the type in some messages
    return convert


def seconds_type(name: str = "timeout") -> Callable[[str], float | None]:
    """An argparse type for a time budget: the text read as a number of seconds, then
    checked by [`dlx.time_budget`][] (>= 0; ``inf``, none; NaN refused: a NaN deadline
    is never reached, so it would mean "no timeout" in disguise)."""

    def convert(text: str) -> float | None:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number of seconds, got {text!r}") from None
        try:
            return time_budget(value, name)
        except ArgumentError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    convert.__name__ = name
    return convert


def workers_type(name: str = "workers") -> Callable[[str], int]:
    """An argparse type for a number of local worker processes (``dlx --workers``): a
    whole number checked by ``dlx.arguments.workers_arg`` under ``name``, so that a
    number past the one bound (``dlx.arguments.max_workers``: 8 per usable CPU) is
    refused with the library's message, exit 2, before any pool is made."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        try:
            return workers_arg(value, name) or 0
        except ArgumentError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    convert.__name__ = name
    return convert


# ----- the one local pool of worker processes -------------------------------------------


def worker_count(jobs: int, tasks: int) -> int:
    """Worker processes for ``jobs`` (0: one per CPU) and ``tasks`` tasks: never more
    than the usable CPUs (each worker loads numba, ~0.5 s and ~100 MB) or the tasks, so
    never past the bound of ``dlx.arguments.max_workers``, which [`Pool`][] checks."""
    cpus = usable_cpus()
    return max(1, min(jobs or cpus, cpus, tasks))


class WorkerError(DistributedError):
    """A task failed in a worker process: it raised (a bug), or its process died (killed,
    out of memory). The callers try a failed task again a few times, then stop the run
    with a [`dlx.DistributedError`][]: one line, exit 3."""


def _serve(conn: Any) -> None:
    """A worker's loop: receive ``(fn, args)``, send back ``(True, fn(*args))`` or
    ``(False, "ErrorName: message")``; None ends it. Ctrl-C is the parent's to handle: it
    kills the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    own_process()
    while (call := conn.recv()) is not None:
        fn, args = call
        try:
            result = fn(*args)
        except Exception as e:  # the message travels, not the exception (it may not pickle)
            conn.send((False, f"{type(e).__name__}: {e}"))
        else:
            conn.send((True, result))


class Pool(cf.Executor):
    """``count`` local worker processes, a ``concurrent.futures.Executor``: the one pool
    of both commands (``dlx --workers``, through `dlx.distribute`; ``sudoku -j``,
    through [`map_ordered`][dlx.command.map_ordered]), so that both stop the same way.

    Each worker has its own duplex pipe, and a task goes to the worker with the fewest
    tasks under way; one thread reads the results as they come and completes the
    futures. Nothing is shared between workers, no queue and no lock, so [`kill`][] can
    end them at any moment and return at once (a ``multiprocessing.Pool`` can hang forever
    in ``terminate()`` when a worker holds its shared result queue's lock). A worker that
    dies fails its tasks with [`WorkerError`][] (the callers send them again) and is
    replaced at the next task. Use as a context manager: a normal exit lets the workers
    finish and end, an exception (Ctrl-C, a broken pipe, a run that failed) kills them.
    ``count`` is checked by ``dlx.arguments.workers_arg`` (1 to
    ``dlx.arguments.max_workers``) before any process starts.
    """

    POLL = 0.05
    """Seconds the reading thread waits before it looks again for new workers and tasks."""

    def __init__(self, count: int) -> None:
        count = workers_arg(count) or 0  # the one bound, before any process starts
        self._max_workers = count  # how many tasks to keep ahead: read by dlx.distribute
        self._lock = threading.Lock()
        self._processes: list[Any] = [None] * count
        self._pipes: list[Any] = [None] * count
        self._pending: list[deque[cf.Future]] = [deque() for _ in range(count)]
        self._closed = False
        try:
            for w in range(count):
                self._start(w)
        except BaseException:  # a fork that failed, Ctrl-C: no worker is left behind
            self.kill()
            raise
        self._reader = threading.Thread(target=self._read, daemon=True, name="dlx-pool")
        self._reader.start()

    def _start(self, w: int) -> None:
        import multiprocessing

        mine, theirs = multiprocessing.Pipe()
        process = multiprocessing.Process(target=_serve, args=(theirs,), daemon=True)
        self._processes[w], self._pipes[w] = process, mine
        process.start()
        theirs.close()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        """Run ``fn(*args)`` on the worker with the fewest tasks under way."""
        if kwargs:
            raise TypeError("Pool.submit takes positional arguments only")
        future: cf.Future = cf.Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the pool is shut down")
            w = min(range(len(self._pending)), key=lambda k: len(self._pending[k]))
            if self._pipes[w] is None:  # died: a new one in its place
                self._start(w)
            self._pending[w].append(future)
            pipe = self._pipes[w]
        with contextlib.suppress(OSError, ValueError):  # died since: the reader fails its tasks
            pipe.send((fn, args))  # outside the lock: a large task waits for the worker
        return future

    def _read(self) -> None:
        """The reading thread: each result to its future, in each worker's order."""
        from multiprocessing.connection import wait

        while True:
            with self._lock:
                if self._closed:
                    return
                busy: dict[Any, int] = {pipe: w for w, pipe in enumerate(self._pipes)
                        if pipe is not None and self._pending[w]}
            try:
                ready: list[Any] = wait(list(busy), timeout=self.POLL) if busy else []
                if not busy:
                    time.sleep(self.POLL)
                for pipe in ready:
                    w = busy[pipe]
                    try:
                        ok, value = pipe.recv()
                    except (EOFError, OSError):
                        self._lost(w)
                        continue
                    with self._lock:
                        future = self._pending[w].popleft()
                    with contextlib.suppress(cf.InvalidStateError):  # cancelled meanwhile
                        if ok:
                            future.set_result(value)
                        else:
                            future.set_exception(WorkerError(value))
            except (OSError, ValueError):  # a pipe closed by kill() under our feet
                if self._closed:
                    return
                raise

    def _lost(self, w: int) -> None:
        """Worker ``w`` died: its tasks fail, and it is reaped (replaced at the next task)."""
        with self._lock:
            if self._closed:  # killed: kill() reaps it
                return
            process, pipe, failed = self._processes[w], self._pipes[w], self._pending[w]
            self._processes[w] = self._pipes[w] = None
            self._pending[w] = deque()
        process.join(timeout=5)
        error = WorkerError(f"worker process {w + 1} ended unexpectedly (exit status "
                            f"{process.exitcode})")
        pipe.close()
        process.close()
        for future in failed:
            with contextlib.suppress(cf.InvalidStateError):
                future.set_exception(error)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """With ``wait`` and no task under way, let the workers end; else [`kill`][]
        them (tasks still under way have no one left to read them)."""
        with self._lock:
            busy = any(self._pending)
        if busy or not wait or cancel_futures:
            self.kill()
            return
        for pipe in self._pipes:
            if pipe is not None:
                with contextlib.suppress(OSError, ValueError):
                    pipe.send(None)
        for process in self._processes:
            if process is not None:
                process.join()
        self._release()

    def kill(self) -> None:
        """End the workers now, whatever they are doing (SIGKILL), and reap them; the
        tasks under way fail."""
        with self._lock:
            self._closed = True
        started = [p for p in self._processes if p is not None and p.pid is not None]
        for process in started:
            process.kill()
        for process in started:
            process.join()
        self._release()

    def _release(self) -> None:
        with self._lock:
            self._closed = True
            pending = [future for futures in self._pending for future in futures]
            self._pending = [deque() for _ in self._pending]
        reader = getattr(self, "_reader", None)
        if reader is not None and reader is not threading.current_thread():
            reader.join()
        for pipe in self._pipes:
            if pipe is not None:
                pipe.close()
        for process in self._processes:
            if process is not None:
                process.close()
        self._processes = [None] * len(self._processes)
        self._pipes = [None] * len(self._pipes)
        for future in pending:
            with contextlib.suppress(cf.InvalidStateError):
                future.set_exception(WorkerError("the pool was stopped"))

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.shutdown()
        else:
            self.kill()
