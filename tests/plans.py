"""What a captured query reads, as its plan says."""

from __future__ import annotations

import re
from typing import Any

from django.db import connection


def rows_dropped(queries: Any, *marks: str) -> list[int]:
    """For each captured query (``CaptureQueriesContext``) whose SQL holds every one of
    ``marks``, the rows its plan read and dropped (EXPLAIN ANALYZE's "Rows Removed by
    Filter"), as on a large table: with sequential scans off, a query no index serves still
    reads every row, and drops those it does not want."""
    dropped = []
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE golf_match")
        cursor.execute("SET LOCAL enable_seqscan = off")
        for query in queries:
            if all(mark in query["sql"] for mark in marks):
                cursor.execute("EXPLAIN ANALYZE " + query["sql"])
                plan = "\n".join(row[0] for row in cursor.fetchall())
                dropped.append(sum(map(int, re.findall(r"Removed by Filter: (\d+)", plan))))
    return dropped
