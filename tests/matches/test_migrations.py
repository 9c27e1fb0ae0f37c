"""A database of the schema before the game-neutral store migrates forward without loss."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from matches.models import Match, MatchEvent
from matches.selectors import match_view
from matches.services import match_abort, match_act, match_create, match_join

BEFORE = "0007_keyed_chain"  # the last migration before the read model became game-neutral


def snapshot_of(match: Match, users) -> dict:  # type: ignore[no-untyped-def]
    """What must not change: the log with its hash chain, and every reader's view."""
    match.refresh_from_db()
    return {
        "chain": list(
            MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "hash")
        ),
        "views": {
            name: json.dumps(match_view(match, user), sort_keys=True)
            for name, user in (*users.items(), ("spectator", None))
        },
        "status": match.status,
        "version": match.version,
    }


@pytest.mark.django_db(transaction=True)
def test_matches_of_every_kind_migrate_forward_and_play_on(alice, bob, staff):
    users = {"alice": alice, "bob": bob}
    running = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    match_join(match_id=running.id, user=bob)
    for user, position in ((alice, 0), (alice, 1), (bob, 0)):
        match_act(match_id=running.id, user=user, action={"type": "reveal", "position": position})
    finished = match_create(
        creator=alice,
        spectate=True,
        rules={"holes": 1},
        seats=[{"type": "com", "level": "normal"}, {"type": "com", "level": "easy"}],
    )
    aborted = match_create(
        creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}]
    )
    match_abort(match_id=aborted.id, user=staff)
    kept = {m.id: snapshot_of(m, users) for m in (running, finished, aborted)}
    assert {k["status"] for k in kept.values()} == {"active", "finished", "aborted"}

    call_command("migrate", "golf", BEFORE, verbosity=0)
    with connection.cursor() as cursor:  # the old schema: holes, by Golf's name
        cursor.execute("SELECT id, hole, holes FROM golf_match ORDER BY created_at")
        rows = cursor.fetchall()
    assert len(rows) == 3 and all(holes > 0 for _id, _hole, holes in rows)

    call_command("migrate", verbosity=0)
    for match_id, before in kept.items():
        match = Match.objects.get(pk=match_id)
        assert snapshot_of(match, users) == before  # same chain, same views
        assert match.rounds > 0 and match.game == "golf"
        out = StringIO()
        call_command("verify_match", str(match_id), stdout=out)
        assert f"{match_id}: OK" in out.getvalue()
    played = match_act(match_id=running.id, user=bob, action={"type": "reveal", "position": 1})
    assert played.version == kept[running.id]["version"] + 1


@pytest.mark.django_db(transaction=True)
def test_going_back_past_local_matches_says_why_it_cannot(alice):
    """The schema before 0009 has one seat per account in a match: a local match made the
    way back an IntegrityError on a unique index."""
    match_create(creator=alice, rules={"local": True}, seats=[{"type": "me"}] * 2)
    try:
        with pytest.raises(RuntimeError, match=r"1 local .* matches exist"):
            call_command("migrate", "golf", "0008_game_neutral_read_model", verbosity=0)
    finally:
        call_command("migrate", verbosity=0)
    assert Match.objects.filter(local=True).count() == 1
