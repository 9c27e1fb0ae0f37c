"""The game contract (``cards.protocol``), checked for every registered game and the toy.

Modelled on OpenSpiel's ``random_sim_test``: many random playouts of each game (every
preset, every seat count its rules allow, random rules options drawn from the options'
own schemas, random mixes of human and COM seats), driven only through the protocol, with
the invariants checked along the way:

* replay equals the fold of ``evolve``, also from a snapshot; states, events (as stored
  rows, through JSON), actions and rules round-trip;
* hidden information: every view equals the view of ``resample_hidden`` (cards the
  viewer cannot see and the seed drawn afresh), and so do the redacted events of a move
  made there too, where it is legal and leaves the viewer the same view; no view or
  event as redacted for a viewer shows the seed before the end, nor a card that
  viewer's view did not show then;
* legality: ``decide`` accepts every legal action and refuses others (including those of
  the wrong seat, and after the end) with a coded ``IllegalActionError``; malformed
  actions raise ``MalformedActionError``; the summary agrees with the state;
* COMs and hints pick legal actions, and the same ones in a resampled state;
* ``audit`` passes a whole log (and one cut after any batch of events), and faults a log
  with a derived fact changed (in the events ``start`` adds, in the end of a finished
  match, the seed) or cut inside a batch (the rules' own events missing);
* every match finishes under COM play; ``abort`` ends a match and reveals its seed; a
  player's seat handed to a COM (``hand_over``) is a COM's from then on, and a seat that
  is not a player's is refused;
* the game's JSON Schemas (which go into the OpenAPI schema) describe its JSON.

Knobs (environment): ``CONTRACT_SEED`` seeds every draw; ``CONTRACT_PLAYOUTS`` playouts
per game (30), at most ``CONTRACT_STEPS`` moves each (400; a match still running then is
aborted); ``CONTRACT_CHECK_RATE`` of the moves (0.3, and the first three) get the costly
checks. COM levels (and hints) that take over 2 ms a move, timed once per game (Golf's
``hard`` search), do not play whole matches and are checked at ``CONTRACT_SLOW_RATE`` of
those moves (0.03); which levels count as slow is the one thing not fixed by the seed.

A defect a check finds in a registered game is listed in ``KNOWN_DEFECTS``: that check is
then a strict xfail for that game, until the game is fixed.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
import re
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

import games
from cards.deck import is_card_code
from cards.errors import (
    EngineError,
    IllegalActionError,
    MalformedActionError,
    MalformedEventError,
    RulesError,
)
from cards.protocol import COM, HUMAN, OPEN, Game
from cards.shuffle import commitment_of
from tests.toy import TOY

PLAYOUTS = int(os.environ.get("CONTRACT_PLAYOUTS", "30"))
MAX_STEPS = int(os.environ.get("CONTRACT_STEPS", "400"))
CHECK_RATE = float(os.environ.get("CONTRACT_CHECK_RATE", "0.3"))
BASE_SEED = os.environ.get("CONTRACT_SEED", "contract")
SLOW_RATE = float(os.environ.get("CONTRACT_SLOW_RATE", "0.03"))  # slow COM levels, hints
SLOW_SECONDS = 0.002  # a COM level slower than this a move is "slow"
ILLEGAL_SAMPLES = 4  # refused actions tried per seat and checked move
TERMINATION_STEPS = 20_000
ABORT_REASON = "contract test"
CODE = re.compile(r"[a-z][a-z0-9_]*")

GAMES = sorted({g.info.name for g in games.all_games()} | {TOY.info.name})


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[None]:
    games.register(TOY)
    yield
    games.unregister(TOY.info.name)


# --- helpers ----------------------------------------------------------------------------
def dumps(data: Any) -> str:
    """Canonical JSON text of ``data``, which must be JSON-ready (no tuples, no int keys)."""
    text = json.dumps(data, sort_keys=True, allow_nan=False)
    assert json.loads(text) == data, f"not JSON-ready data: {data!r}"
    return text


def cards_in(data: Any) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif is_card_code(item):
            found.add(item)
    return found


def expect_illegal(game: Game, state: Any, seat: int, action: Any) -> None:
    with pytest.raises(IllegalActionError) as caught:
        game.decide(state, seat, action)
    code = caught.value.code
    assert isinstance(code, str) and CODE.fullmatch(code), f"bad error code {code!r}"
    assert str(caught.value), "an error without a message"


def actions_json(game: Game, actions: Sequence[Any]) -> list[str]:
    return [dumps(game.action_to_json(a)) for a in actions]


_NOT_SCHEMA_WORDS = ("nullable", "discriminator", "example", "examples")


def json_schema(schema: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema (``nullable`` becomes a union with null)."""
    if isinstance(schema, list):
        return [json_schema(s) for s in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _NOT_SCHEMA_WORDS:
            continue
        if key == "properties":
            out[key] = {name: json_schema(sub) for name, sub in value.items()}
        elif key in ("enum", "required", "const"):
            out[key] = value
        else:
            out[key] = json_schema(value)
    if schema.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


class Shapes:
    """Validates JSON against a game's own schemas (as the OpenAPI schema holds them)."""

    def __init__(self, game: Game) -> None:
        self.schemas = game.json_schemas()
        self.root = {
            "components": {
                "schemas": {k: json_schema(v) for k, v in self.schemas.components.items()}
            }
        }
        self._validators: dict[str, jsonschema.Draft202012Validator] = {}

    def validate(self, data: Any, name: str) -> None:
        if name not in self._validators:
            schema = {**self.root, "$ref": f"#/components/schemas/{name}"}
            self._validators[name] = jsonschema.Draft202012Validator(schema)
        self._validators[name].validate(data)


_SHAPES: dict[str, Shapes] = {}


def shapes_of(game: Game) -> Shapes:
    if game.info.name not in _SHAPES:
        _SHAPES[game.info.name] = Shapes(game)
    return _SHAPES[game.info.name]


def random_option_value(schema: Mapping[str, Any], rng: random.Random) -> Any:
    """A value for a rules option drawn from its schema (small integers: short matches);
    ``None`` when the schema gives no simple domain."""
    if "enum" in schema:
        return rng.choice(list(schema["enum"]))
    kind = schema.get("type")
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "integer":
        low = schema.get("minimum", 0)
        return rng.randint(low, min(schema.get("maximum", low + 8), low + 8))
    return None


def check_rules_error(game: Game, exc: RulesError) -> None:
    names = {o.name for o in game.info.options} | {"preset", "players", "seed", "rules"}
    assert exc.field in names, f"a RulesError names {exc.field!r}, not an option"
    assert exc.code == RulesError.code


_SLOW: dict[str, frozenset[str]] = {}
HINT = "(hint)"


def slow_levels(game: Game) -> frozenset[str]:
    """The COM levels (and ``HINT``) too slow to check at every move, timed on a few states
    of one random match."""
    if game.info.name in _SLOW:
        return _SLOW[game.info.name]
    rng = random.Random(f"{BASE_SEED}/timing")
    rules = game.rules(game.info.default_preset, {})
    seats = game.seat_limits(rules)[0]
    state = game.replay(game.start(rules, [HUMAN] * seats, bytes(32)))
    samples: list[tuple[Any, int]] = []
    for step in range(60):
        to_act = game.seats_to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        if step % 10 == 0:
            samples.append((state, seat))
        action = rng.choice(game.legal_actions(state, seat))
        state = game.replay(game.decide(state, seat, action), state)
    slow = set()
    for level in [*game.info.com_levels, HINT]:
        began = time.perf_counter()
        for value, seat in samples:
            if level == HINT:
                game.hint(value, seat)
            else:
                game.com_action(value, seat, level, random.Random(0))
        if (time.perf_counter() - began) / max(len(samples), 1) > SLOW_SECONDS:
            slow.add(level)
    _SLOW[game.info.name] = frozenset(slow)
    return _SLOW[game.info.name]


# --- one random playout -----------------------------------------------------------------
@dataclass
class Playout:
    """A match played at random through the protocol, checking as it goes."""

    game: Game
    rng: random.Random
    index: int
    preset: str = ""
    rules: Any = None
    kinds: list[str] = field(default_factory=list)
    open_seats: list[int] = field(default_factory=list)  # humans' seats left open at first
    levels: list[str] = field(default_factory=list)
    seed: bytes = b""
    events: list[Any] = field(default_factory=list)
    batches: list[tuple[int, int]] = field(default_factory=list)  # [start, end) of each
    pool: dict[str, Any] = field(default_factory=dict)  # every action seen, by JSON text
    own_moves: int = 0  # the moves that recorded an event of their seat's own
    state: Any = None

    @property
    def seats(self) -> int:
        return len(self.kinds)

    @property
    def viewers(self) -> list[int | None]:
        return [None, *range(self.seats)]

    def fresh_rng(self) -> random.Random:
        return random.Random(self.rng.getrandbits(64))

    # --- setting up ---------------------------------------------------------------------
    def set_up(self) -> None:
        game, rng, info = self.game, self.rng, self.game.info
        self.preset = info.presets[self.index % len(info.presets)]
        overrides: dict[str, Any] = {}
        if self.index % 3:  # a third of the playouts play the bare presets
            for option in info.options:
                value = random_option_value(option.schema, rng)
                if value is not None and rng.random() < 0.3:
                    overrides[option.name] = value
        try:
            self.rules = game.rules(self.preset, overrides)
        except RulesError as exc:
            check_rules_error(game, exc)
            self.rules = game.rules(self.preset, {})
        low, high = game.seat_limits(self.rules)
        assert info.min_seats <= low <= high <= info.max_seats
        seats = low + (self.index // len(info.presets)) % (high - low + 1)
        self.seed = rng.randbytes(32)
        for attempt in range(12):
            if attempt % 3 == 2:  # some rules want one human among COMs (Golf's undo)
                kinds = [COM] * seats
                kinds[rng.randrange(seats)] = HUMAN
            else:
                kinds = [rng.choice((HUMAN, COM)) for _ in range(seats)]
            try:
                first = game.start(self.rules, self.opened(kinds), self.seed)
                break
            except RulesError as exc:
                check_rules_error(game, exc)
        else:  # these options cannot be played with this many seats: the preset can
            self.rules = game.rules(self.preset, {})
            first = game.start(self.rules, self.opened(kinds), self.seed)
        self.kinds = kinds
        fast = [lv for lv in info.com_levels if lv not in slow_levels(game)]
        self.levels = [rng.choice(fast or list(info.com_levels)) for _ in kinds]
        self.record(first)

    def opened(self, kinds: list[str]) -> list[str]:
        """The seats' kinds at the start: in every fourth playout some human seats are left
        open, to be taken before anyone plays (``take_open_seats``)."""
        humans = [s for s, kind in enumerate(kinds) if kind == HUMAN]
        self.open_seats = [s for s in humans if self.index % 4 == 1 and self.rng.random() < 0.7]
        return [OPEN if s in self.open_seats else kind for s, kind in enumerate(kinds)]

    def record(self, batch: list[Any], by: int | None = None) -> None:
        """Append the events of ``by``'s move (``None``: of the start or an abort). Each is
        that seat's own or the rules' (``acting_seat``; an undo's is neither), and the moves
        record some of their own (``check_ended``): the verifier checks the log's actor of
        each against the seat it names."""
        assert batch, "no events"
        for event in batch:
            dumps(self.game.event_to_row(event)[2])
        acting = [self.game.acting_seat(event) for event in batch]
        assert set(acting) <= {None, by}, f"seat {by}'s move records another's: {batch}"
        self.own_moves += by is not None and by in acting
        before = len(self.events)
        self.events.extend(batch)
        self.batches.append((before, len(self.events)))
        self.state = self.game.replay(batch, self.state)

    # --- playing ------------------------------------------------------------------------
    def take_open_seats(self) -> None:
        """While a seat is open nobody is to act and every action is refused
        (``waiting_for_players``); taking a seat that is not open is refused too."""
        game, rng = self.game, self.rng
        filled = self.state
        for seat in self.open_seats:
            filled = game.replay(game.join(filled, seat), filled)
        waiting = [(s, a) for s in game.seats_to_act(filled) for a in game.legal_actions(filled, s)]
        for seat in rng.sample(self.open_seats, len(self.open_seats)):
            assert game.seats_to_act(self.state) == ()
            assert all(game.legal_actions(self.state, s) == [] for s in range(self.seats))
            for s, action in rng.sample(waiting, min(len(waiting), 3)):
                with pytest.raises(IllegalActionError) as refused:
                    game.decide(self.state, s, action)
                assert refused.value.code == "waiting_for_players"
            taken = [s for s, kind in enumerate(game.players(self.state)) if kind != OPEN]
            for other in [*rng.sample(taken, min(len(taken), 1)), -1, self.seats]:
                with pytest.raises(IllegalActionError) as refused:
                    game.join(self.state, other)
                assert refused.value.code == "seat_not_open"
            self.check_views()
            self.record(game.join(self.state, seat), seat)
        assert game.players(self.state) == tuple(self.kinds)

    def play(self) -> None:
        game, rng = self.game, self.rng
        self.take_open_seats()
        abort_at = rng.randrange(12) if self.index % 5 == 4 else None
        hand_over_at = rng.randrange(30) if self.index % 3 == 2 else None
        last_round = 0
        for step in range(MAX_STEPS):
            summary = game.summary(self.state)
            assert summary.round >= last_round, "the round went back"
            last_round = summary.round
            if summary.status != "active":
                return
            legal = self.check_active()
            checked = step < 3 or rng.random() < CHECK_RATE
            if checked:
                self.check_views()
                self.check_legality(legal)
                self.check_coms(legal)
            if step == abort_at:
                self.abort()
                return
            if step == hand_over_at:
                self.hand_over()
                legal = self.check_active()
            to_act = game.seats_to_act(self.state)
            others = [s for s in range(self.seats) if legal[s] and s not in to_act]
            seat = rng.choice(others if others and rng.random() < 0.05 else list(to_act))
            if self.kinds[seat] == COM and seat in to_act:
                action = game.com_action(self.state, seat, self.levels[seat], self.fresh_rng())
                assert dumps(game.action_to_json(action)) in actions_json(game, legal[seat])
            else:
                action = rng.choice(legal[seat])
            batch = game.decide(self.state, seat, action)
            if checked:
                self.check_redaction_carries_over(seat, action, batch)
            self.record(batch, seat)
        if game.summary(self.state).status == "active":
            self.abort()

    def hand_over(self) -> None:
        """A player's seat goes to a COM (its player left, or staff handed it over), which
        plays it from then on; a seat that is not a player's is refused."""
        game, rng = self.game, self.rng
        humans = [s for s, kind in enumerate(self.kinds) if kind == HUMAN]
        others = [s for s in range(self.seats) if s not in humans]
        for other in [*others[:1], -1, self.seats]:
            with pytest.raises(IllegalActionError) as refused:
                game.hand_over(self.state, other)
            assert refused.value.code == "seat_not_human"
        if humans:
            seat = rng.choice(humans)
            self.record(game.hand_over(self.state, seat))
            self.kinds[seat] = COM
            assert game.players(self.state) == tuple(self.kinds)

    def abort(self) -> None:
        self.record(self.game.abort(self.state, ABORT_REASON))
        assert self.game.summary(self.state).status == "aborted"

    # --- checks of a running match --------------------------------------------------------
    def check_active(self) -> list[list[Any]]:
        """The cheap checks of every move; returns each seat's legal actions."""
        game, state = self.game, self.state
        summary = game.summary(state)
        assert summary.status == "active" and summary.winners == ()
        assert 0 <= summary.round <= summary.rounds
        assert len(summary.totals) == self.seats and isinstance(summary.phase, str)
        assert game.revealed_seed(state) is None
        assert game.players(state) == tuple(self.kinds)
        assert game.commitment(state) == commitment_of(self.seed)
        to_act = game.seats_to_act(state)
        assert to_act, "a running match waits for nobody"
        assert list(to_act) == sorted(set(to_act)) and set(to_act) <= set(range(self.seats))
        legal = [game.legal_actions(state, seat) for seat in range(self.seats)]
        for seat in to_act:
            assert legal[seat], f"seat {seat} is to act but has no legal action"
        return legal

    def check_views(self) -> None:
        """Each viewer's view is JSON in the game's schema without the seed, and the same
        in a state where everything it cannot see is drawn afresh."""
        game, state = self.game, self.state
        shapes, seed = shapes_of(game), self.seed.hex()
        summary, to_act = game.summary(state), game.seats_to_act(state)
        for viewer in self.viewers:
            view = game.view(state, viewer)
            text = dumps(view)
            assert seed not in text, f"the seed in the view of {viewer}"
            shapes.validate(view, shapes.schemas.view)
            other = game.resample_hidden(state, viewer, self.fresh_rng())
            assert dumps(game.view(other, viewer)) == text, f"{viewer}'s view shows hidden cards"
            assert game.summary(other) == summary and game.seats_to_act(other) == to_act
            assert game.revealed_seed(other) is None
            if viewer is None:
                continue
            legal = actions_json(game, game.legal_actions(state, viewer))
            assert actions_json(game, game.legal_actions(other, viewer)) == legal
            if "legal_actions" in view:
                assert [dumps(a) for a in view["legal_actions"]] == legal

    def check_legality(self, legal: list[list[Any]]) -> None:
        """Every legal action (through its JSON) is accepted; any other action seen in the
        playout (the other seats' legal ones now, earlier ones) is refused with a code."""
        game, state, shapes = self.game, self.state, shapes_of(self.game)
        before = dumps(game.state_to_json(state))
        texts = [actions_json(game, actions) for actions in legal]
        for seat in range(self.seats):
            assert len(set(texts[seat])) == len(texts[seat]), "an action listed twice"
            for text in texts[seat]:
                data = json.loads(text)
                shapes.validate(data, shapes.schemas.action)
                action = game.action_from_json(data)
                assert dumps(game.action_to_json(action)) == text
                assert game.decide(state, seat, action), "an action with no event"
                self.pool.setdefault(text, action)
        for seat in range(self.seats):
            refused = [a for t, a in self.pool.items() if t not in texts[seat]]
            others = [t for s in range(self.seats) for t in texts[s] if t not in texts[seat]]
            sample = self.rng.sample(refused, min(len(refused), ILLEGAL_SAMPLES))
            if others:  # another seat's move, now
                sample.append(self.pool[self.rng.choice(others)])
            for action in sample:
                expect_illegal(game, state, seat, action)
        for seat in (-1, self.seats):  # not a seat at this table
            assert game.legal_actions(state, seat) == []
            if self.pool:
                expect_illegal(game, state, seat, next(iter(self.pool.values())))
        assert dumps(game.state_to_json(state)) == before, "decide changed the state"

    def check_coms(self, legal: list[list[Any]]) -> None:
        """COMs and hints choose legal actions, from the seat's view alone."""
        game, state, slow = self.game, self.state, slow_levels(self.game)
        for seat in game.seats_to_act(state):
            texts = actions_json(game, legal[seat])
            for level in [*game.info.com_levels, HINT]:
                if level in slow and self.rng.random() > SLOW_RATE:
                    continue
                other = game.resample_hidden(state, seat, self.fresh_rng())
                if level == HINT:
                    hint = game.hint(state, seat)
                    assert set(hint) >= {"action", "reason"}, hint
                    assert isinstance(hint["reason"], str) and hint["reason"]
                    text = dumps(game.action_to_json(game.action_from_json(hint["action"])))
                    assert text in texts, f"hint {hint} is not a legal action"
                    assert dumps(game.hint(other, seat)) == dumps(hint), "the hint peeks"
                    continue
                key = self.rng.getrandbits(64)
                text = dumps(
                    game.action_to_json(game.com_action(state, seat, level, random.Random(key)))
                )
                assert text in texts, f"COM {level} chose {text}, not a legal action"
                again = game.com_action(other, seat, level, random.Random(key))
                assert dumps(game.action_to_json(again)) == text, f"COM {level} peeks"

    def check_redaction_carries_over(self, seat: int, action: Any, batch: list[Any]) -> None:
        """What a viewer reads of a move depends only on what it sees: the same move made
        where everything the viewer cannot see (cards, seed) is drawn afresh gives that
        viewer the same redacted events, whenever the move is still legal there and
        leaves the viewer the same view and seed. (A move naming cards the viewer cannot see is
        rarely legal in the redrawn state; such moves keep the bound of
        ``check_redacted``.)"""
        game = self.game
        text = dumps(game.action_to_json(action))
        mine = self.redacted_batch(self.state, batch)
        for viewer in self.viewers:
            other = game.resample_hidden(self.state, viewer, self.fresh_rng())
            if text not in actions_json(game, game.legal_actions(other, seat)):
                continue
            theirs = self.redacted_batch(other, game.decide(other, seat, action))
            if theirs[viewer][1] != mine[viewer][1]:
                continue  # the move shows the viewer cards that differ between the two
            assert theirs[viewer][0] == mine[viewer][0], (
                f"{viewer} reads {text} differently when the cards it cannot see differ"
            )

    def redacted_batch(self, state: Any, batch: list[Any]) -> dict[int | None, tuple[str, str]]:
        """Each viewer's redacted ``batch``, and what it sees after it (its view and the
        seed once revealed), as JSON text."""
        game = self.game
        texts: dict[int | None, list[Any]] = {viewer: [] for viewer in self.viewers}
        for event in batch:
            state = game.evolve(state, event)
            ended = game.summary(state).status != "active"
            for viewer in self.viewers:
                texts[viewer].append(game.redact(event, viewer, match_ended=ended))
        seed = game.revealed_seed(state)  # shown to all at the end
        return {v: (dumps(texts[v]), dumps([game.view(state, v), seed])) for v in self.viewers}

    # --- checks of the ended match and its log --------------------------------------------
    def check_ended(self) -> None:
        game, state = self.game, self.state
        summary = game.summary(state)
        assert summary.status in ("finished", "aborted")
        assert game.revealed_seed(state) == self.seed.hex()
        moves = len(self.batches) - 1 - (summary.status == "aborted")
        assert self.own_moves or moves <= 0, "no move recorded an event of its seat's own"
        assert game.seats_to_act(state) == ()
        assert len(summary.totals) == self.seats
        if summary.status == "finished":
            assert summary.winners and set(summary.winners) <= set(range(self.seats))
            check_rounds_played(game, summary)
        for seat in range(self.seats):
            assert game.legal_actions(state, seat) == []
            for action in list(self.pool.values())[:3]:
                expect_illegal(game, state, seat, action)
        for seat in [s for s, kind in enumerate(self.kinds) if kind == HUMAN][:1]:
            with pytest.raises(IllegalActionError) as refused:
                game.hand_over(state, seat)
            assert refused.value.code == "match_over"
        shapes = shapes_of(game)
        for viewer in self.viewers:
            shapes.validate(json.loads(dumps(game.view(state, viewer))), shapes.schemas.view)

    def check_log(self) -> None:
        game, events = self.game, self.events
        final = dumps(game.state_to_json(self.state))
        states, value = [], None
        for event in events:  # the fold, one event at a time
            value = game.evolve(value, event)
            states.append(value)
        assert dumps(game.state_to_json(value)) == final
        assert dumps(game.state_to_json(game.replay(events))) == final
        # snapshots (where the store takes them: after a batch) and replays from them
        for _, end in self.rng.sample(self.batches, min(len(self.batches), 4)):
            saved = dumps(game.state_to_json(states[end - 1]))
            loaded = game.state_from_json(json.loads(saved))
            assert dumps(game.state_to_json(loaded)) == saved
            if end < len(events):
                assert dumps(game.state_to_json(game.replay(events[end:], loaded))) == final
                # a replay folds into a copy of its own: the snapshot is left as it was
                assert dumps(game.state_to_json(loaded)) == saved
        # stored rows, through JSON as the database keeps them
        rows = [game.event_to_row(e) for e in events]
        loaded_events = []
        for type_, version, payload in rows:
            assert isinstance(type_, str) and type_ and isinstance(version, int) and version >= 1
            event = game.event_from_row(type_, version, json.loads(dumps(payload)))
            assert dumps(list(game.event_to_row(event))) == dumps([type_, version, payload])
            loaded_events.append(event)
        assert dumps(game.state_to_json(game.replay(loaded_events))) == final
        with pytest.raises(MalformedEventError):
            game.event_from_row("no_such_event", 1, {})
        self.check_redacted(states)
        self.check_audit(rows)

    def check_redacted(self, states: list[Any]) -> None:
        """An event as a viewer reads it while the match runs shows no seed, and no card
        the viewer's view did not show right after it.

        The protocol's stronger promise (each viewer's redacted events are the same
        whatever the cards it cannot see) is checked as the moves are made, for the moves
        that carry over to a state with the unseen cards redrawn
        (``check_redaction_carries_over``); a move naming another seat's hidden cards
        rarely does there, so every event also gets this bound by the views.
        """
        game, seed = self.game, self.seed.hex()
        shapes = shapes_of(game)
        event_schema = shapes.schemas.event
        for event, after in zip(self.events, states, strict=True):
            ended = game.summary(after).status != "active"
            kind = game.event_to_row(event)[0]
            for viewer in self.viewers:
                text = dumps(game.redact(event, viewer, match_ended=ended))
                if event_schema is not None:  # its data, as documented for its type
                    shapes.validate(json.loads(text), f"{event_schema}_{kind}")
                if ended:
                    continue
                assert seed not in text, f"the seed in an event for {viewer}"
                shown = cards_in(json.loads(text)) - cards_in(game.view(after, viewer))
                assert not shown, f"{event} shows {viewer} the unseen cards {shown}"

    def check_audit(self, rows: list[tuple[str, int, dict[str, Any]]]) -> None:
        game, events, rng = self.game, self.events, self.rng
        audit = game.audit(events)
        assert audit.faults == []
        assert audit.deals_checked >= 1
        assert dumps(game.state_to_json(audit.state)) == dumps(game.state_to_json(self.state))
        for _, end in rng.sample(self.batches, min(len(self.batches), 2)):
            assert game.audit(events[:end]).faults == [], "a log cut after a batch is sound"
        cut = [end for start, end in self.batches if end - start > 1]
        if cut:
            end = rng.choice(cut)
            assert game.audit(events[: end - 1]).faults, "a log missing a derived event passes"
        # derived facts: what start() adds to match_started (the deal, ...), and the end
        first_batch = self.batches[0]
        targets = list(range(first_batch[0] + 1, first_batch[1]))
        if game.summary(self.state).status == "finished":
            targets.append(len(events) - 1)
        tried = 0
        for index in targets:
            for changed in tampered(rows[index], rng):
                try:
                    forged = game.event_from_row(*changed)
                except MalformedEventError:
                    tried += 1
                    continue  # refused as it is read
                if dumps(list(game.event_to_row(forged))) == dumps(list(rows[index])):
                    continue
                tried += 1
                log = [*events[:index], forged, *events[index + 1 :]]
                assert game.audit(log).faults, f"the audit passes a forged {changed}"
        assert tried or not targets, "no derived fact could be changed"
        # a row no engine wrote, that the rules cannot even read: a fault, never a crash
        for index in rng.sample(range(len(rows)), min(len(rows), 8)):
            for changed, was_card in garbled(rows[index], rng):
                try:
                    forged = game.event_from_row(*changed)
                except MalformedEventError:
                    continue
                audit = game.audit([*events[:index], forged, *events[index + 1 :]])
                assert audit.faults or not was_card, f"the audit passes a garbled {changed}"
        # the seed (and its commitment) in the first event
        type_, version, payload = rows[0]
        seed = self.seed.hex()
        if seed not in dumps(payload):
            return
        forged_payload = json.loads(dumps(payload).replace(seed, seed[::-1]))
        forged = game.event_from_row(type_, version, forged_payload)
        assert game.audit([forged, *events[1:]]).faults, "the audit passes another seed"


def leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from leaves(value, (*path, i))
    else:
        yield path, data


def tampered(row: tuple[str, int, dict[str, Any]], rng: random.Random) -> Iterator[Any]:
    """Copies of a stored row with one leaf of its payload changed."""
    type_, version, payload = row
    found = [(p, v) for p, v in leaves(payload) if v is not None]
    for path, value in rng.sample(found, min(len(found), 4)):
        if isinstance(value, bool):
            new: Any = not value
        elif isinstance(value, int):
            new = value + rng.choice((-1, 1))
        elif is_card_code(value):
            new = rng.choice([c for c in ("AS", "KH", "QD", "JC", "TS") if c != value])
        elif isinstance(value, str) and value:
            new = value[::-1] if value[::-1] != value else value + "0"
        else:
            continue
        data = copy.deepcopy(payload)
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = new
        yield type_, version, data


def garbled(row: tuple[str, int, dict[str, Any]], rng: random.Random) -> Iterator[Any]:
    """Copies of a stored row with one leaf made unreadable: a string that is no card, no
    hex and no name, or a string where a number was. Yields ``(row, was a card)``."""
    type_, version, payload = row
    found = [(p, v) for p, v in leaves(payload) if isinstance(v, str | int)]
    for path, value in rng.sample(found, min(len(found), 3)):
        data = copy.deepcopy(payload)
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = "??" if isinstance(value, str) else str(value) + "?"
        yield (type_, version, data), isinstance(value, str) and is_card_code(value)


PLAYOUT_CASES = [
    pytest.param(name, index, id=f"{name}-{index}") for name in GAMES for index in range(PLAYOUTS)
]


@pytest.mark.parametrize(("name", "index"), PLAYOUT_CASES)
def test_random_playout(name: str, index: int) -> None:
    game = games.get_game(name)
    playout = Playout(game, random.Random(f"{BASE_SEED}/{name}/{index}"), index)
    playout.set_up()
    playout.play()
    playout.check_ended()
    playout.check_log()


# --- the game's description, rules and actions ------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_info_and_schemas(name: str) -> None:
    game = games.get_game(name)
    info = game.info
    assert info.name == name and info.title and info.round_name
    assert info.presets and info.default_preset in info.presets
    assert info.com_levels and info.default_com_level in info.com_levels
    assert 1 <= info.min_seats <= info.max_seats
    assert len({o.name for o in info.options}) == len(info.options)
    if info.pause_option is not None:  # a boolean option of the game's, for pauses it has
        assert info.pause_phases
        option = next(o for o in info.options if o.name == info.pause_option)
        assert option.schema.get("type") == "boolean", option.schema
    schemas = game.json_schemas()
    prefix = info.title.replace(" ", "")
    assert all(name.startswith(prefix) for name in schemas.components), "names are the game's"
    for key in (schemas.rules, schemas.action, schemas.view, schemas.event):
        assert key is None or key in schemas.components
    refs = {v for _, v in leaves(json.loads(dumps(dict(schemas.components)))) if isinstance(v, str)}
    for ref in (r for r in refs if r.startswith("#/")):
        assert ref.removeprefix("#/components/schemas/") in schemas.components, ref
    shapes = shapes_of(game)
    for option in info.options:
        jsonschema.Draft202012Validator.check_schema(json_schema(option.schema))
    for preset in info.presets:
        data = game.preset_rules(preset)
        shapes.validate(json.loads(dumps(data)), schemas.rules)
        assert dumps(game.rules_to_json(game.rules(preset, {}))) == dumps(data)
        assert dumps(game.rules_to_json(game.rules_from_json(data))) == dumps(data)
        for option in info.options:
            jsonschema.validate(data.get(option.name), json_schema(option.schema))
    examples = schemas.examples
    for _, action in examples.get("actions", ()):
        shapes.validate(action, schemas.action)
        assert dumps(game.action_to_json(game.action_from_json(action))) == dumps(action)
    if "view" in examples:
        shapes.validate(examples["view"], schemas.view)
    if "hint" in examples:
        shapes.validate(examples["hint"]["action"], schemas.action)


@pytest.mark.parametrize("name", GAMES)
def test_rules_errors_name_the_option(name: str) -> None:
    game = games.get_game(name)
    preset = game.info.default_preset
    with pytest.raises(RulesError) as caught:
        game.rules("no-such-preset", {})
    assert caught.value.field == "preset"
    with pytest.raises(RulesError) as caught:
        game.rules(["not", "a", "name"], {})  # type: ignore[arg-type]
    assert caught.value.field == "preset"
    with pytest.raises(RulesError) as caught:
        game.rules(preset, {"no_such_option": 1})
    assert caught.value.field == "no_such_option"
    stored = game.preset_rules(preset)
    for data in ({**stored, "preset": ["not", "a", "name"]}, {**stored, 1: 2, "zz": 3}):
        with pytest.raises(RulesError):
            game.rules_from_json(data)
    for option in game.info.options:
        schema = json_schema(option.schema)
        candidates: list[Any] = ["not a value", -1000, {"?": "?"}, [[]]]
        wrong = next(
            v for v in candidates if not jsonschema.Draft202012Validator(schema).is_valid(v)
        )
        with pytest.raises(RulesError) as caught:
            game.rules(preset, {option.name: wrong})
        assert caught.value.field == option.name, f"{option.name}={wrong!r}: {caught.value}"
        with pytest.raises(RulesError):
            game.rules_from_json({**game.preset_rules(preset), option.name: wrong})


@pytest.mark.parametrize("name", GAMES)
def test_malformed_actions(name: str) -> None:
    game = games.get_game(name)
    rules = game.rules(game.info.default_preset, {})
    state = game.replay(game.start(rules, [HUMAN] * game.seat_limits(rules)[0], bytes(32)))
    legal = [a for s in game.seats_to_act(state) for a in game.legal_actions(state, s)]
    samples: list[Any] = [None, 0, 1.5, "play", [], {}, {"type": None}, {"type": 7}]
    samples.append({"type": "no-such-action"})
    for action in legal[:3]:
        data = game.action_to_json(action)
        samples.append({**data, "unexpected": 1})
        samples.append({**data, 1: 2, "unexpected": 1})  # keys JSON cannot write
        samples.extend({**data, key: {"bad": [1]}} for key in data)
    for data in samples:
        with pytest.raises(MalformedActionError):
            game.action_from_json(data)


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_not_at_the_table_has_no_actions_and_a_spectators_view(name: str) -> None:
    game = games.get_game(name)
    rules = game.rules(game.info.default_preset, {})
    seats = game.seat_limits(rules)[0]
    state = game.replay(game.start(rules, [HUMAN] * seats, bytes(32)))
    events = game.start(rules, [HUMAN] * seats, bytes(32))
    for _ in range(6):  # a few moves, so that some events show a seat what others may not see
        seat = game.seats_to_act(state)[0]
        batch = game.decide(state, seat, game.legal_actions(state, seat)[-1])
        after = game.replay(batch, state)
        if not game.seats_to_act(after):
            break  # a short match: its end shows every card anyway
        events.extend(batch)
        state = after
    to_act = game.seats_to_act(state)[0]
    assert game.legal_actions(state, to_act)
    for seat in (-1, seats, True, False, "0", str(to_act), 1.0, float(to_act), None):
        assert game.legal_actions(state, seat) == [], repr(seat)  # type: ignore[arg-type]
        assert game.view(state, seat) == game.view(state, None), repr(seat)  # type: ignore[arg-type]
        for event in events:
            redacted = game.redact(event, seat, match_ended=False)  # type: ignore[arg-type]
            assert redacted == game.redact(event, None, match_ended=False), (seat, event)
        with pytest.raises(IllegalActionError) as caught:
            game.decide(state, seat, game.legal_actions(state, to_act)[0])  # type: ignore[arg-type]
        assert CODE.fullmatch(caught.value.code)


@pytest.mark.parametrize("name", GAMES)
def test_a_hand_built_action_of_the_wrong_shape_is_refused(name: str) -> None:
    """Python callers (COMs, tools) build actions without the JSON parser: a field of the
    wrong type is refused with the game's own error, never a TypeError from inside."""
    game = games.get_game(name)
    tried = 0
    for preset in game.info.presets:
        rules = game.rules(preset, {})
        seats = game.seat_limits(rules)[0]
        state = game.replay(game.start(rules, [HUMAN] * seats, bytes(32)))
        seat = game.seats_to_act(state)[0]
        for action in game.legal_actions(state, seat)[:3]:
            if not dataclasses.is_dataclass(action):
                continue
            tried += 1
            for f in dataclasses.fields(action):
                for wrong in (None, -1, 10**6, True, "?", ["2C"], ("2C", 7, None), {"c": 1}):
                    bad = dataclasses.replace(action, **{f.name: wrong})
                    with pytest.raises((MalformedActionError, IllegalActionError)):
                        game.decide(state, seat, bad)
    assert tried, "no action of this game was tried"


# Defects of a registered game that a check below finds, by (game, check): the check is
# expected to fail for that game (strictly: it must be removed from here once fixed).
KNOWN_DEFECTS: dict[tuple[str, str], str] = {}


def known_defect(request: pytest.FixtureRequest, name: str, check: str) -> None:
    reason = KNOWN_DEFECTS.get((name, check))
    if reason is not None:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))


