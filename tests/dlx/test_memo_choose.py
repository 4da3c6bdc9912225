"""``count()`` choosing the plain or the memoized search by itself (`dlx.kinds.choose`):
the same counts as the plain search and as brute force, with the switch made and not
made, budgets across it, and which search answered."""

from __future__ import annotations

import itertools
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx.kinds.choose as choose
from dlx import ExactCover, SearchStoppedError, Status
from dlx.memo import memo_search
from dlx.request import check_request
from tests.helpers.backends import AVAILABLE, needs_numba
from tests.helpers.datasets import load_exact_cover
from tests.helpers.oracle import brute_force
from tests.helpers.random_problems import build, xcc_problems

KNOWN = {  # file: (solutions, the search that answers count())
    "knuth_dlx2_color_example": (1, "plain"),
    "queens8": (92, "plain"),
    "langford8": (300, "plain"),
    "domino_8x8": (12_988_816, "memo"),
    "queens10": (724, "plain"),
    "langford10": (0, "plain"),
    "domino_10x10": (258_584_046_368, "memo"),
}


load = load_exact_cover


def dominoes(m: int, n: int) -> ExactCover:
    """Domino tilings of an m x n board (as the shared files lay them out)."""
    options = []
    for r, c in itertools.product(range(m), range(n)):
        if c + 1 < n:
            options.append([f"{r}_{c}", f"{r}_{c + 1}"])
        if r + 1 < m:
            options.append([f"{r}_{c}", f"{r + 1}_{c}"])
    return ExactCover(options, primary=[f"{r}_{c}" for r in range(m) for c in range(n)])


def queens(n: int) -> ExactCover:
    """n queens: rows and columns primary, diagonals secondary."""
    options = [[f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n}"]
               for r in range(n) for c in range(n)]
    return ExactCover(options, primary=[f"{x}{i}" for x in "rc" for i in range(n)],
                      secondary=[f"{x}{i}" for x in "ab" for i in range(2 * n)])


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_counts_and_who_answered(name, backend):
    if backend == "python" and name == "domino_10x10":
        pytest.skip("the plain python count of its first nodes is enough on 8x8")
    solutions, answered_by = KNOWN[name]
    problem = load(name)
    assert problem.count(backend=backend) == solutions
    stats = problem.stats
    assert stats.status is Status.COMPLETE and stats.answered_by == answered_by
    assert stats.solutions == solutions
    if name == "knuth_dlx2_color_example":  # 4 options: the plain search outright
        assert stats.parts == {}
        return
    assert stats.parts[answered_by].status is Status.COMPLETE
    if answered_by == "plain":  # the plain search's own nodes, the probe's apart
        assert stats.nodes == stats.parts["plain"].nodes
        if name != "langford10" and "memo" in stats.parts:
            assert stats.parts["memo"].status is Status.RUNNING  # dropped
        plain_nodes = stats.nodes
        assert problem.count(backend=backend, memo=False) == solutions
        assert problem.stats.nodes == plain_nodes and problem.stats.answered_by == ""
    else:
        assert stats.nodes == stats.parts["memo"].nodes == memo_search(
            problem, backend=backend, keep=False)[1].nodes
        assert stats.parts["plain"].nodes == (
            choose.PLAIN_FIRST if backend == "numba" else choose.PLAIN_FIRST_PYTHON)


@pytest.mark.parametrize(("call", "options", "kind"), [
    ("count", {}, "choose"),
    ("count", {"memo": None}, "choose"),
    ("count", {"timeout": 5, "forced": [0]}, "choose"),
    ("count", {"strategy": "plain"}, "plain"),  # a strategy named is the search asked
    ("count", {"memo": False}, "plain"),
    ("count", {"memo": True}, "memo"),
    ("count", {"max_nodes": 10**9}, "plain"),  # a budget of plain nodes
    ("count", {"seed": 1}, "plain"),
    ("count", {"weighted": True}, "plain"),
    ("count", {"lookahead": 2}, "plain"),
    ("count", {"strategy": "learn"}, "learning"),
    ("solutions", {}, "plain"),
])
def test_which_requests_choose(call, options, kind):
    problem = queens(4)
    assert check_request(problem.matrix, call, None, options).kind == kind


def test_a_limit_or_multiplicities_keep_the_plain_count():
    problem = queens(4)
    assert check_request(problem.matrix, "count", 5, {}).kind == "plain"
    bounded = ExactCover([["a", "b"], ["a"], ["b"]], multiplicity={"a": (1, 2)})
    assert check_request(bounded.matrix, "count", None, {}).kind == "plain"


# ----- random problems against brute force, the switch made and not made ----------------------

THRESHOLDS = st.fixed_dictionaries({
    "PLAIN_FIRST": st.sampled_from([0, 1, 3, 1 << 40]),
    "PROBE": st.sampled_from([1, 2, 64]),
    "DECIDED": st.sampled_from([0, 1, 16]),
    "PROBE_MAX": st.sampled_from([1, 4, 2048]),
    "NO_GOOD": st.sampled_from([-1.0, 0.25, 2.0]),  # always drop, the rule, keep if any
})


