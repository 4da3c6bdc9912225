"""Well-known puzzles shipped with the package (``sudoku/data/named.txt``)."""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = ["load_named", "read_lines", "split_lines"]


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, split at ``\\n`` and ``\\r\\n`` only: not at the form
    feeds, vertical tabs, ``\\x1c``-``\\x1e``, NEL, U+2028 and U+2029 at which
    ``str.splitlines`` splits too, which a text editor and ``wc -l`` do not take for line
    ends. A last line without its newline is a line; an empty text has none."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, stripped line) pairs of ``text`` that are neither blank
    nor ``#`` comments ([`split_lines`][]' lines): the puzzle-file convention shared by
    the data files and the command."""
    return [(k, s) for k, line in enumerate(split_lines(text), 1)
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
