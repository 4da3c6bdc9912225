"""What every test shares: the backends it runs on, and the switch between the quick
default run and the full one.

``python -m pytest`` leaves out the tests marked ``slow`` (each takes 3 s or more; the
rest runs in about two minutes on two cores); ``python -m pytest --all`` runs every test,
as CI does (``.ci/run``). A marker expression of one's own (``-m slow``, ``-m "not
slow"``) replaces the default one.

The helpers in ``tests/helpers`` (``oracle``, ``pinned``, ``datasets``, ``backends``, ...)
are imported as top-level modules: ``pythonpath`` in ``pyproject.toml`` puts that folder on
``sys.path``.
"""

from __future__ import annotations

import pytest
from backends import BACKENDS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all", action="store_true", dest="all_tests",
                     help="run the slow tests too (every test, as CI does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the slow tests, unless ``--all`` or a marker expression (``-m``) is given."""
    if config.getoption("all_tests") or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("all_tests") or config.getoption("markexpr"):
        return "tests: every selected test"
    return "tests: the quick run, slow tests left out (--all runs them, as CI does)"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend the tests run on (:mod:`backends`): the test runs once per backend."""
    return request.param
