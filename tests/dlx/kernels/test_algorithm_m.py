"""Multiplicities (Knuth's DLX3) and costs (DLX5): known answers, Knuth's counts, a
brute-force oracle, hostile input.

Every solution is checked by ``tests/helpers/oracle.py`` (which knows bounds and costs and shares
no code with the engine); nodes and updates are compared with DLX3's own figures in
``shared/data/exact_cover/SOURCES.md`` on both backends.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlx import (
    ArgumentError,
    BoundError,
    Colored,
    CostError,
    DLXFormatError,
    ExactCover,
    ExitCode,
    NoPrimaryItemWarning,
    SearchStoppedError,
    Status,
)
from dlx.cli import main
from dlx.kernels.bits import Walk
from dlx.problems import mqueens, queens, rod_cutting, tetrominoes, tiling
from tests.helpers.backends import AVAILABLE
from tests.helpers.knuth import DATA, figures
from tests.helpers.oracle import brute_force, cheapest, read_dlx, violation


def _dlx3_rows() -> list:
    if not (DATA / "SOURCES.md").is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{DATA} is absent"))]
    rows = [row for row in figures() if row[0].startswith(("mcc_", "knuth_dlx3"))]
    assert len(rows) == 10
    return [pytest.param(row, id=row[0]) for row in rows]


def _read(name: str) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover.from_dlx((DATA / name).read_text())


# ----- Knuth's DLX3 figures ---------------------------------------------------------------


@pytest.mark.parametrize("row", _dlx3_rows())
def test_dlx3_counts_nodes_updates_compiled(row):
    """Every multiplicity instance of SOURCES.md: DLX3's solutions, nodes and updates."""
    name, solutions, nodes, updates = row
    problem = _read(name)
    assert problem.count(backend="numba") == solutions
    stats = problem.stats
    assert stats.status is Status.COMPLETE
    assert (stats.nodes, stats.updates) == (nodes, updates)


@pytest.mark.parametrize("row", _dlx3_rows())
def test_dlx3_solutions_verified_and_same_on_both_backends(row):
    """The small instances in python too: the same solutions in the same order as the
    compiled kernel, each one verified by the oracle with the file's bounds."""
    name, solutions, nodes, updates = row
    if nodes > 30_000:
        pytest.skip("the python backend runs the small instances")
    problem = _read(name)
    primary, secondary, options, bounds = read_dlx((DATA / name).read_text(), bounds=True)
    assert problem.multiplicity == bounds
    found = list(problem.solutions(backend="python"))
    assert (problem.stats.nodes, problem.stats.updates) == (nodes, updates)
    assert found == list(problem.solutions(backend="numba"))
    assert len(found) == solutions == len({tuple(s) for s in found})
    for s in found:
        assert violation(options, primary, secondary, s, bounds) is None
        assert problem.is_solution(s)


def test_dlx3_example_by_hand():
    """dlx3.w's example: C has bounds 2:3; the one solution is {A C X:1 Y:1}, {B X:1},
    {C Y:1}, found in 6 nodes and 14 updates."""
    problem = ExactCover([["A", "B", Colored("X", 0), Colored("Y", 0)],
                          ["A", "C", Colored("X", 1), Colored("Y", 1)],
                          ["C", Colored("X", 0)], ["B", Colored("X", 1)],
                          ["C", Colored("Y", 1)]],
                         primary=["A", "B", "C"], secondary=["X", "Y"],
                         multiplicity={"C": (2, 3)})
    for backend in AVAILABLE:
        assert list(problem.solutions(backend=backend)) == [[1, 3, 4]]
        assert (problem.stats.nodes, problem.stats.updates) == (6, 14)
    assert problem.to_dlx().splitlines()[0] == "A B 2:3|C | X Y"


# ----- builders and their known answers -----------------------------------------------------

QUEENS = {1: 1, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92}  # A000170


