"""Ctrl-C for the tests that check a compiled search can be interrupted."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def ctrl_c_after(seconds: float) -> Iterator[None]:
    """Send this process SIGINT after ``seconds``, with Python's own handler installed for
    the while: a process started with SIGINT ignored (a background job of a shell without
    job control, as a CI script may be) would otherwise never see it, and the search under
    test would run for ever."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def interrupt_the_live_line(monkeypatch: Any, at: int = 2) -> list[Any]:
    """Make the `dlx` command's status line (``dlx.cli._Live``) raise KeyboardInterrupt
    on its ``at``-th report, as Ctrl-C there would: the records it was given so far are
    the list returned."""
    from dlx.cli import _Live

    calls: list[Any] = []

    def interrupt(self: Any, record: Any) -> None:
        calls.append(record)
        if len(calls) == at:
            raise KeyboardInterrupt

    monkeypatch.setattr(_Live, "__call__", interrupt)
    return calls
