"""Vocabulary and text: grid geometry, alphabets, and reading/writing boards.

A *grid* of side ``N = n*n`` (box size ``n`` in 2..6) has ``N*N`` *cells*, numbered
row-major. Its rules are a [`Layout`][sudoku.layout.Layout] (rows, columns and square boxes
by default); with a layout given, any side the layout has is read (6x6 with 2 x 3 boxes, a
Latin square of side 5...), and the checker ([`is_solution`][], [`are_solutions`][])
tests the layout's units, whatever they are.

A *value* is an int: 0 for a blank, ``1..N`` for a symbol. The *alphabet* maps values
to characters: ``1-9`` then ``A-Z`` then ``a-z`` by default (so A = 10), or any str of
``N`` distinct printable characters, e.g. ``"0123456789ABCDEF"`` for 16x16. A blank is
``.``, or ``0`` when ``0`` is not in the alphabet. An alphabet may not use what puzzle
text means otherwise (``.``, whitespace, ``| - +`` of drawn grids, ``#`` of comments):
[`check_alphabet`][] refuses it, with the same AlphabetError for every entry point.

Boards come in the caller's own types: a list (or other sequence) of N lists of
one-character strings (the LeetCode 37 shape), of N lists of ints, or an N x N numpy
array of integers or of whole floats (``np.matrix`` too). Parsing returns flat values and
never modifies the board; [`check_writable`][] says, before anything is solved, whether
[`write_back`][] could fill it in (tuples and read-only arrays cannot be), and
[`write_back`][] undoes its writes if one fails anyway. Nothing here solves anything.

The per-alphabet caches are bounded (``CACHE_SIZE`` alphabets each), so a program fed
ever new alphabets does not grow without limit.
"""

from __future__ import annotations

import contextlib
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from math import isqrt
from operator import add, getitem, itemgetter, ne
from typing import Any

import numpy as np

from .arraycheck import all_hold
from .bytecheck import line_plan, lines_hold_all, read_bytes, values_kept
from .errors import (
    AlphabetError,
    ArgumentError,
    ReadOnlyError,
    ShapeError,
    SudokuError,
    SymbolError,
    culprit,
)
from .layout import Layout, box_owners, region_owners
from .pretty import draw_grid
from .rows import read_rows
from .tables import tables

__all__ = [
    "BOX_SIZES",
    "CACHE_SIZE",
    "DEFAULT_SYMBOLS",
    "Geometry",
    "Layout",
    "are_solutions",
    "box_owners",
    "byte_values",
    "check_alphabet",
    "check_writable",
    "format_grid",
    "geometry",
    "is_solution",
    "not_a_puzzle",
    "parse_board",
    "parse_string",
    "read_board",
    "read_string",
    "region_owners",
    "write_back",
]

BOX_SIZES = (2, 3, 4, 5, 6)
SIDES = tuple(n * n for n in BOX_SIZES)
DEFAULT_SYMBOLS = string.digits[1:] + string.ascii_uppercase + string.ascii_lowercase
SEPARATORS = frozenset(" \t\r\n|-+")
"""Characters ignored when a grid is drawn as text (Norvig's grid format uses ``| - +``)."""
_DROP_SEPARATORS = str.maketrans("", "", "".join(SEPARATORS))
RESERVED = frozenset(".|-+#")
"""Characters that puzzle text uses for something else, so no alphabet may hold them: the
blank ``.``, the rules of drawn grids, and ``#`` that starts a comment line in puzzle files.
Whitespace and unprintable characters are refused too."""
CACHE_SIZE = 64
"""Alphabets remembered by each per-alphabet cache: a program uses a handful, and one fed
arbitrary alphabets (a server) keeps at most this many per cache."""


