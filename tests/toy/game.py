"""Toy as a :class:`cards.protocol.Game`: views, redaction, COMs, hints, the audit and
hidden-card resampling, over the engine (:mod:`tests.toy.engine`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from cards.errors import UNREADABLE_LOG, EngineError, NotYourTurnError
from cards.protocol import Game, GameInfo, LogAudit, Option, Schemas, Summary
from cards.seating import SeatHandedOver, SeatTaken, at_table, hand_over, reader, take_seat
from cards.shuffle import commitment_of
from tests.toy import engine, schemas
from tests.toy.engine import (
    DECK,
    CardPlayed,
    Dealt,
    Event,
    MatchAborted,
    MatchStarted,
    PlayCard,
    Rules,
    State,
    strength,
)

LEVELS = ("random", "high")
NAMES = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_name(card: str) -> str:
    return f"{NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


# --- who sees what ----------------------------------------------------------------------
def _plays(plays: engine.Plays) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": card} for seat, card in plays]


def view_of(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see: its own hand, the others' sizes, every played card."""
    if not at_table(seat, state.seats):
        seat = None
    return {
        "seat": seat,
        "version": state.version,
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rules.hand_size,
        "players": list(state.players),
        "seats_to_act": [] if state.to_act is None else [state.to_act],
        "leader": state.leader,
        "hand": list(state.hands[seat]) if seat is not None and state.hands else [],
        "hand_sizes": [len(hand) for hand in state.hands],
        "table": _plays(state.table),
        "rounds_played": [
            {"round": i, "winner": winner, "plays": _plays(plays)}
            for i, (winner, plays) in enumerate(state.history, start=1)
        ],
        "totals": list(state.totals),
        "winners": list(state.winners),
        "legal_actions": [a.to_json() for a in engine.legal_actions(state, seat)],
    }


def redact(event: Event, seat: int | None, *, match_ended: bool) -> dict[str, Any]:
    """Before the end: no seed, and of a deal only the viewer's own hand (others: sizes)."""
    payload = engine.event_payload(event)
    if match_ended:
        return payload
    seat = reader(seat)
    if isinstance(event, MatchStarted):
        payload["seed"] = None
    elif isinstance(event, Dealt):
        payload["hands"] = [
            list(hand) if i == seat else [None] * len(hand) for i, hand in enumerate(event.hands)
        ]
    return payload


def resample_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    """Every card ``seat`` has not seen (the other hands, the undealt cards) drawn afresh
    into the other hands, and a fresh seed."""
    seen = {card for _, plays in state.history for _, card in plays}
    seen.update(card for _, card in state.table)
    if seat is not None and 0 <= seat < len(state.hands):
        seen.update(state.hands[seat])
    pool = [card for card in DECK if card not in seen]
    rng.shuffle(pool)
    hands = []
    for i, hand in enumerate(state.hands):
        if i == seat:
            hands.append(hand)
        else:
            hands.append(tuple(pool[: len(hand)]))
            del pool[: len(hand)]
    return replace(state, hands=tuple(hands), seed=rng.randbytes(32))


# --- computer players and hints: from a view alone --------------------------------------
def best_play(view: Mapping[str, Any]) -> tuple[PlayCard, str]:
    """Lead with the highest card; else win as cheaply as possible, or throw the lowest."""
    hand = sorted((engine.action_from_json(a).card for a in view["legal_actions"]), key=strength)
    if not hand:
        raise NotYourTurnError("this seat has no move now")
    if not view["table"]:
        return PlayCard(hand[-1]), f"You lead: play your best card, the {card_name(hand[-1])}."
    top = max((play["card"] for play in view["table"]), key=strength)
    beating = [card for card in hand if strength(card) > strength(top)]
    if beating:
        card = beating[0]
        return PlayCard(card), f"The {card_name(card)} is your cheapest card that beats the {top}."
    return PlayCard(hand[0]), f"Nothing beats the {top}: throw your lowest card."


def choose(view: Mapping[str, Any], level: str, rng: random.Random) -> PlayCard:
    if level == "random":
        options = [engine.action_from_json(a) for a in view["legal_actions"]]
        if not options:
            raise NotYourTurnError("this seat has no move now")
        return rng.choice(options)
    if level == "high":
        return best_play(view)[0]
    raise EngineError(f"unknown COM level {level!r}; the levels are {list(LEVELS)}")


# --- the audit --------------------------------------------------------------------------
def audit(events: Iterable[Event]) -> LogAudit:
    """Replay ``events``, re-deciding each play and recomputing every derived event (the
    deal from the seed, round winners and totals, the match's winners, the revealed seed)."""
    result = LogAudit()
    owed: list[Event] = []
    state: State | None = None
    for seq, event in enumerate(events, start=1):
        try:
            expected = _expected(state, event, owed)
        except UNREADABLE_LOG as exc:
            result.faults.append(f"#{seq} {event.name} is not allowed by the rules: {exc}")
            return result
        if expected != event:
            result.faults.append(f"#{seq} {event.name} is not what the rules give: {expected}")
            return result
        result.deals_checked += isinstance(event, Dealt)
        state = result.state = engine.evolve(state, event)
    if owed:
        result.faults.append(f"the log ends before the rules' own {owed[0].name}")
    return result


