"""The admin's match page: every game drawn as a board at any version, the events beside it,
verification and the audit export, hidden cards hidden from every account until the end,
and each operator action behind its own permission."""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import get_game
from matches.admin import MatchAdmin
from matches.models import Match, MatchEvent, MatchStatus
from matches.selectors import audit_record, match_view
from matches.services import match_abort, match_act, match_create, match_join
from matches.store import state_at
from tests.meanwhile import a_move_before_each_verification
from tests.operators import operator

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|X[RB])\b")
SHOWN_CARD = re.compile(r'data-card="([^"]+)"')
# game, preset, seats, moves played before the page is read (all within the first round)
GAMES = [
    ("golf", "six-card", 2, 14),
    ("hearts", "hearts-classic", 4, 12),
    ("ninety-nine", None, 3, 9),
]


@pytest.fixture
def players(django_user_model):
    return [
        django_user_model.objects.create_user(f"player{i}", password="pw-player-123")
        for i in range(5)
    ]


def staff_with(django_user_model, name: str, *codenames: str) -> Client:
    user = django_user_model.objects.create_user(name, password="pw-staff-123", is_staff=True)
    for codename in codenames:
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label="golf", codename=codename)
        )
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def staff(django_user_model) -> Client:
    return staff_with(django_user_model, "sam")


def played(
    players, game: str, preset: str | None, seats: int, moves: int, seed: int = 7, **rules: object
) -> Match:
    """A match of humans only, ``moves`` legal moves in (each a seat's random legal action),
    or fewer if it ends first."""
    match = match_create(
        creator=players[0],
        game=game,
        preset=preset,
        rules=dict(rules),
        seats=[{"type": "me"}] + [{"type": "open"}] * (seats - 1),
        hints=False,
    )
    for user in players[1:seats]:
        match_join(match_id=match.id, user=user)
    rng = random.Random(seed)
    for _ in range(moves):
        match.refresh_from_db()
        if match.ended:
            break
        seat = match.seats_to_act[0]
        user = players[seat]
        action = rng.choice(match_view(match, user)["legal_actions"])
        match_act(match_id=match.id, user=user, action=action)
    match.refresh_from_db()
    return match


def end(match: Match, django_user_model) -> None:
    """Ends ``match``: aborted by staff (which reveals the seed, as any end does)."""
    ops = operator(django_user_model, "ops")
    match_abort(match_id=match.id, user=ops, reason="test over")
    match.refresh_from_db()
    assert match.ended


def page(client: Client, match: Match, **params: object):
    return client.get(reverse("admin:golf_match_state", args=[match.id]), params)


def cards_in(data: object) -> set[str]:
    return set(CARD.findall(json.dumps(data)))


def hidden_at(match: Match, version: int) -> set[str]:
    """The cards of the whole state at ``version`` that the spectator's view does not show."""
    game = get_game(match.game)
    state = state_at(match, version)
    return cards_in(game.state_to_json(state)) - cards_in(game.view(state, None))


@pytest.mark.parametrize(("game", "preset", "seats", "moves"), GAMES)
def test_each_game_is_drawn_as_a_board_at_a_past_version(
    admin_client, players, game, preset, seats, moves
):
    match = played(players, game, preset, seats, moves)
    version = match.version - 3
    response = page(admin_client, match, version=version)
    body = response.content.decode()
    assert response.status_code == 200
    assert f'data-version="{version}"' in body and f'value="{version}"' in body
    assert 'type="range"' in body and 'rel="prev"' in body and 'rel="next"' in body
    view = get_game(game).view(state_at(match, version), None)
    shown = set(SHOWN_CARD.findall(body))
    assert shown and shown <= cards_in(view)  # cards drawn as cards, and only the view's
    assert len(re.findall(r'class="mp-seat[ "]', body)) == seats
    if game == "golf":
        assert body.count('class="mp-grid"') == seats
        assert {c for grid in view["grids"] for c in grid if c} <= shown
        assert f"{view['stock_size']} cards" in body
        if view["discard_top"]:
            assert view["discard_top"] in shown
    elif game == "hearts":
        assert "Current trick" in body and "points taken this deal" in body
        assert {p["card"] for p in view["trick"]} <= shown
        assert {c for t in view["tricks"] for c in t["cards"]} <= shown
    else:
        assert "Current trick" in body and "tricks won" in body
        assert {p["card"] for t in view["tricks"] for p in t["plays"]} <= shown
        assert {p["card"] for p in view["trick"]["plays"]} <= shown
    # the events up to that version beside the board, none after
    events = re.findall(r'<li value="(\d+)"', body)
    assert [int(seq) for seq in events] == list(range(1, version + 1))


