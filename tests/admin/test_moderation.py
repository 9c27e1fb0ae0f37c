"""Moderation: suspending and lifting accounts from the admin, and handing a suspended
player's seats to a COM."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.moderation import ModerationError, account_lift, account_suspend
from accounts.tokens import remembered, revoked_by_suspension
from matches import errors
from matches.models import Match, MatchEvent, MatchStatus, Seat, SeatKind
from matches.selectors import all_events_of_seat, match_view, matches_for
from matches.services import match_act, match_create, match_join, match_leave, seat_to_com
from matches.verify import verify_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    """Two players and an operator (staff with no permission yet)."""
    make = django_user_model.objects.create_user
    return (
        make("alice", password="pw-alice-123"),
        make("bob", password="pw-bob-123"),
        make("olga", password="pw-olga-123", is_staff=True),
    )


@pytest.fixture
def alice(people):
    return people[0]


@pytest.fixture
def bob(people):
    return people[1]


@pytest.fixture
def operator(people):
    return people[2]


@pytest.fixture
def duel(alice, bob, django_capture_on_commit_callbacks):
    """A two-human six-card hole: alice in seat 0, bob in seat 1 (both to reveal)."""
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice, rules={"holes": 1}, seats=[{"type": "me"}, {"type": "open"}]
        )
        match_join(match_id=match.id, user=bob)
    match.refresh_from_db()
    return match


def play_out(match, user, capture):
    """``user`` plays their first legal action until they are not to act or it ends."""
    for _ in range(200):
        match.refresh_from_db()
        view = match_view(match, user)
        if match.ended or match.seat_of_user(user.pk) not in match.seats_to_act:
            return
        with capture(execute=True):
            match_act(match_id=match.id, user=user, action=view["legal_actions"][0])


# --- handing a seat to a COM --------------------------------------------------------------
def test_a_seat_handed_to_a_com_plays_on_to_the_end(
    duel, alice, bob, operator, django_capture_on_commit_callbacks
):
    # given bob's seat, to act, handed to a normal COM
    version = duel.version
    with django_capture_on_commit_callbacks(execute=True):
        seat_to_com(match_id=duel.id, seat=1, by=operator)
    # then the log says so, in the operator's name (an event the audit checks)
    handed = MatchEvent.objects.get(match=duel, seq=version + 1)
    assert (handed.type, handed.payload, handed.actor) == (
        "seat_handed_over",
        {"seat": 1},
        f"staff:{operator.pk}",
    )
    assert verify_match(Match.objects.get(pk=duel.pk)).faults == []
    # and the seat is the COM's, whose turn was played on commit
    seat = Seat.objects.get(match=duel, index=1)
    assert (seat.kind, seat.user_id, seat.com_level) == (SeatKind.COM, None, "normal")
    duel.refresh_from_db()
    assert duel.seat_users == [alice.pk, None] and duel.seat_of_user(bob.pk) is None
    assert MatchEvent.objects.filter(match=duel, actor="com:normal:1").exists()
    # when alice plays on, the COM answers every turn until the hole is over
    for _ in range(100):
        play_out(duel, alice, django_capture_on_commit_callbacks)
        duel.refresh_from_db()
        if duel.ended:
            break
        assert 1 not in duel.seats_to_act  # never left waiting on the COM
    assert duel.status == MatchStatus.FINISHED
    actors = set(MatchEvent.objects.filter(match=duel, seq__gt=3).values_list("actor", flat=True))
    assert not any(a.split(":")[:2] == ["user", str(bob.pk)] for a in actors)
    assert "com:normal:1" in actors


def test_a_players_moves_still_name_their_seat_once_it_is_handed_to_a_com(duel, bob, operator):
    match_act(match_id=duel.id, user=bob, action={"type": "reveal", "position": 0})
    seat_to_com(match_id=duel.id, seat=1, by=operator)
    duel.refresh_from_db()
    flip = next(e for e in all_events_of_seat(duel, None) if e["type"] == "card_revealed")
    assert flip["actor"] == f"user:{bob.pk}:1" and flip["seat"] == 1


def test_handing_a_seat_is_for_staff_and_for_players_seats(duel, alice, operator):
    with pytest.raises(errors.PermissionDenied):
        seat_to_com(match_id=duel.id, seat=1, by=alice)
    with pytest.raises(errors.InvalidMatchRequest):
        seat_to_com(match_id=duel.id, seat=5, by=operator)
    with pytest.raises(errors.InvalidMatchRequest):
        seat_to_com(match_id=duel.id, seat=1, level="grandmaster", by=operator)
    seat_to_com(match_id=duel.id, seat=1, by=operator)
    with pytest.raises(errors.InvalidMatchRequest):  # a COM's seat already
        seat_to_com(match_id=duel.id, seat=1, by=operator)
    Match.objects.filter(pk=duel.pk).update(status=MatchStatus.ABORTED)
    with pytest.raises(errors.MatchNotActive):
        seat_to_com(match_id=duel.id, seat=0, by=operator)


def test_a_local_match_can_be_handed_to_coms_seat_by_seat(
    alice, operator, django_capture_on_commit_callbacks
):
    # given a local (pass-and-play) Golf match: alice holds both seats
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            creator=alice, rules={"holes": 1, "local": True}, seats=[{"type": "me"}] * 2
        )
    # when both seats are handed over, one after the other
    with django_capture_on_commit_callbacks(execute=True):
        seat_to_com(match_id=match.id, seat=0, by=operator)
    with django_capture_on_commit_callbacks(execute=True):
        seat_to_com(match_id=match.id, seat=1, by=operator)
    # then the COMs play it out
    match.refresh_from_db()
    assert match.seat_users == [None, None] and match.status == MatchStatus.FINISHED


# --- suspending and lifting from the admin ---------------------------------------------------
SUSPEND = "admin:accounts_user_suspend"
PASSWORDS = {"alice": "pw-alice-123", "bob": "pw-bob-123"}


def grant(user, *codenames):
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))


@pytest.fixture
def moderator(operator):
    """Staff who may see and change accounts, and suspend them."""
    grant(operator, "view_user", "change_user", "suspend_user")
    return operator


@pytest.fixture
def clerk(django_user_model):
    """Staff who may see and change accounts, but not suspend them."""
    user = django_user_model.objects.create_user("carl", password="pw-carl-123", is_staff=True)
    grant(user, "view_user", "change_user")
    return user


def api_client(token=None):
    client = APIClient()
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def login(username):
    return api_client().post(
        "/api/auth/token", {"username": username, "password": PASSWORDS[username]}, format="json"
    )


def assert_problem(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code and body["status"] == status and body["detail"]


def suspend(client, user, running, reason="cheating with a second account"):
    return client.post(
        reverse(SUSPEND), {"ids": str(user.pk), "reason": reason, "running": running}
    )


def test_a_suspension_revokes_tokens_refuses_log_ins_and_aborts_matches(
    client, duel, alice, bob, moderator
):
    # given bob logged in twice: a token, and a session
    token = login("bob").json()["token"]
    assert api_client(token).get("/api/me").status_code == 200
    session = Client()
    session.force_login(bob)
    assert session.get("/api/me").status_code == 200
    client.force_login(moderator)
    # when the moderator suspends him, aborting his running matches
    response = suspend(client, bob, "abort")
    # then
    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.suspended_at is not None and not Token.objects.filter(user=bob).exists()
    # revoked: and while the suspension is in force, a request with it is told why
    assert_problem(api_client(token).get("/api/me"), 403, "account_suspended")
    assert_problem(login("bob"), 403, "account_suspended")
    assert_problem(session.get("/api/me"), 403, "account_suspended")
    duel.refresh_from_db()
    assert duel.status == MatchStatus.ABORTED
    last = MatchEvent.objects.filter(match=duel).order_by("-seq").first()
    assert last.type == "match_aborted" and last.actor == f"staff:{moderator.pk}"
    assert "cheating" not in str(last.payload)  # the reason stays with the staff
    entry = LogEntry.objects.get(object_id=str(bob.pk))
    assert entry.user == moderator and entry.is_change()
    assert "Suspended; reason: cheating with a second account" in entry.change_message
    assert "1 aborted" in entry.change_message
    # and a wrong password is still just a wrong password: nothing said about the account
    wrong = api_client().post(
        "/api/auth/token", {"username": "bob", "password": "not-his"}, format="json"
    )
    assert_problem(wrong, 401, "invalid_credentials")


def test_a_join_or_a_new_match_let_in_before_a_suspension_is_refused_after_it(
    alice, bob, moderator, django_user_model
):
    """A request authenticated just before its account was suspended reaches the service
    after it: it must not seat the suspended account where the suspension did not look."""
    carol = django_user_model.objects.create_user("carol", password="pw-carol-123")
    lobby = match_create(creator=carol, seats=[{"type": "me"}, {"type": "open"}])
    let_in = type(bob).objects.get(pk=bob.pk)  # as the request's authentication read it
    result = account_suspend(user=bob, by=moderator, reason="cheating", running="abort")
    assert result.handled == []  # nothing of bob's was running
    with pytest.raises(errors.AccountSuspended):
        match_join(match_id=lobby.id, user=let_in)
    with pytest.raises(errors.AccountSuspended):
        match_create(creator=let_in, seats=[{"type": "me"}, {"type": "open"}])
    lobby.refresh_from_db()
    assert lobby.seat_users == [carol.pk, None] and lobby.status == MatchStatus.WAITING
    assert not Match.objects.filter(created_by=bob).exists()


def test_a_seat_handed_over_in_a_lobby_leaves_its_player_no_other_seat_there(
    bob, moderator, django_user_model
):
    """A lobby's cards are dealt: its creator, suspended with the lobby handed to a COM and
    then lifted, knew that COM's hand, and could have joined the lobby's open seat."""
    carol = django_user_model.objects.create_user("carol", password="pw-carol-123")
    lobby = match_create(
        creator=carol, game="hearts", seats=[{"type": "me"}, {"type": "open"}, {"type": "com"}]
    )
    account_suspend(user=carol, by=moderator, reason="a test", running="com")
    account_lift(user=carol, by=moderator)
    carol.refresh_from_db()
    with pytest.raises(errors.AlreadySeated, match="you know its cards"):
        match_join(match_id=lobby.id, user=carol)
    assert lobby not in matches_for(carol, joinable=True)  # nor is it listed as joinable
    assert lobby in matches_for(bob, joinable=True)
    match_join(match_id=lobby.id, user=bob)  # (anyone else may)


def test_aborting_a_suspended_accounts_matches_takes_those_it_made_to_watch_too(
    bob, moderator, django_capture_on_commit_callbacks
):
    coms = [{"type": "com", "level": "easy"}, {"type": "com", "level": "easy"}]
    with django_capture_on_commit_callbacks(execute=False):  # (the COMs wait)
        watched = match_create(creator=bob, spectate=True, seats=coms)
    result = account_suspend(user=bob, by=moderator, reason="cheating", running="abort")
    assert result.handled == [str(watched.id)]
    watched.refresh_from_db()
    assert watched.status == MatchStatus.ABORTED


def test_handing_over_a_suspended_accounts_matches_says_which_it_made_to_watch(
    client, bob, moderator, django_capture_on_commit_callbacks
):
    """They play on (no seat of the account's to hand over): the summary counts them, as
    the form's count of running matches did."""
    coms = [{"type": "com", "level": "easy"}, {"type": "com", "level": "easy"}]
    with django_capture_on_commit_callbacks(execute=False):  # (the COMs wait)
        watched = match_create(creator=bob, spectate=True, seats=coms)
    client.force_login(moderator)
    page = client.get(suspend(client, bob, "com")["Location"]).content.decode()
    assert "(0 handed to a normal COM, 0 skipped, 1 made to watch, playing on)" in page
    watched.refresh_from_db()
    assert watched.status == MatchStatus.ACTIVE


def test_a_match_that_fails_mid_suspension_stops_none_of_the_others_nor_their_record(
    client, duel, alice, bob, moderator, monkeypatch, django_capture_on_commit_callbacks
):
    """Any fault but a refusal stopped the loop over the account's matches after the
    suspension was written: the operator got a 500, the matches handed over before it
    were missing from the suspension's record, and those after it kept the player's seat,
    with no way to suspend again."""
    from django.db import OperationalError

    from accounts import moderation
    from accounts.models import Suspension

    with django_capture_on_commit_callbacks(execute=True):
        other = match_create(creator=alice, seats=[{"type": "me"}, {"type": "open"}])
        match_join(match_id=other.id, user=bob)
    first, second = sorted([duel.id, other.id], key=str)  # (the order they are dealt with)
    handing = moderation.seat_to_com

    def failing_on_the_first(*, match_id, seat, by):
        if match_id == str(first):
            handing(match_id=match_id, seat=seat, by=by)  # (written, then rolled back)
            raise OperationalError("the connection broke")
        return handing(match_id=match_id, seat=seat, by=by)

    monkeypatch.setattr(moderation, "seat_to_com", failing_on_the_first)
    client.force_login(moderator)
    with django_capture_on_commit_callbacks(execute=True):
        response = suspend(client, bob, "com")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "(1 handed to a normal COM, 1 skipped)" in page
    assert f"match {first}: failed (OperationalError; the server" in page
    assert Suspension.objects.get(user=bob).matches == [str(second)]
    assert Match.objects.get(pk=first).seat_users == [alice.pk, bob.pk]  # (nothing half done)
    assert Match.objects.get(pk=second).seat_users == [alice.pk, None]
    assert verify_match(Match.objects.get(pk=first)).ok


def test_a_match_its_creator_no_longer_sits_in_is_not_theirs_to_abort(duel, alice, moderator):
    """alice made the match and sat in it; her seat went to a COM at a first suspension:
    the others play on, and a later suspension does not take the match from them."""
    account_suspend(user=alice, by=moderator, reason="spam", running="com")
    account_lift(user=alice, by=moderator)
    result = account_suspend(user=alice, by=moderator, reason="spam", running="abort")
    assert result.handled == []
    duel.refresh_from_db()
    assert duel.status == MatchStatus.ACTIVE and duel.seat_users[0] is None


def test_a_token_a_suspended_account_still_holds_is_refused(bob, moderator):
    account_suspend(user=bob, by=moderator, reason="spam", running="abort")
    token = Token.objects.create(user=bob)  # (say, made by a log-in racing the suspension)
    assert_problem(api_client(token.key).get("/api/me"), 403, "account_suspended")
    assert_problem(api_client(token.key).get("/api/matches"), 403, "account_suspended")


def test_a_suspended_players_seat_goes_to_a_com_that_plays_on(
    client, duel, alice, bob, moderator, django_capture_on_commit_callbacks
):
    # given a duel where both players are to reveal
    client.force_login(moderator)
    # when bob is suspended, his seats handed to a COM
    with django_capture_on_commit_callbacks(execute=True):
        response = suspend(client, bob, "com")
    assert response.status_code == 302
    # then the COM took his seat and played his turn; alice plays on against it to the end
    duel.refresh_from_db()
    assert duel.status == MatchStatus.ACTIVE and duel.seat_users == [alice.pk, None]
    assert MatchEvent.objects.filter(match=duel, actor="com:normal:1").exists()
    play_out(duel, alice, django_capture_on_commit_callbacks)
    for _ in range(100):
        duel.refresh_from_db()
        if duel.ended:
            break
        assert 1 not in duel.seats_to_act
        play_out(duel, alice, django_capture_on_commit_callbacks)
    assert duel.status == MatchStatus.FINISHED
    # and his page still lists the match (his suspension handed it over)
    page = client.get(f"/admin/accounts/user/{bob.pk}/change/").content.decode()
    assert str(duel.id) in page and "Lift the suspension" in page


def test_lifting_a_suspension_lets_the_account_log_in_again(client, bob, moderator):
    old = login("bob").json()["token"]
    client.force_login(moderator)
    suspend(client, bob, "abort", reason="a mistaken report")
    assert_problem(login("bob"), 403, "account_suspended")
    # when
    response = client.post(reverse("admin:accounts_user_lift", args=[bob.pk]))
    # then
    assert response.status_code == 302
    fresh = login("bob")
    assert fresh.status_code == 200 and fresh.json()["token"] != old
    assert api_client(fresh.json()["token"]).get("/api/me").json()["username"] == "bob"
    assert_problem(api_client(old).get("/api/me"), 401, "authentication_failed")  # still revoked
    assert not revoked_by_suspension(old)
    entries = LogEntry.objects.filter(object_id=str(bob.pk)).order_by("action_time")
    assert [e.user for e in entries] == [moderator, moderator]
    assert "Lifted the suspension" in entries[1].change_message
    assert "a mistaken report" in entries[1].change_message
    bob.refresh_from_db()
    assert bob.suspended_at is None and bob.suspensions.get().lifted_by == moderator


def test_a_moderator_reads_an_accounts_suspensions_at_a_cost_that_does_not_grow(
    client, bob, moderator
):
    """The suspensions on an account's page needed a permission no operator's role gives
    (a moderator saw none), and cost three queries each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(moderator)
    page = reverse("admin:accounts_user_change", args=[bob.pk])

    def read() -> tuple[str, int]:
        with CaptureQueriesContext(connection) as queries:
            body = client.get(page).content.decode()
        return body, len(queries.captured_queries)

    costs = []
    for n in (1, 4):
        while bob.suspensions.count() < n:
            reason = f"report {bob.suspensions.count()}"
            account_suspend(user=bob, by=moderator, reason=reason, running="com")
            account_lift(user=bob, by=moderator)
        read()  # (the first read of a process warms a cache of content types)
        body, cost = read()
        assert all(f"report {i}" in body for i in range(n))
        costs.append(cost)
    assert costs[0] == costs[1]


def test_the_changelist_actions_suspend_and_lift(client, alice, bob, moderator):
    client.force_login(moderator)
    account = client.get(reverse("admin:accounts_user_change", args=[bob.pk])).content.decode()
    assert f"{reverse(SUSPEND)}?ids={bob.pk}" in account and "Suspend…" in account
    changelist = reverse("admin:accounts_user_changelist")
    page = client.get(changelist).content.decode()
    assert "suspend_selected" in page and "lift_selected" in page
    chosen = {"action": "suspend_selected", "_selected_action": [alice.pk, bob.pk]}
    form = client.post(changelist, chosen, follow=True)
    assert form.status_code == 200 and 'id="suspend-form"' in form.content.decode()
    ids = f"{alice.pk},{bob.pk}"
    client.post(reverse(SUSPEND), {"ids": ids, "reason": "a ring", "running": "com"})
    assert all(u.suspended_at for u in type(alice).objects.filter(pk__in=[alice.pk, bob.pk]))
    client.post(changelist, {**chosen, "action": "lift_selected"})
    assert not type(alice).objects.filter(suspended_at__isnull=False).exists()


def test_a_reason_is_required_and_nobody_suspends_themselves(client, bob, moderator):
    client.force_login(moderator)
    answer = client.post(reverse(SUSPEND), {"ids": str(bob.pk), "reason": "", "running": "com"})
    assert answer.status_code == 200 and "This field is required" in answer.content.decode()
    suspend(client, moderator, "abort")
    for user in (bob, moderator):
        user.refresh_from_db()
        assert user.suspended_at is None


def test_suspend_is_offered_where_it_can_be_done_and_another_operator_is_a_superusers(
    client, bob, moderator, clerk, django_user_model
):
    root = django_user_model.objects.create_superuser("root", password="pw-root-123")
    client.force_login(moderator)

    def offered(user):
        page = client.get(reverse("admin:accounts_user_change", args=[user.pk]))
        return "Suspend…" in page.content.decode()

    assert [offered(u) for u in (bob, moderator, clerk, root)] == [True, False, False, False]
    follow = suspend(client, clerk, "abort")
    clerk.refresh_from_db()
    assert clerk.suspended_at is None
    answer = client.get(follow["Location"]).content.decode()
    assert "only a superuser may suspend another operator&#x27;s account" in answer
    # a superuser may, and only a superuser lifts it
    account_suspend(user=clerk, by=root, reason="a test", running="abort")
    with pytest.raises(ModerationError, match="only a superuser may lift"):
        account_lift(user=clerk, by=moderator)
    account_lift(user=clerk, by=root)


def test_staff_who_may_suspend_but_not_see_accounts_land_where_they_may(
    client, bob, django_user_model
):
    """After a suspension or a lift, staff holding only ``suspend_user`` were sent to the
    account's page, a bare 403, the news of what was done unread: now to the index."""
    warden = django_user_model.objects.create_user("wanda", password="pw-wanda-123", is_staff=True)
    grant(warden, "suspend_user")
    client.force_login(warden)
    answer = suspend(client, bob, "abort")
    assert answer.status_code == 302 and answer["Location"] == reverse("admin:index")
    bob.refresh_from_db()
    assert bob.suspended_at is not None
    index = client.get(answer["Location"])
    assert index.status_code == 200 and "bob: Suspended; reason:" in index.content.decode()
    lifted = client.post(reverse("admin:accounts_user_lift", args=[bob.pk]))
    assert lifted.status_code == 302 and lifted["Location"] == reverse("admin:index")
    bob.refresh_from_db()
    assert bob.suspended_at is None


def test_staff_without_the_permission_neither_see_nor_use_it(client, bob, clerk):
    client.force_login(clerk)
    page = client.get(reverse("admin:accounts_user_change", args=[bob.pk]))
    body = page.content.decode()
    assert page.status_code == 200 and reverse(SUSPEND) not in body and "Suspend…" not in body
    changelist = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "suspend_selected" not in changelist and "lift_selected" not in changelist
    assert client.get(reverse(SUSPEND), {"ids": str(bob.pk)}).status_code == 403
    assert suspend(client, bob, "abort").status_code == 403
    bob.refresh_from_db()
    assert bob.suspended_at is None
    # nor lift one
    superuser = type(bob).objects.create_superuser("root", password="pw-root-123")
    account_suspend(user=bob, by=superuser, reason="spam", running="abort")
    assert client.post(reverse("admin:accounts_user_lift", args=[bob.pk])).status_code == 403
    changelist = reverse("admin:accounts_user_changelist")
    # named anyway: refused outright (the site's own delete_selected too: it was a 200,
    # "no action selected")
    for action in ("lift_selected", "suspend_selected", "delete_selected"):
        chosen = {"action": action, "_selected_action": [bob.pk]}
        assert client.post(changelist, chosen).status_code == 403
    bob.refresh_from_db()
    assert bob.suspended_at is not None


# --- an account's matches and recent actions --------------------------------------------------
def test_an_accounts_page_lists_its_matches_and_actions_without_hidden_cards(
    client, duel, alice, moderator, django_capture_on_commit_callbacks
):
    # given alice's two reveals (the rest of the deal she caused stays face down)
    with django_capture_on_commit_callbacks(execute=True):
        for pos in (0, 1):
            match_act(match_id=duel.id, user=alice, action={"type": "reveal", "position": pos})
    client.force_login(moderator)
    # when
    page = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    # then her match is linked, her actions listed newest first
    assert reverse("admin:golf_match_change", args=[duel.id]) in page
    actions = page[page.index('class="account-actions"') :]
    shown = [t for t in ("card_revealed", "hole_dealt", "match_started") if t in actions]
    assert shown == ["card_revealed", "hole_dealt", "match_started"]
    assert actions.index("card_revealed") < actions.index("hole_dealt")
    # and the deal she caused is shown as a spectator sees it: no face-down card, no stock
    dealt = MatchEvent.objects.get(match=duel, type="hole_dealt").payload
    revealed = {
        e.payload["card"] for e in MatchEvent.objects.filter(match=duel, type="card_revealed")
    }
    hidden = {c for grid in dealt["grids"] for c in grid} - revealed | set(dealt["stock"])
    assert hidden and not [c for c in hidden if f"&quot;{c}&quot;" in actions]


def test_an_accounts_page_still_lists_a_match_it_left_and_its_moves_there(
    client, duel, bob, moderator, django_capture_on_commit_callbacks
):
    """A seat left to a COM forgot its player: the match and the player's moves in it were
    on no page of the account's, and a search by its name did not find the match."""
    with django_capture_on_commit_callbacks(execute=True):
        match_act(match_id=duel.id, user=bob, action={"type": "reveal", "position": 0})
        match_leave(match_id=duel.id, user=bob)
    assert Seat.objects.get(match=duel, index=1).handed_from == bob
    client.force_login(moderator)
    page = client.get(reverse("admin:accounts_user_change", args=[bob.pk])).content.decode()
    assert reverse("admin:golf_match_change", args=[duel.id]) in page
    assert "card_revealed" in page[page.index('class="account-actions"') :]
    found = client.get(reverse("admin:golf_match_changelist"), {"q": "bob"}).content.decode()
    assert str(duel.id) in found


def test_the_actions_token_check_refuses_a_suspended_accounts_token_at_once(duel, bob, moderator):
    # given bob's token, remembered by a web process after an action of his
    token = Token.objects.create(user=bob)
    reveal = {"type": "reveal", "position": 0}
    acted = api_client(token.key).post(f"/api/matches/{duel.id}/actions", reveal, format="json")
    assert acted.status_code == 200, acted.content
    user_as_seen = remembered.get(token.key)
    assert user_as_seen is not None
    # when bob is suspended (this process forgets the token; another one would not have)
    account_suspend(user=bob, by=moderator, reason="spam", running="com")
    before = MatchEvent.objects.filter(match=duel).count()
    reveal = {"type": "reveal", "position": 1}
    for key_exists in (False, True):  # deleted; or there again (then: a suspended account's)
        if key_exists:
            Token.objects.create(user=bob, key=token.key)
        remembered.put(token.key, user_as_seen)
        answer = api_client(token.key).post(
            f"/api/matches/{duel.id}/actions", reveal, format="json"
        )
        # then it is refused by the action's own statement, and nothing is written
        assert_problem(answer, 403, "account_suspended")
    assert MatchEvent.objects.filter(match=duel).count() == before
    remembered.forget(token.key)


@pytest.mark.parametrize("ids", ["²", "1,²", "٣", "9" * 30])
def test_account_ids_are_ascii_digits_or_nothing(admin_client, alice, ids):
    response = admin_client.get(reverse("admin:accounts_user_suspend"), {"ids": ids})
    assert response.status_code == 302  # no account named: back to the list
    assert response["Location"] == reverse("admin:accounts_user_changelist")
    lift = reverse("admin:accounts_user_lift", args=[ids])
    assert admin_client.post(lift).status_code == 404
    alice.refresh_from_db()
    assert alice.suspended_at is None


def test_suspending_a_selection_deleted_since_the_list_says_so(admin_client, alice):
    gone = alice.pk
    alice.delete()
    body = {"action": "suspend_selected", "_selected_action": [str(gone)]}
    response = admin_client.post(reverse("admin:accounts_user_changelist"), body, follow=True)
    assert response.status_code == 200
    assert "No account to suspend was named." in response.content.decode()


def test_no_admin_page_shows_a_token(alice, people, client):
    """A token is its player's key to their hand: the admin has no page of tokens, for a
    superuser or for staff given DRF's token permissions."""
    key = Token.objects.create(user=alice).key
    clerk = people[2]
    clerk.user_permissions.add(*Permission.objects.filter(content_type__app_label="authtoken"))
    root = type(alice).objects.create_superuser("root", password="pw-root-123")
    for user in (clerk, root):
        client.force_login(user)
        index = client.get(reverse("admin:index"))
        assert index.status_code == 200 and b"authtoken" not in index.content
        assert client.get("/admin/authtoken/tokenproxy/").status_code == 404
        assert key.encode() not in client.get(reverse("admin:accounts_user_changelist")).content


def test_no_account_list_answers_a_guess_at_a_token(alice, moderator, client):
    """The list takes only its filters' lookups: ``?auth_token__key__startswith=`` (one step
    into a relation, by its key) would say, a page per guess, how a player's token begins."""
    key = Token.objects.create(user=alice).key
    client.force_login(moderator)
    changelist = reverse("admin:accounts_user_changelist")
    for lookup in ("auth_token__key__startswith", "auth_token__key", "auth_token__pk__gte"):
        assert client.get(changelist, {lookup: key[:1]}).status_code == 400, lookup
    assert client.get(changelist, {"seats__match__snapshot__icontains": "x"}).status_code == 400
    for allowed in ({"is_staff__exact": "1"}, {"groups__id__exact": "1"}, {"suspended": "yes"}):
        assert client.get(changelist, allowed).status_code == 200, allowed


def test_a_moderator_can_neither_raise_its_privileges_nor_change_another_operator(
    client, alice, moderator, django_user_model
):
    root = django_user_model.objects.create_superuser("root", password="pw-root-123")
    client.force_login(moderator)
    own = client.get(reverse("admin:accounts_user_change", args=[moderator.pk])).content.decode()
    assert 'name="username"' in own  # its own account it may change ...
    for privilege in ("is_active", "is_staff", "is_superuser", "groups", "user_permissions"):
        assert f'name="{privilege}"' not in own  # ... but not what it may do
    form = {
        "username": moderator.username,
        "is_active": "on",
        "is_superuser": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "suspensions-TOTAL_FORMS": "0",
        "suspensions-INITIAL_FORMS": "0",
    }
    saved = client.post(reverse("admin:accounts_user_change", args=[moderator.pk]), form)
    assert saved.status_code == 302  # saved, the privileges as they were
    moderator.refresh_from_db()
    assert moderator.is_staff and not moderator.is_superuser
    # a superuser's account (another operator's) it may read, not change, its password too
    password = {"password1": "Taken-over-9876", "password2": "Taken-over-9876"}
    taken = client.post(reverse("admin:auth_user_password_change", args=[root.pk]), password)
    assert taken.status_code == 403
    root.refresh_from_db()
    assert root.check_password("pw-root-123")
    page = client.get(reverse("admin:accounts_user_change", args=[root.pk]))
    assert page.status_code == 200 and 'name="username"' not in page.content.decode()
    # nor a player's: whoever sets it can log in as the player and see their hand
    reset = client.post(reverse("admin:auth_user_password_change", args=[alice.pk]), password)
    assert reset.status_code == 403
    alice.refresh_from_db()
    assert alice.check_password("pw-alice-123")
    page = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    assert 'name="username"' in page and "../password/" not in page
    assert "Only a superuser sets another account's password" in page
    # its own it may
    own_password = {**password, "usable_password": "true"}
    url = reverse("admin:auth_user_password_change", args=[moderator.pk])
    assert client.post(url, own_password).status_code == 302
    moderator.refresh_from_db()
    assert moderator.check_password("Taken-over-9876")
    assert client.get(reverse("admin:index")).status_code == 200  # (its session goes on)
    # nor shut a player out but by a suspension (with its reason and record)
    shut = {**form, "username": alice.username}
    del shut["is_active"], shut["is_superuser"]
    assert (
        client.post(reverse("admin:accounts_user_change", args=[alice.pk]), shut).status_code == 302
    )
    alice.refresh_from_db()
    assert alice.is_active
    # a superuser's page of the player still links to the password's form
    client.force_login(root)
    page = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    assert "../password/" in page


def test_a_moderator_cannot_delete_another_operator(client, alice, moderator, django_user_model):
    grant(moderator, "delete_user")
    root = django_user_model.objects.create_superuser("root", password="pw-root-123")
    client.force_login(moderator)
    page = reverse("admin:accounts_user_delete", args=[root.pk])
    assert client.get(page).status_code == 403
    assert client.post(page, {"post": "yes"}).status_code == 403
    changelist = reverse("admin:accounts_user_changelist")
    bulk = {"action": "delete_selected", "_selected_action": [root.pk, alice.pk], "post": "yes"}
    client.post(changelist, bulk)
    assert django_user_model.objects.filter(pk__in=[root.pk, alice.pk]).count() == 2
    # a player's account it may delete (one with no match: a seat keeps its account)
    single = {"action": "delete_selected", "_selected_action": [alice.pk], "post": "yes"}
    assert client.post(changelist, single).status_code == 302
    assert not django_user_model.objects.filter(pk=alice.pk).exists()


def test_an_accounts_page_reads_its_matches_only(client, duel, alice, bob, moderator, settings):
    """The account's matches are picked from its seats and the matches it made, not by
    reading every match stored."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.plans import rows_dropped

    settings.MAX_UNFINISHED_MATCHES = 100
    for _ in range(40):
        match_create(creator=bob, seats=[{"type": "me"}, {"type": "open"}])
    client.force_login(moderator)
    with CaptureQueriesContext(connection) as read:
        page = client.get(reverse("admin:accounts_user_change", args=[alice.pk]))
    assert reverse("admin:golf_match_change", args=[duel.id]) in page.content.decode()
    dropped = rows_dropped(read, "golf_match", f'"created_by_id" = {alice.pk}')
    assert dropped and max(dropped) < 5, dropped


def test_deleting_an_account_shows_no_token(client, alice, bob, operator):
    """Django's confirmation lists what a delete deletes, a token by its key: staff who may
    delete accounts read a player's live token there, and could act as the player."""
    grant(operator, "view_user", "delete_user")
    keys = [Token.objects.create(user=user).key for user in (alice, bob)]
    client.force_login(operator)
    page = reverse("admin:accounts_user_delete", args=[alice.pk])
    shown = client.get(page)
    assert shown.status_code == 200 and b"its key is not shown" in shown.content
    assert keys[0].encode() not in shown.content
    bulk = {"action": "delete_selected", "_selected_action": [alice.pk, bob.pk]}
    confirm = client.post(reverse("admin:accounts_user_changelist"), bulk)
    assert confirm.status_code == 200 and b"Are you sure" in confirm.content
    assert not any(key.encode() in confirm.content for key in keys)
    assert client.post(page, {"post": "yes"}).status_code == 302  # deleted as before
    assert not Token.objects.filter(key=keys[0]).exists()


def test_an_operators_account_with_entries_in_the_admins_log_is_not_deleted(
    client, alice, operator, django_user_model
):
    """The admin's log is the record of who aborted, verified or suspended what: deleting
    its author would delete it (``LogEntry.user`` cascades)."""
    from django.contrib.admin.models import CHANGE, LogEntry
    from django.contrib.contenttypes.models import ContentType

    LogEntry.objects.create(
        user=operator,
        content_type=ContentType.objects.get_for_model(alice),
        object_id=str(alice.pk),
        object_repr=alice.username,
        action_flag=CHANGE,
        change_message="Suspended: cheating",
    )
    root = django_user_model.objects.create_superuser("root", password="pw-root-123")
    client.force_login(root)
    page = reverse("admin:accounts_user_delete", args=[operator.pk])
    shown = client.get(page).content.decode()
    assert "Cannot delete user" in shown
    assert "The admin's log: 1 entry by olga (kept: suspend the account)" in shown
    client.post(page, {"post": "yes"})
    bulk = {"action": "delete_selected", "_selected_action": [operator.pk], "post": "yes"}
    client.post(reverse("admin:accounts_user_changelist"), bulk)
    assert django_user_model.objects.filter(pk=operator.pk).exists()
    assert LogEntry.objects.filter(user=operator).count() == 1
    # one with no entries goes as before
    client.post(reverse("admin:accounts_user_delete", args=[alice.pk]), {"post": "yes"})
    assert not django_user_model.objects.filter(pk=alice.pk).exists()
