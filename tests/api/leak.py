"""What every game's leak scanner shares: reading every endpoint about a match as every
reader, and checking each response against what that reader may see.

A game's scanner (``test_leak_scanner.py`` for Golf, ``test_hearts_leak_scanner.py``, ...)
supplies a :class:`History`: the match's states version by version, replayed from its
stored events, and, worked out from the state by the game's own rules (never from the
engine's view), which cards a reader may see at a version and which hidden cards its view
must list as seen (undo never un-sees). :class:`Scanner` does the reading:

- a view (the match, a past state) holds only the cards its reader may see at its version;
- an event holds only cards the reader may see just before or just after it;
- the match list holds no card at all, and no response holds the seed before the end;
- the logs (events, export, stream) never change their past.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Protocol

from tests.golf.invariants import cards_in


class History(Protocol):
    """A match's states, by version (``states[0]`` is ``None``)."""

    states: list[Any]

    def update(self) -> Any:
        """Replay the events stored since the last call; the newest state."""

    def allowed(self, version: int, seat: int | None) -> Counter[str]:
        """The cards ``seat`` (``None``: a spectator) may see at ``version``."""

    def assert_seen(self, view: dict[str, Any], version: int, seat: int | None, where: str):
        """The view's ``seen`` cards are exactly those the reader was shown and knows."""


def allowed_around(history: History, version: int, seat: int | None) -> Counter[str]:
    """What ``seat`` may see just before or just after event ``version``."""
    after = history.allowed(version, seat)
    return after if version == 1 else after | history.allowed(version - 1, seat)


def assert_hides(data: Any, allowed: Counter[str], where: str, *, counted: bool) -> None:
    """No card in ``data`` beyond ``allowed``. ``counted``: each card as many times as it
    may be seen (several decks: two cards share a code); else a card a reader may see may
    appear any number of times (its hand, its legal actions), one it may not, nowhere."""
    found = cards_in(data)
    leaked = found - allowed if counted else Counter(set(found) - set(allowed))
    assert not leaked, f"{where} shows {dict(leaked)}"


class Scanner:
    """Reads every endpoint about match ``match_id`` as each of ``readers`` (name ->
    (client, seat or ``None``)) and checks every response; :meth:`scan` after each move."""

    def __init__(
        self,
        match_id: str,
        readers: dict[str, tuple[Any, int | None]],
        history: History,
        *,
        counted: bool,
    ) -> None:
        self.id = match_id
        self.readers = readers
        self.history = history
        self.counted = counted
        self.checked_version = 0
        self.checked_events: dict[tuple[str, str], list[Any]] = {}

    def hides(self, data: Any, allowed: Counter[str], where: str) -> None:
        assert_hides(data, allowed, where, counted=self.counted)

    def scan(self) -> None:
        state = self.history.update()
        for name, (client, seat) in self.readers.items():
            self.scan_reader(name, client, seat, state)
            for v in range(self.checked_version + 1, state.version + 1):
                past = client.get(f"/api/matches/{self.id}/states/{v}")
                assert past.status_code == 200, past.content
                self.history.assert_seen(past.json(), v, seat, f"{name}: state {v}")
                if not state.ended:
                    self.hides(past.json(), self.history.allowed(v, seat), f"{name}: state {v}")
        self.checked_version = state.version

    def scan_reader(self, name: str, client: Any, seat: int | None, state: Any) -> None:
        base = f"/api/matches/{self.id}"
        responses = {
            "match": client.get(base),
            "list": client.get("/api/matches", {"mine": "true" if seat is not None else "false"}),
            "events": client.get(f"{base}/events", {"limit": 500}),
            "export": client.get(f"{base}/export"),
            "stream": client.get(f"{base}/stream", HTTP_ACCEPT="application/x-ndjson"),
            "hint": client.get(f"{base}/hint"),
            "audit": client.get(f"{base}/audit"),
        }
        for what in ("match", "list", "events", "export", "stream"):
            assert responses[what].status_code == 200, (what, responses[what].content)
        pages = [responses["events"]]  # a long match's list takes more than a page
        while (page := pages[-1].json())["has_more"]:
            pages.append(client.get(f"{base}/events", {"after": page["next_after"], "limit": 500}))
        if seat is None:
            assert responses["hint"].status_code == 403
        if state.ended:
            assert responses["audit"].status_code == 200
            for response in responses.values():  # read to the end, so closed: an export
                if response.streaming:  # or stream holds a place until then
                    b"".join(response.streaming_content)
            return
        assert responses["audit"].status_code == 409
        bodies = {
            what: b"".join(r.streaming_content) if r.streaming else r.content
            for what, r in responses.items()
        }
        bodies.update({f"events page {i}": r.content for i, r in enumerate(pages[1:], 2)})
        seed = state.seed.hex().encode()
        for what, body in bodies.items():
            assert seed not in body, f"{name}: {what} shows the seed"
        allowed = self.history.allowed(state.version, seat)
        detail = json.loads(bodies["match"])
        assert detail["seed"] is None and detail["version"] == state.version
        self.history.assert_seen(detail["view"], state.version, seat, f"{name}: match")
        self.hides(detail, allowed, f"{name}: match")
        self.hides(json.loads(bodies["list"]), Counter(), f"{name}: match list")
        if responses["hint"].status_code == 200:
            self.hides(json.loads(bodies["hint"]), allowed, f"{name}: hint")
        logs = {
            "events": [event for r in pages for event in r.json()["events"]],
            "export": [json.loads(line) for line in bodies["export"].splitlines()],
            "stream": [json.loads(line) for line in bodies["stream"].splitlines() if line],
        }
        for what, log in logs.items():
            assert len(log) == state.version, what
            # events already checked must read the same; the new ones are checked here
            checked = self.checked_events.setdefault((name, what), [])
            assert log[: len(checked)] == checked, f"{name}: {what} changed its past"
            for event in log[len(checked) :]:
                where = f"{name}: {what} {event['seq']} ({event['type']})"
                self.hides(event, allowed_around(self.history, event["seq"], seat), where)
            checked[:] = log
