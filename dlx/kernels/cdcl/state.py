"""The learning search's state, named once: every array and register, in two tables.

[`FIELDS`][] lists the arrays in the order of [`Learner`][], the named tuple that every
function of the package takes as ``S`` and reads by name (``S.VAL``, ``S.REG``);
[`REGISTERS`][] lists the slots of ``S.REG``, whose indices the kernel reads as
``REG_<name>`` (``S.REG[REG_LEVEL]``). Everything else is derived from these tables: the
allocation of a fresh state ([`allocate`][]), the larger arrays when the learned
clauses run out of room ([`grown`][]) and the numba signatures ([`dtypes`][], read by
[`dlx.compiled`][]).

A pointer is an index. A *literal* is ``2 * option`` (the option is chosen) or
``2 * option + 1`` (it is not). Each row says what an array is indexed by (``per``) and
what it holds (``kind``): ``index`` is 32-bit while the positions fit, else 64-bit
([`index_type`][]: the search is bound by the memory it reads, and int64 made it 1.2x
slower); ``flag`` is a byte (values -1..15); ``int64`` and ``float`` are what they say.

**To add an array**: add a row here (its ``fill`` is the value it starts with); give it
another starting value, if it needs one, in [`allocate`][]; read it in the kernel as
``S.NAME``. **To add a register**: add a row to [`REGISTERS`][] (its ``initial`` value,
or set it in [`allocate`][]) and a line ``REG_NAME = register("NAME")`` below it.
Allocation, growth, signatures and the tests of the tables follow.

The kernel's return values are [`dlx.Status`][] members (as plain integers, which numba
compiles as constants), with the meanings the DLX kernel gives them: ``LIMIT`` a
solution (every option assigned), ``MAX_NODES`` a slice's budget (of conflicts or
decisions) spent, ``COMPLETE`` no further solution. ``NO_ROOM`` (no room for a learned
clause even after deleting some: give larger arrays) is internal, like ``INVALID``, never
the status of a finished search: the driver grows the arrays and calls again. It joined
[`dlx.Status`][] rather than stay a private code so that the kernel returns one
vocabulary only, and a value that means nothing to a reader of the status can never be
mistaken for one that does.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ...status import Status

__all__ = ["FIELDS", "FREGISTERS", "REGISTERS", "Learner", "Problem", "allocate", "dtypes",
           "grown", "index_type", "problem_lists", "register", "watch_room"]

# What a call of the kernel returns (dlx.Status, as integers).
COMPLETE = int(Status.COMPLETE)
"""No (further) solution: the search has ended."""
LIMIT = int(Status.LIMIT)
"""Every option is assigned: the true ones are a solution."""
MAX_NODES = int(Status.MAX_NODES)
"""A budget of the slice (``REG_STOP_CONFLICTS``, ``REG_STOP_DECISIONS``) ran out: call
again to go on."""
NO_ROOM = int(Status.NO_ROOM)
"""No room for a learned clause, even after deleting some: give larger arrays
([`grown`][]), then call again."""
RUNNING = int(Status.RUNNING)
"""``begin``: level 0 is set up; the search goes on."""

# Reasons (RKIND) and conflicts (REG[REG_CONFLICT_KIND]).
DECIDED = 0
"""No reason: a decision, a forced option, or a unit learned clause at level 0."""
EXCLUDED = 1
"""False because the true option ``RID`` shares an item with it (conflict: two true
options ``CONFLICT_A`` and ``CONFLICT_B`` share an item)."""
COVERED = 2
"""True because it is the only option left of primary item ``RID`` (conflict: primary
item ``CONFLICT_A`` has no option left)."""
LEARNED = 3
"""Implied by learned clause ``RID`` (conflict: every literal of clause ``CONFLICT_A``
is false)."""

UNSET = -1
"""``VAL`` of an option not yet assigned."""

RESTART_UNIT = 1024
"""Conflicts in the first run; run ``k`` has ``RESTART_UNIT * luby(k)`` (CaDiCaL's
"reluctant doubling" in its stable mode; MiniSat's 100 solved fewer of the 25x25 Sudokus
once the reductions no longer waited for a restart). [`dlx.kernels.cdcl.restart`][]."""
REPHASE_UNIT = 500
"""Conflicts before the first rephasing; the ``k``-th comes ``k * REPHASE_UNIT`` after the
one before (CaDiCaL's ``rephaseint``, 1,000 there: 500 solved more of the 25x25 Sudokus
within 10 s, 250 fewer). [`dlx.kernels.cdcl.rephase`][]."""


class Field(NamedTuple):
    """One array of the learner's state."""

    name: str
    per: str
    """What it is indexed by, so its length: ``problem`` (given by
    [`problem_lists`][]), ``option`` (``V``, the options), ``option+1`` (``V + 1``),
    ``level`` (``V + 2``: levels 0..V+1, or LBDs), ``primary`` (the primary items),
    ``literal`` (``2V``), ``clause`` (learned clauses the arrays hold), ``arena`` (their
    literals), ``watch`` (pairs of ``WL``, [`watch_room`][]), ``register`` or
    ``fregister``. The last three kinds grow with the learned clauses ([`grown`][])."""
    kind: str
    """``index``, ``flag``, ``int64`` or ``float`` (see the module's docstring)."""
    fill: float
    """Its value in a fresh state ([`allocate`][] sets a few otherwise)."""
    doc: str