@dataclass(frozen=True)
class Geometry:
    """The shape of a grid: box size ``n``, side ``N``, its alphabet and its rules.

    ``layout`` ([`sudoku.layout.Layout`][]) holds the rules; by default (None) the
    square layout of ``box`` (``N = n*n``). A layout whose side is no square has ``box`` 0.
    """

    box: int
    alphabet: str
    layout: Layout = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.layout is None:
            object.__setattr__(self, "layout", Layout.square(self.box))

    def __hash__(self) -> int:
        """The alphabet's and the layout's hashes, both cached by their objects: with the
        layout, geometries of one alphabet and many layouts (jigsaws, killers) do not all
        collide in the per-geometry caches (one such collision chain made a jigsaw's first
        call twice as slow). Not stored, since a str's hash changes between processes."""
        return hash((self.alphabet, self.layout))

    @property
    def side(self) -> int:
        return self.layout.side

    @property
    def cells(self) -> int:
        return self.side * self.side

    def blanks(self) -> frozenset[str]:
        return frozenset(".") if "0" in self.alphabet else frozenset(".0")

    def where(self, cell: int) -> str:
        """A cell as people name it: ``r3c7`` (1-based)."""
        r, c = divmod(cell, self.side)
        return f"r{r + 1}c{c + 1}"


def geometry(side: int, alphabet: str | None = None,
             layout: Layout | None = None) -> Geometry:
    """The geometry of a ``side`` x ``side`` grid: ShapeError if ``side`` is not n*n for a
    box size n in 2..6 (with a ``layout``: not the layout's side), AlphabetError if
    ``alphabet`` is unusable or not of that size, ArgumentError if ``layout`` is neither
    None (square boxes) nor a [`Layout`][]."""
    check_alphabet(alphabet, layout)  # before the cache, which cannot hash a list
    return _geometry(side, alphabet, layout)


def check_layout(layout: Any) -> None:
    """ArgumentError unless ``layout`` is None (square boxes by size) or a Layout."""
    if layout is not None and not isinstance(layout, Layout):
        raise ArgumentError(f"layout must be a sudoku.Layout or None, got "
                            f"{type(layout).__name__}")


@lru_cache(maxsize=CACHE_SIZE)
def _geometry(side: int, alphabet: str | None, layout: Layout | None = None) -> Geometry:
    box = round(side**0.5)
    if layout is None:
        if box * box != side or box not in BOX_SIZES:
            raise ShapeError(f"a grid must be N x N with N in 4, 9, 16, 25, 36; got side "
                             f"{side}")
    elif side != layout.side:
        raise ShapeError(f"the layout is {layout.side}x{layout.side}; got side {side}")
    if alphabet is None:
        alphabet = DEFAULT_SYMBOLS[:side]
    elif len(alphabet) != side:
        raise AlphabetError(f"alphabet {culprit(alphabet)} has {len(alphabet)} symbols but "
                            f"the grid is {side}x{side}")
    return Geometry(box if box * box == side else 0, alphabet,
                    Layout.square(box) if layout is None else layout)


def check_alphabet(alphabet: Any, layout: Layout | None = None) -> None:
    """AlphabetError unless ``alphabet`` is None (the default symbols) or a str that is the
    alphabet of some grid: 4, 9, 16, 25 or 36 (with a ``layout``: its side) distinct
    printable characters, none of them whitespace or [`RESERVED`][]. Every entry point
    calls this first, directly or through [`geometry`][], so a bad alphabet gets the same
    error wherever it is given. A ``layout`` that is no Layout is an ArgumentError."""
    check_layout(layout)
    if alphabet is None:
        return
    if not isinstance(alphabet, str):
        raise AlphabetError(f"alphabet must be a str of N symbols (or None), got "
                            f"{type(alphabet).__name__}")
    if layout is not None:
        if len(alphabet) != layout.side:
            raise AlphabetError(f"alphabet has {len(alphabet)} symbols: the layout needs "
                                f"{layout.side}")
    elif len(alphabet) not in SIDES:
        raise AlphabetError(f"alphabet has {len(alphabet)} symbols: a grid needs 4, 9, 16, 25 "
                            "or 36")
    for k, ch in enumerate(alphabet, 1):
        if ch in RESERVED or ch.isspace() or not ch.isprintable():
            raise AlphabetError(
                f"alphabet symbol {ch!r} (position {k}) is not allowed: symbols must be "
                "printable, and not whitespace, '.' (a blank), '|', '-', '+' (drawn grids) "
                "or '#' (comments)")
    if len(set(alphabet)) != len(alphabet):
        twice = next(ch for k, ch in enumerate(alphabet) if ch in alphabet[:k])
        raise AlphabetError(f"alphabet {alphabet!r} repeats {twice!r}: its symbols must be "
                            "distinct")


