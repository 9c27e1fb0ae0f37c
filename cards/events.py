"""Storing a game's events: each event type a frozen dataclass with a ``name`` and a schema
``version``; stored as ``(name, version, payload)`` where the payload is the fields as
JSON-ready data. A stored log is never rewritten: when a type's payload changes shape its
version goes up and an *upcaster* turns the previous version's payload into the next.

>>> from dataclasses import dataclass
>>> from typing import ClassVar
>>> @dataclass(frozen=True)
... class Played:
...     seat: int
...     cards: tuple[str, ...]
...     name: ClassVar[str] = "played"
...     version: ClassVar[int] = 2
>>> codec = EventCodec([Played])
>>> @codec.upcaster("played", 1)
... def _cards_were_one_card(payload):
...     return {"seat": payload["seat"], "cards": [payload["card"]]}
>>> codec.payload(Played(1, ("AS", "KD")))
{'seat': 1, 'cards': ['AS', 'KD']}
>>> codec.from_payload("played", 1, {"seat": 0, "card": "TS"})
Played(seat=0, cards=('TS',))

For the API's documentation, the payloads' JSON Schemas, each field described once:

>>> fields_ = {"seat": {"type": "integer"}, "cards": {"type": "array"}}
>>> schemas = codec.payload_schemas("Toy_", fields_)
>>> schemas["Toy_played"]["required"]
['cards', 'seat']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from typing import Any, ClassVar, Protocol, TypeAlias

from cards.errors import MalformedEventError

Payload: TypeAlias = dict[str, Any]
Upcaster: TypeAlias = Callable[[Payload], Payload]


class EventType(Protocol):
    """What an event class has besides its fields: its stored name and schema version."""

    name: ClassVar[str]
    version: ClassVar[int]


class EventCodec:
    """The event types of one game, their payloads, and the upcasters of old versions.

    ``decode`` maps a field name to a function that rebuilds a value from its JSON (a
    game's rules, say); ``encode`` turns values of other types to JSON (anything with a
    ``to_json``); tuples become lists and back.
    """

    def __init__(
        self, types: Iterable[type[EventType]], decode: Mapping[str, Callable[[Any], Any]] = {}
    ) -> None:
        self.types: dict[str, type[EventType]] = {cls.name: cls for cls in types}
        self.decode = dict(decode)
        self.upcasters: dict[tuple[str, int], Upcaster] = {}

    def upcaster(self, name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorate a function that upgrades ``name`` payloads from ``from_version`` by one."""

        def register(fn: Upcaster) -> Upcaster:
            self.upcasters[(name, from_version)] = fn
            return fn

        return register

    def payload(self, event: Any) -> Payload:
        """The event's fields as JSON-ready data (without its name and version)."""
        return {f.name: _to_plain(getattr(event, f.name)) for f in fields(event)}

    def from_payload(self, name: str, version: int, payload: Mapping[str, Any]) -> Any:
        """Rebuild an event from its stored name, version and payload, upcasting as needed."""
        cls = self.types.get(name)
        if cls is None:
            raise MalformedEventError(f"unknown event type {name!r}")
        data = dict(payload)
        current = cls.version
        while version < current:
            upcast = self.upcasters.get((name, version))
            if upcast is None:
                raise MalformedEventError(f"no upcaster for {name!r} version {version}")
            data = upcast(data)
            version += 1
        if version != current:
            raise MalformedEventError(f"{name!r} version {version} is newer than this engine's")
        try:
            kwargs = {
                f.name: self.decode[f.name](data[f.name])
                if f.name in self.decode
                else _to_tuple(data[f.name])
                for f in fields(cls)  # type: ignore[arg-type]  # event types are dataclasses
                if f.name in data
            }
            return cls(**kwargs)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise MalformedEventError(f"bad {name!r} payload: {exc}") from exc

    def payload_schemas(
        self,
        prefix: str,
        field_schemas: Mapping[str, Mapping[str, Any]],
        extra: Mapping[str, Mapping[str, Mapping[str, Any]]] = {},
    ) -> dict[str, dict[str, Any]]:
        """JSON Schemas of every type's payload (OpenAPI 3.0 flavour), by component name
        ``<prefix><name>``: an object of the type's fields, each described by
        ``field_schemas[field name]`` (a game names its fields consistently: ``seat`` is a
        seat in every event), plus ``extra[name]``, fields its redaction adds. Every field
        is required; a field a reader may not see is redacted to ``null`` or to a list of
        ``null``, which the field's schema must allow.
        """
        result: dict[str, dict[str, Any]] = {}
        for name, cls in sorted(self.types.items()):
            props = {f.name: dict(field_schemas[f.name]) for f in fields(cls)}  # type: ignore[arg-type]
            props.update({k: dict(v) for k, v in extra.get(name, {}).items()})
            result[prefix + name] = {
                "type": "object",
                "description": (cls.__doc__ or name).strip().split("\n\n")[0],
                "properties": props,
                "required": sorted(props),
                "additionalProperties": False,
            }
        return result


def _to_plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_plain(v) for v in value]
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


def _to_tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_to_tuple(v) for v in value)
    return value


def first_difference(expected: Any, stored: Any, where: str = "") -> str:
    """Where ``stored`` (an event of a log, or one of its fields) first differs from what
    the rules give, ``expected``: the field and both values, not two whole events.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Dealt:
    ...     hands: tuple[tuple[str, ...], ...]
    ...     name: ClassVar[str] = "dealt"
    >>> first_difference(Dealt((("AS", "KD"), ("2C",))), Dealt((("AS", "QD"), ("2C",))))
    "hands[0][1]: the rules give 'KD', the log holds 'QD'"
    """
    at = where or "the event"
    if type(expected) is not type(stored):
        return f"{at}: the rules give {_named(expected)}, the log holds {_named(stored)}"
    if hasattr(expected, "__dataclass_fields__"):
        for field in fields(expected):
            mine, theirs = getattr(expected, field.name), getattr(stored, field.name)
            if mine != theirs:
                inner = f"{where}.{field.name}" if where else field.name
                return first_difference(mine, theirs, inner)
    elif isinstance(expected, tuple | list) and len(expected) == len(stored):
        for index, (mine, theirs) in enumerate(zip(expected, stored, strict=True)):
            if mine != theirs:
                return first_difference(mine, theirs, f"{where}[{index}]")
    elif isinstance(expected, dict) and expected.keys() == stored.keys():
        for key, mine in expected.items():
            if mine != stored[key]:
                return first_difference(mine, stored[key], f"{where}.{key}" if where else key)
    return f"{at}: the rules give {expected!r}, the log holds {stored!r}"


def _named(value: Any) -> str:
    """An event by its name; anything else as it is written."""
    name = getattr(type(value), "name", None)
    return name if isinstance(name, str) else repr(value)
