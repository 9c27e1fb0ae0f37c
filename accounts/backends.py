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


def refused_as_suspended(request: Any) -> bool:
    """Whether this request's log-in was refused because its account is suspended (said
    only to whoever gave the account's right password)."""
    return bool(getattr(request, SUSPENDED_LOGIN, False))


class GuardedModelBackend(ModelBackend):
    """Every password check (API token, session, admin log-in) counts toward the guard;
    a locked account or address is refused before its password is looked at. A suspended
    account is refused too, its right password included (the request is marked so the
    API can say why: :func:`refused_as_suspended`), and its sessions no longer load."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kw: Any
    ) -> Any:
        if username is None:
            username = kw.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            with guard.login_attempt(username, guard.client_address(request)) as attempt:
                user = super().authenticate(request, username=username, password=password, **kw)
                attempt.succeeded = user is not None
                if user is None and self._suspended_with(username, password):
                    attempt.succeeded = True  # the right password: not a guess to count
                    if request is not None:
                        setattr(request, SUSPENDED_LOGIN, True)
                return user
        except guard.LoginLocked:
            raise PermissionDenied("too many failed log-ins") from None

    def _suspended_with(self, username: str, password: str) -> bool:
        """Whether ``username`` names a suspended, active account whose password this is
        (a second hash, paid only by suspended accounts)."""
        users = get_user_model()._default_manager
        try:
            user = users.get_by_natural_key(username)
        except get_user_model().DoesNotExist:
            return False
        if getattr(user, "suspended_at", None) is None or not user.is_active:
            return False
        return bool(user.check_password(password))

    def user_can_authenticate(self, user: Any) -> bool:
        return super().user_can_authenticate(user) and getattr(user, "suspended_at", None) is None
