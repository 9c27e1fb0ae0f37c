"""The authentication backend: Django's, behind the password-guessing guard, refusing
suspended accounts."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from accounts import guard

#: Set on a request whose log-in gave the right password of a suspended account.
SUSPENDED_LOGIN = "_account_suspended"
#: Set on a request whose log-in the guard refused: the seconds to wait.
LOCKED_LOGIN = "_login_locked_for"


def refused_as_suspended(request: Any) -> bool:
    """Whether this request's log-in was refused because its account is suspended (said
    only to whoever gave the account's right password)."""
    return bool(getattr(request, SUSPENDED_LOGIN, False))


def locked_for(request: Any) -> int:
    """The seconds this request's log-in was told to wait by the guard (0: it was not)."""
    return int(getattr(request, LOCKED_LOGIN, 0))


class GuardedModelBackend(ModelBackend):
    """Every password check (API token, session, admin log-in) counts toward the guard;
    a locked account or address is refused before its password is looked at (the request
    is marked with the wait: :func:`locked_for`). A suspended account is refused too, its
    right password included (the request is marked so the API can say why:
    :func:`refused_as_suspended`), and its sessions no longer load. Every log-in hashes
    the password once, whatever the account: its time tells nothing of the account."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kw: Any
    ) -> Any:
        if username is None:
            username = kw.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            with guard.login_attempt(username, guard.client_address(request)) as attempt:
                user, right = self._check(username, password)
                # (a suspended account's right password is no guess; an inactive one's
                # counts as a wrong one, as it always did: nothing tells them apart)
                attempt.succeeded = right and user.is_active
                if right and self.user_can_authenticate(user):
                    return user
                if right and user.is_active and request is not None:  # suspended
                    setattr(request, SUSPENDED_LOGIN, True)
                return None
        except guard.LoginLocked as locked:
            if request is not None:
                setattr(request, LOCKED_LOGIN, locked.wait)
            raise PermissionDenied("too many failed log-ins") from None

    @staticmethod
    def _check(username: str, password: str) -> tuple[Any, bool]:
        """The account ``username`` names (or ``None``) and whether this is its password,
        in one password hash either way (as Django's own backend)."""
        users = get_user_model()
        try:
            user = users._default_manager.get_by_natural_key(username)
        except users.DoesNotExist:
            users().set_password(password)  # the hash a real account's check would cost
            return None, False
        return user, bool(user.check_password(password))

    def user_can_authenticate(self, user: Any) -> bool:
        return super().user_can_authenticate(user) and getattr(user, "suspended_at", None) is None
