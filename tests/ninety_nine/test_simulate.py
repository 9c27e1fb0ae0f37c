"""``python -m ninety_nine.simulate`` prints a match that anyone can re-score from its JSON
and re-deal from its revealed seed; ``python -m ninety_nine.arena`` measures COM levels."""

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ninety_nine import arena, simulate
from tests.ninety_nine import reference

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, main, *args):
    code = main(list(args))
    out = capsys.readouterr()
    lines = [json.loads(line) for line in out.out.splitlines()] if code == 0 else []
    return code, lines, out.err


def rescore(lines, premium_bids=True, target=100, max_deals=None):
    """Re-derive every deal from the printed JSON alone and the revealed seed, by the
    written rules (``tests/ninety_nine/reference.py``), never the engine's code."""
    *deals, end = lines
    rules = end["rules"]  # what was played, every option named: those asked for
    assert (rules["premium_bids"] == "on", rules["target_score"], rules["max_deals"]) == (
        premium_bids,
        target,
        max_deals,
    )
    seed = bytes.fromhex(end["seed"])
    totals = [0, 0, 0]
    made_before = None
    for number, deal in enumerate(deals, start=1):
        assert deal["deal"] == number and deal["dealer"] == (number - 1) % 3
        eldest = (deal["dealer"] + 1) % 3
        # the trumps: none in the first deal, then by how many made it in the one before
        expected = None if made_before is None else reference.TRUMPS_AFTER[made_before]
        assert deal["trumps"] == expected
        trumps = deal["trumps"]
        # the hands as dealt, from the seed
        hands = reference.deal(seed, number, deal["dealer"])
        assert [set(h) for h in deal["hands"]] == hands
        assert all(len(h) == 12 for h in deal["hands"])
        # the bids: three of each hand, the contract their suits' sum
        contracts = []
        for seat, bid in enumerate(deal["bids"]):
            assert len(set(bid["cards"])) == 3 and set(bid["cards"]) <= hands[seat]
            assert bid["contract"] == reference.contract(bid["cards"])
            contracts.append(bid["contract"])
            hands[seat] -= set(bid["cards"])
        # the premium bids, in turn from eldest
        calls = deal["premium"]["calls"]
        if premium_bids:
            seat, kind = reference.premium_holder(calls, eldest)
        else:
            assert calls == [None, None, None]
            seat, kind = None, None
        assert (deal["premium"]["seat"], deal["premium"]["kind"]) == (seat, kind)
        # the tricks: eldest leads, each seat follows suit if it can, the winner leads
        leader = eldest
        won = [0, 0, 0]
        assert len(deal["tricks"]) == 9
        for index, trick in enumerate(deal["tricks"], start=1):
            assert trick["trick"] == index and trick["leader"] == leader
            plays = [(p["seat"], p["card"]) for p in trick["plays"]]
            assert [s for s, _ in plays] == [(leader + k) % 3 for k in range(3)]
            led = plays[0][1][1]
            for s, card in plays:
                assert card in hands[s], (number, index, s, card)
                if card[1] != led:
                    assert not any(c[1] == led for c in hands[s]), "did not follow suit"
                hands[s].remove(card)
            leader = reference.trick_winner(plays, trumps)
            assert trick["winner"] == leader
            won[leader] += 1
        assert not any(hands)
        assert deal["tricks_won"] == won
        made = [w == c for w, c in zip(won, contracts, strict=True)]
        assert deal["made"] == made
        points = reference.score(contracts, won, seat, kind)
        assert deal["points"] == points
        totals = [t + p["total"] for t, p in zip(totals, points, strict=True)]
        assert deal["totals"] == totals
        assert max(p["total"] for p in points) <= 99
        made_before = sum(made)
        last = number == len(deals)
        over = max(totals) >= target or (max_deals is not None and number >= max_deals)
        assert over == last, f"deal {number}: the match should {'' if over else 'not '}end"
    assert end["totals"] == totals and end["deals"] == len(deals)
    assert end["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    return deals, end


def test_the_documented_command_line():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ninety_nine.simulate",
            "--preset",
            "ninety-nine",
            "--players",
            "3",
            "--seed",
            "7",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    deals, end = rescore(lines)
    assert len(deals) >= 1
    assert end["seed"] == simulate.seed_bytes("7").hex()
    assert set(deals[0]) == {
        "deal",
        "dealer",
        "trumps",
        "hands",
        "bids",
        "premium",
        "tricks",
        "tricks_won",
        "made",
        "points",
        "totals",
    }


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
@pytest.mark.parametrize("seed", ["1", "2", "x"])
def test_matches_at_every_level_rescore(capsys, level, seed):
    code, lines, _ = run(capsys, simulate.main, "--seed", seed, "--level", level)
    assert code == 0
    deals, _ = rescore(lines)
    assert len(deals) >= 2 or level == "random"


def test_a_match_of_hard_coms_rescores(capsys):
    code, lines, _ = run(
        capsys, simulate.main, "--seed", "4", "--level", "hard", "--set", "max_deals=2"
    )
    assert code == 0
    rescore(lines, max_deals=2)


def test_options(capsys):
    code, lines, _ = run(
        capsys,
        simulate.main,
        "--seed",
        "3",
        "--set",
        "premium_bids=off",
        "--set",
        "target_score=300",
        "--set",
        "max_deals=5",
    )
    assert code == 0
    deals, _ = rescore(lines, premium_bids=False, target=300, max_deals=5)
    assert len(deals) <= 5
    code, lines, _ = run(capsys, simulate.main, "--seed", "3", "--set", "target_score=10")
    assert code == 0
    deals, _ = rescore(lines, target=10)
    assert len(deals) == 1


def test_the_seed_of_the_command_line():
    assert simulate.seed_bytes(7) == hashlib.sha256(b"ninety-nine-simulate:7").digest()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "4"], "players"),
        (["--set", "premium_bids=maybe"], "premium_bids"),
        (["--set", "max_deals=0"], "max_deals"),
        (["--set", "jokers=on"], "jokers"),
        (["--set", "jokers"], "--set takes NAME=VALUE, got 'jokers'"),
    ],
)
def test_bad_arguments_are_reported(capsys, args, message):
    code, _, err = run(capsys, simulate.main, *args)
    assert code == 2 and message in err


