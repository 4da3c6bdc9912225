"""The plain search: Algorithm C, or M for bounds and costs ([`dlx.search.Search`][]),
in the order found or the cheapest first (``order="cost"``)."""

from __future__ import annotations

from ..progress import reporter
from ..registry import get_backend, handover
from ..request import SearchRequest
from ..search import Search
from . import Kind, OnFinish, Problem

__all__ = ["KIND"]


def solutions(problem: Problem, request: SearchRequest, on_finish: OnFinish) -> Search:
    links = problem.matrix.links
    chosen = get_backend(request.backend, links.n_nodes)
    return Search(links, chosen, limit=request.limit, forced=list(request.forced),
                  max_nodes=request.max_nodes, timeout=request.timeout, seed=request.seed,
                  weighted=request.weighted, lookahead=request.lookahead,
                  on_finish=on_finish, handover=handover(request.backend, chosen),
                  order=request.order, progress=reporter(request.progress))


KIND = Kind("plain", solutions)