@pytest.mark.parametrize("n", sorted(QUEENS))
def test_mqueens_counts(n):
    """Rows 0..1 and columns exactly 1, diagonals secondary or primary 0..1: A000170."""
    for bounded in (False, True):
        problem = mqueens(n, bounded_diagonals=bounded)
        assert problem.count(backend="python") == QUEENS[n]
    assert mqueens(n).count(backend="numba") == queens(n).count(backend="numba")


def test_mqueens_other_boards():
    assert mqueens(10, rows=12).count(backend="numba") == 160_964  # A269133 T(12, 10)
    assert mqueens(8, k=5).count(backend="numba") == 46_736  # A108792 a(8)
    assert mqueens(4, k=1).count(backend="python") == 16  # one queen: any square
    assert mqueens(8, rows=10).count(backend="numba") == 7_828  # A269133 (SOURCES.md)
    for bad in ({"rows": 9, "k": 3}, {"k": 0}):
        with pytest.raises(ValueError):
            mqueens(8, **bad)


@pytest.mark.parametrize("name,build", [
    ("mcc_queens8_rowslack.dlx", lambda: mqueens(8)),
    ("mcc_queens12x10_rowslack.dlx", lambda: mqueens(10, rows=12)),
    ("mcc_queens8_k5.dlx", lambda: mqueens(8, k=5)),
    ("mcc_tetromino_4x6_0to2.dlx", lambda: tetrominoes(4, 6)),
    ("mcc_tetromino_5x8_2each.dlx", lambda: tetrominoes(5, 8, 2)),
])
def test_builders_write_the_files(name, build):
    """The builders are SOURCES.md's generators: to_dlx writes the very file (its comment
    line aside), so their searches are DLX3's."""
    path = DATA / name
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    text = path.read_text()
    body = "".join(line for line in text.splitlines(True) if not line.startswith("|"))
    assert build().to_dlx() == body


def test_tetromino_packings():
    assert tetrominoes(4, 6).count(backend="numba") == 586
    assert tetrominoes(5, 8, 2).count(backend="numba") == 3106
    assert tetrominoes(4, 6, (1, 2)).count(backend="numba") == 16  # SOURCES.md
    # pieces used a bounded number of times, checked on every packing found
    problem = tetrominoes(4, 6)
    for s in problem.solutions(backend="numba"):
        pieces = [problem.option(k)[0] for k in s]
        assert all(pieces.count(p) <= 2 for p in "IOTSL") and len(pieces) == 6


def test_tiling_uses_by_piece():
    """A mapping gives each piece its own bounds: dominoes and monominoes on 2 x 3."""
    pieces = {"D": {(0, 0), (0, 1)}, "M": {(0, 0)}}
    board = [(r, c) for r in range(2) for c in range(3)]
    counts = {}
    for uses in ({"D": 3, "M": (0, 1)}, {"D": (0, 3), "M": (0, 6)}, {"D": 1, "M": 4}):
        counts[str(uses)] = tiling(board, pieces, uses=uses).count(backend="python")
    # 3 domino tilings of 2 x 3; all 22 tilings by dominoes and monominoes (A030186);
    # exactly one domino: 7 places for it
    assert list(counts.values()) == [3, 22, 7]


RODS = [1, 5, 8, 10, 13, 17, 18, 22, 25, 30]  # CLRS 15.1: best revenues r_1..r_10


def test_rod_cutting_optimum(backend):
    for n in range(1, 11):
        problem = rod_cutting(n)
        best = problem.best(backend=backend)
        assert [problem.cost(s) for s in best] == [3 * n - RODS[n - 1]]
        assert not problem.stats.status.stopped  # COMPLETE (or LIMIT: one cut, n = 1)
    problem = rod_cutting(8)
    everything = list(problem.solutions(backend=backend))
    assert len(everything) == 2**7
    ranked = problem.best(None, backend=backend)
    assert sorted(map(tuple, ranked)) == sorted(map(tuple, everything))
    assert [problem.cost(s) for s in ranked] == cheapest(everything, problem.costs)


