"""The arguments of sudoku's calls (sudoku.arguments; issue 42, the ``sudoku`` part): lines
split at newlines only (9), blank and comment lines (10), the generator's whole-call
timeout and its largest grids (12), ``solve_many``'s ``timeout`` (13), one strategy
vocabulary, one count rule, one progress record, and one typed, frozen value for the
engine's arguments."""

from __future__ import annotations

import dataclasses
import time

import pytest

import dlx
import sudoku
from sudoku import ArgumentError, count_many, count_solutions, solve_many, solve_string
from sudoku.arguments import STRATEGIES, Engine, count_budget, engine
from sudoku.named import load_named, puzzle_lines, read_lines

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LEET_ANSWER = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
HARD1 = load_named()["norvig-hard1"]  # many solutions, a long count


# ----- 9: lines are split at "\n" (and "\r\n") only ---------------------------------------


@pytest.mark.parametrize("separator", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                       "\u2029"])
def test_lines_split_at_newlines_only(separator):
    """str.splitlines also splits at form feeds, vertical tabs, the file, group and record
    separators, NEL and the Unicode line and paragraph separators: one line became two,
    and every later line number was off by one."""
    text = f"1.{separator}..\n{LEETCODE}\r\n# c\n\n{LEETCODE}"
    assert read_lines(text) == [(1, f"1.{separator}.."), (2, LEETCODE), (5, LEETCODE)]
    lines = puzzle_lines(text)
    assert lines.puzzles == [(1, f"1.{separator}.."), (2, LEETCODE), (5, LEETCODE)]
    assert lines.skipped == {2: "# c\n\n"}


def test_puzzle_lines_keep_every_skipped_line_in_place():
    text = "\n# head\n  A  \n\n  # indented\nB\n\n"
    lines = puzzle_lines(text)
    assert lines.puzzles == [(3, "A"), (6, "B")]
    assert lines.skipped == {0: "\n# head\n", 1: "\n# indented\n", 2: "\n"}
    assert puzzle_lines("").puzzles == [] and puzzle_lines("").skipped == {}
    assert puzzle_lines("\n").skipped == {0: "\n"}


# ----- 10: a blank or comment line is no puzzle, and says so ------------------------------


@pytest.mark.parametrize("call", [solve_many, count_many])
def test_blank_and_comment_lines_are_named(call):
    """``solve_many`` answered ``''`` with "got side 0" and a comment line with "got side
    3"; now each is an ArgumentError saying what the line is, in its place, the very
    error ``solve_string`` raises for it."""
    got = call(["", "   ", "# a comment", "  #" + LEETCODE, LEETCODE])
    for k, kind in enumerate(["blank line", "blank line", "comment line", "comment line"]):
        assert type(got[k]) is ArgumentError, got[k]
        assert kind in str(got[k]) and "leave blank lines and # comments out" in str(got[k])
    assert got[4] in (LEET_ANSWER, 1)


@pytest.mark.parametrize("text, kind", [("", "blank line"), ("\t \n", "blank line"),
                                        ("# 81 cells", "comment line")])
def test_one_call_names_blank_and_comment_lines(text, kind):
    for call in (solve_string, count_solutions, sudoku.parse_string):
        with pytest.raises(ArgumentError, match=kind):
            call(text)


# ----- 12: the generator's timeout bounds the whole call; its grids end at 16x16 ----------


def test_generate_timeout_bounds_the_whole_call():
    """``timeout`` bounded each of the ~1,225 uniqueness checks of a 35x35 grid, so a
    call with ``timeout=5`` ran for minutes; now it bounds the call: SearchStoppedError
    (a dlx.SearchStoppedError too) once it has run out. The first call may compile the
    kernels it uses (a fresh clone's cache is cold; a compile is not a search, and no
    timeout stops it), so the second is timed."""
    with pytest.raises(sudoku.SearchStoppedError):
        sudoku.generate(16, seed=1, timeout=0.05)
    started = time.perf_counter()
    with pytest.raises(sudoku.SearchStoppedError, match="timeout") as stop:
        sudoku.generate(16, seed=1, timeout=0.05)
    assert time.perf_counter() - started < 2.0
    assert isinstance(stop.value, dlx.SearchStoppedError)
    with pytest.raises(sudoku.SearchStoppedError, match="timeout"):
        sudoku.generate(9, seed=1, timeout=0)


def test_generate_within_its_timeout_is_the_puzzle_without_one():
    """A timeout that does not run out changes nothing: the same puzzle, seed for seed (it
    used to turn off the restarts that bound a check's nodes, and so changed the puzzle)."""
    for seed in (1, 2, 5):
        assert sudoku.generate(9, seed=seed, timeout=60) == sudoku.generate(9, seed=seed)
    assert sudoku.generate(9, seed=3, difficulty="easy", timeout=60) == \
        sudoku.generate(9, seed=3, difficulty="easy")


@pytest.mark.parametrize("size", [25, 36, sudoku.Layout.rect(5, 7), sudoku.Layout.rect(4, 5),
                                  sudoku.Layout.latin(17)])
