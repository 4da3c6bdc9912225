"""The links kernel, Algorithm C (`dlx.kernels.algorithm_c`), by its own steps. Its
searches are held to Knuth's DLX1/DLX2 node and update counts in `../test_dlx_known.py`,
and to the brute-force oracle in `../test_dlx_properties.py`; here, the steps alone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dlx.kernels import algorithm_c
from dlx.links import INACTIVE

# The choice of item for many primary items (defect D19 of the reliability issue): past
# SCAN_ITEMS primary items the compiled search walks the active list (its WALK switch).


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=300), st.data())
def test_choose_walk_is_knuths_choice(lengths, data):
    """Walk + scan picks Knuth's item (the first active one of least length) for any
    active list in item order."""
    n = len(lengths)
    active = sorted(data.draw(st.sets(st.integers(1, n), min_size=1)))
    LEN = [INACTIVE] + [v if k in active else v + INACTIVE
                          for k, v in enumerate(lengths, 1)]
    LL = list(range(n + 1))
    RL = list(range(n + 1))
    ring = [0, *active]
    for a, b in zip(ring, ring[1:] + ring[:1]):
        RL[a], LL[b] = b, a
    want = min(active, key=lambda k: (LEN[k], k))
    assert algorithm_c.choose_walk(LEN, LL, RL, n + 1) == want
