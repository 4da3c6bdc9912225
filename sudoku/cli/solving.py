"""Solving for the ``sudoku`` command: each puzzle's answer or failure, the puzzles of a file
cut into chunks and solved in batches, here, on ``-j N`` worker processes or on
``--executor``, the answers written in input order.

Many puzzles are solved by chunks ([`CHUNK`][] puzzles), each in one batch search
([`sudoku.solve_many`][]), spread over ``-j N`` worker processes, at most one per usable
CPU and one per chunk: the local pool shared with the ``dlx`` command
([`dlx.command.Pool`][]), whose workers can be killed on the spot when the reader
goes away or Ctrl-C comes. A chunk whose worker fails or dies is tried again; one that
fails every time stops the run with one line and exit 3 ([`dlx.DistributedError`][]).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from math import isqrt
from typing import Any, NamedTuple

from dlx import BackendName, ExitCode, RunProgress, get_backend
from dlx.command import (
    CommandError,
    Output,
    Pool,
    Progress,
    executor,
    map_ordered,
    worker_count,
)

from ..batch import count_many, solve_many
from ..draw import draw_board
from ..errors import (
    ClashError,
    MultipleSolutionsError,
    NoSolutionError,
    SearchStoppedError,
    SudokuError,
)
from ..formats import Cages, read_line
from ..layout import Layout
from ..named import PuzzleLines
from ..pretty import draw_grid
from ..solver import count_solutions, solve_string

__all__ = ["CHUNK", "FAILED", "FAST_HINT", "PRECEDENCE", "Answer", "Options", "Task",
           "exit_code", "fast_hint", "run_chunk", "run_many", "run_on_executor", "run_one",
           "run_single", "run_task", "variant_tasks", "worst"]

PRECEDENCE = (ExitCode.USAGE, ExitCode.STOPPED, ExitCode.UNSOLVED)
"""When puzzles fail in different ways, the exit status is the first of these that applies:
a malformed line is the most likely to be a mistake in the command itself, and a puzzle
stopped by a budget may yet have had a solution."""

FAILED = "#"
"""The start of the line that stands, on stdout, for a puzzle of many that failed: ``#``,
a space and the error's name (``# NoSolutionError``), its reason on stderr. A blank or
``#`` comment line of the input is echoed (stripped) in its place. So there is one output
line per input line, and ``paste puzzles.txt answers.txt`` lines them up; ``#`` is in no
grid and no count, and starts a comment when the answers are read back as puzzles (the
answers alone: ``grep '^[^#]' answers.txt``)."""

FAST_HINT = 1000
"""From this many puzzles on, a run that ``auto`` leaves on the python backend (numba not
installed or not working) says once that the ``fast`` extra would solve them about 9x
faster ([`fast_hint`][])."""

CHUNK = 2048
"""Puzzles per batch search: large enough that Python's share per puzzle stays small, small
enough that progress moves and ``-j`` workers share the work evenly."""


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

    @property
    def line(self) -> str:
        """The answer as printed on stdout among many: its text, or the [`FAILED`][]
        marker with the error's name."""
        return self.text if self.ok else f"{FAILED} {self.text.partition(':')[0]}"


def exit_code(error: SudokuError) -> ExitCode:
    """The exit status a puzzle's error calls for: STOPPED for a budget, UNSOLVED for a
    puzzle that has no (unique) solution, USAGE for one that is malformed."""
    if isinstance(error, SearchStoppedError):
        return ExitCode.STOPPED
    if isinstance(error, (ClashError, NoSolutionError, MultipleSolutionsError)):
        return ExitCode.UNSOLVED
    return ExitCode.USAGE


def fast_hint(backend: str, puzzles: int) -> str | None:
    """The one line that says numba would help (see [`FAST_HINT`][]), or None."""
    if backend != "auto" or puzzles < FAST_HINT:
        return None
    try:
        get_backend("numba")
    except ImportError as e:
        return (f"sudoku: {puzzles:,} puzzles on the python backend ({e}); with numba, pip "
                "install 'dancing-cover[fast]', they are solved about 9x faster")
    return None


def worst(codes: set[ExitCode]) -> ExitCode:
    """The exit status of a run whose failures called for ``codes`` ([`PRECEDENCE`][])."""
    return next((code for code in PRECEDENCE if code in codes), ExitCode.OK)


def _failed(error: SudokuError) -> Answer:
    return Answer(exit_code(error), f"{type(error).__name__}: {error}")


