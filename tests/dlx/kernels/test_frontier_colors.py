"""The top-down construction of colored problems' solution sets (dlx.frontier's fields
and codes, dlx.kernels.frontier's BLOCK mask; issue 40 item 4): the same family as the
memoized search and brute force, node for node in the canonical store, on both backends;
items used with and without colors; forced options with colors; the bit width; the
choice (colored problems go to the memo unless asked)."""

from __future__ import annotations

import math
import pathlib
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx.frontier
import dlx.problem
from dlx import Colored, ExactCover, NoPrimaryItemWarning, SearchStoppedError, Status
from dlx.frontier import fields, frontier_width, state_width
from dlx.problems import SATOR, word_rectangle
from dlx.zdd_store import memo_input, store_for
from tests.dlx.kernels.test_frontier import same_family
from tests.helpers.backends import AVAILABLE
from tests.helpers.oracle import brute_force
from tests.helpers.random_problems import as_set, build

DATA = pathlib.Path("/work/shared/data/exact_cover")
WORDS3 = ["ate", "tea", "eat", "ear", "are", "era", "tar", "rat", "art", "arc", "car", "ace",
          "cat", "act", "tic", "ice", "ten", "net", "ant", "tan"]


def shared(name: str) -> ExactCover:
    path = DATA / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)  # Knuth's example has one
        return ExactCover.from_dlx(path)


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("name", ["knuth_dlx2_color_example", "xcc_latin4", "xcc_shidoku4x4",
                                  "xcc_debruijn4"])
def test_shared_colored_files_as_the_memo(backend, name):
    same_family(shared(name), backend)


@pytest.mark.skipif("numba" not in AVAILABLE, reason="numba is not installed")
def test_de_bruijn_5_as_the_memo():
    """Fields of two colors over 50 bits of frontier; 2,048 cycles (A016031(5))."""
    p = shared("xcc_debruijn5")
    same_family(p, "numba")
    assert p.solution_set(method="frontier", backend="numba").count() == 2048


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("problem", [word_rectangle(SATOR), word_rectangle(WORDS3),
                                     word_rectangle(WORDS3, distinct=True),
                                     word_rectangle(["ab", "ba", "aa"], ["abc", "cab", "bca"])],
                         ids=["sator", "words3", "words3-distinct", "rectangle"])
def test_word_rectangles_as_the_memo(backend, problem):
    """``distinct=True``: an uncolored item beside the colored cells in every option."""
    same_family(problem, backend)


