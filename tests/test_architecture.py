"""Architecture rules, held over the source itself: no import cycle in either package, the
layering of dlx's front door (problem -> run -> kinds -> request), ``sudoku`` importing only
``dlx.__all__`` names and ``dlx.command``, one state table and one status vocabulary for
the kernels, the calls' keyword arguments written once, a kind of search plugged in by one
module and one entry, and ``dir()`` showing the public names only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import dlx
from dlx import (
    ArgumentError,
    Status,
)
from dlx.kernels import codes
from dlx.problems import queens

ROOT = Path(__file__).resolve().parents[1]


def _assert_no_cycle(graph: dict[str, set[str]]) -> None:
    """Fails naming the first cycle of an import graph (module -> modules it imports)."""
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                raise AssertionError(f"import cycle: {' -> '.join([*path, m, d])}")
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def _module_name(path: Path) -> str:
    """The dotted name of a module file under ROOT (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path) -> list[tuple[str, list[str]]]:
    """Every import of ``path``, at any level (function bodies too), as (absolute module,
    names taken from it); relative imports resolved against the module's package."""
    name = _module_name(path)
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((a.name, []) for a in node.names)
    return found


def _import_graph(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (subpackages included; a package's ``__init__`` is the
    package) -> the modules of ``package`` it imports."""
    modules = {_module_name(p): p for p in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for m, path in modules.items():
        for module, names in _imported(path):
            targets = [module, *(f"{module}.{n}" for n in names)]
            graph[m] |= {t for t in targets if t in modules and t != m and t != package}
    return graph


def test_dlx_has_no_import_cycle():
    graph = _import_graph("dlx")
    assert graph["dlx.search"] and graph["dlx.problem"]  # the walk sees imports at all
    assert "dlx.kinds" in graph["dlx.kinds.plain"]  # ... relative ones in subpackages too
    _assert_no_cycle(graph)


def test_kinds_sit_between_the_request_and_the_front_door():
    """The layering of the front door: problem -> run -> kinds -> request, and no module
    below the front door reads the problem (``dlx.problem``)."""
    graph = _import_graph("dlx")
    assert {"dlx.run", "dlx.request"} <= graph["dlx.problem"]
    assert {f"dlx.kinds.{k}" for k in ("plain", "learning", "restarts", "distributed",
                                       "memo")} \
        <= graph["dlx.run"]
    for module, imported in graph.items():
        if module.startswith("dlx.kinds") or module in ("dlx.request", "dlx.run",
                                                         "dlx.distribute", "dlx.split",
                                                         "dlx.preprocess", "dlx.matrix"):
            assert "dlx.problem" not in imported, module
            assert "dlx.run" not in imported or module == "dlx.problem", module


def test_sudoku_imports_only_public_dlx_names():
    """The rule (dlx/command.py, docs/design.md): ``sudoku`` imports only names in
    ``dlx.__all__`` and the module ``dlx.command``."""
    paths = sorted((ROOT / "sudoku").rglob("*.py"))
    assert any(p.parent.name == "cli" for p in paths)  # the command's package is seen
    seen = set()
    for path in paths:
        for module, names in _imported(path):
            if module.split(".")[0] != "dlx":
                continue
            where = f"{path.relative_to(ROOT)} imports {module}"
            assert module in ("dlx", "dlx.command"), where
            seen.add(module)
            if module == "dlx":
                for name in names:
                    assert name in dlx.__all__, f"{where}.{name}"
    assert seen == {"dlx", "dlx.command"}  # the walk sees both kinds


def test_sudoku_has_no_import_cycle():
    modules = {_module_name(p): p for p in (ROOT / "sudoku").rglob("*.py")}
    graph = {m: set() for m in modules}
    for m, path in modules.items():
        for module, names in _imported(path):
            targets = [module, *(f"{module}.{n}" for n in names)]
            graph[m] |= {t for t in targets if t in modules and t != m and t != "sudoku"}
    assert graph["sudoku.cli.making"] >= {"sudoku.cli.solving", "sudoku.formats"}
    _assert_no_cycle(graph)


@pytest.mark.parametrize("name", ["own_process", "Progress", "open_executor"])
def test_command_plumbing_left_the_public_names(name):
    """They were public only for the sudoku command; old imports still work, warned."""
    import dlx.command

    assert name not in dlx.__all__ and name in dlx.command.__all__
    with pytest.warns(DeprecationWarning, match=f"dlx.{name} is no longer public"):
        moved = getattr(dlx, name)
    assert moved is getattr(dlx.command, name)
    with pytest.raises(AttributeError):
        dlx.no_such_name  # noqa: B018


def test_state_table_is_the_kernel_state():
    links = queens(5).links
    for f in dlx.state.FIELDS:
        a = getattr(links.arrays, f.name)
        assert a.dtype == np.dtype(f.dtype)
        assert len(a) == dlx.state.field_length(f.per, links.n_nodes, links.n_items,
                                                links.n_primary, links.n_options)
    names = [n for n, _ in dlx.state.REGISTERS]
    assert [getattr(dlx.state, f"REG_{n}") for n in names] == list(range(len(names)))


def test_statuses_are_one_vocabulary():
    assert (codes.COMPLETE, codes.LIMIT, codes.MAX_NODES, codes.CONFLICT, codes.INVALID) == (
        Status.COMPLETE, Status.LIMIT, Status.MAX_NODES, Status.CONFLICT, Status.INVALID)
    assert Status.COMPLETE.complete and Status.CONFLICT.complete
    assert Status.TIMEOUT.stopped and not Status.LIMIT.stopped


def test_one_list_of_options_for_the_four_calls():
    """The calls' keyword arguments are written once (request.SearchOptions and its
    extensions), each a field of the request; one that a call does not take is a
    TypeError, as Python's own. ``solution_set`` takes two of its own: ``method``, how
    the set is built (top-down or by the memoized search), and ``option_order``, the
    order of its store."""
    from dataclasses import fields

    from dlx.request import ACCEPTS, CountOptions, FirstOptions, SearchRequest, SetOptions

    assert set(CountOptions.__annotations__) | set(FirstOptions.__annotations__) | \
        set(SetOptions.__annotations__) == {f.name for f in fields(SearchRequest)} - \
        {"kind", "limit"}
    assert ACCEPTS["count"] - ACCEPTS["solutions"] == {"checkpoint", "max_zdd_nodes",
                                                       "max_memory", "parts"}
    assert ACCEPTS["solution_set"] - ACCEPTS["count"] == {"method", "option_order"}
    problem = queens(5)
    for call, bad in [(problem.solutions, "restarts"), (problem.count, "restarts"),
                      (problem.first, "checkpoint"), (problem.best, "parts"),
                      (problem.count, "nodes")]:
        with pytest.raises(TypeError, match=f"unexpected keyword argument '{bad}'"):
            call(**{bad: 1})


def test_a_kind_of_search_is_one_module_and_one_entry():
    """run() takes the kind a request names from the registry: a new kind plugs in
    without a change to ExactCover (here one that yields the forced options, once)."""
    from dlx import run as runner
    from dlx.kinds import Kind
    from dlx.request import SearchRequest
    from dlx.search import SearchStats

    class Echo:
        def __init__(self, problem, request, on_finish):
            self.stats = SearchStats(solutions=1, status=Status.COMPLETE)
            self._run = iter([sorted(request.forced)])

        def __iter__(self):
            return self

        def __next__(self):
            return next(self._run)

        def count(self):
            return sum(1 for _ in self._run)

    runner.register_kind(Kind("echo", Echo))
    try:
        search = runner.run(queens(4), SearchRequest("echo", forced=(3, 1)))
        assert list(search) == [[1, 3]]
        assert runner.count(queens(4), SearchRequest("echo", forced=(2,))) == (
            1, SearchStats(solutions=1, status=Status.COMPLETE))
    finally:
        del runner.KINDS["echo"]
    with pytest.raises(ArgumentError, match="no search of kind 'echo'"):
        runner.run(queens(4), SearchRequest("echo"))
    for kind in ("plain", "learning", "restarts", "distributed", "memo"):
        assert kind in runner.KINDS


def test_dir_lists_the_public_names_only():
    """Issue 30: ``dir(dlx)`` and ``dir(sudoku)`` are the public API (a module __dir__);
    the submodules stay importable and reachable."""
    import importlib

    import sudoku

    for module in (dlx, sudoku):
        assert dir(module) == sorted({*module.__all__, "__version__"})
    assert "problem" not in dir(dlx) and "kernel" not in dir(dlx)
    assert importlib.import_module("dlx.problems").queens(4).count() == 2
    assert dlx.problem.ExactCover is dlx.ExactCover  # an attribute still, once imported


BACKEND_MODULES = {"dlx.backend", "dlx.compiled", "dlx.pure", "dlx.cells", "dlx.jit",
                   "dlx.registry"}
"""The modules that make a backend's kernels (from their declarations, by the one recipe),
and the registry that names the backends."""

RECIPE = {("dlx.jit", "numba_namespace"), ("dlx.jit", "compile_entry"),
          ("dlx.kernels.declare", "namespace")}
"""The recipe's steps ([`dlx.kernels`][]): a module that imports one makes kernels."""

