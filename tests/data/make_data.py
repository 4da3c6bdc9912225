"""Write the small ``.dlx`` files shipped in ``tests/data/exact_cover`` with the project's
own builders (:mod:`dlx.problems`, :func:`sudoku.to_exact_cover`).

They let the known-count tests run in a clone or an sdist without ``../shared/data``;
``tests/test_data.py`` checks that this script still writes exactly these files and, where
the public set is present, that each equals its namesake there (whose counts were
reproduced by Knuth's DLX1). Run from the repository root, as a module of the ``tests``
package (so that this tree's packages are the ones imported): ``python -m tests.data.make_data``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "exact_cover"

KNUTH_DLX1 = "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"
"""The example of dlx1.w's introduction (matrix (3) of "Dancing Links"), as Knuth gives it."""

KNUTH_DLX2 = ("| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\n"
              "A C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n")
"""The example of dlx2.w's introduction."""

TOP95_1 = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4"
           "......")
"""The first puzzle of Norvig's top95 (a well-known hard puzzle)."""


def files() -> dict[str, str]:
    """File name -> text, each made by a builder (or given by Knuth, for his examples)."""
    from dlx.problems import langford, pentominoes, queens
    from sudoku import to_exact_cover

    def tagged(text: str, how: str) -> str:
        return f"| {how} (tests/data/make_data.py)\n{text}"

    return {
        "knuth_dlx1_example.dlx": KNUTH_DLX1,
        "knuth_dlx2_color_example.dlx": KNUTH_DLX2,
        **{f"queens{n}.dlx": tagged(queens(n).to_dlx(), f"dlx.problems.queens({n})")
           for n in (8, 9, 10)},
        **{f"langford{n}.dlx": tagged(langford(n).to_dlx(), f"dlx.problems.langford({n})")
           for n in (7, 8, 9, 10)},
        "langford7_sym.dlx": tagged(langford(7, sym=True).to_dlx(),
                                    "dlx.problems.langford(7, sym=True)"),
        "langford8_sym.dlx": tagged(langford(8, sym=True).to_dlx(),
                                    "dlx.problems.langford(8, sym=True)"),
        "pentomino_3x20.dlx": tagged(pentominoes(3, 20).to_dlx(),
                                     "dlx.problems.pentominoes(3, 20)"),
        "shidoku_empty4x4.dlx": tagged(to_exact_cover("." * 16).to_dlx(),
                                       "sudoku.to_exact_cover('.' * 16)"),
        "sudoku_top95_1_reduced.dlx": tagged(to_exact_cover(TOP95_1).to_dlx(),
                                             "sudoku.to_exact_cover(top95[0])"),
    }


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, text in files().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {HERE / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
