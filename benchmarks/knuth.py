"""Knuth's programs (DLX1, DLX2, DLX3, DLX6) run as subprocesses, timed by their own clocks.

The timed builds (``dlx1t``, ``dlx2t``, ...; ``../shared/tools/native-anchors/build.sh``)
are Knuth's programs with a change file that prints, after his totals,
``dlx1-time: input X us, search Y us; cpu: input A us, search B us``: wall (X, Y) and CPU
(A, B) microseconds, the search running from the end of input (``imems=mems, mems=0``)
to the ``done:`` label. That search time, not the process's, is what our warm search is
compared with: starting the process and reading the file are not the search.

:func:`program` finds a binary (``--dlx1 PATH`` and the like, else ``$DLX1``, else
``$ANCHORS/knuth/build/dlx1t``, ``ANCHORS`` defaulting to ``~/.cache/dancing-cover-anchors``),
:func:`run` runs one and parses its report, :func:`bench_interleaved` times our search
against it, rounds alternating; :func:`bench_user_cpu` compares user CPU only, his whole
process against our warm search.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

__all__ = [
    "ARGS",
    "PROGRAMS",
    "Dlx1Totals",
    "Run",
    "Times",
    "anchors_dir",
    "bench_interleaved",
    "bench_user_cpu",
    "default_program",
    "dlx1_count",
    "parse_dlx1",
    "parse_times",
    "run",
]

T = TypeVar("T")

PROGRAMS = ("dlx1", "dlx2", "dlx3", "dlx6")
"""Knuth's programs the benchmarks compare with; ``$DLX1`` (etc.) or ``--dlx1`` names one."""

ARGS = ("v1", "m0")
"""The command line for counting: ``v1`` prints only the basic totals (no warnings about
options without primary items), ``m0`` prints no solution (the default, made explicit)."""

_TOTALS = re.compile(
    r"Altogether (\d+) solutions?, (\d+)\+(\d+)(?:-\d+)? mems, (\d+) updates,"
    r"(?: \d+ cleansings,)? (\d+) bytes, (\d+) (?:search )?nodes(?:, [^\n]*)?\."
)
"""The totals line: DLX1's ``... <n> nodes.`` (Knuth's current version adds ``, ccost 5%``),
DLX2's and DLX3's ``<k> cleansings`` (and DLX2's ``<a>+<b>-<c> mems``), DLX6's
``<n> search nodes, <z> ZDD nodes, ...``: all are read."""

_TIMES = re.compile(
    r"-time: input ([\d.]+) us, search ([\d.]+) us; cpu: input ([\d.]+) us, search ([\d.]+) us"
)


class Dlx1Totals(NamedTuple):
    """Knuth's final report: solutions found, search-tree nodes (a solution counts as a node,
    as in TAOCP 7.2.2-(4); DLX6's search nodes) and updates, what our engine reproduces."""

    solutions: int
    nodes: int
    updates: int


class Times(NamedTuple):
    """A timed build's own clocks, in seconds: reading the input, then the search."""

    input_s: float
    search_s: float
    input_cpu_s: float
    search_cpu_s: float


class Run(NamedTuple):
    """One run of a program: its totals, its own times (None from an untimed build), the
    wall time of the whole process as we saw it, and its report (stderr)."""

    totals: Dlx1Totals
    times: Times | None
    process_s: float
    report: str


def parse_dlx1(stderr: str) -> Dlx1Totals:
    """The totals in a program's stderr, from its last line ``Altogether <n> solution(s),
    <input>+<search> mems, <u> updates, <b> bytes, <n> nodes.``; ValueError if there is none."""
    found = _TOTALS.findall(stderr)
    if not found:
        raise ValueError(f"no DLX1 totals in its output: {stderr[-500:]!r}")
    solutions, _imems, _mems, updates, _bytes, nodes = map(int, found[-1])
    return Dlx1Totals(solutions, nodes, updates)


def parse_times(stderr: str) -> Times | None:
    """The last ``<p>-time: ...`` line of a timed build, in seconds; None if there is none."""
    found = _TIMES.findall(stderr)
    return Times(*(float(us) / 1e6 for us in found[-1])) if found else None


def run(binary: str | Path, dlx_file: str | Path, args: tuple[str, ...] = ARGS) -> Run:
    """Run ``binary args < dlx_file`` and parse its report; a run that fails (exit status,
    no totals, say a TIMEOUT) raises RuntimeError."""
    with open(dlx_file, "rb") as stdin:
        start = time.perf_counter()
        done = subprocess.run([str(binary), *args], stdin=stdin, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, check=False)
        process_s = time.perf_counter() - start
    stderr = done.stderr.decode(errors="replace")
    if done.returncode != 0 or "TIMEOUT" in stderr:
        raise RuntimeError(f"{binary} failed (exit {done.returncode}) on {dlx_file}: {stderr}")
    try:
        totals = parse_dlx1(stderr)
    except ValueError as error:
        raise RuntimeError(f"{binary} on {dlx_file}: {error}") from None
    return Run(totals, parse_times(stderr), process_s, stderr)


def dlx1_count(binary: str | Path, dlx_file: str | Path) -> Dlx1Totals:
    """Run ``binary v1 m0 < dlx_file`` (count every solution) and return its totals."""
    return run(binary, dlx_file).totals


