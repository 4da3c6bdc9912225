"""The ``sudoku`` command: solve (or count the solutions of) puzzles from the command line.

One puzzle comes as an argument (a row of 81 symbols, or a drawn grid in quotes) or by name
(``--named``); many come one per line from a file or stdin, blank lines and ``#`` comments
skipped. With ``--variant`` (x, windoku, jigsaw, killer, rect; ``--box RxC`` for
rectangular boxes) each puzzle is a line of that variant's format
(:func:`sudoku.formats.read_variant`), which may carry its own rules (a jigsaw's regions,
a killer's cages): consecutive lines with the same rules are solved in one batch, and a
line that does not parse is a malformed puzzle.

Input is UTF-8: a leading byte-order mark is skipped, and bytes that are not UTF-8 read as
U+FFFD, which is no symbol, so only their line fails. Answers go to stdout, one per
solved puzzle, in input order; a puzzle that fails prints nothing there, its line number
and reason go to stderr. Everything else that goes wrong is one ``sudoku: ...`` line on
stderr, never a traceback.

The exit status is :class:`dlx.ExitCode`, the table shared with the ``dlx`` command (and
printed by ``--help``, generated from it): 0 all answered; 1 some puzzle has no solution
(or no unique one); 2 a usage error, a malformed puzzle line, a bad alphabet, input that
cannot be read; 3 ``--max-nodes`` or ``--timeout`` stopped some puzzle; 4 the output cannot
be written (stdout closed, disk full); 130 Ctrl-C. When puzzles fail in different ways the
status is the first of 2, 3, 1 that applies (:data:`PRECEDENCE`). A reader that stops
early (``sudoku -f big.txt | head``) is not an error: the command stops quietly with 0.

Many puzzles are solved by chunks, each in one batch search (:func:`sudoku.solve_many`),
spread over ``-j N`` worker processes, at most one per usable CPU and one per chunk. The
workers are this module's own (:class:`Workers`): each has its own pipes, so that when the
reader goes away or Ctrl-C comes they can be killed on the spot; a
``multiprocessing.Pool`` can hang forever in ``terminate()`` when a worker holds its
shared result queue's lock.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, TextIO

from dlx import ExitCode, backend_names, get_backend, own_process

from .arguments import STRATEGIES
from .batch import count_many, solve_many
from .errors import (
    AlphabetError,
    ClashError,
    MultipleSolutionsError,
    NoSolutionError,
    SearchStoppedError,
    SudokuError,
)
from .formats import VARIANTS, Cages, read_killer, read_variant
from .grid import check_alphabet, format_grid, parse_string
from .layout import MAX_SIDE, Layout
from .named import load_named, read_lines
from .solver import HARD_SIDE, count_solutions, solve_string

__all__ = ["PRECEDENCE", "Answer", "Options", "Task", "Workers", "exit_code", "main",
           "run_chunk", "run_one", "run_task", "variant_tasks", "worker_count"]

PROG = "sudoku"

MEANING = {
    ExitCode.OK: "every puzzle solved (or counted)",
    ExitCode.UNSOLVED: "some puzzle has no solution (clashing givens, none at all, or more "
                       "than one with --unique)",
    ExitCode.USAGE: "bad options or alphabet, a malformed puzzle, or input that cannot be "
                    "read",
    ExitCode.STOPPED: "--max-nodes or --timeout stopped some puzzle before it was decided",
    ExitCode.OUTPUT: "the output cannot be written (stdout closed, disk full)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
}
"""What each exit status means for this command; the numbers and names are dlx.ExitCode's."""

PRECEDENCE = (ExitCode.USAGE, ExitCode.STOPPED, ExitCode.UNSOLVED)
"""When puzzles fail in different ways, the exit status is the first of these that applies:
a malformed line is the most likely to be a mistake in the command itself, and a puzzle
stopped by a budget may yet have had a solution."""


@dataclass(frozen=True)
class Options:
    """What to do with each puzzle; picklable, so that worker processes get it too.
    ``layout`` is the puzzles' rules (None: square boxes by size), ``cages`` a killer's
    cages, drawn by ``pretty``."""

    count: bool = False
    limit: int | None = None
    unique: bool = False
    pretty: bool = False
    alphabet: str | None = None
    backend: str = "auto"
    timeout: float | None = None
    max_nodes: int | None = None
    strategy: str = "auto"
    layout: Layout | None = None
    cages: Cages | None = None


