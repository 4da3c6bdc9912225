"""Root reductions (``ExactCover.preprocess``, Knuth's DLX-PRE): the reduced problem has
exactly the original's solutions once mapped back, every removed option is in no solution,
every forced option in all of them, and the reduced options are the original ones less
dropped items; on random problems against brute force, on Knuth's examples, and on the
shared ``.dlx`` files' counts, on both backends."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import (
    ArgumentError,
    Colored,
    ExactCover,
    ForcedOptionError,
    NoPrimaryItemWarning,
    Preprocessed,
    Removal,
)
from dlx.cli import main
from dlx.problems import langford, queens
from tests.helpers.knuth import DATA, NODE_LIMIT, figures
from tests.helpers.oracle import brute_force
from tests.helpers.random_problems import as_set, build, xcc_problems

KNUTH_EXAMPLE = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
COLOR_EXAMPLE = ("| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\n"
                 "A C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n")


def _quiet(text: str) -> ExactCover:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoPrimaryItemWarning)
        return ExactCover.from_dlx(text)


def _entries(option: list) -> set:
    return {(e.item, e.color) if isinstance(e, Colored) else (e, None) for e in option}


def check_record(problem: ExactCover, record: Preprocessed,
                 expected: set[frozenset[int]] | None = None,
                 backends: tuple[str, ...] = ("python", "numba")) -> set[frozenset[int]]:
    """The invariants of a preprocessing of ``problem`` (whose solutions are ``expected``
    when known), checked on ``backends``; returns the solutions mapped back."""
    reduced = record.problem
    found = None
    for backend in backends:
        mapped = as_set(record.original(s) for s in reduced.solutions(backend=backend))
        assert found is None or mapped == found
        found = mapped
    assert found is not None
    if expected is not None:
        assert found == expected
    # the reduced options are the original ones, less dropped items
    dropped = set(record.dropped_items)
    assert set(reduced.items).isdisjoint(dropped)
    assert set(reduced.items) | dropped == set(problem.items)
    for k, original in enumerate(record.options):
        kept = {e for e in _entries(problem.option(original)) if e[0] not in dropped}
        assert _entries(reduced.option(k)) == kept
        assert record.reduced(original) == k
    # every option is kept or removed, once, with a reason that names an item
    removed = {r.option: r for r in record.removed}
    assert len(removed) == len(record.removed)
    assert set(removed).isdisjoint(record.options)
    assert set(removed) | set(record.options) == set(range(len(problem)))
    assert {k for k, r in removed.items() if r.why == "no primary item"} == set(problem.dropped)
    for r in record.removed:
        assert r.why in ("no primary item", "clashes", "blocked", "dominated", "infeasible")
        assert (r.item is None) == (r.why == "no primary item")
        assert r.item is None or r.item in problem.items
        assert record.reduced(r.option) is None
        assert not any(r.option in s for s in found)  # in no solution
    for k in record.forced:
        assert all(k in s for s in found)
    if record.infeasible is not None:
        assert found == set() and record.options == [] and record.forced == []
    return found


@settings(max_examples=150, deadline=None)
@given(xcc_problems(), st.data())
def test_same_solutions_as_brute_force(spec, data):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    expected = brute_force(options, primary, secondary)
    flags = data.draw(st.sampled_from([{}, {"blocked": False}, {"dominated": False},
                                       {"rounds": 1}, {"rounds": 0}]))
    record = problem.preprocess(**flags)
    check_record(problem, record, expected)
    if not flags and expected:  # a fixpoint: what is left is not blocked nor dominated
        again = record.problem.preprocess()
        assert [r for r in again.removed if r.why in ("blocked", "dominated")] == []
        assert again.dropped_items == []


@settings(max_examples=100, deadline=None)
@given(xcc_problems(), st.data())
def test_forced_options_are_taken_first(spec, data):
    options, primary, secondary = spec
    problem = build(options, primary, secondary)
    usable = [k for k in range(len(problem)) if k not in problem.dropped]
    if not usable:
        return
    forced = data.draw(st.lists(st.sampled_from(usable), max_size=3, unique=True))
    expected = {s for s in brute_force(options, primary, secondary) if set(forced) <= s}
    record = problem.preprocess(forced=forced)
    check_record(problem, record, expected, backends=("python",))
    if expected:
        assert set(forced) <= set(record.forced)
    assert as_set(problem.solutions(forced=forced)) == expected


def test_knuth_examples():
    """DLX-PRE's two examples, as its documentation gives them."""
    problem = ExactCover.from_dlx(KNUTH_EXAMPLE)
    record = problem.preprocess()
    assert record.problem.to_dlx() == "A B C\nC\nA\nB\n"
    assert record.options == [0, 3, 4] == record.forced
    assert record.dropped_items == ["D", "E", "F", "G"]
    assert [r.option for r in record.removed] == [1, 2, 5]
    assert {r.why for r in record.removed} == {"blocked"}
    check_record(problem, record, {frozenset({0, 3, 4})})
    colored = _quiet(COLOR_EXAMPLE)
    record = colored.preprocess()
    assert record.removed[:2] == [Removal(0, "blocked", "C"),
                                  Removal(2, "no primary item", None)]
    assert record.options == [1, 3] and record.dropped_items == ["C", "X", "Y"]
    assert record.problem.to_dlx() == "A B\nA\nB\n"
    check_record(colored, record, {frozenset({1, 3})})


