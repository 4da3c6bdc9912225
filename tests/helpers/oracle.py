"""Independent reference for the dlx tests: a solution verifier and a brute-force solver.

Nothing here imports ``dlx``. A problem is ``(options, primary, secondary)``: ``options`` a
sequence of options, each a sequence of entries; an entry is an item name, or a pair
``(item, color)`` for a colored secondary item (``dlx.Colored`` is such a pair).

The definition checked is Knuth's XCC problem (TAOCP 7.2.2.1, DLX2): a set of options is a
solution when every primary item lies in exactly one chosen option, and every secondary item
lies in at most one chosen option, or in several that all give it the same color (an
uncolored occurrence excludes every other one). Options without a primary item are never
part of a solution: Knuth's programs drop them, and so does the engine.

With ``bounds`` (item -> ``(u, v)``, Knuth's MCC problem, DLX3) a primary item must lie in
``u`` to ``v`` chosen options instead of exactly one; :func:`cheapest` adds costs (DLX5).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from itertools import combinations
from typing import Any

__all__ = ["brute_force", "cheapest", "read_dlx", "violation"]

MAX_BRUTE_FORCE = 16
"""Largest number of usable options :func:`brute_force` accepts (2**16 subsets)."""


def _split(entry: Hashable) -> tuple[Hashable, Hashable | None]:
    if isinstance(entry, tuple):
        name, color = entry
        return name, color
    return entry, None


def violation(
    options: Sequence[Sequence[Hashable]],
    primary: Iterable[Hashable],
    secondary: Iterable[Hashable],
    chosen: Iterable[int],
    bounds: dict[Hashable, tuple[int, int]] | None = None,
) -> str | None:
    """Why ``chosen`` (option indices) is not a solution, or None when it is one."""
    primary = list(primary)
    is_primary = set(primary)
    is_secondary = set(secondary)
    chosen = list(chosen)
    if len(set(chosen)) != len(chosen):
        return f"an option is chosen twice in {chosen}"
    owner: dict[Hashable, list[int]] = {}
    uses: dict[Hashable, list[tuple[int, Hashable | None]]] = {}
    bounds = bounds or {}
    for k in chosen:
        if not 0 <= k < len(options):
            return f"there is no option {k}"
        entries = [e if isinstance(e, tuple) else (e, None) for e in options[k]]
        if not any(name in is_primary for name, _ in entries):
            return f"option {k} has no primary item"
        for name, color in entries:
            if name in is_primary:
                if color is not None:
                    return f"option {k} colors primary item {name!r}"
                owner.setdefault(name, []).append(k)
                if len(owner[name]) > bounds.get(name, (1, 1))[1]:
                    return f"primary item {name!r} is in options {owner[name]}"
            elif name in is_secondary:
                uses.setdefault(name, []).append((k, color))
            else:
                return f"option {k} names unknown item {name!r}"
    missing = [name for name in primary
               if len(owner.get(name, ())) < bounds.get(name, (1, 1))[0]]
    if missing:
        return f"primary item {missing[0]!r} is not covered often enough"
    for name, occurrences in uses.items():
        colors = {color for _, color in occurrences}
        if len(occurrences) > 1 and (None in colors or len(colors) > 1):
            return f"secondary item {name!r} clashes in options {[k for k, _ in occurrences]}"
    return None


def brute_force(
    options: Sequence[Sequence[Hashable]],
    primary: Iterable[Hashable],
    secondary: Iterable[Hashable],
    bounds: dict[Hashable, tuple[int, int]] | None = None,
) -> set[frozenset[int]]:
    """Every solution, as a set of frozensets of option indices, by trying every subset."""
    primary = list(primary)
    secondary = list(secondary)
    is_primary = set(primary)
    usable = [k for k, opt in enumerate(options) if any(_split(e)[0] in is_primary for e in opt)]
    if len(usable) > MAX_BRUTE_FORCE:
        raise ValueError(f"{len(usable)} options is too many for brute force")
    return {
        frozenset(subset)
        for size in range(len(usable) + 1)
        for subset in combinations(usable, size)
        if violation(options, primary, secondary, subset, bounds) is None
    }


def cheapest(solutions: Iterable[Iterable[int]], costs: Sequence[int]) -> list[int]:
    """The costs of ``solutions`` (sums of their options' ``costs``), cheapest first."""
    return sorted(sum(costs[k] for k in s) for s in solutions)


def read_dlx(text: str, bounds: bool = False) -> Any:
    """A minimal reader of Knuth's DLX format: (primary, secondary, options), and with
    ``bounds`` the bounds DLX3 reads (``u:v|name``, ``v|name``) as a fourth element.

    Comment lines start with ``|``; the first other line lists the items (primary ``|``
    secondary); each further line is an option, ``name:color`` for a colored entry.
    """
    lines = [line.split() for line in text.splitlines()]
    lines = [words for words in lines if words and not words[0].startswith("|")]
    limits: dict[Hashable, tuple[int, int]] = {}
    primary, secondary = [], []
    target = primary
    for word in lines[0]:
        if word.startswith("|"):
            target, word = secondary, word[1:]
        if "|" in word:
            prefix, word = word.split("|")
            low, _, high = prefix.rpartition(":")
            limits[word] = (int(low or high), int(high))
        if word:
            target.append(word)
    options: list[list[Hashable]] = []
    for words in lines[1:]:
        options.append([tuple(w.split(":")) if ":" in w else w for w in words])
    return (primary, secondary, options, limits) if bounds else (primary, secondary, options)
