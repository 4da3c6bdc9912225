"""Other exact-cover solvers, driven on the very problems our engine solves.

The libraries from PyPI are optional (``pip install xcover exact-cover miniexact``); this
module imports none of them, each function imports its library when called. Knuth's DLX1
is a program the user builds (see ``benchmarks/README.md``), run by ``benchmarks.knuth``.

* **xcover** (J. F. Rudge; numba): Knuth's Algorithm C on *dancing cells* (sparse sets, not
  dancing links), primary and secondary items, colors. We call ``xcover.algorithm_c`` on
  arrays, the documented way in "for problems cast in sparse matrix form", which is what
  ``xcover.covers`` builds from lists of item names; it is a generator of solutions, so
  counting means enumerating them. Its kernel is compiled when ``xcover`` is imported
  (cached on disk after the first time).
* **exact_cover** (Moy Easwaran, Jack Grahl; C extension): Algorithm X on dancing links
  (smallest column first, first one on ties: Knuth's rule), one dense numpy ``bool``
  matrix in, which the C code links anew on every call. ``get_exact_cover`` returns the
  first solution, ``get_solution_count`` counts. Primary items only: a secondary item gets
  a *slack row* covering just that item, so it is covered exactly once, by an option or by
  its slack row. The completion by slack rows is unique, so counts are unchanged, but the
  search works harder (it branches on the secondary items too).
* **miniexact** (M. Heisinger; C, SWIG bindings): Knuth's Algorithms X, C and M on
  dancing links, "kept as close to Knuth's description as possible". Items are declared
  by name (``primary``, ``secondary``), options added as lists of the returned item
  handles, and ``solve()`` returns 10 for each solution, one call each: counting means
  enumerating. Its own guard in issue 34: building and counting a small problem from a
  list of options, where a C library has no load to amortize.
* **dlx1** (Knuth; C, from ``dlx1.w``): Algorithm 7.2.2.1D on dancing links, the program
  whose nodes and updates our engine reproduces, run as a subprocess: ``benchmarks.knuth``
  (``DLX1_ARGS``, ``Dlx1Totals``, ``dlx1_count`` and ``parse_dlx1`` are its names, kept
  here for the callers of this module).

Sudoku input is the same reduction ``sudoku.to_exact_cover`` builds (Knuth's sudoku-dlx:
the 729 x 324 problem minus the rows and columns of the givens, same order; see
``tests/test_benchmark_solvers.py``), rebuilt here with numpy so that neither library pays
for constructing our ``ExactCover`` object.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np

from benchmarks.grid import coordinates, format_grid, parse, side
from benchmarks.knuth import ARGS as DLX1_ARGS
from benchmarks.knuth import Dlx1Totals, dlx1_count, parse_dlx1

__all__ = [
    "DLX1_ARGS",
    "PEERS",
    "Dlx1Totals",
    "SudokuCover",
    "dlx1_count",
    "exact_cover_count",
    "exact_cover_first",
    "exact_cover_matrix",
    "exact_cover_solve",
    "miniexact_count",
    "parse_dlx1",
    "reduce_puzzle",
    "xcover_arrays",
    "xcover_count",
    "xcover_first",
    "xcover_solve",
]

PEERS = {"xcover": "xcover", "exact_cover": "exact-cover", "miniexact": "miniexact"}
"""Import name -> PyPI name of each peer library."""


# ----- Sudoku --------------------------------------------------------------------------


@cache
def _option_items(n: int) -> np.ndarray:
    """The 729 x 324 problem for side ``n`` as an ``(n**3, 4)`` array: option ``cell * n + d``
    covers items ``cell``, ``n*n + r*n + d``, ``2*n*n + c*n + d``, ``3*n*n + b*n + d``."""
    rcb = np.array(coordinates(n), dtype=np.int64)
    cell = np.repeat(np.arange(n * n), n)
    d = np.tile(np.arange(n), n * n)
    r, c, b = rcb[cell].T
    area = n * n
    items = np.stack([cell, area + r * n + d, 2 * area + c * n + d, 3 * area + b * n + d], 1)
    items.flags.writeable = False
    return items


class SudokuCover(NamedTuple):
    """The reduced exact-cover problem of a puzzle, in CSR form with 4 items per option."""

    values: list[int]
    """The puzzle's cells, 0 for a blank."""
    n: int
    options: np.ndarray
    """Row k of the problem is option ``options[k] = cell * n + digit - 1`` of the full one."""
    items: np.ndarray
    """``items[k]``: the 4 columns (0..n_items-1) that row k covers."""
    n_items: int

    def matrix(self) -> np.ndarray:
        """The dense 0/1 matrix, ``bool``, C order."""
        m = np.zeros((len(self.options), self.n_items), dtype=bool)
        m[np.arange(len(self.options))[:, None], self.items] = True
        return m

    def decode(self, rows: Any) -> str:
        """The puzzle string with the blanks filled from the chosen rows."""
        values = list(self.values)
        for option in self.options[np.asarray(rows, dtype=np.int64)].tolist():
            cell, digit = divmod(option, self.n)
            values[cell] = digit + 1
        return format_grid(values)


