"""Small random XCC problems for property tests (hypothesis strategies), and the checks
that every test building one makes.

A problem is ``(options, primary, secondary)`` as :mod:`tests.helpers.oracle` takes it;
colored entries are :class:`dlx.Colored`. Shared by the property, kernel, batch, learning,
split and distribution tests.
"""

from __future__ import annotations

import warnings

from hypothesis import strategies as st

from dlx import Colored, ExactCover, NoPrimaryItemWarning

__all__ = ["as_set", "build", "planted_problems", "shared_color_problems", "xcc_problems"]


def _entry(draw, name, secondary, palette):
    if name in secondary and palette:
        color = draw(st.sampled_from([None, *palette, *palette]))
        if color is not None:
            return Colored(name, color)
    return name


@st.composite
def xcc_problems(draw, max_options=9, colors=True):
    """(options, primary, secondary): up to 5 primary and 3 secondary items."""
    primary = [f"p{i}" for i in range(draw(st.integers(0, 5)))]
    secondary = [f"s{j}" for j in range(draw(st.integers(0, 3)))]
    palette = draw(st.sampled_from([[], ["red"], ["red"], ["red", "blue"]])) if colors else []
    items = primary + secondary
    options = []
    if items:
        for _ in range(draw(st.integers(0, max_options))):
            names = draw(st.lists(st.sampled_from(items), min_size=1,
                                  max_size=min(4, len(items)), unique=True))
            options.append([_entry(draw, name, secondary, palette) for name in names])
    return options, primary, secondary


@st.composite
def shared_color_problems(draw):
    """Options of 1-2 primary items, mostly with colored secondary items (1-2 of them)."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 5)))]
    secondary = [f"s{j}" for j in range(draw(st.integers(1, 2)))]
    options = []
    for _ in range(draw(st.integers(1, 9))):
        option = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=2, unique=True))
        for name in secondary:
            color = draw(st.sampled_from([None, "absent", "red", "red", "blue"]))
            if color is None:
                option.append(name)
            elif color != "absent":
                option.append(Colored(name, color))
        options.append(option)
    return options, primary, secondary


@st.composite
def planted_problems(draw):
    """(options, primary, secondary, planted): a partition of the items, plus noise, shuffled."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 12)))]
    secondary = [f"s{j}" for j in range(draw(st.integers(0, 3)))]
    n_blocks = draw(st.integers(1, len(primary)))
    block_of = draw(st.lists(st.integers(0, n_blocks - 1), min_size=len(primary),
                             max_size=len(primary)))
    blocks = [[p for p, b in zip(primary, block_of) if b == k] for k in range(n_blocks)]
    blocks = [block for block in blocks if block]
    for name in secondary:  # absent, in one block, or in several blocks with one color
        mode = draw(st.sampled_from(["absent", "once", "colored"]))
        if mode == "once":
            blocks[draw(st.integers(0, len(blocks) - 1))].append(name)
        elif mode == "colored":
            color = draw(st.sampled_from(["red", "blue"]))
            for k in draw(st.sets(st.integers(0, len(blocks) - 1), min_size=1)):
                blocks[k].append(Colored(name, color))
    palette = ["red", "blue"]
    items = primary + secondary
    noise = []
    for _ in range(draw(st.integers(0, 15))):
        names = draw(st.lists(st.sampled_from(items), min_size=1, max_size=5, unique=True))
        noise.append([_entry(draw, name, secondary, palette) for name in names])
    unshuffled = [draw(st.permutations(block)) for block in blocks] + noise
    order = draw(st.permutations(range(len(unshuffled))))
    options = [list(unshuffled[k]) for k in order]
    planted = frozenset(order.index(k) for k in range(len(blocks)))
    return options, primary, secondary, planted


# ----- helpers --------------------------------------------------------------------------


def build(options, primary, secondary) -> ExactCover:
    """The problem, checking that exactly the options without a primary item are dropped."""
    expected = [k for k, opt in enumerate(options)
                if not any(not isinstance(e, tuple) and e in primary for e in opt)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        problem = ExactCover(options, primary=primary, secondary=secondary)
    assert problem.dropped == expected
    kinds = [w.category for w in caught]
    assert kinds == ([NoPrimaryItemWarning] if expected else [])
    return problem


def as_set(solutions) -> set[frozenset[int]]:
    return {frozenset(s) for s in solutions}
