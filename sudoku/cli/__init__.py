"""The ``sudoku`` command: solve (or count the solutions of) puzzles from the command line;
make, rate and explain them.

One puzzle comes as an argument (a row of 81 symbols, or a drawn grid in quotes) or by name
(``--named``); many come one per line from a file or stdin (lines end at ``\\n`` or
``\\r\\n`` only: [`sudoku.named.split_lines`][]), blank lines and ``#`` comments
echoed in their place, so that output line k answers input line k. With ``--variant``
(x, windoku, jigsaw, killer, rect; ``--box RxC`` for rectangular boxes) each puzzle is a
line of that variant's format ([`sudoku.formats.read_line`][]), which may carry its own
rules (a jigsaw's regions, a killer's cages): consecutive lines with the same rules are
solved in one batch, and a line that does not parse is a malformed puzzle.

Input is UTF-8: a leading byte-order mark is skipped, and bytes that are not UTF-8 read as
U+FFFD, which is no symbol, so only their line fails. Answers go to stdout, one per
puzzle, in input order; of many puzzles (``-f``), one that fails prints the marker line
``# ErrorName`` there ([`sudoku.cli.solving.FAILED`][]), so that answers line up with
the puzzle lines, and its line number and reason go to stderr; one puzzle given alone
that fails prints nothing on stdout. Everything else that goes wrong is one ``sudoku: ...`` line on
stderr, never a traceback.

The exit status is [`dlx.ExitCode`][], the table shared with the ``dlx`` command (and
printed by ``--help``, generated from it): 0 all answered; 1 some puzzle has no solution
(or no unique one); 2 a usage error, a malformed puzzle line, a bad alphabet, input that
cannot be read; 3 ``--max-nodes`` or ``--timeout`` stopped some puzzle, or a worker
process or a cluster failed; 4 the output cannot be written (stdout closed, disk full);
130 Ctrl-C. When puzzles fail in different ways the status is the first of 2, 3, 1 that
applies ([`PRECEDENCE`][]). A reader that stops early (``sudoku -f big.txt | head``) is
not an error: the command stops quietly with 0.

The package: this module holds the parser, the one check of a command line argparse
accepted ([`usage_problem`][]) and the dispatch; [`sudoku.cli.solving`][] the solving
(one puzzle, many by chunks on worker processes or a cluster); [`sudoku.cli.making`][]
``--generate``, ``--rate`` and ``--explain``. The plumbing shared with ``dlx`` (reading,
writing, the guarded main, the pool) is [`dlx.command`][]'s.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Iterable

from dlx import ExitCode, backend_names, get_backend
from dlx.command import (
    BOM,
    RENAMED,
    Command,
    CommandError,
    Output,
    OutputError,
    count_type,
    isatty,
    own_process,
    seconds_type,
    show_progress,
    worker_count,
)

from .. import __version__
from ..arguments import STRATEGIES, strategy_arg
from ..errors import AlphabetError, ArgumentError
from ..formats import VARIANTS
from ..generate import MAX_SIDE_MADE
from ..grid import check_alphabet
from ..layout import MAX_SIDE, Layout
from ..named import PuzzleLines, load_named, puzzle_lines
from . import explaining, making
from .solving import (
    CHUNK,
    PRECEDENCE,
    Answer,
    Options,
    Task,
    exit_code,
    run_chunk,
    run_many,
    run_on_executor,
    run_one,
    run_single,
    run_task,
    variant_tasks,
)

__all__ = ["CHUNK", "PRECEDENCE", "Answer", "Options", "Task", "exit_code", "main",
           "run_chunk", "run_one", "run_task", "usage_problem", "variant_tasks",
           "worker_count"]

PROG = "sudoku"

COMMAND = Command(PROG, newline_on_interrupt=True)
"""How the command speaks: its messages' prefix and words ([`dlx.command.Command`][])."""

