"""The event store: append-only, tamper-evident, concurrency-safe, snapshot == replay."""

from __future__ import annotations

import random
import threading
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction

from golf import errors
from golf.engine import legal_actions, replay
from golf.engine.snapshot import state_to_json
from golf.models import Match, MatchEvent, Seat
from golf.services import match_act, match_create, match_join
from golf.store import load_events, load_state, state_at, to_event


def full_replay(match):
    return replay(to_event(r) for r in load_events(match))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement", ["UPDATE golf_matchevent SET type = 'x'", "DELETE FROM golf_matchevent"]
)
def test_the_database_refuses_to_change_events(duel, statement):
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    assert MatchEvent.objects.filter(match=duel).count() == 2


@pytest.mark.django_db
def test_the_orm_cannot_change_an_event_either(duel):
    event = MatchEvent.objects.filter(match=duel).first()
    event.type = "forged"
    with pytest.raises(DatabaseError), transaction.atomic():
        event.save()
    with pytest.raises(DatabaseError), transaction.atomic():
        MatchEvent.objects.filter(match=duel).delete()


def play_randomly(match, users, steps, rng):
    """Random legal moves by the human seats, through the service."""
    for _ in range(steps):
        state = load_state(match)
        if state.ended:
            return
        seat = rng.choice(state.seats_to_act())
        action = rng.choice(legal_actions(state, seat))
        match_act(match_id=match.id, user=users[seat], action=action.to_json())
        match.refresh_from_db()


@pytest.mark.django_db
@pytest.mark.parametrize("preset", ["six-card", "nine-card", "six-card-instant"])
def test_loading_from_a_snapshot_equals_a_full_replay(alice, bob, carol, preset):
    rng = random.Random(preset)
    match = match_create(
        creator=alice,
        preset=preset,
        rules={"holes": 2},
        seats=[{"type": "me"}, {"type": "open"}, {"type": "open"}],
    )
    match_join(match_id=match.id, user=bob)
    match_join(match_id=match.id, user=carol)
    users = [alice, bob, carol]
    for _ in range(8):
        play_randomly(match, users, 7, rng)
        assert match.snapshot_version == match.version
        assert load_state(match) == full_replay(match)
        # an older snapshot plus the events after it gives the same state
        older = max(1, match.version - rng.randint(1, 9))
        match.snapshot = state_to_json(state_at(match, older))
        match.snapshot_version = older
        assert load_state(match) == full_replay(match)
        # and so does no snapshot at all
        match.snapshot = None
        assert load_state(match) == full_replay(match)
        match.refresh_from_db()


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_of_the_next_action_give_one_success(duel, alice):
    version = duel.version
    results: list[object] = []
    barrier = threading.Barrier(8)

    def submit(position: int) -> None:
        try:
            barrier.wait()
            match_act(
                match_id=duel.id,
                user=alice,
                action={"type": "reveal", "position": position % 6},
                expected_version=version,
            )
            results.append("ok")
        except errors.VersionConflict:
            results.append("conflict")
        except Exception as exc:
            results.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, results)) == ["conflict"] * 7 + ["ok"]
    seqs = list(MatchEvent.objects.filter(match=duel).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, version + 2))


def tamper(sql, params):
    with connection.cursor() as cursor:
        # an attacker with superuser rights bypasses the trigger
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = origin")


def verify(*args):
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_match", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue() + err.getvalue()


@pytest.fixture
def finished(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice,
            rules={"holes": 2},
            seats=[{"type": "com"}, {"type": "com", "level": "easy"}],
        )
    match.refresh_from_db()
    assert match.ended
    return match


@pytest.mark.django_db
def test_verify_passes_a_sound_finished_match(finished, duel):
    code, out = verify("--all")
    assert code == 0, out
    assert "2 match(es) verified, 0 with faults" in out
    code, out = verify(str(finished.id))
    assert code == 0 and "deals and reshuffles checked" in out
    assert "OK" in out and " 0 deals" not in out


@pytest.mark.django_db
def test_verify_reports_a_tampered_payload(finished):
    tamper(
        "UPDATE golf_matchevent SET payload = jsonb_set(payload, '{card}', '\"KS\"') "
        "WHERE match_id = %s AND type = 'card_drawn' AND seq = "
        "(SELECT min(seq) FROM golf_matchevent WHERE match_id = %s AND type = 'card_drawn')",
        [finished.id, finished.id],
    )
    code, out = verify(str(finished.id))
    assert code == 1 and "hash mismatch" in out


@pytest.mark.django_db
def test_verify_reports_a_tampered_hash_and_a_gap(finished):
    tamper(
        "UPDATE golf_matchevent SET hash = repeat('0', 64) WHERE match_id = %s AND seq = 5",
        [finished.id],
    )
    code, out = verify(str(finished.id))
    assert code == 1 and "hash mismatch at #5" in out
    tamper("DELETE FROM golf_matchevent WHERE match_id = %s AND seq = 7", [finished.id])
    code, out = verify(str(finished.id))
    assert code == 1 and "sequence gap: expected #7, found #8" in out


@pytest.mark.django_db
def test_verify_reports_a_deal_the_seed_does_not_give(finished):
    # a forger rewrites a deal and recomputes the whole hash chain: only the seed can tell
    from golf.store import event_hash, genesis_hash

    rows = load_events(finished)
    deal = next(r for r in rows if r.type == "hole_dealt")
    payload = dict(deal.payload)
    payload["stock"] = list(reversed(payload["stock"]))
    previous = genesis_hash(finished.id)
    with connection.cursor() as cursor:
        # an attacker with superuser rights bypasses the trigger
        cursor.execute("SET LOCAL session_replication_role = replica")
        for row in rows:
            data = payload if row.pk == deal.pk else row.payload
            digest = event_hash(previous, row.seq, row.type, row.version, data, row.actor)
            MatchEvent.objects.filter(pk=row.pk).update(payload=data, hash=digest)
            previous = digest
        cursor.execute("SET LOCAL session_replication_role = origin")
    code, out = verify(str(finished.id))
    assert code == 1
    assert "hole_dealt of hole 1 is not what the seed gives" in out or "replay fails" in out


@pytest.mark.django_db
def test_verify_reports_a_read_model_that_disagrees_with_the_log(duel):
    assert verify(str(duel.id))[0] == 0
    Match.objects.filter(pk=duel.pk).update(seats_to_act=[1], totals=[5, 0])
    Seat.objects.filter(match=duel, index=1).update(to_act=False)
    code, out = verify(str(duel.id))
    assert code == 1
    assert "read model: seats to act [1], replay [0, 1]" in out
    assert "read model: seats flagged to act [0], replay [0, 1]" in out
    assert "read model: totals [5, 0], replay [0, 0]" in out


@pytest.mark.django_db
def test_verify_needs_a_match(duel):
    from django.core.management import CommandError

    with pytest.raises(CommandError):
        call_command("verify_match")
    with pytest.raises(CommandError):
        call_command("verify_match", "00000000-0000-0000-0000-000000000000")
    assert Match.objects.count() == 1
