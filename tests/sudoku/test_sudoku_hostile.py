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
import math
import os
import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import dlx
import sudoku
from sudoku import (
    AlphabetError,
    ArgumentError,
    ReadOnlyError,
    ShapeError,
    SudokuError,
    SymbolError,
    count_many,
    count_solutions,
    solve,
    solve_many,
    solve_string,
    to_exact_cover,
)
from sudoku.named import load_named
from tests.helpers.backends import AVAILABLE, BACKENDS, needs_numba
from tests.helpers.profiles import examples

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
LEET_ANSWER = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
FOUR = "1....." + "3..4....." + "2"  # a 4x4 puzzle with one solution
FOUR_ANSWER = "1324423124133142"
ROOT = Path(__file__).resolve().parents[2]


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
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # NaN is the same NaN
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
    ("max_nodes", -1, r"max_nodes must be at least 0, got -1"),
    ("max_nodes", -5, r"max_nodes .*got -5"),
    ("max_nodes", 1.5, r"max_nodes must be an integer or None, got 1.5 \(float\)"),
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
    (True, r"limit .*\(bool\)"), (2.5, r"limit .*\(float\)"), ("2", r"limit .*\(str\)")])
def test_d9_bad_limits(limit, pattern):
    with pytest.raises(ArgumentError, match=pattern):
        count_solutions(LEETCODE, limit)
    with pytest.raises(ArgumentError, match=pattern):
        count_many([LEETCODE], limit)


BUDGETS = [0, -1, 1, 1.5, 1e3, 2.0, 2**70, True, None, "9", [1], float("nan"), float("inf"),
           -0.5, np.int64(3), np.float64(4.0), 10**400]
"""Budgets good and bad, for :func:`test_budgets_are_dlx_budgets`."""


def _refusal(call, *args, **kwargs):
    """The message of the ArgumentError ``call(*args, **kwargs)`` raises, or None if it
    raises none (an answer, or another error: a budget that ran out)."""
    try:
        call(*args, **kwargs)
    except dlx.ArgumentError as e:
        return str(e)
    except (SudokuError, dlx.SearchStoppedError):
        return None
    return None


@pytest.mark.parametrize("keyword", ["limit", "max_nodes", "timeout"])
def test_budgets_are_dlx_budgets(keyword):
    """The same bad budget gets the same ArgumentError, with the same message, from every
    public sudoku call that takes it as from dlx (issue 29); a good one none. Each sudoku
    call raises sudoku.ArgumentError (also a dlx.ArgumentError), as its docs say."""
    problem = dlx.ExactCover([["a"], ["b"]])
    calls = {
        "limit": [lambda v: count_solutions(FOUR, v), lambda v: count_many([FOUR], v)],
        "max_nodes": [lambda v: solve(str_rows(FOUR), max_nodes=v),
                      lambda v: solve_string(FOUR, max_nodes=v),
                      lambda v: count_solutions(FOUR, max_nodes=v),
                      lambda v: solve_many([FOUR], max_nodes=v),
                      lambda v: count_many([FOUR], max_nodes=v),
                      lambda v: sudoku.generate(4, seed=1, max_nodes=v)],
        "timeout": [lambda v: solve(str_rows(FOUR), timeout=v),
                    lambda v: solve_string(FOUR, timeout=v),
                    lambda v: count_solutions(FOUR, timeout=v),
                    lambda v: sudoku.generate(4, seed=1, timeout=v)],
    }[keyword]
    refused = 0
    for value in BUDGETS:
        expected = _refusal(problem.count, **{keyword: value})
        refused += expected is not None
        for call in calls:
            assert _refusal(call, value) == expected, (keyword, value)
            if expected is not None:
                with pytest.raises(ArgumentError):  # sudoku's own class
                    call(value)
    assert refused >= 5  # the list holds bad budgets of every kind


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
    import sudoku.tables

    names = {"grid": ["_geometry", "_symbol_values", "_ascii_symbols", "_unit_pairs"],
             "tables": ["tables"], "batch": ["_symbol_table"]}
    modules = {"grid": sudoku.grid, "tables": sudoku.tables, "batch": sudoku.batch}
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
    assert run_cli(["-f", str(path)]) == (0, f"# a comment first\n{LEET_ANSWER}\n", "")


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


