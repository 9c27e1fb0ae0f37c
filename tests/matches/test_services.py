"""The write path: create, join, act, abort, with versions and idempotency."""

from __future__ import annotations

import uuid

import pytest

from golf import IllegalActionError, MalformedActionError, RulesError, replay
from golf.game import GOLF
from matches import errors
from matches.models import Match, MatchEvent, MatchStatus, Seat
from matches.selectors import seats_json
from matches.services import com_rng, match_abort, match_act, match_create, match_join
from matches.store import load_events, load_state, to_event
from tests.plans import rows_dropped

pytestmark = pytest.mark.django_db


def test_create_commits_to_a_seed_and_deals(alice):
    match = match_create(
        creator=alice,
        preset="nine-card",
        rules={"holes": 2},
        seats=[
            {"type": "me"},
            {"type": "com", "level": "hard"},
            {"type": "com", "level": "normal"},
        ],
    )
    assert match.status == MatchStatus.ACTIVE and match.version == 2
    assert match.rules["holes"] == 2 and match.rules["grid"] == "3x3"
    types = [e.type for e in load_events(match)]
    assert types == ["match_started", "hole_dealt"]
    started = load_events(match)[0]
    assert started.payload["commitment"] == match.seed_commitment
    seats = list(match.seats.order_by("index"))
    assert [s.kind for s in seats] == ["human", "com", "com"]
    assert seats[1].com_level == "hard" and seats[2].com_level == "normal"
    assert seats[0].to_act  # initial flips: every seat may act


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"seats": []}, errors.InvalidMatchRequest),
        ({"seats": [{"type": "me"}, {"type": "robot"}]}, errors.InvalidMatchRequest),
        (
            {"seats": [{"type": "me"}, {"type": "com", "level": "godlike"}]},
            errors.InvalidMatchRequest,
        ),
        ({"seats": [{"type": "me"}, {"type": "me"}]}, errors.InvalidMatchRequest),
        ({"seats": [{"type": "me"}]}, errors.InvalidMatchRequest),  # the game's seat limits
        (
            {"seats": [{"type": "me"}] + [{"type": "com", "level": "normal"}] * 6},
            errors.InvalidMatchRequest,
        ),
        (
            {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}], "preset": "poker"},
            errors.InvalidMatchRequest,
        ),
        (
            {
                "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
                "rules": {"grid": "9x9"},
            },
            RulesError,
        ),
        ({"seats": [{"type": "me"}, {"type": "me2"}]}, errors.InvalidMatchRequest),
        ({"seats": [{"type": "me"}, {"type": "open"}], "rules": {"undo": True}}, RulesError),
        (
            {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}], "turn_timeout": 1},
            errors.InvalidMatchRequest,
        ),
    ],
)
def test_bad_create_requests_write_nothing(alice, kwargs, error):
    before = MatchEvent.objects.count()
    with pytest.raises(error):
        match_create(creator=alice, **kwargs)
    assert MatchEvent.objects.count() == before


def test_join_fills_open_seats_then_activates(alice, bob, carol):
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}, {"type": "open"}])
    assert match.status == MatchStatus.WAITING
    with pytest.raises(errors.MatchNotActive):
        match_act(match_id=match.id, user=alice, action={"type": "reveal", "position": 0})
    with pytest.raises(errors.AlreadySeated):
        match_join(match_id=match.id, user=alice)
    assert match_join(match_id=match.id, user=bob).index == 1
    match.refresh_from_db()
    assert (match.status, match.version, match.seats_to_act) == (MatchStatus.WAITING, 3, [])
    assert match_join(match_id=match.id, user=carol, seat=2).index == 2
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert match.version == 4 and match.seats_to_act == [0, 1, 2]
    joins = [(e.type, e.payload, e.actor) for e in load_events(match)[2:]]
    assert joins == [
        ("seat_taken", {"seat": 1}, f"user:{bob.pk}:1"),
        ("seat_taken", {"seat": 2}, f"user:{carol.pk}:2"),
    ]
    dave = alice.__class__.objects.create_user("dave")
    with pytest.raises(errors.NoOpenSeat):
        match_join(match_id=match.id, user=dave)
    with pytest.raises(errors.InvalidMatchRequest, match="between 0 and 2"):
        match_join(match_id=match.id, user=dave, seat=5)


