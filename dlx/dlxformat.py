"""Knuth's text format for exact-cover problems, as read by DLX1 and DLX2.

Lines starting with ``|`` (after blanks) are comments, and blank lines are skipped. The
first other line names the items: primary items, then ``|``, then secondary items (no ``|``
when there are none). Every further line is one option: the names of its items, separated
by blanks, where ``name:color`` gives secondary item ``name`` the color ``color``.
Knuth limits names to 8 characters; this reader does not, but a name may not contain
``|`` or ``:``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .errors import DLXFormatError

__all__ = ["format_dlx", "parse_dlx"]


def _is_content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("|")


def parse_dlx(text: str) -> tuple[list[str], list[str], list[list[Hashable]]]:
    """Parse ``text`` into (primary items, secondary items, options).

    Colored entries come back as :class:`dlx.Colored`. Every malformed line raises
    :class:`DLXFormatError` with its 1-based line number: an unknown or repeated item, a
    color on a primary item, a bad name, or a second ``|`` in the item line.
    """
    from .options import Colored

    lines = text.splitlines()
    header = next((k for k, line in enumerate(lines) if _is_content(line)), None)
    if header is None:
        raise DLXFormatError("no item line", len(lines) or 1, "")
    primary: list[str] = []
    secondary: list[str] = []
    target = primary
    kind: dict[str, str] = {}
    line = lines[header]
    for token in line.replace("|", " | ").split():
        if token == "|":
            if target is secondary:
                raise DLXFormatError("the item line contains '|' twice", header + 1, line)
            target = secondary
            continue
        if ":" in token:
            raise DLXFormatError(f"illegal ':' in item name {token!r}", header + 1, line)
        if token in kind:
            raise DLXFormatError(f"item {token!r} is named twice", header + 1, line)
        kind[token] = "primary" if target is primary else "secondary"
        target.append(token)
    options: list[list[Hashable]] = []
    for k in range(header + 1, len(lines)):
        line = lines[k]
        if not _is_content(line):
            continue
        option: list[Hashable] = []
        seen: set[str] = set()
        for token in line.split():
            name, colon, color = token.partition(":")
            if "|" in token:
                raise DLXFormatError(f"illegal '|' in {token!r}", k + 1, line)
            if name not in kind:
                raise DLXFormatError(f"unknown item {name!r}", k + 1, line)
            if name in seen:
                raise DLXFormatError(f"item {name!r} appears twice in this option", k + 1, line)
            seen.add(name)
            if colon:
                if not color:
                    raise DLXFormatError(f"empty color in {token!r}", k + 1, line)
                if kind[name] == "primary":
                    raise DLXFormatError(f"color on primary item {name!r}", k + 1, line)
                option.append(Colored(name, color))
            else:
                option.append(name)
        options.append(option)
    return primary, secondary, options


def format_dlx(
    primary: Sequence[Hashable],
    secondary: Sequence[Hashable],
    options: Sequence[Sequence[Hashable]],
) -> str:
    """Write a problem in Knuth's format; item names and colors are written with ``str``.

    Raises ``ValueError`` if a name would not read back (empty, blanks, ``|`` or ``:``).
    """
    from .options import Colored

    def word(value: Hashable, what: str) -> str:
        s = str(value)
        if not s or any(ch.isspace() or ch in "|:" for ch in s):
            raise ValueError(f"{what} {value!r} cannot be written in DLX format")
        return s

    head = " ".join(word(x, "item") for x in primary)
    if secondary:
        head += " | " + " ".join(word(x, "item") for x in secondary)
    out = [head]
    for option in options:
        out.append(" ".join(
            f"{word(e.item, 'item')}:{word(e.color, 'color')}" if isinstance(e, Colored)
            else word(e, "item") for e in option))
    return "\n".join(out) + "\n"
