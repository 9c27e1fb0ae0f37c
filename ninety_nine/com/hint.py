"""Hints for human players: the move the ``hard`` COM would make, with a short reason in
words. Computed from the asking seat's view alone, and the same for the same view (the
search is seeded from what the view shows).

>>> from ninety_nine.decide import start_match
>>> from ninety_nine.rules import Rules
>>> from ninety_nine.state import replay
>>> from ninety_nine.views import view_for
>>> state = replay(start_match(Rules(), ["human"] * 3, bytes(32)))
>>> given = hint(view_for(state, 0))
>>> given.reason.startswith("Lay aside the ")
True
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from ninety_nine.actions import Action, Bid, Declare, Pass, Play, Reveal
from ninety_nine.com.bits import CARD_INDEX, mask_of
from ninety_nine.com.knowledge import Knowledge
from ninety_nine.com.search import BUDGET, hard_action, make_chance
from ninety_nine.com.tactics import beats, can_be_beaten, masters, winning_card
from ninety_nine.pack import SUIT_NAMES, SUIT_VALUE, card_name, contract_of
from ninety_nine.views import View


@dataclass(frozen=True)
class Hint:
    action: Action
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "reason": self.reason}


def _seed_for(view: View) -> int:
    hand = ",".join(view.hands[view.seat or 0] or ())
    key = f"ninety-nine-hint:{view.seat}:{view.version}:{view.deal}:{hand}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


def hint(view: View) -> Hint:
    """The suggested action for the seat whose view this is, and why."""
    if view.seat is None or not view.legal_actions:
        raise ValueError("a hint needs the view of a seat that has something to do")
    rng = random.Random(_seed_for(view))
    if len(view.legal_actions) == 1:
        action = view.legal_actions[0]
        if isinstance(action, Play):
            return Hint(action, f"Play {card_name(action.card)}: it is your only legal card.")
    action = hard_action(view, rng)
    return Hint(action, explain(view, action, random.Random(_seed_for(view))))


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _names(cards: list[str]) -> str:
    names = [card_name(c) for c in cards]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def explain(view: View, action: Action, rng: random.Random) -> str:
    """A sentence saying why ``action`` is a good move in ``view``."""
    k = Knowledge.from_view(view)
    if isinstance(action, Bid):
        contract = contract_of(action.cards)
        parts = " + ".join(str(SUIT_VALUE[c[1]]) for c in action.cards)
        trumps = f"{SUIT_NAMES[view.trumps]} trumps" if view.trumps else "no trumps"
        return (
            f"Lay aside {_names(list(action.cards))}: a contract of {_tricks(contract)} "
            f"({parts}), which your other nine cards should take, exactly, at {trumps}."
        )
    if isinstance(action, Pass | Declare | Reveal):
        return _explain_call(k, action, rng)
    assert isinstance(action, Play)
    return _explain_play(k, view, action.card)


def _explain_call(k: Knowledge, action: Action, rng: random.Random) -> str:
    contract = k.contract or 0
    chance = make_chance(k, rng, BUDGET.premium_worlds)
    odds = f"you make your contract of {_tricks(contract)} in about {round(100 * chance)}% of"
    odds += " the deals the other cards may give"
    if isinstance(action, Reveal):
        return f"Reveal: {odds}, safe enough to play face up for 60 more (or pay 60 to each)."
    if isinstance(action, Declare):
        return f"Declare: {odds}, enough to show your bid for 30 more (or pay 30 to each)."
    return f"Pass: {odds}, too few to risk paying a premium to the others."


def _explain_play(k: Knowledge, view: View, card: str) -> str:
    name = card_name(card)
    played = CARD_INDEX[card]
    contract = k.contract or 0
    won = k.won[k.seat]
    need = contract - won
    opponents = [k.may_hold(s) for s in k.others]
    later = [k.may_hold(s) for s in k.later()]
    if k.trick:
        best = winning_card(k.trick, k.trumps)
        takes = beats(played, best, k.trumps)
        led = k.trick[0] // 9
        sure = takes and not can_be_beaten(played, led, k.trumps, later)
        follows = view.trick[0][1][1] == card[1]
    else:
        takes = True
        rest = mask_of([card])
        sure = masters(rest, opponents, k.trumps) == 1
        follows = True
    where = f"you have {_tricks(won)} of your contract of {contract}"
    if need < 0:
        return f"Play {name}: {where}, so the contract is lost; keep the others from theirs."
    if need == 0:
        if not takes:
            return f"Play {name}: {where}, so lose this trick; {name} stays under the winner."
        return f"Play {name}: {where}, so shed a card that could win a trick later."
    if need >= k.left:
        return f"Play {name}: {where} and need every trick left: win this one."
    if sure:
        return f"Play {name}: {where} and need {need} more; {name} should win this trick."
    if not takes and not follows:
        suit = SUIT_NAMES[view.trick[0][1][1]]
        return f"Play {name}: {where} and need {need} more; out of {suit}, shed it now."
    if not takes:
        return f"Play {name}: {where} and need {need} more, but not this trick: lose it cheaply."
    return f"Play {name}: {where} and need {need} more; this gives the best chance of hitting it."


__all__ = ["Hint", "explain", "hint"]
