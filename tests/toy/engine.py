"""Toy's rules, events, state and decisions.

Rules: 2-4 seats and a 20-card deck (ranks T J Q K A in each suit, in the order of
:func:`cards.deck.build_deck`: suits S, H, D, C, each from ten to ace), shuffled with
``shuffle_cards(seed, "toy/deal", DECK)``. Seat 0 gets the first ``hand_size`` cards,
seat 1 the next ones, and so on. Then ``hand_size`` rounds: seat 0 leads the first,
the winner of a round leads the next, and each seat plays one card, going up from the
leader. The highest card (rank T < J < Q < K < A, then suit C < D < H < S) wins the
round's point. After the last round the seats with the most points win (ties shared).

Who sees what: a seat sees its own hand and only the sizes of the others; played cards
are public; the seed is nobody's until the match has ended.

>>> state = replay(start(PRESETS["quick"], ("human", "com"), bytes(32)))
>>> state.phase, state.round, [len(h) for h in state.hands], state.to_act
('play', 1, [3, 3], 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, TypeAlias

from cards.errors import (
    EngineError,
    IllegalActionError,
    MalformedActionError,
    MalformedEventError,
    MatchOverError,
    NotASeatError,
    NotYourTurnError,
    RulesError,
)
from cards.seating import (
    SeatHandedOver,
    SeatTaken,
    at_table,
    check_kinds,
    refuse_while_waiting,
    seat_handed_over_changes,
    seat_taken_changes,
    waiting,
)
from cards.shuffle import commitment_of, shuffle_cards

Card: TypeAlias = str
Plays: TypeAlias = tuple[tuple[int, Card], ...]  # (seat, card), in the order played

RANKS = "TJQKA"  # lowest first
SUITS = "SHDC"  # highest first
DECK: tuple[Card, ...] = tuple(r + s for s in SUITS for r in RANKS)
DEAL_LABEL = "toy/deal"
MIN_SEATS, MAX_SEATS = 2, 4
MIN_HAND, MAX_HAND = 1, 5

# phases: "not_dealt" -> "play" <-> "round_over" -> "match_over" -> "finished" | "aborted"
PHASES = ("not_dealt", "play", "round_over", "match_over", "finished", "aborted")
ENDED = ("finished", "aborted")


def strength(card: Card) -> tuple[int, int]:
    """Orders cards: rank first, then suit (spades highest)."""
    return RANKS.index(card[0]), -SUITS.index(card[1])


class CardNotInHandError(IllegalActionError):
    code = "card_not_in_hand"


# --- rules ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Rules:
    preset: str = "quick"
    hand_size: int = 3  # cards dealt to each seat, and rounds played

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "hand_size": self.hand_size}


PRESETS: dict[str, Rules] = {"quick": Rules("quick", 3), "long": Rules("long", 5)}
OPTIONS = ("hand_size",)


def rules_from_json(data: object) -> Rules:
    """Parse and check a rules object; missing options take the preset's value."""
    if not isinstance(data, Mapping):
        raise RulesError("rules", "must be an object")
    preset = data.get("preset", "quick")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError("preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
    unknown = sorted(str(k) for k in set(data) - {"preset", *OPTIONS})
    if unknown:
        raise RulesError(unknown[0], f"unknown rules option; the options are {list(OPTIONS)}")
    size = data.get("hand_size", PRESETS[preset].hand_size)
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_HAND <= size <= MAX_HAND:
        raise RulesError("hand_size", f"must be an integer from {MIN_HAND} to {MAX_HAND}")
    return Rules(preset, size)


def make_rules(preset: str, overrides: Mapping[str, Any]) -> Rules:
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RulesError("preset", f"unknown preset {preset!r}; one of {sorted(PRESETS)}")
    if overrides.get("preset", preset) != preset:
        raise RulesError("preset", "the preset is the match's 'preset', not a rules option")
    return rules_from_json({**overrides, "preset": preset})


# --- actions ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card}


def action_from_json(data: object) -> PlayCard:
    if not isinstance(data, Mapping) or data.get("type") != "play":
        raise MalformedActionError("an action is an object {'type': 'play', 'card': ...}")
    extra = sorted(str(k) for k in set(data) - {"type", "card"})
    if extra:
        raise MalformedActionError(f"unexpected field {extra[0]!r} for a 'play' action")
    card = data.get("card")
    if not isinstance(card, str) or card not in DECK:
        raise MalformedActionError(f"'card' must be one of the deck's cards {list(DECK)}")
    return PlayCard(card)


# --- events -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MatchStarted:
    rules: Rules
    players: tuple[str, ...]
    seed: str  # hex; redacted until the match ends
    commitment: str
    name: ClassVar[str] = "match_started"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Dealt:
    hands: tuple[tuple[Card, ...], ...]  # by seat; each seat sees only its own before the end
    name: ClassVar[str] = "dealt"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card
    name: ClassVar[str] = "card_played"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class RoundWon:
    round: int
    seat: int
    card: Card
    totals: tuple[int, ...]
    name: ClassVar[str] = "round_won"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class MatchFinished:
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    seed: str
    name: ClassVar[str] = "match_finished"
    version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class MatchAborted:
    reason: str
    seed: str
    name: ClassVar[str] = "match_aborted"
    version: ClassVar[int] = 1


Event: TypeAlias = (
    MatchStarted
    | Dealt
    | CardPlayed
    | RoundWon
    | MatchFinished
    | MatchAborted
    | SeatTaken
    | SeatHandedOver
)
EVENT_TYPES: dict[str, type[Event]] = {
    cls.name: cls
    for cls in (
        MatchStarted,
        Dealt,
        CardPlayed,
        RoundWon,
        MatchFinished,
        MatchAborted,
        SeatTaken,
        SeatHandedOver,
    )
}


def plain(value: Any) -> Any:
    """JSON-ready data: tuples become lists, rules their JSON form."""
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, Rules):
        return value.to_json()
    return value


def tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(tuples(v) for v in value)
    return value


def event_payload(event: Event) -> dict[str, Any]:
    return {f.name: plain(getattr(event, f.name)) for f in fields(event)}


def event_from_row(type_: str, version: int, payload: Mapping[str, Any]) -> Event:
    cls = EVENT_TYPES.get(type_)
    if cls is None:
        raise MalformedEventError(f"unknown event type {type_!r}")
    if version != cls.version:
        raise MalformedEventError(f"no version {version} of {type_!r}")
    names = [f.name for f in fields(cls)]
    if not isinstance(payload, Mapping) or set(payload) != set(names):
        raise MalformedEventError(f"a {type_!r} payload has exactly the fields {names}")
    kwargs = {name: tuples(payload[name]) for name in names}
    if cls is MatchStarted:
        try:
            kwargs["rules"] = rules_from_json(payload["rules"])
        except RulesError as exc:
            raise MalformedEventError(f"bad rules in match_started: {exc}") from exc
    return cls(**kwargs)


# --- state ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class State:
    rules: Rules
    players: tuple[str, ...]
    seed: bytes
    version: int = 0
    phase: str = "not_dealt"
    round: int = 0  # 1-based; 0 before the deal
    leader: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    table: Plays = ()  # this round's cards
    history: tuple[tuple[int, Plays], ...] = ()  # (winner, plays) of each round played
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    end_reason: str | None = None

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def ended(self) -> bool:
        return self.phase in ENDED

    @property
    def to_act(self) -> int | None:
        if self.phase != "play" or waiting(self.players):
            return None
        return (self.leader + len(self.table)) % self.seats


def evolve(state: State | None, event: Event) -> State:
    if isinstance(event, MatchStarted):
        if state is not None:
            raise EngineError("match_started must be the first event")
        seats = len(event.players)
        return State(event.rules, event.players, bytes.fromhex(event.seed), 1, totals=(0,) * seats)
    if state is None:
        raise EngineError("the first event must be match_started")
    changes: dict[str, Any]
    if isinstance(event, SeatTaken):
        changes = seat_taken_changes(state, event)
    elif isinstance(event, SeatHandedOver):
        changes = seat_handed_over_changes(state, event)
    elif isinstance(event, Dealt):
        changes = {"phase": "play", "round": 1, "leader": 0, "hands": event.hands}
    elif isinstance(event, CardPlayed):
        hand = list(state.hands[event.seat])
        hand.remove(event.card)
        table = (*state.table, (event.seat, event.card))
        hands = (*state.hands[: event.seat], tuple(hand), *state.hands[event.seat + 1 :])
        phase = "round_over" if len(table) == state.seats else "play"
        changes = {"hands": hands, "table": table, "phase": phase}
    elif isinstance(event, RoundWon):
        more = any(state.hands)
        changes = {
            "history": (*state.history, (event.seat, state.table)),
            "table": (),
            "totals": event.totals,
            "leader": event.seat,
            "phase": "play" if more else "match_over",
            "round": state.round + 1 if more else state.round,
        }
    elif isinstance(event, MatchFinished):
        changes = {"phase": "finished", "winners": event.winners}
    elif isinstance(event, MatchAborted):
        changes = {"phase": "aborted", "end_reason": event.reason}
    else:
        raise EngineError(f"not a toy event: {event!r}")
    return replace(state, version=state.version + 1, **changes)


