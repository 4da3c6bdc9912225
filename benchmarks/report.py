"""Turn a saved pytest-benchmark JSON into per-group Markdown tables and a time/nodes plot.

    pytest benchmarks --benchmark-only --benchmark-json=results.json
    python -m benchmarks.report results.json --out DIR

Times are per puzzle: a benchmark's median round time divided by ``extra_info["puzzles"]``
(1 when absent), so sets of different sizes compare. The table goes to stdout and to
``DIR/results.md``; ``DIR/time_vs_nodes.png`` is drawn when matplotlib is installed.
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

__all__ = ["Row", "format_seconds", "load_rows", "main", "markdown", "plot"]

PLOT_NAME = "time_vs_nodes.png"
TABLE_NAME = "results.md"


@dataclass(frozen=True)
class Row:
    """One benchmark, normalized to a single puzzle."""

    group: str
    solver: str
    puzzle_set: str
    puzzles: int
    seconds_per_puzzle: float
    nodes_per_puzzle: float | None


def load_rows(data: dict[str, Any]) -> list[Row]:
    """Rows of a pytest-benchmark JSON document, sorted by group then time per puzzle."""
    rows = []
    for bench in data["benchmarks"]:
        info = bench.get("extra_info", {})
        puzzles = int(info.get("puzzles", 1))
        nodes = info.get("nodes")
        group = bench.get("group") or "(no group)"
        rows.append(
            Row(
                group=group,
                solver=info.get("solver", bench["name"]),
                puzzle_set=info.get("puzzle_set", group),
                puzzles=puzzles,
                seconds_per_puzzle=bench["stats"]["median"] / puzzles,
                nodes_per_puzzle=None if nodes is None else nodes / puzzles,
            )
        )
    return sorted(rows, key=lambda row: (row.group, row.seconds_per_puzzle))


def format_seconds(seconds: float) -> str:
    """``seconds`` in the largest of s, ms, µs, ns that keeps the number >= 1."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def markdown(rows: Iterable[Row], header: str = "") -> str:
    """A Markdown table per group; ``vs fastest`` is the ratio to the group's fastest."""
    lines = [header, ""] if header else []
    for group, grouped in groupby(rows, key=lambda row: row.group):
        members = list(grouped)
        fastest = min(row.seconds_per_puzzle for row in members)
        lines += [
            f"## {group}",
            "",
            "| solver | puzzles | median / puzzle | vs fastest | nodes / puzzle |",
            "|---|---:|---:|---:|---:|",
        ]
        for row in members:
            nodes = "-" if row.nodes_per_puzzle is None else f"{row.nodes_per_puzzle:,.1f}"
            ratio = row.seconds_per_puzzle / fastest if fastest else float("nan")
            lines.append(
                f"| {row.solver} | {row.puzzles} | {format_seconds(row.seconds_per_puzzle)}"
                f" | {ratio:.2f}x | {nodes} |"
            )
        lines.append("")
    return "\n".join(lines)


def plot(rows: Sequence[Row], path: Path) -> bool:
    """Log-log time per puzzle against nodes per puzzle, one series per solver.

    Benchmarks without a positive node count cannot sit on a log axis and are left out.
    Returns False, after saying why on stderr, when matplotlib is not installed.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)", file=sys.stderr)
        return False
    points = sorted((row for row in rows if row.nodes_per_puzzle), key=lambda row: row.solver)
    figure = Figure(figsize=(7, 5), layout="constrained")
    axes = figure.subplots()
    for solver, grouped in groupby(points, key=lambda row: row.solver):
        series = list(grouped)
        x = [row.nodes_per_puzzle for row in series]
        y = [row.seconds_per_puzzle * 1e3 for row in series]
        axes.plot(x, y, marker="o", linestyle="none", label=solver)
        for row, xi, yi in zip(series, x, y):
            axes.annotate(
                row.puzzle_set, (xi, yi), fontsize=7, xytext=(4, 2), textcoords="offset points"
            )
    axes.set(
        xscale="log",
        yscale="log",
        xlabel="search nodes per puzzle",
        ylabel="median time per puzzle (ms)",
        title="Sudoku solvers: time vs search nodes",
    )
    axes.margins(0.1)
    axes.grid(True, which="both", alpha=0.3)
    if points:
        axes.legend()
    figure.savefig(path, dpi=120)
    return True


def _provenance(data: dict[str, Any]) -> str:
    """One line saying where and when the numbers were measured."""
    machine = data.get("machine_info", {})
    cpu = machine.get("cpu", {}).get("brand_raw") or machine.get("processor") or "unknown CPU"
    implementation = machine.get("python_implementation", "Python")
    python = f"{implementation} {machine.get('python_version', '?')}"
    commit = (data.get("commit_info", {}).get("id") or "unknown")[:10]
    return f"Measured {data.get('datetime', '?')} on {cpu}, {python}, commit {commit}."


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
    args = parser.parse_args(argv)
    out = args.out or args.json.parent
    data = json.loads(args.json.read_text(encoding="utf-8"))
    rows = load_rows(data)
    text = markdown(rows, header=_provenance(data))
    print(text)
    out.mkdir(parents=True, exist_ok=True)
    (out / TABLE_NAME).write_text(text, encoding="utf-8")
    plot(rows, out / PLOT_NAME)
    return 0


if __name__ == "__main__":
    sys.exit(main())
