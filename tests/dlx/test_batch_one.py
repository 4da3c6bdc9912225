"""A batch of one instance given as an int64 array, as ``sudoku``'s one call hands its
givens over, takes the backend's runner of one instance (``one_instance``: no job, no
set-up). It must give what the general batch gives for the same instance (the first of
a batch of two), record for record, errors included, and leave the array as it was."""

from __future__ import annotations

import re
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dlx import NEVER, ArgumentError, ForcedOptionError, InstanceCodec, NoPrimaryItemWarning
from dlx.backend import Backend
from sudoku import Layout, parse_string
from sudoku.named import load_named
from sudoku.reduction import empty_grid_problem
from tests.helpers.backends import needs_numba
from tests.helpers.profiles import examples
from tests.helpers.random_problems import build, xcc_problems

PUZZLES = [load_named()["leetcode-37"], load_named()["norvig-hard1"], "5.5" + "." * 78,
           ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4.........",
           "." * 81]


def _givens(puzzle: str) -> list[int]:
    return [cell * 9 + v - 1 for cell, v in enumerate(parse_string(puzzle)[1]) if v]


def _rows(result, k: int = 0) -> tuple:
    return (result.solution(k), int(result.found[k]), int(result.nodes[k]),
            int(result.updates[k]), int(result.max_level[k]), bool(result.conflict[k]),
            int(result.status[k]), int(result.conflicting[k]))


@needs_numba
@pytest.mark.parametrize("puzzle", PUZZLES)
@pytest.mark.parametrize(("limit", "max_nodes"), [(1, None), (2, None), (3, 40),
                                                  (10**6, 5000)])
def test_an_array_of_one_equals_the_general_batch(monkeypatch, puzzle, limit, max_nodes):
    """The empty grid with a huge limit runs past the first slice (1,024 nodes): it goes
    on on the driver, as the general batch does."""
    import dlx.compiled

    problem = empty_grid_problem(3)
    givens = _givens(puzzle)
    expected = _rows(problem.solve_batch([givens, []], limit=limit, max_nodes=max_nodes,
                                         backend="numba"))
    forced = np.array(givens, dtype=np.int64)
    kept = forced.copy()

    def no_job(self, job):
        raise AssertionError("a batch of one array went the general way")

    monkeypatch.setattr(dlx.compiled.NumbaBackend, "batch", no_job)
    got = problem.solve_batch([forced], limit=limit, max_nodes=max_nodes, backend="numba")
    assert got.backend == "numba" and _rows(got) == expected
    assert np.array_equal(forced, kept)  # read, never written


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
@pytest.mark.parametrize("forced", [np.array([5, 9], dtype=np.int32),
                                    np.array([5, 0, 9, 0], dtype=np.int64)[::2], [5, 9]])
def test_other_rows_go_the_general_way(forced, backend):
    """int32, a strided view, a list: the general path, the same records."""
    problem = empty_grid_problem(3)
    assert _rows(problem.solve_batch([forced], backend=backend)) \
        == _rows(problem.solve_batch([[5, 9], []], backend=backend))


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
@pytest.mark.parametrize(("bad", "message"), [([5, 729], "option 729 is not in range 0..728"),
                                              ([-3], "option -3 is not in range 0..728"),
                                              ([5, 5], "option 5 is forced twice")])
def test_bad_options_in_an_array_are_named(backend, bad, message):
    problem = empty_grid_problem(3)
    for forced in (bad, np.array(bad, dtype=np.int64)):
        with pytest.raises(ForcedOptionError, match=rf"forced\[0\]: {message}"):
            problem.solve_batch([forced], backend=backend)
    assert _rows(problem.solve_batch([np.array([5], dtype=np.int64)], backend=backend)) \
        == _rows(problem.solve_batch([[5]], backend=backend))


def test_a_backend_without_one_instance_says_none():
    """The default: no runner, the general way (``batch``) is taken."""
    assert Backend.one_instance(None, None, 1) is None  # type: ignore


# ----- InstanceSearch: solve_batch([forced]) with the arguments checked once -----------


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
@examples(150)
@given(problem=xcc_problems(), data=st.data())
def test_an_instance_search_is_a_batch_of_one(backend, problem, data):
    """Random XCC problems (colored ones take the general way on numba, the others the
    runner of one instance), random forced options (repeats and clashes included), random
    budgets: every record equals ``solve_batch``'s, errors included."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        cover = build(*problem)
    n = len(cover)
    forced = data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=3)) if n else []
    limit = data.draw(st.sampled_from([1, 2, None]))
    max_nodes = data.draw(st.sampled_from([None, 0, 3]))
    search = cover.instance_search(limit=limit, max_nodes=max_nodes, backend=backend)
    try:
        expected = _rows(cover.solve_batch([forced], limit=limit, max_nodes=max_nodes,
                                           backend=backend))
    except ForcedOptionError as e:
        with pytest.raises(ForcedOptionError, match=re.escape(str(e))):
            search(np.array(forced, dtype=np.int64))
        return
    for given_as in (forced, np.array(forced, dtype=np.int64)):
        assert _rows(search(given_as)) == expected


def test_an_instance_search_checks_its_arguments_once_made():
    problem = empty_grid_problem(3)
    with pytest.raises(ArgumentError, match="limit"):
        problem.instance_search(limit=0)
    with pytest.raises(ArgumentError, match="max_nodes"):
        problem.instance_search(max_nodes=-1)
    with pytest.raises(ArgumentError, match="timeout"):
        problem.instance_search(timeout="soon")
    with pytest.raises(ArgumentError, match="backend"):
        problem.instance_search(backend="fortran")
    search = problem.instance_search(limit=2, max_nodes=10**70, timeout=float("inf"))
    assert "limit=2" in repr(search) and search.max_nodes == NEVER and search.timeout is None
    with pytest.raises(AttributeError):  # checked once: not to be changed after
        search.limit = 0  # type: ignore[misc]


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
def test_an_instance_search_with_a_timeout_is_the_batch_with_it(backend):
    problem = empty_grid_problem(3)
    forced = np.array(_givens(PUZZLES[1]), dtype=np.int64)
    got = problem.instance_search(timeout=60, backend=backend)(forced)
    assert _rows(got) == _rows(problem.solve_batch([forced], timeout=60, backend=backend))


@needs_numba
def test_threads_share_an_instance_search():
    """Eight threads, one search, many puzzles at once: each answer is the serial one
    (every call takes working arrays of its own from the runner's pool)."""
    problem = empty_grid_problem(3)
    search = problem.instance_search(limit=2, backend="numba")
    rows = [np.array(_givens(p), dtype=np.int64) for p in PUZZLES] * 6
    serial = [_rows(search(r)) for r in rows]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(lambda r: _rows(search(r)), rows)) == serial


