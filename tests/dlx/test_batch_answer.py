"""``InstanceSearch.answer``: [`InstanceSearch.through`][]'s answer where there is one,
else its result, on every backend; on numba without the result's table (the compiled
call keeps its record and its answer in the runner's own buffers, copied out)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from dlx import ArgumentError, BatchResult, ForcedOptionError, InstanceCodec
from sudoku import Layout, parse_string
from sudoku.reduction import empty_grid_problem
from tests.dlx.test_batch_one import PUZZLES, _rows, first_options, out_of_range, repeat_five
from tests.helpers.backends import needs_numba

BACKENDS = ["python", pytest.param("numba", marks=needs_numba)]


def _values(puzzle: str) -> np.ndarray:
    return np.frombuffer(bytes(parse_string(puzzle)[1]), np.uint8)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("puzzle", PUZZLES)
@pytest.mark.parametrize(("limit", "max_nodes"), [(1, None), (2, None), (3, 40),
                                                  (10**6, 5000)])
def test_answer_is_through_s_answer_or_its_result(backend, puzzle, limit, max_nodes):
    """Sudoku's codec: an answer where through has one (the empty grid with a huge
    limit outlasts the first slice), through's very record where it has none (a clash,
    no solution, a node budget spent before the first)."""
    from sudoku.codec import CODEC, rules

    values, context = _values(puzzle), rules(Layout.square(3))
    search = empty_grid_problem(3).instance_search(limit=limit, max_nodes=max_nodes,
                                                   backend=backend)
    result, expected = search.through(CODEC, values, context)
    for _ in range(2):  # the second call reuses the first one's buffers
        got = search.answer(CODEC, values, context)
        if expected is None:
            assert type(got) is BatchResult and _rows(got) == _rows(result)
        else:
            assert type(got) is np.ndarray and got.dtype == np.uint8
            assert got.tolist() == expected.tolist()


def first_few(first, data, context):
    """A codec's decode whose answer is as long as ``data[0]`` says: the first
    solution's options as bytes, cut or padded with zeros."""
    out = np.zeros(int(data[0]), dtype=np.uint8)
    for k in range(min(len(first), len(out))):
        out[k] = first[k] & 255
    return out


def no_givens(data, context):
    return np.zeros(0, dtype=np.int64)


@pytest.mark.parametrize("backend", BACKENDS)
def test_answers_of_any_length_come_whole(backend):
    """Answers longer than the room the runner kept (which it then grows), shorter,
    empty, and as long: each is decode's, whole."""
    search = empty_grid_problem(3).instance_search(backend=backend)
    codec, context = InstanceCodec(no_givens, first_few), np.zeros(1, np.int64)
    first = search(np.zeros(0, np.int64)).solution_view(0)
    for n in (81, 3, 0, 200, 81, 255, 1):
        data = np.full(2, n, dtype=np.uint8)
        got = search.answer(codec, data, context)
        assert got.tolist() == first_few(first, data, context).tolist()
        assert search.through(codec, data, context)[1].tolist() == got.tolist()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("encode", "message"), [(repeat_five, "option 5 is forced twice"),
                                                 (out_of_range, "option 729 is not in range")])
def test_answer_names_the_bad_options_an_encode_makes(backend, encode, message):
    search = empty_grid_problem(3).instance_search(backend=backend)
    with pytest.raises(ForcedOptionError, match=rf"forced\[0\]: {message}"):
        search.answer(InstanceCodec(encode, first_options), np.zeros(81, np.uint8),
                      np.zeros(1, np.int64))


@pytest.mark.parametrize("backend", BACKENDS)
def test_answer_checks_its_arguments(backend):
    from sudoku.codec import CODEC, rules

    search = empty_grid_problem(3).instance_search(backend=backend)
    context = rules(Layout.square(3))
    with pytest.raises(ArgumentError, match=r"^codec must be a dlx\.InstanceCodec"):
        search.answer((CODEC.encode, CODEC.decode), np.zeros(81, np.uint8), context)
    with pytest.raises(ArgumentError, match=r"^data must be a contiguous 1-d uint8"):
        search.answer(CODEC, np.zeros(162, np.uint8)[::2], context)
    with pytest.raises(ArgumentError, match=r"^context must be a contiguous 1-d int64"):
        search.answer(CODEC, np.zeros(81, np.uint8), context.astype(np.int32))


