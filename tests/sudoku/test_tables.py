"""The per-layout tables (``sudoku.tables``): each one checked against a brute-force
derivation from the unit list on every kind of layout; every consumer reads the shared
tables (the same objects, or encodings built from them); and no other module walks a
layout's units to build a table of its own."""

from __future__ import annotations

import ast
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

import sudoku
from sudoku import Layout, candidates, codec, reduction
from sudoku.bytecheck import line_plan
from sudoku.candidates import Candidates
from sudoku.grid import _unit_pairs, _unit_sums, geometry
from sudoku.layout import region_owners
from sudoku.tables import CACHE_SIZE, Tables, tables

ROOT = Path(__file__).resolve().parents[2]
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
"""A solved 9x9, to give the killer cages below totals that a grid reaches."""


def _killer(block: tuple[int, int], groups: list[list[int]]) -> Layout:
    """A killer on boxes of ``block`` whose cages are ``groups``, each totalled from a
    solved grid of the side (SOLVED for 9x9; else its first row repeated, shifted)."""
    side = block[0] * block[1]
    if side == 9:
        values = [int(ch) for ch in SOLVED]
    else:
        rows, cols = block
        values = [((r % rows) * cols + r // rows + c) % side + 1 for r in range(side)
                  for c in range(side)]
    return Layout.killer([(g, sum(values[c] for c in g)) for g in groups], block)


LAYOUTS = {
    **{f"square{n}": Layout.square(n) for n in (2, 3, 4, 5)},
    "rect2x3": Layout.rect(2, 3),
    "rect3x4": Layout.rect(3, 4),
    "latin5": Layout.latin(5),
    "x": Layout.x(),
    "x4": Layout.x(2),
    "windoku": Layout.windoku(),
    "jigsaw4": Layout.jigsaw("aabbaabbcdddcccd"),
    "jigsaw9": Layout.jigsaw("aabbbccccabbabbcccaaaaabbccddddeeeeedddfffeeegdffhfffegdgfh"
                             "iiiiggghhihiiggghhhhii"),  # random_jigsaw(9, seed=5)
    "killer9": _killer((3, 3), [[0, 1], [2, 11], [3, 4, 5], [9, 10], [18, 19, 27],
                                [40], [72, 73, 74, 75, 76, 77, 78, 79, 80], [30, 31, 39]]),
    "killer6": _killer((2, 3), [[0, 1, 2], [3, 9], [4, 5], [35]]),
}


def _classic_checked() -> None:
    """The rect killer's totals come from a valid grid (the rows' formula above)."""
    rows, cols, side = 2, 3, 6
    values = [((r % rows) * cols + r // rows + c) % side + 1 for r in range(side)
              for c in range(side)]
    grid = geometry(side, None, Layout.rect(rows, cols))
    assert sudoku.grid.is_solution(grid, [0] * 36, values)


def test_the_test_layouts_are_what_they_say() -> None:
    _classic_checked()
    assert LAYOUTS["jigsaw9"].side == 9 and region_owners(LAYOUTS["jigsaw9"]) is not None
    assert sudoku.grid.is_solution(geometry(9, None, LAYOUTS["killer9"]), [0] * 81,
                                   [int(ch) for ch in SOLVED])


# ----- brute force: each table from its definition ---------------------------------------


def _kind(label: str) -> str:
    return label.split()[0]


def _brute(layout: Layout) -> dict[str, object]:
    """Every table, from the definitions, by scanning all units for each cell."""
    side, area = layout.side, layout.side ** 2
    units = [set(u) for u in layout.units]
    cages = [set(cells) for cells, _ in layout.cages]
    cell_units = tuple(tuple(u for u, s in enumerate(units) if c in s) for c in range(area))
    cage_of = tuple(next((i for i, s in enumerate(cages) if c in s), -1) for c in range(area))
    peers = tuple(tuple(sorted({d for g in units + cages if c in g for d in g} - {c}))
                  for c in range(area))
    meets = tuple(tuple((v, frozenset(units[u] & units[v])) for v in range(len(units))
                        if v != u and len(units[u] & units[v]) >= 2)
                  for u in range(len(units)))
    by_kind: dict[str, list[int]] = {}
    for u, label in enumerate(layout.labels):
        by_kind.setdefault(_kind(label), []).append(u)
    partitions = tuple(tuple(us) for us in by_kind.values() if len(us) == side
                       and all(not units[a] & units[b] for a in us for b in us if a < b))
    crossings = tuple((p, q) for p, a in enumerate(partitions) for q, b in enumerate(partitions)
                      if p != q and all(len(units[x] & units[y]) == 1 for x in a for y in b))
    rest = []
    seen = {tuple(sorted(s)) for s in cages}
    for unit in units if cages else ():
        inside = [(s, total) for s, (_, total) in zip(cages, layout.cages) if s <= unit]
        cells = tuple(sorted(unit - set().union(*(s for s, _ in inside))))
        total = side * (side + 1) // 2 - sum(t for _, t in inside)
        if 0 < len(cells) < side and cells not in seen:
            seen.add(cells)
            rest.append((cells, total))
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    letters = {"row": "r", "column": "c", "box": "b", "diagonal": "d", "window": "w",
               "region": "g"}
    names = [f"p{digits[c // side]}{digits[c % side]}" for c in range(area)]
    for u, label in enumerate(layout.labels):
        index = sum(_kind(x) == _kind(label) for x in layout.labels[:u])
        names += [f"{letters[_kind(label)]}{digits[index]}{digits[v]}" for v in range(side)]
    cage_names = [n for i in range(1, len(cages) + 1)
                  for n in [f"cage{i}"] + [f"cage{i}v{d}" for d in range(1, side + 1)]]
    sum_names = [n for i in range(1, len(rest) + 1)
                 for n in [f"sum{i}"] + [f"sum{i}v{d}" for d in range(1, side + 1)]]
    regions = [u for u, label in enumerate(layout.labels) if _kind(label) == "region"]
    owner = tuple(next((u for u in regions if c in units[u]), -1) for c in range(area))
    return {
        "cell_units": cell_units,
        "unit_of": tuple(sum(2**u for u in us) for us in cell_units),
        "cage_of": cage_of,
        "groups": tuple(us + ((len(units) + cage_of[c],) if cage_of[c] >= 0 else ())
                        for c, us in enumerate(cell_units)),
        "group_labels": layout.labels + tuple(f"cage {i + 1}" for i in range(len(cages))),
        "peers": peers,
        "peer_mask": tuple(sum(2**p for p in ps) for ps in peers),
        "kinds": tuple(_kind(label) for label in layout.labels),
        "unit_sets": tuple(frozenset(s) for s in units),
        "unit_family": frozenset(frozenset(s) for s in units),
        "meets": meets,
        "partitions": partitions,
        "crossings": crossings,
        "region_owner": None if -1 in owner else owner,
        "remainders": tuple(rest),
        "sums": layout.cages + tuple(rest),
        "item_names": tuple(names),
        "cage_names": tuple(cage_names),
        "names": tuple(names + cage_names + sum_names),
    }


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_tables_match_the_brute_force_derivation(name: str) -> None:
    layout = LAYOUTS[name]
    t = tables(layout)
    for table, expected in _brute(layout).items():
        assert getattr(t, table) == expected, (name, table)
    assert (t.side, t.cells, t.units, t.labels, t.cages) == (
        layout.side, layout.cells, layout.units, layout.labels, layout.cages)
    assert t.full == 2**layout.side - 1
    assert t.unit_array.tolist() == [list(u) for u in layout.units]
    cells, starts, totals = t.cage_arrays
    assert [tuple(cells[a:b]) for a, b in pairwise(starts.tolist())] == [
        cs for cs, _ in layout.cages]
    assert totals.tolist() == [total for _, total in layout.cages]
    for array in (t.unit_array, *t.cage_arrays):
        assert array.dtype == np.int64 and not array.flags.writeable


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_layouts_own_methods_read_the_tables(name: str) -> None:
    layout = LAYOUTS[name]
    t = tables(layout)
    assert layout.cell_units() == list(t.cell_units)
    assert layout.cell_cages() == list(t.cage_of)
    assert layout.item_names() == list(t.item_names)
    assert layout.cage_names() == list(t.cage_names)
    owner = region_owners(layout)
    assert owner == (None if t.region_owner is None else list(t.region_owner))


def test_one_bounded_cache_keyed_by_layout() -> None:
    a = tables(Layout.square(3))
    assert tables(Layout.rect(3, 3)) is a and isinstance(a, Tables)
    assert a.peers is a.peers  # built once, then kept
    assert tables.cache_info().maxsize == CACHE_SIZE
    assert candidates.tables is tables and candidates.Tables is Tables


# ----- every consumer reads the shared tables --------------------------------------------


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_consumers_read_the_shared_tables(name: str) -> None:
    layout = LAYOUTS[name]
    t = tables(layout)
    # Both caches are bounded: a template may outlive the tables' entry it was built from
    # (after other tests' layouts), so it is built afresh here.
    reduction._template.cache_clear()
    tpl = reduction._template(layout)
    assert tpl.tables is t and tpl.cell_units is t.groups and tpl.labels is t.group_labels
    assert tpl.names == list(t.names) and reduction.remainders(layout) is t.remainders
    assert Candidates(layout, [0] * layout.cells).tables is t
    rules = codec.rules(layout)
    head, n_units = codec.HEAD, len(layout.units)
    units = rules[head : head + n_units * layout.side]
    assert (units == t.unit_array.reshape(-1)).all()
    cells, starts, totals = t.cage_arrays
    at = head + units.size
    assert rules[at : at + len(starts)].tolist() == starts.tolist()
    at += len(starts)
    assert rules[at : at + len(totals)].tolist() == totals.tolist()
    at += len(totals)
    assert rules[at : at + len(cells)].tolist() == cells.tolist()
    gather, offsets = _unit_pairs(layout)
    assert list(gather(range(layout.cells))) == t.unit_array.reshape(-1).tolist()
    assert offsets == tuple(u * (layout.side + 1) for u, us in enumerate(t.units) for _ in us)
    table, _ = _unit_sums(layout)
    width = layout.side + 1 + layout.side.bit_length()
    assert [row[1] >> 1 for row in table] == [sum(1 << width * u for u in us)
                                              for us in t.cell_units]
    classic = t.unit_family == tables(Layout.square(3)).unit_family and not layout.cages
    assert (line_plan(layout) is not None) == classic


def test_a_reordered_classic_grid_keeps_the_line_plan() -> None:
    """``bytecheck`` tells a classic 9x9 by its family of units, whatever their order."""
    square = Layout.square(3)
    shuffled = Layout(9, square.units[::-1], square.labels[::-1], square.block)
    assert line_plan(shuffled) == line_plan(square) is not None
    assert line_plan(Layout.x()) is None and line_plan(LAYOUTS["jigsaw9"]) is None


# ----- architecture: one place walks the units --------------------------------------------


TABLES_READERS = {"t", "tables", "self.tables", "g.tables"}
"""How a module other than ``tables.py`` and ``layout.py`` may reach a unit list: through
the shared [`Tables`][] (a name ``t``, a call ``tables(...)``, an attribute ``.tables``)."""
OTHER_UNITS = {("sudoku/techniques.py", "self"), ("sudoku/draw.py", "step")}
"""``units`` that are not a layout's: a [`sudoku.Step`][]'s pattern units (indices)."""
LAYOUT_CACHES = {
    ("sudoku/tables.py", "tables"),  # the one cache of derived tables
    ("sudoku/reduction.py", "_template"),  # the exact cover's CSR rows and problem
    ("sudoku/reduction.py", "_grid_search"),  # the compiled search of a layout
    ("sudoku/codec.py", "rules"),  # codec's one rules array
    ("sudoku/bytecheck.py", "line_plan"),  # bytecheck's 9x9 line plan
    ("sudoku/grid.py", "_unit_sums"),  # is_solution's windows of bits per cell
    ("sudoku/grid.py", "_unit_pairs"),  # is_solution's (unit, value) pairs
    ("sudoku/layout.py", "_x"), ("sudoku/layout.py", "_killer"),  # constructors
}
"""The caches keyed by a layout, each a module's own *encoding* of the rules, built from
the shared tables (the constructors' build layouts)."""


def _modules() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(ROOT)), ast.parse(p.read_text()))
            for p in sorted((ROOT / "sudoku").rglob("*.py"))]


