"""dlx: Knuth's Algorithm X and Algorithm C (exact cover with colors) on Dancing Links.

>>> from dlx import ExactCover
>>> problem = ExactCover([["A", "D"], ["E", "F", "C"], ["B", "G"], ["A", "B"]])
>>> problem.first()
[0, 1, 2]
"""

from .backend import Backend
from .batch import BatchResult, InstanceCodec, InstanceSearch
from .budget import NEVER, count_budget, time_budget
from .distribute import RayExecutor
from .draw import Picture, svg_document
from .errors import (
    ArgumentError,
    BoundError,
    CheckpointError,
    ColorError,
    CostError,
    DistributedError,
    DLXFormatError,
    EmptyOptionError,
    EmptySetError,
    ForcedOptionError,
    InputError,
    ItemNameError,
    MatrixError,
    NoPrimaryItemWarning,
    RepeatedItemError,
    SearchStoppedError,
    SetTooLargeError,
    UnknownItemError,
    ZDDFormatError,
)
from .kinds import Solutions
from .learning import LearningSearch
from .matrix import Matrix
from .memo import MemoStats
from .options import Colored
from .preprocess import Preprocessed, Removal
from .problem import ExactCover
from .progress import RunProgress
from .registry import BackendName, backend_names, get_backend, register_backend
from .request import BatchOptions, CountOptions, FirstOptions, SearchOptions, SetOptions
from .search import Search, SearchStats
from .split import Split, Subproblem
from .status import ExitCode, Status
from .zdd import SolutionSet

__version__ = "0.1.0"
"""The version of the ``dancing-cover`` distribution, read by its build (the one place it
is written); ``sudoku.__version__`` is the same string."""

__all__ = [
    "NEVER",
    "ArgumentError",
    "Backend",
    "BackendName",
    "BatchOptions",
    "BatchResult",
    "BoundError",
    "CheckpointError",
    "ColorError",
    "Colored",
    "CostError",
    "CountOptions",
    "DLXFormatError",
    "DistributedError",
    "EmptyOptionError",
    "EmptySetError",
    "ExactCover",
    "ExitCode",
    "FirstOptions",
    "ForcedOptionError",
    "InputError",
    "InstanceCodec",
    "InstanceSearch",
    "ItemNameError",
    "LearningSearch",
    "Matrix",
    "MatrixError",
    "MemoStats",
    "NoPrimaryItemWarning",
    "Picture",
    "Preprocessed",
    "RayExecutor",
    "Removal",
    "RepeatedItemError",
    "RunProgress",
    "Search",
    "SearchOptions",
    "SearchStats",
    "SearchStoppedError",
    "SetOptions",
    "SetTooLargeError",
    "SolutionSet",
    "Solutions",
    "Split",
    "Status",
    "Subproblem",
    "UnknownItemError",
    "ZDDFormatError",
    "backend_names",
    "count_budget",
    "get_backend",
    "register_backend",
    "svg_document",
    "time_budget",
]

_MOVED = ("own_process", "Progress", "open_executor", "map_ordered")
"""Names that left ``__all__`` (issues 29 and 42): the commands' plumbing, reached through
[`dlx.command`][]. ``from dlx import Progress`` still works, with a DeprecationWarning."""


def __dir__() -> list[str]:
    """The public names only (``dir(dlx)``, tab completion): the submodules stay importable
    (``import dlx.problems``) and reachable as attributes, just not listed."""
    return sorted({*__all__, "__version__"})


def __getattr__(name: str) -> object:
    """The names of [`_MOVED`][], from [`dlx.command`][], with a DeprecationWarning."""
    if name not in _MOVED:
        raise AttributeError(f"module 'dlx' has no attribute {name!r}")
    import warnings

    from . import command

    warnings.warn(f"dlx.{name} is no longer public: import it from dlx.command (the "
                  "commands' plumbing)", DeprecationWarning, stacklevel=2)
    return getattr(command, name)
