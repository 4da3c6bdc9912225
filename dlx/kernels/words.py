"""Algorithm X over bit words, compiled: the batch driver's search for small problems.

A batch of small problems (a 9x9 Sudoku: 729 options, 324 items) spends most of its time
in the links: one pointer update per node removed, and as many again to undo, forcing and
undoing the givens included. Here the set of *active options* is a few 64-bit words
(bit ``o`` for option ``o``), so that taking an option is ``A & ~CONFL[o]`` over the words
(``CONFL[o]``: the options sharing an item with ``o``, ``o`` included) and each level
keeps its own set (``AS``). ``LEN[j]`` is still kept for every primary item, the number
of active options holding it (plus ``INACTIVE`` while the item is covered), because
Knuth's choice needs it; an option leaving the active set adds -1 to the lengths of its
primary items ([`adjust`][]). The length is kept times ``UNIT`` (2**16) plus the item's
own number, so that the least ``LEN[j]`` is at once the least length and the first item
that has it: C3 is one vector scan. Nothing is undone one option at a time: a level that
branches (its item has two options or more) keeps a copy of the lengths after its C4
(``LENS``), and going back to it copies them back, whatever was taken below; a level with
one option or none is left at once (most levels of a Sudoku: its singles).

It is the search of [`dlx.kernels.algorithm_c.search`][] in another representation, held to it by
tests (every record of a batch equal: status, solutions, the first solution, ``nodes``,
``updates``, deepest level): C3 picks the first primary item of least length (as
[`dlx.kernels.algorithm_c.choose`][] does), C4 tries its options in list order, which is option
order in links laid out unshuffled (the only ones this kernel takes), and the updates are
counted as the links would count them without the links, each option leaving the lists
once (see ``docs/decisions.md``, "Algorithm X over bitsets"): C4 costs ``1 + W(R)``, C5
``|x| - 1 + W(S)``, where ``R`` is the chosen item's active options, ``S`` the others that
share an item with ``x``, and ``W`` sums ``|o| - 1`` over a set.

The batch driver is [`dlx.kernels.batch.search_batch`][] itself, re-created over this module's
``force_instance``, ``search``, ``undo_instance`` and ``record_first`` (as
[`dlx.kernels.algorithm_m`][] does). Compiled only ([`dlx.compiled`][]); the python backend solves
a batch one [`dlx.Search`][] at a time.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..links import Links
from ..state import REG_LEVEL, REG_MAX_LEVEL, REG_NODES, REG_RESUME, REG_SOLUTIONS, REG_UPDATES
from .batch import search_batch
from .codes import COMPLETE, CONFLICT, ENTER, INVALID, LEAVE, LIMIT, MAX_NODES
from .declare import Declaration
from .record import B_FIRST, B_SIZE, B_SOLUTIONS, W_FORCED, W_INSTANCE, W_INVALID, W_PHASE

__all__ = [
    "DECLARATION",
    "FUNCTIONS",
    "MAX_OPTIONS",
    "MAX_SAVED",
    "NARROW",
    "SHORT",
    "Words",
    "dtypes",
    "fits",
    "is_short",
    "pack",
    "pooled",
    "search_through",
    "unpack",
    "words",
    "workspace",
]

UNIT = 2**16  # LEN[j] is j's length times UNIT plus j itself (int32): see C3
SHIFT = 16  # UNIT == 2**SHIFT
INACTIVE = 2**14 * UNIT  # added to LEN[j] while item j is covered
SHORT = {"UNIT": 2**10, "SHIFT": 10, "INACTIVE": 2**14}
"""The constants of the kernel's short twin, whose lengths are int16: for a problem of
fewer than 2**10 primary items, each in fewer than 16 options (a 9x9 Sudoku: 324 items
in 9 options each), ``LEN[j]`` still fits (``INACTIVE`` plus at most 15 * 2**10 plus
``j``: at most 2**15 - 1). C3's scan then reads 32 lengths a vector step, not 16, and the
levels' copies are half as long: 4-7% less time a puzzle on Sudoku, 1-5% more with the
options' items int16 too ([`NARROW`][]; ``docs/decisions.md``). [`words`][] lays out a
problem for the short twin whenever it fits ([`is_short`][])."""
MAX_OPTIONS = 4096
"""The most options a problem may have for this kernel: 64 words a set (a 16x16 Sudoku)."""
MAX_SAVED = 2**23
"""The most lengths the levels may keep (``LENS``: levels times primary items)."""

WORDS = 0  # INFO: words per set of options
PRIMARY_END = 1  # INFO: N1 + 1, items 1..N1 are primary

DE_BRUIJN = 0x03F79D71B4CB0A89
CTZ = np.full(64, -1, dtype=np.int64)
for _k in range(64):
    CTZ[((((1 << _k) * DE_BRUIJN) % 2**64) >> 58) & 63] = _k


def ctz(word):
    """The index of the lowest one bit of ``word`` (not 0): a de Bruijn multiplication
    here; compiled, the processor's own instruction (numba's ``trailing_zeros``)."""
    return CTZ[(((word & -word) * DE_BRUIJN) >> 58) & 63]


def popcount(word):
    """The one bits of ``word``; compiled, the processor's own instruction (LLVM's
    ``ctpop``, [`dlx.compiled`][])."""
    return (int(word) & (2**64 - 1)).bit_count()


FUNCTIONS = ("ctz", "popcount", "adjust", "adjust_words", "least", "mark", "search",
             "force_instance", "undo_instance", "record_first", "unpack", "search_through")
"""This kernel's functions, callees before callers (the batch driver borrowed:
[`DECLARATION`][]; compiled, ``ctz`` and ``popcount`` are the processor's own)."""


