"""The learning search (``strategy="learn"``, :mod:`dlx.kernels.cdcl` driven by
:mod:`dlx.learning`): exactly the brute-force solutions, each once, with colors and
secondary items; the same run on both backends; the shared files' counts; the state's
invariants (:func:`dlx.kernels.cdcl.check.check_learner`) after every step; forced options,
budgets and bad arguments as on every other path."""

from __future__ import annotations

import inspect
import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ArgumentError, ExactCover, NoPrimaryItemWarning, SearchStoppedError, Status, slices
from dlx.kernels.cdcl import reduce, rephase, restart, state
from dlx.kernels.cdcl import search as learner
from dlx.kernels.cdcl.check import check_learner
from dlx.kernels.cdcl.clauses import add_clause, use_clause
from dlx.kernels.cdcl.state import Learner
from dlx.learning import forced_clash, problem_lists
from dlx.problems import PENTOMINOES, langford, queens, rectangle, tiling
from tests.helpers.backends import BACKENDS, needs_numba
from tests.helpers.knuth import DATA, NODE_LIMIT, figures
from tests.helpers.oracle import brute_force, violation
from tests.helpers.random_problems import as_set, build, xcc_problems


def _state(problem: ExactCover, seed: int | None) -> Learner:
    """A fresh learning state of ``problem``, as ``solutions(strategy="learn")`` makes it."""
    m = problem.matrix
    return state.allocate(problem_lists(m.n_items, m.n_primary, m.indptr, m.items, m.colors), seed)


def _hurried(S: Learner, restarts: int = 8, rephasings: int = 3,
             learned: int = 12) -> Learner:
    """``S`` restarting every ``restarts`` conflicts (times Luby's sequence), rephasing
    every ``rephasings`` (times its count) and reducing past ``learned`` clauses: every
    path of the kernel taken within a small enumeration."""
    S.REG[state.REG_RESTART_UNIT] = S.REG[state.REG_NEXT_RESTART] = restarts
    S.REG[state.REG_REPHASE_UNIT] = S.REG[state.REG_NEXT_REPHASE] = rephasings
    S.REG[state.REG_MAX_LEARNED] = learned
    return S


def _both(problem: ExactCover, **kw) -> list[list[int]]:
    """The solutions of a learning search with ``kw``, the same run (solutions in the same
    order, decisions, assignments, conflicts) on the python and numba backends."""
    runs = []
    for backend in ("python", "numba"):
        search = problem.solutions(strategy="learn", backend=backend, **kw)
        found = list(search)
        s = search.stats
        runs.append((found, s.nodes, s.updates, s.conflicts, s.restarts, s.status))
    assert runs[0] == runs[1]
    return runs[0][0]


@settings(max_examples=80, deadline=None)
@given(xcc_problems(), st.sampled_from([None, 0, 7, -3]))
def test_learning_finds_exactly_the_solutions(spec, seed):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    expected = brute_force(options, primary, secondary)
    found = _both(problem, seed=seed)
    assert as_set(found) == expected and len(found) == len(expected)  # each once
    for s in found:
        assert violation(options, primary, secondary, s) is None
    assert problem.count(strategy="learn", seed=seed, backend="python") == len(expected)
    first = problem.first(strategy="learn", seed=seed, backend="python")
    assert (first is None) == (not expected)
    if expected:
        assert frozenset(first) in expected
        assert problem.count(1, strategy="learn", backend="python") == 1


@settings(max_examples=40, deadline=None)
@given(xcc_problems(), st.data())
def test_learning_with_forced_options(spec, data):
    """Forced options belong to every solution; a clash is reported as on the plain path
    (status CONFLICT, the first option an earlier one excludes)."""
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    live = [k for k in range(len(problem)) if k not in problem.dropped]
    forced = data.draw(st.lists(st.sampled_from(live), unique=True, max_size=3)) if live else []
    plain = problem.solutions(forced=forced, backend="python")
    expected = {frozenset(s) for s in plain}
    learned = problem.solutions(forced=forced, strategy="learn", backend="python")
    found = list(learned)
    assert {frozenset(s) for s in found} == expected and len(found) == len(expected)
    assert learned.stats.status == plain.stats.status
    assert learned.stats.conflict == plain.stats.conflict


def test_known_counts():
    for problem, count in ((queens(8), 92), (langford(7), 52), (queens(6), 4),
                           (langford(8), 300)):
        assert problem.count(strategy="learn", backend="numba") == count
    assert queens(7).count(strategy="learn", backend="python") == 40