@pytest.mark.parametrize(("premium_bids", "seed"), [("on", 3), ("on", 5), ("off", 3)])
def test_the_ninety_nine_board_says_the_premium_calls_made_and_awaited(
    admin_client, players, premium_bids, seed
):
    """Each seat's premium call where it made one, "not yet" while the premium round
    awaits it, nothing where none will come (the calls were drawn only beside a premium
    bid); and the premium bid once one stands."""
    match = played(players, "ninety-nine", None, 3, 12, seed=seed, premium_bids=premium_bids)
    seen = set()
    for version in range(1, match.version + 1):
        view = get_game("ninety-nine").view(state_at(match, version), None)
        body = page(admin_client, match, version=version).content.decode()
        sections = body.split('<section class="mp-seat')[1:]
        for seat, section in enumerate(sections):
            said = re.findall(r"premium call: ([a-z ]+)</div>", section.split("</section>")[0])
            call = (view["premium"]["calls"] or [None] * 3)[seat]
            awaited = view["phase"] == "premium"
            assert said == ([call] if call else ["not yet"] if awaited else []), (version, seat)
            seen.add("made" if call else "awaited" if awaited else "none")
        premium = view["premium"]
        bid = f"The premium bid: seat {premium['seat']} {premium['kind']}"
        assert (bid in body) == (premium["seat"] is not None), version
    assert seen == ({"made", "awaited", "none"} if premium_bids == "on" else {"none"})


@pytest.mark.parametrize(
    ("game", "preset", "seats", "rules"),
    [
        ("golf", "six-card", 2, {"holes": 1}),
        ("hearts", "hearts-classic", 4, {"max_deals": 1}),
        ("ninety-nine", None, 3, {"max_deals": 1}),
    ],
)
def test_a_finished_match_is_drawn_at_its_end_and_audited_on_request(
    admin_client, players, game, preset, seats, rules
):
    match = played(players, game, preset, seats, 1000, **rules)
    assert match.status == MatchStatus.FINISHED
    view = get_game(game).view(state_at(match, match.version), None)
    body = page(admin_client, match).content.decode()
    assert "The match has ended: the spectator" in body and "The whole state" not in body
    assert len(re.findall(r'class="mp-seat[ "]', body)) == seats
    assert set(SHOWN_CARD.findall(body)) <= cards_in(view)
    assert f"{match.id}: OK" not in body  # no report unasked
    audit = page(admin_client, match, audit="1")
    assert audit.status_code == 200 and "The whole state at version" in audit.content.decode()


@pytest.mark.parametrize(("game", "preset", "seats", "moves"), GAMES)
def test_a_running_match_shows_no_hidden_card_at_any_version(
    admin_client, staff, players, game, preset, seats, moves
):
    match = played(players, game, preset, seats, moves)
    assert not match.ended
    checked = 0
    for version in range(1, match.version + 1):
        hidden = hidden_at(match, version)
        # staff, and a superuser: the same; asking for the audit is refused to both (for
        # want of the permission, and for the match not having ended)
        for client, refused in ((staff, 403), (admin_client, 409)):
            for params in ({}, {"audit": "1"}):
                response = page(client, match, version=version, **params)
                body = response.content.decode()
                assert response.status_code == (refused if params else 200)
                leaked = hidden & set(CARD.findall(body))
                assert not leaked, f"v{version}: hidden cards on the page: {sorted(leaked)}"
        checked += len(hidden)
    assert checked > 0  # there were hidden cards to keep hidden


def test_the_match_and_event_pages_hide_cards_while_running(admin_client, players):
    match = played(players, "hearts", "hearts-classic", 4, 6)
    hidden = hidden_at(match, match.version)
    change = admin_client.get(reverse("admin:golf_match_change", args=[match.id]))
    assert change.status_code == 200 and not hidden & set(CARD.findall(change.content.decode()))
    dealt = MatchEvent.objects.get(match=match, type="cards_dealt")
    url = reverse("admin:golf_matchevent_change", args=[dealt.pk])
    body = admin_client.get(url).content.decode()
    assert "Hidden information is shown once the match has ended." in body
    assert not hidden & set(CARD.findall(body))
    # the audit asked for is refused, as on the match's page (it was ignored: a 200)
    refused = admin_client.get(url, {"audit": "1"})
    assert refused.status_code == 409 and "no audit yet" in refused.content.decode()
    assert not hidden & set(CARD.findall(refused.content.decode()))


