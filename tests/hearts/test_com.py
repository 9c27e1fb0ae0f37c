"""COM players and hints: legal, deterministic, from the seat's view alone."""

import random

import pytest

from hearts.actions import PassCards, PlayCard
from hearts.com import heuristic
from hearts.com.hint import explain, hint
from hearts.com.knowledge import Knowledge, Posterior, misfits, observations
from hearts.com.policies import LEVELS, POLICIES, choose_action, playable
from hearts.com.table import legal_ints, mask_of, to_code, to_int
from hearts.decide import legal_actions, legal_plays, start_match
from hearts.game import HEARTS
from hearts.hidden import resample_hidden
from hearts.rules import Rules
from hearts.state import Phase, replay
from hearts.views import view_for
from tests.hearts.helpers import CLUBS_3_TO_A, hands_with, table

CLASSIC = Rules.from_preset("hearts-classic")


def _positions(rules=CLASSIC, players=4, steps=60, seed=0):
    """States along a match played by ``normal`` COMs."""
    rng = random.Random(seed)
    state = replay(start_match(rules, players, bytes([seed]) * 32))
    found = []
    for _ in range(steps):
        if state.ended:
            break
        seat = state.seats_to_act()[0]
        found.append((state, seat))
        action = choose_action("normal", view_for(state, seat), rules, rng)
        state = replay(HEARTS.decide(state, seat, action), state)
    return found


@pytest.mark.parametrize("level", ["random", *LEVELS])
def test_coms_choose_legal_actions_and_are_deterministic(level):
    for state, seat in _positions(steps=30)[::3]:
        view = view_for(state, seat)
        first = POLICIES[level](view, state.rules, random.Random(5))
        assert first in legal_actions(state, seat)
        assert POLICIES[level](view, state.rules, random.Random(5)) == first


@pytest.mark.parametrize("level", LEVELS)
def test_coms_decide_from_their_view_alone(level):
    rng = random.Random(9)
    for state, seat in _positions(steps=40, seed=1)[::4]:
        chosen = HEARTS.com_action(state, seat, level, random.Random(1))
        other = resample_hidden(state, seat, rng)
        assert HEARTS.com_action(other, seat, level, random.Random(1)) == chosen


def test_the_integer_legal_plays_match_the_rules():
    rng = random.Random(4)
    for rules in (CLASSIC, Rules.from_preset("hearts", points_on_first_trick="allowed")):
        for state, seat in _positions(rules, steps=200, seed=2):
            if state.phase is not Phase.PLAYING:
                continue
            hand = state.hands[seat]
            led = state.trick[0][1] if state.trick else None
            for first in (True, False):
                for broken in (True, False):
                    expected = legal_plays(
                        hand,
                        led,
                        first_trick=first,
                        hearts_broken=broken,
                        opening="2C",
                        points_allowed=rules.points_on_first_trick.value == "allowed",
                    )
                    got = legal_ints(
                        sorted(to_int(c) for c in hand),
                        [to_int(c) for c in state.trick],
                        first,
                        broken,
                        to_int("2C"),
                        rules.points_on_first_trick.value == "allowed",
                    )
                    assert [to_code(c) for c in got] == expected
            assert rng


def test_knowledge_reads_voids_and_the_cards_passed():
    state = replay(start_match(CLASSIC, 4, bytes(32)))
    for seat in range(4):
        state = replay(HEARTS.decide(state, seat, PassCards(state.hands[seat][-3:])), state)
    know = Knowledge.from_view(view_for(state, 0), CLASSIC)
    passed = sorted(to_int(c) for c in state.passes[0])
    assert sorted(know.known[1]) == passed
    for sample in (know.sample(random.Random(i)) for i in range(20)):
        assert set(passed) <= set(sample[1])
        assert sorted(c for h in sample for c in h) == list(range(52))


