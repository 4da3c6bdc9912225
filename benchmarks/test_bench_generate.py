"""The generator and the rater (group ``generate``), against the targets of issue 13:

* ``rated-minimal-9x9``: a minimal 9x9 puzzle generated and rated, one after another
  (``sudoku.generate(9, seed=k)`` then ``sudoku.rate``): at least 1,000 a minute on one core;
* ``minimal-16x16``: ``sudoku.generate(16, seed=k)``, median per puzzle <= 2 s;
* ``expert-9x9``: ``sudoku.generate(9, difficulty="expert", seed=k)``, median <= 1 s.

Every puzzle is checked unique by ``count_solutions`` (outside the timing). Seeds are
fixed, so rounds time the same puzzles; ``extra_info`` has the medians per puzzle and the
rate per minute.
"""

from __future__ import annotations

import statistics
from collections import Counter

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import sudoku
from benchmarks.cases import numba_available
from benchmarks.timing import timed_rounds
from dlx import BackendName

BACKENDS = ["numba", "python"]


def _backend(name: BackendName) -> BackendName:
    if name == "numba" and not numba_available():
        pytest.skip("numba is not installed")
    return name


@pytest.mark.parametrize("backend", BACKENDS)
def test_rated_minimal_9x9(benchmark: BenchmarkFixture, backend: BackendName) -> None:
    backend = _backend(backend)

    def make(seed: int) -> tuple[str, sudoku.Rating]:
        puzzle = sudoku.generate(9, seed=seed, backend=backend)
        return puzzle, sudoku.rate(puzzle, backend=backend)

    make(10_000)  # warm-up: numba's load, the caches
    benchmark.group = "generate"
    got, best = timed_rounds(benchmark, make, range(60), 3)
    assert all(sudoku.count_solutions(p, 2) == 1 for p, _ in got)
    benchmark.extra_info.update(case="rated-minimal-9x9", backend=backend, puzzles=len(got),
                                median_per_puzzle_s=statistics.median(best),
                                per_minute=60 * len(best) / sum(best),
                                levels=dict(Counter(r.level for _, r in got)))


def test_minimal_16x16(benchmark: BenchmarkFixture) -> None:
    backend = _backend("numba")
    sudoku.generate(4, seed=1, backend=backend)  # warm-up
    benchmark.group = "generate"
    got, best = timed_rounds(benchmark, lambda seed: sudoku.generate(16, seed=seed,
                                                                     backend=backend),
                             range(9), 1)
    assert all(sudoku.count_solutions(p, 2, backend=backend) == 1 for p in got)
    benchmark.extra_info.update(case="minimal-16x16", backend=backend, puzzles=len(got),
                                median_per_puzzle_s=statistics.median(best),
                                max_per_puzzle_s=max(best))


def test_expert_9x9(benchmark: BenchmarkFixture) -> None:
    backend = _backend("numba")
    sudoku.generate(9, seed=1, backend=backend)  # warm-up
    benchmark.group = "generate"
    got, best = timed_rounds(benchmark, lambda seed: sudoku.generate(
        9, difficulty="expert", seed=seed, backend=backend), range(15), 1)
    assert all(sudoku.rate(p).level == "expert" for p in got)
    benchmark.extra_info.update(case="expert-9x9", backend=backend, puzzles=len(got),
                                median_per_puzzle_s=statistics.median(best),
                                max_per_puzzle_s=max(best))
