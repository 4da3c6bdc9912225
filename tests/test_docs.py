"""Every code example in README.md and docs/ runs, and says what it shows.

Per Markdown file, in document order and in one namespace, in a fresh directory:
```` ```python ```` blocks are executed, ```` ```pycon ```` blocks are run as doctests
(their outputs compared), and in ```` ```sh ```` blocks each line that runs one of our
commands (``python -m dlx ...``, ``python -m sudoku ...``) is run and must exit with 0.
Other shell lines (``pip install``, ``mkdocs build``, ``python -m pytest``) are what the CI
itself does, so they are not run again here. Blocks without a language are pictures.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import re
import subprocess
import sys
import zlib
from dataclasses import dataclass, field
from html import unescape
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


SLOW_PAGES = {"commands.md"}
"""Pages whose examples take 3 s or more (many runs of the commands): the slow run's."""


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=pytest.mark.slow) if p.name in SLOW_PAGES else p for p in PAGES],
    ids=[str(p.relative_to(ROOT)) for p in PAGES])
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


# ----- the site, built as the README says (issue 43) ------------------------------------------


@dataclass
class Site:
    """One ``mkdocs build --strict`` of the site: its log and its pages."""

    returncode: int
    log: str
    root: Path
    pages: dict[str, str] = field(repr=False)

    def api(self) -> dict[str, str]:
        return {name: html for name, html in self.pages.items() if name.startswith("api/")}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The site built once for this module's tests, as the README and CI build it
    (``mkdocs build --strict``, no ``-q``: the warnings are in the log; ``-W default``:
    Python's warnings too, as the ``mkdocs`` script shows them)."""
    pytest.importorskip("mkdocstrings_handlers.python")
    root = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-W", "default", "-m", "mkdocs", "build",
                           "--strict", "-d", str(root)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env=ENV)
    pages = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
             for p in root.rglob("*.html")}
    return Site(done.returncode, done.stdout + done.stderr, root, pages)


PYTHON_WARNING = re.compile(r"(Deprecation|Future|Runtime|User)Warning")
"""A Python warning raised while the API pages import the packages (logged as INFO)."""


@pytest.mark.slow
def test_site_builds_strict_without_a_warning(site: Site) -> None:
    """The README's ``mkdocs build --strict`` exits 0 and warns of nothing (an
    unresolved cross-reference, a missing page, a docstring the handler cannot read)."""
    warnings = [line for line in site.log.splitlines() if re.match(r"(WARNING|ERROR)\b", line)
                or PYTHON_WARNING.search(line)]
    assert site.returncode == 0 and not warnings, "\n".join(warnings) or site.log[-2000:]
    assert "Documentation built" in site.log
    api = site.pages["api/dlx/index.html"]
    assert api.count('class="autorefs autorefs-internal"') > 100
    assert 'href="#dlx.Colored"' in api  # ExactCover's "an entry may be Colored"
    assert "solve_batch(\n" in re.sub(r"<[^>]+>", "", api)  # a long signature, wrapped
    assert "Make, rate and explain puzzles" in site.pages["tutorial/index.html"]
    assert "<h1" in site.pages["bench/results/index.html"]


def test_ci_and_readme_build_the_site_as_the_test_does() -> None:
    """CI builds with ``--strict`` and without ``-q``/``--quiet`` (a quiet build hides the
    warnings it fails on), as the README says to."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (build,) = [line for line in ci.splitlines() if "mkdocs build" in line]
    assert "--strict" in build and not re.search(r"\s(-q|--quiet)\b", build)
    assert "grep" in build and "DeprecationWarning" not in build  # a pattern, not a word
    assert "(Deprecation|Future|Runtime|User)Warning" in build
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "mkdocs build --strict" in readme


PROSE = re.compile(r"<(pre|code)\b.*?</\1>", re.S)
RAW_REF = re.compile(r"\]\[[\w.]*\]")


def _text(html: str) -> str:
    """The page's words outside code, tags dropped."""
    return unescape(re.sub(r"<[^>]+>", "", PROSE.sub(" ", html)))


