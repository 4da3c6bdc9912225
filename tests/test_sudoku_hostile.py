"""Hostile input for the sudoku front ends: boards, puzzle text, alphabets, budgets, files
and command lines that are wrong in every way we could think of (and hypothesis could).

The rule checked everywhere: bad input raises a documented :class:`sudoku.SudokuError`
subclass naming the culprit (never a TypeError, AttributeError, IndexError or numpy
error); a board that cannot be solved is left exactly as given; a solved board is checked
independently; the python and numba backends agree, answers and errors alike. The
command reports every failure as one ``sudoku:`` line on stderr and an exit status from
:class:`dlx.ExitCode`.

The first part pins each defect fixed (D4 ... D19) with a test that failed before its fix;
the second part is the hypothesis suite. ``HYPOTHESIS_PROFILE=fuzz`` runs it with many
more examples (about 20 times the default's).
"""

from __future__ import annotations

import copy
import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sudoku
from sudoku import (
    AlphabetError,
    ArgumentError,
    ReadOnlyError,
    ShapeError,
    SymbolError,
    count_many,
    count_solutions,
    solve,
    solve_many,
    solve_string,
    to_exact_cover,
)
from sudoku.named import load_named

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LEET_ANSWER = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
FOUR = "1....." + "3..4....." + "2"  # a 4x4 puzzle with one solution
FOUR_ANSWER = "1324423124133142"
ROOT = Path(__file__).resolve().parents[1]


def str_rows(text: str) -> list[list[str]]:
    side = round(len(text) ** 0.5)
    return [list(text[r * side : (r + 1) * side]) for r in range(side)]


def int_rows(text: str) -> list[list[int]]:
    return [[0 if ch == "." else int(ch) for ch in row] for row in str_rows(text)]


