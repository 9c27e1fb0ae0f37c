"""Every game's `simulate` and `arena` answer a bad option with a clear error (status 2),
not a traceback, and an arena starts no more processes than it has parts to play."""

from __future__ import annotations

import importlib

import pytest

ARENAS = {"golf": "--holes", "hearts": "--deals", "ninety_nine": "--deals"}


def run(capsys, main, *args: str) -> tuple[int, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's refusal
        code = exc.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize("game", sorted(ARENAS))
@pytest.mark.parametrize(("option", "value", "says"), [
    ("--jobs", "0", "argument --jobs: must be 1 or more, not 0"),
    ("--jobs", "-1", "argument --jobs: must be 1 or more, not -1"),
    ("--jobs", "two", "argument --jobs: not a whole number: 'two'"),
    ("count", "0", "must be 1 or more, not 0"),
    ("count", "-5", "must be 1 or more, not -5"),
])  # fmt: skip
def test_an_arena_refuses_a_count_below_one(capsys, game, option, value, says):
    arena = importlib.import_module(f"{game}.arena")
    code, err = run(capsys, arena.main, ARENAS[game] if option == "count" else option, value)
    assert code == 2 and says in err and "Traceback" not in err


@pytest.mark.parametrize("game", sorted(ARENAS))
@pytest.mark.parametrize("command", ["simulate", "arena"])
def test_a_value_nested_too_deep_is_a_clear_error(capsys, game, command):
    main = importlib.import_module(f"{game}.{command}").main
    code, err = run(capsys, main, "--set", "holes=" + "[" * 100_000)
    assert code == 2 and "--set holes: the value nests too deep" in err


@pytest.mark.parametrize("game", sorted(ARENAS))
def test_an_arena_starts_no_more_processes_than_parts(capsys, monkeypatch, game):
    arena = importlib.import_module(f"{game}.arena")
    started = []

    class Pool:  # the executor, in this process: how many processes it was asked for
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)

        def __enter__(self) -> Pool:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def map(self, function, parts):
            return map(function, parts)

    monkeypatch.setattr(arena, "ProcessPoolExecutor", Pool)
    seats = ",".join(["random"] * {"golf": 2, "hearts": 4, "ninety_nine": 3}[game])
    code, err = run(capsys, arena.main, ARENAS[game], "1", "--jobs", "40", "--seats", seats)
    assert code == 0, err
    assert started == [1]
