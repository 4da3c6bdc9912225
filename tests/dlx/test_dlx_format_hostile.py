"""Hostile input for Knuth's text format and the ``dlx`` command.

The first part pins one defect per test (D8, D10, D11, D12, D15, D18): a byte-order mark,
line ends and blanks other than Knuth's, problems that ``to_dlx`` cannot write faithfully,
bytes and other types given to ``from_dlx``, closed or full standard streams, and
arguments out of their domain. The second part fuzzes the same ground with hypothesis.

The fuzz tests run 1,500 examples in all by default (about 10 s); set
``HYPOTHESIS_PROFILE=fuzz`` for 20 times as many (a few minutes).
"""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import sys
import warnings
from collections.abc import Hashable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dlx import (
    ArgumentError,
    Colored,
    DLXFormatError,
    ExactCover,
    ExitCode,
    NoPrimaryItemWarning,
)
from dlx.cli import _parser, main
from dlx.dlxformat import parse_dlx
from dlx.problems import queens
from tests.helpers.backends import BACKENDS
from tests.helpers.profiles import examples as budget

ROOT = Path(__file__).resolve().parents[2]
BOM = "\ufeff"

# ----- hypothesis budget ----------------------------------------------------------------



# ----- helpers --------------------------------------------------------------------------


def parse(text: str | bytes) -> ExactCover:
    """``ExactCover.from_dlx`` without the warning for options that have no primary item."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover.from_dlx(text)


def build(options, **kwargs) -> ExactCover:
    """``ExactCover(options, **kwargs)`` without the no-primary-item warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover(options, **kwargs)


def run_cli(argv: list[str], stdin: str | bytes = "") -> tuple[int, str, str]:
    """``dlx.cli.main(argv)`` in process with the standard streams as StringIO objects;
    bytes for ``stdin`` come through a byte buffer, as a real stdin's do."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", io.StringIO(stdin) if isinstance(stdin, str)
                   else io.TextIOWrapper(io.BytesIO(stdin), encoding="latin-1"))
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def shell(command: str, stdin: bytes = b"", env: dict[str, str] | None = None,
          ) -> subprocess.CompletedProcess[bytes]:
    """Run ``command`` in sh with ``$DLX`` meaning ``python -m dlx`` from this checkout."""
    env = {**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    dlx = f"{shlex.quote(sys.executable)} -m dlx"
    return subprocess.run(["sh", "-c", command.replace("$DLX", dlx)], input=stdin,
                          capture_output=True, env=env, timeout=120, check=False)


def assert_one_line_error(stderr: str | bytes, *parts: str) -> None:
    """stderr is one line, prefixed ``dlx:``, that mentions each of ``parts``."""
    if isinstance(stderr, bytes):
        stderr = stderr.decode("utf-8", "backslashreplace")
    assert "Traceback" not in stderr, stderr
    assert stderr.startswith("dlx: "), stderr
    assert len(stderr.splitlines()) == 1, stderr
    for part in parts:
        assert part in stderr, (part, stderr)


# ----- D10: a byte-order mark -----------------------------------------------------------


def test_bom_is_not_part_of_the_first_item() -> None:
    problem = parse(BOM + "A B\nA\nB\n")
    assert problem.primary == ["A", "B"]
    assert problem.count(backend="python") == 1
    assert parse_dlx(BOM + "| comment\nA\nA\n") == (["A"], [], [["A"]])


def test_only_one_leading_bom_is_stripped() -> None:
    """A BOM anywhere else is an ordinary character of a name, as in Knuth's programs."""
    assert parse_dlx(BOM + BOM + "A B\n" + BOM + "A\n") == (
        [BOM + "A", "B"], [], [[BOM + "A"]])
    assert parse_dlx("A " + BOM + "B\n" + BOM + "B\n")[0] == ["A", BOM + "B"]


def test_bom_error_blames_the_right_line() -> None:
    with pytest.raises(DLXFormatError) as info:
        parse(BOM + "A B\nA\nC\n")
    assert info.value.lineno == 3 and "unknown item 'C'" in str(info.value)


def test_cli_reads_a_file_with_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "bom.dlx"
    path.write_text("A B\nA\nB\nA B\n", encoding="utf-8-sig")
    assert run_cli(["--count", str(path)])[:2] == (0, "2\n")
    assert run_cli(["--count"], stdin=BOM + "A B\nA\nB\n")[:2] == (0, "1\n")


