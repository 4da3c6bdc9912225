"""The registry of backends, and ``auto``'s choice among them.

Every search and every batch gets its [`dlx.backend.Backend`][] from
[`get_backend`][], by name: ``python`` ([`dlx.pure`][]), ``numba`` ([`dlx.compiled`][],
with the ``fast`` extra) or ``auto``. Every backend returns the same solutions in the same
order with the same ``nodes`` and ``updates``; only the time differs.

**Which backend ``auto`` takes** ([`auto_backend`][]). Loading the compiled kernel costs
a process ~0.2 s (~4 s the first time on a machine, to compile), and one search of a small
problem in python costs ~1 ms, so ``auto`` keeps small work on python until the process
has the kernel loaded anyway. Since size alone would leave a program that solves thousands
of small problems one by one on python for ever, ``auto`` also times the searches it gives
to python and, once they reach 1 s in all, takes numba as if it were loaded: the
ski-rental rule, at most about twice the cost of the best choice made in advance. When
numba is installed but cannot run (``NUMBA_DISABLE_JIT``), ``auto`` says so once, in a
warning, and stays on python.

**Moving mid-search** ([`handover`][]). The same rule within one search: a search (or a
batch, or a run of restarts) that ``auto`` started on python moves to numba at the next
slice boundary once its slices have taken [`AUTO_SWITCH_SECONDS`][] of CPU, about what
loading numba costs (a count moves sooner, after [`AUTO_ESTIMATE_SECONDS`][], if Knuth's
estimate of its tree projects that much more on python), and goes on from the same
arrays, converted
([`dlx.backend.Kernel.adopt`][]): the same solutions in the same order, the same nodes
and updates. Its ``stats.backend`` then reads ``"python->numba"``. So a long single
search pays at most about twice what starting on numba would have, the load included;
short ones never load it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Literal

from .backend import Backend
from .compiled import NUMBA
from .errors import ArgumentError, warn_once
from .pure import PYTHON
from .slices import Handover

__all__ = ["BackendName", "auto_backend", "backend_names", "charge_python", "get_backend",
           "handover", "register_backend"]

BackendName = Literal["auto", "python", "numba"]
"""The names of the backends this package registers, and ``auto``."""

_REGISTRY: dict[str, Backend] = {}


def register_backend(backend: Backend) -> None:
    """Make ``backend`` available by its name to every search, batch and command."""
    if backend.name == "auto":
        raise ArgumentError("'auto' is not a backend's name: it chooses among them")
    _REGISTRY[backend.name] = backend


register_backend(PYTHON)
register_backend(NUMBA)


def backend_names() -> tuple[str, ...]:
    """``"auto"`` and the registered backends' names (installed or not)."""
    return ("auto", *_REGISTRY)


NUMBA_MIN_NODES = 5_000
"""Below this many nodes in the problem (a batch: instances x nodes, see
[`NUMBA_MIN_WORK`][]), ``auto`` keeps to python unless this process has loaded the
compiled kernel already. Size predicts search time poorly (python: first() of the
14,000-node 6x10 pentomino board 0.15 s, count() of the 800-node queens12 2 s), so this is
a compromise that spares small problems the load; the ski-rental rule mends it when they
come by the thousand."""

NUMBA_MIN_WORK = 2_000_000
"""``auto`` takes numba for a batch once instances x nodes reach this (e.g. 700 Sudokus):
loading it costs ~0.6 s, about what the python backend needs for 600 Sudokus."""

NUMBA_LOADED_MIN_NODES = 64
"""With the kernel loaded, ``auto`` takes numba from this size on: below it python is a
few µs faster (numba's fixed cost is ~10 µs a search: array copies and the call)."""

AUTO_PYTHON_SECONDS = 1.0
"""Once the searches that ``auto`` gave to python have taken this long in all, ``auto``
takes numba as if it were loaded (the ski-rental rule)."""

AUTO_SWITCH_SECONDS = 0.2
"""A search that ``auto`` started on python moves to numba once its slices on python have
taken this many CPU seconds (the ski-rental rule within one search, [`handover`][]):
about what loading numba costs a fresh process, measured 0.20-0.22 s (numba's import, then
the kernel from the disk cache with only numba's runtime set up: [`dlx.jit._lean_load`][];
it was 0.41 s while the load set up numba's whole compiler, ~0.4 s more with scipy). The
load counts: it is the price the rule weighs python's time against, paid in the first
numba slice after the move, and no move is made when less than this is left before the
search's deadline (the load would not fit). ``docs/decisions.md``, "`auto` moves
mid-search", has the figures."""