class Words(NamedTuple):
    """The tables of one problem (read-only) and a batch's working arrays, int64 but for
    the lengths, ``LEN`` and ``LENS``, and the options' items, ``OITEM`` ([`NARROW`][]:
    int32, or int16 for the short twin, [`SHORT`][]: C3 scans the lengths 16 or 32 to a
    vector step, and the tables C5 reads take less of the cache; the compiled signature
    types those fields so, [`dtypes`][])."""

    INFO: np.ndarray  # WORDS, PRIMARY_END
    ITEMS: np.ndarray  # row i (WORDS words): the options of primary item i
    SPAN: np.ndarray  # 2i, 2i + 1: the first word of row i that holds options, and the last + 1
    CONFL: np.ndarray  # row o: the options that share an item with option o, o included
    OSTART: np.ndarray  # option o's primary items are OITEM[OSTART[o]:OSTART[o + 1]]
    OITEM: np.ndarray
    SPARE: np.ndarray  # |o| - 1: the nodes an option loses when one of its items is covered
    A0: np.ndarray  # the options of the problem (not dropped), WORDS words
    LEN: np.ndarray  # item j: UNIT * its active options + j (+ INACTIVE while covered)
    AS: np.ndarray  # row l: the active options when level l is entered
    TRY: np.ndarray  # row l: the options of ITEM[l] not tried yet
    CHOICE: np.ndarray  # the option tried at each level
    ITEM: np.ndarray  # the item chosen at each level
    SW: np.ndarray  # scratch: the options C4 or C5 takes out of the lengths
    LENS: np.ndarray  # row l: LEN after level l's C4, kept where l branches (LEN's dtype)
    LEFT: np.ndarray  # per level: the options of ITEM[l] not tried yet
    REG: np.ndarray  # registers, as dlx.kernels.algorithm_c's (LEVEL, NODES, UPDATES, ...)


def adjust(word, base, OSTART, OITEM, SPARE, LEN, delta, low):
    """Add ``delta`` to the lengths of the primary items of every option in ``word``
    (bit ``k``: option ``base + k``); return their nodes beyond the first (updates) and
    the least of ``low`` and the lengths written."""
    spare = 0
    while word != 0:
        o = base + ctz(word)
        for q in range(OSTART[o], OSTART[o + 1]):
            j = OITEM[q]
            v = LEN[j] + delta
            LEN[j] = v
            low = min(low, v)
        spare += SPARE[o]
        word &= word - 1
    return spare, low


