"""Classic exact-cover puzzles as [`dlx.ExactCover`][] problems, and pictures of solutions.

Each builder returns a plain [`ExactCover`][dlx.ExactCover]; each ``render_*`` function turns a
solution (a list of option indices) into a string. The renderers read only the problem's
item names, so they work just as well on the same encoding read back from Knuth's text
format (``ExactCover.from_dlx``). Numbers inside item names are written in base 36
(``0-9a-z``) unless said otherwise.

The queens, Langford and pentomino encodings are exactly those of
``shared/data/exact_cover/SOURCES.md`` (same item order, same option order), so a search
reproduces the ``nodes`` and ``updates`` of Knuth's DLX1 on those files; so are the
multiplicity encodings ([`mqueens`][], [`tetrominoes`][]) for DLX3's.

>>> from dlx.problems import queens, render_queens
>>> problem = queens(4)
>>> print(render_queens(problem, problem.first()))
.Q..
...Q
Q...
..Q.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

from .problem import Colored, ExactCover

__all__ = [
    "CLRS_PRICES",
    "PENTOMINOES",
    "SATOR",
    "TETROMINOES",
    "Cell",
    "Keep",
    "langford",
    "mqueens",
    "orientations",
    "pentominoes",
    "queens",
    "rectangle",
    "render_langford",
    "render_queens",
    "render_tiling",
    "render_word_rectangle",
    "rod_cutting",
    "shape",
    "tetrominoes",
    "tiling",
    "word_rectangle",
]

Cell = tuple[int, int]
"""A board square as (row, column), rows counted downwards."""

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _b36(n: int) -> str:
    """``n >= 0`` in base 36, lower case: 10 -> ``a``, 36 -> ``10``."""
    out = _DIGITS[n % 36]
    while n >= 36:
        n //= 36
        out = _DIGITS[n % 36] + out
    return out


def _cell_names(cells: Iterable[Cell]) -> dict[Cell, str]:
    """Names ``<r><c>``, two base-36 digits (as in SOURCES.md), for cells (r, c) >= 0;
    ``<r>_<c>`` in decimal for every cell when some coordinate exceeds 35."""
    cells = list(cells)
    if any(r < 0 or c < 0 for r, c in cells):
        raise ValueError("cells need non-negative coordinates")
    if all(r < 36 and c < 36 for r, c in cells):
        return {(r, c): _DIGITS[r] + _DIGITS[c] for r, c in cells}
    return {(r, c): f"{r}_{c}" for r, c in cells}


def _parse_cell(name: str) -> Cell:
    """Inverse of [`_cell_names`][]."""
    if "_" in name:
        r, c = name.split("_")
        return int(r), int(c)
    return int(name[0], 36), int(name[1], 36)


def _check_size(n: int, what: str, least: int = 1) -> None:
    if not isinstance(n, int) or n < least:
        raise ValueError(f"{what} must be an integer >= {least}, got {n!r}")


def _entries(problem: ExactCover, solution: Iterable[int]) -> Iterable[list[Hashable]]:
    """The options of a solution, as item names."""
    return (problem.option(k) for k in solution)


# ----- n queens -------------------------------------------------------------------------


def queens(n: int) -> ExactCover:
    """Place ``n`` queens on an ``n x n`` board, no two attacking each other.

    Encoding (SOURCES.md ``queens n``): primary items ``r<i>`` and ``c<j>`` (every row and
    column holds exactly one queen), listed ``r0 c0 r1 c1 ...``; secondary items ``a<i+j>``
    and ``b<n-1-i+j>`` (each diagonal holds at most one), listed ``a0 b0 a1 b1 ...``; one
    option ``r<i> c<j> a<i+j> b<n-1-i+j>`` per square, row-major. Solutions are counted
    by OEIS A000170.
    """
    _check_size(n, "n")
    primary = [f"{kind}{_b36(i)}" for i in range(n) for kind in "rc"]
    secondary = [f"{kind}{_b36(d)}" for d in range(2 * n - 1) for kind in "ab"]
    options = [[f"r{_b36(i)}", f"c{_b36(j)}", f"a{_b36(i + j)}", f"b{_b36(n - 1 - i + j)}"]
               for i in range(n) for j in range(n)]
    return ExactCover(options, primary=primary, secondary=secondary)


def render_queens(problem: ExactCover, solution: Iterable[int]) -> str:
    """The board, one line per row: ``Q`` for a queen, ``.`` for an empty square (of
    [`queens`][] or [`mqueens`][], whose boards may have more rows than columns)."""
    rows = sum(str(x).startswith("r") for x in problem.primary)
    cols = sum(str(x).startswith("c") for x in problem.primary)
    board = [["."] * cols for _ in range(rows)]
    for option in _entries(problem, solution):
        place = {str(x)[0]: int(str(x)[1:], 36) for x in option if str(x)[0] in "rc"}
        board[place["r"]][place["c"]] = "Q"
    return "\n".join("".join(row) for row in board)


def mqueens(n: int, *, rows: int | None = None, k: int | None = None,
            bounded_diagonals: bool = False) -> ExactCover:
    """Non-attacking queens through multiplicities (Knuth's MCC problem, DLX3).

    Encodings (SOURCES.md ``mqueens``), on ``rows`` rows (default ``n``) and ``n``
    columns, diagonals secondary ``a<i+j>``, ``b<rows-1-i+j>`` as in [`queens`][]:

    * ``k=None``: every column holds exactly one queen, every row at most one (bounds
      ``0:1|r<i>``); item line ``0:1|r0 c0 0:1|r1 c1 ...`` (``c<i>`` only for ``i < n``),
      option ``r<i> c<j> a<i+j> b<rows-1-i+j>`` per square, row-major. With ``rows = n``
      these are the options of [`queens`][] (92 for ``n = 8``, OEIS A000170); else
      ``n`` queens on a ``rows x n`` board, OEIS A269133 (160,964 for 12 x 10).
    * ``k``: ``k`` queens on the ``n x n`` board: rows and columns ``0:1``, and a primary
      item ``q`` with bounds ``k`` that every option holds; items ``0:1|r<i> 0:1|c<i>``
      then ``k|q``; option ``r<i> c<j> q a<i+j> b<n-1-i+j>``. OEIS A108792 (46,736 for 5
      queens on 8 x 8).

    ``bounded_diagonals=True`` makes the diagonals primary items with bounds ``0:1``
    ("at most one queen") instead of secondary items, which is the same constraint said
    with multiplicities only: the same solutions, another search.
    """
    _check_size(n, "n")
    if rows is not None and k is not None:
        raise ValueError("give rows or k, not both")
    m = n if rows is None else rows
    _check_size(m, "rows")
    if k is not None:
        _check_size(k, "k", 1)
    bounds: dict[str, tuple[int, int]] = {}
    if k is None:
        primary = []
        for i in range(m):
            primary.append(f"r{_b36(i)}")
            bounds[f"r{_b36(i)}"] = (0, 1)
            if i < n:
                primary.append(f"c{_b36(i)}")
    else:
        primary = [f"{kind}{_b36(i)}" for i in range(n) for kind in "rc"] + ["q"]
        bounds = {x: (0, 1) for x in primary[:-1]}
        bounds["q"] = (k, k)
    diagonals = [f"{kind}{_b36(d)}" for d in range(m + n - 1) for kind in "ab"]
    if bounded_diagonals:
        primary += diagonals
        bounds.update(dict.fromkeys(diagonals, (0, 1)))
    options = [[f"r{_b36(i)}", f"c{_b36(j)}", *(["q"] if k is not None else []),
                f"a{_b36(i + j)}", f"b{_b36(m - 1 - i + j)}"]
               for i in range(m) for j in range(n)]
    return ExactCover(options, primary=primary,
                      secondary=[] if bounded_diagonals else diagonals, multiplicity=bounds)


# ----- Langford pairs -------------------------------------------------------------------


def langford(n: int, *, sym: bool = False) -> ExactCover:
    """Arrange two copies of each of ``1..n`` so that the two ``i`` are ``i`` apart.

    That is, ``i`` other numbers lie between them: ``2 3 1 2 1 3`` for ``n = 3``.
    Encoding (SOURCES.md ``langford n``): primary items ``v1..vn`` (values) then
    ``s1..s2n`` (slots), in decimal; option ``v<i> s<j> s<j+i+1>`` for ``i = 1..n``,
    ``j = 1..2n-i-1``. Every sequence is found together with its reversal; ``sym=True``
    keeps value 1 only at ``j <= n-1``, which leaves one of each pair. Solutions exist
    only for ``n = 0 or 3 (mod 4)``; their number (with ``sym``) is OEIS A014552.
    """
    _check_size(n, "n")
    items = [f"v{i}" for i in range(1, n + 1)] + [f"s{j}" for j in range(1, 2 * n + 1)]
    options = [[f"v{i}", f"s{j}", f"s{j + i + 1}"]
               for i in range(1, n + 1) for j in range(1, 2 * n - i)
               if not (sym and i == 1 and j > n - 1)]
    return ExactCover(options, primary=items)


def render_langford(problem: ExactCover, solution: Iterable[int]) -> str:
    """The sequence, values separated by blanks: ``2 3 1 2 1 3``."""
    slots = sum(str(x).startswith("s") for x in problem.primary)
    seq = ["?"] * slots
    for option in _entries(problem, solution):
        value = str(option[0])[1:]
        for slot in option[1:]:
            seq[int(str(slot)[1:]) - 1] = value
    return " ".join(seq)


# ----- polyomino tilings ----------------------------------------------------------------


def shape(picture: str) -> frozenset[Cell]:
    """The cells marked ``#`` in a picture whose rows are separated by ``/`` or newlines.

    >>> sorted(shape(".#/##"))
    [(0, 1), (1, 0), (1, 1)]
    """
    rows = picture.replace("/", "\n").strip().splitlines()
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row.strip())
                     if ch == "#")


PENTOMINOES: dict[str, frozenset[Cell]] = {
    name: shape(picture) for name, picture in [
        ("F", ".##/##./.#."), ("I", "#/#/#/#/#"), ("L", "#./#./#./##"),
        ("N", ".#/.#/##/#."), ("P", "##/##/#."), ("T", "###/.#./.#."),
        ("U", "#.#/###"), ("V", "#../#../###"), ("W", "#../##./.##"),
        ("X", ".#./###/.#."), ("Y", ".#/##/.#/.#"), ("Z", "##./.#./.##"),
    ]
}
"""The twelve pentominoes by their usual letters, in the orientation SOURCES.md starts from."""


def _normalize(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """Cells shifted to touch row 0 and column 0, sorted row-major."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(cells: Iterable[Cell], *, reflect: bool = True) -> list[tuple[Cell, ...]]:
    """The distinct orientations of a piece, each normalized to touch row 0 and column 0.

    Order: the piece and its three quarter turns clockwise, then (with ``reflect``) its
    mirror image and that mirror's quarter turns; repeats are skipped.
    """
    base = list(cells)
    if not base:
        raise ValueError("a piece needs at least one cell")
    out: dict[tuple[Cell, ...], None] = {}
    for start in ([base, [(r, -c) for r, c in base]] if reflect else [base]):
        piece = start
        for _ in range(4):
            out.setdefault(_normalize(piece), None)
            piece = [(c, -r) for r, c in piece]
    return list(out)


def rectangle(rows: int, cols: int) -> list[Cell]:
    """The cells of a ``rows x cols`` board, row-major."""
    _check_size(rows, "rows")
    _check_size(cols, "cols")
    return [(r, c) for r in range(rows) for c in range(cols)]


Keep = Callable[[str, tuple[Cell, ...]], bool]
"""A filter on placements: ``keep(piece name, board cells)`` is False to drop one."""


def tiling(
    board: Iterable[Cell],
    pieces: Mapping[str, Iterable[Cell]] = PENTOMINOES,
    *,
    reflect: bool = True,
    keep: Keep | None = None,
    uses: int | tuple[int, int] | Mapping[str, int | tuple[int, int]] | None = None,
) -> ExactCover:
    """Cover the cells of ``board`` exactly with ``pieces``, each used exactly once (or,
    with ``uses``, a bounded number of times: ``v``, ``(u, v)``, or a mapping from piece
    names to those; a multiplicity on each piece's item, Knuth's DLX3).

    Encoding (SOURCES.md ``pentomino``): primary items are the piece names, in the order
    given, then the board cells ``<r><c>`` (base 36; ``<r>_<c>`` in decimal on boards
    wider or taller than 36) in row-major order. There is one option per placement: the
    piece name, then its cells sorted row-major; pieces in order, then each orientation
    (see [`orientations`][]; ``reflect=False`` for one-sided pieces), then the offsets
    row-major. ``keep`` may drop placements, e.g. to break the board's symmetry.
    """
    cells = sorted(set(board))
    if not cells:
        raise ValueError("the board has no cells")
    names = _cell_names(cells)
    clash = set(pieces).intersection(names.values())
    if clash:
        raise ValueError(f"piece name {next(iter(clash))!r} is also the name of a cell")
    rows = range(cells[0][0], cells[-1][0] + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    options: list[list[str]] = []
    for name, piece in pieces.items():
        for orient in orientations(piece, reflect=reflect):
            for dr in rows:
                for dc in cols:
                    placed = tuple((r + dr, c + dc) for r, c in orient)
                    if all(p in names for p in placed) and (keep is None or keep(name, placed)):
                        options.append([name, *(names[p] for p in placed)])
    if uses is not None and not isinstance(uses, Mapping):
        uses = dict.fromkeys(pieces, uses)
    return ExactCover(options, primary=[*pieces, *names.values()], multiplicity=uses)


def pentominoes(rows: int, cols: int, *, sym: bool = False) -> ExactCover:
    """Tile a ``rows x cols`` rectangle with the twelve pentominoes (so rows * cols = 60).

    Every tiling comes with its mirror images: ``sym=True`` keeps only the placements of
    X whose centre lies in the upper-left quadrant (middle lines included). When both
    sides are even and unequal this divides the count by exactly 4 (2,339 for 6 x 10, as
    SOURCES.md's ``pentomino 6x10 --sym``); with an odd side, tilings whose X sits on the
    middle line still come in mirror pairs (3 x 20 gives 4 of its 8).
    """
    if rows * cols != 60:
        raise ValueError(f"the twelve pentominoes cover 60 cells, not {rows} x {cols}")
    keep = None
    if sym:
        def keep(name: str, cells: tuple[Cell, ...]) -> bool:
            if name != "X":
                return True
            r, c = cells[2]  # the centre: third of X's five cells in row-major order
            return 2 * r <= rows - 1 and 2 * c <= cols - 1
    return tiling(rectangle(rows, cols), PENTOMINOES, keep=keep)


TETROMINOES: dict[str, frozenset[Cell]] = {
    name: shape(picture) for name, picture in [
        ("I", "####"), ("O", "##/##"), ("T", "###/.#."), ("S", ".##/##."), ("L", "#./#./##"),
    ]
}
"""The five free tetrominoes, in the orientation SOURCES.md starts from."""


def tetrominoes(rows: int, cols: int,
                uses: int | tuple[int, int] | Mapping[str, int | tuple[int, int]] = (0, 2)
                ) -> ExactCover:
    """Pack the five free tetrominoes into a ``rows x cols`` rectangle, each used as
    often as ``uses`` allows (SOURCES.md ``tetromino RxC --bounds A:B``: items
    ``A:B|I A:B|O A:B|T A:B|S A:B|L``, then the cells; options as [`tiling`][]'s).
    Known answers (DLX3 and an independent tiler agree): 586 packings of 4 x 6 with
    each piece 0..2 times, 3,106 of 5 x 8 with each exactly twice."""
    return tiling(rectangle(rows, cols), TETROMINOES, uses=uses)


def render_tiling(problem: ExactCover, solution: Iterable[int]) -> str:
    """The board with each cell showing the name of the piece on it (blank off the board).

    Names longer than one character are padded and separated by blanks.
    """
    owner: dict[Cell, str] = {}
    for option in _entries(problem, solution):
        for cell in option[1:]:
            owner[_parse_cell(str(cell))] = str(option[0])
    if not owner:
        return ""
    width = max(map(len, owner.values()))
    sep = " " if width > 1 else ""
    rows = range(min(r for r, _ in owner), max(r for r, _ in owner) + 1)
    cols = range(min(c for _, c in owner), max(c for _, c in owner) + 1)
    return "\n".join(sep.join(owner.get((r, c), "").ljust(width) for c in cols).rstrip()
                     for r in rows)


# ----- costs ----------------------------------------------------------------------------

CLRS_PRICES = (1, 5, 8, 9, 10, 17, 17, 20, 24, 30)
"""Prices of rods of length 1..10 (Cormen, Leiserson, Rivest, Stein, *Introduction to
Algorithms*, section 15.1): the best revenues of rods of length 1..10 are 1, 5, 8, 10,
13, 17, 18, 22, 25, 30."""


def rod_cutting(n: int, prices: Sequence[int] = CLRS_PRICES, unit: int | None = None,
                ) -> ExactCover:
    """Cut a rod of length ``n`` into pieces of lengths ``1..len(prices)``: a weighted set
    partitioning problem, solved with costs (DLX5).

    Primary items ``s1..s<n>`` (the unit segments); one option per piece ``[a, a + l)``,
    by start ``a`` then length ``l``, holding ``s<a+1> .. s<a+l>``, of cost ``unit * l -
    prices[l - 1]`` (``unit``: by default the largest price per unit length, rounded
    up: 3 for [`CLRS_PRICES`][]), so that no cost is negative. Every cut costs ``unit *
    n`` minus its revenue, so the cheapest cut is the most profitable: ``best()`` gives
    the textbook's optimum, cost ``3 * n - r_n`` (2, 1, 1, 2, 2, 1, 3, 2, 2, 0 for ``n =
    1..10``: for ``n = 10`` the uncut rod, revenue 30), and there are ``2**(n - 1)`` cuts
    in all.
    """
    _check_size(n, "n")
    if unit is None:
        unit = max(-(-p // length) for length, p in enumerate(prices, 1))
    options, costs = [], []
    for a in range(n):
        for length in range(1, min(len(prices), n - a) + 1):
            options.append([f"s{a + t + 1}" for t in range(length)])
            costs.append(unit * length - prices[length - 1])
    return ExactCover(options, primary=[f"s{i}" for i in range(1, n + 1)], costs=costs)


# ----- word rectangles (colors) ---------------------------------------------------------

SATOR = ("sator", "arepo", "tenet", "opera", "rotas")
"""The Sator square's words: it reads the same across, down, and backwards."""


def word_rectangle(
    row_words: Sequence[str],
    column_words: Sequence[str] | None = None,
    *,
    distinct: bool = False,
) -> ExactCover:
    """Fill an ``m x n`` grid so that every row is one of ``row_words`` (length ``n``) and
    every column one of ``column_words`` (length ``m``; default: the row words, a square).

    This is Knuth's XCC encoding (TAOCP 7.2.2.1): primary items ``r<i>`` and ``c<j>``
    (each row and column gets one word) and secondary items ``p<i><j>`` (the cells), which
    an option *colors* with its letters, so a row word and a column word may share a
    cell only when they agree on its letter. Option ``r<i> p<i>0:<w0> p<i>1:<w1> ...``
    for each row and word, then ``c<j> p0<j>:<w0> ...`` for each column and word.
    ``distinct=True`` adds an uncolored secondary item ``w<word>`` to every option with
    that word, so no word is used twice (for a square this forbids symmetric solutions).
    Solutions of a square come with their transposes.
    """
    columns = row_words if column_words is None else column_words
    m, n = _word_length(columns, "column"), _word_length(row_words, "row")
    words = list(dict.fromkeys(w.lower() for w in (*row_words, *columns)))
    primary = [f"r{_b36(i)}" for i in range(m)] + [f"c{_b36(j)}" for j in range(n)]
    cell = {ij: f"p{name}" for ij, name in _cell_names(rectangle(m, n)).items()}
    secondary = list(cell.values())
    secondary += [f"w{w}" for w in words] if distinct else []
    options: list[list[Hashable]] = []
    for kind, count, wordlist in (("r", m, row_words), ("c", n, columns)):
        for k in range(count):
            for word in dict.fromkeys(w.lower() for w in wordlist):
                line = [cell[(k, t) if kind == "r" else (t, k)] for t in range(len(word))]
                options.append([f"{kind}{_b36(k)}", *map(Colored, line, word),
                                *([f"w{word}"] if distinct else [])])
    return ExactCover(options, primary=primary, secondary=secondary)


def _word_length(words: Sequence[str], what: str) -> int:
    """The common length of ``words``, which must be non-empty and purely alphabetic."""
    if not words:
        raise ValueError(f"no {what} words")
    lengths = {len(w) for w in words}
    bad = next((w for w in words if not w.isalpha()), None)
    if bad is not None:
        raise ValueError(f"{what} word {bad!r} is not purely alphabetic")
    if len(lengths) > 1:
        raise ValueError(f"{what} words have different lengths {sorted(lengths)}")
    return lengths.pop()


def render_word_rectangle(problem: ExactCover, solution: Iterable[int]) -> str:
    """The grid of letters, one row per line."""
    letter: dict[Cell, str] = {}
    for option in _entries(problem, solution):
        for entry in option:
            if isinstance(entry, Colored):
                letter[_parse_cell(str(entry.item)[1:])] = str(entry.color)
    if not letter:
        return ""
    m = max(r for r, _ in letter) + 1
    n = max(c for _, c in letter) + 1
    return "\n".join("".join(letter.get((r, c), "?") for c in range(n)) for r in range(m))