def replay(events: Iterable[Event], state: State | None = None) -> State:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise EngineError("no events to replay")
    return state


def state_to_json(state: State) -> dict[str, Any]:
    data = {f.name: plain(getattr(state, f.name)) for f in fields(State)}
    data["seed"] = state.seed.hex()
    return {"format": 1, **data}


def state_from_json(data: Mapping[str, Any]) -> State:
    if data.get("format") != 1:
        raise ValueError(f"unknown toy snapshot format {data.get('format')!r}")
    kwargs = {f.name: tuples(data[f.name]) for f in fields(State)}
    kwargs["rules"] = rules_from_json(data["rules"])
    kwargs["seed"] = bytes.fromhex(data["seed"])
    return State(**kwargs)


# --- deciding ---------------------------------------------------------------------------
def start(rules: Rules, players: Sequence[str], seed: bytes) -> list[Event]:
    kinds = tuple(players)
    check_kinds(kinds)
    if not MIN_SEATS <= len(kinds) <= MAX_SEATS:
        raise RulesError("players", f"must be between {MIN_SEATS} and {MAX_SEATS}")
    if not isinstance(seed, bytes) or len(seed) < 16:
        raise RulesError("seed", "must be at least 16 bytes")
    started = MatchStarted(rules, kinds, seed.hex(), commitment_of(seed))
    return [started, *automatic_events(evolve(None, started))]


def automatic_events(state: State) -> list[Event]:
    """The events that follow by themselves (none when a seat must act)."""
    events: list[Event] = []
    while (event := _next_automatic(state)) is not None:
        events.append(event)
        state = evolve(state, event)
    return events


def _next_automatic(s: State) -> Event | None:
    if s.phase == "not_dealt":
        deck, size = shuffle_cards(s.seed, DEAL_LABEL, DECK), s.rules.hand_size
        return Dealt(tuple(tuple(deck[i * size : (i + 1) * size]) for i in range(s.seats)))
    if s.phase == "round_over":
        seat, card = max(s.table, key=lambda play: strength(play[1]))
        totals = tuple(t + (i == seat) for i, t in enumerate(s.totals))
        return RoundWon(s.round, seat, card, totals)
    if s.phase == "match_over":
        best = max(s.totals)
        winners = tuple(i for i, t in enumerate(s.totals) if t == best)
        return MatchFinished(s.totals, winners, s.seed.hex())
    return None


def legal_actions(state: State, seat: int | None) -> list[PlayCard]:
    if not at_table(seat, state.seats) or state.to_act != seat:
        return []
    return [PlayCard(card) for card in state.hands[seat]]


def decide(state: State, seat: int, action: PlayCard) -> list[Event]:
    if not at_table(seat, state.seats):
        raise NotASeatError(f"seat must be between 0 and {state.seats - 1}")
    if state.ended:
        raise MatchOverError("the match is over")
    refuse_while_waiting(state.players)
    if not isinstance(action, PlayCard):
        raise MalformedActionError(f"not a toy action: {action!r}")
    if state.to_act != seat:
        raise NotYourTurnError(f"it is seat {state.to_act}'s turn")
    if action.card not in state.hands[seat]:
        raise CardNotInHandError(f"{action.card} is not in your hand")
    played = CardPlayed(seat, action.card)
    return [played, *automatic_events(evolve(state, played))]


def abort(state: State, reason: str) -> list[Event]:
    if state.ended:
        raise MatchOverError("the match is already over")
    return [MatchAborted(reason, state.seed.hex())]
