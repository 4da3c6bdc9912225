"""The backends the tests run on: every registered backend (``python``, ``numba``), those
that cannot run here (numba not installed, or ``NUMBA_DISABLE_JIT`` set) skipped with the
reason the registry gives.

The one list, in the three forms tests need it:

* the ``backend`` fixture (``tests/conftest.py``): a test that takes an argument named
  ``backend`` runs once per backend;
* :data:`BACKENDS`, the same for ``pytest.mark.parametrize("backend", BACKENDS)``;
* :data:`AVAILABLE`, the names of those that run here, for a test that compares the
  backends with one another in one run.

:data:`needs_numba` marks a test of the numba backend itself.
"""

from __future__ import annotations

import pytest

from dlx.registry import backend_names, get_backend

__all__ = ["AVAILABLE", "BACKENDS", "UNAVAILABLE", "needs_numba"]


def _why_not(name: str) -> str | None:
    """Why backend ``name`` cannot run here, or None when it can (nothing is loaded)."""
    try:
        get_backend(name)
    except ImportError as e:
        return str(e)
    return None


UNAVAILABLE: dict[str, str] = {
    name: why for name in backend_names() if name != "auto" and (why := _why_not(name))}
"""Each registered backend that cannot run here, with the reason."""

AVAILABLE: list[str] = [
    name for name in backend_names() if name != "auto" and name not in UNAVAILABLE]
"""The registered backends that can run here, ``python`` first."""

BACKENDS: list = [
    pytest.param(name, marks=pytest.mark.skip(reason=UNAVAILABLE[name]))
    if name in UNAVAILABLE else name
    for name in backend_names() if name != "auto"]
"""Every registered backend as a test parameter, those that cannot run here skipped."""

needs_numba = pytest.mark.skipif("numba" in UNAVAILABLE, reason=UNAVAILABLE.get("numba", ""))
"""Mark of a test that runs the numba backend only."""
