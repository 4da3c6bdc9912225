"""The memoized search (dlx.memo, Knuth's DLX6) and its solution sets (dlx.zdd).

Conformance: on the files of the "Memoized counting" table of the shared data, the search
makes exactly DLX6's search nodes, signatures and hits, and at most its ZDD nodes.
Exactness: domino counts past 2**64 against a transfer-matrix count written here.
Cross-checks against the plain search on random XCC problems, on both backends.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
import dlx.errors
from dlx import (
    ArgumentError,
    ExactCover,
    NoPrimaryItemWarning,
    SearchStoppedError,
    Status,
)
from dlx.backend import PYTHON_MEMO
from dlx.kernels.codes import COMPLETE
from dlx.kernels.memo import search
from dlx.memo import (
    MemoInput,
    _state,
    check_memo,
    memo_count,
    memo_input,
    memo_search,
)
from dlx.zdd import EmptySetError, SetTooLargeError, SolutionSet, ZDDFormatError
from tests.helpers.backends import AVAILABLE, BACKENDS, needs_numba
from tests.helpers.datasets import load_exact_cover
from tests.helpers.memo_problems import (
    domino_problem,
    plain,
    run_node_by_node,
    transfer_matrix_dominoes,
    xcc_problems,
)

# file: (solutions, DLX6's search nodes, ZDD nodes, bad + good signatures, hits); from
# SOURCES.md, "Memoized counting" (DLX6 prints 1 ZDD node for an empty diagram).
DLX6 = {
    "knuth_dlx2_color_example": (1, 4, 4, (1, 3), 1),
    "domino_8x8": (12988816, 2317, 2318, (0, 1628), 690),
    "queens8": (92, 1122, 469, (604, 377), 142),
    "langford8": (300, 2412, 1329, (1013, 1029), 371),
    "pentomino_3x20": (8, 18592, 76, (16852, 68), 1673),
    "domino_10x10": (258584046368, 13562, 13552, (11, 9529), 4023),
    "queens10": (724, 15261, 4149, (10290, 3426), 1546),
    "langford10": (0, 52297, 1, (44502, 1), 7795),
    "domino_12x12": (53060477521960000, 74049, 73859, (184, 51896), 21970),
    "pentomino_scott8x8": (520, 201800, 3064, (186556, 2600), 12645),
    "langford11": (35584, 293151, 122956, (131623, 89816), 71713),
    "queens12": (14200, 294053, 76754, (194869, 62816), 36369),
    "domino_14x14": (112202208776036178000000, 385185, 383197, (1826, 268949), 114411),
    "pentomino_6x10_sym": (2339, 623863, 10740, (566148, 8740), 48976),
    "queens13": (73712, 1438129, 383639, (927685, 312858), 197587),
    "langford12": (216288, 1622501, 651299, (692998, 460367), 469137),
    "pentomino_6x10": (9356, 2262926, 38968, (2011485, 31283), 220159),
}
QUICK_PYTHON = ["knuth_dlx2_color_example", "domino_8x8", "queens8", "langford8",
                "domino_10x10"]
QUICK_NUMBA = [*QUICK_PYTHON, "pentomino_3x20", "queens10", "langford10", "domino_12x12",
               "pentomino_scott8x8", "langford11", "queens12"]


load = load_exact_cover


def check_conformance(name: str, backend: str) -> None:
    solutions, nodes, zdd, (bad, good), hits = DLX6[name]
    s, stats = memo_search(load(name), backend=backend)
    assert s.count() == solutions == stats.solutions
    assert stats.nodes == nodes
    assert (stats.memos - stats.good_memos, stats.good_memos + 1) == (bad, good)
    assert stats.hits == hits
    assert stats.zdd_nodes <= zdd
    assert s.node_count == stats.zdd_nodes
    assert stats.status is Status.COMPLETE


@pytest.mark.parametrize("name", QUICK_PYTHON)
def test_conformance_python(name):
    check_conformance(name, "python")


@needs_numba
@pytest.mark.parametrize("name", QUICK_NUMBA)
def test_conformance_numba(name):
    check_conformance(name, "numba")


@pytest.mark.slow
@needs_numba
@pytest.mark.parametrize("name", sorted(set(DLX6) - set(QUICK_NUMBA)))
def test_conformance_numba_slow(name):
    check_conformance(name, "numba")


@needs_numba
@pytest.mark.parametrize("name", ["queens8", "langford8", "domino_8x8"])
def test_backends_build_the_same_diagram(name):
    problem = load(name)
    a, _ = memo_search(problem, backend="python")
    b, _ = memo_search(problem, backend="numba")
    assert (a._root, a._opt, a._lo, a._hi) == (b._root, b._opt, b._lo, b._hi)


def test_fewer_zdd_nodes_than_dlx6_come_from_merged_nodes():
    """queens8: DLX6 makes 469 nodes, we 463: six of its nodes repeat another's (option,
    lo, hi), made in two subproblems with different signatures."""
    s, stats = memo_search(load("queens8"))
    assert stats.zdd_nodes == 463
    assert len({(s._opt[n], s._lo[n], s._hi[n]) for n in range(2, s.node_count)}) == 461


# ----- exact counts past 2**64 ---------------------------------------------------------------


def test_transfer_matrix_knows_small_boards():
    assert [transfer_matrix_dominoes(2 * k, 2 * k) for k in range(1, 5)] == [2, 36, 6728,
                                                                           12988816]


@pytest.mark.slow
@needs_numba
def test_domino_14x14_past_2_64():
    problem = load("domino_14x14")
    count = memo_count(problem, backend="numba")
    assert count == 112202208776036178000000 == transfer_matrix_dominoes(14, 14)
    assert count > 2**64


@pytest.mark.slow
@needs_numba
def test_domino_16x16_past_2_64():
    s, _ = memo_search(domino_problem(16, 16), backend="numba")
    assert s.count() == 2444888770250892795802079170816 == transfer_matrix_dominoes(16, 16)
    with pytest.raises(SetTooLargeError, match="count"):
        len(s)
    assert s.sample(1, seed=3)[0] in s


def test_exact_count_in_python_past_the_kernels_ceiling():
    """A 22 x 8 board: 2**62 < count, so the kernel's 64-bit counts give way to Python's."""
    count = memo_count(domino_problem(22, 8))
    assert count == transfer_matrix_dominoes(8, 22) > 2**62


def test_front_door_counts_past_2_62_are_not_cut_to_a_limit():
    """``count(memo=True)`` and ``solutions(memo=True).count()`` without a limit: the
    exact count past 2**62 (a count without a limit is not one with a limit of 2**62, the
    engine's "no bound"); with a limit, at most that, status LIMIT."""
    problem = domino_problem(22, 8)
    exact = transfer_matrix_dominoes(8, 22)
    assert problem.count(memo=True) == exact > 2**62
    assert problem.stats.status is Status.COMPLETE and problem.stats.solutions == exact
    search = problem.solutions(memo=True)
    assert search.count() == exact and search.stats.solutions == exact
    assert problem.count(5, memo=True) == 5 and problem.stats.status is Status.LIMIT


# ----- random problems against the plain search ------------------------------------------------


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE))
def test_memo_equals_plain_search(problem, backend):
    s, _ = memo_search(problem, backend=backend)
    expected = plain(problem)
    assert s.count() == len(expected) == problem.count(backend="python")
    assert list(s) == expected  # the same solutions in the same order
    assert [s.solution(i) for i in range(len(s))] == expected
    assert all(x in s for x in expected)
    assert memo_count(problem, backend=backend) == len(expected)