def same_board(a, b) -> bool:
    """Deep equality that also compares numpy arrays (values, dtype and shape)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f")))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same_board(x, y) for x, y in zip(a, b)))
    return type(a) is type(b) and a == b


# ----- D7: a board that cannot be written is refused before the search ------------------


def test_d7_last_row_tuple_refused_untouched():
    board = str_rows(LEETCODE)
    board[8] = tuple(board[8])
    before = copy.deepcopy(board)
    with pytest.raises(ReadOnlyError, match=r"row 9 is a tuple"):
        solve(board)
    assert same_board(board, before)  # rows 1-8 were filled in before the fix


def test_d7_board_of_tuples_is_a_shape_error():
    board = [tuple(row) for row in str_rows(LEETCODE)]
    before = list(board)
    with pytest.raises(ShapeError, match=r"row 1 is a tuple"):
        solve(board)
    assert board == before
    assert count_solutions(board) == 1  # reading an immutable board is fine


def test_d7_read_only_numpy_board():
    board = np.array(int_rows(LEETCODE))
    board.flags.writeable = False
    with pytest.raises(ReadOnlyError, match="read-only"):
        solve(board)
    rows = [np.array(row) for row in int_rows(LEETCODE)]
    rows[4].flags.writeable = False
    before = copy.deepcopy(rows)
    with pytest.raises(ReadOnlyError, match="row 5"):
        solve(rows)
    assert same_board(rows, before)


class _Fragile(list):
    """A row that fails on its 5th write: the board must be restored, not half-written."""

    writes = 0

    def __setitem__(self, index, value):
        type(self).writes += 1
        if type(self).writes == 5:
            raise RuntimeError("disk on fire")
        super().__setitem__(index, value)


def test_d7_a_write_that_fails_is_undone():
    board = [list(row) for row in str_rows(LEETCODE)]
    board[3] = _Fragile(board[3])
    before = copy.deepcopy(board)
    with pytest.raises(ReadOnlyError, match=r"row 4 .*disk on fire"):
        solve(board)
    assert [list(row) for row in board] == [list(row) for row in before]


# ----- D9: every argument of the wrong type is a SudokuError naming it ------------------


@pytest.mark.parametrize("alphabet", [123456789, list("123456789"), b"123456789", 1.5])
def test_d9_alphabet_of_the_wrong_type(alphabet):
    for call in (lambda: solve_string(LEETCODE, alphabet=alphabet),
                 lambda: solve(str_rows(LEETCODE), alphabet=alphabet),
                 lambda: count_solutions(LEETCODE, alphabet=alphabet),
                 lambda: to_exact_cover(LEETCODE, alphabet=alphabet)):
        with pytest.raises(AlphabetError, match="alphabet must be a str"):
            call()
    (got,) = solve_many([LEETCODE], alphabet=alphabet)
    assert isinstance(got, AlphabetError) and "alphabet must be a str" in str(got)


@pytest.mark.parametrize("puzzle", [None, LEETCODE.encode(), list(LEETCODE), 81, bytearray(81)])
def test_d9_puzzle_that_is_not_a_str(puzzle):
    with pytest.raises(ArgumentError, match=r"puzzle must be a str, got " + type(puzzle).__name__):
        solve_string(puzzle)
    assert [type(x) for x in solve_many([LEETCODE, puzzle])] == [str, ArgumentError]
    assert [type(x) for x in count_many([puzzle, LEETCODE])] == [ArgumentError, int]


def test_d9_bytes_puzzle_says_how_to_decode():
    with pytest.raises(ArgumentError, match=r"decode"):
        solve_string(LEETCODE.encode())


def test_d9_solve_many_takes_any_iterable_of_str():
    assert solve_many(p for p in [LEETCODE, FOUR]) == [LEET_ANSWER, FOUR_ANSWER]
    assert count_many(iter([LEETCODE, FOUR])) == [1, 1]
    assert solve_many((LEETCODE,)) == [LEET_ANSWER]
    assert solve_many([]) == [] and count_many(()) == []
    for puzzles in (LEETCODE, LEETCODE.encode(), 5, None):
        with pytest.raises(ArgumentError, match="puzzles must be an iterable"):
            solve_many(puzzles)
        with pytest.raises(ArgumentError, match="puzzles must be an iterable"):
            count_many(puzzles)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_d9_numpy_boards_of_other_kinds():
    m = np.matrix(int_rows(LEETCODE))
    assert solve(m) is m and "".join(map(str, np.asarray(m).ravel())) == LEET_ANSWER
    for dtype in (np.float64, np.float32, np.uint8, np.int16):
        a = np.array(int_rows(LEETCODE), dtype=dtype)
        solve(a)
        assert a.dtype == dtype and "".join(str(int(v)) for v in a.ravel()) == LEET_ANSWER
    for bad, pattern in ((0.5, r"0.5 at r1c1"), (np.nan, r"nan at r1c1"),
                         (np.inf, r"inf at r1c1")):
        a = np.array(int_rows(LEETCODE), dtype=float)
        a[0, 0] = bad
        before = a.copy()
        with pytest.raises(SymbolError, match=pattern):
            solve(a)
        assert same_board(a, before)
    for a in (np.zeros((9, 9), dtype=complex), np.zeros((9, 9), dtype=bool),
              np.full((9, 9), "1"), np.zeros((9, 9), dtype=object)):
        with pytest.raises(SymbolError, match="dtype"):
            solve(a)


BAD_BUDGETS = [  # (keyword, value, pattern)
    ("timeout", "1", r"timeout must be a number of seconds .*got '1' \(str\)"),
    ("timeout", float("nan"), r"timeout .*got nan"),
    ("timeout", -1, r"timeout .*got -1"),
    ("timeout", True, r"timeout .*got True \(bool\)"),
    ("timeout", [1], r"timeout .*\(list\)"),
    ("max_nodes", 0, r"max_nodes must be at least 1, got 0"),
    ("max_nodes", -5, r"max_nodes .*got -5"),
    ("max_nodes", 1.5, r"max_nodes must be an int >= 1 or None, got 1.5 \(float\)"),
    ("max_nodes", "9", r"max_nodes .*got '9' \(str\)"),
    ("max_nodes", False, r"max_nodes .*got False \(bool\)"),
    ("backend", "fortran", r"backend must be one of 'auto', 'python', 'numba', got 'fortran'"),
    ("backend", 3, r"backend must be one of .*got 3"),
    ("backend", None, r"backend must be one of .*got None"),
]


@pytest.mark.parametrize("keyword, value, pattern", BAD_BUDGETS)
def test_d9_bad_budgets_and_backends(keyword, value, pattern):
    board = str_rows(LEETCODE)
    calls = [lambda: solve(board, **{keyword: value}),
             lambda: solve_string(LEETCODE, **{keyword: value}),
             lambda: count_solutions(LEETCODE, **{keyword: value})]
    if keyword != "timeout":  # the batch calls take no timeout
        calls += [lambda: solve_many([LEETCODE], **{keyword: value}),
                  lambda: count_many([LEETCODE], **{keyword: value})]
    for call in calls:
        with pytest.raises(ArgumentError, match=pattern):
            call()
    assert board == str_rows(LEETCODE)


@pytest.mark.parametrize("limit, pattern", [
    (0, r"limit must be at least 1, got 0"), (-1, r"limit .*got -1"),
    (True, r"limit .*\(bool\)"), (2.0, r"limit .*\(float\)"), ("2", r"limit .*\(str\)")])
def test_d9_bad_limits(limit, pattern):
    with pytest.raises(ArgumentError, match=pattern):
        count_solutions(LEETCODE, limit)
    with pytest.raises(ArgumentError, match=pattern):
        count_many([LEETCODE], limit)


BACKENDS = ["python", "numba"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_d9_huge_budgets_mean_unbounded(backend):
    huge = 2**70
    assert solve_string(LEETCODE, max_nodes=huge, backend=backend) == LEET_ANSWER
    assert count_solutions(LEETCODE, huge, max_nodes=huge, backend=backend) == 1
    assert solve_many([LEETCODE], max_nodes=huge, backend=backend) == [LEET_ANSWER]
    assert count_many([LEETCODE], huge, max_nodes=huge, backend=backend) == [1]
    for timeout in (float("inf"), 1e300, huge, np.float32(30), 0.5):
        assert solve_string(LEETCODE, timeout=timeout, backend=backend) == LEET_ANSWER
    assert count_solutions(LEETCODE, np.int64(3), max_nodes=np.int32(10**6)) == 1


def test_d9_to_exact_cover_bad_givens():
    with pytest.raises(ArgumentError, match="givens"):
        to_exact_cover(LEETCODE, givens="ignore")
    with pytest.raises(ArgumentError, match="givens"):
        to_exact_cover(LEETCODE, givens=["reduce"])


# ----- D14: caches keyed by alphabet are bounded -------------------------------------------


def _caches() -> dict[str, object]:
    import sudoku.batch
    import sudoku.grid

    names = {"grid": ["_geometry", "_symbol_values", "_ascii_symbols", "_unit_getters",
                      "_unit_cells"], "batch": ["_symbol_table"]}
    modules = {"grid": sudoku.grid, "batch": sudoku.batch}
    return {f"{m}.{n}": getattr(modules[m], n) for m, ns in names.items() for n in ns}


def test_d14_caches_stay_bounded_over_5000_alphabets():
    pool = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    rng = random.Random(14)
    alphabets = set()
    while len(alphabets) < 5000:
        alphabets.add("".join(rng.sample(pool, 4)))
    for alphabet in sorted(alphabets):
        to_alphabet = str.maketrans("1234", alphabet)
        puzzle, answer = FOUR.translate(to_alphabet), FOUR_ANSWER.translate(to_alphabet)
        assert solve_string(puzzle, alphabet=alphabet) == answer
        assert solve_many([puzzle], alphabet=alphabet) == [answer]
    for name, cache in _caches().items():
        info = cache.cache_info()
        assert info.maxsize is not None and info.maxsize <= 64, name
        assert info.currsize <= info.maxsize, name


# ----- D16: alphabets that clash with the puzzle syntax are refused -----------------------


@pytest.mark.parametrize("alphabet, pattern", [
    ("12345678 ", r"' ' .*position 9"),
    ("12345678|", r"'\|'"),
    ("1234-6789", r"'-' .*position 5"),
    ("+23456789", r"'\+' .*position 1"),
    ("#23456789", r"'#'"),
    ("1234.6789", r"'\.'"),
    ("1234\t6789", r"'\\t'"),
    ("1234\u20286789", r"'\\u2028'"),
    ("1234\x006789", r"'\\x00'"),
    ("1234\ufeff6789", r"'\\ufeff'"),
    ("1123", r"repeats '1'"),
    ("ABC", r"3 symbols.*4, 9, 16, 25 or 36"),
    ("", r"0 symbols"),
    pytest.param("x" * 10**6, r"1000000 symbols", id="a-million-symbols"),
])
def test_d16_unusable_alphabets(alphabet, pattern):
    puzzle = "." * (len(alphabet) ** 2 if len(alphabet) < 40 else 81)
    for call in (lambda: solve_string(puzzle, alphabet=alphabet),
                 lambda: solve([["."] * 9 for _ in range(9)], alphabet=alphabet),
                 lambda: count_solutions(puzzle, alphabet=alphabet),
                 lambda: sudoku.parse_string(puzzle, alphabet=alphabet)):
        with pytest.raises(AlphabetError, match=pattern) as info:
            call()
        assert len(str(info.value)) < 300  # a huge alphabet is not copied into the message
    for batch in (solve_many, count_many):
        (got,) = batch([puzzle], alphabet=alphabet)
        assert isinstance(got, AlphabetError) and re.search(pattern, str(got))


def test_d16_alphabet_of_another_size_names_both():
    with pytest.raises(AlphabetError, match=r"9 symbols but the grid is 4x4"):
        solve_string(FOUR, alphabet="123456789")
    got = solve_many([FOUR, LEETCODE], alphabet="123456789")
    assert isinstance(got[0], AlphabetError) and got[1] == LEET_ANSWER


def test_d16_zero_is_a_symbol_when_in_the_alphabet():
    alphabet = "0123456789ABCDEF"
    puzzle = "." * 256
    (answer,) = solve_many([puzzle], alphabet=alphabet)
    assert answer == solve_string(puzzle, alphabet=alphabet) and "0" in answer


# ----- the command: in-process helpers ------------------------------------------------------


_CAPTURE = object()


def run_cli(argv: list[str], stdin: object = "", stdout: object = _CAPTURE
            ) -> tuple[int, str, str]:
    """``sudoku.cli.main(argv)`` with stdin (a str, or any object, None for closed), stdout
    and stderr replaced; (status, stdout text, stderr text). A ``stdout`` given (None:
    closed) replaces the capture."""
    from sudoku.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    sys.stdout = out if stdout is _CAPTURE else stdout
    sys.stderr = err
    try:
        code = main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def sudoku_process(*argv: str, **kwargs) -> subprocess.CompletedProcess:
    """``python -m sudoku ARGV`` with the worktree first on the path; bytes in and out."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **kwargs.pop("env", {})}
    return subprocess.run([sys.executable, "-m", "sudoku", *argv], capture_output=True,
                          timeout=120, env=env, cwd=ROOT, **kwargs)