def single_overrides(game: Game) -> Iterator[dict[str, Any]]:
    """No override, then each option alone at each of its enumerable or extreme values."""
    yield {}
    for option in game.info.options:
        schema = option.schema
        values: list[Any] = list(schema.get("enum", ()))
        if schema.get("type") == "boolean":
            values = [False, True]
        elif schema.get("type") == "integer":
            values = [schema[b] for b in ("minimum", "maximum") if isinstance(schema.get(b), int)]
        for value in values:
            yield {option.name: value}


@pytest.mark.parametrize("name", GAMES)
def test_seat_limits_hold_for_the_rules(name: str, request: pytest.FixtureRequest) -> None:
    """Every seat count ``seat_limits(rules)`` allows can start, with some mix of seats."""
    known_defect(request, name, "seat_limits")
    game = games.get_game(name)
    unplayable = []
    for preset in game.info.presets:
        for overrides in single_overrides(game):
            try:
                rules = game.rules(preset, overrides)
            except RulesError as exc:
                check_rules_error(game, exc)
                continue
            low, high = game.seat_limits(rules)
            for seats in range(low, high + 1):
                mixes = ([HUMAN] * seats, [HUMAN] + [COM] * (seats - 1), [COM] * seats)
                errors = []
                for kinds in mixes:
                    try:
                        game.start(rules, kinds, bytes(32))
                        break
                    except RulesError as exc:
                        errors.append(str(exc))
                else:
                    unplayable.append(f"{preset} {overrides} with {seats} seats: {errors[0]}")
    assert not unplayable, unplayable


