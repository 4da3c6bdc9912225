"""A Griffe extension for the API pages (``mkdocs.yml``: the python handler's
``extensions``): the ``>>>`` examples of a docstring are shown as code, and the exceptions
it names link to their entries.

The docstrings keep plain doctest blocks, so that ``doctest`` runs them and ``help()`` shows
them as a terminal session; Markdown would read their ``>>>`` as nested block quotes and run
the lines together. Here each block (its ``>>>`` and ``...`` lines and the expected output
below them, up to a blank line; blocks separated by one blank line stay one block) becomes
a fenced ``pycon`` block at the block's own indentation, its doctest directives
(``# doctest: +ELLIPSIS``, ``<BLANKLINE>``) dropped. Blocks inside fences are left alone.

The docstrings name exceptions as words ("raises NoSolutionError") or code
(``ArgumentError``); on the page each becomes a link to the exception's entry, that of
``sudoku.errors`` in a docstring of ``sudoku`` when it has one (its ArgumentError is a
SudokuError too), else that of ``dlx.errors``. Names already in a link, in code blocks, and
an exception's own name in its docstring are left as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

import dlx.errors
import sudoku.errors

DIRECTIVE = re.compile(r"\s*#\s*doctest:.*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def fence_doctests(text: str) -> str:
    """``text`` with each doctest block fenced as ``pycon`` (see the module's docstring)."""
    lines = text.split("\n")
    out: list[str] = []
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if FENCE.match(line):
            fenced = not fenced
        if fenced or not stripped.startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(stripped)]
        block: list[str] = []
        while i < len(lines):
            if lines[i].strip() and lines[i].startswith(indent) and not FENCE.match(lines[i]):
                block.append(lines[i][len(indent):])
                i += 1
            elif (not lines[i].strip() and i + 1 < len(lines)
                  and lines[i + 1].startswith(indent + ">>>")):
                block.append("")  # one blank line between two examples: one block
                i += 1
            else:
                break
        if out and out[-1].strip():
            out.append("")
        out.append(f"{indent}```pycon")
        out.extend(f"{indent}{DIRECTIVE.sub('', b).replace('<BLANKLINE>', '')}".rstrip()
                   for b in block)
        out.append(f"{indent}```")
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)


def _exceptions(module: Any) -> dict[str, str]:
    """The exceptions and warnings a module defines or exports, by name: their paths."""
    return {name: f"{module.__name__}.{name}" for name in getattr(module, "__all__", vars(module))
            if isinstance(getattr(module, name, None), type)
            and issubclass(getattr(module, name), BaseException)}


EXCEPTIONS = {"dlx": _exceptions(dlx.errors),
              "sudoku": {**_exceptions(dlx.errors), **_exceptions(sudoku.errors)}}
"""The exception a name links to, by the package whose docstring names it."""

_KEEP = re.compile(r"```.*?```|~~~.*?~~~|\[[^\]]*\]\[[^\]]*\]|\[[^\]]*\]\([^)]*\)"
                   r"|(``?)([^`]+?)\1(?!`)", re.S)
"""What is not prose: fenced blocks, links, code spans (group 2: the code)."""


def link_exceptions(text: str, targets: dict[str, str], own: str = "") -> str:
    """``text`` with each exception of ``targets`` it names (a word, ``dlx.Name`` or a
    code span holding only the name) written as a link to its entry."""
    names = sorted((n for n in targets if n != own), key=len, reverse=True)
    if not names:
        return text
    word = re.compile(r"(?<![\w.\[/])((?:dlx|sudoku)\.(?:errors\.)?)?(" + "|".join(names)
                      + r")(?![\w])")

    def target(prefix: str | None, name: str) -> str:
        if prefix and prefix.startswith("dlx."):  # dlx.SearchStoppedError, not sudoku's
            return f"dlx.errors.{name}"
        return targets[name]

    def prose(part: str) -> str:
        return word.sub(lambda m: f"[{m.group(0)}][{target(m.group(1), m.group(2))}]", part)

    out, end = [], 0
    for m in _KEEP.finditer(text):
        out.append(prose(text[end:m.start()]))
        code = m.group(2)
        name = None if code is None else code.strip().rsplit(".", 1)[-1]
        spelled = None if code is None else re.fullmatch(
            r"((?:dlx|sudoku)\.(?:errors\.)?)?(\w+)", code.strip())
        if spelled and name in targets and name != own:
            out.append(f"[{m.group(0)}][{target(spelled.group(1), name)}]")
        else:
            out.append(m.group(0))
        end = m.end()
    out.append(prose(text[end:]))
    return "".join(out)


class DoctestBlocks(griffe.Extension):
    """Fences the doctest blocks of every docstring as it is loaded, and links the
    exceptions it names."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None:
            return
        text = obj.docstring.value
        if ">>>" in text:
            text = fence_doctests(text)
        targets = EXCEPTIONS.get(obj.path.split(".", 1)[0])
        if targets:
            text = link_exceptions(text, targets, obj.name)
        obj.docstring.value = text