class Answer(NamedTuple):
    """One puzzle's outcome: ``code`` OK and the answer (a grid, or a count), or the exit
    status its failure calls for and ``"ErrorName: message"``."""

    code: ExitCode
    text: str

    @property
    def ok(self) -> bool:
        return self.code == ExitCode.OK


def exit_code(error: SudokuError) -> ExitCode:
    """The exit status a puzzle's error calls for: STOPPED for a budget, UNSOLVED for a
    puzzle that has no (unique) solution, USAGE for one that is malformed."""
    if isinstance(error, SearchStoppedError):
        return ExitCode.STOPPED
    if isinstance(error, (ClashError, NoSolutionError, MultipleSolutionsError)):
        return ExitCode.UNSOLVED
    return ExitCode.USAGE


def _failed(error: SudokuError) -> Answer:
    return Answer(exit_code(error), f"{type(error).__name__}: {error}")


def run_one(opts: Options, puzzle: str) -> Answer:
    """One puzzle solved or counted, or why not."""
    common = {"alphabet": opts.alphabet, "layout": opts.layout, "backend": opts.backend,
              "max_nodes": opts.max_nodes, "timeout": opts.timeout, "strategy": opts.strategy}
    try:
        if opts.count:
            answer: str | int = count_solutions(puzzle, opts.limit, **common)
        else:
            answer = solve_string(puzzle, unique=opts.unique, **common)
    except SudokuError as e:
        return _failed(e)
    return Answer(ExitCode.OK, _printed(opts, answer))


def run_chunk(opts: Options, puzzles: list[str]) -> list[Answer]:
    """:func:`run_one` for many puzzles at once: one batch search (:func:`sudoku.solve_many`,
    :func:`sudoku.count_many`) without a timeout (which a batch does not take) and with the
    plain strategy, else one puzzle at a time."""
    if opts.timeout is not None or _hard(opts, puzzles):
        return [run_one(opts, puzzle) for puzzle in puzzles]
    common = {"alphabet": opts.alphabet, "layout": opts.layout, "backend": opts.backend,
              "max_nodes": opts.max_nodes}
    if opts.count:
        answers: list[Any] = count_many(puzzles, opts.limit, **common)
    else:
        answers = solve_many(puzzles, unique=opts.unique, **common)
    return [_failed(answer) if isinstance(answer, SudokuError)
            else Answer(ExitCode.OK, _printed(opts, answer)) for answer in answers]


def _hard(opts: Options, puzzles: list[str]) -> bool:
    """True when ``opts.strategy`` searches some of ``puzzles`` the hard way (which only
    :func:`sudoku.solve_string` and :func:`sudoku.count_solutions` do): ``hard``, or
    ``auto`` and a side of at least 25 (a one-line puzzle of side N has N * N symbols)."""
    if opts.strategy != "auto":
        return opts.strategy == "hard"
    side = opts.layout.side if opts.layout is not None else \
        math.isqrt(max((len(p.strip()) for p in puzzles), default=0))
    return side >= HARD_SIDE


def _printed(opts: Options, answer: str | int) -> str:
    """An answer as printed: a count, a solution on one line, or drawn with ``--pretty``."""
    if not opts.pretty or isinstance(answer, int):
        return str(answer)
    geo, values = parse_string(str(answer), opts.alphabet, opts.layout)
    return format_grid(geo, values, pretty=True, cages=opts.cages)


Task = tuple[Options, list[str]] | list[Answer]
"""Work for :func:`run_task`: puzzles that share their options (and rules), or the answers
of lines already known to fail (variant lines that do not parse)."""


def run_task(task: Task) -> list[Answer]:
    """:func:`run_chunk` of an (options, puzzles) task; a list of answers is its own."""
    if isinstance(task, list):
        return task
    return run_chunk(*task)


def variant_tasks(opts: Options, lines: list[tuple[int, str]], variant: str,
                  block: tuple[int, int] | None) -> list[Task]:
    """Numbered lines of a variant format (:func:`sudoku.formats.read_variant`) as tasks in
    input order: consecutive lines with the same rules in one (options, givens) task, so
    that they are solved in one batch; a line that does not parse is its failure."""
    tasks: list[Task] = []
    key: tuple[Layout, Cages | None] | None = None
    for _, line in lines:
        try:
            if variant == "killer":
                layout, givens, cages = read_killer(line, block=block, alphabet=opts.alphabet)
            else:
                layout, givens = read_variant(line, variant, block=block,
                                              alphabet=opts.alphabet)
                cages = None
        except SudokuError as e:
            if not tasks or not isinstance(tasks[-1], list):
                tasks.append([])
            tasks[-1].append(_failed(e))  # type: ignore[union-attr]
            key = None
            continue
        if key is None or key != (layout, cages):
            key = (layout, cages)
            tasks.append((replace(opts, layout=layout, cages=cages), []))
        tasks[-1][1].append(givens)  # type: ignore[index]
    return tasks


