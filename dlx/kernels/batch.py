"""The batch driver: one problem searched once per list of forced options, in one call.

[`search_batch`][] is written once, over the batch protocol's steps
([`dlx.kernels.record`][]). Run as written it drives Algorithm C's steps, imported below;
the kernels of Algorithm M and of the bit words borrow it ([`dlx.kernels.Declaration`][]
``borrows``): the recipe re-creates it over their namespace, where their own steps bind
these names.
"""

from __future__ import annotations

from ..state import REG_NODES, REGISTERS, State
from .algorithm_c import force_instance, record_first, search, undo_instance
from .codes import COMPLETE, INVALID, LIMIT, MAX_NODES
from .declare import Declaration
from .record import B_FIRST, B_STATUS, W_FORCED, W_INSTANCE, W_INVALID, W_PHASE, begin, record

__all__ = ["FUNCTIONS", "search_batch"]

FUNCTIONS = ("search_batch",)
"""This module's functions."""


def search_batch(S, FORCED, START, OUT, WHERE, node_stop, solution_stop, width, slice_nodes):
    """Search the problem once per instance ``k``, with the options
    ``FORCED[START[k]:START[k + 1]]`` forced; one call for all, or a few: it returns 1
    after about ``slice_nodes`` search nodes (call again: it resumes where ``WHERE``
    says), 0 when every instance is done.

    B1, force: each option in turn, from its node ``S.FORCING[option]`` (INVALID for an
    option out of range or without a primary item; CONFLICT for the first that earlier
    ones exclude: then nothing is searched). B2, search: [`search`][] from fresh
    registers, to the first solution (phase 1), then, if ``solution_stop`` > 1, counting
    on (phase 2), within ``node_stop`` nodes: exactly one search of the problem left once
    the forced options are taken. B3, record: ``OUT`` holds one record of ``B_FIRST +
    width`` slots per instance (zero to begin with; see ``B_*``); nodes and updates are
    the search's, the forcing not counted. B4, undo: everything, last first, which leaves
    the arrays as they were for the next instance: cheaper than copying them afresh,
    since only what changed is touched. The arrays must therefore start pristine.
    """
    size = B_FIRST + width
    k = WHERE[W_INSTANCE]
    phase = WHERE[W_PHASE]
    f = WHERE[W_FORCED]
    left = slice_nodes
    while k < len(START) - 1:
        base = k * size
        first = START[k]
        end = START[k + 1]
        if phase == 0:  # B1
            begin(S.REG)
            status, f = force_instance(S, FORCED, first, end)
            if status != COMPLETE:  # nothing to search: the option at fault, then B4
                OUT[base + B_STATUS] = status
                OUT[base + B_FIRST] = FORCED[f]
                if status == INVALID and WHERE[W_INVALID] < 0:
                    WHERE[W_INVALID] = k
                undo_instance(S, FORCED, first, f)
                k += 1
                continue
            phase = 1
        stop = min(node_stop, S.REG[REG_NODES] + left)  # B2
        nodes = S.REG[REG_NODES]
        status = search(S, stop, 1 if phase == 1 else solution_stop)
        left -= S.REG[REG_NODES] - nodes
        if status == MAX_NODES and S.REG[REG_NODES] < node_stop:  # the slice ran out: pause
            WHERE[W_INSTANCE] = k
            WHERE[W_PHASE] = phase
            WHERE[W_FORCED] = f
            return 1
        if phase == 1 and status == LIMIT:  # B3: the first solution
            record_first(S, FORCED, first, end, OUT, base, width)
            if solution_stop > 1:
                phase = 2  # count on, in this slice if it lasts
                continue
        record(S.REG, OUT, base, status)
        undo_instance(S, FORCED, first, f)  # B4
        k += 1
        phase = 0
    WHERE[W_INSTANCE] = k
    WHERE[W_PHASE] = 0
    WHERE[W_FORCED] = 0
    return 0


DECLARATION = Declaration("batch", functions=FUNCTIONS,
                          entries={"search_batch": "Saaaaiiii"}, state=State,
                          registers=tuple(name for name, _ in REGISTERS), borrows=("record",))
"""The batch driver, borrowed by the kernels that run batches (over their own steps)."""