@pytest.mark.parametrize("name", GAMES)
def test_options_are_documented(name: str, request: pytest.FixtureRequest) -> None:
    known_defect(request, name, "option_docs")
    game = games.get_game(name)
    assert [o.name for o in game.info.options if not o.doc.strip()] == []


# --- every match ends --------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_match_finishes_under_com_play(name: str) -> None:
    game = games.get_game(name)
    rng = random.Random(f"{BASE_SEED}/{name}/termination")
    fast = [lv for lv in game.info.com_levels if lv not in slow_levels(game)]
    for preset in game.info.presets:
        rules = game.rules(preset, {})
        low, high = game.seat_limits(rules)
        for seats in range(low, high + 1):
            state = game.replay(game.start(rules, [COM] * seats, rng.randbytes(32)))
            events = []
            levels = [rng.choice([*fast, None]) for _ in range(seats)]  # None: random moves
            for _ in range(TERMINATION_STEPS):
                to_act = game.seats_to_act(state)
                if not to_act:
                    break
                seat = rng.choice(list(to_act))
                level = levels[seat]
                if level is None:
                    action = rng.choice(game.legal_actions(state, seat))
                else:
                    action = game.com_action(state, seat, level, rng)
                batch = game.decide(state, seat, action)
                events.extend(batch)
                state = game.replay(batch, state)
            summary = game.summary(state)
            assert summary.status == "finished", f"{preset} with {seats} seats: {summary}"
            assert summary.winners
            check_rounds_played(game, summary)