def test_a_card_passed_and_seen_again_after_an_undo_is_known_once():
    """The receiver played a card this seat had passed it, and this seat undid the play:
    the card is known twice (passed, and seen), once in what this seat knows. Counted
    twice, the receiver's hand held more known cards than cards, and the deals drawn had
    the wrong number of cards in each hand (or none: the hint's search failed)."""
    rules = Rules.from_preset("hearts-classic", undo=True, max_deals=1)
    found = 0
    for seed in range(40):
        if found >= 3:
            break
        rng = random.Random(seed)
        kinds = ["human", "com", "com", "com"]
        state = replay(start_match(rules, kinds, rng.randbytes(32)))
        for _ in range(120):
            if state.phase != Phase.PLAYING and state.phase != Phase.PASSING:
                break
            seat = rng.choice(list(HEARTS.seats_to_act(state)))
            view = view_for(state, seat)
            if seat == 0 and state.phase == Phase.PLAYING and view.seen and view.passed:
                know = Knowledge.from_view(view, rules)
                doubled = {c for _, c in view.seen} & set(view.passed)
                found += bool(doubled)
                for cards, size in zip(know.known, know.sizes, strict=True):
                    assert len(set(cards)) == len(cards) <= size
                for sample in Posterior(know, 0.03).draw(rng, 4, thin=2, burn=6):
                    assert [len(h) for h in sample] == list(know.sizes)
                    assert len({c for h in sample for c in h}) == sum(know.sizes)
                assert HEARTS.hint(state, seat)["action"]
            action = rng.choice(legal_actions(state, seat))
            state = replay(HEARTS.decide(state, seat, action), state)
    assert found  # the case arose


@pytest.mark.parametrize(
    ("preset", "players"), [("hearts", 3), ("hearts-classic", 4), ("hearts", 5)]
)
def test_what_a_seat_knows_is_true_of_the_deal(preset, players):
    """Read from any seat's view at any point of play (undos among the human's moves): the
    cards it places are in those hands, once each and no more than a hand holds; no hand
    holds a card it rules out; what it cannot place is exactly what is hidden from it."""
    passing = {"passing": "left"} if preset == "hearts" else {}  # (the seed's rules pass none)
    rules = Rules.from_preset(preset, players=players, undo=True, max_deals=1, **passing)
    rng = random.Random(f"knowledge/{preset}/{players}")
    checked = 0
    for _ in range(16):
        state = replay(start_match(rules, ["human"] + ["com"] * (players - 1), rng.randbytes(32)))
        while state.phase in (Phase.PASSING, Phase.PLAYING):
            seat = rng.choice(list(HEARTS.seats_to_act(state)))
            if state.phase == Phase.PLAYING:
                checked += 1
                view = view_for(state, seat)
                know = Knowledge.from_view(view, rules)
                hands = [{to_int(c) for c in hand} for hand in state.hands]
                for other in (s for s in range(players) if s != seat):
                    placed = know.known[other]
                    assert len(set(placed)) == len(placed) <= know.sizes[other]
                    assert set(placed) <= hands[other]
                    assert not mask_of(hands[other]) & know.forbidden[other]
                hidden = set().union(*(hands[s] for s in range(players) if s != seat))
                assert set(know.unseen()) == hidden - {c for k in know.known for c in k}
            action = rng.choice(legal_actions(state, seat))
            state = replay(HEARTS.decide(state, seat, action), state)
    assert checked > 100


def test_the_sampler_respects_voids():
    # seat 1 holds every club but the 2 (seat 3 leads it): seat 2 shows a void in clubs
    hands = hands_with(4, {1: [*CLUBS_3_TO_A, "AH"]})
    state, _ = table(Rules.from_preset("hearts"), hands)
    for _ in range(4):
        state = replay(
            HEARTS.decide(state, state.to_act, legal_actions(state, state.to_act)[0]), state
        )
    know = Knowledge.from_view(view_for(state, 0), state.rules)
    for i in range(10):
        sample = know.sample(random.Random(i))
        assert not [c for c in sample[2] if c < 13]  # no clubs
        assert sorted(c for h in sample for c in h) == sorted(know.unseen() + know.hand)


