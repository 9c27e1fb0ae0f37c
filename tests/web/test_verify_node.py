"""The web client's own check of a deal (``web/verify.js``), run by Node on Golf logs whose
reshuffles follow an undo, in both labellings (``docs/dealing.md``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cards.shuffle import commitment_of
from golf import DiscardDrawn, SwapCard, Undo
from golf.decide import start_match
from golf.events import event_from_payload, event_payload, event_to_json
from tests.golf.test_reshuffle_undo import RULES, SEED, Table

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import { verifyAudit } from "./web/verify.js";
let text = "";
for await (const chunk of process.stdin) text += chunk;
process.stdout.write(JSON.stringify(await verifyAudit(JSON.parse(text))));
"""


def verdict(table: Table, tamper: bool = False) -> dict:
    events = [event_to_json(e) for e in table.log]
    if tamper:  # the last reshuffle's stock with its first two cards swapped
        data = next(e["data"] for e in reversed(events) if e["type"] == "stock_reshuffled")
        data["stock"][0], data["stock"][1] = data["stock"][1], data["stock"][0]
    audit = {
        "seed": SEED.hex(),
        "seed_commitment": commitment_of(SEED),
        "events": [{"seq": i, **e} for i, e in enumerate(events, 1)],
    }
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT],
        input=json.dumps(audit),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def played(table: Table) -> Table:
    table.to_the_last_card()
    table.after(DiscardDrawn())
    table.act(0, Undo())
    table.after(SwapCard(0))
    assert len(table.piles) == 2
    return table


def test_the_client_verifies_reshuffles_after_an_undo_and_finds_a_changed_one():
    table = played(Table())
    assert verdict(table)["ok"] is True
    bad = verdict(table, tamper=True)
    assert bad["ok"] is False and "reshuffle 1" in bad["mismatch"]


def test_the_client_verifies_a_match_begun_before_reshuffles_named_their_pile():
    legacy = dict(event_payload(start_match(RULES, ["human", "com", "com"], SEED)[0]))
    del legacy["reshuffle"]
    table = played(Table(event_from_payload("match_started", 1, legacy)))
    assert verdict(table)["ok"] is True
