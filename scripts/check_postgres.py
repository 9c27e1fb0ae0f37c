"""Fail loudly, with a clear message, when the test database server is unreachable.

The suite runs against PostgreSQL only; it never falls back to another database.
"""

from __future__ import annotations

import os
import sys

import psycopg


def main() -> int:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print(
            f"DATABASE_URL must point at PostgreSQL for the tests, got scheme {url.split(':')[0]!r}"
        )
        return 2
    try:
        with psycopg.connect(url, connect_timeout=5, dbname="postgres") as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        print(
            "PostgreSQL is unreachable, so the tests cannot run.\n"
            f"  DATABASE_URL host: {psycopg.conninfo.conninfo_to_dict(url).get('host')}\n"
            f"  error: {str(exc).strip()}\n"
            "Start PostgreSQL (see README, 'Testing') or set TEST_DATABASE_URL.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
