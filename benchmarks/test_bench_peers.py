"""Other exact-cover solvers in the same groups: xcover, exact_cover and miniexact (PyPI).

All are optional: ``pip install xcover exact-cover miniexact``; a missing one skips its
benchmarks.
See ``benchmarks/peers.py`` for how each is called and what it is given. Knuth's programs
are timed against our engine in ``test_bench_knuth.py``, search against search.

* Sudoku groups: puzzle string in, verified solution string out, as for every solver. The
  timing includes parsing, the reduction to exact cover (the same rows and columns as our
  engine's, built with numpy), the library's call, and decoding its rows.
* Exact-cover groups: the input (xcover's arrays, exact_cover's matrix) is built before
  timing, from the same ``.dlx`` file; the timing is one call that counts every solution
  (exact_cover also links its matrix inside that call). Besides the count, one solution of
  each is checked with ``ExactCover.is_solution``.
* Group ``build-count``: a small problem given as lists of item names, built and counted
  in one call, ours (``ExactCover(...).count()``, the default backend with the compiled
  kernel loaded, as in any program past its first search) against miniexact's C: rounds
  interleaved, CPU time, medians; ``extra_info`` has both and the ratio.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest

from benchmarks import peers
from benchmarks.cases import (
    EXACT_COVER_CASES,
    SUDOKU_SETS,
    ExactCoverCase,
    load_kernel,
    numba_available,
    param,
)
from dlx import ExactCover
from dlx.problems import langford, queens

SUDOKU = {"xcover": peers.xcover_solve, "exact_cover": peers.exact_cover_solve}


def require(peer: str) -> None:
    """Skip unless the peer library is installed (``pytest.importorskip``)."""
    pytest.importorskip(peer, reason=f"{peer} is not installed (pip install {peers.PEERS[peer]})")


@pytest.mark.parametrize(
    ("peer", "set_name"), [param(p, s, p, s) for s in SUDOKU_SETS for p in SUDOKU]
)
def test_sudoku_peer(bench_set: Callable[..., None], peer: str, set_name: str) -> None:
    require(peer)
    bench_set(SUDOKU[peer], peer, set_name)


@pytest.mark.parametrize(
    ("peer", "case"), [param(p, c.name, p, c) for c in EXACT_COVER_CASES for p in SUDOKU]
)
def test_count_peer(bench_count: Callable[..., None], peer: str, case: ExactCoverCase) -> None:
    require(peer)
    if not case.path.exists():
        pytest.skip(f"{case.path} not found")
    problem = ExactCover.from_dlx(case.path.read_text())
    if peer == "xcover":
        arrays = peers.xcover_arrays(problem)
        first = peers.xcover_first(arrays)
        note: str | None = "counts by enumerating"

        def count() -> int:
            return peers.xcover_count(arrays)

    else:
        matrix = peers.exact_cover_matrix(problem)
        first = peers.exact_cover_first(problem, matrix)
        note = "secondary items as slack rows" if problem.secondary else None

        def count() -> int:
            return peers.exact_cover_count(matrix)

    assert (first is None) == (case.solutions == 0)
    assert first is None or problem.is_solution(first), f"{peer}: {first} is no solution"
    bench_count(count, peer, case, note=note)


BUILD_COUNT = {"queens8": (queens(8), 92), "langford8": (langford(8), 300)}
BUILD_ROUNDS = 101


@pytest.mark.parametrize("case", list(BUILD_COUNT))
def test_build_and_count(benchmark, case: str) -> None:
    """Ours against miniexact, each building the problem from the same lists of item names
    and counting it; the ratio ours / miniexact in ``extra_info`` (the guard: under 1)."""
    require("miniexact")
    if not numba_available():
        pytest.skip("numba is not installed (the guard is with the kernel loaded)")
    problem, solutions = BUILD_COUNT[case]
    spec = ([list(option) for option in problem.options()], list(problem.primary),
            list(problem.secondary))

    def ours() -> int:
        return ExactCover(spec[0], primary=spec[1], secondary=spec[2]).count()

    load_kernel(lambda: ExactCover([["a"]]).count(backend="numba"))
    calls = {"dlx": ours, "miniexact": lambda: peers.miniexact_count(*spec)}
    cpu: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(BUILD_ROUNDS):
        for name, call in calls.items():
            t = time.process_time()
            assert call() == solutions, name
            cpu[name].append(time.process_time() - t)
    medians = {name: statistics.median(times) for name, times in cpu.items()}
    assert benchmark.pedantic(ours, rounds=1, iterations=1) == solutions
    benchmark.group = "build-count"
    benchmark.extra_info.update(
        solver="dlx", case=case, rounds=BUILD_ROUNDS, cpu_s=medians["dlx"],
        miniexact_cpu_s=medians["miniexact"],
        ratio=round(medians["dlx"] / medians["miniexact"], 3))
