"""Write the pictures shown in the README and the docs (``docs/img/*.svg``) with the
project's own drawing code; ``tests/test_draw.py`` checks that they are up to date.
Run from the repository root: ``python docs/make_pictures.py``."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "img"

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
JIGSAW = "aaaabbaabbbbcccdddcccdddeeefffeeefff"
KILLER = [((0, 1), 3), ((2, 3), 7), ((4, 5, 8, 9), 10), ((6, 7, 10, 11), 10),
          ((12, 13, 14, 15), 10)]
MIRROR = "...4.7....1.....4.4..1.8..2..92.53...8.3.9.5.3.......6.4.....8.137...9259.......7"
"""The tutorial's generated puzzle (intermediate, mirror symmetry, seed 7)."""


def pictures() -> dict[str, str]:
    """File name -> SVG text."""
    import sudoku
    from dlx.draw import draw_queens, draw_tiling
    from dlx.problems import pentominoes, queens
    from sudoku import Layout

    tiling, board = pentominoes(6, 10), queens(8)
    jigsaw = Layout.jigsaw(JIGSAW)
    killer = Layout.killer(KILLER, block=(2, 2))
    x = Layout.x()
    return {
        "sudoku.svg": sudoku.draw_board(HARD, sudoku.solve_string(HARD)).svg,
        "jigsaw.svg": sudoku.draw_board("." * 36, sudoku.solve_string("." * 36, layout=jigsaw),
                                        layout=jigsaw).svg,
        "killer.svg": sudoku.draw_board("." * 16, sudoku.solve_string("." * 16, layout=killer),
                                        layout=killer, cell=60).svg,
        "sudoku-x.svg": sudoku.draw_board("." * 81, sudoku.solve_string("." * 81, layout=x),
                                          layout=x).svg,
        "queens.svg": draw_queens(board, board.first()).svg,
        "pentominoes.svg": draw_tiling(tiling, tiling.first(backend="python")).svg,
        "step.svg": sudoku.draw_step(max(sudoku.explain(MIRROR),
                                         key=lambda step: step.rating)).svg,
    }


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's packages
    HERE.mkdir(exist_ok=True)
    for name, svg in pictures().items():
        (HERE / name).write_text(svg, encoding="utf-8")
        print(f"wrote {HERE / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