@pytest.mark.slow
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
    assert proc.returncode == 2 and proc.stdout.decode() == f"# SymbolError\n{LEET_ANSWER}\n"
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
    assert out.count("\n") == len(lines)  # one line per puzzle, failed or not
    assert out.count("# ") == err.count("\n") == len(lines) - lines.count(LEETCODE)


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

    import sudoku.cli.solving

    started = []
    real_start = multiprocessing.process.BaseProcess.start

    def counting_start(self):
        started.append(self)
        return real_start(self)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", counting_start)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(sudoku.cli.solving, "CHUNK", 4)
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


@pytest.mark.slow
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


# =====  hypothesis: hostile input of every kind  ===========================================
#
# Each property runs the python and the numba backend on the same input and wants the same
# answer, or the same error type and message; anything but a SudokuError fails the test.



def hostile(n: int) -> settings:
    """A property's settings: ``n`` examples in the quick run, scaled by the run
    (:mod:`tests.helpers.profiles`)."""
    return examples(n, health=(HealthCheck.data_too_large, HealthCheck.filter_too_much))


BUDGET = {"max_nodes": 20_000}
"""Every search of the suite is bounded, so that no random puzzle can run for long; a
SearchStoppedError is an answer like any other (and the same on both backends)."""


def outcome(call):
    """What a call did: ``("ok", value)``, or ``(error type, message)`` for a SudokuError
    (counted in hypothesis's statistics, ``--hypothesis-show-statistics``). Any other
    exception propagates, and fails the test."""
    try:
        result = "ok", call()
    except SudokuError as e:
        result = type(e), str(e)
    event("outcome: " + (result[0] if result[0] == "ok" else result[0].__name__))
    return result


def valid_grid(side: int, puzzle: list[int], answer: list[int]) -> bool:
    """Independent of the library: ``answer`` is a full grid of 1..N, every row, column and
    box a permutation, agreeing with every given of ``puzzle`` (0 = blank)."""
    box = round(side**0.5)
    if len(answer) != side * side or len(puzzle) != side * side:
        return False
    if any(p and p != a for p, a in zip(puzzle, answer)):
        return False
    full = set(range(1, side + 1))
    rows = [answer[r * side : (r + 1) * side] for r in range(side)]
    cols = [answer[c::side] for c in range(side)]
    boxes = [[answer[(br * box + i) * side + bc * box + j] for i in range(box) for j in range(box)]
             for br in range(box) for bc in range(box)]
    return all(set(unit) == full for unit in rows + cols + boxes)


def text_values(text: str, alphabet: str) -> list[int]:
    """A one-line grid's values, read without the library ('.' and non-symbols are 0)."""
    return [alphabet.index(ch) + 1 if ch in alphabet else 0 for ch in text]


def board_values(board) -> list[int]:
    """A board's values, read without the library: ints as they are, symbols by their place
    in the default alphabet, anything else -1."""
    cells = np.asarray(board).ravel().tolist() if isinstance(board, np.ndarray) \
        else [cell for row in board for cell in row]
    out = []
    for cell in cells:
        if isinstance(cell, str):
            out.append(0 if cell in ".0" else (sudoku.DEFAULT_SYMBOLS.find(cell) + 1 or -1))
        elif isinstance(cell, (int, float, np.integer, np.floating)) and float(cell).is_integer():
            out.append(int(cell))
        else:
            out.append(-1)
    return out


_GRIDS: dict[tuple[int, int], list[int]] = {}


def solved_grid(box: int, seed: int) -> list[int]:
    """A valid full grid (from sudoku.generate, checked here independently)."""
    if (box, seed) not in _GRIDS:
        from sudoku.generate import random_grid

        values = text_values(random_grid(box, seed), sudoku.DEFAULT_SYMBOLS)
        assert valid_grid(box * box, values, values)
        _GRIDS[box, seed] = values
    return _GRIDS[box, seed]


class Junk:
    """An object no board should hold; equal to any other Junk, so that a deep copy of a
    board compares equal to the board."""

    def __eq__(self, other: object) -> bool:
        return type(other) is Junk

    def __repr__(self) -> str:  # the same for a deep copy, as error messages must be
        return "Junk()"

    __hash__ = object.__hash__


JUNK_CELLS = st.sampled_from([None, -1, 1.5, float("nan"), "x", "", "12", True, b"1", [],
                              Junk(), 10**20, "\x00", "\ufeff", np.int64(-3), np.float64(2.5),
                              "\u2028", 2**63, complex(1, 0)])
JUNK_BOARDS = st.sampled_from([None, 0, 81, "." * 81, b"." * 81, {1: 2}, {"a"}, Junk(),
                               range(9), [], [[]], np.zeros(0), np.zeros((9, 9, 1)),
                               np.zeros((9, 9), dtype=np.uint64) + 2**63])
