"""Turn a saved pytest-benchmark JSON into per-group Markdown tables and a time/nodes plot.

    python -m pytest benchmarks --benchmark-only --benchmark-json=out.json
    python -m benchmarks.report out.json --out docs/bench [--table results.md]

A Sudoku group (several puzzles per round) gets, per solver: the median time per puzzle
(each puzzle timed alone, its best round; the median over the set), the mean (median round
time / puzzles), the slowest puzzle, the ratio of the mean to the group's fastest, and the
search nodes and updates per puzzle when the solver reports them. A group of single
problems (exact cover, cold start) gets the median round time, the ratio, nodes, updates
and the number of solutions. Benchmarks timed against one of Knuth's programs, rounds
interleaved (``benchmarks.knuth.bench_interleaved``), also get a line each in a last
table: our CPU and wall time, his search's CPU and wall time by his own clocks, his whole
process's wall time, and the ratios ours / his. The tables go to stdout and to ``DIR/results.md``;
``DIR/time_vs_nodes.png`` (mean time per puzzle against nodes per puzzle, one series per
solver, log-log) is drawn when matplotlib is installed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

__all__ = [
    "Row",
    "Versus",
    "format_count",
    "format_seconds",
    "load_rows",
    "load_versus",
    "main",
    "markdown",
    "plot",
]

PLOT_NAME = "time_vs_nodes.png"
TABLE_NAME = "results.md"

LEGEND = (
    "*median / puzzle*: each puzzle timed alone (its best round), median over the set; "
    "*mean / puzzle*: median round time / puzzles; *vs fastest*: mean / puzzle over the "
    "group's fastest; *nodes*, *updates*: search work per puzzle as each solver counts it "
    "(dlx: Knuth's DLX1 nodes and updates; backtracking, norvig: digits tried; "
    "algorithm_x_dict: options tried); - : not reported."
)


@dataclass(frozen=True)
class Row:
    """One benchmark, normalized to a single puzzle."""

    group: str
    solver: str
    puzzle_set: str
    puzzles: int
    seconds_per_puzzle: float
    """Mean: the median round time over the number of puzzles."""
    nodes_per_puzzle: float | None
    median_per_puzzle: float | None = None
    """Each puzzle timed alone (best round), median over the puzzles; None if not recorded."""
    max_per_puzzle: float | None = None
    updates_per_puzzle: float | None = None
    rounds: int | None = None
    solutions: int | None = None
    note: str = ""


def _per(value: Any, puzzles: int) -> float | None:
    return None if value is None else value / puzzles


def load_rows(data: dict[str, Any]) -> list[Row]:
    """Rows of a pytest-benchmark JSON document, sorted by group then mean time per puzzle."""
    rows = []
    for bench in data["benchmarks"]:
        info = bench.get("extra_info", {})
        stats = bench["stats"]
        puzzles = int(info.get("puzzles", 1))
        group = bench.get("group") or "(no group)"
        median = info.get("median_per_puzzle_s")
        if median is None and "median_per_puzzle_ms" in info:  # older JSON files
            median = info["median_per_puzzle_ms"] / 1e3
        if median is None and puzzles == 1:
            median = stats["median"]
        rows.append(
            Row(
                group=group,
                solver=info.get("solver", bench["name"]),
                puzzle_set=info.get("puzzle_set", group),
                puzzles=puzzles,
                seconds_per_puzzle=stats["median"] / puzzles,
                nodes_per_puzzle=_per(info.get("nodes"), puzzles),
                median_per_puzzle=median,
                max_per_puzzle=info.get("max_per_puzzle_s"),
                updates_per_puzzle=_per(info.get("updates"), puzzles),
                rounds=stats.get("rounds"),
                solutions=info.get("solutions"),
                note=info.get("note", ""),
            )
        )
    return sorted(rows, key=lambda row: (row.group, row.seconds_per_puzzle))


@dataclass(frozen=True)
class Versus:
    """One benchmark of ours against Knuth's program, rounds interleaved: medians, seconds."""

    group: str
    solver: str
    knuth: str
    file: str
    rounds: int
    cpu_s: float
    wall_s: float
    knuth_search_cpu_s: float
    knuth_search_s: float
    knuth_process_s: float
    ratio_cpu: float
    ratio_wall: float
    load: float | None = None
    """The machine's load average over the last minute, at the end of the rounds."""


