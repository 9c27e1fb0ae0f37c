"""Play a match locally and print it as JSON lines.

    python -m ninety_nine.simulate --preset ninety-nine --players 3 --seed 7 --json \\
        [--level random|easy|normal|hard] [--set NAME=VALUE]

prints one object per deal: the dealer, the trumps, the hands as dealt, each seat's bid
cards and contract, the premium calls and the premium bid, every trick (leader, plays,
winner), the tricks won, who made their contract, the points with their parts and the
totals; then ``{"totals": [...], "winners": [...], "deals": n, "seed": "<hex>", "rules":
{...}}``, the match seed revealed, from which every deal can be dealt again
(``docs/ninety-nine.md``), and the rules played, every option named (when the match was
to end).
Every seat plays at ``--level`` (uniformly random legal moves by default).
``--set NAME=VALUE`` overrides a rules option (the value is read as JSON when it parses,
else as a string: ``--set premium_bids=off``, ``--set max_deals=3``).
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
from ninety_nine.com import POLICIES
from ninety_nine.decide import decide, start_match
from ninety_nine.events import DealScored, Event, MatchFinished, event_payload
from ninety_nine.pack import contract_of
from ninety_nine.rules import PRESETS, SEATS, Rules
from ninety_nine.state import State, evolve
from ninety_nine.views import view_for


def seed_bytes(seed: int | str) -> bytes:
    """A 32-byte match seed derived from a short command-line seed."""
    return hashlib.sha256(f"ninety-nine-simulate:{seed}".encode()).digest()


def play(
    rules: Rules, seed: bytes, level: str, rng: random.Random
) -> Iterator[tuple[Event, State]]:
    """Every event of a match whose seats all play at ``level``, with the state before it."""
    policy = POLICIES[level]
    state: State | None = None
    batch = start_match(rules, [COM] * SEATS, seed)
    while batch:
        for event in batch:
            previous, state = state, evolve(state, event)
            yield event, previous or state
        if state is None or state.ended:
            return
        seat = state.seats_to_act()[0]
        batch = decide(state, seat, policy(view_for(state, seat), random.Random(rng.random())))


def deal_record(before: State, scored: DealScored) -> dict[str, Any]:
    """The whole of a deal, from the state just before it was scored."""
    return {
        "deal": before.deal,
        "dealer": before.dealer,
        "trumps": before.trumps,
        "hands": [list(h) for h in before.dealt],
        "bids": [{"cards": list(b), "contract": contract_of(b)} for b in before.bids],
        "premium": {
            "calls": list(before.calls),
            "seat": before.premium_seat,
            "kind": before.premium,
        },
        "tricks": [
            {
                "trick": t.trick,
                "leader": t.leader,
                "plays": [{"seat": s, "card": c} for s, c in t.plays],
                "winner": t.winner,
            }
            for t in before.tricks
        ],
        "tricks_won": list(scored.tricks),
        "made": list(scored.made),
        "points": event_payload(scored)["points"],
        "totals": list(scored.totals),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--preset", default="ninety-nine", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=SEATS)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--level", default="random", choices=sorted(POLICIES))
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true", help="print JSON lines (the default)")
    args = parser.parse_args(argv)
    if args.players != SEATS:
        print(f"error: players: Ninety-Nine is played by exactly {SEATS}", file=sys.stderr)
        return 2
    try:
        rules = Rules.from_preset(args.preset, **parse_overrides(args.set))
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    for event, before in play(rules, seed_bytes(args.seed), args.level, rng):
        if isinstance(event, DealScored):
            print(json.dumps(deal_record(before, event)))
        elif isinstance(event, MatchFinished):
            end: dict[str, Any] = {"totals": list(event.totals), "winners": list(event.winners)}
            end |= {"deals": before.deal, "seed": event.seed, "rules": rules.to_json()}
            print(json.dumps(end))
    return 0


if __name__ == "__main__":
    sys.exit(main())
