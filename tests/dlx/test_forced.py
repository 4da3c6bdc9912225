"""Forced options: ``ExactCover.solutions(forced=...)`` and ``count(forced=...)``.

A forced search must find exactly the solutions of the whole problem that contain the
forced options; without colors its state is computed at once by numpy
(``Links.restricted``), and that must search exactly like forcing the options one link at
a time with the kernels' ``force`` (same solutions, order, nodes and updates).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ExactCover, ForcedOptionError, NoPrimaryItemWarning, Status
from dlx.kernels import codes
from dlx.problems import langford, queens, word_rectangle
from dlx.pure import KERNELS
from dlx.state import REG_LEVEL, REG_NODES, REG_SOLUTIONS, REG_UPDATES
from tests.helpers.oracle import brute_force
from tests.helpers.pinned import (
    PYTHON_BYTES,
    PYTHON_LIST,
    PYTHON_X_BYTES,
    PYTHON_X_LIST,
    is_pristine,
    pinned,
)
from tests.helpers.random_problems import xcc_problems

PYTHON_KERNELS = [PYTHON_X_BYTES, PYTHON_BYTES, PYTHON_X_LIST, PYTHON_LIST]


def _problem(options, primary, secondary) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, primary=primary, secondary=secondary)


def _forced_run(problem: ExactCover, forced, kern) -> tuple[list, tuple]:
    """A search with ``forced`` and the kernel ``kern`` pinned: the way a search forces
    (with numpy for Algorithm X's kernels, ``Kernel.restrict``; else ``force_all``)."""
    search = problem.solutions(forced=forced, backend=pinned(kern))
    assert search.kernel is kern
    found = list(search)
    stats = search.stats
    assert stats.status is (Status.COMPLETE if stats.conflict is None else Status.CONFLICT)
    return found, (stats.nodes, stats.updates, stats.solutions, stats.conflict)


def _link_by_link(problem: ExactCover, forced, kern) -> tuple[list, tuple]:
    """The same search with the options forced by the kernel's ``force_all``, one link at
    a time, and the kernel driven directly. Algorithm X's kernels only restrict with
    numpy: for them the general kernel over the same ``LEN`` type forces, and the X
    kernel searches what it leaves."""
    links = problem.links
    forcer = kern if kern.force_all is not None else KERNELS[(kern.inactive == 128, False)]
    F = forcer.start(links, None)
    f = forcer.force_all(F, forcer.convert(links, "FORCED",
                                           np.asarray(forced, dtype=np.int64)))
    if f >= 0:
        return [], (0, 0, 0, forced[f])
    S = kern.start(links, None)._replace(U=F.U, D=F.D, LEN=F.LEN, LL=F.LL, RL=F.RL)
    found = []
    regs = S.REG
    while True:
        status = kern.search(S, 1 << 62, regs[REG_SOLUTIONS] + 1)
        if status == codes.COMPLETE:
            break
        assert status == codes.LIMIT
        chosen = [links.option_list[x] for x in S.CHOICE[:regs[REG_LEVEL]]]
        found.append(sorted(chosen + list(forced)))
    return found, (regs[REG_NODES], regs[REG_UPDATES], regs[REG_SOLUTIONS], None)


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
    for kern in PYTHON_KERNELS:
        if kern.inactive == 128 and problem.links.max_len >= 128:
            continue
        assert _forced_run(problem, forced, kern) == _link_by_link(problem, forced, kern)


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
            for kern in PYTHON_KERNELS[:2]:
                assert _forced_run(problem, forced, kern) == _link_by_link(
                    problem, forced, kern)


def test_conflict_names_the_first_clashing_option():
    problem = ExactCover([["a", "b"], ["b", "c"], ["c"], ["a"], ["c", "d"]])
    assert list(problem.solutions(forced=[0, 2, 1])) == []
    assert problem.stats.conflict == 1 and problem.stats.complete
    assert problem.stats.status is Status.CONFLICT and not problem.stats.stopped
    assert problem.stats.nodes == 0
    assert problem.count(forced=[2, 4]) == 0 and problem.stats.conflict == 4
    assert problem.stats.status is Status.CONFLICT
    assert problem.first(forced=[0, 2]) is None and problem.stats.conflict is None  # no "d"
    assert problem.stats.status is Status.COMPLETE
    assert problem.first(forced=[0, 4]) == [0, 4]


@pytest.mark.parametrize("kern", [*PYTHON_KERNELS, "numba"],
                         ids=[*(k.name for k in PYTHON_KERNELS), "numba"])
def test_an_option_forced_twice_clashes_with_itself(kern):
    """Found by the batch tests: numpy forcing once took [2, 2] as [2] and returned a
    "solution" holding option 2 twice, where the kernel's force saw the clash. A search
    now refuses a repeat outright (ForcedOptionError); the kernels, which a batch leaves
    to find repeats, must still see each as a clash of the option with itself."""
    problem = ExactCover([["a", "b"], ["b", "c"], ["c"], ["a"], ["c", "d"]])
    links = problem.links
    backend = kern
    if kern == "numba":
        pytest.importorskip("numba")
        from dlx.compiled import NUMBA

        backend, kern = "numba", NUMBA.kernel(links)
    else:
        backend = pinned(kern)
    for forced, culprit in (([1, 3, 1], 1), ([2, 2], 2)):
        with pytest.raises(ForcedOptionError, match=f"option {culprit} is forced twice"):
            problem.solutions(forced=forced, backend=backend)
        with pytest.raises(ForcedOptionError, match=f"option {culprit} is forced twice"):
            problem.count(forced=forced, backend=backend)
        S = kern.start(links, None)
        assert kern.force(links, S, forced)[1] == culprit  # the search's way of forcing
        assert _link_by_link(problem, forced, kern) == ([], (0, 0, 0, culprit))
    S = kern.start(links, None)
    S, conflict = kern.force(links, S, [1, 3])  # distinct options force as before
    assert conflict is None and not is_pristine(links, S)


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
    """Each bad forced option raises ForcedOptionError (an ArgumentError, a ValueError)
    naming it, on every entry point: out of range, dropped, repeated, not an integer."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        problem = ExactCover([["a"], ["s"]], primary=["a"], secondary=["s"])
    cases = [([2], "option 2 is not in range 0..1"), ([-1], "option -1 is not in range 0..1"),
             ([1], "option 1 has no primary item"), ([0, 0], "option 0 is forced twice"),
             ([1.5], "option 1.5 is not an integer"), ([True], "option True is not an integer"),
             (["0"], "option '0' is not an integer"), ("0", "iterable of option indices")]
    for forced, message in cases:
        for call in (problem.first, problem.count, problem.solutions):
            with pytest.raises(ForcedOptionError, match=message):
                call(forced=forced)
    assert issubclass(ForcedOptionError, ValueError)
    assert problem.first(forced=[0]) == [0]
    assert problem.first(forced=(k for k in [0])) == [0]  # any iterable of integers
    assert problem.first(forced=[np.int64(0)]) == [0]