# ----- the oracle: random bounds, colors and costs ------------------------------------------


@st.composite
def mcc_problems(draw):
    """A small problem with bounds u..v in 0..3 (v >= 1), colors and costs 0..6."""
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(0, 2))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    options = []
    for _ in range(draw(st.integers(1, 10))):
        items = draw(st.lists(st.sampled_from(primary + secondary), min_size=1, max_size=3,
                              unique=True))
        options.append([Colored(x, draw(st.sampled_from("ab"))) if x in secondary
                        and draw(st.booleans()) else x for x in items])
    bounds = {}
    for x in primary:
        if draw(st.booleans()):
            u = draw(st.integers(0, 3))
            bounds[x] = (u, draw(st.integers(max(u, 1), 3)))
    costs = draw(st.lists(st.integers(0, 6), min_size=len(options), max_size=len(options)))
    return options, primary, secondary, bounds, costs


def _build(spec) -> ExactCover:
    options, primary, secondary, bounds, costs = spec
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, primary=primary, secondary=secondary,
                          multiplicity=bounds, costs=costs)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=mcc_problems(), k=st.sampled_from([1, 2, 3, 5, None]))
def test_against_brute_force(spec, k):
    """Both backends: the solutions are the oracle's, in one order, with one count of
    nodes and updates; best(k) gives the costs of the k cheapest, cheapest first, each a
    verified solution; after the search every array is as it was built."""
    options, primary, secondary, bounds, costs = spec
    problem = _build(spec)
    expected = brute_force(options, primary, secondary, bounds)
    runs = {}
    for backend in AVAILABLE:
        search = problem.solutions(backend=backend)
        found = list(search)
        assert {frozenset(s) for s in found} == expected and len(found) == len(expected)
        state = search._state
        pristine = search.kernel.pristine(problem.links)
        colors = () if isinstance(state.COLOR, Walk) else ("COLOR",)  # bits: its stacks
        for name in ("U", "D", "LEN", "LL", "RL", *colors, "BOUND"):
            assert list(getattr(state, name)) == list(getattr(pristine, name)), name
        best = problem.best(k, backend=backend)
        assert [problem.cost(s) for s in best] == cheapest(expected, costs)[:k]
        assert all(violation(options, primary, secondary, s, bounds) is None for s in best)
        assert len({tuple(s) for s in best}) == len(best)
        runs[backend] = found, best, (search.stats.nodes, search.stats.updates)
    assert runs["python"] == runs["numba"]
    assert problem.count(backend="python") == len(expected)


@settings(max_examples=60, deadline=None)
@given(spec=mcc_problems(), data=st.data())
def test_forced_batches_and_budgets(spec, data):
    """Forced options, batches (both backends), node budgets and lazy iteration keep their
    meaning: a batch instance equals the single search with those options forced, which
    equals the oracle's solutions that contain them; budgets give prefixes."""
    options, primary, secondary, bounds, _ = spec
    problem = _build(spec)
    usable = [k for k in range(len(options)) if k not in problem.dropped]
    forced = data.draw(st.lists(st.sampled_from(usable), max_size=2, unique=True)) \
        if usable else []
    expected = {s for s in brute_force(options, primary, secondary, bounds)
                if set(forced) <= s}
    single = list(problem.solutions(forced=forced, backend="python"))
    if problem.stats.status is Status.CONFLICT:
        assert not expected
    else:
        assert {frozenset(s) for s in single} == expected
    stats = problem.stats
    for backend in AVAILABLE:
        result = problem.solve_batch([forced], limit=None, backend=backend)
        assert result.found[0] == len(single)
        assert result.solution(0) == (single[0] if single else None)
        if not result.conflict[0]:
            assert (result.nodes[0], result.updates[0]) == (stats.nodes, stats.updates)
    everything = list(problem.solutions(backend="python"))
    total = problem.stats.nodes
    budget = data.draw(st.integers(0, total))
    for backend in AVAILABLE:
        part = list(problem.solutions(max_nodes=budget, backend=backend))
        assert part == everything[: len(part)]
        lazy = problem.solutions(backend=backend)
        assert list(itertools.islice(lazy, 2)) + list(lazy) == everything


