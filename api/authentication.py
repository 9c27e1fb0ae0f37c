"""Token authentication that takes both spellings clients use, and that lets a view check
the token in a query of its own (accounts/tokens.py); session authentication that says
when a session's account is suspended."""

from __future__ import annotations

from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user, get_user_model
from drf_spectacular.authentication import SessionScheme as SpectacularSessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from accounts.tokens import TokenCheck, check_token, remembered


def account_suspended() -> exceptions.APIException:
    """The answer to a suspended account's log-in and requests (docs/security.md)."""
    from api.problems import ApiProblem  # (api.problems loads DRF's views, which load us)

    return ApiProblem(
        403,
        "account_suspended",
        "Account suspended",
        "this account is suspended: it cannot log in or make requests until the operators "
        "lift the suspension",
    )


#: The challenge of a 401 (``WWW-Authenticate``): the scheme the OpenAPI schema names
#: (RFC 6750's; ``Token <key>`` is taken too).
CHALLENGE = 'Bearer realm="api"'


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, or ``Bearer <key>`` as OpenAPI client generators send.

    For a request whose method a view names in ``checks_token`` the token's user may come
    from the process's map of recently seen tokens without a query; ``request.auth`` is
    then a :class:`~accounts.tokens.TokenCheck` that the view must have its own statements
    check (see :class:`TokenCheckingMixin`). Every other request pays the token's query as
    before (an ``OPTIONS`` among them: no statement of the view's checks it).
    """

    keywords = (b"token", b"bearer")

    def authenticate_header(self, request: Any) -> str:
        return CHALLENGE

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
        if "\x00" in key:  # no key holds one, and the database refuses it in a query
            raise exceptions.AuthenticationFailed("the token has invalid characters")
        view = (getattr(request, "parser_context", None) or {}).get("view")
        if request.method in getattr(view, "checks_token", ()):
            user = remembered.get(key)
            if user is not None:
                return user, TokenCheck(key, user.pk)
            user, _ = self._checked(key)
            return user, TokenCheck(key, user.pk, verified=True)
        return self._checked(key)

    def _checked(self, key: str) -> tuple[Any, Any]:
        """The token's user and token, by a query; the process remembers a good token (it
        is then neither looked up by the views that check it themselves nor held off with
        its address, api/throttling.py) and forgets a refused one."""
        try:
            user, token = self.authenticate_credentials(key)
        except exceptions.APIException:
            remembered.forget(key)
            raise
        remembered.put(key, user)
        return user, token

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        if getattr(user, "suspended_at", None) is not None:  # (its tokens are deleted then)
            raise account_suspended()
        return user, token


class SessionAuthentication(authentication.SessionAuthentication):
    """Django's session log-in (with its CSRF check). A suspended account's session no
    longer loads its user (accounts/backends.py); its requests are then refused with
    ``account_suspended`` rather than as anonymous. That costs a query only for a session
    naming an account that did not load."""

    def authenticate(self, request: Any) -> Any:
        found = super().authenticate(request)
        if found is None and _session_of_suspended(request._request):
            raise account_suspended()
        return found


def _session_of_suspended(request: Any) -> bool:
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    if user is None or user.is_authenticated or session is None:
        return False
    user_id = session.get(SESSION_KEY)
    if user_id is None:
        return False
    users = get_user_model()._default_manager
    try:
        return users.filter(pk=user_id, suspended_at__isnull=False, is_active=True).exists()
    except (ValueError, TypeError):
        return False


def credential_of(request: Any) -> dict[str, Any]:
    """What let ``request`` in, to be asked again later (:func:`still_admitted`): its
    token, else its session, else (a test's forced log-in) its account alone."""
    user_id = request.user.pk
    if isinstance(request.auth, TokenCheck | Token):
        return {"user": user_id, "token": request.auth.key}
    session = getattr(request._request, "session", None)
    key = session.session_key if session is not None else None
    return {"user": user_id, "session": key} if key else {"user": user_id}


def still_admitted(credential: dict[str, Any]) -> bool:
    """Whether what let a request in (:func:`credential_of`) would let it in now: its token
    not revoked, its session not logged out (nor its password changed since), and its
    account active and not suspended. A query or two; for what outlives its request (a
    stream)."""
    user_id = credential["user"]
    if "token" in credential:
        return check_token(TokenCheck(credential["token"], user_id)) is None
    if "session" in credential:
        store = import_module(settings.SESSION_ENGINE).SessionStore(credential["session"])
        # Django's own reading of a session (its auth hash, the backend's refusals)
        return bool(get_user(SimpleNamespace(session=store)).pk == user_id)  # type: ignore[arg-type]
    users = get_user_model()._default_manager
    return bool(users.filter(pk=user_id, is_active=True, suspended_at__isnull=True).exists())


class TokenCheckingMixin:
    """For a view whose statements check the caller's token on the methods named in
    ``checks_token``: should it answer before a statement of its own checked the token (a
    malformed body, a throttle, an unknown match), the token is checked with a query of its
    own first, and a revoked token or a deactivated account is a 401, as it would have been
    without the map."""

    checks_token: frozenset[str] = frozenset({"POST"})

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


class SessionScheme(SpectacularSessionScheme):  # type: ignore[misc]
    """In the schema, :class:`SessionAuthentication` is Django's session cookie."""

    target_class = "api.authentication.SessionAuthentication"
