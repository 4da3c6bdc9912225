"""How long a kernel call may run before it returns to Python: to read the clock for a
timeout, or to let Ctrl-C through (compiled code never sees it)."""

from __future__ import annotations

from .budget import NEVER

__all__ = ["COMPILED_SLICE_SECONDS", "TIMEOUT_SLICE_SECONDS", "Slices"]

COMPILED_SLICE_SECONDS = 0.2
"""Without a timeout, a compiled kernel still returns to Python about this often, so that
Ctrl-C gets through."""

TIMEOUT_SLICE_SECONDS = 0.02
"""With a timeout, slices this short, so that the clock is read often."""



class Slices:
    """The number of search nodes the next kernel call may run (:attr:`nodes`).

    It follows the measured cost of a node, so that a slice takes about ``seconds`` and
    never runs past a deadline by more than about one node: the first slice is ``first``
    nodes (1 with a timeout, where the first node's cost is unknown), each later one at
    most twice the last, and at most what the time left allows at the last rate. Nodes
    cost anything from 50 ns (a Sudoku, compiled) to seconds (an item with a million
    options, in Python), so no fixed count serves. ``seconds=None``: no slices, one call
    runs to the end.
    """

    def __init__(self, seconds: float | None, first: int = 1024) -> None:
        self.seconds = seconds
        self.nodes = max(1, min(first, NEVER)) if seconds is not None else NEVER

    def ran(self, nodes: int, seconds: float, left: float | None = None) -> None:
        """Adapt after a slice that ran ``nodes`` nodes in ``seconds``; ``left``: seconds
        until the deadline, if there is one."""
        if self.seconds is None:
            return
        target = self.seconds if left is None else max(min(self.seconds, left), 0.0)
        if nodes <= 0:  # a slice that only returned (a solution): keep the pace
            return
        fit = int(target * nodes / seconds) if seconds > 0 else NEVER
        self.nodes = max(1, min(fit, 2 * nodes, NEVER))
