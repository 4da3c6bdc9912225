"""First contact (issue 43): what a new user meets first says what it should, briefly.

The install lines of the README and the site's home page work from a clone; a README block
that starts with its imports runs alone; the tutorial's sections are numbered as its
opening counts them; the benchmark pages say when, where, on what commit and under what
load they were measured; reprs are one short line; ``help()`` lists the keyword
arguments; ``sudoku.is_solution`` takes what ``solve`` takes.
"""

from __future__ import annotations

import doctest
import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import dlx
import sudoku
from dlx.problems import queens
from sudoku import Layout

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def blocks(path: Path) -> list[tuple[str, str, int]]:
    text = path.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 2)
            for m in FENCE.finditer(text)]


# ----- installing from a clone -----------------------------------------------------------------

INSTALL = re.compile(r"^pip install (.*)$", re.M)


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_first_install_line_installs_the_clone(page: str) -> None:
    """The first ``pip install`` of the page installs this clone (``.``), not the name on
    PyPI, where the distribution is not; the PyPI line appears only as "once published"."""
    path = ROOT / page
    shell = [code for language, code, _ in blocks(path) if language == "sh"]
    first = next(m.group(1) for code in shell for m in INSTALL.finditer(code))
    assert re.fullmatch(r"(-e )?'\.\[fast\]'", first.split("#")[0].strip()), first
    text = path.read_text(encoding="utf-8")
    for m in re.finditer(r"pip install '?dancing-cover", text):
        before = text[max(0, m.start() - 120):m.start()].replace("\n", " ")
        assert "once published" in before.lower(), f"{page}: {before}"
    for _, code, line in blocks(path):
        assert "dancing-cover[" not in code, f"{page}:{line}: a PyPI install in a block"


@pytest.mark.slow
def test_readme_install_lines_work_in_a_fresh_clone(tmp_path: Path) -> None:
    """The README's install block, word for word, in a copy of this clone's files: a fresh
    venv gets the package and numba (pip's index needed: skipped without it)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    clone = tmp_path / "clone"
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            target = clone / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    _, block, _ = next(b for b in blocks(README) if b[0] == "sh")
    assert block.startswith("python -m venv .venv")
    script = block.replace("python -m venv", f"{sys.executable} -m venv", 1)
    done = subprocess.run(["bash", "-e", "-c", script + "\npython -c 'import dlx, sudoku, numba;"
                           " print(dlx.__file__)'"], cwd=clone, capture_output=True,
                          text=True, timeout=900)
    if done.returncode and re.search(r"(Could not find a version|No matching distribution|"
                                     r"Failed to establish|Network is unreachable)",
                                     done.stdout + done.stderr):
        if "dancing-cover" in done.stdout + done.stderr:
            pytest.fail(done.stdout[-2000:] + done.stderr[-2000:])
        pytest.skip("no package index here")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert str(clone) in done.stdout  # the clone's own files, installed in place (-e)


# ----- the README's blocks, the tutorial's numbering --------------------------------------------


def _run_alone(language: str, code: str, where: str, tmp_path: Path) -> None:
    namespace: dict = {"__name__": "__alone__"}
    if language == "python":
        exec(compile(code, where, "exec"), namespace)
        return
    test = doctest.DocTestParser().get_doctest(code, namespace, where, where, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    assert runner.run(test, out=report.append).failed == 0, "".join(report)


def _starts_with_import(code: str) -> bool:
    first = next(line for line in code.splitlines() if line.strip())
    return bool(re.match(r"(>>> )?(import|from) \w", first))


ALONE = [(language, code, line) for language, code, line in blocks(README)
         if language in ("python", "pycon") and _starts_with_import(code)]


@pytest.mark.parametrize("language, code, line", ALONE, ids=[f"README.md:{b[2]}" for b in ALONE])
def test_readme_block_that_imports_runs_alone(language: str, code: str, line: int,
                                              tmp_path: Path, monkeypatch) -> None:
    """A README block that starts with its imports needs nothing from an earlier block: a
    reader may copy any section's example alone."""
    monkeypatch.chdir(tmp_path)
    _run_alone(language, code, f"README.md:{line}", tmp_path)


def test_readme_generate_block_starts_with_its_imports() -> None:
    (block,) = [code for _, code, _ in blocks(README) if "sudoku.generate(9" in code]
    assert _starts_with_import(block) and "r.rating" in block
    assert "('expert', 4.5, 'w-wing')" in block  # its numbers are doctest output, checked


NUMBERS = {"Two": 2, "Three": 3, "Four": 4, "Five": 5, "Six": 6, "Seven": 7, "Eight": 8,
           "Nine": 9}


