"""The operators' console in headless Chromium (tests/admin/admin_browser.mjs): a staff
account logs in to the admin, opens the dashboard, suspends an account and lifts the
suspension, and opens a running match's page at past versions (through the slider's
previous link and the range input); no card hidden from a spectator at that version (worked
out here from the match's whole state in the store) may be anywhere on the page."""

from __future__ import annotations

import json

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission

from accounts.models import User
from games import get_game
from matches.store import state_at
from tests.admin.test_match_page import cards_in, hidden_at, played
from tests.web.test_golf_browser import SHOTS, play

PERMISSIONS = [
    ("accounts", "view_user"),
    ("accounts", "change_user"),
    ("accounts", "suspend_user"),
]


def run(plan: dict) -> tuple[dict, float]:
    """Runs tests/admin/admin_browser.mjs with ``plan`` (as the web client's tests run theirs)."""
    plan_file = SHOTS / "admin-plan.json"
    plan_file.parent.mkdir(parents=True, exist_ok=True)
    plan_file.write_text(json.dumps(plan))
    return play("../admin/admin_browser.mjs", plan["base"], str(plan_file))


@pytest.mark.slow
def test_staff_log_in_moderate_and_read_a_running_match_without_hidden_cards(live_server):
    players = [User.objects.create_user(f"player{i}", password="pw-player-123") for i in range(4)]
    target = User.objects.create_user("mallory", password="pw-mallory-123")
    operator = User.objects.create_user("operator", password="pw-operator-123", is_staff=True)
    for app_label, codename in PERMISSIONS:
        operator.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    golf = played(players, "golf", "six-card", 2, 12)
    hearts = played(players, "hearts", "hearts-classic", 4, 12)
    ninety_nine = played(players, "ninety-nine", None, 3, 9)
    theirs = played([target, players[0]], "golf", "six-card", 2, 2)
    past = [golf.version - 1, golf.version - 2, golf.version - 3]
    walks = [(golf, past), (hearts, [hearts.version - 2]), (ninety_nine, [ninety_nine.version - 2])]
    plan = {
        "base": live_server.url,
        "username": "operator",
        "password": "pw-operator-123",
        "account": {"id": target.pk, "username": target.username},
        "dashboard": True,
        "matches": [
            {
                "id": str(match.id),
                "game": match.game,
                "versions": {str(v): sorted(hidden_at(match, v)) for v in versions},
            }
            for match, versions in walks
        ],
    }

    summary, seconds = run(plan)

    assert summary["steps"] == ["login", "dashboard", "suspend", "lift", "match"], summary
    assert summary["consoleErrors"] == []
    # the dashboard counted the running matches (before the suspension aborted one)
    assert summary["dashboardTitle"].startswith("Operations dashboard")
    assert summary["dashboardActive"] == {"golf": 2, "hearts": 1, "ninety-nine": 1}
    # the suspension and its lifting, on the page and in the admin log under the operator
    # (the username as written: Django's own message list capitalised "Mallory")
    suspended, lifted = summary["suspendedMessage"].strip(), summary["liftedMessage"].strip()
    assert suspended.startswith("mallory: Suspended; reason: a browser test of the console")
    assert "running matches: abort them (1 aborted, 0 skipped)" in suspended
    assert summary["liftShown"] and summary["suspendShownAgain"]
    assert lifted.startswith("mallory: Lifted the suspension")
    target.refresh_from_db()
    theirs.refresh_from_db()
    assert target.suspended_at is None and theirs.status == "aborted"
    logged = LogEntry.objects.filter(user=operator, object_id=str(target.pk))
    first, then = [e.change_message for e in logged.order_by("action_time")]
    assert first.startswith("Suspended; reason: a browser test of the console")
    assert then.startswith("Lifted the suspension of ")
    # the matches' pages at past versions: every hidden card absent, checked in the page;
    # the cards drawn are the spectator's view's at that version (and Golf's grids all)
    assert summary["sliderMax"] == golf.version
    assert summary["versions"] == [
        *(f"golf@{v}" for v in [*past, past[0]]),
        f"hearts@{hearts.version - 2}",
        f"ninety-nine@{ninety_nine.version - 2}",
    ]
    hidden = {m["id"]: m["versions"] for m in plan["matches"]}
    expected = sum(len(cards) for versions in hidden.values() for cards in versions.values())
    assert summary["hiddenChecked"] == expected + len(hidden[str(golf.id)][str(past[0])]) > 0
    for match, versions in walks:
        for version in versions:
            view = get_game(match.game).view(state_at(match, version), None)
            shown = summary["shownCards"][f"{match.id}@{version}"]
            assert shown and set(shown) <= cards_in(view)
            if match.game == "golf":
                assert {c for grid in view["grids"] for c in grid if c} <= set(shown)
    print(f"admin browser test: {seconds:.1f} s, {summary['hiddenChecked']} hidden cards checked")