AUTO_ESTIMATE_SECONDS = 0.01
"""A search that runs to the end of its tree (a count) and has run this long on python
moves to numba as soon as Knuth's estimate of its tree ([`dlx.search.Search.explored`][])
projects [`AUTO_SWITCH_SECONDS`][] more on python: the load then repays itself, and a
first call (a new process counting ``queens(12)``) no longer waits 0.4 s on python
first. A search estimated wrong pays at most the load too early; one estimated short
(the estimate is low on pentominoes, Langford pairs and Algorithm M's searches) keeps
to the ski-rental rule. Searches shorter than this never load numba."""

AUTO_SWITCH_LOADED_SECONDS = 0.01
"""Once this process has loaded numba (another search moved, or took it), the price of a
move is only the conversion of the arrays: a search moves after this long on python."""

_python_seconds = 0.0  # the searches auto gave to python so far, in seconds
_lock = threading.Lock()


def charge_python(seconds: float) -> None:
    """Count ``seconds`` of a search that ``auto`` gave to the python backend."""
    global _python_seconds
    with _lock:
        _python_seconds += seconds


def auto_backend(work: int, min_work: int = NUMBA_MIN_NODES) -> Backend:
    """``auto``'s backend for ``work`` nodes (a batch: instances x nodes): numba once this
    process has loaded it (for all but tiny work), for work of at least ``min_work``
    that repays loading it, or once python has had its share; else python."""
    if NUMBA.loaded():
        return NUMBA if work >= NUMBA_LOADED_MIN_NODES else PYTHON
    if work < NUMBA_LOADED_MIN_NODES or (work < min_work
                                         and _python_seconds < AUTO_PYTHON_SECONDS):
        return PYTHON
    why = NUMBA.unavailable()
    if why is None:
        return NUMBA
    if "NUMBA_DISABLE_JIT" in why:
        warn_once(f"auto uses the python backend: {why}", stacklevel=5)
    return PYTHON


def _switch_due(seconds: float, left: float | None,
                remaining: Callable[[], float | None] = lambda: None) -> bool:
    """[`handover`][]'s rule ([`dlx.slices.Due`][]): a search that has run ``seconds`` on
    python, with ``left`` seconds to its deadline (None: none), moves to numba now; or
    earlier, after [`AUTO_ESTIMATE_SECONDS`][], if ``remaining()`` projects at least
    [`AUTO_SWITCH_SECONDS`][] more on python."""
    if NUMBA.unavailable() is not None:
        return False
    if NUMBA.loaded():
        return seconds >= AUTO_SWITCH_LOADED_SECONDS
    if left is not None and left < AUTO_SWITCH_SECONDS:  # the load would not fit
        return False
    if seconds >= AUTO_SWITCH_SECONDS:
        return True
    if seconds < AUTO_ESTIMATE_SECONDS:
        return False
    projected = remaining()
    return projected is not None and projected >= AUTO_SWITCH_SECONDS


def handover(name: str | Backend, chosen: Backend, charge: bool = True) -> Handover | None:
    """The move to numba mid-search ([`dlx.slices.Handover`][]) of a search that
    ``auto`` (``name``) gave to python (``chosen``), else None. Its slices on python are
    charged to the ski-rental count of [`charge_python`][] unless ``charge`` is False
    (a batch charges its whole time itself)."""
    if not (type(name) is str and name == "auto" and chosen is PYTHON):
        return None
    return Handover(PYTHON, NUMBA, _switch_due, charge_python if charge else None,
                    _switch_by)


def _switch_by() -> float | None:
    """The seconds on python by which [`_switch_due`][] moves any search (None: never,
    numba being unavailable)."""
    if NUMBA.unavailable() is not None:
        return None
    return AUTO_SWITCH_LOADED_SECONDS if NUMBA.loaded() else AUTO_SWITCH_SECONDS


def get_backend(name: str | Backend, work: int = 0, min_work: int = NUMBA_MIN_NODES) -> Backend:
    """The backend called ``name`` (``auto``: see `auto_backend` for ``work``).

    A [`Backend`][] passes through. An unknown name raises [`dlx.ArgumentError`][];
    a backend that cannot run here (numba not installed, or ``NUMBA_DISABLE_JIT``)
    raises ImportError saying why.
    """
    if type(name) is str:
        if name == "auto":
            return auto_backend(work, min_work)
        backend = _REGISTRY.get(name)
    elif isinstance(name, Backend):
        return name
    else:
        backend = None
    if backend is None:
        raise ArgumentError(f"backend must be one of {', '.join(map(repr, backend_names()))}, "
                            f"got {name!r}")
    why = backend.unavailable()
    if why is not None:
        raise ImportError(why)
    return backend
