"""How hard the property tests try: one switch for every Hypothesis suite.

Three runs, each a Hypothesis profile that ``tests/conftest.py`` loads:

* ``quick`` (``python -m pytest``): a property runs the examples its test asks for, and
  one that asks for none runs 25;
* ``all`` (``python -m pytest --all``, what CI runs): twice as many;
* ``fuzz`` (``HYPOTHESIS_PROFILE=fuzz``, by hand, minutes to hours): twenty times as many.

A test that names its own number of examples does so through :func:`examples`, which
scales it by the run (an explicit ``max_examples`` would otherwise override the profile).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

__all__ = ["SCALE", "current", "examples", "load"]

SCALE = {"quick": 1, "all": 2, "fuzz": 20}
"""Examples per run, as a multiple of what a test asks for."""

_run = ["fuzz" if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else "quick"]

for _name, _scale in SCALE.items():
    settings.register_profile(_name, max_examples=25 * _scale, deadline=None,
                              print_blob=_name == "fuzz",
                              suppress_health_check=[HealthCheck.too_slow])


def load(every_test: bool) -> str:
    """Load the profile of this run (``every_test``: ``--all``), unless the fuzz run was
    asked for; returns its name."""
    if every_test and _run[0] != "fuzz":
        _run[0] = "all"
    settings.load_profile(_run[0])
    return _run[0]


def current() -> str:
    """The name of this run's profile: ``quick``, ``all`` or ``fuzz``."""
    return _run[0]


def examples(n: int, *, health: tuple[HealthCheck, ...] = ()) -> settings:
    """Settings for a property that wants ``n`` examples in the quick run, scaled by the
    run; no deadline (machines are shared), and ``health`` checks suppressed besides
    ``too_slow``."""
    return settings(max_examples=n * SCALE[_run[0]], deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, *health])
