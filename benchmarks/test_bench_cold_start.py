"""Cold start: a new Python process that imports a solver, solves one puzzle and exits.

The other benchmarks warm up first, so they leave out what a one-shot user pays: starting
the interpreter, importing numpy, numba and the solver, and numba's compiling (or loading
from its disk cache). Here each round runs, in a subprocess,

    python -c "<imports>; solve(<norvig_top95 line 1>)"

and the group ``cold-start`` compares them with an empty ``python -c pass``. Rows:

* ``dlx-python``, ``dlx-numba``, ``xcover``, ``exact_cover``: numba's disk cache is warm
  (an untimed run fills it first), as for any run after the first on a machine.
* ``sudoku command``: what a user types, ``python -m sudoku <puzzle>`` (``auto`` keeps one
  9x9 puzzle on the python backend); ``sudoku command (numba)`` adds ``--backend numba``.
* ``dlx-numba (compile)``: numba's cache points to a new empty directory every round
  (``NUMBA_CACHE_DIR``), so the kernel is compiled as on the first use on a machine.
* ``xcover (compile)``: the same for xcover, which compiles two kernels when imported:
  ``long`` (``--long``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from benchmarks.cases import numba_available, param
from benchmarks.puzzles import is_solution

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 3

PROGRAMS = {  # solver -> (arguments of python that print the solution of the puzzle
    # appended to them, modules it needs)
    "python": (["-c", "pass"], ()),
    "dlx-python": (
        ["-c", "import sys, sudoku; print(sudoku.solve_string(sys.argv[1], backend='python'))"],
        (),
    ),
    "dlx-numba": (
        ["-c", "import sys, sudoku; print(sudoku.solve_string(sys.argv[1], backend='numba'))"],
        ("numba",),
    ),
    "sudoku command": (["-m", "sudoku"], ()),
    "sudoku command (numba)": (["-m", "sudoku", "--backend", "numba"], ("numba",)),
    "xcover": (
        ["-c", "import sys; from benchmarks.peers import xcover_solve; "
         "print(xcover_solve(sys.argv[1]))"],
        ("xcover",),
    ),
    "exact_cover": (
        ["-c", "import sys; from benchmarks.peers import exact_cover_solve; "
         "print(exact_cover_solve(sys.argv[1]))"],
        ("exact_cover",),
    ),
}
COMPILING = ("dlx-numba", "xcover")


def _cases() -> list:
    cases = [param(name, "cold-start", name, False) for name in PROGRAMS]
    cases += [param(name, "cold-start-compile", name, True) for name in COMPILING]
    return cases


@pytest.mark.parametrize(("solver", "compile_"), _cases())
def test_cold_start(
    benchmark: BenchmarkFixture,
    puzzle_set: Callable[[str], tuple[str, ...]],
    solver: str,
    compile_: bool,
) -> None:
    arguments, needs = PROGRAMS[solver]
    for module in needs:
        pytest.importorskip(module, reason=f"{module} is not installed")
    if "numba" in solver and not numba_available():
        pytest.skip("numba is not usable here")
    puzzle = puzzle_set("norvig_top95")[0]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [sys.executable, *arguments, puzzle]

    def once() -> str:
        if compile_:
            with tempfile.TemporaryDirectory() as cache:
                env["NUMBA_CACHE_DIR"] = cache
                return _run(command, env)
        return _run(command, env)

    _run(command, env)  # fills numba's disk cache (and the OS's file cache)
    benchmark.group = "cold-start"
    out = benchmark.pedantic(once, rounds=ROUNDS, iterations=1)
    assert solver == "python" or is_solution(puzzle, out.strip()), out
    name = f"{solver} (compile)" if compile_ else solver
    benchmark.extra_info.update(solver=name, puzzle_set="norvig_top95[0]", puzzles=1)


def _run(command: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout
