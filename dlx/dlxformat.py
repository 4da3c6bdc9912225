"""Knuth's text format for exact-cover problems, as read by DLX1 and DLX2.

Lines starting with ``|`` (after blanks) are comments, and blank lines are skipped. The
first other line names the items: primary items, then ``|``, then secondary items (no ``|``
when there are none). Every further line is one option: the names of its items, separated
by blanks, where ``name:color`` gives secondary item ``name`` the color ``color``.

Lines and blanks are Knuth's, that is C's (his programs read with ``fgets`` and split with
``isspace``), not Python's ``str.splitlines`` and ``str.split``:

* a line ends at ``'\\n'`` only (so ``'\\r\\n'`` works too: the ``'\\r'`` is a blank);
  form feed, ``'\\x85'`` (NEL), U+2028 and U+2029 do not end a line, and line numbers in
  errors count ``'\\n'`` characters;
* names are separated by ASCII blanks only: space, ``'\\t'``, ``'\\v'``, ``'\\f'``,
  ``'\\r'``. Every other character, NBSP (U+00A0) and U+3000 included, is part of a name;
* one leading byte-order mark (U+FEFF) is ignored; anywhere else it is a character.

Knuth limits names to 8 characters; this reader does not, but an item name may not contain
``|`` or ``:``. An entry is split at its first ``:``, so a color may contain ``:`` (though
not ``|``). Text may be given as ``str`` or as UTF-8 ``bytes``.

DLX3's bounds and DLX5's costs ([`parse_mcc`][]): in the item line, ``u:v|name`` says
that primary item ``name`` is covered ``u`` to ``v`` times and ``v|name`` exactly ``v``
times (decimal digits; ``0 <= u <= v``, ``v >= 1``); a word that begins with ``|`` is the
separator before the secondary items, which take no bounds. In an option line, a word
``|n`` (decimal digits) adds ``n`` to the option's cost (several add up). Other words with
``|`` keep their old reading: the separator in the item line (``A|B`` is ``A | B``), an
error in an option.

[`format_dlx`][] (``ExactCover.to_dlx``) writes a problem that reads back as the same
problem, or raises [`dlx.ArgumentError`][] naming the value that cannot be written:
a name or color that is empty or contains an ASCII blank or ``|`` (``:`` too, in an item
name), two items or two colors whose ``str`` is the same, or a problem with no primary
item (its item line would begin with ``|``, a comment).
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from .errors import ArgumentError, DLXFormatError
from .options import MAX_BOUND, MAX_TOTAL_COST, Colored

__all__ = ["BLANKS", "decode_dlx", "dlx_source", "format_dlx", "option_lines", "parse_dlx",
           "parse_mcc", "split_lines"]

BLANKS = " \t\n\v\f\r"
"""The characters that separate names: C's ``isspace`` in the C locale, as in Knuth's
programs. (``'\\n'`` also ends the line.)"""

BOM = "\ufeff"

_WORD = re.compile(f"[^{re.escape(BLANKS)}]+")
_BOUND = re.compile(r"(?:([0-9]+):)?([0-9]+)\|(.*)", re.DOTALL)
"""A bounded item: ``u:v|name`` or ``v|name``."""
_COST = re.compile(r"\|([0-9]+)")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``: ended by ``'\\n'`` only, like C's ``fgets``; a last line
    without ``'\\n'`` counts, an empty one after the final ``'\\n'`` does not. Line ``k``
    (1-based) is ``split_lines(text)[k - 1]`` for the reader and for every error."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def decode_dlx(data: bytes | bytearray) -> str:
    """``data`` decoded as UTF-8 (a byte-order mark is kept, for [`parse_dlx`][] to skip).

    Raises [`DLXFormatError`][] naming the line and the first byte that is not UTF-8.
    """
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as err:
        lineno = data.count(b"\n", 0, err.start) + 1
        begin = data.rfind(b"\n", 0, err.start) + 1
        end = data.find(b"\n", err.start)
        line = bytes(data[begin:end if end >= 0 else len(data)])
        raise DLXFormatError(
            f"not UTF-8: byte 0x{data[err.start]:02x} at column {err.start - begin + 1} "
            f"({err.reason})", lineno, line.decode("utf-8", "replace")) from None


def dlx_source(source: Any) -> str | bytes | bytearray:
    """The DLX text that ``source`` gives: a str or bytes of the text itself, the text of
    a file named by an ``os.PathLike`` (a ``pathlib.Path``), or what an open file (text
    or binary) reads. A str without a line break that names an existing file is refused
    ([`dlx.ArgumentError`][]): it is almost surely a file name, not a problem of no
    options. A file that cannot be read raises OSError, as ``open`` does."""
    if isinstance(source, os.PathLike):
        with open(source, "rb") as f:
            return f.read()
    if isinstance(source, str):
        if "\n" not in source and source.strip() and os.path.isfile(source):
            raise ArgumentError(f"{source!r} names a file, but a str is read as the text of "
                                f"a problem: pass pathlib.Path({source!r}) or an open file")
        return source
    read = getattr(source, "read", None)
    if callable(read) and not isinstance(source, (bytes, bytearray)):
        data = read()
        if not isinstance(data, (str, bytes, bytearray)):
            raise ArgumentError(f"the file's read() gave {type(data).__name__}, not text")
        return data
    return source


def _as_text(text: object) -> str:
    """``text`` as a str without its leading byte-order mark; bytes are decoded as UTF-8."""
    if isinstance(text, (bytes, bytearray)):
        text = decode_dlx(text)
    elif not isinstance(text, str):
        raise ArgumentError(
            f"text must be a str or UTF-8 bytes in DLX format, got {type(text).__name__}")
    return text[1:] if text.startswith(BOM) else text


def _content_lines(lines: list[str]) -> Iterator[tuple[int, str, list[str]]]:
    """The 1-based number, text and names of every line that is neither blank nor a
    comment: the item line, then one line per option. The one place that splits names."""
    for lineno, line in enumerate(lines, 1):
        words = _WORD.findall(line)
        if words and not words[0].startswith("|"):
            yield lineno, line, words


def parse_dlx(text: str | bytes | bytearray) -> tuple[list[str], list[str], list[list[Hashable]]]:
    """Parse ``text`` into (primary items, secondary items, options).

    ``text`` is a str or UTF-8 bytes (anything else: [`dlx.ArgumentError`][]). Colored
    entries come back as [`dlx.Colored`][]. Every malformed line raises
    [`DLXFormatError`][] with its 1-based line number: an unknown or repeated item, a
    color on a primary item, a bad name, a second ``|`` in the item line, bytes that are
    not UTF-8, or no item line at all; and so do bounds or costs ([`parse_mcc`][]
    reads them), which this reading would lose.
    """
    primary, secondary, options, bounds, costs = parse_mcc(text)
    if bounds or costs is not None:
        lines = _content_lines(split_lines(_as_text(text)))
        lineno, line, _ = next(lines)
        if not bounds:
            lineno, line, _ = next((n, x, w) for n, x, w in lines if "|" in " ".join(w))
        raise DLXFormatError("bounds or costs (DLX3, DLX5) need parse_mcc", lineno, line)
    return primary, secondary, options


def _item_line(lineno: int, line: str) -> tuple[list[str], list[str],
                                                 dict[str, tuple[int, int]]]:
    """The items of the item line, and the bounds of those written with them."""
    primary: list[str] = []
    secondary: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    target = primary
    kind: dict[str, str] = {}
    tokens: list[tuple[str, tuple[int, int] | None]] = []
    for word in _WORD.findall(line):
        if word.startswith("|"):  # the separator, perhaps with the next item glued on
            tokens.append(("|", None))
            word = word[1:]
        bounded = _BOUND.fullmatch(word)
        if bounded:
            low, high, name = bounded.groups()
            tokens.append((name, (int(low if low is not None else high), int(high))))
        else:
            tokens += [(t, None) for t in _WORD.findall(word.replace("|", " | "))]
    for token, bound in tokens:
        if token == "|":
            if target is secondary:
                raise DLXFormatError("the item line contains '|' twice", lineno, line)
            target = secondary
            continue
        if not token or "|" in token:
            raise DLXFormatError(f"bad item name {token!r} after its bounds", lineno, line)
        if ":" in token:
            raise DLXFormatError(f"illegal ':' in item name {token!r}", lineno, line)
        if token in kind:
            raise DLXFormatError(f"item {token!r} is named twice", lineno, line)
        kind[token] = "primary" if target is primary else "secondary"
        target.append(token)
        if bound is not None:
            u, v = bound
            if target is secondary:
                raise DLXFormatError(f"bounds on secondary item {token!r}", lineno, line)
            if v == 0:
                raise DLXFormatError(f"upper bound of item {token!r} is zero", lineno, line)
            if u > v:
                raise DLXFormatError(f"lower bound {u} of item {token!r} exceeds upper "
                                     f"bound {v}", lineno, line)
            if v > MAX_BOUND:
                raise DLXFormatError(f"upper bound {v} of item {token!r} is beyond "
                                     f"{MAX_BOUND}", lineno, line)
            if (u, v) != (1, 1):
                bounds[token] = (u, v)
    return primary, secondary, bounds


def parse_mcc(text: str | bytes | bytearray) -> tuple[
        list[str], list[str], list[list[Hashable]], dict[str, tuple[int, int]],
        list[int] | None]:
    """[`parse_dlx`][], with DLX3's item bounds and DLX5's option costs: (primary
    items, secondary items, options, bounds of the items that are not 1..1, the options'
    costs or None when no option has one). Malformed bounds or costs raise
    [`DLXFormatError`][] naming the line: a bound on a secondary item, an upper bound
    of 0, a lower bound above the upper one, a cost with a character that is not a
    decimal digit."""
    all_lines = split_lines(_as_text(text))
    lines = _content_lines(all_lines)
    header = next(lines, None)
    if header is None:
        raise DLXFormatError("no item line", len(all_lines) or 1, "")
    lineno, line, _ = header
    primary, secondary, bounds = _item_line(lineno, line)
    kind = dict.fromkeys(primary, "primary") | dict.fromkeys(secondary, "secondary")
    options: list[list[Hashable]] = []
    costs: list[int] = []
    for lineno, line, words in lines:
        option: list[Hashable] = []
        seen: set[str] = set()
        cost = 0
        for token in words:
            name, colon, color = token.partition(":")
            if token.startswith("|") and _COST.fullmatch(token):
                cost += int(token[1:])
                if cost >= MAX_TOTAL_COST:
                    raise DLXFormatError(f"cost {cost} is beyond {MAX_TOTAL_COST - 1}",
                                         lineno, line)
                continue
            if "|" in token:
                raise DLXFormatError(f"illegal '|' in {token!r}", lineno, line)
            if name not in kind:
                raise DLXFormatError(f"unknown item {name!r}", lineno, line)
            if name in seen:
                raise DLXFormatError(f"item {name!r} appears twice in this option", lineno,
                                     line)
            seen.add(name)
            if colon:
                if not color:
                    raise DLXFormatError(f"empty color in {token!r}", lineno, line)
                if kind[name] == "primary":
                    raise DLXFormatError(f"color on primary item {name!r}", lineno, line)
                option.append(Colored(name, color))
            else:
                option.append(name)
        options.append(option)
        costs.append(cost)
    return primary, secondary, options, bounds, costs if any(costs) else None


def option_lines(text: str | bytes | bytearray) -> list[tuple[int, str]]:
    """For each option that [`parse_dlx`][] reads from ``text``, in order: its 1-based
    line number and its names joined by single spaces (for messages and for echoing the
    option). ``text`` is assumed to parse."""
    lines = _content_lines(split_lines(_as_text(text)))
    return [(lineno, " ".join(words)) for lineno, _, words in lines][1:]


class _Words:
    """The written form of each item (or color) of a problem: its ``str``, checked to be
    writable and to read back as this value and no other."""

    def __init__(self, what: str, forbidden: str) -> None:
        self.what = what
        self.forbidden = forbidden
        self._word: dict[Hashable, str] = {}
        self._value: dict[str, Hashable] = {}

    def __call__(self, value: Hashable) -> str:
        """The word for ``value``; equal values (``1`` and ``1.0``) share the first one's,
        as they share one item or color in a problem."""
        word = self._word.get(value)
        if word is not None:
            return word
        word = str(value)
        bad = "it is empty" if not word else next(
            (f"it contains {ch!r}" for ch in word if ch in BLANKS or ch in self.forbidden),
            None)
        if bad:
            raise ArgumentError(f"{self.what} {value!r} cannot be written in DLX format: {bad}")
        other = self._value.setdefault(word, value)
        if other is not value:
            raise ArgumentError(
                f"{self.what} {other!r} and {self.what} {value!r} cannot be written in DLX "
                f"format: they would both be written as {word!r} and read back as one")
        self._word[value] = word
        return word


def format_dlx(
    primary: Sequence[Hashable],
    secondary: Sequence[Hashable],
    options: Sequence[Sequence[Hashable]],
    bounds: Mapping[Hashable, tuple[int, int]] | None = None,
    costs: Sequence[int] | None = None,
) -> str:
    """Write a problem in Knuth's format; item names and colors are written with ``str``.
    Items with ``bounds`` other than 1..1 are written ``u:v|name`` (``v|name`` when
    ``u == v``), as DLX3 reads them; a nonzero cost as a last word ``|n``, as DLX5 does.

    What is written reads back (with [`parse_dlx`][]) as the same problem, names and
    colors turned into their ``str``. Otherwise this raises [`dlx.ArgumentError`][]
    (a ``ValueError``) naming the culprit: no primary item; an empty name or color, or one
    with an ASCII blank or ``|`` (or ``:`` in an item name); a first item starting with a
    byte-order mark; two items or two colors with the same ``str``; an item listed twice,
    or an option entry that is not an item.
    """
    if not primary:
        raise ArgumentError("a problem with no primary item cannot be written in DLX format: "
                            "its item line would begin with '|' and read as a comment")
    items, colors = _Words("item", "|:"), _Words("color", "|")
    names = {x: items(x) for x in (*primary, *secondary)}
    if len(names) < len(primary) + len(secondary):
        twice = next(x for x in (*primary, *secondary)
                     if [*primary, *secondary].count(x) > 1)
        raise ArgumentError(f"item {twice!r} is listed twice")
    bounds = bounds or {}

    def bounded(x: Hashable) -> str:
        u, v = bounds.get(x, (1, 1))
        return names[x] if (u, v) == (1, 1) else f"{v}|{names[x]}" if u == v \
            else f"{u}:{v}|{names[x]}"

    head = " ".join(bounded(x) for x in primary)
    if head.startswith(BOM):
        raise ArgumentError(f"item {primary[0]!r} cannot be written first in DLX format: "
                            "its leading U+FEFF would be read as a byte-order mark")
    if secondary:
        head += " | " + " ".join(names[x] for x in secondary)

    def name(k: int, item: Hashable) -> str:
        try:
            return names[item]
        except (KeyError, TypeError):
            raise ArgumentError(f"option {k} names {item!r}, which is not an item") from None

    out = [head]
    for k, option in enumerate(options):
        out.append(" ".join(f"{name(k, e.item)}:{colors(e.color)}" if isinstance(e, Colored)
                            else name(k, e) for e in option)
                   + (f" |{costs[k]}" if costs is not None and costs[k] else ""))
    return "\n".join(out) + "\n"