def test_counts_of_the_data_files():
    if not (DATA / "SOURCES.md").is_file():
        pytest.skip(f"{DATA} is absent")
    # Learning is no help on these (langford10, the pentominoes, word squares: many
    # conflicts each teaching little), so the larger trees are left to the plain search.
    rows = [row for row in figures() if row[2] < min(NODE_LIMIT, 11_000) and row[1] <= 2000]
    assert len(rows) > 5
    for name, solutions, _, _ in rows:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NoPrimaryItemWarning)
            problem = ExactCover.from_dlx((DATA / name).read_text())
        if problem.links.mcc:
            with pytest.raises(ArgumentError, match="without bounds or costs"):
                problem.count(strategy="learn", backend="numba")
            continue
        assert problem.count(strategy="learn", backend="numba") == solutions, name


@pytest.mark.slow
@pytest.mark.parametrize("problem", [
    queens(6), langford(7), tiling(rectangle(4, 5), {k: PENTOMINOES[k] for k in "LPUY"})],
    ids=["queens6", "langford7", "pentominoes4x5"])
def test_invariants_hold_after_every_slice(problem):
    """Knuth's sanity check between slices of a single conflict or decision, while the
    python kernel enumerates every solution (restarts, reductions at any level and
    blocking clauses included: short runs and a tiny budget of clauses)."""
    S = _hurried(_state(problem, 1))
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    check_learner(S)
    found = set()
    for _ in range(5_000):
        S.REG[state.REG_STOP_CONFLICTS] = S.REG[state.REG_CONFLICTS] + 1
        S.REG[state.REG_STOP_DECISIONS] = S.REG[state.REG_DECISIONS] + 1
        status = learner.cdcl(S)
        check_learner(S)
        if status == Status.LIMIT:
            solution = frozenset(np.flatnonzero(S.VAL == 1).tolist())
            assert problem.is_solution(sorted(solution)) and solution not in found
            found.add(solution)
            S.REG[state.REG_BLOCK] = 1
        elif status == Status.COMPLETE:
            break
    else:
        pytest.fail("the search did not end")
    assert len(found) == problem.count()
    assert S.REG[state.REG_RESTARTS] > 0 and S.REG[state.REG_DELETED] > 0
    assert S.REG[state.REG_REPHASES] > 0


def _count_to_the_end(S: Learner) -> int:
    """Every solution of ``S`` (begun), counted in calls without a budget, each blocked
    before the next; the search must end ``EXHAUSTED``."""
    count = 0
    S.REG[state.REG_STOP_CONFLICTS] = S.REG[state.REG_STOP_DECISIONS] = 1 << 62
    while (status := learner.cdcl(S)) == Status.LIMIT:
        count += 1
        S.REG[state.REG_BLOCK] = 1
    assert status == Status.COMPLETE
    return count


class _NonNegative(np.ndarray):
    """An array that fails on a negative index: the compiled kernel indexes without
    numba's wrap-around (:func:`dlx.jit._nonnegative_indexing`), where one would
    read or write outside the array."""

    def __getitem__(self, key):
        _check_index(key)
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        _check_index(key)
        super().__setitem__(key, value)


def _check_index(key) -> None:
    if isinstance(key, (int, np.integer)) and key < 0:
        raise AssertionError(f"negative index {key}")


def _refusing_negative_indices(S: Learner) -> Learner:
    """``S`` with every array viewed as a :class:`_NonNegative`."""
    return S._replace(**{name: getattr(S, name).view(_NonNegative) for name in S._fields})


@pytest.mark.slow
@pytest.mark.parametrize("problem", [
    queens(6), langford(7), tiling(rectangle(4, 5), {k: PENTOMINOES[k] for k in "LPUY"})],
    ids=["queens6", "langford7", "pentominoes4x5"])
def test_the_kernel_never_indexes_below_zero(problem):
    """The python kernel, on arrays that refuse a negative index, enumerates every
    solution with frequent restarts and reductions: the compiled twin, which does not
    wrap indices around, would have done the same without a stray access."""
    S = _state(problem, 2)
    S = _hurried(_refusing_negative_indices(S))
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    assert _count_to_the_end(S) == problem.count()
    assert S.REG[state.REG_RESTARTS] > 0 and S.REG[state.REG_DELETED] > 0
    assert S.REG[state.REG_SHRUNK] > 0
    assert S.REG[state.REG_REPHASES] > 0


