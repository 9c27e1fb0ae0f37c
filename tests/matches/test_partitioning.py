"""The tables that grow with play are partitioned by hash of the match id, keep every
constraint and the append-only log, and migrate from (and back to) plain tables without
losing a row."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction

from matches.models import MatchEvent
from matches.services import match_act, match_create, match_join

GROWING = ("golf_matchevent", "golf_idempotencyrecord")


def query(sql: str, params: list | tuple = ()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def partitioning(table: str) -> tuple[str, int]:
    """The table's partition key and how many partitions it has ('' and 0 when plain)."""
    rows = query(
        "SELECT pg_get_partkeydef(c.oid), count(i.inhrelid) FROM pg_class c "
        "LEFT JOIN pg_inherits i ON i.inhparent = c.oid WHERE c.relname = %s GROUP BY c.oid",
        [table],
    )
    key, count = rows[0]
    return key or "", count


def rows_of(table: str) -> list[tuple]:
    return query(f"SELECT * FROM {table} ORDER BY id")


def play(alice, bob, moves: int):  # type: ignore[no-untyped-def]
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    match_join(match_id=match.id, user=bob)
    for i, (user, position) in enumerate(((alice, 0), (alice, 1), (bob, 0), (bob, 1))[:moves]):
        match_act(
            match_id=match.id,
            user=user,
            action={"type": "reveal", "position": position},
            idempotency_key=f"key-{i}",
        )
    match.refresh_from_db()
    return match


@pytest.mark.django_db
@pytest.mark.parametrize("table", GROWING)
def test_the_growing_tables_are_hash_partitioned_by_match(table):
    assert partitioning(table) == ("HASH (match_id)", 16)
    # the primary key holds the partition key; the named constraints are all there
    constraints = dict(
        query(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE conrelid = %s::regclass",
            [table],
        )
    )
    assert constraints[f"{table}_pkey"] == "PRIMARY KEY (match_id, id)"
    unique = (
        "golf_event_unique_seq" if table == "golf_matchevent" else "golf_idempotency_unique_key"
    )
    assert constraints[unique].startswith("UNIQUE (match_id, ")


@pytest.mark.django_db
@pytest.mark.parametrize("table", ["golf_seat", "golf_followup"])
def test_every_unique_key_of_a_table_keyed_by_match_holds_the_match_id(table):
    assert partitioning(table) == ("", 0)  # plain tables: they grow with matches, not actions
    keys = query(
        "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = %s::regclass AND contype IN ('p', 'u')",
        [table],
    )
    assert keys and all(
        definition.startswith("PRIMARY KEY (match_id, ")
        or definition.startswith("UNIQUE (match_id, ")
        for (definition,) in keys
    )


@pytest.mark.django_db
def test_a_match_lives_in_one_partition_and_keeps_its_constraints(alice, bob):
    matches = [play(alice, bob, moves=3) for _ in range(6)]
    for match in matches:
        partitions = query(
            "SELECT DISTINCT tableoid::regclass::text FROM golf_matchevent WHERE match_id = %s",
            [match.id],
        )
        assert len(partitions) == 1 and partitions[0][0].startswith("golf_matchevent_p")
    event = MatchEvent.objects.filter(match=matches[0]).order_by("seq").first()
    with pytest.raises(IntegrityError), transaction.atomic():  # (match, seq) stays unique
        MatchEvent.objects.create(
            match=matches[0],
            seq=event.seq,
            type="x",
            version=1,
            payload={},
            actor="system",
            hash="0" * 64,
        )
    assert MatchEvent.objects.get(pk=event.pk).type == event.type  # a lookup by id alone


@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE {partition} SET type = 'x'",
        "DELETE FROM {partition}",
        "TRUNCATE {partition}",
    ],
)
def test_each_partition_is_append_only_on_its_own(alice, bob, statement):
    match = play(alice, bob, moves=2)
    (partition,) = query(
        "SELECT DISTINCT tableoid::regclass::text FROM golf_matchevent WHERE match_id = %s",
        [match.id],
    )[0]
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no check pending from the setup
        cursor.execute("SET LOCAL golf.allow_truncate = 'off'")  # as the service's sessions
        cursor.execute(statement.format(partition=partition))
    assert MatchEvent.objects.filter(match=match).count() == match.version


@pytest.mark.django_db(transaction=True)
def test_plain_tables_migrate_to_partitions_and_back_without_loss(alice, bob):
    running = play(alice, bob, moves=3)
    play(alice, bob, moves=4)
    before = {table: rows_of(table) for table in GROWING}
    assert len(before["golf_idempotencyrecord"]) == 7 and len(before["golf_matchevent"]) > 7

    call_command("migrate", "golf", "0009_local_matches_and_round_pause", verbosity=0)
    for table in GROWING:
        assert partitioning(table) == ("", 0)
        assert rows_of(table) == before[table]
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        query("DELETE FROM golf_matchevent")

    call_command("migrate", verbosity=0)
    for table in GROWING:
        assert partitioning(table) == ("HASH (match_id)", 16)
        assert rows_of(table) == before[table]
    out = StringIO()
    call_command("verify_match", "--all", stdout=out)
    assert "2 match(es) verified, 0 with faults" in out.getvalue()
    # play goes on, and a repeated key still answers from its record
    first = match_act(
        match_id=running.id, user=bob, action={"type": "reveal", "position": 1}, idempotency_key="k"
    )
    again = match_act(
        match_id=running.id, user=bob, action={"type": "reveal", "position": 1}, idempotency_key="k"
    )
    assert again.replayed and (again.first_seq, again.version) == (first.first_seq, first.version)
    assert len(rows_of("golf_idempotencyrecord")) == 8