FIELDS: tuple[Field, ...] = (
    # The problem's lists (read only, made by problem_lists).
    Field("OPT_PTR", "problem", "index", 0, "option v's items are OPT_ITEM[OPT_PTR[v]:"
          "OPT_PTR[v+1]]"),
    Field("OPT_ITEM", "problem", "index", 0, "an option's items, 0..N-1, primary first"),
    Field("OPT_COLOR", "problem", "index", 0, "the color of each of them (0: none)"),
    Field("ITEM_PTR", "problem", "index", 0, "item i's options are ITEM_OPT[ITEM_PTR[i]:"
          "ITEM_PTR[i+1]]"),
    Field("ITEM_OPT", "problem", "index", 0, "an item's options, in input order"),
    Field("ITEM_COLOR", "problem", "index", 0, "the color the option gives the item"),
    # By option: its value and why.
    Field("VAL", "option", "flag", UNSET, "UNSET, 0 or 1"),
    Field("LVL", "option", "index", 0, "the level it was assigned at"),
    Field("RKIND", "option", "flag", DECIDED, "its reason's kind: DECIDED, EXCLUDED, "
          "COVERED or LEARNED"),
    Field("RID", "option", "index", 0, "its reason: the option, item or clause"),
    Field("PHASE", "option", "flag", 1, "the value saved when it was last unassigned"),
    Field("TARGET", "option", "flag", -1, "its value in the longest assignment free of "
          "conflict since the last restart (-1: none); decisions take it first"),
    Field("BEST", "option", "flag", -1, "the same since the last rephasing to it; the "
          "saved phases at the next (dlx.kernels.cdcl.rephase)"),
    # The choice of the next decision (dlx.kernels.cdcl.heap).
    Field("ACT", "option", "float", 0, "VSIDS activity"),
    Field("HEAP", "option", "index", 0, "a binary heap of the options by activity"),
    Field("HEAP_POS", "option", "index", -1, "an option's place in HEAP (-1: not in it)"),
    # Conflict analysis (dlx.kernels.cdcl.analyze, minimize, shrink).
    Field("SEEN", "option", "flag", 0, "marks: 1 in the learned clause, 2 implied by the "
          "rest of it, 3 implied (found by minimize.redundant); bit 8: being resolved by "
          "shrink.block_uip"),
    Field("STACK", "option+1", "index", 0, "minimize.redundant's stack"),
    Field("CLEAR", "option+1", "index", 0, "the options marked in SEEN, to unmark them"),
    # By primary item: what propagation counts.
    Field("FREE", "primary", "index", 0, "the item's options not yet false"),
    Field("FREE_XOR", "primary", "index", 0, "the exclusive or of those options (the last "
          "one, when FREE is 1)"),
    # The trail (dlx.kernels.cdcl.trail).
    Field("TRAIL", "option", "index", 0, "the options in the order assigned (Knuth's "
          "trail L of Algorithm C; not dlx.state's TRAIL, the lookahead's hidden options)"),
    Field("TPOS", "option", "index", 0, "an option's place on TRAIL"),
    Field("TRAIL_LIM", "level", "index", 0, "where level l begins on TRAIL"),
    Field("LEARNT", "option+1", "index", 0, "the clause being learned (literals)"),
    Field("LEVEL_STAMP", "level", "int64", 0, "by level: the stamp of the last clause "
          "that met it (REG_STAMP)"),
    Field("LEVEL_FIRST", "level", "index", 0, "by level: the earliest place on the trail "
          "of the learned clause's literals of the level"),
    Field("BY_LBD", "level", "index", 0, "reduce: clauses counted by LBD (zeros between "
          "uses)"),
    # The learned clauses (dlx.kernels.cdcl.clauses): clause c's literals are
    # CL_LITS[CL_START[c]:CL_START[c] + CL_SIZE[c]], the first two watched.
    Field("CL_START", "clause", "index", 0, "where a clause's literals begin in CL_LITS"),
    Field("CL_SIZE", "clause", "index", 0, "its number of literals"),
    Field("CL_LBD", "clause", "index", 0, "its LBD (levels among its literals)"),
    Field("CL_KEEP", "clause", "flag", 0, "1: never deleted; 2, during a reduction only: "
          "locked, the reason of an option assigned"),
    Field("CL_USED", "clause", "index", 0, "reductions it is spared for: it took part in a "
          "conflict since"),
    Field("CL_LITS", "arena", "index", 0, "the clauses' literals"),
    # The watch lists (dlx.kernels.cdcl.watch), one vector per literal.
    Field("WS", "literal", "index", 0, "where a literal's list starts in WL (pairs)"),
    Field("WN", "literal", "index", 0, "the watches on it"),
    Field("WC", "literal", "index", 4, "the room it has"),
    Field("WL", "watch", "index", 0, "pairs WL[2p], WL[2p+1]: a watch 2c+k and its blocker"),
    Field("REG", "register", "int64", 0, "the registers (REGISTERS)"),
    Field("FREG", "fregister", "float", 0, "the float registers (FREGISTERS)"),
)


