"""The ``dlx`` command's memoized search: ``--count --memo``, ``--zdd OUT``, ``--sample K``."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlx import ExactCover, SolutionSet
from dlx.cli import main
from dlx.problems import langford, queens
from tests.helpers.interrupt import interrupt_the_live_line


@pytest.fixture
def path(tmp_path: Path) -> str:
    """queens8 in Knuth's format, in a file."""
    p = tmp_path / "queens8.dlx"
    p.write_text(queens(8).to_dlx())
    return str(p)


def test_count_memo_is_dlx6(path, capsys) -> None:
    assert main(["--count", "--memo", path]) == 0
    out, err = capsys.readouterr()
    assert out == "92\n"  # DLX6: 1122 nodes, 142 hits, 469 ZDD nodes (ours 463, reduced)
    assert "Altogether 92 solutions, 19626 updates, 1122 nodes" in err
    assert "Memo: 142 hits, 980 signatures, 463 ZDD nodes." in err


def test_memo_lists_the_plain_solutions(path, capsys) -> None:
    assert main(["--memo", "--indices", "--limit", "5", path]) == 0
    out, err = capsys.readouterr()
    assert [list(map(int, line.split())) for line in out.splitlines()] == list(
        queens(8).solutions(5))
    assert "Stopped after --limit 5 solutions." in err


def test_zdd_writes_knuths_text(path, tmp_path, capsys) -> None:
    out_file = tmp_path / "q8.zdd"
    assert main(["--zdd", str(out_file), path]) == 0
    assert capsys.readouterr().out == "92\n"
    problem = queens(8)
    s = SolutionSet.read(problem, out_file)
    assert sorted(s) == sorted(problem.solutions()) and s.node_count == 463


def test_sample_prints_solutions(tmp_path, capsys) -> None:
    p = tmp_path / "langford7.dlx"
    problem = langford(7)
    p.write_text(problem.to_dlx())
    assert main(["--sample", "6", "--seed", "4", "--indices", str(p)]) == 0
    first = capsys.readouterr().out
    drawn = [list(map(int, line.split())) for line in first.splitlines()]
    assert len(drawn) == 6 and all(problem.is_solution(x) for x in drawn)
    assert drawn == problem.solution_set(method="memo").sample(6, seed=4)
    assert main(["--sample", "6", "--seed", "4", "--indices", str(p)]) == 0
    assert capsys.readouterr().out == first  # repeatable


def test_budget_exits_stopped(path, capsys) -> None:
    assert main(["--count", "--memo", "--max-nodes", "10", path]) == 3
    out, err = capsys.readouterr()
    assert out == "" and "--max-nodes 10 ran out" in err


@pytest.mark.parametrize("args, what", [
    (["--zdd", "x.zdd", "--learn"], "--learn"),
    (["--memo", "--weighted"], "--weighted"),
    (["--memo", "--best", "2"], "--best"),
    (["--memo", "--workers", "2"], "--workers"),
    (["--sample", "2", "--zdd", "x.zdd"], "--zdd"),
    (["--sample", "2", "--count"], "--count"),
    (["--memo", "--seed", "3"], "--seed"),
    (["--sample", "0"], "sample"),
    (["--preprocess", "--memo"], "--memo"),
])
def test_usage_errors_exit_2(path, capsys, args, what) -> None:
    assert main([*args, path]) == 2
    assert what in capsys.readouterr().err


def test_multiplicities_are_a_usage_error(tmp_path, capsys) -> None:
    p = tmp_path / "m.dlx"
    p.write_text(ExactCover([["a"], ["a", "b"]], multiplicity={"a": (1, 2)}).to_dlx())
    assert main(["--count", "--memo", str(p)]) == 2
    assert "multiplicities" in capsys.readouterr().err


def test_zdd_file_that_cannot_be_written(path, tmp_path, capsys) -> None:
    assert main(["--zdd", str(tmp_path / "no" / "such" / "dir.zdd"), path]) == 4
    assert "cannot write" in capsys.readouterr().err


# ----- on many cores: --workers with --memo --count, --zdd, --sample (issue 40) -------------


def _problems(tmp_path: Path) -> list[tuple[ExactCover, str]]:
    """queens 8 and Langford pairs 8 (300 solutions), each in a file."""
    made = []
    for name, problem in (("queens8", queens(8)), ("langford8", langford(8))):
        p = tmp_path / f"{name}.dlx"
        p.write_text(problem.to_dlx())
        made.append((problem, str(p)))
    return made


