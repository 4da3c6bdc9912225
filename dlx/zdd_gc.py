"""Garbage collection of the canonical ZDD store ([`dlx.zdd_store.Store.gc`][]), CUDD's
way without reference counts: mark from the roots, keep what is marked.

A node of a store is *live* when a root reaches it. The roots are the live sets of the
store (each [`dlx.SolutionSet`][] whose node is there registers itself when made,
[`dlx.zdd_store.Store.register`][]; the store keeps weak references, so a set dropped is
no root) and the nodes *pinned* by code that holds raw node numbers across calls
([`pinned`][]). Every other node is garbage: the intermediate results of the operations,
the sets dropped.

A collection, under the store's lock: mark the nodes each root reaches (the kernel's
[`dlx.kernels.zdd.reach`][], one mark array for all roots), move the marked nodes down
keeping their order ([`dlx.kernels.zdd.compact`][]: children stay before parents, so one
forward pass renumbers them through a map; each node's count and fingerprint move with
it), fill the unique table again, forget the operation cache (its entries name old
numbers), and write each root's new number (the sets' ``_at``, the pins' ``nodes``).
The arrays keep their size: the slots freed are filled by the next nodes.

The rule that makes renumbering safe: *a node number is good while its holder holds
the store's lock, or while it is a root.* Every reader of a set's node reads it under
the lock and uses it before letting go; a node made for a new set is registered before
the lock is let go; two stores' locks are never held together (a set brought from
another store is exported under that store's lock first). A collection is then atomic
for every other thread.

When: [`dlx.zdd_store.Store.gc`][] when asked, and at the set operations' *safe
points* ([`dlx.zdd_store.Store.safe_point`][]: before an operation reads its operands,
when the calling thread holds no raw node) once the store is over half full, past half
its ``max_memory`` and at twice the nodes the last collection kept. Not inside the
growth path of an operation under way: its frames on ``STACK`` and its pending result
would be roots too, with numbers in them (an operation's second operand is a node or a
number, by the operation); so an operation that alone needs more than ``max_memory``
still stops with [`dlx.SearchStoppedError`][], while a long run of operations whose live
sets fit no longer does.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Pin", "collect", "pinned"]


@dataclass
class Pin:
    """Node numbers held across calls ([`pinned`][]): renumbered by each collection (read
    and write them under the store's lock)."""

    nodes: list[int]


@contextlib.contextmanager
def pinned(store: Any, nodes: tuple[int, ...]) -> Iterator[Pin]:
    """``nodes`` of ``store`` as roots of its collections for the block: their [`Pin`][]."""
    pin = Pin(list(nodes))
    with store.lock:
        store._pins.append(pin)
    try:
        yield pin
    finally:
        with store.lock:
            store._pins.remove(pin)


def collect(store: Any) -> int:
    """Collect ``store``'s garbage (see the module): the nodes dropped."""
    with store.lock:
        k, S = store.kernel, store.S
        n = store.nodes
        sets = [s for s in (r() for r in store._sets)
                if s is not None and s._at is not None and s._at[0] is store]
        store._sets = [weakref.ref(s) for s in sets]
        store._prune_at = 2 * len(sets) + 1024
        roots = [s._at[1] for s in sets] + [v for pin in store._pins for v in pin.nodes]
        MARK, STACK, MAP = k.blank(n), k.blank(n), k.blank(n)
        for r in roots:
            k.reach(S.NODE, r, MARK, STACK)
        del STACK
        k.compact(S, MARK, MAP)
        del MARK
        S = store.S = S._replace(SLOT=k.cleared(S.SLOT), CACHE=k.cleared(S.CACHE))
        k.rehash(S)
        for s in sets:
            s._at = (store, int(MAP[s._at[1]]))
        for pin in store._pins:
            pin.nodes = [int(MAP[v]) for v in pin.nodes]
        store._kept = store.nodes
        return n - store.nodes
