"""The computer players. Each takes a seat's view (never the state) and a seeded random
source, and returns one of the view's legal actions.

* ``random``: a uniformly random legal action (the floor the others are measured
  against; not offered as a level).
* ``easy``: a beginner: counts its aces and kings to bid, then plays high while it
  still needs tricks and low once it has them; never bids a premium; now and then it
  plays a random card.
* ``normal``: bids the contract its nine cards most reliably take (the expected squared
  miss of :mod:`ninety_nine.com.estimate`), declares only a hand it fully controls, and
  plays the tactics of :mod:`ninety_nine.com.tactics` from what it has seen.
* ``hard``: evaluates candidate bids and every card by playing the deal out in sampled
  worlds consistent with all it has seen (:mod:`ninety_nine.com.search`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ninety_nine.actions import Action, Bid, Declare, Pass, Play
from ninety_nine.com.bidding import best_bid, bid_action, legal_cards
from ninety_nine.com.bits import CARD_INDEX, CODES, RANK_OF
from ninety_nine.com.knowledge import Knowledge
from ninety_nine.com.search import hard_action
from ninety_nine.com.tactics import choose, masters, mode
from ninety_nine.pack import contract_of
from ninety_nine.state import Phase
from ninety_nine.views import View

Policy = Callable[[View, random.Random], Action]
BLUNDER = 0.1


def options(view: View) -> list[Action]:
    if not view.legal_actions:
        raise ValueError("the seat has no action to take in this view")
    return list(view.legal_actions)


def random_policy(view: View, rng: random.Random) -> Action:
    return rng.choice(options(view))


# --- easy -------------------------------------------------------------------------------
def easy_policy(view: View, rng: random.Random) -> Action:
    actions = options(view)
    if len(actions) == 1:
        return actions[0]
    if view.phase is Phase.PREMIUM:
        return Pass()
    if view.phase is Phase.BIDDING:
        return _easy_bid(view, rng)
    if rng.random() < BLUNDER:
        return rng.choice(actions)
    k = Knowledge.from_view(view)
    need = (k.contract or 0) - k.won[k.seat]
    plays = [a for a in actions if isinstance(a, Play)]
    by_rank = sorted(plays, key=lambda a: (RANK_OF[CARD_INDEX[a.card]], a.card))
    return by_rank[-1] if need > 0 else by_rank[0]


def _easy_bid(view: View, rng: random.Random) -> Action:
    """Count the aces and half the kings kept, and bid that many tricks."""
    best: list[Bid] = []
    best_miss = 99.0
    for action in options(view):
        assert isinstance(action, Bid)
        rest = [c for c in view.hands[view.seat or 0] or () if c not in action.cards]
        strength = sum(1.0 if c[0] == "A" else 0.5 if c[0] == "K" else 0 for c in rest)
        miss = abs(strength - contract_of(action.cards))
        if miss < best_miss - 1e-9:
            best, best_miss = [action], miss
        elif abs(miss - best_miss) < 1e-9:
            best.append(action)
    return rng.choice(best)


# --- normal ---------------------------------------------------------------------------
def normal_policy(view: View, rng: random.Random) -> Action:
    actions = options(view)
    if len(actions) == 1:
        return actions[0]
    k = Knowledge.from_view(view)
    if view.phase is Phase.BIDDING:
        return bid_action(best_bid(k.hand, k.trumps)[1])
    if view.phase is Phase.PREMIUM:
        return Declare() if Declare() in actions and controlled(k) else Pass()
    return Play(CODES[tactical_card(k, legal_cards(view))])


def controlled(k: Knowledge) -> bool:
    """A hand whose tricks look certain: as many masters as its contract, and no other
    card above an 8 that could win a trick by accident."""
    assert k.contract is not None
    opponents = [k.may_hold(s) for s in k.others]
    high = sum(1 for c in range(36) if k.hand >> c & 1 and RANK_OF[c] >= 3)
    return masters(k.hand, opponents, k.trumps) == k.contract == high


def tactical_card(k: Knowledge, legal: int) -> int:
    """The card the trick tactics pick from ``legal``, from what this seat knows."""
    opponents = [k.may_hold(s) for s in k.others]
    need = (k.contract or 0) - k.won[k.seat]
    want = mode(need, k.left, k.hand, opponents, k.trumps)
    later = [k.may_hold(s) for s in k.later()]
    return choose(legal, k.hand, k.trick, k.trumps, want, later, opponents)


def hard_policy(view: View, rng: random.Random) -> Action:
    actions = options(view)
    if len(actions) == 1:
        return actions[0]
    return hard_action(view, rng)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "easy": easy_policy,
    "normal": normal_policy,
    "hard": hard_policy,
}
LEVELS = ("easy", "normal", "hard")


def choose_action(level: str, view: View, rng: random.Random) -> Action:
    """The move of a COM of ``level`` for the seat whose view this is."""
    try:
        policy = POLICIES[level]
    except KeyError:
        raise ValueError(f"unknown COM level {level!r}; one of {sorted(POLICIES)}") from None
    return policy(view, rng)
