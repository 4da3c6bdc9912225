"""``dlx``: solve an exact-cover problem written in Knuth's text format, like his DLX1/DLX2
(DLX3 with item bounds ``u:v|name``; ``--best K`` the K cheapest, with DLX5's option costs
``|n``).

Solutions go to stdout, each as the lines of its options (or their indices with
``--indices``); the summary ("Altogether N solutions, U updates, M nodes") and any
progress go to stderr, so that ``dlx --count`` prints just the number.

Here: the parser, the single search, the split one (``--workers``, ``--executor``) and
``--preprocess``; the memoized search's path (``--memo``, ``--zdd``, ``--sample``) is
`dlx.cli_memo`, what every path writes (status line, summary, solutions)
`dlx.cli_output`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import os
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any, TextIO

from . import __version__, dlxformat
from .arguments import STRATEGIES
from .cli_memo import memo_arguments, solve_memo
from .cli_output import COMMAND, Live, interrupted_stats, summary, write_solutions
from .command import (
    CommandError,
    Output,
    OutputError,
    Pool,
    Progress,
    SearchLine,
    count_type,
    executor,
    seconds_type,
    show_progress,
    usable_cpus,
    workers_type,
)
from .draw import draw
from .errors import ArgumentError, InputError, SearchStoppedError
from .kinds import Solutions
from .memo import MemoStats
from .problem import ExactCover
from .progress import RunProgress
from .registry import backend_names
from .search import Search, SearchStats
from .status import ExitCode

__all__ = ["main"]

_Live = Live
"""The status line's old name here ([`dlx.cli_output.Live`][])."""

_INPUT = """\
input: UTF-8 text (a leading byte-order mark is ignored). Lines starting with '|' are
comments; the first other line names the items (primary items, then '|', then secondary
items); every further line is an option. 'X:c' in an option gives secondary item X the
color c (the entry is split at its first ':'). As in Knuth's programs, lines end at '\\n'
only (form feed, NEL, U+2028 do not end a line; line numbers count '\\n'), and names are
separated by ASCII whitespace only (space, tab, '\\v', '\\f', '\\r'): any other character,
NBSP and U+3000 included, is part of a name. As in Knuth's DLX3, 'u:v|X' in the item
line makes primary item X be covered u to v times ('v|X': exactly v times); as in DLX5, a
word '|n' in an option adds n to its cost (see --best).
"""


MEANING = {
    ExitCode.OK: "done: every solution asked for was found or counted (0 solutions is an "
                 "answer too), also when stopped by --limit",
    ExitCode.USAGE: "a bad command line, or input that cannot be read or parsed",
    ExitCode.STOPPED: "--max-nodes, --timeout or the memoized search's memory bound ran "
                      "out: the answer is incomplete",
    ExitCode.OUTPUT: "the output cannot be written (stdout closed, disk full)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C): the answer is incomplete",
    ExitCode.UNSOLVED: "--sample: the problem has no solution to draw",
}
"""What each exit status means for this command; the numbers and names are dlx.ExitCode's."""


