"""The computer players. Each takes a seat's view (never the state), the rules and a
seeded random source, and returns one of the view's legal actions.

* ``random``: a uniformly random legal move (the floor the others are measured against).
* ``greedy``: a one-ply baseline for the arena (not a level players choose): each move
  lowers its own expected grid score right now as far as it can, and nothing else.
* ``easy``: a beginner's rules of thumb - keeps low cards and obvious pairs, never
  thinks about the unseen cards or the other players, and now and then blunders.
* ``normal``: a sound expected-value player (see :mod:`golf.com.evaluate`).
* ``hard``: on the two-player six-card table, a search one reply deep over a value learnt
  in self-play (see :mod:`golf.com.value`); on every other table, determinized search over
  the unseen cards, its candidates ordered by the same evaluation looking further ahead
  (see :mod:`golf.com.search`).

``medium`` is another name of ``normal`` (:data:`LEVEL_ALIASES`), accepted wherever a level
is named. In the pause after a hole every level answers ``next`` (its only legal action).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cards.deck import rank_of
from golf.actions import (
    Action,
    DiscardDrawn,
    DrawFromStock,
    SwapCard,
    TakeDiscard,
)
from golf.com import value
from golf.com.common import playable, spread_flip
from golf.com.endgame import last_turn_move
from golf.com.evaluate import ONE_TURN, Evaluator, Lookahead
from golf.com.search import DEFAULT_BUDGET, Budget, search_policy
from golf.rules import Rules
from golf.state import Phase
from golf.views import View

Policy = Callable[[View, Rules, random.Random], Action]


def random_policy(view: View, rules: Rules, rng: random.Random) -> Action:
    return rng.choice(playable(view))


# --- easy -------------------------------------------------------------------------------------
def easy_policy(view: View, rules: Rules, rng: random.Random) -> Action:
    actions = playable(view)
    if len(actions) == 1:
        return actions[0]
    assert view.seat is not None
    grid = view.grids[view.seat]
    # a line of matching face-up cards scores nothing: a beginner sees that much, and never
    # takes a card out of it (unless the drawn card matches it too), not even by a blunder
    matched = _matched_positions(grid, rules)
    if view.drawn_card is not None:
        keep = rules.match_key(view.drawn_card)
        actions = [
            a
            for a in actions
            if not (
                isinstance(a, SwapCard)
                and a.position in matched
                and rules.match_key(grid[a.position] or "") != keep
            )
        ] or actions  # (every line matched and a taken card to place: it must go somewhere)
    if rng.random() < 0.1:  # a beginner's blunder
        return rng.choice(actions)
    values = rules.value_table()
    if view.phase is Phase.FLIPS:
        return rng.choice(actions)
    face_up = [p for p, c in enumerate(grid) if c is not None and p not in matched]
    face_down = [p for p, c in enumerate(grid) if c is None]

    def pair_spot(card: str) -> int | None:
        # an empty column spot next to a face-up card that matches it
        cols = rules.cols
        key = rules.match_key(card)
        for p in face_up:
            assert grid[p] is not None
            if rules.match_key(grid[p] or "") == key:
                for q in range(p % cols, rules.cells, cols):
                    if q != p and (grid[q] is None or rules.match_key(grid[q] or "") != key):
                        return q
        return None

    def worst_face_up() -> int | None:
        return max(face_up, key=lambda p: values[rank_of(grid[p] or "")], default=None)

    if view.phase is Phase.DRAW:
        top = view.discard[-1] if view.discard else None
        wanted = top is not None and (values[rank_of(top)] <= 2 or pair_spot(top) is not None)
        if wanted and TakeDiscard() in actions:
            return TakeDiscard()
        return DrawFromStock()

    card = view.drawn_card
    assert card is not None
    value = values[rank_of(card)]
    spot = pair_spot(card)
    worst = worst_face_up()
    target: int | None = None
    if spot is not None:
        target = spot
    elif value <= 4:
        if worst is not None and values[rank_of(grid[worst] or "")] > value + 2:
            target = worst
        elif face_down:
            target = rng.choice(face_down)
    elif worst is not None and values[rank_of(grid[worst] or "")] >= value + 3:
        target = worst
    if target is not None and SwapCard(target) in actions:
        return SwapCard(target)
    discards = [a for a in actions if isinstance(a, DiscardDrawn)]
    if discards:
        plain = [a for a in discards if a.flip is None]
        if plain and (len(discards) == 1 or rng.random() < 0.5):
            return plain[0]
        return rng.choice(discards)
    if worst is None and not face_down:
        return rng.choice(actions)
    return SwapCard(worst if worst is not None else rng.choice(face_down))


def _matched_positions(grid: tuple[str | None, ...], rules: Rules) -> frozenset[int]:
    """The positions in a scoring line whose cards are all face up and match."""
    matched: set[int] = set()
    for line in rules.line_positions():
        cards = [grid[p] for p in line]
        if all(cards) and len({rules.match_key(c or "") for c in cards}) == 1:
            matched.update(line)
    return frozenset(matched)


def _forced(view: View, rules: Rules, rng: random.Random) -> tuple[list[Action], Action | None]:
    """The seat's playable actions, and the move the expected-value players make without
    weighing anything: the only one, or an opening flip spread over the grid."""
    actions = playable(view)
    if len(actions) == 1:
        return actions, actions[0]
    if view.phase is Phase.FLIPS:
        return actions, spread_flip(view, rules, rng)
    return actions, None


# --- greedy -----------------------------------------------------------------------------------
def greedy_policy(view: View, rules: Rules, rng: random.Random) -> Action:
    """One ply: the move after which the seat's own expected grid score is lowest (a
    face-down card counted at what the unseen cards are worth on average). It takes the
    discard only when placing it lowers that score, and never weighs the opponents, the
    stock's chances or going out."""
    actions, forced = _forced(view, rules, rng)
    if forced is not None:
        return forced
    ev = Evaluator.from_view(view, rules)
    cells, base = ev.cells, ev.base

    def after(action: Action, rank: str) -> float:
        if isinstance(action, SwapCard):
            return ev.know.estimate_with(cells, base, action.position, rank)
        return base  # a discard (with or without a flip) leaves the expected score as it is

    if view.phase is Phase.DRAW:
        if TakeDiscard() in actions and view.discard:
            top = rank_of(view.discard[-1])
            if min(after(SwapCard(p), top) for p in range(len(cells))) < base:
                return TakeDiscard()
        return DrawFromStock()
    assert view.drawn_card is not None
    rank = rank_of(view.drawn_card)
    return best_by_value(actions, [after(a, rank) for a in actions])


