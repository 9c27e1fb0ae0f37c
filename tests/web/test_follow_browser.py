"""How a table follows its match, in headless Chromium (tests/web/follow_table.mjs): through
the event stream as NDJSON with the token, shown as it comes; reconnecting after a network
loss with the banner, backing off further when streams open and drop at once (and
waiting at least 1 s after a Retry-After: 0); long-polling only when the stream answers
that there are no streams; stopping with the API's message when the
account is refused (403 account_suspended; 401 once its token is revoked: log in again);
letting its stream go when the table is left (more times than an account may hold streams
at once), and opening none once the match has ended. The moves are made through the API,
so the page learns of each only by following the match."""

from __future__ import annotations

import pytest

from tests.web.test_golf_browser import play


@pytest.mark.slow
def test_a_table_follows_its_match_through_the_event_stream(live_server, settings):
    # the test server is a WSGI one: a stream whose client went away is found out at its
    # next keep-alive line, a second apart for every live-server test (tests/conftest.py;
    # under the service's router, at once)
    summary, seconds = play("follow_table.mjs", live_server.url)
    steps = summary["steps"]

    # 1. one NDJSON stream from the version shown, with the token; no long-poll
    stream = steps["stream"]
    assert stream["accept"] == "application/x-ndjson", stream
    assert stream["bearer"] and stream["polls"] == 0 and stream["streams"] == 1, stream
    assert int(stream["after"]) == stream["before"], stream
    assert stream["shown"] == stream["moved"] > stream["before"], stream

    # 2. left and opened again 12 times (the service allows an account 10 streams at once):
    # a stream each time, each let go, and the table still follows
    leave = steps["leave"]
    assert leave["times"] > settings.PUSH_MAX_PER_ACCOUNT
    assert leave["streams"] >= leave["times"] and leave["open"] <= 1, leave
    assert leave["shown"] == leave["moved"] and leave["polls"] == 0, leave

    # 3. the network lost: the banner, then the move made meanwhile once it is back
    network = steps["network"]
    assert network["banner"] == "Connection lost: reconnecting…", network
    assert network["shownWhileOffline"] < network["moved"] == network["shown"], network
    assert network["bannerAfter"] == ""

    # then streams that open and drop at once: each next failure backs off further (2 s,
    # then 4 s, where forgetting the failures on opening would wait 2 s each time)
    drop = steps["dropAtOnce"]
    first, second = drop["waited"]
    assert drop["opened"] and first is not None and second is not None, drop
    assert first >= 1500 and second >= 3500 and second >= first + 1500, drop
    assert drop["banner"] == "Connection lost: reconnecting…", drop

    # 4. a stream answered 406: the table long-polls the log instead
    fallback = steps["fallback"]
    assert fallback["polls"] >= 1 and fallback["wait"] == "25", fallback
    assert fallback["shown"] == fallback["moved"], fallback

    # 5. a stream answered 429 with Retry-After: 0: tried again at most once a second
    # (2 s of it: the first try and no more than a few after it, not a loop)
    retry_after = steps["retryAfter"]
    assert 1 <= retry_after["streams"] <= 4, retry_after
    assert retry_after["banner"] == "Connection lost: reconnecting…", retry_after

    # 6. 403 account_suspended: the API's message, and the table stops following
    suspended = steps["suspended"]
    assert suspended["message"] == "Account suspended: this account is suspended", suspended
    assert suspended["streamsLater"] == 0 and suspended["table"] == 1, suspended
    assert suspended["token"] and suspended["banner"] == "Not following the match.", suspended

    # 7. the token revoked, then the stream answered 401: log in again, no more streams
    revoked = steps["revoked"]
    logged_out = "Authentication failed: Invalid token.\nPlease log in again."
    assert revoked["message"] == logged_out, revoked
    assert revoked["streamsLater"] == 0 and revoked["token"] is None, revoked
    assert revoked["loginForm"] == 1 and revoked["banner"] == 0, revoked

    # 8. to the end through the stream again; then no stream is opened
    end = steps["end"]
    assert summary["status"] == "finished" and end["moves"] > 0, summary
    assert end["shown"] == end["version"] and end["polls"] == 0, end
    assert end["streams"] >= 1 and end["streamsLater"] == 0 and end["open"] == 0, end
    assert summary["consoleErrors"] == [], summary["consoleErrors"]
    print(f"browser follow: {seconds:.1f} s, {leave['streams']} streams opened and let go")