# ----- D12: only '\n' ends a line, only ASCII blanks separate names ----------------------


def test_form_feed_separates_names_but_does_not_end_a_line() -> None:
    """Knuth's reading of ``A B / A<FF>B / A / B``: three options, two solutions."""
    text = "A B\nA\x0cB\nA\nB\n"
    assert parse_dlx(text) == (["A", "B"], [], [["A", "B"], ["A"], ["B"]])
    assert parse(text).count(backend="python") == 2
    assert run_cli(["--count"], stdin=text)[:2] == (0, "2\n")


@pytest.mark.parametrize("blank", [" ", "\t", "\v", "\f", "\r"])
def test_ascii_blanks_separate_names(blank: str) -> None:
    assert parse_dlx(f"A{blank}B\n{blank}A{blank}{blank}B{blank}\n") == (
        ["A", "B"], [], [["A", "B"]])


@pytest.mark.parametrize("char", ["\u00a0", "\u3000", "\u2028", "\u2029", "\x85", "\x1c",
                                  "\x1e", "\u200b", "\u2003"])
def test_other_characters_belong_to_names(char: str) -> None:
    """NBSP, ideographic space, Unicode line and paragraph separators, NEL, the C0 file and
    record separators: none ends a line or splits a name."""
    name = f"A{char}B"
    assert parse_dlx(f"{name} C\n{name}\nC {name}\n") == (
        [name, "C"], [], [[name], ["C", name]])


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0c", "\x1d", "\u2029"])
def test_line_numbers_count_newlines_only(separator: str) -> None:
    """``str.splitlines`` would see an extra line in the comment and blame line 4."""
    with pytest.raises(DLXFormatError) as info:
        parse(f"A B\n| a comment{separator}still the comment\nC\n")
    assert info.value.lineno == 3 and "unknown item 'C'" in str(info.value)


def test_crlf_and_lone_cr() -> None:
    assert parse_dlx("A B | X\r\nA X:1\r\n\r\n| c\r\nB\r\n") == (
        ["A", "B"], ["X"], [["A", Colored("X", "1")], ["B"]])
    assert parse_dlx("A\rB\nA\rB\n") == (["A", "B"], [], [["A", "B"]])


def test_cli_line_numbers_and_echo_use_the_same_lines() -> None:
    """The warning for a dropped option names its line; printed options keep their names
    whole (NBSP is part of a name) and normalize only ASCII blanks."""
    text = "| c\u2028c\x85c\nA\u00a0B C | X\nX:1\nA\u00a0B\x0cX:1\nC\n"
    code, out, err = run_cli([], stdin=text)
    assert code == 0
    assert out == "1:\n A\u00a0B X:1\n C\n"
    assert "line 3: warning: option has no primary item, ignored: 'X:1'" in err


def test_help_documents_the_reading_rules() -> None:
    text = _parser().format_help()
    assert "'\\n'" in text and "ASCII" in text and "NBSP" in text


def test_module_docstring_documents_the_reading_rules() -> None:
    import dlx.dlxformat

    doc = dlx.dlxformat.__doc__ or ""
    assert "ASCII" in doc and "NBSP" in doc and "byte-order mark" in doc


# ----- D15: to_dlx writes the same problem, or refuses at write time ----------------------


def test_colors_whose_str_collide_are_refused() -> None:
    """``0`` and ``"0"`` are two colors; written as ``0`` both, they would merge."""
    problem = build([["A", Colored("X", 0)], ["B", Colored("X", "0")]], secondary=["X"])
    assert problem.count(backend="python") == 0
    with pytest.raises(ArgumentError,
                       match=r"color 0 and color '0'.* would both be written as '0'"):
        problem.to_dlx()


def test_items_whose_str_collide_are_refused() -> None:
    problem = build([[1, "1"]])
    with pytest.raises(ArgumentError, match=r"item 1 and item '1'.* would both be written as '1'"):
        problem.to_dlx()
    secondary = build([[1, "x"]], secondary=["1"])
    with pytest.raises(ArgumentError, match=r"item 1 and item '1' cannot be written"):
        secondary.to_dlx()


def test_equal_values_are_one_color() -> None:
    """1 and 1.0 are one color to the engine (dict keys), and stay one when written."""
    problem = build([["A", Colored("X", 1)], ["B", Colored("X", 1.0)]], secondary=["X"])
    again = parse(problem.to_dlx())
    assert again.count(backend="python") == problem.count(backend="python") == 1