def test_cost_order_without_costs_stops_at_k():
    """Without costs (or when the taxes leave every net cost 0) every solution costs the
    same: best(k) is the first k found, and the search stops there."""
    problem = mqueens(8)
    first = list(problem.solutions(3, backend="python"))
    search = problem.solutions(3, order="cost", backend="python")
    assert list(search) == first and search.costs == [0, 0, 0]
    assert search.stats.status is Status.LIMIT and search.stats.solutions == 3
    flat = ExactCover([["A"], ["A"], ["B"]], costs=[4, 4, 1])  # taxed to net 0
    assert flat.best(None, backend="numba") == [[0, 2], [1, 2]]
    assert [flat.cost(s) for s in flat.best(None, backend="python")] == [5, 5]


def test_cost_order_with_budget_and_forced():
    """A budget that runs out: best() raises (the rule for budgets), the cost-ordered
    search leaves the best found so far (its status says so); forced options' costs count
    in the costs reported."""
    problem = rod_cutting(10)
    with pytest.raises(SearchStoppedError, match="best\\(\\): max_nodes=5") as stop:
        problem.best(3, max_nodes=5, backend="python")
    assert stop.value.stats.status is Status.MAX_NODES
    cut = problem.solutions(3, order="cost", max_nodes=5, backend="python")
    assert len(list(cut)) <= 3 and cut.stats.status is Status.MAX_NODES
    whole = [o for o in range(len(problem)) if len(problem.option(o)) == 10]  # the uncut rod
    search = problem.solutions(2, order="cost", forced=[0], backend="numba")
    found = list(search)
    assert all(0 in s for s in found)
    assert search.costs == [problem.cost(s) for s in found] == sorted(search.costs)
    assert problem.best(1, backend="numba") == [whole]
    assert search.count() == len(found)


# ----- hostile input ------------------------------------------------------------------------

BAD_BOUNDS = [
    ({"A": (2, 1)}, "lower bound 2 exceeds upper bound 1"),
    ({"A": (-1, 2)}, "lower bound -1 is negative"),
    ({"A": 0}, "upper bound 0 is less than 1"),
    ({"A": (0, 0)}, "upper bound 0"),
    ({"A": 2.5}, "not an integer"),
    ({"A": 2.0}, "not an integer"),
    ({"A": "2"}, "not an integer"),
    ({"A": None}, "not an integer"),
    ({"A": True}, "not an integer"),
    ({"A": (1,)}, "not an integer"),
    ({"A": (1, 2, 3)}, "not an integer"),
    ({"A": (1, 2.5)}, "not an integer"),
    ({"A": (True, 2)}, "not an integer"),
    ({"A": (1, 2**50)}, "beyond"),
    ({"X": 2}, "item 'X' is secondary"),
    ({"Z": 2}, "'Z', which is not an item"),
    ([("A", 2)], "must be a mapping"),
    ("A", "must be a mapping"),
]


@pytest.mark.parametrize("bounds,message", BAD_BOUNDS)
def test_bad_bounds_name_the_item_and_the_bound(bounds, message):
    options = [["A", "X"], ["B"]]
    with pytest.raises(BoundError, match=message) as info:
        ExactCover(options, secondary=["X"], multiplicity=bounds)
    if isinstance(bounds, dict):
        assert repr(next(iter(bounds))) in str(info.value)
    matrix = np.array([[1, 0, 1], [0, 1, 0]])
    with pytest.raises(BoundError, match=message):
        ExactCover.from_matrix(matrix, secondary=[2], names=["A", "B", "X"],
                               multiplicity=bounds)
    with pytest.raises(BoundError, match=message):
        ExactCover.from_csr([0, 2, 3], [0, 2, 1], secondary=[2], names=["A", "B", "X"],
                            multiplicity=bounds)


