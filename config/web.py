"""The web client's page (web/, docs/client.md) and the headers it is served with."""

from __future__ import annotations

from typing import Any

# The page loads its modules and styles from this origin and talks to this origin's API
# only: no inline script or style, no eval, no frame. It keeps the token it holds in the
# browser's storage from any script injected into it.
WEB_CLIENT_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


def static_headers(headers: Any, path: str, url: str) -> None:
    """WhiteNoise's hook for the static files: the page is one of them too (under
    /static/web/, as collectstatic copies all of web/), and is served there with the same
    policy as at / and never in a frame. The web client's files are asked for again at
    every load (a 304 when unchanged): its modules import each other by name, and a
    deploy must not leave a browser with some old ones and some new."""
    if "/web/" in url:
        headers["Cache-Control"] = "no-cache"
    if url.endswith((".html", ".htm")):
        headers["Content-Security-Policy"] = WEB_CLIENT_POLICY
        headers["X-Frame-Options"] = "DENY"
