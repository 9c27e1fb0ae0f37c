"""Golf as a :class:`cards.protocol.Game`: the one object the platform talks to (through
the registry, ``games``)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cards.protocol import GameInfo, LogAudit, Option, Schemas, Summary
from cards.seating import hand_over
from cards.shuffle import commitment_of
from golf import actions, events, schemas, snapshot, state, views
from golf.audit import audit_log
from golf.com import LEVEL_ALIASES, LEVELS, choose_action
from golf.com.hint import hint
from golf.decide import abort_match, decide, join_match, legal_actions, start_match
from golf.errors import RulesError
from golf.hidden import resample_hidden
from golf.rules import (
    DEFAULT_SEATS,
    FIELD_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_DOCS,
    PRESETS,
    Rules,
)

_STATUS = {state.Phase.FINISHED: "finished", state.Phase.ABORTED: "aborted"}


class Golf:
    """Six-card, nine-card and their variants (``docs/golf.md`` and the rules reference)."""

    info = GameInfo(
        name="golf",
        title="Golf",
        description=(
            "Each player has a grid of face-down cards; draw from the stock or take the "
            "discard, swap it into your grid or discard it, and finish a hole with the "
            "lowest grid. Matching cards in a column (or row) score nothing."
        ),
        round_name="hole",
        min_seats=MIN_PLAYERS,
        max_seats=MAX_PLAYERS,
        presets=tuple(sorted(PRESETS)),
        default_preset="six-card",
        options=tuple(
            Option(name, OPTION_DOCS[name]["description"], schemas.option_schema(name))
            for name in FIELD_NAMES
        ),
        com_levels=tuple(LEVELS),
        default_com_level="normal",
        com_level_aliases=dict(LEVEL_ALIASES),
        # one human and two COMs on a 3x3 grid (as Flick Nines plays), else one COM
        default_seats=dict(DEFAULT_SEATS),
        pause_phases=(state.Phase.HOLE_OVER.value,),
        pause_option="pause_between_holes",
        # a seat's opening flips, and a draw then its placement, are one turn each
        turn_goes_on_phases=(state.Phase.FLIPS.value, state.Phase.PLACE.value),
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
        """The seat counts whose deal the decks of ``rules`` can hold."""
        fit = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if _fits(rules, n)]
        return (fit[0], fit[-1]) if fit else (MIN_PLAYERS, MIN_PLAYERS - 1)

    def json_schemas(self) -> Schemas:
        return Schemas(
            schemas.SCHEMAS,
            rules="GolfRules",
            action="GolfAction",
            view="GolfView",
            event="GolfEvent",
            examples=schemas.EXAMPLES,
        )

    # --- playing ----------------------------------------------------------------------
    def start(self, rules: Rules, players: Sequence[str], seed: bytes) -> list[events.Event]:
        return start_match(rules, players, seed)

    def action_from_json(self, data: object) -> actions.Action:
        return actions.action_from_json(data)

    def action_to_json(self, action: actions.Action) -> dict[str, Any]:
        return action.to_json()

    def legal_actions(self, value: state.State, seat: int) -> list[actions.Action]:
        return legal_actions(value, seat)

    def decide(self, value: state.State, seat: int, action: actions.Action) -> list[events.Event]:
        return decide(value, seat, action)

    def join(self, value: state.State, seat: int) -> list[events.Event]:
        return join_match(value, seat)

    def hand_over(self, value: state.State, seat: int) -> list[events.Event]:
        return [*hand_over(value.players, seat, ended=value.ended)]

    def abort(self, value: state.State, reason: str) -> list[events.Event]:
        return abort_match(value, reason)

    def evolve(self, value: state.State | None, event: events.Event) -> state.State:
        return state.evolve(value, event)

    def replay(
        self, items: Iterable[events.Event], value: state.State | None = None
    ) -> state.State:
        return state.replay(items, value)

    # --- storing ----------------------------------------------------------------------
    def event_to_row(self, event: events.Event) -> tuple[str, int, dict[str, Any]]:
        return event.name, event.version, events.event_payload(event)

    def event_from_row(self, type_: str, version: int, payload: Mapping[str, Any]) -> events.Event:
        return events.event_from_payload(type_, version, payload)

    def state_to_json(self, value: state.State) -> dict[str, Any]:
        return snapshot.state_to_json(value)

    def state_from_json(self, data: Mapping[str, Any]) -> state.State:
        return snapshot.state_from_json(dict(data))

    # --- reading ----------------------------------------------------------------------
    def seats_to_act(self, value: state.State) -> tuple[int, ...]:
        return value.seats_to_act()

    def summary(self, value: state.State) -> Summary:
        return Summary(
            status=_STATUS.get(value.phase, "active"),  # type: ignore[arg-type]
            round=value.hole,
            rounds=value.rules.holes,
            phase=value.phase.value,
            totals=tuple(value.totals),
            winners=tuple(value.winners),
        )

    def view(self, value: state.State, seat: int | None) -> dict[str, Any]:
        return views.view_for(value, seat).to_json()

    def redact(self, event: events.Event, seat: int | None, *, match_ended: bool) -> dict[str, Any]:
        return views.redact_event(event, seat, match_ended=match_ended)

    def acting_seat(self, event: events.Event) -> int | None:
        return event.seat if isinstance(event, events.SEAT_MOVES) else None

    def players(self, value: state.State) -> tuple[str, ...]:
        return tuple(value.players)

    def commitment(self, value: state.State) -> str:
        return commitment_of(value.seed)

    def revealed_seed(self, value: state.State) -> str | None:
        return value.seed.hex() if value.ended else None

    # --- computer players and hints ---------------------------------------------------
    def com_action(
        self, value: state.State, seat: int, level: str, rng: random.Random
    ) -> actions.Action:
        return choose_action(level, views.view_for(value, seat), value.rules, rng)

    def hint(self, value: state.State, seat: int) -> dict[str, Any]:
        return hint(views.view_for(value, seat), value.rules).to_json()

    # --- verifying and testing --------------------------------------------------------
    def audit(self, items: Sequence[events.Event]) -> LogAudit:
        return audit_log(items)

    def resample_hidden(
        self, value: state.State, seat: int | None, rng: random.Random
    ) -> state.State:
        return resample_hidden(value, seat, rng)


def _fits(rules: Rules, players: int) -> bool:
    try:
        rules.validate_for(players)
    except RulesError:
        return False
    return True


GOLF = Golf()
