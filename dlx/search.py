"""The search driver: lazy solutions, counting, budgets and statistics around the kernel."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from . import kernel
from .backends import Backend, charge_python, get_backend
from .links import Links, check_links

__all__ = ["SearchStats", "Slices", "run_search"]


@dataclass
class SearchStats:
    """What the last search did, updated live while its solutions are consumed.

    ``complete`` is True only when the whole search tree was explored, so that ``solutions``
    is the exact count. Otherwise ``stopped`` says why it ended early: ``"limit"`` (the
    requested number of solutions was reached), ``"max_nodes"`` or ``"timeout"`` (a
    budget ran out: *not* the same as "no solution"), or None while still running.
    ``conflict`` is the first forced option that an earlier one excludes (then there is
    no solution, and nothing was searched).
    """

    nodes: int = 0
    updates: int = 0
    solutions: int = 0
    max_level: int = 0
    complete: bool = False
    stopped: str | None = None
    seconds: float = 0.0
    backend: str = ""
    conflict: int | None = None
    extra: dict = field(default_factory=dict)


class _State:
    """Working copies of the link arrays for one search; the problem's stay pristine."""

    def __init__(self, links: Links, backend: Backend, seed: int | None) -> None:
        self.links = links
        self.backend = backend
        key = (backend.name, backend.inactive, backend.tuples is None)
        pristine = links.converted.get(key)
        if pristine is None:  # convert once per problem and backend, copy per search
            length = links.LEN.copy()
            length[0] = backend.inactive
            as_array = backend.as_array
            pristine = links.converted[key] = (
                as_array(links.U), as_array(links.D), as_array(links.TOP),
                as_array(links.COLOR) if backend.tuples is None else backend.tuples(links),
                backend.as_len(length), as_array(links.LL), as_array(links.RL))
        copy = backend.copy
        U, D, TOP, COLOR, LEN, LL, RL = pristine
        # TOP never changes, nor do Algorithm X's tuples, so the search may share them.
        if backend.tuples is None:
            COLOR = copy(COLOR)
        self.arrays = [copy(U), copy(D), TOP, COLOR, copy(LEN), copy(LL), copy(RL)]
        regs = np.zeros(kernel.N_REGS, dtype=np.int64)
        regs[kernel.SEED] = (seed % 2147483646) + 1 if seed is not None else 0
        regs[kernel.PRIMARY_END] = links.n_primary + 1
        self.regs = backend.as_array(regs)
        self.choice = backend.as_array(np.zeros(links.n_primary + 1, dtype=np.int64))

    def force(self, forced: list[int]) -> int | None:
        """Take the options ``forced`` before the search; or return the first that clashes.

        Without colors the python backends compute the forced state at once with numpy
        (:meth:`Links.restricted`); otherwise the kernel's ``force_all`` does.
        """
        links, backend = self.links, self.backend
        if not links.colored and not backend.compiled_force:
            arrays = links.restricted(forced, backend.inactive)
            if isinstance(arrays, int):
                return arrays
            U, D, LEN, LL, RL = arrays
            as_array = backend.as_array
            self.arrays[:2] = as_array(U), as_array(D)
            self.arrays[4:] = backend.as_len(LEN), as_array(LL), as_array(RL)
            return None
        nodes = backend.as_array(links.forcing_node[forced])
        f = backend.force_all(nodes, *self.arrays)
        return None if f < 0 else forced[f]

    def check(self) -> None:
        """Knuth's sanity checker on the live arrays (raises AssertionError)."""
        arrays = list(self.arrays)
        if self.backend.tuples is not None:  # Algorithm X: no COLOR array, all zero
            arrays[3] = self.links.COLOR
        check_links(self.links, *arrays, inactive=self.backend.inactive)

    def is_pristine(self) -> bool:
        """True when every link array equals the problem's original (after a full search)."""
        links = self.links
        originals = (links.U, links.D, links.TOP, links.COLOR, links.LEN, links.LL, links.RL)
        live = [np.asarray(list(a), dtype=np.int64) if k != 3 or self.backend.tuples is None
                else links.COLOR for k, a in enumerate(self.arrays)]
        live[4][0] = links.LEN[0]
        return all(np.array_equal(a, o) for a, o in zip(live, originals))


COMPILED_SLICE_SECONDS = 0.2
"""Without a timeout, a compiled kernel still returns to Python about this often, so that
Ctrl-C gets through (compiled code never sees it)."""

