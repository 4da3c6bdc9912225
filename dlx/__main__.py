"""``python -m dlx``: the ``dlx`` command (see :mod:`dlx.cli`)."""

from .cli import main

raise SystemExit(main())
