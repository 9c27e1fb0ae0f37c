"""COM turns, turn timers and the sweeper, with tasks run eagerly in this process."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from matches.models import FollowUp, FollowUpKind, Match, MatchEvent
from matches.selectors import match_view
from matches.services import com_turn, match_abort, match_act, match_create, match_join
from matches.store import load_state
from matches.tasks import sweep, turn_timer

pytestmark = pytest.mark.django_db


def events_of(match):
    return list(MatchEvent.objects.filter(match=match).order_by("seq"))


def test_a_stale_com_task_does_nothing(alice, django_capture_on_commit_callbacks):
    match = match_create(
        creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}]
    )  # COM not run
    assert com_turn(match_id=match.id, expected_version=match.version - 1) is False
    assert len(events_of(match)) == 2
    # the COM's first initial flip, once: that version is gone afterwards
    assert com_turn(match_id=match.id, expected_version=match.version) is True
    assert len(events_of(match)) == 3 and events_of(match)[-1].actor == "com:normal:1"
    assert com_turn(match_id=match.id, expected_version=match.version) is False


def test_com_turns_chain_until_a_human_must_act(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice,
            seats=[
                {"type": "me"},
                {"type": "com", "level": "normal"},
                {"type": "com", "level": "easy"},
            ],
        )
    for position in (0, 1):
        with django_capture_on_commit_callbacks(execute=True):
            match_act(
                match_id=match.id, user=alice, action={"type": "reveal", "position": position}
            )
    match.refresh_from_db()
    view = match_view(match, alice)
    assert view["seats_to_act"] == [0] and view["phase"] == "draw"
    actors = [e.actor for e in events_of(match)]
    assert actors.count("com:normal:1") == 2 and actors.count("com:easy:2") == 2


def timed_duel(alice, bob, timeout=60):
    match = match_create(
        creator=alice, seats=[{"type": "me"}, {"type": "open"}], turn_timeout=timeout
    )
    match_join(match_id=match.id, user=bob)
    for user, pos in ((alice, 0), (alice, 1), (bob, 0), (bob, 1)):
        match_act(match_id=match.id, user=user, action={"type": "reveal", "position": pos})
    match.refresh_from_db()
    return match


def test_a_seat_choosing_with_others_at_once_does_not_restart_their_clock(alice, bob):
    """The opening flips are chosen at once: alice's done gives bob no more time, and his
    timer is due when his wait began plus the timeout; the first draw is a new wait."""
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}], turn_timeout=60)
    match_join(match_id=match.id, user=bob)
    match.refresh_from_db()
    began = match.turn_started_at
    assert began is not None and match.seats_to_act == [0, 1]
    for pos in (0, 1):
        match_act(match_id=match.id, user=alice, action={"type": "reveal", "position": pos})
    match.refresh_from_db()
    assert match.seats_to_act == [1] and match.turn_started_at == began
    timer = FollowUp.objects.get(match=match, version=match.version, kind=FollowUpKind.TIMER)
    assert timer.due_at == began + timedelta(seconds=60)
    for pos in (0, 1):
        match_act(match_id=match.id, user=bob, action={"type": "reveal", "position": pos})
        match.refresh_from_db()
        assert match.turn_started_at == began or match.seats_to_act == [0]  # bob's one turn
    assert match.seats_to_act == [0] and match.turn_started_at > began  # alice draws: anew
    drawing = match.turn_started_at
    match_act(match_id=match.id, user=alice, action={"type": "draw"})
    match.refresh_from_db()
    assert match.turn_started_at == drawing  # the draw and its placement are one turn


def test_the_last_to_choose_who_acts_next_has_a_new_wait(alice, bob):
    """alice makes the last opening flip and draws first: that draw is a new wait."""
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}], turn_timeout=60)
    match_join(match_id=match.id, user=bob)
    for user, pos in ((bob, 0), (bob, 1), (alice, 0)):
        match_act(match_id=match.id, user=user, action={"type": "reveal", "position": pos})
    match.refresh_from_db()
    began = match.turn_started_at
    assert match.seats_to_act == [0]
    match_act(match_id=match.id, user=alice, action={"type": "reveal", "position": 1})
    match.refresh_from_db()
    assert (match.phase, match.seats_to_act) == ("draw", [0]) and match.turn_started_at > began


def timed_out_to_the_pause(alice, capture, seed, rules=None, match=None):
    """A one-human match against a COM (``match``, or a new one) whose every human turn
    the timer plays, up to the pause after a hole."""
    if match is None:
        with capture(execute=True):
            match = match_create(
                creator=alice,
                rules=rules or {"holes": 2, "initial_flips": 0},
                seats=[{"type": "me"}, {"type": "com", "level": "normal"}],
                turn_timeout=60,
                seed=seed,
            )
    for _ in range(300):
        match.refresh_from_db()
        if match.phase == "hole_over":
            return match
        assert match.seats_to_act == [0]
        late = timezone.now() - timedelta(seconds=61)
        Match.objects.filter(pk=match.pk).update(turn_started_at=late)
        with capture(execute=True):
            assert turn_timer.apply(args=(str(match.id), match.version)).get() >= 1
    raise AssertionError("the hole never ended")


def test_a_timer_plays_one_turn_and_leaves_the_pause_after_a_hole_to_its_player(
    alice, django_capture_on_commit_callbacks
):
    """The hole ends with the timer's move for alice; the timer stops there: reading the
    scores is a new wait of her own, not a 'next' made for her with the hole's last move."""
    for n in range(1, 20):
        match = timed_out_to_the_pause(alice, django_capture_on_commit_callbacks, bytes([n]) * 32)
        if events_of(match)[-1].actor == "timer:0":  # (not the COM's last move)
            break
        match_abort(match_id=match.id, user=alice)
    else:
        raise AssertionError("no hole ended on the timer's move")
    assert (match.phase, match.seats_to_act) == ("hole_over", [0])
    assert timezone.now() - match.turn_started_at < timedelta(seconds=30)  # a wait anew
    assert not MatchEvent.objects.filter(match=match, type="hole_acknowledged").exists()