def _one_line(err: bytes | str) -> str:
    text = err.decode() if isinstance(err, bytes) else err
    assert "Traceback" not in text
    assert text.count("\n") == 1 and text.endswith("\n"), text
    return text


# ----- D10: a byte-order mark at the start of the input ------------------------------------


def test_d10_bom_in_a_file(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + f"{LEETCODE}\n{FOUR}\n".encode())
    assert run_cli(["-f", str(path)]) == (0, f"{LEET_ANSWER}\n{FOUR_ANSWER}\n", "")
    path.write_bytes(b"\xef\xbb\xbf# a comment first\n" + f"{LEETCODE}\n".encode())
    assert run_cli(["-f", str(path)]) == (0, f"{LEET_ANSWER}\n", "")


def test_d10_bom_on_stdin():
    assert run_cli([], stdin="\ufeff" + LEETCODE + "\r\n") == (0, LEET_ANSWER + "\n", "")
    binary = io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + LEETCODE.encode() + b"\n"))
    assert run_cli(["-f", "-"], stdin=binary) == (0, LEET_ANSWER + "\n", "")
    proc = sudoku_process("-f", "-", input=b"\xef\xbb\xbf" + LEETCODE.encode() + b"\n")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, (LEET_ANSWER + "\n").encode(), b"")


