"""Plain backtracking, as in the usual answers to LeetCode 37 "Sudoku Solver".

Blank cells are filled in row-major order, trying digits in increasing order against
row, column and box bitmasks; no propagation and no cell ordering heuristic. This is
the baseline most people write first, and the one worst hit by puzzles built against it.
"""

from __future__ import annotations

from benchmarks.grid import Solved, coordinates, format_grid, parse, side

__all__ = ["solve", "solve_counting"]


def solve(puzzle: str) -> str | None:
    """Return the solution of ``puzzle``, or None if it has none."""
    return solve_counting(puzzle).solution


def solve_counting(puzzle: str) -> Solved:
    """Solve ``puzzle``; nodes = digits placed in blank cells, backtracked ones included."""
    n = side(puzzle)
    values = parse(puzzle)
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    blanks: list[tuple[int, int, int, int]] = []
    for cell, (r, c, b) in enumerate(coordinates(n)):
        if not values[cell]:
            blanks.append((cell, r, c, b))
            continue
        bit = 1 << values[cell]
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return Solved(None, 0)
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit

    nodes = 0

    def backtrack(k: int) -> bool:
        nonlocal nodes
        if k == len(blanks):
            return True
        cell, r, c, b = blanks[k]
        used = rows[r] | cols[c] | boxes[b]
        for digit in range(1, n + 1):
            bit = 1 << digit
            if used & bit:
                continue
            nodes += 1
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            if backtrack(k + 1):
                values[cell] = digit
                return True
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
        return False

    return Solved(format_grid(values) if backtrack(0) else None, nodes)
