"""tdoku (T. Dillon's SIMD Sudoku solver, C++), timed per puzzle, for side-by-side runs.

The binary is ``tdoku_time``, which ``../shared/tools/native-anchors/build.sh`` builds from
``tdoku_time.c`` beside it: one untimed pass over the puzzles (warm caches, as ours is
warm), then one timed ``SolveSudoku`` call per puzzle; it prints ``ns count solution`` per
puzzle and, on stderr, ``total: <wall ns> <cpu ns> <n>`` for the timed pass. This is tdoku
as a library call: no parsing of our strings, no Python; the per-puzzle figure is the
solver's own work, and the total is what a batch of such calls costs.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from benchmarks.knuth import anchors_dir

__all__ = ["TdokuRun", "default_tdoku", "run_tdoku"]


@dataclass(frozen=True)
class TdokuRun:
    """One run of ``tdoku_time`` over a list of puzzles."""

    seconds: list[float]
    """Each puzzle's ``SolveSudoku`` call, in seconds (wall: CLOCK_MONOTONIC)."""
    solutions: list[str | None]
    """Each puzzle's first solution (81 characters), None when it has none."""
    wall_s: float
    """The whole timed pass, wall time."""
    cpu_s: float
    """The whole timed pass, the process's CPU time."""


def default_tdoku() -> Path:
    """``$TDOKU``, else ``$ANCHORS/tdoku/build/tdoku_time``."""
    given = os.environ.get("TDOKU")
    return Path(given) if given else anchors_dir() / "tdoku" / "build" / "tdoku_time"


def run_tdoku(binary: str | Path, puzzles: list[str]) -> TdokuRun:
    """Run ``binary 1`` on ``puzzles`` (9x9, one per line) and parse what it prints; a run
    that fails or prints something else raises RuntimeError."""
    done = subprocess.run([str(binary), "1"], input="\n".join(puzzles) + "\n",
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{binary} failed (exit {done.returncode}): {done.stderr}")
    lines = done.stdout.splitlines()
    total = done.stderr.split()
    if len(lines) != len(puzzles) or total[:1] != ["total:"] or int(total[3]) != len(puzzles):
        raise RuntimeError(f"{binary}: {len(lines)} lines for {len(puzzles)} puzzles, "
                           f"stderr {done.stderr!r}")
    seconds, solutions = [], []
    for line in lines:
        ns, count, solution = line.split()
        seconds.append(int(ns) * 1e-9)
        solutions.append(solution if int(count) > 0 else None)
    return TdokuRun(seconds, solutions, int(total[1]) * 1e-9, int(total[2]) * 1e-9)