MEANING = {
    ExitCode.OK: "every puzzle solved (or counted)",
    ExitCode.UNSOLVED: "some puzzle has no solution (clashing givens, none at all, or more "
                       "than one with --unique)",
    ExitCode.USAGE: "bad options or alphabet, a malformed puzzle, or input that cannot be "
                    "read",
    ExitCode.STOPPED: "--max-nodes or --timeout stopped some puzzle before it was decided",
    ExitCode.OUTPUT: "the output cannot be written (stdout closed, disk full)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
}
"""What each exit status means for this command; the numbers and names are dlx.ExitCode's."""


def main(argv: Iterable[str] | None = None) -> int:
    """Run the command; returns its exit status, a [`dlx.ExitCode`][]."""
    own_process()  # loading the compiled kernel may skip numba's import of scipy.linalg
    named = load_named()
    return COMMAND.main(_parser(sorted(named)), None if argv is None else list(argv),
                        lambda args: _run(args, named))


def _run(args: argparse.Namespace, named: dict[str, str]) -> int:
    """The command on its parsed arguments: checked, then dispatched."""
    problem = usage_problem(args)
    if problem:
        raise CommandError(problem, usage=True)
    if args.strategy in RENAMED:  # an old name: it still works, and says its new one
        COMMAND.say(f"{PROG}: --strategy {args.strategy} is deprecated: it is now "
                    f"--strategy {RENAMED[args.strategy]}")
        args.strategy = RENAMED[args.strategy]
    if sys.stdout is None:
        raise OutputError("stdout is closed")
    out = Output(sys.stdout)
    show = show_progress(args.progress)
    if args.generate is not None or args.explain is not None or args.rate \
            or args.hint is not None:
        code = _make(args, named, out, show)
        out.flush()
        return code
    single = args.puzzle is not None or args.named is not None
    opts = Options(count=args.count, limit=args.limit, unique=args.unique,
                   pretty=not args.count and (args.pretty or (single and isatty(sys.stdout))),
                   alphabet=args.alphabet, backend=args.backend, timeout=args.timeout,
                   max_nodes=args.max_nodes, strategy=args.strategy)
    if single:
        return run_single(opts, args.puzzle if args.named is None else named[args.named],
                          args.variant, args.box, out,
                          lambda text: COMMAND.say(f"{PROG}: {text}"), args.svg)
    lines = _lines(args.file)
    tasks: list[Task] = variant_tasks(opts, lines.puzzles, args.variant, args.box) \
        if args.variant else [(opts, [puzzle for _, puzzle in lines.puzzles])]
    if args.executor:
        return run_on_executor(args.executor, opts, lines, tasks, args.jobs, show, out)
    return run_many(opts, lines, tasks, args.jobs, show, out)


def _make(args: argparse.Namespace, named: dict[str, str], out: Output, show: bool) -> int:
    """``--generate``, ``--explain`` or ``--rate`` ([`sudoku.cli.making`][])."""
    if args.generate is not None:
        return making.generate_lines(args, out, show)
    if args.hint is not None:
        return explaining.hint_one(args, out, COMMAND)
    if args.explain is not None:
        if args.html is not None:  # the steps drawn on one page too
            return explaining.explain_html(args, out, COMMAND)
        return making.explain_one(args, out, COMMAND)
    if args.puzzle is not None or args.named is not None:
        lines = PuzzleLines([(1, args.puzzle if args.named is None else named[args.named])])
    else:
        lines = _lines(args.file)
    return making.rate_lines(args, lines, out, show)


def _lines(path: str | None) -> PuzzleLines:
    """The numbered puzzle lines of a file (None or ``-``: stdin), and its blank and
    comment lines in place ([`sudoku.named.puzzle_lines`][]): UTF-8, a leading
    byte-order mark dropped, undecodable bytes read as U+FFFD (only their line fails)."""
    text = COMMAND.read(path or "-", lambda data: data.decode("utf-8", errors="replace"))
    return puzzle_lines(text.removeprefix(BOM))


def usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with a command line that argparse accepted, or None: the one check of
    every mode (solving, ``--generate``, ``--rate``, ``--explain``)."""
    problem = explaining.usage_problem(args)  # --hint, --html
    if problem:
        return problem
    modes = [args.generate is not None, args.rate,
             args.explain is not None or args.hint is not None]
    making_mode = any(modes)
    sources = [args.puzzle is not None, args.file is not None, args.named is not None]
    if sum(modes) > 1:
        return "give one of --generate, --rate, --explain"
    if (args.difficulty or args.seed is not None or args.symmetry != "none") \
            and args.generate is None:
        return "--difficulty, --symmetry and --seed go with --generate"
    if making_mode:
        if args.count or args.unique or args.limit is not None:
            return "--count, --unique and --limit do not go with --generate, --rate, --explain"
        if args.generate is not None and any(sources):
            return "--generate reads no puzzle"
        if args.explain is not None and any(sources):
            return "--explain takes its puzzle as its argument"
        budgets = args.max_nodes is not None or args.timeout is not None
        if budgets and (args.generate is None or args.variant == "killer"):
            return "--max-nodes and --timeout go with solving and --generate (not of killers)"
    if sum(sources) > 1:
        return "give one of: a puzzle, -f FILE, --named NAME"
    if not making_mode:
        if args.svg is not None and not (args.puzzle is not None or args.named is not None):
            return "--svg draws one puzzle: give it as an argument or with --named"
        if args.limit is not None and not args.count:
            return "--limit needs --count"
        if args.jobs < 0:
            return f"-j must be 0 or more, got {args.jobs}"
    if args.variant and args.named is not None:
        return "--named puzzles are plain: give a --variant line, or -f FILE"
    if making_mode and args.box is not None and args.variant not in (None, "rect", "killer"):
        return "--box goes with plain puzzles, --variant rect or --variant killer"
    if args.generate is not None and args.box is not None \
            and args.box[0] * args.box[1] > MAX_SIDE_MADE:
        side = args.box[0] * args.box[1]
        return (f"--generate makes grids up to {MAX_SIDE_MADE}x{MAX_SIDE_MADE}: --box "
                f"{args.box[0]}x{args.box[1]} makes {side}x{side}")
    if not making_mode and args.box is not None and args.variant not in ("rect", "killer"):
        return "--box needs --variant rect or --variant killer"
    if args.variant == "rect" and args.box is None:
        return "--variant rect needs --box RxC (e.g. --box 2x3)"
    if making_mode and args.alphabet is not None:
        return "--alphabet does not go with --generate, --rate, --explain"
    try:
        # a variant's side is its lines': the alphabet is checked here for its symbols
        size = len(args.alphabet) if args.variant and args.alphabet is not None else 0
        check_alphabet(args.alphabet, Layout.latin(size) if 2 <= size <= MAX_SIDE else None)
    except AlphabetError as e:
        return f"--alphabet: {e}"
    if args.backend == "numba":
        try:
            get_backend("numba")
        except ImportError as e:
            return str(e)
    if not making_mode and not any(sources) and isatty(sys.stdin):
        return "no puzzle given (pass one, or -f FILE, or pipe puzzles in)"
    return None


# ----- the parser ---------------------------------------------------------------------------


def _box(text: str) -> tuple[int, int]:
    """An argparse type: ``RxC`` (e.g. ``2x3``), boxes of R rows and C columns."""
    rows, sep, cols = text.lower().partition("x")
    if not (sep and rows.isdigit() and cols.isdigit()) or int(rows) < 1 or int(cols) < 1 \
            or not 2 <= int(rows) * int(cols) <= MAX_SIDE:
        raise argparse.ArgumentTypeError(f"expected RxC (rows x columns of a box, e.g. 2x3, "
                                         f"R*C in 2..{MAX_SIDE}), got {text!r}")
    return int(rows), int(cols)


def _strategy(text: str) -> str:
    """An argparse type: one of [`sudoku.arguments.STRATEGIES`][], by the library's rule
    and message; an old name ([`dlx.arguments.RENAMED`][]: ``hard``) is kept as it is,
    for the command to say its new one."""
    if text in RENAMED:
        return text
    try:
        return strategy_arg(text)
    except ArgumentError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _epilog() -> str:
    """The exit statuses, from dlx.ExitCode (a status this module does not describe is
    listed by its name), and the precedence among them."""
    lines = [ExitCode.table(MEANING)]
    first = ", ".join(f"{code.value} ({code.name})" for code in PRECEDENCE)
    lines.append(textwrap.fill(
        f"When puzzles fail in different ways, the status is the first of {first} that "
        "applies. A reader that stops early (sudoku ... | head) is not an error: 0.",
        width=79))
    return "\n".join(lines)


def _parser(names: list[str]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Solve Sudoku puzzles (4x4 to 36x36) with Knuth's Dancing Links.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("-V", "--version", action="version",
                   version=f"%(prog)s {__version__} (dancing-cover)")
    p.add_argument("puzzle", nargs="?",
                   help="one puzzle: 81 symbols ('.' or '0' blank), or a drawn grid in quotes "
                        "(with --variant: one line of its format, in quotes)")
    p.add_argument("-f", "--file", metavar="FILE",
                   help="read puzzles one per line from FILE ('-' = stdin, the default); "
                        "UTF-8, a leading byte-order mark is skipped; one output line per "
                        "line: a puzzle's answer, '# ErrorName' for one that fails (its "
                        "reason on stderr); blank and # lines are echoed (not with "
                        "--pretty)")
    p.add_argument("--named", metavar="NAME", choices=names,
                   help=f"a shipped famous puzzle: {', '.join(names)}")
    what = p.add_mutually_exclusive_group()
    what.add_argument("-c", "--count", action="store_true",
                      help="print the number of solutions of each puzzle instead")
    what.add_argument("--unique", action="store_true",
                      help="fail for a puzzle with more than one solution")
    p.add_argument("-n", "--limit", type=count_type("limit"), metavar="N",
                   help="with --count: stop counting at N")
    p.add_argument("--pretty", action="store_true",
                   help="draw each solution as a grid (the default for one puzzle on a terminal)")
    p.add_argument("--variant", choices=VARIANTS,
                   help="read each puzzle in a variant's line format: x, windoku, rect "
                        "(GIVENS), jigsaw (GIVENS REGIONS), killer (CAGEMAP SUMS [GIVENS])")
    p.add_argument("--box", type=_box, metavar="RxC",
                   help="the boxes' rows x columns, e.g. 2x3 (with --variant rect; with "
                        "--variant killer when the grid is not 9x9)")
    p.add_argument("--alphabet", metavar="SYMBOLS",
                   help="the N symbols, e.g. 0123456789ABCDEF (default 1-9, then A-Z, a-z); "
                        "no '.', whitespace, '|', '-', '+' or '#'")
    p.add_argument("--svg", metavar="FILE",
                   help="with one puzzle: also draw it, solved, as an SVG picture in FILE")
    p.add_argument("--backend", choices=backend_names(), default="auto", help="search kernel")
    p.add_argument("--strategy", type=_strategy, default="auto",
                   metavar="{" + ",".join(STRATEGIES) + "}",
                   help="auto (default): the library chooses (plain; learn from 25x25 up, "
                        "after a short plain head start); plain: Knuth's search only; "
                        "learn: a reduction at the root, then clause learning (for large "
                        "minimal puzzles); as strategy= in the library")
    p.add_argument("--timeout", type=seconds_type(), metavar="SECONDS",
                   help="give up on a puzzle after this long (>= 0; inf: never), as in dlx")
    p.add_argument("--max-nodes", type=count_type("max_nodes"), metavar="N",
                   help="give up on a puzzle after N search nodes")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show progress and a summary on stderr (default: when stderr is a "
                        "terminal)")
    p.add_argument("-j", "--jobs", "--workers", type=int, default=1, metavar="N",
                   help="solve with N processes (0 = one per CPU; never more than the CPUs); "
                        "output stays in input order")
    making.add_arguments(p)
    explaining.add_arguments(p)
    p.add_argument("--executor", metavar="URL",
                   help="solve the chunks of a large file on dask://HOST:PORT (a Dask "
                        "scheduler), ray://HOST:PORT or 'ray' (a local Ray instance); output "
                        "stays in input order")
    return p