def test_only_the_tables_module_walks_a_layouts_units() -> None:
    """Outside ``tables.py`` (and ``layout.py``, which builds and checks the unit list),
    a unit list is read only through the shared tables, and the layout's own table
    methods (``cell_units()``... copies, for users) are not called."""
    seen, wrong = set(), []
    for path, tree in _modules():
        if path in ("sudoku/tables.py", "sudoku/layout.py"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "units":
                reader = ast.unparse(node.value)
                reader = "tables" if reader.startswith("tables(") else reader
                seen.add(reader)
                if reader not in TABLES_READERS and (path, reader) not in OTHER_UNITS:
                    wrong.append(f"{path}:{node.lineno} reads {reader}.units")
        for node in ast.walk(tree):  # the layout's table methods, called
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("cell_units", "cell_cages", "item_names",
                                           "cage_names"):
                wrong.append(f"{path}:{node.lineno} calls .{node.func.attr}()")
    assert not wrong, wrong
    assert {"t", "g.tables"} <= seen  # the walk sees the readers at all


def test_the_caches_keyed_by_layout_are_the_known_encodings() -> None:
    """Every ``lru_cache`` over a layout (a parameter annotated ``Layout`` or ``Rules``)
    is in [`LAYOUT_CACHES`][]: a new per-layout table goes into ``sudoku.tables``, or is
    listed here as a module's encoding built from it."""
    found = set()
    for path, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not any(
                    "lru_cache" in ast.unparse(d) for d in node.decorator_list):
                continue
            kinds = {ast.unparse(a.annotation) for a in node.args.args if a.annotation}
            if kinds & {"Layout", "Rules"}:
                found.add((path, node.name))
    assert found == LAYOUT_CACHES