def test_the_first_flip_after_the_pause_is_a_new_wait(alice, django_capture_on_commit_callbacks):
    """Opening flips one seat at a time; in hole 3 alice flips first, right after saying
    she is ready: a new hole, so a new wait, not what was left of the pause."""
    rules = {"holes": 3, "opening_flips": "in_turn"}
    match = timed_out_to_the_pause(alice, django_capture_on_commit_callbacks, bytes(32), rules)
    for hole in (1, 2):
        assert (match.phase, match.round) == ("hole_over", hole)
        long_ago = timezone.now() - timedelta(hours=1)
        Match.objects.filter(pk=match.pk).update(turn_started_at=long_ago)
        with django_capture_on_commit_callbacks(execute=True):
            match_act(match_id=match.id, user=alice, action={"type": "next"})
        if hole == 1:
            match = timed_out_to_the_pause(
                alice, django_capture_on_commit_callbacks, b"", match=match
            )
    match.refresh_from_db()
    assert (match.phase, match.round, match.seats_to_act) == ("flips", 3, [0])
    assert timezone.now() - match.turn_started_at < timedelta(seconds=30)


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        ({}, ["me", "me"]),  # simultaneous flips: the seats the pause waited for
        ({"opening_flips": "in_turn"}, ["me", "me", "com"]),  # fewer of them
        ({"initial_flips": 0}, ["me", "me"]),  # a first draw
    ],
)
def test_a_local_matchs_new_hole_has_a_new_wait(
    rules, seats, alice, django_capture_on_commit_callbacks
):
    """One ``next`` ends a local match's pause: the new hole's first seats are those the
    pause waited for, or some of them, and their turn is a new one, not what the scores'
    reading left of the pause (the timer played it at once)."""
    from games import get_game

    game = get_game("golf")
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice,
            rules={"holes": 2, "local": True, **rules},
            seats=[{"type": kind} for kind in seats],
            turn_timeout=60,
            round_pause_seconds=600,
            seed=bytes(32),
        )
    while match.phase != "hole_over":
        seat = match.seat_of_user(alice.pk)
        action = game.legal_actions(load_state(match), seat)[0]
        with django_capture_on_commit_callbacks(execute=True):
            match_act(match_id=match.id, user=alice, action=game.action_to_json(action))
        match.refresh_from_db()
    five_minutes_ago = timezone.now() - timedelta(minutes=5)  # the scores read for a while
    Match.objects.filter(pk=match.pk).update(turn_started_at=five_minutes_ago)
    paused_at = match.version
    with django_capture_on_commit_callbacks(execute=True):
        match_act(match_id=match.id, user=alice, action={"type": "next"})
    match.refresh_from_db()
    assert match.round == 2 and timezone.now() - match.turn_started_at < timedelta(seconds=30)
    assert not [e for e in events_of(match) if e.seq > paused_at and e.actor.startswith("timer")]


def test_the_sweeper_takes_a_timer_once_it_is_as_late_as_a_stall(
    alice, bob, django_assert_max_num_queries
):
    """The backstop re-sends a timer the outbox's countdown has not fired ``older_than``
    after its deadline (the deadline worked out in the query, not for every timed match
    in Python); not one that is not due yet (a day's, say), nor one just due."""
    from matches.tasks import stalled_matches

    matches = [timed_duel(alice, bob, timeout=86400) for _ in range(3)]  # due in a day
    late, later = matches[:2]
    for match, seconds in ((late, 86400 + 10), (later, 86400 + 60)):
        began = timezone.now() - timedelta(seconds=seconds)
        Match.objects.filter(pk=match.pk).update(turn_started_at=began)
    with django_assert_max_num_queries(2):
        stalled = stalled_matches(30)
    assert stalled == [(str(later.id), later.version, "timer")]
    assert {m for m, _, _ in stalled_matches(0)} == {str(late.id), str(later.id)}


def test_a_timed_out_turn_is_played_by_the_server(alice, bob):
    match = timed_duel(alice, bob)
    assert turn_timer.apply(args=(str(match.id), match.version)).get() == 0  # not yet due
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=61))
    moves = turn_timer.apply(args=(str(match.id), match.version)).get()
    assert moves == 2  # a draw and its placement: the whole turn
    auto = [e for e in events_of(match) if e.actor == "timer:0"]  # the timer, for seat 0
    assert [e.type for e in auto][:1] in (["card_drawn"],) and len(auto) >= 2
    match.refresh_from_db()
    mine = match_view(match, alice)
    assert mine["auto_moves"] == [e.seq for e in auto]
    assert mine["seats_to_act"] == [1]
    assert "auto_moves" not in match_view(match, None)


