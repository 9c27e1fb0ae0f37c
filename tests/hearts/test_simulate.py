"""``python -m hearts.simulate`` prints a match that anyone can re-score from its JSON."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cards.shuffle import shuffle_cards
from hearts.dealing import deal_label, deck_for
from hearts.simulate import main

ROOT = Path(__file__).resolve().parents[2]
RANKS = "23456789TJQKA"


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, [json.loads(line) for line in out.out.splitlines()], out.err


def rescore(lines, players, moon="off", jack=False, target=100):
    """Re-derive every deal from the printed JSON alone (and the revealed seed)."""
    rules = lines[-1]["rules"]  # what was played, every option named: those asked for
    assert rules["shoot_the_moon"] == moon and rules["target_score"] == target
    assert (rules["jack_of_diamonds"] != "off") == jack
    seed = bytes.fromhex(lines[-1]["seed"])
    totals = [0] * players
    for deal in lines[:-1]:
        # the deal, from the seed: one card at a time from the dealer's left
        deck = shuffle_cards(seed, deal_label(deal["deal"]), deck_for(players))
        first = deal["dealer"] + 1
        for seat in range(players):
            assert sorted(deal["hands"][seat]) == sorted(deck[(seat - first) % players :: players])
        taken = [0] * players
        jack_seat = None
        leader = next(
            s
            for s in range(players)
            if "2C" in deal["hands"][s] or ("2C" in deal["removed"] and "3C" in deal["hands"][s])
        )
        hands = [set(h) for h in deal["hands"]]
        if deal["passes"] is not None:
            offset = {"left": 1, "right": -1, "across": 2}[deal["direction"]]
            for s in range(players):
                hands[s] -= set(deal["passes"][s])
            for s in range(players):
                hands[(s + offset) % players] |= set(deal["passes"][s])
            opening = "3C" if "2C" in deal["removed"] else "2C"
            leader = next(s for s in range(players) if opening in hands[s])
        for trick in deal["tricks"]:
            assert trick["leader"] == leader
            cards = trick["cards"]
            for i, card in enumerate(cards):
                seat = (leader + i) % players
                hands[seat].remove(card)
            led = cards[0][1]
            best = max(
                (i for i, c in enumerate(cards) if c[1] == led),
                key=lambda i: RANKS.index(cards[i][0]),
            )
            winner = (leader + best) % players
            assert trick["winner"] == winner
            points = sum(1 for c in cards if c[1] == "H") + 13 * ("QS" in cards)
            taken[winner] += points
            if "JD" in cards:
                jack_seat = winner
            leader = winner
        assert not any(hands)
        assert deal["taken"] == taken and sum(taken) == 26
        scores = list(taken)
        if moon != "off" and 26 in taken:
            shooter = taken.index(26)
            assert deal["moon"] == shooter
            scores = [
                (0 if s == shooter else 26)
                if moon == "others_get_26"
                else (-26 if s == shooter else 0)
                for s in range(players)
            ]
        if jack:
            scores[jack_seat] -= 10
        assert deal["scores"] == scores
        totals = [t + s for t, s in zip(totals, scores, strict=False)]
        assert deal["totals"] == totals
    assert lines[-1]["totals"] == totals
    assert max(totals) >= target or lines[-1]["deals"] == len(lines) - 1
    assert lines[-1]["winners"] == [s for s, t in enumerate(totals) if t == min(totals)]


def test_the_documented_command_line():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "hearts.simulate",
            "--preset",
            "hearts-classic",
            "--players",
            "4",
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
    assert [line["deal"] for line in lines[:-1]] == list(range(1, len(lines)))
    assert [line["direction"] for line in lines[:4]] == ["left", "right", "across", "hold"]
    rescore(lines, 4, moon="others_get_26")
    # what docs/hearts.md prints of it (its example was of an older move order)
    documented = (ROOT / "docs" / "hearts.md").read_text()
    first, last = lines[0], {k: v for k, v in lines[-1].items() if k not in ("seed", "rules")}
    assert f'"passes": {json.dumps(first["passes"])}' in documented
    assert f'"tricks": [{json.dumps(first["tricks"][0])}, ...]' in documented
    assert f'"taken": {json.dumps(first["taken"])}' in documented
    assert json.dumps(last)[:-1] + ', "seed": "' + lines[-1]["seed"][:6] in documented
    assert f'\n "rules": {json.dumps(lines[-1]["rules"])}}}' in documented


@pytest.mark.parametrize("players", [3, 5])
def test_three_and_five_players(capsys, players):
    code, lines, _ = run(
        capsys, "--players", str(players), "--seed", "2", "--set", "target_score=40"
    )
    assert code == 0
    rescore(lines, players, target=40)


def test_options_and_com_levels(capsys):
    code, lines, _ = run(
        capsys,
        "--preset",
        "hearts-classic",
        "--level",
        "normal",
        "--seed",
        "3",
        "--set",
        "jack_of_diamonds=minus_10",
        "--set",
        "shoot_the_moon=shooter_minus_26",
        "--set",
        "max_deals=4",
    )
    assert code == 0 and lines[-1]["deals"] == 4
    rescore(lines, 4, moon="shooter_minus_26", jack=True)


def test_bad_options_are_reported(capsys):
    code, _, err = run(capsys, "--players", "3", "--set", "passing=across")
    assert code == 2 and "passing" in err
    code, _, err = run(capsys, "--set", "=across")
    assert code == 2 and err == "error: --set takes NAME=VALUE, got '=across'\n"


def test_a_table_that_cannot_start_is_reported(capsys):
    code, out, err = run(capsys, "--set", "undo=true")  # undo needs a human seat
    assert code == 2 and err.startswith("error: undo:") and not out