@lru_cache(maxsize=CACHE_SIZE)
def _symbol_values(geo: Geometry) -> dict[str, int]:
    values = {ch: v for v, ch in enumerate(geo.alphabet, 1)}
    values.update((ch, 0) for ch in geo.blanks())
    return values


_NO_SYMBOL = 255
"""What [`_byte_values`][] gives a byte that is no symbol (nor a blank) of the grid."""


@lru_cache(maxsize=CACHE_SIZE)
def _byte_values(geo: Geometry) -> bytes | None:
    """``bytes.translate``'s table from a symbol's byte to its value (0 for a blank,
    [`_NO_SYMBOL`][] for the rest), or None when the alphabet is not ASCII."""
    values = _symbol_values(geo)
    if not all(ch.isascii() for ch in values):
        return None
    table = bytearray([_NO_SYMBOL]) * 256
    for ch, v in values.items():
        table[ord(ch)] = v
    return bytes(table)


def byte_values(geo: Geometry) -> tuple[bytes, int] | None:
    """[`_byte_values`][]'s table and [`_NO_SYMBOL`][], for a caller that reads many lines
    of ``geo`` itself (``text.encode("ascii").translate(table)``, then a line holding
    the second is no puzzle of ``geo``: [`read_string`][] names the culprit); None for a
    non-ASCII alphabet."""
    table = _byte_values(geo)
    return None if table is None else (table, _NO_SYMBOL)


def _variant_hint(text: str) -> str:
    """A hint for a line of a variant's format (a jigsaw's ``GIVENS REGIONS``, a killer's
    ``CAGEMAP SUMS [GIVENS]``) read as a plain puzzle: its first field is a square grid."""
    fields = text.split()
    first = len(fields[0]) if fields else 0
    if len(fields) not in (2, 3) or isqrt(first) ** 2 != first or first < 16:
        return ""
    return ("; it looks like a line of a variant's format (jigsaw: GIVENS REGIONS, killer: "
            "CAGEMAP SUMS [GIVENS]): give the variant, sudoku --variant jigsaw|killer or "
            "sudoku.read_variant(line, variant)")


def parse_string(text: str, alphabet: str | None = None,
                 layout: Layout | None = None) -> tuple[Geometry, list[int]]:
    """Read a puzzle written as text: 81 characters in a row, or a drawn grid.

    Blanks are ``.`` (or ``0``); blanks, ``|``, ``-`` and ``+`` between cells are ignored.
    The side is deduced from the number of cells (16, 81, 256, 625 or 1296). ``text`` must
    be a str (ArgumentError otherwise: bytes are not decoded, since only the caller knows
    their encoding). With a ``layout`` any side is read, and must be the layout's.
    """
    geo, read = read_string(text, alphabet, layout)
    return geo, list(read)