def adjust_words(SW, nz, OSTART, OITEM, SPARE, LEN, delta, low):
    """[`adjust`][] on the words ``SW[w]`` for each bit ``w`` of ``nz`` (the nonzero
    ones, found by a loop without branches): one test per word that holds options."""
    spare = 0
    while nz != 0:
        w = ctz(nz)
        more, low = adjust(SW[w], w * 64, OSTART, OITEM, SPARE, LEN, delta, low)
        spare += more
        nz &= nz - 1
    return spare, low


def least(LEN, end):
    """The least ``LEN[k]``: the least length times ``UNIT`` plus the first item that has
    it (``LEN[0]`` = INACTIVE: every item covered when nothing is less). One vector scan."""
    t = LEN[0]
    for k in range(1, end):
        t = min(t, LEN[k])
    return t


def mark(o, OSTART, OITEM, LEN, delta):
    """Cover (``delta`` = INACTIVE) or uncover (``-INACTIVE``) the primary items of ``o``."""
    for q in range(OSTART[o], OSTART[o + 1]):
        LEN[OITEM[q]] += delta


def search(S, node_stop, solution_stop):
    """Algorithm X on the words ``S`` until a solution, the end, or a budget; the contract
    of [`dlx.kernels.algorithm_c.search`][] (statuses, registers, resumable), ``CHOICE`` holding
    option numbers."""
    ITEMS = S.ITEMS
    SPAN = S.SPAN
    CONFL = S.CONFL
    OSTART = S.OSTART
    OITEM = S.OITEM
    SPARE = S.SPARE
    LEN = S.LEN
    LENS = S.LENS
    AS = S.AS
    TRY = S.TRY
    LEFT = S.LEFT
    CHOICE = S.CHOICE
    ITEM = S.ITEM
    SW = S.SW
    REG = S.REG
    nw = S.INFO[WORDS]
    end = S.INFO[PRIMARY_END]
    level = REG[REG_LEVEL]
    nodes = REG[REG_NODES]
    updates = REG[REG_UPDATES]
    solutions = REG[REG_SOLUTIONS]
    max_level = REG[REG_MAX_LEVEL]
    step = REG[REG_RESUME]
    status = COMPLETE
    i = 0
    x = 0
    extra = 0
    seen = low = INACTIVE
    known = False  # whether seen and low hold C5's scan (not after a return to Python)
    while True:
        a = level * nw
        if step == ENTER:
            # C2: enter a level; a node of the search tree.
            if nodes >= node_stop:
                status = MAX_NODES
                break
            nodes += 1
            if level > max_level:
                max_level = level
            # C3: the least length and the first item that has it, as C5 left them
            # (the least of its scan and of the lengths it lowered), or a scan anew.
            t = min(seen, low) if known else least(LEN, end)
            if t >= INACTIVE:  # every primary item is covered: a solution
                solutions += 1
                step = LEAVE
                if solutions >= solution_stop:
                    status = LIMIT
                    break
                continue
            i = t & (UNIT - 1)
            t >>= SHIFT
            ITEM[level] = i
            updates += 1
            if t <= 1:  # C7 at once (nothing to try, nothing taken: see C8), or a single
                LEFT[level] = 0
                if t == 0:
                    step = LEAVE
                    continue
                # C4 for a lone option: it stays counted (its items are all covered
                # while it is chosen), and is the bit of i's row left in the active set.
                for w in range(SPAN[2 * i], SPAN[2 * i + 1]):
                    r = AS[a + w] & ITEMS[i * nw + w]
                    x = w * 64 + ctz(r) if r != 0 else x
                extra = SPARE[x]  # the updates C4 counts for it
            else:
                # C4: the options of i leave the other items' lists; they are the ones to
                # try. A branch: the lengths now are kept, for C8 to give back.
                nz = 0
                for w in range(SPAN[2 * i], SPAN[2 * i + 1]):
                    r = AS[a + w] & ITEMS[i * nw + w]
                    TRY[a + w] = r
                    SW[w] = r
                    nz |= (r != 0) << w
                updates += adjust_words(SW, nz, OSTART, OITEM, SPARE, LEN, -UNIT, 0)[0]
                for k in range(end):
                    LENS[level * end + k] = LEN[k]
                LEFT[level] = t
                x = -1
        else:
            # C8: leave levels up to one with an option left to try; C6: its lengths as
            # they were after its C4 (nothing below it is undone one by one).
            if level == 0:
                break
            level -= 1
            if LEFT[level] == 0:
                continue
            a = level * nw
            i = ITEM[level]
            for k in range(end):
                LEN[k] = LENS[level * end + k]
            x = -1
        if x < 0:  # the next option of i, the lowest bit left (LEFT says there is one)
            for w in range(SPAN[2 * i], SPAN[2 * i + 1]):  # C4 filled TRY in this span only
                r = TRY[a + w]
                if r != 0 and x < 0:
                    TRY[a + w] = r & (r - 1)
                    x = w * 64 + ctz(r)
            LEFT[level] -= 1
            extra = 0
        # C5: try option x: the options sharing an item with it leave; go down.
        CHOICE[level] = x
        updates += SPARE[x] + extra
        mark(x, OSTART, OITEM, LEN, INACTIVE)
        nz = 0
        for w in range(nw):
            c = CONFL[x * nw + w]
            AS[a + nw + w] = AS[a + w] & ~c  # i's options share i with x: in c
            r = AS[a + w] & ~ITEMS[i * nw + w] & c
            SW[w] = r
            nz |= (r != 0) << w
        # The next C3's scan, before the others leave: what they lower is followed in
        # registers (the least length then comes without reading back what was just
        # written, which a vector load must wait for).
        seen = least(LEN, end)
        more, low = adjust_words(SW, nz, OSTART, OITEM, SPARE, LEN, -UNIT, INACTIVE)
        updates += more
        known = True
        level += 1
        step = ENTER
    REG[REG_LEVEL] = level
    REG[REG_NODES] = nodes
    REG[REG_UPDATES] = updates
    REG[REG_SOLUTIONS] = solutions
    REG[REG_MAX_LEVEL] = max_level
    REG[REG_RESUME] = step
    return status