# ----- InstanceSearch.through: an adapter's ends around the search ---------------------


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
@pytest.mark.parametrize("puzzle", PUZZLES)
@pytest.mark.parametrize(("limit", "max_nodes"), [(1, None), (2, None), (3, 40),
                                                  (10**6, 5000)])
def test_through_is_the_search_then_decode(backend, puzzle, limit, max_nodes):
    """Sudoku's codec: the record equals the search of the encoded instance, and the
    answer is decode's of its first solution (None without one). The empty grid with a
    huge limit outlasts the first slice: the runner goes on in Python, then decodes."""
    from sudoku.codec import CODEC, answer, givens, rules

    problem = empty_grid_problem(3)
    values = np.frombuffer(bytes(parse_string(puzzle)[1]), np.uint8)
    context = rules(Layout.square(3))
    search = problem.instance_search(limit=limit, max_nodes=max_nodes, backend=backend)
    result, got = search.through(CODEC, values, context)
    expected = search(givens(values, context))
    assert _rows(result) == _rows(expected)
    first = expected.solution_view(0)
    if first is None:
        assert got is None
    else:
        assert got.tolist() == answer(first, values, context).tolist() and len(got) == 81


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
def test_through_checks_its_arrays(backend):
    from sudoku.codec import CODEC, rules

    search = empty_grid_problem(3).instance_search(backend=backend)
    context = rules(Layout.square(3))
    good = np.zeros(81, np.uint8)
    for data, name in ((good.astype(np.int64), "data"), (bytes(81), "data"),
                       (np.zeros(162, np.uint8)[::2], "data")):
        with pytest.raises(ArgumentError, match=f"^{name} must be a contiguous 1-d uint8"):
            search.through(CODEC, data, context)
    with pytest.raises(ArgumentError, match=r"^context must be a contiguous 1-d int64"):
        search.through(CODEC, good, context.astype(np.int32))


def repeat_five(data, context):
    """A codec's encode that forces option 5 twice (a conflict of an option with itself)."""
    return np.full(2, 5, dtype=np.int64)


def out_of_range(data, context):
    """A codec's encode that forces an option the problem does not have."""
    return np.full(1, 729 + int(data[0]), dtype=np.int64)


def first_options(first, data, context):
    """A codec's decode: the first solution's options, as bytes of their low bits."""
    out = np.zeros(len(first), dtype=np.uint8)
    for k in range(len(first)):
        out[k] = first[k] & 255
    return out


def wide_answer(first, data, context):
    """A decode that answers int64, not uint8: numba cannot join it with the empty
    answer of an instance without solutions."""
    return first + 1


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
@pytest.mark.parametrize(("encode", "message"), [(repeat_five, "option 5 is forced twice"),
                                                 (out_of_range, "option 729 is not in range")])
def test_through_names_the_bad_options_an_encode_makes(backend, encode, message):
    search = empty_grid_problem(3).instance_search(backend=backend)
    codec = InstanceCodec(encode, first_options)
    with pytest.raises(ForcedOptionError, match=rf"forced\[0\]: {message}"):
        search.through(codec, np.zeros(81, np.uint8), np.zeros(1, np.int64))


@needs_numba
def test_a_codec_numba_cannot_compile_is_an_argument_error():
    search = empty_grid_problem(3).instance_search(backend="numba")
    with pytest.raises(ArgumentError, match="codec: numba cannot compile"):
        search.through(InstanceCodec(repeat_five, wide_answer), np.zeros(81, np.uint8),
                       np.zeros(1, np.int64))


def no_givens(data, context):
    """A codec's encode that forces nothing: the empty grid."""
    return np.zeros(0, dtype=np.int64)


def how_many(first, data, context):
    """A codec's decode: how many options the first solution has."""
    return np.full(1, len(first), dtype=np.uint8)


@needs_numba
def test_two_codecs_of_one_module_run_their_own_decode():
    """Each codec's compiled call holds its own functions: the disk cache once keyed
    them by their module's source alone, so the second codec of a module ran the first
    one's machine code."""
    search = empty_grid_problem(3).instance_search(backend="numba")
    data, context = np.zeros(81, np.uint8), np.zeros(1, np.int64)
    first = search(no_givens(data, context)).solution_view(0)
    for decode in (first_options, how_many):
        _, got = search.through(InstanceCodec(no_givens, decode), data, context)
        assert got.tolist() == decode(first, data, context).tolist()
