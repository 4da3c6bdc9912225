"""Scale-out on the command lines (``dlx --workers/--executor/--checkpoint``, ``sudoku
--workers/--executor``) and in ``sudoku.solve_many``/``count_many(executor=...)``."""

from __future__ import annotations

import concurrent.futures as cf
import json
from pathlib import Path

import pytest

import dlx.distribute
import sudoku
from dlx import DistributedError, RunProgress
from dlx.cli import main as dlx_main
from dlx.problems import queens
from sudoku.cli import main as sudoku_main

DATA = Path(__file__).resolve().parents[3] / "shared/data/sudoku"


@pytest.fixture
def queens9(tmp_path: Path) -> str:
    path = tmp_path / "queens9.dlx"
    path.write_text(queens(9).to_dlx())
    return str(path)


def test_dlx_count_on_workers(queens9, capsys):
    assert dlx_main(["--count", "--workers", "2", queens9]) == 0
    out, err = capsys.readouterr()
    assert out == "352\n"
    assert "Altogether 352 solutions" in err and "4625 nodes" in err


def test_dlx_solutions_on_workers_come_in_order(queens9, capsys):
    assert dlx_main(["-i", queens9]) == 0
    serial = capsys.readouterr().out
    assert dlx_main(["-i", "--workers", "2", "--parts", "20", queens9]) == 0
    assert capsys.readouterr().out == serial
    assert dlx_main(["-i", "-n", "5", "--workers", "2", queens9]) == 0
    assert capsys.readouterr().out.splitlines() == serial.splitlines()[:5]


def test_dlx_checkpoint_and_progress(queens9, tmp_path, capsys, monkeypatch):
    path = tmp_path / "run.json"
    monkeypatch.setattr("dlx.progress.Progress.show",
                        lambda self, text, force=False: self._write(f"[{text}]"))
    assert dlx_main(["--count", "--parts", "30", "--checkpoint", str(path), queens9]) == 0
    out, err = capsys.readouterr()
    assert out == "352\n" and "parts, 352 solutions" in err and "left]" in err
    assert len(json.loads(path.read_text())["done"]) == json.loads(path.read_text())["parts"]
    assert dlx_main(["--count", "--parts", "30", "--checkpoint", str(path), queens9]) == 0
    assert capsys.readouterr().out == "352\n"
    assert dlx_main(["--count", "--parts", "31", "--checkpoint", str(path), queens9]) == 2
    assert "another split" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["--workers", "2", "--timeout", "1"], "--timeout is for a single search"),
    (["--workers", "2", "--seed", "1"], "--seed is for a single search"),
    (["--workers", "2", "--seed", "0"], "--seed is for a single search"),
    (["--parts", "4", "--timeout", "0"], "--timeout is for a single search"),
    (["--workers", "2", "--learn"], "--learn is for a single search"),
    (["--parts", "4", "--weighted"], "--weighted is for a single search"),
    (["--parts", "4", "--lookahead", "2"], "--lookahead is for a single search"),
    (["--checkpoint", "x.json"], "--checkpoint needs --count"),
    (["--count", "--executor", "nowhere"], "executor 'nowhere' is not one of"),
])
def test_dlx_bad_scale_options(queens9, capsys, argv, message):
    assert dlx_main([*argv, queens9]) == 2
    assert message in capsys.readouterr().err


def test_dlx_on_a_dask_scheduler(queens9, capsys):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        assert dlx_main(["--count", "--executor", address, queens9]) == 0
    assert capsys.readouterr().out == "352\n"


