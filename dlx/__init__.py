"""dlx: Knuth's Algorithm X and Algorithm C (exact cover with colors) on Dancing Links.

>>> from dlx import ExactCover
>>> problem = ExactCover([["A", "D"], ["E", "F", "C"], ["B", "G"], ["A", "B"]])
>>> problem.first()
[0, 1, 2]
"""

from .errors import (
    ColorError,
    DLXFormatError,
    EmptyOptionError,
    InputError,
    MatrixError,
    NoPrimaryItemWarning,
    RepeatedItemError,
    UnknownItemError,
)
from .problem import Colored, ExactCover
from .search import SearchStats

__all__ = [
    "ColorError",
    "Colored",
    "DLXFormatError",
    "EmptyOptionError",
    "ExactCover",
    "InputError",
    "MatrixError",
    "NoPrimaryItemWarning",
    "RepeatedItemError",
    "SearchStats",
    "UnknownItemError",
]
