"""A distributed run: the search split into subproblems ([`dlx.split`][]), run on an
executor ([`dlx.distribute`][]); the same solutions in the same order, the same count."""

from __future__ import annotations

from ..budget import NEVER
from ..distribute import DEFAULT_PARTS, SplitSearch, count_split
from ..registry import get_backend
from ..request import SearchRequest
from ..search import SearchStats
from ..split import Split, split_problem
from . import Kind, OnFinish, Problem

__all__ = ["KIND"]


def _plan(problem: Problem, request: SearchRequest) -> tuple[Split, str]:
    """The split (the request's, or about [`DEFAULT_PARTS`][dlx.distribute.DEFAULT_PARTS] parts)
    and the workers' backend (``auto`` resolved here: numba when it runs)."""
    matrix = problem.matrix
    backend = get_backend(request.backend, NEVER).name
    split = request.split or split_problem(matrix.links, matrix.digest,
                                           parts=DEFAULT_PARTS, probes=4)
    return split, backend


def solutions(problem: Problem, request: SearchRequest, on_finish: OnFinish) -> SplitSearch:
    split, backend = _plan(problem, request)
    return SplitSearch(problem, split, executor=request.executor, workers=request.workers,
                       backend=backend, limit=request.bounded, on_finish=on_finish)


def count(problem: Problem, request: SearchRequest,
          on_finish: OnFinish) -> tuple[int, SearchStats]:
    split, backend = _plan(problem, request)
    total, stats = count_split(problem, split, executor=request.executor,
                               workers=request.workers, checkpoint=request.checkpoint,
                               progress=request.progress, backend=backend,
                               limit=request.bounded)
    if on_finish is not None:
        on_finish(stats)
    return total, stats


KIND = Kind("distributed", solutions, count)