KINDS = ["str", "int", "numpy", "tuple rows", "numpy rows", "matrix", "tuple of lists"]
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.float32, np.float64]


def render(values: list[int], side: int, kind: str, dtype) -> object:
    """Flat values as a board of the given kind."""
    rows = [values[r * side : (r + 1) * side] for r in range(side)]
    symbols = "." + sudoku.DEFAULT_SYMBOLS
    if kind in ("str", "tuple rows", "tuple of lists"):
        board = [[symbols[v] for v in row] for row in rows]
        if kind == "tuple rows":
            return [tuple(row) for row in board]
        return tuple(board) if kind == "tuple of lists" else board
    if kind == "int":
        return rows
    array = np.array(rows, dtype=dtype)
    if kind == "matrix":
        return np.asmatrix(array)
    return [row for row in array] if kind == "numpy rows" else array


@st.composite
def boards(draw) -> object:
    """A board of any accepted kind from a valid grid (blanked, or random givens that may
    clash), sometimes read-only, sometimes corrupted in one way, sometimes no board."""
    if draw(st.integers(0, 19)) == 0:
        return draw(JUNK_BOARDS)
    box = draw(st.sampled_from([2, 3, 3, 3, 4]))
    side, cells = box * box, box**4
    grid = solved_grid(box, draw(st.integers(0, 3)))
    if draw(st.booleans()):
        blanks = draw(st.sets(st.integers(0, cells - 1)))
        values = [0 if k in blanks else v for k, v in enumerate(grid)]
    else:
        values = [0] * cells
        for k in draw(st.lists(st.integers(0, cells - 1), max_size=side)):
            values[k] = draw(st.integers(1, side))
    board = render(values, side, draw(st.sampled_from(KINDS)), draw(st.sampled_from(DTYPES)))
    if isinstance(board, np.ndarray) and draw(st.integers(0, 9)) == 0:
        board.flags.writeable = False
    how = draw(st.sampled_from(["none"] * 6 + ["cell", "short row", "long row", "junk row",
                                               "rows", "alias", "frozen row"]))
    if how == "none" or isinstance(board, (np.ndarray, tuple)):
        return board
    r = draw(st.integers(0, side - 1))
    row = board[r]
    if how == "cell" and isinstance(row, list):
        row[draw(st.integers(0, side - 1))] = draw(JUNK_CELLS)
    elif how in ("short row", "long row"):
        board[r] = list(row)[:-1] if how == "short row" else [*row, row[0]]
    elif how == "junk row":
        board[r] = draw(st.one_of(JUNK_CELLS, JUNK_BOARDS))
    elif how == "rows":
        board = board[:-1] if draw(st.booleans()) else [*board, list(board[0])]
    elif how == "alias":
        board[r] = board[(r + 1) % side]
    elif how == "frozen row":  # one row that cannot be written, among rows that can
        if isinstance(row, np.ndarray):
            row.flags.writeable = False
        else:
            board[r] = tuple(row)
    return board


@pytest.mark.slow
@needs_numba
@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@hostile(1000)
@given(board=boards())
def test_fuzz_boards(board):
    """solve() on any board: solved in place and valid, or a SudokuError with the board
    unchanged; both backends alike; count_solutions agrees."""
    original = copy.deepcopy(board)
    results = {}
    for backend in AVAILABLE:
        mine = copy.deepcopy(board)
        got = outcome(lambda mine=mine, backend=backend: solve(mine, backend=backend, **BUDGET))
        if got[0] == "ok":
            assert got[1] is mine
            side = round(len(board_values(mine)) ** 0.5)
            assert valid_grid(side, board_values(original), board_values(mine))
            got = ("ok", board_values(mine))
        else:
            assert same_board(mine, original)  # never half-written
        results[backend] = got
    assert results["python"] == results["numba"]
    count = outcome(lambda: count_solutions(board, 2, **BUDGET))
    assert same_board(board, original)  # counting never writes
    if results["python"][0] == "ok":
        assert count[0] == "ok" and count[1] >= 1
    elif results["python"][0] in (sudoku.NoSolutionError, sudoku.ClashError):
        assert count == ("ok", 0)
    elif results["python"][0] in (ShapeError, SymbolError) and not isinstance(board, str):
        assert count == results["python"]  # (a str is a puzzle for count_solutions)


