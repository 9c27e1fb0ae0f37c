"""Hints for human players: the move the ``hard`` COM would make, with a short reason.
Computed from the asking seat's view alone, and deterministic for a given view."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from cards.tricks import RANK_ORDER
from hearts.actions import Action, PassCards, PlayCard, Undo
from hearts.com.policies import hard_policy, playable
from hearts.com.table import to_int
from hearts.rules import Rules
from hearts.scoring import is_points_card
from hearts.views import View

RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_name(card: str) -> str:
    """A card's name in words.

    >>> card_name("QS")
    'queen of spades'
    """
    return f"{RANKS.get(card[0], card[0])} of {SUITS[card[1]]}"


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"action": self.action.to_json(), "reason": self.reason}


def _seed_for(view: View) -> int:
    key = f"hearts-hint:{view.seat}:{view.version}:{view.deal}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")


def hint(view: View, rules: Rules) -> Hint:
    """The suggested action for the seat whose view this is, and why."""
    if view.seat is None or not view.legal_actions:
        raise ValueError("a hint needs the view of a seat that has something to do")
    if not [a for a in view.legal_actions if not isinstance(a, Undo)]:
        return Hint(Undo(), "Nothing to play now: you may take back your last card.")
    action = hard_policy(view, rules, random.Random(_seed_for(view)))
    return Hint(action, explain(view, action))


def _names(cards: list[str]) -> str:
    names = [card_name(c) for c in cards]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def explain(view: View, action: Action) -> str:
    if isinstance(action, PassCards):
        return _explain_pass(view, list(action.cards))
    if isinstance(action, Undo):
        return "Take back your last card."
    assert isinstance(action, PlayCard)
    card, name = action.card, card_name(action.card)
    if len(playable(view)) == 1:
        return f"The {name} is your only legal card."
    if not view.trick:
        return _explain_lead(view, card, name)
    led = view.trick[0][1][1]
    top = max((c for _, c in view.trick if c[1] == led), key=to_int)
    points = sum(1 for _, c in view.trick if is_points_card(c))
    if card[1] != led:
        if is_points_card(card):
            return f"You are out of {SUITS[led]}: dump the {name} on the {card_name(top)}."
        return f"You are out of {SUITS[led]}: shed the {name}, a card that could win later."
    suit, top_name = SUITS[led][:-1], card_name(top)
    ours = [c for c in view.hand if c[1] == led]
    under = [c for c in ours if to_int(c) < to_int(top)]
    if to_int(card) < to_int(top):
        if card == max(under, key=to_int):
            return f"Play the {name}: the highest {suit} that stays under the {top_name}."
        return f"Play the {name}: it stays under the {top_name}, and you keep a higher {suit}."
    if points and view.taken and max(view.taken) == sum(view.taken) >= 14:
        return f"Take this trick with the {name}: one seat has every point so far (moon)."
    if under:
        return f"Play the {name}: take this trick now, and keep a low {suit} to duck later."
    if card == max(ours, key=to_int):
        return f"Play the {name}: this trick is yours anyway, so get rid of a high card."
    return f"Play the {name}: you cannot stay under the {top_name}."


def higher_out(view: View, card: str) -> list[str]:
    """The cards of ``card``'s suit above it that another hand may still hold: not in the
    seat's hand, not played, not removed from the deck."""
    gone = {c for t in view.tricks for c in t.cards} | {c for _, c in view.trick}
    gone |= set(view.hand) | set(view.removed)
    above = RANK_ORDER[RANK_ORDER.index(card[0]) + 1 :]
    return [f"{rank}{card[1]}" for rank in above if f"{rank}{card[1]}" not in gone]


def _explain_lead(view: View, card: str, name: str) -> str:
    above = higher_out(view, card)
    if not above:
        if card[1] == "H" or card == "QS":
            return f"Lead the {name}: nothing still out beats it, so you take the trick."
        return f"Lead the {name}: nothing still out beats it, so you win the trick and lead again."
    if card == "QS":
        return "Lead the queen of spades: whoever holds the ace or king must take it."
    if card[1] == "S" and "QS" in above:
        return f"Lead the {name}: fish for the queen of spades while it is out."
    if len(above) >= 3:
        return f"Lead the {name}: a low lead that someone else is likely to win."
    return f"Lead the {name}: {_count(len(above))} still out can beat it."


def _count(n: int) -> str:
    return "one higher card" if n == 1 else f"{n} higher cards"


def _explain_pass(view: View, cards: list[str]) -> str:
    why = []
    if "QS" in cards:
        why.append("the queen of spades is poorly guarded")
    if any(c in ("AS", "KS") for c in cards):
        why.append("high spades could catch the queen")
    if any(c[1] == "H" for c in cards):
        why.append("high hearts take points")
    short = {c[1] for c in cards if c[1] in "CD"}
    for suit in sorted(short):
        left = [c for c in view.hand if c[1] == suit and c not in cards]
        if not left:
            why.append(f"it leaves you void in {SUITS[suit]}")
    if not why:
        why.append("these are your most dangerous cards to keep")
    return f"Pass the {_names(cards)}: " + "; ".join(why) + "."
