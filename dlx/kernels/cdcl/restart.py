"""Restarts: back to level 0 after ``RESTART_UNIT * luby(k)`` conflicts in run ``k``.

[`luby`][] is the package's only Luby sequence: [`dlx.restarts.luby`][] is this one
(written without ``int.bit_length``, which numba does not compile).
"""

from __future__ import annotations

from .state import (
    REG_CONFLICTS,
    REG_LUBY_I,
    REG_NEXT_RESTART,
    REG_RESTART_UNIT,
    REG_RESTARTS,
    REG_TARGET_LEN,
)
from .trail import backtrack

__all__ = ["luby", "restart"]


def luby(i):
    """The ``i``-th term (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...
    (Luby, Sinclair and Zuckerman's "reluctant doubling")."""
    if i < 1:
        raise ValueError("luby(i): the sequence starts at i = 1")
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def restart(S):
    """Back to level 0; schedule the next restart."""
    REG = S.REG
    backtrack(S, 0)
    REG[REG_RESTARTS] += 1
    REG[REG_TARGET_LEN] = 0
    REG[REG_LUBY_I] += 1
    REG[REG_NEXT_RESTART] = REG[REG_CONFLICTS] + REG[REG_RESTART_UNIT] * luby(REG[REG_LUBY_I])
