"""Hearts as a :class:`cards.protocol.Game`: the one object the platform talks to (through
the registry, ``games``)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cards.protocol import GameInfo, LogAudit, Option, Schemas, Summary
from cards.seating import hand_over
from cards.shuffle import commitment_of
from hearts import schemas, snapshot
from hearts.actions import Action, action_from_json
from hearts.audit import audit_log
from hearts.com import LEVELS, choose_action
from hearts.com.hint import hint
from hearts.decide import abort_match, decide, join_match, legal_actions, start_match
from hearts.events import SEAT_MOVES, Event, event_from_payload, event_payload
from hearts.hidden import resample_hidden
from hearts.rules import MAX_PLAYERS, MIN_PLAYERS, OPTION_NAMES, OPTION_SCHEMAS, PRESETS, Rules
from hearts.state import Phase, State, evolve, replay
from hearts.views import redact_event, view_for

_STATUS = {Phase.FINISHED: "finished", Phase.ABORTED: "aborted"}


class Hearts:
    """Hearts for 3 to 5 players (``docs/hearts.md`` and the rules reference)."""

    info = GameInfo(
        name="hearts",
        title="Hearts",
        description=(
            "A trick-taking game where points are bad: every heart you take is a point, "
            "the queen of spades 13. Follow suit; hearts cannot be led until broken. When "
            "someone reaches the target score, the lowest total wins."
        ),
        round_name="deal",
        ends_at_target=True,
        engine=2,  # 2: a match ending on its last allowed deal ends for ``deal_limit``
        min_seats=MIN_PLAYERS,
        max_seats=MAX_PLAYERS,
        presets=tuple(sorted(PRESETS)),
        default_preset="hearts",
        options=tuple(
            Option(name, OPTION_SCHEMAS[name]["description"], OPTION_SCHEMAS[name])
            for name in OPTION_NAMES
        ),
        com_levels=LEVELS,
        default_com_level="normal",
        default_seats={preset: ("me", "com", "com", "com") for preset in PRESETS},
    )

    # --- rules ------------------------------------------------------------------------
    def rules(self, preset: str, overrides: Mapping[str, Any]) -> Rules:
        return Rules.from_preset(preset, **overrides)

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return rules.to_json()

    def rules_from_json(self, data: Mapping[str, Any]) -> Rules:
        return Rules.from_json(data)

    def preset_rules(self, preset: str) -> dict[str, Any]:
        return Rules.from_preset(preset).to_json()

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        return rules.seat_range()

    def json_schemas(self) -> Schemas:
        return Schemas(
            schemas.SCHEMAS,
            rules="HeartsRules",
            action="HeartsAction",
            view="HeartsView",
            event="HeartsEvent",
            examples=schemas.EXAMPLES,
        )

    # --- playing ----------------------------------------------------------------------
    def start(self, rules: Rules, players: Sequence[str], seed: bytes) -> list[Event]:
        return start_match(rules, players, seed)

    def action_from_json(self, data: object) -> Action:
        return action_from_json(data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action.to_json()

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal_actions(state, seat)

    def decide(self, state: State, seat: int, action: Action) -> list[Event]:
        return decide(state, seat, action)

    def join(self, state: State, seat: int) -> list[Event]:
        return join_match(state, seat)

    def hand_over(self, state: State, seat: int) -> list[Event]:
        return [*hand_over(state.players, seat, ended=state.ended)]

    def abort(self, state: State, reason: str) -> list[Event]:
        return abort_match(state, reason)

    def evolve(self, state: State | None, event: Event) -> State:
        return evolve(state, event)

    def replay(self, events: Iterable[Event], state: State | None = None) -> State:
        return replay(events, state)

    # --- storing ----------------------------------------------------------------------
    def event_to_row(self, event: Event) -> tuple[str, int, dict[str, Any]]:
        return event.name, event.version, event_payload(event)

    def event_from_row(self, type_: str, version: int, payload: Mapping[str, Any]) -> Event:
        return event_from_payload(type_, version, payload)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return snapshot.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return snapshot.state_from_json(data)

    # --- reading ----------------------------------------------------------------------
    def seats_to_act(self, state: State) -> tuple[int, ...]:
        return state.seats_to_act()

    def summary(self, state: State) -> Summary:
        return Summary(
            status=_STATUS.get(state.phase, "active"),  # type: ignore[arg-type]
            round=state.deal,
            rounds=state.rules.deal_limit(state.seats),
            phase=state.phase.value,
            totals=state.totals,
            winners=state.winners,
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view_for(state, seat).to_json()

    def redact(self, event: Event, seat: int | None, *, match_ended: bool) -> dict[str, Any]:
        return redact_event(event, seat, match_ended=match_ended)

    def acting_seat(self, event: Event) -> int | None:
        return event.seat if isinstance(event, SEAT_MOVES) else None

    def players(self, state: State) -> tuple[str, ...]:
        return state.players

    def commitment(self, state: State) -> str:
        return commitment_of(state.seed)

    def revealed_seed(self, state: State) -> str | None:
        return state.seed.hex() if state.ended else None

    # --- computer players and hints ---------------------------------------------------
    def com_action(self, state: State, seat: int, level: str, rng: random.Random) -> Action:
        return choose_action(level, view_for(state, seat), state.rules, rng)

    def hint(self, state: State, seat: int) -> dict[str, Any]:
        return hint(view_for(state, seat), state.rules).to_json()

    # --- verifying and testing --------------------------------------------------------
    def audit(self, events: Sequence[Event]) -> LogAudit:
        return audit_log(events)

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        return resample_hidden(state, seat, rng)


HEARTS = Hearts()
