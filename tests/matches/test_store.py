"""The event store: append-only, tamper-evident, concurrency-safe, snapshot == replay."""

from __future__ import annotations

import random
import threading
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction
from django.db.models.expressions import RawSQL

from golf import legal_actions, replay
from golf.game import GOLF
from golf.snapshot import state_to_json
from matches import errors
from matches.models import Match, MatchEvent, Seat
from matches.services import match_act, match_create, match_join, match_rebuild
from matches.store import game_of, load_events, load_state, state_at, to_event
from matches.verify import verify_match


def full_replay(match):
    return replay(to_event(r, GOLF) for r in load_events(match))


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
    assert MatchEvent.objects.filter(match=duel).count() == 3  # started, dealt, bob's seat


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
    match.refresh_from_db()
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
            seats=[{"type": "com", "level": "normal"}, {"type": "com", "level": "easy"}],
            spectate=True,
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
        "UPDATE golf_matchevent SET payload = jsonb_set(payload, '{card}', "
        "CASE WHEN payload->>'card' = 'KS' THEN '\"QS\"' ELSE '\"KS\"' END::jsonb) "
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


def audit_pages(match, limit):
    """The audit record of ``match`` page by page: ``(first seq, last seq, chain faults)``."""
    from matches.selectors import audit_record

    match.refresh_from_db()
    pages, after, more = [], 0, True
    while more:
        page = audit_record(match, after=after, limit=limit)
        seqs = [e["seq"] for e in page["events"]]
        pages.append((seqs[0] if seqs else None, seqs[-1] if seqs else None, page["chain_faults"]))
        after, more = page["next_after"], page["has_more"]
    return pages


