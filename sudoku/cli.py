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
import os
import signal
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, TextIO

from dlx import (
    ArgumentError,
    BackendName,
    DistributedError,
    ExitCode,
    Progress,
    backend_names,
    get_backend,
    map_ordered,
    open_executor,
    own_process,
)

from . import __version__
from .arguments import STRATEGIES, time_budget
from .batch import count_many, solve_many
from .draw import draw_board
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
from .solver import count_solutions, solve_string

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
    backend: BackendName = "auto"
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
    common: dict[str, Any] = {"alphabet": opts.alphabet, "layout": opts.layout,
                              "backend": opts.backend, "max_nodes": opts.max_nodes,
                              "timeout": opts.timeout, "strategy": opts.strategy}
    try:
        if opts.count:
            answer: str | int = count_solutions(puzzle, opts.limit, **common)
        else:
            answer = solve_string(puzzle, unique=opts.unique, **common)
    except SudokuError as e:
        return _failed(e)
    return Answer(ExitCode.OK, _printed(opts, answer))


def run_chunk(opts: Options, puzzles: list[str],
              progress: Callable[[int], object] | None = None) -> list[Answer]:
    """:func:`run_one` for many puzzles at once: :func:`sudoku.solve_many` or
    :func:`sudoku.count_many` with the chosen strategy (one batch search for the plain
    one), or, with a timeout (which a batch does not take), one puzzle at a time.
    ``progress`` gets the puzzles done so far, from time to time."""
    if opts.timeout is not None:
        one_by_one = []
        for k, puzzle in enumerate(puzzles):
            one_by_one.append(run_one(opts, puzzle))
            if progress is not None:
                progress(k + 1)
        return one_by_one
    common: dict[str, Any] = {"alphabet": opts.alphabet, "layout": opts.layout,
                              "backend": opts.backend, "max_nodes": opts.max_nodes,
                              "strategy": opts.strategy}
    if opts.count:
        answers: list[Any] = count_many(puzzles, opts.limit, progress=progress, **common)
    else:
        answers = solve_many(puzzles, unique=opts.unique, progress=progress, **common)
    return [_failed(answer) if isinstance(answer, SudokuError)
            else Answer(ExitCode.OK, _printed(opts, answer)) for answer in answers]


def _printed(opts: Options, answer: str | int) -> str:
    """An answer as printed: a count, a solution on one line, or drawn with ``--pretty``."""
    if not opts.pretty or isinstance(answer, int):
        return str(answer)
    geo, values = parse_string(str(answer), opts.alphabet, opts.layout)
    return format_grid(geo, values, pretty=True, cages=opts.cages)


Task = tuple[Options, list[str]] | list[Answer]
"""Work for :func:`run_task`: puzzles that share their options (and rules), or the answers
of lines already known to fail (variant lines that do not parse)."""


def run_task(task: Task, progress: Callable[[int], object] | None = None) -> list[Answer]:
    """:func:`run_chunk` of an (options, puzzles) task; a list of answers is its own."""
    if isinstance(task, list):
        return task
    return run_chunk(*task, progress=progress)


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
        tasks[-1][1].append(givens)  # type: ignore[index, union-attr]
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
def _answers(tasks: list[Task], jobs: int,
             progress: Callable[[int], object] | None = None,
             executor: Executor | None = None) -> Iterator[Iterator[list[Answer]]]:
    """Answers in input order, in lists, from this process or from worker processes; the
    workers are killed if the caller stops early with an exception (a broken pipe).
    Each task's puzzles are cut into chunks, each chunk one batch search; ``executor``
    (``--executor``): the chunks run there instead."""
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
    if executor is not None:
        yield map_ordered(executor, run_task, [(chunk,) for chunk in chunks])
        return
    count = worker_count(jobs, len(chunks))
    if count == 1:  # progress within each chunk too (worker processes report by chunk)
        yield (run_task(chunk, progress) for chunk in chunks)
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


# ----- the command --------------------------------------------------------------------------


