"""What a search is asked: the options of ``solutions``, ``count``, ``first`` and ``best``,
checked once, by one function, into one frozen record.

[`SearchOptions`][] (and [`CountOptions`][], [`FirstOptions`][]) is the one place
where the keyword arguments of those four calls are written, with their types; the calls
take them as ``**options`` (typed ``Unpack[...]`` for mypy and IDEs). [`check_request`][]
holds every rule for them, the rules that tie two arguments together included ("learn
takes no weighted", "a distributed run takes no forced", "a checkpoint takes no limit",
"multiplicities refuse the strategies"), and returns a [`SearchRequest`][]: budgets
normalized ([`dlx.budget`][], [`dlx.NEVER`][] for none), forced options a tuple of
option numbers, and the ``kind`` of search that [`dlx.run.run`][] will run. A bad value
raises [`dlx.ArgumentError`][] (forced options [`dlx.ForcedOptionError`][], a
checkpoint [`dlx.CheckpointError`][]) naming it, before any work is done.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from .arguments import callable_arg, check_forced, flag_arg, order_arg, seed_arg
from .backend import Backend
from .budget import NEVER, count_budget, time_budget
from .distribute import checkpoint_path
from .errors import ArgumentError
from .matrix import Matrix
from .registry import BackendName, get_backend
from .split import Split

if TYPE_CHECKING:
    from .distribute import RunProgress

__all__ = ["MAX_WORKERS", "CountOptions", "FirstOptions", "SearchOptions", "SearchRequest",
           "check_request"]

MAX_WORKERS = 4096
"""The most local worker processes a run may ask for (``workers``)."""


class SearchOptions(TypedDict, total=False):
    """The keyword arguments of [`dlx.ExactCover.solutions`][] (and of ``count``,
    ``first`` and ``best``), all optional; [`solutions`][dlx.ExactCover.solutions] says what
    each does."""

    forced: Iterable[int] | None
    """Options taken before the search, in every solution."""
    max_nodes: int | None
    """A budget of search nodes (None: none)."""
    timeout: float | None
    """A budget of seconds (None: none)."""
    seed: int | None
    """Shuffles the items and options once (None: Knuth's order)."""
    weighted: bool
    """Branch on the item of least length / weight (dom/wdeg)."""
    lookahead: int
    """Hide the options item domination excludes, testing items of up to this many
    options (0: none)."""
    learn: bool
    """The learning search (`dlx.learning`)."""
    strategy: str
    """``plain`` (the default), ``learn`` (as ``learn=True``) or ``auto``: both in turns
    for one solution, the first to answer wins (`dlx.kinds.portfolio`)."""
    backend: BackendName | Backend
    """``auto``, ``python``, ``numba`` or a [`dlx.Backend`][]."""
    order: str
    """``search`` (as found) or ``cost`` (cheapest first)."""
    executor: cf.Executor | None
    """Run the split search's subproblems on this executor (`dlx.distribute`)."""
    workers: int | None
    """... or on a pool of this many local processes."""
    split: Split | None
    """... cut this way (default: [`split`][dlx.ExactCover.split] with 64 parts)."""
    memo: bool | None
    """The memoized search (`dlx.memo`, Knuth's DLX6): it builds the set of all
    solutions (a ZDD) and reads them off it; False: the plain search. None (not given):
    the plain search, but ``count()`` chooses between the two when the request allows
    the memoized search (`dlx.kinds.choose`)."""


class CountOptions(SearchOptions, total=False):
    """[`SearchOptions`][], and what only [`dlx.ExactCover.count`][] takes."""

    checkpoint: str | os.PathLike[str] | None
    """A JSON file of the finished subproblems of a distributed count: a rerun resumes."""
    progress: Callable[[RunProgress], object] | None
    """Called with a [`dlx.RunProgress`][] after each finished chunk."""


class FirstOptions(SearchOptions, total=False):
    """[`SearchOptions`][], and what only [`dlx.ExactCover.first`][] takes."""

    restarts: int | None
    """Restart by Luby's sequence of this many nodes (`dlx.restarts`)."""


ACCEPTS = {"solutions": frozenset(SearchOptions.__annotations__),
           "best": frozenset(SearchOptions.__annotations__),
           "count": frozenset(CountOptions.__annotations__),
           "first": frozenset(FirstOptions.__annotations__)}
"""The options each call takes."""

STRATEGIES = ("plain", "learn", "auto")
"""``strategy``: the plain search, the learning search, or a portfolio of both."""

SINGLE = ("forced", "max_nodes", "timeout", "seed", "weighted", "lookahead", "learn",
          "order", "restarts")
"""What only a single search takes: a distributed run refuses each, unless at its default."""

PLAIN = ("learn", "weighted", "lookahead", "restarts")
"""The strategies for hard instances, which problems with bounds or costs refuse."""


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A search's arguments, checked and normalized by [`check_request`][].

    ``kind`` names the kind of search ([`dlx.run.KINDS`][]): ``plain`` (Algorithm C or
    M, ``order="cost"`` included), ``learning``, ``restarts``, ``distributed``,
    ``portfolio``, ``memo`` or ``choose`` (a count by the plain or the memoized search,
    chosen as it goes).
    Budgets are [`dlx.NEVER`][] when unbounded; ``timeout`` is None then.
    """

    kind: str
    limit: int = NEVER
    forced: tuple[int, ...] = ()
    max_nodes: int = NEVER
    timeout: float | None = None
    seed: int | None = None
    weighted: bool = False
    lookahead: int = 0
    learn: bool = False
    backend: str | Backend = "auto"
    order: str = "search"
    restarts: int | None = None
    executor: cf.Executor | None = None
    workers: int | None = None
    split: Split | None = None
    checkpoint: str | None = None
    progress: Callable[[RunProgress], object] | None = None
    strategy: str = "plain"
    memo: bool = False

    @property
    def bounded(self) -> int | None:
        """``limit`` as the distributed functions take it: None when unbounded."""
        return None if self.limit >= NEVER else self.limit


def check_request(matrix: Matrix, call: str, limit: Any,
                  options: Mapping[str, Any]) -> SearchRequest:
    """The request of ``call`` (``solutions``, ``count``, ``first``, ``best``) with
    ``limit`` and the keyword ``options`` for the problem ``matrix``: every rule checked,
    in a fixed order (each argument alone, then the kind of search, then the rules that
    tie arguments together), so that the first fault is reported the same way on every
    path. An option the call does not take raises TypeError, as Python would."""
    unknown = set(options) - ACCEPTS[call]
    if unknown:
        raise TypeError(f"{call}() got an unexpected keyword argument {min(unknown)!r}")
    get = options.get
    executor, workers, split = get("executor"), get("workers"), get("split")
    checkpoint, progress = get("checkpoint"), get("progress")
    limit_ = count_budget(limit, "limit", 1)
    order = order_arg(get("order", "search"))
    learn = flag_arg(get("learn", False), "learn")
    strategy = _strategy(get("strategy"), learn)
    learn = strategy == "learn"
    restarts = None if get("restarts") is None else count_budget(get("restarts"), "restarts")
    max_nodes = count_budget(get("max_nodes"), "max_nodes", 0)
    timeout = time_budget(get("timeout"))
    seed = seed_arg(get("seed"))
    weighted = flag_arg(get("weighted", False), "weighted")
    lookahead = count_budget(get("lookahead", 0), "lookahead", 0)
    chosen = get("memo") is None  # count(): the plain or the memoized search, chosen
    memo = not chosen and flag_arg(get("memo"), "memo")
    backend = get("backend", "auto")
    if backend != "auto":
        get_backend(backend)  # ArgumentError for an unknown name; ImportError: not here
    distributed = not (executor is None and workers is None and split is None
                       and checkpoint is None)
    if matrix.mcc:
        if distributed:
            raise ArgumentError("multiplicities and costs are searched by one process: a "
                                "distributed run (executor, workers, checkpoint or split) "
                                "splits Algorithm C's tree only")
        for name, asked in zip(PLAIN, (learn, weighted, lookahead, restarts)):
            if asked:
                raise ArgumentError(f"{name} is for problems without bounds or costs "
                                    "(Algorithm M chooses its items its own way)")
    forced = tuple(check_forced(get("forced"), matrix.n_options, matrix.dropped))
    if memo:
        _memo(matrix, {"seed": seed is not None, "weighted": weighted, "lookahead": lookahead,
                       "learn": learn, "order='cost'": order != "search",
                       "restarts": restarts is not None,
                       "a distributed run (executor, workers, checkpoint or split)":
                       distributed, "progress": progress is not None,
                       f"strategy={strategy!r}": strategy not in ("plain", "learn")})
        return SearchRequest("memo", limit_, forced, max_nodes, timeout, backend=backend,
                             memo=True)
    if distributed:
        given = (bool(forced), max_nodes < NEVER, timeout is not None, seed is not None,
                 weighted, lookahead > 0, learn, order != "search", restarts is not None)
        for name, flag in zip(SINGLE, given):
            if flag:
                raise ArgumentError(f"{name} is for a single search; a distributed run "
                                    "(executor, workers, checkpoint or split) takes none")
        return _distributed(matrix, limit_, backend, executor, workers, split, checkpoint,
                            progress)
    if progress is not None:
        raise ArgumentError("progress reports the chunks of a distributed run (executor, "
                            "workers, checkpoint or split); a single search has none: read "
                            "its stats")
    if learn:
        if weighted or lookahead:
            raise ArgumentError("learn=True chooses its options by their part in recent "
                                "conflicts (VSIDS): it takes no weighted or lookahead")
        if order != "search":
            raise ArgumentError("order='cost' is for problems with costs; learn=True "
                                "takes none")
        if restarts is not None:
            raise ArgumentError("learn=True restarts on its own (Luby's sequence of "
                                "conflicts): it takes no restarts")
    if restarts is not None and order != "search":
        raise ArgumentError("order='cost' searches the whole tree for the cheapest: it "
                            "takes no restarts")
    portfolio = strategy == "auto" and limit_ == 1 and not matrix.mcc and order == "search"
    choose = (call == "count" and chosen and get("strategy") is None and limit_ >= NEVER
              and max_nodes >= NEVER and matrix.bounds is None and seed is None
              and not weighted and not lookahead and not learn and order == "search")
    kind = ("learning" if learn else "restarts" if restarts is not None else
            "portfolio" if portfolio else "choose" if choose else "plain")
    return SearchRequest(kind, limit_, forced, max_nodes, timeout,
                         (seed or 0) if kind == "restarts" else seed, weighted, lookahead,
                         learn, backend, order, restarts, strategy=strategy)


def _strategy(value: Any, learn: bool) -> str:
    """``strategy`` checked (None: ``plain``), ``learn=True`` being ``learn``. ``auto`` is
    a portfolio ([`dlx.kinds.portfolio`][]) for one solution of a problem without bounds
    or costs, in the order found, without restarts; otherwise the plain search."""
    if value is None:
        return "learn" if learn else "plain"
    if type(value) is not str or value not in STRATEGIES:
        raise ArgumentError(f"strategy must be 'plain', 'learn' or 'auto', got {value!r}")
    if learn and value != "learn":
        raise ArgumentError(f"learn=True is strategy='learn': it takes no "
                            f"strategy={value!r}")
    return value


def _memo(matrix: Matrix, given: dict[str, Any]) -> None:
    """The rules of the memoized search (``memo=True``): what it refuses."""
    if matrix.bounds is not None:
        raise ArgumentError("memo=True does not take multiplicities: a signature would have "
                            "to record how often each item is still to be covered")
    for name, asked in given.items():
        if asked:
            raise ArgumentError(f"memo=True takes no {name}: it builds the set of all "
                                "solutions by one search in Knuth's order")


def _distributed(matrix: Matrix, limit: int, backend: Any, executor: Any, workers: Any,
                 split: Any, checkpoint: Any, progress: Any) -> SearchRequest:
    """The rules of a distributed run ([`dlx.distribute`][])."""
    if checkpoint is not None and limit < NEVER:
        raise ArgumentError("a checkpoint records whole counts: give no limit with it")
    workers_ = None if workers is None else count_budget(workers, "workers", 1)
    if workers_ is not None and workers_ > MAX_WORKERS:
        raise ArgumentError(f"workers must be at most {MAX_WORKERS}, got {workers!r}")
    if executor is not None and not isinstance(executor, cf.Executor):
        raise ArgumentError(f"executor must be a concurrent.futures.Executor (a process "
                            f"pool, a Dask client's get_executor(), dlx.RayExecutor), got "
                            f"{executor!r}")
    if split is not None and not isinstance(split, Split):
        raise ArgumentError(f"split must be a dlx Split (from ExactCover.split), got "
                            f"{split!r}")
    if split is not None and split.problem_digest != matrix.digest:
        raise ArgumentError("split was made for another problem")
    return SearchRequest("distributed", limit, backend=backend, executor=executor,
                         workers=workers_, split=split,
                         checkpoint=None if checkpoint is None else checkpoint_path(checkpoint),
                         progress=callable_arg(progress, "progress"))
