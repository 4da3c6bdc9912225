"""The one call's ends (`sudoku.codec`) against the numpy way: the givens' options equal
``given_array``'s, and the grid checker says what the independent checker
``is_solution`` says, on valid grids of every kind of layout and on grids spoiled at
random. The checkers are written apart, so each holds the others; every form of the
codec is run: its loops as written, as dlx compiles them with the search (numba's),
and its numpy forms (what the python backend runs)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sudoku.solver
from dlx import InstanceCodec
from sudoku import Layout, solve_string
from sudoku.codec import CODEC, answer, checked_grid, given_options, givens, rules
from sudoku.grid import geometry, is_solution
from sudoku.named import load_named
from sudoku.reduction import given_array
from tests.helpers.backends import needs_numba
from tests.helpers.profiles import examples


def _killer() -> Layout:
    """A 9x9 killer whose cages (pairs of cells side by side, and one of three cells) fit
    a known grid: their totals are read from it."""
    values = [int(ch) for ch in solve_string("." * 81)]
    cages = [((c, c + 1), values[c] + values[c + 1]) for c in range(0, 81, 9)]
    cages.append(((3, 4, 5), values[3] + values[4] + values[5]))
    return Layout.killer(cages)


LAYOUTS = {"square 2": Layout.square(2), "square 3": Layout.square(3),
           "rect 2x3": Layout.rect(2, 3), "x": Layout.x(), "windoku": Layout.windoku(),
           "killer": _killer(), "square 4": Layout.square(4)}
SOLVED = {name: bytes(int(ch, 36) for ch in solve_string(
    "." * layout.side**2, layout=layout, alphabet="123456789ABCDEFG"[: layout.side]))
    for name, layout in LAYOUTS.items()}


def _forms() -> list:
    """The codec as written, its numpy forms (what Python runs), and compiled where numba
    is."""
    forms = [pytest.param((givens, answer), id="loops"),
             pytest.param((given_options, checked_grid), id="numpy")]
    return [*forms, pytest.param("compiled", id="numba", marks=needs_numba)]


def _form(form):
    """The codec as written, or as dlx compiles it into the one call."""
    if form != "compiled":
        return form
    from dlx.compiled import through_entry

    return through_entry(givens, answer)[1:]


def _options(layout: Layout, grid: bytes) -> np.ndarray:
    """A grid's options, ``cell * N + value - 1``, with a killer cage filling option
    (numbered from N**3 on) thrown in when the layout has cages."""
    side = layout.side
    options = [c * side + v - 1 for c, v in enumerate(grid)]
    if layout.cages:
        options.append(side**3 + 7)  # says nothing the cells do not
    return np.array(options, dtype=np.int64)


@pytest.mark.parametrize("form", _forms())
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_valid_grids_pass_and_decode(form, name):
    _, to_grid = _form(form)
    layout, grid = LAYOUTS[name], SOLVED[name]
    geo = geometry(layout.side, None, layout)
    assert is_solution(geo, bytes(len(grid)), grid)
    options = _options(layout, grid)[::-1].copy()  # any order
    out = to_grid(options, np.frombuffer(grid, np.uint8), rules(layout))
    assert out.tobytes() == grid
    symbols = "ABCDEFGHIJKLMNOP"[: layout.side]  # the output table: a line of text
    text = to_grid(options, np.frombuffer(grid, np.uint8), rules(layout, symbols))
    assert text.tobytes().decode("ascii") == "".join(symbols[v - 1] for v in grid)


@pytest.mark.parametrize("form", _forms())
@examples(200)
@given(name=st.sampled_from(list(LAYOUTS)), data=st.data())
def test_the_checkers_agree_on_spoiled_grids(form, name, data):
    """Options changed, dropped or doubled, givens changed: the codec's checker and
    ``is_solution`` (on the grid the options make, when they make one) agree."""
    layout, grid = LAYOUTS[name], SOLVED[name]
    side, cells = layout.side, layout.side**2
    geo = geometry(side, None, layout)
    options = list(_options(layout, grid))
    cell = st.integers(0, cells - 1)
    for kind in data.draw(st.lists(st.sampled_from(["value", "drop", "double", "given",
                                                    "swap"]), max_size=3)):
        if kind == "value" and options:
            k, v = data.draw(st.integers(0, len(options) - 1)), data.draw(st.integers(1, side))
            c = options[k] // side if options[k] < cells * side else data.draw(cell)
            options[k] = c * side + v - 1
        elif kind == "drop" and options:
            options.pop(data.draw(st.integers(0, len(options) - 1)))
        elif kind == "double" and options:
            options.append(options[data.draw(st.integers(0, len(options) - 1))])
        elif kind == "swap" and len(options) >= cells and max(options[:cells]) < cells * side:
            a, b = data.draw(cell), data.draw(cell)
            va, vb = options[a] - a * side, options[b] - b * side
            options[a], options[b] = a * side + vb, b * side + va
    puzzle = bytearray(cells)
    for c in data.draw(st.lists(cell, max_size=4)):
        puzzle[c] = data.draw(st.integers(1, side))
    decoded = [0] * cells
    for o in options:
        if o < cells * side:
            decoded[o // side] = 0 if decoded[o // side] else o % side + 1  # twice: none
    placed = sum(o < cells * side for o in options) == cells
    expected = placed and is_solution(geo, bytes(puzzle), decoded)
    _, to_grid = _form(form)
    out = to_grid(np.array(options, dtype=np.int64), np.frombuffer(bytes(puzzle), np.uint8),
                  rules(layout))
    assert bool(len(out)) == expected
    if expected:
        assert out.tolist() == decoded


@pytest.mark.parametrize("form", _forms())
@examples(100)
@given(side=st.sampled_from([4, 9, 16]), data=st.data())
def test_the_givens_options_are_given_arrays(form, side, data):
    values = bytes(data.draw(st.lists(st.integers(0, side), min_size=side * side,
                                      max_size=side * side)))
    to_options, _ = _form(form)
    out = to_options(np.frombuffer(values, np.uint8), rules(Layout.square(round(side**0.5))))
    assert out.dtype == np.int64 and out.tolist() == given_array(side, values).tolist()


def spoiled(first, given, rules):
    """An ``answer`` that refuses every grid (as if the engine had returned a bad one)."""
    return np.zeros(0, dtype=np.uint8)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
def test_a_grid_the_checker_refuses_is_an_engine_error(monkeypatch, backend):
    """The one call answers through its codec's checker on every backend: one that
    refuses makes the call say the engine is wrong (never a wrong grid returned)."""
    puzzle = load_named()["norvig-hard1"]
    assert solve_string(puzzle, backend=backend) == SOLVED_HARD1
    monkeypatch.setattr(sudoku.solver, "CODEC", InstanceCodec(givens, spoiled))
    monkeypatch.setattr(sudoku.solver, "_LINES", {})  # a remembered line keeps its codec
    with pytest.raises(AssertionError, match="engine returned an invalid grid"):
        solve_string(puzzle, backend=backend)


@needs_numba
def test_numba_calls_go_through_in_one_call():
    """On numba the one call's runner is the one compiled with the codec."""
    from sudoku.reduction import empty_grid_problem

    solve_string(load_named()["norvig-hard1"], backend="numba")
    runners = [k for k, run in empty_grid_problem(3).links.converted.items()
               if isinstance(k, tuple) and len(k) == 4 and k[-1] is CODEC and run]
    assert [k[0].name for k in runners] == ["numba"]  # python has none: the way around


