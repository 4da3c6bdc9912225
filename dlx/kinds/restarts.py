"""``first(restarts=...)``: runs of growing node budgets, each shuffled afresh
([`dlx.restarts.first_restarting`][]), as a search that yields the first solution found."""

from __future__ import annotations

from collections.abc import Iterator

from ..backend import Backend
from ..links import Links
from ..registry import get_backend, handover
from ..request import SearchRequest
from ..restarts import first_restarting
from ..search import SearchStats
from ..slices import Lazy
from . import Kind, OnFinish, Problem

__all__ = ["KIND", "Restarting"]


class Restarting(Lazy):
    """The runs of a restarting search, as a lazy search of one solution: ``stats`` sum
    the runs (``restarts``: those cut short)."""

    def __init__(self, problem: Problem, request: SearchRequest, on_finish: OnFinish) -> None:
        links = problem.matrix.links
        backend = get_backend(request.backend, links.n_nodes)
        self.stats = SearchStats(backend=backend.name)
        self._run = self._first(links, backend, request, on_finish)

    def _first(self, links: Links, backend: Backend, request: SearchRequest,
               on_finish: OnFinish) -> Iterator[list[int]]:
        solution, _ = first_restarting(
            links, backend, unit=request.restarts or 1, forced=list(request.forced),
            max_nodes=request.max_nodes, timeout=request.timeout, seed=request.seed or 0,
            weighted=request.weighted, lookahead=request.lookahead, on_finish=on_finish,
            total=self.stats, handover=handover(request.backend, backend))
        if solution is not None:
            yield solution



KIND = Kind("restarts", Restarting)