def _expected(state: State | None, event: Event, owed: list[Event]) -> Event:
    if owed:
        return owed.pop(0)
    if state is None:
        if not isinstance(event, MatchStarted):
            raise EngineError("a log begins with match_started")
        first, *owed[:] = engine.start(event.rules, event.players, bytes.fromhex(event.seed))
        return first
    if isinstance(event, MatchAborted):
        if state.ended:
            raise EngineError("the match had already ended")
        return MatchAborted(event.reason, state.seed.hex())
    if isinstance(event, SeatTaken):
        return take_seat(state.players, event.seat, ended=state.ended)[0]
    if isinstance(event, SeatHandedOver):
        return hand_over(state.players, event.seat, ended=state.ended)[0]
    if isinstance(event, CardPlayed):
        first, *owed[:] = engine.decide(state, event.seat, PlayCard(event.card))
        return first
    derived = engine.automatic_events(state)
    if not derived:
        raise EngineError(f"{event.name} does not follow by itself here: a seat must act")
    first, *owed[:] = derived
    return first


# --- the protocol -----------------------------------------------------------------------
class Toy:
    info = GameInfo(
        name="toy",
        title="Toy",
        description="Play one card a round from a hidden hand; the highest card wins the round.",
        round_name="round",
        min_seats=engine.MIN_SEATS,
        max_seats=engine.MAX_SEATS,
        presets=tuple(sorted(engine.PRESETS)),
        default_preset="quick",
        options=(Option("hand_size", schemas.HAND_SIZE_DOC, schemas.HAND_SIZE),),
        com_levels=LEVELS,
        default_com_level="high",
    )

    def rules(self, preset: str, overrides: Mapping[str, Any]) -> Rules:
        return engine.make_rules(preset, overrides)

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return rules.to_json()

    def rules_from_json(self, data: Mapping[str, Any]) -> Rules:
        return engine.rules_from_json(data)

    def preset_rules(self, preset: str) -> dict[str, Any]:
        return engine.make_rules(preset, {}).to_json()

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        return engine.MIN_SEATS, engine.MAX_SEATS

    def json_schemas(self) -> Schemas:
        return Schemas(schemas.SCHEMAS, "ToyRules", "ToyAction", "ToyView", schemas.EXAMPLES)

    def start(self, rules: Rules, players: Sequence[str], seed: bytes) -> list[Event]:
        return engine.start(rules, players, seed)

    def action_from_json(self, data: object) -> PlayCard:
        return engine.action_from_json(data)

    def action_to_json(self, action: PlayCard) -> dict[str, Any]:
        return action.to_json()

    def legal_actions(self, state: State, seat: int) -> list[PlayCard]:
        return engine.legal_actions(state, seat)

    def decide(self, state: State, seat: int, action: PlayCard) -> list[Event]:
        return engine.decide(state, seat, action)

    def join(self, state: State, seat: int) -> list[Event]:
        return [*take_seat(state.players, seat, ended=state.ended)]

    def hand_over(self, state: State, seat: int) -> list[Event]:
        return [*hand_over(state.players, seat, ended=state.ended)]

    def abort(self, state: State, reason: str) -> list[Event]:
        return engine.abort(state, reason)

    def evolve(self, state: State | None, event: Event) -> State:
        return engine.evolve(state, event)

    def replay(self, events: Iterable[Event], state: State | None = None) -> State:
        return engine.replay(events, state)

    def event_to_row(self, event: Event) -> tuple[str, int, dict[str, Any]]:
        return event.name, event.version, engine.event_payload(event)

    def event_from_row(self, type_: str, version: int, payload: Mapping[str, Any]) -> Event:
        return engine.event_from_row(type_, version, payload)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return engine.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return engine.state_from_json(data)

    def seats_to_act(self, state: State) -> tuple[int, ...]:
        return () if state.to_act is None else (state.to_act,)

    def summary(self, state: State) -> Summary:
        return Summary(
            status=state.phase if state.ended else "active",  # type: ignore[arg-type]
            round=state.round,
            rounds=state.rules.hand_size,
            phase=state.phase,
            totals=state.totals,
            winners=state.winners,
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view_of(state, seat)

    def redact(self, event: Event, seat: int | None, *, match_ended: bool) -> dict[str, Any]:
        return redact(event, seat, match_ended=match_ended)

    def acting_seat(self, event: Event) -> int | None:
        return event.seat if isinstance(event, CardPlayed | SeatTaken) else None

    def players(self, state: State) -> tuple[str, ...]:
        return state.players

    def commitment(self, state: State) -> str:
        return commitment_of(state.seed)

    def revealed_seed(self, state: State) -> str | None:
        return state.seed.hex() if state.ended else None

    def com_action(self, state: State, seat: int, level: str, rng: random.Random) -> PlayCard:
        return choose(view_of(state, seat), level, rng)

    def hint(self, state: State, seat: int) -> dict[str, Any]:
        action, reason = best_play(view_of(state, seat))
        return {"action": action.to_json(), "reason": reason}

    def audit(self, events: Sequence[Event]) -> LogAudit:
        return audit(events)

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        return resample_hidden(state, seat, rng)


TOY = Toy()
_CHECKED: Game = TOY  # mypy checks that Toy satisfies the protocol
