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
import inspect
import os
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

import numpy as np

from .arguments import (
    STRATEGIES,
    callable_arg,
    check_forced,
    flag_arg,
    order_arg,
    seed_arg,
    strategy_arg,
    workers_arg,
)
from .backend import Backend
from .budget import NEVER, count_budget, time_budget
from .distribute import checkpoint_path
from .errors import ArgumentError
from .matrix import Matrix
from .orders import check_option_order
from .registry import BackendName, get_backend
from .split import Split

if TYPE_CHECKING:
    from .progress import RunProgress

__all__ = ["BatchOptions", "CountOptions", "FirstOptions", "MemoOptions", "SearchOptions",
           "SearchRequest", "SetOptions", "check_request", "memory_default", "takes"]


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
    """Deprecated: ``strategy="learn"``."""
    strategy: str
    """One of [`dlx.arguments.STRATEGIES`][]: ``auto`` (the default: the library
    chooses), ``plain``, ``learn`` or ``race``."""
    backend: BackendName | Backend
    """``auto``, ``python``, ``numba`` or a [`dlx.Backend`][]."""
    order: str
    """``search`` (as found) or ``cost`` (cheapest first)."""
    executor: cf.Executor | None
    """Run the split search's subproblems on this executor (`dlx.distribute`)."""
    workers: int | None
    """... or on a pool of this many local processes (at most
    [`dlx.arguments.max_workers`][])."""
    split: Split | None
    """... cut this way (default: [`split`][dlx.ExactCover.split] with 64 parts)."""
    memo: bool | None
    """The memoized search (`dlx.memo`, Knuth's DLX6): it builds the set of all
    solutions (a ZDD) and reads them off it; False: the plain search. None (not given):
    the plain search, but ``count()`` chooses between the two when the request allows
    the memoized search (`dlx.kinds.choose`)."""
    progress: Callable[[RunProgress], object] | None
    """Called with a [`dlx.RunProgress`][] as the search goes (between the kernel's
    slices, about five times a second; a distributed run: after each chunk)."""


class MemoOptions(TypedDict, total=False):
    """What only the memoized search takes (``solution_set``, ``count``)."""

    max_zdd_nodes: int | None
    """A bound on the diagram's nodes, the two sinks included (None: none)."""
    max_memory: int | None
    """A bound, in bytes, on the memoized search's tables (None: [`memory_default`][],
    a quarter of this machine's memory)."""
    parts: bool
    """Split the problem into independent parts wherever the search finds it so, search
    each apart and multiply (the memoized search; ``count(parts=True)`` chooses it)."""


class CountOptions(SearchOptions, MemoOptions, total=False):
    """[`SearchOptions`][], [`MemoOptions`][], and what only [`dlx.ExactCover.count`][]
    takes."""

    checkpoint: str | os.PathLike[str] | None
    """A JSON file of the finished subproblems of a distributed count: a rerun resumes."""


class FirstOptions(SearchOptions, total=False):
    """[`SearchOptions`][], and what only [`dlx.ExactCover.first`][] takes."""

    restarts: int | None
    """Restart by Luby's sequence of this many nodes (`dlx.restarts`)."""


class SetOptions(MemoOptions, total=False):
    """The keyword arguments of [`dlx.ExactCover.solution_set`][]: the memoized search's
    budgets and bounds; each means what it means in [`SearchOptions`][]."""

    forced: Iterable[int] | None
    max_nodes: int | None
    timeout: float | None
    backend: BackendName | Backend
    progress: Callable[[RunProgress], object] | None
    executor: cf.Executor | None
    workers: int | None
    split: Split | None
    method: str | None
    """How the set is built: ``"frontier"`` (top-down, `dlx.frontier`), ``"memo"`` (the
    memoized search), or None (the default: chosen by the problem's shape,
    [`dlx.frontier.use_frontier`][])."""
    option_order: Iterable[int] | None
    """The order of the options in the set's store (a permutation of the option indices,
    [`dlx.orders.check_option_order`][]), or None: the automatic one
    ([`dlx.orders.option_order`][])."""


METHODS = ("frontier", "memo")
"""The ways ``solution_set`` builds a set (its ``method``)."""


class BatchOptions(TypedDict, total=False):
    """The keyword arguments of [`dlx.ExactCover.solve_batch`][] and
    [`dlx.ExactCover.instance_search`][] (``limit`` per instance; ``progress``: the
    batch only); each means what it means in [`SearchOptions`][]."""

    max_nodes: int | None
    timeout: float | None
    backend: BackendName | Backend
    progress: Callable[[RunProgress], object] | None


