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

Every function of the kernel takes the state ``S`` ([`dlx.kernels.cdcl.state.Learner`][]) and
plain integers; the python backend runs them as written, and [`dlx.compiled`][] wraps
them with numba over one namespace, [`namespace`][], so that both run the same source.
"""

from __future__ import annotations

import types
from typing import Any

from ..declare import Declaration
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

__all__ = ["DECLARATION", "FUNCTIONS", "MODULES", "namespace"]

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
                raise AssertionError(f"dlx.kernels.cdcl: {name} means two things ({m.__name__})")
            merged[name] = value
    return merged


DECLARATION = Declaration(
    "cdcl",
    functions=FUNCTIONS,
    entries={"begin": "Sa", "cdcl": "S"},
    state=state.Learner,
    registers=tuple(r.name for r in state.REGISTERS),
    inline=frozenset({"watch", "push_watch"}),
    options={"_nrt": False},
    on_call=True,
    merged=namespace,
)
"""The learner. Compiled on each call with new array types (32-bit or 64-bit positions:
[`dlx.kernels.cdcl.state.dtypes`][]). No reference counting (``_nrt``): its functions take
the state, a tuple of ~40 arrays, and numba counted a reference to each array at every call
(two atomic operations apiece): 60% of the time, by ``perf``; without it the learning
search runs 3-4 times as fast (the kernel allocates nothing). ``watch`` and
``push_watch`` inlined where LLVM would not: a call passes the state on the stack, and
``watch`` is called for every option assigned (the search was 1.25x slower with the
watch lists as vectors until it was inlined)."""