def test_a_coms_move_takes_no_less_than_its_recent_decisions_took(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A COM's forced move, decided at once, came out at once; a free one, searched, a tenth
    of a second or more later: a reader of the events' times learnt which (in Hearts: that
    the seat was void in the suit led)."""
    import time

    from games import get_game
    from matches import services

    settings.COM_EVEN_TIMING_MS = 1000
    monkeypatch.setattr(services, "decision_times", services.DecisionTimes())
    golf = get_game("golf")
    real = golf.com_action
    thinking = [0.3, 0.0]  # a slow decision, then one made at once

    def decide(state, seat, level, rng):
        time.sleep(thinking.pop(0))
        return real(state, seat, level, rng)

    monkeypatch.setattr(golf, "com_action", decide)
    with django_capture_on_commit_callbacks(execute=False):  # (the COM's turns run here)
        match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}])
    services.decision_times.note(("golf", "normal", match.phase), 9.0)  # (a cold one: not kept)
    took = []
    for _ in range(2):  # its two opening flips
        match.refresh_from_db()
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=False):
            assert com_turn(match_id=match.id, expected_version=match.version)
        took.append(time.monotonic() - started)
    assert took[0] >= 0.3 and took[1] >= 0.3  # the second waited as long as the first took
    # the move is decided without the row lock: a match that moved on meanwhile (alice
    # flipped as the COM decided its flip) is written nothing (alice's write set what next)
    with django_capture_on_commit_callbacks(execute=False):
        other = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}])

    def decide_as_alice_flips(state, seat, level, rng):
        with django_capture_on_commit_callbacks(execute=False):
            match_act(match_id=other.id, user=alice, action={"type": "reveal", "position": 0})
        return real(state, seat, level, rng)

    monkeypatch.setattr(golf, "com_action", decide_as_alice_flips)
    with django_capture_on_commit_callbacks(execute=False):
        assert not com_turn(match_id=other.id, expected_version=other.version)
    assert [e.actor for e in events_of(other)][-1] == f"user:{alice.pk}:0"


def test_on_a_worker_a_coms_move_to_wait_for_is_written_later_by_a_task_of_its_own(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A worker waiting out a COM's move held its place meanwhile: one account's COMs took
    a worker's time for their waits too. The move goes to a task with a countdown."""
    from matches import services

    settings.COM_EVEN_TIMING_MS = 1000
    monkeypatch.setattr(services, "decision_times", services.DecisionTimes())
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}])
    for seconds in (9.0, 0.4):  # a process's first (cold, not kept), then its slowest lately
        services.decision_times.note(("golf", "normal", match.phase), seconds)
    handed = []

    def later(*args):
        handed.append(args)

    assert com_turn(match_id=match.id, expected_version=match.version, later=later)
    ((seat, level, seconds),) = handed  # (not the move: a task's arguments may be logged)
    assert (seat, level) == (1, "normal") and 0.3 < seconds <= 0.4
    assert events_of(match)[-1].actor.startswith("user:")  # nothing written yet

    def undecidable(*args):
        raise AssertionError("the move kept is written, not decided again")

    monkeypatch.setattr(services, "decide_auto_move", undecidable)
    with django_capture_on_commit_callbacks(execute=False):
        kwargs = {"match_id": match.id, "seat": seat, "level": level}
        assert services.com_move_later(expected_version=match.version, **kwargs)
        assert not services.com_move_later(expected_version=match.version, **kwargs)  # stale
    assert events_of(match)[-1].actor == "com:normal:1"


def test_a_coms_move_to_be_written_later_is_not_in_its_tasks_message(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The task carried the move itself (a Hearts pass, a bid, the next card), and a
    worker logging at DEBUG, or one of an older release that did not know the task, wrote
    the message to its log. The move is kept in the cache; should the cache lose it, the
    task decides it again: the same move, from the same draw."""
    from django.core.cache import cache

    from matches import services, tasks

    settings.COM_EVEN_TIMING_MS = 1000
    monkeypatch.setattr(services, "decision_times", services.DecisionTimes())
    monkeypatch.setattr(tasks, "_eager", lambda: False)
    monkeypatch.setattr(tasks, "PROCESS_CACHES", ())  # (both tasks run here: one cache)
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(
            creator=alice,
            game="hearts",
            preset="hearts-classic",  # (passing)
            seats=[{"type": "me"}] + [{"type": "com"}] * 3,
        )
    for seconds in (9.0, 0.4):
        services.decision_times.note(("hearts", "normal", match.phase), seconds)
    sent = []
    monkeypatch.setattr(tasks.write_com_move, "apply_async", lambda **kw: sent.append(kw))
    assert tasks.play_com_turn.apply(args=(str(match.id), match.version)).get()
    (message,) = sent
    assert message["args"] == (str(match.id), match.version, 1, "normal")
    kept = cache.get(f"com-move:{match.id}:{match.version}:1")
    assert kept["type"] == "pass" and len(kept["cards"]) == 3
    cache.delete(f"com-move:{match.id}:{match.version}:1")  # lost: decided again
    with django_capture_on_commit_callbacks(execute=False):
        assert tasks.write_com_move.apply(args=message["args"]).get()
    passed = events_of(match)[-1]
    assert (passed.type, passed.actor, passed.payload["cards"]) == (
        "cards_passed",
        "com:normal:1",
        kept["cards"],
    )


def test_without_a_shared_cache_the_worker_waits_a_coms_move_out_itself(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The move kept for the task that writes it later sat in this process's own memory:
    the task, on another process, decided it again and wrote it that much later than the
    even timing allows."""
    from matches import services, tasks

    settings.COM_EVEN_TIMING_MS = 1000
    settings.CACHES = {**settings.CACHES, "default": {"BACKEND": tasks.PROCESS_CACHES[0]}}
    monkeypatch.setattr(services, "decision_times", services.DecisionTimes())
    monkeypatch.setattr(tasks, "_eager", lambda: False)
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}])
    for seconds in (9.0, 0.2):
        services.decision_times.note(("golf", "normal", match.phase), seconds)
    sent = []
    monkeypatch.setattr(tasks.write_com_move, "apply_async", lambda **kw: sent.append(kw))
    with django_capture_on_commit_callbacks(execute=False):
        assert tasks.play_com_turn.apply(args=(str(match.id), match.version)).get()
    assert sent == [] and events_of(match)[-1].actor == "com:normal:1"


