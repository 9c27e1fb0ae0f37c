"""The JSON request parser: strict about what it accepts, so that nothing below it meets
a document it cannot handle."""

from __future__ import annotations

import codecs
import json
import math
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32  # no request of this API nests deeper than a handful of levels
# Nor holds more than a few dozen values (a new match's seats and rules are the most).
# Parsing costs about a microsecond a value, most of it in Python (each object's keys are
# checked, every value walked), so a 64 KiB body of 20,000 empty objects took 26 ms of a
# core: the count of its commas and brackets, taken before parsing, bounds that.
MAX_VALUES = 1000
# No number of this API has more than a handful of digits; Python's own bound (4,300)
# comes with a message about its interpreter.
MAX_DIGITS = 40


def check_document(value: Any) -> None:
    """Refuse a parsed document nested deeper than ``MAX_DEPTH``, or holding a string that
    is not Unicode text (JSON's ``\\ud800`` escapes can spell lone surrogates, which cannot
    be encoded, stored or compared). Iterative: no recursion, whatever the input."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError("the JSON holds a string that is not valid Unicode") from None
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise ParseError(f"the JSON nests deeper than {MAX_DEPTH} levels")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits")
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # (1e999: JSON's syntax, beyond a double)
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, its keys each given once (JSON leaves a repeated key's meaning open:
    the last would win here, another reader might take the first)."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ParseError(f"malformed JSON: the key {key[:40]!r} is given twice")
            seen.add(key)
    return data


def _utf8(charset: str) -> bool:
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False


class StrictJSONParser(JSONParser):
    """JSON bodies in UTF-8 (RFC 8259: the only encoding of JSON between systems; a
    ``charset`` naming another is a 415): an object (every request body of this API is
    one), nested at most ``MAX_DEPTH`` levels, holding at most ``MAX_VALUES`` values, with
    valid Unicode strings and numbers of at most ``MAX_DIGITS`` digits, finite, only."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        if not _utf8(encoding):
            raise UnsupportedMediaType(
                media_type or self.media_type,
                f"JSON bodies are UTF-8, not charset {str(encoding)[:40]!r}",
            )
        body = stream.read()
        # (separators inside strings count too: no string here holds a thousand)
        if body.count(b",") + body.count(b"[") + body.count(b"{") > MAX_VALUES:
            raise ParseError(f"the JSON holds more than {MAX_VALUES} values")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError("the body is not valid UTF-8") from None
        try:
            data = json.loads(
                text,
                parse_constant=_refuse_constant,
                parse_int=_integer,
                parse_float=_real,
                object_pairs_hook=_object,
            )
        except RecursionError:  # nested beyond what the parser itself can follow
            raise ParseError(f"the JSON nests deeper than {MAX_DEPTH} levels") from None
        except ValueError as exc:
            raise ParseError(f"malformed JSON: {exc}") from None
        check_document(data)
        if not isinstance(data, dict):
            raise ParseError("the body must be a JSON object")
        return data