# ----- D11: no traceback when stdin or stdout is closed, full or undecodable ---------------


def test_d11_closed_stdin_in_process():
    code, out, err = run_cli(["-f", "-"], stdin=None)
    assert (code, out, err) == (2, "", "sudoku: cannot read stdin: it is closed\n")
    assert run_cli([], stdin=None)[0] == 2


class _Undecodable(io.StringIO):
    def read(self, *_):
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")


def test_d11_undecodable_text_stdin_in_process():
    code, out, err = run_cli(["-f", "-"], stdin=_Undecodable())
    assert code == 2 and out == ""
    assert _one_line(err).startswith("sudoku: cannot read stdin: 'utf-8' codec can't decode")


class _Full(io.StringIO):
    def write(self, text):
        raise OSError(28, "No space left on device")

    def flush(self):
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("argv", [[LEETCODE], ["-f", "-"], ["--count", "-f", "-"]])
def test_d11_output_that_cannot_be_written_in_process(argv):
    for stdout, reason in ((None, "stdout is closed"), (_Full(), "No space left on device"),
                           (io.TextIOWrapper(io.BytesIO(), encoding="ascii"), None)):
        if reason is None:  # a closed stream
            stdout.close()
            reason = "I/O operation on closed file."
        code, _, err = run_cli(argv, stdin=LEETCODE + "\n", stdout=stdout)
        assert code == 4 and _one_line(err) == f"sudoku: cannot write output: {reason}\n"


