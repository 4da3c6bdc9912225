"""The small data shipped in ``tests/data``: still what ``make_data.py`` writes, and, when
the public set is present, the same problems and the same known counts as it has."""

from __future__ import annotations

import warnings

import pytest

from dlx import ExactCover, NoPrimaryItemWarning
from tests.data import make_data
from tests.helpers.datasets import SHARED, SHIPPED

SHIPPED_EC = SHIPPED / "exact_cover"
SHARED_EC = SHARED / "exact_cover"


def _rows(path) -> dict[str, str]:
    """File name -> (solutions, nodes, updates) cells of a SOURCES.md's first table."""
    rows = {}
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and cells[0].endswith(".dlx`") and len(cells) >= 7:
            rows[cells[0].strip("`")] = (cells[3], cells[5], cells[6])
    return rows


def _problem(text: str) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover.from_dlx(text)


def test_shipped_files_are_what_the_builders_write() -> None:
    files = make_data.files()
    assert sorted(files) == sorted(p.name for p in SHIPPED_EC.glob("*.dlx"))
    for name, text in files.items():
        assert (SHIPPED_EC / name).read_text(encoding="utf-8") == text, name
    assert sorted(_rows(SHIPPED_EC / "SOURCES.md")) == sorted(files)


@pytest.mark.parametrize("name", sorted(p.name for p in SHIPPED_EC.glob("*.dlx")))
def test_shipped_files_equal_the_public_set(name: str) -> None:
    if not (SHARED_EC / name).is_file():
        pytest.skip(f"{SHARED_EC} is absent")
    mine, theirs = (_problem((d / name).read_text()) for d in (SHIPPED_EC, SHARED_EC))
    assert (mine.primary, mine.secondary) == (theirs.primary, theirs.secondary)
    assert list(mine.options()) == list(theirs.options())
    assert _rows(SHIPPED_EC / "SOURCES.md")[name] == _rows(SHARED_EC / "SOURCES.md")[name]
