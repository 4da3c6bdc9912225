"""How an option names its items: plain names, and :class:`Colored` entries."""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

__all__ = ["Colored"]


class Colored(NamedTuple):
    """An item of an option together with its color: ``Colored("X", "red")``.

    Only secondary items may be colored. Knuth writes this ``X:red`` in his text format.
    """

    item: Hashable
    color: Hashable