def reduce_puzzle(puzzle: str) -> SudokuCover | None:
    """The problem of ``puzzle`` with its givens reduced away; None if two givens clash."""
    n = side(puzzle)
    values = parse(puzzle)
    all_items = _option_items(n)
    grid = np.array(values, dtype=np.int64)
    cells = np.flatnonzero(grid)
    taken = all_items[cells * n + grid[cells] - 1].ravel()
    covered = np.zeros(4 * n * n, dtype=bool)
    covered[taken] = True
    if np.count_nonzero(covered) != len(taken):
        return None
    options = np.flatnonzero(~covered[all_items].any(axis=1))
    columns = np.flatnonzero(~covered)
    renumber = np.full(4 * n * n, -1, dtype=np.int64)
    renumber[columns] = np.arange(len(columns))
    return SudokuCover(values, n, options, renumber[all_items[options]], len(columns))


def xcover_solve(puzzle: str) -> str | None:
    """Solve ``puzzle`` with xcover's Algorithm C: the first solution, or None."""
    from xcover import algorithm_c

    cover = reduce_puzzle(puzzle)
    if cover is None or not len(cover.options):
        return None if cover is None or cover.n_items else format_grid(cover.values)
    flat = cover.items.astype(np.uint32).ravel()
    ptr = np.arange(0, len(flat) + 1, cover.items.shape[1], dtype=np.uint32)
    colors = np.zeros(len(flat), dtype=np.uint32)
    rows = next(algorithm_c(flat, ptr, colors, cover.n_items, 0), None)
    return None if rows is None else cover.decode(rows)


def exact_cover_solve(puzzle: str) -> str | None:
    """Solve ``puzzle`` with exact_cover's C Algorithm X: the first solution, or None."""
    import exact_cover
    from exact_cover.error import NoSolution

    cover = reduce_puzzle(puzzle)
    if cover is None or not len(cover.options):
        return None if cover is None or cover.n_items else format_grid(cover.values)
    try:
        rows = exact_cover.get_exact_cover(cover.matrix())
    except NoSolution:
        return None
    return cover.decode(rows)


# ----- any exact-cover problem (a dlx.ExactCover without colors) ------------------------


def xcover_arrays(problem: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """xcover's input for a ``dlx.ExactCover``: items numbered in the problem's item order
    (primary first, as xcover wants), options in input order."""
    number = {name: i for i, name in enumerate(problem.items)}
    options = [[number[name] for name in option] for option in problem.options()]
    lengths = np.fromiter(map(len, options), dtype=np.uint32, count=len(options))
    ptr = np.zeros(len(options) + 1, dtype=np.uint32)
    np.cumsum(lengths, out=ptr[1:])
    flat = np.fromiter((i for option in options for i in option), dtype=np.uint32)
    colors = np.zeros(len(flat), dtype=np.uint32)
    return flat, ptr, colors, len(problem.items), len(problem.secondary)


def xcover_count(arrays: tuple[np.ndarray, np.ndarray, np.ndarray, int, int]) -> int:
    """Count the solutions by enumerating them (xcover yields each as a list)."""
    from xcover import algorithm_c

    return sum(1 for _ in algorithm_c(*arrays))


def xcover_first(arrays: tuple[np.ndarray, np.ndarray, np.ndarray, int, int]) -> list[int] | None:
    """The first solution found by xcover (sorted option indices), or None."""
    from xcover import algorithm_c

    rows = next(algorithm_c(*arrays), None)
    return None if rows is None else sorted(rows)


def exact_cover_matrix(problem: Any) -> np.ndarray:
    """exact_cover's input for a ``dlx.ExactCover``: its 0/1 matrix, then one slack row per
    secondary item. Rows beyond ``len(problem)`` in a solution are slack rows."""
    matrix = problem.to_matrix().astype(bool)
    n_primary, n_secondary = len(problem.primary), len(problem.secondary)
    slack = np.zeros((n_secondary, matrix.shape[1]), dtype=bool)
    slack[np.arange(n_secondary), n_primary + np.arange(n_secondary)] = True
    return np.ascontiguousarray(np.vstack([matrix, slack]))


def exact_cover_count(matrix: np.ndarray) -> int:
    """Count the solutions of a matrix made by :func:`exact_cover_matrix`."""
    import exact_cover

    return int(exact_cover.get_solution_count(matrix))


def exact_cover_first(problem: Any, matrix: np.ndarray) -> list[int] | None:
    """The first solution of ``problem`` found by exact_cover, slack rows left out."""
    import exact_cover
    from exact_cover.error import NoSolution

    try:
        rows = exact_cover.get_exact_cover(matrix)
    except NoSolution:
        return None
    return sorted(k for k in rows.tolist() if k < len(problem))


def miniexact_count(options: list[list[Any]], primary: list[Any],
                    secondary: list[Any]) -> int:
    """Build the problem in miniexact (Algorithm C: secondary items) from lists of item
    names, and count its solutions by enumerating them (``solve()`` is 10 per solution)."""
    import miniexact

    x = miniexact.miniexacts_c()
    handle = {name: x.primary(str(name)) for name in primary}
    handle.update((name, x.secondary(str(name))) for name in secondary)
    for option in options:
        x.add([handle[name] for name in option])
    found = 0
    while x.solve() == 10:
        found += 1
    return found
