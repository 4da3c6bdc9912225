"""What every test shares: the backends it runs on, and the switch between the quick
default run and the full one.

``python -m pytest`` leaves out the tests marked ``slow`` (each takes a second or more;
the rest took 2 min 20 s of CPU, README.md says where and how measured); ``python -m
pytest --all`` runs every test, as CI does (``.ci/run``). A marker expression of one's
own (``-m slow``, ``-m "not slow"``) replaces the default one, and a test named on the
command line
(``tests/dlx/test_dlx_known.py::test_pentominoes_3x20``) runs, slow or not.

The helpers in ``tests/helpers`` (``oracle``, ``pinned``, ``datasets``, ``backends``, ...)
are modules of the ``tests`` package, imported by their full name
(``from tests.helpers.backends import BACKENDS``); ``tests/README.md`` maps the rest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import profiles
from tests.helpers.backends import BACKENDS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all", action="store_true", dest="all_tests",
                     help="run the slow tests too (every test, as CI does)")


def pytest_configure(config: pytest.Config) -> None:
    """The Hypothesis profile of this run (:mod:`tests.helpers.profiles`): quick, all or fuzz."""
    profiles.load(config.getoption("all_tests"))


def _named(config: pytest.Config) -> list[str]:
    """The tests named on the command line (``path::test``), as node ids."""
    named = []
    for arg in config.args:
        path, sep, rest = arg.partition("::")
        if sep:
            where = Path(config.invocation_params.dir, path).resolve()
            named.append(f"{where.relative_to(config.rootpath).as_posix()}::{rest}")
    return named


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the slow tests, unless ``--all`` or a marker expression (``-m``) is given
    or the test is named on the command line."""
    if config.getoption("all_tests") or config.getoption("markexpr"):
        return
    named = tuple(_named(config))

    def left_out(item: pytest.Item) -> bool:
        return item.get_closest_marker("slow") is not None and not (
            item.nodeid in named or item.nodeid.startswith(tuple(f"{n}[" for n in named)))

    slow = [item for item in items if left_out(item)]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not left_out(item)]


def pytest_report_header(config: pytest.Config) -> str:
    run = f"hypothesis profile {profiles.current()}"
    if config.getoption("all_tests") or config.getoption("markexpr"):
        return f"tests: every selected test; {run}"
    return f"tests: the quick run, slow tests left out (--all runs them, as CI does); {run}"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend the tests run on (:mod:`tests.helpers.backends`): the test runs once
    per backend."""
    return request.param
