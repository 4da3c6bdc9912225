"""Other exact-cover solvers in the same groups: xcover and exact_cover (PyPI).

Both are optional: ``pip install xcover exact-cover``; a missing one skips its benchmarks.
See ``benchmarks/peers.py`` for how each is called and what it is given. Knuth's programs
are timed against our engine in ``test_bench_knuth.py``, search against search.

* Sudoku groups: puzzle string in, verified solution string out, as for every solver. The
  timing includes parsing, the reduction to exact cover (the same rows and columns as our
  engine's, built with numpy), the library's call, and decoding its rows.
* Exact-cover groups: the input (xcover's arrays, exact_cover's matrix) is built before
  timing, from the same ``.dlx`` file; the timing is one call that counts every solution
  (exact_cover also links its matrix inside that call). Besides the count, one solution of
  each is checked with ``ExactCover.is_solution``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks import peers
from benchmarks.cases import EXACT_COVER_CASES, SUDOKU_SETS, ExactCoverCase, param
from dlx import ExactCover

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