def _moon_table(taken, trick, hand, leader):
    rules = Rules.from_preset("hearts-classic")
    hands = [[], [], [], []]
    hands[0] = sorted(to_int(c) for c in hand)
    played = [to_int(c) for c in ("2C", "3C", "4C", "5C", "QS", "2H", "3H", "4H", "5H", "6H")]
    from hearts.com.table import Table, mask_of

    return Table(
        hands,
        rules,
        leader=leader,
        trick=[to_int(c) for c in trick],
        played=mask_of(played) | mask_of(to_int(c) for c in trick),
        taken=list(taken),
        broken=True,
        first=False,
    )


def test_normal_stops_a_moon_shot():
    from hearts.com import heuristic

    # seat 3 has every point so far and leads a heart: seat 0 takes it with its ace
    table_ = _moon_table([0, 0, 0, 18], ["9H"], ["7H", "AH", "8D"], leader=3)
    assert to_code(heuristic.play(table_, 0, table_.legal(0))) == "AH"
    # without the threat, seat 0 ducks
    quiet = _moon_table([9, 0, 0, 9], ["9H"], ["7H", "AH", "8D"], leader=3)
    assert to_code(heuristic.play(quiet, 0, quiet.legal(0))) == "7H"


def test_normal_plays_on_for_the_moon():
    from hearts.com import heuristic

    table_ = _moon_table([18, 0, 0, 0], [], ["7H", "AH", "8D"], leader=0)
    assert to_code(heuristic.play(table_, 0, table_.legal(0))) == "AH"


def test_hints_are_legal_explained_and_deterministic():
    for state, seat in _positions(steps=20, seed=3)[::4]:
        given = hint(view_for(state, seat), state.rules)
        assert given.action in legal_actions(state, seat)
        assert given.reason.endswith(".") and len(given.reason) > 20
        assert hint(view_for(state, seat), state.rules) == given
        again = HEARTS.hint(resample_hidden(state, seat, random.Random(2)), seat)
        assert again == given.to_json()


def test_a_follow_hint_says_how_the_card_sits_in_the_hand():
    """A reason speaks of "the highest" card under the trick's top only when it is."""
    checked = 0
    for state, seat in _positions(steps=200, seed=4):
        view = view_for(state, seat)
        cards = [a.card for a in playable(view) if isinstance(a, PlayCard)]
        if not view.trick or len(cards) < 2:
            continue
        led = view.trick[0][1][1]
        top = max((to_int(c) for _, c in view.trick if c[1] == led))
        under = [c for c in view.hand if c[1] == led and to_int(c) < top]
        for card in (c for c in cards if c[1] == led):
            reason = explain(view, PlayCard(card))
            highest = bool(under) and card == max(under, key=to_int)
            assert ("the highest" in reason) == highest, (view.hand, view.trick, card, reason)
            assert reason.endswith(".")
            checked += 1
    assert checked > 20


def test_a_lead_hint_says_what_can_beat_the_card():
    """A lead is called low only with three or more higher cards still out, and a sure
    winner only when none is (an ace led was once "a low lead")."""
    from hearts.com.hint import higher_out

    checked = {"sure": 0, "low": 0}
    for state, seat in _positions(steps=300, seed=6):
        view = view_for(state, seat)
        cards = [a.card for a in playable(view) if isinstance(a, PlayCard)]
        if view.trick or len(cards) < 2:
            continue
        for card in cards:
            reason, above = explain(view, PlayCard(card)), higher_out(view, card)
            assert ("nothing still out beats it" in reason) == (not above), (card, reason)
            if "a low lead" in reason:
                assert len(above) >= 3, (card, above, reason)
                checked["low"] += 1
            if "fish for the queen" in reason:  # she is in another hand
                assert "QS" in above, (card, view.hand, reason)
            checked["sure"] += not above
            assert reason.endswith(".")
    assert checked["sure"] > 3 and checked["low"] > 3, checked


def test_hint_explains_a_pass():
    state = replay(start_match(CLASSIC, 4, bytes(32)))
    given = hint(view_for(state, 0), CLASSIC)
    assert isinstance(given.action, PassCards) and given.reason.startswith("Pass the ")


