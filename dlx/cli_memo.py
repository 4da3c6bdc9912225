"""The ``dlx`` command's memoized search (Knuth's DLX6, [`dlx.memo`][]): ``--memo``,
``--zdd OUT``, ``--sample K``, by the library's calls, as `dlx.cli` runs the others.

The count and the set run on many cores with the scale-out options (``--workers``,
``--executor``, ``--parts``): they are passed on to ``count(memo=True, ...)`` and
``solution_set(...)`` ([`dlx.kinds.memo_split`][]), which split the tree, search each
part, and sum the counts or unite the sets; the command adds no search of its own (issue
42's rule), and what the library refuses with them (``max_nodes``, a checkpoint) is a
usage error with the library's message. Listing the solutions (``--memo`` alone) stays
one search: the library's ``solutions(memo=True)`` takes no workers."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from typing import Any

from .cli_output import COMMAND, Live, interrupted_stats, summary, write_solutions
from .command import CommandError, Output, Progress, count_type, executor, show_progress
from .errors import ArgumentError, EmptySetError, SearchStoppedError
from .problem import ExactCover
from .status import ExitCode

__all__ = ["memo_arguments", "solve_memo"]


def memo_arguments(p: argparse.ArgumentParser) -> None:
    """--memo, --zdd, --sample: see [`dlx.memo`][]."""
    g = p.add_argument_group("solution sets", "the memoized search (Knuth's DLX6): the set "
                             "of all solutions built once as a ZDD, reused for subproblems "
                             "met again; exact counts of any size. With --workers N (or "
                             "--executor, --parts) the count and the set are made on many "
                             "cores: the parts' counts summed, their sets united")
    g.add_argument("--memo", action="store_true",
                   help="count (--count) or list the solutions (at most --limit) by the "
                        "memoized search (listed: by one process)")
    g.add_argument("--zdd", metavar="OUT",
                   help="write the set of all solutions to OUT in Knuth's ZDD text format "
                        "(as DLX6 prints it), and their number to stdout (the whole set: "
                        "no --limit)")
    g.add_argument("--sample", type=count_type("sample"), metavar="K",
                   help="print K solutions drawn uniformly at random, each as it is drawn "
                        "(with replacement; --seed makes the draws repeatable; no --limit: "
                        "K is the number); exit 1 if there is no solution to draw")


_NOT_MEMO = ("best", "weighted", "lookahead", "learn", "reduce", "svg")
"""Options that the memoized search refuses."""

_SCALE = ("workers", "executor", "checkpoint", "parts")
"""The scale-out options (`dlx.cli`'s group): with these the memoized count and set run
split, by the library ([`dlx.kinds.memo_split`][])."""


def solve_memo(problem: ExactCover, args: argparse.Namespace, option_lines: list[str],
               start: float) -> ExitCode:
    """--memo, --zdd, --sample, by the library's calls: ``count(limit, memo=True)``
    (``--memo --count``), ``solutions(limit, memo=True)`` (``--memo``), or the set
    ([`dlx.ExactCover.solution_set`][]) written (``--zdd``) or sampled (``--sample``,
    each draw printed as it comes: [`dlx.SolutionSet.samples`][]); then the summary,
    with the hits and ZDD nodes, on stderr. With the scale-out options the count and
    the set take the library's ``workers``, ``executor``, ``split`` and ``checkpoint``
    ([`_scale`][]): what it refuses with them (a checkpoint, ``--max-nodes``) is a
    usage error with its message."""
    for name in _NOT_MEMO:
        if getattr(args, name) not in (None, False):
            raise CommandError(f"--{name} does not go with the memoized search (--memo, "
                               "--zdd, --sample)")
    if args.strategy not in (None, "auto"):
        raise CommandError(f"--strategy {args.strategy} does not go with the memoized "
                           "search (--memo, --zdd, --sample)")
    if args.sample is not None and (args.zdd is not None or args.count):
        raise CommandError("--sample prints solutions: it takes no --zdd or --count")
    if args.limit is not None and (args.zdd is not None or args.sample is not None):
        raise CommandError("--limit does not go with --zdd (the set written is the whole "
                           "set) or --sample (K is the number of draws)")
    if args.seed is not None and args.sample is None:
        raise CommandError("--seed draws the solutions of --sample: the memoized search "
                           "takes none otherwise")
    scaled = [name for name in _SCALE if getattr(args, name)]
    if scaled and not args.count and args.zdd is None and args.sample is None:
        raise CommandError(f"--{scaled[0]} runs the memoized search on many cores for a "
                           "count (--count) or a set (--zdd, --sample): --memo lists the "
                           "solutions of one search")
    if args.checkpoint and not args.count:
        raise CommandError("--checkpoint records the parts of a count: it takes no --zdd "
                           "or --sample")
    show = show_progress(args.progress, default=sys.stderr.isatty() and (
        args.count or not sys.stdout.isatty()))
    out = Output(sys.stdout)
    options: dict[str, Any] = {"max_nodes": args.max_nodes, "timeout": args.timeout,
                               "backend": args.backend}
    set_options = {**options, "method": "memo"}  # DLX6's diagram, hits and summary
    with Progress(sys.stderr, enabled=show, interval=1.0) as line, \
            contextlib.ExitStack() as stack:
        live = Live(line)
        if show:
            options["progress"] = set_options["progress"] = live
        try:
            if scaled:
                scale = _scale(problem, args, stack)
                options.update(scale)
                set_options.update(scale)
            if args.zdd is not None or args.sample is not None:
                found = problem.solution_set(**set_options)
                stats = problem.stats
                code = _write_set(found, args, option_lines, out)
                if code is not None:
                    return code
            elif args.count:
                out.write(f"{problem.count(args.limit, memo=True, **options)}\n")
                stats = problem.stats
            else:
                search = problem.solutions(args.limit, memo=True, **options)
                write_solutions(search, args, option_lines, out, line)
                stats = search.stats
        except SearchStoppedError as stop:
            stats = stop.stats
        except KeyboardInterrupt:
            summary(interrupted_stats(problem, live), args, time.perf_counter() - start,
                    True, sys.stderr)
            return ExitCode.INTERRUPTED
        except (ImportError, ArgumentError) as err:  # numba missing; multiplicities
            raise CommandError(str(err)) from None
    out.flush()
    summary(stats, args, time.perf_counter() - start, False, sys.stderr)
    return ExitCode.STOPPED if stats.status.stopped else ExitCode.OK


def _scale(problem: ExactCover, args: argparse.Namespace,
           stack: contextlib.ExitStack) -> dict[str, Any]:
    """The library's keyword arguments of a split run from ``--workers`` (a pool of that
    many local processes, the library's own), ``--executor`` (a Dask or Ray cluster,
    closed with ``stack``), ``--parts`` (the split: [`dlx.ExactCover.split`][]; without
    it the library cuts the tree, or does not where the parts would share too much) and
    ``--checkpoint`` (passed on, for the library's refusal to name)."""
    options: dict[str, Any] = {"workers": args.workers or None}
    if args.checkpoint:  # a count's (the set refused it): the library refuses it too
        options["checkpoint"] = args.checkpoint
    if args.parts:
        options["split"] = problem.split(parts=args.parts, probes=4)
    if args.executor:
        owned = executor(args.executor, args.workers)
        stack.callback(owned.close)
        options["executor"] = owned.executor
    return options


def _write_set(found: Any, args: argparse.Namespace, option_lines: list[str],
               out: Output) -> ExitCode | None:
    """``--zdd``: the set written to OUT, its number to stdout; ``--sample``: each draw
    printed as it comes (a closed pipe ends the draws). None, or the exit status of a
    failure reported here: OUT that cannot be written (OUTPUT), no solution to draw
    (UNSOLVED)."""
    if args.zdd is not None:
        try:
            found.write(args.zdd)
        except OSError as err:
            return COMMAND.fail(f"cannot write {args.zdd}: {err.strerror or err}",
                                ExitCode.OUTPUT)
        out.write(f"{found.count()}\n")
        return None
    try:
        draws = found.samples(args.sample, seed=args.seed)
    except EmptySetError:
        return COMMAND.fail(f"--sample {args.sample}: the problem has no solution to draw",
                            ExitCode.UNSOLVED)
    write_solutions(draws, args, option_lines, out)
    return None
