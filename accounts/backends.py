"""The authentication backend: Django's, behind the password-guessing guard."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from accounts import guard


class GuardedModelBackend(ModelBackend):
    """Every password check (API token, session, admin log-in) counts toward the guard;
    a locked account or address is refused before its password is looked at."""

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
                return user
        except guard.LoginLocked:
            raise PermissionDenied("too many failed log-ins") from None