def puzzles(n: int) -> list[str]:
    path = DATA / "royle_17clue.txt"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    lines = [line.strip() for line in path.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return lines[:n]


def test_solve_many_and_count_many_on_an_executor(monkeypatch):
    monkeypatch.setattr("sudoku.batch._CHUNK", 100)
    grids = [*puzzles(450), "1" * 81, "." * 81]
    with cf.ThreadPoolExecutor(2) as pool:
        assert [str(a) for a in sudoku.solve_many(grids, executor=pool)] == \
            [str(a) for a in sudoku.solve_many(grids)]
        assert sudoku.count_many(grids, 2, executor=pool)[:-2] == [1] * 450
        with pytest.raises(sudoku.ArgumentError, match="executor must be"):
            sudoku.solve_many(grids, executor="dask://x")
    with cf.ProcessPoolExecutor(2) as pool:
        answers = sudoku.solve_many(grids, unique=True, executor=pool)
        assert answers[:450] == sudoku.solve_many(grids[:450])
        assert all(len(a) == 81 and "." not in a for a in answers[:450])
        assert isinstance(answers[450], sudoku.ClashError)
        assert isinstance(answers[451], sudoku.MultipleSolutionsError)
    broken = cf.ThreadPoolExecutor(1)
    broken.shutdown()
    with pytest.raises(DistributedError, match="refuses tasks"):
        sudoku.solve_many(grids, executor=broken)


def test_sudoku_command_on_workers_and_dask(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("\n".join(puzzles(300)) + "\n")
    assert sudoku_main(["-f", str(path)]) == 0
    serial = capsys.readouterr().out
    assert serial.count("\n") == 300
    assert sudoku_main(["-f", str(path), "--workers", "2"]) == 0
    assert capsys.readouterr().out == serial
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address.replace("tcp://", "dask://")
        assert sudoku_main(["-f", str(path), "--executor", address]) == 0
    assert capsys.readouterr().out == serial
    assert sudoku_main(["-f", str(path), "--executor", "nowhere"]) == 2
    assert "is not one of" in capsys.readouterr().err


def test_progress_line_says_what_is_left():
    p = RunProgress(done=3, parts=10, solutions=1234, nodes=5000, seconds=2.0, left=75.0)
    assert p.rate == 2500
    assert p.line() == ("3/10 parts, 1,234 solutions, 2,500 nodes/s, 2 s elapsed, "
                        "~1 min 15 s left")
    assert "~?" in RunProgress(0, 10, 0, 0, 0.0, None).line()


def test_dlx_names_a_checkpoint_or_an_executor_that_cannot_serve(queens9, tmp_path, capsys,
                                                                 monkeypatch):
    """R2 (issue 32): an OSError of the checkpoint or of the cluster was reported as
    "cannot write to standard output", exit 4. It names them, exit 2."""
    missing = tmp_path / "no-such-dir" / "cp.json"
    assert dlx_main(["-c", "--checkpoint", str(missing), queens9]) == 2
    out, err = capsys.readouterr()
    # Refused before the search (the library's CheckpointError names the file and why).
    assert out == "" and err.startswith(f"dlx: checkpoint {missing}: no directory ")
    assert "standard output" not in err and len(err.splitlines()) == 1
    pytest.importorskip("distributed")
    monkeypatch.setenv("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "1s")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert dlx_main(["-c", "--executor", "dask://127.0.0.1:1", queens9]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("dlx: --executor: ") and len(err.splitlines()) == 1
    assert "standard output" not in err


_RUN_CHUNK = dlx.distribute.run_chunk


def _chunk_that_dies(*args):
    """dlx.distribute.run_chunk, but the process dies (killed, out of memory) on its first
    chunk: every time, or (with DIES_ONCE naming a file) only once in all."""
    import os

    once = os.environ.get("DIES_ONCE")
    if once is None or not os.path.exists(once):
        if once is not None:
            open(once, "w").close()
        os._exit(9)
    return _RUN_CHUNK(*args)


@pytest.mark.parametrize("once", [False, True])
def test_dlx_worker_that_dies(queens9, capsys, monkeypatch, tmp_path, once):
    """``dlx --workers`` runs on the commands' one pool (dlx.command.Pool), as ``sudoku -j``
    does, and stops the same way: a chunk whose worker died is tried again on a new
    worker; one that kills every worker stops the run, one line, exit 3."""
    if once:
        monkeypatch.setenv("DIES_ONCE", str(tmp_path / "died"))
    monkeypatch.setattr("dlx.distribute.run_chunk", _chunk_that_dies)
    code = dlx_main(["--count", "--workers", "2", "--backend", "python", queens9])
    out, err = capsys.readouterr()
    if once:
        assert (code, out) == (0, "352\n") and "Altogether 352 solutions" in err
        return
    assert (code, out) == (3, "") and len(err.splitlines()) == 1
    assert err.startswith("dlx: a chunk of subproblems failed 4 times; last error: "
                          "WorkerError: worker process ")
