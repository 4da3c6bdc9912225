"""Solution sets against graphillion (issue 40): group ``zdd-peers``.

The set operations of [`dlx.SolutionSet`][] (the canonical store, ``dlx.zdd_store``)
against graphillion's ``GraphSet`` (TdZdd's construction, a C++ setset), on the domino
boards 10 x 10 and 12 x 12 of the shared data (``EXACT_COVER_DIR``, or
``$DANCING_COVER_DATA/exact_cover``; skipped without them, and without graphillion: ``pip
install -e '.[bench]'``). A domino is an option for us and an edge of the grid graph for
graphillion, a tiling a perfect matching (``GraphSet.graphs`` with every vertex of degree
1), built with ``traversal="bfs"`` and with graphillion's default traversal.

``A`` holds the tilings with the corner domino (0,0)-(0,1), ``B`` those with the opposite
corner's. Operations: ``restrict-a`` (``S.restrict(include=[a])``, graphillion
``including(a)``), ``restrict-b`` (the opposite corner), ``|``, ``&``, ``-`` on ``A`` and
``B``; and the queries: ``supersets`` of the family ``{{a}, {b}}`` (the corner dominoes:
the tilings holding either, ``A | B``), ``subsets`` of the one set of every domino but
``a`` (the tilings without it), ``len`` of ``n * n / 2`` dominoes (every tiling):
graphillion's ``supergraphs``, ``subgraphs`` and ``len(k)`` (``supersets`` and
``subsets`` of its ``setset``); its operand is built untimed,
ours (a list of option sets) inside the call. Every figure is CPU time
(``time.process_time``) of the operation alone, from a *cold* start on both sides: ours
in a fresh store holding the operands' nodes only (no result node made, an empty
operation cache, room for the result: a store in use has grown already, by doubling,
1-3 ms a doubling at 12 x 12, paid once, and has made its cache, 0.1 ms, at its first
operation), graphillion in a fresh process (its nodes
and caches are global to the process), the operands built untimed before. Rounds are
interleaved: each round runs graphillion (both traversals, one process each) then ours.
``extra_info`` holds the medians (``ours_cpu_s``, ``graphillion_bfs_cpu_s``,
``graphillion_default_cpu_s``), the ratios ours / theirs, the warm figures (the same
operation again: both answer from their caches), the diagrams' node counts and the
machine's load.

Reading a set (``test_zdd_peers_read``, issue 40: "sampling, iteration, ``solution(i)``,
membership and ``best(k)`` keep their lead"): [`READS`][] on a cold copy of the board's
set (a fresh store holding its nodes: its diagram not yet exported, no counts made)
against graphillion in a fresh process, the same rounds and ``extra_info``.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from benchmarks.cases import EXACT_COVER_DIR, load_kernel, numba_available
from dlx import ExactCover, SolutionSet
from dlx.zdd_store import Store

BOARDS = (10, 12)
OPERATIONS = ("restrict-a", "restrict-b", "|", "&", "-", "supersets", "subsets", "len")
TRAVERSALS = ("bfs", "default")
ROUNDS = 5


def _data_dir() -> Path:
    given = os.environ.get("DANCING_COVER_DATA")
    return Path(given) / "exact_cover" if given else EXACT_COVER_DIR


@cache
def _board(n: int) -> tuple[ExactCover, SolutionSet, int, int]:
    """The n x n board, its set (searched, then in the store: untimed), and the options
    of the two corner dominoes."""
    path = _data_dir() / f"domino_{n}x{n}.dlx"
    if not path.exists():
        pytest.skip(f"{path} not found")
    problem = ExactCover.from_dlx(path.read_text())
    options = [sorted(map(str, problem.option(k))) for k in range(len(problem))]
    a = options.index(["0_0", "0_1"])
    b = options.index([f"{n - 1}_{n - 2}", f"{n - 1}_{n - 1}"])
    return problem, problem.solution_set(backend="numba").canonical(), a, b


BOARD = r"""
import json, sys, time
from graphillion import GraphSet
n, traversal, op = int(sys.argv[1]), sys.argv[2], sys.argv[3]
E = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
E += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
E.sort()
if traversal == "default":
    GraphSet.set_universe(E)
