"""The portfolio (``strategy="race"``, :mod:`dlx.kinds.portfolio`): the same answer
whichever search gives it, budgets that count the work of both, the requests it makes."""

from __future__ import annotations

import math
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ArgumentError, ExactCover, SearchStoppedError, Status
from dlx.kinds import portfolio
from dlx.kinds.portfolio import Portfolio
from dlx.problems import langford, queens
from dlx.request import check_request
from tests.helpers.backends import BACKENDS, needs_numba
from tests.helpers.oracle import brute_force, violation
from tests.helpers.random_problems import build, xcc_problems


@contextmanager
def answered_by(who: str):
    """Every turn to ``who``: ``plain`` (an endless head start) or ``learn`` (the plain
    search is begun, for its clash of forced options, and never runs)."""
    with pytest.MonkeyPatch.context() as mp:
        if who == "plain":
            mp.setattr(portfolio, "HEAD_START", math.inf)
        else:
            mp.setattr(Portfolio, "_turn", lambda self: self._learn)
        yield


def _first(problem: ExactCover, **options):
    search = problem.solutions(1, strategy="race", **options)
    solution = next(search, None)
    search.count()
    return solution, search.stats


@pytest.mark.parametrize("who", ["plain", "learn"])
def test_the_answer_is_the_same_whichever_search_gives_it(backend, who):
    """A verified solution, or None with status COMPLETE (a proof), from either search;
    the stats say which answered and add up the parts."""
    with answered_by(who):
        for problem, exists in [(queens(12), True), (langford(7), True),
                                (langford(6), False), (queens(3), False)]:
            solution, stats = _first(problem, backend=backend)
            assert stats.answered_by == who
            assert stats.parts[who].status is stats.status
            assert stats.nodes == stats.parts["plain"].nodes + stats.parts["learn"].nodes
            if exists:
                assert problem.is_solution(solution)
                assert (stats.status, stats.solutions) == (Status.LIMIT, 1)
            else:
                assert solution is None and stats.status is Status.COMPLETE
            first = problem.first(strategy="race", backend=backend)
            assert (first is None) == (not exists)
            assert problem.count(1, strategy="race", backend=backend) == int(exists)


def test_the_race_is_won_by_the_faster_search(backend):
    """Left to itself, the portfolio proves Langford 6 has no solution by the plain search
    (at once) and finds a solution of 24 queens; both searches' times are counted."""
    solution, stats = _first(langford(6), backend=backend)
    assert (solution, stats.status, stats.answered_by) == (None, Status.COMPLETE, "plain")
    assert stats.parts["learn"].nodes == 0  # an easy problem never makes the learner
    problem = queens(24)
    solution, stats = _first(problem, backend=backend)
    assert problem.is_solution(solution) and stats.answered_by in ("plain", "learn")
    assert stats.seconds >= stats.parts["plain"].seconds


def test_forced_options_that_clash_are_a_conflict():
    problem = queens(6)
    clash = next(k for k in range(1, len(problem))
                 if set(problem.option(k)) & set(problem.option(0)))
    solution, stats = _first(problem, forced=[0, clash])
    assert (solution, stats.status, stats.conflict) == (None, Status.CONFLICT, clash)
    assert stats.answered_by == "plain"


@pytest.mark.parametrize("who", ["plain", "learn", None])
@pytest.mark.parametrize("max_nodes", [0, 1, 7, 300])
def test_max_nodes_counts_plain_nodes_and_decisions(backend, who, max_nodes):
    """``max_nodes`` bounds the plain nodes plus the learner's decisions: the status is
    MAX_NODES at exactly that total; ``first`` raises SearchStoppedError."""
    problem = langford(14)  # no solution, and neither search proves it soon
    with answered_by(who) if who else _nothing():
        solution, stats = _first(problem, backend=backend, max_nodes=max_nodes)
        assert solution is None and stats.status is Status.MAX_NODES
        assert stats.nodes == max_nodes
        assert stats.nodes == stats.parts["plain"].nodes + stats.parts["learn"].nodes
        with pytest.raises(SearchStoppedError, match="max_nodes"):
            problem.first(strategy="race", backend=backend, max_nodes=max_nodes)


def test_max_nodes_is_shared_by_both_searches(monkeypatch):
    """Without a head start the two share the budget, turn by turn."""
    monkeypatch.setattr(portfolio, "HEAD_START", 0.0)
    monkeypatch.setattr(portfolio, "TURN_SECONDS", 1e-6)
    solution, stats = _first(langford(14), backend="python", max_nodes=2000)
    assert solution is None and stats.status is Status.MAX_NODES and stats.nodes == 2000
    assert stats.parts["plain"].nodes > 0 and stats.parts["learn"].nodes > 0