def load_versus(data: dict[str, Any]) -> list[Versus]:
    """The benchmarks of a pytest-benchmark JSON document that ran against one of Knuth's
    programs (their ``extra_info`` has ``knuth``), by program then file."""
    rows = []
    for bench in data["benchmarks"]:
        info = bench.get("extra_info", {})
        if "knuth" not in info:
            continue
        rows.append(Versus(bench.get("group") or "(no group)", info.get("solver", bench["name"]),
                           **{name: info[name] for name in Versus.__dataclass_fields__
                              if name not in ("group", "solver") and name in info}))
    return sorted(rows, key=lambda row: (row.knuth, row.group))


VERSUS_LEGEND = (
    "Rounds alternate, Knuth's program then ours, on the same file; medians over the rounds. "
    "*ours*: the whole warm call (numba), CPU and wall; *Knuth search*: his program's own "
    "clocks from the end of its input to the end of its search (a timed build, `<name>t`); "
    "*process*: his whole process, start-up and reading included, as we saw it; "
    "*ratio*: ours / his search (below 1: ours is faster); *load*: the machine's load "
    "average over the last minute, at the end of the rounds."
)


def versus_markdown(rows: Sequence[Versus]) -> list[str]:
    """The lines of the table of the benchmarks against Knuth's programs (none if none)."""
    if not rows:
        return []
    lines = ["## Against Knuth's programs, search against search", "", VERSUS_LEGEND, "",
             "| program | file | ours CPU | Knuth search CPU | ratio CPU | ours wall "
             "| Knuth search wall | ratio wall | Knuth process | rounds | load |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(
            f"| {row.knuth} | {row.file} ({row.solver}) | {format_seconds(row.cpu_s)}"
            f" | {format_seconds(row.knuth_search_cpu_s)} | {row.ratio_cpu:.2f}x"
            f" | {format_seconds(row.wall_s)} | {format_seconds(row.knuth_search_s)}"
            f" | {row.ratio_wall:.2f}x | {format_seconds(row.knuth_process_s)} | {row.rounds}"
            f" | {'-' if row.load is None else f'{row.load:.2f}'} |"
        )
    return [*lines, ""]


def format_seconds(seconds: float | None) -> str:
    """``seconds`` in the largest of s, ms, µs, ns that keeps the number >= 1; - for None."""
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_count(value: float | None) -> str:
    """A count with thousands separators, one decimal when it is a fraction; - for None."""
    if value is None:
        return "-"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.1f}"


def _ratio(row: Row, fastest: float) -> str:
    return f"{row.seconds_per_puzzle / fastest:.2f}x" if fastest > 0 else "-"


def markdown(rows: Iterable[Row], header: str = "", versus: Sequence[Versus] = ()) -> str:
    """A Markdown table per group; ``vs fastest`` is the ratio to the group's fastest. Then
    the table of ``versus``, the benchmarks against Knuth's programs, if any."""
    lines = ["# Benchmark results", ""]
    lines += [header, ""] if header else []
    lines += [LEGEND, ""]
    for group, grouped in groupby(rows, key=lambda row: row.group):
        members = list(grouped)
        fastest = min(row.seconds_per_puzzle for row in members)
        lines += [f"## {group}", ""]
        if any(row.puzzles > 1 for row in members):
            lines += [
                "| solver | puzzles | median / puzzle | mean / puzzle | slowest puzzle "
                "| vs fastest | nodes / puzzle | updates / puzzle | rounds | notes |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
            ]
            for row in members:
                lines.append(
                    f"| {row.solver} | {row.puzzles} | {format_seconds(row.median_per_puzzle)}"
                    f" | {format_seconds(row.seconds_per_puzzle)}"
                    f" | {format_seconds(row.max_per_puzzle)} | {_ratio(row, fastest)}"
                    f" | {format_count(row.nodes_per_puzzle)}"
                    f" | {format_count(row.updates_per_puzzle)}"
                    f" | {format_count(row.rounds)} | {row.note} |"
                )
        else:
            lines += [
                "| solver | median time | vs fastest | nodes | updates | solutions "
                "| rounds | notes |",
                "|---|---:|---:|---:|---:|---:|---:|---|",
            ]
            for row in members:
                lines.append(
                    f"| {row.solver} | {format_seconds(row.seconds_per_puzzle)}"
                    f" | {_ratio(row, fastest)} | {format_count(row.nodes_per_puzzle)}"
                    f" | {format_count(row.updates_per_puzzle)} | {format_count(row.solutions)}"
                    f" | {format_count(row.rounds)} | {row.note} |"
                )
        lines.append("")
    return "\n".join(lines + versus_markdown(versus))


