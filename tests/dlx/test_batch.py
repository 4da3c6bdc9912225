"""Batches: one problem, many instances of forced options, one kernel call.

``ExactCover.solve_batch`` must give, per instance, what a search of the problem with
those options forced gives (``solutions(forced=...)``, whose state is built another way:
with numpy when there are no colors): the same first solution, count, nodes, updates,
deepest level and conflict, on every backend. ``sudoku.solve_many`` and ``count_many``
must give what ``solve_string`` and ``count_solutions`` give, errors included.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import (
    ArgumentError,
    Colored,
    ExactCover,
    ForcedOptionError,
    NoPrimaryItemWarning,
    Status,
)
from dlx.kernels import algorithm_c, codes, record
from dlx.links import INACTIVE
from dlx.pure import kernel_bytes, kernel_list
from dlx.state import N_REGS, REG_PRIMARY_END
from sudoku import (
    count_many,
    count_solutions,
    parse_string,
    solve_many,
    solve_string,
    to_exact_cover,
)
from sudoku.errors import SudokuError
from sudoku.grid import are_solutions, geometry, is_solution
from sudoku.named import load_named
from sudoku.reduction import Reduction, empty_grid_problem, given_options
from tests.helpers.backends import BACKENDS, needs_numba
from tests.helpers.interrupt import ctrl_c_after
from tests.helpers.oracle import brute_force
from tests.helpers.pinned import PYTHON_KERNELS, is_pristine, pinned
from tests.helpers.random_problems import shared_color_problems, xcc_problems
from tests.helpers.slices import tiny_slices

DATA = Path(__file__).resolve().parents[3] / "shared/data/sudoku"
GENERATED_16 = Path(__file__).resolve().parents[2] / "sudoku/data/generated_16x16.txt"


def _problem(options, primary, secondary) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, primary=primary, secondary=secondary)


def _reference(problem: ExactCover, forced, limit, max_nodes) -> tuple:
    """One instance searched alone: what the batch must report for it."""
    search = problem.solutions(limit, forced=forced, max_nodes=max_nodes, backend="python")
    found = list(search)
    s = search.stats
    return (found[0] if found else None, len(found), s.nodes, s.updates, s.max_level,
            s.conflict is not None, s.complete, s.status is Status.MAX_NODES, int(s.status))


def _batch_rows(result) -> list[tuple]:
    return [(result.solution(k), int(result.found[k]), int(result.nodes[k]),
             int(result.updates[k]), int(result.max_level[k]), bool(result.conflict[k]),
             bool(result.complete[k]), bool(result.stopped[k]), int(result.status[k]))
            for k in range(len(result))]


def _excludes(a: list, b: list) -> bool:
    """Independent of dlx: options ``a`` and ``b`` cannot be in one solution together."""
    colors_a = {e[0] if isinstance(e, tuple) else e: e[1] if isinstance(e, tuple) else None
                for e in a}
    for e in b:
        name, color = (e[0], e[1]) if isinstance(e, tuple) else (e, None)
        if name in colors_a and (color is None or colors_a[name] != color):
            return True
    return False


# ----- dlx: a worked example ------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_worked_example(backend):
    problem = ExactCover([["A", "D"], ["E", "F", "C"], ["B", "G"], ["A", "B"], ["C", "D"],
                          ["E", "F", "G"], ["B", "C", "D"]])
    assert list(problem.solutions()) == [[0, 1, 2], [3, 4, 5]]
    result = problem.solve_batch([[], [0], [1, 3], [0, 3], [4], [6]], limit=None,
                                 backend=backend)
    assert result.backend == backend
    assert [result.solution(k) for k in range(6)] == [
        [0, 1, 2], [0, 1, 2], None, None, [3, 4, 5], None]
    assert result.found.tolist() == [2, 1, 0, 0, 1, 0]
    assert result.conflict.tolist() == [False, False, False, True, False, False]
    assert result.conflicting.tolist() == [-1, -1, -1, 3, -1, -1]
    assert result.status.tolist() == [Status.COMPLETE] * 3 + [Status.CONFLICT] + [
        Status.COMPLETE] * 2
    assert result.complete.all() and not result.stopped.any() and not result.timed_out.any()
    # An option forced twice is an error now (it was a conflict of the option with itself).
    with pytest.raises(ForcedOptionError, match=r"forced\[6\]: option 2 is forced twice"):
        problem.solve_batch([[], [0], [1, 3], [0, 3], [4], [6], [2, 2]], limit=None,
                            backend=backend)
    one = problem.solve_batch([[]], backend=backend)  # the default limit is 1
    assert one.found.tolist() == [1] and one.status.tolist() == [Status.LIMIT]
    assert one.status.tolist() == [codes.LIMIT] and not one.complete.any()


@pytest.mark.parametrize("backend", BACKENDS)
def test_colors_conflict_unless_they_agree(backend):
    """A forced color on a secondary item hides the options that disagree (purify): they
    cannot be forced after it, though none of their items is covered."""
    problem = ExactCover([["p0", Colored("s", "red")], ["p1", "s"], ["p1", Colored("s", "blue")],
                          ["p1", Colored("s", "red")]], secondary=["s"])
    forced = [[0, 1], [1, 0], [0, 2], [2, 0], [0, 3], [3, 0]]
    result = problem.solve_batch(forced, backend=backend)
    assert result.conflict.tolist() == [True, True, True, True, False, False]
    assert result.conflicting.tolist() == [1, 0, 2, 0, -1, -1]
    assert [result.solution(k) for k in (4, 5)] == [[0, 3], [0, 3]]


@pytest.mark.parametrize("backend", BACKENDS)
def test_csr_input_and_budget(backend):
    problem = ExactCover([["A", "D"], ["E", "F", "C"], ["B", "G"], ["A", "B"], ["C", "D"],
                          ["E", "F", "G"], ["B", "C", "D"]])
    by_lists = problem.solve_batch([[0], [], [4]], limit=None, backend=backend)
    by_csr = problem.solve_batch(indptr=[0, 1, 1, 2], indices=[0, 4], limit=None,
                                 backend=backend)
    assert _batch_rows(by_lists) == _batch_rows(by_csr)
    strided = problem.solve_batch(indptr=np.array([0, 9, 1, 9, 1, 9, 2])[::2],
                                  indices=np.array([0, 9, 4])[::2], limit=None, backend=backend)
    assert _batch_rows(strided) == _batch_rows(by_lists)  # views, not contiguous arrays
    stopped = problem.solve_batch([[]], limit=None, max_nodes=2, backend=backend)
    assert stopped.stopped.tolist() == [True] and stopped.nodes.tolist() == [2]
    assert stopped.status.tolist() == [Status.MAX_NODES] and not stopped.timed_out.any()


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_input(backend):
    """Bad arguments raise ArgumentError (bad forced options: ForcedOptionError) naming
    the culprit, as a single search does, on every backend."""
    with pytest.warns(NoPrimaryItemWarning):
        problem = ExactCover([["a", "x"], ["b"], ["x"]], secondary=["x"])

    def batch(*args, **kwargs):
        return problem.solve_batch(*args, backend=backend, **kwargs)

    with pytest.raises(ForcedOptionError, match=r"forced\[1\]: option 3 is not in range"):
        batch([[0], [3]])
    with pytest.raises(ForcedOptionError, match=r"forced\[0\]: option -1 is not in range"):
        batch([[-1]])
    with pytest.raises(ForcedOptionError, match=r"forced\[1\]: option 2 has no primary item"):
        batch([[1], [2]])
    with pytest.raises(ForcedOptionError, match=r"forced\[1\]: option 0 is forced twice"):
        batch([[1], [0, 1, 0]])
    with pytest.raises(ForcedOptionError, match=r"forced\[0\]: option 0.5 is not an integer"):
        batch([[0.5]])
    with pytest.raises(ForcedOptionError, match="iterable of lists"):
        batch(3)
    with pytest.raises(ForcedOptionError, match="option indices"):
        batch([[0], "01"])
    with pytest.raises(ArgumentError, match="indptr"):
        batch(indptr=[0, 2], indices=[0])
    with pytest.raises(ArgumentError, match="not both"):
        batch([[0]], indptr=[0, 1], indices=[0])
    with pytest.raises(ArgumentError, match="give forced"):
        batch()
    with pytest.raises(ArgumentError, match="limit must be at least 1, got 0"):
        batch([[0]], limit=0)
    with pytest.raises(ArgumentError, match="max_nodes must be at least 0, got -1"):
        batch([[0]], max_nodes=-1)
    with pytest.raises(ArgumentError, match="timeout"):
        batch([[0]], timeout=float("nan"))
    with pytest.raises(ArgumentError, match="backend"):
        problem.solve_batch([[0]], backend="fortran")
    assert len(batch([])) == 0
    huge = batch([[0], []], limit=2**70, max_nodes=2**70)  # huge budgets: unbounded
    assert huge.status.tolist() == [Status.COMPLETE] * 2 and huge.found.tolist() == [1, 1]


@pytest.mark.parametrize("kernel_ns", [kernel_list, kernel_bytes], ids=["list", "bytes"])
def test_arrays_end_pristine(kernel_ns):
    """Each instance undoes its search and its forced options, so the next one starts
    from the problem as built: checked on the arrays after a batch ending in every way."""
    from dlx.problems import word_rectangle

    problem = word_rectangle(["ab", "cd", "ac", "bd", "aa", "ca", "ad", "bc"])
    links = problem.links
    inactive = 128 if kernel_ns is kernel_bytes else INACTIVE
    assert inactive == kernel_ns.INACTIVE
    length = links.arrays.LEN.copy()
    length[0] = inactive
    A = links.arrays
    pristine = [A.U.tolist(), A.D.tolist(), A.COLOR.tolist(), length.tolist(), A.LL.tolist(),
                A.RL.tolist()]
    U, D, COLOR, LEN, LL, RL = (a[:] for a in pristine)
    if kernel_ns is kernel_bytes:
        LEN = bytearray(LEN)
    n = len(problem)
    # [0, 0] repeats an option: solve_batch refuses it before the kernel runs (see
    # test_bad_input), but the kernel itself must see it as a conflict and undo it.
    forced = [[], [0], [0, 1], [1, 0], [n - 1], [0, 0], [2, n - 1], [1, n], [0, -1]]
    options = [k for f in forced for k in f]
    indptr = np.cumsum([0] + [len(f) for f in forced]).tolist()
    width = links.n_primary
    for stop, node_stop in ((1, 1 << 62), (1 << 62, 1 << 62), (2, 3)):
        records = []
        for slice_nodes in (1 << 62, 1, 2, 5):  # one call; or resumed after every few nodes
            out = [0] * (len(forced) * (record.B_FIRST + width))
            regs = [0] * N_REGS
            regs[REG_PRIMARY_END] = links.n_primary + 1
            choice = [0] * (links.n_primary + 1)
            S = links.arrays._replace(U=U, D=D, TOP=links.arrays.TOP.tolist(), COLOR=COLOR,
                                      LEN=LEN, LL=LL, RL=RL, CHOICE=choice, REG=regs,
                                      FORCING=links.forcing_node.tolist())
            where = [0, 0, 0, -1]  # the state kept between calls: choice, regs and this
            calls = 1
            while kernel_ns.search_batch(S, options, indptr, out, where, node_stop, stop,
                                         width, slice_nodes):
                calls += 1
            assert (calls == 1) == (slice_nodes == 1 << 62)
            assert where == [len(forced), 0, 0, len(forced) - 2]  # the first INVALID
            records.append(out)
            assert [U, D, COLOR, list(LEN), LL, RL] == pristine
        assert all(r == records[0] for r in records)  # slices change nothing
        statuses = records[0][record.B_STATUS :: record.B_FIRST + width]
        assert statuses[-2:] == [codes.INVALID] * 2  # an option past the end, or negative
        assert statuses[5] == codes.CONFLICT  # [0, 0]: the option clashes with itself
        assert records[0][5 * (record.B_FIRST + width) + record.B_FIRST] == 0
        assert codes.CONFLICT in statuses and len(set(statuses)) >= 3


# ----- dlx: random problems against searches one at a time ------------------------------


@st.composite
def batches(draw):
    options, primary, secondary = draw(st.one_of(xcc_problems(), shared_color_problems()))
    problem = _problem(options, primary, secondary)
    usable = [k for k in range(len(problem)) if k not in set(problem.dropped)]
    # distinct options: forcing one twice is a conflict here (see test_worked_example)
    forced = st.lists(st.sampled_from(usable), max_size=3, unique=True) if usable \
        else st.just([])
    instances = draw(st.lists(forced, max_size=6))
    limit = draw(st.sampled_from([1, 2, None]))
    max_nodes = draw(st.sampled_from([None, None, 1, 3]))
    return (options, primary, secondary), problem, instances, limit, max_nodes


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=250, deadline=None)
@given(batches())
def test_random_batches_equal_single_searches(backend, case):
    (options, primary, secondary), problem, instances, limit, max_nodes = case
    result = problem.solve_batch(instances, limit=limit, max_nodes=max_nodes, backend=backend)
    expected = [_reference(problem, f, limit, max_nodes) for f in instances]
    assert _batch_rows(result) == expected
    everything = brute_force(options, primary, secondary)
    for k, forced in enumerate(instances):
        clash = any(_excludes(options[a], options[b]) for a, b in combinations(forced, 2))
        assert bool(result.conflict[k]) == clash
        if result.complete[k]:  # the exact count: the solutions that hold every forced option
            assert result.found[k] == sum(set(forced) <= set(s) for s in everything)
        if result.solution(k) is not None:
            assert set(forced) <= set(result.solution(k)) and problem.is_solution(
                result.solution(k))


@pytest.mark.parametrize("kern", PYTHON_KERNELS, ids=lambda k: k.name)
@settings(max_examples=60, deadline=None)
@given(batches())
def test_random_batches_with_each_python_kernel(kern, case):
    """A batch on a pinned kernel (the python batch driver, one search per instance)
    equals the python backend's single searches, whichever kernel runs it."""
    _, problem, instances, limit, max_nodes = case
    if (problem.links.colored and kern.restrict) or (
            kern.inactive == 128 and problem.links.max_len >= 128):
        return  # Algorithm X knows no colors; a bytearray holds lengths below 128
    result = problem.solve_batch(instances, limit=limit, max_nodes=max_nodes,
                                 backend=pinned(kern))
    assert result.backend == kern.name
    assert _batch_rows(result) == [_reference(problem, f, limit, max_nodes) for f in instances]