@pytest.mark.django_db
def test_each_page_of_the_audit_record_checks_its_chain_from_the_event_before_it(finished):
    from matches.selectors import audit_record

    version = finished.version
    assert version > 14
    sound = audit_pages(finished, 7)
    assert [faults for _, _, faults in sound] == [[]] * len(sound)
    assert sound[-1][1] == version and len(sound) == -(-version // 7)
    tamper(
        "UPDATE golf_matchevent SET hash = repeat('0', 64) WHERE match_id = %s AND seq = 9",
        [finished.id],
    )
    pages = audit_pages(finished, 7)
    # #9's own hash is wrong, and #10 is checked against it: both on the second page
    faults = [f"hash mismatch at #{seq} ({type_of(finished, seq)})" for seq in (9, 10)]
    assert pages[1] == (8, 14, faults)
    assert all(faults == [] for i, (_, _, faults) in enumerate(pages) if i != 1)
    # a page after a missing event says so; a log cut short ends with the head's fault
    tamper("DELETE FROM golf_matchevent WHERE match_id = %s AND seq = 7", [finished.id])
    page = audit_record(finished, after=7, limit=7)
    assert page["chain_faults"] == ["event #7, the one this page follows, is not in the log"]
    tamper(
        "DELETE FROM golf_matchevent WHERE match_id = %s AND seq > %s", [finished.id, version - 3]
    )
    pages = audit_pages(finished, 7)
    assert [last for _, last, _ in pages if last is not None][-1] == version - 3
    assert f"the match row says version {version}, the log ends at #{version - 3}" in pages[-1][2]


def type_of(match, seq):
    return MatchEvent.objects.get(match=match, seq=seq).type


def forge(match, change, *, unkeyed_chain=False):
    """Rewrite ``match``'s log as a database superuser can (the trigger bypassed), calling
    ``change(row)`` on every row, then recompute the unkeyed chain with the public function:
    what a forger without the chain key can do. ``unkeyed_chain``: take the key off."""
    from matches.store import event_hash, genesis_hash

    if unkeyed_chain:
        Match.objects.filter(pk=match.pk).update(chain_key_id="")
    previous = genesis_hash(match.id)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        for row in load_events(match):
            change(row)
            row.hash = event_hash(previous, row.seq, row.type, row.version, row.payload, row.actor)
            previous = row.hash
            MatchEvent.objects.filter(pk=row.pk).update(
                payload=row.payload, actor=row.actor, created_at=row.created_at, hash=row.hash
            )
        Match.objects.filter(pk=match.pk).update(last_hash=previous)
        cursor.execute("SET LOCAL session_replication_role = origin")


@pytest.mark.django_db
def test_verify_reports_a_deal_the_seed_does_not_give_even_in_an_unkeyed_chain(finished, settings):
    def reverse_the_stock(row):
        if row.type == "hole_dealt" and row.payload["hole"] == 1:
            row.payload = {**row.payload, "stock": list(reversed(row.payload["stock"]))}

    forge(finished, reverse_the_stock, unkeyed_chain=True)
    settings.EVENT_CHAIN_UNKEYED_MATCHES = frozenset({str(finished.id)})  # an older match
    code, out = verify(str(finished.id))
    assert code == 1 and "hash mismatch" not in out  # the forged unkeyed chain holds
    assert "#2 hole_dealt is not what the rules give" in out
    # the first card that differs, both ways, not the two whole deals
    stock = next(e for e in load_events(finished) if e.type == "hole_dealt").payload["stock"]
    assert (
        f"#2 hole_dealt is not what the rules give: stock[0]: the rules give "
        f"{stock[-1]!r}, the log holds {stock[0]!r}" in out
    ), out
    assert "note: an unkeyed chain (from before keyed chains)" in out
    assert "its key was taken off" not in out


@pytest.mark.django_db
def test_a_key_taken_off_a_match_is_a_fault(finished, settings):
    """A forger without the key takes it off the match and chains a rewritten log with the
    public, unkeyed hash (other actors, older times): only the matches listed as older than
    keyed chains may have such a chain."""
    from datetime import timedelta

    def rewrite(row):
        row.actor = "user:999"
        row.created_at -= timedelta(days=30)

    forge(finished, rewrite, unkeyed_chain=True)
    code, out = verify(str(finished.id))
    assert code == 1 and "hash mismatch" not in out  # the chain, as such, holds
    assert "an unkeyed chain on a match not listed as older than keyed chains" in out
    from matches.selectors import audit_record

    finished.refresh_from_db()
    faults = audit_record(finished)["chain_faults"]  # the audit API (and the web's check) too
    assert any("its key was taken off" in fault for fault in faults)
    settings.EVENT_CHAIN_UNKEYED_MATCHES = frozenset({str(finished.id)})
    code, out = verify(str(finished.id))
    assert code == 0 and "note: an unkeyed chain" in out  # what an older match's chain shows
    assert audit_record(finished)["chain_faults"] == []


@pytest.mark.django_db
@pytest.mark.parametrize("unkeyed_chain", [False, True])
def test_verify_recomputes_scores_totals_and_winners(finished, unkeyed_chain):
    def rewrite_results(row):
        if row.type == "hole_scored":
            row.payload = {**row.payload, "scores": [0] * len(row.payload["scores"])}
        if row.type == "match_finished":
            row.payload = {**row.payload, "winners": [1]}

    forge(finished, rewrite_results, unkeyed_chain=unkeyed_chain)
    code, out = verify(str(finished.id))
    assert code == 1
    assert "hole_scored is not what the rules give" in out
    assert ("hash mismatch" in out) is not unkeyed_chain  # the keyed chain tells at once


@pytest.mark.django_db
def test_verify_reports_stored_data_no_rule_reads(finished):
    """A field the game does not read (a bonus on a scored hole, a points table in the
    rules) passed the rules' check, which compares the events as read: the audit record
    published it unchecked."""

    def add_fields(row):
        if row.type == "hole_scored":
            row.payload = {**row.payload, "bonus": [999] * len(row.payload["scores"])}

    forge(finished, add_fields, unkeyed_chain=True)
    code, out = verify(str(finished.id))
    assert code == 1 and "hole_scored: fields no rule reads: bonus" in out


@pytest.mark.django_db
def test_verify_reports_a_seats_move_written_by_another(finished, settings):
    """A draw is legal for the seat to act whoever wrote it: the rules' check passed a move
    whose actor was another seat's COM, or the system's."""
    forged = {}

    def misattribute(row):
        seat = row.payload.get("seat")
        if row.type == "card_drawn" and "draw" not in forged:
            forged["draw"] = row.seq
            row.actor = f"com:easy:{1 - seat}"
        elif row.type == "card_discarded" and "discard" not in forged:
            forged["discard"] = row.seq
            row.actor = "system"
        elif row.type == "card_swapped" and "older" not in forged:
            forged["older"] = row.seq
            row.actor = "com:normal"  # (an older log's COM named no seat: not checked)

    forge(finished, misattribute, unkeyed_chain=True)
    settings.EVENT_CHAIN_UNKEYED_MATCHES = frozenset({str(finished.id)})
    code, out = verify(str(finished.id))
    assert code == 1, out
    assert f"#{forged['draw']} card_drawn: seat " in out and ", written by 'com:easy:" in out
    assert f"#{forged['discard']} card_discarded: seat " in out and "by 'system'" in out
    assert f"#{forged['older']} " not in out
    assert "is not what the rules give" not in out  # (every move is legal for its seat)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("actor", "sound"),
    [
        ("user:{bob}:1", True),  # bob left
        ("staff:9", True),  # staff handed it over
        ("user:{alice}:0", False),  # another seat's player
        ("com:normal:1", False),
        ("timer:1", False),
        ("system", False),
    ],
)
def test_verify_checks_who_handed_a_seat_to_a_com(duel, alice, bob, actor, sound):
    """The hand-over is no seat's move in the rules, so its actor went unchecked: a log
    could hand bob's seat over in alice's name, or a COM's."""
    from matches.services import _commit_events, _lock

    actor = actor.format(alice=alice.pk, bob=bob.pk)
    with transaction.atomic():
        match = _lock(duel.id)
        state = load_state(match)
        _commit_events(match, state, game_of(match).hand_over(state, 1), actor=actor)
    faults = verify_match(Match.objects.get(pk=duel.pk)).faults
    expected = [f"#{duel.version + 1} seat_handed_over: seat 1, by {actor!r}"]
    assert faults == ([] if sound else expected)


