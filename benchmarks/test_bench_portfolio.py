"""The portfolio (``strategy="race"``, named ``auto`` before issue 42,
:mod:`dlx.kinds.portfolio`) against each of its two searches, group ``portfolio``: one
solution (or the proof of none) of problems where one search or the other wins by far
(issue 31's table).

Each benchmark is one interleaved run on numba: ``plain``, ``learn`` and ``race`` one
after the other on the same problem, each stopped after ``CAP`` seconds (wall), timed in
CPU seconds (``process_time``: this machine is shared, so wall time overstates), each in a
process of its own (``_fresh``: the kernels loaded and the problem made first, untimed). Searches
that answer in under ``SHORT`` seconds run ``ROUNDS`` rounds, interleaved, and count by
their median (one round of a 0.1 s search varies by 2x here).
``extra_info`` holds, per search, ``cpu_s``, ``nodes`` and whether it answered, and for
``race`` which search answered and the ratios to the better and the slower of the two
(the targets: within 2x of the better, never slower than the slower): read the figures
there; pytest-benchmark's timing column is ``race``'s first round. With
``--benchmark-disable`` only ``race`` runs, once (the capped runs take minutes). Run:
``pytest benchmarks/test_bench_portfolio.py --benchmark-only
--benchmark-json=portfolio.json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.cases import EXACT_COVER_DIR, load_kernel, numba_available
from dlx import ExactCover
from dlx.problems import langford, queens

CAP = 30.0
"""Seconds (wall) before a search is stopped: it then counts as ``CAP`` CPU seconds."""
SHORT = 1.0
"""Searches under this many CPU seconds run ``ROUNDS`` rounds."""
ROUNDS = 7


def _file(name: str) -> Callable[[], ExactCover]:
    def read() -> ExactCover:
        path = EXACT_COVER_DIR / f"{name}.dlx"
        if not path.is_file():
            pytest.skip(f"{path} not found")
        return ExactCover.from_dlx(path.read_text())

    return read


CASES: dict[str, Callable[[], ExactCover]] = {
    "langford13": lambda: langford(13),  # no solution: plain DLX wins
    "pentomino_3x20": _file("pentomino_3x20"),  # plain DLX at once
    "queens200": lambda: queens(200),  # the learner wins
    "queens500": lambda: queens(500),
    "xcc_wordsquare5_sgb500": _file("xcc_wordsquare5_sgb500"),
    "pentomino_6x10": _file("pentomino_6x10"),
}
STRATEGIES = ("plain", "learn", "race")


def _run(problem: ExactCover, strategy: str, max_nodes: int | None = None
         ) -> dict[str, object]:
    """One search for one solution, capped: its CPU seconds, nodes, answer, who answered."""
    cpu = time.process_time()
    search = problem.solutions(1, strategy=strategy, backend="numba", timeout=CAP,
                               max_nodes=max_nodes)
    solution = next(search, None)
    search.count()
    cpu = time.process_time() - cpu
    stats = search.stats
    assert solution is None or problem.is_solution(solution)
    answered = not stats.status.stopped
    return {"cpu_s": round(cpu if answered else max(cpu, CAP), 4), "nodes": stats.nodes,
            "answered": answered, "found": solution is not None,
            "by": stats.answered_by or strategy}


def _fresh(case: str, strategy: str) -> dict[str, object]:
    """[`_run`][] in a process of its own (the kernels loaded, the problem made, then the
    one search timed): what a program that asks once pays. In one process, searches that
    follow one another inherit each other's freed memory, and the learner's 100 MB of room
    for clauses then costs one strategy or the other up to 0.1 s of page faults, by the
    order they run in."""
    done = subprocess.run([sys.executable, "-m", "benchmarks.test_bench_portfolio", case,
                           strategy], capture_output=True, text=True, check=False,
                          timeout=10 * CAP)
    if done.returncode != 0:
        raise RuntimeError(f"{case} {strategy}: {done.stderr}")
    run: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return run


def _cpu(run: dict[str, object]) -> float:
    return float(run["cpu_s"])  # type: ignore[arg-type]


@pytest.mark.parametrize("case", list(CASES))
def test_portfolio(benchmark: BenchmarkFixture, case: str) -> None:
    if not numba_available():
        pytest.skip("numba is not installed")
    problem = CASES[case]()
    for strategy in STRATEGIES:  # the kernels loaded, the learner's lists made
        load_kernel(partial(_run, problem, strategy, max_nodes=10))
    if benchmark.disabled:  # --benchmark-disable, a smoke test: race's answer only
        run = benchmark.pedantic(lambda: _run(problem, "race"), rounds=1, iterations=1)
        assert run["answered"], run
        return
    rounds = {strategy: [_fresh(case, strategy)] for strategy in ("plain", "learn")}
    rounds["race"] = [benchmark.pedantic(lambda: _fresh(case, "race"), rounds=1,
                                         iterations=1)]
    short = [s for s in STRATEGIES if _cpu(rounds[s][0]) < SHORT]
    for _ in range(ROUNDS - 1):
        for strategy in short:
            rounds[strategy].append(_fresh(case, strategy))
    runs = {s: sorted(r, key=_cpu)[len(r) // 2] for s, r in rounds.items()}  # the medians
    plain, learn, race = (_cpu(runs[s]) for s in STRATEGIES)
    benchmark.group = "portfolio"
    benchmark.extra_info.update(
        solver="dlx-auto", case=case, **{f"{s}_{k}": v for s, run in runs.items()
                                         for k, v in run.items()},
        vs_better=round(race / max(min(plain, learn), 1e-6), 2),
        vs_slower=round(race / max(plain, learn), 2))
    assert runs["race"]["answered"], runs
    assert {runs[s]["found"] for s in STRATEGIES if runs[s]["answered"]} == \
        {runs["race"]["found"]}  # the same answer from every search that gave one


if __name__ == "__main__":  # one capped search in this process: _fresh's worker
    _case, _strategy = sys.argv[1:3]
    _problem = CASES[_case]()
    for _warm in STRATEGIES:  # the kernels loaded, the learner's lists made
        load_kernel(partial(_run, _problem, _warm, max_nodes=10))
    print(json.dumps(_run(_problem, _strategy)))