BAD_COSTS = [
    ([1, "a"], "option 1: cost 'a' is not a number"),
    ([1, None], "option 1: cost None is not a number"),
    ([[1], 2], "option 0: cost \\[1\\] is not a number"),
    ([True, 2], "option 0: cost True is not a number"),
    ([1, math.nan], "option 1: cost nan is not finite"),
    ([math.inf, 1], "option 0: cost inf is not finite"),
    ([1, -1], "option 1: cost -1 is negative"),
    ([1, 1.5], "option 1: cost 1.5 is not an integer"),
    ([Fraction(1, 3), 1], "option 0: .* is not an integer"),
    (np.array([1.0, np.nan]), "option 1: cost nan is not finite"),
    ([1], "costs has 1 entries for 2 options"),
    ([1, 2, 3], "costs has 3 entries for 2 options"),
    (5, "must be a sequence"),
    ("12", "must be a sequence"),
    ([2**61, 2**61], "costs sum to"),
]


@pytest.mark.parametrize("costs,message", BAD_COSTS)
def test_bad_costs_name_the_option_and_the_cost(costs, message):
    with pytest.raises(CostError, match=message):
        ExactCover([["A"], ["B"]], costs=costs)
    with pytest.raises(CostError, match=message):
        ExactCover.from_matrix(np.eye(2, dtype=int), costs=costs)
    with pytest.raises(CostError, match=message):
        ExactCover.from_csr([0, 1, 2], [0, 1], costs=costs)


def test_good_costs_and_bounds_of_many_types():
    problem = ExactCover([["A"], ["B"], ["A", "B"]],
                         multiplicity={"A": np.int64(2), "B": (np.int32(0), 1)},
                         costs=[np.uint8(3), 2.0, Fraction(4, 2)])
    assert problem.multiplicity == {"A": (2, 2), "B": (0, 1)}
    assert problem.costs == [3, 2, 2]
    assert ExactCover([["A"]], multiplicity={"A": 1}, costs=[0]).links.mcc is False


BAD_TEXT = [
    ("2:1|A\nA\n", "lower bound 2 of item 'A' exceeds upper bound 1"),
    ("0|A\nA\n", "upper bound of item 'A' is zero"),
    ("A | 2|X\nA X\n", "bounds on secondary item 'X'"),
    ("A |2|X\nA X\n", "bounds on secondary item 'X'"),
    ("2|\nA\n", "bad item name"),
    ("A\nA |x5\n", "illegal '|'"),
    ("A\nA |-1\n", "illegal '|'"),
    ("A\nA | 5\n", "illegal '|'"),
    ("99999999999999999999|A\nA\n", "upper bound 99999999999999999999 of item 'A' is "
                                      "beyond"),
    ("A\nA |99999999999999999999\n", "cost 99999999999999999999 is beyond"),
]


@pytest.mark.parametrize("text,message", BAD_TEXT)
def test_bad_text_names_the_line(text, message, capsys, tmp_path):
    with pytest.raises(DLXFormatError, match=message):
        ExactCover.from_dlx(text)
    path = tmp_path / "bad.dlx"
    path.write_text(text)
    assert main([str(path), "--backend", "python"]) == ExitCode.USAGE
    assert message.split("'")[0] in capsys.readouterr().err


def test_order_and_best_arguments():
    problem = rod_cutting(3)
    with pytest.raises(ArgumentError, match="order must be 'search' or 'cost', got 'price'"):
        problem.solutions(order="price")
    with pytest.raises(ArgumentError, match="best\\(\\) takes k"):
        problem.best(limit=2)
    with pytest.raises(ArgumentError, match="limit must be at least 1, got 0"):
        problem.best(0)
    with pytest.raises(ArgumentError):
        problem.cost([99])