@pytest.mark.django_db
def test_a_local_undo_by_the_next_seat_verifies(alice):
    """In a local match the player of any seat may take back the last mover's move: the
    undo names the seat whose move it takes back, the actor the seat to act. The first
    actor check called that sound match a fault."""
    from golf.actions import Undo
    from golf.decide import undoer

    match = match_create(
        creator=alice,
        rules={"local": True, "undo": True, "holes": 1},
        seats=[{"type": "me"}, {"type": "me"}],
    )
    rng = random.Random(1)
    undone = None
    for _ in range(200):
        match.refresh_from_db()
        state = load_state(match)
        seat = match.seats_to_act[0]
        actions = legal_actions(state, seat)
        undo = next((a for a in actions if isinstance(a, Undo)), None)
        if undo is not None and undoer(state) != seat:
            undone = (seat, undoer(state))
            match_act(match_id=match.id, user=alice, action=undo.to_json())
            break
        moves = [a for a in actions if not isinstance(a, Undo)]
        match_act(match_id=match.id, user=alice, action=rng.choice(moves).to_json())
    assert undone is not None, "no undo of the other seat's move was reached"
    row = MatchEvent.objects.filter(match=match, type="undone").last()
    assert row.payload["seat"] == undone[1] and row.actor.endswith(f":{undone[0]}")
    code, out = verify(str(match.id))
    assert code == 0, out


@pytest.mark.django_db
def test_an_option_added_since_a_match_was_stored_is_no_fault(finished, settings):
    """An older match's rules lack an option added since (read with its default): the
    game writes the key, the stored event has none, and that is no fault."""

    def drop_an_option(row):
        if row.type == "match_started":
            rules = {k: v for k, v in row.payload["rules"].items() if k != "max_turns"}
            row.payload = {**row.payload, "rules": rules}

    forge(finished, drop_an_option, unkeyed_chain=True)
    settings.EVENT_CHAIN_UNKEYED_MATCHES = frozenset({str(finished.id)})
    code, out = verify(str(finished.id))
    assert code == 0, out


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["created_at", "actor"])
def test_a_keyed_chain_covers_timestamps_and_actors(finished, field):
    from datetime import timedelta

    def change(row):
        if row.seq == 4:
            if field == "created_at":
                row.created_at -= timedelta(hours=1)
            else:
                row.actor = "user:999"

    forge(finished, change)
    code, out = verify(str(finished.id))
    assert code == 1 and "hash mismatch at #4" in out


@pytest.mark.django_db
def test_a_rotated_out_key_still_verifies_and_an_unknown_one_is_reported(finished, settings):
    Match.objects.filter(pk=finished.pk).update(chain_key_id="t1")
    finished.refresh_from_db()
    code, out = verify(str(finished.id))  # t1 is known but was not used: every hash differs
    assert code == 1 and "hash mismatch at #1" in out
    settings.EVENT_CHAIN_KEYS = {"t9": b"9" * 32}
    code, out = verify(str(finished.id))
    assert code == 1 and "cannot check the chain: chain key 't1' is not configured" in out


@pytest.mark.django_db
def test_verify_reports_deleted_events_at_the_end_too(finished):
    last = load_events(finished)[-1].seq
    tamper("DELETE FROM golf_matchevent WHERE match_id = %s AND seq = %s", [finished.id, last])
    code, out = verify(str(finished.id))
    assert code == 1
    assert f"the match row says version {last}, the log ends at #{last - 1}" in out


@pytest.mark.django_db(transaction=True)
def test_the_event_log_refuses_truncate(finished):
    from django.db import DatabaseError, transaction

    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL golf.allow_truncate = 'off'")  # as the service's sessions
        cursor.execute("TRUNCATE golf_matchevent CASCADE")
    assert load_events(finished)