SPECIAL_CHARS = ["\r\n", "\n", "\r", " ", "\t", "|", "-", "+", "\ufeff", "\x00", "#", "0",
                 ".", "é", "\u2028", "\x85", "\x0b", "\udcff", "𝟙", "1", "G"]


@st.composite
def puzzle_texts(draw) -> object:
    """Puzzle text: a valid puzzle (one line or drawn) with characters inserted, deleted or
    replaced; random unicode; or no text at all."""
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return draw(st.one_of(st.none(), st.binary(max_size=90), st.integers(),
                              st.lists(st.text(max_size=1), max_size=81)))
    if choice == 1:
        return draw(st.text(max_size=120))
    box = draw(st.sampled_from([2, 3, 3, 4]))
    grid = solved_grid(box, draw(st.integers(0, 3)))
    blanks = draw(st.sets(st.integers(0, box**4 - 1)))
    values = [0 if k in blanks else v for k, v in enumerate(grid)]
    geo = sudoku.grid.geometry(box * box)
    text = list(sudoku.format_grid(geo, values, pretty=draw(st.booleans())))
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.one_of(st.sampled_from(SPECIAL_CHARS), st.characters()))
        if action == "insert":
            text.insert(k, ch)
        elif text and k < len(text):
            text[k : k + 1] = [] if action == "delete" else [ch]
    return "".join(text)


@pytest.mark.slow
@needs_numba
@hostile(1200)
@given(puzzle=puzzle_texts(), unique=st.booleans())
def test_fuzz_puzzle_strings(puzzle, unique):
    """solve_string, solve_many, count_solutions and count_many on any text: the same
    answer or the same error from each, on both backends; a solution is valid."""
    kw = {"unique": unique, **BUDGET}
    got = {b: outcome(lambda b=b: solve_string(puzzle, backend=b, **kw)) for b in AVAILABLE}
    assert got["python"] == got["numba"]
    for backend in AVAILABLE:
        (many,) = solve_many([puzzle], backend=backend, **kw)
        as_outcome = ("ok", many) if isinstance(many, str) else (type(many), str(many))
        assert as_outcome == got[backend]
    if got["python"][0] == "ok":
        geo, givens = sudoku.parse_string(puzzle)
        answer = got["python"][1]
        assert valid_grid(geo.side, givens, text_values(answer, geo.alphabet))
    counts = {b: outcome(lambda b=b: count_solutions(puzzle, 2, backend=b, **BUDGET))
              for b in AVAILABLE}
    assert counts["python"] == counts["numba"]
    (many,) = count_many([puzzle], 2, **BUDGET)
    many_outcome = ("ok", many) if isinstance(many, int) else (type(many), str(many))
    if isinstance(puzzle, str):
        assert many_outcome == counts["python"]
    else:  # count_solutions reads it as a board (ShapeError); a batch holds only text
        assert many_outcome[0] is ArgumentError and counts["python"][0] is ShapeError


UNIQUE = {4: FOUR, 9: LEETCODE}
"""A puzzle with a unique solution per side, in the default symbols."""


def _unique_16() -> str:
    text = (ROOT / "sudoku/data/generated_16x16.txt").read_text()
    return next(line for line in text.splitlines() if line and not line.startswith("#"))


def _alphabet_ok(alphabet: object) -> bool:
    """Independent of the library: what the docs promise an alphabet may be."""
    return (isinstance(alphabet, str) and len(alphabet) in (4, 9, 16, 25, 36)
            and len(set(alphabet)) == len(alphabet)
            and all(ch.isprintable() and not ch.isspace() and ch not in ".|-+#"
                    for ch in alphabet))


SYMBOL_LIKE = st.characters(categories=("L", "N", "P", "S", "M"))
"""Printable characters, combining marks and emoji included: mostly good symbols."""

alphabets = st.one_of(
    st.text(max_size=40),
    *(st.lists(st.characters(), min_size=n, max_size=n, unique=True).map("".join)
      for n in (4, 9, 16)),
    *(st.lists(SYMBOL_LIKE, min_size=n, max_size=n, unique=True).map("".join)
      for n in (4, 9, 9, 16)),
    st.lists(st.sampled_from("12345678#.|-+ 0ABCDEFGé\t"), min_size=9, max_size=9,
             unique=True).map("".join),
    st.one_of(st.none(), st.integers(), st.binary(max_size=9), st.lists(st.text(max_size=1))),
)


