"""Token authentication that takes both spellings clients use."""

from __future__ import annotations

from typing import Any

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
