"""Forced options: ``ExactCover.solutions(forced=...)`` and ``count(forced=...)``.

A forced search must find exactly the solutions of the whole problem that contain the
forced options; without colors its state is computed at once by numpy
(``Links.restricted``), and that must search exactly like forcing the options one link at
a time with the kernels' ``force`` (same solutions, order, nodes and updates).
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force
from test_dlx_properties import xcc_problems

from dlx import ExactCover, NoPrimaryItemWarning, SearchStats, kernel
from dlx.backends import PYTHON_BYTES, PYTHON_LIST, PYTHON_X_BYTES, PYTHON_X_LIST
from dlx.problems import langford, queens, word_rectangle
from dlx.search import _State, run_search

PYTHON_KERNELS = [PYTHON_X_BYTES, PYTHON_BYTES, PYTHON_X_LIST, PYTHON_LIST]


def _problem(options, primary, secondary) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, primary=primary, secondary=secondary)


def _forced_run(problem: ExactCover, forced, backend) -> tuple[list, tuple]:
    stats = SearchStats()
    found = list(run_search(problem.links, stats, limit=None, count_only=False,
                            max_nodes=None, timeout=None, seed=None, backend=backend,
                            forced=forced))
    return found, (stats.nodes, stats.updates, stats.solutions, stats.conflict)


def _link_by_link(problem: ExactCover, forced, backend) -> tuple[list, tuple]:
    """The same search with the options forced by the kernel's ``force``, one at a time."""
    links = problem.links
    state = _State(links, backend, None)
    f = backend.force_all(links.forcing_node[forced].tolist(), *state.arrays)
    if f >= 0:
        return [], (0, 0, 0, forced[f])
    found = []
    regs = state.regs
    while True:
        status = backend.search(*state.arrays, state.choice, regs, 1 << 62,
                                regs[kernel.SOLUTIONS] + 1)
        if status == kernel.DONE:
            break
        chosen = [links.option_list[x] for x in state.choice[:regs[kernel.LEVEL]]]
        found.append(sorted(chosen + list(forced)))
    return found, (regs[kernel.NODES], regs[kernel.UPDATES], regs[kernel.SOLUTIONS], None)


@st.composite
def forced_problems(draw):
    """A colorless problem and a few of its linked options to force (maybe clashing)."""
    options, primary, secondary = draw(xcc_problems(colors=False))
    problem = _problem(options, primary, secondary)
    linked = [k for k in range(len(problem)) if k not in set(problem.dropped)]
    forced = draw(st.lists(st.sampled_from(linked), max_size=3, unique=True)) if linked else []
    return options, primary, secondary, problem, forced


@settings(max_examples=150, deadline=None)
@given(forced_problems())
def test_forced_solutions_are_the_full_solutions_that_contain_them(spec):
    options, primary, secondary, problem, forced = spec
    expected = {s for s in brute_force(options, primary, secondary) if set(forced) <= s}
    found = list(problem.solutions(forced=forced, backend="python"))
    assert {frozenset(s) for s in found} == expected and len(found) == len(expected)
    assert problem.count(forced=forced, backend="python") == len(expected)
    assert problem.stats.complete
    clash = any(set(problem.option(a)) & set(problem.option(b))
                for i, a in enumerate(forced) for b in forced[:i])
    assert (problem.stats.conflict is not None) == clash


@settings(max_examples=100, deadline=None)
@given(forced_problems())
def test_numpy_forcing_searches_like_forcing_link_by_link(spec):
    *_, problem, forced = spec
    for backend in PYTHON_KERNELS:
        if backend.inactive == 128 and problem.links.max_len >= 128:
            continue
        assert _forced_run(problem, forced, backend) == _link_by_link(problem, forced, backend)


@pytest.mark.parametrize("make", [lambda: queens(7), lambda: langford(7)], ids=["queens7",
                                                                                 "langford7"])
def test_forcing_part_of_each_solution(make):
    problem = make()
    every = list(problem.solutions(backend="python"))
    for solution in every[:6]:
        for forced in (solution[:1], solution[1:3], solution):
            found = list(problem.solutions(forced=forced, backend="python"))
            assert sorted(found) == sorted(s for s in every if set(forced) <= set(s))
            assert problem.stats.conflict is None
            for backend in PYTHON_KERNELS[:2]:
                assert _forced_run(problem, forced, backend) == _link_by_link(
                    problem, forced, backend)


def test_conflict_names_the_first_clashing_option():
    problem = ExactCover([["a", "b"], ["b", "c"], ["c"], ["a"], ["c", "d"]])
    assert list(problem.solutions(forced=[0, 2, 1])) == []
    assert problem.stats.conflict == 1 and problem.stats.complete
    assert problem.stats.nodes == 0
    assert problem.count(forced=[2, 4]) == 0 and problem.stats.conflict == 4
    assert problem.first(forced=[0, 2]) is None and problem.stats.conflict is None  # no "d"
    assert problem.first(forced=[0, 4]) == [0, 4]


@pytest.mark.parametrize("backend", [*PYTHON_KERNELS, "numba"])
def test_an_option_forced_twice_clashes_with_itself(backend):
    """Found by the batch tests: numpy forcing once took [2, 2] as [2] and returned a
    "solution" holding option 2 twice, where the kernel's force saw the clash."""
    if backend == "numba":
        pytest.importorskip("numba")
    problem = ExactCover([["a", "b"], ["b", "c"], ["c"], ["a"], ["c", "d"]])
    assert _forced_run(problem, [1, 3, 1], backend) == ([], (0, 0, 0, 1))
    assert _forced_run(problem, [2, 2], backend) == ([], (0, 0, 0, 2))


def test_forced_with_colors_uses_the_kernel():
    words = ["sator", "arepo", "tenet", "opera", "rotas", "satyr", "tenor", "rotor"]
    problem = word_rectangle(words)
    assert problem.links.colored
    every = list(problem.solutions(backend="python"))
    assert every
    forced = every[0][:2]
    found = list(problem.solutions(forced=forced, backend="python"))
    assert sorted(found) == sorted(s for s in every if set(forced) <= set(s))


def test_bad_forced_options():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        problem = ExactCover([["a"], ["s"]], primary=["a"], secondary=["s"])
    with pytest.raises(IndexError, match="forced option 2"):
        problem.first(forced=[2])
    with pytest.raises(IndexError, match="forced option -1"):
        problem.first(forced=[-1])
    with pytest.raises(ValueError, match="forced option 1 has no primary item"):
        problem.first(forced=[1])
    assert problem.first(forced=[0]) == [0]