@needs_numba
def test_threads_share_answer():
    """Eight threads, one search: each answer (or result) is the serial one, though
    each call's record and answer are written into buffers that the calls pass on."""
    from sudoku.codec import CODEC, rules

    search = empty_grid_problem(3).instance_search(limit=2, backend="numba")
    context = rules(Layout.square(3))
    data = [_values(p) for p in PUZZLES] * 6

    def one(values: np.ndarray) -> object:
        got = search.answer(CODEC, values, context)
        return got.tolist() if type(got) is np.ndarray else _rows(got)

    serial = [one(v) for v in data]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(one, data)) == serial


@pytest.mark.parametrize("backend", [*BACKENDS, "auto"])
@pytest.mark.parametrize(("limit", "max_nodes", "timeout"), [(1, None, None), (2, 40, None),
                                                             (1, None, 30.0)])
def test_answerer_answers_as_answer_does(backend, limit, max_nodes, timeout):
    """``answerer(codec, context)(data)`` is ``answer(codec, data, context)``: answers,
    results (a clash, no solution, a budget spent) and the faults an encode makes, with
    a named backend (its runner found once), ``auto`` and a timeout (answer's way)."""
    from sudoku.codec import CODEC, rules

    context = rules(Layout.square(3))
    search = empty_grid_problem(3).instance_search(limit=limit, max_nodes=max_nodes,
                                                   timeout=timeout, backend=backend)
    answer = search.answerer(CODEC, context)
    for puzzle in PUZZLES:
        values = _values(puzzle)
        for _ in range(2):
            got, expected = answer(values), search.answer(CODEC, values, context)
            assert type(got) is type(expected)
            if type(got) is BatchResult:
                assert _rows(got) == _rows(expected)
            else:
                assert got.tolist() == expected.tolist()
    bad = search.answerer(InstanceCodec(repeat_five, first_options), np.zeros(1, np.int64))
    with pytest.raises(ForcedOptionError, match=r"forced\[0\]: option 5 is forced twice"):
        bad(np.zeros(81, np.uint8))


@pytest.mark.parametrize("backend", BACKENDS)
def test_answerer_checks_its_arguments_and_keeps_its_context(backend):
    """The codec and context are checked when the answerer is made, ``data`` at each
    call, with answer's messages; a context changed afterwards changes nothing."""
    from sudoku.codec import CODEC, rules

    search = empty_grid_problem(3).instance_search(backend=backend)
    context = rules(Layout.square(3)).copy()  # (the rules themselves are read-only)
    with pytest.raises(ArgumentError, match=r"^codec must be a dlx\.InstanceCodec"):
        search.answerer((CODEC.encode, CODEC.decode), context)
    with pytest.raises(ArgumentError, match=r"^context must be a contiguous 1-d int64"):
        search.answerer(CODEC, context.astype(np.int32))
    answer = search.answerer(CODEC, context)
    with pytest.raises(ArgumentError, match=r"^data must be a contiguous 1-d uint8"):
        answer(np.zeros(162, np.uint8)[::2])
    with pytest.raises(ArgumentError, match=r"^data must be a contiguous 1-d uint8"):
        answer([0] * 81)
    values = _values(PUZZLES[0])
    expected = answer(values).tolist()
    context[:] = 0
    assert answer(values).tolist() == expected


@needs_numba
def test_threads_share_an_answerer():
    """Eight threads, one answerer: each answer (or result) is the serial one."""
    from sudoku.codec import CODEC, rules

    answer = empty_grid_problem(3).instance_search(limit=2, backend="numba").answerer(
        CODEC, rules(Layout.square(3)))
    data = [_values(p) for p in PUZZLES] * 6

    def one(values: np.ndarray) -> object:
        got = answer(values)
        return got.tolist() if type(got) is np.ndarray else _rows(got)

    serial = [one(v) for v in data]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(one, data)) == serial
