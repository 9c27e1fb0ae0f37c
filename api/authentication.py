"""Token authentication that takes both spellings clients use."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, or ``Bearer <key>`` as OpenAPI client generators send."""

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
        return self.authenticate_credentials(key)


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
