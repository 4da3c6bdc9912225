"""The checker over arrays (`sudoku.arraycheck`) takes integer arrays of any dtype as
they are, in chunks of rows: its answers are the row-by-row checker's whatever the
dtype and however many rows; and the batch's decoding of solutions (subtracting each
cell's first option) refuses a record whose options are not the cells in order."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku import Layout
from sudoku.arraycheck import all_hold
from sudoku.grid import geometry, is_solution, parse_string
from sudoku.solver import solve_string


def _cases(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` (puzzle, grid) rows around one 9x9 solution: relabelled solutions, cells
    changed (to values in and out of 0..N, negative ones too), cells swapped, givens the
    grid does not keep."""
    grid = np.array(parse_string(solve_string("." * 81))[1])
    grids, puzzles = [], []
    for _ in range(n):
        g = (rng.permutation(9) + 1)[grid - 1]
        kind = rng.integers(5)
        if kind == 1:
            g[rng.integers(81)] = rng.integers(-3, 13)
        elif kind == 2:
            i, j = rng.integers(81, size=2)
            g[i], g[j] = g[j], g[i]
        p = np.where(rng.random(81) < 0.3, g, 0)
        if kind == 3:
            k = int(rng.integers(81))
            p[k] = g[k] % 9 + 1
        grids.append(g)
        puzzles.append(p)
    return np.array(puzzles), np.array(grids)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int64, np.uint8, np.float64])
def test_any_dtype_and_many_rows_agree_with_the_row_checker(dtype):
    rng = np.random.default_rng(7)
    puzzles, grids = _cases(rng, 1300)  # more rows than one chunk
    if dtype == np.uint8:  # no negative values in uint8: those rows become 0
        grids = np.where(grids < 0, 0, grids)
    geo = geometry(9)
    expected = [is_solution(geo, p.tolist(), g.tolist()) for p, g in zip(puzzles, grids)]
    assert 0 < sum(expected) < len(expected)
    got = all_hold(Layout.square(3), puzzles.astype(dtype), grids.astype(dtype))
    assert got.tolist() == expected


def test_decoding_refuses_options_that_are_not_the_cells_in_order():
    """A record whose sorted options are not one a cell decodes to an all-0 grid, which
    the checker refuses; a record of one option a cell decodes to its values."""
    from sudoku.batch import _decode

    class Result:  # the one field _decode reads
        options = np.array([np.arange(81) * 9 + 4,  # every cell 5
                            np.r_[0, 1, np.arange(2, 81) * 9],  # cell 0 twice, no cell 80
                            np.r_[np.arange(80) * 9, 729]])  # 80 cells, a cage filling
    grids = _decode(geometry(9), Result(), np.ones(3, dtype=bool))  # type: ignore[arg-type]
    assert grids[0].tolist() == [5] * 81
    assert grids[1].tolist() == [0] * 81
    assert grids[2].tolist() == [0] * 81  # cell 80 has no option: not a grid
