"""Where the tests find their data: the public sets in ``../shared/data`` when present, else
the small files shipped in ``tests/data`` (written by ``tests/data/make_data.py``), so that
the known-count tests also run in a fresh clone or an unpacked sdist."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("DANCING_COVER_DATA")
              or Path(__file__).resolve().parents[3] / "shared" / "data")
"""The public data sets, beside the repository (absent in a clone or an sdist); the
environment variable ``DANCING_COVER_DATA`` names another folder (a missing one: test as a
fresh clone would)."""

SHIPPED = Path(__file__).resolve().parents[1] / "data"
"""The small data shipped with the tests."""


def data_dir(kind: str) -> Path:
    """``shared/data/<kind>`` if it exists, else ``tests/data/<kind>`` (which may not exist
    either: tests then skip as before)."""
    shared = SHARED / kind
    return shared if shared.is_dir() else SHIPPED / kind


def load_exact_cover(name: str):  # -> dlx.ExactCover
    """The problem of ``<data_dir("exact_cover")>/<name>.dlx`` (the test skips when the file
    is not here); Knuth's color example's option without a primary item is not warned of."""
    from dlx import ExactCover, NoPrimaryItemWarning

    path = data_dir("exact_cover") / f"{name}.dlx"
    if not path.exists():
        pytest.skip(f"{path} is not here")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover.from_dlx(path.read_text())
