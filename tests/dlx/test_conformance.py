"""Conformance: every registered backend gives the same answers on the same cases (the
same solutions in the same order, nodes, updates, status and conflict, single searches and
batches alike), and the memoized search (``memo=True``) gives the plain search's.
"""

from __future__ import annotations

import pytest

from dlx import (
    Colored,
    ExactCover,
    NoPrimaryItemWarning,
    SearchStoppedError,
    Status,
)
from dlx.problems import langford, queens
from tests.helpers.backends import AVAILABLE


def _cases() -> list[tuple[str, ExactCover, dict]]:
    with pytest.warns(NoPrimaryItemWarning):
        colored = ExactCover([["A", "B", Colored("X", 0)], ["A", "C", Colored("X", 1)],
                              ["B", Colored("X", 1)], ["C", Colored("Y", 1)], ["C"],
                              [Colored("Y", 2)]], primary="ABC", secondary="XY")
    return [
        ("queens7", queens(7), {}),
        ("queens7-forced", queens(7), {"forced": [3]}),
        ("queens7-seed", queens(7), {"seed": 11}),
        ("langford7", langford(7), {}),
        ("langford7-limit", langford(7), {"limit": 5}),
        ("langford8-budget", langford(8), {"max_nodes": 500}),
        ("colored", colored, {}),
        ("colored-forced", colored, {"forced": [1]}),
        ("conflict", queens(6), {"forced": [0, 1]}),
    ]


@pytest.mark.parametrize("name", [c[0] for c in _cases()])
def test_conformance(name):
    """Every registered backend: the same solutions in the same order, the same nodes,
    updates and status, for single searches and for batches."""
    problem, kwargs = next((p, k) for n, p, k in _cases() if n == name)
    results = {}
    for backend in AVAILABLE:
        search = problem.solutions(backend=backend, **kwargs)
        solutions = list(search)
        s = search.stats
        batch = None
        if "seed" not in kwargs:
            batch = problem.solve_batch([kwargs.get("forced", [])], backend=backend,
                                        limit=kwargs.get("limit"),
                                        max_nodes=kwargs.get("max_nodes"))
            batch = (batch.status.tolist(), batch.found.tolist(), batch.nodes.tolist(),
                     batch.updates.tolist(), batch.solution(0))
        results[backend] = (solutions, s.nodes, s.updates, s.status, s.conflict, batch)
        assert all(problem.is_solution(x) for x in solutions)
    assert len({repr(r) for r in results.values()}) == 1, results


@pytest.mark.parametrize("name", [c[0] for c in _cases() if "seed" not in c[2]])
def test_memo_kind_conformance(name):
    """The memoized search (memo=True) on every backend: the plain search's solutions in
    its order (forced options and conflicts included), and its count; a budget stops it
    as it stops the plain search."""
    problem, kwargs = next((p, k) for n, p, k in _cases() if n == name)
    search = problem.solutions(backend="python", **kwargs)
    plain = list(search)
    for backend in AVAILABLE:
        if "max_nodes" in kwargs:
            memo = problem.solutions(memo=True, backend=backend, **kwargs)
            assert list(memo) == [] and memo.stats.status is Status.MAX_NODES
            with pytest.raises(SearchStoppedError, match="max_nodes"):
                problem.count(memo=True, backend=backend, **kwargs)
            continue
        memo = problem.solutions(memo=True, backend=backend, **kwargs)
        assert list(memo) == plain and memo.stats.backend == backend
        assert (memo.stats.status, memo.stats.conflict) == (search.stats.status,
                                                            search.stats.conflict)
        assert problem.count(memo=True, backend=backend, **kwargs) == len(plain)