# ----- sudoku ---------------------------------------------------------------------------


LEETCODE = load_named()["leetcode-37"]
HARD1 = load_named()["norvig-hard1"]  # many solutions
CLASH = "5.5" + "." * 78
NO_SOLUTION_4 = "12.....4..3....."  # r1c3 has no candidate, and no two givens clash
NORVIG_IMPOSSIBLE = (".....5.8....6.1.43..........1.5........1.6...3......."
                     "553.....61........4.........")


def _lines(path: Path, n: int) -> list[str]:
    if not path.exists():
        pytest.skip(f"{path} is not there")
    return [s for s in path.read_text().split("\n") if s and not s.startswith("#")][:n]


def _one_at_a_time(puzzles, **kwargs) -> list:
    out = []
    for p in puzzles:
        try:
            out.append(solve_string(p, **kwargs))
        except SudokuError as e:
            out.append(e)
    return out


def _same(got: list, expected: list) -> None:
    assert [type(x) for x in got] == [type(x) for x in expected]
    assert [str(x) for x in got] == [str(x) for x in expected]


def _puzzles() -> list[str]:
    p4 = ["1..." + "..3." + ".4.." + "...2", "." * 16, NO_SOLUTION_4, "1.1" + "." * 13]
    drawn = "\n".join(LEETCODE[i : i + 9] for i in range(0, 81, 9))  # a drawn grid
    bad = [LEETCODE[:-1], LEETCODE[:9] + "x" + LEETCODE[10:], LEETCODE[:40] + "é" + LEETCODE[41:],
           "", "1" * 82]
    p9 = [LEETCODE, HARD1, CLASH, NORVIG_IMPOSSIBLE, drawn, LEETCODE.replace(".", "0")]
    return p4 + p9 + bad + _lines(GENERATED_16, 3) + _lines(DATA / "norvig_top95.txt", 20)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("unique", [False, True])