def test_domination_and_dropped_items():
    # every option of a holds x: the option [x, b] goes; x then says what a says
    problem = ExactCover([["a", "x"], ["a", "x", "b"], ["x", "b"], ["b"]])
    record = problem.preprocess(blocked=False)
    assert record.removed == [Removal(2, "dominated", "a")]
    assert record.dropped_items == ["x"] and record.problem.primary == ["a", "b"]
    check_record(problem, record, {frozenset({0, 3}), frozenset({1})})
    # a colored secondary entry is no domination (options sharing its color coexist)
    shared = ExactCover([["a", Colored("s", 1)], ["b", Colored("s", 1)], ["b", "s"]],
                        secondary=["s"])
    record = shared.preprocess(blocked=False)
    assert record.removed == [] and record.options == [0, 1, 2]
    check_record(shared, record, {frozenset({0, 1})})


def test_infeasible_problems():
    problem = ExactCover([["a"], ["a", "b"]], primary=["a", "b", "c"])
    record = problem.preprocess()
    assert record.infeasible == "c" and record.problem.primary == ["c"]
    assert len(record.problem) == 0 and record.problem.count() == 0
    assert {r.why for r in record.removed} == {"infeasible"}
    clash = ExactCover([["a", "b"], ["b", "c"], ["c"], ["a"]])
    record = clash.preprocess(forced=[0, 1])
    assert record.infeasible == "b" and record.problem.count() == 0
    check_record(clash, clash.preprocess(forced=[0, 2]), {frozenset({0, 2})})


@pytest.mark.slow
def test_the_data_files_keep_their_counts():
    if not (DATA / "SOURCES.md").is_file():
        pytest.skip(f"{DATA} is absent")
    rows = [row for row in figures() if row[2] < NODE_LIMIT]
    assert len(rows) > 10
    for name, solutions, nodes, _ in rows:
        problem = _quiet((DATA / name).read_text())
        if problem.links.mcc:
            with pytest.raises(ArgumentError, match="without bounds or costs"):
                problem.preprocess()
            continue
        record = problem.preprocess()
        for backend in ("python", "numba") if nodes < 20_000 else ("numba",):
            assert record.problem.count(backend=backend) == solutions, name
        first = record.problem.first(backend="numba")
        assert (first is None) == (solutions == 0)
        if first is not None:
            assert problem.is_solution(record.original(first)), name


@pytest.mark.parametrize("problem, count", [(queens(8), 92), (langford(7), 52),
                                            (langford(8), 300)])