@pytest.mark.parametrize(
    ("changelist", "field"),
    [
        ("admin:golf_matchevent_changelist", "payload"),
        ("admin:golf_match_changelist", "snapshot"),
        # an unkeyed chain's hashes are over the payloads: read a digit at a time by
        # ?hash__startswith=, they would be guessed against as the payloads would
        ("admin:golf_matchevent_changelist", "hash"),
        ("admin:golf_match_changelist", "last_hash"),
    ],
)
def test_the_lists_cannot_be_filtered_by_what_is_hidden(admin_client, players, changelist, field):
    """A list filtered by a stored payload or state snapshot (or the chain's hashes) would
    answer whether a running match's hidden card or seed holds some value (one count per
    guess): refused outright."""
    match = played(players, "golf", "six-card", 2, 4)
    hidden = sorted(hidden_at(match, match.version))[0]
    for lookup in (f"{field}__icontains", f"{field}__regex", f"{field}__startswith", field):
        params = (
            {"match__id__exact": str(match.id)} if changelist.endswith("event_changelist") else {}
        )
        response = admin_client.get(reverse(changelist), {**params, lookup: hidden})
        assert response.status_code == 400, lookup
        assert hidden not in response.content.decode()
    allowed = (
        {"type": "hole_dealt"}
        if changelist.endswith("event_changelist")
        else {"status": match.status}
    )
    assert admin_client.get(reverse(changelist), allowed).status_code == 200


def test_after_the_end_the_audit_needs_the_permission_and_the_explicit_request(
    admin_client, staff, django_user_model, players
):
    match = played(players, "golf", "six-card", 2, 6)
    end(match, django_user_model)
    assert match.ended
    stock = get_game("golf").state_to_json(state_at(match, match.version))["stock"]
    auditor = staff_with(django_user_model, "aud", "view_match_audit")
    for client in (admin_client, auditor, staff):
        # without asking: the spectator's view of the end (and the events as the rules
        # reveal them once it has ended), not the state
        body = page(client, match).content.decode()
        assert "The match has ended: the spectator" in body
        assert "The whole state" not in body and "&quot;face_up&quot;" not in body
    for client in (admin_client, auditor):
        body = page(client, match, audit="1").content.decode()
        assert "Post-match audit" in body and "The whole state at version" in body
        assert "&quot;face_up&quot;" in body and set(stock) <= set(CARD.findall(body))
        assert "Open the post-match audit" not in body and "Leave the audit" in body
    assert "Open the post-match audit" in page(auditor, match).content.decode()
    assert "post-match audit" not in page(staff, match).content.decode()
    assert page(staff, match, audit="1").status_code == 403
    # the event pages: stored payloads only in the audit
    event = MatchEvent.objects.get(match=match, type="match_started")
    url = reverse("admin:golf_matchevent_change", args=[event.pk])
    whole = "(post-match audit: as stored)"
    assert whole not in auditor.get(url).content.decode()
    assert whole in auditor.get(url, {"audit": "1"}).content.decode()
    assert staff.get(url, {"audit": "1"}).status_code == 403  # (was ignored: a 200)


def test_verify_and_abort_actions_need_their_permissions(django_user_model, staff, players):
    match = played(players, "golf", "six-card", 2, 4)
    url = reverse("admin:golf_match_changelist")
    listing = staff.get(url).content.decode()
    assert "verify_selected" not in listing and "abort_selected" not in listing
    for action in ("verify_selected", "abort_selected"):
        response = staff.post(url, {"action": action, "_selected_action": [match.id]})
        assert response.status_code == 403
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and not LogEntry.objects.exists()

    verifier = staff_with(django_user_model, "vera", "verify_match")
    listing = verifier.get(url).content.decode()
    assert "verify_selected" in listing and "abort_selected" not in listing
    done = verifier.post(url, {"action": "verify_selected", "_selected_action": [match.id]})
    assert done.status_code == 302
    assert (
        verifier.post(url, {"action": "abort_selected", "_selected_action": [match.id]}).status_code
        == 403
    )
    entry = LogEntry.objects.get()
    assert entry.user.username == "vera" and entry.object_id == str(match.id)
    assert entry.change_message.startswith("Verified the log: ") and " OK " in entry.change_message

    aborter = staff_with(django_user_model, "abe", "abort_match")
    assert "abort_selected" in aborter.get(url).content.decode()
    asked = aborter.post(url, {"action": "abort_selected", "_selected_action": [match.id]})
    assert asked.status_code == 200 and "Yes, abort 1 match" in asked.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE  # asked first, aborted once confirmed
    confirm = {"action": "abort_selected", "_selected_action": [match.id], "post": "yes"}
    assert aborter.post(url, confirm).status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    entry = LogEntry.objects.filter(user__username="abe").get()
    assert entry.object_id == str(match.id) and entry.change_message.startswith("Aborted")


