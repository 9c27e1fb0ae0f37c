"""Who sees what (rules reference, section 5), for every viewer: views and redacted events."""

import json
import random

from cards.seating import SeatTaken
from hearts.decide import legal_actions, start_match
from hearts.events import CardPlayed, CardsDealt, MatchStarted, TrickWon
from hearts.game import HEARTS
from hearts.hidden import resample_hidden
from hearts.rules import Rules
from hearts.state import replay
from hearts.views import redact_event, view_for
from tests.hearts.helpers import hands_with, table

SEED = bytes(range(32))


def _started(players=4, rules=None):
    events = start_match(rules or Rules.from_preset("hearts"), players, SEED)
    return replay(events), events


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    state, _ = _started()
    for seat in range(4):
        view = view_for(state, seat)
        assert view.hand == state.hands[seat]
        assert [h is not None for h in view.hands] == [s == seat for s in range(4)]
        assert view.hand_sizes == (13, 13, 13, 13)
        others = {c for s in range(4) if s != seat for c in state.hands[s]}
        assert not others & set(json.dumps(view.to_json()).replace('"', " ").split())
    spectator = view_for(state, None)
    assert spectator.hand == () and spectator.hands == (None,) * 4
    assert spectator.legal_actions == ()


def test_only_the_seat_to_act_sees_its_legal_plays():
    state, _ = _started()
    to_act = state.to_act
    for seat in range(4):
        assert bool(view_for(state, seat).legal_actions) == (seat == to_act)


def test_the_removed_cards_are_public():
    state, _ = _started(players=5)
    assert view_for(state, None).removed == ("2D", "2C")


def test_the_deal_and_the_seed_are_redacted_until_the_end():
    _state, events = _started()
    started, dealt = events[0], events[1]
    assert isinstance(started, MatchStarted) and isinstance(dealt, CardsDealt)
    for viewer in (None, 0, 1, 2, 3):
        assert redact_event(started, viewer, match_ended=False)["seed"] is None
        hands = redact_event(dealt, viewer, match_ended=False)["hands"]
        for seat, hand in enumerate(hands):
            expected = list(dealt.hands[seat]) if seat == viewer else [None] * 13
            assert hand == expected
    assert redact_event(started, None, match_ended=True)["seed"] == SEED.hex()
    full = redact_event(dealt, None, match_ended=True)["hands"]
    assert full == [list(h) for h in dealt.hands]
    # the events that reveal it carry it only once the match has ended
    state, _ = _started()
    aborted = HEARTS.abort(state, "test")[-1]
    assert redact_event(aborted, 0, match_ended=False)["seed"] is None
    assert redact_event(aborted, 0, match_ended=True)["seed"] == SEED.hex()


def test_played_cards_and_trick_winners_are_public():
    state, _ = _started()
    for _ in range(4):
        seat = state.to_act
        events = HEARTS.decide(state, seat, legal_actions(state, seat)[0])
        state = replay(events, state)
    won = next(e for e in events if isinstance(e, TrickWon))
    played = next(e for e in events if isinstance(e, CardPlayed))
    for viewer in (None, 0, 1, 2, 3):
        assert redact_event(won, viewer, match_ended=False)["cards"] == list(won.cards)
        assert redact_event(played, viewer, match_ended=False)["card"] == played.card
        view = view_for(state, viewer)
        assert view.tricks == (won,) and view.to_act == won.winner


def test_every_hand_is_shown_once_the_match_has_ended():
    state, _ = _started()
    assert view_for(state, 1).to_json()["end_reason"] is None
    state = replay(HEARTS.abort(state, "test"), state)
    for viewer in (None, 1):
        view = view_for(state, viewer)
        assert view.hands == state.hands
        assert view.to_json()["end_reason"] == "test"  # the abort's reason
    assert HEARTS.revealed_seed(state) == SEED.hex()


def test_while_a_seat_is_open_no_view_says_who_holds_the_opening_card():
    """A deal that is not passed is led by the holder of the 2 of clubs: a view naming the
    leader of a match waiting for players told a stranger, and one choosing a seat to join,
    where that card is."""
    rules = Rules.from_preset("hearts", passing="none")
    hands = hands_with(4, {2: ["2C", *[f"{r}C" for r in "3456789TJQKA"]]})
    state, _ = table(rules, hands, players=("human", "open", "open", "com"))
    for viewer in (None, 0, 3):
        view = view_for(state, viewer)
        assert view.leader is None and view.to_act is None, viewer
        assert view.seats_to_act == () and "leader" in view.to_json()
    for seat in (1, 2):
        state = replay([SeatTaken(seat)], state)
    assert view_for(state, None).leader == 2 and view_for(state, None).to_act == 2  # now


def test_views_do_not_depend_on_the_cards_a_viewer_cannot_see():
    rng = random.Random(3)
    rules = Rules.from_preset("hearts-classic")
    state = replay(start_match(rules, 4, SEED))
    for step in range(40):
        for viewer in (None, 0, 1, 2, 3):
            other = resample_hidden(state, viewer, rng)
            assert view_for(other, viewer) == view_for(state, viewer), (step, viewer)
        seat = rng.choice(state.seats_to_act())
        state = replay(HEARTS.decide(state, seat, rng.choice(legal_actions(state, seat))), state)


def test_the_documented_view_is_the_schemas_example_and_one_the_engine_could_show():
    """docs/hearts.md's view and the schema's example (Swagger UI) are one, and hold what
    the engine would: a pass in hand order, the last trick's winner leading."""
    from pathlib import Path

    from hearts.schemas import VIEW_EXAMPLE
    from hearts.scoring import sort_hand

    guide = (Path(__file__).resolve().parents[2] / "docs" / "hearts.md").read_text()
    section = guide[guide.index("## The view") :]
    block = section[section.index("```json") + len("```json") : section.index("```\n", 8)]
    assert json.loads(block) == VIEW_EXAMPLE
    assert list(sort_hand(VIEW_EXAMPLE["pass"]["cards"])) == VIEW_EXAMPLE["pass"]["cards"]
    assert list(sort_hand(VIEW_EXAMPLE["hand"])) == VIEW_EXAMPLE["hand"]
    last = VIEW_EXAMPLE["tricks"][-1]
    assert VIEW_EXAMPLE["leader"] == last["winner"] == VIEW_EXAMPLE["trick"][0]["seat"]
    assert last["cards"].index("AC") == (last["winner"] - last["leader"]) % 4
