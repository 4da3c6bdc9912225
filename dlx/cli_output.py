"""What the ``dlx`` command says: its solutions on stdout as they come, and on stderr
its status line while it searches and its summary when it is done (Knuth's closing line,
which search answered, why it stopped). Shared by the command's paths: the single and
the split search (`dlx.cli`) and the memoized one (`dlx.cli_memo`)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any, TextIO

from .command import Command, Output, Progress, SearchLine
from .memo import MemoStats
from .problem import ExactCover
from .progress import RunProgress
from .search import SearchStats
from .status import Status

__all__ = ["COMMAND", "Live", "interrupted_stats", "summary", "write_solutions"]

COMMAND = Command("dlx", stdin="<stdin>", stdin_closed="standard input is closed",
                  output="cannot write to standard output")
"""How the command speaks: its messages' prefix and words ([`dlx.command.Command`][])."""


class Live:
    """The status line of a search, drawn from its ``progress`` callback
    ([`dlx.RunProgress`][], about five times a second): a single search's line
    ([`SearchLine`][]: solutions, nodes, nodes per second, and Knuth's estimate of the
    tree explored when ``search``, the lazy search, has one) at most once per the line's
    interval; a distributed run's own line after each chunk. ``stats`` are the last
    live statistics it was given."""

    def __init__(self, line: Progress) -> None:
        self.line = line
        self.stats = SearchStats()
        self.search: object = None
        self._text = SearchLine(self)

    @property
    def explored(self) -> Callable[[], float] | None:
        """The lazy search's estimate, if it has one ([`dlx.Search.explored`][])."""
        return getattr(self.search, "explored", None)

    def __call__(self, record: RunProgress) -> None:
        if record.stats is None:  # a distributed run: after each chunk
            self.line.show(record.line())
            return
        self.stats = record.stats
        if record.done < record.parts and \
                time.perf_counter() - self.line.last >= self.line.interval:
            self.line.show(self._text(), force=True)


def summary(s: SearchStats, args: argparse.Namespace, total: float,
            interrupted: bool, err: TextIO) -> None:
    """Knuth's closing line, then the time, which search answered (when the library
    chose), the memoized search's totals, then why the search ended early (if it did)."""
    plural = "" if s.solutions == 1 else "s"
    print(f"Altogether {s.solutions} solution{plural}, {s.updates} updates, {s.nodes} nodes; "
          f"search {s.seconds:.3f} s, total {total:.3f} s ({s.backend or '?'} backend).",
          file=err)
    if s.answered_by:  # --strategy auto or race
        parts = ", ".join(f"{name} {part.nodes} nodes {part.seconds:.3f} s"
                          for name, part in s.parts.items())
        print(f"Answered by the {s.answered_by} search" + (f" ({parts})." if parts else "."),
              file=err)
    memo = s if isinstance(s, MemoStats) else s.parts.get("memo") \
        if s.answered_by == "memo" else None
    if isinstance(memo, MemoStats):
        print(f"Memo: {memo.hits} hits, {memo.memos} signatures, {memo.zdd_nodes} ZDD "
              "nodes.", file=err)
    if interrupted:
        print("Interrupted: the search is incomplete.", file=err)
    elif s.status is Status.LIMIT and not args.best:
        print(f"Stopped after --limit {args.limit} solution{'' if args.limit == 1 else 's'}.",
              file=err)
    elif s.status is Status.MAX_NODES:
        print(f"Stopped: --max-nodes {args.max_nodes} ran out, so the search is incomplete.",
              file=err)
    elif s.status is Status.TIMEOUT:
        print(f"Stopped: --timeout {args.timeout:g} s ran out, so the search is incomplete.",
              file=err)
    elif s.status is Status.MAX_MEMORY:
        bound = getattr(s, "bound", "") or "its memory bound"
        print(f"Stopped: the memoized search reached {bound}, so the search is incomplete.",
              file=err)


def interrupted_stats(problem: ExactCover, live: Live) -> SearchStats:
    """The statistics of a search that Ctrl-C stopped: the problem's, which the library
    records as INTERRUPTED, else the last the progress line saw."""
    stats = problem.stats
    return stats if stats.status is Status.INTERRUPTED else live.stats


def write_solutions(solutions: Any, args: argparse.Namespace, option_lines: list[str],
                    out: Output, line: Progress | None = None) -> list[int] | None:
    """Each solution on stdout as it comes: its indices (``--indices``) or its numbered
    options; the status line, if one is shown, wiped first. Returns the first solution
    (for ``--svg``), None if there was none."""
    first = None
    for number, solution in enumerate(solutions, 1):
        if first is None:
            first = solution
        if line is not None and line.width:
            line.clear()
        if args.indices:
            out.write(" ".join(map(str, solution)) + "\n")
        else:
            out.write(f"{number}:\n" + "".join(f" {option_lines[k]}\n" for k in solution))
    return first