# --- normal -----------------------------------------------------------------------------------
def best_by_value(actions: list[Action], values: list[float]) -> Action:
    """The action of lowest value; ties go to the earliest in the legal order."""
    best = min(range(len(actions)), key=lambda i: (round(values[i], 9), i))
    return actions[best]


def normal_policy(
    view: View, rules: Rules, rng: random.Random, look: Lookahead = ONE_TURN
) -> Action:
    """The evaluation's best move, one turn deep (with ``look``, as far as ``hard``'s
    evaluation sees: ``bench/golf_look.py`` measures it so)."""
    actions, forced = _forced(view, rules, rng)
    if forced is not None:
        return forced
    ev = Evaluator.from_view(view, rules, look=look)
    if view.phase is Phase.DRAW:
        return best_by_value(actions, ev.draw_choice_values(actions))
    card = view.drawn_card
    assert card is not None
    return best_by_value(actions, ev.place_values(rank_of(card), actions))


def hard_policy(
    view: View, rules: Rules, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> Action:
    """The match's very last turn played to win the match (:mod:`golf.com.endgame`); on
    the two-player six-card table the learned value's search (:mod:`golf.com.value`);
    elsewhere the determinized search (:mod:`golf.com.search`, with ``budget``)."""
    if not value.applies(view, rules):
        return search_policy(view, rules, rng, budget)
    return last_turn_move(view, rules, rng) or value.choose(view, rules, rng)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "easy": easy_policy,
    "normal": normal_policy,
    "hard": hard_policy,
}
LEVELS = ("easy", "normal", "hard")
#: Other names of a level, accepted wherever a level is named (Vanikar calls it "medium").
LEVEL_ALIASES: dict[str, str] = {"medium": "normal"}


def resolve_level(level: str) -> str:
    """The level ``level`` names (itself, or the level an alias stands for); a
    ``ValueError`` for an unknown name."""
    level = LEVEL_ALIASES.get(level, level)
    if level not in POLICIES:
        known = sorted([*POLICIES, *LEVEL_ALIASES])
        raise ValueError(f"unknown COM level {level!r}; one of {known}")
    return level


def choose_action(level: str, view: View, rules: Rules, rng: random.Random) -> Action:
    """The move of a COM of ``level`` (or an alias of one) for the seat whose view this is."""
    return POLICIES[resolve_level(level)](view, rules, rng)