def check_rounds_played(game: Any, summary: Any) -> None:
    """A finished match played its ``rounds``, or, in a game that ends at a target score,
    at most that many (what a lobby says of a match: "hole 3 of 9", "deal 3 of at most 16")."""
    if game.info.ends_at_target:
        assert 1 <= summary.round <= summary.rounds, summary
    else:
        assert summary.round == summary.rounds, f"ended before its last round: {summary}"


@pytest.mark.parametrize("name", GAMES)
def test_abort_reveals_the_seed(name: str) -> None:
    game = games.get_game(name)
    for preset in game.info.presets:
        rules = game.rules(preset, {})
        seed = bytes(range(32))
        events = game.start(rules, [HUMAN] * game.seat_limits(rules)[0], seed)
        state = game.replay(events)
        assert game.revealed_seed(state) is None
        aborted = game.abort(state, ABORT_REASON)
        state = game.replay(aborted, state)
        assert game.summary(state).status == "aborted"
        assert game.revealed_seed(state) == seed.hex()
        assert game.seats_to_act(state) == ()
        assert game.audit([*events, *aborted]).faults == []


@pytest.mark.parametrize("name", GAMES)
def test_a_log_begins_with_its_one_match_started(name: str) -> None:
    game = games.get_game(name)
    rules = game.rules(game.info.presets[0], {})
    events = game.start(rules, [HUMAN] * game.seat_limits(rules)[0], bytes(range(32)))
    state = game.replay(events)
    with pytest.raises(EngineError, match="first event must be match_started"):
        game.replay(events[1:])
    with pytest.raises(EngineError, match="first event must be match_started"):
        game.evolve(None, events[1])
    with pytest.raises(EngineError, match="match_started must be the first event"):
        game.evolve(state, events[0])
    with pytest.raises(EngineError, match="match_started must be the first event"):
        game.replay(events[:1], state)
    with pytest.raises(EngineError, match="no events to replay"):
        game.replay([])


