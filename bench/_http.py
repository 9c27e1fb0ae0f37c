"""Loopback HTTP helpers the server benchmarks share."""

from __future__ import annotations

import http.client
import json
import socket
import time


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, seconds: float = 30) -> None:
    """Return once something accepts connections on ``port``; exit after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not come up on port {port}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Api:
    """One keep-alive JSON client on loopback; reconnects after a failure."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token
        self.conn: http.client.HTTPConnection | None = None

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        headers: dict[str, str] | None = None,
        token: str | None = None,
    ) -> tuple[int, bytes]:
        """The status and body (``token`` overrides the client's); status 0 when the
        connection failed."""
        head = {"Content-Type": "application/json", **(headers or {})}
        if token or self.token:
            head["Authorization"] = f"Token {token or self.token}"
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.conn.request(method, path, None if body is None else json.dumps(body), head)
            response = self.conn.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            return 0, b""