@settings(max_examples=40, deadline=None)
@given(xcc_problems(), st.sampled_from([None, 0, 5]))
def test_the_kernel_never_indexes_below_zero_on_random_problems(spec, seed):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    S = _state(problem, seed)
    S = _hurried(_refusing_negative_indices(S), restarts=2, rephasings=1, learned=3)
    running = learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    count = _count_to_the_end(S) if running else 0
    assert count == len(brute_force(options, primary, secondary))


def _learned_clauses_hold(S: Learner, solutions: set[frozenset[int]]) -> None:
    """Every learned clause is true in every solution not yet found: learning,
    minimization and shrinking only derive, from the problem and from the clauses that
    block the solutions found."""
    for c in range(int(S.REG[state.REG_CLAUSES])):
        lits = S.CL_LITS[S.CL_START[c]:S.CL_START[c] + S.CL_SIZE[c]].tolist()
        for solution in solutions:
            assert any((lit >> 1 in solution) != (lit & 1) for lit in lits), (
                f"learned clause {c} {lits} is false in solution {sorted(solution)}")


def _enumerate_checking_clauses(S: Learner, solutions: set[frozenset[int]],
                                conflicts: int) -> None:
    """Enumerate every solution of ``S`` (begun), one conflict per slice, each found
    taken out of ``solutions``, and check the learned clauses after every slice."""
    for _ in range(conflicts):
        S.REG[state.REG_STOP_CONFLICTS] = S.REG[state.REG_CONFLICTS] + 1
        S.REG[state.REG_STOP_DECISIONS] = 1 << 62
        status = learner.cdcl(S)
        if status == Status.LIMIT:
            solutions.remove(frozenset(np.flatnonzero(S.VAL == 1).tolist()))
            S.REG[state.REG_BLOCK] = 1
        _learned_clauses_hold(S, solutions)
        if status == Status.COMPLETE:
            break
    else:
        pytest.fail("the search did not end")
    assert not solutions


@pytest.mark.slow
@pytest.mark.parametrize("problem", [queens(8), langford(7), tiling(
    rectangle(4, 5), {k: PENTOMINOES[k] for k in "LPUY"})], ids=["queens8", "langford7",
                                                                "pentominoes4x5"])
def test_shrunk_clauses_hold_in_every_solution(problem):
    """Shrinking replaces a level's literals by one (the level's own implication point);
    each clause so made, checked after every conflict, is still true in every solution,
    the count is right, and shrinking did take literals out."""
    solutions = {frozenset(s) for s in problem.solutions()}
    S = _state(problem, 3)
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    _enumerate_checking_clauses(S, solutions, 20_000)
    check_learner(S)
    assert S.REG[state.REG_SHRUNK] > 0


@settings(max_examples=60, deadline=None)
@given(xcc_problems(), st.sampled_from([None, 0, 5]))
def test_learned_clauses_hold_in_every_solution(spec, seed):
    """Against brute force: on random problems (colors included), every clause learned
    is true in every solution, at every conflict of a whole enumeration."""
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    solutions = set(brute_force(options, primary, secondary))
    S = _state(problem, seed)
    if learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.COMPLETE:
        assert not solutions
        return
    _enumerate_checking_clauses(S, solutions, 5_000)


def test_a_reduction_below_level_0_keeps_and_renumbers_the_reasons():
    """A reduction may come after any conflict: the learned clauses that are the reason of
    an option assigned are not deleted, whatever their LBD, and the options' ``RID``
    follow them to their new numbers (``check_learner`` reads every reason)."""
    S = _state(langford(8), 0)
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    S.REG[state.REG_MAX_LEARNED] = 1 << 40  # no reduction but ours
    reduced = 0
    while reduced < 20:
        S.REG[state.REG_STOP_CONFLICTS] = S.REG[state.REG_CONFLICTS] + 1
        S.REG[state.REG_STOP_DECISIONS] = 1 << 62
        status = learner.cdcl(S)
        if status == Status.LIMIT:
            S.REG[state.REG_BLOCK] = 1
            continue
        assert status == Status.MAX_NODES
        trail = S.TRAIL[:S.REG[state.REG_TRAIL_LEN]]
        reasons = {int(S.RID[v]) for v in trail if S.RKIND[v] == state.LEARNED and S.LVL[v] > 0}
        if not reasons or min(reasons) == 0:
            continue
        n = S.REG[state.REG_CLAUSES]
        S.CL_LBD[:n] = reduce.KEEP_LBD + 9  # all deletable: only locks save them
        S.CL_USED[:n] = 0
        literals = {c: S.CL_LITS[S.CL_START[c]:S.CL_START[c] + S.CL_SIZE[c]].tolist()
                    for c in reasons}
        reduce.reduce_clauses(S)
        check_learner(S)
        assert S.REG[state.REG_DELETED] > 0
        for v in trail:
            if S.RKIND[v] == state.LEARNED and S.LVL[v] > 0:
                c = int(S.RID[v])
                assert S.CL_LITS[S.CL_START[c]:S.CL_START[c] + S.CL_SIZE[c]].tolist() in (
                    literals.values())
        reduced += 1


