"""Two checkouts of this project side by side in one run: the "must not regress" table.

A change that should leave speed alone (a refactoring) is measured against the commit
before it: ``git worktree add /tmp/before <rev>``, then, from the project's root::

    python -m benchmarks.before_after /tmp/before . --rounds 5

Each checkout gets a worker process of its own (``PYTHONPATH`` set to it, so the two
import their own ``dlx`` and ``sudoku``); the rounds alternate between them case by case,
so that both see the same load. A worker times each case in *its own CPU time*
(``time.process_time``), warm (every case run once before the rounds, so numba's
compilation and the problems' links are not counted). The table gives, per case, the
median of the rounds for each checkout and their ratio (after / before), with the
machine's load average, which every figure should be quoted with.

The cases are those of the structure issue's "must not regress" list: counts of
``queens12``, ``langford11``, ``pentomino_6x10_sym`` and ``xcc_latin5`` (default backend),
and issue 41's DLX3 case ``mcc_queens12x10_rowslack``; issue 42's
memoized counts (``domino_12x12`` chosen by ``count()`` and with ``memo=True``,
``langford12`` with ``memo=True``), one
``sudoku.solve_string`` call per puzzle of ``norvig_top95`` and of ``norvig_hardest``
(the median call), the same with ``sudoku.solve`` of LeetCode 37's board (a list of lists
of one-character strings, solved in place), ``sudoku.solve_many`` of ``royle_17clue``
(49,158 puzzles) and of the first 20,000 of ``forum_hardest_1905_11plus`` (issue 34's
Sudoku cases), and the gecode 25x25 puzzles #0, #8 and #9 with the learning search
(``strategy="hard"``: the old name, which the checkout before may need). Data come from
``../shared/data`` (or ``DANCING_COVER_DATA``); a case whose file is missing is skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

WORKER = r'''
import json, os, statistics, sys, time
from pathlib import Path
import dlx, sudoku

data = Path(sys.argv[1])
cover = data / "exact_cover"
sets = data / "sudoku"


def lines(name):
    path = sets / f"{name}.txt"
    return [s.strip() for s in path.read_text().splitlines() if s.strip()]


def count(name, **options):
    problem = dlx.ExactCover.from_dlx((cover / f"{name}.dlx").read_text())
    problem.links  # built once, outside the timing (as the engine benchmarks do)
    return lambda: problem.count(**options)


def one_call(name):
    puzzles = lines(name)

    def run():
        times = []
        for p in puzzles:
            t = time.process_time_ns()
            sudoku.solve_string(p)
            times.append(time.process_time_ns() - t)
        return statistics.median(times) / 1e9
    return run


def one_board(name):
    puzzles = lines(name)

    def run():
        times = []
        for p in puzzles:
            board = [list(p[r * 9 : (r + 1) * 9]) for r in range(9)]
            t = time.process_time_ns()
            sudoku.solve(board)
            times.append(time.process_time_ns() - t)
        return statistics.median(times) / 1e9
    return run


def many(name, n=None):
    puzzles = lines(name)[:n]
    return lambda: sudoku.solve_many(puzzles)


def hard(k):
    puzzle = lines("gecode_25x25")[k]
    return lambda: sudoku.solve_string(puzzle, strategy="hard", backend="numba")


CASES = {
    "count queens12": lambda: count("queens12"),
    "count langford11": lambda: count("langford11"),
    "count pentomino_6x10_sym": lambda: count("pentomino_6x10_sym"),
    "count xcc_latin5": lambda: count("xcc_latin5"),
    "count mcc_queens12x10_rowslack (DLX3)": lambda: count("mcc_queens12x10_rowslack"),
    "count domino_12x12 (chosen)": lambda: count("domino_12x12"),
    "memo count domino_12x12": lambda: count("domino_12x12", memo=True),
    "memo count langford12": lambda: count("langford12", memo=True),
    "top95, one call (median)": lambda: one_call("norvig_top95"),
    "hardest, one call (median)": lambda: one_call("norvig_hardest"),
    "top95, one solve(board) (median)": lambda: one_board("norvig_top95"),
    "hardest, one solve(board) (median)": lambda: one_board("norvig_hardest"),
    "solve_many royle_17clue": lambda: many("royle_17clue"),
    "solve_many forum_hardest (first 20,000)": lambda: many("forum_hardest_1905_11plus", 20000),
    "gecode 25x25 #0 learn": lambda: hard(0),
    "gecode 25x25 #8 learn": lambda: hard(8),
    "gecode 25x25 #9 learn": lambda: hard(9),
}
made = {}
for line in sys.stdin:
    name = line.strip()
    try:
        if name not in made:
            made[name] = CASES[name]()
            warm = time.perf_counter() + 3.0  # the default backend loads numba's kernel
            while True:  # in the background: warm once it serves (links, caches too)
                made[name]()
                if time.perf_counter() > warm:
                    break
        t = time.process_time()
        inner = made[name]()
        spent = time.process_time() - t
        seconds = inner if "one " in name else spent
        print(json.dumps({"case": name, "seconds": seconds}), flush=True)
    except (FileNotFoundError, IndexError) as e:
        print(json.dumps({"case": name, "skip": str(e)}), flush=True)
'''

CASES = ["count queens12", "count langford11", "count pentomino_6x10_sym",
         "count xcc_latin5", "count mcc_queens12x10_rowslack (DLX3)",
         "count domino_12x12 (chosen)", "memo count domino_12x12", "memo count langford12",
         "top95, one call (median)", "hardest, one call (median)",
         "top95, one solve(board) (median)", "hardest, one solve(board) (median)",
         "solve_many royle_17clue",
         "solve_many forum_hardest (first 20,000)", "gecode 25x25 #0 learn",
         "gecode 25x25 #8 learn", "gecode 25x25 #9 learn"]


def _data() -> Path:
    given = os.environ.get("DANCING_COVER_DATA")
    return Path(given) if given else Path(__file__).resolve().parents[2] / "shared" / "data"


def _worker(tree: Path, data: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
    return subprocess.Popen([sys.executable, "-c", WORKER, str(data)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env, cwd=tree)


def _ask(worker: subprocess.Popen[str], case: str) -> dict[str, object]:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(case + "\n")
    worker.stdin.flush()
    return dict(json.loads(worker.stdout.readline()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("-k", default="", help="only the cases whose name holds this")
    args = parser.parse_args(argv)
    data = _data()
    cases = [c for c in CASES if args.k in c]
    workers = {"before": _worker(args.before, data), "after": _worker(args.after, data)}
    times: dict[str, dict[str, list[float]]] = {c: {"before": [], "after": []} for c in cases}
    skipped: set[str] = set()
    loads = [os.getloadavg()[0]]
    for r in range(args.rounds):
        for case in cases:
            if case in skipped:
                continue
            order = ("before", "after") if r % 2 == 0 else ("after", "before")
            for side in order:
                answer = _ask(workers[side], case)
                if "skip" in answer:
                    skipped.add(case)
                    break
                times[case][side].append(float(answer["seconds"]))  # type: ignore[arg-type]
        loads.append(os.getloadavg()[0])
    for w in workers.values():
        w.kill()
    print(f"load average (1 min) during the run: {min(loads):.2f}-{max(loads):.2f}; "
          f"{args.rounds} rounds, CPU seconds, medians")
    print("| case | before | after | after / before |\n|---|---:|---:|---:|")
    for case in cases:
        if case in skipped or not times[case]["after"]:
            print(f"| {case} | skipped (data not found) | | |")
            continue
        b, a = (statistics.median(times[case][s]) for s in ("before", "after"))
        unit, scale = ("µs", 1e6) if b < 0.01 else ("s", 1)
        print(f"| {case} | {b * scale:.4g} {unit} | {a * scale:.4g} {unit} | {a / b:.3f} |")


if __name__ == "__main__":
    main()
