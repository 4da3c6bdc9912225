"""Explanations a person can look at, for the ``sudoku`` command: ``--explain PUZZLE --html
FILE`` writes one self-contained page with every step drawn beside its sentence
([`sudoku.draw_step`][]), and ``--hint PUZZLE`` prints the next step only (``--svg FILE``:
drawn).

The page needs no network and no script: its style is in it and its pictures are inline
SVG. It opens with the rating (the level, the rating of the hardest step and its
technique, how many steps each technique took) and the puzzle drawn, then lists the steps
in order, each as its number, its technique and rating, its sentence and its picture.
"""

from __future__ import annotations

import argparse
from collections import Counter
from html import escape
from pathlib import Path
from typing import Any

from dlx import ExitCode
from dlx.command import Command, CommandError, Output

from ..errors import SudokuError
from ..formats import read_line
from .solving import exit_code

__all__ = ["add_arguments", "explain_html", "hint_one", "page", "usage_problem"]

STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px; color: #222;
       max-width: 1100px; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.puzzle { font-family: "DejaVu Sans Mono", monospace; font-size: 0.9em; color: #555;
          word-break: break-all; }
table.summary { border-collapse: collapse; margin: 0.8em 0 1.2em; }
table.summary td, table.summary th { border: 1px solid #ccc; padding: 2px 10px;
                                     text-align: left; }
.step { display: flex; gap: 24px; align-items: flex-start; padding: 14px 0;
        border-top: 1px solid #ddd; }
.step svg { flex: none; }
.step h2 { font-size: 1.1em; margin: 0 0 0.4em; }
.step p { margin: 0; line-height: 1.5; }
.legend span { display: inline-block; padding: 0 6px; margin-right: 8px; }
"""
"""The page's own style sheet (no file or font is fetched)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--hint`` and ``--html``, in the group of ``--explain``."""
    g = p.add_argument_group("explanations drawn")
    g.add_argument("--hint", metavar="PUZZLE",
                   help="print the next step from PUZZLE (a puzzle, or one partly filled "
                        "in); with --svg FILE, also draw it on the grid")
    g.add_argument("--html", metavar="FILE",
                   help="with --explain: also write one self-contained HTML page with "
                        "every step drawn beside its sentence, and the rating")


def usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--hint`` or ``--html`` on this command line, or None."""
    if args.html is not None and args.explain is None:
        return "--html goes with --explain PUZZLE"
    if args.explain is not None and args.svg is not None:
        return "--svg draws one picture: with --explain, --html FILE draws every step"
    if args.hint is None:
        return None
    if args.generate is not None or args.rate or args.explain is not None:
        return "give one of --generate, --rate, --explain, --hint"
    if args.puzzle is not None or args.file is not None or args.named is not None:
        return "--hint takes its puzzle as its argument"
    return None


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except (OSError, ValueError) as e:
        raise CommandError(f"cannot write {path}: {getattr(e, 'strerror', None) or e}",
                           ExitCode.OUTPUT) from None


def hint_one(args: argparse.Namespace, out: Output, command: Command) -> ExitCode:
    """``--hint PUZZLE``: the next step in words (``solved`` when the grid is full), and
    with ``--svg FILE`` that step drawn on the grid."""
    from ..draw import draw_step
    from ..explain import hint

    try:
        layout, givens, _ = read_line(args.hint, args.variant, block=args.box)
        step = hint(givens, layout=layout, backend=args.backend)
    except SudokuError as e:
        return command.fail(f"{type(e).__name__}: {e}", exit_code(e))
    if step is None:
        out.write("solved: the grid is full\n")
        return ExitCode.OK
    out.write(f"{step.describe()}\n")
    if args.svg is not None:
        _write(args.svg, draw_step(step).svg)
    return ExitCode.OK


def explain_html(args: argparse.Namespace, out: Output, command: Command) -> ExitCode:
    """``--explain PUZZLE --html FILE``: the steps as ``--explain`` prints them, then the
    page ([`page`][]) written to FILE."""
    from ..explain import explain
    from .making import explain_one

    code = explain_one(args, out, command)
    if code != ExitCode.OK:
        return code
    layout, givens, _ = read_line(args.explain, args.variant, block=args.box)
    steps = explain(givens, layout=layout, backend=args.backend)
    _write(args.html, page(givens, steps, layout=layout))
    return ExitCode.OK


def page(puzzle: str, steps: list[Any], *, layout: Any = None, title: str = "") -> str:
    """One HTML page explaining ``puzzle`` by its ``steps`` (those of
    [`sudoku.explain`][], on ``layout``): the rating and the puzzle drawn, then each step
    drawn beside its number, technique, rating and sentence. Self-contained: inline SVG
    and style, no script, nothing fetched."""
    from ..draw import ELIMINATED, PATTERN, PLACED, UNIT, draw_board, draw_step
    from ..rate import level_of

    hardest = max(steps, key=lambda s: s.rating, default=None)
    rating = hardest.rating if hardest else 0.0
    counts = Counter(step.technique for step in steps)
    order = {step.technique: k for k, step in reversed(list(enumerate(steps)))}
    rows = "".join(f"<tr><td>{escape(name)}</td><td>{n}</td></tr>"
                   for name, n in sorted(counts.items(), key=lambda kv: order[kv[0]]))
    summary = (f"{escape(level_of(rating))} {rating:.1f}"
               + (f", hardest step: {escape(hardest.technique)}" if hardest else "")
               + f", {len(steps)} steps")
    heading = title or "A Sudoku explained step by step"
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{escape(heading)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
        f"<h1>{escape(heading)}</h1>",
        f'<p class="puzzle">{escape(puzzle)}</p>',
        f'<p class="rating"><strong>Rating: {summary}</strong></p>',
        f'<table class="summary"><tr><th>technique</th><th>steps</th></tr>{rows}</table>',
        '<p class="legend">In the pictures: '
        f'<span style="background:{UNIT}">the units of the pattern</span>'
        f'<span style="background:{PATTERN}">its cells</span>'
        f'<span style="background:{PLACED}">a value placed</span>'
        f'<span style="color:{ELIMINATED}"><s>a candidate eliminated</s></span></p>',
        f'<div class="board">{draw_board(puzzle, layout=layout, cell=36).svg}</div>',
    ]
    for k, step in enumerate(steps, 1):
        words = escape(step.describe())
        parts.append(f'<section class="step" id="step-{k}">'
                     f"{draw_step(step, cell=40).svg}"
                     f'<div><h2>{k}. {escape(step.technique)} ({step.rating:.1f})</h2>'
                     f"<p>{words}</p></div></section>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