@pytest.mark.slow
def test_no_page_shows_a_raw_role_or_cross_reference(site: Site) -> None:
    """No built page shows a Sphinx role or an unresolved ``[`x.y`][]`` as text."""
    for name, html in site.pages.items():
        assert not SPHINX_ROLE.search(html), f"{name} shows a raw role"
        raw = re.findall(r"\[<code>[^<]*</code>\]\[[\w.]*\]", html)
        raw += RAW_REF.findall(_text(html))
        assert not raw, f"{name} shows raw cross-references: {raw[:5]}"


def _inventory(site: Site) -> set[str]:
    """The objects the site documents, from mkdocstrings' inventory (``objects.inv``)."""
    data = (site.root / "objects.inv").read_bytes()
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode()
    return {line.split()[0] for line in body.splitlines() if line.strip()}


CROSS_REF = re.compile(r"\[(`[^`\]]+`|[^\]\[]+)\]\[([\w.]*)\]")
"""A docstring's cross-reference: ``[`x.y`][]`` (the target is the text) or
``[text][x.y]``."""


@pytest.mark.slow
def test_every_docstring_cross_reference_names_a_documented_object(site: Site) -> None:
    """Every cross-reference in the docstring of an object the site documents (each
    object of ``objects.inv``) resolves, as mkdocstrings resolves it (scoped: a bare
    name is looked up from the object outwards), to an object the site documents, or to
    the module or class it is written in. Internal names are written as code
    (```dlx.registry.handover```), which renders as code and never raw."""
    griffe = pytest.importorskip("griffe")
    documented = _inventory(site)
    loader = griffe.GriffeLoader(search_paths=[str(ROOT)])
    packages = {name: loader.load(name) for name in ("dlx", "sudoku")}
    loader.resolve_aliases(implicit=True, external=False)

    def find(path: str):
        head, _, rest = path.partition(".")
        try:
            return packages[head][rest] if rest else packages[head]
        except (KeyError, griffe.AliasResolutionError, ValueError):
            return None

    known = set(documented)
    for page in PAGES:  # the anchors the pages set for a name: [](){#sudoku.explain}
        known.update(re.findall(r"\[\]\(\)\{#([\w.]+)\}", page.read_text(encoding="utf-8")))
    for path in documented:  # an object is also known by the path it was defined at
        obj = find(path)
        if obj is not None:
            with contextlib.suppress(Exception):
                known.add(obj.canonical_path)
            with contextlib.suppress(Exception):
                known.add(obj.final_target.path if obj.is_alias else obj.path)
    bad, seen = [], 0
    for path in sorted(documented):
        obj = find(path)
        if obj is None or not path.startswith(("dlx", "sudoku")):
            continue
        with contextlib.suppress(Exception):
            obj = obj.final_target if obj.is_alias else obj
        if obj.docstring is None:
            continue
        for m in CROSS_REF.finditer(obj.docstring.value):
            seen += 1
            target = m.group(2) or m.group(1).strip("`")
            first, _, rest = target.partition(".")
            try:
                full = obj.resolve(first)
            except Exception:
                full = first
            full = f"{full}.{rest}" if rest else full
            if full not in known:
                bad.append(f"{obj.relative_filepath}:{obj.docstring.lineno} ({path}): "
                           f"{m.group(0)} -> {full}")
    assert seen > 300
    assert not bad, "cross-references to undocumented objects:\n" + "\n".join(sorted(set(bad)))


@pytest.mark.slow
def test_docstring_examples_render_as_code(site: Site) -> None:
    """The ``>>>`` examples of docstrings are code blocks on the API pages, not block
    quotes with the lines run together."""
    for name, html in site.api().items():
        assert "&gt;&gt;&gt;" not in PROSE.sub("", html), f"{name}: an example outside code"
        assert "<blockquote" not in html, name
    problems = site.pages["api/dlx-problems/index.html"]
    examples = re.findall(r"<pre[^>]*><code[^>]*>(.*?)</code></pre>", problems, re.S)
    text = [unescape(re.sub(r"<[^>]+>", "", e)) for e in examples]
    assert any(">>> sorted(shape(\".#/##\"))\n[(0, 1), (1, 0), (1, 1)]" in e for e in text)
    assert any("print(render_queens(problem, problem.first()))\n.Q..\n" in e for e in text)
    sudoku_page = site.pages["api/sudoku/index.html"]
    for example in (">>> steps = sudoku.explain(puzzle)", ">>> import sudoku"):
        assert example in unescape(re.sub(r"<[^>]+>", "", sudoku_page))