else:
    GraphSet.set_universe(E, traversal=traversal)
gs = GraphSet.graphs(degree_constraints={(r, c): 1 for r in range(n) for c in range(n)})
"""
"""The start of the scripts that run graphillion in a fresh process: the board n x n
(``sys.argv[1]``) as the family ``gs`` of the grid graph's perfect matchings, built with
the traversal ``sys.argv[2]``; the operation is ``sys.argv[3]``."""

GRAPHILLION = BOARD + r"""
a, b = ((0, 0), (0, 1)), ((n - 1, n - 2), (n - 1, n - 1))
A = B = G = None
if op in ("|", "&", "-"):
    A, B = gs.including(a), gs.including(b)
if op == "supersets":
    G = GraphSet([[a], [b]])
if op == "subsets":
    G = GraphSet([[e for e in E if e != a]])
def run():
    if op == "restrict-a":
        return gs.including(a)
    if op == "restrict-b":
        return gs.including(b)
    if op == "supersets":
        return gs.supergraphs(G)
    if op == "subsets":
        return gs.subgraphs(G)
    if op == "len":
        return gs.len(n * n // 2)
    return {"|": A.__or__, "&": A.__and__, "-": A.__sub__}[op](B)
times = []
for _ in range(2):  # cold, then warm
    start = time.process_time()
    out = run()
    times.append(time.process_time() - start)
nodes = len(out.dumps().splitlines()) - 1
print(json.dumps({"cold": times[0], "warm": times[1], "count": len(out), "nodes": nodes,
                  "whole": len(gs.dumps().splitlines()) - 1}))
"""


def _graphillion(n: int, traversal: str, op: str) -> dict[str, Any]:
    """One cold round of graphillion in a fresh process."""
    done = subprocess.run([sys.executable, "-c", GRAPHILLION, str(n), traversal, op],
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def _ours(problem: ExactCover, whole: SolutionSet, a: int, b: int, op: str) -> Any:
    """The operands of ``op`` in a fresh store (their nodes only, an empty cache, room for
    the result, as a store in use has), and the operation as a function of no
    argument."""
    big = whole.store
    A0, B0 = whole.restrict(include=[a]), whole.restrict(include=[b])
    corners = [[a], [b]]
    allowed = [[o for o in range(len(problem)) if o != a]]
    size = problem.matrix.n_primary // 2
    result = {"restrict-a": A0, "restrict-b": B0, "|": A0 | B0, "&": A0 & B0,
              "-": A0 - B0, "supersets": whole.supersets(corners),
              "subsets": whole.subsets(allowed), "len": whole.len(size)}[op]
    store = Store(problem.matrix.digest, big.order, "numba")
    roots = []
    for made in (whole, A0, B0):
        at = made._at
        assert at is not None  # restrict and the first operation placed them in the store
        roots.append(SolutionSet._made(problem, store, store.adopt(big, at[1]), "numba"))
    s, A, B = roots
    store.reserve(result.node_count)
    store.clear_cache()  # made as a store in use has it (a new store's first operation makes
    # it: ~0.1 ms at 12 x 12, paid once, not counted here)
    return {"restrict-a": lambda: s.restrict(include=[a]),
            "restrict-b": lambda: s.restrict(include=[b]),
            "|": lambda: A | B, "&": lambda: A & B, "-": lambda: A - B,
            "supersets": lambda: s.supersets(corners), "subsets": lambda: s.subsets(allowed),
            "len": lambda: s.len(size)}[op]


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


@pytest.mark.parametrize("op", OPERATIONS)
@pytest.mark.parametrize("n", BOARDS)
def test_zdd_peers(benchmark: Any, n: int, op: str) -> None:
    pytest.importorskip("graphillion")
    if not numba_available():
        pytest.skip("numba is not installed")
    problem, whole, a, b = _board(n)
    load_kernel(lambda: (whole | whole).count())
    out, theirs, info = _interleaved(benchmark, lambda t: _graphillion(n, t, op),
                                     lambda: _ours(problem, whole, a, b, op))
    expected = {t: rounds[-1]["count"] for t, rounds in theirs.items()}
    assert set(expected.values()) == {out.count()}, (expected, out.count())
    info.update({"board": f"{n}x{n}", "op": op, "ours_nodes": out.node_count,
                 "ours_whole_nodes": whole.node_count, "count": out.count()})
    for traversal, rounds in theirs.items():
        info[f"graphillion_{traversal}_nodes"] = rounds[-1]["nodes"]
        info[f"graphillion_{traversal}_whole_nodes"] = rounds[-1]["whole"]
    benchmark.extra_info.update(info)


def _interleaved(benchmark: Any, theirs_round: Callable[[str], dict[str, Any]],
                 ours: Callable[[], Callable[[], Any]]
                 ) -> tuple[Any, dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """The rounds of one operation, interleaved: each runs graphillion in a fresh process
    per traversal (``theirs_round(traversal)``: its cold and warm CPU seconds and what
    it found), then makes ours cold (``ours()``, untimed) and times it twice, cold then
    warm. Returns our last answer, graphillion's rounds per traversal, and the
    ``extra_info`` of the medians: ``ours_cpu_s``, ``ours_warm_s``,
    ``graphillion_<traversal>_cpu_s`` and ``_warm_s``, ``ratio_<traversal>`` (ours /
    theirs, cold), the rounds and the load."""
    benchmark.group = "zdd-peers"
    theirs: dict[str, list[dict[str, Any]]] = {t: [] for t in TRAVERSALS}
    cpu: list[float] = []
    warm: list[float] = []
    pending: list[Any] = []

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        for traversal in TRAVERSALS:
            theirs[traversal].append(theirs_round(traversal))
        pending.append(ours())
        return (), {}

    def timed() -> Any:
        run = pending[-1]
        start = time.process_time()
        out = run()
        cpu.append(time.process_time() - start)
        start = time.process_time()
        run()
        warm.append(time.process_time() - start)
        return out

    out = benchmark.pedantic(timed, setup=setup, rounds=ROUNDS, iterations=1)
    info: dict[str, Any] = {"rounds": len(cpu), "ours_cpu_s": _median(cpu),
                            "ours_warm_s": _median(warm), "load": os.getloadavg()[0]}
    for traversal, rounds in theirs.items():
        cold = _median([r["cold"] for r in rounds])
        info[f"graphillion_{traversal}_cpu_s"] = cold
        info[f"graphillion_{traversal}_warm_s"] = _median([r["warm"] for r in rounds])
        info[f"ratio_{traversal}"] = info["ours_cpu_s"] / cold if cold > 0 else float("inf")
    return out, theirs, info


# ----- the 16 x 16 build (issue 40 item 4): top-down against graphillion's ----------------

BUILD_BOARD = 16

BUILD = r"""
import json, resource, sys, time
n, who = int(sys.argv[1]), sys.argv[2]
E = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
E += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
E.sort()
def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
if who == "graphillion":
    from graphillion import GraphSet
    GraphSet.set_universe(E, traversal="bfs")
    before = rss()
    start = time.process_time()
    gs = GraphSet.graphs(degree_constraints={(r, c): 1 for r in range(n) for c in range(n)})
    cpu = time.process_time() - start
    peak = rss()
    count, nodes = gs.len(), len(gs.dumps().splitlines()) - 1
else:
    from dlx import ExactCover
    def board(m):
        return ExactCover([[f"{a}", f"{b}"] for a, b in
                           ([((r, c), (r, c + 1)) for r in range(m) for c in range(m - 1)]
                            + [((r, c), (r + 1, c)) for r in range(m - 1) for c in range(m)])])
    board(4).solution_set(method=who, backend="numba")  # the kernels loaded, untimed
    problem = board(n)
    before = rss()
    start = time.process_time()
    s = problem.solution_set(method=who, backend="numba")
    cpu = time.process_time() - start
    peak = rss()
    count, nodes = s.count(), s.canonical().node_count
print(json.dumps({"cpu": cpu, "peak": peak, "before": before, "count": count,
                  "nodes": nodes}))
"""


def _build(who: str, n: int = BUILD_BOARD) -> dict[str, Any]:
    """One build of the n x n board by ``who`` (``graphillion``: its bfs traversal; ours
    ``frontier`` or ``memo``) in a fresh process: CPU, peak RSS (``ru_maxrss``) and the
    RSS before the build (the interpreter and the libraries: numba's is about 130 MB)."""
    done = subprocess.run([sys.executable, "-c", BUILD, str(n), who], capture_output=True,
                          text=True, timeout=900, check=True)
    return json.loads(done.stdout)


def test_zdd_peers_build(benchmark: Any) -> None:
    """The 16 x 16 domino board built from nothing: ours top-down (``method="frontier"``,
    numba) against graphillion's ``GraphSet.graphs`` (bfs), one fresh process each per
    round, interleaved. ``extra_info``: CPU medians, peak RSS (whole process, and above
    the RSS before the build), node counts, ratios ours / theirs, the load."""
    pytest.importorskip("graphillion")
    if not numba_available():
        pytest.skip("numba is not installed")
    benchmark.group = "zdd-peers"
    rounds: dict[str, list[dict[str, Any]]] = {"graphillion": [], "frontier": []}

    def timed() -> None:
        for who in rounds:
            rounds[who].append(_build(who))

    benchmark.pedantic(timed, rounds=3, iterations=1)
    ours, theirs = rounds["frontier"], rounds["graphillion"]
    assert ours[-1]["count"] == theirs[-1]["count"]
    info: dict[str, Any] = {"board": f"{BUILD_BOARD}x{BUILD_BOARD}", "op": "build",
                            "load": os.getloadavg()[0]}
    for who, runs in rounds.items():
        info[f"{who}_cpu_s"] = _median([r["cpu"] for r in runs])
        info[f"{who}_peak_mb"] = _median([r["peak"] / 2**20 for r in runs])
        info[f"{who}_above_mb"] = _median([(r["peak"] - r["before"]) / 2**20 for r in runs])
        info[f"{who}_nodes"] = runs[-1]["nodes"]
    for key in ("cpu_s", "peak_mb", "above_mb", "nodes"):
        info[f"ratio_{key}"] = info[f"frontier_{key}"] / max(info[f"graphillion_{key}"], 1e-9)
    benchmark.extra_info.update(info)


# ----- reading a set: sampling, iteration, rank, membership, the cheapest ------------------

READS = {"sample": 1000, "iterate": 10000, "solution": 1000, "in": 1000, "best": 10}
"""The reading operations (issue 40's "keep their lead") and how many sets each reads:
``sample`` (``S.sample(k)``; graphillion the first k of ``rand_iter()``), ``iterate``
(the first k of ``iter(S)``; graphillion ``iter(gs)``), ``solution`` (``S.solution(i)``
at k uniform positions; graphillion has no rank access, its nearest is ``choice()``, an
arbitrary set, timed k times), ``in`` (k members, drawn untimed, tested; ``g in gs``),
``best`` (``S.best(k, costs=...)``; graphillion the first k of ``min_iter(weights)``)."""

READ = BOARD + r"""
import itertools
k = int(sys.argv[4])
weights = {e: ((e[0][0] * n + e[0][1]) * 7919 + (e[1][0] * n + e[1][1]) * 104729) % 1000 + 1
           for e in E}
members = list(itertools.islice(gs.rand_iter(), k)) if op == "in" else []
def run():
    if op == "sample":
        return list(itertools.islice(gs.rand_iter(), k))
    if op == "iterate":
        return list(itertools.islice(iter(gs), k))
    if op == "solution":
        return [gs.choice() for _ in range(k)]
    if op == "in":
        return [g in gs for g in members]
    return list(itertools.islice(gs.min_iter(weights), k))
times = []
for _ in range(2):  # cold, then warm
    start = time.process_time()
    out = run()
    times.append(time.process_time() - start)
costs = [sum(weights[e] for e in g) for g in out] if op == "best" else []
print(json.dumps({"cold": times[0], "warm": times[1], "read": len(out),
                  "true": sum(1 for x in out if x is True), "costs": costs,
                  "nodes": len(gs.dumps().splitlines()) - 1}))
"""


def _graphillion_read(n: int, traversal: str, op: str) -> dict[str, Any]:
    """One cold (and warm) round of a reading operation by graphillion in a fresh
    process."""
    done = subprocess.run([sys.executable, "-c", READ, str(n), traversal, op, str(READS[op])],
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def _costs(problem: ExactCover, n: int) -> list[int]:
    """graphillion's weight of each domino (an edge of the grid), for each option: a
    fixed scramble of the two cells' numbers, 1..1000."""
    out = []
    for k in range(len(problem)):
        (r0, c0), (r1, c1) = sorted(tuple(map(int, str(x).split("_")))
                                    for x in problem.option(k))
        out.append(((r0 * n + c0) * 7919 + (r1 * n + c1) * 104729) % 1000 + 1)
    return out


def _reader(problem: ExactCover, whole: SolutionSet, n: int, op: str) -> Any:
    """The reading operation ``op`` on a cold copy of ``whole`` (a fresh store holding its
    nodes: no diagram exported yet, no counts), as a function of no argument; its
    arguments (positions, members, costs) made untimed."""
    k = READS[op]
    big, node = whole._canon()
    store = Store(problem.matrix.digest, big.order, "numba")
    s = SolutionSet._made(problem, store, store.adopt(big, node), "numba")
    if op == "sample":
        return lambda: s.sample(k, seed=1)
    if op == "iterate":
        return lambda: list(itertools.islice(s, k))
    if op == "solution":
        rng = random.Random(2)
        total = whole.count()
        at = [rng.randrange(total) for _ in range(k)]
        return lambda: [s.solution(i) for i in at]
    if op == "in":
        members = whole.sample(k, seed=3)
        return lambda: [m in s for m in members]
    costs = _costs(problem, n)
    return lambda: s.best(k, costs=costs)


@pytest.mark.parametrize("op", list(READS))
@pytest.mark.parametrize("n", BOARDS)
def test_zdd_peers_read(benchmark: Any, n: int, op: str) -> None:
    """Reading a set (issue 40: "sampling, iteration, ``solution(i)``, membership and
    ``best(k)`` keep their lead, 10-100x"): ours on a cold copy of the board's canonical
    set, graphillion (bfs and default traversal) in a fresh process per round, rounds
    interleaved. The answers agree: as many sets read, every member found, the same
    costs of the k cheapest. ``extra_info`` as for [`test_zdd_peers`][], plus ``k``."""
    pytest.importorskip("graphillion")
    if not numba_available():
        pytest.skip("numba is not installed")
    problem, whole, _, _ = _board(n)
    load_kernel(lambda: whole.solution(0))
    out, theirs, info = _interleaved(benchmark, lambda t: _graphillion_read(n, t, op),
                                     lambda: _reader(problem, whole, n, op))
    k = READS[op]
    assert len(out) == k
    if op != "in":
        assert all(problem.is_solution(x) for x in out[:10])
    for rounds in theirs.values():
        assert rounds[-1]["read"] == k
    if op == "in":
        assert all(out) and all(r[-1]["true"] == k for r in theirs.values())
    if op == "best":
        costs = _costs(problem, n)
        mine = [sum(costs[o] for o in x) for x in out]
        assert all(r[-1]["costs"] == mine for r in theirs.values()), mine[:5]
    info.update({"board": f"{n}x{n}", "op": op, "k": k, "ours_whole_nodes": whole.node_count})
    for traversal, rounds in theirs.items():
        info[f"graphillion_{traversal}_whole_nodes"] = rounds[-1]["nodes"]
    benchmark.extra_info.update(info)
