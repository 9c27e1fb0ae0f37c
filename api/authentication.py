"""Token authentication that takes both spellings clients use, and that lets a view check
the token in a query of its own (accounts/tokens.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from accounts.tokens import TokenCheck, check_token, remembered


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, or ``Bearer <key>`` as OpenAPI client generators send.

    For a view that sets ``checks_token = True`` the token's user may come from the
    process's map of recently seen tokens without a query; ``request.auth`` is then a
    :class:`~accounts.tokens.TokenCheck` that the view must have its own statements check
    (see :class:`TokenCheckingMixin`). Every other view pays the token's query as before.
    """

    keywords = (b"token", b"bearer")

    def authenticate(self, request: Any) -> Any:
        words = authentication.get_authorization_header(request).split()
        if not words or words[0].lower() not in self.keywords:
            return None
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(
                "the Authorization header must be 'Token <key>' or 'Bearer <key>'"
            )
        try:
            key = words[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("the token has invalid characters") from None
        view = (getattr(request, "parser_context", None) or {}).get("view")
        if getattr(view, "checks_token", False):
            user = remembered.get(key)
            if user is not None:
                return user, TokenCheck(key, user.pk)
            user, _ = self.authenticate_credentials(key)
            remembered.put(key, user)
            return user, TokenCheck(key, user.pk, verified=True)
        return self.authenticate_credentials(key)


class TokenCheckingMixin:
    """For a view whose statements check the caller's token (``checks_token``): should it
    answer before a statement of its own checked the token (a malformed body, a throttle,
    an unknown match), the token is checked with a query of its own first, and a revoked
    token or a deactivated account is a 401, as it would have been without the map."""

    checks_token = True

    def handle_exception(self, exc: Exception) -> Any:
        request = getattr(self, "request", None)
        check = getattr(request, "_auth", None) if request is not None else None
        if isinstance(check, TokenCheck) and not check.verified:
            try:
                failure = check_token(check)
            except Exception:  # the database is away: the first error tells it
                failure = None
            if failure is not None:
                remembered.forget(check.key)
                exc = exceptions.AuthenticationFailed(failure)
        return super().handle_exception(exc)  # type: ignore[misc]


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    """In the schema, the token is an HTTP bearer token: what client generators send by
    default, and what :class:`TokenAuthentication` takes (``Token <key>`` too)."""

    target_class = "api.authentication.TokenAuthentication"
    priority = 1  # before drf-spectacular's own for DRF's TokenAuthentication and subclasses
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "the token from POST /api/auth/token, sent as "
            "'Authorization: Bearer <token>' (or 'Token <token>')",
        }