def test_generate_refuses_grids_beyond_16(size):
    with pytest.raises(ArgumentError, match="up to 16x16"):
        sudoku.generate(size, seed=1)


def test_generate_killer_refuses_grids_beyond_16():
    with pytest.raises(ArgumentError, match="up to 16x16"):
        sudoku.generate_killer((5, 5), seed=1)


# ----- 13: solve_many and count_many take a timeout for the whole call --------------------


def test_solve_many_timeout_bounds_the_whole_call():
    """``solve_many`` took no ``timeout``, although the README's budget rule lists it. It
    bounds the whole call, as ``ExactCover.solve_batch``'s does (not each puzzle: each of
    these takes well under a millisecond): the puzzles it stops are each a
    SearchStoppedError naming the timeout, those before them answered."""
    puzzles = [LEETCODE] * 3000  # ~1 s on the python backend
    got = solve_many(puzzles, timeout=0.1, strategy="plain", backend="python")
    assert got[0] == LEET_ANSWER and isinstance(got[-1], sudoku.SearchStoppedError)
    assert "timeout" in str(got[-1])
    assert {type(g) for g in got} == {str, sudoku.SearchStoppedError}
    assert solve_many([LEETCODE], timeout=30) == [LEET_ANSWER]
    with pytest.raises(ArgumentError, match="timeout"):
        solve_many([LEETCODE], timeout=-1)
    zero = solve_many([LEETCODE, LEETCODE], timeout=0)
    assert all(isinstance(g, sudoku.SearchStoppedError) for g in zero)


def test_solve_many_timeout_bounds_the_learning_way():
    """One puzzle at a time the learning way (each a few milliseconds, seconds in all):
    the call ends soon after its timeout, the puzzles after it each stopped at once."""
    puzzles = [LEETCODE] * 2000
    started = time.perf_counter()
    got = solve_many(puzzles, timeout=0.2, strategy="learn", backend="python")
    assert time.perf_counter() - started < 1.5
    assert got[0] == LEET_ANSWER and isinstance(got[-1], sudoku.SearchStoppedError)
    assert "timeout" in str(got[-1])


def test_count_many_timeout_bounds_the_whole_call():
    puzzles = [LEETCODE, HARD1, LEETCODE]  # HARD1's count: seconds on the python backend
    started = time.perf_counter()
    got = count_many(puzzles, None, timeout=0.2, strategy="plain", backend="python")
    assert time.perf_counter() - started < 1.5
    assert got[0] == 1 and isinstance(got[1], sudoku.SearchStoppedError)
    assert isinstance(got[2], sudoku.SearchStoppedError) and "timeout" in str(got[2])
    assert count_many([LEETCODE], timeout=30) == [1]
    with pytest.raises(ArgumentError, match="timeout"):
        count_many([LEETCODE], timeout=float("nan"))


def test_batch_timeout_bounds_large_boards():
    """``auto`` on 25x25: the head start, then the learning way, within one deadline.
    The learning way's first slice is one conflict (its check without a clock is in
    ``tests/dlx/kernels/test_cdcl.py``); the bound here only catches a hang."""
    big = "." * 625
    started = time.perf_counter()
    got = count_many([big, big, big], None, timeout=0.3, backend="python")
    assert time.perf_counter() - started < 60
    assert all(isinstance(g, sudoku.SearchStoppedError) for g in got)


def test_batch_timeout_on_an_executor():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        got = solve_many([LEETCODE, HARD1], timeout=30, executor=pool)
        assert got == solve_many([LEETCODE, HARD1])
        stopped = count_many([HARD1, HARD1], timeout=0.1, executor=pool, backend="python")
        assert all(isinstance(g, sudoku.SearchStoppedError) for g in stopped)


# ----- one vocabulary ---------------------------------------------------------------------


def test_strategies_are_dlx_names():
    assert STRATEGIES == ("auto", "plain", "learn")
    assert set(STRATEGIES) < set(dlx.arguments.STRATEGIES)
    assert solve_string(LEETCODE, strategy="learn") == LEET_ANSWER
    assert count_many([LEETCODE], strategy="learn") == [1]
    assert solve_string(LEETCODE, strategy=None) == LEET_ANSWER  # None: auto, as in dlx


def test_hard_is_learn_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="strategy='hard' is now strategy='learn'") \
            as caught:
        assert solve_string(LEETCODE, strategy="hard") == LEET_ANSWER
    assert caught[0].filename == __file__  # the caller's line, not the library's
    for call in (lambda: count_solutions(LEETCODE, strategy="hard"),
                 lambda: solve_many([LEETCODE], strategy="hard"),
                 lambda: count_many([LEETCODE], strategy="hard"),
                 lambda: sudoku.solve([list(LEETCODE[i:i + 9]) for i in range(0, 81, 9)],
                                      strategy="hard")):
        with pytest.warns(DeprecationWarning, match="strategy='hard'"):
            call()