@contextmanager
def _nothing():
    yield


@pytest.mark.parametrize("who", ["plain", "learn", None])
def test_the_timeout_bounds_both(backend, who):
    """A problem neither search answers soon (Langford 14: no solution) stops at the
    timeout, with status TIMEOUT; the parts' times add up to about the whole."""
    problem = langford(14)
    with answered_by(who) if who else _nothing():
        problem.solutions(1, strategy="learn", backend=backend, max_nodes=1).count()  # compile
        solution, stats = _first(problem, backend=backend, timeout=0.1)
        assert solution is None and stats.status is Status.TIMEOUT
        assert 0.1 <= stats.seconds < 2
        spent = stats.parts["plain"].seconds + stats.parts["learn"].seconds
        assert spent <= stats.seconds
        with pytest.raises(SearchStoppedError, match="timeout"):
            problem.first(strategy="race", backend=backend, timeout=0.05)
    _, stats = _first(problem, backend=backend, timeout=0)
    assert stats.status is Status.TIMEOUT


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(xcc_problems(), st.sampled_from(["plain", "learn"]), st.sampled_from([None, 5]))
def test_random_problems_agree_with_brute_force(spec, who, seed):
    """Either search answering, on both backends: a solution exactly when brute force
    finds one, and a true one."""
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    expected = brute_force(options, primary, secondary)
    with answered_by(who):
        for backend in BACKENDS:
            solution, stats = _first(problem, backend=backend, seed=seed)
            if expected:
                assert violation(options, primary, secondary, solution) is None
                assert stats.status is Status.LIMIT
            else:
                assert solution is None and stats.status is Status.COMPLETE
            assert stats.answered_by == who


@pytest.mark.parametrize(("plain", "learn", "explored", "left", "who"), [
    (0.005, 0.0, 1.0, math.inf, "plain"),   # the head start
    (0.005, 0.0, 0.0, math.inf, "plain"),
    (0.5, 0.495, 0.5, math.inf, "plain"),   # the lead kept
    (0.5, 0.3, 0.5, math.inf, "learn"),     # a fair race: the learner is behind by more
    (0.5, 0.3, 0.5, 0.3, "plain"),          # plain's estimated time left <= learner's time
    (0.5, 0.3, 0.5, 0.31, "learn"),
    (0.59, 0.3, 0.99, 0.0, "plain"),        # near its end, up to twice the learner's time
    (0.61, 0.3, 0.99, 0.0, "learn"),
    (0.3, 0.59, 1e-13, math.inf, "learn"),  # lost in its tree: the learner's, up to twice
    (0.3, 0.61, 1e-13, math.inf, "plain"),
    (0.3, 0.31, 1e-11, math.inf, "plain"),  # not lost: fair, with the lead
])
def test_whose_turn(plain, learn, explored, left, who):
    """After its head start, the plain search leads by HEAD_START; by Knuth's estimate it
    keeps the turn while it ends within the learner's time so far, and gives it up while
    it is lost in its tree, each up to PLAIN_AHEAD times the other's time."""
    race = Portfolio(queens(8), check_request(queens(8).matrix, "first", 1,
                                              {"strategy": "race"}), None)
    race._plain.stats.seconds, race._learn.stats.seconds = plain, learn
    race._plain_explored, race._plain_left = explored, left
    assert race._turn().name == who


def test_the_estimate_gives_a_proof_the_larger_share():
    """Langford 10 has no solution and the plain search proves it; with the plain search
    reading its estimate, the learner gets less of the time than in a fair race (where
    each gets half, within a turn). The turns are made tiny so that there are many."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(portfolio, "TURN_SECONDS", 1e-4)
        mp.setattr(portfolio, "HEAD_START", 0.0)
        solution, stats = _first(langford(10), backend="python")
        assert solution is None and stats.answered_by == "plain"
        plain, learn = stats.parts["plain"].seconds, stats.parts["learn"].seconds
        assert learn < 0.8 * plain


@needs_numba
def test_a_lost_plain_search_gives_the_learner_the_larger_share():
    """100 queens: the plain search is lost in its tree (it finds no solution in minutes),
    the learner finds one; the plain search gets less than the learner's time."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(portfolio, "TURN_SECONDS", 1e-3)
        mp.setattr(portfolio, "HEAD_START", 1e-3)
        problem = queens(100)
        solution, stats = _first(problem, backend="numba")
        assert problem.is_solution(solution) and stats.answered_by == "learn"
        assert stats.parts["plain"].seconds < 0.8 * stats.parts["learn"].seconds