def read_string(text: str, alphabet: str | None = None,
                layout: Layout | None = None) -> tuple[Geometry, bytes]:
    """[`parse_string`][] with the values as bytes (one a cell), for the one call."""
    check_alphabet(alphabet, layout)
    if not isinstance(text, str):
        hint = " (decode it first, e.g. puzzle.decode('ascii'))" \
            if isinstance(text, (bytes, bytearray)) else ""
        raise ArgumentError(f"a puzzle must be a str, got {type(text).__name__}{hint}")
    line = _read_line(text, alphabet, layout)
    if line is not None:
        return line
    not_a_puzzle(text)
    cells = text.translate(_DROP_SEPARATORS)
    side = round(len(cells) ** 0.5)
    if side * side != len(cells):
        raise ShapeError(f"{len(cells)} cells is not a square grid (expected 81 for 9x9)"
                         f"{_variant_hint(text)}")
    geo = _geometry(side, alphabet, layout)  # the arguments were checked above
    line = _read_line(cells, alphabet, layout) if len(cells) < len(text) else None
    if line is not None:  # a drawn grid of symbols
        return line
    values = _symbol_values(geo)
    try:
        return geo, bytes(map(values.__getitem__, cells))
    except KeyError:
        k = next(k for k, ch in enumerate(cells) if ch not in values)
        raise SymbolError(f"bad symbol {cells[k]!r} at {geo.where(k)}") from None


def not_a_puzzle(text: str) -> None:
    """ArgumentError for a text that is a blank line or a ``#`` comment line of a puzzle
    file, which is no puzzle at all (not a grid of the wrong size): the same in the one
    call and in ``solve_many``, which answers it in its place."""
    stripped = text.strip()
    if not stripped:
        raise ArgumentError(f"the puzzle {culprit(text)} is a blank line, no puzzle; leave "
                            "blank lines and # comments out of the puzzles")
    if stripped.startswith("#"):
        raise ArgumentError(f"the puzzle {culprit(text)} is a comment line, no puzzle; "
                            "leave blank lines and # comments out of the puzzles")


_LINE_SIDES = {side * side: side for side in SIDES}
"""A line's length -> the side of the grid it holds, without a layout."""


def _read_line(text: str, alphabet: str | None,
               layout: Layout | None) -> tuple[Geometry, bytes] | None:
    """[`read_string`][] of a line of exactly N*N ASCII symbols, at once; None for
    anything else (separators, other characters, a bad alphabet), which the general
    reading reads or names."""
    side = _LINE_SIDES.get(len(text)) if layout is None \
        else layout.side if len(text) == layout.side * layout.side else None
    if side is None or not text.isascii():
        return None
    try:
        geo = _geometry(side, alphabet, layout)
    except (AlphabetError, ShapeError):
        return None
    table = _byte_values(geo)  # None: a non-ASCII alphabet
    read = b"" if table is None else text.encode("ascii").translate(table)
    return (geo, read) if read and _NO_SYMBOL not in read else None


def parse_board(board: Any, alphabet: str | None = None,
                layout: Layout | None = None) -> tuple[Geometry, list[int], str]:
    """Read a board without changing it: (geometry, flat values, kind).

    ``kind`` is ``"str"`` (a sequence of rows of one-character strings, ``.`` blank),
    ``"int"`` (rows of ints, 0 blank) or ``"numpy"`` (a 2-d array of integers, or of floats
    that are whole numbers; 0 blank); `write_back` writes in that kind. A row is any
    sequence (a list, a tuple, a 1-d array...) but not a str; whether it can be written is
    `check_writable`'s question. ``layout`` as for [`parse_string`][].
    """
    geo, read, kind = read_board(board, alphabet, layout)
    return geo, list(read), "str" if kind == "rows" else kind