def plot(rows: Sequence[Row], path: Path) -> bool:
    """Log-log mean time per puzzle against nodes per puzzle, one series per solver.

    Benchmarks without a positive node count (solvers that report none) cannot sit on a
    log axis and are left out. Returns False, after saying why on stderr, when matplotlib
    is not installed.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)", file=sys.stderr)
        return False
    points = sorted(
        (row for row in rows if row.nodes_per_puzzle and row.nodes_per_puzzle > 0),
        key=lambda row: row.solver,
    )
    figure = Figure(figsize=(8, 5.5), layout="constrained")
    axes = figure.subplots()
    markers = "osD^v<>pX*h"
    for k, (solver, grouped) in enumerate(groupby(points, key=lambda row: row.solver)):
        series = list(grouped)
        x = [float(row.nodes_per_puzzle or 0) for row in series]  # (> 0: filtered above)
        y = [row.seconds_per_puzzle * 1e3 for row in series]
        axes.plot(x, y, marker=markers[k % len(markers)], linestyle="none", label=solver)
        for row, xi, yi in zip(series, x, y):
            axes.annotate(
                row.puzzle_set, (xi, yi), fontsize=6, xytext=(4, 2), textcoords="offset points"
            )
    axes.set(
        xscale="log",
        yscale="log",
        xlabel="search nodes per puzzle (as each solver counts them)",
        ylabel="mean time per puzzle (ms)",
        title="Time against search nodes (solvers that report nodes)",
    )
    axes.margins(0.1)
    axes.grid(True, which="both", alpha=0.3)
    if points:
        axes.legend(fontsize=8)
    figure.savefig(path, dpi=120)
    return True


def _provenance(data: dict[str, Any]) -> str:
    """One line saying where and when the numbers were measured."""
    machine = data.get("machine_info", {})
    cpu = machine.get("cpu", {}).get("brand_raw") or machine.get("processor") or "unknown CPU"
    implementation = machine.get("python_implementation", "Python")
    python = f"{implementation} {machine.get('python_version', '?')}"
    commit = (data.get("commit_info", {}).get("id") or "unknown")[:10]
    dirty = " (with uncommitted changes)" if data.get("commit_info", {}).get("dirty") else ""
    return f"Measured {data.get('datetime', '?')} on {cpu}, {python}, commit {commit}{dirty}."


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point; see the module docstring."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.report",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("json", type=Path, help="file written by pytest --benchmark-json")
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="directory for results.md and the plot (default: the JSON's)",
    )
    parser.add_argument(
        "--table",
        default=TABLE_NAME,
        metavar="NAME",
        help=f"file name of the tables in DIR (default: {TABLE_NAME}); another name, for "
        "a run of some groups, also leaves the plot alone",
    )
    args = parser.parse_args(argv)
    out = args.out or args.json.parent
    data = json.loads(args.json.read_text(encoding="utf-8"))
    rows = load_rows(data)
    text = markdown(rows, header=_provenance(data), versus=load_versus(data))
    print(text)
    out.mkdir(parents=True, exist_ok=True)
    (out / args.table).write_text(text, encoding="utf-8")
    if args.table == TABLE_NAME:  # a partial run (another table name) leaves the plot alone
        plot(rows, out / PLOT_NAME)
    return 0


if __name__ == "__main__":
    sys.exit(main())