def force_instance(S, FORCED, f, end):
    """B1 of [`dlx.kernels.batch.search_batch`][] for this kernel (same contract): the root's set
    starts afresh and each option in turn takes out the options it excludes (CONFLICT for
    one already out); then the lengths of the problem left are counted at once, a
    popcount per word of each item's row (cheaper than taking each option out of its
    items' lengths, as C5 does, when many options go at once)."""
    LEN = S.LEN
    AS = S.AS
    CONFL = S.CONFL
    ITEMS = S.ITEMS
    SPAN = S.SPAN
    A0 = S.A0
    nw = S.INFO[WORDS]
    n = len(S.SPARE)
    first = f
    for w in range(nw):
        AS[w] = A0[w]
    status = COMPLETE
    while f < end and status == COMPLETE:
        o = FORCED[f]
        if o < 0 or o >= n or (A0[o >> 6] >> (o & 63)) & 1 == 0:
            status = INVALID
        elif (AS[o >> 6] >> (o & 63)) & 1 == 0:
            status = CONFLICT
        else:
            for w in range(nw):
                AS[w] &= ~CONFL[o * nw + w]
            f += 1
    for j in range(1, S.INFO[PRIMARY_END]):
        count = 0
        for w in range(SPAN[2 * j], SPAN[2 * j + 1]):
            count += popcount(AS[w] & ITEMS[j * nw + w])
        LEN[j] = count * UNIT + j
    LEN[0] = INACTIVE
    for k in range(first, f):
        mark(FORCED[k], S.OSTART, S.OITEM, LEN, INACTIVE)
    return status, f


