"""Checks shared by the property tests: what a viewer may see, and card conservation.

:class:`Sight` follows what the undo seat has been shown, card by physical card, without
the engine's ``seen`` marks: the marks its views show must be exactly what it computes.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from cards.deck import build_deck, is_card_code
from golf import State, view_for
from golf.events import (
    CardDiscarded,
    CardDrawn,
    CardSwapped,
    Event,
    HoleDealt,
    HoleScored,
    StockReshuffled,
    Undone,
)
from golf.hidden import resample_hidden
from golf.state import STOCK


def cards_in(data: Any) -> Counter[str]:
    """Every card code that occurs anywhere in JSON-like ``data``."""
    found: Counter[str] = Counter()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif is_card_code(item):
            found[item] += 1
    return found


def visible_cards(state: State, seat: int | None) -> Counter[str]:
    """The cards ``seat`` may see, each as often as it may appear in a view."""
    return public_cards(state, seat) + Counter(seen_cards(state, seat))


def public_cards(state: State, seat: int | None) -> Counter[str]:
    """The cards ``seat`` may see by the table of who sees what, undo aside."""
    allowed: Counter[str] = Counter()
    for grid, ups in zip(state.grids, state.face_up, strict=True):
        allowed.update(card for card, up in zip(grid, ups, strict=True) if up)
    allowed.update(state.discard)
    if state.discard:
        allowed[state.discard[-1]] += 1  # the view repeats the top card
    if state.drawn is not None and (state.drawn_from != STOCK or seat == state.to_act):
        allowed[state.drawn] += 1
    for grid in state.last_hole_grids:
        allowed.update(grid)
    return allowed


def seen_cards(state: State, seat: int | None) -> list[str]:
    """The hidden cards the engine marks as seen by ``seat`` in undone turns."""
    if seat is None or seat not in state.undo_seats:
        return []
    cards = [state.grids[s][p] for s, p in state.seen_by(seat)]
    cards.extend(state.stock[: state.stock_seen_by(seat)])
    if seat in state.drawn_seen and state.drawn is not None and state.to_act != seat:
        cards.append(state.drawn)
    return cards


def assert_view_hides_what_it_must(state: State, seat: int | None) -> None:
    shown = cards_in(view_for(state, seat).to_json())
    allowed = visible_cards(state, seat)
    leaked = shown - allowed
    assert not leaked, f"view of seat {seat} shows hidden cards {dict(leaked)}"
    text = json.dumps(view_for(state, seat).to_json())
    assert state.seed.hex() not in text


def shuffle_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """A state ``seat`` cannot tell apart from ``state`` (the game's own resampling)."""
    return resample_hidden(state, seat, rng)


def assert_cards_conserved(state: State) -> None:
    if not state.grids:
        return
    everything = Counter(state.stock) + Counter(state.discard)
    for grid in state.grids:
        everything.update(grid)
    if state.drawn is not None:
        everything[state.drawn] += 1
    deck = Counter(build_deck(state.rules.deck_count(state.seats), state.rules.jokers))
    assert everything == deck


Location = tuple[Any, ...]  # ("grid", seat, position), ("stock", index from the top), ("hand",)


class Sight:
    """What the undo seat ``seat`` has been shown and still knows the place of, followed
    card by physical card (two cards may share a code, so cards get ids).

    A card is known once it lies where ``seat`` sees it (face up, on the discard pile, in
    its hand, or drawn from the discard pile). Its place is known while it moves in the
    open; a reshuffle hides where the cards of the pile went. An undo restores every card's
    place at the undo point and forgets nothing: every card shown since the point is known
    at its place there, which also stays known if the seat undoes to that point again; and
    a stock reshuffled since the point is remembered with the pile it came from: if the
    same reshuffle of the hole shuffles the same pile again (and so makes the same stock),
    the places in it of the cards shown are known.
    Feed it every event with the state after it, then compare :meth:`expected` with the
    seat's view (:func:`view_marks`).
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.codes: list[str] = []
        self.grids: list[list[int]] = []
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.hand: int | None = None
        self.known: set[int] = set()
        self.shown: set[int] = set()  # since the undo point
        self.point: tuple[list[list[int]], list[int], list[int], int | None, set[int]] | None
        self.point = None
        # this hole's reshuffles since the point: (number, the pile's codes, the stock made,
        # the cards of it shown since)
        self.reshuffled: list[tuple[int, tuple[str, ...], list[int], set[int]]] = []
        # (number, the pile's codes): the places in the stock it makes that are known
        self.foreseen: dict[tuple[int, tuple[str, ...]], set[int]] = {}

    def _new(self, codes: tuple[str, ...]) -> list[int]:
        first = len(self.codes)
        self.codes.extend(codes)
        return list(range(first, len(self.codes)))

    def _save(self) -> None:
        grids = [list(g) for g in self.grids]
        self.point = (grids, list(self.stock), list(self.discard), self.hand, set(self.known))

    def apply(self, event: Event, state: State) -> None:
        if isinstance(event, HoleDealt):
            self.grids = [self._new(g) for g in event.grids]
            self.discard = self._new((event.discard,))
            self.stock = self._new(event.stock)
            self.hand, self.known, self.point = None, set(), None
            self.reshuffled, self.foreseen = [], {}
        elif isinstance(event, CardDrawn):
            self.hand = self.stock.pop(0) if event.source == STOCK else self.discard.pop()
            if event.seat == self.seat:
                self._save()
                self.shown = set()
                self.reshuffled = []
        elif isinstance(event, CardSwapped):
            assert self.hand is not None
            self.discard.append(self.grids[event.seat][event.position])
            self.grids[event.seat][event.position] = self.hand
            self.hand = None
        elif isinstance(event, CardDiscarded):
            assert self.hand is not None
            self.discard.append(self.hand)
            self.hand = None
        elif isinstance(event, StockReshuffled):
            pile, self.discard = self.discard[:-1], self.discard[-1:]
            self.known -= set(pile)
            self.stock = []
            codes = tuple(self.codes[c] for c in pile)
            for code in event.stock:  # cards of one code are alike: any of them will do
                card = next(c for c in pile if self.codes[c] == code)
                pile.remove(card)
                self.stock.append(card)
            self.known |= {self.stock[i] for i in self.foreseen.get((event.count, codes), ())}
            if self.point is not None:
                self.reshuffled.append((event.count, codes, list(self.stock), set()))
        elif isinstance(event, Undone):
            assert self.point is not None
            for number, codes, made, shown in self.reshuffled:
                places = {i for i, card in enumerate(made) if card in shown}
                self.foreseen[number, codes] = self.foreseen.get((number, codes), set()) | places
            self.reshuffled = []
            grids, stock, discard, self.hand, known = self.point
            self.grids, self.stock, self.discard = [list(g) for g in grids], stock, discard
            self.known, self.shown = known | self.shown, set()
            self._save()
        elif isinstance(event, HoleScored):
            self.point = None
        self._check(state)
        visible = self._visible(state)
        self.known |= visible
        self.shown |= visible
        for _, _, made, shown in self.reshuffled:
            shown |= visible & set(made)

    def _check(self, state: State) -> None:
        """The ids follow the state's cards."""
        if not self.grids:
            return
        code = self.codes.__getitem__
        assert [[code(c) for c in g] for g in self.grids] == [list(g) for g in state.grids]
        assert [code(c) for c in self.stock] == list(state.stock)
        assert [code(c) for c in self.discard] == list(state.discard)
        assert (None if self.hand is None else code(self.hand)) == state.drawn

    def _visible(self, state: State) -> set[int]:
        visible = set(self.discard)
        for grid, ups in zip(self.grids, state.face_up, strict=True):
            visible.update(card for card, up in zip(grid, ups, strict=True) if up)
        if self.hand is not None and (state.drawn_from != STOCK or state.to_act == self.seat):
            visible.add(self.hand)
        return visible

    def expected(self, state: State) -> dict[Location, str]:
        """Every hidden card the seat knows, by place: its view must show exactly these."""
        found: dict[Location, str] = {}
        for s, (grid, ups) in enumerate(zip(self.grids, state.face_up, strict=True)):
            for p, (card, up) in enumerate(zip(grid, ups, strict=True)):
                if not up and card in self.known:
                    found["grid", s, p] = self.codes[card]
        for i, card in enumerate(self.stock):
            if card in self.known:
                found["stock", i] = self.codes[card]
        if self.hand in self.known and state.drawn_from == STOCK and state.to_act != self.seat:
            found["hand",] = self.codes[self.hand]
        return found


def view_marks(view: dict[str, Any]) -> dict[Location, str]:
    """The hidden cards a view (JSON) shows as seen, by place, in :class:`Sight`'s terms."""
    found: dict[Location, str] = {
        ("grid", mark["seat"], mark["position"]): mark["card"] for mark in view["seen"]
    }
    found.update((("stock", i), card) for i, card in enumerate(view["stock_seen"]))
    if view["drawn_seen"]:
        found["hand",] = view["drawn"]["card"]
    return found
