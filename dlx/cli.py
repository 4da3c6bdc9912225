"""``dlx``: solve an exact-cover problem written in Knuth's text format, like his DLX1/DLX2.

Solutions go to stdout, each as the lines of its options (or their indices with
``--indices``); the summary ("Altogether N solutions, U updates, M nodes") and any
progress go to stderr, so that ``dlx --count`` prints just the number.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import warnings
from typing import TextIO

from .dlxformat import _is_content
from .errors import InputError
from .problem import ExactCover
from .registry import backend_names
from .search import Search
from .status import Status

__all__ = ["main"]

EXIT_OK = 0
EXIT_INPUT = 2
"""Unreadable or malformed input (also argparse's code for a bad command line)."""
EXIT_STOPPED = 3
"""A --max-nodes or --timeout budget ran out: the solutions or count are incomplete."""
EXIT_INTERRUPTED = 130

_EPILOG = """\
input: lines starting with '|' are comments; the first other line names the items
(primary items, then '|', then secondary items); every further line is an option.
'X:c' in an option gives secondary item X the color c.

exit status: 0 done (also when stopped by --limit), 2 unreadable or malformed input,
3 stopped by --max-nodes or --timeout (incomplete), 130 interrupted.
"""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dlx",
        description="Solve an exact-cover problem (with colors) given in Knuth's DLX format.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", default="-",
                   help="the problem in DLX format (default or '-': standard input)")
    p.add_argument("-c", "--count", action="store_true",
                   help="print only the number of solutions")
    p.add_argument("-i", "--indices", action="store_true",
                   help="print each solution as its options' 0-based indices on one line")
    p.add_argument("-n", "--limit", type=_positive, metavar="N",
                   help="stop after N solutions")
    p.add_argument("--max-nodes", type=_positive, metavar="N",
                   help="stop after N search-tree nodes")
    p.add_argument("--timeout", type=float, metavar="SECONDS", help="stop after SECONDS")
    p.add_argument("--seed", type=int, metavar="N",
                   help="break ties between items at random (reproducibly) instead of "
                        "taking the first, as Knuth does")
    p.add_argument("--backend", choices=backend_names(), default="auto",
                   help="where the search runs (default: auto)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="report solutions and nodes per second on stderr about once a "
                        "second (default: when stderr is a terminal and solutions are "
                        "not being printed to one)")
    return p


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run the ``dlx`` command with ``argv`` (default: ``sys.argv[1:]``); return its exit code."""
    args = _parser().parse_args(argv)
    start = time.perf_counter()
    source = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else _read(args.file)
    except (OSError, UnicodeDecodeError) as err:
        print(f"dlx: cannot read {source}: {err}", file=sys.stderr)
        return EXIT_INPUT
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # reported below, with line numbers
            problem = ExactCover.from_dlx(text)
    except InputError as err:
        print(f"dlx: {source}: {err}", file=sys.stderr)
        return EXIT_INPUT
    lines = text.splitlines()
    numbers = _option_line_numbers(lines)
    option_lines = [lines[n - 1] for n in numbers]
    for k in problem.dropped:
        print(f"dlx: {source}: line {numbers[k]}: warning: option has no primary item, "
              f"ignored: {option_lines[k].strip()!r}", file=sys.stderr)
    interrupted = False
    try:
        _solve(problem, args, option_lines)
    except KeyboardInterrupt:
        interrupted = True
    except ImportError as err:  # --backend numba without numba
        print(f"dlx: {err}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:  # e.g. dlx problem.dlx | head: the reader has had enough
        _silence_stdout()
        return EXIT_OK
    _summary(problem, args, time.perf_counter() - start, interrupted, sys.stderr)
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_STOPPED if problem.stats.status in (Status.MAX_NODES, Status.TIMEOUT) else EXIT_OK


def _solve(problem: ExactCover, args: argparse.Namespace, option_lines: list[str]) -> None:
    """Print the solutions (or their number) to stdout, with progress on stderr if asked."""
    show_progress = args.progress
    if show_progress is None:
        show_progress = sys.stderr.isatty() and (args.count or not sys.stdout.isatty())
    # A search returns to Python about 5 times a second (compiled code, to see Ctrl-C), and
    # updates its stats each time, which the progress line reads.
    search = problem.solutions(args.limit, max_nodes=args.max_nodes, seed=args.seed,
                               backend=args.backend, timeout=args.timeout)
    out = sys.stdout
    with _Progress(search, sys.stderr, enabled=show_progress):
        if args.count:
            count = search.count()
        else:
            for number, solution in enumerate(search, 1):
                if args.indices:
                    out.write(" ".join(map(str, solution)) + "\n")
                else:
                    out.write(f"{number}:\n" + "".join(
                        f" {' '.join(option_lines[k].split())}\n" for k in solution))
    if args.count:
        out.write(f"{count}\n")
    out.flush()


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def _option_line_numbers(lines: list[str]) -> list[int]:
    """The 1-based line number of each option: every content line after the item line."""
    numbers = [k + 1 for k, line in enumerate(lines) if _is_content(line)]
    return numbers[1:]


def _summary(problem: ExactCover, args: argparse.Namespace, total: float,
             interrupted: bool, err: TextIO) -> None:
    """Knuth's closing line, then the time, then why the search ended early (if it did)."""
    s = problem.stats
    plural = "" if s.solutions == 1 else "s"
    print(f"Altogether {s.solutions} solution{plural}, {s.updates} updates, {s.nodes} nodes; "
          f"search {s.seconds:.3f} s, total {total:.3f} s ({s.backend or '?'} backend).",
          file=err)
    if interrupted:
        print("Interrupted: the search is incomplete.", file=err)
    elif s.status is Status.LIMIT:
        print(f"Stopped after --limit {args.limit} solution{'' if args.limit == 1 else 's'}.",
              file=err)
    elif s.status is Status.MAX_NODES:
        print(f"Stopped: --max-nodes {args.max_nodes} ran out, so the search is incomplete.",
              file=err)
    elif s.status is Status.TIMEOUT:
        print(f"Stopped: --timeout {args.timeout:g} s ran out, so the search is incomplete.",
              file=err)


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so Python's exit flush stays quiet."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


class _Progress:
    """A thread that rewrites one status line on ``stream`` about once a second.

    It only reads the search's live ``stats``, which the driver updates after each kernel
    call, about 5 times a second (``Backend.slice_seconds``).
    """

    def __init__(self, search: Search, stream: TextIO, *, enabled: bool,
                 interval: float = 1.0) -> None:
        self.search = search
        self.stream = stream
        self.enabled = enabled
        self.interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._width = 0

    def __enter__(self) -> _Progress:
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self._stop.set()
            self._thread.join()
            self._write("")

    def _run(self) -> None:
        last_nodes, last_time = 0, time.perf_counter()
        while not self._stop.wait(self.interval):
            s = self.search.stats
            now = time.perf_counter()
            rate = (s.nodes - last_nodes) / max(now - last_time, 1e-9)
            last_nodes, last_time = s.nodes, now
            self._write(f"{s.solutions:,} solutions, {s.nodes:,} nodes, "
                        f"{rate:,.0f} nodes/s, {s.seconds:.0f} s")

    def _write(self, text: str) -> None:
        self.stream.write("\r" + text.ljust(self._width) + ("\r" if not text else ""))
        self.stream.flush()
        self._width = len(text)