def undo_instance(S, FORCED, first, f):
    """B4 of [`dlx.kernels.batch.search_batch`][]: nothing to undo (B1 starts afresh)."""
    S.REG[REG_LEVEL] = 0


def record_first(S, FORCED, first, end, OUT, base, width):
    """B3 of [`dlx.kernels.batch.search_batch`][]: as the kernel's, ``CHOICE`` holding the
    options themselves."""
    size = end - first + S.REG[REG_LEVEL]
    OUT[base + B_SIZE] = size
    fits = size <= width
    for j in range(end - first if fits else 0):
        OUT[base + B_FIRST + j] = FORCED[first + j]
    for j in range(S.REG[REG_LEVEL] if fits else 0):
        OUT[base + B_FIRST + end - first + j] = S.CHOICE[j]


def pack(state: Words) -> tuple[np.ndarray, np.ndarray]:
    """``state`` in two arrays, for [`search_through`][]'s call: every int64 field in
    ``MEM``, after a head of bounds (field ``k`` is ``MEM[MEM[2k]:MEM[2k + 1]]``, or
    ``LMEM``'s for a [`NARROW`][] field), the narrow fields in ``LMEM``. A named tuple of
    seventeen arrays costs a compiled call ~1 us to take apart; two arrays, nothing."""
    head = 2 * len(state)
    bounds, wide, narrow = [], head, 0
    for name, array in zip(state._fields, state):
        start = narrow if name in NARROW else wide
        bounds += [start, start + len(array)]
        if name in NARROW:
            narrow += len(array)
        else:
            wide += len(array)
    mem = np.concatenate([np.array(bounds, dtype=np.int64), *(
        a for name, a in zip(state._fields, state) if name not in NARROW)])
    lmem = np.concatenate([a for name, a in zip(state._fields, state) if name in NARROW])
    return mem, lmem


def unpack(MEM, LMEM):
    """The [`Words`][] state that [`pack`][] packed: views of ``MEM`` and ``LMEM``."""
    return Words(MEM[MEM[0]:MEM[1]], MEM[MEM[2]:MEM[3]], MEM[MEM[4]:MEM[5]],
                 MEM[MEM[6]:MEM[7]], MEM[MEM[8]:MEM[9]], LMEM[MEM[10]:MEM[11]],
                 MEM[MEM[12]:MEM[13]], MEM[MEM[14]:MEM[15]], LMEM[MEM[16]:MEM[17]],
                 MEM[MEM[18]:MEM[19]], MEM[MEM[20]:MEM[21]], MEM[MEM[22]:MEM[23]],
                 MEM[MEM[24]:MEM[25]], MEM[MEM[26]:MEM[27]], LMEM[MEM[28]:MEM[29]],
                 MEM[MEM[30]:MEM[31]], MEM[MEM[32]:MEM[33]])


def encode(data, context):
    """An adapter's ``encode`` ([`dlx.InstanceCodec`][]): each compiled
    [`search_through`][] has its own in its namespace, in place of this one."""
    raise NotImplementedError("search_through is compiled with an adapter's encode")


def decode(first, data, context):
    """An adapter's ``decode``, as [`encode`][]."""
    raise NotImplementedError("search_through is compiled with an adapter's decode")


