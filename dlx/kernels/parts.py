"""Independent parts in the memoized search ([`dlx.kernels.memo`][], ``parts=True``): how a
node whose active items fall into groups that no option joins is found, written once for
both backends as the rest of that kernel.

Independent parts (``REG[REG_PARTS]``, off by default: DLX6's nodes then differ). At a memo
miss below the last walk on the path (fewer active primary items than there were), unless
Knuth's choice finds an item without options, [`components`][] walks the active items and
options and splits the items into *groups* that no active option joins. Two or more
groups make the level a *split level*. Their arrays are one, ``GROUPS``: per level
``SPLIT`` (at ``level``: where its groups start, -1 if not split), ``GEND`` (at ``L +
level``: where they end; ``L`` levels) and ``CHECKAT`` (at ``2 L + level``: the active
primary items at the last walk on the path); ``SEEN`` per item and ``OSEEN`` per option
(from ``REG[REG_SEEN_AT]``, ``REG[REG_OSEEN_AT]``: ``REG[REG_STAMP]`` once the latest walk reached
it); then the group stack, up to ``REG[REG_GTOP]``, each group as ``-size`` followed by its
items, the group of the chosen item first. ``CHOICE[level]`` of a split level points to
the group under way and ``SAVEZ[level]`` holds the product of the groups done. Each group
is searched one level down as a problem of its own, the other groups' items set aside from
the active lists ([`dlx.kernels.memo.aside`][]): so its signature names its items only, and
equal groups met anywhere share one memo entry. Its answer is multiplied in (a ``PRODUCT``
node) and the next group taken; a group without solutions ends the level at once. A
secondary item purified to a color joins nothing (the options left on it agree with it)
and stays in every group's signature, as does one that no group reaches.

The walk ([`components`][]) costs about as much as covering every active item, so the
search rations it ([`WALK_SHARE`][], [`WALK_PAID`][]).
"""

from __future__ import annotations

from .declare import Declaration

__all__ = ["PART_REGISTERS", "active_primaries", "components"]

# Registers, REG[...], after those of dlx.kernels.memo.
REG_PARTS = 15  # 1: split into independent parts where found (read-only)
REG_GTOP = 16  # the top of the group stack in GROUPS
REG_STAMP = 17  # the mark of the latest walk over the active items (SEEN, OSEEN)
REG_SPLITS = 18  # the nodes split into independent parts
REG_SEEN_AT = 19  # where SEEN starts in GROUPS (read-only)
REG_OSEEN_AT = 20  # where OSEEN starts in GROUPS (read-only)
REG_WALKED = 21  # the list nodes the walks of components() have visited
REG_EARNED = 22  # the walks that splits have paid for, in list nodes
PART_REGISTERS = ("PARTS", "GTOP", "STAMP", "SPLITS", "SEEN_AT", "OSEEN_AT", "WALKED", "EARNED")
"""The names of these registers, in order."""

WALK_SHARE = 2
WALK_PAID = 8
"""The walks of [`components`][] take at most ``1 / 2**WALK_SHARE`` of the updates, plus
``WALK_PAID`` times those of the walks that found a split: a search that never splits
pays a quarter more at most, one that splits walks at every miss."""


def active_primaries(RL):
    """The number of active primary items."""
    n = 0
    k = RL[0]
    while k != 0:
        n += 1
        k = RL[k]
    return n


def components(S, n1, first):
    """Write the groups of the active items that no active option joins to ``GROUPS``
    from ``REG[REG_GTOP]``, each as ``-size`` and its items, the group of item ``first``
    first; returns the number of groups and the end. A breadth-first walk from each
    active primary item not yet reached, over the lists of primary and unpurified
    secondary items, each option walked once."""
    REG = S.REG
    stamp = REG[REG_STAMP] + 1
    REG[REG_STAMP] = stamp
    G = S.GROUPS
    SEEN = REG[REG_SEEN_AT]
    OSEEN = REG[REG_OSEEN_AT]
    D = S.D
    TOP = S.TOP
    OPT = S.OPT
    COLOR = S.COLOR
    top = REG[REG_GTOP]
    groups = 0
    walked = 0
    k = first
    after = 0  # the walk goes on from the root once ``first``'s group is made
    while k != 0:
        if G[SEEN + k] != stamp:
            G[SEEN + k] = stamp
            head = top
            G[head + 1] = k
            top += 2
            scan = head + 1
            while scan < top:
                j = G[scan]
                scan += 1
                r = D[j]
                while r != j:
                    walked += 1
                    o = OPT[r]
                    if G[OSEEN + o] != stamp:
                        G[OSEEN + o] = stamp
                        q = r + 1
                        while q != r:
                            x = TOP[q]
                            if x <= 0:  # a spacer: on with the option's first node
                                q = S.U[q]
                                continue
                            if G[SEEN + x] != stamp and (x <= n1 or COLOR[x] == 0):
                                G[SEEN + x] = stamp
                                G[top] = x
                                top += 1
                            q += 1
                    r = D[r]
            G[head] = head + 1 - top
            groups += 1
        k = S.RL[after]
        after = k
    REG[REG_WALKED] += walked
    return groups, top


DECLARATION = Declaration("parts", functions=("active_primaries", "components"), entries={},
                          state=None, registers=())
"""A piece of the memoized search (borrowed by it): independent parts."""
