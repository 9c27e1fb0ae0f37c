"""How well Hearts ``hard``'s samples place the cards it cannot see (docs/benchmarks.md).

    .venv/bin/python bench/hearts_posterior.py [--players 5] [--deals 30] [--samples 40] [--seed 7]

Deals of the ``hearts`` preset played by ``normal`` at every seat. At each of seat 0's
turns after the first trick, its view is read (:class:`hearts.com.knowledge.Knowledge`)
and ``--samples`` deals of the unseen cards are drawn by each sampler; for each one it
prints the share of the other seats' unseen cards that a sample puts in the hand that
really holds them, and the mean misfits a sample carries (plays of the others that the
rules of thumb would not have made from the sampled hands; the true hands have none).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hearts.arena import deal_start
from hearts.com.knowledge import Knowledge, Posterior
from hearts.com.policies import POLICIES
from hearts.com.search import DEFAULT_BUDGET
from hearts.com.table import to_int
from hearts.decide import decide
from hearts.rules import Rules
from hearts.state import Phase, replay
from hearts.views import view_for

Hands = list[list[int]]
Draw = Callable[[Posterior, random.Random, int], list[Hands]]

SAMPLERS: dict[str, Draw] = {
    "voids and passes only (Sampler)": lambda post, rng, k: [
        post.sampler.draw(rng) for _ in range(k)
    ],
    "hard's chain (slip 0.03, burn-in 100, thin 5)": lambda post, rng, k: post.draw(
        rng, k, DEFAULT_BUDGET.thin, DEFAULT_BUDGET.burn
    ),
    "a strict chain (slip 0.001, burn-in 1000, thin 20)": lambda post, rng, k: Posterior(
        post.know, 0.001
    ).draw(rng, k, 20, 1000),
}


def measure(players: int, deals: int, samples: int, seed: int) -> dict[str, tuple[float, float]]:
    """Each sampler's share of unseen cards placed right and mean misfits a sample."""
    rules = Rules.from_preset("hearts", players=players)
    right = dict.fromkeys(SAMPLERS, 0)
    placed = dict.fromkeys(SAMPLERS, 0)
    missed = dict.fromkeys(SAMPLERS, 0)
    drawn = dict.fromkeys(SAMPLERS, 0)
    for deal in range(1, deals + 1):
        one, state = deal_start(rules, seed, deal, players)
        rng = random.Random(deal)
        while not state.ended:
            seat = state.seats_to_act()[0]
            view = view_for(state, seat)
            if seat == 0 and view.phase is Phase.PLAYING and view.tricks:
                know = Knowledge.from_view(view, one)
                post = Posterior(know, DEFAULT_BUDGET.slip)
                unseen = set(know.unseen())
                truth = [{to_int(c) for c in hand} for hand in state.hands]
                for name, draw in SAMPLERS.items():
                    for hands in draw(post, random.Random(deal), samples):
                        for other in post.sampler.others:
                            mine = [c for c in hands[other] if c in unseen]
                            placed[name] += len(mine)
                            right[name] += sum(c in truth[other] for c in mine)
                            missed[name] += post.misfit(other, hands[other])
                        drawn[name] += 1
            action = POLICIES["normal"](view, one, random.Random(rng.getrandbits(64)))
            for event in decide(state, seat, action):
                state = replay([event], state)
        print(f"deal {deal}/{deals}", file=sys.stderr, flush=True)
    return {name: (right[name] / placed[name], missed[name] / drawn[name]) for name in SAMPLERS}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    figures = measure(args.players, args.deals, args.samples, args.seed)
    print(f"hearts, {args.players} players, {args.deals} deals, {args.samples} samples a turn")
    print("| sampler | placed right | misfits a sample |")
    print("| --- | --- | --- |")
    for name, (share, misfit) in figures.items():
        print(f"| {name} | {100 * share:.1f}% | {misfit:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