@settings(max_examples=60, deadline=None)
@given(xcc_problems(), st.data())
def test_set_operations_equal_python_sets(problem, data):
    full, _ = memo_search(problem)
    solutions = [frozenset(x) for x in full]
    n = len(problem)
    picks = [data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=2)) if n else []
             for _ in range(4)]
    a = full.restrict(include=picks[0], exclude=picks[1])
    b = full.restrict(include=picks[2], exclude=picks[3])
    as_set = {frozenset(x) for x in a}
    bs_set = {frozenset(x) for x in b}
    assert as_set == {x for x in solutions if set(picks[0]) <= x and not set(picks[1]) & x}
    for got, want in ((a & b, as_set & bs_set), (a | b, as_set | bs_set),
                      (a - b, as_set - bs_set), (b - a, bs_set - as_set)):
        assert {frozenset(x) for x in got} == want
        assert got.count() == len(want)
        assert sorted(map(sorted, got)) == sorted(sorted(x) for x in want)  # no repeats
    for s in (a | b, a - b, full):  # the text format round-trips
        back = SolutionSet.from_text(problem, s.to_text())
        assert list(back) == list(s)
        assert back.node_count == s.node_count


@settings(max_examples=40, deadline=None)
@given(xcc_problems())
def test_kernel_state_is_sane_at_every_node(problem):
    """Knuth's sanity checker after every node, then the arrays restored at the end."""
    assert run_node_by_node(problem)[1] == len(plain(problem))