@pytest.mark.parametrize("bad", ["race", "fast", 3, ["auto"]])
def test_strategy_refusals_are_dlx_messages(bad):
    with pytest.raises(dlx.ArgumentError) as theirs:
        dlx.arguments.strategy_arg(bad, STRATEGIES)
    for call in (lambda: solve_string(LEETCODE, strategy=bad),
                 lambda: count_solutions(LEETCODE, strategy=bad),
                 lambda: solve_many([LEETCODE], strategy=bad),
                 lambda: count_many([], strategy=bad)):
        with pytest.raises(ArgumentError) as ours:
            call()
        assert str(ours.value) == str(theirs.value)


def test_count_budget_is_dlx_rule():
    """``dlx.count_budget(None)`` is ``dlx.NEVER``; sudoku's was None: one rule now."""
    assert count_budget(None, "limit") == dlx.count_budget(None, "limit") == dlx.NEVER
    assert count_budget(5, "limit") == 5 and count_budget(2**80, "limit") == dlx.NEVER
    with pytest.raises(ArgumentError, match="limit must be at least 1"):
        count_budget(0, "limit")
    assert count_solutions("." * 16) == 288 and count_many(["." * 16], None) == [288]


# ----- one progress record ----------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["plain", "learn"])
def test_batch_progress_is_a_run_progress(strategy):
    seen: list[dlx.RunProgress] = []
    puzzles = ["." * 16] * 30 + [LEETCODE, "x"]
    solve_many(puzzles, progress=seen.append, strategy=strategy)
    assert seen and all(type(p) is dlx.RunProgress for p in seen)
    assert [p.done for p in seen] == sorted(p.done for p in seen)
    last = seen[-1]
    assert (last.done, last.parts, last.solutions) == (32, 32, 31)
    assert last.nodes > 0 and last.seconds >= 0
    seen.clear()
    count_many(puzzles, 5, progress=seen.append, strategy=strategy)
    assert (seen[-1].done, seen[-1].parts, seen[-1].solutions) == (32, 32, 30 * 5 + 1)


def test_batch_progress_after_a_head_start(monkeypatch):
    """``auto`` on a large board: the head start's batch ends before its puzzles are
    done (they go on the learning way), so it tells no progress; ``done`` only grows."""
    import sudoku.hard

    monkeypatch.setattr(sudoku.hard, "HEAD_NODES", 3)
    seen: list[dlx.RunProgress] = []
    got = solve_many(["." * 625] * 3, max_nodes=40, progress=seen.append, backend="python")
    assert all(isinstance(g, sudoku.SearchStoppedError) for g in got)
    done = [p.done for p in seen]
    assert done == sorted(done) and done[-1] == 3 and done.count(3) >= 1
    assert seen[-1].nodes >= 3 * 3


def test_batch_progress_on_an_executor():
    from concurrent.futures import ThreadPoolExecutor

    seen: list[dlx.RunProgress] = []
    with ThreadPoolExecutor(2) as pool:
        solve_many([LEETCODE] * 3, progress=seen.append, executor=pool)
    assert type(seen[-1]) is dlx.RunProgress and seen[-1].done == seen[-1].parts == 3
    assert seen[-1].solutions == 3 and seen[-1].nodes > 0


@pytest.mark.parametrize("bad", [3, "no", [print]])
def test_progress_rule(bad):
    for call in (solve_many, count_many):
        with pytest.raises(ArgumentError, match="progress must be callable or None"):
            call([LEETCODE], progress=bad)


def test_batch_hook_adds_each_batch_to_the_call():
    """``solve_batch`` tells its hook a RunProgress of its own instances: the call's hook
    adds what the batches before it did."""
    from sudoku.batch import _Run

    seen: list[dlx.RunProgress] = []
    run = _Run(seen.append, 10)
    run.finished(4, 4, 100)
    hook = run.hook()
    assert hook is not None
    hook(dlx.RunProgress(done=3, parts=6, solutions=3, nodes=50, seconds=0.1))
    assert [(p.done, p.solutions, p.nodes) for p in seen] == [(4, 4, 100), (7, 7, 150)]
    assert all(p.parts == 10 for p in seen)


# ----- the engine's arguments: one typed, frozen value -------------------------------------


def test_engine_is_one_frozen_value():
    e = engine("python", 100, 5, "learn")
    assert isinstance(e, Engine) and (e.backend, e.max_nodes, e.strategy) == \
        ("python", 100, "learn")
    assert e.timeout == 5 and e.deadline is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.backend = "numba"  # type: ignore[misc]
    assert not hasattr(e, "__dict__")  # slots
    plain = engine()
    assert plain is engine("auto", None, None, "auto")  # the common case, checked once
    assert (plain.max_nodes, plain.timeout, plain.deadline) == (dlx.NEVER, None, None)
    assert plain.less(10) is plain and e.less(30).max_nodes == 70
    for bad, name in (({"backend": "x"}, "backend"), ({"max_nodes": -1}, "max_nodes"),
                      ({"timeout": "1"}, "timeout"), ({"strategy": "race"}, "strategy")):
        with pytest.raises(ArgumentError, match=name):
            engine(**bad)