# ----- worker processes ---------------------------------------------------------------------


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity on macOS and Windows
        return os.cpu_count() or 1


def worker_count(jobs: int, tasks: int) -> int:
    """Worker processes for ``-j jobs`` (0: one per CPU) and ``tasks`` chunks: never more
    than the usable CPUs (each worker loads numba, ~0.5 s and ~100 MB) or the chunks."""
    cpus = usable_cpus()
    return max(1, min(jobs or cpus, cpus, tasks))


class WorkerError(RuntimeError):
    """A worker process failed: a bug, or the process was killed (out of memory, say)."""


def _serve(conn: Any, work: Callable[[Any], Any], tasks: list[Any]) -> None:
    """A worker's loop: receive a task number, send back ``work(tasks[k])``; None ends it.
    Ctrl-C is the parent's to handle: it kills the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    own_process()
    while (k := conn.recv()) is not None:
        try:
            result = work(tasks[k])
        except Exception as e:  # sent back whole, for the parent to re-raise as its own
            conn.send(WorkerError(f"worker failed on task {k}: {type(e).__name__}: {e}"))
        else:
            conn.send(result)


class Workers:
    """``count`` worker processes that run ``work`` on ``tasks`` and hand back the results
    in order (:meth:`results`).

    Each worker has its own duplex pipe. The tasks go to the workers with the process (so
    a task message is just its number, a few bytes that never fill a pipe), task ``k`` to
    worker ``k % count``, two at a time each; results are read in task order, so a worker
    waits, its result written, until its turn. Nothing is shared between workers, no
    lock and no thread, so :meth:`kill` can end them at any moment and return at once.
    Use as a context manager: a normal exit ends them politely, an exception kills them.
    """

    DEPTH = 2
    """Tasks sent ahead to each worker, so that it never waits for its next one."""

    def __init__(self, count: int, work: Callable[[Any], Any], tasks: list[Any]) -> None:
        import multiprocessing

        self.tasks = tasks
        self.processes: list[Any] = []
        self.pipes: list[Any] = []
        try:
            for _ in range(count):
                mine, theirs = multiprocessing.Pipe()
                process = multiprocessing.Process(target=_serve, args=(theirs, work, tasks),
                                                  daemon=True)
                self.processes.append(process)
                self.pipes.append(mine)
                process.start()
                theirs.close()
        except BaseException:  # a fork that failed, Ctrl-C: no worker is left behind
            self.kill()
            raise

    def results(self) -> Iterator[Any]:
        """``work(task)`` for each task, in order."""
        count = len(self.pipes)
        ahead = min(len(self.tasks), self.DEPTH * count)
        for k in range(ahead):
            self.pipes[k % count].send(k)
        for k in range(len(self.tasks)):
            pipe = self.pipes[k % count]
            try:
                result = pipe.recv()
            except EOFError:
                code = self.processes[k % count].exitcode
                raise WorkerError(f"worker process {k % count + 1} ended unexpectedly "
                                  f"(exit status {code})") from None
            if isinstance(result, WorkerError):
                raise result
            if ahead < len(self.tasks):
                pipe.send(ahead)  # the next task for this worker: ahead % count == k % count
                ahead += 1
            yield result

    def close(self) -> None:
        """Let the workers finish and exit (after all results were read)."""
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(None)
        for process in self.processes:
            process.join()
        self._release()

    def kill(self) -> None:
        """End the workers now, whatever they are doing (SIGKILL), and reap them."""
        started = [process for process in self.processes if process.pid is not None]
        for process in started:
            process.kill()
        for process in started:
            process.join()
        self._release()

    def _release(self) -> None:
        for pipe in self.pipes:
            pipe.close()
        for process in self.processes:
            process.close()
        self.processes, self.pipes = [], []

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.close()
        else:
            self.kill()


CHUNK = 2048
"""Puzzles per batch search: large enough that Python's share per puzzle stays small, small
enough that progress moves and ``-j`` workers share the work evenly."""


@contextlib.contextmanager
def _answers(tasks: list[Task], jobs: int) -> Iterator[Iterator[list[Answer]]]:
    """Answers in input order, in lists, from this process or from worker processes; the
    workers are killed if the caller stops early with an exception (a broken pipe).
    Each task's puzzles are cut into chunks, each chunk one batch search."""
    total = sum(len(task[1]) for task in tasks if isinstance(task, tuple))
    chunks: list[Task] = []
    for task in tasks:
        if isinstance(task, list):
            chunks.append(task)
            continue
        opts, puzzles = task
        if opts.timeout is None:
            size = CHUNK
        else:  # one puzzle at a time: small chunks, some for each worker
            size = max(1, min(256, total // (worker_count(jobs, total) * 8)))
        chunks.extend((opts, puzzles[i : i + size]) for i in range(0, len(puzzles), size))
    count = worker_count(jobs, len(chunks))
    if count == 1:
        yield map(run_task, chunks)
        return
    with Workers(count, run_task, chunks) as workers:
        yield workers.results()


# ----- input and output -------------------------------------------------------------------


class InputError(Exception):
    """The input cannot be read at all (a missing file, stdin closed): a usage error."""


class OutputError(Exception):
    """stdout cannot be written: closed, a full disk, an encoding that lacks a symbol."""


BOM = "\ufeff"


def _read(source: str) -> str:
    """The text of a file, or of stdin for ``-``: UTF-8, a leading byte-order mark
    dropped, undecodable bytes read as U+FFFD (so that only their line fails)."""
    name = "stdin" if source == "-" else source
    try:
        if source != "-":
            with open(source, "rb") as f:
                data: bytes | str = f.read()
        elif sys.stdin is None:
            raise InputError("cannot read stdin: it is closed")
        else:
            binary = getattr(sys.stdin, "buffer", None)  # absent from a StringIO
            data = binary.read() if binary is not None else sys.stdin.read()
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror or e}") from None
    except ValueError as e:  # a UnicodeDecodeError of a text stdin, or a closed one
        raise InputError(f"cannot read {name}: {e}") from None
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return text.removeprefix(BOM)


class _Output:
    """stdout, whose failures other than a broken pipe become an OutputError."""

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
        except BrokenPipeError:  # the reader has had enough: main() stops quietly
            raise
        except (OSError, ValueError) as e:  # ValueError: a closed file, UnicodeEncodeError
            raise OutputError(getattr(e, "strerror", None) or str(e)) from None


def _say(text: str) -> None:
    """A line on stderr, if there is one that can be written: failing to report a failure
    is no reason for another."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(text + "\n")
            sys.stderr.flush()


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of what is still
    buffered does not fail again (a broken pipe, a full disk) and print a traceback."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A one-line counter on stderr, ``\\r  1234/49158 puzzles  5678/s``, redrawn at most
    ten times a second; :meth:`note` writes a message above it. Writing to stderr never
    fails: a stderr that is closed or broken just shows nothing."""

    def __init__(self, total: int, stream: TextIO | None, enabled: bool) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled and stream is not None
        self.start = self.last = time.perf_counter()
        self.width = 0

    def update(self, done: int, force: bool = False) -> None:
        now = time.perf_counter()
        if not self.enabled or (not force and now - self.last < 0.1):
            return
        self.last = now
        rate = done / (now - self.start) if now > self.start else 0.0
        text = f"  {done}/{self.total} puzzles  {rate:.0f}/s"
        self._write("\r" + text.ljust(self.width))
        self.width = len(text)

    def clear(self) -> None:
        if self.width:
            self._write("\r" + " " * self.width + "\r")
            self.width = 0

    def note(self, message: str) -> None:
        self.clear()
        self._write(message + "\n")

    def _write(self, text: str) -> None:
        if self.stream is not None:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write(text)
                self.stream.flush()


# ----- the command --------------------------------------------------------------------------


def _positive(kind: type) -> Callable[[str], Any]:
    """An argparse type: a number of ``kind`` greater than 0 (so not NaN)."""

    def convert(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {kind.__name__} value: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    return convert


def _box(text: str) -> tuple[int, int]:
    """An argparse type: ``RxC`` (e.g. ``2x3``), boxes of R rows and C columns."""
    rows, sep, cols = text.lower().partition("x")
    if not (sep and rows.isdigit() and cols.isdigit()) or int(rows) < 1 or int(cols) < 1 \
            or not 2 <= int(rows) * int(cols) <= MAX_SIDE:
        raise argparse.ArgumentTypeError(f"expected RxC (rows x columns of a box, e.g. 2x3, "
                                         f"R*C in 2..{MAX_SIDE}), got {text!r}")
    return int(rows), int(cols)


def _epilog() -> str:
    """The exit statuses, from dlx.ExitCode (a status this module does not describe is
    listed by its name), and the precedence among them."""
    lines = [ExitCode.table(MEANING)]
    first = ", ".join(f"{code.value} ({code.name})" for code in PRECEDENCE)
    lines.append(textwrap.fill(
        f"When puzzles fail in different ways, the status is the first of {first} that "
        "applies. A reader that stops early (sudoku ... | head) is not an error: 0.",
        width=79))
    return "\n".join(lines)


def _parser(names: list[str]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Solve Sudoku puzzles (4x4 to 36x36) with Knuth's Dancing Links.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("puzzle", nargs="?",
                   help="one puzzle: 81 symbols ('.' or '0' blank), or a drawn grid in quotes "
                        "(with --variant: one line of its format, in quotes)")
    p.add_argument("-f", "--file", metavar="FILE",
                   help="read puzzles one per line from FILE ('-' = stdin, the default); "
                        "UTF-8, a leading byte-order mark is skipped")
    p.add_argument("--named", metavar="NAME", choices=names,
                   help=f"a shipped famous puzzle: {', '.join(names)}")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--count", action="store_true",
                      help="print the number of solutions of each puzzle instead")
    what.add_argument("--unique", action="store_true",
                      help="fail for a puzzle with more than one solution")
    p.add_argument("--limit", type=_positive(int), metavar="N",
                   help="with --count: stop counting at N")
    p.add_argument("--pretty", action="store_true",
                   help="draw each solution as a grid (the default for one puzzle on a terminal)")
    p.add_argument("--variant", choices=VARIANTS,
                   help="read each puzzle in a variant's line format: x, windoku, rect "
                        "(GIVENS), jigsaw (GIVENS REGIONS), killer (CAGEMAP SUMS [GIVENS])")
    p.add_argument("--box", type=_box, metavar="RxC",
                   help="the boxes' rows x columns, e.g. 2x3 (with --variant rect; with "
                        "--variant killer when the grid is not 9x9)")
    p.add_argument("--alphabet", metavar="SYMBOLS",
                   help="the N symbols, e.g. 0123456789ABCDEF (default 1-9, then A-Z, a-z); "
                        "no '.', whitespace, '|', '-', '+' or '#'")
    p.add_argument("--backend", choices=backend_names(), default="auto", help="search kernel")
    p.add_argument("--strategy", choices=STRATEGIES, default="auto",
                   help="plain: Knuth's order; hard: restarts, weighted choice and lookahead "
                        "(for large minimal puzzles); auto (default): hard from 25x25 up")
    p.add_argument("--timeout", type=_positive(float), metavar="SECONDS",
                   help="give up on a puzzle after this long")
    p.add_argument("--max-nodes", type=_positive(int), metavar="N",
                   help="give up on a puzzle after N search nodes")
    p.add_argument("--progress", action="store_true",
                   help="show progress and a summary on stderr even when it is not a terminal")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="solve with N processes (0 = one per CPU; never more than the CPUs); "
                        "output stays in input order")
    return p


