"""The ``sudoku`` command: solve (or count the solutions of) puzzles from the command line.

One puzzle comes as an argument (a row of 81 symbols, or a drawn grid in quotes) or by name
(``--named``); many come one per line from a file or stdin, blank lines and ``#`` comments
skipped. Answers go to stdout, one per solved puzzle, in input order; a puzzle that fails
prints nothing there, its line number and reason go to stderr, and the exit status is 1.
Usage errors exit with 2. Many puzzles are solved by chunks, each in one batch search
(:func:`sudoku.solve_many`), spread over ``-j N`` worker processes.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from dlx import backend_names, get_backend, own_process

from .batch import count_many, solve_many
from .errors import SudokuError
from .grid import format_grid, parse_string
from .named import load_named, read_lines
from .solver import count_solutions, solve_string

__all__ = ["Options", "main", "run_chunk", "run_one"]

PROG = "sudoku"


@dataclass(frozen=True)
class Options:
    """What to do with each puzzle; picklable, so that worker processes get it too."""

    count: bool = False
    limit: int | None = None
    unique: bool = False
    pretty: bool = False
    alphabet: str | None = None
    backend: str = "auto"
    timeout: float | None = None
    max_nodes: int | None = None


def run_one(opts: Options, puzzle: str) -> tuple[bool, str]:
    """``(True, answer)`` for a puzzle solved or counted, ``(False, "Error: why")`` if not."""
    common = {"alphabet": opts.alphabet, "backend": opts.backend,
              "max_nodes": opts.max_nodes, "timeout": opts.timeout}
    try:
        if opts.count:
            return True, str(count_solutions(puzzle, opts.limit, **common))
        answer = solve_string(puzzle, unique=opts.unique, **common)
        if opts.pretty:
            geo, values = parse_string(answer, opts.alphabet)
            answer = format_grid(geo, values, pretty=True)
        return True, answer
    except SudokuError as e:
        return False, _why(e)


def run_chunk(opts: Options, puzzles: list[str]) -> list[tuple[bool, str]]:
    """:func:`run_one` for many puzzles at once, through one batch search
    (:func:`sudoku.solve_many`, :func:`sudoku.count_many`); needs ``opts.timeout`` None."""
    common = {"alphabet": opts.alphabet, "backend": opts.backend, "max_nodes": opts.max_nodes}
    if opts.count:
        counts = count_many(puzzles, opts.limit, **common)
        return [(True, str(n)) if isinstance(n, int) else (False, _why(n)) for n in counts]
    out = []
    for answer in solve_many(puzzles, unique=opts.unique, **common):
        if isinstance(answer, SudokuError):
            out.append((False, _why(answer)))
        elif opts.pretty:
            geo, values = parse_string(answer, opts.alphabet)
            out.append((True, format_grid(geo, values, pretty=True)))
        else:
            out.append((True, answer))
    return out


def _why(error: SudokuError) -> str:
    return f"{type(error).__name__}: {error}"


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A one-line counter on stderr, ``\\r  1234/49158 puzzles  5678/s``, redrawn at most
    ten times a second; :meth:`note` writes a message above it."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.stream, self.enabled = total, stream, enabled
        self.start = self.last = time.perf_counter()
        self.width = 0

    def update(self, done: int, force: bool = False) -> None:
        now = time.perf_counter()
        if not self.enabled or (not force and now - self.last < 0.1):
            return
        self.last = now
        rate = done / (now - self.start) if now > self.start else 0.0
        text = f"  {done}/{self.total} puzzles  {rate:.0f}/s"
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = len(text)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.width = 0

    def note(self, message: str) -> None:
        self.clear()
        self.stream.write(message + "\n")
        self.stream.flush()


def _positive(kind: type):
    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {kind.__name__} value: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    return convert


def _parser(names: list[str]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Solve Sudoku puzzles (4x4 to 36x36) with Knuth's Dancing Links.",
        epilog="Exit status: 0 all solved, 1 some puzzle failed, 2 usage error.",
    )
    p.add_argument("puzzle", nargs="?",
                   help="one puzzle: 81 symbols ('.' or '0' blank), or a drawn grid in quotes")
    p.add_argument("-f", "--file", metavar="FILE",
                   help="read puzzles one per line from FILE ('-' = stdin, the default)")
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
    p.add_argument("--alphabet", metavar="SYMBOLS",
                   help="the N symbols, e.g. 0123456789ABCDEF (default 1-9, then A-Z, a-z)")
    p.add_argument("--backend", choices=backend_names(), default="auto", help="search kernel")
    p.add_argument("--timeout", type=_positive(float), metavar="SECONDS",
                   help="give up on a puzzle after this long")
    p.add_argument("--max-nodes", type=_positive(int), metavar="N",
                   help="give up on a puzzle after N search nodes")
    p.add_argument("--progress", action="store_true",
                   help="show progress and a summary on stderr even when it is not a terminal")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                   help="solve with N processes (0 = one per CPU); output stays in input order")
    return p


CHUNK = 2048
"""Puzzles per batch search: large enough that Python's share per puzzle stays small, small
enough that progress moves and ``-j`` workers share the work evenly."""


def _results(opts: Options, puzzles: list[str], jobs: int) -> Iterator[list[tuple[bool, str]]]:
    """Answers in input order, in lists, from this process or a pool of ``jobs`` workers.

    Puzzles go by chunks through one batch search each; with a timeout (which a batch
    does not take) one at a time.
    """
    if opts.timeout is not None:
        work, items = partial(run_one, opts), puzzles
        per_task = max(1, min(256, len(puzzles) // (jobs * 8)))
    else:
        work = partial(run_chunk, opts)
        items = [puzzles[i : i + CHUNK] for i in range(0, len(puzzles), CHUNK)]
        per_task = 1
    pool = None
    if jobs <= 1 or len(items) < 2:
        results = map(work, items)
    else:
        import multiprocessing

        pool = multiprocessing.Pool(min(jobs, len(items)), initializer=own_process)
        results = pool.imap(work, items, per_task)
    try:
        for result in results:
            yield [result] if opts.timeout is not None else result
    finally:
        if pool is not None:
            pool.terminate()


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    with open(source, encoding="utf-8", errors="replace") as f:
        return f.read()


def main(argv: Iterable[str] | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 1 a puzzle failed, 2 usage error)."""
    own_process()  # loading the compiled kernel may skip numba's import of scipy.linalg
    named = load_named()
    parser = _parser(sorted(named))
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as e:  # --help, or a usage error already printed by argparse
        return e.code if isinstance(e.code, int) else 2
    sources = [args.puzzle is not None, args.file is not None, args.named is not None]
    if sum(sources) > 1:
        return _usage(parser, "give one of: a puzzle, -f FILE, --named NAME")
    if args.limit is not None and not args.count:
        return _usage(parser, "--limit needs --count")
    if args.jobs < 0:
        return _usage(parser, f"-j must be 0 or more, got {args.jobs}")
    if args.backend == "numba":
        try:
            get_backend("numba")
        except ImportError as e:
            return _usage(parser, str(e))
    single = args.puzzle is not None or args.named is not None
    if not single and args.file is None and _isatty(sys.stdin):
        return _usage(parser, "no puzzle given (pass one, or -f FILE, or pipe puzzles in)")
    opts = Options(count=args.count, limit=args.limit, unique=args.unique,
                   pretty=not args.count and (args.pretty or (single and _isatty(sys.stdout))),
                   alphabet=args.alphabet, backend=args.backend,
                   timeout=args.timeout, max_nodes=args.max_nodes)
    try:
        if single:
            ok, text = run_one(opts, args.puzzle if args.named is None else named[args.named])
            print(text if ok else f"{PROG}: {text}", file=sys.stdout if ok else sys.stderr)
            return 0 if ok else 1
        try:
            lines = read_lines(_read(args.file or "-"))
        except OSError as e:
            print(f"{PROG}: cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
            return 2
        jobs = args.jobs or os.cpu_count() or 1
        return _run_many(opts, lines, jobs, args.progress or _isatty(sys.stderr))
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `sudoku -f big.txt | head`: stop quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _run_many(opts: Options, lines: list[tuple[int, str]], jobs: int, show: bool) -> int:
    """Solve numbered puzzle lines; answers to stdout, failures and progress to stderr."""
    progress = Progress(len(lines), sys.stderr, show)
    out = sys.stdout
    done = failed = 0
    for results in _results(opts, [puzzle for _, puzzle in lines], jobs):
        if not opts.pretty and all(ok for ok, _ in results):  # the usual case
            # a few KB a write: one write larger than a pipe that then breaks loses
            # the BrokenPipeError in CPython 3.11 (measured: the exit status said 0)
            for i in range(0, len(results), 64):
                out.write("".join(text + "\n" for _, text in results[i : i + 64]))
            done += len(results)
            progress.update(done)
            continue
        for ok, text in results:
            if ok:
                if opts.pretty and done > failed:
                    out.write("\n")
                out.write(text + "\n")
            else:
                failed += 1
                progress.note(f"line {lines[done][0]}: {text}")
            done += 1
            progress.update(done)
    out.flush()
    if show:
        progress.clear()
        seconds = time.perf_counter() - progress.start
        n = len(lines)
        rate = f" ({n / seconds:.0f} puzzles/s)" if seconds > 0 else ""
        verb = "counted" if opts.count else "solved"
        print(f"{n} puzzles: {n - failed} {verb}, {failed} failed in {seconds:.2f} s{rate}",
              file=sys.stderr)
    return 1 if failed else 0


def _usage(parser: argparse.ArgumentParser, message: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2