def test_d11_output_encoding_without_the_symbol_in_process():
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    puzzle = FOUR.translate(str.maketrans("1234", "αβγδ"))
    code, _, err = run_cli(["--alphabet", "αβγδ", puzzle], stdout=stdout)
    assert code == 4 and "can't encode character" in _one_line(err)


def _closing(fd: int):
    return lambda: os.close(fd)


needs_posix = pytest.mark.skipif(os.name != "posix", reason="closes file descriptors")


@needs_posix
@pytest.mark.parametrize("argv", [["-f", "-"], []])
def test_d11_stdin_closed(argv):
    proc = sudoku_process(*argv, stdin=None, preexec_fn=_closing(0))
    assert proc.returncode == 2 and proc.stdout == b""
    assert _one_line(proc.stderr) == "sudoku: cannot read stdin: it is closed\n"


@needs_posix
@pytest.mark.parametrize("argv", [[LEETCODE], ["-f", "-"]])
def test_d11_stdout_closed(argv):
    proc = sudoku_process(*argv, input=LEETCODE.encode() + b"\n", preexec_fn=_closing(1))
    assert proc.returncode == 4
    assert _one_line(proc.stderr) == "sudoku: cannot write output: stdout is closed\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("argv", [[LEETCODE], ["-f", "-"], ["-f", "-", "-j", "2", "--pretty"]])
def test_d11_disk_full(argv):
    puzzles = (LEETCODE + "\n") * (5000 if "-j" in argv else 1)
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "sudoku", *argv], input=puzzles.encode(),
                              stdout=full, stderr=subprocess.PIPE, timeout=120, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 4
    assert _one_line(proc.stderr) == "sudoku: cannot write output: No space left on device\n"


@needs_posix
def test_d11_stderr_closed_sends_nothing_to_stdout():
    proc = sudoku_process("5.5" + "." * 78, preexec_fn=_closing(2))
    assert proc.returncode == 1 and proc.stdout == b""