def test_a_pause_between_rounds_is_bounded_only_where_a_game_has_one(alice):
    with pytest.raises(errors.InvalidMatchRequest, match="no pause between rounds") as info:
        match_create(
            creator=alice,
            game="ninety-nine",
            seats=[{"type": "me"}, {"type": "com"}, {"type": "com"}],
            round_pause_seconds=5,
        )
    assert info.value.extra["field"] == "round_pause_seconds"


def test_a_match_created_before_joins_were_events_starts_when_its_seat_is_taken(
    alice, bob, monkeypatch
):
    """Its match_started has the open seat as a human's: the join adds no event there, the
    match is active at once and its seats are to act."""
    with monkeypatch.context() as older:
        older.setattr("matches.services.OPEN", "human")
        match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    assert load_events(match)[0].payload["players"] == ["human", "human"]
    assert match.status == MatchStatus.WAITING
    match_join(match_id=match.id, user=bob)
    match.refresh_from_db()
    assert (match.status, match.version) == (MatchStatus.ACTIVE, 2)
    assert match.turn_started_at is not None and match.seats_to_act == [0, 1]
    match_act(match_id=match.id, user=bob, action={"type": "reveal", "position": 0})
    match.refresh_from_db()
    assert load_state(match).version == 3


def test_acting_appends_events_with_the_next_sequence_numbers(duel, alice, bob):
    result = match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 0})
    assert (result.first_seq, result.version) == (4, 4)  # after the deal and bob's seat
    result = match_act(
        match_id=duel.id, user=bob, action={"type": "reveal", "position": 4}, expected_version=4
    )
    assert result.version == 5
    assert [e.seq for e in load_events(duel)] == [1, 2, 3, 4, 5]


def test_a_stale_expected_version_writes_nothing(duel, alice):
    with pytest.raises(errors.VersionConflict) as info:
        match_act(
            match_id=duel.id,
            user=alice,
            action={"type": "reveal", "position": 0},
            expected_version=1,
        )
    assert info.value.extra["current_version"] == 3
    assert MatchEvent.objects.filter(match=duel).count() == 3


def test_illegal_and_malformed_actions_write_nothing(duel, alice, carol):
    with pytest.raises(IllegalActionError) as info:
        match_act(match_id=duel.id, user=alice, action={"type": "draw"})
    assert info.value.code == "wrong_phase"
    with pytest.raises(MalformedActionError):
        match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": "zero"})
    with pytest.raises(errors.NotAParticipant):
        match_act(match_id=duel.id, user=carol, action={"type": "reveal", "position": 0})
    with pytest.raises(errors.MatchNotFound):
        match_act(match_id="not-a-uuid", user=alice, action={"type": "draw"})
    assert MatchEvent.objects.filter(match=duel).count() == 3


def test_idempotent_repeats_return_the_first_result(duel, alice):
    action = {"type": "reveal", "position": 1}
    first = match_act(match_id=duel.id, user=alice, action=action, idempotency_key="k1")
    again = match_act(match_id=duel.id, user=alice, action=action, idempotency_key="k1")
    assert (again.first_seq, again.version, again.replayed) == (
        first.first_seq,
        first.version,
        True,
    )
    assert MatchEvent.objects.filter(match=duel).count() == 4
    with pytest.raises(errors.IdempotencyConflict):
        match_act(
            match_id=duel.id,
            user=alice,
            action={"type": "reveal", "position": 2},
            idempotency_key="k1",
        )


def test_abort_is_for_staff_and_reveals_the_seed(duel, alice, staff):
    with pytest.raises(errors.PermissionDenied):
        match_abort(match_id=duel.id, user=alice)
    match_abort(match_id=duel.id, user=staff, reason="test")
    duel.refresh_from_db()
    assert duel.status == MatchStatus.ABORTED and duel.ended_at is not None
    last = load_events(duel)[-1]
    assert last.type == "match_aborted" and last.actor == f"staff:{staff.pk}"
    import hashlib

    assert hashlib.sha256(bytes.fromhex(last.payload["seed"])).hexdigest() == duel.seed_commitment
    with pytest.raises(errors.MatchNotActive):
        match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": 0})