def test_clause_database_is_reduced_and_stays_sound():
    """With a tiny budget of learned clauses the reduction runs many times; the count
    (each solution blocked by a clause that is never deleted) stays right and the
    invariants hold."""
    problem = langford(7)
    S = _state(problem, None)
    S.REG[state.REG_MAX_LEARNED] = 10
    S.REG[state.REG_RESTART_UNIT] = S.REG[state.REG_NEXT_RESTART] = 4
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    assert _count_to_the_end(S) == 52  # Langford pairs of 7
    assert S.REG[state.REG_DELETED] > 0
    check_learner(S)


def test_budgets_follow_the_one_rule():
    problem = queens(20)
    with pytest.raises(SearchStoppedError):
        problem.first(strategy="learn", max_nodes=3, backend="python")
    search = problem.solutions(strategy="learn", max_nodes=3, backend="python")
    assert list(search) == [] and search.stats.status is Status.MAX_NODES
    assert search.stats.nodes == 3
    search = problem.solutions(strategy="learn", timeout=0, backend="python")
    assert list(search) == [] and search.stats.status is Status.TIMEOUT
    assert problem.stats.status is Status.TIMEOUT  # the problem's last search


def test_limit_and_stats():
    problem = queens(8)
    search = problem.solutions(5, strategy="learn", backend="numba")
    assert len(list(search)) == 5 and search.stats.status is Status.LIMIT
    assert search.stats.solutions == 5 and search.stats.nodes > 0


@pytest.mark.parametrize("kw, message", [
    ({"learn": "yes"}, "learn must be True or False"),
    ({"strategy": "learn", "weighted": True}, "no weighted or lookahead"),
    ({"strategy": "learn", "lookahead": 2}, "no weighted or lookahead"),
    ({"strategy": "learn", "restarts": 10}, "no restarts"),
    ({"strategy": "learn", "workers": 2}, "single search"),
    ({"strategy": "learn", "order": "cost"}, "order"),
])
def test_bad_arguments(kw, message):
    problem = queens(6)
    call = problem.first if "restarts" in kw else problem.count
    if "order" in kw:
        call = problem.solutions
    with pytest.raises(ArgumentError, match=message):
        call(**kw)


def test_refused_for_multiplicities():
    problem = ExactCover([["a", "b"], ["a"], ["b"]], multiplicity={"a": (1, 2)})
    with pytest.raises(ArgumentError, match="without bounds or costs"):
        problem.first(strategy="learn")


def test_forced_clash_names_the_first_option():
    problem = ExactCover.from_dlx("a b c | x\na x:1\nb x:1\nc x:2\na\n")
    problem.first(strategy="learn", backend="python")
    lists = problem.links.converted["learning"]
    assert forced_clash(lists, [0, 1]) is None  # the same color: compatible
    assert forced_clash(lists, [0, 2]) == 2
    assert forced_clash(lists, [0, 3]) == 3
    assert problem.count(forced=[0, 1], strategy="learn") == 0  # c has no option left
    search = problem.solutions(forced=[1, 2], strategy="learn")
    assert list(search) == [] and search.stats.conflict == 2


@pytest.mark.slow
def test_a_minimal_25x25_sudoku():
    """One of the hard 25x25 puzzles (gecode #2: plain DLX does not solve it in 30 million
    nodes), solved and checked."""
    import sudoku
    from tests.helpers.datasets import SHARED

    path = SHARED / "sudoku" / "gecode_25x25.txt"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    puzzle = path.read_text().split()[2]
    problem = sudoku.to_exact_cover(puzzle)
    chosen = problem.first(strategy="learn", backend="numba", seed=0)
    assert chosen is not None and problem.is_solution(chosen)


def _watches(S: Learner, lit: int) -> list[int]:
    """The watches on literal ``lit``'s list, in the order they are visited."""
    start = int(S.WS[lit])
    return [int(S.WL[2 * p]) for p in range(start, start + int(S.WN[lit]))]


