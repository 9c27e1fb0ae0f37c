"""A reshuffle after an undo: the same pile gets the same stock, another pile a shuffle of
its own (never the undone pile's permutation, which the player saw part of)."""

from __future__ import annotations

import json

from cards.shuffle import shuffle_cards
from golf import DiscardDrawn, DrawFromStock, Rules, SwapCard, TakeDiscard, Undo, view_for
from golf.audit import audit_log
from golf.dealing import reshuffle_label
from golf.decide import decide, start_match
from golf.events import Event, MatchStarted, StockReshuffled, event_from_payload, event_payload
from golf.snapshot import state_from_json, state_to_json
from golf.state import State, evolve
from tests.golf.invariants import Sight, view_marks

RULES = Rules.from_preset(
    "six-card", undo=True, initial_flips=0, final_turns="none", discard_take_must_swap=False
)
SEED = b"x" * 32


class Table:
    """One human (seat 0) and two COMs, every move chosen by the test; the whole log kept."""

    def __init__(self, started: MatchStarted | None = None) -> None:
        first = start_match(RULES, ["human", "com", "com"], SEED)
        self.log: list[Event] = [started or first[0], *first[1:]]
        self.state: State | None = None
        for event in self.log:
            self.state = evolve(self.state, event)
        self.piles: list[tuple[str, ...]] = []  # each reshuffled pile, bottom to top

    def act(self, seat: int, action: object) -> None:
        assert self.state is not None
        for event in decide(self.state, seat, action):
            if isinstance(event, StockReshuffled):
                self.piles.append(self.state.discard[:-1])
            self.log.append(event)
            self.state = evolve(self.state, event)

    def turn(self, seat: int) -> None:
        self.act(seat, DrawFromStock())
        self.act(seat, DiscardDrawn())

    def to_the_last_card(self) -> None:
        """Play on until the human is to draw the stock's last card but one."""
        for _ in range(2):  # the human takes the discard twice
            self.act(0, TakeDiscard())
            self.act(0, DiscardDrawn())
            self.turn(1)
            self.turn(2)
        while not (self.state.to_act == 0 and len(self.state.stock) == 2):
            self.turn(self.state.to_act)
        self.act(0, DrawFromStock())  # the undo point: one card left

    def after(self, place: object) -> tuple[str, ...]:
        """The human plays ``place``; COM 1's turn empties the stock: the new stock."""
        self.act(0, place)
        self.turn(1)
        return self.state.stock


def test_the_same_pile_after_an_undo_gets_the_same_stock_and_another_pile_its_own():
    table = Table()
    table.to_the_last_card()
    first = table.after(DiscardDrawn())
    table.act(0, Undo())
    again = table.after(DiscardDrawn())
    table.act(0, Undo())
    other = table.after(SwapCard(0))
    first_pile, again_pile, other_pile = table.piles
    assert again_pile == first_pile and again == first
    assert other_pile != first_pile
    # the undone pile's permutation, applied to the new pile, is not the new stock
    assert other != tuple(other_pile[first_pile.index(c)] for c in first)
    for pile, stock in ((first_pile, first), (other_pile, other)):
        label = reshuffle_label(1, 0, pile)
        assert label.startswith("golf/reshuffle/1/0/")
        assert tuple(shuffle_cards(SEED, label, pile)) == stock
    assert audit_log(table.log).faults == []


def test_a_match_begun_before_its_reshuffles_named_their_pile_keeps_its_labels():
    started = start_match(RULES, ["human", "com", "com"], SEED)[0]
    legacy = dict(event_payload(started))
    del legacy["reshuffle"]
    old = event_from_payload("match_started", 1, legacy)
    assert old.reshuffle == "count"
    table = Table(old)
    table.to_the_last_card()
    stock = table.after(DiscardDrawn())
    (pile,) = table.piles
    assert tuple(shuffle_cards(SEED, "golf/reshuffle/1/0", pile)) == stock
    assert audit_log(table.log).faults == []


def test_an_undo_never_un_sees_the_top_of_a_stock_the_same_pile_makes_again():
    """COM 2 draws the new stock's top card and shows it; after an undo, the same pile
    makes the same stock, so the human knows that card is on top (and marks it, as the
    model of what a seat has seen says), until it is drawn; another pile tells nothing."""
    table = Table()
    table.to_the_last_card()
    stock = table.after(DiscardDrawn())
    table.turn(2)  # draws stock[0] and discards it: shown
    (last,) = table.state.undo_point.stock
    table.act(0, Undo())
    assert view_for(table.state, 0).stock_seen == (last,)  # COM 1 drew it: shown
    assert table.after(DiscardDrawn()) == stock
    assert view_for(table.state, 0).stock_seen == stock[:1]
    for viewer in (None, 1, 2):
        assert view_for(table.state, viewer).stock_seen == ()
    assert state_from_json(json.loads(json.dumps(state_to_json(table.state)))) == table.state
    table.act(2, TakeDiscard())
    table.act(2, SwapCard(0))  # COM 2 leaves the stock alone: still known
    assert view_for(table.state, 0).stock_seen == stock[:1]
    table.act(0, DrawFromStock())
    assert table.state.drawn == stock[0] and view_for(table.state, 0).stock_seen == ()
    # the turns taken back and played otherwise: another pile, nothing known of its stock
    other = Table()
    other.to_the_last_card()
    other.after(DiscardDrawn())
    other.turn(2)
    other.act(0, Undo())
    assert other.after(SwapCard(0)) != stock
    assert view_for(other.state, 0).stock_seen == ()
    for log in (table.log, other.log):
        assert audit_log(log).faults == []
        sight, state = Sight(0), None
        for event in log:
            state = evolve(state, event)
            sight.apply(event, state)
            assert view_marks(view_for(state, 0).to_json()) == sight.expected(state)


def test_a_snapshot_from_before_the_piles_were_kept_still_undoes():
    table = Table()
    table.to_the_last_card()
    stock = table.after(DiscardDrawn())
    table.turn(2)
    data = state_to_json(table.state)
    for name in ("reshuffled_piles", "foreseen"):
        del data[name], data["undo_point"][name]
    old = state_from_json(data)
    assert old.reshuffled_piles == () and old.reshuffles == 1
    for event in decide(old, 0, Undo()):
        old = evolve(old, event)
    assert len(old.stock) == 1 and view_for(old, 0).stock_seen == old.stock
    assert old.foreseen == ()  # the pile reshuffled since is unknown to it
    table.act(0, Undo())
    assert table.state.foreseen and table.after(DiscardDrawn()) == stock