def test_the_first_lead_hint():
    hands = hands_with(4, {0: ["2C", *CLUBS_3_TO_A]})
    state, _ = table(Rules.from_preset("hearts"), hands)
    given = hint(view_for(state, 0), state.rules)
    assert given.action == PlayCard("2C") and "only legal card" in given.reason


def _normal_positions(rules, players, deals, seed=0):
    """Views along deals played by ``normal`` COMs, with the true hands."""
    found = []
    for deal in range(deals):
        state = replay(start_match(rules, players, bytes([seed, deal]) * 16))
        rng = random.Random(deal)
        while not state.ended and state.deal <= 3:
            seat = state.seats_to_act()[0]
            view = view_for(state, seat)
            if state.phase is Phase.PLAYING:
                found.append((view, [sorted(to_int(c) for c in h) for h in state.hands]))
            action = choose_action("normal", view, rules, rng)
            state = replay(HEARTS.decide(state, seat, action), state)
    return found


@pytest.mark.parametrize(
    ("preset", "players"), [("hearts-classic", 4), ("hearts", 3), ("hearts", 5)]
)
def test_the_true_hands_explain_the_plays_of_normal_players(preset, players):
    """``normal`` plays exactly by the rules of thumb: the true hands never misfit."""
    rules = Rules.from_preset(preset, players=players)
    for view, hands in _normal_positions(rules, players, 3)[::3]:
        know = Knowledge.from_view(view, rules)
        obs = observations(know)
        posterior = Posterior(know, 0.03)
        for seat in range(players):
            if seat != know.seat:
                assert misfits(obs, seat, hands[seat]) == 0
                if seat == posterior.giver and seat == know.sent_to:  # across: exact
                    assert posterior.misfit(seat, hands[seat]) == 0


def test_the_posterior_draws_consistent_deals_closer_to_the_truth():
    rules = CLASSIC
    hits = {"random": 0, "posterior": 0}
    for view, hands in _normal_positions(rules, 4, 4, seed=1)[20::6]:
        know = Knowledge.from_view(view, rules)
        unseen = set(know.unseen())
        posterior = Posterior(know, 0.03)
        drawn = posterior.draw(random.Random(3), 12, thin=5, burn=60)
        for name, samples in (
            ("random", [know.sample(random.Random(i)) for i in range(12)]),
            ("posterior", drawn),
        ):
            for sample in samples:
                assert sorted(c for h in sample for c in h) == sorted(
                    [*unseen, *know.hand, *(c for k in know.known for c in k)]
                )
                assert sample[know.seat] == know.hand
                for seat in range(4):
                    assert not mask_of(sample[seat]) & know.forbidden[seat]
                    assert set(know.known[seat]) <= set(sample[seat])
                    if seat != know.seat:
                        hits[name] += len(set(sample[seat]) & set(hands[seat]) & unseen)
    assert hits["posterior"] > hits["random"] * 1.1


def test_the_pass_order_ranks_what_normal_passes_first():
    rng = random.Random(6)
    for _ in range(50):
        hand = sorted(rng.sample(range(52), 13))
        assert heuristic.choose_pass(hand) == sorted(heuristic.pass_order(hand)[:3])


def test_normal_ignores_the_moon_when_it_does_not_score():
    from hearts.com.table import Table, mask_of

    rules = Rules.from_preset("hearts")  # shoot_the_moon: off
    played = [to_int(c) for c in ("2C", "3C", "4C", "5C", "QS", "2H", "3H", "4H", "5H", "6H")]
    quiet = Table(
        [sorted(to_int(c) for c in ("7H", "AH", "8D")), [], [], []],
        rules,
        leader=3,
        trick=[to_int("9H")],
        played=mask_of(played) | 1 << to_int("9H"),
        taken=[0, 0, 0, 18],
        broken=True,
        first=False,
    )
    assert to_code(heuristic.play(quiet, 0, quiet.legal(0))) == "7H"  # ducks, no moon to stop
