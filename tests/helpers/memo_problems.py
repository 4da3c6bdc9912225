"""Problems of the memoized search's tests: domino boards with an independent count
(a transfer matrix), and random XCC problems small enough to list every solution; and
the python kernel run one node a call under Knuth's sanity check."""

from __future__ import annotations

from hypothesis import strategies as st

from dlx import Colored, ExactCover
from dlx.backend import PYTHON_MEMO
from dlx.kernels.memo import (
    COMPLETE,
    GROW_MEMO,
    GROW_PARTS,
    MAX_NODES,
    REG_NODES,
    REG_ROOT,
    REG_ZNODES,
    search,
)
from dlx.kernels.parts import REG_GTOP
from dlx.memo import _grow_memo, _grow_parts, _grow_zdd, _state, check_memo, memo_input
from dlx.products import product_counts

__all__ = ["domino_problem", "plain", "run_node_by_node", "transfer_matrix_dominoes",
           "xcc_problems"]


def domino_problem(m: int, n: int) -> ExactCover:
    """Domino tilings of an m x n board, laid out as the shared files are."""
    options = []
    for r in range(m):
        for c in range(n):
            if c + 1 < n:
                options.append([f"{r}_{c}", f"{r}_{c + 1}"])
            if r + 1 < m:
                options.append([f"{r}_{c}", f"{r + 1}_{c}"])
    return ExactCover(options, primary=[f"{r}_{c}" for r in range(m) for c in range(n)])


def transfer_matrix_dominoes(m: int, n: int) -> int:
    """Domino tilings of an m x n board, column by column: the state is the set of cells
    of the next column already covered by horizontal dominoes (a bit mask)."""
    ways = {0: 1}
    for _ in range(n):
        new: dict[int, int] = {}
        for mask, count in ways.items():
            stack = [(0, mask, 0)]  # row, cells of this column filled, next column's mask
            while stack:
                r, filled, nxt = stack.pop()
                if r == m:
                    new[nxt] = new.get(nxt, 0) + count
                elif filled >> r & 1:
                    stack.append((r + 1, filled, nxt))
                else:
                    stack.append((r + 1, filled | 1 << r, nxt | 1 << r))  # horizontal
                    if r + 1 < m and not filled >> (r + 1) & 1:  # vertical
                        stack.append((r + 2, filled | 3 << r, nxt))
        ways = new
    return ways.get(0, 0)


@st.composite
def xcc_problems(draw):
    """Up to 7 primary and 3 secondary items, up to 14 options (small enough to list)."""
    n1 = draw(st.integers(1, 7))
    n2 = draw(st.integers(0, 3))
    primary = [f"p{i}" for i in range(n1)]
    secondary = [f"s{j}" for j in range(n2)]
    options = []
    for _ in range(draw(st.integers(0, 14))):
        chosen = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=3, unique=True))
        for name in secondary:
            color = draw(st.sampled_from(["absent", "absent", None, "a", "b"]))
            if color is None:
                chosen.append(name)
            elif color != "absent":
                chosen.append(Colored(name, color))
        options.append(chosen)
    return ExactCover(options, primary=primary, secondary=secondary)


def plain(problem: ExactCover) -> list[list[int]]:
    """Every solution by the plain search (python), in its order."""
    return list(problem.solutions(backend="python"))


def run_node_by_node(problem: ExactCover, parts: bool = False,
                     room: int | None = None) -> tuple[int, int]:
    """The python kernel one node a call, Knuth's sanity check between calls, and the
    links, lengths and signature as fresh at the end. ``room`` (with ``parts``): the group
    stack starts with room for that many splits. Returns how often the group stack grew,
    and the count."""
    data = memo_input(problem)
    S = _state(PYTHON_MEMO, data, 1 << 62, parts=parts)
    if room is not None:
        S = S._replace(GROUPS=S.GROUPS[:S.REG[REG_GTOP] + room * 2 * len(S.LEN)])
    fresh = _state(PYTHON_MEMO, data, 1 << 62, parts=parts)
    grown = 0
    while True:
        check_memo(S)
        status = search(S, S.REG[REG_NODES] + 1)
        if status == COMPLETE:
            break
        if status == GROW_PARTS:
            grown += 1
            S = _grow_parts(PYTHON_MEMO, S)
        elif status != MAX_NODES:
            S = (_grow_memo if status == GROW_MEMO else _grow_zdd)(PYTHON_MEMO, S)
    check_memo(S)
    for name in ("U", "D", "COLOR", "LEN", "LL", "RL", "CUR"):
        assert getattr(S, name) == getattr(fresh, name), name
    n = S.REG[REG_ZNODES]
    return grown, product_counts(S.ZOPT[:n], S.ZLO[:n], S.ZHI[:n])[S.REG[REG_ROOT]]
