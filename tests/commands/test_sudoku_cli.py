"""The ``sudoku`` command: one puzzle, files and stdin, failures per line, counting,
uniqueness, worker processes, progress and exit statuses."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from dlx import ExitCode
from dlx.progress import COMPILING
from sudoku.cli import Options, main, run_one
from sudoku.named import load_named

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LEET_ANSWER = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
INKALA = load_named()["inkala-2012"]
INKALA_ANSWER = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
HARD1 = load_named()["norvig-hard1"]  # many solutions
CLASH = "5.5" + "." * 78
SHORT = LEETCODE[:-1]
DATA = Path(__file__).resolve().parents[3] / "shared/data/sudoku"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """The command's exit code, stdout and stderr; stderr without the one-time compile
    notice, which depends on the machine's numba cache (a fresh clone in CI compiles the
    learning kernel in whichever test first runs it), not on the command."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err.replace(COMPILING + "\n", "")


@pytest.fixture
def mixed(tmp_path) -> Path:
    """A puzzle file with comments, blank lines and three bad lines among good ones."""
    path = tmp_path / "mixed.txt"
    path.write_text(
        "# a comment\n"
        f"{LEETCODE}\n"
        "\n"
        f"{CLASH}\n"  # line 4
        f"  {INKALA}  \n"
        f"{SHORT}\n"  # line 6
        "   # an indented comment\n"
        f"{LEETCODE.replace('.', '0')}\n"
        f"{LEETCODE[:9]}x{LEETCODE[10:]}\n"  # line 9
    )
    return path


def test_one_puzzle(capsys):
    assert run(capsys, LEETCODE) == (0, LEET_ANSWER + "\n", "")


def test_one_puzzle_pretty(capsys):
    code, out, _ = run(capsys, "--pretty", "--named", "inkala-2012")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 11
    assert lines[0].split() == ["8", "1", "2", "|", "7", "5", "3", "|", "6", "4", "9"]
    assert "".join(ch for ch in out if ch.isdigit()) == INKALA_ANSWER


def test_one_puzzle_fails(capsys):
    code, out, err = run(capsys, CLASH)
    assert code == 1 and out == ""
    assert err == "sudoku: ClashError: '5' appears twice in row 1: at r1c1 and r1c3\n"


MIXED_OUT = ["# a comment", LEET_ANSWER, "", "# ClashError", INKALA_ANSWER, "# ShapeError",
             "# an indented comment", LEET_ANSWER, "# SymbolError"]
"""The answers to ``mixed``: line k answers line k, a blank or comment line echoed."""


def test_file_with_bad_lines(capsys, mixed):
    code, out, err = run(capsys, "-f", str(mixed))
    assert code == ExitCode.USAGE  # malformed lines 6 and 9 outrank the clash on line 4
    assert out.splitlines() == MIXED_OUT  # one line per line
    errors = err.splitlines()
    assert len(errors) == 3
    assert errors[0].startswith("line 4: ClashError: '5' appears twice in row 1")
    assert errors[1].startswith("line 6: ShapeError: 80 cells")
    assert errors[2].startswith("line 9: SymbolError: bad symbol 'x' at r2c1")


def test_stdin(capsys, monkeypatch, mixed):
    monkeypatch.setattr(sys, "stdin", io.StringIO(mixed.read_text()))
    code, out, err = run(capsys)
    assert code == ExitCode.USAGE and out.splitlines() == MIXED_OUT and "line 9:" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO(LEETCODE + "\n"))
    assert run(capsys, "-f", "-") == (0, LEET_ANSWER + "\n", "")