def test_a_new_worker_process_holds_its_coms_moves_back_as_long_as_those_before_it(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A process began with no decision times of its own: its first COM moves of a kind
    came out as soon as decided, a forced one at once, telling it from a free one again.
    It now starts from the floor the processes before it published in the shared cache."""
    from django.core.cache import cache

    from matches import services

    settings.COM_EVEN_TIMING_MS = 1000
    cache.clear()
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}])
    key = ("golf", "normal", match.phase)
    published = "com-decision-floor:" + ":".join(key)
    earlier = services.DecisionTimes(shared=cache)  # a worker process that ran before
    earlier.WARM = 3
    for seconds in (9.0, 0.4, 0.1):  # (its first, cold, not kept): not warm yet
        earlier.note(key, seconds)
    assert cache.get(published) is None
    earlier.note(key, 0.2)  # warm: it publishes its floor
    assert cache.get(published) == 0.4
    handed = []

    def later(seat, level, seconds):
        handed.append(seconds)

    for process in (services.DecisionTimes(), services.DecisionTimes(shared=cache)):
        monkeypatch.setattr(services, "decision_times", process)  # a new one
        match.refresh_from_db()  # (its two opening flips, one each time)
        with django_capture_on_commit_callbacks(execute=False):
            assert com_turn(match_id=match.id, expected_version=match.version, later=later)
    # without the floor published before it, the first was taken as soon as decided;
    # with it, the second waits as long as the earlier process's slowest took
    assert events_of(match)[-1].actor == "com:normal:1"
    (waited,) = handed
    assert 0.3 < waited <= 0.4
    # a new process's quick decisions (a forced move) do not lower the floor published
    fresh = services.DecisionTimes(shared=cache)
    for seconds in (1.0, 0.001, 0.001):
        fresh.note(key, seconds)
    assert cache.get(published) == 0.4 and fresh.floor(key) == 0.4


def test_com_turns_count_toward_the_account_whose_moves_they_answer(
    alice, bob, staff, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """Bob joins alice's match against a COM and plays fast: the COM's turns counted toward
    alice's COM_TURNS_PER_MINUTE, putting off the COMs of her own matches, not bob's."""
    from django.core.cache import cache

    from games import get_game
    from matches import services
    from matches.services import seat_to_com

    settings.COM_TURNS_PER_MINUTE = 6
    now = timezone.now().replace(second=10, microsecond=0)
    monkeypatch.setattr(services.timezone, "now", lambda: now)
    cache.clear()
    golf = get_game("golf")
    lobby = match_create(
        creator=alice,
        spectate=True,
        rules={"initial_flips": 0},
        seats=[{"type": "open"}, {"type": "com", "level": "easy"}],
    )
    with django_capture_on_commit_callbacks(execute=True):
        match_join(match_id=lobby.id, user=bob)
    for _ in range(6):  # bob plays; the COM answers each turn (at once, eagerly)
        lobby.refresh_from_db()
        action = golf.legal_actions(load_state(lobby), 0)[0]
        with django_capture_on_commit_callbacks(execute=True):
            match_act(match_id=lobby.id, user=bob, action=golf.action_to_json(action))
    assert MatchEvent.objects.filter(match=lobby, actor__startswith="com:").count() >= 6
    minute = int(now.timestamp() // 60)
    assert cache.get(f"com-turns:{alice.pk}:interactive:{minute}") is None
    assert cache.get(f"com-turns:{bob.pk}:interactive:{minute}") >= 6
    with django_capture_on_commit_callbacks(execute=False):
        own = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}])
        bobs = match_create(creator=bob, seats=[{"type": "me"}, {"type": "com"}])
    due = {f.match_id: f.due_at for f in FollowUp.objects.filter(kind=FollowUpKind.COM)}
    assert due[own.id] == now and due[bobs.id] > now  # bob's own COM waits, not alice's
    # once COMs alone play it (bob's seat handed over), their turns are its creator's again
    lobby.refresh_from_db()
    assert lobby.com_turns_charged_to_id == bob.pk
    seat_to_com(match_id=lobby.id, seat=0, by=staff)
    lobby.refresh_from_db()
    assert lobby.com_turns_charged_to_id is None


def slow_com_turn(match, monkeypatch, seconds, on_commit):
    """The first COM turn of ``match`` (its COM to flip first), its decision taking
    ``seconds`` longer than it does."""
    from games import get_game

    golf = get_game("golf")
    quick = golf.com_action

    def slow(*args, **kwargs):
        time.sleep(seconds)
        return quick(*args, **kwargs)

    with monkeypatch.context() as patched, on_commit(execute=False):
        patched.setattr(golf, "com_action", slow)
        assert com_turn(match_id=match.id, expected_version=match.version)


@pytest.fixture
def paced_now(settings, monkeypatch):
    """COM turns paced at 6 s of decisions a minute (a second of them: 10 s of arrival
    time), with none paced before; the services' clock stopped at the moment returned."""
    from matches import services
    from matches.pacing import pacing

    settings.COM_SECONDS_PER_MINUTE = 6
    now = timezone.now()
    monkeypatch.setattr(services.timezone, "now", lambda: now)
    pacing().clear()
    yield now
    pacing().clear()


def test_an_accounts_com_turns_are_paced_by_their_decision_time(
    alice, bob, settings, monkeypatch, django_capture_on_commit_callbacks, paced_now
):
    """The turns were counted, not timed: a few accounts' `hard` COMs (a few hundred
    milliseconds a decision) filled the workers within their count."""
    settings.COM_BURST_MS = 500  # 5 s of arrival time at once
    now = paced_now
    seats = [{"type": "me"}, {"type": "com", "level": "normal"}]
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(creator=alice, seats=seats)  # the COM flips first
    slow_com_turn(match, monkeypatch, 1.05, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        alices = [match_create(creator=alice, seats=seats) for _ in range(2)]
        bobs = [match_create(creator=bob, seats=seats) for _ in range(2)]
        # COMs playing each other are paced apart, on their own queue
        watched = match_create(creator=alice, seats=[seats[1], seats[1]], spectate=True)
    due = {f.match_id: (f.due_at - now).total_seconds() for f in FollowUp.objects.all()}
    # alice's COM took 1.05 s: 10.5 s of arrival time, 5 of them past the burst; her
    # next turns wait that long, each later by the half second the one before reserved
    first, second = (due[m.id] for m in alices)
    assert 4.5 < first < 8 and second == pytest.approx(first + 0.5, abs=0.1)
    assert [due[m.id] for m in bobs] == [0, 0] and due[watched.id] == 0


def test_the_pace_of_an_accounts_com_turns_tells_nothing_of_a_decisions_time(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks, paced_now
):
    """Charged its own time, a COM's forced move (decided at once: a void shown) and a
    free one (a search) put the account's next COM turn off by times ten times apart,
    where the even timing of the move itself hides the difference. It is charged what
    its kind of decision takes lately instead."""
    from matches import services

    settings.COM_EVEN_TIMING_MS = 1000
    settings.COM_BURST_MS = 100  # 1 s of arrival time at once
    seats = [{"type": "me"}, {"type": "com", "level": "normal"}]
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(creator=alice, seats=seats)  # the COM flips first
    lately = services.DecisionTimes()  # its kind took 0.2 s lately
    for _ in range(31):  # (the first, a cold one, is not kept)
        lately.note(("golf", "normal", match.phase), 0.2)
    monkeypatch.setattr(services, "decision_times", lately)
    slow_com_turn(match, monkeypatch, 1.05, django_capture_on_commit_callbacks)  # 1.05 s
    with django_capture_on_commit_callbacks(execute=False):
        after = match_create(creator=alice, seats=seats)
    # charged 0.2 s (2 s of arrival time, 1 s past the burst, less the reservation's
    # 0.5 s), not 1.05 s (about 9 s past it)
    wait = (FollowUp.objects.get(match=after).due_at - paced_now).total_seconds()
    assert 0.1 < wait < 1.0


def test_a_com_turn_gone_stale_gives_back_what_it_reserved(
    alice, settings, django_capture_on_commit_callbacks, paced_now
):
    """A turn that went stale before it was decided (the match moved on, or ended) kept
    its reservation: half a second of arrival time the account's next turns waited for."""
    settings.COM_BURST_MS = 0  # (every reservation shows in the next turn's wait)
    seats = [{"type": "me"}, {"type": "com", "level": "normal"}]

    def next_wait() -> tuple[Match, float]:
        with django_capture_on_commit_callbacks(execute=False):
            match = match_create(creator=alice, seats=seats)  # the COM flips first
        wait = (FollowUp.objects.get(match=match).due_at - paced_now).total_seconds()
        return match, wait

    first, wait = next_wait()
    assert wait == pytest.approx(0, abs=0.1)
    with django_capture_on_commit_callbacks(execute=False):
        match_abort(match_id=first.id, user=alice)
    assert not com_turn(match_id=first.id, expected_version=first.version)  # stale
    second, wait = next_wait()
    assert wait == pytest.approx(0, abs=0.1)  # (0.5 s while the stale turn kept it)
    assert not com_turn(match_id=second.id, expected_version=second.version + 1)
    assert next_wait()[1] == pytest.approx(0.5, abs=0.1)  # (what the second reserved)


def test_a_stale_turn_settled_under_another_account_takes_nothing_off_it(
    alice, bob, settings, django_capture_on_commit_callbacks, paced_now
):
    """A stale turn gave its reservation back to the account the match's COM turns count
    toward now: after another player's move, that player's, whose own live reservation it
    cancelled."""
    settings.COM_BURST_MS = 0  # (every reservation shows in the next turn's wait)
    seats = [{"type": "me"}, {"type": "open"}, {"type": "com", "level": "normal"}]
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(creator=alice, seats=seats)
        match_join(match_id=match.id, user=bob)  # the COM's turn answers bob's join
    match.refresh_from_db()
    stale = match.version
    action = match_view(match, alice)["legal_actions"][0]
    with django_capture_on_commit_callbacks(execute=False):
        match_act(match_id=match.id, user=alice, action=action)  # now it answers alice's
    assert not com_turn(match_id=match.id, expected_version=stale)

    def next_wait(user) -> float:
        with django_capture_on_commit_callbacks(execute=False):
            made = match_create(creator=user, seats=[seats[0], seats[2]])
        return (FollowUp.objects.get(match=made).due_at - paced_now).total_seconds()

    assert next_wait(alice) == pytest.approx(0.5, abs=0.1)  # (her own turn's reservation)
    assert next_wait(bob) == pytest.approx(0.5, abs=0.1)  # (kept: it passes with time)


def test_a_com_turn_whose_write_is_not_made_is_not_counted(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A write that lost its race to another (made again under the lock) counted its COM
    turn twice toward the account's COM_TURNS_PER_MINUTE."""
    from django.core.cache import cache

    from matches import services

    settings.COM_TURNS_PER_MINUTE = 100
    with django_capture_on_commit_callbacks(execute=False):
        match = match_create(
            creator=alice, rules={"initial_flips": 0}, seats=[{"type": "me"}, {"type": "com"}]
        )
    cache.clear()
    real, calls = services.persist, []

    def another_write_first(*args, **kwargs):
        calls.append(1)
        return False if len(calls) == 2 else real(*args, **kwargs)

    monkeypatch.setattr(services, "persist", another_write_first)
    now = timezone.now().replace(second=10)
    monkeypatch.setattr(services.timezone, "now", lambda: now)  # (one minute's count)
    minute = int(now.timestamp() // 60)
    with django_capture_on_commit_callbacks(execute=False):
        match_act(match_id=match.id, user=alice, action={"type": "draw"})
        match_act(match_id=match.id, user=alice, action={"type": "discard"})
    assert len(calls) == 3 and FollowUp.objects.filter(match=match, kind="com").count() == 1
    assert cache.get(f"com-turns:{alice.pk}:interactive:{minute}") == 1


def test_a_timer_and_a_leaver_stand_in_at_a_level_the_game_has(alice, bob, carol):
    """A game need not have a ``normal`` COM (the toy has ``random`` and ``high``): the
    timer asked for one, and raised at every run and every sweep, the turn never made."""
    import games
    from matches.services import match_join, match_leave
    from tests.toy.game import TOY

    games.register(TOY)
    try:
        match = match_create(
            creator=alice,
            game="toy",
            seats=[{"type": "me"}, {"type": "open"}, {"type": "open"}],
            turn_timeout=30,
        )
        for user in (bob, carol):
            match_join(match_id=match.id, user=user)
        match.refresh_from_db()
        late = timezone.now() - timedelta(hours=1)
        Match.objects.filter(pk=match.pk).update(turn_started_at=late)
        assert turn_timer.apply(args=(str(match.id), match.version)).get() >= 1
        match.refresh_from_db()
        waiting = next(i for i in range(3) if i not in match.seats_to_act)
        match_leave(match_id=match.id, user=(alice, bob, carol)[waiting])
        assert {s.com_level for s in match.seats.all()} == {"", "high"}  # (the middle level)
    finally:
        games.unregister(TOY.info.name)


def test_a_players_timed_out_moves_are_read_from_an_index_of_the_timers_moves(alice, bob):
    """Listing them read every event of the match, on every read of a timed match."""
    from django.db import connection

    from matches.selectors import auto_moves

    match = timed_duel(alice, bob)
    with connection.cursor() as cursor:  # a long log (its events only read here)
        cursor.execute(
            "INSERT INTO golf_matchevent (id, match_id, seq, type, version, payload, actor, "
            "created_at, hash) SELECT gen_random_uuid(), %s, n, 'noted', 1, '{}', 'system', "
            "now(), '' FROM generate_series(%s, %s) AS n",
            [match.id, match.version + 1, match.version + 5000],
        )
        cursor.execute("ANALYZE golf_matchevent")
    plan = auto_moves(match, 0).explain(analyze=True)
    assert "golf_matchevent_p" in plan and "Seq Scan" not in plan, plan
    removed = [int(n) for n in re.findall(r"Rows Removed by Filter: (\d+)", plan)]
    assert sum(removed) < 10, plan  # (not the 5,000 events that are no timer's)


def test_a_timer_for_an_old_version_does_nothing(alice, bob):
    match = timed_duel(alice, bob)
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    assert turn_timer.apply(args=(str(match.id), match.version - 1)).get() == 0
    assert not any(e.actor.startswith("timer") for e in events_of(match))


def test_the_sweeper_restarts_a_stalled_com(alice, django_capture_on_commit_callbacks):
    match = match_create(
        creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}]
    )  # COM not run
    assert sweep(older_than=3600) == []
    begun = timezone.now() - timedelta(minutes=5)
    Match.objects.filter(pk=match.pk).update(turn_started_at=begun)
    FollowUp.objects.filter(match=match).update(due_at=begun)  # (due when it began)
    with django_capture_on_commit_callbacks(execute=True):
        stalled = sweep(older_than=60)
    assert stalled == [(str(match.id), match.version, "com")]
    assert [e.actor for e in events_of(match)].count("com:normal:1") == 2  # both COM flips


def test_the_sweeper_plays_timed_out_turns_and_has_a_command(alice, bob):
    match = timed_duel(alice, bob, timeout=30)
    Match.objects.filter(pk=match.pk).update(turn_started_at=timezone.now() - timedelta(seconds=31))
    out = StringIO()
    call_command("sweep_matches", "--older-than", "0", stdout=out)
    assert f"{match.id} at version {match.version}: timer re-enqueued" in out.getvalue()
    assert any(e.actor.startswith("timer:") for e in events_of(match))


def test_the_sweeps_command_says_what_it_sent_and_what_the_broker_refused(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    """By hand, in a broker's outage: the outbox's follow-ups published again went unsaid
    ("0 stalled match(es)"), and a match whose work the broker refused "re-enqueued"."""
    from matches import tasks

    with django_capture_on_commit_callbacks(execute=False):  # (the COM's turn not run)
        match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}])
    begun = timezone.now() - timedelta(minutes=5)
    Match.objects.filter(pk=match.pk).update(turn_started_at=begun)
    FollowUp.objects.filter(match=match).update(due_at=begun, next_attempt_at=begun)
    taken = []
    monkeypatch.setattr(tasks, "publish", lambda f: taken.append(f) or False)

    def swept() -> str:
        out = StringIO()
        call_command("sweep_matches", "--older-than", "0", stdout=out)
        return out.getvalue()

    said = swept()
    work = f"{match.id} at version {match.version}: com"
    assert f"{work} the broker did not take it" in said and "1 from the outbox" in said
    FollowUp.objects.filter(match=match).delete()  # (the backstop's, then)
    said = swept()
    assert f"{work} the broker did not take it" in said and "1 stalled match(es)" in said
    monkeypatch.setattr(tasks, "publish", lambda f: True)
    assert f"{work} re-enqueued" in swept()


