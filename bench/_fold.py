"""What the engine benchmarks share: timing a fold over recorded logs, and the machine's
ceiling for one (the same events as tuples folded into a dict by a bare loop)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import astuple
from typing import Any


def best_of(repeat: int, logs: Sequence[Sequence[Any]], fold: Callable[..., object]) -> float:
    """The fastest of ``repeat`` passes of ``fold`` over every log, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for log in logs:
            fold(log)
        best = min(best, time.perf_counter() - started)
    return best


def bare_fold(log: Sequence[tuple[str, tuple[object, ...]]]) -> dict[str, object]:
    """The least a fold can do: each event's fields into a dict, a counter bumped."""
    state: dict[str, object] = {}
    version = 0
    for name, values in log:
        state[name] = values
        version += 1
    state["version"] = version
    return state


def rates(
    repeat: int, *games: tuple[Sequence[Sequence[Any]], Callable[..., object]]
) -> list[tuple[float, float]]:
    """For each ``(logs, replay)`` of ``games``: events per second of ``replay`` over the
    logs (dataclass events) and of the ceiling over the same events. Each is the best of
    ``repeat`` passes, and the passes take turns (every fold once, then again), so that a
    change in the machine's load falls on all of them alike."""
    folds = []
    for logs, replay in games:
        tuples = [[(type(e).__name__, astuple(e)) for e in log] for log in logs]
        folds += [(logs, replay), (tuples, bare_fold)]
    best = [float("inf")] * len(folds)
    for _ in range(repeat):
        for i, (logs, fold) in enumerate(folds):
            best[i] = min(best[i], best_of(1, logs, fold))
    events = [sum(len(log) for log in logs) for logs, _ in games]
    return [(n / best[2 * i], n / best[2 * i + 1]) for i, n in enumerate(events)]