def test_a_watch_joins_the_end_of_its_list():
    """Clauses learned later are visited later (MiniSat's and CaDiCaL's order: over 216
    runs of the 25x25 puzzles, 207 solved within 10 s against 203 newest first); a full
    list moves with twice its room, and a reduction lays the lists out again oldest
    first."""
    S = _state(queens(6), None)
    lit = 2 * 5  # option 5 chosen
    others = [2 * v for v in range(6, 15)]
    for j, other in enumerate(others):
        S.LEARNT[0], S.LEARNT[1] = lit, other
        assert add_clause(S, 2, 2, 0) == j
        check_learner(S)
    assert _watches(S, lit) == [2 * j for j in range(9)]
    assert S.WC[lit] == 12 and S.WS[lit] >= 2 * len(S.VAL) * 4  # moved to the free end
    S.CL_LBD[:9] = reduce.KEEP_LBD  # kept by the reduction
    reduce.reduce_clauses(S)
    assert _watches(S, lit) == [2 * j for j in range(9)] and _watches(S, others[3]) == [7]
    assert S.WC[lit] == 9 + 4 + 4 and S.REG[state.REG_RELAYOUTS] == 1
    check_learner(S)


def test_no_room_to_move_a_watch_lays_the_lists_out_again():
    """A watch that cannot move for want of room at ``WL``'s end leaves its list whole;
    the option is propagated again after a relayout, and the enumeration is the same."""
    problem = langford(7)
    S = _state(problem, 0)
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    count = relayouts = 0
    S.REG[state.REG_MAX_LEARNED] = 1 << 40  # no reductions: every relayout is for room
    for _ in range(50_000):
        S.REG[state.REG_STOP_CONFLICTS] = S.REG[state.REG_CONFLICTS] + 1
        S.REG[state.REG_STOP_DECISIONS] = S.REG[state.REG_DECISIONS] + 1  # often stopped propagated
        S.REG[state.REG_WL_END] = len(S.WL) // 2 - 2  # the free end all but used up
        status = learner.cdcl(S)
        check_learner(S)
        if status == Status.LIMIT:
            count += 1
            S.REG[state.REG_BLOCK] = 1
        elif status == Status.COMPLETE:
            break
        relayouts = int(S.REG[state.REG_RELAYOUTS])
    else:
        pytest.fail("the search did not end")
    assert count == 52 and relayouts > 10


def test_no_room_for_a_clause_grows_the_arrays():
    """A learned clause that does not fit even after a reduction makes the kernel return
    FULL (never a write past the arena: a segfault under numba); the driver's larger
    arrays then take it, and the enumeration ends with the right count."""
    problem = queens(8)
    S = _state(problem, None)
    tiny = np.zeros(2, dtype=np.int64)
    S = S._replace(CL_START=tiny, CL_SIZE=tiny.copy(), CL_LBD=tiny.copy(),
                   CL_KEEP=tiny.copy(), CL_USED=tiny.copy(), CL_LITS=np.zeros(8, dtype=np.int64),
                   WL=np.zeros(2 * state.watch_room(2, len(S.VAL)), dtype=np.int64))
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    S.REG[state.REG_STOP_CONFLICTS] = S.REG[state.REG_STOP_DECISIONS] = 1 << 62
    found = full = 0
    while (status := learner.cdcl(S)) != Status.COMPLETE:
        if status == Status.NO_ROOM:
            full += 1
            S = state.grown(S)
            continue
        assert status == Status.LIMIT
        found += 1
        S.REG[state.REG_BLOCK] = 1
        check_learner(S)
    assert found == 92 and full > 0 and len(S.CL_LITS) > 8
    assert 0 < S.REG[state.REG_MAX_LEARNED] <= len(S.CL_START)  # grown at each reduction, capped