def first(nodes: int) -> dict[str, int]:
    """The plain search's first nodes, on every backend."""
    return {"PLAIN_FIRST": nodes, "PLAIN_FIRST_PYTHON": nodes}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(xcc_problems(max_options=12), THRESHOLDS, st.sampled_from(AVAILABLE), st.data())
def test_the_chosen_count_is_the_plain_count(drawn, thresholds, backend, data):
    options, primary, secondary = drawn
    problem = build(options, primary, secondary)
    usable = [k for k in range(len(options)) if k not in problem.dropped]
    forced = data.draw(st.lists(st.sampled_from(usable), max_size=1) if usable
                       else st.just([]))
    expected = sum(set(forced) <= s for s in brute_force(options, primary, secondary))
    with mock.patch.multiple(choose, **{**thresholds, **first(thresholds["PLAIN_FIRST"])}):
        if forced:
            got = problem.count(backend=backend, forced=forced)
        else:
            got = problem.count(backend=backend)
    stats = problem.stats
    assert got == expected == problem.count(backend=backend, forced=forced, memo=False)
    assert stats.answered_by in ("plain", "memo")
    if stats.answered_by == "memo":
        assert stats.parts["memo"].status is Status.COMPLETE


@pytest.mark.parametrize("backend", AVAILABLE)
def test_memo_kept_or_dropped_as_the_probe_says(backend):
    """The rule's two ways on one small problem: a probe told to keep the memoized search
    answers with it; one told to drop it leaves the count to the plain search."""
    problem = dominoes(4, 6)
    small = {**first(8), "PROBE": 4, "DECIDED": 1}
    for no_good, answered_by in ((2.0, "memo"), (-1.0, "plain")):
        with mock.patch.multiple(choose, NO_GOOD=no_good, **small):
            assert problem.count(backend=backend) == 281
        assert problem.stats.answered_by == answered_by
        assert "memo" in problem.stats.parts


# ----- budgets across the switch, and counts past 2**64 ----------------------------------------


@pytest.mark.parametrize("backend", AVAILABLE)
def test_timeout_in_the_memoized_search(backend):
    problem = dominoes(16, 16) if backend == "numba" else dominoes(12, 12)
    with mock.patch.multiple(choose, **first(64)), \
            pytest.raises(SearchStoppedError) as stopped:
        problem.count(backend=backend, timeout=0.2)
    stats = stopped.value.stats
    assert stats.status is Status.TIMEOUT and stats.answered_by == ""
    assert stats.parts["memo"].status is Status.RUNNING  # the switch was made
    assert stats.nodes == stats.parts["memo"].nodes
    assert stats.solutions == 0  # the memoized count is not known before its end


@pytest.mark.parametrize("backend", AVAILABLE)
def test_timeout_in_the_plain_search_after_the_probe(backend):
    problem = queens(14) if backend == "numba" else queens(12)
    with mock.patch.multiple(choose, **first(64)), \
            pytest.raises(SearchStoppedError) as stopped:
        problem.count(backend=backend, timeout=0.2)
    stats = stopped.value.stats
    assert stats.status is Status.TIMEOUT and stats.answered_by == ""
    assert stats.nodes == stats.parts["plain"].nodes >= 64
    assert stats.parts["memo"].nodes <= choose.PROBE_MAX  # probed, then dropped
    assert stats.solutions == stats.parts["plain"].solutions  # the count so far


def test_forced_options_that_clash_are_answered_by_the_plain_search():
    problem = ExactCover([["a", "b"], ["b", "c"], ["c"], ["a"]])
    assert problem.count(forced=[0, 1]) == 0
    assert problem.stats.status is Status.CONFLICT and problem.stats.conflict == 1
    assert problem.stats.answered_by == "plain"


@needs_numba
def test_domino_14x14_past_2_64_through_count():
    problem = load("domino_14x14")
    assert problem.count() == 112_202_208_776_036_178_000_000 > 2**64
    assert problem.stats.answered_by == "memo"


def test_python_count_past_the_kernels_ceiling_through_count():
    """A 22 x 8 board (more than 2**62 tilings: the transfer-matrix count of test_memo) by
    the default count on python."""
    problem = dominoes(22, 8)
    assert problem.count(backend="python") == 287_665_106_926_232_833_093
    assert problem.stats.answered_by == "memo"


def test_repr_of_a_set_of_one_solution():
    s, _ = memo_search(ExactCover([["a"]]))
    assert repr(s).startswith("<SolutionSet: 1 solution, ")
    s, _ = memo_search(ExactCover([["a"], ["a"]]))
    assert repr(s).startswith("<SolutionSet: 2 solutions, ")


def test_a_dozen_options_are_counted_by_the_plain_search_outright():
    problem = ExactCover([["a", "b"], ["a"], ["b"]])
    assert problem.count() == 2
    assert problem.stats.answered_by == "plain" and problem.stats.parts == {}
    with mock.patch.multiple(choose, **first(4)):  # 2**3 > 4: the chooser
        assert problem.count() == 2
    assert problem.stats.answered_by == "plain" and "plain" in problem.stats.parts
