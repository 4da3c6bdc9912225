"""Every variant set of ``../shared/data/sudoku_variants``: a sample of each file read with
``sudoku.formats.read_variant``, solved on both backends, equal to the published solution,
accepted by the layout's checker, and unique (``count_solutions(limit=2) == 1``).

The kind and box shape of a file come from its name, as SOURCES.md gives them:
``x_*``, ``windoku_*``, ``jigsaw_*``, ``killer_<source>_<R>x<C>_*`` (3x3 boxes when no
shape is named) and ``rect_<R>x<C>_*``. Skips cleanly when the data is absent.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sudoku
from sudoku.formats import read_variant
from sudoku.grid import is_solution, parse_string
from tests.helpers.backends import AVAILABLE

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "sudoku_variants"
SAMPLE = 8
FILES = sorted(p.name for p in DATA.glob("*.txt")) if DATA.is_dir() else []


def kind_of(name: str) -> tuple[str, tuple[int, int] | None]:
    """The variant and box shape of a data file, from its name."""
    variant = name.split("_")[0]
    shape = re.search(r"_(\d+)x(\d+)_\d+x\d+", name) or re.search(r"^rect_(\d+)x(\d+)_", name)
    block = (int(shape[1]), int(shape[2])) if shape else None
    if variant == "killer" and block is None:
        block = (3, 3)
    return variant, block


def test_every_set_is_named_here():
    if not FILES:
        pytest.skip(f"{DATA} is absent")
    kinds = {kind_of(name)[0] for name in FILES}
    assert kinds == {"x", "windoku", "jigsaw", "killer", "rect"}
    assert kind_of("killer_janko_2x3_6x6.txt") == ("killer", (2, 3))
    assert kind_of("rect_2x3_6x6_sudoq.txt") == ("rect", (2, 3))


@pytest.mark.parametrize("name", FILES or [pytest.param("", marks=pytest.mark.skip(
    reason="the shared variant data is absent"))])
def test_a_sample_of_every_set(name: str) -> None:
    variant, block = kind_of(name)
    lines = (DATA / name).read_text().splitlines()[:SAMPLE]
    answers = (DATA / "solutions" / name).read_text().splitlines()[:SAMPLE]
    for k, (line, answer) in enumerate(zip(lines, answers)):
        layout, givens = read_variant(line, variant, block=block)
        for backend in AVAILABLE:
            got = sudoku.solve_string(givens, layout=layout, backend=backend)
            assert got == answer, (name, k, backend)
        geo, values = parse_string(givens, layout=layout)
        assert is_solution(geo, values, parse_string(answer, layout=layout)[1])
        if k < 3:
            assert sudoku.count_solutions(givens, 2, layout=layout) == 1
