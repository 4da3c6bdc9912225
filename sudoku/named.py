"""Well-known puzzles shipped with the package (``sudoku/data/named.txt``)."""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = ["load_named", "read_lines"]


def read_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, stripped line) pairs of ``text`` that are neither blank
    nor ``#`` comments: the puzzle-file convention shared by the data files and the CLI."""
    return [(k, s) for k, line in enumerate(text.splitlines(), 1)
            if (s := line.strip()) and not s.startswith("#")]


@cache
def _named() -> tuple[tuple[str, str], ...]:
    text = resources.files(__package__).joinpath("data/named.txt").read_text(encoding="utf-8")
    pairs = []
    for lineno, line in read_lines(text):
        name, sep, puzzle = line.partition(" ")
        if not sep:
            raise ValueError(f"named.txt line {lineno}: expected 'name puzzle', got {line!r}")
        pairs.append((name, puzzle.strip()))
    return tuple(pairs)


def load_named() -> dict[str, str]:
    """Name -> puzzle (one line, ``.`` blanks) for the famous puzzles in ``named.txt``,
    e.g. ``load_named()["inkala-2012"]``; a fresh dict on every call."""
    return dict(_named())
