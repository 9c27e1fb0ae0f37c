"""The trainer of the Golf COM's value network: deterministic, and its output is read."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from golf.com import value as gv
from golf.com.value import Network

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_golf_value.py"


def trainer():  # type: ignore[no-untyped-def]
    if "train_golf_value" in sys.modules:
        return sys.modules["train_golf_value"]
    spec = importlib.util.spec_from_file_location("train_golf_value", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_training_is_deterministic_and_writes_what_the_com_reads(tmp_path, capsys):
    train = trainer()
    phases = "30:1e-3:0:0,12:1e-3:0.2:1"  # a few holes of each kind of phase
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    for out in (first, second):
        assert (
            train.main(["--out", str(out), "--hidden", "8", "--phases", phases, "--report", "20"])
            == 0
        )
    assert first.read_bytes() == second.read_bytes()
    printed = capsys.readouterr().out
    assert "holes 20: loss" in printed and f"wrote {second} after 42 holes" in printed
    data = json.loads(first.read_text())
    assert data["trained"] == {"hidden": 8, "seed": 1, "phases": phases, "holes": 42}
    net = Network.from_json(data)
    assert net.hidden == 8 and len(net.win) == 8
    other = tmp_path / "seed2.json"
    train.main(["--out", str(other), "--hidden", "8", "--phases", phases, "--seed", "2"])
    assert other.read_bytes() != first.read_bytes()


def test_the_committed_weights_say_how_they_were_made():
    data = json.loads((SCRIPT.parents[1] / "golf" / "com" / "value_net.json").read_text())
    train = trainer()
    assert data["trained"]["phases"] == train.DEFAULT_PHASES
    assert data["trained"]["holes"] == sum(
        int(p.split(":")[0]) for p in train.DEFAULT_PHASES.split(",")
    )
    assert data["trained"]["hidden"] == 64 and data["trained"]["seed"] == 1


def test_the_com_reads_the_table_as_the_trainer_taught_it():
    """Every afterstate the trainer valued, valued by the COM's quick sums on the committed
    weights: the same inputs, the same outputs (a take, each rank drawn and placed or thrown,
    the margin and the win with points carried inside and beyond the bound)."""
    train = trainer()
    net = gv.network()
    ref = train.Network(net.hidden, 0)
    ref.p.update(
        sparse=np.vstack([np.array(net.sparse), np.zeros((1, net.hidden))]),
        dense=np.array(net.dense),
        bias=np.array(net.bias),
        win=np.array(net.win),
        win_bias=np.array(net.win_bias),
        margin=np.array(net.margin),
        margin_bias=np.array(net.margin_bias),
    )
    rng = random.Random(5)
    compared = 0
    for _ in range(40):
        hole = train.Hole(rng, 0)
        for _ in range(rng.randrange(8)):  # a few turns of random play
            seat = hole.turn
            hole.place(seat, rng.randrange(6), hole.draw())
            if all(hole.up[seat]):
                break
            hole.turn = 1 - seat
        seat = hole.turn
        mine, theirs, unseen = hole.cells(seat), hole.cells(1 - seat), hole.unseen()
        goal = gv.Goal(rng.choice([None, 0, 7, -20, 30, -45]))
        top = hole.discard[-1]
        options = train.options(mine, theirs, top, unseen, goal.carried or 0)
        win, margin = ref.forward(options.rows, options.dense)[:2]
        expected = win if goal.win else margin
        mover = gv.Mover(net, mine, theirs, unseen, goal)
        for i, (branch, pos, _) in enumerate(options.meta):
            rank, seen = (top, None) if branch == "take" else (branch, branch)
            got = mover.swap(rank, pos, seen) if pos >= 0 else mover.throw(rank, seen)
            if got is not None:  # going out is counted exactly, not by the network
                assert got == pytest.approx(float(expected[i]), abs=1e-9)
                compared += 1
    assert compared > 1000


def test_an_empty_stock_is_made_again_before_the_next_seat_decides():
    """As in the engine: the pile but its top becomes the stock before the seat draws, so
    those cards count as unseen when it decides; with no pile left, the hole is over."""
    train = trainer()
    hole = train.Hole(random.Random(3), 0)
    pile = hole.discard + hole.stock
    hole.discard, hole.stock = pile, []
    face_down = sum(not up for grid in hole.up for up in grid)
    assert hole.end_turn(0) is False
    assert hole.turn == 1 and hole.discard == pile[-1:]
    assert sorted(hole.stock) == sorted(pile[:-1])
    assert sum(hole.unseen()) == len(hole.stock) + face_down
    hole.discard, hole.stock = hole.discard[:1], []
    assert hole.end_turn(1) is True


def test_the_opening_flips_are_sometimes_in_one_column():
    train = trainer()
    rng = random.Random(4)
    together = 0
    for _ in range(200):
        hole = train.Hole(rng, 0)
        for up in hole.up:
            flipped = [p for p in range(6) if up[p]]
            assert len(flipped) == 2
            together += flipped[0] % 3 == flipped[1] % 3
    # a grid in two is flipped anyhow, and a fifth of those flips share a column
    assert 20 < together < 60