def read_board(board: Any, alphabet: str | None = None,
               layout: Layout | None = None) -> tuple[Geometry, bytes, str]:
    """[`parse_board`][] with the values as bytes (one a cell), for the one call, and the
    kind ``"rows"`` for LeetCode's board, a list of distinct lists of one-character ASCII
    symbols ([`sudoku.rows.read_rows`][]): writable as it is, a slice a row."""
    check_alphabet(alphabet, layout)
    if type(board) is list:  # a Sequence, no array, no str (LeetCode's board)
        pass
    elif isinstance(board, np.ndarray):
        return _parse_array(np.asarray(board), alphabet, layout)  # a matrix reads as its array
    elif isinstance(board, str):
        raise ShapeError("a string cannot be solved in place; use solve_string()")
    elif not isinstance(board, Sequence) or isinstance(board, (bytes, bytearray)):
        raise ShapeError(f"expected a list of rows or a numpy array, got {type(board).__name__}")
    geo = _geometry(len(board), alphabet, layout)  # before list(): range(10**12) is too
    read = read_rows(board, geo.side, _byte_values(geo), _NO_SYMBOL)  # LeetCode's board
    if read is not None:
        return geo, read, "rows"
    rows = list(board)
    side = geo.side
    flat: list[Any] = []
    for r, row in enumerate(rows):
        if not _is_row(row) or len(row) != side:
            got = len(row) if _is_row(row) else type(row).__name__
            raise ShapeError(f"row {r + 1} must be a list of {side} cells, got {got!r}")
        flat.extend(row)
    if len(rows) != side or len(flat) != geo.cells:  # a sequence whose len() lies
        raise ShapeError(f"the board's rows do not hold {side} x {side} cells")
    if len({id(row) for row in rows}) != side:
        raise ShapeError("rows must be distinct lists (a board built as [[...] * N] * N "
                         "repeats one row)")
    first = next((cell for cell in flat if isinstance(cell, (str, int, np.integer))), None)
    kind = "str" if isinstance(first, str) else "int"  # the kind of the first good cell
    if kind == "str":
        values = _symbol_values(geo)
        out = [values.get(cell, -1) if isinstance(cell, str) else -1 for cell in flat]
    else:
        out = [int(cell) if type(cell) is int or isinstance(cell, np.integer) else -1
               for cell in flat]
        out = [v if 0 <= v <= side else -1 for v in out]
    if -1 in out:
        k = out.index(-1)
        expected = "a symbol or '.'" if kind == "str" else f"an int in 0..{side}"
        raise SymbolError(f"bad cell {culprit(flat[k])} at {geo.where(k)}: expected "
                          f"{expected}")
    return geo, bytes(out), kind


def _is_row(row: Any) -> bool:
    """A row is a sequence of cells (not a str or bytes) or a 1-d array."""
    if isinstance(row, np.ndarray):
        return row.ndim == 1
    return isinstance(row, Sequence) and not isinstance(row, (str, bytes))


def _parse_array(array: np.ndarray, alphabet: str | None,
                 layout: Layout | None) -> tuple[Geometry, bytes, str]:
    """[`read_board`][] for a numpy array: integers, or floats that are whole numbers."""
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ShapeError(f"expected an N x N array, got shape {array.shape}")
    geo = geometry(array.shape[0], alphabet, layout)
    if array.dtype.kind not in "iuf":
        raise SymbolError(f"expected an array of integers (or of whole floats), got dtype "
                          f"{array.dtype}")
    flat = array.ravel()
    with np.errstate(invalid="ignore"):  # NaN compares false: it is a bad value like -1
        good = (flat >= 0) & (flat <= geo.side)
        if array.dtype.kind == "f":
            good &= flat == np.floor(flat)
    bad = np.flatnonzero(~good)
    if len(bad):
        k = int(bad[0])
        raise SymbolError(f"bad value {flat[k]} at {geo.where(k)} (0 is blank, 1..{geo.side})")
    return geo, flat.astype(np.uint8).tobytes(), "numpy"


def check_writable(board: Any, kind: str) -> None:
    """ReadOnlyError unless [`write_back`][] can write into ``board`` (parsed as
    ``kind``): a numpy array (or each 1-d array row) must be writeable, and every other row
    of a type that supports item assignment (a list; not a tuple). Checked before solving,
    so that a board that cannot take the answer is refused untouched."""
    if kind == "numpy":
        if not np.asarray(board).flags.writeable:
            raise ReadOnlyError("the numpy array is read-only (flags.writeable is False); "
                                "solve a writable copy, e.g. board.copy()")
        return
    if type(board) is list and set(map(type, board)) == {list}:  # lists take any value
        return
    for r, row in enumerate(board):
        if isinstance(row, np.ndarray):
            if not row.flags.writeable:
                raise ReadOnlyError(f"row {r + 1} is a read-only numpy array")
        elif not hasattr(type(row), "__setitem__"):
            raise ReadOnlyError(f"row {r + 1} is a {type(row).__name__}, which cannot be "
                                "written in place: pass lists (or use count_solutions to "
                                "only read it)")