# --- the arena --------------------------------------------------------------------------------
def test_the_arena_reports_points_pairs_and_levels(capsys):
    code, lines, _ = run(
        capsys, arena.main, "--deals", "12", "--seats", "normal,easy,random", "--json"
    )
    assert code == 0
    (result,) = lines
    assert [(r["entry"], r["level"], r["deals"]) for r in result["entries"]] == [
        (0, "normal", 12),
        (1, "easy", 12),
        (2, "random", 12),
    ]
    assert [(p["a"], p["b"]) for p in result["paired"]] == [(0, 1), (0, 2), (1, 2)]
    for row in result["entries"]:
        low, high = row["ci95"]
        assert low <= row["mean_points"] <= high
    for level in ("normal", "easy", "random"):
        tally = result["levels"][level]
        assert tally["plays"] == 36  # 12 deals, each played at every seat
        assert 0 <= tally["contract_rate"] <= 1
        assert tally["declared_made"] <= tally["declared"]
        assert tally["revealed_made"] <= tally["revealed"]
        assert tally["decisions"] > 0 and tally["median_ms"] <= tally["p95_ms"]
    assert result["levels"]["easy"]["declared"] == result["levels"]["easy"]["revealed"] == 0


def test_the_arena_plays_the_same_deals_for_every_entry(capsys):
    # three equal entries at random: the same deals, seats rotated, so the paired
    # differences are exactly zero when every entry plays the same way
    tally = arena.run_arena(arena.Rules(), ["normal"] * 3, deals=6, seed=2)
    assert tally.points[0] == tally.points[1] == tally.points[2]
    again = arena.run_arena(arena.Rules(), ["normal"] * 3, deals=6, seed=2)
    assert again.points == tally.points
    code, _, err = run(capsys, arena.main, "--seats", "normal,grand")
    assert code == 2 and "grand" in err


def test_the_arena_text_output(capsys):
    code = arena.main(["--deals", "3", "--seats", "easy,random,random"])
    out = capsys.readouterr().out
    assert code == 0
    assert "points/deal" in out and "contracts made" in out and "decision time" in out
