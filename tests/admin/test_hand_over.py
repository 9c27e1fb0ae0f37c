"""An operator hands one player's seat of a running match to a COM from the match's page
(``golf.hand_over_seat``), asked first, for a reason the admin's log keeps."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse

from matches.models import MatchEvent, Seat, SeatKind
from tests.admin.test_match_page import end, played, staff_with

pytestmark = pytest.mark.django_db

REASON = "gone for a month, no turn timer"


@pytest.fixture
def players(django_user_model):
    make = django_user_model.objects.create_user
    return [make(f"player{i}", password="pw-player-123") for i in range(4)]


def urls(match, index=1):
    return (
        reverse("admin:golf_match_state", args=[match.id]),
        reverse("admin:golf_match_hand_over", args=[match.id, index]),
    )


def test_a_seat_is_handed_over_for_a_reason_after_a_confirmation(
    django_user_model, players, django_capture_on_commit_callbacks
):
    match = played(players, "golf", "six-card", 2, 1)
    client = staff_with(django_user_model, "hal", "hand_over_seat")
    page, hand_over = urls(match)
    assert hand_over in client.get(page).content.decode()
    asked = client.get(hand_over).content.decode()
    assert "Hand seat 1 (player1)" in asked and "loses the seat for good" in asked
    assert client.post(hand_over, {"reason": ""}).status_code == 200  # a reason is needed
    assert Seat.objects.get(match=match, index=1).kind == SeatKind.HUMAN
    with django_capture_on_commit_callbacks(execute=False):  # (the COM waits)
        done = client.post(hand_over, {"reason": REASON})
    assert done.status_code == 302 and done["Location"] == page
    seat = Seat.objects.get(match=match, index=1)
    assert (seat.kind, seat.user_id, seat.handed_from) == (SeatKind.COM, None, players[1])
    last = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    staff_id = django_user_model.objects.get(username="hal").pk
    assert (last.type, last.actor) == ("seat_handed_over", f"staff:{staff_id}")
    logged = LogEntry.objects.get(object_id=str(match.id))
    assert logged.change_message == f"Handed seat 1 (player1) to a COM; reason: {REASON}"
    assert REASON not in str(last.payload)  # (the reason is staff's: not in the match's log)
    # no longer a player's: not offered, and refused if asked for
    assert hand_over not in client.get(page).content.decode()
    again = client.post(hand_over, {"reason": REASON}, follow=True).content.decode()
    assert "the seat is not a player&#x27;s" in again


def test_it_needs_the_permission_and_a_running_match(django_user_model, players):
    match = played(players, "hearts", "hearts-classic", 4, 3)
    page, hand_over = urls(match)
    clerk = staff_with(django_user_model, "cleo")
    assert hand_over not in clerk.get(page).content.decode()
    assert clerk.get(hand_over).status_code == 403
    assert clerk.post(hand_over, {"reason": REASON}).status_code == 403
    end(match, django_user_model)
    allowed = staff_with(django_user_model, "hal", "hand_over_seat")
    assert hand_over not in allowed.get(page).content.decode()
    refused = allowed.post(hand_over, {"reason": REASON}, follow=True).content.decode()
    assert "the match has ended: nothing handed over" in refused
    assert Seat.objects.get(match=match, index=1).kind == SeatKind.HUMAN


def test_a_hand_over_is_not_made_without_its_record(django_user_model, players, monkeypatch):
    """The seat handed over and the admin's log entry are written together, or neither."""
    from matches.admin import MatchAdmin

    def broken(*args, **kwargs):
        raise RuntimeError("the admin's log is unwritable")

    match = played(players, "golf", "six-card", 2, 1)
    monkeypatch.setattr(MatchAdmin, "log_change", broken)
    client = staff_with(django_user_model, "hal", "hand_over_seat")
    client.raise_request_exception = False
    assert client.post(urls(match)[1], {"reason": REASON}).status_code == 500
    assert Seat.objects.get(match=match, index=1).kind == SeatKind.HUMAN
    assert not MatchEvent.objects.filter(match=match, type="seat_handed_over").exists()