# ----- text format and command ------------------------------------------------------------


def test_text_round_trip_and_command(tmp_path, capsys):
    text = "| bounds and costs\nA 2|B 0:3|C | X\nA B |3 |4\nB C X:1\nB |1\nC X:1 |2\n"
    problem = ExactCover.from_dlx(text)
    assert problem.multiplicity == {"B": (2, 2), "C": (0, 3)}
    assert problem.costs == [7, 0, 1, 2]
    written = problem.to_dlx()
    assert written == "A 2|B 0:3|C | X\nA B |7\nB C X:1\nB |1\nC X:1 |2\n"
    again = ExactCover.from_dlx(written)
    assert (again.multiplicity, again.costs, list(again.options())) == (
        problem.multiplicity, problem.costs, list(problem.options()))
    path = tmp_path / "p.dlx"
    path.write_text(text)
    assert main([str(path), "--best", "2", "--indices", "--backend", "python"]) == ExitCode.OK
    out = capsys.readouterr().out
    solutions = problem.best(None, backend="python")
    assert out == "".join(f"{' '.join(map(str, s))} (cost {problem.cost(s)})\n"
                          for s in solutions[:2])
    assert main([str(path), "--count", "--backend", "python"]) == ExitCode.OK
    assert capsys.readouterr().out == f"{len(solutions)}\n"


@settings(max_examples=60, deadline=None)
@given(spec=mcc_problems())
def test_links_stay_sound_after_every_node(spec):
    """Knuth's sanity check (``check_links``) after every node of Algorithm M: every list
    closes, every U mirrors its D, every LEN counts its list (tweaks included); resumed
    at every node, the search counts what one call counts."""
    from dlx.kernels.codes import COMPLETE
    from dlx.links import check_links
    from dlx.pure import MCC_KERNEL

    problem = _build(spec)
    links = problem.links
    state = MCC_KERNEL.start(links, None)
    for n in itertools.count(1):
        status = MCC_KERNEL.search(state, n, 1 << 62)
        check_links(links, state)
        if status == COMPLETE:
            break
    once = MCC_KERNEL.start(links, None)  # one call counts what the resumed search did
    assert MCC_KERNEL.search(once, 1 << 62, 1 << 62) == COMPLETE
    assert list(state.REG) == list(once.REG)


def test_huge_bounds_and_lossless_parse():
    """A bound far beyond the options costs nothing (levels and batch records are sized by
    the options); parse_dlx, which has no place for bounds or costs, refuses them."""
    from dlx.dlxformat import parse_dlx

    problem = ExactCover([["A"], ["A", "B"], ["B"]], multiplicity={"A": (0, 2**40)})
    assert problem.count(backend="python") == 4
    result = problem.solve_batch([[], [1]], limit=None, backend="numba")
    assert result.found.tolist() == [4, 2] and result.options.shape[1] <= 3
    for text in ("2|A\nA\n", "A\nA |3\n"):
        with pytest.raises(DLXFormatError, match="parse_mcc"):
            parse_dlx(text)


def test_timeouts_stop_mcc_searches(backend):
    """A timeout stops a long MCC search, single or batched, best-first or not."""
    problem = mqueens(12, rows=16)  # millions of nodes
    problem.solve_batch([[]], backend=backend)  # numba: loaded before the clock runs
    search = problem.solutions(timeout=0.05, backend=backend)
    assert search.count() > 0 and search.stats.status is Status.TIMEOUT
    with pytest.raises(SearchStoppedError):  # the rule for budgets
        problem.count(timeout=0.05, backend=backend)
    result = problem.solve_batch([[], [0]], limit=None, timeout=0.05, backend=backend)
    assert result.timed_out.all()
    costly = ExactCover(list(problem.options()), primary=problem.primary,
                        secondary=problem.secondary, multiplicity=problem.multiplicity,
                        costs=[(7 * k) % 5 for k in range(len(problem))])
    ordered = costly.solutions(3, order="cost", timeout=0.05, backend=backend)
    best = list(ordered)  # the bound prunes: ~4,000 nodes
    assert ordered.stats.status in (Status.TIMEOUT, Status.COMPLETE) and len(best) <= 3
    assert [costly.cost(s) for s in best] == sorted(costly.cost(s) for s in best)
    with pytest.raises(SearchStoppedError) as stop:
        costly.best(3, max_nodes=100, backend=backend)
    assert stop.value.stats.status is Status.MAX_NODES and stop.value.stats.nodes == 100


