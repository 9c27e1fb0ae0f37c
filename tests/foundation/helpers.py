"""Helpers for the tests that start processes of the project."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