@pytest.mark.parametrize("table", ["MSLOT", "ZSLOT"])
def test_sanity_check_reads_the_slots_tags(table):
    """A slot holds its entry (low bits) and its hash's high bits (the tag that lets a
    probe pass other entries unread): the sanity check refuses a slot whose tag is wrong,
    and the search finds the entry again only through the right tag."""
    data = memo_input(domino_problem(4, 4))
    S = _state(PYTHON_MEMO, data, 1 << 62)
    assert search(S, 1 << 62) == COMPLETE
    check_memo(S)
    slots = getattr(S, table)
    s = next(i for i, v in enumerate(slots) if v)
    slots[s] ^= 1 << 40  # a bit of the tag
    with pytest.raises(AssertionError, match="tag"):
        check_memo(S)


def test_tables_grow_from_their_first_size():
    """domino 10x10 outgrows the first tables (sized to the problem) several times."""
    data = memo_input(load("domino_10x10"))
    first = _state(PYTHON_MEMO, data, 1 << 62)
    _, stats = memo_search(load("domino_10x10"))
    assert stats.memos > len(first.MZDD) and stats.zdd_nodes > len(first.ZOPT)


# ----- the solution set ------------------------------------------------------------------------


def few_hundred() -> ExactCover:
    """Domino tilings of a 4 x 6 board: 281 solutions."""
    return domino_problem(4, 6)


def test_sample_is_uniform():
    """Chi-square of 28,100 draws over the 281 tilings of a 4 x 6 board (280 degrees of
    freedom: the 99.9% point is about 365)."""
    s, _ = memo_search(few_hundred())
    assert s.count() == 281
    index = {tuple(x): k for k, x in enumerate(s)}
    counts = [0] * 281
    for x in s.sample(28100, seed=2026):
        counts[index[tuple(x)]] += 1
    chi2 = sum((c - 100) ** 2 / 100 for c in counts)
    assert chi2 < 365, chi2
    assert s.sample(5, seed=1) == s.sample(5, seed=1)


def test_best_gives_cheapest_solutions():
    options = [["a", "b"], ["a"], ["b"], ["c"], ["a", "c"], ["b", "c"]]
    costs = [5, 1, 1, 2, 1, 4]
    problem = ExactCover(options, costs=costs)
    s, _ = memo_search(problem)
    by_cost = sorted(plain(problem), key=problem.cost)
    best = s.best(10)
    assert [problem.cost(x) for x in best] == [problem.cost(x) for x in by_cost]
    assert sorted(map(tuple, best)) == sorted(map(tuple, by_cost))
    assert s.best(1) == [[2, 4]]  # b (1) + a c (1)


def test_best_without_costs_is_the_first_solutions():
    s, _ = memo_search(few_hundred())
    assert s.best(3) == list(s)[:3]


def test_empty_and_trivial_sets():
    problem = ExactCover([["a", "b"], ["a"]], primary=["a", "b", "c"])
    s, stats = memo_search(problem)
    assert s.count() == 0 and len(s) == 0 and not s and list(s) == []
    assert s.node_count == stats.zdd_nodes == 1  # DLX6 prints 1 for an empty diagram
    with pytest.raises(EmptySetError):
        s.sample(1)
    assert s.best(2) == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        none, _ = memo_search(ExactCover([["x"]], primary=[], secondary=["x"]))
    assert list(none) == [[]]


def test_contains():
    s, _ = memo_search(few_hundred())
    first = next(iter(s))
    assert first in s and tuple(first) in s
    assert first[:-1] not in s and [*first, 10**9] not in s
    with pytest.raises(ArgumentError, match="option indices"):
        ["x"] in s  # noqa: B015
    with pytest.raises(ArgumentError):
        5 in s  # noqa: B015


def test_sets_of_different_problems_are_not_combined():
    """Sets of problems of different content (here a 6 x 4 board against a 4 x 6 one)
    do not combine; equal problems do (tests/dlx/kernels/test_zdd.py)."""
    a, _ = memo_search(few_hundred())
    b, _ = memo_search(domino_problem(6, 4))
    for op in (a.__and__, a.__or__, a.__sub__):
        with pytest.raises(ArgumentError, match="different problems"):
            op(b)
    with pytest.raises(ArgumentError, match="SolutionSets"):
        a & {1, 2}