@settings(max_examples=60, deadline=None)
@given(spec=mcc_problems(), seed=st.integers(1, 2**31))
def test_seeded_ties_and_text_round_trip(spec, seed):
    """A seed breaks DLX3's full ties at random, the same way on both backends, and finds
    the same set of solutions; the problem written in DLX3/DLX5 syntax reads back the
    same, and so does a pickled copy."""
    import pickle

    options, primary, secondary, bounds, costs = spec
    problem = _build(spec)
    expected = brute_force(options, primary, secondary, bounds)
    runs = []
    for backend in AVAILABLE:
        found = list(problem.solutions(seed=seed, backend=backend))
        runs.append((found, problem.stats.nodes, problem.stats.updates))
        assert {frozenset(s) for s in found} == expected
    assert runs[0] == runs[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        again = ExactCover.from_dlx(problem.to_dlx())
    assert (again.primary, again.secondary) == (primary, secondary)
    assert again.multiplicity == {x: b for x, b in bounds.items() if b != (1, 1)}
    assert again.costs == costs
    assert [[(e.item, e.color) if isinstance(e, Colored) else e for e in o]
            for o in again.options()] == [[(e.item, str(e.color)) if isinstance(e, Colored)
                                           else e for e in o] for o in options]
    copy = pickle.loads(pickle.dumps(problem))
    assert list(copy.solutions(backend="python")) == list(problem.solutions(backend="python"))
    assert copy.best(2, backend="python") == problem.best(2, backend="python")


def test_render_mqueens_boards():
    """Rectangular boards and k queens render; every rendered board is non-attacking."""
    from dlx.problems import render_queens

    for problem, rows, queens_on in ((mqueens(4, rows=5), 5, 4), (mqueens(5, k=3), 5, 3)):
        for s in problem.solutions(backend="python"):
            board = render_queens(problem, s).splitlines()
            cells = [(r, c) for r, line in enumerate(board) for c, ch in enumerate(line)
                     if ch == "Q"]
            assert len(board) == rows and len(cells) == queens_on
            for (r1, c1), (r2, c2) in itertools.combinations(cells, 2):
                assert r1 != r2 and c1 != c2 and abs(r1 - r2) != abs(c1 - c2)


def test_distributed_runs_refuse_mcc():
    """Splitting follows Algorithm C's tree (a subtree is its options forced), which an
    MCC search is not: a split or a distributed run of such a problem is refused."""
    problem = mqueens(6)
    for call in (lambda: problem.split(depth=1), lambda: problem.count(workers=2),
                 lambda: problem.solutions(workers=2),
                 lambda: queens(6).solutions(workers=2, order="cost")):
        with pytest.raises(ArgumentError):
            call()


def test_batch_has_room_for_every_option_of_a_solution():
    """A batch's table holds the whole first solution when costs (and no bounds) make the
    problem an MCC one: its width once divided the number of options, not the items, by
    the fewest items of an option (two options of two items each: room for one)."""
    problem = ExactCover([["p0", "p1"], ["p2", "p3"]], primary=["p0", "p1", "p2", "p3"],
                         costs=[0, 1])
    for backend in AVAILABLE:
        result = problem.solve_batch([[]], limit=None, backend=backend)
        assert result.found[0] == 1 and result.solution(0) == [0, 1]
