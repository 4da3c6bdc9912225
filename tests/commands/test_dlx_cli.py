"""The ``dlx`` command: Knuth's text format in, solutions and his summary line out.

The second part (issue 42, the command's part): it has no search of its own (``--count``
is ``ExactCover.count``, which chooses its search; ``--strategy plain`` is Knuth's), its
memoized paths honour or refuse ``--limit``, ``--sample`` streams and says when there is
nothing to draw, ``--workers`` has the library's one bound, and ``--zdd ''`` is a usage
error naming the option."""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dlx.cli
from dlx import ArgumentError, ExactCover, ExitCode, SolutionSet
from dlx.arguments import max_workers, usable_cpus
from dlx.cli import _Live, main
from dlx.command import Pool, Progress, worker_count
from dlx.problems import queens
from tests.helpers.interrupt import interrupt_the_live_line

KNUTH_EXAMPLE = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
COLOR_EXAMPLE = ("| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\n"
                 "A C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def write(tmp_path: Path):
    """Write text to a file in tmp_path and return its name as a string."""
    def write(text: str, name: str = "problem.dlx") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write


def test_knuth_example(write, capsys) -> None:
    assert main([write(KNUTH_EXAMPLE)]) == 0
    out, err = capsys.readouterr()
    assert out == "1:\n C E F\n A D\n B G\n"
    assert err.startswith("Altogether 1 solution, 30 updates, 6 nodes; search ")
    assert "python backend" in err


def test_indices(write, capsys) -> None:
    assert main(["--indices", write(KNUTH_EXAMPLE)]) == 0
    assert capsys.readouterr().out == "0 3 4\n"


def test_count(write, capsys) -> None:
    assert main(["--count", write(queens(8).to_dlx())]) == 0
    out, err = capsys.readouterr()
    assert out == "92\n"
    assert "Altogether 92 solutions, 21456 updates, 1223 nodes" in err


def test_limit(write, capsys) -> None:
    path = write(queens(6).to_dlx())  # 4 solutions
    assert main(["--indices", "--limit", "2", path]) == 0
    out, err = capsys.readouterr()
    problem = queens(6)
    assert [list(map(int, line.split())) for line in out.splitlines()] == list(
        problem.solutions(2))
    assert "Stopped after --limit 2 solutions." in err
    assert main(["--count", "--limit", "3", path]) == 0
    assert capsys.readouterr().out == "3\n"


def test_budgets_say_incomplete(write, capsys) -> None:
    path = write(queens(8).to_dlx())
    assert main(["--count", "--max-nodes", "100", path]) == 3
    out, err = capsys.readouterr()
    assert int(out) < 92
    assert "100 nodes" in err and "--max-nodes 100 ran out" in err
    assert main(["--count", "--timeout", "0", write(queens(10).to_dlx())]) == 3
    assert "--timeout 0 s ran out" in capsys.readouterr().err


def test_seed_and_backend(write, capsys) -> None:
    path = write(queens(7).to_dlx())
    assert main(["--count", "--seed", "5", "--backend", "python", path]) == 0
    assert capsys.readouterr().out == "40\n"
    for strategy in (["--weighted"], ["--lookahead", "4"], ["--weighted", "--lookahead", "9"]):
        assert main(["--count", *strategy, path]) == 0
        assert capsys.readouterr().out == "40\n"


def test_colors_and_dropped_option(write, capsys) -> None:
    """Knuth's DLX2 example: the option with no primary item is reported by line."""
    assert main([write(COLOR_EXAMPLE)]) == 0
    out, err = capsys.readouterr()
    assert out == "1:\n A C X:1 Y:1\n B X:1\n"
    assert "line 5: warning: option has no primary item, ignored: 'X:0 Y:1'" in err
    assert "Altogether 1 solution, 14 updates, 4 nodes" in err


@pytest.mark.parametrize("args", [[], ["-"]])
def test_stdin(args: list[str], capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(KNUTH_EXAMPLE))
    assert main(["--count", *args]) == 0
    assert capsys.readouterr().out == "1\n"


@pytest.mark.parametrize(("text", "lineno", "what"), [
    ("| items\nA B\nA C\n", 3, "unknown item 'C'"),
    ("A B | X\nA X:red\nB:blue\n", 3, "color on primary item 'B'"),
    ("A B\nA A B\n", 2, "item 'A' appears twice"),
    ("A | B | C\nA\n", 1, "'|' twice"),
    ("| only a comment\n", 1, "no item line"),
])
def test_malformed_input(text: str, lineno: int, what: str, write, capsys) -> None:
    assert main([write(text, "bad.dlx")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("dlx: ") and "bad.dlx: " in err
    assert f"line {lineno}: " in err and what in err
    assert len(err.splitlines()) == 1


def test_missing_file(tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path / "nothing.dlx")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_bad_arguments(capsys) -> None:
    """A bad command line is a usage error, returned (not raised as SystemExit)."""
    assert main(["--limit", "0"]) == 2
    assert "--limit" in capsys.readouterr().err


def test_progress_reports_live_stats() -> None:
    """The status line is drawn from the search's own progress callback (the count the
    library chose, sliced): the live stats move while it runs."""
    problem = queens(9)
    stream = io.StringIO()
    with Progress(stream, enabled=True, interval=0.0) as line:
        live = _Live(line)
        problem.count(timeout=float("inf"), backend="python", progress=live)
    text = stream.getvalue()
    assert "nodes/s" in text and live.stats.nodes > 0
    assert text.endswith("\r")  # the status line is wiped at the end


def test_forced_progress_keeps_stdout_clean(write, capsys) -> None:
    assert main(["--progress", "--count", write(queens(6).to_dlx())]) == 0
    out, err = capsys.readouterr()
    assert out == "4\n"
    assert "Altogether 4 solutions" in err


def test_python_m_dlx() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    result = subprocess.run([sys.executable, "-m", "dlx", "--indices"], input=KNUTH_EXAMPLE,
                            capture_output=True, text=True, env=env, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "0 3 4\n"
    assert "Altogether 1 solution" in result.stderr


def test_output_reads_back(write, capsys) -> None:
    """Printed options are the input's lines, so they parse against the item line."""
    assert main(["--limit", "1", write(COLOR_EXAMPLE)]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()[1:]]
    header = COLOR_EXAMPLE.splitlines()[1]
    problem = ExactCover.from_dlx("\n".join([header, *lines]))
    assert problem.first() == [0, 1]


# ===== issue 42: the command has no search of its own ===================================

DATA = ROOT / "tests" / "data" / "exact_cover"
QUEENS8 = str(DATA / "queens8.dlx")
LANGFORD9 = str(DATA / "langford9.dlx")  # no solution


def dominoes(m: int, n: int) -> ExactCover:
    """Domino tilings of an m x n board: the memoized search's kind of problem."""
    options = []
    for r, c in itertools.product(range(m), range(n)):
        if c + 1 < n:
            options.append([f"{r}_{c}", f"{r}_{c + 1}"])
        if r + 1 < m:
            options.append([f"{r}_{c}", f"{r + 1}_{c}"])
    return ExactCover(options, primary=[f"{r}_{c}" for r in range(m) for c in range(n)])


@pytest.fixture
def domino6(tmp_path: Path) -> str:
    path = tmp_path / "domino6x6.dlx"
    path.write_text(dominoes(6, 6).to_dlx())
    return str(path)


# ----- defect 2: --count chooses as count() does ----------------------------------------


def test_count_chooses_as_the_library_does(domino6, capsys) -> None:
    """``dlx --count`` ran the plain search always (25,695 nodes on the 6 x 6 board);
    ``count()`` answers by the memoized search (364), and so does the command now."""
    problem = dominoes(6, 6)
    assert problem.count(backend="python") == 6728
    chosen = problem.stats
    assert chosen.answered_by == "memo"
    assert main(["--count", "--backend", "python", domino6]) == 0
    out, err = capsys.readouterr()
    assert out == "6728\n"
    assert (f"Altogether 6728 solutions, {chosen.updates} updates, {chosen.nodes} nodes;"
            in err)
    assert "Answered by the memo search" in err and "Memo: " in err


def test_strategy_plain_is_knuths_search(domino6, capsys) -> None:
    search = dominoes(6, 6).solutions(backend="python")
    assert search.count() == 6728
    plain = search.stats
    assert main(["--count", "--strategy", "plain", "--backend", "python", domino6]) == 0
    out, err = capsys.readouterr()
    assert out == "6728\n"
    assert f"Altogether 6728 solutions, {plain.updates} updates, {plain.nodes} nodes;" in err
    assert "memo" not in err.lower()


@pytest.mark.slow
def test_strategy_names_and_the_old_spelling(capsys) -> None:
    """``race`` is what ``auto`` was (the plain and the learning search in turns);
    ``--learn`` still works, with a one-line note."""
    assert main(["-n", "1", "--strategy", "race", "--backend", "python", LANGFORD9]) == 0
    err = capsys.readouterr().err
    assert "Altogether 0 solutions" in err and "Answered by the" in err
    assert main(["--learn", "--count", "--backend", "python", LANGFORD9]) == 0
    out, err = capsys.readouterr()
    assert out == "0\n"
    notes = [line for line in err.splitlines() if "deprecated" in line]
    assert notes == ["dlx: --learn is deprecated: say --strategy learn"]
    assert main(["--learn", "--strategy", "race", LANGFORD9]) == 2
    assert "--learn is --strategy learn" in capsys.readouterr().err
    assert main(["--strategy", "learn", "--workers", "2", "--count", LANGFORD9]) == 2
    assert "--strategy learn is for a single search" in capsys.readouterr().err


def test_help_documents_the_strategies(capsys) -> None:
    assert main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in ("{auto,plain,learn,race}", "auto (the default): the library chooses",
                  "Knuth's node counts as DLX1 prints them", "deprecated spelling of "
                  "--strategy learn", "exit 1 if there is no solution to draw"):
        assert words in text


def test_the_progress_line_is_fed_by_the_search(domino6, capsys, monkeypatch) -> None:
    """The status line comes from the library's progress callback (a RunProgress with
    the live stats), for the count that the library chose as for the others."""
    monkeypatch.setattr(dlx.cli, "Progress", lambda stream, enabled, interval: Progress(
        stream, enabled=enabled, interval=0.0))
    assert main(["--progress", "--count", "--backend", "python", domino6]) == 0
    out, err = capsys.readouterr()
    assert out == "6728\n" and " nodes/s, " in err and "Altogether 6728" in err
    stream = io.StringIO()
    with Progress(stream, enabled=True, interval=0.0) as line:
        live = _Live(line)
        search = queens(9).solutions(progress=live, backend="python", timeout=float("inf"))
        live.search = search
        assert search.count() == 352
    assert "% explored" in stream.getvalue() and live.stats is search.stats


# ----- defect 3: the memoized paths and --limit -------------------------------------------


def test_memo_count_honours_the_limit(capsys) -> None:
    assert main(["--memo", "--count", "-n", "2", QUEENS8]) == 0
    out, err = capsys.readouterr()
    assert out == "2\n" and "Stopped after --limit 2 solutions." in err
    assert queens(8).count(2, memo=True) == 2


@pytest.mark.parametrize("args", [["--zdd", "{out}", "-n", "3"], ["--sample", "2", "-n", "1"]])
def test_a_limit_the_set_cannot_take_is_refused(args, tmp_path, capsys) -> None:
    out_file = tmp_path / "q8.zdd"
    argv = [a.format(out=out_file) for a in args]
    assert main([*argv, QUEENS8]) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert out == "" and "--limit does not go with" in err and len(err.splitlines()) == 1
    assert not out_file.exists()


# ----- defect 4: --sample streams ----------------------------------------------------------


class _Pipe(io.StringIO):
    """A stdout whose reader goes away after ``lines`` lines."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.lines = lines

    def write(self, text: str) -> int:
        if self.getvalue().count("\n") >= self.lines:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_samples_are_printed_as_they_are_drawn(monkeypatch, capsys) -> None:
    """Each draw is written before the next is made: a reader that stops after 2 lines
    ends the run at once (exit 0), after a few draws, not 100,000."""
    draws = 0
    unrank = SolutionSet._unrank

    def counted(self, i):
        nonlocal draws
        draws += 1
        return unrank(self, i)

    monkeypatch.setattr(SolutionSet, "_unrank", counted)
    pipe = _Pipe(2)
    monkeypatch.setattr(sys, "stdout", pipe)
    assert main(["--sample", "100000", "-i", "--backend", "python", QUEENS8]) == 0
    assert len(pipe.getvalue().splitlines()) == 2 and draws <= 3
    assert "Traceback" not in capsys.readouterr().err


def test_sample_more_than_memory_holds_into_head(tmp_path) -> None:
    """``--sample 99999999999999999999 | head -2``: two lines, exit 0, nothing on stderr
    (a MemoryError traceback, exit 1, before). Memory is capped at 2 GB, so a run that
    would build all the samples fails here instead of filling the machine."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    script = ('ulimit -v 2000000; set -o pipefail; '
              '"$0" -m dlx --sample 99999999999999999999 -i --backend python "$1" | head -2')
    result = subprocess.run(["bash", "-c", script, sys.executable, QUEENS8], env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all(queens(8).is_solution(list(map(int, x.split())))
                                   for x in lines)
    assert result.stderr == ""


# ----- defect 5: nothing to draw -----------------------------------------------------------


def test_sample_of_a_problem_without_solutions(capsys) -> None:
    assert main(["--sample", "3", "--backend", "python", LANGFORD9]) == ExitCode.UNSOLVED
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["dlx: --sample 3: the problem has no solution to draw"]


# ----- defect 6: one bound on workers -------------------------------------------------------


def _no_pool(*args, **kwargs):
    raise AssertionError("a pool was made")


@pytest.mark.parametrize("workers", [max_workers() + 1, 100000])
def test_workers_past_the_bound_are_refused(workers, monkeypatch, capsys) -> None:
    monkeypatch.setattr(dlx.cli, "Pool", _no_pool)
    assert main(["--count", "--workers", str(workers), QUEENS8]) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert out == "" and "--workers" in err
    assert f"workers must be at most {max_workers()} (8 per usable CPU" in err


def test_the_pool_checks_the_bound_before_it_starts(monkeypatch) -> None:
    monkeypatch.setattr("multiprocessing.Process.start", _no_pool)
    with pytest.raises(ArgumentError, match="workers must be at most"):
        Pool(max_workers() + 1)
    with pytest.raises(ArgumentError, match="workers must be"):
        Pool(0)
    assert worker_count(10**6, 10**6) == usable_cpus() <= max_workers()


# ----- defect 13: --zdd '' ---------------------------------------------------------------


@pytest.mark.parametrize("option", ["--zdd", "--svg"])
def test_an_output_name_that_is_no_file(option, tmp_path, capsys) -> None:
    for name, why in (("", "needs a file name"), (str(tmp_path), "is a directory")):
        assert main([option, name, QUEENS8]) == ExitCode.USAGE
        out, err = capsys.readouterr()
        assert out == "" and len(err.splitlines()) == 1
        assert err.startswith(f"dlx: {option} ") and why in err


# ----- Ctrl-C on the library's calls ----------------------------------------------------


@pytest.mark.parametrize("args", [["--count"], ["--count", "--memo"], ["--memo"], []])
def test_ctrl_c_during_the_librarys_search(args, monkeypatch, capsys) -> None:
    """Ctrl-C inside count(), count(memo=True) or a lazy search: exit 130, and the
    summary of the search as the library recorded it (INTERRUPTED, its nodes so far)."""
    calls = interrupt_the_live_line(monkeypatch)
    path = str(DATA / "queens10.dlx")
    assert main(["--progress", "--backend", "python", *args, path]) == ExitCode.INTERRUPTED
    err = capsys.readouterr().err
    assert "Interrupted: the search is incomplete." in err
    nodes = int(err.split(" updates, ")[1].split(" nodes")[0])
    assert nodes == calls[-1].nodes > 0