def test_com_opponents_play_on_commit_to_the_end(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice,
            rules={"holes": 1},
            seats=[{"type": "com", "level": "easy"}, {"type": "com", "level": "normal"}],
            spectate=True,
        )
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    state = replay(to_event(r, GOLF) for r in load_events(match))
    assert state.ended and list(state.totals) == match.totals
    assert {e.actor for e in load_events(match)[2:]} <= {"com:easy:0", "com:normal:1"}


def test_seats_to_act_read_model_follows_the_log(duel, alice, bob):
    for user, pos in ((alice, 0), (alice, 1), (bob, 0), (bob, 1)):
        match_act(match_id=duel.id, user=user, action={"type": "reveal", "position": pos})
    seats = {s.index: s.to_act for s in Seat.objects.filter(match=duel)}
    assert seats == {0: True, 1: False}
    duel.refresh_from_db()
    assert load_state(duel).seats_to_act() == (0,) and duel.seats_to_act == [0]


def test_seats_read_with_a_match_agree_with_it_when_a_write_lands_in_between(duel, alice, bob):
    for user, pos in ((alice, 0), (alice, 1), (bob, 0), (bob, 1)):
        match_act(match_id=duel.id, user=user, action={"type": "reveal", "position": pos})
    reader = Match.objects.get(pk=duel.id)  # a reader has the match row: seat 0 to act
    match_act(match_id=duel.id, user=alice, action={"type": "draw"})
    match_act(match_id=duel.id, user=alice, action={"type": "swap", "position": 5})
    # seat 1 is to act now; the reader's seats must still say what its version says
    flags = [seat["to_act"] for seat in seats_json(reader)]
    assert flags == [True, False] and load_state(reader).seats_to_act() == (0,)


def test_com_turns_of_a_match_whose_people_were_handed_to_coms_go_to_the_background(
    alice, staff, monkeypatch, settings
):
    from matches import services

    queues: list[str] = []
    monkeypatch.setattr(services, "_publish_on_commit", lambda f: f and queues.append(f.queue))
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}])
    match_act(match_id=match.id, user=alice, action={"type": "reveal", "position": 0})
    match_act(match_id=match.id, user=alice, action={"type": "reveal", "position": 1})
    assert queues[-1] == settings.INTERACTIVE_QUEUE  # the COM's flips, a person waiting
    services.seat_to_com(match_id=match.id, seat=0, by=staff)
    match.refresh_from_db()
    services.com_turn(match_id=match.id, expected_version=match.version)
    assert queues[-1] == settings.BACKGROUND_QUEUE  # COMs playing each other


def test_a_com_draws_from_a_source_only_the_server_can_compute(settings):
    """The same match, version and seat draw the same (a retried COM turn makes the same
    move), from a source keyed by the server's secret: the public facts alone do not give
    it, so no player foresees an easy COM's blunders."""
    match_id = uuid.uuid4()
    draws = [com_rng(match_id, 7, 1).random() for _ in range(2)]
    assert draws[0] == draws[1]
    assert com_rng(match_id, 7, 2).random() != draws[0]
    settings.SECRET_KEY = "another-" + settings.SECRET_KEY
    assert com_rng(match_id, 7, 1).random() != draws[0]


@pytest.mark.django_db(transaction=True)
def test_a_join_waiting_on_a_match_a_write_holds_does_not_deadlock_with_it(alice, bob, duel):
    """A join locks the account's row, then the match's. A write holding the match's lock
    (a move) takes a key-share lock on the account's row as it inserts the move's
    idempotency record: the join's lock must not refuse it, or each waits on the other."""
    import threading
    import time

    from django.db import connections, transaction

    from matches.models import IdempotencyRecord

    holding, joined = threading.Event(), []

    def move_under_the_match_lock() -> None:
        with transaction.atomic():
            Match.objects.select_for_update().get(pk=duel.pk)
            holding.set()
            time.sleep(0.5)  # the join takes the account's row and waits for the match's
            IdempotencyRecord.objects.create(
                match=duel, user=bob, key="k", request_hash="h", first_seq=9, version=9
            )
        connections.close_all()

    def join() -> None:
        holding.wait(5)
        try:
            match_join(match_id=duel.id, user=bob)
        except Exception as exc:  # (a deadlock would be a DatabaseError here)
            joined.append(type(exc).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=move_under_the_match_lock), threading.Thread(target=join)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert joined == ["AlreadySeated"]  # bob sits here already: refused, after the move
    assert IdempotencyRecord.objects.filter(match=duel, key="k").exists()


