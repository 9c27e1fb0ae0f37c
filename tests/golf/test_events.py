import pytest

from golf import MalformedEventError, event_from_json, event_from_payload, event_to_json
from golf.events import UPCASTERS, CardDrawn, register_upcaster


def test_events_have_stable_names_and_versions():
    event = CardDrawn(1, "stock", "KS")
    assert event_to_json(event) == {
        "type": "card_drawn",
        "version": 1,
        "data": {"seat": 1, "source": "stock", "card": "KS"},
    }
    assert event_from_json(event_to_json(event)) == event


def test_older_payloads_are_upcast_on_read():
    # given a stored version-0 payload that spelled the card differently
    @register_upcaster("card_drawn", from_version=0)
    def rename(payload):
        return {"seat": payload["seat"], "source": payload["from"], "card": payload["code"]}

    try:
        event = event_from_payload("card_drawn", 0, {"seat": 2, "from": "discard", "code": "9H"})
    finally:
        del UPCASTERS[("card_drawn", 0)]
    assert event == CardDrawn(2, "discard", "9H")


@pytest.mark.parametrize(
    ("name", "version", "payload"),
    [
        ("card_teleported", 1, {}),
        ("card_drawn", 0, {"seat": 1, "source": "stock", "card": "KS"}),  # no upcaster
        ("card_drawn", 2, {"seat": 1, "source": "stock", "card": "KS"}),  # newer than engine
        ("card_drawn", 1, {"seat": 1}),
        ("match_started", 1, {"rules": {"holes": 99}, "players": [], "seed": "", "commitment": ""}),
    ],
)
def test_malformed_events_are_rejected(name, version, payload):
    with pytest.raises(MalformedEventError):
        event_from_payload(name, version, payload)
