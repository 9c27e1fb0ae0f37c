"""The trainer of the Golf COM's value network: deterministic, and its output is read."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

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