def test_no_primary_items_is_refused() -> None:
    """The item line would begin with '|' and read back as a comment."""
    problem = build([["x"]], primary=[], secondary=["x"])
    with pytest.raises(ArgumentError, match="no primary item"):
        problem.to_dlx()
    with pytest.raises(ArgumentError, match="no primary item"):
        ExactCover([]).to_dlx()


def test_colors_may_contain_colons() -> None:
    """The reader splits an entry at its first ':' (item names have none), so a color may
    contain ':'; the writer writes it back."""
    text = "A B | X\nA X:1:2\nB X:1:2\n"
    problem = parse(text)
    assert problem.option(0) == ["A", Colored("X", "1:2")]
    assert problem.to_dlx() == text
    assert problem.count(backend="python") == 1
    built = build([["A", Colored("X", ":")], ["B", Colored("X", "::")]], secondary=["X"])
    assert parse(built.to_dlx()).option(1) == ["B", Colored("X", "::")]


@pytest.mark.parametrize(("name", "why"), [
    ("", "empty"), ("a b", "' '"), ("a\tb", "'\\t'"), ("a\x0cb", "'\\x0c'"),
    ("a\vb", "'\\x0b'"), ("a\rb", "'\\r'"), ("a\nb", "'\\n'"), ("a|b", "'|'"),
    ("|", "'|'"), ("a:b", "':'"),
])
def test_unwritable_item_names_are_named(name: str, why: str) -> None:
    problem = build([[name, "ok"]], secondary=["ok"])
    with pytest.raises(ArgumentError, match="cannot be written") as info:
        problem.to_dlx()
    assert f"item {name!r}" in str(info.value) and why in str(info.value)


@pytest.mark.parametrize(("color", "why"), [
    ("", "empty"), ("r g", "' '"), ("r\x0cg", "'\\x0c'"), ("r|g", "'|'"), ((1, 2), "' '"),
])
def test_unwritable_colors_are_named(color: Hashable, why: str) -> None:
    problem = build([["A", Colored("X", color)]], secondary=["X"])
    with pytest.raises(ArgumentError, match="cannot be written") as info:
        problem.to_dlx()
    assert f"color {color!r}" in str(info.value) and why in str(info.value)


def test_leading_bom_in_the_first_item_is_refused() -> None:
    """It would be read as a byte-order mark; elsewhere a U+FEFF is written as it is."""
    with pytest.raises(ArgumentError, match="byte-order mark"):
        build([[BOM + "A"]]).to_dlx()
    problem = build([["A", BOM + "B"]], secondary=[BOM + "B"])
    assert parse(problem.to_dlx()).secondary == [BOM + "B"]


@pytest.mark.parametrize("name", ["a\u00a0b", "\u3000", "a\u2028b", "\x85", "é", "\u200b",
                                  "\x00", "#", "a\\b"])
def test_names_that_are_not_ascii_blanks_round_trip(name: str) -> None:
    problem = build([[name, "z"], ["z", Colored("s", name)]], secondary=["s"])
    again = parse(problem.to_dlx())
    assert again.items == problem.items
    assert list(again.options()) == list(problem.options())


def test_to_dlx_error_is_a_value_error() -> None:
    """ArgumentError is the documented class; it stays a ValueError for old callers."""
    with pytest.raises(ValueError, match="cannot be written"):
        build([["a b"]]).to_dlx()
    assert issubclass(ArgumentError, ValueError)


# ----- D8: what from_dlx accepts ------------------------------------------------------------


def test_from_dlx_accepts_utf8_bytes() -> None:
    text = "A\u00a0B C | X\nA\u00a0B X:é\nC\n"
    assert list(parse(text.encode()).options()) == list(parse(text).options())
    assert parse((BOM + text).encode()).primary == ["A\u00a0B", "C"]
    assert parse(bytearray(b"A\nA\n")).count(backend="python") == 1
    assert parse_dlx(b"A\r\nA\r\n") == (["A"], [], [["A"]])