def test_d11_undecodable_stdin_under_strict_decoding():
    bad = b"\xff" + LEETCODE[1:].encode() + b"\n" + LEETCODE.encode() + b"\n"
    proc = sudoku_process("-f", "-", input=bad, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert proc.returncode == 2 and proc.stdout.decode() == LEET_ANSWER + "\n"
    assert _one_line(proc.stderr) == "line 1: SymbolError: bad symbol '\ufffd' at r1c1\n"


# ----- D18: exit statuses from dlx.ExitCode, with a precedence ------------------------------

STOPPED_LINE = load_named()["inkala-2012"]
"""Needs more than 100 search nodes, LEETCODE fewer: ``--max-nodes 100`` stops only it."""
CLASH = "5.5" + "." * 78
MALFORMED = LEETCODE[:-1]


@pytest.mark.parametrize("lines, status", [
    ([LEETCODE], 0),
    ([LEETCODE, CLASH], 1),
    ([LEETCODE, STOPPED_LINE], 3),
    ([MALFORMED, LEETCODE], 2),
    ([CLASH, STOPPED_LINE], 3),  # STOPPED over UNSOLVED
    ([STOPPED_LINE, MALFORMED, CLASH], 2),  # USAGE over both
    ([CLASH, LEETCODE.replace("5", "x", 1)], 2),
])
def test_d18_exit_status_and_precedence(lines, status):
    code, out, err = run_cli(["--max-nodes", "100"], stdin="\n".join(lines) + "\n")
    assert code == status
    assert out.count("\n") == lines.count(LEETCODE)
    assert err.count("\n") == len(lines) - lines.count(LEETCODE)


@pytest.mark.parametrize("puzzle, status", [
    (LEETCODE, 0), (CLASH, 1), (STOPPED_LINE, 3), (MALFORMED, 2), ("x" * 81, 2)])
def test_d18_one_puzzle_exit_status(puzzle, status):
    assert run_cli(["--max-nodes", "100", puzzle])[0] == status
    counted = 0 if status == 1 else status  # clashing givens count 0 solutions: an answer
    assert run_cli(["--count", "--max-nodes", "100", puzzle])[0] == counted


@pytest.mark.parametrize("argv", [
    ["--alphabet", "ABC", FOUR], ["--alphabet", "12345678 ", LEETCODE],
    ["--alphabet", "#23456789", "-f", "-"], ["--alphabet", "1123", FOUR],
    ["--timeout", "nan", LEETCODE], ["--timeout", "-1", LEETCODE],
    ["--max-nodes", "0", LEETCODE], ["--limit", "-2", "--count", LEETCODE],
])
def test_d18_usage_errors(argv):
    code, out, err = run_cli(argv, stdin=LEETCODE + "\n")
    assert code == 2 and out == ""
    assert err.splitlines()[-1].startswith("sudoku: error: ")


def test_d18_help_lists_every_exit_code():
    from dlx import ExitCode

    code, out, _ = run_cli(["--help"])
    assert code == 0
    epilog = out[out.index("exit status:"):]
    for member in ExitCode:
        assert re.search(rf"^\s+{member.value}\s+{member.name}\s+\S", epilog, re.M), member
    assert "the first of 2 (USAGE), 3 (STOPPED), 1 (UNSOLVED)" in " ".join(epilog.split())


# ----- D19: never more workers than CPUs or chunks -------------------------------------------


def test_d19_worker_count(monkeypatch):
    from sudoku.cli import worker_count

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert [worker_count(j, 100) for j in (0, 1, 2, 8, 64)] == [2, 1, 2, 2, 2]
    assert [worker_count(64, n) for n in (0, 1, 2, 3)] == [1, 1, 2, 2]
    monkeypatch.delattr(os, "sched_getaffinity")
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert worker_count(64, 100) == 3 and worker_count(0, 100) == 3
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert worker_count(0, 100) == 1


def test_d19_j64_starts_at_most_one_process_per_cpu(monkeypatch):
    import multiprocessing.process

    import sudoku.cli

    started = []
    real_start = multiprocessing.process.BaseProcess.start

    def counting_start(self):
        started.append(self)
        return real_start(self)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", counting_start)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(sudoku.cli, "CHUNK", 4)
    puzzles = [LEETCODE, FOUR] * 20  # 10 chunks
    code, out, _ = run_cli(["-j", "64"], stdin="\n".join(puzzles) + "\n")
    assert code == 0 and out.split() == [LEET_ANSWER, FOUR_ANSWER] * 20
    assert len(started) == 2


# ----- D4: `sudoku -f big -j N | head -1` ends quietly, every time --------------------------


def _puzzle_file(path: Path, n: int) -> Path:
    named = [p for p in load_named().values() if len(p) == 81]
    path.write_text("".join(named[k % len(named)] + "\n" for k in range(n)))
    return path


def _processes_mentioning(text: str) -> list[int]:
    """Live processes whose command line mentions ``text`` (Linux /proc)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if text.encode() in cmdline:
                pids.append(int(entry.name))
    return pids


@needs_posix
@pytest.mark.parametrize("argv", [["--pretty", "-j", "16"], ["-j", "8"], ["--pretty", "-j", "64"],
                                  ["-j", "1"]])
def test_d4_reader_that_stops_after_one_line(tmp_path, argv):
    path = _puzzle_file(tmp_path / "many.txt", 20000)
    proc = subprocess.Popen([sys.executable, "-m", "sudoku", "-f", str(path), *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout.readline()  # the first line of the first answer
        proc.stdout.close()  # the reader goes away, as `head -1` does
        assert proc.wait(timeout=60) == 0
        assert proc.stderr.read() == b""
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
    if Path("/proc").is_dir():
        assert _processes_mentioning(str(path)) == []  # no worker left behind
