"""Django's PostgreSQL backend, whose connection pool answers at once while the database
is down.

With psycopg's pool alone, while the database cannot be reached every request waits the
pool's whole ``timeout`` (``DB_POOL_TIMEOUT``, 10 s) for a connection that will not come,
holding a thread meanwhile, before its 503. Here, once the pool's own attempt to connect
has failed (not refused by the server, "too many clients": that one is up), a request waits at most
``outage_timeout`` (1 s) until an attempt succeeds again: the 503s come at once, and the
threads stay free for what needs no database. The pool goes on trying in the background
(``reconnect_timeout`` bounds its backoff); the first connection made, or one given back
sound, ends the outage.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg.pq import ConnStatus
from psycopg_pool import ConnectionPool


class OutageAwarePool(ConnectionPool):
    """A pool whose clients wait briefly while its last attempt to connect failed."""

    def __init__(self, *args: Any, outage_timeout: float = 1.0, **kwargs: Any) -> None:
        self.outage_timeout = outage_timeout
        self.unreachable = False  # the last attempt to connect failed
        super().__init__(*args, **kwargs)

    def _connect(self, timeout: float | None = None) -> Any:
        try:
            conn = super()._connect(timeout)
        except Exception as exc:
            # a server that answered, if only to refuse ("FATAL:  too many clients
            # already"), is up: its clients wait for a connection of the pool as usual
            # (libpq gives no SQLSTATE for a failed connection: its message tells)
            if "FATAL:" not in str(exc):
                self.unreachable = True
            raise
        self.unreachable = False
        return conn

    def putconn(self, conn: Any) -> None:
        if not conn.broken and conn.pgconn.status == ConnStatus.OK:  # it was just used
            self.unreachable = False
        super().putconn(conn)

    def getconn(self, timeout: float | None = None) -> Any:
        if self.unreachable:
            timeout = min(self.timeout if timeout is None else timeout, self.outage_timeout)
        return super().getconn(timeout)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> OutageAwarePool | None:
        # as Django 5.2's own, with the pool's class the only change
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not pool_options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            if pool_options is True:
                pool_options = {}
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # Django sets it properly later on
            enable_checks = self.settings_dict["CONN_HEALTH_CHECKS"]
            pool = OutageAwarePool(
                kwargs=connect_kwargs,
                open=False,  # opened by the first connection
                configure=self._configure_connection,
                check=ConnectionPool.check_connection if enable_checks else None,
                **pool_options,
            )
            # setdefault: of pools made by threads at once, the first one stays
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]
