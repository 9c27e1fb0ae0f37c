"""What the games' command lines (their ``simulate`` and ``arena``) share."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cards.errors import EngineError


def parse_overrides(items: Sequence[str]) -> dict[str, Any]:
    """``--set NAME=VALUE`` pairs as rules overrides, a value JSON where it parses as such
    (``holes=3`` is a number, ``passing=left`` a string). A pair without a name and ``=``
    is an ``EngineError``, which the commands report as they report bad rules."""
    overrides: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise EngineError(f"--set takes NAME=VALUE, got {item!r}")
        try:
            overrides[name] = json.loads(raw)
        except ValueError:
            overrides[name] = raw
    return overrides