def test_count(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{HARD1}\n{LEETCODE}\n{'.' * 16}\n{CLASH}\n")
    assert run(capsys, "--count", "--limit", "100", "-f", str(path)) == (0, "100\n1\n100\n0\n", "")
    assert run(capsys, "--count", "." * 16) == (0, "288\n", "")


def test_unique(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{HARD1}\n{LEETCODE}\n")
    code, out, err = run(capsys, "--unique", "-f", str(path))
    assert code == 1 and out == "# MultipleSolutionsError\n" + LEET_ANSWER + "\n"
    assert err.startswith("line 1: MultipleSolutionsError:")
    code, out, _ = run(capsys, "-f", str(path))  # without --unique, any solution will do
    assert code == 0 and len(out.splitlines()) == 2


def test_budgets(capsys):
    code, out, err = run(capsys, "--max-nodes", "5", INKALA)
    assert code == ExitCode.STOPPED and out == ""
    assert "SearchStoppedError" in err and "max_nodes" in err
    code, _, err = run(capsys, "--timeout", "1e-9", INKALA)
    assert code == ExitCode.STOPPED and "timeout" in err
    assert run(capsys, "--backend", "python", "--timeout", "30", INKALA)[:2] == (
        0, INKALA_ANSWER + "\n")


def test_alphabet(capsys):
    puzzle = "1..." + "..3." + ".4.." + "...2"
    custom = puzzle.translate(str.maketrans("1234", "ABCD"))
    assert run(capsys, "--alphabet", "ABCD", custom) == (0, "ACBDDBCABDACCADB\n", "")
    code, _, err = run(capsys, "--alphabet", "ABC", custom)
    assert code == ExitCode.USAGE and "error: --alphabet: alphabet has 3 symbols" in err
    code, _, err = run(capsys, "--alphabet", "ABCDEFGHI", custom)  # fits no 4x4 puzzle
    assert code == ExitCode.USAGE and "AlphabetError" in err


def test_jobs_same_output(capsys, tmp_path, mixed):
    path = tmp_path / "many.txt"
    top95 = DATA / "norvig_top95.txt"
    extra = top95.read_text() if top95.exists() else ""
    path.write_text(mixed.read_text() + extra)
    one = run(capsys, "-f", str(path), "-j", "1")
    two = run(capsys, "-f", str(path), "-j", "2")
    assert one == two
    assert one[0] == ExitCode.USAGE and "line 9:" in one[2]


def test_progress_and_summary(capsys, mixed):
    code, out, err = run(capsys, "--progress", "-f", str(mixed))
    assert code == ExitCode.USAGE and out.splitlines() == MIXED_OUT
    assert err.splitlines()[-1].startswith("6 puzzles: 3 solved, 3 failed in ")
    assert err.rstrip().endswith("puzzles/s)")
    code, _, err = run(capsys, "--progress", "--count", "-f", str(mixed))
    assert "4 counted, 2 failed" in err  # clashing givens count as 0 solutions


def test_pretty_file(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{LEETCODE}\n{CLASH}\n{INKALA}\n")
    code, out, _ = run(capsys, "--pretty", "-f", str(path))
    assert code == 1
    grids = out.split("\n\n")
    assert len(grids) == 3 and grids[1] == "# ClashError"
    assert all(len(g.strip().splitlines()) == 11 for g in (grids[0], grids[2]))
    assert run(capsys, "--pretty", "--count", "-f", str(path))[1] == "1\n0\n1\n"


@pytest.mark.parametrize("argv", [
    ["--limit", "3", LEETCODE],
    ["--count", "--unique", LEETCODE],
    ["-f", "x.txt", LEETCODE],
    ["--named", "inkala-2012", LEETCODE],
    ["--named", "no-such-puzzle"],
    ["-j", "-1", "-f", "x.txt"],
    ["--timeout", "nan", LEETCODE],
    ["--max-nodes", "many", LEETCODE],
    ["--backend", "fortran", LEETCODE],
    ["-f", "/no/such/file.txt"],
    ["--no-such-option"],
])
def test_usage_errors(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "sudoku: " in err


def test_timeout_zero_stops_as_in_dlx(capsys):
    """``--timeout 0`` is a budget that is spent at once (exit 3, the puzzle undecided),
    as ``dlx --timeout 0`` is; ``inf`` is no budget. It used to be a usage error here."""
    code, out, err = run(capsys, "--timeout", "0", LEETCODE)
    assert code == ExitCode.STOPPED and out == "" and "stopped by timeout" in err
    code, out, _ = run(capsys, "--timeout", "inf", LEETCODE)
    assert code == ExitCode.OK and out.strip().startswith("534678912")


def test_terminal_stdin_is_a_usage_error(capsys, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    code, _, err = run(capsys)
    assert code == 2 and "no puzzle given" in err


def test_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "--count" in out and "inkala-2012" in out


def test_run_one():
    assert run_one(Options(), LEETCODE) == (ExitCode.OK, LEET_ANSWER)
    assert run_one(Options(count=True, limit=3), HARD1) == (ExitCode.OK, "3")
    answer = run_one(Options(unique=True), HARD1)
    assert not answer.ok and answer.code == ExitCode.UNSOLVED
    assert answer.text.startswith("MultipleSolutionsError: ")


def test_python_dash_m():
    proc = subprocess.run([sys.executable, "-m", "sudoku", "--progress"], input=f"{LEETCODE}\n"
                          f"{CLASH}\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stdout == LEET_ANSWER + "\n# ClashError\n"
    assert "line 2: ClashError" in proc.stderr and "2 puzzles: 1 solved, 1 failed" in proc.stderr


def test_broken_pipe_is_quiet(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text((LEETCODE + "\n") * 2000)
    proc = subprocess.Popen([sys.executable, "-m", "sudoku", "-f", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().decode().strip() == LEET_ANSWER
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == ExitCode.OK  # a reader that stops early is no error
    assert err == ""


def test_strategy(capsys, tmp_path):
    """Every strategy gives the same answers; learn goes one puzzle at a time."""
    path = tmp_path / "p.txt"
    path.write_text(f"{LEETCODE}\n{INKALA}\n{CLASH}\n")
    outputs = {strategy: run(capsys, "--strategy", strategy, "-f", str(path))
               for strategy in ("plain", "learn", "auto")}
    assert outputs["plain"] == outputs["learn"] == outputs["auto"]
    code, out, err = outputs["learn"]
    assert code == 1 and out.splitlines() == [LEET_ANSWER, INKALA_ANSWER, "# ClashError"]
    assert err.startswith("line 3: ClashError")
    assert run(capsys, "--count", "--strategy", "learn", "--limit", "7", HARD1) == (0, "7\n", "")
    assert run(capsys, "--unique", "--strategy", "learn", HARD1)[0] == 1
    assert run(capsys, "--max-nodes", "3", "--strategy", "learn", INKALA)[0] == ExitCode.STOPPED
    for bad in ("clever", "race"):
        code, _, err = run(capsys, "--strategy", bad, LEETCODE)
        assert code == ExitCode.USAGE and "--strategy" in err


def test_strategy_hard_is_learn_with_a_note(capsys):
    """One vocabulary (issue 42): ``hard`` is now ``learn``; the old name still works, with
    a note on stderr, and --help lists the new names only."""
    code, out, err = run(capsys, "--strategy", "hard", LEETCODE)
    assert (code, out) == (0, LEET_ANSWER + "\n")
    assert err == "sudoku: --strategy hard is deprecated: it is now --strategy learn\n"
    code, out, _ = run(capsys, "--help")
    assert "{auto,plain,learn}" in out and "hard" not in out.partition("--strategy")[2][:300]


@pytest.mark.parametrize("flags", [["--difficulty", "expert"], ["--symmetry", "mirror"],
                                   ["--seed", "3"]])
def test_generator_flags_without_generate_are_usage_errors(capsys, flags):
    """R4 (issue 32): they were ignored when solving."""
    code, out, err = run(capsys, *flags, LEETCODE)
    assert (code, out) == (ExitCode.USAGE, "")
    assert "--difficulty, --symmetry and --seed go with --generate" in err


def test_budgets_reach_the_generator(capsys):
    """R4 (issue 32): --max-nodes bounds each of the generator's uniqueness checks (each
    check that runs out keeps its clue), as it bounds sudoku.generate's; --timeout bounds
    the making of each puzzle, as it bounds a sudoku.generate call (issue 42)."""
    import sudoku

    code, out, _ = run(capsys, "--generate", "1", "--seed", "5", "--max-nodes", "1")
    assert code == ExitCode.OK
    assert out == sudoku.generate(9, seed=5, max_nodes=1) + "\n"
    assert out != sudoku.generate(9, seed=5) + "\n"
    code, out, err = run(capsys, "--generate", "1", "--seed", "5", "--timeout", "1e-6")
    assert (code, out) == (ExitCode.STOPPED, "") and "SearchStoppedError" in err
    code, out, _ = run(capsys, "--generate", "2", "--seed", "5", "--timeout", "60")
    assert code == ExitCode.OK
    assert out == sudoku.generate(9, seed=5) + "\n" + sudoku.generate(9, seed=6) + "\n"
    code, _, err = run(capsys, "--rate", LEETCODE, "--max-nodes", "5")
    assert code == ExitCode.USAGE and "--max-nodes and --timeout go with" in err


def _dies(task, progress=None):
    """A worker's task that kills its process on the chunk of two LEETCODEs (out of memory,
    say): every time, or (with DIES_ONCE naming a file) only the first time."""
    import os

    from sudoku.cli.solving import run_chunk

    if isinstance(task, tuple) and task[1] == [LEETCODE] * 2:
        once = os.environ.get("DIES_ONCE")
        if once is None or not os.path.exists(once):
            if once is not None:
                open(once, "w").close()
            os._exit(9)
    return task if isinstance(task, list) else run_chunk(*task, progress=progress)


@pytest.mark.parametrize("once", [False, True])
def test_a_worker_that_dies(capsys, monkeypatch, tmp_path, once):
    """R10 (issue 32): a -j worker process that dies was a WorkerError traceback. Its
    chunk is tried again on a new worker; a chunk that kills every worker it is given
    stops the run with one line and exit 3."""
    import os

    import sudoku.cli.solving

    if once:
        monkeypatch.setenv("DIES_ONCE", str(tmp_path / "died"))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(sudoku.cli.solving, "CHUNK", 2)
    monkeypatch.setattr(sudoku.cli.solving, "run_task", _dies)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join([INKALA] * 4 + [LEETCODE] * 2)))
    code, out, err = run(capsys, "-j", "2")
    if once:
        assert (code, err) == (ExitCode.OK, "")
        assert out.split() == [INKALA_ANSWER] * 4 + [LEET_ANSWER] * 2
        return
    assert code == ExitCode.STOPPED and len(err.splitlines()) == 1
    assert err.startswith("sudoku: task 2 failed 4 times; last error: WorkerError: worker "
                          "process ") and err.endswith("ended unexpectedly (exit status 9)\n")


def test_failed_puzzles_keep_their_line_on_stdout(capsys, tmp_path):
    """Issue 30: one stdout line per puzzle line, a failed one's the documented marker
    ``# ErrorName``; its reason on stderr; ``--pretty`` keeps one block per puzzle."""
    from sudoku.cli.solving import FAILED

    assert FAILED == "#"
    path = tmp_path / "in.txt"
    path.write_text(f"{LEETCODE}\n# a comment\n11..........\n\n{CLASH}\n{LEETCODE}\n")
    code, out, err = run(capsys, "-f", str(path))
    assert out.splitlines() == [LEET_ANSWER, "# a comment", "# ShapeError", "", "# ClashError",
                                LEET_ANSWER]
    assert code == ExitCode.USAGE and "line 3: ShapeError" in err and "line 5: ClashError" in err
    code, out, _ = run(capsys, "--count", "-f", str(path))
    assert out.splitlines() == ["1", "# a comment", "# ShapeError", "", "0", "1"]
    code, out, _ = run(capsys, "--pretty", "-f", str(path))  # no lines to pair: no echo
    blocks = out.split("\n\n")
    assert len(blocks) == 4 and blocks[1] == "# ShapeError" and blocks[2] == "# ClashError"
    code, out, _ = run(capsys, "--rate", "-f", str(path))
    assert out.splitlines()[1:5] == ["# a comment", "# ShapeError", "", "# ClashError"]
    assert len(out.splitlines()) == 6
    _, help_text, _ = run(capsys, "--help")
    assert "'# ErrorName'" in " ".join(help_text.split())
    docs = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text()
    assert "# ShapeError" in docs and "paste in.txt out.txt" in docs


def test_fast_hint_and_summary_formats(capsys, tmp_path, monkeypatch):
    """Issue 30: a large batch left on python by auto says once that numba would help;
    the summary writes numbers as the progress line does (1,234 and 5,678 puzzles/s)."""
    import sudoku.cli.solving as solving

    def no_numba(name):
        raise ImportError("numba is not installed")

    monkeypatch.setattr(solving, "get_backend", no_numba)
    assert solving.fast_hint("auto", solving.FAST_HINT - 1) is None
    assert solving.fast_hint("python", 10**6) is None  # asked for: nothing to say
    hint = solving.fast_hint("auto", 1200)
    assert hint is not None and "1,200 puzzles on the python backend" in hint
    assert "dancing-cover[fast]" in hint and "9x faster" in hint
    path = tmp_path / "many.txt"
    path.write_text((LEETCODE + "\n") * 1001 + CLASH + "\n")
    code, out, err = run(capsys, "--progress", "-f", str(path))
    assert code == 1 and len(out.splitlines()) == 1002
    assert err.count("dancing-cover[fast]") == 1
    summary = err.splitlines()[-1]
    assert summary.startswith("1,002 puzzles: 1,001 solved, 1 failed in ")
    rate = summary.rsplit("(", 1)[1]
    assert rate.endswith(" puzzles/s)") and rate[:-len(" puzzles/s)")].replace(",", "").isdigit()


# ----- issue 42: lines, their pairing, the progress line, the generator's bounds ----------


def _pairs(text: str, out: str) -> None:
    """Output line k answers input line k: a blank or comment line comes back as itself
    (stripped), any other line is a puzzle's answer or marker."""
    lines = text.removesuffix("\n").split("\n")
    answers = out.removesuffix("\n").split("\n")
    assert len(answers) == len(lines), (lines, answers)
    for line, answer in zip(lines, answers):
        if not line.strip() or line.strip().startswith("#"):
            assert answer == line.strip()
        else:
            assert answer and not answer.startswith("# a")


@pytest.mark.parametrize("separator", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                       "\u2029"])
def test_lines_split_at_newlines_only(capsys, tmp_path, separator):
    """Issue 42, 9: ``str.splitlines`` split a line at form feeds, vertical tabs, the
    separators \\x1c-\\x1e, NEL, U+2028 and U+2029: 3 answer lines for 2, and every later
    answer and line number off by one."""
    path = tmp_path / "in.txt"
    text = f"1.{separator}..\n{LEETCODE}\n{CLASH}\n"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "-f", str(path))
    assert out.splitlines() == ["# ShapeError", LEET_ANSWER, "# ClashError"]
    assert err.startswith("line 1: ShapeError") and "line 3: ClashError" in err
    assert code == ExitCode.USAGE
    code, out, _ = run(capsys, "--count", "-f", str(path))
    assert out.split("\n") == ["# ShapeError", "1", "0", ""]


def test_printf_form_feed():
    """The issue's own reproduction: ``printf '1.\\f..\\n%s\\n' PUZZLE | python -m
    sudoku`` prints exactly 2 lines, the second the puzzle's answer."""
    proc = subprocess.run([sys.executable, "-m", "sudoku"], input=f"1.\f..\n{LEETCODE}\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout == f"# ShapeError\n{LEET_ANSWER}\n"
    assert proc.stderr.startswith("line 1: ShapeError") and proc.stderr.count("\n") == 1


def test_crlf_lines(capsys, tmp_path):
    path = tmp_path / "in.txt"
    path.write_bytes(f"# head\r\n{LEETCODE}\r\n\r\n{CLASH}\r\n".encode())
    code, out, _ = run(capsys, "-f", str(path))
    assert out.splitlines() == ["# head", LEET_ANSWER, "", "# ClashError"] and code == 1


@pytest.mark.parametrize("flags", [[], ["--count"], ["-j", "2"], ["--unique"],
                                   ["--timeout", "30"], ["--rate"]])
def test_blank_and_comment_lines_keep_the_pairing(capsys, mixed, flags):
    """Issue 42, 10: blank and ``#`` lines were skipped, so ``paste in.txt out.txt``
    paired each puzzle after one with the wrong answer. Each comes back as itself."""
    text = mixed.read_text()
    code, out, _ = run(capsys, *flags, "-f", str(mixed))
    _pairs(text, out)
    assert code == ExitCode.USAGE


def test_blank_and_comment_lines_of_variants_keep_the_pairing(capsys, tmp_path):
    path = tmp_path / "x.txt"
    x = "." * 81
    text = f"# X-Sudoku\n{x}\n\n  # two\n{x[:-1]}\n{x}\n\n"
    path.write_text(text)
    code, out, _ = run(capsys, "--variant", "x", "-f", str(path))
    _pairs(text, out)
    assert out.splitlines()[4].startswith("# ") and out.splitlines()[1] != ""
    assert code == ExitCode.USAGE


def test_only_comments(capsys, tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("# nothing\n\n")
    assert run(capsys, "-f", str(path)) == (ExitCode.OK, "# nothing\n\n", "")
    assert run(capsys, "--progress", "-f", str(path))[1] == "# nothing\n\n"


def test_help_and_docs_say_how_lines_pair(capsys):
    _, help_text, _ = run(capsys, "--help")
    words = " ".join(help_text.split())
    assert "blank and # lines are echoed" in words
    docs = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text()
    assert "echoed" in docs and "paste in.txt out.txt" in docs


def _screen(data: bytes) -> list[str]:
    """What a terminal shows for ``data``: carriage returns go back to the start of the
    line, newlines start a new one, characters overwrite what was there."""
    lines: list[list[str]] = [[]]
    col = 0
    for ch in data.decode("utf-8", errors="replace"):
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append([])
            col = 0
        else:
            line = lines[-1]
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
    return ["".join(line).rstrip() for line in lines]


def _on_a_terminal(argv: list[str]) -> tuple[int, list[str]]:
    """Run ``python -m sudoku argv`` with stdout and stderr on one pseudo-terminal, as a
    user sees it; its exit status and the screen's lines."""
    import os
    import pty

    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "sudoku", *argv], stdin=subprocess.DEVNULL,
                            stdout=child_fd, stderr=child_fd, close_fds=True)
    os.close(child_fd)
    data = b""
    while True:
        try:
            chunk = os.read(main_fd, 4096)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        data += chunk
    os.close(main_fd)
    return proc.wait(timeout=120), _screen(data.replace(b"\r\n", b"\n"))


@pytest.mark.skipif(sys.platform == "win32", reason="no pty")
def test_progress_line_is_cleared_before_an_answer():
    """Issue 42, 11: on a terminal the progress line stayed in front of the next answer:
    ``  1/3 puzzles  0/s...59.6....6..8..``."""
    import sudoku

    code, screen = _on_a_terminal(["--generate", "3", "--difficulty", "master", "--seed", "5"])
    assert code == 0
    puzzles = [sudoku.generate(9, difficulty="master", seed=s) for s in (5, 6, 7)]
    assert screen[:3] == puzzles
    assert screen[3].startswith("3 puzzles in ") and screen[4:] == [""]


@pytest.mark.skipif(sys.platform == "win32", reason="no pty")
def test_progress_line_is_cleared_before_answers_of_a_file(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text((LEETCODE + "\n") * 3000 + CLASH + "\n")
    code, screen = _on_a_terminal(["--progress", "--backend", "python", "-f", str(path)])
    assert code == 1
    answers = [line for line in screen if line and not line.startswith(("line ", "3,001"))]
    assert answers == [LEET_ANSWER] * 3000 + ["# ClashError"]


def test_generate_refuses_boxes_beyond_16(capsys):
    """Issue 42, 12: ``--generate 1 --variant rect --box 5x7 --timeout 5`` ran for
    minutes; the generator makes grids up to 16x16: a larger box is a usage error."""
    for argv in (["--variant", "rect", "--box", "5x7"], ["--box", "5x5"],
                 ["--variant", "killer", "--box", "4x5"]):
        code, out, err = run(capsys, "--generate", "1", "--seed", "1", *argv)
        assert (code, out) == (ExitCode.USAGE, "") and "up to 16x16" in err
    code, out, _ = run(capsys, "--generate", "1", "--seed", "1", "--box", "2x3")
    assert code == ExitCode.OK and len(out.strip()) == 36


def test_generate_timeout_bounds_each_puzzle(capsys):
    """Issue 42, 12: ``--timeout`` bounds the making of each puzzle, as it bounds a call
    of ``sudoku.generate``: exit 3 (STOPPED) once it runs out, the puzzles made before it
    printed. The first run may compile the kernels it uses (a fresh clone's cache is
    cold, and no timeout stops a compile), so the second is timed."""
    import time

    run(capsys, "--generate", "2", "--box", "4x4", "--seed", "1", "--timeout", "0.05")
    started = time.perf_counter()
    code, out, err = run(capsys, "--generate", "2", "--box", "4x4", "--seed", "1",
                         "--timeout", "0.05")
    assert time.perf_counter() - started < 60  # a hang only: the machine may be busy
    assert (code, out) == (ExitCode.STOPPED, "") and "timeout" in err
    code, out, err = run(capsys, "--generate", "1", "--variant", "jigsaw", "--seed", "1",
                         "--timeout", "0")
    assert code == ExitCode.STOPPED and "timeout" in err
