"""Play a match locally with uniformly random legal moves and print it as JSON lines.

    python -m golf.simulate --preset six-card --players 4 --holes 9 --seed 7 --json

prints one object per hole, ``{"hole": h, "grids": [[...], ...], "scores": [...]}``, then
``{"totals": [...], "winners": [...], "rules": {...}}`` (the rules played, every option
named, so that a re-scorer needs nothing else). ``--set NAME=VALUE`` overrides a rules option
(the value is read as JSON when it parses, else as a string: ``--set jokers=true``,
``--set grid=3x3``). ``--com LEVEL`` seats COMs of that level (``easy``, ``normal`` or its
alias ``medium``, ``hard``) instead of random movers.

The random movers sit in human seats, so with ``pause_between_holes`` they answer the pause
after each hole with ``next`` (their only legal move then).
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
from golf.com.policies import LEVEL_ALIASES, LEVELS, choose_action, resolve_level
from golf.decide import decide, legal_actions, start_match
from golf.errors import EngineError
from golf.events import Event, HoleScored, MatchFinished
from golf.rules import PRESETS, Rules
from golf.state import COM, State, evolve
from golf.views import view_for


def seed_bytes(seed: int | str) -> bytes:
    """A 32-byte match seed derived from a short command-line seed."""
    return hashlib.sha256(f"golf-simulate:{seed}".encode()).digest()


def play_random(
    rules: Rules, players: int, seed: bytes, rng: random.Random, com: str | None = None
) -> Iterator[tuple[Event, State]]:
    """Yield every event of a match with the state after it: random legal moves in human
    seats, or with ``com`` a COM of that level in every seat."""
    state: State | None = None
    kinds: int | list[str] = players if com is None else [COM] * players
    for event in start_match(rules, kinds, seed):
        state = evolve(state, event)
        yield event, state
    assert state is not None
    while not state.ended:
        seat = rng.choice(state.seats_to_act())
        if com is None:
            action = rng.choice(legal_actions(state, seat))
        else:
            action = choose_action(com, view_for(state, seat), state.rules, rng)
        for event in decide(state, seat, action):
            state = evolve(state, event)
            yield event, state


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="six-card", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--holes", type=int, default=None)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument(
        "--com",
        default=None,
        choices=[*LEVELS, *LEVEL_ALIASES],
        help="COMs of this level in every seat (default: random moves)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines (the default)")
    args = parser.parse_args(argv)
    com = None if args.com is None else resolve_level(args.com)

    try:
        overrides = parse_overrides(args.set)
        if args.holes is not None:
            overrides["holes"] = args.holes
        rules = Rules.from_preset(args.preset, **overrides)
        rules.validate_for(args.players)
        start_match(rules, args.players if com is None else [COM] * args.players, b"\0" * 32)
    except EngineError as exc:  # e.g. undo, which needs a human seat beside COMs
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    for event, _state in play_random(rules, args.players, seed_bytes(args.seed), rng, com):
        if isinstance(event, HoleScored):
            line: dict[str, Any] = {
                "hole": event.hole,
                "grids": [list(g) for g in event.grids],
                "scores": list(event.scores),
            }
            print(json.dumps(line))
        elif isinstance(event, MatchFinished):
            end = {"totals": list(event.totals), "winners": list(event.winners)}
            print(json.dumps({**end, "rules": rules.to_json()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["main", "play_random", "seed_bytes"]
