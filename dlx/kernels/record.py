"""The batch protocol: one problem searched once per list of forced options.

A batch is run by one driver, [`dlx.kernels.batch.search_batch`][], written once over
four steps that each kernel running batches provides under these names (its *batch
protocol*), with the contracts of Algorithm C's ([`dlx.kernels.algorithm_c`][]):

========================  ==============================================================
``force_instance``        B1: force ``FORCED[f:end]`` in turn; ``(status, f)``: COMPLETE
                          when all are taken, else INVALID or CONFLICT and the culprit's
                          index
``search``                B2: the kernel's resumable search, from [`begin`][]'s registers
``record_first``          B3: the first solution's size and options in ``OUT``
``undo_instance``         B4: leave every level still held, unforce ``FORCED[first:f]``
========================  ==============================================================

Algorithm C ([`dlx.kernels.algorithm_c`][]), Algorithm M ([`dlx.kernels.algorithm_m`][])
and the bit words ([`dlx.kernels.words`][]) provide them; their declarations name the
driver among the functions they borrow ([`dlx.kernels.Declaration`][]), so that it is
re-created over each kernel's own steps. This module holds what every kernel shares: a
record's layout (``B_*``), a batch's place (``W_*``), and the two steps that are the same
for all, [`begin`][] and [`record`][].
"""

from __future__ import annotations

from ..state import (
    REG_LEVEL,
    REG_MAX_LEVEL,
    REG_NODES,
    REG_RESUME,
    REG_SOLUTIONS,
    REG_UPDATES,
    REGISTERS,
    State,
)
from .codes import ENTER
from .declare import Declaration

__all__ = ["B_FIRST", "B_MAX_LEVEL", "B_NODES", "B_SIZE", "B_SOLUTIONS", "B_STATUS",
           "B_UPDATES", "FUNCTIONS", "N_WHERE", "W_FORCED", "W_INSTANCE", "W_INVALID",
           "W_PHASE", "begin", "record"]

# A batch's record per instance, in OUT (see search_batch).
B_STATUS = 0  # COMPLETE, LIMIT, MAX_NODES, CONFLICT or INVALID
B_SOLUTIONS = 1  # solutions found
B_NODES = 2  # nodes, updates and deepest level of the search after the forced options
B_UPDATES = 3
B_MAX_LEVEL = 4
B_SIZE = 5  # how many options the first solution has (0: none found), forced ones included
B_FIRST = 6  # from here: the options of the first solution (after a CONFLICT: the forced
# option that an earlier one excludes; after INVALID: the option that is not in the problem)

# Where a resumable batch is, in WHERE (see search_batch).
W_INSTANCE = 0  # the instance under way
W_PHASE = 1  # 0 not begun, 1 searching for its first solution, 2 counting on
W_FORCED = 2  # FORCED[W_FORCED] is the next of its forced options to take
W_INVALID = 3  # the first INVALID instance, -1 while none
N_WHERE = 4

FUNCTIONS = ("begin", "record")
"""This module's functions."""


def begin(REG):
    """Registers for a fresh search: level 0, nothing counted, enter the root (C2)."""
    REG[REG_LEVEL] = 0
    REG[REG_NODES] = 0
    REG[REG_UPDATES] = 0
    REG[REG_SOLUTIONS] = 0
    REG[REG_RESUME] = ENTER
    REG[REG_MAX_LEVEL] = 0


def record(REG, OUT, base, status):
    """B3 of [`search_batch`][]: the instance's status and its search's counters."""
    OUT[base + B_STATUS] = status
    OUT[base + B_SOLUTIONS] = REG[REG_SOLUTIONS]
    OUT[base + B_NODES] = REG[REG_NODES]
    OUT[base + B_UPDATES] = REG[REG_UPDATES]
    OUT[base + B_MAX_LEVEL] = REG[REG_MAX_LEVEL]


DECLARATION = Declaration("record", functions=FUNCTIONS, entries={}, state=State,
                          registers=tuple(name for name, _ in REGISTERS))
"""The batch protocol's shared steps, borrowed by every kernel that runs batches."""
