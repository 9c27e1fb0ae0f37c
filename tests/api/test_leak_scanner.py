"""The leak scanner: random matches through the API, every endpoint read by every reader.

Each match has a random preset, 2-6 seats, some humans and some COMs of random levels.
The humans play random legal actions through the API; COM turns run on commit, inside
the human's request. After every human action, every participant and a stranger read
every endpoint about the match, and every card code in every response must be one that
reader may see at that point:

- a view (the match, a past state) holds only the cards of its version that the reader
  may see: face-up cards, the discard pile, their own drawn card, the last hole's grids;
- an event holds only cards the reader may see just before or just after it;
- the match list holds no card at all, and no response holds the seed before the end;
- with undo, undo never un-sees: the human's views (the match, every past state) show as
  ``seen`` exactly the hidden cards it was shown and can still place, as
  :class:`~tests.golf.invariants.Sight` follows them card by card from the events
  (never fewer, never more); every other reader's views show none.

The reading and checking is :class:`tests.api.leak.Scanner`'s, shared by every game's
scanner; this file says what a Golf reader may see. Every version a match passes through
is checked, COM moves included: the past-state endpoint is read at each new version by
every reader.

Every fourth match (and some others) has one human, every other seat a COM, and undo on;
its human undoes half the times it may (nearly always until it has seen a COM's card), and
the match must have undone turns that showed it a COM's face-down card.

``GOLF_LEAK_MATCHES`` sets how many matches (default: one per preset).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from games import get_game
from golf import PRESETS, State, evolve
from golf.game import GOLF
from matches.models import Match
from matches.store import load_events, to_event
from tests.api.conftest import client_for
from tests.api.leak import Scanner
from tests.golf.invariants import Location, Sight, public_cards, view_marks

MATCHES = int(os.environ.get("GOLF_LEAK_MATCHES", str(len(PRESETS))))  # each preset once
# What a COM plays changes what there is to read, not who may read it. "hard" runs
# rollouts on every move, which the hints read after every action already exercise.
LEVELS = [level for level in get_game("golf").info.com_levels if level != "hard"]


class History:
    """Every state of a match, version by version, replayed from its stored events."""

    def __init__(self, match_id: str) -> None:
        self.match = Match.objects.get(pk=match_id)
        self.states: list[State | None] = [None]
        self.sight: Sight | None = None  # with undo: what its human has been shown
        self.known: list[dict[Location, str]] = [{}]  # by version: the hidden cards it knows

    def update(self) -> State:
        for row in load_events(self.match, after=len(self.states) - 1):
            event = to_event(row, GOLF)
            state = evolve(self.states[-1], event)
            if self.sight is None and state.undo_seat is not None:
                self.sight = Sight(state.undo_seat)
            if self.sight is not None:
                self.sight.apply(event, state)
            self.states.append(state)
            self.known.append(self.sight.expected(state) if self.sight else {})
        return self.states[-1]

    def seen(self, version: int, seat: int | None) -> dict[Location, str]:
        """The hidden cards ``seat`` saw in undone turns and knows the place of."""
        if self.sight is None or seat != self.sight.seat:
            return {}
        return self.known[version]

    def allowed(self, version: int, seat: int | None) -> Counter[str]:
        state = self.states[version]
        assert state is not None
        return public_cards(state, seat) + Counter(self.seen(version, seat).values())

    def com_cards_seen(self) -> int:
        """How many times a version had a COM's face-down card seen by the human."""
        if self.sight is None:
            return 0
        human = self.sight.seat
        return sum(p[0] == "grid" and p[1] != human for known in self.known for p in known)

    def assert_seen(self, view, version: int, seat: int | None, where: str) -> None:
        """Undo never un-sees, and shows nothing more: the view's seen cards are exactly
        those the reader knows."""
        assert view_marks(view) == self.seen(version, seat), where


def random_match(
    number: int, rng: random.Random, users
) -> tuple[str, dict[str, tuple[object, int | None]]]:
    """Create and fill a match (presets and sizes in turn, the rest at random); return its
    id and its readers with their seats."""
    preset = sorted(PRESETS)[number % len(PRESETS)]
    players = 2 + number % 5
    undo = number % 4 == 1
    humans = 1 if undo else rng.randint(1, min(players, 3))
    seats = [{"type": "me"}] + [{"type": "open"}] * (humans - 1)
    seats += [{"type": "com", "level": rng.choice(LEVELS)} for _ in range(players - humans)]
    rng.shuffle(seats)
    holes = 1 if PRESETS[preset].grid == (3, 3) else rng.choice([1, 2])  # 3x3 holes are long
    undo = undo or (humans == 1 and rng.random() < 0.3)
    body = {"preset": preset, "seats": seats, "holes": holes, "hints": True, "undo": undo}
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
    stranger = users[-1]
    readers[stranger.username] = (client_for(stranger), None)
    return match_id, readers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("number", range(MATCHES))
def test_no_response_shows_a_card_its_reader_may_not_see(number, django_user_model, settings):
    settings.PUSH_STREAM_MAX_SECONDS = 0  # a stream sends what there is, then ends
    rng = random.Random(f"leak-scan-{number}")
    users = [
        django_user_model.objects.create_user(f"player{i}", password="pw-player-123")
        for i in range(4)
    ]
    match_id, readers = random_match(number, rng, users)
    scanner = Scanner(match_id, readers, History(match_id), counted=True)  # two decks
    scanner.scan()
    players = {name: reader for name, reader in readers.items() if reader[1] is not None}
    actions = undos = 0
    while not scanner.history.states[-1].ended:
        movers = []
        for client, _ in players.values():
            detail = client.get(f"/api/matches/{match_id}").json()
            if detail["your_turn"]:
                movers.append((client, detail))
        assert movers, "COM turns run on commit: some human is always to act"
        client, detail = rng.choice(movers)
        legal = detail["view"]["legal_actions"]
        others = [a for a in legal if a["type"] != "undo"]
        # undo half the time it may, nearly always until a COM's card has been seen
        chance = 0.5 if scanner.history.com_cards_seen() else 0.9
        undo = len(others) < len(legal) and rng.random() < chance
        action = {"type": "undo"} if undo else rng.choice(others)
        undos += undo
        response = client.post(
            f"/api/matches/{match_id}/actions",
            action,
            format="json",
            headers={"If-Match": f'"{detail["version"]}"'},
        )
        assert response.status_code == 200, (action, response.content)
        actions += 1
        scanner.scan()
    assert actions >= 2 and scanner.checked_version == scanner.history.states[-1].version
    if scanner.history.sight is not None:
        assert undos, "the human never undid"
        assert scanner.history.com_cards_seen(), "no undone turn showed a COM's face-down card"
