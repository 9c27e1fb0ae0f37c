"""A whole Golf match played in the web client, in headless Chromium, against two COMs on a
real Celery worker: tests/web/play_golf.mjs clicks through it and, at every version the
page shows, checks the page against the API's view for that user."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from accounts.models import User
from tests.api.conftest import client_for

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "var" / "web" / "screenshots"


def browser_or_fail() -> str:
    if not CHROMIUM.exists():
        pytest.fail(
            "Chromium is missing: install the Debian package `chromium` "
            "(apt-get install chromium; `make test` does so when it runs as root)"
        )
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is missing: install the Debian packages `nodejs` and `npm`")
    if not (ROOT / "node_modules" / "playwright-core").is_dir():
        pytest.fail("playwright-core is missing: run `make install` (npm ci)")
    return node


def play(script: str, *args: str) -> tuple[dict, float]:
    """Runs tests/web/<script> (node, playwright-core): its summary, and how long it took."""
    node = browser_or_fail()
    command = [node, str(ROOT / "tests" / "web" / script), *args, str(SHOTS)]
    if os.environ.get("WEB_SCREENSHOTS_TO"):  # e.g. docs: refresh the documentation's images
        command.append(os.environ["WEB_SCREENSHOTS_TO"])
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-6000:]
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["done"], output[-6000:]
    return summary, time.monotonic() - started


@pytest.mark.slow
def test_a_whole_golf_match_played_by_clicking_matches_the_api(live_server, live_worker):
    summary, seconds = play("play_golf.mjs", live_server.url)

    # the page followed the match to its end, checked against the API at every step
    assert summary["versions"][-1] == summary["version"]
    assert summary["checks"] >= len(summary["moves"]) + 10, summary
    assert summary["versions"] == sorted(summary["versions"])
    assert summary["keyboard"] == 2  # the two opening flips, by the keyboard
    assert [m.split(":")[0] for m in summary["moves"][:2]] == ["reveal", "reveal"]
    assert summary["hint"] and summary["hint"].startswith("Hint: ")
    # one turn taken back: the swap before it, and the card drawn is placed again (no draw)
    moves = summary["moves"]
    assert moves.count("undo") == 1
    undo = moves.index("undo")
    assert moves[undo - 1].startswith("swap:") and moves[undo + 1].startswith("swap:")
    assert "Invalid credentials" in summary["problem"], summary["problem"]
    assert all(Path(shot).stat().st_size > 1000 for shot in summary["screenshots"])

    # and the API agrees that it ended as the page said
    user = User.objects.get(username=summary["username"])
    match = client_for(user).get(f"/api/matches/{summary['match']}").json()
    assert match["status"] == "finished"
    assert match["totals"] == summary["totals"] and match["winners"] == summary["winners"]
    assert match["version"] == summary["version"]
    print(f"browser match: {seconds:.1f} s, {summary['checks']} checks")