def search_through(MEM, LMEM, DATA, CONTEXT, OUT, WHERE, ANSWER, node_stop, solution_stop,
                   width, first):
    """One instance made, searched and answered in one compiled call, for an adapter's
    two ends ([`dlx.InstanceSearch.through`][]: ``encode`` and ``decode``, compiled into
    this function's namespace). T1: ``encode`` makes the adapter's ``DATA`` (uint8) into
    the options to force. T2: the batch of that one instance ([`search_batch`][], one
    slice). T3: ``decode`` of its first solution, as recorded in ``OUT``, copied into
    the caller's ``ANSWER`` (a uint8 array handed back to Python costs numba ~0.7 us to
    make, a copy ~0.1 us). Returns the answer's length; -1 for no answer: no solution, or
    a search that outlasted the slice (``WHERE[W_INSTANCE]`` still 0: the caller goes
    on, and decodes); -2 for an answer longer than ``ANSWER`` (the caller decodes it from
    ``OUT``). The state comes packed ([`pack`][]). ``OUT`` (one record) and ``WHERE`` are
    set afresh here, so that a caller may keep them from one call to the next."""
    for k in range(len(OUT)):
        OUT[k] = 0
    WHERE[W_INSTANCE] = 0
    WHERE[W_PHASE] = 0
    WHERE[W_FORCED] = 0
    WHERE[W_INVALID] = -1
    S = unpack(MEM, LMEM)
    FORCED = encode(DATA, CONTEXT)  # T1
    INDPTR = np.zeros(2, dtype=np.int64)
    INDPTR[1] = len(FORCED)
    if search_batch(S, FORCED, INDPTR, OUT, WHERE, node_stop, solution_stop, width, first) \
            or OUT[B_SOLUTIONS] == 0:  # T2
        return -1
    got = decode(OUT[B_FIRST : B_FIRST + OUT[B_SIZE]], DATA, CONTEXT) if OUT[B_SIZE] >= 0 \
        else ANSWER[:0]  # T3; one type with ANSWER's: numba refuses an answer not uint8
    if len(got) > len(ANSWER):
        return -2
    for k in range(len(got)):
        ANSWER[k] = got[k]
    return len(got)