def test_rephasing_alternates_the_best_phases_and_flipped_ones():
    """The saved phases become in turn the best ones (where known) and their opposites;
    each time the target phases are forgotten and the next rephasing is one unit further
    off than the last; the best phases start again after each use."""
    S = _state(queens(6), None)
    n = len(S.PHASE)
    rng = np.random.default_rng(5)
    phases = rng.integers(0, 2, n).astype(np.int8)
    best = rng.integers(-1, 2, n).astype(np.int8)
    S.PHASE[:] = phases
    S.BEST[:] = best
    S.REG[state.REG_BEST_LEN] = 7
    S.REG[state.REG_REPHASE_UNIT] = 10
    assert learner.begin(S, np.zeros(0, dtype=np.int64)) == Status.RUNNING
    known = best >= 0
    want = phases
    for k in range(12):
        want = np.where(known, best, want) if k % 2 == 0 else 1 - want
        S.TARGET[:] = rng.integers(0, 2, n)
        S.REG[state.REG_TARGET_LEN] = S.REG[state.REG_BEST_LEN] = 7
        S.REG[state.REG_CONFLICTS] = 100 * k
        rephase.rephase(S)
        assert S.PHASE.tolist() == want.tolist(), f"rephasing {k}"
        assert (S.TARGET == -1).all() and S.REG[state.REG_TARGET_LEN] == 0
        assert S.REG[state.REG_BEST_LEN] == (0 if k % 2 == 0 else 7), f"rephasing {k}"
        assert S.REG[state.REG_NEXT_REPHASE] == 100 * k + 10 * (k + 2)
        assert S.REG[state.REG_REPHASES] == k + 1
        assert S.BEST.tolist() == best.tolist()
        check_learner(S)
    assert S.REG[state.REG_LEVEL] == 0


def test_luby_lives_once():
    """The restarts of the plain search and of the learner read one Luby sequence (written
    without ``int.bit_length``, which numba does not compile)."""
    from dlx import restarts

    assert restarts.luby is restart.luby
    assert [restart.luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2,
                                                       4, 8]