class Register(NamedTuple):
    """One slot of ``REG`` (or ``FREG``)."""

    name: str
    doc: str
    initial: float = 0
    """Its value in a fresh state ([`allocate`][] sets those that depend on the
    problem)."""


REGISTERS: tuple[Register, ...] = (
    Register("LEVEL", "the current decision level"),
    Register("TRAIL_LEN", "the trail's length: options assigned"),
    Register("QHEAD", "the next trail entry to propagate"),
    Register("HEAP_N", "options in the heap"),
    Register("CLAUSES", "learned clauses"),
    Register("ARENA", "literals used in CL_LITS"),
    Register("CONFLICTS", "conflicts so far"),
    Register("DECISIONS", "decisions so far (the learning search's nodes)"),
    Register("ASSIGNS", "assignments so far (its updates)"),
    Register("RESTARTS", "restarts so far"),
    Register("LUBY_I", "the term of Luby's sequence of the current run", 1),
    Register("NEXT_RESTART", "CONFLICTS at which the next restart happens", RESTART_UNIT),
    Register("MAX_LEARNED", "learned clauses kept at most before a reduction"),
    Register("STOP_CONFLICTS", "return MAX_NODES when CONFLICTS reaches it"),
    Register("STOP_DECISIONS", "return MAX_NODES when DECISIONS reaches it"),
    Register("CONFLICT_KIND", "the kind of the last conflict (EXCLUDED, COVERED, LEARNED)"),
    Register("CONFLICT_A", "its option, item or clause"),
    Register("CONFLICT_B", "its second option (EXCLUDED)"),
    Register("RESTART_UNIT", "conflicts in the first run", RESTART_UNIT),
    Register("BLOCK", "1: block the solution found before going on"),
    Register("N_PRIMARY", "the primary items: 0..N_PRIMARY-1"),
    Register("MAX_LEVEL", "the deepest level reached"),
    Register("STAMP", "the last stamp used in LEVEL_STAMP"),
    Register("DELETED", "learned clauses deleted so far"),
    Register("CLEAR_N", "options listed in CLEAR"),
    Register("PENDING", "the size of a learned clause waiting in LEARNT for room (0: none)"),
    Register("PENDING_KEEP", "whether it is to be kept for good (a blocking clause)"),
    Register("TARGET_LEN", "the longest trail free of conflict since the last restart"),
    Register("SHRUNK", "literals taken out of learned clauses by shrinking"),
    Register("WL_END", "pairs of WL in use (lists, and the room left behind by lists moved)"),
    Register("RELAYOUTS", "times the watch lists were laid out anew"),
    Register("BEST_LEN", "the longest trail free of conflict since the last rephasing to "
             "BEST"),
    Register("REPHASES", "rephasings so far"),
    Register("NEXT_REPHASE", "CONFLICTS at which the next rephasing happens", REPHASE_UNIT),
    Register("REPHASE_UNIT", "conflicts before the first rephasing; the k-th comes k times "
             "as many after", REPHASE_UNIT),
)
"""``REG``'s slots, in order; ``REG_<name>`` is each one's index."""