@pytest.mark.django_db
def test_the_event_log_counts_from_one(finished):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError, match="golf_event_seq_from_one"), transaction.atomic():
        tamper(
            "INSERT INTO golf_matchevent (id, match_id, seq, type, version, payload, actor, "
            "created_at, hash) VALUES (gen_random_uuid(), %s, 0, 'x', 1, '{}', 'system', "
            "now(), %s)",
            [finished.id, "0" * 64],
        )
    assert load_events(finished)[0].seq == 1


@pytest.mark.django_db
def test_verify_reports_a_truncated_log(finished):
    tamper("DELETE FROM golf_matchevent WHERE match_id = %s", [finished.id])
    code, out = verify(str(finished.id))
    assert code == 1 and "no events" in out and "the log ends at #0" in out


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
def test_a_write_corrects_seats_to_act_the_match_holds_wrongly(duel, alice):
    """The seats to act were written only when the move changed them, so a wrong value
    (the detail's ``your_turn``, the lists' "awaiting me") outlived every later move."""
    Match.objects.filter(pk=duel.pk).update(seats_to_act=[1])
    Seat.objects.filter(match=duel, index=0).update(to_act=False)
    match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 0})
    assert Match.objects.get(pk=duel.pk).seats_to_act == [0, 1]  # (both still to flip)
    assert set(Seat.objects.filter(match=duel, to_act=True).values_list("index", flat=True)) == {
        0,
        1,
    }
    assert verify(str(duel.id))[0] == 0


@pytest.mark.django_db
def test_a_corrupt_snapshot_is_found_and_written_again_before_a_move_is_decided_on_it(duel, alice):
    """A snapshot is the state a move is decided on: one that is not the log's state was
    trusted (its card was revealed, into the log for good) and verify_match said OK."""
    real = load_state(duel).grids[0][1]
    other = next(c for c in ("2D", "3D") if c != real)
    Match.objects.filter(pk=duel.pk).update(
        snapshot=RawSQL("jsonb_set(snapshot, '{grids,0,1}', %s::jsonb)", [f'"{other}"'])
    )
    code, out = verify(str(duel.id))
    assert code == 1 and f"read model: the snapshot at #{duel.version} differs" in out
    assert other not in out and real not in out  # (a running match's cards stay masked)
    code, out = verify(str(duel.id), "--repair")
    assert code == 0, out
    assert "repaired: snapshot written again from the log" in out and out.count(": OK") == 1
    assert "1 match(es) verified, 0 with faults, 1 repaired" in out
    act = match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 1})
    assert act.rows[-1].payload["card"] == real
    assert verify(str(duel.id))[0] == 0


@pytest.mark.django_db
def test_a_snapshot_no_game_wrote_is_replayed_over_and_repaired(duel, alice, caplog):
    Match.objects.filter(pk=duel.pk).update(snapshot={})
    duel.refresh_from_db()
    assert load_state(duel) == replay(to_event(r, GOLF) for r in load_events(duel))
    assert "its snapshot cannot be read" in caplog.text
    code, out = verify(str(duel.id), "--repair")
    assert code == 0 and f"the snapshot at #{duel.version} cannot be read (" in out, out
    assert "repaired: snapshot" in out
    duel.refresh_from_db()
    replayed = replay(to_event(r, GOLF) for r in load_events(duel))
    assert GOLF.state_from_json(duel.snapshot) == replayed


@pytest.mark.django_db
def test_a_snapshot_of_an_older_format_that_reads_as_the_replay_is_sound(duel):
    """Fields added to the snapshot since take their defaults when it is read: a finished
    match's, never written again, is not a fault for it."""
    added = ("seen", "stock_seen", "drawn_seen", "reshuffled_piles", "foreseen")
    older = {k: v for k, v in duel.snapshot.items() if k not in added}
    assert older != duel.snapshot
    Match.objects.filter(pk=duel.pk).update(snapshot=older)
    assert verify(str(duel.id))[0] == 0
    assert match_rebuild(match_id=duel.id) == []


def repaired_after(decide, match, repaired):
    """``decide``, after which (the first time) an operator's repair of ``match``'s caches
    lands, from another connection, before the move decided is written; ``repaired``
    gets what it wrote again."""

    def deciding_then_repaired(*args, **kwargs):
        decided = decide(*args, **kwargs)
        if not repaired:
            repair = threading.Thread(
                target=lambda: (
                    repaired.append(match_rebuild(match_id=match.id)),
                    connections.close_all(),
                )
            )
            repair.start()
            repair.join()
        return decided

    return deciding_then_repaired