def test_a_followup_waits_in_the_outbox_until_the_broker_takes_it(alice, monkeypatch):
    """The broker is away when the match is created: the write stands, the COM's turn is
    kept in the outbox, and the sweeper publishes it once the broker is back."""
    from datetime import timedelta

    from kombu.exceptions import OperationalError

    from matches import tasks
    from matches.models import FollowUp

    def broker_away(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker")

    sent = []
    monkeypatch.setattr(tasks, "_eager", lambda: False)
    monkeypatch.setattr(tasks.play_com_turn, "apply_async", broker_away)
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}])
    row = FollowUp.objects.get(match=match)
    assert (row.version, row.kind, row.queue) == (match.version, "com", "interactive")
    assert tasks.publish(row) is False  # logged, not raised

    monkeypatch.setattr(tasks.play_com_turn, "apply_async", lambda **kw: sent.append(kw))
    assert tasks.republish_due() == []  # not due yet
    FollowUp.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    assert [f.pk for f in tasks.republish_due()] == [row.pk]
    assert sent == [
        {"args": (str(match.id), match.version), "queue": "interactive", "countdown": None}
    ]
    row.refresh_from_db()
    assert row.attempts == 1 and row.next_attempt_at > timezone.now()
    # work tried for months stays at the count's limit (past it every sweep failed)
    FollowUp.objects.update(attempts=32767, next_attempt_at=timezone.now())
    assert [f.pk for f in tasks.republish_due()] == [row.pk]
    row.refresh_from_db()
    assert row.attempts == 32767 and row.next_attempt_at > timezone.now()

    # the task runs: the COM's move is written and the follow-up of that version is gone
    assert com_turn(match_id=match.id, expected_version=match.version) is True
    assert not FollowUp.objects.filter(match=match, version=match.version).exists()
    # a second copy does nothing
    assert com_turn(match_id=match.id, expected_version=match.version) is False