@pytest.mark.parametrize(("data", "lineno", "where"), [
    (b"A B\nA\n\xff B\n", 3, "byte 0xff"),
    (b"\xef\xbb\xbfA\xc3\n", 1, "byte 0xc3"),
    (b"| \xe2\x82\n", 1, "byte 0xe2"),
    (b"A\n\n\n\xed\xa0\x80\n", 4, "byte 0xed"),  # an encoded surrogate is not UTF-8
])
def test_undecodable_bytes_name_their_line(data: bytes, lineno: int, where: str) -> None:
    with pytest.raises(DLXFormatError) as info:
        ExactCover.from_dlx(data)
    assert info.value.lineno == lineno
    assert "UTF-8" in str(info.value) and where in str(info.value)


@pytest.mark.parametrize("value", [None, 17, ["A", "A"], io.StringIO("A\nA\n"),
                                   memoryview(b"A\nA\n"), Path("problem.dlx")])
def test_from_dlx_refuses_other_types(value: object) -> None:
    """The parser takes text only; ``from_dlx`` also reads a Path and an open file (R8 of
    issue 32; tests/test_dlx_format.py), and refuses the rest."""
    if not isinstance(value, (io.StringIO, Path)):
        with pytest.raises(ArgumentError, match=rf"text .*{type(value).__name__}"):
            ExactCover.from_dlx(value)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=rf"text .*{type(value).__name__}"):
        parse_dlx(value)  # type: ignore[arg-type]


# ----- D11: closed, full and broken standard streams; undecodable input -------------------

KNUTH = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"


def test_stdin_closed() -> None:
    result = shell("$DLX --count <&-")
    assert result.returncode == ExitCode.USAGE
    assert_one_line_error(result.stderr, "standard input", "closed")
    assert result.stdout == b""


def test_stdout_closed() -> None:
    result = shell("$DLX --count >&-", stdin=KNUTH.encode())
    assert result.returncode == ExitCode.OUTPUT
    assert_one_line_error(result.stderr, "standard output", "closed")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", ["--count", "", "--indices"])
def test_stdout_full(args: str) -> None:
    result = shell(f"$DLX {args} >/dev/full", stdin=KNUTH.encode())
    assert result.returncode == ExitCode.OUTPUT
    assert_one_line_error(result.stderr, "cannot write", "standard output",
                          "No space left on device")


def test_stderr_closed_keeps_stdout_clean() -> None:
    """With no stderr the summary is lost, not printed on stdout instead."""
    result = shell("$DLX --count 2>&-", stdin=KNUTH.encode())
    assert (result.returncode, result.stdout) == (ExitCode.OK, b"1\n")


def test_broken_pipe_is_quiet() -> None:
    """A reader that stops early (``| head -1``) is no error: exit 0, nothing on stderr
    (not even at exit, when Python flushes stdout once more)."""
    piped = shell("($DLX; echo \"rc=$?\" >&2) | head -1", stdin=queens(11).to_dlx().encode())
    assert piped.stdout == b"1:\n"
    assert piped.stderr == b"rc=0\n"


def test_undecodable_stdin_names_its_line() -> None:
    """In the C locale Python would decode stdin with surrogateescape and go on."""
    result = shell("$DLX --count", stdin=b"A B\nA\n\xff B\n", env={"LC_ALL": "C"})
    assert result.returncode == ExitCode.USAGE
    assert_one_line_error(result.stderr, "<stdin>: line 3:", "UTF-8", "0xff")


def test_undecodable_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.dlx"
    path.write_bytes("A B\n| caf\u00e9\nA\nB\n".encode("latin-1"))
    code, out, err = run_cli(["--count", str(path)])
    assert (code, out) == (ExitCode.USAGE, "")
    assert_one_line_error(err, f"{path}: line 2:", "UTF-8", "0xe9")


def test_file_name_with_nul() -> None:
    """open() raises ValueError, not OSError, for it (found by the command-line fuzz)."""
    code, out, err = run_cli(["--count", "bad\x00name"])
    assert (code, out) == (ExitCode.USAGE, "")
    assert_one_line_error(err, "cannot read", "bad file name")


def test_stdin_none_in_process() -> None:
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", None)
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        assert main(["--count"]) == ExitCode.USAGE
    assert_one_line_error(err.getvalue(), "<stdin>", "closed")


def test_stdout_none_in_process(tmp_path: Path) -> None:
    path = tmp_path / "k.dlx"
    path.write_text(KNUTH)
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdout", None)
        mp.setattr(sys, "stderr", err)
        assert main(["--count", str(path)]) == ExitCode.OUTPUT
    assert_one_line_error(err.getvalue(), "standard output", "closed")


