"""Vocabulary and text: grid geometry, alphabets, and reading/writing boards.

A *grid* of side ``N = n*n`` (box size ``n`` in 2..6) has ``N*N`` *cells*, numbered
row-major. A *value* is an int: 0 for a blank, ``1..N`` for a symbol. The *alphabet* maps
values to characters: ``1-9`` then ``A-Z`` then ``a-z`` by default (so A = 10), or any
string of ``N`` distinct characters, e.g. ``"0123456789ABCDEF"`` for 16x16. A blank is
``.``, or ``0`` when ``0`` is not in the alphabet.

Boards come in the caller's own types: a list of N lists of one-character strings (the
LeetCode 37 shape), a list of N lists of ints, or an N x N numpy integer array. Parsing
returns flat values and never modifies the board; :func:`write_back` fills in the blanks.
Nothing here solves anything.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

import numpy as np

from .errors import ShapeError, SymbolError

__all__ = [
    "BOX_SIZES",
    "DEFAULT_SYMBOLS",
    "Geometry",
    "are_solutions",
    "format_grid",
    "geometry",
    "is_solution",
    "parse_board",
    "parse_string",
    "write_back",
]

BOX_SIZES = (2, 3, 4, 5, 6)
DEFAULT_SYMBOLS = string.digits[1:] + string.ascii_uppercase + string.ascii_lowercase
SEPARATORS = frozenset(" \t\r\n|-+")
"""Characters ignored when a grid is drawn as text (Norvig's grid format uses ``| - +``)."""
_DROP_SEPARATORS = str.maketrans("", "", "".join(SEPARATORS))


@dataclass(frozen=True)
class Geometry:
    """The shape of a grid: box size ``n``, side ``N = n*n``, and its alphabet."""

    box: int
    alphabet: str

    def __hash__(self) -> int:  # the alphabet fixes the box too; a str caches its hash
        return hash(self.alphabet)

    @property
    def side(self) -> int:
        return self.box * self.box

    @property
    def cells(self) -> int:
        return self.side * self.side

    def blanks(self) -> frozenset[str]:
        return frozenset(".") if "0" in self.alphabet else frozenset(".0")

    def where(self, cell: int) -> str:
        """A cell as people name it: ``r3c7`` (1-based)."""
        r, c = divmod(cell, self.side)
        return f"r{r + 1}c{c + 1}"


@cache
def geometry(side: int, alphabet: str | None = None) -> Geometry:
    """The geometry of an ``side`` x ``side`` grid; ShapeError if ``side`` is not n*n."""
    box = round(side**0.5)
    if box * box != side or box not in BOX_SIZES:
        raise ShapeError(f"a grid must be N x N with N in 4, 9, 16, 25, 36; got side {side}")
    if alphabet is None:
        alphabet = DEFAULT_SYMBOLS[:side]
    if len(alphabet) != side or len(set(alphabet)) != side or "." in alphabet:
        raise SymbolError(f"alphabet {alphabet!r} must be {side} distinct characters, not '.'")
    return Geometry(box, alphabet)


@cache
def _symbol_values(geo: Geometry) -> dict[str, int]:
    values = {ch: v for v, ch in enumerate(geo.alphabet, 1)}
    values.update((ch, 0) for ch in geo.blanks())
    return values


def parse_string(text: str, alphabet: str | None = None) -> tuple[Geometry, list[int]]:
    """Read a puzzle written as text: 81 characters in a row, or a drawn grid.

    Blanks are ``.`` (or ``0``); blanks, ``|``, ``-`` and ``+`` between cells are ignored.
    The side is deduced from the number of cells (16, 81, 256, 625 or 1296).
    """
    cells = text.translate(_DROP_SEPARATORS)
    side = round(len(cells) ** 0.5)
    if side * side != len(cells):
        raise ShapeError(f"{len(cells)} cells is not a square grid (expected 81 for 9x9)")
    geo = geometry(side, alphabet)
    values = _symbol_values(geo)
    try:
        return geo, list(map(values.__getitem__, cells))
    except KeyError:
        k = next(k for k, ch in enumerate(cells) if ch not in values)
        raise SymbolError(f"bad symbol {cells[k]!r} at {geo.where(k)}") from None


def parse_board(board: Any, alphabet: str | None = None) -> tuple[Geometry, list[int], str]:
    """Read a board without changing it: (geometry, flat values, kind).

    ``kind`` is ``"str"`` (LeetCode lists of characters), ``"int"`` (lists of ints, 0 blank)
    or ``"numpy"`` (an integer array, 0 blank); :func:`write_back` writes in that kind.
    """
    if isinstance(board, str):
        raise ShapeError("a string cannot be solved in place; use solve_string()")
    if isinstance(board, np.ndarray):
        if board.ndim != 2 or board.shape[0] != board.shape[1]:
            raise ShapeError(f"expected an N x N array, got shape {board.shape}")
        if not np.issubdtype(board.dtype, np.integer):
            raise SymbolError(f"expected an integer array, got dtype {board.dtype}")
        geo = geometry(board.shape[0], alphabet)
        flat = board.ravel()
        bad = np.flatnonzero((flat < 0) | (flat > geo.side))
        if len(bad):
            k = int(bad[0])
            raise SymbolError(f"bad value {flat[k]} at {geo.where(k)} (0 is blank, 1..{geo.side})")
        return geo, flat.tolist(), "numpy"
    try:
        rows = list(board)
    except TypeError:
        raise ShapeError(f"expected a list of rows, got {type(board).__name__}") from None
    geo = geometry(len(rows), alphabet)
    side = geo.side
    for r, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__") or len(row) != side:
            got = len(row) if hasattr(row, "__len__") else type(row).__name__
            raise ShapeError(f"row {r + 1} must be a list of {side} cells, got {got!r}")
    if len({id(row) for row in rows}) != side:
        raise ShapeError("rows must be distinct lists (a board built as [[...] * N] * N "
                         "repeats one row)")
    flat = [cell for row in rows for cell in row]
    kind = "str" if isinstance(flat[0], str) else "int"
    if kind == "str":
        values = _symbol_values(geo)
        out = [values.get(cell, -1) if isinstance(cell, str) else -1 for cell in flat]
    else:
        out = [cell if type(cell) is int or isinstance(cell, np.integer) else -1 for cell in flat]
        out = [int(v) if 0 <= v <= side else -1 for v in out]
    if -1 in out:
        k = out.index(-1)
        expected = "a symbol or '.'" if kind == "str" else f"an int in 0..{side}"
        raise SymbolError(f"bad cell {flat[k]!r} at {geo.where(k)}: expected {expected}")
    return geo, out, kind


def write_back(board: Any, geo: Geometry, values: list[int], kind: str) -> None:
    """Write a solved grid into ``board`` in its own kind, filling only its blanks."""
    side = geo.side
    if kind == "numpy":
        board[...] = np.asarray(values, dtype=board.dtype).reshape(side, side)
        return
    symbols = geo.alphabet if kind == "str" else None
    for r, row in enumerate(board):
        base = r * side
        for c in range(side):
            v = values[base + c]
            row[c] = symbols[v - 1] if symbols else v


def format_grid(geo: Geometry, values: list[int], *, pretty: bool = False) -> str:
    """The grid as one line of symbols, or drawn with box lines when ``pretty``."""
    if not pretty and geo.alphabet.isascii():  # one translation in C
        text = bytes(values).translate(*_ascii_symbols(geo)).decode("ascii")
        if len(text) != len(values):
            raise ValueError(f"a value is not in 0..{geo.side}")
        return text
    chars = list(map(("." + geo.alphabet).__getitem__, values))  # value 0 is '.'
    if not pretty:
        return "".join(chars)
    n, side = geo.box, geo.side
    rule = "+".join(["-" * (2 * n)] + ["-" * (2 * n + 1)] * (n - 2) + ["-" * (2 * n)])
    lines = []
    for r in range(side):
        if r and r % n == 0:
            lines.append(rule)
        row = chars[r * side : (r + 1) * side]
        lines.append(" | ".join(" ".join(row[b : b + n]) for b in range(0, side, n)))
    return "\n".join(lines)


@cache
def _ascii_symbols(geo: Geometry) -> tuple[bytes, bytes]:
    """``bytes.translate`` arguments: value -> its symbol ('.' for 0), the rest deleted."""
    values = bytes(range(geo.side + 1))
    return (bytes.maketrans(values, ("." + geo.alphabet).encode("ascii")),
            bytes(range(geo.side + 1, 256)))


def is_solution(geo: Geometry, puzzle: list[int], solution: list[int]) -> bool:
    """Independent check: ``solution`` is a full valid grid that agrees with ``puzzle``."""
    side = geo.side
    if len(solution) != side * side or len(puzzle) != side * side:
        return False
    if any(p and p != s for p, s in zip(puzzle, solution)):
        return False
    full = set(range(1, side + 1))
    return all(set(unit(solution)) == full for unit in _unit_getters(geo))


@cache
def _unit_getters(geo: Geometry) -> list[itemgetter]:
    """Per row, column and box, a function that picks its cells' values from a grid."""
    return [itemgetter(*cells) for cells in _unit_cells(geo).tolist()]


@cache
def _unit_cells(geo: Geometry) -> np.ndarray:
    """The cells of every row, column and box: a (3N, N) array of cell numbers."""
    side, n = geo.side, geo.box
    grid = np.arange(side * side).reshape(side, side)
    boxes = grid.reshape(n, n, n, n).transpose(0, 2, 1, 3).reshape(side, side)
    return np.concatenate([grid, grid.T, boxes])


def are_solutions(geo: Geometry, puzzles: Any, solutions: Any) -> np.ndarray:
    """:func:`is_solution` for many grids at once, with numpy: one bool per row of the
    ``(n, N*N)`` integer arrays ``puzzles`` and ``solutions`` (0 is blank)."""
    puzzles = np.asarray(puzzles, dtype=np.int64)
    solutions = np.asarray(solutions, dtype=np.int64)
    side = geo.side
    if solutions.ndim != 2 or solutions.shape[1] != side * side \
            or puzzles.shape != solutions.shape:
        raise ValueError(f"expected two (n, {side * side}) arrays, got {puzzles.shape} and "
                         f"{solutions.shape}")
    ok = ((solutions >= 1) & (solutions <= side)).all(axis=1)
    ok &= ((puzzles == 0) | (puzzles == solutions)).all(axis=1)
    units = _unit_cells(geo)
    full = (1 << (side + 1)) - 2  # bits 1..N: a unit holds N distinct values 1..N
    step = 4096  # rows at a time, to keep the (rows, 3N, N) temporary small
    for lo in range(0, len(solutions), step):
        bits = np.left_shift(1, np.clip(solutions[lo : lo + step], 0, side))
        seen = np.bitwise_or.reduce(bits[:, units], axis=2)
        ok[lo : lo + step] &= (seen == full).all(axis=1)
    return ok
