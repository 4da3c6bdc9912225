"""dlx: Knuth's Algorithm X and Algorithm C (exact cover with colors) on Dancing Links.

>>> from dlx import ExactCover
>>> problem = ExactCover([["A", "D"], ["E", "F", "C"], ["B", "G"], ["A", "B"]])
>>> problem.first()
[0, 1, 2]
"""

from .errors import (
    ArgumentError,
    ColorError,
    DLXFormatError,
    EmptyOptionError,
    ForcedOptionError,
    InputError,
    MatrixError,
    NoPrimaryItemWarning,
    RepeatedItemError,
    UnknownItemError,
)
from .problem import Colored, ExactCover
from .search import SearchStats
from .status import ExitCode, Status

__all__ = [
    "ArgumentError",
    "ColorError",
    "Colored",
    "DLXFormatError",
    "EmptyOptionError",
    "ExactCover",
    "ExitCode",
    "ForcedOptionError",
    "InputError",
    "MatrixError",
    "NoPrimaryItemWarning",
    "RepeatedItemError",
    "SearchStats",
    "Status",
    "UnknownItemError",
]
