"""Compiled batches cut into slices of a few nodes, for the tests that check that a batch
resumed after every few nodes gives the very records of one call."""

from __future__ import annotations

from typing import Any

__all__ = ["tiny_slices"]


def tiny_slices(monkeypatch: Any, nodes: int) -> list:
    """Make every compiled batch return to Python after about ``nodes`` nodes (its first
    slice included, for batches set up from now on); returns the list of the slices'
    drivers, each counting its slices in ``calls``."""
    import dlx.compiled

    made = []

    class Tiny(dlx.compiled.Slices):
        def __init__(self, seconds: float, first: int = 1024) -> None:
            super().__init__(seconds, first)
            self.nodes = nodes
            self.calls = 0
            made.append(self)

        def ran(self, ran_nodes: int, seconds: float, left: float | None = None) -> None:
            self.calls += 1

    monkeypatch.setattr(dlx.compiled, "Slices", Tiny)
    return made
