"""Differential tests: Algorithm X over bitsets against the kernels over links.

``dlx.kernels.bits`` is the python backend for problems without colors whose lists are
long (tilings, queens, Langford pairs). It must do what :func:`dlx.kernels.algorithm_c.search` and
``dlx.kernels.unrolled`` do: the same solutions in the same order, the same ``nodes``, ``updates``
and ``max_level``, the same registers and ``CHOICE`` after every single node (so that
budgets, slices and resumption behave alike), the same forced-option conflicts, and the
same estimate of the tree explored; and the solutions a brute force finds.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
from dlx import ExactCover, NoPrimaryItemWarning, Status, get_backend
from dlx.kernels import bits as kernel_bits
from dlx.kernels import codes
from dlx.problems import langford, pentominoes, queens
from dlx.pure import BITS_KERNEL, bits_pay
from dlx.search import explored
from dlx.state import REG_LEVEL, REG_NODES, REG_SOLUTIONS
from tests.helpers.backends import AVAILABLE
from tests.helpers.datasets import data_dir
from tests.helpers.oracle import brute_force
from tests.helpers.pinned import (
    PYTHON_LIST,
    PYTHON_X_BYTES,
    PYTHON_X_LIST,
    check,
    is_pristine,
    pinned,
)
from tests.helpers.random_problems import planted_problems, xcc_problems

DATA = data_dir("exact_cover")


def _problem(options, primary, secondary) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, primary=primary, secondary=secondary)


def _links_kernel(problem: ExactCover):
    """The kernel over links to compare with: Algorithm X unrolled, LEN as bytes or list."""
    return PYTHON_X_BYTES if problem.links.max_len < 128 else PYTHON_X_LIST


def _run(problem: ExactCover, backend, count_only: bool = False, **kwargs):
    """(solutions, stats) of one search; ``count_only``: ``Search.count``, no list."""
    search = problem.solutions(backend=backend, **kwargs)
    found = [] if count_only else list(search)
    if count_only:
        assert search.count() == search.stats.solutions
    s = search.stats
    assert s.status is not Status.RUNNING
    return found, (s.nodes, s.updates, s.solutions, s.max_level, s.status, s.conflict)


def _assert_same(problem: ExactCover, **kwargs):
    """The bitset kernel agrees with the links' kernels (and numba, when there)."""
    bits = _run(problem, pinned(BITS_KERNEL), **kwargs)
    assert bits == _run(problem, pinned(_links_kernel(problem)), **kwargs)
    assert bits == _run(problem, pinned(PYTHON_LIST), **kwargs)  # the kernel as written
    if "numba" in AVAILABLE:
        assert bits == _run(problem, "numba", **kwargs)
    return bits


def _lockstep(problem: ExactCover, seed=None, forced=()) -> int:
    """Run the bitset kernel and the links' kernel one node per call: registers,
    ``CHOICE`` and Knuth's estimate agree at every pause. Returns the pauses."""
    links = problem.links if seed is None else problem.links.shuffled(seed)
    other = _links_kernel(problem)
    b, conflict_b = BITS_KERNEL.prepare(links, list(forced))
    x, conflict_x = other.prepare(links, list(forced))
    assert conflict_b == conflict_x
    if conflict_b is not None:
        return 0
    steps = 0
    while True:
        statuses = [k.search(S, S.REG[REG_NODES] + 1, S.REG[REG_SOLUTIONS] + 1)
                    for k, S in ((BITS_KERNEL, b), (other, x))]
        assert statuses[0] == statuses[1]
        assert list(b.REG) == list(x.REG)
        level = b.REG[REG_LEVEL]
        assert list(b.CHOICE[:level]) == list(x.CHOICE[:level])
        assert kernel_bits.explored(b) == pytest.approx(explored(x), abs=1e-12)
        check(links, BITS_KERNEL, b)  # the links it reads are never written
        if statuses[0] == codes.COMPLETE:
            assert is_pristine(links, b)
            return steps
        assert statuses[0] in (codes.LIMIT, codes.MAX_NODES)
        steps += 1


# ----- same results -----------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(xcc_problems(colors=False), st.sampled_from([None, 2]))
def test_random_problems_same_as_links_and_brute_force(spec, seed):
    options, primary, secondary = spec
    problem = _problem(options, primary, secondary)
    found, stats = _assert_same(problem, seed=seed)
    assert {frozenset(s) for s in found} == brute_force(options, primary, secondary)
    assert len(found) == stats[2] and stats[4] is Status.COMPLETE


@settings(max_examples=60, deadline=None)
@given(planted_problems(), st.sampled_from([None, 11]))
def test_lockstep_on_planted_problems(spec, seed):
    options, primary, secondary, _ = spec
    options = [[e for e in opt if not isinstance(e, tuple)] or [primary[0]]
               for opt in options]  # Algorithm X: colors stripped
    _lockstep(_problem(options, primary, secondary), seed)


@settings(max_examples=80, deadline=None)
@given(xcc_problems(colors=False), st.data())
def test_forced_options_same_as_links(spec, data):
    """Forced options (the links' kernel restricts them with numpy; the bitset kernel
    takes them in turn): the same conflicts, solutions, nodes and updates."""
    options, primary, secondary = spec
    problem = _problem(options, primary, secondary)
    kept = [k for k in range(len(options)) if k not in problem.dropped]
    forced = data.draw(st.lists(st.sampled_from(kept), unique=True, max_size=3)) if kept else []
    _assert_same(problem, forced=forced)
    _lockstep(problem, forced=forced)


@pytest.mark.parametrize("problem", [queens(6), langford(5), queens(1), queens(8)],
                         ids=["queens6", "langford5", "queens1", "queens8"])
