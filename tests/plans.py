"""What a captured query reads, as its plan says."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db import connection


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def rows_dropped(queries: Any, table: str, *marks: str) -> list[int]:
    """For each captured query (``CaptureQueriesContext``) whose SQL holds every one of
    ``marks``, the rows of ``table`` its plan read and dropped (EXPLAIN ANALYZE's "Rows
    Removed by Filter" on that table's scans), as on a large table: with sequential scans
    off, a query no index of ``table`` serves still reads all of it, dropping the rows it
    does not want."""
    dropped = []
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE golf_match, golf_seat")
        cursor.execute("SET LOCAL enable_seqscan = off")
        for query in queries:
            if all(mark in query["sql"] for mark in marks):
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + query["sql"])
                plan = cursor.fetchone()[0]
                plan = json.loads(plan) if isinstance(plan, str) else plan
                dropped.append(
                    sum(
                        node.get("Rows Removed by Filter", 0)
                        for node in _nodes(plan[0]["Plan"])
                        if node.get("Relation Name") == table
                    )
                )
    return dropped
