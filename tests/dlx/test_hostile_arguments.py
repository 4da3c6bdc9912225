"""Hostile arguments of the search calls: budgets, checkpoints, executors, progress (the
standing hostile suite of issue 32: what about 12,000 hostile inputs attacked, kept as
property tests so that it stays attacked).

* budgets of the learning search on both backends: nodes, limit and time each honoured;
* checkpoint paths and contents: a missing directory, a file where a directory should be,
  bytes paths, the same path from two threads, corrupt or hostile JSON;
* ``executor`` and ``progress`` arguments of every type;
* the generator's budgets.

Each property says what must come out (the right answer, or the documented exception
naming the argument) and that nothing else escapes. The number of examples follows the
Hypothesis profile: few in the quick run, more with ``--all`` (``tests/conftest.py``).
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlx
import sudoku
from dlx import ArgumentError, CheckpointError, SearchStoppedError, Status
from dlx.problems import queens
from tests.helpers.backends import BACKENDS
from tests.helpers.oracle import brute_force
from tests.helpers.random_problems import build, xcc_problems

QUEENS8 = 92

ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=8),
    st.binary(max_size=8), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.just(object()),
    st.just(cf.Future()), st.just(threading.Lock()), st.just(Path("/tmp")))
"""Values of many types, for the arguments that take one kind of object only."""

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=20)
"""Any JSON value."""

_pool = cf.ThreadPoolExecutor(2)
"""An executor for the distributed counts (threads: no process start per example)."""


# ----- budgets of the learning search -----------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=xcc_problems(), max_nodes=st.integers(0, 60), limit=st.integers(1, 5) | st.none())
def test_learning_search_honours_nodes_and_limit(backend, case, max_nodes, limit):
    """``max_nodes`` bounds the decisions exactly and ``limit`` the solutions; every
    solution yielded is one, once; a search that ends within its budgets has found every
    solution (or ``limit`` of them)."""
    problem = build(*case)
    everything = {tuple(sorted(s)) for s in brute_force(*case)}
    search = problem.solutions(limit, strategy="learn", backend=backend, max_nodes=max_nodes)
    found = [tuple(s) for s in search]
    stats = search.stats
    assert stats.nodes <= max_nodes
    assert len(found) == len(set(found)) == stats.solutions
    assert set(found) <= everything
    if limit is not None:
        assert len(found) <= limit
    if stats.status is Status.MAX_NODES:
        assert stats.nodes == max_nodes
    elif stats.status is Status.LIMIT:
        assert len(found) == limit
    else:
        assert stats.status.complete and set(found) == everything


@pytest.mark.parametrize("backend", BACKENDS)
@settings(deadline=None, max_examples=4, suppress_health_check=[HealthCheck.too_slow])
@given(timeout=st.floats(0, 0.2))
def test_learning_search_honours_its_timeout(backend, timeout):
    """A timeout stops the learning search within about one slice (a few tens of ms), not
    at its end: counting queens 11 takes well over 20 s on either backend. The bound here
    is loose on purpose (the machine may be shared); R1 ran 50 times past it."""
    queens(5).count(strategy="learn", backend=backend)  # compiled before the clock starts
    start = time.perf_counter()
    with pytest.raises(SearchStoppedError) as stopped:
        queens(11).count(strategy="learn", backend=backend, timeout=timeout)
    assert time.perf_counter() - start < timeout + 3.0
    assert stopped.value.stats.status is Status.TIMEOUT


# ----- checkpoints ----------------------------------------------------------------------


@pytest.mark.slow
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=JSON)
def test_a_hostile_checkpoint_is_refused_and_kept(tmp_path, content):
    """Any JSON that is not a checkpoint of this run is a CheckpointError naming the file,
    before any work, and the file is left as it was: a checkpoint is never lost."""
    path = tmp_path / "run.json"
    text = json.dumps(content)
    path.write_text(text)
    with pytest.raises(CheckpointError, match="checkpoint"):
        queens(8).count(executor=_pool, checkpoint=path)
    assert path.read_text() == text


@pytest.mark.slow
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=64) | st.just(b"[" * 100_000) | st.just(b'{"a":' * 50_000))
def test_a_corrupt_checkpoint_is_refused(tmp_path, data):
    """Bytes that are not JSON (or JSON nested past any recursion limit) are refused
    the same way; nothing else (RecursionError, UnicodeDecodeError) escapes."""
    path = tmp_path / "run.json"
    path.write_bytes(data)
    with pytest.raises(CheckpointError):
        queens(8).count(executor=_pool, checkpoint=path)
    assert path.read_bytes() == data


@pytest.mark.parametrize("kind", ["missing directory", "file as directory", "directory",
                                  "empty", "nul"])
def test_a_checkpoint_path_that_cannot_serve_is_refused_first(tmp_path, kind):
    """A path where no checkpoint can be written is refused before the search starts."""
    (tmp_path / "file").write_text("")
    path = {"missing directory": tmp_path / "no" / "run.json",
            "file as directory": tmp_path / "file" / "run.json",
            "directory": tmp_path, "empty": "", "nul": f"{tmp_path}/a\0b"}[kind]
    with pytest.raises(CheckpointError):
        queens(8).count(executor=_pool, checkpoint=path)


@pytest.mark.parametrize("spell", [str, Path, os.fsencode], ids=["str", "Path", "bytes"])
def test_a_checkpoint_path_of_every_spelling_resumes(tmp_path, spell):
    """str, os.PathLike and bytes name the same file; a rerun with it resumes to the same
    count."""
    path = spell(str(tmp_path / "run.json"))
    assert queens(8).count(executor=_pool, checkpoint=path) == QUEENS8
    assert (tmp_path / "run.json").is_file() and len(os.listdir(tmp_path)) == 1
    assert queens(8).count(executor=_pool, checkpoint=path) == QUEENS8


def test_two_threads_share_a_checkpoint_path(tmp_path):
    """R7: two threads of one process counting with the same checkpoint both finish (their
    temporary files no longer share a name)."""
    path = tmp_path / "run.json"
    counts: list[int] = []
    errors: list[BaseException] = []

    def count() -> None:
        try:
            counts.append(queens(9).count(executor=_pool, checkpoint=path))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=count) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and counts == [352, 352]
    assert json.loads(path.read_text())["format"] == "dlx-checkpoint"


# ----- executor and progress ------------------------------------------------------------


@given(value=ANYTHING)
def test_an_executor_of_any_other_type_is_an_argument_error(value):
    """``executor`` is None or a concurrent.futures.Executor; anything else is refused,
    naming it, before the split is computed."""
    problem = queens(6)
    if value is None:
        assert problem.count(executor=value) == 4
        return
    with pytest.raises(ArgumentError, match="executor"):
        problem.count(executor=value)


@given(value=ANYTHING)
def test_a_progress_of_any_other_type_is_an_argument_error(value):
    """``progress`` is None or callable (a distributed count calls it per chunk)."""
    problem = queens(6)
    if value is None:
        assert problem.count(executor=_pool, progress=value) == 4
        return
    with pytest.raises(ArgumentError, match="progress"):
        problem.count(executor=_pool, progress=value)


def test_a_progress_callback_is_called_per_chunk():
    """A callable ``progress`` sees the run advance to its end."""
    seen: list[dlx.RunProgress] = []
    assert queens(8).count(executor=_pool, progress=seen.append) == QUEENS8
    assert seen and seen[-1].done == seen[-1].parts


# ----- the generator's budgets ----------------------------------------------------------


@settings(deadline=None, max_examples=12)
@given(size=st.sampled_from([4, 9]), seed=st.integers(0, 10**6),
       max_nodes=st.integers(1, 2000) | st.none(), timeout=st.sampled_from([None, 1e-6, 0.05]))
def test_the_generator_honours_its_budgets(size, seed, max_nodes, timeout):
    """Budgets reach the generator (R4): ``max_nodes`` bounds each of its searches, and it
    returns a puzzle with blanks and exactly one solution (R5: a budget of one node used
    to give back the solved grid); ``timeout`` bounds the whole call (issue 42, defect
    12), which either returns such a puzzle or stops with SearchStoppedError."""
    try:
        puzzle = sudoku.generate(size, seed=seed, max_nodes=max_nodes, timeout=timeout)
    except sudoku.SearchStoppedError:
        assert timeout is not None
        return
    assert "." in puzzle
    assert sudoku.count_solutions(puzzle, limit=2) == 1