TIMEOUT_SLICE_SECONDS = 0.02
"""With a timeout, slices this short, so that the clock is read often."""


class Slices:
    """How many search nodes a kernel call may run before it returns to Python (to read
    the clock, or to let Ctrl-C through): 1024 at first, then doubled or halved after each
    slice so that one takes about ``seconds``. None: no slices, one call runs to the end."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.nodes = 1024 if seconds is not None else 1 << 62

    def ran(self, seconds: float) -> None:
        """Adapt to a slice of :attr:`nodes` that took ``seconds``."""
        if self.seconds is None:
            return
        if seconds < self.seconds / 2:
            self.nodes = min(self.nodes * 2, 1 << 62)
        elif seconds > self.seconds * 2 and self.nodes > 1024:
            self.nodes //= 2


def run_search(
    links: Links,
    stats: SearchStats,
    *,
    limit: int | None,
    count_only: bool,
    max_nodes: int | None,
    timeout: float | None,
    seed: int | None,
    backend: str | Backend,
    forced: list[int] | None = None,
    state_hook=None,
) -> Iterator[list[int]]:
    """Yield solutions as sorted lists of option indices (or nothing, when counting).

    ``forced`` options (indices of linked options, validated by the caller) are selected
    before the search, and are part of every solution; when they exclude one another there
    is none, and ``stats.conflict`` names the first that clashes. ``nodes`` and
    ``updates`` count the search of what is left, not the forcing.

    ``stats`` is filled in as the search goes. The kernel is called in slices when a
    ``timeout`` is set, so that the clock is read between slices, and always with a compiled
    backend, so that Ctrl-C is raised between slices; the python backend sees Ctrl-C at once.
    Either way only this search's private copy of the arrays is lost. Slicing never
    changes a result: the kernel resumes exactly where it paused.
    """
    be = get_backend(backend, links.n_nodes, links.max_len, links.colored)
    stats.backend = be.name
    charge = backend == "auto" and be.name == "python"  # auto counts python's time
    start = time.perf_counter()
    if limit is not None and limit <= 0:
        stats.stopped = "limit"
        return
    state = _State(links, be, seed)
    U, D, TOP, COLOR, LEN, LL, RL = state.arrays
    if forced:
        conflict = state.force(forced)
        if conflict is not None:
            stats.conflict = conflict
            stats.complete = True
            stats.seconds = time.perf_counter() - start
            return
        U, D, TOP, COLOR, LEN, LL, RL = state.arrays
    if state_hook is not None:
        state_hook(state)
    choice, regs = state.choice, state.regs
    option_of_node = links.option_list
    never = 1 << 62
    node_cap = max_nodes if max_nodes is not None else never
    slices = Slices(TIMEOUT_SLICE_SECONDS if timeout is not None else be.slice_seconds)
    deadline = start + timeout if timeout is not None else None
    while True:
        if count_only:
            solution_stop = limit if limit is not None else never
        else:
            solution_stop = int(regs[kernel.SOLUTIONS]) + 1
        node_stop = min(node_cap, int(regs[kernel.NODES]) + slices.nodes)
        t0 = time.perf_counter()
        status = be.search(U, D, TOP, COLOR, LEN, LL, RL, choice, regs, node_stop, solution_stop)
        now = time.perf_counter()
        if charge:
            charge_python(now - t0)
        stats.nodes = int(regs[kernel.NODES])
        stats.updates = int(regs[kernel.UPDATES])
        stats.solutions = int(regs[kernel.SOLUTIONS])
        stats.max_level = int(regs[kernel.MAX_LEVEL])
        stats.seconds = now - start
        if status == kernel.DONE:
            stats.complete = True
            return
        if status == kernel.SOLUTION:
            if limit is not None and stats.solutions >= limit:
                stats.stopped = "limit"
            elif deadline is not None and now >= deadline:
                stats.stopped = "timeout"
            if not count_only:
                level = int(regs[kernel.LEVEL])
                chosen = [option_of_node[x] for x in choice[:level]]
                yield sorted(chosen + forced if forced else chosen)
            if stats.stopped:
                return
            continue
        # PAUSED: a budget, or just a slice boundary.
        if stats.nodes >= node_cap:
            stats.stopped = "max_nodes"
            return
        if deadline is not None and now >= deadline:
            stats.stopped = "timeout"
            return
        slices.ran(now - t0)
