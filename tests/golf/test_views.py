"""Who sees what: views and redacted events."""

from golf import DrawFromStock, Rules, abort_match, redact_event, replay, start_match, view_for
from golf.views import spectator_view
from tests.golf.helpers import SEED, act, flip_all, table

SIX = Rules.from_preset("six-card")
GRID_A = ["AS", "2S", "3S", "4S", "5S", "6S"]
GRID_B = ["AH", "2H", "3H", "4H", "5H", "6H"]
STOCK = ["7C", "8C", "9C", "TC"]


def test_face_down_cards_are_hidden_even_from_their_owner():
    state = flip_all(table(SIX, [GRID_A, GRID_B], "KD", STOCK)[0])
    mine = view_for(state, 0).to_json()
    assert mine["grids"][0] == ["AS", "2S", None, None, None, None]
    assert mine["grids"][1] == ["AH", "2H", None, None, None, None]
    assert mine["stock_size"] == 4 and "stock" not in mine
    assert mine["discard"] == ["KD"] and mine["discard_top"] == "KD"
    assert [a["type"] for a in mine["legal_actions"]] == ["draw", "take_discard"]
    assert view_for(state, 1).to_json()["legal_actions"] == []


def test_a_drawn_stock_card_is_seen_only_by_the_drawer():
    state = flip_all(table(SIX, [GRID_A, GRID_B], "KD", STOCK)[0])
    state, events = act(state, 0, DrawFromStock())
    assert view_for(state, 0).to_json()["drawn"] == {"seat": 0, "source": "stock", "card": "7C"}
    assert view_for(state, 1).to_json()["drawn"] == {"seat": 0, "source": "stock", "card": None}
    assert spectator_view(state).to_json()["drawn"]["card"] is None
    assert redact_event(events[0], 0, match_ended=False)["card"] == "7C"
    assert redact_event(events[0], 1, match_ended=False)["card"] is None
    assert redact_event(events[0], None, match_ended=False)["card"] is None
    assert redact_event(events[0], None, match_ended=True)["card"] == "7C"
    for no_seat in (False, 0.0, "0"):  # equal to 0 in Python, but no seat's number
        assert redact_event(events[0], no_seat, match_ended=False)["card"] is None


def test_the_seed_and_deal_are_hidden_until_the_match_ends():
    started, dealt = start_match(SIX, 2, SEED)
    for seat in (0, 1, None):
        payload = redact_event(started, seat, match_ended=False)
        assert payload["seed"] is None and payload["commitment"] == started.commitment
        deal = redact_event(dealt, seat, match_ended=False)
        assert deal["grids"] == [[None] * 6, [None] * 6]
        assert deal["stock"] is None and deal["stock_size"] == len(dealt.stock)
        assert deal["discard"] == dealt.discard
    assert redact_event(started, None, match_ended=True)["seed"] == SEED.hex()
    assert redact_event(dealt, None, match_ended=True)["stock"] == list(dealt.stock)


def test_a_seat_outside_the_table_gets_the_spectator_view():
    state = table(SIX, [GRID_A, GRID_B], "KD", STOCK)[0]
    assert view_for(state, 7) == spectator_view(state)


def test_an_aborted_match_shows_every_card_and_says_why():
    """Once a match is aborted its seed and every event are public: its view shows every
    face-down card, as Hearts' and Ninety-Nine's show every hand (the card drawn is no
    one's to place any more: its event shows it); ``end_reason`` is the abort's reason."""
    state = flip_all(table(SIX, [GRID_A, GRID_B], "KD", STOCK)[0])
    state, _ = act(state, 0, DrawFromStock())
    (aborted,) = abort_match(state, "power cut")
    state = replay([aborted], state)
    for viewer in (0, 1, None):
        view = view_for(state, viewer).to_json()
        assert view["grids"] == [GRID_A, GRID_B]
        assert view["drawn"] is None
        assert (view["phase"], view["end_reason"]) == ("aborted", "power cut")