def test_a_timer_due_later_waits_in_the_outbox_and_is_sent_a_minute_before(
    alice, bob, monkeypatch, settings
):
    """A broker never holds a task counting down for hours: a turn timer due in an hour is
    not sent at the write; the sweeper sends it FOLLOWUP_PUBLISH_AHEAD_SECONDS before it is
    due, and tries again only after it is due."""
    from matches import tasks

    sent = []
    monkeypatch.setattr(tasks, "_eager", lambda: False)
    monkeypatch.setattr(tasks.turn_timer, "apply_async", lambda **kw: sent.append(kw))
    match = timed_duel(alice, bob, timeout=3600)
    row = FollowUp.objects.get(match=match, version=match.version)
    assert row.kind == FollowUpKind.TIMER and sent == []
    ahead = timedelta(seconds=settings.FOLLOWUP_PUBLISH_AHEAD_SECONDS)
    assert row.next_attempt_at == row.due_at - ahead
    assert tasks.republish_due() == []  # not yet

    # an hour on, less the minute: the due time is half a minute off
    due = timezone.now() + timedelta(seconds=30)
    FollowUp.objects.filter(pk=row.pk).update(due_at=due, next_attempt_at=due - ahead)
    assert [f.pk for f in tasks.republish_due()] == [row.pk]
    assert len(sent) == 1 and sent[0]["queue"] == "interactive"
    assert 0 < sent[0]["countdown"] <= 30
    row.refresh_from_db()
    assert row.next_attempt_at > due  # the next try only once the timer should have run


