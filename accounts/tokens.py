"""API tokens checked without a query of their own.

A token request normally costs a query before the view runs (the token and its user).
A view whose work starts with a query anyway (an action: the match row) can have the
token checked by that query instead: authentication then takes the token's user from a
small in-process map of recently seen tokens, and the view's statements check the token
exactly (it still exists, is still that user's, and the user is still active and not
suspended), and the action's write is made only while that holds. A revoked token, a
deactivated or a suspended account therefore stops working at once, as with the query:
the map only saves the query, it never vouches for a token. :class:`TokenCheck` carries
a token to those statements; :func:`check_token` checks one on its own (for answers the
view gives before or without its query).
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import threading
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from rest_framework.authtoken.models import Token

#: How many tokens a process remembers (oldest forgotten first); about a kilobyte each.
MAX_REMEMBERED = 4096


@dataclass
class TokenCheck:
    """A token to be checked by the statements of the request: it must exist, belong to
    ``user_id``, and that user be active. ``verified`` says that a statement of this
    request found it so (set by whoever ran that statement)."""

    key: str
    user_id: Any
    verified: bool = False


def token_sql(key_param: str = "%s", user_param: str = "%s") -> str:
    """An SQL expression, the token's standing: true when the token (``key_param``) exists,
    is the user's (``user_param``) and the user is active and not suspended; false when the
    user is not active or is suspended; null when there is no such token (revoked). Its
    parameters come in that order."""
    user_table = get_user_model()._meta.db_table
    return (
        f"(SELECT u.is_active AND u.suspended_at IS NULL FROM {Token._meta.db_table} t "
        f"JOIN {user_table} u "
        f"ON u.id = t.user_id WHERE t.key = {key_param} AND t.user_id = {user_param})"
    )


INVALID_TOKEN = "Invalid token."  # DRF's words for the same failures
INACTIVE_USER = "User inactive or deleted."  # (or suspended: its tokens were deleted then)


def token_failure(standing: bool | None) -> str | None:
    """Why a token of this standing (:func:`token_sql`) is refused; ``None``: it is good."""
    if standing is None:
        return INVALID_TOKEN
    return None if standing else INACTIVE_USER


def check_token(check: TokenCheck) -> str | None:
    """Check ``check`` with a query of its own: why it is refused, or ``None`` (then it is
    marked verified)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {token_sql()}", [check.key, check.user_id])
        row = cursor.fetchone()
    failure = token_failure(row[0] if row else None)
    check.verified = failure is None
    return failure


class RememberedUsers:
    """token key -> its user as last loaded, bounded, shared by a process's threads.

    What it holds is never trusted on its own: a request authenticated from it must have
    its token checked by a statement (:class:`TokenCheck`). Each caller gets a copy of the
    user, so that no two requests share one object.
    """

    def __init__(self, limit: int = MAX_REMEMBERED) -> None:
        self.limit = limit
        self._users: dict[str, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Any | None:
        user = self._users.get(key)
        if user is None:
            return None
        copied = copy.copy(user)
        copied._state = copy.copy(user._state)
        copied._state.fields_cache = {}
        return copied

    def put(self, key: str, user: Any) -> None:
        with self._lock:
            new = self._users.pop(key, None) is None
            while len(self._users) >= self.limit:
                del self._users[next(iter(self._users))]
            self._users[key] = user
        if new:  # (the other processes learn it once from each, not with every request)
            with contextlib.suppress(Exception):  # (the cache is only a hint here)
                cache.set(_seen_key(key), 1, SEEN_SECONDS)

    def seen(self, key: str) -> bool:
        """Whether a process of the service lately found ``key`` good (this one, or any
        through the shared cache); it may have been revoked since: a hint, never a
        voucher."""
        if key in self._users:
            return True
        try:
            return cache.get(_seen_key(key)) is not None
        except Exception:  # (the cache is away: not known)
            return False

    def __contains__(self, key: object) -> bool:
        return key in self._users

    def forget(self, key: str) -> None:
        with self._lock:
            self._users.pop(key, None)
        with contextlib.suppress(Exception):
            cache.delete(_seen_key(key))

    def clear(self) -> None:
        with self._lock:
            self._users.clear()

    def __len__(self) -> int:
        return len(self._users)


#: How long the shared cache keeps that a token was found good (:meth:`RememberedUsers.seen`).
SEEN_SECONDS = 24 * 3600


def _seen_key(key: str) -> str:
    return f"token-seen:{token_digest(key)}"


remembered = RememberedUsers()


def token_digest(key: str) -> str:
    """How a suspension remembers a token it revoked (never the token itself)."""
    return hashlib.sha256(key.encode()).hexdigest()


def revoked_by_suspension(key: str) -> bool:
    """Whether ``key`` is a token that a suspension still in force revoked: a request with
    it is then told that its account is suspended, not that the token is unknown."""
    from accounts.models import Suspension

    return Suspension.objects.filter(
        lifted_at__isnull=True, revoked_tokens__contains=[token_digest(key)]
    ).exists()
