"""``python -m sudoku``: the same as the ``sudoku`` command (see [`sudoku.cli`][])."""

from .cli import main

raise SystemExit(main())
