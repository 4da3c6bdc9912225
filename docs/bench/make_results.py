"""Measure the benchmarks again and write the results page, in one command, from the
repository's top::

    python docs/bench/make_results.py                        # docs/bench/results.md + plot
    python docs/bench/make_results.py --table knuth.md -k knuth   # the page against Knuth

Other arguments go to pytest as they are (``-k EXPR``, ``--dlx1 PATH``, ``--long``,
``--puzzles DIR``: ``benchmarks/README.md``). It runs ``python -m pytest benchmarks
--benchmark-only --benchmark-json=FILE`` and writes the tables of ``benchmarks.report``
under one line that says when the run was (its date and time, UTC), at which commit, on
what machine (CPU, CPUs, Python, numpy, numba) and under what load: the load average just
before and just after the run, so that a page measured on a busy machine says so. Use a
quiet machine; the run itself adds about 1 to the load of a machine with two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "bench"
COMMAND = "python docs/bench/make_results.py"


def _versions() -> str:
    """numpy's and numba's versions, as this interpreter has them (the run's own)."""
    found = []
    for name in ("numpy", "numba"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        found.append(f"{name} {module.__version__}")
    return ", ".join(found)


def provenance(data: dict[str, Any], load: tuple[float, float] | None,
               versions: str = "") -> str:
    """The line that says when, at which commit, on what and under what load a run of
    pytest-benchmark (its JSON, ``data``) measured; ``load``: the load average before
    and after the run, None when not recorded."""
    stamp = data.get("datetime")
    try:
        when = datetime.fromisoformat(stamp).astimezone(timezone.utc)  # type: ignore[arg-type]
        date = f"{when.day} {when:%B %Y, %H:%M} UTC"
    except (TypeError, ValueError):
        date = "an unrecorded date"
    commit_info = data.get("commit_info", {})
    commit = (commit_info.get("id") or "unknown")[:10]
    dirty = " (with uncommitted changes)" if commit_info.get("dirty") else ""
    machine = data.get("machine_info", {})
    cpu_info = machine.get("cpu", {})
    cpu = cpu_info.get("brand_raw") or machine.get("processor") or "an unknown CPU"
    cpus = cpu_info.get("count")
    python = f"{machine.get('python_implementation', 'Python')} " \
             f"{machine.get('python_version', '?')}"
    on = ", ".join(filter(None, [cpu, f"{cpus} CPUs" if cpus else "", python, versions]))
    if load is None:
        under = "load not recorded"
    else:
        under = f"load average {load[0]:.2f} before the run, {load[1]:.2f} after it"
    return (f"Measured on {date}, at commit {commit}{dirty}, on {on}; {under}. "
            f"Measure again: `{COMMAND}` (its docstring has the options).")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default="results.md", metavar="NAME",
                        help="the page to write in --out (default results.md, which also "
                             "draws the plot)")
    parser.add_argument("--out", type=Path, default=OUT, metavar="DIR",
                        help="where the page goes (default docs/bench)")
    args, pytest_args = parser.parse_known_args(argv)
    sys.path.insert(0, str(ROOT))
    from benchmarks.report import PLOT_NAME, load_rows, load_versus, markdown, plot

    with tempfile.TemporaryDirectory() as tmp:
        out_json = Path(tmp) / "out.json"
        before = os.getloadavg()[0]
        done = subprocess.run([sys.executable, "-m", "pytest", "benchmarks", "-q",
                               "--benchmark-only", f"--benchmark-json={out_json}",
                               *pytest_args], cwd=ROOT)
        after = os.getloadavg()[0]
        if not out_json.exists():
            print(f"{COMMAND}: the benchmarks wrote no results (pytest exit {done.returncode})",
                  file=sys.stderr)
            return done.returncode or 1
        data = json.loads(out_json.read_text(encoding="utf-8"))
    rows = load_rows(data)
    text = markdown(rows, header=provenance(data, (before, after), _versions()),
                    versus=load_versus(data))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / args.table).write_text(text, encoding="utf-8")
    if args.table == "results.md":
        plot(rows, args.out / PLOT_NAME)
    print(f"wrote {args.out / args.table} ({len(rows)} benchmarks)"
          f"{'' if done.returncode == 0 else f'; pytest exit {done.returncode}'}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
