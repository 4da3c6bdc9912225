"""Solution sets as values in a canonical store (dlx.zdd_store, dlx.kernels.zdd; issue 40):
one family one node, set algebra and comparisons against Python sets on both backends,
sets of equal problems combined, linear reading of ZDD text, pictures of any size,
memory bounded by the store's limit, and threads."""

from __future__ import annotations

import io
import pickle
import threading
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlx import ArgumentError, ExactCover, SearchStoppedError, Status
from dlx.zdd import SolutionSet, ZDDFormatError
from dlx.zdd_store import Store, option_order, store_for
from tests.helpers.backends import AVAILABLE
from tests.helpers.memo_problems import domino_problem, xcc_problems


def families(s: SolutionSet) -> set[frozenset[int]]:
    return {frozenset(x) for x in s}


@pytest.fixture(scope="module")
def board() -> ExactCover:
    """Domino tilings of a 6 x 6 board (6,728): A holds the corner domino (0,0)-(0,1),
    B the opposite corner's."""
    return domino_problem(6, 6)


def corners(problem: ExactCover, n: int) -> tuple[int, int]:
    """The options of the dominoes (0,0)-(0,1) and (n-1,n-2)-(n-1,n-1) of a board."""
    options = [sorted(map(str, problem.option(k))) for k in range(len(problem))]
    return (options.index(["0_0", "0_1"]),
            options.index([f"{n - 1}_{n - 2}", f"{n - 1}_{n - 1}"]))


# ----- 1. one family, one node ----------------------------------------------------------


@pytest.mark.parametrize("backend", AVAILABLE)
def test_equal_families_are_the_same_node(board, backend):
    s = board.solution_set(backend=backend).using(backend)
    a, b = corners(board, 6)
    A, B = s.restrict(include=[a]), s.restrict(include=[b])
    assert (A | B) == (B | A) and (A | B).node_count == (B | A).node_count
    assert (A | B)._at == (B | A)._at  # the same node of the same store
    # the same family made other ways: the canonical form of a restriction of the whole,
    # a union of its halves, a double difference, a text read back
    via = s - (s - (A | B))
    halves = (A | B).restrict(include=[a]) | (A | B).restrict(exclude=[a])
    text = SolutionSet.from_text(board, (A | B).to_text()).using(backend)
    for other in (via, halves, text, (A ^ B) | (A & B)):
        assert other == A | B and other.node_count == (A | B).node_count
        assert hash(other) == hash(A | B)
    assert families(A | B) == families(A) | families(B)


def test_a_search_set_equals_its_text_and_its_canonical_form(board):
    s = board.solution_set(method="memo")
    back = SolutionSet.from_text(board, s.to_text())
    assert s == back and hash(s) == hash(back) and s.canonical() == s
    assert s.canonical().count() == s.count() == 6728
    assert families(s.canonical()) == families(s)
    # the search's set keeps the search's order and node count; the canonical form its own
    assert list(s) == list(board.solutions())
    assert s.canonical().node_count <= s.node_count


def test_the_store_follows_one_order_per_problem():
    """A domino board's options in breadth-first order: 2.6x fewer nodes than the order
    given (row by row) at 12 x 12; a problem whose given order is as good keeps it."""
    p = domino_problem(12, 12)
    order = option_order(p.matrix.indptr, p.matrix.items, p.matrix.n_items)
    assert sorted(order.tolist()) == list(range(len(p)))
    assert order.tolist() != list(range(len(p)))
    q = ExactCover([["a", "b"], ["b", "c"], ["c", "d"], ["d", "a"]])
    assert option_order(q.matrix.indptr, q.matrix.items, q.matrix.n_items).tolist() \
        == [0, 1, 2, 3]


def test_hash_is_the_same_on_both_backends(board):
    if len(AVAILABLE) < 2:
        pytest.skip("one backend only")
    s = board.solution_set()
    x, y = (s.using(name).restrict(exclude=[3]) for name in AVAILABLE)
    assert x.store is not y.store and x == y and hash(x) == hash(y)
    assert (x | y).count() == x.count()


# ----- 2. the algebra against Python sets, both backends ----------------------------------


