"""The kernel's state, named once: every array a search reads or writes, in one table.

[`FIELDS`][] lists them in the order of [`State`][], the named tuple that the kernel's
entry points take (``search(S, ...)``, ``force_all(S, ...)``, ``search_batch(S, ...)``) and
read by name (``S.U``, ``S.LEN``). Everything else is derived from this table: the pristine
arrays built for a problem ([`dlx.links`][]), the working copy each search makes of the
arrays it changes, the conversions each backend caches per problem, a compiled batch's
workspace and the numba signatures ([`dlx.compiled`][]).

What each array holds is explained where it is built, in [`dlx.links`][].

**To add an array**: add a row here, build its pristine value in
[`dlx.links.build_links`][] (it must be an ``int64`` numpy array of the length its ``per``
says), and read it in the kernel as ``S.NAME``. Nothing else changes: copies, conversions,
workspaces and signatures follow the table. The rows marked ``mcc`` (item bounds, tweaks,
option costs) are read only by the kernel of multiplicities and costs
([`dlx.kernels.algorithm_m`][]); the other kernels get them empty, so they cost those nothing.
"""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, NamedTuple

__all__ = ["FIELDS", "N_REGS", "REGISTERS", "REGISTER_INDEX", "REG_CUTOFF", "REG_LEVEL",
           "REG_LOOKAHEAD", "REG_MAX_LEVEL", "REG_NODES", "REG_PRIMARY_END", "REG_RESUME",
           "REG_SEED", "REG_SOLUTIONS", "REG_SPENT", "REG_TRAIL_TOP", "REG_UPDATES", "State",
           "field_length", "register"]


class Field(NamedTuple):
    """One array of the kernel's state."""

    name: str
    per: str
    """What it is indexed by: ``node`` (length ``Z``), ``item`` (``N + 1``), ``level``
    (``N1 + 1``: a solution has at most one option per primary item; with multiplicities,
    see [`dlx.links.build_links`][]), ``option`` (the problem's options, in input order)
    or ``register`` ([`N_REGS`][])."""
    changes: bool
    """True when a search writes it: each search then works on its own copy; False when it
    is read only, so that every search of the problem shares one."""
    dtype: str
    doc: str
    mcc: bool = False
    """True when only [`dlx.kernels.algorithm_m`][] reads it (multiplicities and costs): the other
    kernels get an empty array in its place ([`dlx.backend.Kernel.pristine`][])."""


FIELDS: tuple[Field, ...] = (
    Field("U", "node", True, "int64", "up links of the vertical lists"),
    Field("D", "node", True, "int64", "down links of the vertical lists"),
    Field("TOP", "node", False, "int64", "the item of a node; <= 0 for a spacer"),
    Field("COLOR", "node", True, "int64", "a node's color; -1 once purified"),
    Field("LEN", "item", True, "int64", "list lengths, + INACTIVE while covered"),
    Field("LL", "item", True, "int64", "left links of the active primary items"),
    Field("RL", "item", True, "int64", "right links of the active primary items"),
    Field("CHOICE", "level", True, "int64", "the node chosen at each level"),
    Field("REG", "register", True, "int64", "the registers below"),
    Field("FORCING", "option", False, "int64", "an option's first primary node, or -1"),
    Field("WEIGHT", "item", True, "int64", "weights of the weighted choice (dom/wdeg)"),
    Field("TRAIL", "option", True, "int64", "lookahead: a node of each option hidden"),
    Field("TRAIL_AT", "level", True, "int64", "lookahead: where each level's TRAIL starts"),
    Field("BOUND", "item", True, "int64", "how many more options may cover a primary item",
          mcc=True),
    Field("SLACK", "item", False, "int64", "a primary item's upper minus lower bound",
          mcc=True),
    Field("TWEAK", "level", True, "int64", "the first option tweaked at a level, or 0",
          mcc=True),
    Field("COST", "node", False, "int64", "the net cost of a node's option", mcc=True),
)

if TYPE_CHECKING:  # the type checker's view: a tuple of arrays, each read by its name

    class State(tuple):
        def __getattr__(self, name: str) -> Any: ...
        def __new__(cls, *args: Any, **kwargs: Any) -> State: ...
        def _replace(self, **kwargs: Any) -> State: ...

else:
    State = namedtuple("State", [f.name for f in FIELDS],
                       defaults=[() for f in FIELDS if f.mcc])  # the mcc rows come last
    State.__doc__ = ("The kernel's arrays, in the order of [`FIELDS`][] (those only "
                     "[`dlx.kernels.algorithm_m`][] reads may be left out: empty).")

REGISTERS = (
    ("LEVEL", "the current level of the search tree (options chosen so far)"),
    ("NODES", "search-tree nodes entered (Knuth's nodes)"),
    ("UPDATES", "link updates (Knuth's updates)"),
    ("SOLUTIONS", "solutions found"),
    ("RESUME", "where the next call starts: ENTER a level (C2) or LEAVE one (C8)"),
    ("MAX_LEVEL", "the deepest level reached"),
    ("PRIMARY_END", "N1 + 1: items 1..N1 are primary (read only)"),
    ("LOOKAHEAD", "the lookahead tests items of 2 to this many options (0: none)"),
    ("TRAIL_TOP", "options the lookahead has hidden, TRAIL[0:TRAIL_TOP]"),
    ("SEED", "dlx.kernels.algorithm_m's tie-break generator; 0: the first item, as Knuth"),
    ("SPENT", "the net cost of the options chosen so far (dlx.kernels.algorithm_m)"),
    ("CUTOFF", "dlx.kernels.algorithm_m prunes partial solutions that cost this much (net)"),
)
"""``REG``'s slots, in order; ``REG_<name>`` below is each one's index, which every kernel
over these arrays reads (the last three only [`dlx.kernels.algorithm_m`][]: a seeded
search of the plain kernel runs on shuffled links instead, [`dlx.links.Links.shuffled`][])."""

N_REGS = len(REGISTERS)
REGISTER_INDEX = {name: k for k, (name, _) in enumerate(REGISTERS)}


def register(name: str) -> int:
    """The index of register ``name`` in [`REGISTERS`][]: the kernels read ``REG_<name>``."""
    return REGISTER_INDEX[name]


REG_LEVEL = register("LEVEL")
REG_NODES = register("NODES")
REG_UPDATES = register("UPDATES")
REG_SOLUTIONS = register("SOLUTIONS")
REG_RESUME = register("RESUME")
REG_MAX_LEVEL = register("MAX_LEVEL")
REG_PRIMARY_END = register("PRIMARY_END")
REG_LOOKAHEAD = register("LOOKAHEAD")
REG_TRAIL_TOP = register("TRAIL_TOP")
REG_SEED = register("SEED")
REG_SPENT = register("SPENT")
REG_CUTOFF = register("CUTOFF")


def field_length(per: str, n_nodes: int, n_items: int, n_primary: int, n_options: int,
                 n_levels: int | None = None) -> int:
    """The length of an array indexed ``per`` node, item, level, option or register
    (``n_levels``: ``n_primary + 1`` unless said, see [`dlx.links.build_links`][])."""
    return {"node": n_nodes, "item": n_items + 1,
            "level": n_primary + 1 if n_levels is None else n_levels,
            "option": n_options, "register": N_REGS}[per]
