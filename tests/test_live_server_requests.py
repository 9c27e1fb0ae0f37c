"""The check that a live-server test leaves no request running (tests/conftest.py) finds the
server's request threads by their name: it must see one while a request is open."""

import socket
import time
from urllib.parse import urlsplit

from tests.conftest import _live_server_requests


def _wait_for(condition, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_an_open_request_is_seen_until_its_client_goes(live_server):
    url = urlsplit(live_server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as client:
        client.sendall(b"GET /api/ HTTP/1.1\r\n")  # no blank line yet: the request stays open
        assert _wait_for(lambda: len(_live_server_requests()) == 1)
    assert _wait_for(lambda: not _live_server_requests())