def test_unencodable_output_is_an_output_error() -> None:
    """A stdout that cannot encode a name (an ASCII terminal) is unwritable output."""
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdin", io.StringIO("caf\u00e9\ncaf\u00e9\n"))
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        assert main([]) == ExitCode.OUTPUT
    assert_one_line_error(err.getvalue(), "cannot write", "standard output", "ascii")


# ----- D18: arguments out of their domain ------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan", "-1", "-0.5", "-inf", "soon", ""])
def test_bad_timeouts_are_usage_errors(value: str) -> None:
    code, out, err = run_cli(["--count", "--timeout", value], stdin=KNUTH)
    assert (code, out) == (ExitCode.USAGE, "")
    assert "--timeout" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["inf", "1e400", "2.5"])
def test_good_timeouts(value: str) -> None:
    assert run_cli(["--count", "--timeout", value], stdin=KNUTH)[:2] == (0, "1\n")


def test_zero_timeout_stops_at_once() -> None:
    """No time at all: the first slice is one node, then the clock says stop (D6)."""
    assert run_cli(["--count", "--timeout", "0"], stdin=KNUTH)[:2] == (ExitCode.STOPPED, "0\n")


@pytest.mark.parametrize("option", ["--limit", "--max-nodes"])
@pytest.mark.parametrize("value", ["0", "-3", "1.5", "many", "", "1e3"])
def test_bad_counts_are_usage_errors(option: str, value: str) -> None:
    code, out, err = run_cli(["--count", option, value], stdin=KNUTH)
    assert (code, out) == (ExitCode.USAGE, "")
    assert option in err


