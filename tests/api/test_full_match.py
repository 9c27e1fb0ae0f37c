"""A whole match through the API, and what each reader sees along the way."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command

from cards.deck import is_card_code
from matches.models import Match
from matches.store import load_state, state_at
from tests.golf.invariants import cards_in, visible_cards


def readable(client, match_id, version):
    """Everything a client can read about a match, as one JSON-like list."""
    return [
        client.get(f"/api/matches/{match_id}").json(),
        client.get(f"/api/matches/{match_id}/events", {"limit": 500}).json(),
        client.get(f"/api/matches/{match_id}/states/{version}").json(),
    ]


def assert_no_leak(client, seat, match_id):
    match = Match.objects.get(pk=match_id)
    state = load_state(match)
    if state.ended:  # everything is revealed at the end
        return
    data = readable(client, match_id, match.version)
    text = json.dumps(data)
    where = text.find(state.seed.hex())
    assert where < 0, text[max(0, where - 300) : where + 80]
    # the match view and the state at the current version: only cards this seat may see
    for item in (data[0]["view"], data[2]):
        leaked = cards_in(item) - visible_cards(state, seat)
        assert not leaked, (seat, leaked)
    for event in data[1]["events"]:
        payload = event["data"]
        if event["type"] in ("hole_dealt", "stock_reshuffled"):
            assert payload["stock"] is None
        if event["type"] == "hole_dealt":
            assert not cards_in(payload["grids"])
        if event["type"] == "card_drawn" and payload["source"] == "stock":
            assert payload["card"] is None or payload["seat"] == seat
    # a random past state, checked against that state
    version = random.Random(match.version).randint(1, match.version)
    past = client.get(f"/api/matches/{match_id}/states/{version}").json()
    assert not cards_in(past) - visible_cards(state_at(match, version), seat)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("preset", ["six-card", "nine-card"])
def test_a_human_plays_a_whole_match_against_two_coms(alice, carol, preset):
    created = alice.post(
        "/api/matches",
        {
            "preset": preset,
            "holes": 2,
            "seats": [
                {"type": "me"},
                {"type": "com", "level": "normal"},
                {"type": "com", "level": "hard"},
            ],
        },
        format="json",
    )
    assert created.status_code == 201
    match_id = created.json()["id"]
    rng = random.Random(preset)
    turns = 0
    while True:
        detail = alice.get(f"/api/matches/{match_id}").json()
        if detail["status"] == "finished":
            break
        assert detail["your_turn"], "COM turns run on commit: the human is always to act here"
        legal = detail["view"]["legal_actions"]
        if turns % 7 == 0:
            hint = alice.get(f"/api/matches/{match_id}/hint")
            assert hint.status_code == 200 and hint.json()["action"] in legal
        response = alice.post(
            f"/api/matches/{match_id}/actions",
            rng.choice(legal),
            format="json",
            headers={"If-Match": f'"{detail["version"]}"'},
        )
        assert response.status_code == 200, response.content
        if turns % 5 == 0:
            assert_no_leak(alice, 0, match_id)
            assert_no_leak(carol, None, match_id)
        turns += 1
    assert turns > 10
    body = alice.get(f"/api/matches/{match_id}").json()
    assert len(body["seed"]) == 64 and body["winners"]
    assert len(body["view"]["hole_scores"]) == 2
    audit = carol.get(f"/api/matches/{match_id}/audit").json()
    assert audit["chain_faults"] == [] and audit["seed"] == body["seed"]
    deal = next(e for e in audit["events"] if e["type"] == "hole_dealt")
    assert all(is_card_code(c) for c in deal["data"]["stock"])
    # the record in pages: the same events, each page's chain checked from the one before
    pages, after = [], 0
    while not pages or pages[-1]["has_more"]:
        page = carol.get(f"/api/matches/{match_id}/audit", {"after": after, "limit": 7}).json()
        assert page["chain_faults"] == [] and len(page["events"]) <= 7
        pages.append(page)
        after = page["next_after"]
    assert [e for p in pages for e in p["events"]] == audit["events"]
    assert len(pages) == -(-body["version"] // 7) and pages[-1]["next_after"] == body["version"]
    for params in ({"after": body["version"] + 1}, {"limit": 0}, {"limit": 5001}):
        response = carol.get(f"/api/matches/{match_id}/audit", params)
        assert response.status_code == 400 and response.json()["code"] == "validation_error"
    exported = b"".join(alice.get(f"/api/matches/{match_id}/export").streaming_content)
    own = alice.get(f"/api/matches/{match_id}/events", {"limit": 500}).json()["events"]
    assert [json.loads(line) for line in exported.splitlines()] == own
    assert len(own) == body["version"]
    call_command("verify_match", match_id)
