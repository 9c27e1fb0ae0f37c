"""Reading settings from the environment, with clear errors for bad or missing values."""

from __future__ import annotations

import os
import uuid

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None else value


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def require(name: str, value: str | None, why: str) -> str:
    """Return ``value`` or fail with a message naming the missing variable."""
    if not value:
        raise ImproperlyConfigured(f"{name} must be set: {why}")
    return value


CHAIN_KEYS_HELP = (
    "the event chain's keys as id:hex pairs, e.g. k1:<64 hex digits> "
    "(python -c 'import secrets; print(\"k1:\" + secrets.token_hex(32))')"
)
# The chain's key under DEBUG when none is set: written here, so known to anyone. A chain
# under it is no more secret than an unkeyed one (matches/admin.py ``chain_hashes_shown``).
PUBLIC_CHAIN_KEY = bytes(32)


def parse_chain_keys(value: str) -> dict[str, bytes]:
    """``"k2:<hex>,k1:<hex>"`` as ``{"k2": b"...", "k1": b"..."}``, in order; each key at
    least 32 bytes."""
    keys: dict[str, bytes] = {}
    for item in value.split(","):
        key_id, _, secret = item.strip().partition(":")
        try:
            key = bytes.fromhex(secret)
        except ValueError:
            key = b""
        if not key_id or len(key_id) > 32 or len(key) < 32:
            raise ImproperlyConfigured(f"EVENT_CHAIN_KEYS must be {CHAIN_KEYS_HELP}")
        keys[key_id] = key
    return keys


def parse_match_ids(name: str, value: list[str]) -> frozenset[str]:
    """Match ids (UUIDs, in any case) as their canonical strings."""
    try:
        return frozenset(str(uuid.UUID(item)) for item in value)
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} must be match ids (UUIDs) separated by commas"
        ) from None
