"""States, events and actions round-trip through their JSON forms (snapshots, stored rows,
requests)."""

import json
import random

import pytest

from cards.errors import MalformedEventError
from ninety_nine.actions import Bid, Declare, Pass, Play, Reveal, action_from_json
from ninety_nine.events import EVENT_NAMES, event_from_row, event_payload
from ninety_nine.game import NINETY_NINE
from ninety_nine.rules import Rules
from ninety_nine.simulate import play, seed_bytes
from ninety_nine.snapshot import state_from_json, state_to_json
from ninety_nine.state import replay


@pytest.fixture(scope="module")
def match():
    """Every event of a match of random moves (premium bids and all), with the state
    before it."""
    rules = Rules.from_preset(target_score=300)
    return list(play(rules, seed_bytes(3), "random", random.Random(3)))


def test_every_kind_of_event_occurs(match):
    names = {event.name for event, _ in match}
    platform = {"match_aborted", "seat_taken", "seat_handed_over"}  # (the contract test's)
    assert names >= set(EVENT_NAMES) - platform


def test_events_round_trip_through_stored_rows(match):
    for event, _ in match:
        name, version, payload = NINETY_NINE.event_to_row(event)
        assert (name, version) == (event.name, 1)
        stored = json.loads(json.dumps(payload))
        assert event_from_row(name, version, stored) == event
        assert NINETY_NINE.event_from_row(name, version, stored) == event
        assert event_payload(event) == payload


def test_states_round_trip_through_snapshots(match):
    events = [event for event, _ in match]
    for i in range(0, len(events), 7):
        state = replay(events[: i + 1])
        saved = json.loads(json.dumps(state_to_json(state)))
        loaded = state_from_json(saved)
        assert loaded == state
        # a replay from the snapshot reaches the same end
        assert replay(events[i + 1 :], loaded) == replay(events)
    final = replay(events)
    assert NINETY_NINE.state_from_json(NINETY_NINE.state_to_json(final)) == final


def test_an_unknown_snapshot_format_or_event_is_refused(match):
    state = replay([match[0][0]])
    data = state_to_json(state)
    with pytest.raises(ValueError):
        state_from_json({**data, "format": 99})
    with pytest.raises(MalformedEventError):
        event_from_row("no_such_event", 1, {})


@pytest.mark.parametrize(
    "action",
    [Bid(("6C", "QH", "9D")), Pass(), Declare(), Reveal(), Play("AS")],
)
def test_actions_round_trip(action):
    data = json.loads(json.dumps(action.to_json()))
    assert action_from_json(data) == action
    assert NINETY_NINE.action_from_json(NINETY_NINE.action_to_json(action)) == action