def _kind(problem: ExactCover, call: str = "first", limit=1, **options) -> str:
    return check_request(problem.matrix, call, limit, options).kind


def test_auto_is_the_portfolio_for_one_solution_only():
    """``auto`` is the portfolio for one solution of a problem without bounds or costs, in
    the order found, without restarts; the plain search (or restarts) otherwise."""
    problem = queens(5)
    assert _kind(problem, strategy="race") == "portfolio"
    assert _kind(problem, "solutions", 1, strategy="race") == "portfolio"
    assert _kind(problem, "count", 1, strategy="race") == "portfolio"
    assert _kind(problem, "solutions", 2, strategy="race") == "plain"
    assert _kind(problem, "count", None, strategy="race") == "plain"
    assert _kind(problem, strategy="race", restarts=10) == "restarts"
    assert _kind(problem, "best", 1, strategy="race", order="cost") == "plain"
    bounded = ExactCover([["a"], ["a"]], primary=["a"], multiplicity={"a": (1, 2)})
    assert _kind(bounded, strategy="race") == "plain"
    assert bounded.first(strategy="race") == [0, 1]
    assert problem.count(strategy="race") == 10
    assert _kind(problem) == "plain" and _kind(problem, strategy="plain") == "plain"


def test_strategy_learn_is_learn_true():
    """``learn=True`` (deprecated) and ``strategy="learn"`` make the same request."""
    problem = queens(5)
    for call, limit in [("first", 1), ("count", None), ("solutions", 3)]:
        with pytest.warns(DeprecationWarning):
            assert check_request(problem.matrix, call, limit, {"learn": True}) == \
                check_request(problem.matrix, call, limit, {"strategy": "learn"})
    assert problem.count(strategy="learn") == 10


@pytest.mark.parametrize("bad", ["fast", "", "AUTO", 1, None.__class__, ["auto"]])
def test_bad_strategy_is_an_argument_error_naming_it(bad):
    with pytest.raises(ArgumentError, match="strategy must be"):
        queens(5).first(strategy=bad)


@pytest.mark.parametrize("strategy", ["auto", "plain", "race"])
def test_learn_true_takes_no_other_strategy(strategy):
    """learn=True, deprecated, is strategy='learn', and so takes no other strategy."""
    with pytest.warns(DeprecationWarning), \
            pytest.raises(ArgumentError, match=f"strategy={strategy!r}"):
        queens(5).first(learn=True, strategy=strategy)


def test_auto_takes_the_plain_search_options():
    """weighted and lookahead go to the plain search; the learner runs without them."""
    problem = queens(30)
    solution = problem.first(strategy="race", weighted=True, lookahead=2)
    assert problem.is_solution(solution)
    with answered_by("learn"):
        assert problem.is_solution(problem.first(strategy="race", weighted=True))


def test_the_command_takes_strategy(tmp_path, capsys):
    """``dlx --strategy race`` says which search answered; ``--learn`` is ``--strategy
    learn``, and the two spellings may not disagree."""
    from dlx.cli import main

    path = tmp_path / "langford6.dlx"
    path.write_text(langford(6).to_dlx())
    assert main(["--limit", "1", "--strategy", "race", "--backend", "python", str(path)]) == 0
    err = capsys.readouterr().err
    assert "Altogether 0 solutions" in err and "Answered by the plain search" in err
    for spelling in (["--learn"], ["--strategy", "learn"], ["--learn", "--strategy", "learn"]):
        assert main([*spelling, "--count", "--backend", "python", str(path)]) == 0
        assert capsys.readouterr().out.strip() == "0"
    assert main(["--learn", "--strategy", "auto", str(path)]) == 2
    assert "--learn is --strategy learn" in capsys.readouterr().err


# ----- sudoku: auto on large boards, a head start of the plain search ---------------------


def _easy_25() -> str:
    """A 25x25 puzzle with one blank in seven (quick on any path)."""
    import sudoku

    grid = sudoku.solve_string("." * 625, strategy="plain", backend="numba")
    return "".join("." if k % 7 == 3 else ch for k, ch in enumerate(grid))