def test_aborting_a_selection_asks_first_and_aborts_only_what_it_named(
    admin_client, players, django_user_model
):
    """An abort cannot be undone: the list's action (Django's "select all" too, which takes
    every match the filters find) names the running matches and aborts on a second POST
    only those it named, as Django's delete asks first."""
    running = [played(players, "golf", "six-card", 2, 2) for _ in range(2)]
    ended = played(players, "golf", "six-card", 2, 0)
    end(ended, django_user_model)
    url = reverse("admin:golf_match_changelist")
    every = {"action": "abort_selected", "select_across": "1", "_selected_action": [ended.id]}
    asked = admin_client.post(url, every)
    page = asked.content.decode()
    assert asked.status_code == 200 and "Yes, abort 2 matches" in page
    assert all(str(m.id) in page for m in running) and "1 of the selected matches ended" in page
    assert not Match.objects.filter(status=MatchStatus.ABORTED).exclude(pk=ended.id).exists()
    late = played(players, "golf", "six-card", 2, 2)  # made while the page was read
    named = re.findall(r'name="_selected_action" value="([^"]+)"', page)
    assert sorted(named) == sorted(str(m.id) for m in running)
    confirm = {"action": "abort_selected", "_selected_action": named, "post": "yes"}
    assert admin_client.post(url, confirm).status_code == 302
    statuses = {m.id: Match.objects.get(pk=m.id).status for m in [*running, late]}
    assert statuses == {running[0].id: "aborted", running[1].id: "aborted", late.id: "active"}


def test_the_abort_page_names_running_matches_behind_many_ended_ones(
    admin_client, players, django_user_model, monkeypatch
):
    """The page names at most ``ABORT_AT_ONCE`` matches: the running ones selected, not the
    newest selected whatever their state (ended ones newer than every running one left it
    naming none, run again as often as one liked)."""
    monkeypatch.setattr(MatchAdmin, "ABORT_AT_ONCE", 2)
    running = [played(players, "golf", "six-card", 2, 2) for _ in range(3)]
    ops = operator(django_user_model, "ops")
    for _ in range(3):
        ended = played(players, "golf", "six-card", 2, 0)
        match_abort(match_id=ended.id, user=ops, reason="test over")
    url = reverse("admin:golf_match_changelist")
    every = {"action": "abort_selected", "select_across": "1", "_selected_action": [running[0].id]}
    page = admin_client.post(url, every).content.decode()
    named = re.findall(r'name="_selected_action" value="([^"]+)"', page)
    assert sorted(named) == sorted(str(m.id) for m in running[1:])  # the newest two running
    assert "3 of the selected matches ended already" in page
    assert "Only the newest 2 running matches selected are named here" in page


def test_the_verify_button_shows_the_report_and_needs_the_permission(
    django_user_model, staff, players
):
    match = played(players, "ninety-nine", None, 3, 5)
    verify = reverse("admin:golf_match_verify", args=[match.id])
    assert "Verify this match" not in page(staff, match).content.decode()
    assert staff.post(verify).status_code == 403
    verifier = staff_with(django_user_model, "vera", "verify_match")
    assert "Verify this match" in page(verifier, match).content.decode()
    assert verifier.get(verify).status_code == 405
    response = verifier.post(verify + "?version=3")
    body = response.content.decode()
    assert response.status_code == 200 and 'data-version="3"' in body
    assert f"{match.id}: OK ({match.version} events" in body and "mp-ok" in body
    assert LogEntry.objects.get().user.username == "vera"


