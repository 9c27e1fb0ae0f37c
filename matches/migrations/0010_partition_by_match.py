"""The tables that grow with every action, the event log and the idempotency records, are
partitioned by hash of the match id (16 partitions), so that each match's rows live in one
partition and the store can later be split across machines by match id (docs/scaling.md).

A partitioned table's unique keys must hold the partition key, so each primary key becomes
``(match_id, id)``; the ids stay random UUIDs, and a plain index on ``id`` keeps a lookup by
id (the admin's event page) an index probe per partition. Every other constraint keeps its
name and definition, and the event log stays append-only: the row trigger is cloned onto
every partition, and TRUNCATE is refused on the log and on each partition.

The seats and the outbox of follow-ups grow with matches, not with actions, and stay
plain tables on one machine (the lobby reads seats by user across all matches); their
primary keys become ``(match_id, id)`` too, so that every unique key of every table keyed
by match holds the match id, as distributing them by match id across machines requires.

The rows are copied under an exclusive lock, in one transaction, so the migration loses
nothing or changes nothing; it runs backwards the same way.
"""

from django.db import migrations

PARTITIONS = 16

# name -> (columns with their types and checks, constraints and indexes added after the copy)
TABLES = {
    "golf_matchevent": (
        """
        id uuid NOT NULL,
        seq integer NOT NULL CONSTRAINT golf_matchevent_seq_check CHECK (seq >= 0),
        type varchar(40) NOT NULL,
        version smallint NOT NULL CONSTRAINT golf_matchevent_version_check CHECK (version >= 0),
        payload jsonb NOT NULL,
        actor varchar(64) NOT NULL,
        created_at timestamptz NOT NULL,
        hash varchar(64) NOT NULL,
        match_id uuid NOT NULL
        """,
        [
            "ALTER TABLE golf_matchevent ADD CONSTRAINT golf_event_unique_seq "
            "UNIQUE (match_id, seq)",
            "ALTER TABLE golf_matchevent ADD CONSTRAINT "
            "golf_matchevent_match_id_0e665432_fk_golf_match_id FOREIGN KEY (match_id) "
            "REFERENCES golf_match(id) DEFERRABLE INITIALLY DEFERRED",
            "CREATE INDEX golf_matchevent_match_id_0e665432 ON golf_matchevent (match_id)",
        ],
    ),
    "golf_idempotencyrecord": (
        """
        id uuid NOT NULL,
        key varchar(128) NOT NULL,
        request_hash varchar(64) NOT NULL,
        first_seq integer NOT NULL
            CONSTRAINT golf_idempotencyrecord_first_seq_check CHECK (first_seq >= 0),
        version integer NOT NULL
            CONSTRAINT golf_idempotencyrecord_version_check CHECK (version >= 0),
        created_at timestamptz NOT NULL,
        user_id bigint NOT NULL,
        match_id uuid NOT NULL
        """,
        [
            "ALTER TABLE golf_idempotencyrecord ADD CONSTRAINT golf_idempotency_unique_key "
            "UNIQUE (match_id, user_id, key)",
            "ALTER TABLE golf_idempotencyrecord ADD CONSTRAINT "
            "golf_idempotencyrecord_user_id_a86abc7f_fk_accounts_user_id FOREIGN KEY (user_id) "
            "REFERENCES accounts_user(id) DEFERRABLE INITIALLY DEFERRED",
            "ALTER TABLE golf_idempotencyrecord ADD CONSTRAINT "
            "golf_idempotencyrecord_match_id_79b27401_fk_golf_match_id FOREIGN KEY (match_id) "
            "REFERENCES golf_match(id) DEFERRABLE INITIALLY DEFERRED",
            "CREATE INDEX golf_idempotencyrecord_user_id_a86abc7f "
            "ON golf_idempotencyrecord (user_id)",
            "CREATE INDEX golf_idempotencyrecord_match_id_79b27401 "
            "ON golf_idempotencyrecord (match_id)",
        ],
    ),
}

APPEND_ONLY = """
CREATE TRIGGER golf_matchevent_no_update_delete
    BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION golf_matchevent_append_only();
"""
NO_TRUNCATE = """
CREATE TRIGGER golf_matchevent_no_truncate
    BEFORE TRUNCATE ON {table}
    FOR EACH STATEMENT EXECUTE FUNCTION golf_matchevent_no_truncate();
"""


def _rebuild(table: str, partitioned: bool) -> list[str]:
    """Statements that rebuild ``table`` with its rows, partitioned by match or not."""
    columns, constraints = TABLES[table]
    new = f"{table}_rebuilt"
    statements = [
        f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE",
        f"CREATE TABLE {new} ({columns})"
        + (" PARTITION BY HASH (match_id)" if partitioned else ""),
    ]
    if partitioned:
        statements += [
            f"CREATE TABLE {table}_p{i:02d} PARTITION OF {new} "
            f"FOR VALUES WITH (MODULUS {PARTITIONS}, REMAINDER {i})"
            for i in range(PARTITIONS)
        ]
    statements += [
        f"INSERT INTO {new} SELECT * FROM {table}",
        f"DROP TABLE {table}",
        f"ALTER TABLE {new} RENAME TO {table}",
        f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY "
        + ("(match_id, id)" if partitioned else "(id)"),
        *constraints,
    ]
    if partitioned:
        statements.append(f"CREATE INDEX {table}_id_idx ON {table} (id)")
    if table == "golf_matchevent":
        statements.append(APPEND_ONLY.format(table=table))
        statements.append(NO_TRUNCATE.format(table=table))
        if partitioned:  # a partition truncated on its own is refused too
            statements += [NO_TRUNCATE.format(table=f"{table}_p{i:02d}") for i in range(PARTITIONS)]
    return statements


# tables whose primary key takes the match id in, without partitions
KEYED_BY_MATCH = ("golf_seat", "golf_followup")


def _keyed(table: str, by_match: bool) -> list[str]:
    statements = [f"ALTER TABLE {table} DROP CONSTRAINT {table}_pkey"]
    if by_match:
        statements += [
            f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY (match_id, id)",
            f"CREATE INDEX {table}_id_idx ON {table} (id)",
        ]
    else:
        statements += [
            f"DROP INDEX {table}_id_idx",
            f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY (id)",
        ]
    return statements


def _sql(partitioned: bool) -> list[str]:
    return [s for table in TABLES for s in _rebuild(table, partitioned)] + [
        s for table in KEYED_BY_MATCH for s in _keyed(table, partitioned)
    ]


class Migration(migrations.Migration):
    dependencies = [("golf", "0009_local_matches_and_round_pause")]

    operations = [migrations.RunSQL(_sql(partitioned=True), _sql(partitioned=False))]
