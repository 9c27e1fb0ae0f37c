"""The computer players. Each takes a seat's view (never the state), the rules and a
seeded random source, and returns one of the view's legal actions.

* ``random``: a uniformly random legal move (the floor the others are measured against).
* ``easy``: a beginner: passes its highest cards, leads low, ducks when it can, dumps
  its highest card when void; it tracks nothing, and now and then blunders.
* ``normal``: the rules of thumb of :mod:`hearts.com.heuristic` (card counting, queen
  fishing and dumping, moon defence), well under 2 ms a move.
* ``hard``: determinized search (:mod:`hearts.com.search`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hearts.actions import Action, PassCards, PlayCard, Undo
from hearts.com import heuristic, search
from hearts.com.knowledge import Knowledge
from hearts.com.table import QS, to_code, to_int
from hearts.rules import Rules
from hearts.scoring import sort_hand
from hearts.state import Phase
from hearts.views import View

Policy = Callable[[View, Rules, random.Random], Action]
EASY_BLUNDERS = 0.12


def playable(view: View) -> list[Action]:
    """The legal actions a COM considers (a COM never undoes)."""
    actions: list[Action] = [a for a in view.legal_actions if not isinstance(a, Undo)]
    if not actions:
        raise ValueError("the seat has no action to take in this view")
    return actions


def _pass(cards: list[int]) -> PassCards:
    return PassCards(sort_hand(to_code(c) for c in cards))


def random_policy(view: View, rules: Rules, rng: random.Random) -> Action:
    return rng.choice(playable(view))


def easy_policy(view: View, rules: Rules, rng: random.Random) -> Action:
    actions = playable(view)
    if len(actions) == 1:
        return actions[0]
    if rng.random() < EASY_BLUNDERS:
        return rng.choice(actions)
    if view.phase is Phase.PASSING:
        highest = sorted(view.hand, key=lambda c: (to_int(c) % 13, to_int(c)))[-3:]
        return PassCards(sort_hand(highest))
    legal = sorted(to_int(a.card) for a in actions if isinstance(a, PlayCard))
    if not view.trick:
        return PlayCard(to_code(min(legal, key=lambda c: (c % 13, c))))
    led = to_int(view.trick[0][1]) // 13
    if legal[0] // 13 == led:
        top = max(to_int(c) for _, c in view.trick if to_int(c) // 13 == led)
        under = [c for c in legal if c < top]
        return PlayCard(to_code(under[-1] if under else legal[0]))
    if QS in legal:
        return PlayCard("QS")
    return PlayCard(to_code(max(legal, key=lambda c: (c % 13, c))))


def normal_policy(view: View, rules: Rules, rng: random.Random) -> Action:
    actions = playable(view)
    if len(actions) == 1:
        return actions[0]
    if view.phase is Phase.PASSING:
        return _pass(heuristic.choose_pass([to_int(c) for c in view.hand]))
    know = Knowledge.from_view(view, rules)
    table = know.public_table()
    return PlayCard(to_code(heuristic.play(table, know.seat, table.legal(know.seat))))


def hard_policy(view: View, rules: Rules, rng: random.Random) -> Action:
    actions = playable(view)
    if len(actions) == 1:
        return actions[0]
    if view.phase is Phase.PASSING:
        return _pass(search.choose_pass(view, rules, rng))
    return PlayCard(to_code(search.choose_play(view, rules, rng)))


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "easy": easy_policy,
    "normal": normal_policy,
    "hard": hard_policy,
}
LEVELS = ("easy", "normal", "hard")


def choose_action(level: str, view: View, rules: Rules, rng: random.Random) -> Action:
    """The move of a COM of ``level`` for the seat whose view this is."""
    try:
        policy = POLICIES[level]
    except KeyError:
        raise ValueError(f"unknown COM level {level!r}; one of {sorted(POLICIES)}") from None
    return policy(view, rules, rng)
