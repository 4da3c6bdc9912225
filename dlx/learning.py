"""The learning search (``learn=True``): :mod:`dlx.kernel_cdcl` driven in slices.

:class:`LearningSearch` has the protocol of :class:`dlx.search.Search` (iterate for the
solutions, ``count()``, live ``stats``), so ``solutions``, ``first`` and ``count`` take
``learn=True`` alike. Each solution found is forbidden by a clause before the next is
sought, so the solutions come in no particular order, but every one comes once and a
search that ends has found them all. ``stats.nodes`` counts decisions (the learning
search's nodes), ``updates`` assignments, ``restarts`` and ``conflicts`` as named.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator

import numpy as np

from . import kernel_cdcl as K
from .backend import Backend
from .search import SearchStats
from .status import Status

__all__ = ["LearningSearch", "Problem", "check_learner", "forced_clash", "problem_lists"]

RESTART_UNIT = 1024
"""Conflicts in the first run; run ``k`` has ``RESTART_UNIT * luby(k)`` (CaDiCaL's
"reluctant doubling" in its stable mode; MiniSat's 100 solved fewer of the 25x25 Sudokus
once the reductions no longer waited for a restart)."""
REPHASE_UNIT = 500
"""Conflicts before the first rephasing; the ``k``-th comes ``k * REPHASE_UNIT`` after the
one before (CaDiCaL's ``rephaseint``, 1,000 there: 500 solved more of the 25x25 Sudokus
within 10 s, 250 fewer)."""
FIRST_SLICE = 256
"""Conflicts (and decisions, times 16) in a slice before the first look at the clock."""
SLICE_SECONDS = 0.05
"""Slices grow until one takes about this long."""

Problem = tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                np.ndarray]
"""``(n_primary, OPT_PTR, OPT_ITEM, OPT_COLOR, ITEM_PTR, ITEM_OPT, ITEM_COLOR, dropped)``."""


def index_type(size: int) -> type[np.signedinteger]:
    """The kernel's integer type for positions up to ``size``: 32 bits while they fit,
    which halves the memory the search reads (1.2x faster on the 25x25 Sudokus, which
    spend most of their time in the watch lists)."""
    return np.int32 if size < 2**31 - 1 else np.int64


def problem_lists(n_items: int, n_primary: int, indptr: np.ndarray, items: np.ndarray,
                  colors: np.ndarray) -> Problem:
    """The kernel's read-only lists of a problem in CSR form (items ``1..n_items``): by
    option its items (from 0), by item its options in input order, and the options
    without a primary item (never chosen)."""
    n_opts = len(indptr) - 1
    colors = np.asarray(colors)
    index = index_type(max(len(items), 2 * n_opts + 2, n_items + 1,
                           int(np.max(colors, initial=0)) + 1))
    indptr = np.asarray(indptr, dtype=index)
    opt_item = (np.asarray(items, dtype=np.int64) - 1).astype(index)
    opt_color = np.asarray(colors, dtype=index)
    owner = np.repeat(np.arange(n_opts, dtype=index), np.diff(indptr))
    order = np.argsort(opt_item, kind="stable")
    item_ptr = np.zeros(n_items + 1, dtype=index)
    np.cumsum(np.bincount(opt_item, minlength=n_items), out=item_ptr[1:])
    has_primary = np.zeros(n_opts, dtype=bool)
    has_primary[owner[opt_item < n_primary]] = True
    dropped = np.flatnonzero(~has_primary).astype(index)
    return (n_primary, indptr, opt_item, opt_color, item_ptr, owner[order].copy(),
            opt_color[order].copy(), dropped)


def watch_room(clauses: int, n: int) -> int:
    """Pairs of ``WL`` for ``clauses`` learned clauses over ``n`` options. A relayout
    takes at most ``3 * clauses + 8 * n`` (each list its watches, half again, and 4), and
    a list holds at most ``clauses`` watches (a clause watches two literals), so any list
    can still move to the free end with twice its room after one."""
    return 6 * clauses + 8 * n + 16


def _arrays(problem: Problem, seed: int | None) -> K.Learner:
    """A fresh state: nothing assigned but the options without a primary item (false)."""
    n1, opt_ptr, opt_item, opt_color, item_ptr, item_opt, item_color, dropped = problem
    n = len(opt_ptr) - 1
    capacity = max(1 << 16, 64 * n)  # literals of learned clauses
    room = 2 * watch_room(capacity // 4, n)
    index = index_type(max(capacity, len(opt_item), 2 * n + 2, room))
    flag = np.int8  # VAL, RKIND, PHASE, TARGET, BEST, SEEN and CL_KEEP: -1..3
    val = np.full(n, K.UNSET, dtype=flag)
    val[dropped] = 0
    free = np.diff(item_ptr)[:n1].astype(index)
    free_xor = np.zeros(n1, dtype=index)
    np.bitwise_xor.at(free_xor, np.repeat(np.arange(n1), free), item_opt[:item_ptr[n1]])
    act = np.zeros(n, dtype=np.float64)
    if seed is not None:  # ties among the first decisions broken at random
        rng = np.random.default_rng([abs(seed) * 2 + (seed < 0), 0])  # as Links.shuffled
        act = rng.random(n) * 1e-3
    reg = np.zeros(K.N_REGS, dtype=np.int64)
    reg[K.N_PRIMARY] = n1
    reg[K.RESTART_UNIT] = RESTART_UNIT
    reg[K.LUBY_I] = 1
    reg[K.NEXT_RESTART] = RESTART_UNIT
    reg[K.MAX_LEARNED] = 2000 + n // 2
    reg[K.REPHASE_UNIT] = reg[K.NEXT_REPHASE] = REPHASE_UNIT
    freg = np.zeros(K.N_FREGS, dtype=np.float64)
    freg[K.VAR_INC] = 1.0
    S = K.Learner(
        OPT_PTR=opt_ptr, OPT_ITEM=opt_item, OPT_COLOR=opt_color, ITEM_PTR=item_ptr,
        ITEM_OPT=item_opt, ITEM_COLOR=item_color, VAL=val,
        LVL=np.zeros(n, dtype=index), RKIND=np.zeros(n, dtype=flag),
        RID=np.zeros(n, dtype=index), PHASE=np.ones(n, dtype=flag),
        TARGET=np.full(n, -1, dtype=flag), BEST=np.full(n, -1, dtype=flag), ACT=act,
        HEAP=np.zeros(n, dtype=index), HEAP_POS=np.full(n, -1, dtype=index),
        SEEN=np.zeros(n, dtype=flag), STACK=np.zeros(n + 1, dtype=index),
        CLEAR=np.zeros(n + 1, dtype=index), FREE=free, FREE_XOR=free_xor,
        TRAIL=np.zeros(n, dtype=index), TPOS=np.zeros(n, dtype=index),
        TRAIL_LIM=np.zeros(n + 2, dtype=index), LEARNT=np.zeros(n + 1, dtype=index),
        LEVEL_STAMP=np.zeros(n + 2, dtype=np.int64), LEVEL_FIRST=np.zeros(n + 2, dtype=index),
        BY_LBD=np.zeros(n + 2, dtype=index),
        CL_START=np.zeros(capacity // 4, dtype=index),
        CL_SIZE=np.zeros(capacity // 4, dtype=index),
        CL_LBD=np.zeros(capacity // 4, dtype=index),
        CL_KEEP=np.zeros(capacity // 4, dtype=flag),
        CL_USED=np.zeros(capacity // 4, dtype=index),
        CL_LITS=np.zeros(capacity, dtype=index),
        WS=np.zeros(2 * n, dtype=index), WN=np.zeros(2 * n, dtype=index),
        WC=np.full(2 * n, 4, dtype=index),
        WL=np.zeros(room, dtype=index), REG=reg, FREG=freg)
    S.WS[:] = np.arange(2 * n) * 4
    reg[K.WTOP] = 8 * n
    order = np.argsort(-act, kind="stable")  # a heap already: activities non-increasing
    live = order[val[order] == K.UNSET]
    S.HEAP[:len(live)] = live
    S.HEAP_POS[live] = np.arange(len(live))
    reg[K.HEAP_N] = len(live)
    return S


def forced_clash(problem: Problem, forced: list[int]) -> int | None:
    """The first forced option that an earlier one excludes (it shares an item with it,
    other than a secondary item where both have the same color), or None."""
    _, opt_ptr, opt_item, opt_color = problem[:4]
    n1 = problem[0]
    taken: dict[int, int] = {}  # item -> its color so far (0: held outright)
    for v in forced:
        span = range(opt_ptr[v], opt_ptr[v + 1])
        for k in span:
            i, color = int(opt_item[k]), int(opt_color[k])
            if i in taken and (i < n1 or color == 0 or taken[i] != color):
                return v
        for k in span:
            taken[int(opt_item[k])] = int(opt_color[k])
    return None


def _grown(S: K.Learner) -> K.Learner:
    """``S`` with twice the room for learned clauses (their arrays copied)."""
    clauses, literals = 2 * len(S.CL_START), 2 * len(S.CL_LITS)
    room = 2 * watch_room(clauses, len(S.VAL))
    index = index_type(max(literals, room))  # perhaps 64 bits now; the flags stay bytes

    def grow(a: np.ndarray, n: int) -> np.ndarray:
        dtype = a.dtype if a.itemsize == 1 else np.promote_types(a.dtype, index)
        out = np.zeros(n, dtype=dtype)
        out[:len(a)] = a
        return out

    return S._replace(CL_START=grow(S.CL_START, clauses), CL_SIZE=grow(S.CL_SIZE, clauses),
                      CL_LBD=grow(S.CL_LBD, clauses), CL_KEEP=grow(S.CL_KEEP, clauses),
                      CL_USED=grow(S.CL_USED, clauses),
                      CL_LITS=grow(S.CL_LITS, literals),
                      WL=grow(S.WL, room))


class LearningSearch:
    """A lazy learning search of one problem: iterate for the solutions (sorted lists of
    options, forced ones included); ``stats`` are live. Made by
    ``ExactCover.solutions(learn=True)``."""

    def __init__(self, problem: Problem, backend: Backend, *, limit: int | None,
                 forced: list[int], max_nodes: int, timeout: float | None,
                 seed: int | None,
                 on_finish: Callable[[SearchStats], None] | None = None) -> None:
        self.stats = SearchStats(backend=backend.name)
        self._problem = problem
        self._backend = backend
        self._limit = limit
        self._forced = forced
        self._max_nodes = max_nodes
        self._timeout = timeout
        self._seed = seed
        self._on_finish = on_finish
        self._solutions = self._search()

    def __iter__(self) -> LearningSearch:
        return self

    def __next__(self) -> list[int]:
        return next(self._solutions)

    def __repr__(self) -> str:
        return f"<LearningSearch {self.stats.status.name} nodes={self.stats.nodes}>"

    def count(self) -> int:
        """Run to the end; the number of solutions found by this search in all."""
        for _ in self._solutions:
            pass
        return self.stats.solutions

    def _search(self) -> Iterator[list[int]]:
        stats = self.stats
        start = time.perf_counter()
        S: K.Learner | None = None  # made once the search is known to be needed
        try:
            clash = forced_clash(self._problem, self._forced)
            if clash is not None:
                stats.status = Status.CONFLICT
                stats.conflict = clash
                return
            if self._timeout is not None and self._timeout <= 0:
                stats.status = Status.TIMEOUT
                return
            begin, cdcl = self._backend.learning()
            S = _arrays(self._problem, self._seed)
            if begin(S, np.asarray(self._forced, dtype=np.int64)) == K.EXHAUSTED:
                stats.status = Status.COMPLETE
                return
            conflicts, decisions = FIRST_SLICE, 16 * FIRST_SLICE
            while True:
                REG = S.REG
                REG[K.STOP_CONFLICTS] = REG[K.CONFLICTS] + conflicts
                REG[K.STOP_DECISIONS] = min(self._max_nodes, REG[K.DECISIONS] + decisions)
                t0 = time.perf_counter()
                status = cdcl(S)
                now = time.perf_counter()
                self._read(S, start)
                if status == K.FOUND:
                    stats.solutions += 1
                    solution = np.flatnonzero(S.VAL == 1).tolist()
                    if self._limit is not None and stats.solutions >= self._limit:
                        stats.status = Status.LIMIT
                        yield solution
                        return
                    REG[K.BLOCK] = 1
                    yield solution
                    continue
                if status == K.EXHAUSTED:
                    stats.status = Status.COMPLETE
                    return
                if status == K.FULL:
                    S = _grown(S)
                    continue
                if REG[K.DECISIONS] >= self._max_nodes:
                    stats.status = Status.MAX_NODES
                    return
                if self._timeout is not None and now - start >= self._timeout:
                    stats.status = Status.TIMEOUT
                    return
                if now - t0 < SLICE_SECONDS / 2:
                    conflicts, decisions = 2 * conflicts, 2 * decisions
        except KeyboardInterrupt:
            stats.status = Status.INTERRUPTED
            raise
        finally:
            if S is not None:
                self._read(S, start)
            else:
                stats.seconds = time.perf_counter() - start
            if stats.status is Status.RUNNING:  # abandoned by its caller
                stats.status = Status.INTERRUPTED
            if self._on_finish is not None:
                self._on_finish(stats)

    def _read(self, S: K.Learner, start: float) -> None:
        """Copy the kernel's counts into the live ``stats``."""
        REG, stats = S.REG, self.stats
        stats.nodes = int(REG[K.DECISIONS])
        stats.updates = int(REG[K.ASSIGNS])
        stats.max_level = int(REG[K.MAX_LEVEL])
        stats.restarts = int(REG[K.RESTARTS])
        stats.conflicts = int(REG[K.CONFLICTS])
        stats.seconds = time.perf_counter() - start