@pytest.mark.django_db(transaction=True)
def test_a_move_decided_on_a_snapshot_a_repair_replaced_meanwhile_is_decided_anew(
    duel, alice, monkeypatch
):
    """The move read the match without its lock, decided on the corrupt snapshot, then the
    operator's repair landed before its write: the write was made (the version was as
    read), and the corrupt card went into the log for good."""
    from matches import services

    real = load_state(duel).grids[0][1]
    other = next(c for c in ("2D", "3D") if c != real)
    Match.objects.filter(pk=duel.pk).update(
        snapshot=RawSQL("jsonb_set(snapshot, '{grids,0,1}', %s::jsonb)", [f'"{other}"'])
    )
    repaired: list[list[str]] = []
    monkeypatch.setattr(services, "_decided", repaired_after(services._decided, duel, repaired))
    act = match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 1})
    assert repaired == [["snapshot"]]
    assert act.rows[-1].payload["card"] == real
    assert verify(str(duel.id))[0] == 0


@pytest.mark.django_db(transaction=True)
def test_a_coms_move_decided_on_a_snapshot_a_repair_replaced_meanwhile_is_written_anew(
    alice, monkeypatch, settings
):
    """A COM's move (and a turn timer's) was written on the state it was decided on, read
    before the lock: a repair landing in between left the corrupt card in the log."""
    from matches import services

    settings.COM_EVEN_TIMING_MS = 0  # taken as soon as decided, in this process
    monkeypatch.setattr(services, "_publish_on_commit", lambda followup: None)
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}])
    match.refresh_from_db()
    real = load_state(match).grids[1]
    fake = next(c for c in ("2D", "3D", "4D", "5D", "6D", "7D", "8D") if c not in real)
    Match.objects.filter(pk=match.pk).update(
        snapshot={**match.snapshot, "grids": [match.snapshot["grids"][0], [fake] * len(real)]}
    )
    repaired: list[list[str]] = []
    decide = repaired_after(services.decide_auto_move, match, repaired)
    monkeypatch.setattr(services, "decide_auto_move", decide)
    assert services.com_turn(match_id=str(match.id), expected_version=match.version)
    assert repaired == [["snapshot"]]
    assert load_events(match)[-1].payload["card"] in real
    assert verify(str(match.id))[0] == 0


@pytest.mark.django_db
def test_a_repaired_snapshot_leaves_no_copy_of_the_state_it_replaced(duel, bob):
    """A state read from the snapshot was kept by the process as the base of later reads
    of past versions: after the repair and a move, the past version still had the corrupt
    card."""
    real = load_state(duel).grids[0][1]
    other = next(c for c in ("2D", "3D") if c != real)
    Match.objects.filter(pk=duel.pk).update(
        snapshot=RawSQL("jsonb_set(snapshot, '{grids,0,1}', %s::jsonb)", [f'"{other}"'])
    )
    duel.refresh_from_db()
    version = duel.version
    assert state_at(duel, version).grids[0][1] == other  # (trusted: the current version's)
    assert match_rebuild(match_id=duel.id) == ["snapshot"]
    match_act(match_id=duel.id, user=bob, action={"type": "reveal", "position": 0})
    duel.refresh_from_db()
    assert state_at(duel, version).grids[0][1] == real


@pytest.mark.django_db
def test_a_snapshot_and_checkpoint_of_another_engine_version_are_not_read(duel, bob, monkeypatch):
    """A change of the engine that makes a log fold to another state (a finished Hearts
    match's end reason) left every snapshot written before serving the old state until an
    operator's repair. The snapshot's state stands for the old engine's here."""
    from dataclasses import replace

    from django.core.cache import caches

    from matches import store

    real = load_state(duel).grids[0][1]
    old = next(c for c in ("2D", "3D") if c != real)
    Match.objects.filter(pk=duel.pk).update(
        snapshot=RawSQL("jsonb_set(snapshot, '{grids,0,1}', %s::jsonb)", [f'"{old}"'])
    )
    version = duel.version
    monkeypatch.setattr(store, "CHECKPOINT_EVERY", version)
    store._prefixes.clear()
    old_key = store._checkpoint_key(duel, version)
    caches["states"].set(old_key, (duel.last_hash, Match.objects.get(pk=duel.pk).snapshot))
    monkeypatch.setattr(GOLF, "info", replace(GOLF.info, engine=GOLF.info.engine + 1))
    duel.refresh_from_db()
    assert duel.snapshot["grids"][0][1] == old and duel.snapshot_engine == 1
    assert load_state(duel).grids[0][1] == real  # the log, replayed
    assert store._checkpoint_key(duel, version) != old_key
    code, out = verify(str(duel.id))
    assert code == 1
    assert f"snapshot at #{version} was written by version 1 of the engine, which is at 2" in out
    assert match_rebuild(match_id=duel.id) == ["snapshot", "snapshot_engine"]
    duel.refresh_from_db()
    assert (duel.snapshot["grids"][0][1], duel.snapshot_engine) == (real, 2)
    assert verify(str(duel.id))[0] == 0
    # a move writes the engine's version with its snapshot; a past state is not read from
    # the old engine's checkpoint
    match_act(match_id=duel.id, user=bob, action={"type": "reveal", "position": 0})
    duel.refresh_from_db()
    assert duel.snapshot_engine == 2
    store._prefixes.clear()
    assert state_at(duel, version).grids[0][1] == real