ACCEPTS = {"solutions": frozenset(SearchOptions.__annotations__),
           "best": frozenset(SearchOptions.__annotations__),
           "count": frozenset(CountOptions.__annotations__),
           "first": frozenset(FirstOptions.__annotations__),
           "solution_set": frozenset(SetOptions.__annotations__),
           "solve_batch": frozenset(BatchOptions.__annotations__),
           "instance_search": frozenset(BatchOptions.__annotations__) - {"progress"}}
"""The options each call takes."""

SINGLE = ("forced", "max_nodes", "timeout", "seed", "weighted", "lookahead", "learn",
          "order", "restarts")
"""What only a single search takes: a distributed run refuses each, unless at its default."""

PLAIN = ("learn", "weighted", "lookahead", "restarts")
"""The strategies for hard instances, which problems with bounds or costs refuse."""

DEFAULTS = {"strategy": "auto", "backend": "auto", "order": "search", "weighted": False,
            "lookahead": 0, "parts": False, "learn": False}
"""The options' defaults, as the calls' signatures show them (the others: None)."""

F = TypeVar("F")


def takes(options: type) -> Callable[[F], F]:
    """The call's ``**options`` spelled out in its signature (``help()``,
    ``inspect.signature``, IDEs): one keyword-only parameter per key of the TypedDict
    ``options``, with its type and default. Nothing changes at call time."""
    def spell(fn: F) -> F:
        own = inspect.signature(fn)  # type: ignore[arg-type]
        head = [p for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
        hints = options.__annotations__
        keywords = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                                      default=DEFAULTS.get(name),
                                      annotation=getattr(hints[name], "__forward_arg__",
                                                         hints[name]))
                    for name in hints if name != "learn"]
        fn.__signature__ = own.replace(parameters=head + keywords)  # type: ignore[attr-defined]
        return fn
    return spell


MEMORY_SHARE = 4
"""The memoized search's tables take at most ``1 / MEMORY_SHARE`` of the machine's memory
unless ``max_memory`` says otherwise ([`memory_default`][])."""