def _seconds(text: str) -> float | None:
    """An argparse type: ``timeout`` as the library takes it (:func:`time_budget`: seconds
    >= 0, ``inf`` for none, NaN refused), so that 0 stops at once and says so with exit
    status 3, as in the ``dlx`` command."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    try:
        return time_budget(value)
    except ArgumentError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


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
    p.add_argument("-V", "--version", action="version",
                   version=f"%(prog)s {__version__} (dancing-cover)")
    p.add_argument("puzzle", nargs="?",
                   help="one puzzle: 81 symbols ('.' or '0' blank), or a drawn grid in quotes "
                        "(with --variant: one line of its format, in quotes)")
    p.add_argument("-f", "--file", metavar="FILE",
                   help="read puzzles one per line from FILE ('-' = stdin, the default); "
                        "UTF-8, a leading byte-order mark is skipped")
    p.add_argument("--named", metavar="NAME", choices=names,
                   help=f"a shipped famous puzzle: {', '.join(names)}")
    what = p.add_mutually_exclusive_group()
    what.add_argument("-c", "--count", action="store_true",
                      help="print the number of solutions of each puzzle instead")
    what.add_argument("--unique", action="store_true",
                      help="fail for a puzzle with more than one solution")
    p.add_argument("-n", "--limit", type=_positive(int), metavar="N",
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
    p.add_argument("--svg", metavar="FILE",
                   help="with one puzzle: also draw it, solved, as an SVG picture in FILE")
    p.add_argument("--backend", choices=backend_names(), default="auto", help="search kernel")
    p.add_argument("--strategy", choices=STRATEGIES, default="auto",
                   help="plain: Knuth's order; hard: a reduction at the root, then clause "
                        "learning (for large minimal puzzles); auto (default): hard from "
                        "25x25 up")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="give up on a puzzle after this long (>= 0; inf: never), as in dlx")
    p.add_argument("--max-nodes", type=_positive(int), metavar="N",
                   help="give up on a puzzle after N search nodes")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show progress and a summary on stderr (default: when stderr is a "
                        "terminal)")
    p.add_argument("-j", "--jobs", "--workers", type=int, default=1, metavar="N",
                   help="solve with N processes (0 = one per CPU; never more than the CPUs); "
                        "output stays in input order")
    _generator_arguments(p)
    _scale_arguments(p)
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
        if args.generate is not None or args.rate or args.explain is not None:
            return _generator_command(parser, args)
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
            if args.svg is not None:
                if args.variant:
                    task = tasks[0]
                    drawn = (task[0], task[1][0]) if isinstance(task, tuple) else None
                else:
                    drawn = (opts, args.puzzle if args.named is None else named[args.named])
                return _write_svg(args.svg, drawn, answer.code)
            return answer.code
        lines = read_lines(_read(args.file or "-"))
        tasks = variant_tasks(opts, lines, args.variant, args.box) \
            if args.variant else [(opts, [puzzle for _, puzzle in lines])]
        if args.executor:
            return _run_on_executor(args, opts, lines, tasks, out)
        return _run_many(opts, lines, tasks, args.jobs, _show_progress(args), out)
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


def _write_svg(path: str, drawn: tuple[Options, str] | None, code: ExitCode) -> ExitCode:
    """``--svg``: draw the puzzle (solved, if it has a solution) into ``path``; return
    ``code``, or OUTPUT if the file cannot be written. A puzzle that does not parse has
    nothing to draw: its error was reported already."""
    if drawn is None:
        return code
    opts, puzzle = drawn
    try:
        try:
            answer: str | None = solve_string(
                puzzle, alphabet=opts.alphabet, layout=opts.layout, backend=opts.backend,
                max_nodes=opts.max_nodes, timeout=opts.timeout)
        except SudokuError:
            answer = None
        picture = draw_board(puzzle, answer, alphabet=opts.alphabet, layout=opts.layout)
    except SudokuError:  # a malformed puzzle: reported above
        return code
    try:
        picture.save(path)
    except (OSError, ValueError) as e:
        _say(f"{PROG}: cannot write {path}: {getattr(e, 'strerror', None) or e}")
        return ExitCode.OUTPUT
    return code


def _usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with a command line that argparse accepted, or None."""
    sources = [args.puzzle is not None, args.file is not None, args.named is not None]
    if sum(sources) > 1:
        return "give one of: a puzzle, -f FILE, --named NAME"
    if args.svg is not None and not (args.puzzle is not None or args.named is not None):
        return "--svg draws one puzzle: give it as an argument or with --named"
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
              show: bool, out: _Output, executor: Executor | None = None) -> ExitCode:
    """Solve numbered puzzle lines (read into ``tasks``, in the same order); answers to
    ``out``, failures and progress to stderr."""
    progress = Progress(sys.stderr, enabled=show, total=len(lines), unit="puzzles")
    done = failed = 0
    codes: set[ExitCode] = set()
    # inside a chunk's batch: the puzzles of the chunks before it, plus its own so far
    within = (lambda k: progress.update(done + k)) if show else None
    with progress, _answers(tasks, jobs, within, executor) as chunks:
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


# ----- generate, rate, explain (sudoku.generate, sudoku.rate, sudoku.explain) ---------------


