"""The distribution as a user gets it: one version everywhere, ``--version``, a license,
and an sdist whose own tests pass (built and run only in the ``slow`` suite)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import tomllib

import dlx
import sudoku
from dlx.cli import main as dlx_main
from sudoku.cli import main as sudoku_main

ROOT = Path(__file__).resolve().parents[1]


def test_one_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+([.-]?\w+)?", dlx.__version__)
    assert sudoku.__version__ == dlx.__version__
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" in meta["dynamic"] and "version" not in meta


@pytest.mark.parametrize("main", [dlx_main, sudoku_main], ids=["dlx", "sudoku"])
@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_option(main, flag: str, capsys) -> None:
    assert main([flag]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith(f"{dlx.__version__} (dancing-cover)")


def test_license_matches_metadata() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert meta["classifiers"] and meta["urls"] and meta["keywords"]


@pytest.mark.slow
def test_sdist_is_complete_and_its_tests_pass(tmp_path: Path) -> None:
    """Build the sdist, unpack it away from the repository, install it in a fresh virtual
    environment (with the system's packages, so that only the build tools are fetched) and
    run a few of its own test files there: the files they import (oracle, shipped data)
    must all be in it, and the known counts must run, not skip."""
    pytest.importorskip("build")
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("not a source tree")
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(dist), str(ROOT)],
                   check=True, capture_output=True)  # isolated: setuptools >= 77 from pyproject
    (archive,) = dist.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        tar.extractall(tmp_path / "src", filter="data")
    top = names[0].split("/")[0]
    for needed in ("LICENSE", "tests/helpers/oracle.py", "tests/data", "benchmarks/solvers",
                   "sudoku/data/named.txt", "docs/index.md", "mkdocs.yml"):
        assert any(n == f"{top}/{needed}" or n.startswith(f"{top}/{needed}/") for n in names), \
            needed
    src = tmp_path / "src" / top
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", str(src)],
                   check=True, capture_output=True)
    done = subprocess.run(
        [python, "-m", "pytest", "-q", "-x", "-rs", "-p", "no:randomly", "-p", "no:cacheprovider",
         "tests/dlx/test_dlx_known.py", "tests/dlx/test_problems.py", "tests/test_packaging.py",
         "-k", "not sdist", "-m", "not slow"],
        cwd=src, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    # the known counts run on the shipped data; only comparisons with large public files skip
    assert not any("test_dlx_known" in line for line in skipped), done.stdout[-3000:]
    assert len(skipped) <= 8, done.stdout[-3000:]
    where = subprocess.run([python, "-c", "import dlx; print(dlx.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout
    assert str(venv) in where  # the installed copy, not the repository's
    shutil.rmtree(tmp_path / "src")
