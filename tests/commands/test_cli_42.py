"""Issue 42, the ``dlx`` command's part: it has no search of its own (``--count`` is
``ExactCover.count``, which chooses its search; ``--strategy plain`` is Knuth's), its
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

ROOT = Path(__file__).resolve().parents[2]
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
    calls = []

    def interrupt(self, record):
        calls.append(record)
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(_Live, "__call__", interrupt)
    path = str(DATA / "queens10.dlx")
    assert main(["--progress", "--backend", "python", *args, path]) == ExitCode.INTERRUPTED
    err = capsys.readouterr().err
    assert "Interrupted: the search is incomplete." in err
    nodes = int(err.split(" updates, ")[1].split(" nodes")[0])
    assert nodes == calls[-1].nodes > 0
