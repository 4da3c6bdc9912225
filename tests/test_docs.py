"""Every code example in README.md and docs/ runs, and says what it shows.

Per Markdown file, in document order and in one namespace, in a fresh directory:
```` ```python ```` blocks are executed, ```` ```pycon ```` blocks are run as doctests
(their outputs compared), and in ```` ```sh ```` blocks each line that runs one of our
commands (``python -m dlx ...``, ``python -m sudoku ...``) is run and must exit with 0.
Other shell lines (``pip install``, ``mkdocs build``, ``python -m pytest``) are what the CI
itself does, so they are not run again here. Blocks without a language are pictures.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
COMMAND = re.compile(r"^python -m (dlx|sudoku)\b")
LANGUAGES = {"", "python", "pycon", "sh", "text"}
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
"""The commands run this tree's packages, whatever the directory they run in."""


def blocks(path: Path) -> list[tuple[str, str, int]]:
    """(language, code, line number) of each fenced block of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 2)
            for m in FENCE.finditer(text)]


def test_pages_have_examples() -> None:
    found = {p.name: {lang for lang, _, _ in blocks(p)} for p in PAGES}
    assert {"pycon", "python", "sh"} <= found["README.md"]
    assert {"pycon", "python"} <= found["tutorial.md"]
    for page, languages in found.items():
        assert languages <= LANGUAGES, f"{page}: a block in an unknown language {languages}"


def needs_numba(code: str) -> bool:
    return 'backend="numba"' in code


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_examples_run(path: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    parser = doctest.DocTestParser()
    ran = 0
    for language, code, line in blocks(path):
        where = f"{path.name}:{line}"
        if needs_numba(code):
            pytest.importorskip("numba")
        if language == "python":
            exec(compile(code, where, "exec"), namespace)
        elif language == "pycon":
            test = parser.get_doctest(code, namespace, where, str(path), line - 1)
            report: list[str] = []
            result = runner.run(test, out=report.append, clear_globs=False)
            assert result.failed == 0, "".join(report)
            namespace.update(test.globs)  # a DocTest works on a copy of the namespace
        elif language == "sh":
            for command in code.splitlines():
                if COMMAND.match(command):
                    done = subprocess.run(sys.executable + command[len("python"):], shell=True,
                                          capture_output=True, text=True, timeout=300,
                                          env=ENV)
                    assert done.returncode == 0, f"{where}: {command}\n{done.stderr}"
                    ran += 1
            continue
        else:
            continue
        ran += 1
    if path.name in ("README.md", "tutorial.md"):
        assert ran > 5


# ----- the API reference renders (issue 30) ---------------------------------------------------

SPHINX_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`")
"""A Sphinx role, which mkdocstrings shows as raw text: docstrings write cross-references
as mkdocstrings does, ``[`Search`][]`` (resolved where the docstring is, scoped_crossrefs)
or ``[`shuffled`][dlx.links.Links.shuffled]``."""


def test_docstrings_use_no_sphinx_roles() -> None:
    import ast

    for path in sorted([*(ROOT / "dlx").rglob("*.py"), *(ROOT / "sudoku").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not SPHINX_ROLE.search(node.value), \
                    f"{path.relative_to(ROOT)}:{node.lineno}: a Sphinx role"


@pytest.mark.slow
def test_site_builds_strict_and_shows_no_raw_role(tmp_path: Path) -> None:
    """``mkdocs build --strict`` is clean (every cross-reference resolves), the API pages
    link their cross-references, and no built page shows a raw role."""
    pytest.importorskip("mkdocstrings_handlers.python")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                           str(site)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env=ENV)
    assert done.returncode == 0, done.stderr[-2000:]
    pages = {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8")
             for p in site.rglob("*.html")}
    for name, html in pages.items():
        assert not SPHINX_ROLE.search(html), f"{name} shows a raw role"
    api = pages["api/dlx/index.html"]
    assert api.count('class="autorefs autorefs-internal"') > 100
    assert 'href="#dlx.Colored"' in api  # ExactCover's "an entry may be Colored"
    assert "solve_batch(\n" in re.sub(r"<[^>]+>", "", api)  # a long signature, wrapped
    assert "Make, rate and explain puzzles" in pages["tutorial/index.html"]
    assert "<h1" in pages["bench/results/index.html"]