def test_restrict_checks_its_options():
    s, _ = memo_search(few_hundred())
    with pytest.raises(ArgumentError, match="include"):
        s.restrict(include=[len(s.problem)])
    with pytest.raises(ArgumentError, match="exclude"):
        s.restrict(exclude="ab")
    assert s.restrict(include=[0]).count() + s.restrict(exclude=[0]).count() == 281


def test_knuth_text_matches_dlx6():
    """What DLX6 prints with m1 for Knuth's color example (its option 2 has no primary
    item, so DLX6's numbers skip it)."""
    problem = load("knuth_dlx2_color_example")
    s, _ = memo_search(problem)
    assert s.to_text() == "2: (~3?0:1)\n3: (~2?0:2)\n4: (~0?0:3)\n"
    assert list(SolutionSet.from_text(problem, "2: (~3?0:1)\n3: (~2?0:2)\n4: (~0?0:3)\n")) \
        == [[1, 3]]
    buffer = io.StringIO()
    s.write(buffer)
    assert list(SolutionSet.read(problem, io.StringIO(buffer.getvalue()))) == [[1, 3]]


def test_text_format_files(tmp_path: Path):
    s, _ = memo_search(few_hundred())
    path = tmp_path / "tilings.zdd"
    s.write(path)
    assert list(SolutionSet.read(s.problem, path)) == list(s)
    assert list(SolutionSet.read(s.problem, str(path))) == list(s)
    with pytest.raises(ArgumentError, match="cannot read"):
        SolutionSet.read(s.problem, tmp_path / "missing.zdd")


@pytest.mark.parametrize("text, culprit", [
    ("", "empty"),
    ("2: (~1?0:1)\n", "no root line"),
    ("2: (~1?0:1\n3: (~0?0:2)\n", "line 1"),
    ("2: (~1?0:3)\n3: (~0?0:2)\n", "not defined before"),
    ("2: (~1?0:1)\n2: (~2?0:1)\n3: (~0?0:2)\n", "defined twice"),
    ("2: (~99?0:1)\n3: (~0?0:2)\n", "option number 99"),
    ("2: (~1?0:1)\n3: (~0?0:2)\n", "cover every primary item"),
    ("2: (~1?0:1)\n3: (~1?0:2)\n4: (~0?0:3)\n", "clashes"),
    ("2: (~0?0:1)\n3: (~1?0:1)\n", "after the root"),
])
def test_corrupt_zdd_text_is_refused(text, culprit):
    problem = few_hundred()
    with pytest.raises(ZDDFormatError, match=culprit):
        SolutionSet.from_text(problem, text)


def test_svg_of_small_sets():
    s, _ = memo_search(domino_problem(2, 3))
    svg = s._repr_svg_()
    assert svg is not None and svg.startswith("<svg") and svg.count("<circle") == s.node_count - 2
    big, _ = memo_search(domino_problem(6, 6))  # past 80 nodes: a summary (issue 40)
    summary = big._repr_svg_()
    assert summary.startswith("<svg") and "<circle" not in summary and len(summary) < 20_000


# ----- budgets and bad arguments -----------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_budgets_stop_with_stats(backend):
    problem = load("domino_10x10")
    with pytest.raises(SearchStoppedError) as e:
        memo_search(problem, backend=backend, max_nodes=1000)
    assert e.value.stats.status is Status.MAX_NODES and e.value.stats.nodes == 1000
    with pytest.raises(SearchStoppedError, match="max_zdd_nodes") as e:
        memo_search(problem, backend=backend, max_zdd_nodes=500)
    assert e.value.stats.zdd_nodes == 500
    with pytest.raises(SearchStoppedError) as e:
        memo_search(problem, backend=backend, timeout=0)
    assert e.value.stats.status is Status.TIMEOUT


def test_progress_sees_the_totals():
    seen = []
    _, stats = memo_search(load("domino_10x10"), backend="python",
                           progress=lambda s: seen.append(s.nodes))
    assert seen == sorted(seen) and seen[-1] == stats.nodes and len(seen) >= 2


