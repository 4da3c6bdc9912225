"""``auto``'s move from python to numba mid-search: one job in a fresh process, CPU time.

Group ``auto-switch``, one benchmark per job. Each round runs the job in a new Python
process (``python -c <job> <backend>``: start-up, imports, numba's load from its warm disk
cache when the run uses it, the search) three ways, interleaved: ``numba`` and ``python``
(the untimed ``setup`` of the round), then ``auto`` (the benchmark's own time, wall). The
whole process's CPU time (user + system of the child) of each is in ``extra_info``:
medians ``cpu_s`` (auto), ``numba_cpu_s``, ``python_cpu_s``, and ``ratio_cpu`` = auto /
numba, with ``backend`` (what the auto run reported) and the machine's ``load``.

Before ``auto`` could move mid-search, it kept these jobs on python to the end (they are
small problems: it chose python by size), so the ``python`` column is what ``auto`` cost
then. The issue's target: ``auto`` within 1.5x of ``numba``, numba's load included.

* long on python, counted: ``mcc_queens12x10_rowslack`` (Algorithm M; 5 s on python),
  ``langford12_sym`` (python's bitset kernel; 4.5 s), and ``queens14`` (24 s on python,
  so ``long``);
* short: a 9x9 Sudoku (``norvig_top95`` line 1) and ``queens8`` counted, which ``auto``
  must keep on python without loading numba (``python`` and ``auto`` about equal, both
  well under ``numba``).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.cases import EXACT_COVER_DIR, numba_available
from benchmarks.puzzles import load_set, puzzle_dir

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 3

_COUNT = ("import sys, warnings; warnings.simplefilter('ignore'); from dlx import ExactCover; "
          "p = ExactCover.from_dlx(open(sys.argv[2]).read()); "
          "print(p.count(backend=sys.argv[1]), p.stats.backend)")
_SUDOKU = "import sys, sudoku; print(sudoku.solve_string(sys.argv[2], backend=sys.argv[1]))"
_QUEENS = ("import sys; from dlx.problems import queens; p = queens(8); "
           "print(p.count(backend=sys.argv[1]), p.stats.backend)")

JOBS = {  # name -> (code, what its argument is, whether auto must move)
    "mcc_queens12x10_rowslack": (_COUNT, "mcc_queens12x10_rowslack", True),
    "langford12_sym": (_COUNT, "langford12_sym", True),
    "queens14": (_COUNT, "queens14", True),
    "sudoku9-norvig_top95[0]": (_SUDOKU, ("norvig_top95", 0), False),
    "queens8": (_QUEENS, None, False),
}
LONG = {"queens14": "~25 s a round on python"}


def _argument(what: object, pytestconfig: pytest.Config) -> str:
    """The job's argument: a puzzle line, or the path of a ``.dlx`` file."""
    if isinstance(what, tuple):
        name, line = what
        try:
            return load_set(name, puzzle_dir(pytestconfig.getoption("--puzzles")))[line]
        except FileNotFoundError as missing:
            pytest.skip(f"puzzle set {name!r} not found: {missing.filename}")
    if what is None:
        return ""
    path = EXACT_COVER_DIR / f"{what}.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return str(path)


def _run(code: str, backend: str, argument: str) -> tuple[float, str]:
    """CPU seconds of a fresh process running ``code`` on ``backend``, and its output."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", code, backend, argument], env=env,
                          capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done.stdout.strip()


@pytest.mark.parametrize("job", [
    pytest.param(name, marks=[pytest.mark.long(LONG[name])] if name in LONG else [])
    for name in JOBS])
def test_auto_switch(benchmark, pytestconfig: pytest.Config, job: str) -> None:
    if not numba_available():
        pytest.skip("numba is not usable here")
    code, what, moves = JOBS[job]
    argument = _argument(what, pytestconfig)
    _run(code, "numba", argument)  # fills numba's disk cache (and the OS's file cache)
    cpu: dict[str, list[float]] = {"auto": [], "numba": [], "python": []}
    out: dict[str, str] = {}

    def references() -> None:
        for backend in ("numba", "python"):
            seconds, out[backend] = _run(code, backend, argument)
            cpu[backend].append(seconds)

    def auto() -> str:
        seconds, out["auto"] = _run(code, "auto", argument)
        cpu["auto"].append(seconds)
        return out["auto"]

    benchmark.group = "auto-switch"
    start = time.perf_counter()
    benchmark.pedantic(auto, setup=references, rounds=ROUNDS, iterations=1)
    answers = {backend: text.split()[0] for backend, text in out.items()}
    assert answers["auto"] == answers["numba"] == answers["python"], out
    reported = out["auto"].split()[-1] if code != _SUDOKU else ""
    if reported:
        assert reported == ("python->numba" if moves else "python"), out["auto"]
    medians = {backend: statistics.median(seconds) for backend, seconds in cpu.items()}
    benchmark.extra_info.update(
        solver="dlx-auto", puzzle_set=job, rounds=ROUNDS, backend=reported or "?",
        cpu_s=medians["auto"], numba_cpu_s=medians["numba"], python_cpu_s=medians["python"],
        ratio_cpu=medians["auto"] / medians["numba"], cpu_rounds_s=cpu,
        seconds=time.perf_counter() - start, load=os.getloadavg()[0])