@pytest.mark.parametrize("option", ["--limit", "--max-nodes"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_huge_counts_mean_unbounded(option: str, backend: str) -> None:
    """Clamped to 2**62, so the compiled kernel's int64 registers never overflow."""
    huge = "99999999999999999999"
    assert getattr(_parser().parse_args([option, huge]), option[2:].replace("-", "_")) == 2**62
    code, out, err = run_cli(["--count", "--backend", backend, option, huge],
                             stdin=queens(6).to_dlx())
    assert (code, out) == (ExitCode.OK, "4\n"), err


def test_exit_codes_are_exit_code_members(tmp_path: Path) -> None:
    assert type(run_cli(["--count"], stdin=KNUTH)[0]) is ExitCode
    assert type(run_cli(["--count", "--max-nodes", "1"], stdin=queens(6).to_dlx())[0]) is (
        ExitCode)
    assert run_cli(["--count", "--max-nodes", "1"], stdin=queens(6).to_dlx())[0] == (
        ExitCode.STOPPED)
    assert type(run_cli([str(tmp_path / "absent.dlx")])[0]) is ExitCode
    assert type(run_cli(["--limit", "0"])[0]) is ExitCode
    assert run_cli(["--help"])[0] is ExitCode.OK


def test_epilog_lists_every_exit_code() -> None:
    """The table comes from dlx.ExitCode, so it cannot drift from the code."""
    text = _parser().format_help()
    for member in ExitCode:
        assert re.search(rf"^\s*{member.value}\s+{member.name}\s+\S", text, re.M), member
    assert "cannot be written" in text  # OUTPUT's line, as in ExitCode's table


def test_usage_error_returns_instead_of_exiting() -> None:
    code, out, err = run_cli(["--no-such-option"])
    assert (code, out) == (ExitCode.USAGE, "")
    assert "--no-such-option" in err


# ----- fuzzing the text format ----------------------------------------------------------

ASCII_BLANKS = " \t\n\v\f\r"
NAME_CHARS = ("ABc\u00e9\u65e5#\\\x00\u00a0\u3000\u2028\u2029\x85\x1c\u200b\u2003"
              + BOM)
"""Characters a name may hold: odd ones first of all (no ASCII blank, no '|' or ':')."""

names = st.text(st.sampled_from(NAME_CHARS), min_size=1, max_size=3)
blanks = st.text(st.sampled_from(" \t\v\f\r"), min_size=1, max_size=2)
hostile_words = st.text(st.sampled_from(NAME_CHARS + "|:"), min_size=1, max_size=3)


def knuth_lines(text: str) -> list[tuple[int, list[str]]]:
    """An independent reading of which lines count and what their names are: Knuth's
    ``fgets`` (lines end at '\\n') and C's ``isspace`` (the ASCII blanks)."""
    text = text.removeprefix(BOM)
    out = []
    for lineno, line in enumerate(text.split("\n"), 1):
        words = re.findall(f"[^{re.escape(ASCII_BLANKS)}]+", line)
        if words and not words[0].startswith("|"):
            out.append((lineno, words))
    return out


@st.composite
def hostile_texts(draw: st.DrawFn) -> str:
    """Text in (or near) Knuth's format: an item line and options over a few names from a
    hostile alphabet, between comments and blank lines, with odd blanks, CRLF and a BOM;
    about one line in six has a fault (a stray '|' or ':', an unknown or repeated item,
    a color on a primary item, ...), and some texts have no item line at all."""
    often = st.sampled_from([True] * 5 + [False])  # (small integers come up more often)
    pool = draw(st.lists(names, min_size=1, max_size=5, unique=True))
    bar = draw(st.integers(1, len(pool))) if draw(often) else 0  # 0: the line is a comment
    primary, secondary = pool[:bar], pool[bar:]
    faults = st.one_of(hostile_words, st.just("|"), st.sampled_from(pool),
                       st.builds("{}:{}".format, st.sampled_from(pool), st.text(
                           st.sampled_from(NAME_CHARS + ":|"), max_size=2)))
    colors = st.text(st.sampled_from(NAME_CHARS + ":"), min_size=1, max_size=2)

    def line(words: list[str]) -> str:
        if not draw(often):
            words.insert(draw(st.integers(0, len(words))), draw(faults))
        return draw(st.sampled_from(["", " ", "\t"])) + "".join(w + draw(blanks) for w in words)

    def option() -> str:
        chosen = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique=True))
        return line([f"{x}:{draw(colors)}" if x in secondary and draw(st.booleans()) else x
                     for x in chosen])

    def noise() -> list[str]:
        return draw(st.lists(st.one_of(
            st.builds("{}|{}".format, st.sampled_from(["", " ", "\v"]), st.text(
                st.sampled_from(NAME_CHARS + " |:\r"), max_size=6)),
            st.text(st.sampled_from(" \t\v\f\r"), max_size=3)), max_size=2))

    lines = noise()
    if draw(often):  # else no item line
        lines.append(line([*primary, "|", *secondary] if secondary or draw(st.booleans())
                          else primary))
        for _ in range(draw(st.integers(0, 6))):
            lines += [*noise(), option()]
    lines += noise()
    text = "".join(x + draw(st.sampled_from(["\n", "\n", "\r\n"])) for x in lines)
    if lines and draw(st.booleans()):
        text = text[:-1].removesuffix("\r")  # no line end at the end
    return (BOM if draw(st.booleans()) else "") + text


def check_error(text: str, err: DLXFormatError) -> None:
    """``err`` blames the first line at fault, and that line is the lineno-th one when
    lines are counted by '\\n'."""
    bom = BOM if text.startswith(BOM) else ""  # kept on the prefixes parsed below
    raw = text.removeprefix(bom).split("\n")
    content = knuth_lines(text)
    if "no item line" in str(err):
        assert content == []
        return
    assert err.lineno in [n for n, _ in content], (err.lineno, content)
    assert err.line == raw[err.lineno - 1]
    with pytest.raises(DLXFormatError) as again:  # the text up to that line: same error
        parse_dlx(bom + "\n".join(raw[:err.lineno]))
    assert str(again.value) == str(err)
    try:  # ... and before it: no error, or no item line yet
        parse_dlx(bom + "\n".join(raw[:err.lineno - 1]))
    except DLXFormatError as before:
        assert "no item line" in str(before) and err.lineno == content[0][0]


def check_reading(text: str, parsed: tuple[list[str], list[str], list[list[Hashable]]],
                  ) -> None:
    """What parse_dlx read is what Knuth's reading of the lines says."""
    primary, secondary, options = parsed
    (_, head), *rest = knuth_lines(text)
    assert primary + secondary == [w for w in " ".join(head).replace("|", " ").split(" ")
                                   if w]
    assert options == [[Colored(*w.split(":", 1)) if ":" in w else w for w in words]
                       for _, words in rest]


