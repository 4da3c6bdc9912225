"""Well-known puzzles shipped with the package (``sudoku/data/named.txt``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources

__all__ = ["PuzzleLines", "load_named", "puzzle_lines", "read_lines", "split_lines"]


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, split at ``\\n`` and ``\\r\\n`` only: not at the form
    feeds, vertical tabs, ``\\x1c``-``\\x1e``, NEL, U+2028 and U+2029 at which
    ``str.splitlines`` splits too, which a text editor and ``wc -l`` do not take for line
    ends. A last line without its newline is a line; an empty text has none."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _skipped(stripped: str) -> bool:
    """A line (stripped) that is no puzzle: blank, or a ``#`` comment."""
    return not stripped or stripped.startswith("#")


def read_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, stripped line) pairs of ``text`` that are neither blank
    nor ``#`` comments ([`split_lines`][]' lines): the puzzle-file convention shared by
    the data files and the command."""
    return [(k, s) for k, line in enumerate(split_lines(text), 1)
            if not _skipped(s := line.strip())]


@dataclass(frozen=True)
class PuzzleLines:
    """A puzzle file as the ``sudoku`` command reads it: its puzzle lines, numbered, and
    the lines that are no puzzle (blank lines, ``#`` comments), kept in place so that
    the output can echo them and answer line k for line k."""

    puzzles: list[tuple[int, str]] = field(default_factory=list)
    """(1-based line number, stripped line) of each puzzle line, in order."""
    skipped: dict[int, str] = field(default_factory=dict)
    """Puzzle index k -> the skipped lines just before puzzle k (stripped, each ended by
    a newline), as they are echoed; k = ``len(puzzles)``: those after the last puzzle.
    Empty when the file has none (the usual case: nothing to interleave)."""

    def before(self, k: int) -> str:
        """The text to echo before the answer to puzzle ``k`` ("" if none)."""
        return self.skipped.get(k, "")


def puzzle_lines(text: str) -> PuzzleLines:
    """``text`` as [`PuzzleLines`][]: [`read_lines`][]' puzzles, and every blank or
    comment line, stripped, at its place among them."""
    lines = PuzzleLines()
    for k, line in enumerate(split_lines(text), 1):
        stripped = line.strip()
        if _skipped(stripped):
            at = len(lines.puzzles)
            lines.skipped[at] = lines.skipped.get(at, "") + stripped + "\n"
        else:
            lines.puzzles.append((k, stripped))
    return lines


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