def test_the_sweeper_keeps_a_match_of_coms_on_the_background_queue(
    alice, staff, monkeypatch, settings
):
    from matches import services, tasks

    sent = []
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}])
    services.seat_to_com(match_id=match.id, seat=0, by=staff)
    monkeypatch.setattr(tasks, "_eager", lambda: False)
    monkeypatch.setattr(tasks.play_com_turn, "apply_async", lambda **kw: sent.append(kw))
    match.refresh_from_db()
    assert tasks.republish(match.id, match.version, FollowUpKind.COM) is True
    assert [kw["queue"] for kw in sent] == [settings.BACKGROUND_QUEUE]


def test_the_sweeper_sends_a_stuck_match_s_work_once_per_stall_not_every_beat(alice, monkeypatch):
    """A match whose COM never moves (its task lost each time) is sent again by the outbox
    on its doubling back-off, and by the backstop at most once per COM_STALL_SECONDS: not
    at every beat. By hand (older than 0) the sweep sends it at once."""
    from django.core.cache import cache

    from matches import tasks

    cache.clear()
    sent = []
    monkeypatch.setattr(tasks, "_eager", lambda: False)
    monkeypatch.setattr(tasks.play_com_turn, "apply_async", lambda **kw: sent.append(kw))
    monkeypatch.setattr(tasks.turn_timer, "apply_async", lambda **kw: sent.append(kw))
    match = match_create(
        creator=alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}], turn_timeout=10
    )
    begun = timezone.now() - timedelta(minutes=5)
    Match.objects.filter(pk=match.pk).update(turn_started_at=begun)
    FollowUp.objects.update(due_at=begun, next_attempt_at=timezone.now() - timedelta(seconds=1))
    for _ in range(6):  # half a minute of beats
        sweep(older_than=30)
    # the outbox's row once (its next try 20 s on), then the backstop's COM turn and
    # timer once each: 3, where every beat sent two more before
    assert len(sent) == 3
    assert FollowUp.objects.get(match=match).attempts == 1
    sweep(older_than=0)
    assert len(sent) == 5  # the COM's turn and the timer, sent again at once


def test_lobbies_nobody_joined_in_time_expire(alice, bob, settings):
    """A lobby is listed to everyone: one left waiting for LOBBY_EXPIRY_HOURS is aborted
    (by the system, its seed revealed as any abort's), a lobby with a recent join is not,
    nor a match under way for that long."""
    from django.conf import settings as live

    from matches.tasks import expire_idle

    entry = live.CELERY_BEAT_SCHEDULE["expire-idle-matches"]
    assert entry["task"] == "matches.tasks.expire_idle_matches"
    assert entry["options"]["queue"] == live.BACKGROUND_QUEUE
    settings.LOBBY_EXPIRY_HOURS = 24
    seats = [{"type": "me"}, {"type": "open"}, {"type": "open"}]
    idle = match_create(creator=alice, preset="nine-card", seats=seats)
    joined = match_create(creator=alice, preset="nine-card", seats=seats)
    playing = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    long_ago = timezone.now() - timedelta(hours=25)
    Match.objects.filter(pk__in=[idle.pk, joined.pk, playing.pk]).update(updated_at=long_ago)
    match_join(match_id=joined.id, user=bob)  # a join now: the lobby is alive
    match_join(match_id=playing.id, user=bob)
    Match.objects.filter(pk=playing.pk).update(updated_at=long_ago)
    assert expire_idle() == [str(idle.id)]
    idle.refresh_from_db()
    assert idle.status == "aborted"
    last = events_of(idle)[-1]
    assert last.type == "match_aborted" and last.actor == "system"
    assert last.payload["reason"] == "expired: no one joined in time"
    assert {m.status for m in Match.objects.filter(pk__in=[joined.pk, playing.pk])} == {
        "waiting",
        "active",
    }
    assert expire_idle() == []  # (once)


def test_a_match_nobody_moved_in_for_match_idle_days_expires(alice, bob, settings):
    """A match under way without a turn timer, its player to act gone: the places it holds
    among its players' unfinished matches are given back after MATCH_IDLE_DAYS, by the
    system's abort; a match moved in since is kept, as is a finished one."""
    from matches.tasks import expire_idle

    settings.MATCH_IDLE_DAYS = 30
    stuck, moving = (timed_duel(alice, bob, timeout=None) for _ in range(2))
    long_ago = timezone.now() - timedelta(days=31)
    Match.objects.filter(pk__in=[stuck.pk, moving.pk]).update(updated_at=long_ago)
    match_act(match_id=moving.id, user=alice, action={"type": "draw"})  # a move now
    assert expire_idle() == [str(stuck.id)]
    stuck.refresh_from_db()
    assert stuck.status == "aborted" and stuck.seed_commitment
    last = events_of(stuck)[-1]
    assert last.type == "match_aborted" and last.actor == "system"
    assert last.payload["reason"] == "expired: no one moved in time"
    assert Match.objects.get(pk=moving.pk).status == "active"
    assert expire_idle() == []


