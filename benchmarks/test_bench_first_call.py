"""A first call: a new Python process whose first search is a long count, beside a new
process that only imports numba (issue 44, part 3).

Group ``first-call``, one benchmark per job. Each round runs, in turns, the reference
``python -c "import numba"`` (the untimed ``setup`` of the round) and the job (the
benchmark's own time, wall), each in a new process with numba's disk cache warm (an
untimed run fills it first) and Python's bytecode cached, as an installed package has it
(``PYTHONDONTWRITEBYTECODE`` is dropped from the children's environment). ``extra_info``
holds the medians of both, wall and CPU (user + system of the child): ``wall_s``,
``numba_wall_s``, ``ratio_wall`` = job / ``import numba`` (the issue's target: at most
1.5 for ``queens12`` counted by ``auto``), ``cpu_s``, ``numba_cpu_s``, ``ratio_cpu``,
with the backend the job reported and the machine's ``load``.

Jobs:

* ``queens12-auto``: ``queens(12).count()``, what a new user types (``auto`` starts on
  python, and moves to numba once Knuth's estimate of the tree says the count is long);
* ``queens12-numba``: the same with ``backend="numba"``: numba's import, the kernel's
  load from the cache and the count, without python's part;
* ``import-dlx-sudoku``: ``import dlx, sudoku``, which must stay as cheap as it was.
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

from benchmarks.cases import numba_available

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 5

_QUEENS = ("from dlx.problems import queens; p = queens(12); "
           "print(p.count({}), p.stats.backend)")
REFERENCE = "import numba"
JOBS = {  # name -> code
    "queens12-auto": _QUEENS.format(""),
    "queens12-numba": _QUEENS.format("backend='numba'"),
    "import-dlx-sudoku": "import dlx, sudoku",
}


def _run(code: str) -> tuple[float, float, str]:
    """Wall and CPU seconds of a new process running ``code``, and its output."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.strip()


@pytest.mark.parametrize("job", list(JOBS))
def test_first_call(benchmark, job: str) -> None:
    if not numba_available():
        pytest.skip("numba is not usable here")
    code = JOBS[job]
    _run(code)  # fills numba's disk cache, Python's bytecode cache and the OS's file cache
    _run(REFERENCE)
    times: dict[str, list[tuple[float, float]]] = {"job": [], "numba": []}
    out: list[str] = []

    def reference() -> None:
        wall, cpu, _ = _run(REFERENCE)
        times["numba"].append((wall, cpu))

    def run() -> str:
        wall, cpu, text = _run(code)
        times["job"].append((wall, cpu))
        out.append(text)
        return text

    benchmark.group = "first-call"
    benchmark.pedantic(run, setup=reference, rounds=ROUNDS, iterations=1)
    if job.startswith("queens12"):
        assert all(text.split()[0] == "14200" for text in out), out
    medians = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
               for k, v in times.items()}
    benchmark.extra_info.update(
        solver="dlx", puzzle_set=job, rounds=ROUNDS,
        backend=out[-1].split()[-1] if job.startswith("queens12") else "",
        wall_s=medians["job"][0], numba_wall_s=medians["numba"][0],
        ratio_wall=medians["job"][0] / medians["numba"][0],
        cpu_s=medians["job"][1], numba_cpu_s=medians["numba"][1],
        ratio_cpu=medians["job"][1] / medians["numba"][1], load=os.getloadavg()[0])