def _exit_status_table() -> str:
    """The epilog's exit-status table ([`dlx.ExitCode.table`][])."""
    return (ExitCode.table(MEANING) + "\nA reader that stops early (dlx ... | head) is no "
            "error: exit 0.\n")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="dlx",
        description="Solve an exact-cover problem (with colors) given in Knuth's DLX format.",
        epilog=_INPUT + "\n" + _exit_status_table(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("-V", "--version", action="version",
                   version=f"%(prog)s {__version__} (dancing-cover)")
    p.add_argument("file", nargs="?", default="-",
                   help="the problem in DLX format (default or '-': standard input)")
    p.add_argument("-f", "--file", dest="file_option", metavar="FILE",
                   help="the problem, as the FILE argument (the spelling of sudoku -f)")
    p.add_argument("-c", "--count", action="store_true",
                   help="print only the number of solutions")
    p.add_argument("-i", "--indices", action="store_true",
                   help="print each solution as its options' 0-based indices on one line")
    p.add_argument("-n", "--limit", type=count_type("limit"), metavar="N",
                   help="stop after N solutions (N >= 1)")
    p.add_argument("--best", type=count_type("best"), metavar="K",
                   help="print the K cheapest solutions (option costs '|n'), cheapest "
                        "first, each with its cost")
    p.add_argument("--max-nodes", type=count_type("max_nodes"), metavar="N",
                   help="stop after N search-tree nodes (N >= 1)")
    p.add_argument("--timeout", type=seconds_type(), metavar="SECONDS",
                   help="stop after SECONDS (>= 0; inf: never)")
    p.add_argument("--seed", type=int, metavar="N",
                   help="shuffle the items and each item's options once (reproducibly), "
                        "so that ties go at random instead of to the first, as Knuth's")
    p.add_argument("--weighted", action="store_true",
                   help="branch on the least options / weight, an item's weight growing "
                        "each time it runs out of options (dom/wdeg): for hard instances")
    p.add_argument("--lookahead", type=count_type("lookahead"), metavar="K",
                   help="at every node, hide the options that item domination excludes "
                        "(testing items of at most K options)")
    p.add_argument("--strategy", choices=STRATEGIES,
                   help="auto (the default): the library chooses, as ExactCover.count() "
                        "does: a count may be made by the memoized search (its nodes are "
                        "then its own; the summary says which search answered); plain: "
                        "dancing links only, Knuth's node counts as DLX1 prints them; "
                        "learn: clause learning (CDCL), for instances that fail the same "
                        "way again and again (solutions in no set order, nodes are "
                        "decisions); race: for one solution (--limit 1), the plain and "
                        "the learning search in turns, the first to answer wins")
    p.add_argument("--learn", action="store_true",
                   help="deprecated spelling of --strategy learn")
    p.add_argument("--preprocess", action="store_true",
                   help="do not search: write the problem reduced at its root (options "
                        "that would leave an item without options, or that item "
                        "domination excludes, removed; redundant items dropped) in the "
                        "same format to stdout, as Knuth's DLX-PRE does")
    p.add_argument("--reduce", action="store_true",
                   help="reduce the problem at its root first (as --preprocess does), then "
                        "search what is left; solutions are printed as the input's options")
    p.add_argument("--backend", choices=backend_names(), default="auto",
                   help="where the search runs (default: auto)")
    p.add_argument("--svg", metavar="FILE",
                   help="also draw the first solution as an SVG picture in FILE: a tiling, "
                        "queens, or the chosen options against the items (dlx.draw); with "
                        "--count, found by a second search that stops at it")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="report solutions and nodes per second on stderr about once a "
                        "second (default: when stderr is a terminal and solutions are "
                        "not being printed to one)")
    memo_arguments(p)
    _scale_arguments(p)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the ``dlx`` command with ``argv`` (default: ``sys.argv[1:]``); return its exit
    code, an [`dlx.ExitCode`][] (a bad command line returns ``USAGE`` instead of
    raising ``SystemExit``)."""
    return COMMAND.main(_parser(), argv, _run)


def _run(args: argparse.Namespace) -> int:
    """The command on its parsed arguments; failures are raised, for
    [`Command.main`][] to report ([`dlx.command`][])."""
    if args.file_option is not None:  # -f FILE: the same as the argument, not both
        if args.file != "-":
            raise CommandError("give the problem as FILE or as -f FILE, not both")
        args.file = args.file_option
    if args.learn:  # the old spelling: still --strategy learn, with a note
        COMMAND.say("dlx: --learn is deprecated: say --strategy learn")
        if args.strategy not in (None, "learn"):
            raise CommandError(f"--learn is --strategy learn: not with --strategy "
                               f"{args.strategy}")
        args.strategy = "learn"
    for name in ("zdd", "svg"):
        _check_file_name(getattr(args, name), name)
    start = time.perf_counter()
    source = "<stdin>" if args.file == "-" else args.file
    if sys.stdout is None:  # >&-
        raise OutputError("it is closed")
    try:
        text = COMMAND.read(args.file, dlxformat.decode_dlx)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # reported below, with line numbers
            problem = ExactCover.from_dlx(text)
    except InputError as err:  # malformed, or not UTF-8
        raise CommandError(f"{source}: {err}") from None
    lines = dlxformat.option_lines(text)
    for k in problem.dropped:
        lineno, line = lines[k]
        COMMAND.say(f"dlx: {source}: line {lineno}: warning: option has no primary item, "
                    f"ignored: {line!r}")
    if args.preprocess:
        return _preprocess(problem, args, lines, source)
    if args.memo or args.zdd is not None or args.sample is not None:
        return solve_memo(problem, args, [line for _, line in lines], start)
    option_lines = [line for _, line in lines]
    numbers: list[int] | None = None  # with --reduce: the input's number of each option
    forced: list[int] = []
    if args.reduce:
        if args.svg is not None or _distributed(args):
            raise CommandError("--reduce searches the reduced problem in this process: it "
                               "takes no --svg, --workers, --executor, --checkpoint or --parts")
        record = _reduced(problem, source)
        removed = len(record.removed) - len(problem.dropped)
        COMMAND.say(f"Reduced at the root: {removed} of {len(problem)} options removed, "
                    f"{len(record.forced)} forced.")
        problem, numbers, forced = record.problem, record.options, record.taken
        option_lines = [option_lines[k] for k in numbers]
    out = Output(sys.stdout)
    try:
        stats, first, interrupted = _solve(problem, args, option_lines, out, numbers, forced)
    except ImportError as err:  # --backend numba without numba
        raise CommandError(str(err)) from None
    except ArgumentError as err:  # what the library refuses (a checkpoint, a strategy...)
        raise CommandError(str(err)) from None
    summary(stats, args, time.perf_counter() - start, interrupted, sys.stderr)
    if interrupted:
        return ExitCode.INTERRUPTED
    if args.svg is not None and _write_svg(problem, args, first) is not None:
        return ExitCode.OUTPUT
    if stats.status.stopped:
        return ExitCode.STOPPED
    return ExitCode.OK


def _check_file_name(path: str | None, name: str) -> None:
    """``--zdd OUT``, ``--svg FILE``: a name that can be a file, or a usage error naming
    the option, before any search (a write that fails later is an output error)."""
    if path is None:
        return
    if not path:
        raise CommandError(f"--{name} needs a file name, got ''")
    if os.path.isdir(path):
        raise CommandError(f"--{name} {path}: is a directory, not a file")


def _reduced(problem: ExactCover, source: str) -> Any:
    """[`ExactCover.preprocess`][], its refusals (bounds, costs; a name that cannot be
    written) a usage error naming the input."""
    try:
        return problem.preprocess()
    except ArgumentError as err:
        raise CommandError(f"{source}: {err}") from None


_SEARCH_ONLY = ("count", "indices", "limit", "best", "max_nodes", "timeout", "seed",
                "weighted", "lookahead", "learn", "strategy", "reduce", "svg", "workers",
                "executor", "checkpoint", "parts", "memo", "zdd", "sample")
"""Options that ``--preprocess`` refuses: it does not search."""


def _preprocess(problem: ExactCover, args: argparse.Namespace,
                lines: list[tuple[int, str]], source: str) -> ExitCode:
    """``--preprocess``: the reduced problem on stdout (each option followed by a comment
    naming the input option and line it comes from, as DLX-PRE's ``v9``), and a summary
    on stderr."""
    given = [name for name in _SEARCH_ONLY if getattr(args, name) not in (None, False)]
    if given:
        raise CommandError(f"--preprocess writes the reduced problem and does not search: "
                           f"it takes no --{given[0].replace('_', '-')}")
    start = time.perf_counter()
    record = _reduced(problem, source)
    try:
        head, *options = record.problem.to_dlx().splitlines()
    except ArgumentError as err:  # a name that cannot be written
        raise CommandError(f"{source}: {err}") from None
    seconds = time.perf_counter() - start
    removed = len(record.removed) - len(problem.dropped)
    text = [f"| {source} reduced by dlx --preprocess: {removed} of {len(problem)} options "
            f"removed, {len(record.dropped_items)} items dropped, {len(record.forced)} "
            "options forced", head]
    for option, k in zip(options, record.options):
        text += [option, f"| (from option {k}, line {lines[k][0]})"]
    out = Output(sys.stdout)
    out.write("\n".join(text) + "\n")
    out.flush()
    why = "no solution: item " + repr(record.infeasible) + " has no option left" \
        if record.infeasible is not None else f"{len(record.forced)} forced"
    print(f"Removed {removed} option{'' if removed == 1 else 's'} and "
          f"{len(record.dropped_items)} item{'' if len(record.dropped_items) == 1 else 's'} "
          f"in {record.rounds} round{'' if record.rounds == 1 else 's'} ({why}); "
          f"{seconds:.3f} s.", file=sys.stderr)
    return ExitCode.OK


def _write_svg(problem: ExactCover, args: argparse.Namespace,
               first: list[int] | None) -> ExitCode | None:
    """``--svg FILE``: draw ``first``, the first solution the search found (the one
    printed first), into FILE; None, or OUTPUT (reported) if FILE cannot be written. No
    solution within the budgets: said on stderr, and no file."""
    if first is None:
        COMMAND.say(f"dlx: no solution to draw, so {args.svg} was not written")
        return None
    try:
        draw(problem, first).save(args.svg)
    except (OSError, ValueError) as err:
        return COMMAND.fail(f"cannot write {args.svg}: "
                            f"{getattr(err, 'strerror', None) or err}", ExitCode.OUTPUT)
    return None


def _solve(problem: ExactCover, args: argparse.Namespace, option_lines: list[str],
           out: Output, numbers: list[int] | None = None,
           forced: list[int] | None = None) -> tuple[SearchStats, list[int] | None, bool]:
    """Print the solutions (or their number) to ``out``, with progress on stderr if
    asked; return the search's statistics, its first solution (for ``--svg``) and
    whether Ctrl-C stopped it. ``numbers`` (--reduce) gives the input's number of each
    option of ``problem``, whose ``forced`` options the search takes first.

    The command has no search of its own: ``--count`` is [`dlx.ExactCover.count`][],
    which chooses its search as it does for any caller (``--strategy`` passed on), and
    the solutions are [`dlx.ExactCover.solutions`][]'s."""
    show = show_progress(args.progress, default=sys.stderr.isatty() and (
        args.count or not sys.stdout.isatty()))
    if _distributed(args):
        try:
            return (*_solve_distributed(problem, args, option_lines, out, show), False)
        except KeyboardInterrupt:  # the pool is killed; a split run keeps no Search
            return problem.stats, None, True
    with Progress(sys.stderr, enabled=show, interval=1.0) as line:
        live = Live(line)
        options = _single(args, forced, live if show else None)
        if args.count:
            return _count(problem, args, out, options, live)
        search = problem.solutions(args.best or args.limit, **options)
        live.search = search
        costs = search.costs if isinstance(search, Search) else []  # order="cost"
        first = None
        try:
            for number, solution in enumerate(search, 1):
                if first is None:
                    first = solution
                if line.width:
                    line.clear()
                cost = f" (cost {costs[number - 1]})" if args.best else ""
                if args.indices:
                    shown = solution if numbers is None \
                        else sorted(numbers[k] for k in solution)
                    out.write(" ".join(map(str, shown)) + cost + "\n")
                else:
                    out.write(f"{number}:{cost}\n" + "".join(
                        f" {option_lines[k]}\n" for k in solution))
        except KeyboardInterrupt:
            return search.stats, None, True
    out.flush()
    return search.stats, first, False


def _single(args: argparse.Namespace, forced: list[int] | None,
            progress: Callable[[RunProgress], object] | None) -> dict[str, Any]:
    """The keyword arguments of a single search (``count``, ``solutions``) from the
    command line. ``--strategy auto`` is the library's default, so it is left out:
    what the library chooses, the command chooses."""
    options: dict[str, Any] = {
        "max_nodes": args.max_nodes, "timeout": args.timeout, "seed": args.seed,
        "backend": args.backend, "weighted": args.weighted,
        "lookahead": args.lookahead or 0, "order": "cost" if args.best else "search"}
    if forced:
        options["forced"] = forced
    if args.strategy not in (None, "auto"):
        options["strategy"] = args.strategy
    if progress is not None:
        options["progress"] = progress
    return options


def _count(problem: ExactCover, args: argparse.Namespace, out: Output,
           options: dict[str, Any],
           live: Live) -> tuple[SearchStats, list[int] | None, bool]:
    """``--count``: [`dlx.ExactCover.count`][] with the command's arguments, its
    statistics those of the problem's last search (on a budget, the
    [`dlx.SearchStoppedError`][]'s, and the count so far is printed unless the
    memoized search, which has none, was stopped). With ``--svg``, the first solution
    is found afterwards by a search that stops at it (none for a count of 0)."""
    try:
        count: int | None = problem.count(args.best or args.limit, **options)
        stats = problem.stats
    except SearchStoppedError as stop:
        stats = stop.stats
        count = None if isinstance(stats, MemoStats) else stats.solutions
    except KeyboardInterrupt:
        return interrupted_stats(problem, live), None, True
    if count is not None:
        out.write(f"{count}\n")
    out.flush()
    first = None
    if args.svg is not None and count:
        options = {**options, "progress": None}
        try:
            first = next(problem.solutions(1, **options), None)
        except KeyboardInterrupt:
            return stats, None, True
    return stats, first, False



class _Progress(Progress):
    """A status line that follows a lazy search ([`dlx.kinds.Solutions`][]) by a thread
    of its own, about once a second: the same line as the command's ([`SearchLine`][]),
    for a search that is not given a ``progress`` callback. It only reads the search's
    live ``stats`` and [`dlx.Search.explored`][]."""

    def __init__(self, search: Solutions, stream: TextIO, *, enabled: bool,
                 interval: float = 1.0) -> None:
        super().__init__(stream, enabled=enabled)
        self._following = self.follow(SearchLine(search), interval)

    def __enter__(self) -> _Progress:
        super().__enter__()
        self._following.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._following.__exit__(None, None, None)
        super().__exit__(*exc)



# ----- scale-out: the search split and run on worker processes, Dask or Ray -------------


def _scale_arguments(p: argparse.ArgumentParser) -> None:
    """--workers, --executor, --checkpoint, --parts: see [`dlx.distribute`][]."""
    g = p.add_argument_group("scale-out", "split the search into subproblems and run them "
                             "on worker processes, a Dask cluster or Ray; the solutions come "
                             "out in the serial order, the count is the same")
    g.add_argument("--workers", type=workers_type(), metavar="N",
                   help="run on N local worker processes (at most 8 per usable CPU: "
                        "dlx.arguments.max_workers)")
    g.add_argument("--executor", metavar="URL",
                   help="run on dask://HOST:PORT (a Dask scheduler), ray://HOST:PORT or "
                        "'ray' (a local Ray instance)")
    g.add_argument("--checkpoint", metavar="FILE",
                   help="(with --count) record finished subproblems in FILE (JSON); "
                        "run again with the same FILE to resume")
    g.add_argument("--parts", type=count_type("parts"), metavar="N", default=None,
                   help="split into about N subproblems of comparable size (default 64)")


def _distributed(args: argparse.Namespace) -> bool:
    return bool(args.workers or args.executor or args.checkpoint or args.parts)


def _solve_distributed(problem: ExactCover, args: argparse.Namespace, option_lines: list[str],
                       out: Output, show: bool) -> tuple[SearchStats, list[int] | None]:
    """[`_solve`][] through [`dlx.distribute`][], with a progress line that says how
    many subproblems are done and about how long the rest will take. A checkpoint or an
    executor that cannot serve is a usage error naming it (not a failed stdout)."""
    from .distribute import DEFAULT_PARTS

    for name in ("max_nodes", "timeout", "seed", "weighted", "lookahead", "learn"):
        value = getattr(args, name)  # None or False: not given (0 is a timeout or seed)
        if value is not None and value is not False:
            raise ArgumentError(f"--{name.replace('_', '-')} is for a single search, not "
                                "with --workers, --executor, --checkpoint or --parts")
    if args.strategy in ("learn", "race"):
        raise ArgumentError(f"--strategy {args.strategy} is for a single search, not with "
                            "--workers, --executor, --checkpoint or --parts")
    if args.checkpoint and not args.count:
        raise ArgumentError("--checkpoint needs --count (solutions are printed in order, "
                            "as they come)")
    if args.count and args.svg is not None:
        raise ArgumentError("--svg draws the first solution printed: not with --count and "
                            "--workers, --executor, --checkpoint or --parts")
    line = Progress(sys.stderr, enabled=show, interval=1.0)
    first = None
    with contextlib.ExitStack() as stack:
        stack.callback(line.clear)
        pool = _pool(problem, args, stack)
        split = problem.split(parts=args.parts or DEFAULT_PARTS, probes=4)
        if args.count:
            try:
                count = problem.count(args.limit, executor=pool, workers=args.workers,
                                      checkpoint=args.checkpoint, split=split,
                                      backend=args.backend, progress=Live(line))
            except OSError as err:  # the checkpoint's file; stdout is not written here
                raise CommandError(f"--checkpoint {args.checkpoint}: "
                                   f"{err.strerror or err}") from None
            line.clear()
            out.write(f"{count}\n")
        else:
            search = problem.solutions(args.limit, executor=pool, workers=args.workers,
                                       split=split, backend=args.backend)
            first = write_solutions(search, args, option_lines, out)
        out.flush()
    return problem.stats, first  # a split run keeps no Search: its outcome is the problem's


def _pool(problem: ExactCover, args: argparse.Namespace,
          stack: contextlib.ExitStack) -> concurrent.futures.Executor:
    """Where a split run's chunks go: ``--executor``, or the commands' one local pool
    ([`dlx.command.Pool`][]) of ``--workers`` processes (default: one per CPU), closed
    with ``stack`` (killed if the run fails or is interrupted)."""
    if args.executor:
        owned = executor(args.executor, args.workers)
        stack.callback(owned.close)
        return owned.executor
    if args.backend != "python":  # forked workers inherit the kernel loaded here
        problem.solve_batch([[]], max_nodes=0, backend=args.backend)
    return stack.enter_context(Pool(args.workers or usable_cpus()))
