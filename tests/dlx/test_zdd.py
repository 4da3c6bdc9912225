"""Solution sets (dlx.zdd; issue 42, the solution sets' part): samples drawn one at a time,
an empty set that says it is empty, and ZDD text read from a path or from a text, never
guessed."""

from __future__ import annotations

import io
import itertools
import sys
import tracemalloc
from pathlib import Path

import pytest

from dlx import ArgumentError, ExactCover
from dlx.zdd import EmptySetError, SolutionSet, ZDDFormatError
from tests.helpers.memo_problems import domino_problem


@pytest.fixture(scope="module")
def tilings() -> SolutionSet:
    """The 281 domino tilings of a 4 x 6 board."""
    return domino_problem(4, 6).solution_set(backend="python")


@pytest.fixture(scope="module")
def empty() -> SolutionSet:
    return ExactCover([["a", "b"], ["a"]], primary=["a", "b", "c"]).solution_set()


# ----- defect 4: samples stream ----------------------------------------------------------


def test_samples_are_drawn_one_at_a_time(tilings):
    """samples() is lazy: the same draws as sample(), in the same order, and without k
    (or with a k no list could hold) it goes on as long as it is read."""
    drawn = tilings.samples(5, seed=7)
    assert iter(drawn) is drawn  # an iterator, not a list
    assert list(drawn) == tilings.sample(5, seed=7)
    endless = tilings.samples(seed=7)
    assert list(itertools.islice(endless, 5)) == tilings.sample(5, seed=7)
    assert all(x in tilings for x in itertools.islice(endless, 100))
    tracemalloc.start()
    try:
        huge = tilings.samples(10**20, seed=1)
        first = list(itertools.islice(huge, 3))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert first == tilings.sample(3, seed=1) and peak < 1 << 20


def test_samples_check_their_arguments_when_called(tilings):
    for bad in (-1, 1.5, "2"):
        with pytest.raises(ArgumentError, match="k must"):
            tilings.samples(bad)
    with pytest.raises(ArgumentError, match="seed"):
        tilings.samples(1, seed=[1])


def test_a_list_of_samples_past_any_list_is_refused(tilings):
    """sample(k) returns a list: a k no list can hold is refused at once, pointing to
    samples(), instead of filling the memory."""
    with pytest.raises(ArgumentError, match=r"samples\(\)"):
        tilings.sample(sys.maxsize + 1)


# ----- defect 5: an empty set ------------------------------------------------------------


def test_no_sample_asked_of_an_empty_set_is_no_error(empty):
    assert empty.sample(0) == [] and list(empty.samples(0)) == []
    with pytest.raises(EmptySetError, match="no solution"):
        empty.sample(1)
    with pytest.raises(EmptySetError, match="no solution"):
        empty.samples(3)  # at the call, not at the first draw
    with pytest.raises(EmptySetError, match="no solution"):
        empty.samples()


# ----- defect 13: messages and exception types -------------------------------------------


def test_the_index_of_an_empty_set(empty, tilings):
    """solution(0) of an empty set said "index must be an integer in 0..-1"."""
    with pytest.raises(EmptySetError) as e:
        empty.solution(0)
    assert "index" in str(e.value) and "no solution" in str(e.value) and "..-1" not in str(
        e.value)
    with pytest.raises(ArgumentError, match=r"index must be an integer in 0\.\.280"):
        tilings.solution(281)
    with pytest.raises(ArgumentError, match="index must be an integer"):
        empty.solution("x")


def test_read_takes_a_path_whatever_its_name(tilings, tmp_path, monkeypatch):
    """A name with ':' is a path, as write takes it; text is from_text's."""
    monkeypatch.chdir(tmp_path)
    for name in ("run:1.zdd", "a:b", "2: (~1?0:1)"):
        tilings.write(name)
        assert list(SolutionSet.read(tilings.problem, name)) == list(tilings)
        assert list(SolutionSet.read(tilings.problem, Path(name))) == list(tilings)
    with pytest.raises(ArgumentError, match=r"cannot read the ZDD file 'missing:1\.zdd'"):
        SolutionSet.read(tilings.problem, "missing:1.zdd")
    text = tilings.to_text()
    assert list(SolutionSet.from_text(tilings.problem, text)) == list(tilings)
    assert list(SolutionSet.read(tilings.problem, io.StringIO(text))) == list(tilings)


def test_one_line_of_text_is_no_path(tmp_path, monkeypatch):
    """A line of ZDD text given to read() is looked for as a file; the error says where
    text goes."""
    monkeypatch.chdir(tmp_path)
    problem = ExactCover([["a"]])
    assert list(SolutionSet.from_text(problem, "2: (~1?0:1)\n3: (~0?0:2)")) == [[0]]
    with pytest.raises(ArgumentError, match="from_text"):
        SolutionSet.read(problem, "3: (~0?0:1)")


def test_text_given_to_read_still_works_with_a_warning(tilings):
    with pytest.warns(DeprecationWarning, match="from_text"):
        back = SolutionSet.read(tilings.problem, tilings.to_text())
    assert list(back) == list(tilings)


@pytest.mark.parametrize("source", [io.BytesIO(b"2: (~1?0:1)\n"), b"x.zdd", 3, None, ""])
def test_read_refuses_what_is_no_path_or_text_file(tilings, source):
    """read(P, BytesIO(...)) raised TypeError: it is an ArgumentError naming source."""
    with pytest.raises(ArgumentError, match="source"):
        SolutionSet.read(tilings.problem, source)


def test_from_text_takes_a_str(tilings):
    with pytest.raises(ArgumentError, match="text must be"):
        SolutionSet.from_text(tilings.problem, b"2: (~1?0:1)\n")
    with pytest.raises(ZDDFormatError, match="empty"):
        SolutionSet.from_text(tilings.problem, "")


def test_write_names_a_bad_file(tilings):
    for bad in ("", 3):
        with pytest.raises(ArgumentError, match="file"):
            tilings.write(bad)


# ----- reading a set: one path kept while iterating, membership on the diagram's lists -----


@pytest.mark.parametrize("form", ["searched", "canonical"])
def test_iteration_is_the_order_of_the_ranks(tilings, form):
    """The walk that keeps one path yields every solution once, sorted, in the order of
    ``solution(i)`` (lo before hi), for the search's diagram and the store's."""
    problem = tilings.problem
    s = problem.solution_set(method="memo", backend="python") if form == "searched" \
        else tilings.canonical()
    listed = list(s)
    assert listed == [s.solution(i) for i in range(len(s))]
    assert all(x == sorted(x) for x in listed) and len({tuple(x) for x in listed}) == 281
    assert list(itertools.islice(s, 5)) == listed[:5]
    if form == "searched":
        assert listed == list(problem.solutions())


def test_membership_takes_any_integers_and_refuses_bools(tilings):
    import numpy as np

    first = tilings.solution(0)
    for s in (tilings, tilings.canonical()):
        assert first in s and [np.int64(k) for k in first] in s and set(first) in s
        assert first[1:] not in s and [*first, first[0]] in s  # a set: repeats are one
        with pytest.raises(ArgumentError, match="option indices"):
            [True, *first[1:]] in s  # noqa: B015
