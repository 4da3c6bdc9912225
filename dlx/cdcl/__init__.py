"""Conflict-driven clause learning over an exact-cover problem (``learn=True``), one module
per concern, as CaDiCaL's ``src/``.

======== ==================================================================================
state    the arrays and registers, named once in a table; allocation; return codes
heap     VSIDS: activities, the heap of options, the next decision
trail    assigning and undoing options, levels, literals' values
watch    the two watched literals of each learned clause, as vectors per literal
propagate  unit propagation over the problem's lists and the learned clauses
analyze  conflict analysis to the first unique implication point
minimize recursive minimization of the learned clause
shrink   shrinking: a level's literals replaced by its unique implication point
clauses  storing and learning clauses; their LBD
reduce   deleting the least useful learned clauses
restart  restarts after Luby's sequence of conflicts ([`luby`][])
rephase  target and best phases, rephasing
search   ``begin`` and ``cdcl``: the main loop, one call per concern
check    Knuth's sanity check of the whole state (tests, debugging)
======== ==================================================================================

Every function of the kernel takes the state ``S`` ([`dlx.cdcl.state.Learner`][]) and
plain integers; the python backend runs them as written, and [`dlx.compiled`][] wraps
them with numba over one namespace, [`namespace`][], so that both run the same source.
"""

from __future__ import annotations

import types
from typing import Any

from . import (
    analyze,
    clauses,
    heap,
    minimize,
    propagate,
    reduce,
    rephase,
    restart,
    search,
    shrink,
    state,
    trail,
    watch,
)

__all__ = ["FUNCTIONS", "MODULES", "namespace"]

MODULES: tuple[types.ModuleType, ...] = (state, heap, trail, watch, propagate, minimize,
                                          shrink, reduce, clauses, analyze, restart, rephase,
                                          search)
"""The kernel's modules, each importing only earlier ones."""

FUNCTIONS: tuple[str, ...] = tuple(name for m in MODULES[1:] for name in m.__all__
                                   if isinstance(getattr(m, name), types.FunctionType))
"""Every function of the kernel, module by module."""


def namespace() -> dict[str, Any]:
    """The globals of every kernel module merged into one dictionary: the constants and
    functions they define or import, by name. A name two modules bind to different
    objects raises AssertionError (it would be ambiguous once merged). Its ``__name__`` is
    this package's, which numba imports to load a function from its disk cache."""
    merged: dict[str, Any] = {"__name__": __name__}
    for m in MODULES:
        for name, value in vars(m).items():
            if name.startswith("__"):
                continue
            if name in merged and merged[name] is not value:
                raise AssertionError(f"dlx.cdcl: {name} means two things ({m.__name__})")
            merged[name] = value
    return merged