@given(st.lists(st.tuples(st.integers(1, 9), st.booleans(), st.integers(0, 2)), max_size=60))
def test_reduction_deletes_the_worse_half(clauses):
    """The reduction (counting by LBD, so that the kernel allocates nothing) deletes the
    clauses that sorting would: of the deletable ones (not kept, LBD above ``KEEP_LBD``,
    not used since the last reduction), half, largest LBD first and then oldest; the rest
    keep their order, and each spared clause has one reduction less to be spared for."""
    problem = queens(4)
    S = _state(problem, None)
    for c, (lbd, keep, used) in enumerate(clauses):
        S.LEARNT[0], S.LEARNT[1] = 2 * (c % 16), 2 * ((c + 1) % 16) + 1
        add_clause(S, 2, lbd, int(keep))
        S.CL_USED[c] = used
    deletable = [c for c, (lbd, keep, used) in enumerate(clauses)
                 if not keep and lbd > reduce.KEEP_LBD and not used]
    gone = set(sorted(deletable, key=lambda c: (-clauses[c][0], c))[:len(deletable) // 2])
    reduce.reduce_clauses(S)
    left = [(int(S.CL_LBD[c]), bool(S.CL_KEEP[c]), int(S.CL_USED[c]))
            for c in range(S.REG[state.REG_CLAUSES])]
    assert left == [(lbd, keep, max(used - 1, 0)) for c, (lbd, keep, used) in enumerate(clauses)
                    if c not in gone]
    check_learner(S)


def test_a_clause_in_a_conflict_is_spared_and_its_lbd_lowered():
    """``use_clause``: a learned clause that takes part in a conflict is spared by the next
    reduction, the next two if its LBD is at most ``TIER2_LBD``; its LBD drops to the
    number of levels its literals lie on now (Glucose's dynamic LBD), never rises, and a
    glue clause (never deleted) is left as it is."""
    S = _state(queens(6), None)
    S.LEARNT[:8] = 2 * np.arange(8)
    c = add_clause(S, 8, 9, 0)

    def use(lbd, levels):
        S.CL_LBD[c], S.CL_USED[c] = lbd, 0
        S.LVL[:8] = levels
        use_clause(S, c)
        return int(S.CL_LBD[c]), int(S.CL_USED[c])

    assert use(9, [1, 2, 3, 4, 5, 6, 7, 8]) == (8, 1)
    assert use(9, [1, 1, 2, 2, 3, 3, 4, 4]) == (4, 2)
    assert use(3, [1, 2, 3, 4, 5, 6, 7, 8]) == (3, 2)
    assert use(reduce.KEEP_LBD, [1, 2, 3, 4, 5, 6, 7, 8]) == (reduce.KEEP_LBD, 0)


@needs_numba
def test_the_compiled_kernel_counts_no_references():
    """numba compiles the learning kernel without reference counting (its cost was 60% of
    the search): no allocation may come back into it, or it would not compile."""
    from dlx.compiled import learning_entry

    _, cdcl = learning_entry()
    assert cdcl.dispatcher.targetoptions.get("_nrt") is False
    assert queens(6).count(strategy="learn", backend="numba") == 4


@needs_numba
@pytest.mark.parametrize("problem", [queens(8), langford(7)], ids=["queens8", "langford7"])
def test_the_compiled_kernel_runs_the_python_kernels_search(problem):
    """The compiled kernel and the python one, a conflict at a time with frequent
    restarts, rephasings and reductions, leave every array of the state the same."""
    from dlx.compiled import learning_entry

    begin, cdcl = learning_entry()
    states = (_hurried(_state(problem, 3)), _hurried(_state(problem, 3)))
    forced = np.zeros(0, dtype=np.int64)
    assert learner.begin(states[0], forced) == begin(states[1], forced) == Status.RUNNING
    for _ in range(5_000):
        statuses = []
        for S, run in zip(states, (learner.cdcl, cdcl)):
            S.REG[state.REG_STOP_CONFLICTS] = S.REG[state.REG_CONFLICTS] + 1
            S.REG[state.REG_STOP_DECISIONS] = 1 << 62
            statuses.append(run(S))
            S.REG[state.REG_BLOCK] = statuses[-1] == Status.LIMIT
        assert statuses[0] == statuses[1]
        for name in Learner._fields:
            assert np.array_equal(getattr(states[0], name), getattr(states[1], name)), name
        if statuses[0] == Status.COMPLETE:
            break
    else:
        pytest.fail("the search did not end")
    assert states[0].REG[state.REG_REPHASES] > 0 and states[0].REG[state.REG_DELETED] > 0


@needs_numba
def test_the_compiled_kernel_indexes_without_wraparound():
    """Compiled under the indexing hook (1.1x as fast), for each set of array types."""
    from dlx.compiled import learning_entry

    assert queens(6).count(strategy="learn", backend="numba") == 4
    _, cdcl = learning_entry()
    assert cdcl.nonnegative_indexing


def test_the_search_reads_narrow_integers():
    """The learning kernel spends its time reading the watch lists and the clauses: they
    are 32-bit (the flags 8-bit), half the memory of int64, while the positions fit; the
    arrays are widened, not overflowed, when they would not."""
    S = _state(queens(6), 0)
    assert {S.CL_LITS.dtype, S.WL.dtype, S.OPT_ITEM.dtype, S.ITEM_OPT.dtype} == {
        np.dtype(np.int32)}
    assert S.VAL.dtype == S.SEEN.dtype == np.dtype(np.int8)
    assert state.index_type(2**31 - 2) is np.int32 and state.index_type(2**31 - 1) is np.int64
    grown = state.grown(S)
    assert grown.CL_START.dtype == np.dtype(np.int32) and grown.CL_KEEP.dtype == np.int8
    assert np.array_equal(grown.CL_LITS[:len(S.CL_LITS)], S.CL_LITS)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_budgets_are_honoured_after_slices_that_found_solutions(backend):
    """R1 (issue 32): the clock and the node budget are looked at after every slice, one
    that found a solution included. Queens have a solution every few decisions, so almost
    every slice ends with one: the search used to run to its end (queens 12 on numba:
    14,200 solutions in 24 s, status COMPLETE, for a timeout of 0.5 s)."""
    n = 12 if backend == "numba" else 11  # each takes well over 20 s to count in full
    queens(6).count(strategy="learn", backend=backend)  # compiled before the clock starts
    search = queens(n).solutions(strategy="learn", backend=backend, timeout=0.3)
    start = time.perf_counter()
    for _ in search:
        if time.perf_counter() - start > 15:
            pytest.fail("the timeout was not honoured")
    assert search.stats.status is Status.TIMEOUT and search.stats.solutions > 0
    with pytest.raises(SearchStoppedError):
        queens(n).count(strategy="learn", backend=backend, timeout=0.3)
    search = queens(n).solutions(strategy="learn", backend=backend, max_nodes=3000)
    found = list(search)
    assert search.stats.status is Status.MAX_NODES and search.stats.nodes == 3000
    assert len(found) == search.stats.solutions > 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_timeout_looks_at_the_clock_after_the_first_conflict(backend, monkeypatch):
    """With a timeout the first slice is one conflict (at most 16 decisions), as for the
    plain search's one node: a first slice of 256 conflicts ran 4.3 s in Python on an
    empty 25x25 Sudoku (1,643 decisions) past a 0.3 s deadline (CI at c4975d3). The
    clock is made to jump a second a reading, so the deadline is past at the first look."""
    problem = queens(40)
    list(problem.solutions(strategy="learn", backend=backend, max_nodes=10))  # compiled first
    clock = iter(range(10**9))
    monkeypatch.setattr(slices.time, "perf_counter", lambda: float(next(clock)))
    search = problem.solutions(strategy="learn", backend=backend, timeout=1.5)
    assert list(search) == []
    assert search.stats.status is Status.TIMEOUT
    assert 0 < search.stats.nodes <= 16


def test_the_state_is_the_table():
    """The learner's arrays and registers, named once: the state allocated has the fields
    of ``FIELDS`` in order, each of its kind's type; every register has its ``REG_``
    index; the kernel's return values are ``dlx.Status`` members."""
    S = _state(langford(5), 0)
    assert Learner._fields == tuple(f.name for f in state.FIELDS)
    kinds = {"flag": {np.int8}, "float": {np.float64}, "int64": {np.int64},
             "index": {np.int32, np.int64}}
    for f, a in zip(state.FIELDS, S):
        assert a.dtype.type in kinds[f.kind], f.name
    assert len(S.REG) == len(state.REGISTERS) and len(S.FREG) == len(state.FREGISTERS)
    for k, r in enumerate(state.REGISTERS):
        assert getattr(state, f"REG_{r.name}") == k, r.name
    for k, r in enumerate(state.FREGISTERS):
        assert getattr(state, f"FREG_{r.name}") == k, r.name
    assert S.REG[state.REG_RESTART_UNIT] == state.RESTART_UNIT
    assert S.REG[state.REG_REPHASE_UNIT] == state.REPHASE_UNIT
    assert state.dtypes(S) == tuple(a.dtype for a in S)
    with pytest.raises(TypeError, match="CL_KEEP"):
        state.dtypes(S._replace(CL_KEEP=S.CL_KEEP.astype(np.int64)))
    assert (state.COMPLETE, state.LIMIT, state.MAX_NODES, state.NO_ROOM, state.RUNNING) == (
        Status.COMPLETE, Status.LIMIT, Status.MAX_NODES, Status.NO_ROOM, Status.RUNNING)
    assert not Status.NO_ROOM.stopped and not Status.NO_ROOM.complete


def test_the_package_imports_only_earlier_modules():
    """Each module of :mod:`dlx.kernels.cdcl` imports only those before it in ``MODULES`` (the
    check last), and nothing of :mod:`dlx` but :mod:`dlx.status`: no cycle, and the
    driver (:mod:`dlx.learning`) stays outside."""
    import ast
    from pathlib import Path

    from dlx.kernels import cdcl

    order = [m.__name__.rsplit(".", 1)[1] for m in cdcl.MODULES] + ["check"]
    for k, name in enumerate(order):
        tree = ast.parse((Path(cdcl.__file__).parent / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                assert node.module in order[:k], f"dlx.kernels.cdcl.{name} imports {node.module}"
            elif isinstance(node, ast.ImportFrom) and node.level == 2:
                assert node.module == "status", f"dlx.kernels.cdcl.{name} imports {node.module}"
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module or ""]
                assert not any(n.startswith("dlx") for n in names), name


def test_moved_names_warn():
    """What left :mod:`dlx.learning` for :mod:`dlx.kernels.cdcl` is still found there, with a
    DeprecationWarning."""
    import dlx.learning

    with pytest.warns(DeprecationWarning, match="dlx.kernels.cdcl.check.check_learner"):
        assert dlx.learning.check_learner is check_learner
    with pytest.warns(DeprecationWarning, match="dlx.kernels.cdcl.state.index_type"):
        assert dlx.learning.index_type is state.index_type
    with pytest.raises(AttributeError):
        dlx.learning.no_such_name  # noqa: B018


def test_the_cache_tag_covers_every_kernel_module(monkeypatch):
    """numba keys a cached function by its own file, but its machine code holds its
    callees', which may live in other modules of :mod:`dlx.kernels.cdcl`: the tag under
    which the learner is cached hashes the source of every one of its modules, so that an
    edit to any of them compiles anew instead of loading stale code."""
    from dlx import jit
    from dlx.kernels import cdcl, declaration
    from dlx.kernels.declare import sources

    decl = declaration("cdcl")
    text, _ = sources(decl)
    assert all(inspect.getsource(m) in text for m in cdcl.MODULES)
    before = jit._cache_tag(True, decl, {})
    assert jit._cache_tag(True, decl, {}) == before
    monkeypatch.setattr(jit, "_kernel_sources", lambda decl: ("an edited kernel", []))
    assert jit._cache_tag(True, decl, {}) != before