@settings(max_examples=80, deadline=None)
@given(xcc_problems(), st.sampled_from(AVAILABLE), st.data())
def test_algebra_equals_python_sets(problem, backend, data):
    full = problem.solution_set(backend="python").using(backend)
    every = families(full)
    n = len(problem)
    picks = [data.draw(st.lists(st.integers(0, max(n - 1, 0)), max_size=2)) if n else []
             for _ in range(4)]
    a = full.restrict(include=picks[0], exclude=picks[1])
    b = full.restrict(include=picks[2], exclude=picks[3])
    sa = {x for x in every if set(picks[0]) <= x and not set(picks[1]) & x}
    sb = {x for x in every if set(picks[2]) <= x and not set(picks[3]) & x}
    assert families(a) == sa and families(b) == sb
    for got, want in ((a & b, sa & sb), (a | b, sa | sb), (a - b, sa - sb), (b - a, sb - sa),
                      (a ^ b, sa ^ sb)):
        assert families(got) == want and got.count() == len(want) == len(list(got))
        assert all(sorted(x) in got for x in want)
        assert got == SolutionSet.from_text(problem, got.to_text())
    assert (a == b) == (sa == sb) and (a != b) == (sa != sb)
    assert (a <= b) == (sa <= sb) and (a < b) == (sa < sb)
    assert (a >= b) == (sa >= sb) and (a > b) == (sa > sb)
    assert a.isdisjoint(b) == sa.isdisjoint(sb)
    assert (hash(a) == hash(b)) or sa != sb
    assert (a | b).node_count == (b | a).node_count


@pytest.mark.parametrize("backend", AVAILABLE)
def test_operations_of_a_deep_set_need_no_recursion(backend):
    """Solutions of 5,000 options (five times Python's default recursion limit): the
    store's operations are loops over a stack of one frame per option."""
    n = 5_000
    problem = ExactCover([[i] for i in range(n)] + [[0, 1], [2, 3]])
    s = problem.solution_set(backend="python").using(backend)
    assert s.count() == 4
    a, b = s.restrict(include=[n]), s.restrict(exclude=[n + 1])
    assert (a | b).count() == 3 and (a & b).count() == 1 and (a ^ b).count() == 2
    assert a <= s and not s <= a and (s - a - b).count() == 1


# ----- 3. sets of equal problems combine --------------------------------------------------


def test_sets_of_equal_problems_combine(board, tmp_path):
    s = board.solution_set()
    copy = pickle.loads(pickle.dumps(s))
    assert copy.problem is not board and copy == s and (copy | s).count() == s.count()
    A = s.restrict(include=[0])
    pickled = pickle.loads(pickle.dumps(A))
    assert pickled == A and (pickled & s) == A and hash(pickled) == hash(A)
    path = tmp_path / "board.dlx"
    path.write_text(board.to_dlx())
    one, two = (ExactCover.from_dlx(path) for _ in range(2))
    x, y = one.solution_set(), two.solution_set()
    assert x == y == s and (x - y).count() == 0


def test_sets_of_different_problems_do_not_combine(board):
    s = board.solution_set()
    other = domino_problem(4, 9).solution_set()
    for op in ("__and__", "__or__", "__sub__", "__xor__", "__le__", "__lt__", "__ge__",
               "__gt__", "isdisjoint"):
        with pytest.raises(ArgumentError, match="different problems"):
            getattr(s, op)(other)
    assert s != other and (s == other) is False
    for bad in (5, {1, 2}, None):
        with pytest.raises(ArgumentError, match="SolutionSets"):
            s <= bad  # noqa: B015
        with pytest.raises(ArgumentError, match="SolutionSets"):
            s ^ bad
        assert s != bad
    with pytest.raises(ArgumentError, match="backend"):
        s.using("gpu")
    with pytest.raises(ArgumentError, match="backend"):
        s.using(3)  # type: ignore[arg-type]


# ----- 4. reading is linear, and checks ---------------------------------------------------


def chain_text(n: int) -> tuple[ExactCover, str]:
    """A problem of ``n`` singletons and the pair {0, 1}, and the text of its two
    solutions: a chain of ``n`` nodes."""
    problem = ExactCover([[i] for i in range(n)] + [[0, 1]])
    lines, below = [], 1
    for k in range(n - 1, 1, -1):
        lines.append(f"{k + 2:x}: (~{k + 1}?0:{below:x})")
        below = k + 2
    lines += [f"{n + 2:x}: (~2?0:4)", f"{n + 3:x}: (~1?0:{n + 2:x})",
              f"{n + 4:x}: (~{n + 1}?{n + 3:x}:4)", f"{n + 5:x}: (~0?0:{n + 4:x})"]
    return problem, "\n".join(lines) + "\n"


