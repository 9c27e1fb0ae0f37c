"""Requests made straight to an ASGI application, as uvicorn hands them over."""

from __future__ import annotations

from typing import Any


def http_scope(
    method: str, path: str, headers: list[tuple[bytes, bytes]], query_string: bytes = b""
) -> dict[str, Any]:
    """The scope of one HTTP/1.1 request from a loopback client to ``testserver``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query_string,
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
