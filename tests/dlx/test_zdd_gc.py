"""Issue 40, garbage collection of the canonical ZDD store (dlx.zdd_store.Store.gc): the
nodes no live set and no pinned node reaches are dropped, the others renumbered in their
order; every live set keeps its family, hash, count and canonical diagram, the store's
invariants hold, and operations after a collection are right. A store bounded by a small
``max_memory`` that used to stop (SearchStoppedError) finishes a long loop of operations;
a collection in one thread while another combines sets changes no result."""

from __future__ import annotations

import gc
import itertools
import threading

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx.kernels import zdd as kz
from dlx.zdd import SolutionSet
from tests.helpers.backends import AVAILABLE
from tests.helpers.memo_problems import domino_problem, xcc_problems

Family = set[frozenset[int]]


def families(s: SolutionSet) -> Family:
    return {frozenset(x) for x in s}


def check(store) -> None:
    """The store's invariants: ordered, reduced nodes, each once, each found by the unique
    table; counts and fingerprints of the tallied nodes those of their children."""
    k, S = store.kernel, store.S
    n = store.nodes
    N = np.asarray(k.numpy(S.NODE), dtype=np.int64)[: kz.NW * n].reshape(n, kz.NW)
    assert N[0, 0] == N[1, 0] == kz.BOTTOM
    body = N[2:]
    assert (body[:, 2] != 0).all()  # reduced: no node whose hi is the empty family
    assert (body[:, 1] < np.arange(2, n)).all() and (body[:, 2] < np.arange(2, n)).all()
    assert (body[:, 0] < N[body[:, 1], 0]).all() and (body[:, 0] < N[body[:, 2], 0]).all()
    assert len({tuple(t) for t in body.tolist()}) == n - 2  # each family once
    slots = np.asarray(k.numpy(S.SLOT), dtype=np.int64)
    assert sorted(slots[slots != 0].tolist()) == list(range(2, n))
    if len(S.COUNT):
        C = np.asarray(k.numpy(S.COUNT), dtype=np.int64)
        for m in range(2, int(S.REG[kz.REG_TALLIED])):
            lo, hi = N[m, 1], N[m, 2]
            assert C[m] == C[lo] + C[hi] or C[m] == -1


def live_nodes(store) -> int:
    """The nodes the store's live sets and pins reach, the sinks included."""
    k = store.kernel
    MARK, STACK = k.blank(store.nodes), k.blank(store.nodes)
    roots = [s._at[1] for s in (r() for r in store._sets) if s is not None] + \
        [v for pin in store._pins for v in pin.nodes]
    return 2 + sum(int(k.reach(store.S.NODE, r, MARK, STACK)) for r in roots)


@settings(max_examples=40, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE), st.data())
def test_a_collection_keeps_every_live_set(problem, backend, data):
    full = problem.solution_set(backend="python").using(backend)
    store = full.store
    every = families(full)
    n = len(problem)
    sets: list[tuple[SolutionSet, Family]] = [(full, every)]
    for _ in range(data.draw(st.integers(1, 8))):
        ins = data.draw(st.lists(st.integers(0, n - 1), max_size=1)) if n else []
        outs = data.draw(st.lists(st.integers(0, n - 1), max_size=2)) if n else []
        a, fa = data.draw(st.sampled_from(sets))
        sets.append((a.restrict(include=ins, exclude=outs),
                     {x for x in fa if set(ins) <= x and not set(outs) & x}))
        (a, fa), (b, fb) = data.draw(st.sampled_from(sets)), data.draw(st.sampled_from(sets))
        op = data.draw(st.sampled_from(["|", "&", "-", "^"]))
        made = {"|": a | b, "&": a & b, "-": a - b, "^": a ^ b}[op]
        sets.append((made, {"|": fa | fb, "&": fa & fb, "-": fa - fb, "^": fa ^ fb}[op]))
    before = [(hash(s), s.node_count) for s, _ in sets]
    dropped = data.draw(st.sets(st.integers(0, len(sets) - 1)))
    kept = [(s, f, b) for i, ((s, f), b) in enumerate(zip(sets, before)) if i not in dropped]
    del sets, before, a, b, made
    gc.collect()
    nodes = store.nodes
    store.gc()
    check(store)
    assert store.nodes == live_nodes(store) <= nodes
    for s, f, (h, size) in kept:
        assert families(s) == f and s.count() == len(f) and bool(s) == bool(f)
        assert hash(s) == h and s.node_count == size
        assert s == SolutionSet.from_solutions(problem, f)
    for (s, f, _), (t, g, _) in itertools.pairwise(kept):
        assert families(s | t) == f | g and families(s - t) == f - g
        assert (s & t).count() == len(f & g) and (s <= t) == (f <= g)
    check(store)


def test_pinned_nodes_are_renumbered():
    problem = domino_problem(4, 4)
    full = problem.solution_set(backend="python")
    store = full.store
    want = families(full.restrict(include=[0]))
    gc.collect()
    with store.lock:
        node = store.apply_option(kz.WITH, full._node(), 0)
    junk = [full.restrict(exclude=[k]) for k in range(len(problem))]
    del junk
    gc.collect()
    with store.pinned(node) as pin:
        store.gc()
        with store.lock:
            assert families(SolutionSet._made(problem, store, pin.nodes[0], "python")) == want
    check(store)


def _loop(backend: str, max_memory: int) -> tuple[int, int]:
    """A long loop of operations whose live sets stay small: its result's count, and the
    store's node slots at the end."""
    problem = domino_problem(6, 6)
    full = problem.solution_set(backend="python").using(backend)
    full.store.max_memory = max_memory
    acc = full
    for _ in range(3):
        for i in range(len(problem)):
            acc = acc ^ full.restrict(include=[i])
    return acc.count(), full.store.slots


def test_a_bounded_store_collects_and_finishes():
    """The loop made 7,600 nodes (400 KB) before; under 300 KB it stopped with
    SearchStoppedError; now it collects at the operations' safe points and finishes."""
    problem = domino_problem(6, 6)
    every = families(problem.solution_set(backend="python"))
    want: Family = set(every)
    for _ in range(3):
        for i in range(len(problem)):
            want ^= {x for x in every if i in x}
    for backend in AVAILABLE:
        count, slots = _loop(backend, 300_000)
        assert count == len(want) and slots <= 4096


def test_a_collection_in_another_thread_changes_no_result():
    problem = domino_problem(4, 6)
    full = problem.solution_set(backend="python")
    store = full.store
    every = families(full)
    n = len(problem)
    done = threading.Event()
    errors: list[BaseException] = []

    def combine() -> None:
        try:
            for r in range(60):  # (the garbage of a round before its operands: they move)
                i, j = r % n, (3 * r + 1) % n
                junk = full.restrict(include=[j]) - full.restrict(include=[i])
                a, b = full.restrict(include=[i]), full.restrict(exclude=[j])
                del junk
                fa = {x for x in every if i in x}
                fb = {x for x in every if j not in x}
                assert families(a | b) == fa | fb and families(a - b) == fa - fb
                assert (a & b).count() == len(fa & fb) and a ^ b == (a | b) - (a & b)
        except BaseException as e:  # (handed to the main thread)
            errors.append(e)
        finally:
            done.set()

    worker = threading.Thread(target=combine)
    worker.start()
    collections = 0
    while not done.is_set():
        store.gc()
        collections += 1
    worker.join()
    assert not errors, errors[0]
    assert collections > 0 and families(full) == every
    check(store)
