"""Rounds over a set of puzzles in which each puzzle is also timed alone."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pytest_benchmark.fixture import BenchmarkFixture

__all__ = ["timed_rounds"]

T = TypeVar("T")


def timed_rounds(benchmark: BenchmarkFixture, solve: Callable[[Any], T], items: Sequence[Any],
                 rounds: int) -> tuple[list[T], list[float]]:
    """``benchmark.pedantic`` over rounds that each solve every item; returns the last
    round's answers and each item's best time (seconds) over the rounds."""
    times: list[list[float]] = [[] for _ in items]

    def one_round() -> list[T]:
        answers = []
        for i, item in enumerate(items):
            t = time.perf_counter()
            answers.append(solve(item))
            times[i].append(time.perf_counter() - t)
        return answers

    answers = benchmark.pedantic(one_round, rounds=rounds, iterations=1)
    return answers, [min(t) for t in times]