FREGISTERS: tuple[Register, ...] = (
    Register("VAR_INC", "VSIDS: what a bump adds to an activity", 1.0),
)
"""``FREG``'s slots, in order; ``FREG_<name>`` is each one's index."""


def register(name: str) -> int:
    """The index of register ``name`` in [`REGISTERS`][] (or [`FREGISTERS`][])."""
    for table in (REGISTERS, FREGISTERS):
        for k, r in enumerate(table):
            if r.name == name:
                return k
    raise KeyError(name)


REG_LEVEL = register("LEVEL")
REG_TRAIL_LEN = register("TRAIL_LEN")
REG_QHEAD = register("QHEAD")
REG_HEAP_N = register("HEAP_N")
REG_CLAUSES = register("CLAUSES")
REG_ARENA = register("ARENA")
REG_CONFLICTS = register("CONFLICTS")
REG_DECISIONS = register("DECISIONS")
REG_ASSIGNS = register("ASSIGNS")
REG_RESTARTS = register("RESTARTS")
REG_LUBY_I = register("LUBY_I")
REG_NEXT_RESTART = register("NEXT_RESTART")
REG_MAX_LEARNED = register("MAX_LEARNED")
REG_STOP_CONFLICTS = register("STOP_CONFLICTS")
REG_STOP_DECISIONS = register("STOP_DECISIONS")
REG_CONFLICT_KIND = register("CONFLICT_KIND")
REG_CONFLICT_A = register("CONFLICT_A")
REG_CONFLICT_B = register("CONFLICT_B")
REG_RESTART_UNIT = register("RESTART_UNIT")
REG_BLOCK = register("BLOCK")
REG_N_PRIMARY = register("N_PRIMARY")
REG_MAX_LEVEL = register("MAX_LEVEL")
REG_STAMP = register("STAMP")
REG_DELETED = register("DELETED")
REG_CLEAR_N = register("CLEAR_N")
REG_PENDING = register("PENDING")
REG_PENDING_KEEP = register("PENDING_KEEP")
REG_TARGET_LEN = register("TARGET_LEN")
REG_SHRUNK = register("SHRUNK")
REG_WL_END = register("WL_END")
REG_RELAYOUTS = register("RELAYOUTS")
REG_BEST_LEN = register("BEST_LEN")
REG_REPHASES = register("REPHASES")
REG_NEXT_REPHASE = register("NEXT_REPHASE")
REG_REPHASE_UNIT = register("REPHASE_UNIT")
FREG_VAR_INC = register("VAR_INC")

if TYPE_CHECKING:  # the type checker's view: a tuple of arrays, each read by its name

    class Learner(tuple):
        def __getattr__(self, name: str) -> Any: ...
        def __new__(cls, *args: Any, **kwargs: Any) -> Learner: ...
        def _replace(self, **kwargs: Any) -> Learner: ...
        _fields: tuple[str, ...]

else:
    Learner = namedtuple("Learner", [f.name for f in FIELDS])
    Learner.__doc__ = "The arrays of one learning search, in the order of [`FIELDS`][]."

Problem = tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                np.ndarray]
"""``(n_primary, OPT_PTR, OPT_ITEM, OPT_COLOR, ITEM_PTR, ITEM_OPT, ITEM_COLOR, dropped)``."""

_FLAG = np.int8
_KINDS = {"flag": np.dtype(_FLAG), "int64": np.dtype(np.int64),
          "float": np.dtype(np.float64)}


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


def _lengths(n: int, n1: int, clauses: int, literals: int) -> dict[str, int]:
    """The length of an array by its ``per`` ([`Field`][]), for ``n`` options, ``n1``
    primary items and room for ``clauses`` learned clauses of ``literals`` in all."""
    return {"option": n, "option+1": n + 1, "level": n + 2, "primary": n1, "literal": 2 * n,
            "clause": clauses, "arena": literals, "watch": 2 * watch_room(clauses, n),
            "register": len(REGISTERS), "fregister": len(FREGISTERS)}


