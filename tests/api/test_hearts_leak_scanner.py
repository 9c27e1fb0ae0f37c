"""The leak scanner for Hearts: random matches through the API, every endpoint read by
every reader (the Golf scanner, ``test_leak_scanner.py``, does the same for Golf).

Each match has a random preset, 3-5 seats, some humans and some COMs of random levels,
and one deal (a passing deal when the preset passes). The humans play random legal
actions through the API; COM turns run on commit, inside the human's request. After every
human action, every participant and a stranger read every endpoint about the match, and
every card code in every response must be one that reader may see at that point, as
``hearts-rules.md`` section 5 says, worked out here from the state (not from the engine's
view):

- a player sees its own hand, the three cards it chose to pass (from the moment it chose
  them), the cards of the trick in play and of the tricks of this deal, and the removed
  cards; a spectator the same less a hand and a pass;
- an event holds only cards the reader may see just before or just after it;
- the match list holds no card at all, and no response holds the seed before the end;
- with undo, undo never un-sees: the cards a COM played in turns the human undid are back
  in that COM's hand, and the human's views list exactly those (``seen``, followed here
  from the events) until they are played again; every other reader's views list none.

The reading and checking is :class:`tests.api.leak.Scanner`'s. Every version a match
passes through is checked, COM moves included: the past-state endpoint is read at each
new version by every reader.

``HEARTS_LEAK_MATCHES`` sets how many matches (default 6).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from games import get_game
from hearts.events import CardPlayed, CardsDealt, Undone
from hearts.state import State
from matches.models import Match
from matches.store import load_events, to_event
from tests.api.conftest import client_for
from tests.api.leak import Scanner

HEARTS = get_game("hearts")
MATCHES = int(os.environ.get("HEARTS_LEAK_MATCHES", "6"))
# What a COM plays changes what there is to read, not who may read it; the hints (the
# hard COM's move) are read after every action.
LEVELS = [level for level in HEARTS.info.com_levels if level != "hard"]


def public_cards(state: State, seat: int | None) -> Counter[str]:
    """The cards ``seat`` (``None``: a spectator) may see in ``state``, before the end."""
    cards: Counter[str] = Counter(state.removed)
    cards.update(state.trick)
    for trick in state.tricks:
        cards.update(trick.cards)
    if seat is not None and state.hands:
        cards.update(state.hands[seat])
        chosen = state.passes[seat] if state.passes else None
        cards.update(chosen or ())
    return cards


class History:
    """Every state of a match, version by version, replayed from its stored events, and
    what the lone human of an undo match was shown in the plays it took back."""

    def __init__(self, match_id: str) -> None:
        self.match = Match.objects.get(pk=match_id)
        self.states: list[State | None] = [None]
        self.seen: list[set[tuple[int, str]]] = [set()]  # by version

    def update(self) -> State:
        for row in load_events(self.match, after=len(self.states) - 1):
            event = to_event(row, HEARTS)
            before = self.states[-1]
            state = HEARTS.evolve(before, event)
            seen = set(self.seen[-1])
            if isinstance(event, CardsDealt):
                seen = set()
            elif isinstance(event, CardPlayed):
                seen.discard((event.seat, event.card))
            elif isinstance(event, Undone):
                assert before is not None
                for s, (then, now) in enumerate(zip(before.hands, state.hands, strict=True)):
                    if s != event.seat:
                        seen |= {(s, c) for c in now if c not in then}
            self.states.append(state)
            self.seen.append(seen)
        state = self.states[-1]
        assert state is not None
        return state

    def seen_by(self, version: int, seat: int | None) -> set[tuple[int, str]]:
        state = self.states[version]
        assert state is not None
        return self.seen[version] if seat is not None and seat == state.undo_seat else set()

    def allowed(self, version: int, seat: int | None) -> Counter[str]:
        state = self.states[version]
        assert state is not None
        return public_cards(state, seat) + Counter(c for _, c in self.seen_by(version, seat))

    def undone_com_cards(self) -> int:
        return sum(len(seen) for seen in self.seen)

    def assert_seen(self, view, version: int, seat: int | None, where: str) -> None:
        """Undo never un-sees, and shows nothing more."""
        marks = {(m["seat"], m["card"]) for m in view.get("seen", [])}
        assert marks == self.seen_by(version, seat), where


def random_match(number: int, rng: random.Random, users):
    """Create and fill a one-deal match (presets and sizes in turn, the rest at random);
    return its id and its readers with their seats."""
    preset = ("hearts-classic", "hearts")[number % 2]
    players = 4 if preset == "hearts-classic" else 3 + number % 3
    undo = number % 3 == 1
    humans = 1 if undo else rng.randint(1, min(players, 3))
    seats = [{"type": "me"}] + [{"type": "open"}] * (humans - 1)
    seats += [{"type": "com", "level": rng.choice(LEVELS)} for _ in range(players - humans)]
    rng.shuffle(seats)
    rules: dict[str, object] = {"max_deals": 1}
    if preset == "hearts":  # passing too, in some direction the table allows
        rules["passing"] = rng.choice(["left", "right"] + (["across"] if players == 4 else []))
    body = {"game": "hearts", "preset": preset, "rules": rules, "seats": seats, "undo": undo}
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
    return match_id, readers, undo


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("number", range(MATCHES))
def test_no_hearts_response_shows_a_card_its_reader_may_not_see(
    number, django_user_model, settings
):
    settings.PUSH_STREAM_MAX_SECONDS = 0  # a stream sends what there is, then ends
    rng = random.Random(f"hearts-leak-scan-{number}")
    users = [
        django_user_model.objects.create_user(f"player{i}", password="pw-player-123")
        for i in range(4)
    ]
    match_id, readers, undo_match = random_match(number, rng, users)
    scanner = Scanner(match_id, readers, History(match_id), counted=False)  # one deck
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
        # undo often while it may, so that undone COM plays are seen and played again (on
        # until one showed a COM's card: the COMs' choices vary with the match's id)
        enough = undos >= 6 and (undos >= 40 or scanner.history.undone_com_cards())
        undo = len(others) < len(legal) and not enough and rng.random() < 0.5
        action = {"type": "undo"} if undo else rng.choice(others)
        undos += undo
        response = client.post(f"/api/matches/{match_id}/actions", action, format="json")
        assert response.status_code == 200, (action, response.content)
        actions += 1
        scanner.scan()
    assert actions >= 10 and scanner.checked_version == scanner.history.states[-1].version
    if undo_match:
        assert undos, "the human never undid"
        assert scanner.history.undone_com_cards(), "no undone play showed a COM's card"
