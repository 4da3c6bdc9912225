"""Making and judging puzzles for the ``sudoku`` command: ``--generate N``, ``--rate`` and
``--explain PUZZLE`` ([`sudoku.generate`][], [`sudoku.rate`][], [`sudoku.explain`][]).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from dlx import ExitCode
from dlx.command import Command, Output, Progress, count_type

from ..errors import SearchStoppedError, SudokuError
from ..formats import read_line, write_variant
from ..grid import format_grid, parse_string
from ..layout import Layout
from ..named import PuzzleLines
from .solving import FAILED, exit_code, worst

__all__ = ["add_arguments", "explain_one", "generate_lines", "rate_lines"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``--generate``, ``--rate`` and ``--explain``."""
    from ..generate import SYMMETRIES
    from ..rate import LEVELS

    g = p.add_argument_group("generate, rate, explain")
    g.add_argument("--generate", type=count_type("generate"), metavar="N",
                   help="write N new puzzles with a unique solution, one per line (9x9; "
                        "--box RxC for other boxes, --variant x|windoku|jigsaw|killer|rect)")
    g.add_argument("--difficulty", choices=[name for name, _, _ in LEVELS],
                   help="with --generate: the level of the puzzles (simple, easy, "
                        "intermediate and expert mean what they mean to qqwing)")
    g.add_argument("--symmetry", choices=SYMMETRIES, default="none",
                   help="with --generate: the symmetry of the clues")
    g.add_argument("--seed", type=int, metavar="S",
                   help="with --generate: the same S gives the same puzzles")
    g.add_argument("--rate", action="store_true",
                   help="print each puzzle's level and numeric rating (1.0-11.9) instead")
    g.add_argument("--explain", metavar="PUZZLE",
                   help="print the steps that solve PUZZLE, one per line, and its rating")


def _puzzle_of(args: argparse.Namespace, line: str) -> tuple[Layout | None, str]:
    """The layout (None: plain boxes by size) and givens of one puzzle line."""
    layout, givens, _ = read_line(line, args.variant, block=args.box)
    return layout, givens


def generate_lines(args: argparse.Namespace, out: Output, show: bool) -> ExitCode:
    """``--generate N``: N puzzles, one line each in the variant's format; progress on
    stderr, wiped before each line is written (on a terminal both share the screen).
    Puzzle k has the seed S + k (S from --seed, else random); ``--max-nodes`` bounds each
    uniqueness check and ``--timeout`` the making of each puzzle, as in a call of
    [`sudoku.generate`][]: one that runs out stops the run (exit 3), the puzzles made
    before it written."""
    from ..generate import generate, generate_killer

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    progress = Progress(sys.stderr, enabled=show, total=args.generate, unit="puzzles")
    variant = args.variant
    budgets = {"max_nodes": args.max_nodes, "timeout": args.timeout}
    try:
        for k in range(args.generate):
            common = {"difficulty": args.difficulty, "seed": seed + k, "backend": args.backend}
            if variant == "killer":
                layout, givens = generate_killer(args.box or (3, 3), **common)
                line = write_variant("killer", givens, cages=layout.cages)
            elif variant == "jigsaw":  # a new shape when one gives none of the level
                layout, givens = _jigsaw_puzzle(seed + k, args.symmetry, common,
                                                args.max_nodes, args.timeout)
                line = write_variant(variant, givens, layout=layout)
            else:
                if variant == "x":
                    layout = Layout.x()
                elif variant == "windoku":
                    layout = Layout.windoku()
                else:
                    layout = Layout.rect(*args.box) if args.box else Layout.square(3)
                givens = generate(layout, symmetry=args.symmetry, **common, **budgets)
                line = write_variant(variant, givens, layout=layout) if variant else givens
            _above(progress, out, line + "\n")
            progress.update(k + 1)
    except SudokuError as e:
        progress.note(f"sudoku: {type(e).__name__}: {e}")
        return exit_code(e)
    if progress.enabled:
        progress.clear()
        progress.note(f"{args.generate} puzzles in "
                      f"{time.perf_counter() - progress.start:.2f} s")
    return ExitCode.OK


