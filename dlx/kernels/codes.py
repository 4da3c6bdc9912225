"""The codes every kernel returns and resumes at, named once.

The statuses are [`dlx.status.Status`][]'s values as plain ints (compiled code compares
integers). A kernel's *pause* codes are not statuses a caller ever sees: a kernel returns
one when its driver must act (grow an array, drop a bound) and call again, and they live
in one internal enum, [`Pause`][], beside ``NO_ROOM`` of [`dlx.status.Status`][] (the
learner's, which predates it), so that no two kernels give one number two meanings.
"""

from __future__ import annotations

from enum import IntEnum

from ..status import Status

__all__ = ["COMPLETE", "CONFLICT", "ENTER", "INVALID", "LEAVE", "LIMIT", "MAX_NODES", "Pause"]

COMPLETE = int(Status.COMPLETE)  # the tree is exhausted
LIMIT = int(Status.LIMIT)  # the solution stop was reached; CHOICE[0:REG[REG_LEVEL]]
MAX_NODES = int(Status.MAX_NODES)  # the node stop was reached; nothing is lost
CONFLICT = int(Status.CONFLICT)  # forced options exclude one another (nothing searched)
INVALID = int(Status.INVALID)  # a batch: a forced option is not in the problem

ENTER = 0
"""``REG[REG_RESUME]``: the next call enters a level (Algorithm C's C2, M's M2)."""
LEAVE = 1
"""``REG[REG_RESUME]``: the next call leaves a level (C8, M9)."""


class Pause(IntEnum):
    """Why a kernel returned before its search ended, for its driver to act and call
    again (never a [`dlx.status.Status`][] a caller sees; numbered apart from them)."""

    GROW_MEMO = 100
    """[`dlx.kernels.memo`][]: the memo table is full: grow it and call again."""
    GROW_ZDD = 101
    """[`dlx.kernels.memo`][]: the ZDD table is full: grow it and call again."""
    ZDD_BOUND = 102
    """[`dlx.kernels.memo`][]: ``REG_ZBOUND`` ZDD nodes made: stop (``MAX_MEMORY``)."""
    GROW_PARTS = 103
    """[`dlx.kernels.memo`][]: the group stack may not hold another split: grow it."""
    MEMORY_BOUND = 104
    """[`dlx.memo`][]'s driver: growing a table would pass ``max_memory`` (``MAX_MEMORY``)."""
    SAVE_FULL = 105
    """[`dlx.kernels.cells`][]: ``SAVE`` may lack room for this level's sizes: grow it
    (in place) and call again; nothing is counted twice."""