def words(links: Links) -> Words | None:
    """The tables of ``links`` for this kernel, with fresh working arrays, or None when
    the kernel does not take the problem: colors, multiplicities or costs, more than
    [`MAX_OPTIONS`][] options or 65,535 primary items, more than [`MAX_SAVED`][] lengths
    to keep (levels times primary items), or lists not in option order (shuffled links).
    The lengths are laid out for the short twin ([`SHORT`][]: int16) when they fit it,
    else as this module's constants say (int32)."""
    n, end = links.n_options, links.n_primary + 1
    if links.mcc or links.colored or links.item_number is not None or not 0 < n <= MAX_OPTIONS \
            or end > UNIT:
        return None
    top, down = links.arrays.TOP, links.arrays.D
    option = links.option_of_node
    nodes = np.flatnonzero((option >= 0) & (top > 0))
    ahead = down[nodes]  # the next node of each list: later in the layout, or the header
    opts, items = option[nodes], top[nodes]  # in layout order: by option, then position
    if ((ahead > links.n_items) & (ahead <= nodes)).any() or (np.diff(opts) < 0).any():
        return None
    nw = (n + 63) // 64
    width = np.bincount(opts, minlength=n)
    primary = items < end
    member = np.zeros((links.n_items + 1, nw * 64), dtype=bool)  # item -> its options
    member[items, opts] = True
    by_item = np.ascontiguousarray(np.packbits(member, axis=1, bitorder="little")).view(np.int64)
    starts = np.flatnonzero(np.diff(opts, prepend=-1))  # each option's first node
    confl = np.zeros((n, nw), dtype=np.int64)  # the union of its items' rows
    confl[opts[starts]] = np.bitwise_or.reduceat(by_item[items], starts, axis=0)
    present = np.pad(links.forcing_node >= 0, (0, nw * 64 - n))
    ostart = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(opts[primary], minlength=n), out=ostart[1:])
    rows = by_item[:end]
    held = rows != 0
    span = np.zeros((end, 2), dtype=np.int64)  # an item without options: the empty span
    span[:, 0] = np.where(held.any(axis=1), held.argmax(axis=1), 0)
    span[:, 1] = np.where(held.any(axis=1), nw - held[:, ::-1].argmax(axis=1), 0)
    counts = np.bincount(items[primary], minlength=end)
    short = end <= SHORT["UNIT"] and counts.max(initial=0) * SHORT["UNIT"] < SHORT["INACTIVE"]
    unit, inactive = (SHORT["UNIT"], SHORT["INACTIVE"]) if short else (UNIT, INACTIVE)
    len0 = (counts * unit + np.arange(end)).astype(np.int16 if short else np.int32)
    len0[0] = inactive  # the root: never chosen, where C3's scan starts
    widths = np.diff(ostart)[links.forcing_node >= 0]  # each level covers this many or more
    depth = min((end - 1) // max(int(widths.min(initial=end)), 1), n) + 1
    if depth * end > MAX_SAVED:
        return None
    return Words(
        INFO=np.array([nw, end], dtype=np.int64),
        ITEMS=rows.reshape(-1).copy(), SPAN=span.reshape(-1),
        CONFL=confl.reshape(-1),
        OSTART=ostart, OITEM=items[primary].astype(len0.dtype),
        SPARE=np.maximum(width - 1, 0).astype(np.int64),
        A0=np.packbits(present, bitorder="little").view(np.int64),
        LEN=len0, AS=np.zeros(depth * nw, dtype=np.int64),
        TRY=np.zeros(depth * nw, dtype=np.int64), CHOICE=np.zeros(depth, dtype=np.int64),
        ITEM=np.zeros(depth, dtype=np.int64), SW=np.zeros(nw, dtype=np.int64),
        LENS=np.zeros(depth * end, dtype=len0.dtype), LEFT=np.zeros(depth, dtype=np.int64),
        REG=np.zeros(len(links.arrays.REG), np.int64))


NARROW = frozenset({"OITEM", "LEN", "LENS"})
"""The fields of [`Words`][] in the lengths' dtype (int16 or int32: an item's number fits
too), packed in ``LMEM``; the others are int64."""

WORKING = ("LEN", "AS", "TRY", "CHOICE", "ITEM", "SW", "LENS", "LEFT", "REG")
"""The fields of [`Words`][] that a batch writes; the others are the problem's tables."""


def workspace(tables: Words) -> Words:
    """``tables`` with working arrays of its own, for one batch at a time (the tables
    themselves are shared, read-only)."""
    return tables._replace(**{name: getattr(tables, name).copy() for name in WORKING})


def pooled(links: Links) -> Words | None:
    """Working arrays for a batch of ``links``, from the problem's pool (a batch gives
    them back when it ends; B1 starts afresh, so any will do), or None when this kernel
    does not take the problem (remembered: ``converted["numba-words"]`` is then False)."""
    tables = links.converted.get("numba-words")
    if tables is False:
        return None
    try:
        return links.converted.get("numba-words-pool", []).pop()
    except IndexError:
        pass
    if tables is None:
        tables = links.converted.setdefault("numba-words", words(links) or False)
    return workspace(tables) if tables else None



def is_short(tables: Words) -> bool:
    """Whether ``tables`` are laid out for the short twin ([`SHORT`][]: int16 lengths)."""
    return tables.LEN.dtype == np.int16


def dtypes(short: bool) -> tuple[str, ...]:
    """The state's arrays' dtypes, in field order, for the twin: the [`NARROW`][] fields
    int16 (``short``) or int32, the others int64."""
    return tuple(("int16" if short else "int32") if name in NARROW else "int64"
                 for name in Words._fields)


def fits(links: Links) -> bool:
    """Whether this kernel takes ``links`` ([`words`][]; its tables built once per
    problem, ``converted["numba-words"]``, False when it does not)."""
    tables = links.converted.get("numba-words")
    if tables is None:
        tables = links.converted.setdefault("numba-words", words(links) or False)
    return tables is not False

DECLARATION = Declaration(
    "words",
    functions=FUNCTIONS,
    entries={"search_batch": "Saaaaiiii", "search_through": "albaaabiiii"},
    state=Words,
    registers=("LEVEL", "NODES", "UPDATES", "SOLUTIONS", "RESUME", "MAX_LEVEL"),
    borrows=("record", "batch"),
    dtypes=lambda: dtypes(False),
    inline=frozenset({"begin", "force_instance", "undo_instance", "record_first", "record",
                      "choose", "adjust", "adjust_words", "mark", "unpack"}),
    backends=("numba",),
)
"""Batches of small problems over bit words, compiled only (``search_through``: with an
adapter's ``encode`` and ``decode`` bound in its namespace)."""
