"""Differential tests: the unrolled Algorithm X kernel against the kernel as written.

``dlx.kernels.unrolled`` is the python backend for problems without colors. It must do exactly
what :func:`dlx.kernels.algorithm_c.search` does: the same solutions in the same order, the same
``nodes``, ``updates`` and ``max_level``, and, after every single node, the very same
link arrays, so that pausing and resuming (budgets, time-outs) behave alike.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import Colored, ExactCover, NoPrimaryItemWarning, Status, get_backend
from dlx.kernels import codes
from dlx.kernels.unrolled import option_others
from dlx.problems import langford, pentominoes, queens
from dlx.pure import PYTHON
from dlx.state import REG_LEVEL, REG_NODES, REG_SOLUTIONS
from tests.helpers.datasets import data_dir
from tests.helpers.oracle import brute_force
from tests.helpers.pinned import (
    PYTHON_BYTES,
    PYTHON_LIST,
    PYTHON_X_BYTES,
    PYTHON_X_LIST,
    check,
    fresh,
    is_pristine,
    pinned,
)
from tests.helpers.random_problems import planted_problems, xcc_problems

DATA = data_dir("exact_cover")
PAIRS = [(PYTHON_X_BYTES, PYTHON_BYTES), (PYTHON_X_LIST, PYTHON_LIST)]


def _problem(options, primary, secondary) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, primary=primary, secondary=secondary)


def _run(problem: ExactCover, kern, count_only: bool = False, **kwargs) -> tuple[list, tuple]:
    """(solutions, stats) of a search with the kernel ``kern`` pinned; ``count_only``:
    counted without listing (``Search.count``), so the solutions list is empty."""
    search = problem.solutions(backend=pinned(kern), **kwargs)
    assert search.kernel is kern
    if count_only:
        found = []
        assert search.count() == search.stats.solutions
    else:
        found = list(search)
    stats = search.stats
    assert stats.status is not Status.RUNNING
    return found, (stats.nodes, stats.updates, stats.solutions, stats.max_level,
                   stats.complete, stats.status)


def _assert_same(problem: ExactCover, **kwargs) -> tuple[list, tuple]:
    """Both pairs of kernels agree; returns the (solutions, stats) they agree on.

    A bytearray LEN holds lengths below 128 only: longer lists leave just the list pair.
    """
    pairs = PAIRS if problem.links.max_len < 128 else PAIRS[1:]
    results = [_run(problem, be, **kwargs) for pair in pairs for be in pair]
    assert all(r == results[0] for r in results[1:])
    return results[0]


def _live(S) -> list[list[int]]:
    """The arrays the two kernels share in meaning: U, D, LEN, LL, RL (COLOR differs)."""
    return [list(S.U), list(S.D), list(S.LEN), list(S.LL), list(S.RL)]


def _lockstep(problem: ExactCover, x_kernel, c_kernel, seed=None) -> int:
    """Run both kernels one node per call; their arrays and registers agree at every pause.

    Returns the number of pauses, so that a test can see the walk was not trivial.
    """
    links = problem.links if seed is None else problem.links.shuffled(seed)
    x, c = fresh(links, x_kernel), fresh(links, c_kernel)
    steps = 0
    while True:
        statuses = []
        for kern, S in ((x_kernel, x), (c_kernel, c)):
            regs = S.REG
            statuses.append(kern.search(S, regs[REG_NODES] + 1, regs[REG_SOLUTIONS] + 1))
        assert statuses[0] == statuses[1]
        assert list(x.REG) == list(c.REG)
        assert _live(x) == _live(c)
        level = x.REG[REG_LEVEL]
        assert list(x.CHOICE[:level]) == list(c.CHOICE[:level])
        check(links, x_kernel, x)
        check(links, c_kernel, c)
        if statuses[0] == codes.COMPLETE:
            assert is_pristine(links, x) and is_pristine(links, c)
            return steps
        assert statuses[0] in (codes.LIMIT, codes.MAX_NODES)
        steps += 1


# ----- the option lists -------------------------------------------------------------------


def _others_by_walking(problem: ExactCover) -> dict[int, list[int]]:
    """OTHERS computed the slow way: walk each option from its node, skipping spacers."""
    links = problem.links
    TOP, U = links.arrays.TOP.tolist(), links.arrays.U.tolist()
    out = {}
    for p in range(links.n_items + 1, len(TOP)):
        if TOP[p] <= 0:
            continue
        row, q = [], p + 1
        while q != p:
            if TOP[q] <= 0:
                q = U[q]
                continue
            row.append(q)
            q += 1
        out[p] = row
    return out


@pytest.mark.parametrize("widths", [[4] * 7, [1, 1], [1], [3, 1, 2, 5, 1, 3], [2] * 3 + [6]])
def test_option_others_equal_walking_the_options(widths):
    items = [f"i{k}" for k in range(max(widths))]
    problem = ExactCover([items[-w:] for w in widths])
    others = option_others(problem.links)
    expected = _others_by_walking(problem)
    assert {p: list(others[p]) for p in expected} == expected
    spacers_and_headers = set(range(len(others))) - set(expected)
    assert all(not others[p] for p in spacers_and_headers)


def test_option_others_without_options():
    problem = ExactCover([], primary=["a"])
    assert option_others(problem.links) == [()] * problem.links.n_nodes


# ----- same results -----------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(xcc_problems(colors=False), st.sampled_from([None, 2]))
def test_random_problems_same_as_kernel(spec, seed):
    options, primary, secondary = spec
    problem = _problem(options, primary, secondary)
    found, stats = _assert_same(problem, seed=seed)
    assert {frozenset(s) for s in found} == brute_force(options, primary, secondary)
    assert stats[4] and stats[5] is Status.COMPLETE


@settings(max_examples=60, deadline=None)
@given(planted_problems(), st.sampled_from([None, 11]))
def test_lockstep_on_planted_problems(spec, seed):
    options, primary, secondary, _ = spec
    options = [[e for e in opt if not isinstance(e, tuple)] or [primary[0]]
               for opt in options]  # Algorithm X: colors stripped
    problem = _problem(options, primary, secondary)
    for x_backend, c_backend in PAIRS:
        _lockstep(problem, x_backend, c_backend, seed)


@pytest.mark.parametrize("problem", [queens(6), langford(5), queens(1)],
                         ids=["queens6", "langford5", "queens1"])
def test_lockstep_on_known_problems(problem):
    assert _lockstep(problem, PYTHON_X_BYTES, PYTHON_BYTES) >= problem.count(backend="python")


def test_same_with_budgets_and_limits():
    problem = langford(8)
    for kwargs in ({"limit": 3}, {"max_nodes": 0}, {"max_nodes": 1}, {"max_nodes": 777},
                   {"limit": 40, "seed": 5}, {"count_only": True},
                   {"count_only": True, "limit": 9}):
        _assert_same(problem, **kwargs)


def test_pentominoes_first_solutions_and_long_lists():
    """Items with more than 127 options: LEN is a list, choice by min/index."""
    problem = pentominoes(3, 20)
    assert problem.links.max_len >= 128  # (the python backend searches it over bitsets)
    found, _ = _assert_same(problem, limit=1)
    assert len(found) == 1 and problem.is_solution(found[0])


@pytest.mark.parametrize("name", ["queens8", "langford8", "shidoku_empty4x4",
                                  "sudoku_top95_1_reduced"])
def test_knuth_files_same_counts(name):
    path = DATA / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} is not there")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        problem = ExactCover.from_dlx(path.read_text())
    _assert_same(problem)
    _assert_same(problem, count_only=True)


def test_python_backend_picks_x_only_without_colors():
    """The python backend's kernel per problem: Algorithm X unrolled without colors (when
    the bitsets do not pay: short lists), the kernel as written with them; LEN a
    bytearray while every list is shorter than 128."""
    python = get_backend("python")
    assert python is PYTHON
    plain = ExactCover([[f"a{k}", f"b{k}"] for k in range(40)]).links
    assert not plain.colored
    assert python.kernel(plain) is PYTHON_X_BYTES

    def colored(copies: int) -> ExactCover:
        return ExactCover([["A", Colored("X", 1)]] * copies + [["B", Colored("X", 2)]],
                          secondary=["X"])

    assert colored(5).links.colored and colored(5).links.max_len == 6
    assert python.kernel(colored(5).links) is PYTHON_BYTES
    assert colored(500).links.max_len == 501
    assert python.kernel(colored(500).links) is PYTHON_LIST
    assert python.kernel(colored(126).links) is PYTHON_BYTES  # lists of 127: bytes
    assert python.kernel(colored(127).links) is PYTHON_LIST  # a list of 128: no more
    long_plain = ExactCover([["A"]] * 128).links
    assert python.kernel(long_plain) is PYTHON_X_LIST
    assert [k.name for k in (PYTHON_X_BYTES, PYTHON_X_LIST, PYTHON_BYTES, PYTHON_LIST)] == [
        "python-x-bytes", "python-x-list", "python-c-bytes", "python-c-list"]


def test_x_state_shares_its_read_only_lists():
    """Two searches of one problem share OTHERS (built once) but not the link arrays."""
    problem = queens(5)
    links = problem.links
    a, b = fresh(links, PYTHON_X_BYTES), fresh(links, PYTHON_X_BYTES)
    assert a.COLOR is b.COLOR and a.TOP is b.TOP
    assert a.U is not b.U and a.U == b.U
    assert np.array_equal(np.asarray(a.U), problem.links.arrays.U)
    assert is_pristine(links, a) and is_pristine(links, b)