@pytest.mark.django_db(transaction=True)
def test_a_state_replayed_is_of_the_version_read_though_a_move_lands_meanwhile(
    duel, bob, monkeypatch
):
    """Without a snapshot to read (one of another engine's version, say) the log was
    replayed to its end: a move written after the match row was read made the state of the
    next version, served as this one's (``states/{v}`` under its lasting ETag)."""
    from matches import store

    Match.objects.filter(pk=duel.pk).update(snapshot=None)
    match = Match.objects.get(pk=duel.pk)
    before = full_replay(match)
    read = store.load_events
    landed: list[int] = []

    def a_move_landing_first(*args, **kwargs):
        if not landed:
            landed.append(1)

            def move():
                match_act(match_id=duel.id, user=bob, action={"type": "reveal", "position": 0})
                connections.close_all()

            mover = threading.Thread(target=move)
            mover.start()
            mover.join()
        return read(*args, **kwargs)

    monkeypatch.setattr(store, "load_events", a_move_landing_first)
    assert load_state(match) == before
    assert Match.objects.get(pk=duel.pk).version == match.version + 1  # (it landed)


@pytest.mark.django_db
def test_verify_reports_and_repairs_who_sits_where_and_a_lobby_status_on_a_match_in_play(
    duel, carol
):
    """Who may act for a seat is read from ``seat_users``, and a match "waiting" refuses
    every action: both could be wrong and verify_match said OK."""
    Match.objects.filter(pk=duel.pk).update(
        status="waiting", seat_users=[duel.seat_users[0], carol.pk]
    )
    code, out = verify(str(duel.id))
    assert code == 1
    assert "read model: status 'waiting', replay 'active'" in out
    assert (
        f"read model: seat users [{duel.seat_users[0]}, {carol.pk}], replay {duel.seat_users}"
        in out
    )
    code, out = verify(str(duel.id), "--repair")
    assert code == 0 and "repaired: status, seat_users written again" in out
    duel_now = Match.objects.get(pk=duel.pk)
    assert (duel_now.status, duel_now.seat_users) == ("active", duel.seat_users)


@pytest.mark.django_db
def test_repair_leaves_a_log_fault_alone(finished):
    tamper(
        "UPDATE golf_matchevent SET actor = 'forged' WHERE match_id = %s AND seq = 2", [finished.id]
    )
    Match.objects.filter(pk=finished.pk).update(totals=[99])
    code, out = verify(str(finished.id), "--repair")
    assert code == 1 and "repaired:" not in out and "0 repaired" in out
    assert Match.objects.get(pk=finished.pk).totals == [99]


@pytest.mark.django_db
def test_verify_reports_rules_and_rounds_on_the_match_that_the_log_did_not_play(finished):
    """The rules kept on the match (what its detail and audit record serve, what clients
    read) could be rewritten with no key at all and verify_match said OK."""
    assert verify(str(finished.id))[0] == 0
    rules = {**finished.rules, "holes": finished.rules["holes"] + 7}
    Match.objects.filter(pk=finished.pk).update(rules=rules, rounds=9, phase="draw")
    code, out = verify(str(finished.id))
    assert code == 1
    holes = finished.rules["holes"]
    assert f"rules: holes is {holes + 7} on the match, {holes} in the log" in out
    assert f"read model: rounds 9, replay {finished.rounds}" in out
    assert f"read model: phase 'draw', replay {finished.phase!r}" in out
    Match.objects.filter(pk=finished.pk).update(rules={**finished.rules, "holes": "many"})
    assert "the match's rules cannot be read" in verify(str(finished.id))[1]


@pytest.mark.django_db
def test_verify_reports_an_open_seat_of_the_log_that_the_match_has_taken(alice, bob):
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    assert verify(str(match.id))[0] == 0  # waiting, its seat open: as the log says
    Match.objects.filter(pk=match.pk).update(status="active")
    Seat.objects.filter(match=match, index=1).update(kind="human", user=bob)
    code, out = verify(str(match.id))
    assert code == 1 and "status active, seats [1] taken, but the log has seats [1] open" in out