def _generator_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``--generate``, ``--rate`` and ``--explain``."""
    from .generate import SYMMETRIES
    from .rate import LEVELS

    g = p.add_argument_group("generate, rate, explain")
    g.add_argument("--generate", type=_positive(int), metavar="N",
                   help="write N new puzzles with a unique solution, one per line (9x9; "
                        "--box RxC for other boxes, --variant x|windoku|jigsaw|killer|rect)")
    g.add_argument("--difficulty", choices=[name for name, _, _ in LEVELS],
                   help="with --generate: the level of the puzzles (simple, easy, "
                        "intermediate and expert mean what they mean to qqwing)")
    g.add_argument("--symmetry", choices=SYMMETRIES, default="none",
                   help="with --generate: the symmetry of the clues")
    g.add_argument("--seed", type=int, metavar="S",
                   help="with --generate: the same S gives the same puzzles")
    g.add_argument("--rate", action="store_true",
                   help="print each puzzle's level and numeric rating (1.0-11.9) instead")
    g.add_argument("--explain", metavar="PUZZLE",
                   help="print the steps that solve PUZZLE, one per line, and its rating")


def _generator_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with a ``--generate``, ``--rate`` or ``--explain`` command line."""
    modes = [args.generate is not None, args.rate, args.explain is not None]
    if sum(modes) > 1:
        return "give one of --generate, --rate, --explain"
    if (args.difficulty or args.seed is not None or args.symmetry != "none") \
            and args.generate is None:
        return "--difficulty, --symmetry and --seed go with --generate"
    if args.count or args.unique or args.limit is not None:
        return "--count, --unique and --limit do not go with --generate, --rate, --explain"
    sources = [args.puzzle is not None, args.file is not None, args.named is not None]
    if args.generate is not None and any(sources):
        return "--generate reads no puzzle"
    if args.explain is not None and any(sources):
        return "--explain takes its puzzle as its argument"
    if sum(sources) > 1:
        return "give one of: a puzzle, -f FILE, --named NAME"
    if args.variant and args.named is not None:
        return "--named puzzles are plain: give a --variant line, or -f FILE"
    if args.box is not None and args.variant not in (None, "rect", "killer"):
        return "--box goes with plain puzzles, --variant rect or --variant killer"
    if args.variant == "rect" and args.box is None:
        return "--variant rect needs --box RxC (e.g. --box 2x3)"
    if args.alphabet is not None:
        return "--alphabet does not go with --generate, --rate, --explain"
    return None


def _generator_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> ExitCode:
    """``--generate N``, ``--rate`` or ``--explain PUZZLE``."""
    problem = _generator_problem(args)
    if problem:
        return _usage(parser, problem)
    if sys.stdout is None:
        raise OutputError("stdout is closed")
    out = _Output(sys.stdout)
    if args.generate is not None:
        code = _generate_lines(args, out)
    elif args.explain is not None:
        code = _explain_one(args, out)
    else:
        if args.puzzle is not None or args.named is not None:
            lines = [(1, args.puzzle if args.named is None else load_named()[args.named])]
        else:
            lines = read_lines(_read(args.file or "-"))
        code = _rate_lines(args, lines, out)
    out.flush()
    return code


def _puzzle_of(args: argparse.Namespace, line: str) -> tuple[Layout | None, str]:
    """The layout (None: plain boxes by size) and givens of one puzzle line."""
    if args.variant == "killer":
        layout, givens, _ = read_killer(line, block=args.box)
        return layout, givens
    if args.variant:
        return read_variant(line, args.variant, block=args.box)
    return (Layout.rect(*args.box) if args.box else None), line


def _generate_lines(args: argparse.Namespace, out: _Output) -> ExitCode:
    """``--generate N``: N puzzles, one line each in the variant's format; progress on
    stderr. Puzzle k has the seed S + k (S from --seed, else random)."""
    import random

    from .formats import write_variant
    from .generate import generate, generate_killer

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    progress = Progress(sys.stderr, enabled=_show_progress(args), total=args.generate,
                        unit="puzzles")
    variant = args.variant
    try:
        for k in range(args.generate):
            common = {"difficulty": args.difficulty, "seed": seed + k, "backend": args.backend}
            if variant == "killer":
                layout, givens = generate_killer(args.box or (3, 3), **common)
                line = write_variant("killer", givens, cages=layout.cages)
            else:
                if variant == "jigsaw":  # a new shape when one gives none of the level
                    layout, givens = _jigsaw_puzzle(seed + k, args.symmetry, common)
                    out.write(write_variant(variant, givens, layout=layout) + "\n")
                    progress.update(k + 1)
                    continue
                if variant == "x":
                    layout = Layout.x()
                elif variant == "windoku":
                    layout = Layout.windoku()
                else:
                    layout = Layout.rect(*args.box) if args.box else Layout.square(3)
                givens = generate(layout, symmetry=args.symmetry, **common)
                line = write_variant(variant, givens, layout=layout) if variant else givens
            out.write(line + "\n")
            progress.update(k + 1)
    except SudokuError as e:
        progress.note(f"{PROG}: {type(e).__name__}: {e}")
        return exit_code(e)
    if progress.enabled:
        progress.clear()
        progress.note(f"{args.generate} puzzles in "
                      f"{time.perf_counter() - progress.start:.2f} s")
    return ExitCode.OK


