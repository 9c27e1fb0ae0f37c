"""An independent re-implementation, from the written rules and ``docs/dealing.md`` alone,
of what a finished Ninety-Nine match can be checked against: the seeded deal, the trick
winner and the scoring. Nothing here imports the engine (only the standard library), so
a test comparing the two can fail when either is wrong."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

RANKS = "6789TJQKA"  # low to high
SUIT_VALUE = {"C": 3, "H": 2, "S": 1, "D": 0}
# the kernel's canonical deck order (suits S H D C, each ace to king) less the 2s to 5s
PACK = [r + s for s in "SHDC" for r in "A6789TJQK"]
BONUS = {0: 0, 1: 30, 2: 20, 3: 10}
PREMIUM = {"declare": 30, "reveal": 60}
TRUMPS_AFTER = "DSHC"  # by how many made their contract


def _words(seed: bytes, label: str) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(seed, f"{label}:{counter}".encode(), hashlib.sha256).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def shuffle(seed: bytes, label: str, items: Sequence[str]) -> list[str]:
    """Fisher-Yates driven by the HMAC-SHA256 stream, with rejection of biased words."""
    out = list(items)
    words = _words(seed, label)
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - (2**32 % bound)
        while (w := next(words)) >= limit:
            pass
        j = w % bound
        out[i], out[j] = out[j], out[i]
    return out


def deal(seed: bytes, number: int, dealer: int) -> list[set[str]]:
    """Deal ``number``'s three hands: the shuffled pack one card at a time from eldest."""
    cards = shuffle(seed, f"ninety-nine/deal/{number}", PACK)
    hands: list[set[str]] = [set(), set(), set()]
    for i, card in enumerate(cards):
        hands[(dealer + 1 + i) % 3].add(card)
    return hands


def contract(bid_cards: Sequence[str]) -> int:
    return sum(SUIT_VALUE[c[1]] for c in bid_cards)


def trick_winner(plays: Sequence[tuple[int, str]], trumps: str | None) -> int:
    led = plays[0][1][1]
    best_seat, best = plays[0]
    for seat, card in plays[1:]:
        if card[1] == best[1]:
            if RANKS.index(card[0]) > RANKS.index(best[0]):
                best_seat, best = seat, card
        elif card[1] == trumps:  # the first trump on a side suit (best is not a trump)
            best_seat, best = seat, card
    assert best[1] in (led, trumps)
    return best_seat


def premium_holder(calls: Sequence[str | None], eldest: int) -> tuple[int | None, str | None]:
    """Who holds the premium bid after ``calls`` (by seat), checking the calls were allowed
    in turn from eldest: a declaration while nobody has declared or revealed, a reveal
    while nobody has revealed; nobody calls after a reveal."""
    seat: int | None = None
    kind: str | None = None
    for offset in range(3):
        s = (eldest + offset) % 3
        call = calls[s]
        if kind == "reveal":
            assert call is None, "a call after a reveal"
            continue
        assert call in ("pass", "declare", "reveal"), call
        if call == "declare":
            assert kind is None, "a second declaration"
        if call != "pass":
            seat, kind = s, call
    return seat, kind


def score(
    contracts: Sequence[int], tricks: Sequence[int], seat: int | None, kind: str | None
) -> list[dict[str, int]]:
    """Each seat's points: a point a trick, the bonus, the premium."""
    made = [t == c for t, c in zip(tricks, contracts, strict=True)]
    bonus = BONUS[sum(made)]
    points = []
    for s in range(3):
        premium = 0
        if seat is not None and kind is not None:
            if made[seat]:
                premium = PREMIUM[kind] if s == seat else 0
            else:
                premium = 0 if s == seat else PREMIUM[kind]
        part = {"tricks": tricks[s], "bonus": bonus if made[s] else 0, "premium": premium}
        points.append({**part, "total": sum(part.values())})
    return points
