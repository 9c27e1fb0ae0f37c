"""While the database is down, requests are answered at once (a 503), not after the
pool's whole timeout each, and the first connection made again ends the outage."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from psycopg.conninfo import make_conninfo
from psycopg_pool import PoolTimeout

from config.postgresql.base import OutageAwarePool
from tests.foundation.helpers import free_port
from tests.foundation.test_health import run_app

# the pool's own timeout in these tests: what every request waited while the database was
# down; an answer well within it is one that did not wait for it
POOL_TIMEOUT = 30.0


def test_the_service_connects_through_the_outage_aware_pool(db):
    assert isinstance(connection.pool, OutageAwarePool)


@pytest.mark.django_db
def test_a_pool_whose_database_is_down_answers_at_once_and_recovers():
    db = connection.settings_dict
    target = {"port": free_port()}  # nobody listens there: the database is "down"

    def conninfo() -> str:
        return make_conninfo(host=db["HOST"], port=target["port"], dbname=db["NAME"],
                             user=db["USER"], password=db["PASSWORD"] or None)  # fmt: skip

    pool = OutageAwarePool(conninfo, min_size=0, max_size=2, timeout=POOL_TIMEOUT,
                           outage_timeout=1.0, reconnect_timeout=10.0, open=True)  # fmt: skip
    try:
        with pytest.raises(PoolTimeout):
            pool.getconn(timeout=2)  # the pool tries meanwhile, and fails
        assert pool.unreachable
        started = time.monotonic()
        with pytest.raises(PoolTimeout):
            pool.getconn()
        assert time.monotonic() - started < POOL_TIMEOUT / 3

        target["port"] = db["PORT"]  # the database is back
        deadline = time.monotonic() + POOL_TIMEOUT
        while True:
            try:
                conn = pool.getconn()
                break
            except PoolTimeout:
                assert time.monotonic() < deadline, "no connection after the database came back"
        assert not pool.unreachable
        assert conn.execute("SELECT 1").fetchone() == (1,)
        pool.putconn(conn)
        started = time.monotonic()
        pool.putconn(pool.getconn())
        assert time.monotonic() - started < 1
    finally:
        pool.close()


def test_requests_while_the_database_is_down_are_503_at_once():
    result = run_app(
        "import time\n"
        "from django.db import connection\n"
        "from django.test import Client\n"
        "connection.pool.open()\n"
        "time.sleep(1)  # the pool's first attempt fails meanwhile\n"
        "for _ in range(3):\n"
        "    started = time.monotonic()\n"
        "    r = Client(raise_request_exception=False).get(\n"
        "        '/api/matches', HTTP_AUTHORIZATION='Token ' + 'a' * 40)\n"
        "    print(r.status_code, r['Content-Type'], r.get('Retry-After'),\n"
        "          round(time.monotonic() - started, 1))\n",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{free_port()}/nowhere",
        DB_POOL_TIMEOUT=str(int(POOL_TIMEOUT)),
        DEBUG="0",
        SECRET_KEY="k" * 50,
        ALLOWED_HOSTS="testserver",
    )
    assert result.returncode == 0, result.stderr
    for line in result.stdout.strip().splitlines()[-3:]:
        status, content_type, retry_after, seconds = line.split()
        assert (status, content_type, retry_after) == ("503", "application/problem+json", "2")
        assert float(seconds) < POOL_TIMEOUT / 3, result.stdout


@pytest.mark.django_db(transaction=True)
def test_a_database_with_too_many_clients_is_up_and_its_clients_wait_as_usual():
    """A server that answers "too many connections" is up: a connection of the pool may
    come back any moment, so its clients wait the pool's whole timeout, not a second."""
    db = connection.settings_dict
    with connection.cursor() as cursor:
        cursor.execute("DROP ROLE IF EXISTS crowded")
        cursor.execute("CREATE ROLE crowded LOGIN CONNECTION LIMIT 0")
    conninfo = make_conninfo(host=db["HOST"], port=db["PORT"], dbname=db["NAME"], user="crowded")
    pool = OutageAwarePool(conninfo, min_size=0, max_size=1, timeout=3, outage_timeout=0.1,
                           open=True)  # fmt: skip
    try:
        started = time.monotonic()
        with pytest.raises(PoolTimeout):
            pool.getconn()
        assert not pool.unreachable
        assert time.monotonic() - started > 2  # the pool's timeout, not the outage's
    finally:
        pool.close()
        with connection.cursor() as cursor:
            cursor.execute("DROP ROLE crowded")
