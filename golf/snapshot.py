"""A JSON form of :class:`~golf.state.State`, for snapshots that spare a replay.

A snapshot is only a cache: ``replay(events)`` can always rebuild the same state, and
tests check that loading from a snapshot equals a full replay. A field missing from an
older snapshot takes its default (the ``seen`` marks: nothing seen; the seats awaited
after a hole: none). Format 1 snapshots (before per-seat ``seen`` marks and
``hole_finishers``) still load: their marks were the lone undo seat's, and the finishers
of the holes they had scored are unknown to them (``None``; a replay knows them). A
snapshot taken before states kept the piles of a hole's reshuffles (``reshuffled_piles``)
loads without them: an undo then foresees nothing of the stocks those piles made.

>>> from golf import Rules, replay, start_match
>>> state = replay(start_match(Rules.from_preset("six-card"), 2, bytes(32)))
>>> state_from_json(state_to_json(state)) == state
True
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from golf.rules import Rules
from golf.state import Phase, State

FORMAT = 2
_NESTED = (
    "grids",
    "face_up",
    "hole_scores",
    "last_hole_grids",
    "seen",
    "stock_seen",
    "reshuffled_piles",
)


def state_to_json(state: State) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT}
    for f in fields(State):
        value = getattr(state, f.name)
        if f.name == "rules":
            value = value.to_json()
        elif f.name == "seed":
            value = value.hex()
        elif f.name == "phase":
            value = value.value
        elif f.name == "undo_point":
            value = None if value is None else state_to_json(value)
        elif f.name == "foreseen":
            value = [[v, n, list(pile), count] for v, n, pile, count in value]
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        data[f.name] = value
    return data


def state_from_json(data: dict[str, Any]) -> State:
    if data.get("format") == 1:
        data = _from_format_1(data)
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {data.get('format')!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(State):
        if f.name not in data and f.default is not MISSING:
            continue
        value = data[f.name]
        if f.name == "rules":
            value = Rules.from_json(value)
        elif f.name == "seed":
            value = bytes.fromhex(value)
        elif f.name == "phase":
            value = Phase(value)
        elif f.name == "undo_point":
            value = None if value is None else state_from_json(value)
        elif f.name in _NESTED:
            value = tuple(tuple(v) for v in value)
        elif f.name == "foreseen":
            value = tuple((v, n, tuple(pile), count) for v, n, pile, count in value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return State(**kwargs)


def _from_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """A format 1 snapshot in format 2: the marks become the lone undo seat's (the only seat
    that could undo then), and scored holes get an unknown finisher."""
    data = dict(data, format=FORMAT)
    humans = [s for s, kind in enumerate(data["players"]) if kind == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    if "seen" in data:
        data["seen"] = [[viewer, s, p] for s, p in data["seen"]] if viewer is not None else []
    if "stock_seen" in data:
        count = data["stock_seen"]
        data["stock_seen"] = [[viewer, count]] if count and viewer is not None else []
    if "drawn_seen" in data:
        data["drawn_seen"] = [viewer] if data["drawn_seen"] and viewer is not None else []
    if "hole_finishers" not in data:
        data["hole_finishers"] = [None] * len(data.get("hole_scores", ()))
    if data.get("undo_point") is not None:
        data["undo_point"] = _from_format_1(data["undo_point"])
    return data