def write_back(board: Any, geo: Geometry, values: bytes, kind: str) -> None:
    """Write a solved grid (its values, a byte a cell) into ``board`` in its own kind
    (after [`check_writable`][]), cell by cell (LeetCode's board, rows that are lists of
    symbols, takes a slice a row: [`sudoku.rows.write_rows`][]).

    If a row refuses a write all the same (a list subclass that raises, say), the cells
    already written are put back and ReadOnlyError names the row: the board is never left
    half-written.
    """
    side = geo.side
    if kind == "numpy":
        np.asarray(board)[...] = np.frombuffer(values, np.uint8).reshape(side, side)
        return
    symbols = geo.alphabet if kind == "str" else None
    written: list[tuple[Any, int, Any]] = []  # (row, column, old cell) to undo
    r = 0
    try:
        for r, row in enumerate(board):
            for c, v in enumerate(values[r * side : (r + 1) * side]):
                written.append((row, c, row[c]))
                row[c] = symbols[v - 1] if symbols else v
    except Exception as e:  # any failure of a caller's row type: undo, then say which row
        for row, c, old in reversed(written):
            with contextlib.suppress(Exception):
                row[c] = old
        raise ReadOnlyError(f"row {r + 1} cannot be written ({type(e).__name__}: {e}); the "
                            "board was restored") from e


def format_grid(board: Any, values: list[int] | None = None, *, pretty: bool = False,
                cages: Sequence[tuple[Sequence[int], int]] | None = None,
                alphabet: str | None = None, layout: Layout | None = None) -> str:
    """The grid as one line of symbols, or drawn when ``pretty``: with box lines for a
    layout with boxes; with lines between cells of different regions for a jigsaw; with
    the cells of the other units (diagonals, windows) in brackets, ``[5]``; for a killer
    (its ``cages``: (cells, sum) pairs, by default the layout's if they cover the grid),
    with the cage borders and, dotted where no cage border runs, the box lines, and beside
    it the same lines with each cage's sum at its first cell.

    ``board`` is a board or a puzzle string (as [`sudoku.solve`][] takes them, with
    ``alphabet`` and ``layout``), or, the older call, a `Geometry` with ``values``.
    SymbolError names the first cell whose value is not in 0..N."""
    if isinstance(board, Geometry):
        if values is None:
            raise ArgumentError("values: a Geometry needs the grid's values")
        geo = board
    else:
        if values is not None:
            raise ArgumentError("values: give a board or a puzzle string alone (values go "
                                "with a Geometry)")
        geo, values = (parse_string(board, alphabet, layout) if isinstance(board, str)
                       else parse_board(board, alphabet, layout)[:2])
        if pretty and cages is None and geo.layout.cages \
                and -1 not in tables(geo.layout).cage_of:
            cages = geo.layout.cages  # the text drawing needs cages that cover the grid
    if not pretty and geo.alphabet.isascii():  # one translation in C
        try:
            text = bytes(values).translate(*_ascii_symbols(geo)).decode("ascii")
        except (TypeError, ValueError):  # not an int in 0..255
            text = ""
        if len(text) != len(values):
            raise _bad_value(geo, values)
        return text
    if not all(type(v) is int and 0 <= v <= geo.side for v in values):
        raise _bad_value(geo, values)
    chars = list(map(("." + geo.alphabet).__getitem__, values))  # value 0 is '.'
    if not pretty:
        return "".join(chars)
    return draw_grid(geo.layout, chars, cages)