@pytest.mark.slow
@hostile(800)
@given(alphabet=alphabets)
def test_fuzz_alphabets(alphabet):
    """Any alphabet: accepted exactly when the docs say so, and then every entry point (the
    command's file reading included) solves the same puzzle to the same answer in it;
    refused with the same AlphabetError by every entry point otherwise."""
    ok = _alphabet_ok(alphabet) or alphabet is None
    assert outcome(lambda: sudoku.grid.check_alphabet(alphabet))[0] == ("ok" if ok else
                                                                      AlphabetError)
    side = len(alphabet) if isinstance(alphabet, str) and len(alphabet) in (4, 9, 16) else 9
    if side == 16:
        UNIQUE.setdefault(16, _unique_16())
    default = sudoku.DEFAULT_SYMBOLS[:side]
    to_alphabet = str.maketrans(default, alphabet) if ok and alphabet else {}
    puzzle = UNIQUE[side].translate(to_alphabet)
    rows = str_rows(puzzle)
    calls = {
        "solve_string": lambda b: solve_string(puzzle, alphabet=alphabet, backend=b),
        "solve": lambda b: "".join(ch for row in solve(copy.deepcopy(rows), alphabet=alphabet,
                                                       backend=b) for ch in row),
        "solve_many": lambda b: _raised(solve_many([puzzle], alphabet=alphabet, backend=b)[0]),
        "count_solutions": lambda b: count_solutions(puzzle, 2, alphabet=alphabet, backend=b),
        "count_many": lambda b: _raised(count_many([puzzle], 2, alphabet=alphabet,
                                                   backend=b)[0]),
    }
    got = {(name, b): outcome(lambda call=call, b=b: call(b))
           for name, call in calls.items() for b in AVAILABLE}
    if ok:
        answer = sudoku.solve_string(UNIQUE[side]).translate(to_alphabet)
        for (name, _), result in got.items():
            assert result == ("ok", 1 if name.startswith("count") else answer), name
        argv = ["-f", "-"] if alphabet is None else [f"--alphabet={alphabet}", "-f", "-"]
        assert run_cli(argv, stdin=f"# a comment\n{puzzle}\n") == (
            0, f"# a comment\n{answer}\n", "")
    else:
        assert {result for result in got.values()} == {got["solve_string", "python"]}
        assert got["solve_string", "python"][0] is AlphabetError
        if isinstance(alphabet, str) and "\x00" not in alphabet:  # argv cannot hold NUL
            code, out, err = run_cli([f"--alphabet={alphabet}", "-f", "-"], stdin=puzzle + "\n")
            assert (code, out) == (2, "")
            assert got["solve_string", "python"][1] in err


def _raised(result):
    """A batch's per-puzzle result as a call's: the value, or the error raised."""
    if isinstance(result, SudokuError):
        raise result
    return result


BUDGET_VALUES = st.one_of(
    st.none(), st.integers(-3, 3), st.integers(-(2**80), 2**80), st.integers(1, 10**6),
    st.floats(0, 60), st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
    st.lists(st.integers(), max_size=2), st.fractions(), st.decimals(allow_nan=True),
    st.complex_numbers(), st.sampled_from([np.int64(5), np.uint8(0), np.float32(0.5),
                                           np.bool_(True), np.float64("nan"), np.int8(-1)]))


def _count_budget_ok(value: object, minimum: int = 1) -> bool:
    """Independent of the library: an int (numpy's too, not a bool) or a whole finite
    float of at least ``minimum`` (dlx's rule: 1 for a limit, 0 for max_nodes), or None."""
    if value is None:
        return True
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (float, np.floating)):
        return math.isfinite(value) and value == int(value) and value >= minimum
    return isinstance(value, (int, np.integer)) and value >= minimum


def _timeout_ok(value: object) -> bool:
    """Independent of the library: a real number >= 0, not NaN, not a bool, or None."""
    if value is None:
        return True
    if isinstance(value, (bool, np.bool_, complex)) or not isinstance(
            value, (int, float, np.integer, np.floating, Fraction)):
        return False
    return float(value) >= 0 if not math.isnan(float(value)) else False


@hostile(800)
@given(which=st.sampled_from(["limit", "max_nodes", "timeout", "backend"]),
       value=st.one_of(BUDGET_VALUES, st.sampled_from(["auto", "python", "numba", "Python",
                                                       " numba", "fortran"])))
