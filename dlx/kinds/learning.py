"""The learning search (``strategy="learn"``): [`dlx.learning.LearningSearch`][] over the
kernel's lists of the problem, made once per problem and kept with its links."""

from __future__ import annotations

from ..learning import LearningSearch, problem_lists
from ..progress import reporter
from ..registry import get_backend, handover
from ..request import SearchRequest
from . import Kind, OnFinish, Problem

__all__ = ["KIND"]


def solutions(problem: Problem, request: SearchRequest,
              on_finish: OnFinish) -> LearningSearch:
    matrix = problem.matrix
    links = matrix.links
    lists = links.converted.get("learning")
    if lists is None:
        lists = links.converted.setdefault("learning", problem_lists(
            matrix.n_items, matrix.n_primary, matrix.indptr, matrix.items, matrix.colors))
    chosen = get_backend(request.backend, links.n_nodes)
    return LearningSearch(lists, chosen, limit=request.limit, forced=list(request.forced),
                          max_nodes=request.max_nodes, timeout=request.timeout,
                          seed=request.seed, on_finish=on_finish,
                          handover=handover(request.backend, chosen),
                          progress=reporter(request.progress))


KIND = Kind("learning", solutions)
