"""Every module, object and file the documentation names exists (issue 41).

Docstrings and comments of ``dlx/`` and ``sudoku/``, and the pages ``docs/*.md`` and
``README.md``, name the code three ways; each must resolve in this tree:

* a cross-reference with a dotted target, ``[`dlx.X`][]``, ``[dlx.X][]``, ``[text][dlx.X]``
  (``sudoku.X`` likewise): the target imports, or getattr-resolves from the longest module
  that imports;
* a dotted name written as code or prose, ``dlx.kernels.algorithm_m`` or ``sudoku.hard.head_start``:
  the same;
* a section of a page cited by its title, ``docs/design.md, "Budgets"`` or
  ``(design.md, "The portfolio")``: a heading of that page contains the title;
* a path in the repository, ``dlx/kernel.py``, ``tests/dlx/test_batch.py`` (a test named
  after ``::`` is found in its file): the file or directory exists.

The references are read afresh from the text every run (``SOURCES``, ``PATTERNS``): nothing
is listed by hand but what is not a reference (``NOT_REFERENCES``). So after modules or tests
move, rerunning this file lists every page and docstring that still names the old place.
``test_docs.py`` checks, on the built site, that the cross-references of documented objects
resolve as mkdocstrings resolves them (scoped names included); this file checks every
dotted name and path, documented or not, without building the site.
"""

from __future__ import annotations

import ast
import importlib
import io
import itertools
import re
import tokenize
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dlx", "sudoku")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""The prose pages; ``docs/api/*.md`` and ``docs/bench/*.md`` are made of ``:::`` directives
and generated tables, which ``mkdocs build --strict`` checks."""

CROSS_REF = re.compile(r"\[(`[^`\]]+`|[^\]\[]+)\]\[([\w.]*)\]")
"""``[`x.y`][]`` (the target is the text) or ``[text][x.y]``."""
DOTTED = re.compile(r"(?<![\w./-])((?:dlx|sudoku)(?:\.[A-Za-z_]\w*)+)")
"""``dlx.kernels.algorithm_m``, ``sudoku.hard.head_start``: a package and at least one attribute."""
PATH = re.compile(r"(?<![\w./-])((?:dlx|sudoku|tests|benchmarks|docs|\.ci)/[\w./-]*[\w/])")
"""A path in the repository, from one of its top-level directories."""
SECTION = re.compile(r"(?:docs/)?(\w+)\.md`{0,2},\s+\"([^\"]+)\"")
"""A page's section cited by title: ``docs/design.md``, "The portfolio"."""

NOT_REFERENCES = {
    # a pattern of names, not a name: the dispatcher's own words
    "dlx.X", "sudoku.X",
    # a module's name as a pattern: dlx/run.py's recipe for adding a kind
    "dlx/kinds/NAME.py",
}
"""Strings the patterns match that name nothing by design."""


@dataclass(frozen=True)
class Reference:
    """One name found in the text: where (file and line), what, and its kind."""

    where: str
    line: int
    kind: str  # "name" (a dotted name, cross-reference or not), "path" or "section"
    target: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.kind} {self.target}"