def memory_default() -> int:
    """The default bound on the memoized search's tables, in bytes: a quarter of the
    machine's physical memory (1 GiB where the OS does not say)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        total = 4 << 30
    return max(total, 1 << 26) // MEMORY_SHARE


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A search's arguments, checked and normalized by [`check_request`][].

    ``kind`` names the kind of search ([`dlx.run.KINDS`][]): ``plain`` (Algorithm C or
    M, ``order="cost"`` included), ``learning``, ``restarts``, ``distributed``,
    ``portfolio``, ``memo``, ``choose`` (a count by the plain or the memoized search,
    chosen as it goes) or ``batch`` (``solve_batch``, ``instance_search``).
    Budgets are [`dlx.NEVER`][] when unbounded; ``timeout`` is None then.
    ``max_memory`` is always a number of bytes (the default filled in).
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
    strategy: str = "auto"
    memo: bool = False
    max_zdd_nodes: int = NEVER
    max_memory: int = NEVER
    parts: bool = False
    method: str | None = None
    option_order: np.ndarray | None = None

    @property
    def bounded(self) -> int | None:
        """``limit`` as the distributed functions take it: None when unbounded."""
        return None if self.limit >= NEVER else self.limit


DISTRIBUTED = "executor, workers, checkpoint or split"
"""The arguments that make a run distributed, as messages name them."""


def check_request(matrix: Matrix, call: str, limit: Any,
                  options: Mapping[str, Any]) -> SearchRequest:
    """The request of ``call`` (``solutions``, ``count``, ``first``, ``best``,
    ``solution_set``, ``solve_batch``, ``instance_search``) with ``limit`` and the keyword
    ``options`` for the problem ``matrix``: every rule checked, in a fixed order (each
    argument alone, then the kind of search, then the rules that tie arguments together),
    so that the first fault is reported the same way on every call. An option the call
    does not take raises TypeError, as Python would."""
    unknown = set(options) - ACCEPTS[call]
    if unknown:
        raise TypeError(f"{call}() got an unexpected keyword argument {min(unknown)!r}")
    get = options.get
    executor, workers, split = get("executor"), get("workers"), get("split")
    checkpoint = get("checkpoint")
    progress = callable_arg(get("progress"), "progress")
    limit_ = count_budget(limit, "limit", 1)
    order = order_arg(get("order", "search"))
    strategy = _strategy(get("strategy"), get("learn"))
    learn = strategy == "learn"
    restarts = None if get("restarts") is None else count_budget(get("restarts"), "restarts")
    max_nodes = count_budget(get("max_nodes"), "max_nodes", 0)
    timeout = time_budget(get("timeout"))
    seed = seed_arg(get("seed"))
    weighted = flag_arg(get("weighted", False), "weighted")
    lookahead = count_budget(get("lookahead", 0), "lookahead", 0)
    max_zdd = count_budget(get("max_zdd_nodes"), "max_zdd_nodes", 2)
    memory = count_budget(get("max_memory"), "max_memory", 1)
    parts = flag_arg(get("parts", False), "parts")
    method = _method(get("method"))
    given_order = get("option_order")
    option_order = None if given_order is None else \
        check_option_order(given_order, matrix.n_options)
    memo_given = get("memo")
    memo = None if memo_given is None else flag_arg(memo_given, "memo")
    backend = get("backend", "auto")
    if backend != "auto":
        get_backend(backend)  # ArgumentError for an unknown name; ImportError: not here
    workers_ = workers_arg(workers)
    if call in ("solve_batch", "instance_search"):
        return SearchRequest("batch", limit_, max_nodes=max_nodes, timeout=timeout,
                             backend=backend, progress=progress)
    distributed = not (executor is None and workers is None and split is None
                       and checkpoint is None)
    if matrix.mcc:
        if distributed:
            raise ArgumentError(f"multiplicities and costs are searched by one process: a "
                                f"distributed run ({DISTRIBUTED}) splits Algorithm C's "
                                "tree only")
        for name, asked in zip(PLAIN, (learn, weighted, lookahead, restarts)):
            if asked:
                raise ArgumentError(f"{name} is for problems without bounds or costs "
                                    "(Algorithm M chooses its items its own way)")
    forced = tuple(check_forced(get("forced"), matrix.n_options, matrix.dropped))
    memo_bounds = max_zdd < NEVER or memory < NEVER or parts
    if call == "solution_set" or parts:
        if memo is False:
            raise ArgumentError("parts=True splits the memoized search: it takes no "
                                "memo=False")
        memo = True
    if memo_bounds and (memo is False or (memo is None and strategy != "auto")):
        name = "max_zdd_nodes" if max_zdd < NEVER else "max_memory"
        raise ArgumentError(f"{name} bounds the memoized search (memo=True, or count() "
                            f"left to choose): it takes no "
                            f"{'memo=False' if memo is False else f'strategy={strategy!r}'}")
    if method == "frontier" and parts:
        raise ArgumentError("method='frontier' builds the set top-down in one piece: it takes "
                            "no parts=True (use method='memo', or leave method to choose)")
    if method == "frontier" and distributed:
        raise ArgumentError(f"method='frontier' builds the set in one process: it takes no "
                            f"{DISTRIBUTED} (their parts are built by the memoized search: "
                            "use method='memo', or leave method to choose)")
    if memo:
        _memo(matrix, {"seed": seed is not None, "weighted": weighted,
                       "lookahead": lookahead, "learn": learn, "order='cost'": order != "search",
                       "restarts": restarts is not None,
                       f"strategy={strategy!r}": strategy not in ("auto", "plain")})
        if distributed:
            _memo_split(matrix, call, checkpoint, executor, split,
                        {"forced": bool(forced), "max_nodes": max_nodes < NEVER})
        return SearchRequest("memo", limit_, forced, max_nodes, timeout, backend=backend,
                             progress=progress, memo=True, max_zdd_nodes=max_zdd,
                             max_memory=memory if memory < NEVER else memory_default(),
                             parts=parts, executor=executor, workers=workers_, split=split,
                             method=method, option_order=option_order)
    if distributed:
        given = (bool(forced), max_nodes < NEVER, timeout is not None, seed is not None,
                 weighted, lookahead > 0, learn, order != "search", restarts is not None)
        for name, flag in zip(SINGLE, given):
            if flag:
                raise ArgumentError(f"{name} is for a single search; a distributed run "
                                    f"({DISTRIBUTED}) takes none")
        return _distributed(matrix, limit_, backend, executor, workers_, split, checkpoint,
                            progress)
    if learn:
        if weighted or lookahead:
            raise ArgumentError("strategy='learn' chooses its options by their part in "
                                "recent conflicts (VSIDS): it takes no weighted or lookahead")
        if order != "search":
            raise ArgumentError("order='cost' is for problems with costs; strategy='learn' "
                                "takes none")
        if restarts is not None:
            raise ArgumentError("strategy='learn' restarts on its own (Luby's sequence of "
                                "conflicts): it takes no restarts")
    if restarts is not None and order != "search":
        raise ArgumentError("order='cost' searches the whole tree for the cheapest: it "
                            "takes no restarts")
    one = limit_ == 1 and not matrix.mcc and order == "search"
    if strategy == "auto" and get("strategy") == "auto" and one and restarts is None:
        warnings.warn("strategy='auto' now lets the library choose (here: the plain "
                      "search); the race of the plain and the learning search it named "
                      "before is strategy='race'", FutureWarning, stacklevel=3)
    portfolio = strategy == "race" and one
    choose = (call == "count" and memo is None and strategy == "auto" and limit_ >= NEVER
              and max_nodes >= NEVER and matrix.bounds is None and seed is None
              and not weighted and not lookahead and order == "search")
    kind = ("learning" if learn else "restarts" if restarts is not None else
            "portfolio" if portfolio else "choose" if choose else "plain")
    return SearchRequest(kind, limit_, forced, max_nodes, timeout,
                         (seed or 0) if kind == "restarts" else seed, weighted, lookahead,
                         learn, backend, order, restarts, progress=progress,
                         strategy=strategy, max_zdd_nodes=max_zdd,
                         max_memory=memory if memory < NEVER else memory_default())


def _strategy(value: Any, learn: Any) -> str:
    """``strategy`` checked ([`dlx.arguments.strategy_arg`][]; None: ``auto``), and the
    old ``learn=True``: ``strategy="learn"``, with a DeprecationWarning."""
    strategy = strategy_arg(value, STRATEGIES)
    if learn is None or learn is False:
        return strategy
    if not flag_arg(learn, "learn"):
        return strategy
    warnings.warn("learn=True is strategy='learn'", DeprecationWarning, stacklevel=4)
    if value is not None and strategy != "learn":
        raise ArgumentError(f"learn=True is strategy='learn': it takes no "
                            f"strategy={value!r}")
    return "learn"


def _method(value: Any) -> str | None:
    """``solution_set``'s ``method``: None or one of [`METHODS`][], else
    [`dlx.ArgumentError`][]."""
    if value is None or (type(value) is str and value in METHODS):
        return value
    raise ArgumentError(f"method must be None, 'frontier' or 'memo', got {value!r}")


def _memo(matrix: Matrix, given: dict[str, Any]) -> None:
    """The rules of the memoized search (``memo=True``, ``solution_set``): what it
    refuses."""
    if matrix.bounds is not None:
        raise ArgumentError("the memoized search (memo=True) does not take multiplicities: "
                            "a signature would have to record how often each item is still "
                            "to be covered")
    for name, asked in given.items():
        if asked:
            raise ArgumentError(f"the memoized search (memo=True) takes no {name}: it "
                                "builds the set of all solutions by one search in Knuth's "
                                "order")


def _memo_split(matrix: Matrix, call: str, checkpoint: Any, executor: Any, split: Any,
                given: dict[str, bool]) -> None:
    """The rules of the memoized search on many cores ([`dlx.kinds.memo_split`][]): a
    count or a set, without a checkpoint or what only a single search takes."""
    if checkpoint is not None:
        raise ArgumentError("the memoized search (memo=True) takes no checkpoint: a "
                            "checkpoint records the parts of the plain distributed count")
    if call not in ("count", "solution_set"):
        raise ArgumentError(f"the memoized search (memo=True) runs on many cores for count() "
                            f"and solution_set() only: {call}() takes no executor, workers "
                            "or split with it")
    for name, asked in given.items():
        if asked:
            raise ArgumentError(f"{name} is for a single search; a distributed run "
                                f"({DISTRIBUTED}) takes none")
    _executor_split(matrix, executor, split)


def _executor_split(matrix: Matrix, executor: Any, split: Any) -> None:
    """``executor`` and ``split`` of a distributed run, checked."""
    if executor is not None and not isinstance(executor, cf.Executor):
        raise ArgumentError(f"executor must be a concurrent.futures.Executor (a process "
                            f"pool, a Dask client's get_executor(), dlx.RayExecutor), got "
                            f"{executor!r}")
    if split is not None and not isinstance(split, Split):
        raise ArgumentError(f"split must be a dlx Split (from ExactCover.split), got "
                            f"{split!r}")
    if split is not None and split.problem_digest != matrix.digest:
        raise ArgumentError("split was made for another problem")


def _distributed(matrix: Matrix, limit: int, backend: Any, executor: Any,
                 workers: int | None, split: Any, checkpoint: Any,
                 progress: Any) -> SearchRequest:
    """The rules of a distributed run ([`dlx.distribute`][])."""
    if checkpoint is not None and limit < NEVER:
        raise ArgumentError("a checkpoint records whole counts: give no limit with it")
    _executor_split(matrix, executor, split)
    return SearchRequest("distributed", limit, backend=backend, executor=executor,
                         workers=workers, split=split,
                         checkpoint=None if checkpoint is None else checkpoint_path(checkpoint),
                         progress=progress)
