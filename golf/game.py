"""Golf as a :class:`~golf.protocol.Game`: the object the store and API talk to."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from golf import actions, events, rules, state, views
from golf.decide import decide, legal_actions, start_match


class Golf:
    """Six-card and nine-card Golf."""

    name = "golf"

    def rules_from_json(self, data: Mapping[str, Any]) -> rules.Rules:
        return rules.Rules.from_json(data)

    def rules_to_json(self, value: rules.Rules) -> dict[str, Any]:
        return value.to_json()

    def start_match(
        self, value: rules.Rules, players: Sequence[str], seed: bytes
    ) -> list[events.Event]:
        return start_match(value, players, seed)

    def action_from_json(self, data: object) -> actions.Action:
        return actions.action_from_json(data)

    def action_to_json(self, action: actions.Action) -> dict[str, Any]:
        return action.to_json()

    def event_to_json(self, event: events.Event) -> dict[str, Any]:
        return events.event_to_json(event)

    def event_from_json(self, data: Mapping[str, Any]) -> events.Event:
        return events.event_from_json(data)

    def legal_actions(self, value: state.State, seat: int) -> list[actions.Action]:
        return legal_actions(value, seat)

    def decide(self, value: state.State, seat: int, action: actions.Action) -> list[events.Event]:
        return decide(value, seat, action)

    def evolve(self, value: state.State | None, event: events.Event) -> state.State:
        return state.evolve(value, event)

    def replay(
        self, items: Iterable[events.Event], value: state.State | None = None
    ) -> state.State:
        return state.replay(items, value)

    def seats_to_act(self, value: state.State) -> tuple[int, ...]:
        return value.seats_to_act()

    def is_over(self, value: state.State) -> bool:
        return value.ended

    def view_for(self, value: state.State, seat: int | None) -> dict[str, Any]:
        return views.view_for(value, seat).to_json()

    def redact_event(
        self, event: events.Event, seat: int | None, *, match_ended: bool
    ) -> dict[str, Any]:
        return views.redact_event(event, seat, match_ended=match_ended)

    def outcome(self, value: state.State) -> dict[str, Any]:
        return views.outcome(value).to_json()


GOLF = Golf()