def anchors_dir() -> Path:
    """Where the native anchors are built: ``$ANCHORS``, default ~/.cache/dancing-cover-anchors."""
    return Path(os.environ.get("ANCHORS") or Path.home() / ".cache" / "dancing-cover-anchors")


def default_program(name: str) -> Path:
    """The timed build of ``name`` where ``build.sh`` puts it: ``$ANCHORS/knuth/build/<name>t``."""
    return anchors_dir() / "knuth" / "build" / f"{name}t"


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _ratio(ours: float, theirs: float) -> float:
    return ours / theirs if theirs > 0 else float("nan")


def bench_interleaved(benchmark: Any, ours: Callable[[], T], binary: Path, dlx_file: Path,
                      rounds: int) -> tuple[T, Run]:
    """Time ``ours()`` (warm: the caller loads the kernel first) against ``binary`` on
    ``dlx_file``, rounds alternating: Knuth's program, ours, Knuth's, ours, ...

    The benchmark's own statistics are our wall times (Knuth's run is the untimed ``setup``
    of each round). ``extra_info`` gets the medians over the rounds, in seconds: ours
    (``cpu_s``, ``wall_s``), Knuth's search by its own clocks (``knuth_search_cpu_s``,
    ``knuth_search_s``), his whole process's wall (``knuth_process_s``), and the ratios
    ours / Knuth's (``ratio_cpu``, ``ratio_wall``); ``load``, the machine's load average
    over the last minute at the end. Returns our last result and his last run.
    """
    theirs: list[Run] = []
    cpu: list[float] = []
    wall: list[float] = []

    def knuth() -> None:
        done = run(binary, dlx_file)
        if done.times is None:
            raise RuntimeError(f"{binary} printed no search time: not a timed build "
                               "(see ../shared/tools/native-anchors/build.sh)")
        theirs.append(done)

    def timed() -> T:
        c, w = time.process_time(), time.perf_counter()
        result = ours()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
        return result

    result = benchmark.pedantic(timed, setup=knuth, rounds=rounds, iterations=1)
    times = [r.times for r in theirs if r.times is not None]
    k_cpu = _median([t.search_cpu_s for t in times])
    k_wall = _median([t.search_s for t in times])
    benchmark.extra_info.update(
        knuth=Path(binary).name, file=Path(dlx_file).stem, rounds=len(cpu),
        cpu_s=_median(cpu), wall_s=_median(wall), knuth_search_cpu_s=k_cpu,
        knuth_search_s=k_wall, knuth_process_s=_median([r.process_s for r in theirs]),
        ratio_cpu=_ratio(_median(cpu), k_cpu), ratio_wall=_ratio(_median(wall), k_wall),
        cpu_rounds_s=cpu, knuth_cpu_rounds_s=[t.search_cpu_s for t in times],
        load=os.getloadavg()[0])
    return result, theirs[-1]


def _user_s(who: int) -> float:
    return resource.getrusage(who).ru_utime


def bench_user_cpu(benchmark: Any, ours: Callable[[], T], binary: Path, dlx_file: Path,
                   rounds: int) -> tuple[T, Run]:
    """User CPU only, rounds alternating: ``binary`` on ``dlx_file``, a whole process
    (``RUSAGE_CHILDREN``'s ``ru_utime`` across it), then ``ours()``, warm, in this process
    (``RUSAGE_SELF``'s across the call).

    System time is left out on both sides: DLX6 maps a fixed 2**30-entry hash table and
    the cache, whose page faults are most of its search's CPU (0.25 s of 0.36 s on domino
    12x12), and our tables grow by fresh, zeroed arrays, whose faults are ours. His whole
    process, not his search: its user CPU before the search (reading the file, ~0.1-1 ms
    by his own clocks) is counted against him, a bias of under 1%. Ours in-process and
    warm, not in a subprocess: a fresh Python's start and its loading of the compiled
    kernel (~0.4 s user) are not the search. ``extra_info``: the medians (``user_s``,
    ``knuth_user_s``, his ``knuth_sys_s``), ``ratio_user`` (ours / his), the rounds, the
    load. Returns our last result and his last run."""
    theirs: list[Run] = []
    knuth_user: list[float] = []
    knuth_sys: list[float] = []
    user: list[float] = []

    def knuth() -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        theirs.append(run(binary, dlx_file))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        knuth_user.append(after.ru_utime - before.ru_utime)
        knuth_sys.append(after.ru_stime - before.ru_stime)

    def timed() -> T:
        u = _user_s(resource.RUSAGE_SELF)
        result = ours()
        user.append(_user_s(resource.RUSAGE_SELF) - u)
        return result

    result = benchmark.pedantic(timed, setup=knuth, rounds=rounds, iterations=1)
    benchmark.extra_info.update(
        knuth=Path(binary).name, file=Path(dlx_file).stem, rounds=len(user),
        user_s=_median(user), knuth_user_s=_median(knuth_user),
        knuth_sys_s=_median(knuth_sys),
        ratio_user=_ratio(_median(user), _median(knuth_user)), user_rounds_s=user,
        knuth_user_rounds_s=knuth_user, load=os.getloadavg()[0])
    return result, theirs[-1]