def _above(progress: Progress, out: Output, text: str) -> None:
    """``text`` on stdout below the progress line's place: the line wiped first, stdout
    flushed after, so that the line, drawn again, comes after it (on a terminal both
    share the screen; elsewhere the wipe writes nothing)."""
    progress.clear()
    out.write(text)
    if progress.enabled:
        out.flush()


def _jigsaw_puzzle(seed: int, symmetry: str, common: dict[str, Any], max_nodes: int | None,
                   timeout: float | None) -> tuple[Layout, str]:
    """A random jigsaw layout and a puzzle on it: up to 100 shapes, 20 attempts each, not
    minimal (minimal random jigsaws are nearly all ``extreme``: clues are kept that would
    take the puzzle above the level asked for). ``timeout`` bounds the whole: each shape
    gets the time left, and one stopped by it ends the search for shapes."""
    from ..generate import generate, random_jigsaw

    deadline = None if timeout is None else time.perf_counter() + timeout
    for shape in range(100):
        layout = random_jigsaw(9, seed=seed * 100 + shape, backend=common["backend"])
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        try:
            return layout, generate(layout, symmetry=symmetry, attempts=20, minimal=False,
                                    max_nodes=max_nodes, timeout=left, **common)
        except SearchStoppedError:
            if deadline is not None and time.perf_counter() >= deadline:
                raise
            continue
    raise SearchStoppedError(f"no jigsaw of difficulty {common['difficulty']!r} found on "
                             "100 shapes")


def rate_lines(args: argparse.Namespace, lines: PuzzleLines, out: Output,
               show: bool) -> ExitCode:
    """``--rate``: per puzzle line, its level and numeric rating (``expert 4.2``); a line
    that cannot be rated gets the marker line (``# ErrorName``, [`FAILED`][]) and its
    reason goes to stderr; a blank or comment line is echoed in its place, as when
    solving (output line k answers input line k)."""
    from ..rate import rate

    codes: set[ExitCode] = set()
    puzzles = lines.puzzles
    progress = Progress(sys.stderr, enabled=show, total=len(puzzles), unit="puzzles")
    for k, (lineno, line) in enumerate(puzzles):
        try:
            layout, givens = _puzzle_of(args, line)
            answer = str(rate(givens, layout=layout, backend=args.backend))
        except SudokuError as e:
            codes.add(exit_code(e))
            _above(progress, out, f"{lines.before(k)}{FAILED} {type(e).__name__}\n")
            progress.note(f"line {lineno}: {type(e).__name__}: {e}")
        else:
            _above(progress, out, lines.before(k) + answer + "\n")
        progress.update(k + 1)
    out.write(lines.before(len(puzzles)))
    progress.clear()
    return worst(codes)


def explain_one(args: argparse.Namespace, out: Output, command: Command) -> ExitCode:
    """``--explain PUZZLE``: the numbered steps, then the solved grid and the rating."""
    from ..explain import explain
    from ..rate import level_of

    try:
        layout, givens = _puzzle_of(args, args.explain)
        steps = explain(givens, layout=layout, backend=args.backend)
        geo, values = parse_string(givens, None, layout)
    except SudokuError as e:
        return command.fail(f"{type(e).__name__}: {e}", exit_code(e))
    width = len(str(len(steps)))
    for k, step in enumerate(steps, 1):
        out.write(f"{k:>{width}}. {step.describe(geo.layout)}\n")
        for cell, value in step.placements:
            values[cell] = value
    hardest = max(steps, key=lambda s: s.rating, default=None)
    rating = hardest.rating if hardest else 0.0
    cages = geo.layout.cages or None
    out.write("\n" + format_grid(geo, values, pretty=True, cages=cages) + "\n")
    out.write(f"\nrating: {level_of(rating)} {rating:.1f}"
              f"{f' ({hardest.technique})' if hardest else ''}, {len(steps)} steps\n")
    return ExitCode.OK