def _texts_of_module(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of each docstring and comment of a Python file."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                yield body[0].lineno, body[0].value.value
        # attribute docstrings: a string right after an assignment (``X = 1`` then """...""")
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for before, after in itertools.pairwise(stmts):
                if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(after, ast.Expr) \
                        and isinstance(after.value, ast.Constant) \
                        and isinstance(after.value.value, str):
                    yield after.lineno, after.value.value
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def _lines(start: int, text: str) -> Iterator[tuple[int, str]]:
    for offset, line in enumerate(text.splitlines()):
        yield start + offset, line


FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _texts_of_page(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of a Markdown page, its fenced blocks blanked (their code runs in
    ``test_docs.py``; a path there is an example's file, ``puzzles.txt``)."""
    text = path.read_text(encoding="utf-8")
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    yield 1, text


def sources() -> Iterator[tuple[str, int, str]]:
    """(file, first line, text) of every docstring, comment and page to check."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, text in _texts_of_module(path):
                yield path.relative_to(ROOT).as_posix(), line, text
    for page in PAGES:
        for line, text in _texts_of_page(page):
            yield page.relative_to(ROOT).as_posix(), line, text


def references() -> list[Reference]:
    """Every reference of ``sources()``, each (file, line, target) once."""
    found: set[Reference] = set()
    for where, start, text in sources():
        for line, content in _lines(start, text):
            for m in CROSS_REF.finditer(content):
                target = m.group(2) or m.group(1).strip("`")
                if target.split(".")[0] in PACKAGES and "." in target:
                    found.add(Reference(where, line, "name", target))
            for m in DOTTED.finditer(content):
                found.add(Reference(where, line, "name", m.group(1)))
            for m in PATH.finditer(content):
                found.add(Reference(where, line, "path", m.group(1)))
        for m in SECTION.finditer(text):  # the whole text: a title may wrap
            line = start + text.count("\n", 0, m.start())
            title = " ".join(m.group(2).split())
            found.add(Reference(where, line, "section", f"docs/{m.group(1)}.md#{title}"))
    return sorted(found, key=lambda r: (r.where, r.line, r.target))


@cache
def resolves(name: str) -> bool:
    """Whether a dotted name imports, or getattr-resolves from the longest module of it
    that imports. A name past an object's class that the class declares but only an
    instance holds (a dataclass or named-tuple field, a slot, an annotated attribute, an
    attribute its methods set on ``self``) resolves too."""
    if name in NOT_REFERENCES:
        return True
    parts = name.split(".")
    obj = None
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        break
    else:
        return False
    for part in rest:
        with warnings.catch_warnings():  # a deprecated name (dlx.map_ordered) still resolves
            warnings.simplefilter("ignore")
            found = hasattr(obj, part)
            if found:
                obj = getattr(obj, part)
        if not found:
            return _declared(obj, part)
    return True


def _declared(obj: object, name: str) -> bool:
    """Whether a class (or a property's class) says its instances have ``name``."""
    if isinstance(obj, property) and obj.fget is not None:
        hints = getattr(obj.fget, "__annotations__", {})
        obj = hints.get("return")
        if isinstance(obj, str) or obj is None:
            return False
    if not isinstance(obj, type):
        return False
    for klass in obj.__mro__:
        if name in getattr(klass, "__annotations__", {}) or name in getattr(klass, "__slots__", ()):
            return True
        if name in getattr(klass, "_fields", ()):
            return True
        file = getattr(importlib.import_module(klass.__module__), "__file__", None)
        if not file or not file.endswith(".py"):
            continue
        source = Path(file).read_text(encoding="utf-8")
        if re.search(rf"\bself\.{re.escape(name)}\s*(?::[^=]*)?=", source):
            return True
    return False


def exists(path: str) -> bool:
    """Whether a repository path exists (a pytest node id's file, a glob's directory)."""
    if path in NOT_REFERENCES:
        return True
    path = path.split("::")[0].rstrip("/")
    if any(c in path for c in "*?["):
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


@cache
def headings(page: str) -> tuple[str, ...]:
    path = ROOT / page
    if not path.exists():
        return ()
    return tuple(m.group(1).strip() for m in re.finditer(r"^#+ (.*)$", path.read_text(
        encoding="utf-8"), re.M))


def section_exists(target: str) -> bool:
    """Whether a page has a heading that contains the cited title."""
    page, _, title = target.partition("#")
    return any(title.replace("`", "") in heading.replace("`", "") for heading in headings(page))


def broken(refs: list[Reference]) -> list[Reference]:
    check = {"name": resolves, "path": exists, "section": section_exists}
    return [r for r in refs if not check[r.kind](r.target)]


def test_the_checker_finds_references() -> None:
    """The patterns see the three kinds in every source: not a test that passes by
    finding nothing."""
    refs = references()
    kinds = {(r.where.split("/")[0], r.kind) for r in refs}
    assert {("dlx", "name"), ("dlx", "path"), ("sudoku", "name"), ("docs", "name"),
            ("docs", "path"), ("README.md", "name")} <= kinds, kinds
    assert len(refs) > 500


@pytest.mark.parametrize("text, targets", [
    ("[`dlx.kernel_cdcl`][] and [the backends][dlx.backends]",
     {("name", "dlx.kernel_cdcl"), ("name", "dlx.backends")}),
    ("held by tests in ``tests/test_kernel_x.py``.", {("path", "tests/test_kernel_x.py")}),
    ('``docs/design.md``, "The\n  portfolio")', {("section", "docs/design.md#The portfolio")}),
    ("`dlx/kernel_bits.py`, tests/dlx/test_batch.py::test_one and sudoku.hard.HARD.",
     {("path", "dlx/kernel_bits.py"), ("path", "tests/dlx/test_batch.py"),
      ("name", "sudoku.hard.HARD")}),
])
def test_the_patterns(text: str, targets: set[tuple[str, str]]) -> None:
    seen = {("name", m.group(2) or m.group(1).strip("`")) for m in CROSS_REF.finditer(text)}
    seen |= {("name", m.group(1)) for m in DOTTED.finditer(text)}
    seen |= {("path", m.group(1)) for m in PATH.finditer(text)}
    seen |= {("section", f"docs/{m.group(1)}.md#{' '.join(m.group(2).split())}")
             for m in SECTION.finditer(text)}
    assert targets <= seen


@pytest.mark.parametrize("kind, target", [
    ("name", "dlx.kernel_cdcl"), ("name", "dlx.backends"), ("path", "tests/test_kernel_x.py"),
    ("name", "dlx.Search.no_such_method"), ("path", "dlx/no_such_module.py"),
    ("section", "docs/design.md#No such section"), ("section", "docs/nowhere.md#Layers"),
])
def test_stale_references_fail(kind: str, target: str) -> None:
    """The names issue 41 found stale, which docstrings cited, do not resolve."""
    assert broken([Reference("x", 1, kind, target)])


@pytest.mark.parametrize("kind, target", [
    ("name", "dlx.ExactCover.count"), ("name", "dlx.compiled.NUMBA"),
    ("name", "dlx.search.SearchStats.status"), ("name", "dlx.state.FIELDS"),
    ("path", "dlx/kernels/cdcl/search.py"), ("path", "tests/dlx/test_batch.py::test_x"),
    ("section", "docs/design.md#Layers"),
])
def test_live_references_resolve(kind: str, target: str) -> None:
    assert not broken([Reference("x", 1, kind, target)])


def test_every_reference_resolves() -> None:
    """Every dotted name, path and cited section of a docstring, comment or page exists
    in this tree."""
    bad = broken(references())
    assert not bad, f"{len(bad)} references to nothing:\n" + "\n".join(map(str, bad))
