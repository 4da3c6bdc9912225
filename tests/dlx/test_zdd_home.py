"""The unique table's first slot of a node (dlx.kernels.zdd.home): a mask of the hash in
a table of a power of two (a store grown by doubling), the hash's top bits scaled in one
of any other length (a store told its size: twice the nodes). Either way the slot is in
the table, and a store whose table changes kind when it grows (rehash) still finds
every node it holds: making a family it has makes no node, and its sets combine as the
same sets in a store of the other kind."""

from __future__ import annotations

import random

import pytest

from dlx.kernels import zdd as kz
from dlx.zdd import SolutionSet
from dlx.zdd_store import Store
from tests.dlx.test_zdd_gc import check, families
from tests.helpers.memo_problems import domino_problem


@pytest.mark.parametrize("length", [1, 2, 1024, 1 << 20, 1 << 30, 3, 1000, 2 * 27552,
                                    (1 << 30) - 2, 2 * 536850])
def test_home_is_a_slot_of_the_table(length):
    rng = random.Random(length)
    hashes = [0, kz.MASK, 1 << 61, (1 << 31) - 1] + [rng.getrandbits(62) for _ in range(500)]
    for h in hashes:
        s = kz.home(h, length)
        assert 0 <= s < length
        if length & (length - 1) == 0:
            assert s == h & (length - 1)
        else:
            assert s == ((h >> 31) * length) >> 31


def _copy(whole: SolutionSet, parts: list[SolutionSet], room: int, backend: str
          ) -> tuple[Store, list[SolutionSet]]:
    """``parts`` adopted into a fresh store of ``room`` node slots (a table of twice as
    many: a power of two or not)."""
    big = whole.store
    store = Store(big.digest, big.order, backend, slots=room)
    assert store.slots == room and len(store.S.SLOT) == 2 * room
    with store.lock:
        made = [SolutionSet._made(whole.problem, store, store.adopt(big, s._at[1]), backend)
                for s in parts]
    return store, made


def test_tables_of_either_kind_find_every_node(backend):
    problem = domino_problem(4, 5)
    whole = problem.solution_set(backend="python").canonical()
    parts = [whole] + [whole.restrict(include=[k]) for k in range(6)]
    expected = [families(s) for s in parts]
    for room in (1 << 11, 1500, 1 << 12):  # tables 4096 (a power of two), 3000, 8192
        store, made = _copy(whole, parts, room, backend)
        assert [families(s) for s in made] == expected
        check(store)
        nodes = store.nodes
        store.adopt(whole.store, whole._at[1])  # every node of it found: none made
        assert store.nodes == nodes
        a, b = made[1], made[2]
        union, inter, diff = a | b, a & b, a - b
        assert families(union) == expected[1] | expected[2]
        assert families(inter) == expected[1] & expected[2]
        assert families(diff) == expected[1] - expected[2]
        check(store)
        # Grown to the other kind of table (3000 -> 8192, 4096 -> 12288, 8192 -> 24576):
        # the rehash and the lookups after it agree on every node's slot.
        length = len(store.S.SLOT)
        store.reserve((3 * length // 2 if length & (length - 1) == 0 else 4096)
                      - store.nodes)
        assert (len(store.S.SLOT) & (len(store.S.SLOT) - 1) == 0) != \
            (length & (length - 1) == 0)
        check(store)
        nodes = store.nodes
        with store.lock:
            again = [SolutionSet._made(problem, store, store.adopt(whole.store, s._at[1]),
                                       backend) for s in parts]
        assert store.nodes == nodes
        assert [x._at[1] for x in again] == [x._at[1] for x in made]
        assert families(made[1] | made[2]) == families(union)