def test_the_bound_on_unfinished_matches_reads_the_accounts_matches_only(alice, bob, settings):
    """Creating or joining a match counts the account's unfinished ones (with its row
    locked) from its seats and the matches it made, not by reading every match stored."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.MAX_UNFINISHED_MATCHES = 100
    for _ in range(40):  # others' matches: the count must not read them
        match_create(creator=bob, seats=[{"type": "me"}, {"type": "open"}])
    lobby = match_create(creator=bob, seats=[{"type": "me"}, {"type": "open"}])
    with CaptureQueriesContext(connection) as created:
        match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    with CaptureQueriesContext(connection) as joined:
        match_join(match_id=lobby.id, user=alice)
    for queries in (created, joined):
        dropped = rows_dropped(queries, "golf_match", f'"created_by_id" = {alice.pk}')
        assert dropped and max(dropped) < 5, dropped


def three_players(users, capture, **options):
    """A Golf match of ``users`` (the first makes it, the others join), under way."""
    seats = [{"type": "me"}, {"type": "open"}, {"type": "open"}]
    with capture(execute=True):
        match = match_create(creator=users[0], seats=seats, **options)
        for user in users[1:]:
            match_join(match_id=match.id, user=user)
    match.refresh_from_db()
    return match


def first_legal(match, user, capture):
    """``user`` (to act) plays their first legal action."""
    from matches.selectors import match_view

    with capture(execute=True):
        match_act(match_id=match.id, user=user, action=match_view(match, user)["legal_actions"][0])
    match.refresh_from_db()


@pytest.mark.parametrize("how", ["leave", "staff"])
def test_a_seat_handed_to_a_com_keeps_the_clock_of_whoever_is_to_act(
    alice, bob, carol, staff, django_capture_on_commit_callbacks, how
):
    """The hand-over wrote the log like a move, and a move starts a new wait: the player to
    act got a whole new turn_timeout when someone else left."""
    from datetime import timedelta

    from django.utils import timezone

    from matches.services import match_leave, seat_to_com

    match = three_players(
        (alice, bob, carol),
        django_capture_on_commit_callbacks,
        rules={"initial_flips": 0},
        turn_timeout=60,
    )
    assert match.seats_to_act == [0]
    started = timezone.now() - timedelta(seconds=50)  # alice has thought for 50 of her 60 s
    Match.objects.filter(pk=match.pk).update(turn_started_at=started)
    with django_capture_on_commit_callbacks(execute=True):
        if how == "leave":
            match_leave(match_id=match.id, user=carol)
        else:
            seat_to_com(match_id=match.id, seat=2, by=staff)
    match.refresh_from_db()
    assert match.seats_to_act == [0] and match.turn_started_at == started


def test_a_seat_handed_to_a_com_in_the_pause_keeps_the_pauses_clock(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    from matches.services import match_leave

    match = three_players(
        (alice, bob, carol),
        django_capture_on_commit_callbacks,
        rules={"holes": 2},
        round_pause_seconds=120,
    )
    players = {0: alice, 1: bob, 2: carol}
    while match.phase != "hole_over":  # the first hole played out
        first_legal(match, players[match.seats_to_act[0]], django_capture_on_commit_callbacks)
    first_legal(match, alice, django_capture_on_commit_callbacks)  # ready
    first_legal(match, carol, django_capture_on_commit_callbacks)  # ready
    assert match.phase == "hole_over" and match.seats_to_act == [1]
    started = timezone.now() - timedelta(seconds=100)
    Match.objects.filter(pk=match.pk).update(turn_started_at=started)
    with django_capture_on_commit_callbacks(execute=True):
        match_leave(match_id=match.id, user=carol)  # (who had said she was ready)
    match.refresh_from_db()
    assert match.seats_to_act == [1] and match.turn_started_at == started
