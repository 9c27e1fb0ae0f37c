"""A stream or long-poll a player opened before their seat was handed to a COM (a
suspension, or staff's seat_to_com) reads on as a spectator: the COM's cards, and the
cards passed to its seat, are not the former player's to see."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api import push
from matches import selectors
from matches.models import Match
from matches.selectors import events_of_seat, match_view
from matches.services import match_act, match_create, match_join, seat_to_com
from tests.api.test_push import get, run


def hearts_table(django_user_model) -> tuple[Match, list[Any], Any]:
    """Four people at a Hearts table, all to choose their pass; and an operator."""
    make = django_user_model.objects.create_user
    people = [make(f"player{i}", password="pw-player-123") for i in range(4)]
    operator = make("olga", password="pw-olga-123", is_staff=True)
    match = match_create(
        creator=people[0],
        game="hearts",
        preset="hearts-classic",
        rules={},
        seats=[{"type": "me"}] + [{"type": "open"}] * 3,
    )
    for user in people[1:]:
        match_join(match_id=match.id, user=user)
    match.refresh_from_db()
    assert match.phase == "passing" and 1 in match.seats_to_act
    return match, people, operator


def hand_over_seat_1_and_pass(match: Match, people: list[Any], operator: Any) -> int:
    """Seat 1 goes to a COM (which chooses its pass), the three others pass: the passes
    are exchanged, seat 1's COM receiving three of seat 0's cards. The version after."""
    seat_to_com(match_id=match.id, seat=1, by=operator)
    for seat in (0, 2, 3):
        match.refresh_from_db()
        action = match_view(match, people[seat])["legal_actions"][0]
        match_act(match_id=match.id, user=people[seat], action=action)
    match.refresh_from_db()
    return match.version


def as_a_spectator(match: Match, after: int) -> list[dict[str, Any]]:
    match.refresh_from_db()
    events = events_of_seat(match, None, after=after)
    assert any(e["type"] == "passes_exchanged" for e in events)
    return events


@pytest.mark.django_db
def test_a_stream_opened_before_the_handover_reads_on_as_a_spectator(
    django_user_model, settings, django_capture_on_commit_callbacks
):
    settings.PUSH_STREAM_MAX_SECONDS = 0  # a stream sends what there is, then ends
    with django_capture_on_commit_callbacks(execute=True):
        match, people, operator = hearts_table(django_user_model)
    after = match.version
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people[1]).key}")
    # given the stream opened while seat 1 was still player1's (it is read as it is sent)
    stream = client.get(
        f"/api/matches/{match.id}/stream", {"after": after}, HTTP_ACCEPT="application/x-ndjson"
    )
    assert stream.status_code == 200
    # when the seat is handed to a COM, and the passes are exchanged
    with django_capture_on_commit_callbacks(execute=True):
        hand_over_seat_1_and_pass(match, people, operator)
    # then the rest of the stream is what a spectator sees
    lines = b"".join(stream.streaming_content).decode().splitlines()
    assert [json.loads(line) for line in lines if line] == as_a_spectator(match, after)


@pytest.mark.django_db(transaction=True)
def test_the_routers_stream_reads_on_as_a_spectator_after_the_handover(django_user_model):
    from config.asgi import application

    match, people, operator = hearts_table(django_user_model)
    after = match.version
    token = Token.objects.create(user=people[1]).key
    connections.close_all()

    def handed_over() -> int:
        try:
            return hand_over_seat_1_and_pass(match, people, operator)
        finally:
            connections.close_all()

    async def body() -> list[dict[str, Any]]:
        reply = await get(
            application,
            f"/api/matches/{match.id}/stream",
            token,
            {"after": after},
            Accept="application/x-ndjson",
        )
        assert reply.status == 200
        last = await sync_to_async(handed_over)()
        lines: list[dict[str, Any]] = []
        while not lines or lines[-1]["seq"] < last:
            chunk = await asyncio.wait_for(reply.chunks.get(), 10)
            assert chunk is not None
            lines += [json.loads(line) for line in chunk.decode().splitlines() if line]
        await reply.disconnect()
        return lines

    streamed = run(body)
    assert streamed == as_a_spectator(match, after)[: len(streamed)]


def _handover_between_the_seat_and_the_events(
    monkeypatch, on_commit, match, people, operator
) -> None:
    """The seat handed to a COM, and the passes exchanged, after a reader has read whose
    the seat is and before it reads the events (the one moment a race can fall in)."""
    real = selectors.events_of_seat
    done: list[int] = []

    def interleaved(m: Match, seat: int | None, **kw: Any) -> list[dict[str, Any]]:
        if not done:
            with on_commit(execute=True):  # (the COM's pass is a task sent on commit)
                done.append(hand_over_seat_1_and_pass(Match.objects.get(pk=m.pk), people, operator))
        return real(m, seat, **kw)

    monkeypatch.setattr(selectors, "events_of_seat", interleaved)


@pytest.mark.django_db
def test_a_handover_between_the_seat_read_and_the_events_read_shows_nothing_new(
    django_user_model, monkeypatch, django_capture_on_commit_callbacks
):
    match, people, operator = hearts_table(django_user_model)
    after = match.version
    _handover_between_the_seat_and_the_events(
        monkeypatch, django_capture_on_commit_callbacks, match, people, operator
    )
    # the page is the match as it was when the seat was read: nothing after it
    page = push.events_page(str(match.id), 1, people[1].pk, after, 500)
    assert page["events"] == [] and page["version"] == after and not page["has_more"]
    # and the next read sees the seat handed over: the passes as a spectator sees them
    page = push.events_page(str(match.id), 1, people[1].pk, after, 500)
    assert page["events"] == as_a_spectator(match, after)


@pytest.mark.django_db
def test_the_events_list_read_across_a_handover_shows_nothing_new(
    django_user_model, monkeypatch, django_capture_on_commit_callbacks
):
    match, people, operator = hearts_table(django_user_model)
    after = match.version
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people[1]).key}")
    _handover_between_the_seat_and_the_events(
        monkeypatch, django_capture_on_commit_callbacks, match, people, operator
    )
    body = client.get(f"/api/matches/{match.id}/events", {"after": after}).json()
    assert body == {"events": [], "version": after, "next_after": after, "has_more": False}
    body = client.get(f"/api/matches/{match.id}/events", {"after": after}).json()
    assert body["events"] == as_a_spectator(match, after)