def test_the_audit_download_needs_the_permission_and_parses(django_user_model, staff, players):
    match = played(players, "hearts", "hearts-classic", 4, 8)
    download = reverse("admin:golf_match_audit_download", args=[match.id])
    auditor = staff_with(django_user_model, "aud", "view_match_audit")
    assert "Download the audit record" not in page(auditor, match).content.decode()
    assert auditor.get(download).status_code == 409  # not before the end
    end(match, django_user_model)
    assert staff.get(download).status_code == 403
    assert "Download the audit record" not in page(staff, match).content.decode()
    assert "Download the audit record" in page(auditor, match).content.decode()

    response = auditor.get(download)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="match-{match.id}-audit.json"'
    record = json.loads(response.content)
    assert record == json.loads(json.dumps(audit_record(match)))
    assert record["seed"] and [e["seq"] for e in record["events"]] == list(
        range(1, match.version + 1)
    )

    response = auditor.get(download, {"format": "ndjson"})
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in b"".join(response.streaming_content).splitlines()]
    assert [e["seq"] for e in lines] == list(range(1, match.version + 1))
    assert [e["data"] for e in lines] == [e["data"] for e in record["events"]]


def test_a_running_match_s_faulty_verification_quotes_no_hidden_card(admin_client, players):
    match = played(players, "golf", "six-card", 2, 0)  # dealt, nothing turned up yet
    # as a database superuser could: the deal's two grids swapped (the trigger bypassed)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE golf_matchevent SET payload = jsonb_set(payload, '{grids}', "
            "jsonb_build_array(payload->'grids'->1, payload->'grids'->0)) "
            "WHERE match_id = %s AND type = 'hole_dealt'",
            [match.id],
        )
        cursor.execute("SET LOCAL session_replication_role = origin")
    hidden = hidden_at(match, match.version)
    response = admin_client.post(reverse("admin:golf_match_verify", args=[match.id]))
    body = response.content.decode()
    assert response.status_code == 200 and f"{match.id}: FAULT" in body and "mp-fault" in body
    assert "masked while the match runs" in body
    assert hidden and not hidden & set(CARD.findall(body))
    # and so does the command's report (which may go to a shared log), unless asked
    for flags, quoted in (((), False), (("--unmasked",), True)):
        out = io.StringIO()
        with pytest.raises(SystemExit):
            call_command("verify_match", str(match.id), *flags, stdout=out, stderr=io.StringIO())
        report = out.getvalue()
        assert f"{match.id}: FAULT" in report
        assert bool(hidden & set(CARD.findall(report))) is quoted, report