@pytest.mark.slow
def test_reading_is_linear_in_time_and_memory():
    """Four times the text, about four times the time and the same memory per byte (the
    old reader kept a bit set of every option below each node: quadratic, 1.4 GB for
    60,002 nodes)."""
    seconds, memory = [], []
    for n in (10_000, 40_000):
        problem, text = chain_text(n)
        start = time.process_time()
        assert SolutionSet.from_text(problem, text).count() == 2
        seconds.append(time.process_time() - start)
    for n in (2_500, 10_000):  # tracemalloc slows the reading 15 times: smaller texts
        problem, text = chain_text(n)
        tracemalloc.start()
        SolutionSet.from_text(problem, text)
        memory.append(tracemalloc.get_traced_memory()[1] / len(text))
        tracemalloc.stop()
    assert memory[1] < 1.5 * memory[0] and memory[1] < 100, memory  # bytes per byte of text
    assert seconds[1] < 8 * seconds[0] + 0.2, seconds  # not sixteen times


@pytest.mark.parametrize("text, culprit", [
    ("2: (~1?0:1)\n3: (~0?0:2)\n" + "9" * 5000 + ": (~1?0:1)\n", "line 3"),
    ("2: (~" + "1" * 30 + "?0:1)\n3: (~0?0:2)\n", "line 1"),
    ("2: (~1?0:" + "1" * 40 + ")\n", "line 1"),
    ("2: (~1?0:1)\n3: (~2?0:2)\n4: (~0?0:3)\n", "line 2"),
    ("\x00\n", "line 1"),
    ("2: (~1?0:1)\n" * 3, "line 2"),
])
def test_hostile_text_names_the_line(text, culprit):
    with pytest.raises(ZDDFormatError, match=culprit):
        SolutionSet.from_text(domino_problem(2, 2), text)


def test_a_set_written_twice_below_a_node_is_refused():
    """An option in both halves of a node (the same set twice): refused, not counted
    twice."""
    problem = ExactCover([["a"], ["b"], ["a", "b"]])
    text = "2: (~2?0:1)\n3: (~1?0:2)\n4: (~3?3:1)\n5: (~1?4:2)\n6: (~0?0:5)\n"
    with pytest.raises(ZDDFormatError, match="line 4: option 0 occurs again below it"):
        SolutionSet.from_text(problem, text)


def test_a_diagram_of_neither_form_is_checked_exactly():
    """A valid diagram whose options fall from the root down (neither the search's item
    chains nor an order the reader knows): read through the exact check."""
    problem = ExactCover([["a"], ["b"], ["c"], ["d"], ["a", "b"], ["c", "d"]])
    text = ("2: (~1?0:1)\n3: (~2?0:2)\n4: (~3?0:3)\n5: (~4?0:4)\n6: (~3?0:1)\n"
            "7: (~4?0:6)\n8: (~5?5:7)\na: (~5?3:1)\nb: (~6?8:a)\nc: (~0?0:b)\n")
    s = SolutionSet.from_text(problem, text)
    assert s.count() == 4 and s == problem.solution_set()
    with pytest.raises(ZDDFormatError, match="line 10: option 5 occurs again below it"):
        SolutionSet.from_text(problem, text.replace("b: (~6?8:a)", "9: (~6?8:a)\n"
                                                    "b: (~6?9:a)"))


# ----- 5. pictures -------------------------------------------------------------------------


def test_pictures_of_any_size():
    small = domino_problem(2, 3).solution_set()
    assert small._repr_svg_().count("<circle") == small.node_count - 2
    big = domino_problem(10, 10).solution_set()
    for s in (big, big.canonical(), big.restrict(include=[5])):
        svg = s._repr_svg_()
        assert svg.startswith("<svg") and svg.endswith("</svg>") and len(svg) < 20_000
        assert f"{s.node_count:,} ZDD nodes" in svg and f"{s.count():,}" in svg
    empty = ExactCover([["a"]], primary=["a", "b"]).solution_set()
    assert empty._repr_svg_().startswith("<svg")


# ----- 6. memory stays bounded ------------------------------------------------------------


@pytest.mark.parametrize("backend", AVAILABLE)
def test_the_store_stops_at_its_memory_bound(backend):
    p = domino_problem(8, 8)
    s = p.solution_set().using(backend)
    store = s.store
    a = s.restrict(include=[0])
    before = store.memory()
    store.max_memory = before  # no room to grow
    try:
        with pytest.raises(SearchStoppedError, match="max_memory") as e:
            for k in range(1, len(p)):
                a = a | s.restrict(include=[k], exclude=[0])
        assert e.value.stats.status is Status.MAX_MEMORY and store.memory() <= before
    finally:
        store.max_memory = 1 << 40
    assert (a | s) == s  # the store is whole and goes on
    for bad in (0, -5, 2.5, "lots", None):
        with pytest.raises(ArgumentError, match="max_memory"):
            store.max_memory = bad