# --parts 4: the split made whatever the library's probe would choose (these are small)
SPLIT = [["--workers", "2"], ["--workers", "2", "--parts", "4"]]


@pytest.mark.parametrize("scale", SPLIT)
def test_count_on_two_workers_is_the_count(scale, tmp_path, capsys) -> None:
    for problem, path in _problems(tmp_path):
        assert main(["--memo", "--count", path]) == 0
        alone = capsys.readouterr().out
        assert main(["--memo", "--count", *scale, path]) == 0
        out, err = capsys.readouterr()
        assert out == alone == f"{problem.count()}\n"
        assert f"Altogether {problem.count()} solutions" in err and "Memo: " in err


@pytest.mark.parametrize("scale", SPLIT)
def test_set_on_two_workers_is_the_set(scale, tmp_path, capsys) -> None:
    """--zdd: the same number on stdout, and the file holds the same family (equal as
    sets, the same canonical diagram) as the one process's."""
    for problem, path in _problems(tmp_path):
        one, two = tmp_path / "one.zdd", tmp_path / "two.zdd"
        assert main(["--zdd", str(one), path]) == 0
        alone = capsys.readouterr().out
        assert main(["--zdd", str(two), *scale, path]) == 0
        assert capsys.readouterr().out == alone == f"{problem.count()}\n"
        a, b = SolutionSet.read(problem, one), SolutionSet.read(problem, two)
        assert a == b and sorted(b) == sorted(problem.solutions())
        assert a.canonical().node_count == b.canonical().node_count


def test_sample_on_two_workers_draws_from_the_union(tmp_path, capsys) -> None:
    """A split set is in the store's order: its draws are the canonical set's."""
    problem, path = _problems(tmp_path)[1]
    argv = ["--sample", "5", "--seed", "2", "--indices", "--workers", "2", "--parts", "4"]
    assert main([*argv, path]) == 0
    drawn = [list(map(int, line.split())) for line in capsys.readouterr().out.splitlines()]
    assert drawn == problem.solution_set().canonical().sample(5, seed=2)
    assert all(problem.is_solution(x) for x in drawn)


@pytest.mark.parametrize("args, what", [
    (["--memo", "--count", "--workers", "2", "--max-nodes", "5"], "max_nodes is for a single"),
    (["--zdd", "{tmp}/x.zdd", "--workers", "2", "--max-nodes", "5"], "max_nodes is for a"),
    (["--memo", "--count", "--workers", "2", "--checkpoint", "{tmp}/c.json"],
     "takes no checkpoint"),
    (["--memo", "--count", "--checkpoint", "{tmp}/c.json"], "takes no checkpoint"),
    (["--zdd", "{tmp}/x.zdd", "--checkpoint", "{tmp}/c.json"], "--checkpoint records"),
    (["--memo", "--parts", "4"], "--parts runs the memoized search on many cores"),
    (["--memo", "--count", "--executor", "nowhere"], "executor 'nowhere' is not one of"),
])
def test_what_the_library_refuses_on_many_cores_exits_2(path, tmp_path, capsys, args,
                                                         what) -> None:
    assert main([*(a.format(tmp=tmp_path) for a in args), path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and what in err and len(err.splitlines()) == 1
    assert not (tmp_path / "c.json").exists() and not (tmp_path / "x.zdd").exists()


def test_help_says_the_sets_run_on_many_cores(capsys) -> None:
    assert main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "With --workers N (or --executor, --parts) the count and the set are made on " \
           "many cores" in text


def test_ctrl_c_on_many_cores(path, monkeypatch, capsys) -> None:
    """Ctrl-C while a split memoized count runs (here: in the progress callback after
    the first chunk): exit 130 and the summary of the run as the library recorded it."""
    calls = interrupt_the_live_line(monkeypatch)
    argv = ["--memo", "--count", "--progress", "--workers", "2", "--parts", "4", path]
    assert main(argv) == 130
    out, err = capsys.readouterr()
    assert out == "" and "Interrupted: the search is incomplete." in err
    assert calls[0].done == 0 and calls[1].done > 0  # after a chunk came back


def test_memo_count_on_a_dask_scheduler(path, capsys) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        argv = ["--memo", "--count", "--executor", address, "--parts", "4", path]
        assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out == "92\n" and "Altogether 92 solutions" in err