def test_every_staff_account_finds_the_matches_on_the_admin_index(staff, client):
    index = staff.get(reverse("admin:index")).content.decode()
    assert reverse("admin:golf_match_changelist") in index
    assert reverse("admin:golf_matchevent_changelist") in index
    assert staff.get(reverse("admin:golf_match_changelist")).status_code == 200
    # and nobody else
    response = client.get(reverse("admin:golf_match_changelist"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_log_that_cannot_be_replayed_is_said_so_not_a_500(admin_client, players, caplog):
    """A log changed behind the store's back (two dealt hands swapped, so the bids name
    cards their seats never held) has no board: the page says so, and Verify reports it."""
    match = played(players, "ninety-nine", None, 3, 8)  # the bids made, cards played
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE golf_matchevent SET payload = jsonb_set(payload, '{hands}', "
            "jsonb_build_array(payload->'hands'->1, payload->'hands'->0, payload->'hands'->2)) "
            "WHERE match_id = %s AND type = 'deal_started'",
            [match.id],
        )
        cursor.execute("SET LOCAL session_replication_role = origin")
    hidden = hidden_at(match, 2)  # the deal, as it was stored before the change
    response = page(admin_client, match)
    body = response.content.decode()
    assert response.status_code == 409 and "cannot be replayed" in body
    assert not hidden & set(CARD.findall(body))
    response = admin_client.post(reverse("admin:golf_match_verify", args=[match.id]))
    body = response.content.decode()
    assert response.status_code == 200 and f"{match.id}: FAULT" in body
    assert "cannot be replayed" in body and not hidden & set(CARD.findall(body))
    assert page(admin_client, match, version=2).status_code == 200  # before the bids: fine
    # each failed replay is logged for the operators (a trace, no card)
    logged = [r.getMessage() for r in caplog.records if r.name == "matches.admin"]
    assert len(logged) == 2 and all("cannot be replayed" in line for line in logged)
    assert not hidden & set(CARD.findall("".join(logged)))


@pytest.mark.parametrize(
    ("changelist", "lookup"),
    [
        ("admin:golf_match_changelist", "game"),
        ("admin:golf_match_changelist", "status"),
        ("admin:golf_matchevent_changelist", "type"),
        ("admin:accounts_user_changelist", "username"),
    ],
)
def test_a_filter_holding_a_nul_is_a_400(admin_client, changelist, lookup):
    assert admin_client.get(reverse(changelist), {lookup: "\x00"}).status_code == 400
    # the search box's own form refuses one already, on the page
    response = admin_client.get(reverse(changelist), {"q": "a\x00"})
    assert response.status_code == 200 and "Null characters are not allowed" in response.text


def test_a_log_that_replays_but_cannot_be_drawn_is_said_so_not_a_500(admin_client, players):
    """A bid naming a card no pack has replays (the engine keeps what it was given) but its
    board cannot be drawn: the page and Verify said nothing, they were 500s."""
    match = played(players, "ninety-nine", None, 3, 9)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE golf_matchevent SET payload = jsonb_set(payload, '{cards,0}', '\"ZZ\"') "
            "WHERE match_id = %s AND type = 'bid_made'",
            [match.id],
        )
        cursor.execute("SET LOCAL session_replication_role = origin")
    response = page(admin_client, match)
    assert response.status_code == 409 and "cannot be replayed" in response.content.decode()
    response = admin_client.post(reverse("admin:golf_match_verify", args=[match.id]))
    assert response.status_code == 200 and f"{match.id}: FAULT" in response.content.decode()


@pytest.mark.parametrize(
    ("changelist", "query"),
    [
        ("admin:golf_match_changelist", {"status__regex": "("}),
        ("admin:golf_match_changelist", {"created_at__iregex": "("}),
        ("admin:golf_match_changelist", {"created_at__year": "9" * 30}),
        ("admin:golf_match_changelist", {"created_at__year": "9999"}),
        ("admin:golf_match_changelist", {"created_at__year": "2026", "created_at__month": "13"}),
        ("admin:accounts_user_changelist", {"is_active__regex": "("}),
    ],
)
def test_a_list_takes_only_the_lookups_its_filters_make(admin_client, changelist, query):
    """A regular expression the database refuses, or a year past any date, was a 500."""
    assert admin_client.get(reverse(changelist), query).status_code == 400
    # what the filters make is taken
    for taken in ({"status__exact": "active"}, {"created_at__year": "2026"}):
        assert admin_client.get(reverse("admin:golf_match_changelist"), taken).status_code == 200


def test_every_staff_account_reads_a_matchs_seats(staff, players):
    """The seat rows (who holds each seat, whose it was) needed a permission no operator's
    role gives: the match page showed staff none."""
    match = played(players, "golf", "six-card", 2, 0)
    body = staff.get(reverse("admin:golf_match_change", args=[match.id])).content.decode()
    assert "seats-group" in body and players[1].username in body


@pytest.mark.parametrize(
    ("changelist", "action"),
    [
        ("admin:golf_match_changelist", "verify_selected"),
        ("admin:golf_match_changelist", "abort_selected"),
        ("admin:accounts_user_changelist", "suspend_selected"),
        ("admin:accounts_user_changelist", "lift_selected"),
    ],
)
@pytest.mark.parametrize("selected", ["abc", "²", "", "9" * 5000])
def test_an_action_on_a_selection_that_is_no_id_is_a_400(
    admin_client, players, changelist, action, selected
):
    match = played(players, "golf", "six-card", 2, 0)
    body = {"action": action, "_selected_action": [selected]}
    assert admin_client.post(reverse(changelist), body).status_code == 400
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE


def test_the_lists_cost_no_scan_of_the_table_and_no_query_per_row(admin_client, players):
    """The match list reads each creator with its match; the event list of one match reads
    no event of another (no count of all of them, no DISTINCT over their types: the type
    filter's choices are the registry's), whatever the store holds."""
    from django.test.utils import CaptureQueriesContext

    def statements(url, params):
        with CaptureQueriesContext(connection) as queries:
            assert admin_client.get(url, params).status_code == 200
        return [q["sql"] for q in queries.captured_queries]

    matches = reverse("admin:golf_match_changelist")
    played(players, "golf", "six-card", 2, 2)
    one = len(statements(matches, {}))
    for i in range(4):
        played(players[i:], "golf", "six-card", 2, 2)
    assert len(statements(matches, {})) == one
    events = reverse("admin:golf_matchevent_changelist")
    match = played(players, "hearts", "hearts", 4, 3)
    read = [
        sql
        for sql in statements(events, {"match__id__exact": str(match.id)})
        if '"golf_matchevent"' in sql
    ]
    assert read and all('"golf_matchevent"."match_id" =' in sql for sql in read)
    assert not any('"golf_match"."snapshot"' in sql for sql in read)  # (a row's match's)
    # the events of every match are not listed (counted and sorted, whole, on every load)
    unfiltered = statements(events, {})
    assert not any('"golf_matchevent"' in sql for sql in unfiltered)
    assert "search for its id" in admin_client.get(events).content.decode()
    found = admin_client.get(events, {"q": str(match.id)}).content.decode()
    assert f"match {match.id} (" in found and "search for its id" not in found
    page = admin_client.get(events, {"match__id__exact": str(match.id), "type": "cards_passed"})
    body = page.content.decode()
    for kind in ("card_drawn", "cards_passed", "bid_made"):  # Golf, Hearts, Ninety-Nine
        assert f"type={kind}" in body


def test_a_match_is_found_by_its_id_however_written(admin_client, players):
    """An id copied without its hyphens (as a log line or the hex form writes it), in
    braces or in capitals found nothing: the exact search compared the id's text."""
    match = played(players, "golf", "six-card", 2, 2)
    other = played(players[2:], "golf", "six-card", 2, 2)
    matches = reverse("admin:golf_match_changelist")
    events = reverse("admin:golf_matchevent_changelist")
    for written in (str(match.id), match.id.hex, match.id.hex.upper(), f"{{{match.id}}}"):
        listed = admin_client.get(matches, {"q": written}).content.decode()
        assert str(match.id) in listed and str(other.id) not in listed
        logged = admin_client.get(events, {"q": f" {written} "}).content.decode()
        assert f"match {match.id} (" in logged and f"match {other.id} (" not in logged
    # a player's name still finds their matches; a word that is no id, no event
    by_name = admin_client.get(matches, {"q": players[2].username}).content.decode()
    assert str(other.id) in by_name and str(match.id) not in by_name
    assert f"match {match.id} (" not in admin_client.get(events, {"q": "abc"}).content.decode()


def test_deleting_events_in_bulk_is_refused_not_ignored(admin_client, players):
    """The event list took the site's delete action, named anyway, with a 200 and deleted
    nothing; it is refused (403) as every action the user may not run."""
    match = played(players, "golf", "six-card", 2, 2)
    rows = list(MatchEvent.objects.filter(match=match).values_list("pk", flat=True))
    body = {"action": "delete_selected", "_selected_action": rows, "post": "yes"}
    url = reverse("admin:golf_matchevent_changelist") + f"?match__id__exact={match.id}"
    assert admin_client.post(url, body).status_code == 403
    assert MatchEvent.objects.filter(match=match).count() == len(rows)


@pytest.mark.django_db(transaction=True)
def test_the_verify_action_reads_each_match_as_of_one_moment(admin_client, players, monkeypatch):
    """The selected rows were read with the list, each log later: a move between the two
    made a sound match in play a fault, written so into the admin log."""
    match = played(players, "golf", "six-card", 2, 2)
    a_move_before_each_verification(monkeypatch, match.id, players)
    url = reverse("admin:golf_match_changelist")
    admin_client.post(url, {"action": "verify_selected", "_selected_action": [match.id]})
    entry = LogEntry.objects.get()
    assert " OK " in entry.change_message, entry.change_message
    assert Match.objects.get(pk=match.pk).version == match.version + 1  # (the move was made)


def test_a_refusal_in_the_admin_is_a_page_not_a_problems_json(staff, players, client):
    """An operator reads the admin in a browser: a permission refused, or a form posted
    without its CSRF token, is Django's page (the API's refusals stay problems)."""
    match = played(players, "golf", "six-card", 2, 0)
    refused = page(staff, match, audit="1")
    assert refused.status_code == 403 and refused["Content-Type"].startswith("text/html")
    assert b"403 Forbidden" in refused.content
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(players[0])
    forged = checked.post(reverse("admin:logout"))
    assert forged.status_code == 403 and forged["Content-Type"].startswith("text/html")
    assert b"CSRF verification failed" in forged.content
