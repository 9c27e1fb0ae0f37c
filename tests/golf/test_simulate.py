"""The local simulation command prints one JSON line per hole, then the result."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from golf import Rules, score_grid
from golf.simulate import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, [json.loads(line) for line in out.out.splitlines()], out.err


def test_the_documented_command_line():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "golf.simulate",
            "--preset",
            "six-card",
            "--players",
            "4",
            "--holes",
            "9",
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
    assert [line["hole"] for line in lines[:-1]] == list(range(1, 10))
    rules = Rules.from_preset("six-card")
    for line in lines[:-1]:
        assert len(line["grids"]) == 4 and all(len(g) == 6 for g in line["grids"])
        assert line["scores"] == [score_grid(g, rules) for g in line["grids"]]
    totals = [sum(line["scores"][seat] for line in lines[:-1]) for seat in range(4)]
    assert lines[-1]["totals"] == totals
    assert lines[-1]["winners"] == [s for s, t in enumerate(totals) if t == min(totals)]
    assert lines[-1]["rules"] == rules.to_json()  # what was played, every option named


@pytest.mark.parametrize("preset", ["six-card-instant", "six-card-jokers", "nine-card"])
@pytest.mark.parametrize("players", [2, 6])
def test_every_preset_and_table_size(capsys, preset, players):
    code, lines, _ = run(capsys, "--preset", preset, "--players", str(players), "--holes", "2")
    assert code == 0 and len(lines) == 3
    assert all(len(g) == Rules.from_preset(preset).cells for g in lines[0]["grids"])


def test_rule_overrides(capsys):
    code, lines, _ = run(
        capsys,
        "--players",
        "3",
        "--holes",
        "1",
        "--set",
        "jokers=true",
        "--set",
        "grid=2x4",
        "--set",
        "decks=2",
    )
    assert code == 0 and len(lines[0]["grids"][0]) == 8


def test_the_same_seed_plays_the_same_match(capsys):
    assert run(capsys, "--seed", "3", "--holes", "2") == run(capsys, "--seed", "3", "--holes", "2")
    assert run(capsys, "--seed", "3", "--holes", "2") != run(capsys, "--seed", "4", "--holes", "2")


def test_bad_rules_are_reported(capsys):
    code, _, err = run(capsys, "--set", "holes=40")
    assert code == 2 and "holes" in err
    code, _, err = run(capsys, "--set", "holes")  # a usage error, as argparse's
    assert code == 2 and err == "error: --set takes NAME=VALUE, got 'holes'\n"


@pytest.mark.parametrize("com", [[], ["--com", "normal"]])
def test_a_table_that_cannot_start_is_reported(capsys, com):
    code, out, err = run(capsys, "--set", "undo=true", *com)  # undo needs a human seat
    assert code == 2 and err.startswith("error: undo:") and not out
