"""Operators browse and audit matches in the admin; events can never be edited there."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from matches.models import Match, MatchEvent, MatchStatus
from matches.services import match_create

pytestmark = pytest.mark.django_db


def test_match_list_filters_and_search(admin_client, duel):
    url = reverse("admin:golf_match_changelist")
    assert admin_client.get(url).status_code == 200
    page = admin_client.get(url, {"status__exact": "active", "q": "alice"})
    assert page.status_code == 200 and str(duel.id) in page.content.decode()
    assert str(duel.id) not in admin_client.get(url, {"status__exact": "finished"}).content.decode()


def test_match_page_shows_seats_and_links(admin_client, duel):
    page = admin_client.get(reverse("admin:golf_match_change", args=[duel.id]))
    body = page.content.decode()
    assert page.status_code == 200 and "alice" in body and "state at version" in body


def test_state_page_hides_face_down_cards_while_running(admin_client, duel):
    url = reverse("admin:golf_match_state", args=[duel.id])
    page = admin_client.get(url, {"version": 2})
    body = page.content.decode()
    assert page.status_code == 200 and "the spectator's view" in body
    assert "&quot;grids&quot;" in body and "hole 1 of" in body  # the game's view, its words
    dealt = MatchEvent.objects.get(match=duel, type="hole_dealt").payload
    for code in dealt["grids"][0] + dealt["grids"][1]:
        assert f"&quot;{code}&quot;" not in body


def test_the_list_verifies_a_bounded_selection(admin_client, duel, monkeypatch):
    """ "Select all" takes every match the filters find: past the bound, none is verified
    in the request, and the page says how to verify them all."""
    from django.contrib.admin.models import LogEntry

    from matches.admin import MatchAdmin

    monkeypatch.setattr(MatchAdmin, "VERIFY_AT_ONCE", 1)
    match_create(creator=duel.created_by, seats=[{"type": "me"}, {"type": "com"}])
    url = reverse("admin:golf_match_changelist")
    every = {"action": "verify_selected", "select_across": "1", "index": "0"}
    page = admin_client.post(url, {**every, "_selected_action": [duel.id]}, follow=True)
    assert "2 matches selected: the list verifies at most 1 at once" in page.content.decode()
    assert not LogEntry.objects.filter(change_message__startswith="Verified").exists()
    one = {"action": "verify_selected", "_selected_action": [duel.id]}
    assert "OK" in admin_client.post(url, one, follow=True).content.decode()
    assert LogEntry.objects.filter(change_message__startswith="Verified").count() == 1


def test_events_are_read_only(admin_client, duel):
    event = MatchEvent.objects.filter(match=duel).first()
    change = reverse("admin:golf_matchevent_change", args=[event.pk])
    page = admin_client.get(change)
    assert page.status_code == 200 and "payload" in page.content.decode()
    response = admin_client.post(change, {"type": "forged"})
    assert response.status_code == 403
    assert (
        admin_client.post(reverse("admin:golf_matchevent_delete", args=[event.pk])).status_code
        == 403
    )
    assert admin_client.get(reverse("admin:golf_matchevent_add")).status_code == 403
    event.refresh_from_db()
    assert event.type == "match_started"


def test_verify_and_abort_actions(admin_client, duel):
    url = reverse("admin:golf_match_changelist")
    page = admin_client.post(
        url, {"action": "verify_selected", "_selected_action": [duel.id]}, follow=True
    )
    assert "OK" in page.content.decode()
    body = {"action": "abort_selected", "_selected_action": [duel.id], "post": "yes"}
    admin_client.post(url, body, follow=True)
    duel.refresh_from_db()
    assert duel.status == MatchStatus.ABORTED
    assert Match.objects.get(pk=duel.id).events.last().type == "match_aborted"


def test_hashes_that_can_be_guessed_are_shown_only_once_the_match_has_ended(admin_client, duel):
    """A hash of an older, unkeyed chain is SHA-256 over the event's payload: while the
    match runs, staff could find a hidden card or pass by trying each, and so under the
    development setup's key, which the source gives. A chain's under a secret key (an
    HMAC) tells nothing, so it is shown."""
    event = MatchEvent.objects.get(match=duel, type="hole_dealt")
    pages = {
        "event": reverse("admin:golf_matchevent_change", args=[event.pk]),
        "match": reverse("admin:golf_match_change", args=[duel.id]),
    }
    hashes = {"event": event.hash, "match": duel.last_hash}

    def shown():
        return {
            name: hashes[name] in admin_client.get(url).content.decode()
            for name, url in pages.items()
        }

    assert shown() == {"event": True, "match": True}  # keyed
    Match.objects.filter(pk=duel.pk).update(chain_key_id="")  # as a match from before keys
    assert shown() == {"event": False, "match": False}
    # keyed, but by the key a development setup falls back to: written in the source, so
    # an HMAC under it is tried as easily as a plain hash
    Match.objects.filter(pk=duel.pk).update(chain_key_id="dev")
    with override_settings(EVENT_CHAIN_KEYS={**settings.EVENT_CHAIN_KEYS, "dev": bytes(32)}):
        assert shown() == {"event": False, "match": False}
        Match.objects.filter(pk=duel.pk).update(status=MatchStatus.ABORTED)
        assert shown() == {"event": True, "match": True}
    Match.objects.filter(pk=duel.pk).update(chain_key_id="")
    assert shown() == {"event": True, "match": True}