@pytest.mark.parametrize("name", GAMES)
def test_a_forged_seat_list_is_a_fault_not_a_crash(name: str) -> None:
    """``match_started``'s seats rewritten to what no engine writes (a count of 10**24 seats
    once crashed the audit, and 10**9 built a tuple of that many before refusing it)."""
    game = games.get_game(name)
    rules = game.rules(game.info.presets[0], {})
    events = game.start(rules, [COM] * game.seat_limits(rules)[0], bytes(range(32)))
    type_, version, payload = game.event_to_row(events[0])
    assert "players" in payload
    for players in (10**24, 10**9, -1, 0, True, None, "human", {}, [HUMAN] * 10_000):
        forged_payload = {**copy.deepcopy(payload), "players": players}
        try:
            forged = game.event_from_row(type_, version, forged_payload)
        except MalformedEventError:
            continue
        assert game.audit([forged, *events[1:]]).faults, f"the audit passes players={players!r}"


def test_the_redaction_check_sees_a_leak_that_names_no_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A redaction telling the others the colour of a card drawn from Golf's stock shows
    no card code, so only the carried-over check can see it: it does, in a playout."""
    import golf.views
    from golf.events import CardDrawn

    redact = golf.views.redact_event

    def leaky(event: Any, seat: int | None, *, match_ended: bool) -> dict[str, Any]:
        payload = redact(event, seat, match_ended=match_ended)
        if isinstance(event, CardDrawn) and payload.get("card") is None:
            payload["red"] = event.card[1] in "HD"
        return payload

    monkeypatch.setattr(golf.views, "redact_event", leaky)
    monkeypatch.setattr(sys.modules[__name__], "CHECK_RATE", 1.0)  # every move checked
    game = games.get_game("golf")
    playout = Playout(game, random.Random("golf/leak"), 0)
    playout.set_up()
    with pytest.raises(AssertionError, match="differently when the cards it cannot see"):
        playout.play()