@pytest.mark.django_db
def test_verify_needs_a_match(duel):
    from django.core.management import CommandError

    with pytest.raises(CommandError):
        call_command("verify_match")
    for match_id in ("00000000-0000-0000-0000-000000000000", "not-a-uuid", "123"):
        with pytest.raises(CommandError, match=f"no match {match_id}"):
            call_command("verify_match", match_id)
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_match_that_cannot_be_verified_is_a_fault_and_the_others_are_verified(
    duel, alice, monkeypatch
):
    """A match of a game not registered here (its package gone), or one whose check fails
    unforeseen, stopped --all with a traceback: no report of the others, no summary."""
    from matches import verify as verifying

    gone = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "easy"}])
    Match.objects.filter(pk=gone.pk).update(game="spades")
    code, out = verify("--all", "--jobs", "1")
    assert code == 1 and "2 match(es) verified, 1 with faults" in out
    assert f"{gone.id}: FAULT" in out and "its game is not registered on this server" in out
    assert f"{duel.id}: OK" in out
    real = verifying.verify_match

    def failing(match):
        if match.pk == duel.pk:
            raise RuntimeError("unforeseen")
        return real(match)

    monkeypatch.setattr(verifying, "verify_match", failing)
    code, out = verify("--all", "--jobs", "1")
    assert f"{duel.id}: FAULT" in out and "it could not be verified (RuntimeError)" in out
    assert "2 match(es) verified, 2 with faults" in out


@pytest.mark.django_db(transaction=True)
def test_verify_all_runs_in_parallel_processes_and_reports_in_order(alice, bob, settings):
    from matches.management.commands.verify_match import BATCH

    settings.MAX_UNFINISHED_MATCHES = 2 * BATCH

    matches = []
    for _ in range(BATCH + 10):  # more than one batch: two processes share the work
        match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
        match_join(match_id=match.id, user=bob)
        matches.append(match)
    with transaction.atomic():
        tamper("UPDATE golf_matchevent SET actor = 'forged' WHERE match_id = %s", [matches[-3].id])
    code, out = verify("--all", "--jobs", "2")
    assert code == 1
    assert f"{BATCH + 10} match(es) verified, 1 with faults" in out
    heads = [line.split(":")[0] for line in out.splitlines() if line.endswith("checked)")]
    assert heads == [str(m.id) for m in matches]  # in the order of creation
    assert f"{matches[-3].id}: FAULT" in out
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="--jobs"):
        verify("--all", "--jobs", "-1")


def _count_reads(monkeypatch) -> list[tuple[int, int | None]]:
    """The ``(after, upto)`` of every read of events the store makes from now on."""
    from matches import store

    reads: list[tuple[int, int | None]] = []
    real_load = store.load_events

    def counted(match, after=0, upto=None):
        reads.append((after, upto))
        return real_load(match, after, upto)

    monkeypatch.setattr(store, "load_events", counted)
    return reads


@pytest.mark.django_db
def test_a_state_at_any_version_in_any_order_equals_a_full_replay(alice, bob, carol, monkeypatch):
    from matches import store

    rng = random.Random(5)
    match = match_create(
        creator=alice,
        preset="six-card",
        rules={"holes": 2},
        seats=[{"type": "me"}, {"type": "open"}, {"type": "open"}],
    )
    match_join(match_id=match.id, user=bob)
    match_join(match_id=match.id, user=carol)
    play_randomly(match, [alice, bob, carol], 25, rng)
    rows = load_events(match)
    truth = {v: replay(to_event(r, GOLF) for r in rows[:v]) for v in range(1, len(rows) + 1)}
    reads = _count_reads(monkeypatch)
    shuffled = list(truth)
    rng.shuffle(shuffled)
    for version in [*truth, *shuffled]:
        assert state_at(match, version) == truth[version], version
    # followed version after version, each read starts at the one before
    store._prefixes.clear()
    reads.clear()
    for version in range(3, 9):
        state_at(match, version)
    assert reads == [(0, 3), *((v - 2, v) for v in range(4, 9))]
    # a remembered state whose event is not the one stored is not used
    store._prefixes[match.id] = (8, "not-the-stored-hash", truth[2])
    assert state_at(match, 10) == truth[10]