def _outcome(opts: Options, puzzle: str) -> tuple[Answer, str | None]:
    """One puzzle's answer, and its solved grid as one line (None when counting, or
    when it has none)."""
    common: dict[str, Any] = {"alphabet": opts.alphabet, "layout": opts.layout,
                              "backend": opts.backend, "max_nodes": opts.max_nodes,
                              "timeout": opts.timeout, "strategy": opts.strategy}
    try:
        if opts.count:
            return Answer(ExitCode.OK, str(count_solutions(puzzle, opts.limit, **common))), None
        solution = solve_string(puzzle, unique=opts.unique, **common)
    except SudokuError as e:
        return _failed(e), None
    return Answer(ExitCode.OK, _printed(opts, solution)), solution


def run_one(opts: Options, puzzle: str) -> Answer:
    """One puzzle solved or counted, or why not."""
    return _outcome(opts, puzzle)[0]


def run_chunk(opts: Options, puzzles: list[str],
              progress: Callable[[int], object] | None = None) -> list[Answer]:
    """[`run_one`][] for many puzzles at once: [`sudoku.solve_many`][] or
    [`sudoku.count_many`][] with the chosen strategy (one batch search for the plain
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
                              "strategy": opts.strategy,
                              "progress": None if progress is None else _done(progress)}
    if opts.count:
        answers: list[Any] = count_many(puzzles, opts.limit, **common)
    else:
        answers = solve_many(puzzles, unique=opts.unique, **common)
    return [_failed(answer) if isinstance(answer, SudokuError)
            else Answer(ExitCode.OK, _printed(opts, answer)) for answer in answers]


def _done(progress: Callable[[int], object]) -> Callable[[RunProgress], object]:
    """A batch's ``progress`` callback that tells ``progress`` the puzzles done."""
    return lambda record: progress(record.done)


def _printed(opts: Options, answer: str | int) -> str:
    """An answer as printed: a count, a solution on one line, or drawn with ``--pretty``
    from the solved line's symbols (nothing parsed again)."""
    if not opts.pretty or isinstance(answer, int):
        return str(answer)
    layout = opts.layout or Layout.square(isqrt(isqrt(len(answer))))
    return draw_grid(layout, answer, opts.cages)


Task = tuple[Options, list[str]] | list[Answer]
"""Work for [`run_task`][]: puzzles that share their options (and rules), or the answers
of lines already known to fail (variant lines that do not parse)."""


def run_task(task: Task, progress: Callable[[int], object] | None = None) -> list[Answer]:
    """[`run_chunk`][] of an (options, puzzles) task; a list of answers is its own."""
    if isinstance(task, list):
        return task
    return run_chunk(*task, progress=progress)


def variant_tasks(opts: Options, lines: list[tuple[int, str]], variant: str,
                  block: tuple[int, int] | None) -> list[Task]:
    """Numbered lines of a variant format ([`sudoku.formats.read_line`][]) as tasks in
    input order: consecutive lines with the same rules in one (options, givens) task, so
    that they are solved in one batch; a line that does not parse is its failure."""
    tasks: list[Task] = []
    key: tuple[Layout | None, Cages | None] | None = None
    for _, line in lines:
        try:
            layout, givens, cages = read_line(line, variant, block=block,
                                              alphabet=opts.alphabet)
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


# ----- one puzzle ---------------------------------------------------------------------------


def run_single(opts: Options, line: str, variant: str | None, block: tuple[int, int] | None,
               out: Output, say: Callable[[str], None], svg: str | None) -> ExitCode:
    """One puzzle (an argument, or ``--named``): its answer to ``out``, its failure to
    ``say``; with ``svg``, the puzzle drawn into that file, solved with the solution
    found (a count finds none: then it is solved for the picture)."""
    tasks = variant_tasks(opts, [(1, line)], variant, block) if variant \
        else [(opts, [line])]
    task = tasks[0]
    solution = None
    if isinstance(task, list):  # a variant line that does not parse
        answer = task[0]
    else:
        answer, solution = _outcome(task[0], task[1][0])
    if answer.ok:
        out.write(answer.text + "\n")
    else:
        say(answer.text)
    out.flush()
    if svg is None or not isinstance(task, tuple):
        return answer.code
    puzzle_opts, (puzzle,) = task
    return _write_svg(svg, puzzle_opts, puzzle, solution, answer.code)