@pytest.mark.parametrize("kwargs, name", [
    ({"max_nodes": "10"}, "max_nodes"), ({"max_nodes": -1}, "max_nodes"),
    ({"timeout": "1"}, "timeout"), ({"max_zdd_nodes": 1.5}, "max_zdd_nodes"),
    ({"backend": "gpu"}, "backend"), ({"keep": "yes"}, "keep"), ({"parts": 1}, "parts"),
])
def test_bad_arguments(kwargs, name):
    with pytest.raises(ArgumentError, match=name):
        memo_search(few_hundred(), **kwargs)


def test_multiplicities_are_refused():
    problem = ExactCover([["a"], ["a", "b"]], multiplicity={"a": 2})
    with pytest.raises(ArgumentError, match="multiplicities"):
        memo_search(problem)


def test_sample_and_best_check_k():
    s, _ = memo_search(few_hundred())
    for bad in (-1, 1.5, "2", None):
        with pytest.raises(ArgumentError, match="k must"):
            s.sample(bad)
        with pytest.raises(ArgumentError, match="k must"):
            s.best(bad)
    with pytest.raises(ArgumentError, match="seed"):
        s.sample(1, seed=[1])
    with pytest.raises(ArgumentError, match="index"):
        s.solution(281)


def test_memo_input_is_the_problems_csr():
    problem = few_hundred()
    data = memo_input(problem)
    assert isinstance(data, MemoInput)
    assert (data.n_items, data.n_primary, len(data.indptr) - 1) == (24, 24, len(problem))


@pytest.mark.slow
def test_set_operations_need_no_recursion_limit():
    """Solutions of 3,000 options (three times Python's default recursion limit) from the
    search, and of 25,000 from a text (past the 20,000 the set operations once raised the
    limit to): the set operations are loops, and agree with sets of solutions."""
    import sys

    limit = sys.getrecursionlimit()
    n = 3000
    problem = ExactCover([[i] for i in range(n)] + [[2 * j, 2 * j + 1] for j in range(4)])
    s = problem.solution_set()
    assert s.count() == 16 and max(len(x) for x in s) == n > limit
    a, b = s.restrict(include=[n]), s.restrict(exclude=[n + 1])
    sa, sb = ({tuple(x) for x in t} for t in (a, b))
    assert len(sa) == len(sb) == 8
    assert {tuple(x) for x in a & b} == sa & sb and len(sa & sb) == 4
    assert {tuple(x) for x in a | b} == sa | sb
    assert {tuple(x) for x in a - b} == sa - sb
    assert len(s - a) == 8 and len(s.best(2)) == 2 and all(x in s for x in s.sample(3))
    # A chain: all n singletons, or the pair {0, 1} and the singletons 2..n-1.
    n = 25_000
    problem = ExactCover([[i] for i in range(n)] + [[0, 1]])
    lines, below = [], 1
    for k in range(n - 1, 1, -1):  # node k + 2 holds singleton k (option number k + 1)
        lines.append(f"{k + 2:x}: (~{k + 1}?0:{below:x})")
        below = k + 2
    lines += [f"{n + 2:x}: (~2?0:4)", f"{n + 3:x}: (~1?0:{n + 2:x})",
              f"{n + 4:x}: (~{n + 1}?{n + 3:x}:4)", f"{n + 5:x}: (~0?0:{n + 4:x})"]
    big = SolutionSet.from_text(problem, "\n".join(lines))
    assert big.count() == 2
    pair = big.restrict(include=[n])
    assert list(pair) == [[*range(2, n), n]] and len(big - pair) == 1
    assert (big & pair).count() == 1 and ((big - pair) | pair).count() == 2
    assert sys.getrecursionlimit() == limit


# ----- the front door: count(memo=True), solutions(memo=True), solution_set() -------------


@pytest.mark.parametrize("name", ["queens8", "langford8", "domino_8x8",
                                  "knuth_dlx2_color_example"])
def test_count_memo_is_the_count(name, backend):
    problem = load(name)
    solutions, nodes, _, _, hits = DLX6[name]
    assert problem.count(memo=True, backend=backend) == solutions
    stats = problem.stats
    assert (stats.nodes, stats.hits, stats.backend) == (nodes, hits, backend)
    assert problem.count(3, memo=True, backend=backend) == min(3, solutions)


def test_solutions_memo_in_the_plain_order():
    problem = load("langford8")
    search = problem.solutions(7, memo=True)
    assert list(search) == list(problem.solutions(7))
    assert search.stats.status is Status.LIMIT and search.count() == 7
    assert problem.first(memo=True) == problem.first()
    counted = problem.solutions(memo=True)
    assert counted.count() == 300 and next(counted, None) is None


