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


def numbered(table: Table) -> list[dict]:
    """``table``'s log as the audit record lists it."""
    return [
        {"seq": i, "type": e["type"], "schema_version": e["version"], "data": e["data"]}
        for i, e in enumerate((event_to_json(e) for e in table.log), 1)
    ]


def verdict(table: Table, tamper: bool = False, **record: object) -> dict:
    """verify.js's verdict on the audit record of ``table``'s log (``record``: its fields
    changed)."""
    events = numbered(table)
    if tamper:  # the last reshuffle's stock with its first two cards swapped
        data = next(e["data"] for e in reversed(events) if e["type"] == "stock_reshuffled")
        data["stock"][0], data["stock"][1] = data["stock"][1], data["stock"][0]
    audit = {
        "seed": SEED.hex(),
        "seed_commitment": commitment_of(SEED),
        "version": len(events),
        "chain_faults": [],
        "events": events,
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
    listed = numbered(table)
    gap = verdict(table, events=[*listed[:3], listed[4], *listed[4:]])
    assert gap["ok"] is False and gap["mismatch"] == "event 4 of the record is numbered 5"
    assert verdict(table)["ok"] is True


def test_a_log_no_game_could_have_written_is_no_proof_whatever_its_deals():
    """The deals were checked wherever they stood: a deal left out, one given twice, an
    extra hand, match_started not first, another seed named in the log, an event of no
    known type or of a newer version: each was "Verified"."""
    import copy

    table = played(Table())
    events = numbered(table)
    deal = next(i for i, e in enumerate(events) if e["type"] == "hole_dealt")

    def renumbered(listed):
        return [{**e, "seq": i} for i, e in enumerate(listed, 1)]

    def tampered(change):
        listed = copy.deepcopy(events)
        listed = change(listed) or listed
        return verdict(table, events=renumbered(listed), version=len(listed))

    def twice(listed):
        return [*listed[: deal + 1], listed[deal], *listed[deal + 1 :]]

    def extra_grid(listed):
        listed[deal]["data"]["grids"].append(listed[deal]["data"]["grids"][0])

    def started_second(listed):
        listed[0], listed[1] = listed[1], listed[0]

    def another_seed(listed):
        listed[-1]["data"]["seed"] = "00" * 32

    def unknown(listed):
        return [*listed[:-1], {**listed[-1], "type": "mystery_event"}, listed[-1]]

    def newer(listed):
        listed[deal]["schema_version"] = 99

    def left_out(listed):
        return [e for i, e in enumerate(listed) if i != deal]

    said = {
        change.__name__: tampered(change)
        for change in (twice, extra_grid, started_second, another_seed, unknown, newer, left_out)
    }
    assert all(v["ok"] is False for v in said.values()), said
    assert said["twice"]["mismatch"] == f"event {deal + 2} deals hole 1, where hole 2 comes next"
    assert said["extra_grid"]["mismatch"] == f"event {deal + 1} deals to 4 seats, the match has 3"
    assert said["started_second"]["mismatch"].startswith("the log begins with hole_dealt")
    assert "names another seed than the one revealed" in said["another_seed"]["mismatch"]
    assert "a type no game writes (mystery_event)" in said["unknown"]["mismatch"]
    assert "is of version 99, which this page cannot read" in said["newer"]["mismatch"]
    assert said["left_out"]["mismatch"] == "the log has no deal"
    assert verdict(table)["ok"] is True


def test_the_client_knows_every_games_event_types_and_versions():
    import importlib
    import re

    from games import all_games

    script = (ROOT / "web" / "verify.js").read_text()
    start = script.index("export const EVENT_VERSIONS")
    block = script[start : script.index("};", start)]
    listed = dict((name, int(v)) for name, v in re.findall(r"(\w+): (\d+)", block))
    known: dict[str, int] = {}
    for game in all_games():  # each game's events module lists its types
        module = importlib.import_module(f"{game.info.name.replace('-', '_')}.events")
        types = module.EVENT_TYPES
        for event in types.values() if isinstance(types, dict) else types:
            known[event.name] = max(known.get(event.name, 0), event.version)
    assert listed == known