NOT_A_KERNEL = {"dlx.kinds.choose": "the plain search's first slice: 2,048 nodes on python"}
"""Modules that read a backend's name for something other than a kernel, and what."""


def _compares_a_name_with_a_backend(path: Path) -> list[int]:
    """Lines of ``path`` that compare an attribute ``name`` with a backend's name (the
    string ``"numba"`` or ``"python"``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any(isinstance(s, ast.Attribute) and s.attr == "name" for s in sides)
        literal = any(isinstance(s, ast.Constant) and s.value in ("numba", "python")
                      for s in sides)
        if named and literal:
            lines.append(node.lineno)
    return lines


def test_only_the_backends_pick_kernels():
    """Every kernel is a backend's (``Backend.kernel``, ``memo``, ``zdd``, ``frontier``,
    ``learning``): no module outside the backends makes one from its declaration, or
    chooses one by a backend's name (the frontier construction did both, apart from the
    Backend protocol)."""
    makers, by_name = [], []
    for path in sorted((ROOT / "dlx").rglob("*.py")):
        name = _module_name(path)
        if name in BACKEND_MODULES or name.startswith("dlx.kernels"):
            continue
        for module, names in _imported(path):
            makers += [f"{name} imports {module}.{n}" for n in names if (module, n) in RECIPE]
        if name not in NOT_A_KERNEL:
            by_name += [f"{name}:{line}" for line in _compares_a_name_with_a_backend(path)]
    assert not makers, makers
    assert not by_name, f"a backend's name compared outside the backends: {by_name}"
    choose = ROOT / "dlx" / "kinds" / "choose.py"
    assert _compares_a_name_with_a_backend(choose), "NOT_A_KERNEL lists a module that no " \
        "longer needs it"
