"""Issue 40: our solution sets equal graphillion's families on the domino boards 2 x 2 to
8 x 8 (a domino an option for us, an edge of the grid graph for graphillion; a tiling a
perfect matching). graphillion's diagram is read as a ZDD text, so it is also checked to
hold tilings only, and compared with ours as a value (``==``: one node of the store).
Skipped without graphillion (``pip install -e '.[bench]'``)."""

from __future__ import annotations

import pytest

from dlx import ExactCover
from dlx.zdd import SolutionSet
from tests.helpers.memo_problems import domino_problem

graphillion = pytest.importorskip("graphillion")


def graphillion_set(n: int, traversal: str) -> tuple[object, list[tuple[object, object]]]:
    """The perfect matchings of the n x n grid, and graphillion's order of its edges."""
    from graphillion import GraphSet

    edges = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    edges += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    GraphSet.set_universe(sorted(edges), traversal=traversal)
    matchings = GraphSet.graphs(degree_constraints={(r, c): 1 for r in range(n)
                                                    for c in range(n)})
    return matchings, [tuple(e[:2]) for e in GraphSet.universe()]


def as_text(problem: ExactCover, matchings: object, universe: list) -> str:
    """graphillion's diagram (``dumps``: ``id var lo hi`` children first, sinks B and T,
    variable ``i`` the ``i``-th edge of the universe) as Knuth's ZDD text of our
    options."""
    number = {frozenset(map(str, problem.option(k))): k + 1 for k in range(len(problem))}
    cell = "{0[0]}_{0[1]}".format
    ids = {"B": "0", "T": "1"}
    lines: list[str] = []
    ident = "B"
    for k, line in enumerate(matchings.dumps().splitlines()):  # type: ignore[attr-defined]
        if line == ".":
            break
        if line in ids:  # the diagram is a sink
            ident = line
            continue
        ident, var, lo, hi = line.split()
        u, v = universe[int(var) - 1]
        ids[ident] = f"{k + 2:x}"
        lines.append(f"{k + 2:x}: (~{number[frozenset((cell(u), cell(v)))]}?{ids[lo]}:"
                     f"{ids[hi]})")
    root = ids[ident]
    lines.append(f"{len(lines) + 2:x}: (~0?0:{root})")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("traversal", ["bfs", "greedy"])
@pytest.mark.parametrize("n", [*range(2, 7), *(pytest.param(n, marks=pytest.mark.slow)
                                              for n in (7, 8))])
def test_families_equal_graphillions(n, traversal):
    problem = domino_problem(n, n)
    ours = problem.solution_set()
    matchings, universe = graphillion_set(n, traversal)
    assert len(matchings) == ours.count()  # type: ignore[arg-type]
    theirs = SolutionSet.from_text(problem, as_text(problem, matchings, universe))
    assert theirs == ours and hash(theirs) == hash(ours)
    if n <= 4:
        assert sorted(map(sorted, theirs)) == sorted(map(sorted, ours))
