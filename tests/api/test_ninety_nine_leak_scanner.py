"""The leak scanner for Ninety-Nine: random matches through the API, every endpoint read
by every reader (as ``test_leak_scanner.py`` does for Golf and
``test_hearts_leak_scanner.py`` for Hearts).

Each match has three seats, some humans and some COMs of random levels, one or two deals,
with or without premium bids. The humans play random legal actions through the API; COM
turns run on commit, inside the human's request. After every human action, every
participant and a stranger read every endpoint about the match, and every card code in
every response must be one that reader may see at that point, as
``ninety-nine-rules.md`` section 5 says, worked out here from the state (not from the
engine's view):

- a player sees its own hand and its own bid cards; everyone sees the cards of the trick
  in play and of the tricks of this deal, the bid cards of a declarer or revealer once
  shown, and a revealer's whole hand for the rest of the deal;
- after a deal, the bid cards of those who made their contract;
- an event holds only cards the reader may see just before or just after it;
- the match list holds no card at all, and no response holds the seed before the end.

The reading and checking is :class:`tests.api.leak.Scanner`'s. ``NINETY_NINE_LEAK_MATCHES``
sets how many matches (default 4).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from games import get_game
from matches.models import Match
from matches.store import load_events, to_event
from tests.api.conftest import client_for
from tests.api.leak import Scanner

GAME = get_game("ninety-nine")
MATCHES = int(os.environ.get("NINETY_NINE_LEAK_MATCHES", "4"))
# what a COM plays changes what there is to read, not who may read it
LEVELS = [level for level in GAME.info.com_levels if level != "hard"]


def public_cards(state, seat: int | None) -> Counter[str]:
    """The cards ``seat`` (``None``: a spectator) may see in ``state``, before the end."""
    cards: Counter[str] = Counter()
    for _, card in state.trick:
        cards[card] += 1
    for trick in state.tricks:
        cards.update(card for _, card in trick.plays)
    if seat is not None and state.hands:
        cards.update(state.hands[seat])
        cards.update(state.bids[seat] if state.bids else ())
    shown = state.premium_seat
    if shown is not None and state.shown:
        cards.update(state.bids[shown])
        if state.premium == "reveal":
            cards.update(state.hands[shown])
    last = state.last_deal
    if last is not None:  # the bid cards of the contracts made in the deal before, and
        # the premium bidder's (face up since the premium round), made or not
        for bidder, (made, bid) in enumerate(zip(last.made, last.bid_cards, strict=True)):
            if bid and (made or bidder == last.premium_seat):
                cards.update(bid)
    return cards


class History:
    """Every state of a match, version by version, replayed from its stored events."""

    def __init__(self, match_id: str) -> None:
        self.match = Match.objects.get(pk=match_id)
        self.states: list = [None]

    def update(self):
        for row in load_events(self.match, after=len(self.states) - 1):
            self.states.append(GAME.evolve(self.states[-1], to_event(row, GAME)))
        return self.states[-1]

    def allowed(self, version: int, seat: int | None) -> Counter[str]:
        return public_cards(self.states[version], seat)

    def assert_seen(self, view, version: int, seat: int | None, where: str) -> None:
        """Ninety-Nine has no undo: nothing is ever shown and then hidden again."""
        assert not view.get("seen"), where


def random_match(number: int, rng: random.Random, users):
    humans = 1 + number % 3
    seats = [{"type": "me"}] + [{"type": "open"}] * (humans - 1)
    seats += [{"type": "com", "level": rng.choice(LEVELS)} for _ in range(3 - humans)]
    rng.shuffle(seats)
    # with and without premium bids, in one deal and in two (the second deal shows what
    # the first's scoring turned up)
    rules = {
        "max_deals": 1 + number // 2 % 2,
        "premium_bids": "on" if number % 2 == 0 else "off",
    }
    body = {"game": "ninety-nine", "rules": rules, "seats": seats}
    creator = client_for(users[0])
    created = creator.post("/api/matches", body, format="json")
    assert created.status_code == 201, (body, created.content)
    match_id = created.json()["id"]
    readers = {users[0].username: (creator, seats.index({"type": "me"}))}
    for user in users[1:humans]:
        client = client_for(user)
        joined = client.post(f"/api/matches/{match_id}/join", {}, format="json")
        assert joined.status_code == 200, joined.content
        readers[user.username] = (client, joined.json()["your_seat"])
    readers[users[-1].username] = (client_for(users[-1]), None)  # a stranger
    return match_id, readers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("number", range(MATCHES))
def test_no_ninety_nine_response_shows_a_card_its_reader_may_not_see(
    number, django_user_model, settings
):
    settings.PUSH_STREAM_MAX_SECONDS = 0  # a stream sends what there is, then ends
    rng = random.Random(f"ninety-nine-leak-scan-{number}")
    users = [
        django_user_model.objects.create_user(f"player{i}", password="pw-player-123")
        for i in range(4)
    ]
    match_id, readers = random_match(number, rng, users)
    scanner = Scanner(match_id, readers, History(match_id), counted=False)  # one pack
    scanner.scan()
    players = [reader for reader in readers.values() if reader[1] is not None]
    actions = 0
    while not scanner.history.states[-1].ended:
        movers = []
        for client, _ in players:
            detail = client.get(f"/api/matches/{match_id}").json()
            if detail["your_turn"]:
                movers.append((client, detail))
        assert movers, "COM turns run on commit: some human is always to act"
        client, detail = rng.choice(movers)
        legal = detail["view"]["legal_actions"]
        premium = [a for a in legal if a["type"] in ("declare", "reveal")]
        action = rng.choice(premium if premium and rng.random() < 0.5 else legal)
        response = client.post(f"/api/matches/{match_id}/actions", action, format="json")
        assert response.status_code == 200, (action, response.content)
        actions += 1
        scanner.scan()
    assert actions >= 10 and scanner.checked_version == scanner.history.states[-1].version