@pytest.mark.slow
@budget(400)
@given(text=hostile_texts())
def test_fuzz_parse_reads_knuth_lines_or_blames_the_right_line(text: str) -> None:
    """parse_dlx and from_dlx, on str and on UTF-8 bytes, either read what Knuth's
    programs would read or raise DLXFormatError at the first line at fault: never any
    other exception. The command says the same, line numbers of dropped options included.
    """
    try:
        parsed = parse_dlx(text)
    except DLXFormatError as err:
        check_error(text, err)
        for variant in (text, text.encode()):
            with pytest.raises(DLXFormatError) as info:
                parse(variant)
            assert str(info.value) == str(err)
        code, out, stderr = run_cli(["--count", "--backend", "python"], stdin=text.encode())
        assert (code, out) == (ExitCode.USAGE, "")
        assert_one_line_error(stderr, f"<stdin>: line {err.lineno}: ")
        return
    check_reading(text, parsed)
    assert parse_dlx(text.encode()) == parsed
    problem = parse(text)
    assert (problem.primary, problem.secondary, list(problem.options())) == parsed
    count = problem.count(backend="python")
    code, out, stderr = run_cli(["--count", "--backend", "python"], stdin=text.encode())
    assert (code, out) == (ExitCode.OK, f"{count}\n"), stderr
    option_linenos = [n for n, _ in knuth_lines(text)[1:]]
    warned = [int(n) for n in re.findall(r"line (\d+): warning", stderr)]
    assert warned == [option_linenos[k] for k in problem.dropped]


