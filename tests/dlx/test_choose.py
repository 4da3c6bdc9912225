"""count()'s choice (dlx.kinds.choose), confirmed (issue 44, part 4): the probe drops the
memoized search as soon as too many of its signatures come to nothing, and keeps it only
once ``choose.CONFIRMED`` of them say so, so that a small first sample cannot keep a
memoized search that is slower than the plain one (``xcc_debruijn5``: 1.46x before)."""

from __future__ import annotations

from unittest import mock

import pytest

from dlx import Status
from dlx.kinds import choose
from tests.helpers.backends import needs_numba
from tests.helpers.datasets import load_exact_cover


@needs_numba
@pytest.mark.parametrize(("name", "answered_by", "solutions"), [
    ("xcc_debruijn5", "plain", 2048),  # 12% no-good after 43 signatures, 31% after 453
    ("domino_8x8", "memo", 12_988_816),  # 0% all along
])
def test_the_choice_waits_for_a_confirmed_sample(name, answered_by, solutions) -> None:
    problem = load_exact_cover(name)
    assert problem.count(backend="numba") == solutions
    stats = problem.stats
    assert stats.status is Status.COMPLETE and stats.answered_by == answered_by
    assert "memo" in stats.parts
    if answered_by == "plain":
        assert stats.parts["memo"].status is Status.RUNNING  # dropped
        assert stats.parts["memo"].nodes > 256  # after the first look had kept it


@needs_numba
def test_without_confirmation_the_first_look_keeps_it() -> None:
    """``CONFIRMED`` at ``DECIDED``: the old rule, which kept debruijn5's memoized search."""
    problem = load_exact_cover("xcc_debruijn5")
    with mock.patch.object(choose, "CONFIRMED", choose.DECIDED):
        assert problem.count(backend="numba") == 2048
    assert problem.stats.answered_by == "memo"