def _jigsaw_puzzle(seed: int, symmetry: str, common: dict[str, Any]) -> tuple[Layout, str]:
    """A random jigsaw layout and a puzzle on it: up to 100 shapes, 20 attempts each, not
    minimal (minimal random jigsaws are nearly all ``extreme``: clues are kept that would
    take the puzzle above the level asked for)."""
    from .generate import generate, random_jigsaw

    for shape in range(100):
        layout = random_jigsaw(9, seed=seed * 100 + shape, backend=common["backend"])
        try:
            return layout, generate(layout, symmetry=symmetry, attempts=20, minimal=False,
                                    **common)
        except SearchStoppedError:
            continue
    raise SearchStoppedError(f"no jigsaw of difficulty {common['difficulty']!r} found on "
                             "100 shapes")


def _rate_lines(args: argparse.Namespace, lines: list[tuple[int, str]],
                out: _Output) -> ExitCode:
    """``--rate``: per puzzle line, its level and numeric rating (``expert 4.2``); a line
    that cannot be rated goes to stderr with its reason."""
    from .rate import rate

    codes: set[ExitCode] = set()
    progress = Progress(sys.stderr, enabled=_show_progress(args), total=len(lines),
                        unit="puzzles")
    for k, (lineno, line) in enumerate(lines, 1):
        try:
            layout, givens = _puzzle_of(args, line)
            out.write(f"{rate(givens, layout=layout, backend=args.backend)}\n")
        except SudokuError as e:
            codes.add(exit_code(e))
            progress.note(f"line {lineno}: {type(e).__name__}: {e}")
        progress.update(k)
    progress.clear()
    return next((code for code in PRECEDENCE if code in codes), ExitCode.OK)


def _explain_one(args: argparse.Namespace, out: _Output) -> ExitCode:
    """``--explain PUZZLE``: the numbered steps, then the solved grid and the rating."""
    from .explain import explain
    from .rate import level_of

    try:
        layout, givens = _puzzle_of(args, args.explain)
        steps = explain(givens, layout=layout, backend=args.backend)
        geo, values = parse_string(givens, None, layout)
    except SudokuError as e:
        _say(f"{PROG}: {type(e).__name__}: {e}")
        return exit_code(e)
    width = len(str(len(steps)))
    for k, step in enumerate(steps, 1):
        out.write(f"{k:>{width}}. {step.describe(geo.layout)}\n")
        for cell, value in step.placements:
            values[cell] = value
    hardest = max(steps, key=lambda s: s.rating, default=None)
    rating = hardest.rating if hardest else 0.0
    cages = geo.layout.cages or None
    out.write("\n" + format_grid(geo, values, pretty=True, cages=cages) + "\n")
    out.write(f"\nrating: {level_of(rating)} {rating:.1f}"
              f"{f' ({hardest.technique})' if hardest else ''}, {len(steps)} steps\n")
    return ExitCode.OK


# ----- scale-out: chunks of puzzles on a Dask cluster or Ray ------------------------------


def _scale_arguments(p: argparse.ArgumentParser) -> None:
    """--executor (``-j``/``--workers`` are the local processes)."""
    p.add_argument("--executor", metavar="URL",
                   help="solve the chunks of a large file on dask://HOST:PORT (a Dask "
                        "scheduler), ray://HOST:PORT or 'ray' (a local Ray instance); output "
                        "stays in input order")


def _show_progress(args: argparse.Namespace) -> bool:
    """``--progress``/``--no-progress``, else whether stderr is a terminal."""
    return _isatty(sys.stderr) if args.progress is None else bool(args.progress)


def _run_on_executor(args: argparse.Namespace, opts: Options, lines: list[tuple[int, str]],
                     tasks: list[Task], out: _Output) -> ExitCode:
    """:func:`_run_many` with the chunks on ``--executor``; a cluster that cannot be
    reached or fails is a usage error, or stops the run (exit 3)."""
    try:
        owned = open_executor(args.executor)
    except (ArgumentError, OSError) as e:
        _say(f"{PROG}: --executor: {e}")
        return ExitCode.USAGE
    try:
        return _run_many(opts, lines, tasks, args.jobs, _show_progress(args), out,
                         owned.executor)
    except DistributedError as e:
        _say(f"{PROG}: {e}")
        return ExitCode.STOPPED
    finally:
        owned.close()
