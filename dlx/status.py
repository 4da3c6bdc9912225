"""How a search ended, and what the command-line tools exit with: one vocabulary for both.

[`Status`][] is what the kernel returns, what [`dlx.SearchStats`][] and a batch's
records hold, and what the commands turn into an [`ExitCode`][]. It is an ``IntEnum``
because the kernel (plain Python or compiled by numba) returns and stores plain integers;
the values are those integers.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from enum import IntEnum

__all__ = ["ExitCode", "Status"]


class Status(IntEnum):
    """Why a search (or one instance of a batch) ended.

    ``COMPLETE`` and ``CONFLICT`` are the two ways a search *decides*: the whole tree was
    explored, so the count is exact (``CONFLICT``: the forced options exclude one another,
    so the count is 0 and nothing was searched). ``LIMIT``: the requested number of
    solutions was found. ``MAX_NODES``, ``TIMEOUT`` and ``INTERRUPTED`` (Ctrl-C): a budget
    ran out, which is *not* the same as "no solution"; ``MAX_MEMORY`` too: the memoized
    search's tables or diagram reached their bound (``max_memory``, ``max_zdd_nodes``).
    ``RUNNING``: a lazy search that has not ended yet. ``INVALID`` is never the status of
    a finished call: a forced option that is not in the problem raises
    [`dlx.ForcedOptionError`][] instead; the kernel uses it internally to report which
    one. ``NO_ROOM`` is internal too: the learning
    kernel (`dlx.kernels.cdcl`) has no room left for a learned clause, and its driver gives
    it larger arrays and goes on.
    """

    COMPLETE = 0
    LIMIT = 1
    MAX_NODES = 2
    CONFLICT = 3
    INVALID = 4
    TIMEOUT = 5
    INTERRUPTED = 6
    RUNNING = 7
    NO_ROOM = 8
    MAX_MEMORY = 9

    @property
    def complete(self) -> bool:
        """True when the search tree was exhausted: the count is exact."""
        return self in (Status.COMPLETE, Status.CONFLICT)

    @property
    def stopped(self) -> bool:
        """True when a budget (nodes, time, Ctrl-C) ended the search before it decided."""
        return self in (Status.MAX_NODES, Status.TIMEOUT, Status.INTERRUPTED,
                        Status.MAX_MEMORY)


class ExitCode(IntEnum):
    """Exit statuses of the ``dlx`` and ``sudoku`` commands (one table for both).

    ======  ============  ==========================================================
    0       OK            done: every solution asked for was found or counted (a count
                          of 0 is an answer too); also after ``--limit``
    1       UNSOLVED      ``sudoku`` only: some puzzle has no solution (or not a unique
                          one with ``--unique``); the others were answered
    2       USAGE         a bad command line, or input that cannot be read or parsed
    3       STOPPED       ``--max-nodes`` or ``--timeout`` ran out: answers incomplete
    4       OUTPUT        the output cannot be written (stdout closed, disk full)
    130     INTERRUPTED   Ctrl-C (SIGINT)
    ======  ============  ==========================================================

    A reader that stops early (``dlx ... | head``) is not an error: the command stops
    quietly with 0.
    """

    OK = 0
    UNSOLVED = 1
    USAGE = 2
    STOPPED = 3
    OUTPUT = 4
    INTERRUPTED = 130

    @classmethod
    def table(cls, meanings: Mapping[ExitCode, str], *, width: int = 79) -> str:
        """The exit statuses as a command's ``--help`` lists them: every member, with
        ``meanings[code]`` (what it means for that command), else its name. One function
        for both commands, so that their tables cannot drift from this enum."""
        lines = ["exit status:"]
        for code in cls:
            meaning = meanings.get(code, code.name.lower().replace("_", " "))
            lines.append(textwrap.fill(f"  {code.value:>3}  {code.name:<12} {meaning}",
                                       width=width, subsequent_indent=" " * 20))
        return "\n".join(lines)