@pytest.mark.slow
def test_sudoku_api_documents_the_functions_not_their_modules(site: Site) -> None:
    """``sudoku.generate``, ``rate``, ``explain`` are functions on the page (with their
    signatures), introduced by their modules' text; the modules' internals are not."""
    html = site.pages["api/sudoku/index.html"]
    ids = set(re.findall(r'id="(sudoku\.[\w.]+)"', html))
    for name in ("generate", "rate", "explain"):
        assert f"sudoku.{name}.{name}" in ids and f"sudoku.{name}" in ids, name
    for internal in ("sudoku.explain.solution_steps", "sudoku.explain.last_resort",
                     "sudoku.generate.layout_of", "sudoku.generate.random_grid",
                     "sudoku.rate.rate_values", "sudoku.draw.SHADE", "sudoku.errors.culprit"):
        assert internal not in ids, internal
    for name in ("generate", "rate", "explain"):  # headed by the public name, signed
        heading = re.search(rf'<h2 id="sudoku\.{name}\.{name}"[^>]*>\s*sudoku\.{name}\s*<',
                            html)
        assert heading, name
        assert f'<span class="nf">{name}</span><span class="p">(</span>' in \
            html[heading.end():heading.end() + 800], name


EXCEPTION = re.compile(r"\b(\w*(?:Error|Warning))\b")


@pytest.mark.slow
def test_api_prose_links_the_exceptions_it_names(site: Site) -> None:
    """In the API pages' prose every exception of ``dlx.errors`` and ``sudoku.errors`` that
    a docstring names is a link to its entry (the headings and signatures aside)."""
    import dlx.errors
    import sudoku.errors

    ours = {name for module in (dlx.errors, sudoku.errors) for name in dir(module)
            if isinstance(getattr(module, name), type)
            and issubclass(getattr(module, name), BaseException)}
    linked = 0
    for name, html in site.api().items():
        for paragraph in re.findall(r"<p>(.*?)</p>", html, re.S):
            linked += len(re.findall(r'href="[^"]*#(?:dlx|sudoku)\.errors\.\w+"', paragraph))
            bare = re.sub(r"<a\b[^>]*>.*?</a>", "", paragraph, flags=re.S)
            bare = re.sub(r"<code>.*?</code>", lambda m: m.group(0)
                          if EXCEPTION.search(m.group(0)) is None else "", bare)
            names = {n for n in EXCEPTION.findall(unescape(re.sub(r"<[^>]+>", "", bare)))
                     if n in ours}
            assert not names, f"{name}: unlinked {sorted(names)} in: {paragraph[:300]}"
    assert linked > 50


def test_doctest_fences_and_exception_links(tmp_path: Path) -> None:
    """The Griffe extension of the API pages (docs/griffe_doctests.py) on its own."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_doctests",
                                                  ROOT / "docs" / "griffe_doctests.py")
    if spec is None or spec.loader is None:
        pytest.fail("docs/griffe_doctests.py is missing")
    pytest.importorskip("griffe")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = ("Some text.\n>>> 1 + 1\n2\n\n>>> print('a')  # doctest: +ELLIPSIS\na\nMore.\n"
            "```python\n>>> not fenced again\n```\n  >>> indented\n  3\n")
    assert module.fence_doctests(text) == (
        "Some text.\n\n```pycon\n>>> 1 + 1\n2\n\n>>> print('a')\na\nMore.\n```\n\n"
        "```python\n>>> not fenced again\n```\n\n  ```pycon\n  >>> indented\n  3\n  ```\n")
    targets = module.EXCEPTIONS["sudoku"]
    linked = module.link_exceptions(
        "raises NoSolutionError or ``ArgumentError``; [`ShapeError`][] and dlx.ArgumentError;"
        " `x = ClashError`; SymbolError here", targets, own="SymbolError")
    assert linked == (
        "raises [NoSolutionError][sudoku.errors.NoSolutionError] or "
        "[``ArgumentError``][sudoku.errors.ArgumentError]; [`ShapeError`][] and "
        "[dlx.ArgumentError][dlx.errors.ArgumentError]; `x = ClashError`; SymbolError here")