def test_lockstep_on_known_problems(problem):
    assert _lockstep(problem) >= problem.count(backend="python")


def test_same_with_budgets_limits_and_slices():
    problem = langford(8)
    for kwargs in ({"limit": 3}, {"max_nodes": 0}, {"max_nodes": 1}, {"max_nodes": 777},
                   {"limit": 40, "seed": 5}, {"count_only": True}, {"timeout": 1000.0},
                   {"count_only": True, "limit": 9}, {"count_only": True, "max_nodes": 500}):
        _assert_same(problem, **kwargs)


@pytest.mark.parametrize(("name", "nodes", "updates"), [
    ("queens10", 16536, 312479), ("langford10", 60790, 936580),
    ("pentomino_3x20", 32978, 10986975)])
def test_knuth_files_dlx1_counts(name, nodes, updates):
    """DLX1's nodes and updates on the shared files, over bitsets."""
    path = DATA / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} is not there")
    problem = ExactCover.from_dlx(path.read_text())
    assert get_backend("python").kernel(problem.links) is BITS_KERNEL
    problem.count(backend="python")
    assert (problem.stats.nodes, problem.stats.updates) == (nodes, updates)


def test_first_solutions_of_pentominoes_in_order():
    problem = pentominoes(3, 20)
    first = list(problem.solutions(limit=4, backend=pinned(BITS_KERNEL)))
    assert first == list(problem.solutions(limit=4, backend=pinned(PYTHON_X_LIST)))
    assert all(problem.is_solution(s) for s in first)


def test_batches_same_as_links():
    problem = queens(7)
    instances = [[], [0], [0, 1], [3, 17], [5, 40, 26]]
    a = problem.solve_batch(instances, limit=50, backend=pinned(BITS_KERNEL))
    b = problem.solve_batch(instances, limit=50, backend=pinned(PYTHON_X_BYTES))
    for name in ("status", "found", "nodes", "updates", "max_level", "conflicting"):
        assert list(getattr(a, name)) == list(getattr(b, name))
    assert [a.solution(k) for k in range(len(instances))] == \
        [b.solution(k) for k in range(len(instances))]


def test_interleaved_searches_are_independent():
    """Two searches of one problem share the tables, never the stacks."""
    problem = queens(6)
    one, two = (problem.solutions(backend=pinned(BITS_KERNEL)) for _ in range(2))
    first = [next(one), next(two), next(one), next(two)]
    assert first[0] == first[1] and first[2] == first[3] and first[0] != first[2]
    assert one._state.COLOR is not two._state.COLOR
    assert one._state.COLOR.tables is two._state.COLOR.tables


def test_explored_reaches_one():
    problem = langford(7)
    search = problem.solutions(backend="python")
    assert search.kernel is BITS_KERNEL and search.explored() == 0.0
    next(search)
    assert 0.0 < search.explored() < 1.0
    search.count()
    assert search.explored() == 1.0


# ----- which problems -------------------------------------------------------------------


def test_bits_only_where_they_pay_and_are_exact():
    """Long lists (tilings, queens, Langford pairs) go to the bits; Sudoku's short lists,
    options of one item, colors, bounds and the strategies stay on their kernels."""
    import sudoku

    python = get_backend("python")
    for problem in (pentominoes(6, 10), queens(8), langford(7)):
        assert bits_pay(problem.links) and python.kernel(problem.links) is BITS_KERNEL
        assert python.kernel(problem.links, weighted=True) is not BITS_KERNEL
        assert python.kernel(problem.links, reduce=True) is not BITS_KERNEL
    short = (sudoku.to_exact_cover("." * 81), ExactCover([["a"]] * 200),
             ExactCover([["a", dlx.Colored("x", 1)]] * 50, secondary=["x"]),
             ExactCover([["a"], ["b"]], primary=["a", "b"], multiplicity={"a": (0, 2)}),
             ExactCover([], primary=["a"]))
    for problem in short:
        assert not bits_pay(problem.links)
        assert python.kernel(problem.links) is not BITS_KERNEL


def test_tables_of_known_problem():
    """Bits of a small problem by hand: sentinels low, options above in layout order."""
    problem = ExactCover([["a", "b"], ["b", "c"], ["c"], ["a", "x"]], primary=["a", "b", "c"],
                         secondary=["x"])
    t = kernel_bits.tables(problem.links)
    o = [1 << (3 + k) for k in range(4)]
    assert t.MR[1:] == [o[0] | o[3], o[0] | o[1], o[1] | o[2], o[3]]
    assert [o[0] | o[3] | 1, o[0] | o[1] | 2, o[1] | o[2] | 4] == t.PM
    assert t.CL[3] == o[0] | o[1] | o[3] | 1 | 2  # option 0: items a and b
    assert t.CL[6] == o[0] | o[3] | 1  # option 3: a and x (secondary: no sentinel)
    assert t.BIT == [3, 4, 5, 6] and t.root == sum(o) | 7
    assert t.w1 == 0 and dict(t.widths) == {1: o[0] | o[1] | o[3], 0: o[2]}


def test_bits_bounded_in_memory(monkeypatch):
    """Tables past ``BITS_MOST`` bits (options x (items + options)) stay on the links."""
    assert bits_pay(queens(8).links)
    monkeypatch.setattr(kernel_bits, "BITS_MOST", 80 * 111 - 1)  # 16 + 64 bits, 47 + 64 sets
    assert not bits_pay(queens(8).links)
    monkeypatch.setattr(kernel_bits, "BITS_MOST", 80 * 111)
    assert bits_pay(queens(8).links)