def main(argv: Iterable[str] | None = None) -> int:
    """Run the command; returns its exit status, a :class:`dlx.ExitCode`."""
    own_process()  # loading the compiled kernel may skip numba's import of scipy.linalg
    named = load_named()
    parser = _parser(sorted(named))
    try:
        try:
            args = parser.parse_args(None if argv is None else list(argv))
        except SystemExit as e:  # --help, or a usage error already printed by argparse
            if sys.stdout is not None:
                _Output(sys.stdout).flush()  # --help to a full disk is an output error too
            return e.code if isinstance(e.code, int) else ExitCode.USAGE
        problem = _usage_problem(args)
        if problem:
            return _usage(parser, problem)
        if sys.stdout is None:
            raise OutputError("stdout is closed")
        single = args.puzzle is not None or args.named is not None
        opts = Options(count=args.count, limit=args.limit, unique=args.unique,
                       pretty=not args.count and (args.pretty or (single and
                                                                  _isatty(sys.stdout))),
                       alphabet=args.alphabet, backend=args.backend,
                       timeout=args.timeout, max_nodes=args.max_nodes,
                       strategy=args.strategy)
        out = _Output(sys.stdout)
        if single:
            if args.variant:
                tasks = variant_tasks(opts, [(1, args.puzzle)], args.variant, args.box)
                answer = run_task(tasks[0])[0]
            else:
                answer = run_one(opts, args.puzzle if args.named is None
                                 else named[args.named])
            if answer.ok:
                out.write(answer.text + "\n")
            else:
                _say(f"{PROG}: {answer.text}")
            out.flush()
            return answer.code
        lines = read_lines(_read(args.file or "-"))
        tasks: list[Task] = variant_tasks(opts, lines, args.variant, args.box) \
            if args.variant else [(opts, [puzzle for _, puzzle in lines])]
        return _run_many(opts, lines, tasks, args.jobs,
                         args.progress or _isatty(sys.stderr), out)
    except InputError as e:
        _say(f"{PROG}: {e}")
        return ExitCode.USAGE
    except OutputError as e:
        _silence_stdout()
        _say(f"{PROG}: cannot write output: {e}")
        return ExitCode.OUTPUT
    except BrokenPipeError:  # e.g. `sudoku -f big.txt | head`: stop quietly
        _silence_stdout()
        return ExitCode.OK
    except KeyboardInterrupt:
        _say("")
        return ExitCode.INTERRUPTED