def test_tutorial_sections_are_numbered_once_each_as_its_opening_counts() -> None:
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", text, re.M)]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    count = re.search(r"^(\w+) short walks", text, re.M)
    assert count and NUMBERS[count.group(1)] == len(numbers)


def test_readme_states_the_quick_runs_measured_cost() -> None:
    """The README gives the quick run's cost as measured: its commit, the machine's load,
    the wall time and the CPU time, which is at most 3 minutes."""
    text = " ".join(README.read_text(encoding="utf-8").split())
    found = re.search(r"Measured at commit (\w{7,}) .*?load average ([\d.]+) before and "
                      r"([\d.]+) after.*?: ([\d,]+) tests in (\d+) min (\d+) s, (\d+) min "
                      r"(\d+) s of CPU", text)
    assert found, "the README's quick-run figure is missing"
    cpu = 60 * int(found.group(7)) + int(found.group(8))
    assert cpu <= 180
    conftest = (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")
    assert f"{found.group(7)} min {found.group(8)} s of CPU" in " ".join(conftest.split())


# ----- the benchmark pages ----------------------------------------------------------------------

PROVENANCE = re.compile(
    r"^Measured on (?P<date>\d{1,2} \w+ \d{4}, \d\d:\d\d UTC), at commit (?P<commit>\w{7,})"
    r".*?, on (?P<machine>[^;]+); (?P<load>load average [\d.]+ before the run, [\d.]+ after it"
    r"|load not recorded)\.", re.M)


@pytest.mark.parametrize("page", ["results.md", "knuth.md"])
def test_benchmark_pages_say_when_where_and_under_what_load(page: str) -> None:
    text = (ROOT / "docs" / "bench" / page).read_text(encoding="utf-8")
    found = PROVENANCE.search(text)
    assert found, text[:600]
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", text)  # no raw ISO timestamp
    assert "python docs/bench/make_results.py" in text  # how to measure it again


def test_benchmark_provenance_reads_a_runs_json() -> None:
    # a script, not a module of a package: loaded from its file
    spec = importlib.util.spec_from_file_location("make_results",
                                                  ROOT / "docs" / "bench" / "make_results.py")
    make_results = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(make_results)  # type: ignore[union-attr]
    data = {"datetime": "2026-11-23T09:11:04.893146+00:00",
            "commit_info": {"id": "c1f3f59ec7aa", "dirty": True},
            "machine_info": {"cpu": {"brand_raw": "AMD EPYC 7B13", "count": 2},
                             "python_implementation": "CPython", "python_version": "3.11.7"}}
    line = make_results.provenance(data, (0.52, 1.9))
    found = PROVENANCE.search(line)
    assert found, line
    assert found.group("date") == "23 November 2026, 09:11 UTC"
    assert found.group("commit") == "c1f3f59ec7"
    assert "uncommitted" in line and "AMD EPYC 7B13, 2 CPUs" in line
    assert "load average 0.52 before the run, 1.90 after it" in line
    assert "load not recorded" in make_results.provenance(data, None)


@pytest.mark.slow
def test_the_benchmark_page_is_made_by_one_command(tmp_path: Path) -> None:
    """``python docs/bench/make_results.py`` runs the suite (here: two benchmarks, one
    round) and writes the page, its first line saying when, where and under what load."""
    pytest.importorskip("pytest_benchmark")
    done = subprocess.run([sys.executable, "docs/bench/make_results.py", "--out",
                           str(tmp_path), "-k", "queens10 and dlx", "--benchmark-min-rounds=1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    text = (tmp_path / "results.md").read_text(encoding="utf-8")
    found = PROVENANCE.search(text)
    assert found and found.group("load").startswith("load average"), text[:600]
    assert "| dlx-python |" in text or "| dlx-numba |" in text


# ----- reprs and help() -------------------------------------------------------------------------


def test_picture_repr_is_one_short_line() -> None:
    problem = queens(8)
    picture = dlx.draw.draw_queens(problem, problem.first())
    assert repr(picture) == (f"<Picture 340x340 '8 queens on a 8x8 board': "
                             f"{len(picture.svg):,} bytes of SVG>")
    board = sudoku.draw_board(HARD)
    assert len(repr(board)) < 80 and "<svg" not in repr(board)
    assert str(board) == board.svg  # the document itself, for who asks for it


def test_search_repr_is_short_and_rounded() -> None:
    search = queens(8).solutions(limit=2, backend="python")
    assert repr(search) == "<Search RUNNING: 0 solutions, 0 nodes, 0 s, python>"
    list(search)
    text = repr(search)
    assert re.fullmatch(r"<Search LIMIT: 2 solutions, 89 nodes, [\d.e-]+ s, python>", text)
    assert len(text) < 80
    stats = repr(search.stats)
    seconds = re.search(r"seconds=([\d.e+-]+),", stats)
    assert seconds and len(seconds.group(1)) <= 10, stats  # 4 significant digits at most
    assert float(seconds.group(1)) == float(f"{search.stats.seconds:.4g}")
    assert "status=LIMIT" in stats and "parts" not in stats and len(stats) < 140
    assert "answered_by='plain'" in repr(dlx.SearchStats(answered_by="plain"))


def test_run_progress_repr_is_rounded() -> None:
    progress = dlx.RunProgress(done=3, parts=64, solutions=10, nodes=12345,
                               seconds=1.23456789, left=20.987654)
    assert repr(progress) == ("RunProgress(done=3, parts=64, solutions=10, nodes=12345, "
                              "seconds=1.23, left=21.0)")


def test_help_lists_the_keyword_arguments() -> None:
    """``help(ExactCover.count)`` shows each keyword, not ``**options``."""
    for method in (dlx.ExactCover.count, dlx.ExactCover.solutions, dlx.ExactCover.first):
        parameters = inspect.signature(method).parameters
        assert not any(p.kind is p.VAR_KEYWORD for p in parameters.values()), method
        assert {"max_nodes", "timeout", "backend", "strategy"} <= set(parameters), method


# ----- sudoku.is_solution -----------------------------------------------------------------------


def test_is_solution_takes_what_solve_takes() -> None:
    answer = sudoku.solve_string(HARD)
    assert sudoku.is_solution(HARD, answer)
    assert not sudoku.is_solution(HARD, "5" + answer[1:])  # a given changed
    assert not sudoku.is_solution(HARD, answer[:80] + ".")  # not full
    assert not sudoku.is_solution(HARD, "1234" * 4)  # another size
    assert not sudoku.is_solution(HARD, answer[:80] + "Z")  # no symbol of the grid
    rows = [list(HARD[r * 9:r * 9 + 9]) for r in range(9)]
    grid = np.array([[int(c) for c in answer[r * 9:r * 9 + 9]] for r in range(9)])
    assert sudoku.is_solution(rows, grid) and sudoku.is_solution(rows, answer)
    assert rows[0][0] == "4" and rows[0][1] == "."  # only read
    x = sudoku.solve_string("." * 81, layout=Layout.x())
    assert sudoku.is_solution("." * 81, x, layout=Layout.x())
    assert not sudoku.is_solution("." * 81, answer, layout=Layout.x())  # diagonals broken
    with pytest.raises(sudoku.ShapeError):
        sudoku.is_solution("123", answer)  # the puzzle is read as solve reads it
    with pytest.raises(sudoku.ArgumentError):
        sudoku.is_solution(HARD, 5)
    geo, values = sudoku.parse_string(HARD)  # the modules' checker takes cell values
    assert sudoku.grid.is_solution(geo, values, sudoku.parse_string(answer)[1])
    with pytest.raises(sudoku.ArgumentError, match=r"sudoku\.grid\.is_solution"):
        sudoku.is_solution(geo, values)
    assert list(inspect.signature(sudoku.is_solution).parameters) == [
        "puzzle", "solution", "alphabet", "layout"]


# ----- the compile notice, in a pipe ------------------------------------------------------------


@pytest.mark.slow
def test_first_compile_is_announced_in_a_pipe(tmp_path: Path) -> None:
    """``sudoku -f FILE`` with its output in a pipe (no progress line) and a fresh copy of
    the packages (no numba cache beside them) says once on stderr that it compiles, also
    when two worker processes compile (``-j 2``); the next run loads the kernels from the
    cache and says nothing of it."""
    pytest.importorskip("numba")
    import shutil

    from dlx.progress import COMPILING

    for package in ("dlx", "sudoku"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(f"{HARD}\n" * 300)
    env = {**__import__("os").environ, "PYTHONPATH": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    command = [sys.executable, "-m", "sudoku", "-f", str(puzzles), "--backend", "numba"]
    first = subprocess.run([*command, "-j", "2"], env=env, cwd=tmp_path,
                           capture_output=True, text=True, timeout=900)
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stdout.count("\n") == 300  # the answers, one line each: a pipe
    assert first.stderr.count(COMPILING) == 1, first.stderr[-2000:]
    second = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True,
                            timeout=900)
    assert second.returncode == 0 and COMPILING not in second.stderr, second.stderr[-2000:]