SOLVED_HARD1 = solve_string(load_named()["norvig-hard1"], backend="python")


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
def test_threads_solve_one_call_at_a_time_alike(backend):
    """Eight threads share the one call's search and its compiled runner (a pool of
    working arrays): every answer is the serial one, on a mix of puzzles, clashes and
    puzzles without a solution."""
    from concurrent.futures import ThreadPoolExecutor

    named = load_named()
    puzzles = [*list(named.values())[:12], "55" + "." * 79, "." * 80 + "1"] * 4

    def one(puzzle: str) -> str:
        try:
            return solve_string(puzzle, backend=backend)
        except sudoku.SudokuError as e:
            return f"{type(e).__name__}: {e}"

    serial = [one(p) for p in puzzles]
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(one, puzzles)) == serial


@pytest.mark.parametrize("backend", ["python", pytest.param("numba", marks=needs_numba)])
def test_python_runs_the_numpy_forms_and_numba_the_loops(monkeypatch, backend):
    """A codec whose numpy checker refuses everything: the python backend's call says
    the engine is wrong, numba's (the compiled loops) answers."""
    puzzle = load_named()["norvig-hard1"]
    codec = InstanceCodec(givens, answer, InstanceCodec(given_options, spoiled))
    monkeypatch.setattr(sudoku.solver, "CODEC", codec)
    monkeypatch.setattr(sudoku.solver, "_LINES", {})  # a remembered line keeps its codec
    if backend == "python":
        with pytest.raises(AssertionError, match="engine returned an invalid grid"):
            solve_string(puzzle, backend=backend)
    else:
        assert solve_string(puzzle, backend=backend) == SOLVED_HARD1