@pytest.mark.slow
@budget(200)
@given(text=hostile_texts(), where=st.floats(0, 1),
       bad=st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"]))
def test_fuzz_undecodable_bytes_name_their_line(text: str, where: float, bad: bytes) -> None:
    """Bytes that are not UTF-8, anywhere: a DLXFormatError naming the line they are on."""
    data = text.encode()
    pos = int(where * len(data))
    data = data[:pos] + bad + data[pos:]
    with pytest.raises(DLXFormatError) as info:
        ExactCover.from_dlx(data)
    assert info.value.lineno == data.count(b"\n", 0, pos) + 1
    assert "not UTF-8" in str(info.value)


@st.composite
def problems(draw: st.DrawFn, *, writable: bool) -> tuple[list, list, list]:
    """(primary, secondary, options) of a small problem. ``writable``: string names and
    colors that Knuth's format can hold; otherwise also ints, colliding values and names
    with blanks, '|' or ':', and problems with no primary item."""
    if writable:
        value, color = names, st.text(st.sampled_from(NAME_CHARS + ":"), min_size=1,
                                      max_size=3)
    else:
        odd = st.sampled_from(["", "a b", "x|y", "k:v", "\t", "\ufeffA", "1", "0"])
        value = st.one_of(names, names, st.integers(0, 2), odd)
        color = st.one_of(names, st.integers(0, 2), st.floats(0, 1), odd, st.just((1, 2)),
                          st.text(st.sampled_from(NAME_CHARS + ":|"), min_size=1, max_size=3))
    items = draw(st.lists(value, min_size=1, max_size=6, unique=True))
    n_primary = draw(st.integers(1 if writable else 0, len(items)))
    primary, secondary = items[:n_primary], items[n_primary:]
    options = []
    for _ in range(draw(st.integers(0, 7))):
        chosen = draw(st.lists(st.sampled_from(items), min_size=1, max_size=4, unique=True))
        options.append([Colored(x, draw(color)) if x in secondary and draw(st.booleans())
                        else x for x in chosen])
    return primary, secondary, options


def render(primary: list[str], secondary: list[str], options: list[list[Hashable]],
           draw: st.DrawFn) -> str:
    """The problem in Knuth's format, written as noisily as the format allows."""
    def line(words: list[str]) -> str:
        return draw(st.sampled_from(["", " ", "\f"])) + "".join(
            w + draw(blanks) for w in words) + draw(st.sampled_from(["\n", "\r\n"]))

    def noise() -> str:
        return "".join(draw(st.lists(st.sampled_from(
            ["\n", "\r\n", " \t\n", "| comment\u2028\x85\n", "\v|\n", "|" + BOM + "\n"]),
            max_size=2)))

    head = [*primary, "|", *secondary] if secondary or draw(st.booleans()) else primary
    body = noise() + line(head) + "".join(
        noise() + line([f"{e.item}:{e.color}" if isinstance(e, Colored) else e
                        for e in option]) for option in options) + noise()
    return (BOM if body.startswith(BOM) or draw(st.booleans()) else "") + body


@pytest.mark.slow
@budget(200)
@given(problem=problems(writable=True), data=st.data())
def test_fuzz_noisy_rendering_reads_back(problem, data: st.DataObject) -> None:
    """Comments, blank lines, CRLF, odd ASCII blanks and a BOM change nothing; names full
    of NBSP, U+3000, U+2028, NEL and BOMs come back whole."""
    primary, secondary, options = problem
    text = render(primary, secondary, options, data.draw)
    assert parse_dlx(text) == (primary, secondary, options)
    assert parse_dlx(text.encode()) == (primary, secondary, options)


def unwritable(problem: ExactCover) -> list[str]:
    """Why ``problem`` cannot be written in Knuth's format (words of the error message;
    to_dlx names one of them when there are several), or []: the rules of
    :func:`dlx.dlxformat.format_dlx`, restated independently."""
    colors = list(dict.fromkeys(e.color for option in problem.options() for e in option
                                if isinstance(e, Colored)))

    def bad(value: Hashable, forbidden: str) -> bool:
        s = str(value)
        return not s or any(ch in ASCII_BLANKS or ch in forbidden for ch in s)

    if not problem.primary:
        return ["no primary item"]  # checked first
    why = []
    if any(bad(x, "|:") for x in problem.items) or any(bad(c, "|") for c in colors):
        why.append("cannot be written in DLX format: it")
    if (len({str(x) for x in problem.items}) < len(problem.items)
            or len({str(c) for c in colors}) < len(colors)):
        why.append("would both be written")
    if str(problem.primary[0]).startswith(BOM):
        why.append("byte-order mark")
    return why


@pytest.mark.slow
@budget(400)
@given(spec=st.one_of(problems(writable=True), problems(writable=False)))
def test_fuzz_round_trip(spec) -> None:
    """``from_dlx(p.to_dlx())`` is ``p`` with names and colors as their ``str``: same
    items, options, colors, dropped options and count; or to_dlx raises ArgumentError for
    exactly the problems that cannot be written."""
    primary, secondary, options = spec
    p = build(options, primary=primary, secondary=secondary)
    why = unwritable(p)
    if why:
        with pytest.raises(ArgumentError, match="|".join(map(re.escape, why))):
            p.to_dlx()
        return
    text = p.to_dlx()
    q = parse(text)
    assert q.primary == [str(x) for x in p.primary]
    assert q.secondary == [str(x) for x in p.secondary]
    assert list(q.options()) == [
        [Colored(str(e.item), str(e.color)) if isinstance(e, Colored) else str(e) for e in o]
        for o in p.options()]
    assert q.dropped == p.dropped
    assert q.count(backend="python") == p.count(backend="python")
    assert q.to_dlx() == text


# ----- fuzzing the command line ---------------------------------------------------------

ARGV_WORDS = [
    "--count", "-c", "--indices", "-i", "--limit", "-n", "--max-nodes", "--timeout",
    "--seed", "--backend", "--progress", "--no-progress", "-", "--", "--help", "-h",
    "python", "auto", "numba", "fast", "0", "1", "2", "-1", "3.5", "nan", "inf", "-inf",
    "1e400", "99999999999999999999", "", " ", "--limit=1", "--timeout=nan", "--seed=-7",
    "--max-nodes=99999999999999999999", "/nonexistent/problem.dlx", "bad\x00name", ".",
    "\u00a0", "--cou",
]
STDIN_TEXTS = [KNUTH, "A B\nA\x0cB\nA\nB\n", BOM + "A | X\nA X:1:2\nX:1\n", "", "| c\n",
               "A B\nA C\n", "A\u00a0B\nA\u00a0B\n"]


@budget(300)
@given(argv=st.lists(st.sampled_from(ARGV_WORDS), max_size=6),
       stdin=st.sampled_from(STDIN_TEXTS))
def test_fuzz_command_line(argv: list[str], stdin: str) -> None:
    """Whatever the arguments, main returns an ExitCode (no exception, no SystemExit),
    and an error is one line on stderr."""
    code, _, err = run_cli(argv, stdin)
    assert type(code) is ExitCode
    if code == ExitCode.USAGE and "usage:" not in err:
        assert_one_line_error(err)