def _hard_calls(monkeypatch, module: str = "solver") -> list[str]:
    import sudoku.batch
    import sudoku.solver

    where = getattr(sudoku, module)
    calls: list[str] = []
    for name in ("solve_hard", "count_hard"):
        real = getattr(where, name)

        def counted(*args, _real=real, _name=name, **kw):
            calls.append(_name)
            return _real(*args, **kw)

        monkeypatch.setattr(where, name, counted)
    return calls


@pytest.mark.slow
def test_sudoku_auto_gives_large_boards_a_plain_head_start(monkeypatch):
    """``auto`` on a 25x25 board: the plain search first, for HEAD_NODES nodes; an easy
    puzzle ends there (the hard way is never taken), with the answers of ``hard``; a
    puzzle it does not decide goes on the hard way, the budgets counting both."""
    import sudoku
    import sudoku.hard
    from sudoku.grid import is_solution, parse_string

    calls = _hard_calls(monkeypatch)
    puzzle = _easy_25()
    geo, values = parse_string(puzzle)
    grid = sudoku.solve_string(puzzle, backend="numba")
    assert is_solution(geo, values, parse_string(grid)[1])
    count = sudoku.count_solutions(puzzle, 5, backend="numba", strategy="learn")
    assert sudoku.count_solutions(puzzle, 5, backend="numba") == count
    assert calls == ["count_hard"]  # only the strategy="learn" call
    calls.clear()
    monkeypatch.setattr(sudoku.hard, "HEAD_NODES", 3)  # too few: on the hard way
    assert sudoku.solve_string(puzzle, backend="numba") is not None
    assert sudoku.count_solutions(puzzle, 5, backend="numba") == count
    assert calls == ["solve_hard", "count_hard"]
    with pytest.raises(sudoku.SearchStoppedError, match="after 7 nodes"):
        sudoku.solve_string("." * 625, backend="numba", max_nodes=7)
    with pytest.raises(sudoku.SearchStoppedError, match="after 3 nodes"):
        sudoku.solve_string("." * 625, backend="numba", max_nodes=3)


@pytest.mark.slow
def test_sudoku_batches_give_large_boards_the_head_start(monkeypatch):
    """``solve_many``/``count_many`` with ``auto`` search large boards as ``solve_string``
    does: the plain batch first, HEAD_NODES nodes each; the undecided ones the hard way,
    with the answers, the errors and the node counts of one-by-one calls."""
    import sudoku
    import sudoku.hard
    from sudoku.grid import is_solution, parse_string

    calls = _hard_calls(monkeypatch, "batch")
    easy = _easy_25()
    clash = "AA" + easy[2:]
    puzzles = [easy, clash, easy[::-1]]  # the last: the grid turned half a turn
    solved = sudoku.solve_many(puzzles, backend="numba")
    assert calls == []  # all decided in the head start
    for puzzle, answer in zip(puzzles, solved):
        expected = _answer(sudoku.solve_string, puzzle)
        assert type(answer) is type(expected) and str(answer) == str(expected)
        if isinstance(answer, str):
            assert is_solution(*parse_string(puzzle), parse_string(answer)[1])
    counts = sudoku.count_many(puzzles, 3, backend="numba")
    assert [repr(c) for c in counts] == \
        [repr(_answer(sudoku.count_solutions, p, 3, backend="numba")) for p in puzzles]
    monkeypatch.setattr(sudoku.hard, "HEAD_NODES", 3)  # too few: on the hard way
    progress: list[int] = []
    again = sudoku.solve_many(puzzles, backend="numba",
                              progress=lambda record: progress.append(record.done))
    assert [repr(a) for a in again] == [repr(a) for a in solved]
    assert calls == ["solve_hard", "solve_hard"]  # the clash is decided at once
    assert progress[-1] == 3 and progress == sorted(progress)
    calls.clear()
    assert [repr(c) for c in sudoku.count_many(puzzles, 3, backend="numba")] == \
        [repr(c) for c in counts]
    assert calls == ["count_hard", "count_hard"]
    # a budget counts the head start's nodes: the same error, node for node
    stopped = sudoku.solve_many(["." * 625], backend="numba", max_nodes=40)[0]
    with pytest.raises(sudoku.SearchStoppedError) as one:
        sudoku.solve_string("." * 625, backend="numba", max_nodes=40)
    assert isinstance(stopped, sudoku.SearchStoppedError) and str(stopped) == str(one.value)


def _answer(call, *args, **kw):
    try:
        return call(*args, **kw)
    except Exception as e:  # the error solve_many returns for it
        return e