def test_fuzz_budgets(which, value):
    """Any value for a budget or the backend: accepted exactly when the docs say so, else
    ArgumentError naming it, alike from every call that takes it."""
    if which == "backend":
        ok = value in ("auto", "python", "numba") and isinstance(value, str)
    else:
        ok = _timeout_ok(value) if which == "timeout" \
            else _count_budget_ok(value, 0 if which == "max_nodes" else 1)
    calls = [lambda: count_solutions(LEETCODE, **{which: value})]
    if which != "limit":
        calls += [lambda: solve_string(LEETCODE, **{which: value}),
                  lambda: solve(str_rows(LEETCODE), **{which: value})]
    if which != "timeout":
        calls += [lambda: _raised(count_many([LEETCODE], **{which: value})[0])]
    if which in ("max_nodes", "backend"):
        calls += [lambda: _raised(solve_many([LEETCODE], **{which: value})[0])]
    for call in calls:
        got = outcome(call)
        if ok:  # a tiny budget may stop the search: that is an answer too
            assert got[0] in ("ok", sudoku.SearchStoppedError), got
        else:
            assert got[0] is ArgumentError and got[1].startswith(which), got


CLI_LINES = st.one_of(st.sampled_from([LEETCODE, FOUR, CLASH, MALFORMED, STOPPED_LINE,
                                       "# a comment", "", "   ", "#" + LEETCODE,
                                       LEETCODE.replace(".", "0"), "\ufeff" + LEETCODE]),
                      st.text(max_size=90))
GOOD_OPTIONS = [["--count"], ["--unique"], ["--pretty"], ["--max-nodes", "100"],
                ["--timeout", "30"], ["--backend", "python"], ["--backend", "numba"],
                ["-j", "0"], ["-j", "2"], ["--alphabet", "123456789"], ["--progress"],
                ["-f", "-"]]
BAD_OPTIONS = [["--limit", "3"], ["--limit", "0"], ["--max-nodes", "x"], ["--timeout", "nan"],
               ["--backend", "x"], ["-j", "-1"], ["--alphabet", "12345678 "],
               ["--named", "inkala-2012"], ["--named", "nope"], [LEETCODE],
               ["-f", "/no/such/file"], ["--no-such-option"], ["-"]]
CLI_OPTIONS = st.one_of(st.just([]), st.lists(st.sampled_from(GOOD_OPTIONS), max_size=3),
                        st.lists(st.sampled_from(GOOD_OPTIONS + BAD_OPTIONS), max_size=4))


@pytest.mark.slow
@hostile(800)
@given(options=CLI_OPTIONS, lines=st.lists(CLI_LINES, max_size=8),
       newline=st.sampled_from(["\n", "\r\n"]), bom=st.booleans())
def test_fuzz_command_line(options, lines, newline, bom):
    """The command on any options and input: a documented exit status, no traceback, and,
    for puzzles read from stdin, the answers and status that solve_many's results call for."""
    from dlx import ExitCode

    argv = [token for option in options for token in option]
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline
    code, out, err = run_cli(argv, stdin=text)
    event(f"exit status {code}")
    assert code in {member.value for member in ExitCode}
    assert "Traceback" not in err
    reads_stdin = not any(t in argv for t in ("--named", LEETCODE, "-f", "-"))
    if options or not reads_stdin:
        return
    lines = [line.strip() for line in text.removeprefix("\ufeff").split("\n")[:-1]]
    puzzles = [s for s in lines if s and not s.startswith("#")]
    results = solve_many(puzzles)
    answers = iter(results)
    expected = [s if not s or s.startswith("#") else
                r if isinstance(r := next(answers), str) else f"# {type(r).__name__}"
                for s in lines]  # one line per line: a blank or comment line echoed
    assert out.split("\n")[:-1] == expected
    kinds = {type(r) for r in results}
    if kinds & {ShapeError, SymbolError, AlphabetError, ArgumentError}:
        assert code == ExitCode.USAGE
    elif sudoku.SearchStoppedError in kinds:
        assert code == ExitCode.STOPPED
    elif kinds & {sudoku.ClashError, sudoku.NoSolutionError, sudoku.MultipleSolutionsError}:
        assert code == ExitCode.UNSOLVED
    else:
        assert code == ExitCode.OK and err == ""


def test_junk_first_cell_is_named_against_the_board_kind():
    """A board of symbols whose first cell is junk: the error says a symbol was expected
    (found by the fuzzing: it said "an int", from the junk cell's kind)."""
    board = str_rows(LEETCODE)
    board[0][0] = None
    with pytest.raises(SymbolError, match=r"bad cell None at r1c1: expected a symbol or '\.'"):
        solve(board)
