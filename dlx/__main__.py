"""``python -m dlx``: the ``dlx`` command (see [`dlx.cli`][])."""

from .cli import main

raise SystemExit(main())
