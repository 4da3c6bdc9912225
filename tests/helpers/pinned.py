"""Test helpers: pin one kernel, and look at a search's live state.

A :class:`Pinned` backend gives every problem the one :class:`dlx.backend.Kernel` it was
made with (where the registered backends choose a kernel per problem), so that a test can
run, say, the general kernel over a bytearray on a problem without colors, or the numba
twin compiled without colors on a problem with colors. Pass it as ``backend=`` to
``ExactCover.solutions``, ``count``, ``first`` or ``solve_batch``.

:func:`fresh` is the state a search of a problem starts from (what ``Search`` makes);
:func:`check` runs Knuth's sanity checker on a live state and :func:`differing_arrays`
compares one with the problem's pristine arrays, whatever the kernel's array types.
"""

from __future__ import annotations

import numpy as np

from dlx.backend import Backend, BatchJob, Kernel
from dlx.kernels.bits import Walk
from dlx.links import Links, check_links
from dlx.pure import KERNELS, PYTHON, PythonBackend
from dlx.state import State

__all__ = ["PYTHON_BYTES", "PYTHON_KERNELS", "PYTHON_LIST", "PYTHON_X_BYTES", "PYTHON_X_LIST",
           "Pinned", "check", "differing_arrays", "fresh", "is_pristine", "pinned"]

PYTHON_X_BYTES = KERNELS[(True, True)]
PYTHON_X_LIST = KERNELS[(False, True)]
PYTHON_BYTES = KERNELS[(True, False)]
PYTHON_LIST = KERNELS[(False, False)]
PYTHON_KERNELS = (PYTHON_X_BYTES, PYTHON_X_LIST, PYTHON_BYTES, PYTHON_LIST)
"""The python kernels, fastest first (as the old ``PYTHON_BACKENDS``)."""


class Pinned(Backend):
    """A backend that searches every problem with ``kernel``.

    Its batches run the python backend's driver (:meth:`dlx.pure.PythonBackend.batch`,
    one :class:`dlx.Search` per instance) with this backend, hence with ``kernel`` too.
    ``slice_seconds``: how long a kernel call may run without a timeout (None: one call
    runs to the end); :func:`pinned` takes that of the backend the kernel comes from.
    """

    def __init__(self, kernel: Kernel, slice_seconds: float | None = None) -> None:
        self.pinned = kernel
        self.name = kernel.name
        self.slice_seconds = slice_seconds

    def kernel(self, links: Links, weighted: bool = False, reduce: bool = False) -> Kernel:
        if weighted or reduce:
            raise AssertionError(f"kernel {self.name} is pinned: Knuth's search only")
        return self.pinned

    def batch(self, job: BatchJob) -> None:
        PythonBackend.batch(self, job)  # type: ignore[arg-type]


_PINNED: dict[str, Pinned] = {}


def pinned(kernel: Kernel) -> Pinned:
    """The :class:`Pinned` backend of ``kernel`` (one per kernel name, made once), which
    slices its searches as the backend the kernel comes from does."""
    backend = _PINNED.get(kernel.name)
    if backend is None or backend.pinned is not kernel:
        owner = PYTHON
        if kernel.name.startswith("numba"):
            from dlx.compiled import NUMBA

            owner = NUMBA
        backend = _PINNED[kernel.name] = Pinned(kernel, owner.slice_seconds)
    return backend


def fresh(links: Links, kernel: Kernel) -> State:
    """The working state of a new search of ``links`` with ``kernel``, before any node
    (a seeded search's: ``links.shuffled(seed)``)."""
    return kernel.start(links)


def check(links: Links, kernel: Kernel, S: State) -> None:
    """Knuth's sanity checker on a live state (raises AssertionError)."""
    check_links(links, S, kernel.inactive)


def _unrolled(S: State) -> bool:
    """True when ``S.COLOR`` holds no colors: Algorithm X's read-only ``(OTHERS, choose)``
    or the bitset kernel's :class:`dlx.kernels.bits.Walk`."""
    return isinstance(S.COLOR, (tuple, Walk))


def differing_arrays(links: Links, S: State) -> list[str]:
    """Names of the live arrays that differ from the problem's pristine ones.

    Compared: every array a search restores (``U``, ``D``, ``COLOR``, ``LEN``, ``LL``,
    ``RL``; ``LEN``'s root entry aside, which holds the kernel's own ``INACTIVE``) and
    the read-only ones (``TOP``, ``FORCING``). ``CHOICE`` and ``REG`` are the search's
    own record. Algorithm X's kernels hold ``(OTHERS, choose)`` or a ``Walk`` in place
    of ``COLOR``.
    """
    out = []
    for name in ("U", "D", "TOP", "COLOR", "LEN", "LL", "RL", "FORCING"):
        live = getattr(S, name)
        if name == "COLOR" and _unrolled(S):
            continue
        live = np.asarray(list(live), dtype=np.int64)
        original = getattr(links.arrays, name)
        if name == "LEN" and len(live):
            live[0] = original[0]
        if live.shape != original.shape or not np.array_equal(live, original):
            out.append(name)
    return out


def is_pristine(links: Links, S: State) -> bool:
    """True when every link array of ``S`` equals the problem's original (header colors
    included), as after a full search."""
    return differing_arrays(links, S) == []