def test_solution_set_front_door(backend):
    problem = few_hundred()
    s = problem.solution_set(backend=backend, method="memo")
    assert isinstance(s, dlx.SolutionSet) and s.count() == len(s) == 281
    assert problem.stats.zdd_nodes == s.node_count and problem.stats.backend == backend
    assert list(s) == list(problem.solutions())
    halves = problem.solution_set(parts=True, backend=backend)
    assert halves.count() == 281


def test_the_set_errors_are_dlx_errors():
    import dlx.zdd

    for name in ("ZDDFormatError", "EmptySetError", "SetTooLargeError"):
        assert getattr(dlx, name) is getattr(dlx.zdd, name) is getattr(dlx.errors, name)
        assert name in dlx.__all__ and issubclass(getattr(dlx, name), ValueError)
    assert "SolutionSet" in dlx.__all__


@pytest.mark.parametrize("kwargs, name", [
    ({"seed": 1}, "seed"), ({"weighted": True}, "weighted"), ({"lookahead": 2}, "lookahead"),
    ({"strategy": "learn"}, "learn"), ({"order": "cost"}, "order='cost'"),
    ({"workers": 2, "max_nodes": 5}, "max_nodes is for a single search"),
    ({"split": None, "checkpoint": "x.json"}, "takes no checkpoint"),
    ({"strategy": "race"}, "strategy='race'"), ({"memo": 1}, "memo must be True or False"),
])
def test_memo_refuses(kwargs, name):
    with pytest.raises(ArgumentError, match=name.replace("(", r"\(")):
        few_hundred().count(**{"memo": True, **kwargs})


def test_memo_refusals_on_the_other_calls():
    problem = few_hundred()
    with pytest.raises(ArgumentError, match="restarts"):
        problem.first(memo=True, restarts=10)
    with pytest.raises(ArgumentError, match="order='cost'"):
        problem.best(2, memo=True)
    mcc = ExactCover([["a"], ["a", "b"]], multiplicity={"a": (1, 2)})
    with pytest.raises(ArgumentError, match="multiplicities"):
        mcc.count(memo=True)
    with pytest.raises(ArgumentError, match="multiplicities"):
        mcc.solution_set()
    for bad in ("many", 1.5, -3):
        with pytest.raises(ArgumentError, match="max_zdd_nodes"):
            problem.solution_set(max_zdd_nodes=bad)


@pytest.mark.parametrize("budget, status", [({"max_nodes": 100}, Status.MAX_NODES),
                                            ({"timeout": 0}, Status.TIMEOUT)])
def test_budgets_raise_search_stopped(budget, status, backend):
    problem = load("domino_10x10")
    with pytest.raises(SearchStoppedError) as e:
        problem.count(memo=True, backend=backend, **budget)
    assert e.value.stats.status is status and problem.stats.status is status
    with pytest.raises(SearchStoppedError) as e:
        problem.solution_set(backend=backend, **budget)
    assert e.value.stats.status is status and problem.stats is e.value.stats
    with pytest.raises(SearchStoppedError, match="max_zdd_nodes"):
        problem.solution_set(backend=backend, max_zdd_nodes=100)
    search = problem.solutions(memo=True, backend=backend, **budget)
    assert list(search) == [] and search.stats.status is status  # stops quietly


@settings(max_examples=100, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE), st.data())
def test_forced_options_as_the_plain_search(problem, backend, data):
    """Forced options: the plain search's solutions, in its order, or its conflict."""
    forced = data.draw(st.lists(st.sampled_from(range(len(problem))), unique=True,
                                max_size=3)) if len(problem) else []
    forced = [k for k in forced if k not in problem.dropped]
    search = problem.solutions(forced=forced, backend="python")
    expected = list(search)
    memo = problem.solutions(forced=forced, memo=True, backend=backend)
    assert list(memo) == expected
    if search.stats.status is Status.CONFLICT:
        assert memo.stats.status is Status.CONFLICT
        assert memo.stats.conflict == search.stats.conflict
    s = problem.solution_set(forced=forced, backend=backend, method="memo")
    assert list(s) == expected and s.count() == len(expected)
    assert memo_count(problem, forced=forced, parts=True, backend=backend) == len(expected)