def _write_svg(path: str, opts: Options, puzzle: str, solution: str | None,
               code: ExitCode) -> ExitCode:
    """``--svg``: draw the puzzle (solved, if it has a solution) into ``path``; return
    ``code``, or OUTPUT if the file cannot be written. A puzzle that does not parse has
    nothing to draw: its error was reported already."""
    if solution is None and opts.count:
        with contextlib.suppress(SudokuError):
            solution = solve_string(puzzle, alphabet=opts.alphabet, layout=opts.layout,
                                    backend=opts.backend, max_nodes=opts.max_nodes,
                                    timeout=opts.timeout)
    try:
        picture = draw_board(puzzle, solution, alphabet=opts.alphabet, layout=opts.layout)
    except SudokuError:  # a malformed puzzle: reported above
        return code
    try:
        picture.save(path)
    except (OSError, ValueError) as e:
        raise CommandError(f"cannot write {path}: {getattr(e, 'strerror', None) or e}",
                           ExitCode.OUTPUT) from None
    return code


# ----- many puzzles -------------------------------------------------------------------------


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
    calls: list[tuple[Any, ...]] = [(chunk,) for chunk in chunks]
    if executor is not None:
        yield map_ordered(executor, run_task, calls)
        return
    count = worker_count(jobs, len(chunks))
    if count == 1:  # progress within each chunk too (worker processes report by chunk)
        yield (run_task(chunk, progress) for chunk in chunks)
        return
    with Pool(count) as pool:
        yield map_ordered(pool, run_task, calls)


def run_many(opts: Options, lines: PuzzleLines, tasks: list[Task], jobs: int,
             show: bool, out: Output, executor: Executor | None = None) -> ExitCode:
    """Solve numbered puzzle lines (read into ``tasks``, in the same order); one answer
    per puzzle to ``out`` (a failed one's is the [`FAILED`][] marker line), each blank or
    comment line of the input echoed in its place (not with ``--pretty``: drawn grids
    pair with no lines), so that output line k answers input line k; failures' reasons
    and progress to stderr, the progress line wiped before answers are written (on a
    terminal both share the screen)."""
    puzzles = lines.puzzles
    echo = (lambda k: "") if opts.pretty else lines.before
    progress = Progress(sys.stderr, enabled=show, total=len(puzzles), unit="puzzles")
    hint = fast_hint(opts.backend, len(puzzles))
    if hint is not None:
        progress.note(hint)
    done = failed = 0
    codes: set[ExitCode] = set()
    # inside a chunk's batch: the puzzles of the chunks before it, plus its own so far
    within = (lambda k: progress.update(done + k)) if show else None
    with progress, _answers(tasks, jobs, within, executor) as chunks:
        for answers in chunks:
            progress.clear()  # answers go below it, not after it
            if not opts.pretty and all(a.ok for a in answers):  # the usual case
                # a few KB a write: one write larger than a pipe that then breaks loses
                # the BrokenPipeError in CPython 3.11 (measured: the exit status said 0)
                for i in range(0, len(answers), 64):
                    out.write("".join(echo(done + i + j) + a.text + "\n"
                                      for j, a in enumerate(answers[i : i + 64])))
                done += len(answers)
                _shown(out, progress, done)
                continue
            for answer in answers:  # one line (or drawn grid) per puzzle, failed or not
                if opts.pretty and not opts.count and done:  # drawn grids, apart
                    out.write("\n")
                out.write(echo(done) + answer.line + "\n")
                if not answer.ok:
                    failed += 1
                    codes.add(answer.code)
                    out.flush()  # the answers before it, then its reason (a terminal)
                    progress.note(f"line {puzzles[done][0]}: {answer.text}")
                done += 1
            _shown(out, progress, done)
        out.write(echo(len(puzzles)))  # the blank and comment lines after the last puzzle
        out.flush()
    if show:
        progress.clear()
        n = len(puzzles)
        verb = "counted" if opts.count else "solved"
        progress.note(f"{n:,} puzzles: {n - failed:,} {verb}, {failed:,} failed "
                      f"{progress.took(n)}")
    return worst(codes)


def _shown(out: Output, progress: Progress, done: int) -> None:
    """After answers: stdout flushed, then the progress line drawn again below them (on a
    terminal the two share the screen); with no progress line, nothing to flush."""
    if progress.enabled:
        out.flush()
        progress.update(done)


def run_on_executor(spec: str, opts: Options, lines: PuzzleLines,
                    tasks: list[Task], jobs: int, show: bool, out: Output) -> ExitCode:
    """[`run_many`][] with the chunks on ``--executor``; a cluster that cannot be
    reached is a usage error ([`dlx.command.executor`][]); one that fails stops the run
    (exit 3)."""
    owned = executor(spec)
    try:
        return run_many(opts, lines, tasks, jobs, show, out, owned.executor)
    finally:
        owned.close()