def line_of(geo: Geometry, values: bytes) -> str:
    """[`format_grid`][]'s line of a grid whose values are bytes known to be in 0..N (a
    checked solution): one translation for an ASCII alphabet."""
    if geo.alphabet.isascii():
        return values.translate(_ascii_symbols(geo)[0]).decode("ascii")
    return format_grid(geo, list(values))


def _bad_value(geo: Geometry, values: list[int]) -> SymbolError:
    """The SymbolError for the first of ``values`` that is not an int in 0..N."""
    k = next(k for k, v in enumerate(values) if type(v) is not int or not 0 <= v <= geo.side)
    return SymbolError(f"bad value {culprit(values[k])} at {geo.where(k)} (0 is blank, "
                       f"1..{geo.side})")


@lru_cache(maxsize=CACHE_SIZE)
def _ascii_symbols(geo: Geometry) -> tuple[bytes, bytes]:
    """``bytes.translate`` arguments: value -> its symbol ('.' for 0), the rest deleted."""
    values = bytes(range(geo.side + 1))
    return (bytes.maketrans(values, ("." + geo.alphabet).encode("ascii")),
            bytes(range(geo.side + 1, 256)))


def is_solution(geo: Geometry, puzzle: list[int] | bytes,
                solution: list[int] | bytes) -> bool:
    """Independent check: ``solution`` is a full valid grid that agrees with ``puzzle``
    (each the values of the cells, a list of ints or bytes).

    Every value is in 1..N, every given is kept, and every unit holds N different values
    (`_units_hold_all`). The checking code is shared with neither the engine nor the
    reduction, only the rules data (the layout's units, [`sudoku.tables.Tables`][]). No
    sequence: [`ArgumentError`][]; values other than ints (floats, strings): no solution."""
    side = geo.side
    for name, values in (("puzzle", puzzle), ("solution", solution)):
        if type(values) not in (list, bytes) and (isinstance(values, str) or not isinstance(
                values, (Sequence, np.ndarray))):
            raise ArgumentError(f"{name} must be a sequence of {side * side} cell values, "
                                f"got {type(values).__name__}")
    if len(solution) != side * side or len(puzzle) != side * side:
        return False
    given, solved = read_bytes(puzzle, solution)
    if solved:  # two passes in C (else the values one by one)
        if not values_kept(side, given, solved):
            return False
    elif not all(isinstance(v, (int, np.integer)) for v in (*puzzle, *solution)) \
            or not _values(side).issuperset(solution) \
            or any(map(ne, compress(puzzle, puzzle), compress(solution, puzzle))):
        return False
    plan = line_plan(geo.layout) if solved else None
    if not (lines_hold_all(plan, solved) if plan else _units_hold_all(geo.layout, solution)):
        return False
    for cells, total in geo.layout.cages:  # killer cages: distinct values, the total
        values = [solution[c] for c in cells]
        if len(set(values)) != len(values) or sum(values) != total:
            return False
    return True


def solves(puzzle: Any, solution: Any, *, alphabet: str | None = None,
           layout: Layout | None = None) -> bool:
    """True when ``solution`` is a full, valid grid that keeps every given of ``puzzle``
    (``sudoku.is_solution``). Each is what [`sudoku.solve`][] and
    [`sudoku.solve_string`][] take: a puzzle string, or a board (rows of one-character
    strings or of ints, a numpy array), in either kind, with the same ``alphabet`` and
    ``layout`` (None: square boxes, by the puzzle's size). A puzzle that cannot be read
    raises its SudokuError, as it would to ``solve``; a solution that cannot be read as a
    grid of the puzzle's (another size, an unknown symbol, blanks) is no solution: False.
    The check is independent of the engine. The modules' own checker, on the cells' values
    and a geometry, is ``sudoku.grid.is_solution(geometry, puzzle, solution)``."""
    if isinstance(puzzle, Geometry):
        raise ArgumentError("is_solution takes a puzzle and a solution as solve takes them; "
                            "on a geometry and cell values: sudoku.grid.is_solution")

    def read(board: Any) -> tuple[Geometry, list[int]]:
        if isinstance(board, str):
            return parse_string(board, alphabet, layout)
        geo, values, _ = parse_board(board, alphabet, layout)
        return geo, values

    geo, given = read(puzzle)
    if solution is None or isinstance(solution, (int, float)):
        raise ArgumentError(f"solution must be a board or a string, got "
                            f"{type(solution).__name__}")
    try:
        found, values = read(solution)
    except SudokuError:
        return False
    return found.layout == geo.layout and is_solution(geo, given, values)


