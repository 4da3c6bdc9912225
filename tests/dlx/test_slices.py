"""Slices (:mod:`dlx.slices`): a search with a timeout runs in slices of nodes sized to the
measured cost of a node, so a time-out does not overshoot (defect D6 of the reliability
issue), and the driver stops at the deadline and on Ctrl-C.
"""

from __future__ import annotations

import random

import pytest

from dlx import (
    ExactCover,
    Status,
)
from dlx.slices import Slices
from tests.helpers.backends import AVAILABLE


def test_first_timed_slice_is_one_node():
    """D6: with a timeout the first slice is one node, so a timeout of 0 stops after at
    most one node, however costly (before: never fewer than 1024)."""
    rng = random.Random(1)
    options = [rng.sample(range(40), 5) for _ in range(2000)]
    problem = ExactCover(options)
    for backend in AVAILABLE:
        assert problem.solutions(timeout=0, backend=backend).count() == 0
        assert problem.stats.status is Status.TIMEOUT and problem.stats.nodes <= 1


def test_slices_follow_the_cost_of_a_node():
    slices = Slices(0.02, first=1)
    assert slices.nodes == 1
    slices.ran(1, 0.001)  # 1 ms a node: 20 fit, but at most twice the last
    assert slices.nodes == 2
    slices.ran(2, 0.002, left=0.003)  # 3 ms left: 3 nodes fit
    assert slices.nodes == 3
    slices.ran(3, 3.0)  # a second a node: one node at a time
    assert slices.nodes == 1
    assert Slices(None).nodes >= 1 << 62


def test_the_driver_stops_at_the_deadline_and_on_ctrl_c():
    """slices.drive: a step that never ends stops at the timeout (status TIMEOUT, read
    after a slice that found something too); a step that ends keeps its status; what a
    step found is yielded; Ctrl-C is INTERRUPTED; on_finish is told once, at the end."""
    from dlx.search import SearchStats
    from dlx.slices import drive

    finished: list[Status] = []

    def run(step, timeout=None):
        stats = SearchStats()
        found = list(drive(lambda: step, stats, Slices(0.001, first=1), timeout,
                           lambda s: finished.append(s.status)))
        return found, stats

    budgets: list[int] = []

    def forever(budget):  # finds something in every slice, never ends
        budgets.append(budget)
        return None, 0, budget

    found, stats = run(forever, timeout=0.02)
    assert stats.status is Status.TIMEOUT and found and 0.02 <= stats.seconds < 1
    assert set(budgets) == {1}  # a slice that only returned keeps the pace
    found, stats = run(lambda budget: (Status.COMPLETE, budget, "last"), timeout=0)
    assert (found, stats.status) == (["last"], Status.COMPLETE)  # ended before the clock

    def interrupted(budget):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(interrupted)
    assert finished == [Status.TIMEOUT, Status.COMPLETE, Status.INTERRUPTED]