def allocate(problem: Problem, seed: int | None) -> Learner:
    """A fresh state: nothing assigned but the options without a primary item (false);
    room for ``max(2**16, 64 V)`` literals of learned clauses, a fourth as many clauses."""
    n1, *lists, dropped = problem
    n = len(lists[0]) - 1
    literals = max(1 << 16, 64 * n)
    lengths = _lengths(n, n1, literals // 4, literals)
    index = index_type(max(literals, len(lists[1]), 2 * n + 2, lengths["watch"]))
    given = dict(zip([f.name for f in FIELDS if f.per == "problem"], lists))
    S = Learner(*(given[f.name] if f.per == "problem" else
                  _filled(lengths[f.per], f.fill, _KINDS.get(f.kind, index))
                  for f in FIELDS))
    S.VAL[dropped] = 0
    item_ptr, item_opt = S.ITEM_PTR, S.ITEM_OPT
    S.FREE[:] = np.diff(item_ptr)[:n1]
    np.bitwise_xor.at(S.FREE_XOR, np.repeat(np.arange(n1), S.FREE), item_opt[:item_ptr[n1]])
    if seed is not None:  # ties among the first decisions broken at random
        rng = np.random.default_rng([abs(seed) * 2 + (seed < 0), 0])  # as Links.shuffled
        S.ACT[:] = rng.random(n) * 1e-3
    S.WS[:] = np.arange(2 * n) * 4
    order = np.argsort(-S.ACT, kind="stable")  # a heap already: activities non-increasing
    live = order[S.VAL[order] == UNSET]
    S.HEAP[:len(live)] = live
    S.HEAP_POS[live] = np.arange(len(live))
    S.REG[:] = [r.initial for r in REGISTERS]
    S.REG[REG_N_PRIMARY] = n1
    S.REG[REG_MAX_LEARNED] = 2000 + n // 2
    S.REG[REG_WL_END] = 8 * n
    S.REG[REG_HEAP_N] = len(live)
    S.FREG[:] = [r.initial for r in FREGISTERS]
    return S


def _filled(n: int, fill: int | float, dtype: Any) -> np.ndarray:
    """``n`` of ``fill``. Zeros come from ``np.zeros``, whose pages the system gives
    zeroed when first touched: the room for learned clauses (100 MB on 200 queens) is
    then not written at the start (``np.full`` took 0.1 s of system time there, as long
    as the whole search)."""
    return np.zeros(n, dtype=dtype) if fill == 0 else np.full(n, fill, dtype=dtype)


def grown(S: Learner) -> Learner:
    """``S`` with twice the room for learned clauses: the arrays of ``clause``, ``arena``
    and ``watch`` copied into larger ones (64-bit now if the positions need it; the flags
    stay bytes)."""
    clauses, literals = 2 * len(S.CL_START), 2 * len(S.CL_LITS)
    lengths = _lengths(len(S.VAL), 0, clauses, literals)
    index = index_type(max(literals, lengths["watch"]))

    def grow(a: np.ndarray, n: int) -> np.ndarray:
        dtype = a.dtype if a.itemsize == 1 else np.promote_types(a.dtype, index)
        out = np.zeros(n, dtype=dtype)
        out[:len(a)] = a
        return out

    return S._replace(**{f.name: grow(getattr(S, f.name), lengths[f.per]) for f in FIELDS
                         if f.per in ("clause", "arena", "watch")})


def dtypes(S: Learner) -> tuple[np.dtype, ...]:
    """The dtype of each array of ``S``, checked against its kind in [`FIELDS`][] (an
    ``index`` array is int32 or int64): what the compiled kernel's signature is made of
    ([`dlx.compiled`][]). Raises TypeError for an array of another type."""
    out = []
    for f, a in zip(FIELDS, S):
        want = _KINDS.get(f.kind)
        if a.ndim != 1 or (a.dtype != want if want is not None else
                           a.dtype not in (np.dtype(np.int32), np.dtype(np.int64))):
            raise TypeError(f"{f.name} is an array of {a.dtype}, not of its kind {f.kind}")
        out.append(a.dtype)
    return tuple(out)