def test_a_store_is_made_per_problem_and_backend():
    p = domino_problem(4, 4)
    assert store_for(p.matrix) is store_for(domino_problem(4, 4).matrix)
    assert store_for(p.matrix, "python") is not store_for(p.matrix)
    assert isinstance(p.solution_set().store, Store)


# ----- threads -----------------------------------------------------------------------------


def test_threads_share_a_store(board):
    s = board.solution_set()
    expected = [s.restrict(include=[k]).count() + s.restrict(exclude=[k]).count()
                for k in range(12)]
    errors: list[BaseException] = []
    results: dict[int, int] = {}

    def work(k: int) -> None:
        try:
            x = s.restrict(include=[k]) | s.restrict(exclude=[k])
            y = (x - s.restrict(include=[k + 1])) ^ s.restrict(include=[k + 1])
            assert x == s and y == s
            results[k] = x.count() + (x & y).count() - s.count()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and [results[k] for k in range(12)] == expected


def test_text_of_a_combined_set_reads_back(board):
    s = board.solution_set()
    x = s.restrict(include=[0]) ^ s.restrict(include=[3])
    buffer = io.StringIO()
    x.write(buffer)
    back = SolutionSet.read(board, io.StringIO(buffer.getvalue()))
    assert back == x and list(back) == list(x) and back.node_count == x.node_count


@pytest.mark.parametrize("backend", AVAILABLE)
def test_counts_past_the_kernels_64_bits_are_exact(backend):
    """70 items, each in two options: 2**70 solutions in a diagram of 142 nodes."""
    problem = ExactCover([[f"x{i}"] for i in range(70) for _ in range(2)])
    s = problem.solution_set().using(backend)
    assert s.count() == 2**70 and s.node_count == 142
    assert s.restrict(include=[0]).count() == 2**69
    assert (s.restrict(include=[0]) | s.restrict(include=[2])).count() == 3 * 2**68


# ----- the store's memory (issue 40: the 16 x 16 build's peak) -----------------------------


@pytest.mark.parametrize("backend", AVAILABLE)
def test_a_store_is_lean_until_its_first_operation(backend):
    """32 bytes a node slot (three words, a 32-bit unique table twice as long), no
    counts or signatures until the first count, no operation cache until the first
    operation, and ``reserve`` grows to the nodes it is told, not to the next
    doubling."""
    p = domino_problem(6, 6)
    s = p.solution_set(method="frontier").using(backend)
    store = Store(p.matrix.digest, s.store.order, backend)
    assert len(store.S.CACHE) == 0
    store.reserve(3000)
    assert store.slots == store.nodes + 3000
    assert store.memory() <= 32 * store.slots + 8 * 1024
    node = store.adopt(s.store, s._at[1])
    assert len(store.S.CACHE) == len(store.S.COUNT) == len(store.S.SIG) == 0
    assert store.count_by_residues(node) == 6728 and len(store.S.COUNT) == 0
    assert store.count(node) == 6728 and len(store.S.COUNT) == store.slots
    assert len(store.S.CACHE) == 0
    assert SolutionSet._made(p, store, node, backend) == s


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("more", [1000, 3000, 27_552 - 2])
def test_the_cache_is_a_power_of_two_on_a_store_of_any_size(backend, more):
    """The kernel finds a cache entry by masking its hash: a cache of any other length
    left most entries unused (a store reserved to 27,552 slots had 1,024 usable entries
    of 13,776, and the operations' shared work came undone: ``restrict`` of the last
    variable at 12 x 12 took minutes)."""
    p = domino_problem(8, 8)
    s = p.solution_set(method="frontier").using(backend)
    store = Store(p.matrix.digest, s.store.order, backend)
    store.reserve(more)
    node = store.adopt(s.store, s._at[1])
    last = int(store.order[-1])
    with_last = store.apply_option(6, node, last)  # WITH: every node visited
    entries = len(store.S.CACHE) // 4
    assert entries & (entries - 1) == 0 and entries >= store.slots // 2
    assert store.count(with_last) == s.restrict(include=[last]).count()


@pytest.mark.parametrize("backend", AVAILABLE)
@pytest.mark.parametrize("choices,n", [(2, 100), (3, 80), (5, 200)])
def test_counts_past_two_to_the_62_are_exact(backend, choices, n):
    """A family of ``choices ** n`` sets (each item covered by one of ``choices``
    options of its own): counted modulo primes past 2**62, as Python's integers say."""
    options = [[f"i{i}"] for i in range(n) for _ in range(choices)]
    p = ExactCover(options)
    s = p.solution_set(method="frontier", backend=backend)
    assert s.count() == choices ** n
    assert s.using(backend).count() == choices ** n
    assert (s - s.restrict(include=[0])).count() == (choices - 1) * choices ** (n - 1)
