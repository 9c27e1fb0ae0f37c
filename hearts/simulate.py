"""Play a match locally and print it as JSON lines, so that anyone can re-score it.

    python -m hearts.simulate --preset hearts-classic --players 4 --seed 7 --json

prints one object per deal::

    {"deal": 1, "dealer": 0, "direction": "left", "removed": [],
     "hands": [[...13 cards...], ...],           # as dealt, by seat
     "passes": [[...3 cards...], ...] | null,    # what each seat passed (to its receiver)
     "tricks": [{"trick": 1, "leader": 2, "cards": [...], "winner": 3, "points": 0}, ...],
     "taken": [...], "jack": null, "moon": null, "scores": [...], "totals": [...]}

then ``{"totals": [...], "winners": [...], "deals": n, "seed": "<hex>", "rules": {...}}``
(the rules played, every option named, so that a re-scorer needs nothing else). Moves are
uniformly random legal ones unless ``--level`` names a COM level for every seat.
``--set NAME=VALUE`` overrides a rules option (the value is read as JSON when it parses,
else as a string: ``--set shoot_the_moon=others_get_26 --set target_score=50``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from cards.cli import parse_overrides
from cards.errors import EngineError
from cards.protocol import COM
from hearts.com.policies import POLICIES
from hearts.decide import decide, legal_actions, start_match
from hearts.events import (
    CardsDealt,
    DealScored,
    Event,
    MatchFinished,
    PassesExchanged,
    TrickWon,
    event_payload,
)
from hearts.rules import PRESETS, Rules
from hearts.state import State, evolve
from hearts.views import view_for


def seed_bytes(seed: int | str) -> bytes:
    """A 32-byte match seed from a short command-line seed."""
    return hashlib.sha256(f"hearts-simulate:{seed}".encode()).digest()


def play(
    rules: Rules, players: int, seed: bytes, rng: random.Random, level: str | None = None
) -> Iterator[tuple[Event, State]]:
    """Every event of a match played by ``level`` COMs (``None``: random moves), each with
    the state after it."""
    state: State | None = None
    for event in start_match(rules, [COM] * players, seed):
        state = evolve(state, event)
        yield event, state
    assert state is not None
    while not state.ended:
        seat = state.seats_to_act()[0]
        if level is None:
            action = rng.choice(legal_actions(state, seat))
        else:
            action = POLICIES[level](view_for(state, seat), rules, rng)
        for event in decide(state, seat, action):
            state = evolve(state, event)
            yield event, state


def match_record(events: Iterator[tuple[Event, State]]) -> Iterator[dict[str, Any]]:
    """The JSON lines of a match: one a deal, then the result."""
    deal: dict[str, Any] = {}
    for event, _ in events:
        if isinstance(event, CardsDealt):
            deal = {
                "deal": event.deal,
                "dealer": event.dealer,
                "direction": event.direction,
                "removed": list(event.removed),
                "hands": [list(h) for h in event.hands],
                "passes": None,
                "tricks": [],
            }
        elif isinstance(event, PassesExchanged):
            deal["passes"] = [list(p) for p in event.passes]
        elif isinstance(event, TrickWon):
            deal["tricks"].append(event_payload(event))
        elif isinstance(event, DealScored):
            deal.update(
                taken=list(event.taken),
                jack=event.jack,
                moon=event.moon,
                scores=list(event.scores),
                totals=list(event.totals),
            )
            yield deal
        elif isinstance(event, MatchFinished):
            yield {
                "totals": list(event.totals),
                "winners": list(event.winners),
                "deals": deal.get("deal", 0),
                "seed": event.seed,
            }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--preset", default="hearts", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--level", default=None, choices=sorted(POLICIES))
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true", help="print JSON lines (the default)")
    args = parser.parse_args(argv)
    try:
        rules = Rules.from_preset(args.preset, **parse_overrides(args.set))
        rules.validate_for(args.players)
        start_match(rules, [COM] * args.players, b"\0" * 32)
    except EngineError as exc:  # e.g. undo, which needs a human seat beside COMs
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    events = play(rules, args.players, seed_bytes(args.seed), rng, args.level)
    for line in match_record(events):
        print(json.dumps(line if "deal" in line else {**line, "rules": rules.to_json()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
