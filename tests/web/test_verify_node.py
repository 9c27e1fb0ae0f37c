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


def verdict(table: Table, tamper: bool = False, **record: object) -> dict:
    """verify.js's verdict on the audit record of ``table``'s log (``record``: its fields
    changed)."""
    events = [event_to_json(e) for e in table.log]
    if tamper:  # the last reshuffle's stock with its first two cards swapped
        data = next(e["data"] for e in reversed(events) if e["type"] == "stock_reshuffled")
        data["stock"][0], data["stock"][1] = data["stock"][1], data["stock"][0]
    audit = {
        "seed": SEED.hex(),
        "seed_commitment": commitment_of(SEED),
        "version": len(events),
        "chain_faults": [],
        "events": [{"seq": i, **e} for i, e in enumerate(events, 1)],
        **record,
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


def test_a_record_whose_chain_is_broken_or_that_is_not_the_whole_log_is_no_proof():
    """Deals that the seed gives prove nothing of a log the service finds broken, or of part
    of one (a deal left out, a reshuffle left out): every such record fails, saying why."""
    table = played(Table())
    length = len(table.log)
    fault = "event #3: its hash is not the chain's"
    broken = verdict(table, chain_faults=[fault])
    assert broken["ok"] is False
    assert broken["mismatch"] == f"the log's hash chain is broken ({fault})"
    short = verdict(table, version=length + 2)
    assert short["ok"] is False
    holds = f"the record holds {length} events, the match's log {length + 2} events"
    assert short["mismatch"] == holds
    # the events of the whole log in number, not in sequence: one missing, one twice
    events = [event_to_json(e) for e in table.log]
    numbered = [{"seq": i, **e} for i, e in enumerate(events, 1)]
    gap = verdict(table, events=[*numbered[:3], numbered[4], *numbered[4:]])
    assert gap["ok"] is False and gap["mismatch"] == "event 4 of the record is numbered 5"
    assert verdict(table)["ok"] is True