@pytest.mark.django_db
def test_a_state_far_back_is_replayed_from_the_checkpoint_before_it(alice, bob, monkeypatch):
    from django.core.cache import caches

    from matches import store

    monkeypatch.setattr(store, "CHECKPOINT_EVERY", 4)
    rng = random.Random(8)
    match = match_create(
        creator=alice,
        preset="six-card",
        rules={"holes": 2},
        seats=[{"type": "me"}, {"type": "open"}],
    )
    match_join(match_id=match.id, user=bob)
    play_randomly(match, [alice, bob], 30, rng)
    rows = load_events(match)
    assert len(rows) >= 20
    truth = {v: replay(to_event(r, GOLF) for r in rows[:v]) for v in range(1, len(rows) + 1)}
    reads = _count_reads(monkeypatch)
    last = len(rows) - 1
    assert state_at(match, last) == truth[last]  # the first read replays from the start
    assert reads == [(0, last)]
    shuffled = list(range(1, last))
    rng.shuffle(shuffled)
    for version in shuffled:  # each later one from the checkpoint before it, or the last read
        store._prefixes.clear()
        reads.clear()
        assert state_at(match, version) == truth[version], version
        mark = version - version % 4
        assert reads == [(mark - 1, version) if mark else (0, version)], version
    # with the state last read before the checkpoint, the checkpoint alone is read
    store._prefixes.clear()
    state_at(match, 5)
    reads.clear()
    assert state_at(match, 10) == truth[10] and reads == [(7, 10)]
    # a checkpoint whose event is not the one stored is not used
    states = caches["states"]
    store._prefixes.clear()
    states.set(store._checkpoint_key(match, 8), ("not-the-stored-hash", state_to_json(truth[2])))
    reads.clear()
    assert state_at(match, 9) == truth[9]
    assert reads == [(7, 9), (0, 9)]  # the checkpoint's event, then the whole log
    store._prefixes.clear()
    reads.clear()
    assert state_at(match, 9) == truth[9] and reads == [(7, 9)]  # kept right again
    # nor one that cannot be read (of another format, or the cache failing): a replay
    key = store._checkpoint_key(match, 12)
    for broken in [(rows[11].hash, {"format": "from another release"}), "not a pair"]:
        states.set(key, broken)
        store._prefixes.clear()
        reads.clear()
        assert state_at(match, 13) == truth[13] and reads == [(0, 13)]

    def failing(*args, **kwargs):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(states, "get", failing)
    monkeypatch.setattr(states, "set", failing)
    store._prefixes.clear()
    reads.clear()
    assert state_at(match, 17) == truth[17] and reads == [(0, 17)]


@pytest.mark.django_db
def test_a_log_the_rules_cannot_check_is_a_fault_and_the_others_are_verified(
    finished, duel, monkeypatch, caplog
):
    """An audit that fails in a way its game did not foresee (a log no engine wrote) is
    that match's fault; ``--all`` goes on to the next match."""
    real = type(GOLF).audit

    def audit(game, events):
        if len(events) == finished.version:
            raise OverflowError("cannot fit 'int' into an index-sized integer")
        return real(game, events)

    monkeypatch.setattr(type(GOLF), "audit", audit)
    code, out = verify("--all", "--jobs", "1")
    assert code == 1
    assert f"{finished.id}: FAULT" in out and f"{duel.id}: OK" in out
    assert "the rules could not check the log (OverflowError)" in out
    assert "index-sized" not in out  # the error's own text may quote the log: logged only
    assert "index-sized" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_verify_reads_a_match_in_play_as_of_one_moment(alice, bob, monkeypatch):
    """Its row was read with its batch, its log later: a move between the two made a sound
    match in play a fault ("the match row says version 412, the log ends at #414")."""
    from tests.meanwhile import a_move_before_each_verification

    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    match_join(match_id=match.id, user=bob)
    a_move_before_each_verification(monkeypatch, match.id, (alice, bob))
    version = Match.objects.get(pk=match.id).version
    code, out = verify(str(match.id))
    assert code == 0, out
    assert Match.objects.get(pk=match.id).version == version + 1  # (the move was made)


@pytest.mark.django_db
def test_a_match_row_inserted_without_the_engine_version_is_of_the_first():
    """Processes of the release before the column, still writing while a deploy runs,
    insert matches without it: the database's default lets them (a NOT NULL column with no
    default refused every new match), and no CHECK made adding it scan the table."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_default, is_nullable FROM information_schema.columns "
            "WHERE table_name = 'golf_match' AND column_name = 'snapshot_engine'"
        )
        assert cursor.fetchone() == ("1", "NO")
        cursor.execute(
            "SELECT count(*) FROM pg_constraint WHERE conrelid = 'golf_match'::regclass "
            "AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%%snapshot_engine%%'"
        )
        assert cursor.fetchone() == (0,)