def test_periodic_tasks_wait_behind_a_busy_queue_and_their_copies_return_at_once(monkeypatch):
    """A sweep dropped as soon as the next was due left a queue more than an interval
    behind with no sweep at all (no lost work re-sent, no timer due later published); now
    it waits its turn, and the copies beat queued meanwhile do nothing."""
    from django.conf import settings as live
    from django.core.cache import cache

    from matches import tasks

    for entry in live.CELERY_BEAT_SCHEDULE.values():
        assert entry["options"]["expires"] >= 3600 > entry["schedule"]
    runs = []
    monkeypatch.setattr(tasks, "sweep", lambda: runs.append("sweep") or [])
    monkeypatch.setattr(tasks, "expire_idle", lambda: runs.append("expire") or [])
    cache.delete_many(["periodic:sweep", "periodic:expire-idle"])
    for _ in range(3):  # a pile of copies, run one after the other
        tasks.sweep_stalled.apply()
        tasks.expire_idle_matches.apply()
    assert runs == ["sweep", "expire"]


def test_a_match_that_cannot_expire_is_passed_over_not_left_to_stop_every_expiry(
    alice, settings, caplog
):
    from matches.tasks import expire_idle

    settings.LOBBY_EXPIRY_HOURS = 24
    seats = [{"type": "me"}, {"type": "open"}]
    broken, idle = (match_create(creator=alice, seats=seats) for _ in range(2))
    Match.objects.filter(pk=broken.pk).update(  # the oldest: a game no longer registered
        game="canasta", updated_at=timezone.now() - timedelta(hours=30)
    )
    Match.objects.filter(pk=idle.pk).update(updated_at=timezone.now() - timedelta(hours=25))
    assert expire_idle() == [str(idle.id)]
    assert Match.objects.get(pk=broken.pk).status == "waiting"
    assert f"could not expire match {broken.id}" in caplog.text


def test_a_task_out_of_time_stops_publishing(alice, monkeypatch):
    """The soft time limit was taken for a broker away, logged, and the loop went on until
    the hard limit killed the worker's process."""
    from celery.exceptions import SoftTimeLimitExceeded

    from matches import tasks

    def out_of_time(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(tasks, "_eager", lambda: False)
    monkeypatch.setattr(tasks.play_com_turn, "apply_async", out_of_time)
    followup = FollowUp(
        match_id=match_create(creator=alice, seats=[{"type": "me"}, {"type": "com"}]).id,
        version=2,
        kind=FollowUpKind.COM,
        queue="interactive",
        due_at=timezone.now(),
    )
    with pytest.raises(SoftTimeLimitExceeded):
        tasks.publish(followup)


def test_an_accounts_com_turns_past_their_rate_are_put_off_and_spread(
    alice, bob, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The workers' time one account's matches take was bounded only by its actions' rate
    times its COMs: every COM turn of its matches went at once, before anyone else's."""
    from django.core.cache import cache

    from matches import services, tasks
    from ops.selectors import stalled

    settings.COM_TURNS_PER_MINUTE = 2
    settings.MAX_UNFINISHED_COM_MATCHES = 10
    minute = timezone.now().replace(second=10, microsecond=0)
    monkeypatch.setattr(services.timezone, "now", lambda: minute)
    cache.clear()
    seats = [{"type": "me"}, {"type": "com", "level": "normal"}]
    coms = [{"type": "com", "level": "easy"}, {"type": "com", "level": "normal"}]
    with django_capture_on_commit_callbacks(execute=False):  # (the COMs' turns not run)
        watched = [match_create(creator=alice, seats=coms, spectate=True) for _ in range(3)]
        made = [match_create(creator=alice, seats=seats) for _ in range(5)]
        others = match_create(creator=bob, seats=seats)
    due = {f.match_id: f.due_at for f in FollowUp.objects.filter(kind=FollowUpKind.COM)}
    # COMs playing each other (the background queue) are counted apart: they put off
    # their own third turn, not the COMs alice plays against
    assert [due[m.id] for m in watched][2] > minute
    # alice's first two COM turns are due now, the next two spread over the next minute
    # (counted in it), her fifth the minute after; bob's now
    next_minute = minute.replace(second=0) + timedelta(minutes=1)
    assert [due[m.id] for m in made] == [
        minute,
        minute,
        next_minute,
        next_minute + timedelta(seconds=30),
        next_minute + timedelta(minutes=1),
    ]
    assert due[others.id] == minute
    # and a turn put off is no stall until it has been due as long as a stall
    monkeypatch.undo()
    now, stall = timezone.now(), timedelta(seconds=settings.COM_STALL_SECONDS + 5)
    made, later = made[:3], made[3:]
    Match.objects.filter(pk__in=[m.id for m in [*made, others]]).update(turn_started_at=now - stall)
    Match.objects.filter(pk__in=[m.id for m in [*watched, *later]]).update(turn_started_at=now)
    FollowUp.objects.filter(kind=FollowUpKind.COM).update(due_at=now - stall)
    FollowUp.objects.filter(match_id=made[2].id).update(due_at=now + timedelta(seconds=50))
    late = {
        match_id for match_id, _version, _kind in tasks.stalled_matches(settings.COM_STALL_SECONDS)
    }
    assert late == {str(made[0].id), str(made[1].id), str(others.id)}
    assert {s.match_id for s in stalled()} == late
    # once the turn put off is late too, the dashboard counts its wait from when it was due
    FollowUp.objects.filter(match_id=made[2].id).update(due_at=now - stall)
    Match.objects.filter(pk=made[2].id).update(turn_started_at=now - 3 * stall)
    shown = {s.match_id: s.waiting_since for s in stalled()}
    assert shown[str(made[2].id)] == now - stall


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "99999999999999999999", "soon"])
def test_sweep_matches_refuses_a_threshold_that_is_no_number_of_seconds(value):
    with pytest.raises(CommandError, match="--older-than"):
        call_command("sweep_matches", "--older-than", value, stdout=StringIO())


def test_verify_match_takes_ids_or_all_not_both(alice):
    match = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
    with pytest.raises(CommandError, match="give match ids or --all, not both"):
        call_command("verify_match", "--all", str(match.id), stdout=StringIO())