def test_solve_many_equals_solve_string(backend, unique):
    puzzles = _puzzles()
    got = solve_many(puzzles, unique=unique, backend=backend)
    _same(got, _one_at_a_time(puzzles, unique=unique, backend=backend))
    kinds = {type(x).__name__ for x in got}
    assert kinds >= {"str", "ClashError", "NoSolutionError", "ShapeError", "SymbolError"}
    assert ("MultipleSolutionsError" in kinds) == unique


@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_many_budget_and_alphabet(backend):
    inkala = load_named()["inkala-2012"]
    _same(solve_many([inkala, LEETCODE], max_nodes=5, backend=backend),
          _one_at_a_time([inkala, LEETCODE], max_nodes=5, backend=backend))
    custom = ("1..." + "..3." + ".4.." + "...2").translate(str.maketrans("1234", "ABCD"))
    assert solve_many([custom, "A..." * 4], alphabet="ABCD", backend=backend)[0] == \
        "ACBDDBCABDACCADB"
    _same(solve_many([custom], alphabet="ABC", backend=backend),
          _one_at_a_time([custom], alphabet="ABC"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_count_many_equals_count_solutions(backend):
    puzzles = [HARD1, LEETCODE, "." * 16, CLASH, NO_SOLUTION_4, "x", NORVIG_IMPOSSIBLE]
    for limit in (None, 100):
        if limit is None:
            puzzles = puzzles[1:]  # HARD1 has too many solutions to count them all
        got = count_many(puzzles, limit, backend=backend)
        expected = []
        for p in puzzles:
            try:
                expected.append(count_solutions(p, limit))
            except SudokuError as e:
                expected.append(e)
        _same(got, expected)
    assert count_many(["." * 16], backend=backend) == [288]
    stopped = count_many([HARD1], max_nodes=10, backend=backend)[0]
    assert type(stopped).__name__ == "SearchStoppedError" and "10 nodes" in str(stopped)


# ----- strategies in batches ------------------------------------------------------------


STRATEGIES = ("plain", "learn", "auto")


def _verified(puzzles: list[str], answers: list) -> None:
    """Every answer that is a grid solves its puzzle."""
    for puzzle, answer in zip(puzzles, answers):
        if isinstance(answer, str):
            geo, values = parse_string(puzzle)
            assert is_solution(geo, values, parse_string(answer)[1]), puzzle


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("unique", [False, True])
def test_solve_many_takes_each_strategy(backend, unique):
    """Under every strategy a batch answers each puzzle as ``solve_string`` does with that
    strategy (the same grid, or the same error), every grid verified; the strategies
    differ only in which of several solutions comes first."""
    puzzles = _puzzles()
    kinds = None
    for strategy in STRATEGIES:
        got = solve_many(puzzles, unique=unique, backend=backend, strategy=strategy)
        _same(got, _one_at_a_time(puzzles, unique=unique, backend=backend, strategy=strategy))
        _verified(puzzles, got)
        assert kinds is None or [type(x) for x in got] == kinds
        kinds = [type(x) for x in got]
    _same(solve_many(puzzles, unique=unique, backend=backend, strategy="plain"),
          solve_many(puzzles, unique=unique, backend=backend))  # auto: below 25x25, plain


@pytest.mark.parametrize("backend", BACKENDS)
def test_count_many_takes_each_strategy(backend):
    puzzles = [HARD1, LEETCODE, "." * 16, CLASH, NO_SOLUTION_4, "x", NORVIG_IMPOSSIBLE,
               *_lines(DATA / "serg_benchmark.txt", 5)]
    counts = {strategy: count_many(puzzles, 100, backend=backend, strategy=strategy)
              for strategy in STRATEGIES}
    for strategy, got in counts.items():
        expected = []
        for p in puzzles:
            try:
                expected.append(count_solutions(p, 100, backend=backend, strategy=strategy))
            except SudokuError as e:
                expected.append(e)
        _same(got, expected)
    _same(counts["learn"], counts["plain"])
    assert counts["learn"][:3] == [100, 1, 100]
    stopped = count_many([HARD1], max_nodes=10, backend=backend, strategy="learn")[0]
    assert type(stopped).__name__ == "SearchStoppedError" and "10 nodes" in str(stopped)


def _solved_25() -> str:
    """A 25x25 puzzle with a unique solution and few blanks (quick on any path)."""
    grid = solve_string("." * 625, strategy="plain", backend="numba")
    return "".join("." if k % 7 == 3 else ch for k, ch in enumerate(grid))


@needs_numba
def test_auto_searches_large_boards_the_hard_way(monkeypatch):
    """``auto`` sends 25x25 puzzles (and only them) through the hard strategy's own path,
    the one ``solve_string`` takes, once the plain search's head start has not decided
    them (an easy one is decided there); ``plain`` never; ``hard`` always."""
    import sudoku.batch
    import sudoku.hard

    calls: list[int] = []
    hard = sudoku.batch.solve_hard

    def counted(geo, values, **kw):
        calls.append(geo.side)
        return hard(geo, values, **kw)

    monkeypatch.setattr(sudoku.batch, "solve_hard", counted)
    big = _solved_25()
    puzzles = [LEETCODE, big, *_lines(GENERATED_16, 2)]
    for strategy, head, sides in (("auto", None, []), ("auto", 1, [25]), ("plain", 1, []),
                                  ("learn", None, [9, 25, 16, 16])):
        calls.clear()
        with monkeypatch.context() as patch:
            if head is not None:  # a head start too short to decide the 25x25 puzzle
                patch.setattr(sudoku.hard, "HEAD_NODES", head)
            got = solve_many(puzzles, strategy=strategy, unique=True, backend="numba")
        assert sorted(calls) == sorted(sides), strategy
        _verified(puzzles, got)
        assert got[1] == solve_string(big, strategy="plain", backend="numba")


def test_batch_strategy_errors():
    message = "strategy must be one of 'auto', 'plain', 'learn', got 'fast'"
    for call in (solve_many, count_many):
        for puzzles in ([], [LEETCODE]):
            with pytest.raises(SudokuError, match=message) as bad:
                call(puzzles, strategy="fast")
            assert type(bad.value).__name__ == "ArgumentError"
        assert call([LEETCODE], strategy=None) == call([LEETCODE])  # None is auto, as in dlx
    with pytest.raises(SudokuError, match=message):
        solve_string(LEETCODE, strategy="fast")
    inkala = load_named()["inkala-2012"]
    _same(solve_many([inkala], max_nodes=3, strategy="learn"),
          _one_at_a_time([inkala], max_nodes=3, strategy="learn"))


def test_batch_strategy_on_an_executor():
    from concurrent.futures import ThreadPoolExecutor

    puzzles = [HARD1, LEETCODE, CLASH]
    with ThreadPoolExecutor(2) as pool:
        _same(solve_many(puzzles, strategy="learn", executor=pool),
              solve_many(puzzles, strategy="learn"))
        _same(count_many(puzzles, 5, strategy="learn", executor=pool),
              count_many(puzzles, 5, strategy="learn"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_count_many_against_tdoku(backend):
    """Serg's benchmark: every puzzle has several solutions, counted by tdoku."""
    puzzles = _lines(DATA / "serg_benchmark.txt", 40)
    counts = [int(s) for s in _lines(DATA / "serg_benchmark_counts.txt", 40)]
    assert count_many(puzzles, backend=backend) == counts


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("box", [2, 3, 4])
def test_nodes_and_updates_equal_the_reduced_problem(backend, box):
    """Forcing the givens on the empty grid leaves exactly Knuth's reduced problem: the
    same search, node for node, as :class:`sudoku.reduction.Reduction`'s."""
    if box == 2:
        puzzles = ["1..." + "..3." + ".4.." + "...2", "." * 16, "1" + "." * 15]
    elif box == 3:
        puzzles = [*_lines(DATA / "norvig_top95.txt", 30), LEETCODE, HARD1]
    else:
        puzzles = _lines(GENERATED_16, 4)
    parsed = [parse_string(p) for p in puzzles]
    result = empty_grid_problem(box).solve_batch(
        [given_options(geo, values) for geo, values in parsed], limit=2, backend=backend)
    for k, (geo, values) in enumerate(parsed):
        reduced = Reduction(geo, values).problem
        assert len(list(reduced.solutions(2, backend="python"))) == result.found[k]
        s = reduced.stats
        assert (s.nodes, s.updates, s.max_level) == (
            result.nodes[k], result.updates[k], result.max_level[k])


def test_are_solutions_agrees_with_is_solution():
    rng = np.random.default_rng(4)
    for box in (2, 3, 4):
        geo = geometry(box * box)
        (solved,) = solve_many(["." * geo.cells])
        grid = np.array(parse_string(solved)[1])
        side = geo.side
        grids, puzzles = [], []
        for _ in range(300):
            g = grid.copy()
            perm = rng.permutation(side) + 1  # relabel: still a solution
            g = perm[g - 1]
            kind = rng.integers(6)
            if kind == 1:  # one cell changed
                g[rng.integers(len(g))] = rng.integers(0, side + 2)
            elif kind == 2:  # two cells swapped
                i, j = rng.integers(len(g), size=2)
                g[i], g[j] = g[j], g[i]
            elif kind == 3:  # a Latin square that breaks the boxes: shifted rows
                g = np.array([(r + c) % side + 1 for r in range(side) for c in range(side)])
            p = np.where(rng.random(len(g)) < 0.3, g, 0)
            if kind == 4:  # a given that the grid does not keep
                k = int(rng.integers(len(g)))
                p[k] = g[k] % side + 1
            grids.append(g)
            puzzles.append(p)
        got = are_solutions(geo, puzzles, grids)
        expected = [is_solution(geo, p.tolist(), g.tolist()) for p, g in zip(puzzles, grids)]
        assert got.tolist() == expected
        assert 0 < sum(expected) < len(expected)


@needs_numba
def test_own_process_loads_without_scipy():
    """The command-line tools load the kernel without numba's import of scipy.linalg."""
    import subprocess
    import sys

    code = ("import sys; from dlx.compiled import compiled, own_process; own_process(); "
            "import numba; compiled('search_batch'); loaded = 'scipy.linalg' in sys.modules; "
            "import importlib.util; has = importlib.util.find_spec('scipy') is not None; "
            "has and __import__('scipy.linalg'); print(loaded, has)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=True).stdout.split()
    assert out[0] == "False"  # and scipy itself still imports afterwards (when installed)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", ["royle_17clue", "magictour_top1465", "gecode_16x16"])
def test_solve_many_matches_the_reference_solutions(backend, name):
    """The shared sets' solutions were found by other solvers (tdoku, qqwing, DLX1)."""
    n = 200 if backend == "numba" else 40
    puzzles = _lines(DATA / f"{name}.txt", n)
    expected = _lines(DATA / "solutions" / f"{name}.txt", n)
    assert solve_many(puzzles, unique=True, backend=backend) == expected


def test_chunks_change_nothing(monkeypatch):
    import sudoku.batch

    puzzles = _puzzles()
    whole = solve_many(puzzles, unique=True)
    counts = count_many(puzzles, 5)
    monkeypatch.setattr(sudoku.batch, "_CHUNK", 3)
    _same(solve_many(puzzles, unique=True), whole)
    _same(count_many(puzzles, 5), counts)


# ----- dlx: the compiled batch's working arrays -----------------------------------------


def _givens(puzzle: str) -> list[int]:
    """The options of a 9x9 puzzle's givens in the empty grid's problem, clashes kept."""
    return [cell * 9 + v - 1 for cell, v in enumerate(parse_string(puzzle)[1]) if v]


def _nines() -> list[list[int]]:
    """Givens of 9x9 puzzles that end in every way: solved, clashing, no solution."""
    return [_givens(p) for p in (LEETCODE, HARD1, CLASH, NORVIG_IMPOSSIBLE,
                                 *_lines(DATA / "norvig_top95.txt", 12))]


def test_records_are_as_wide_as_the_largest_solution():
    """A Sudoku solution has 81 options (324 primary items, 4 in every option): once the
    records were 324 wide, because the fewest primary items per option came out as 1."""
    result = empty_grid_problem(3).solve_batch([[]])
    assert result.table.shape == (1, record.B_FIRST + 81)
    assert result.options.shape == (1, 81) and result.solution(0) == result.options[0].tolist()


def test_solution_array_is_the_sorted_solution():
    """``solution_array`` is ``solution`` as an int64 array (None where none was found)."""
    result = empty_grid_problem(3).solve_batch(_nines())
    for k in range(len(result)):
        got, listed = result.solution_array(k), result.solution(k)
        assert (got is None) == (listed is None) == (not result.found[k])
        if got is not None:
            assert got.dtype == np.int64 and got.tolist() == listed == sorted(listed)


def _pool(problem: ExactCover) -> list:
    """The compiled batch's pool of working states for ``problem`` (see
    ``dlx.compiled.NumbaBackend._workspace``): each pristine between calls."""
    return problem.links.converted.get("numba-batch", [])


def _on_links(problem: ExactCover) -> ExactCover:
    """``problem`` with its compiled batches on the links, not on bit words (which a
    Sudoku takes: ``dlx.kernels.words``, tested in ``tests/dlx/kernels/test_words.py``)."""
    problem.links.converted["numba-words"] = False
    problem.links.converted.pop("numba-words-pool", None)
    return problem


@needs_numba
def test_a_failed_call_drops_the_working_arrays(monkeypatch):
    """A call that stops midway may leave the arrays half-covered: the next call must
    not search them. The kernel is swapped for one that covers an item, then fails."""
    import dlx.compiled

    problem = _on_links(to_exact_cover("." * 81, givens="select"))  # its own links
    puzzles = _nines()
    expected = _batch_rows(problem.solve_batch(puzzles, limit=2, backend="numba"))
    pool = _pool(problem)
    assert pool and all(is_pristine(problem.links, S) for S in pool)
    real = dlx.compiled.entry
    spoiled = []

    def half_done(S, *rest):
        algorithm_c.cover(1, S.U, S.D, S.TOP, S.COLOR, S.LEN, S.LL, S.RL)
        spoiled.append(S)
        raise KeyboardInterrupt

    def entry(name, *twin):
        return half_done if name == "search_batch" else real(name, *twin)

    monkeypatch.setattr(dlx.compiled, "entry", entry)
    problem.links.converted.pop("numba-batch-setup")  # the entry point is looked up anew
    with pytest.raises(KeyboardInterrupt):
        problem.solve_batch(puzzles, backend="numba")
    monkeypatch.setattr(dlx.compiled, "entry", real)
    problem.links.converted.pop("numba-batch-setup")
    (S,) = spoiled
    assert not is_pristine(problem.links, S)
    assert all(T is not S for T in _pool(problem))  # not given back to the pool
    assert _batch_rows(problem.solve_batch(puzzles, limit=2, backend="numba")) == expected
    assert all(is_pristine(problem.links, T) for T in _pool(problem))


@needs_numba
def test_an_invalid_instance_raises_and_leaves_the_arrays_pristine():
    problem = _on_links(to_exact_cover("." * 81, givens="select"))  # its own links
    good = _nines()[:3]
    expected = _batch_rows(problem.solve_batch(good, backend="numba"))
    for bad, message in (([5, 729], "option 729 is not in range 0..728"),
                         ([-3], "option -3 is not in range 0..728"),
                         ([5, 5], "option 5 is forced twice")):
        with pytest.raises(ForcedOptionError, match=rf"forced\[2\]: {message}"):
            problem.solve_batch([*good[:2], bad, good[2]], backend="numba")
        assert _pool(problem) and all(is_pristine(problem.links, S) for S in _pool(problem))
        assert _batch_rows(problem.solve_batch(good, backend="numba")) == expected


@needs_numba
def test_threads_search_one_problem_at_once():
    """Each thread has its own working arrays (the kernel runs without the GIL)."""
    from concurrent.futures import ThreadPoolExecutor

    problem = empty_grid_problem(3)
    puzzles = _nines()
    expected = _batch_rows(problem.solve_batch(puzzles, limit=2, backend="numba"))
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda _: _batch_rows(problem.solve_batch(
            puzzles, limit=2, backend="numba")), range(16)))
    assert all(run == expected for run in runs)


@needs_numba
@pytest.mark.parametrize("nodes", [1, 3, 50])
@pytest.mark.parametrize("on", ["words", "links"])
def test_compiled_batches_in_slices_give_the_same_records(monkeypatch, nodes, on):
    """The compiled batch returns to Python every few nodes and resumes; nothing changes."""
    problem = empty_grid_problem(3) if on == "words" else _on_links(
        to_exact_cover("." * 81, givens="select"))
    puzzles = _nines()
    expected = {limit: _batch_rows(problem.solve_batch(puzzles, limit=limit, max_nodes=400,
                                                       backend="numba")) for limit in (1, 3)}
    slices = tiny_slices(monkeypatch, nodes)
    for limit in (1, 3):
        got = problem.solve_batch(puzzles, limit=limit, max_nodes=400, backend="numba")
        assert _batch_rows(got) == expected[limit]
        assert slices[-1].calls > len(puzzles) // 2  # it really ran in many slices


@needs_numba
@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT delivered to this process")
def test_ctrl_c_interrupts_a_compiled_batch():
    """Counting every completion of a nearly empty grid never ends; Ctrl-C must get
    through within a slice, and the next search must find the arrays intact."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    count_solutions(LEETCODE, backend="numba")  # load the kernel before timing
    start = time.perf_counter()
    with ctrl_c_after(0.3), pytest.raises(KeyboardInterrupt):
        count_solutions("1" + "." * 80, backend="numba")
    assert time.perf_counter() - start < 5.0
    assert count_solutions(LEETCODE, backend="numba") == 1
    assert solve_string(HARD1, backend="numba") == solve_string(HARD1, backend="python")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_timeout_stops_the_instance_under_way_and_the_rest(backend):
    problem = empty_grid_problem(3)
    endless = "1" + "." * 80  # counting its completions would take years
    puzzles = [LEETCODE, endless, CLASH, HARD1]
    start = time.perf_counter()
    result = problem.solve_batch([_givens(p) for p in puzzles], limit=None, timeout=0.3,
                                 backend=backend)
    assert time.perf_counter() - start < 5.0
    assert result.status.tolist() == [Status.COMPLETE, Status.TIMEOUT, Status.CONFLICT,
                                      Status.TIMEOUT]
    assert result.timed_out.tolist() == [False, True, False, True] and result.cut == 1
    assert result.stopped.tolist() == [False, True, False, True]
    assert result.complete.tolist() == [True, False, True, False]
    assert result.found[0] == 1 and result.nodes[1] > 0 and result.nodes[3] == 0
    again = problem.solve_batch([_givens(p) for p in (LEETCODE, HARD1)], limit=2,
                                backend=backend)  # nothing was left half-covered
    assert again.found.tolist() == [1, 2] and not again.stopped.any()
    with pytest.raises(ArgumentError, match="timeout must be at least 0 seconds, got -1"):
        problem.solve_batch([[]], timeout=-1, backend=backend)
    with pytest.raises(SudokuError, match="stopped by timeout"):
        count_solutions(endless, timeout=0.1, backend=backend)
    with pytest.raises(SudokuError, match="stopped by max_nodes"):
        count_solutions(endless, timeout=60, max_nodes=2000, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_threads_solve_sudokus_at_once(backend):
    """sudoku.solve shares one cached problem per size; it keeps no state on it."""
    from concurrent.futures import ThreadPoolExecutor

    puzzles = _lines(DATA / "norvig_top95.txt", 24)
    expected = _lines(DATA / "solutions" / "norvig_top95.txt", 24)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: solve_string(p, backend=backend), puzzles * 3))
    assert got == expected * 3
