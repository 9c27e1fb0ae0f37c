"""A JSON form of :class:`~hearts.state.State`, for snapshots that spare a replay. Only a
cache: ``replay(events)`` always rebuilds the same state.

>>> from hearts.decide import start_match
>>> from hearts.rules import Rules
>>> from hearts.state import replay
>>> state = replay(start_match(Rules.from_preset("hearts-classic"), 4, bytes(32)))
>>> state_from_json(state_to_json(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from hearts.events import CODEC
from hearts.rules import Rules
from hearts.state import Phase, State

FORMAT = 1
_RECORDS = ("tricks", "last_deal")  # events kept in the state


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def state_to_json(state: State) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT}
    for name, value in state.__dict__.items():
        if name == "rules":
            data[name] = value.to_json()
        elif name == "seed":
            data[name] = value.hex()
        elif name == "phase":
            data[name] = value.value
        elif name == "undo_point":
            data[name] = None if value is None else state_to_json(value)
        elif name == "tricks":
            data[name] = [CODEC.payload(t) for t in value]
        elif name == "last_deal":
            data[name] = None if value is None else CODEC.payload(value)
        else:
            data[name] = _plain(value)
    return data


def state_from_json(data: Mapping[str, Any]) -> State:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {data.get('format')!r}")
    values: dict[str, Any] = {}
    for f in fields(State):
        if f.name not in data:
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
        elif f.name == "tricks":
            value = tuple(CODEC.from_payload("trick_won", 1, t) for t in value)
        elif f.name == "last_deal":
            value = None if value is None else CODEC.from_payload("deal_scored", 1, value)
        else:
            value = _tuples(value)
        values[f.name] = value
    return State(**values)