def _usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with a command line that argparse accepted, or None."""
    sources = [args.puzzle is not None, args.file is not None, args.named is not None]
    if sum(sources) > 1:
        return "give one of: a puzzle, -f FILE, --named NAME"
    if args.limit is not None and not args.count:
        return "--limit needs --count"
    if args.jobs < 0:
        return f"-j must be 0 or more, got {args.jobs}"
    if args.variant and args.named is not None:
        return "--named puzzles are plain: give a --variant line, or -f FILE"
    if args.box is not None and args.variant not in ("rect", "killer"):
        return "--box needs --variant rect or --variant killer"
    if args.variant == "rect" and args.box is None:
        return "--variant rect needs --box RxC (e.g. --box 2x3)"
    try:
        # a variant's side is its lines': the alphabet is checked here for its symbols
        size = len(args.alphabet) if args.variant and args.alphabet is not None else 0
        check_alphabet(args.alphabet, Layout.latin(size) if 2 <= size <= MAX_SIDE else None)
    except AlphabetError as e:
        return f"--alphabet: {e}"
    if args.backend == "numba":
        try:
            get_backend("numba")
        except ImportError as e:
            return str(e)
    if not any(sources) and _isatty(sys.stdin):
        return "no puzzle given (pass one, or -f FILE, or pipe puzzles in)"
    return None


def _run_many(opts: Options, lines: list[tuple[int, str]], tasks: list[Task], jobs: int,
              show: bool, out: _Output) -> ExitCode:
    """Solve numbered puzzle lines (read into ``tasks``, in the same order); answers to
    ``out``, failures and progress to stderr."""
    progress = Progress(len(lines), sys.stderr, show)
    done = failed = 0
    codes: set[ExitCode] = set()
    with _answers(tasks, jobs) as chunks:
        for answers in chunks:
            if not opts.pretty and all(a.ok for a in answers):  # the usual case
                # a few KB a write: one write larger than a pipe that then breaks loses
                # the BrokenPipeError in CPython 3.11 (measured: the exit status said 0)
                for i in range(0, len(answers), 64):
                    out.write("".join(a.text + "\n" for a in answers[i : i + 64]))
                done += len(answers)
                progress.update(done)
                continue
            for answer in answers:
                if answer.ok:
                    if opts.pretty and done > failed:
                        out.write("\n")
                    out.write(answer.text + "\n")
                else:
                    failed += 1
                    codes.add(answer.code)
                    progress.note(f"line {lines[done][0]}: {answer.text}")
                done += 1
                progress.update(done)
        out.flush()
    if show:
        progress.clear()
        seconds = time.perf_counter() - progress.start
        n = len(lines)
        rate = f" ({n / seconds:.0f} puzzles/s)" if seconds > 0 else ""
        verb = "counted" if opts.count else "solved"
        progress.note(f"{n} puzzles: {n - failed} {verb}, {failed} failed in {seconds:.2f} s"
                      f"{rate}")
    return next((code for code in PRECEDENCE if code in codes), ExitCode.OK)


def _usage(parser: argparse.ArgumentParser, message: str) -> ExitCode:
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            parser.print_usage(sys.stderr)
    _say(f"{PROG}: error: {message}")
    return ExitCode.USAGE
