"""What the games' command lines (their ``simulate`` and ``arena``) share."""

from __future__ import annotations

import argparse
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
        except RecursionError:
            raise EngineError(f"--set {name}: the value nests too deep") from None
    return overrides


def positive_int(text: str) -> int:
    """An ``argparse`` type: a whole number, 1 or more (deals, holes, processes)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value