@st.composite
def colored_problems(draw, max_options=10):
    """(options, primary, secondary): up to 4 primary and 3 secondary items, up to 7
    colors (fields of 2-5 bits), each secondary entry uncolored or colored, so that an
    item is used both ways and an option holds colored and uncolored ones."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 4)))]
    secondary = [f"s{j}" for j in range(draw(st.integers(1, 3)))]
    palette = [f"c{i}" for i in range(draw(st.integers(1, 7)))]
    options = []
    for _ in range(draw(st.integers(1, max_options))):
        names = draw(st.lists(st.sampled_from(primary + secondary), min_size=1,
                              max_size=4, unique=True))
        option = []
        for name in names:
            color = draw(st.sampled_from([None, *palette])) if name in secondary else None
            option.append(name if color is None else Colored(name, color))
        options.append(option)
    return options, primary, secondary


@pytest.mark.parametrize("backend", AVAILABLE)
@settings(max_examples=80, deadline=None)
@given(drawn=colored_problems(), data=st.data())
def test_random_colored_problems_as_brute_force(backend, drawn, data):
    p = build(*drawn)
    top = p.solution_set(method="frontier", backend=backend)
    assert as_set(top) == brute_force(*drawn)
    assert top == p.solution_set(method="memo", backend=backend)
    assert top.node_count == p.solution_set(method="memo", backend=backend).canonical().node_count
    kept = [k for k in range(len(p)) if k not in p.matrix.dropped]
    if kept:
        forced = data.draw(st.lists(st.sampled_from(kept), max_size=3, unique=True))
        top = p.solution_set(method="frontier", backend=backend, forced=forced)
        stats = p.stats
        memo = p.solution_set(method="memo", backend=backend, forced=forced)
        assert top == memo
        assert as_set(top) == {s for s in brute_force(*drawn) if set(forced) <= s}
        assert stats.status is p.stats.status and stats.conflict == p.stats.conflict


def test_forced_options_with_colors():
    """Two forced options that color an item alike go together; in two colors, or one
    without a color, they clash (the second named, as the memo names it)."""
    options = [["a", Colored("x", "red")], ["b", Colored("x", "red")],
               ["b", Colored("x", "blue")], ["b", "x"], ["a", "b"]]
    p = ExactCover(options, primary=["a", "b"], secondary=["x"])
    assert as_set(p.solution_set(method="frontier", forced=[0])) == {frozenset({0, 1})}
    for clash in (2, 3):
        empty = p.solution_set(method="frontier", forced=[0, clash])
        assert empty.count() == 0
        assert p.stats.status is Status.CONFLICT and p.stats.conflict == clash
    # A clash comes before an item without options, as the memo's stats say (it was
    # COMPLETE top-down).
    q = ExactCover([["a"], ["a"]], primary=["a", "b"])
    assert q.solution_set(method="frontier", forced=[0, 1]).count() == 0
    assert q.stats.status is Status.CONFLICT and q.stats.conflict == 1


def test_fields_and_codes():
    """Codes of one item: distinct, one weight, not all ones; the field the least that
    holds them; one color without an uncolored use: no bit."""
    for n in range(1, 40):
        options = [["a", Colored("x", f"c{i}")] for i in range(n)] + [["a", "x"]]
        p = ExactCover(options, primary=["a"], secondary=["x"])
        size, codes = fields(memo_input(p))
        f = int(size[2])
        mine = list(codes[2].values())
        assert len(mine) == n and len({tuple(c) for c in mine}) == n
        assert len({len(c) for c in mine}) == 1 and 0 < len(mine[0]) < f
        assert all(0 <= b < f for c in mine for b in c)
        assert all(math.comb(f - 1, v) < n for v in range(1, f - 1))  # f is the least
    lone = ExactCover([["a", Colored("x", "red")], ["b", Colored("x", "red")]],
                      primary=["a", "b"], secondary=["x"])
    assert fields(memo_input(lone))[0].tolist() == [0, 1, 1, 0]
    assert frontier_width(memo_input(lone), store_for(lone.matrix).order) <= 2


def test_the_bit_width():
    """Latin squares of order 4: cells of 4 colors, fields of 4 bits (C(4, 2) = 6)."""
    p = shared("xcc_latin4")
    data = memo_input(p)
    assert fields(data)[0].tolist().count(4) == 16
    assert frontier_width(data, store_for(p.matrix).order) == 41


def aligned_dominoes(m: int, n: int) -> ExactCover:
    """Domino tilings of an ``m x n`` board where a horizontal domino on top of another
    lies exactly on it: the grid line between two rows is a secondary item per column,
    which a horizontal domino colors ``L`` and ``R`` above and below its two cells (a
    narrow frontier, like the plain boards', and many solutions)."""
    options: list[list[object]] = []
    for r in range(m):
        for c in range(n):
            if c + 1 < n:
                option: list[object] = [f"{r},{c}", f"{r},{c + 1}"]
                for col, half in ((c, "L"), (c + 1, "R")):
                    option += [Colored(f"s{row},{col}", half) for row in (r - 1, r)
                               if 0 <= row < m - 1]
                options.append(option)
            if r + 1 < m:
                options.append([f"{r},{c}", f"{r + 1},{c}"])
    return ExactCover(options, primary=[f"{r},{c}" for r in range(m) for c in range(n)],
                      secondary=[f"s{r},{c}" for r in range(m - 1) for c in range(n)])


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("shape", [(2, 2), (3, 4), (4, 4), (4, 7)])
def test_aligned_dominoes_as_the_memo(backend, shape):
    p = aligned_dominoes(*shape)
    same_family(p, backend)
    if shape == (4, 4):  # 36 plain tilings, less the 7 with two offset horizontal ones
        assert p.solution_set(method="frontier", backend=backend).count() == 29


def test_the_choice_of_colored_problems(monkeypatch):
    """method=None: a colored problem of few frontier states is built top-down on
    probation: past PROBE_NODES top-down nodes, by the memo (the same family, the memo's
    stats); one of many states by the memo."""
    made = []
    real = dlx.problem.build_frontier
    monkeypatch.setattr(dlx.problem, "build_frontier",
                        lambda *a: made.append(1) or real(*a))
    p = word_rectangle(SATOR)  # 2 ** 43 states
    assert p.solution_set().count() == 2 and made == []  # the square and its transpose
    assert p.solution_set(method="frontier").count() == 2 and made == [1]
    narrow = aligned_dominoes(4, 12)
    memo = narrow.solution_set(method="memo")
    assert narrow.solution_set() == memo and made == [1, 1]
    assert narrow.stats.nodes <= dlx.frontier.PROBE_NODES
    monkeypatch.setattr(dlx.frontier, "PROBE_NODES", 50)
    assert narrow.solution_set() == memo and made == [1, 1, 1]
    assert narrow.stats.status is Status.COMPLETE and narrow.stats.zdd_nodes > 2
    assert narrow.stats.memos > 0  # the memo's
    assert narrow.solution_set(method="frontier") == memo  # asked: no probation
    assert made == [1, 1, 1, 1] and narrow.stats.nodes > 50


@pytest.mark.parametrize("backend", AVAILABLE)
def test_bounds_stop_a_colored_construction(backend):
    p = word_rectangle(WORDS3, distinct=True)
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, max_nodes=1000)
    assert e.value.stats.status is Status.MAX_NODES
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, max_memory=50_000)
    assert e.value.stats.bound == "max_memory"
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, max_zdd_nodes=1000)
    assert e.value.stats.bound == "max_zdd_nodes"
    with pytest.raises(SearchStoppedError) as e:
        p.solution_set(method="frontier", backend=backend, timeout=0.0)
    assert e.value.stats.status is Status.TIMEOUT


def test_the_state_width():
    """log2 of the frontier's states: 2 an item without colors, n + 1 one colored in n
    colors, n + 2 if also used without a color; the width in items without colors. (The
    first option holds every item: all are open at once, in any order.)"""
    plain = ExactCover([["a", "b", "c"], ["b", "c"], ["a"]], primary=["a", "b", "c"])
    data = memo_input(plain)
    order = store_for(plain.matrix).order
    assert state_width(data, order) == frontier_width(data, order) == 3
    three = ExactCover([["a", "b", Colored("x", "r")], ["a", Colored("x", "g")],
                        ["b", Colored("x", "b")]], primary=["a", "b"], secondary=["x"])
    data = memo_input(three)
    order = store_for(three.matrix).order
    assert state_width(data, order) == pytest.approx(2 + math.log2(4))  # x: 0 or a color
    assert frontier_width(data, order) == 2 + 3  # x: C(3, 1) = 3 codes of 3 bits
    both = ExactCover([["a", "b", Colored("x", "r")], ["b", "x"], ["a"]],
                      primary=["a", "b"], secondary=["x"])
    data = memo_input(both)
    order = store_for(both.matrix).order
    assert state_width(data, order) == pytest.approx(2 + math.log2(3))  # 0, red, all ones
    assert frontier_width(data, order) == 2 + 2