def test_known_counts(problem, count):
    record = problem.preprocess()
    assert record.problem.count(backend="numba") == count
    assert len(check_record(problem, record, backends=("numba",))) == count


@pytest.mark.parametrize("kwargs, message", [
    ({"blocked": 1}, "blocked must be True or False, got 1"),
    ({"dominated": "no"}, "dominated must be True or False, got 'no'"),
    ({"rounds": -1}, "rounds must be at least 0, got -1"),
    ({"rounds": 1.5}, "rounds must be an integer or None, got 1.5"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ArgumentError, match=message):
        queens(4).preprocess(**kwargs)


def test_bad_forced_and_unsupported_problems():
    problem = queens(4)
    with pytest.raises(ForcedOptionError, match=r"option 99 is not in range 0\.\.15"):
        problem.preprocess(forced=[99])
    with pytest.raises(ForcedOptionError, match="forced twice"):
        problem.preprocess(forced=[1, 1])
    for kw in ({"multiplicity": {"a": (1, 2)}}, {"costs": [1, 2]}):
        bounded = ExactCover([["a"], ["a", "b"]], **kw)
        with pytest.raises(ArgumentError, match="preprocess is for problems without bounds"):
            bounded.preprocess()
    record = ExactCover([["a"]]).preprocess()
    with pytest.raises(ArgumentError, match="solution must list options of the reduced"):
        record.original([5])


def test_cli_writes_the_reduced_problem(tmp_path, capsys):
    path = tmp_path / "knuth.dlx"
    path.write_text(KNUTH_EXAMPLE)
    assert main(["--preprocess", str(path)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[1:] == ["A B C", "C", "| (from option 0, line 3)", "A",
                         "| (from option 3, line 6)", "B", "| (from option 4, line 7)"]
    assert lines[0].startswith("| ") and "3 of 6 options removed" in lines[0]
    assert err.startswith("Removed 3 options and 4 items in ")
    reduced = tmp_path / "reduced.dlx"
    reduced.write_text(out)
    assert main(["--count", str(reduced)]) == 0
    assert capsys.readouterr()[0] == "1\n"
    assert main(["--preprocess", "--count", str(path)]) == 2
    assert "takes no --count" in capsys.readouterr()[1]
    path.write_text("2|A B\nA\nA B\n")
    assert main(["--preprocess", str(path)]) == 2
    assert "without bounds or costs" in capsys.readouterr()[1]


def test_taken_options_are_the_forced_ones_in_the_reduced_problem():
    problem = ExactCover.from_dlx(KNUTH_EXAMPLE)
    record = problem.preprocess()
    assert [record.options[k] for k in record.taken] == record.forced
    assert record.problem.first(forced=record.taken) == sorted(record.taken)
    assert record.problem.stats.nodes == 1  # the root only: nothing is left to choose
    assert record.problem.first() == sorted(record.taken)
    assert record.problem.stats.nodes == 4  # a node for each forced option


def test_cli_searches_the_reduced_problem(tmp_path, capsys):
    """``--reduce``: the solutions of the reduced problem, printed as the input's options
    (lines and 0-based numbers), the same as without it."""
    path = tmp_path / "p.dlx"
    path.write_text(COLOR_EXAMPLE)
    for flags in ([], ["--indices"], ["--count"]):
        assert main([*flags, str(path)]) == 0
        plain = capsys.readouterr()[0]
        assert main(["--reduce", *flags, str(path)]) == 0
        out, err = capsys.readouterr()
        assert out == plain and "Reduced at the root: 2 of 5 options removed" in err
    path.write_text(langford(7).to_dlx())
    assert main(["--reduce", "--count", "--backend", "python", str(path)]) == 0
    assert capsys.readouterr()[0] == "52\n"
    assert main(["--reduce", "--svg", str(tmp_path / "x.svg"), str(path)]) == 2
    assert "takes no --svg" in capsys.readouterr()[1]
    path.write_text("2|A B\nA\nA B\n")
    assert main(["--reduce", str(path)]) == 2
    assert "without bounds or costs" in capsys.readouterr()[1]