def check_learner(S: K.Learner) -> None:
    """Knuth's sanity check of a learning search's state between slices (or steps):
    ``FREE``, the trail and levels, the heap, the phases and the watches agree with one
    another, and once the trail is propagated no learned clause is left unit or false.
    Raises AssertionError naming what is wrong (a test and debugging aid)."""
    REG = S.REG
    n1 = int(REG[K.N_PRIMARY])
    top = int(REG[K.TOP])
    on_trail = S.TRAIL[:top]
    if len(set(on_trail.tolist())) != top:
        raise AssertionError("an option is on the trail twice")
    for t, v in enumerate(on_trail.tolist()):
        if S.TPOS[v] != t:
            raise AssertionError(f"option {v} is at {t} on the trail, not at TPOS {S.TPOS[v]}")
        if S.VAL[v] == K.UNSET:
            raise AssertionError(f"option {v} is on the trail (position {t}) but not assigned")
    assigned = np.flatnonzero(S.VAL != K.UNSET)
    extra = set(assigned.tolist()) - set(on_trail.tolist()) - set(
        np.flatnonzero((S.VAL == 0) & (S.LVL == 0) & (S.RKIND == K.DECIDED)).tolist())
    if extra:
        raise AssertionError(f"options {sorted(extra)[:5]} are assigned but not on the trail")
    for i in range(n1):
        options = S.ITEM_OPT[S.ITEM_PTR[i]:S.ITEM_PTR[i + 1]]
        free = int(np.count_nonzero(S.VAL[options] != 0))
        if free != S.FREE[i]:
            raise AssertionError(f"FREE[{i}] is {S.FREE[i]}, but {free} of its options are "
                                 "not false")
        xor = int(np.bitwise_xor.reduce(options[S.VAL[options] != 0], initial=0))
        if xor != S.FREE_XOR[i]:
            raise AssertionError(f"FREE_XOR[{i}] is {S.FREE_XOR[i]}, not the exclusive or of "
                                 f"its options not false ({xor})")
    where = {v: t for t, v in enumerate(on_trail.tolist())}
    for t, v in enumerate(on_trail.tolist()):
        kind, rid = int(S.RKIND[v]), int(S.RID[v])
        if kind == K.DECIDED or S.LVL[v] == 0:
            continue
        if kind == K.EXCLUDED:
            others = [(rid, 0)]
        elif kind == K.COVERED:
            others = [(q, 1) for q in S.ITEM_OPT[S.ITEM_PTR[rid]:S.ITEM_PTR[rid + 1]].tolist()]
        else:
            start, size = S.CL_START[rid], S.CL_SIZE[rid]
            others = [(lit >> 1, 1 - (lit & 1)) for lit in S.CL_LITS[start:start + size].tolist()]
        for q, holds in others:  # (option, the value that would satisfy the reason)
            if q == v:
                continue
            if S.VAL[q] == K.UNSET or S.VAL[q] == holds or where.get(q, -1) > t:
                raise AssertionError(f"option {v}'s reason ({kind}, {rid}) does not imply "
                                     f"it: option {q} is not falsified before it")
    for v in range(len(S.VAL)):
        if S.VAL[v] == K.UNSET and S.HEAP_POS[v] < 0:
            raise AssertionError(f"option {v} is not assigned and not in the heap")
    for k in range(int(REG[K.HEAP_N])):
        if S.HEAP_POS[S.HEAP[k]] != k or (k and S.ACT[S.HEAP[(k - 1) >> 1]] < S.ACT[S.HEAP[k]]):
            raise AssertionError(f"the heap is out of order at {k}")
    for name, low in (("PHASE", 0), ("TARGET", -1), ("BEST", -1)):
        phases = getattr(S, name)
        if phases.size and (phases.min() < low or phases.max() > 1):
            raise AssertionError(f"{name} holds a value outside {low}..1")
    for name in ("TARGET_TOP", "BEST_TOP"):
        if not 0 <= REG[getattr(K, name)] <= len(S.VAL):
            raise AssertionError(f"{name} is {REG[getattr(K, name)]}, not a trail's length")
    used = S.CL_USED[:int(REG[K.CLAUSES])]
    if used.size and (used.min() < 0 or used.max() > 2):
        raise AssertionError(f"a clause is to be spared {int(used.max())} reductions; 2 at most")
    if 2 * REG[K.WTOP] > len(S.WL):
        raise AssertionError(f"WTOP {REG[K.WTOP]} is past the end of WL")
    visited = 0
    spans = []
    for lit in range(len(S.WS)):
        start, n, cap = int(S.WS[lit]), int(S.WN[lit]), int(S.WC[lit])
        if not 0 <= n <= cap or start + cap > REG[K.WTOP]:
            raise AssertionError(f"literal {lit}'s watch list ({start}, {n}, {cap}) is out "
                                 f"of its room")
        spans.append((start, start + cap))
        for p in range(start, start + n):
            e = int(S.WL[2 * p])
            c, k = e >> 1, e & 1
            if not 0 <= c < REG[K.CLAUSES] or S.CL_LITS[S.CL_START[c] + k] != lit:
                raise AssertionError(f"watch {e} of clause {c} is on literal {lit}'s list, "
                                     f"not on its literal's")
            visited += 1
    spans.sort()
    for (_, end), (start, _) in itertools.pairwise(spans):
        if start < end:
            raise AssertionError("two watch lists overlap")
    if visited != 2 * REG[K.CLAUSES]:
        raise AssertionError(f"{visited} watches on the lists for {REG[K.CLAUSES]} clauses")
    if REG[K.QHEAD] == top and not REG[K.PENDING]:  # propagated: no clause is unit or false
        for c in range(int(REG[K.CLAUSES])):
            lits = S.CL_LITS[S.CL_START[c]:S.CL_START[c] + S.CL_SIZE[c]].tolist()
            values = [-1 if S.VAL[lit >> 1] < 0 else int(S.VAL[lit >> 1]) ^ (lit & 1)
                      for lit in lits]
            if 1 not in values and values.count(-1) < 2:
                raise AssertionError(f"learned clause {c} {lits} is unit or false after "
                                     f"propagation")