def _units_hold_all(layout: Layout, values: list[int] | bytes) -> bool:
    """True when every unit of ``layout`` holds N different values (all in 1..N already).

    Up to [`SUM_CHECK_SIDE`][], one sum: cell ``c`` holding ``v`` adds ``2**v`` to the
    window of ``W`` bits of each of its units (one lookup per cell), so each
    window ends as the sum of N powers of two, which is ``2 + 4 + ... + 2**N`` only if
    they are all different (a repeat carries, and a sum with carries has fewer one bits
    than terms); windows are wide enough (``N * 2**N < 2**W``) that no window carries
    into the next. 81 lookups and one sum: 4 us for a 9x9, where reading every (unit,
    value) pair into a set takes 11. On larger grids the numbers grow long (3N windows of
    ~N bits, shifted N**2 times) and the set of pairs is faster (N values in a unit of N
    cells, all different, are 1..N once each)."""
    if layout.side <= SUM_CHECK_SIDE:
        table, full = _unit_sums(layout)
        return sum(map(getitem, table, values)) == full
    gather, offsets = _unit_pairs(layout)
    return len(set(map(add, offsets, gather(values)))) == len(offsets)


SUM_CHECK_SIDE = 16
"""The largest side whose checker sums windows of bits ([`_units_hold_all`][])."""


@lru_cache(maxsize=CACHE_SIZE)
def _unit_sums(layout: Layout) -> tuple[list[tuple[int, ...]], int]:
    """For [`_units_hold_all`][]: per cell, what each value ``v`` (0..N) adds, ``2**v``
    in the window of each of the cell's units (0 for a blank), and the sum a valid grid
    gives. A lookup per cell, not a shift: 1.4 us less a 9x9 check, 80 us more a layout."""
    t = tables(layout)
    side = t.side
    width = side + 1 + side.bit_length()
    # per cell, a 1 at the start of each of its units' windows
    windows = [sum(1 << (width * u) for u in us) for us in t.cell_units]
    shifts = range(1, side + 1)
    table = [(0, *[w << v for v in shifts]) for w in windows]
    full = sum(((1 << (side + 1)) - 2) << (width * u) for u in range(len(t.units)))
    return table, full


@lru_cache(maxsize=CACHE_SIZE)
def _unit_pairs(layout: Layout) -> tuple[itemgetter, tuple[int, ...]]:
    """For [`_units_hold_all`][]: a function that reads a grid's values unit by unit
    (every unit's cells, in unit order), and beside each read, its unit's number times N +
    1, so that value + offset names the (unit, value) pair."""
    units = tables(layout).unit_array
    offsets = np.repeat(np.arange(len(units)) * (layout.side + 1), layout.side)
    return itemgetter(*units.reshape(-1).tolist()), tuple(offsets.tolist())


@lru_cache(maxsize=CACHE_SIZE)
def _values(side: int) -> frozenset[int]:
    """The values 1..N of a grid of side N."""
    return frozenset(range(1, side + 1))


def are_solutions(geo: Geometry, puzzles: Any, solutions: Any) -> np.ndarray:
    """[`is_solution`][] for many grids at once, with numpy: one bool per row of the
    ``(n, N*N)`` integer arrays ``puzzles`` and ``solutions`` (0 is blank)
    (`sudoku.arraycheck`)."""
    return all_hold(geo.layout, puzzles, solutions)
