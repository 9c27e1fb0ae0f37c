"""A JSON form of :class:`~ninety_nine.state.State`, for snapshots that spare a replay.

A snapshot is only a cache: ``replay(events)`` always rebuilds the same state.

>>> from ninety_nine.decide import start_match
>>> from ninety_nine.rules import Rules
>>> from ninety_nine.state import replay
>>> state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
>>> state_from_json(state_to_json(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from ninety_nine.events import CODEC, DealScored, TrickWon
from ninety_nine.rules import Rules
from ninety_nine.state import Phase, State

FORMAT = 1


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _trick(data: Any) -> TrickWon:
    trick: TrickWon = CODEC.from_payload(TrickWon.name, TrickWon.version, data)
    return trick


def _deal(data: Any) -> DealScored | None:
    if data is None:
        return None
    deal: DealScored = CODEC.from_payload(DealScored.name, DealScored.version, data)
    return deal


_ENCODE: dict[str, Callable[[Any], Any]] = {
    "rules": lambda r: r.to_json(),
    "seed": lambda b: b.hex(),
    "phase": lambda p: p.value,
    "tricks": lambda ts: [CODEC.payload(t) for t in ts],
    "last_deal": lambda d: None if d is None else CODEC.payload(d),
}
_DECODE: dict[str, Callable[[Any], Any]] = {
    "rules": Rules.from_json,
    "seed": bytes.fromhex,
    "phase": Phase,
    "tricks": lambda ts: tuple(_trick(t) for t in ts),
    "last_deal": _deal,
}


def state_to_json(state: State) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT}
    for f in fields(State):
        value = getattr(state, f.name)
        data[f.name] = _ENCODE.get(f.name, _plain)(value)
    return data


def state_from_json(data: Mapping[str, Any]) -> State:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {data.get('format')!r}")
    kwargs = {f.name: _DECODE.get(f.name, _tuples)(data[f.name]) for f in fields(State)}
    return State(**kwargs)
