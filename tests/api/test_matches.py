import uuid

import pytest

from tests.api.conftest import assert_problem

pytestmark = pytest.mark.django_db


def create(client, **body):
    return client.post("/api/matches", body, format="json")


def test_create_against_coms_returns_the_callers_view(alice):
    response = create(
        alice,
        preset="six-card",
        holes=2,
        seats=[
            {"type": "me"},
            {"type": "com", "level": "hard"},
            {"type": "com", "level": "normal"},
        ],
    )
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "active" and body["your_seat"] == 0 and body["your_turn"]
    assert (
        body["rules"]["holes"] == 2 and body["seed"] is None and len(body["seed_commitment"]) == 64
    )
    assert response["ETag"] == f'"{body["version"]}"'
    view = body["view"]
    assert view["seat"] == 0 and view["grids"][0] == [None] * 6
    assert {a["type"] for a in view["legal_actions"]} == {"reveal"}
    assert [s["kind"] for s in body["seats"]] == ["human", "com", "com"]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"seats": [{"type": "me"}]}, "validation_error", "seats"),
        (
            {"seats": [{"type": "me"}, {"type": "com", "level": "godlike"}]},
            "validation_error",
            "seats[1].level",
        ),
        (
            {"preset": "poker", "seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
            "validation_error",
            "preset",
        ),
        (
            {
                "rules": {"grid": "5x5"},
                "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
            },
            "invalid_rules",
            "rules.grid",
        ),
        (
            {
                "rules": {"flip_on_discard": 3},
                "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
            },
            "invalid_rules",
            "rules.flip_on_discard",
        ),
        (
            {
                "rules": {"decks": 1},
                "preset": "nine-card",
                "seats": [{"type": "me"}] + [{"type": "com", "level": "normal"}] * 5,
            },
            "invalid_rules",
            "rules.decks",
        ),
        (
            {"holes": 40, "seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
            "validation_error",
            "holes",
        ),
        # JSON types are meant: no "3" for 3, no 0 for false, no unknown fields
        (
            {"holes": "3", "seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
            "validation_error",
            "holes",
        ),
        (
            {"hints": 0, "seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
            "validation_error",
            "hints",
        ),
        (
            {"colour": "red", "seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
            "validation_error",
            "colour",
        ),
        (
            {
                "seats": [
                    {"type": "me", "level": "hard", "lvl": 2},
                    {"type": "com", "level": "normal"},
                ]
            },
            "validation_error",
            "seats[0].lvl",
        ),
        (
            {"seats": [{"type": "me"}, {"type": "open", "level": "hard"}]},
            "validation_error",
            "seats[1].level",
        ),
        (  # a COM seat names its level
            {"seats": [{"type": "me"}, {"type": "com"}]},
            "validation_error",
            "seats[1].level",
        ),
        (
            {"undo": True, "seats": [{"type": "me"}, {"type": "open"}]},
            "invalid_rules",
            "rules.undo",
        ),
    ],
)
def test_bad_create_requests(alice, body, code, field):
    problem = assert_problem(create(alice, **body), 400, code)
    assert field in problem["errors"]


def test_list_filters_and_paginates(alice, bob, duel):
    create(alice, seats=[{"type": "me"}, {"type": "com", "level": "normal"}], preset="nine-card")
    page = alice.get("/api/matches", {"mine": "true"}).json()
    assert page["count"] == 2 and len(page["results"]) == 2
    assert alice.get("/api/matches", {"preset": "nine-card"}).json()["count"] == 1
    assert alice.get("/api/matches", {"status": "finished"}).json()["count"] == 0
    awaiting = bob.get("/api/matches", {"awaiting": "me"}).json()
    assert [m["id"] for m in awaiting["results"]] == [duel]  # initial flips: bob must act
    small = alice.get("/api/matches", {"page_size": 1}).json()
    assert len(small["results"]) == 1 and small["next"]
    assert_problem(alice.get("/api/matches", {"page": 99999}), 404, "not_found")
    assert_problem(alice.get("/api/matches", {"status": "sleeping"}), 400, "validation_error")
    for bad in ({"mine": "perhaps"}, {"preset": ""}, {"page_size": 0}, {"page_size": 101}):
        assert_problem(alice.get("/api/matches", bad), 400, "validation_error")
    assert_problem(alice.get("/api/matches", {"page": "x"}), 400, "validation_error")
    for mixed in ({"mine": "true"}, {"awaiting": "me"}):
        problem = assert_problem(
            alice.get("/api/matches", {"joinable": "true", **mixed}), 400, "validation_error"
        )
        assert "joinable" in problem["errors"]


def test_paging_by_creation_neither_repeats_nor_skips_a_match_that_moves(alice, bob):
    """By latest activity (the default), a match that moves on while a client pages jumps
    to the first page; ``order=created`` pages in an order no move changes."""
    open_seats = [{"type": "me"}, {"type": "open"}]
    made = [create(alice, seats=open_seats).json()["id"] for _ in range(3)]

    def page_through(order: str) -> list[str]:
        seen, page = [], 1
        while True:
            body = alice.get("/api/matches", {"order": order, "page_size": 1, "page": page})
            seen += [m["id"] for m in body.json()["results"]]
            if page == 1:  # the oldest lobby fills between the first page and the next
                bob.post(f"/api/matches/{made[0]}/join", {}, format="json")
            if not body.json()["next"]:
                return seen
            page += 1

    assert page_through("created") == made[::-1]  # by activity, the one joined comes twice
    assert_problem(alice.get("/api/matches", {"order": "oldest"}), 400, "validation_error")


def test_the_next_link_in_order_of_creation_holds_its_place_as_the_list_changes(alice, bob):
    """Pages by number shift under a reader as matches are made (one repeated) or leave the
    list (one skipped); the ``next`` link of ``order=created`` names the last match shown."""
    lobby = [{"type": "me"}, {"type": "open"}]
    made = [create(alice, seats=lobby).json()["id"] for _ in range(5)][::-1]  # newest first
    query = {"order": "created", "status": "waiting", "page_size": 2}
    first = alice.get("/api/matches", query).json()
    assert [m["id"] for m in first["results"]] == made[:2] and first["count"] == 5
    create(alice, seats=lobby)  # a new match at the top
    bob.post(f"/api/matches/{made[1]}/join", {}, format="json")  # one shown leaves the list
    seen = [m["id"] for m in first["results"]]
    link = first["next"]
    while link:
        body = alice.get(link).json()
        seen += [m["id"] for m in body["results"]]
        link = body["next"]
    assert seen == made and "before=" in first["next"] and "page=" not in first["next"]
    # before is of order=created only, and names a match
    for bad in (
        {"before": made[0]},
        {"order": "created", "before": "nope"},
        {"order": "created", "before": str(uuid.uuid4())},
    ):
        problem = assert_problem(alice.get("/api/matches", bad), 400, "validation_error")
        assert "before" in problem["errors"]


def test_a_match_made_to_watch_is_among_ones_own(alice, bob):
    """A match whose seats are all COMs (or others'), made with ``spectate``, counts among
    its creator's unfinished matches: it is listed among theirs too."""
    watched = create(
        alice,
        spectate=True,
        seats=[{"type": "com", "level": "easy"}, {"type": "com", "level": "easy"}],
    ).json()["id"]
    assert watched in {
        m["id"] for m in alice.get("/api/matches", {"mine": "true"}).json()["results"]
    }
    assert watched in {m["id"] for m in alice.get("/api/matches").json()["results"]}
    assert watched not in {m["id"] for m in bob.get("/api/matches").json()["results"]}


def test_a_write_takes_no_query_parameter(alice):
    problem = assert_problem(
        alice.post("/api/matches?mine=true", {"seats": [{"type": "me"}]}, format="json"),
        400,
        "validation_error",
    )
    assert "mine" in problem["errors"]
    assert alice.get("/api/matches").json()["count"] == 0  # nothing was made
    match_id = create(alice, seats=[{"type": "me"}, {"type": "open"}]).json()["id"]
    for path, body in (
        (f"/api/matches/{match_id}/actions?position=1", {"type": "reveal", "position": 0}),
        (f"/api/matches/{match_id}/abort?reason=x", {}),
        ("/api/auth/token?username=alice", {"username": "alice", "password": "pw-alice-123"}),
    ):
        problem = assert_problem(alice.post(path, body, format="json"), 400, "validation_error")
        assert "not a query parameter" in problem["detail"], path
    assert alice.get(f"/api/matches/{match_id}").json()["status"] == "waiting"  # nothing done


def test_joinable_lists_only_the_lobbies_you_do_not_sit_in(alice, bob):
    """A lobby of your own, however many, never hides another's from you."""
    open_seats = [{"type": "me"}, {"type": "open"}]
    own = [create(alice, seats=open_seats).json()["id"] for _ in range(3)]
    theirs = create(bob, seats=open_seats).json()["id"]
    create(bob, seats=[{"type": "me"}, {"type": "com", "level": "normal"}])  # no seat free
    page = alice.get("/api/matches", {"joinable": "true", "page_size": 2}).json()
    assert [m["id"] for m in page["results"]] == [theirs] and page["count"] == 1
    everything = {m["id"] for m in alice.get("/api/matches").json()["results"]}
    assert everything == {*own, theirs}
    joined = bob.get("/api/matches", {"joinable": "true"}).json()
    assert {m["id"] for m in joined["results"]} == set(own)
    assert all(m["your_seat"] is None for m in joined["results"])


def test_a_spectator_sees_the_spectator_view(carol, duel):
    body = carol.get(f"/api/matches/{duel}").json()
    assert body["your_seat"] is None and body["view"]["seat"] is None
    assert body["view"]["legal_actions"] == []


def test_unknown_match_is_404(alice, duel):
    unknown = "00000000-0000-0000-0000-000000000000"
    first = assert_problem(alice.get(f"/api/matches/{unknown}"), 404, "match_not_found")
    # an id that is not one is no match either, whatever follows it, and reads the same
    for path in ("not-a-uuid", "not-a-uuid/events", "42/states/1", unknown.upper(), "-" * 36):
        answer = alice.get(f"/api/matches/{path}")
        assert assert_problem(answer, 404, "match_not_found") == first, path
        assert b'"code":"match_not_found"' in answer.content  # compact, as every answer
    posted = alice.post("/api/matches/not-a-uuid/actions", {"type": "reveal"}, format="json")
    assert_problem(posted, 404, "match_not_found")
    # a real match's unknown path is still an unknown path
    assert_problem(alice.get(f"/api/matches/{duel}/nowhere"), 404, "not_found")


def test_a_match_id_in_capitals_names_the_same_match(alice, duel):
    """A UUID's hex digits are one number however written (RFC 9562 reads either case)."""
    shouting = str(duel).upper()
    assert shouting != str(duel)
    detail = alice.get(f"/api/matches/{shouting}")
    assert detail.status_code == 200 and detail.json()["id"] == str(duel)
    assert alice.get(f"/api/matches/{shouting}/events").status_code == 200
    revealed = alice.post(f"/api/matches/{shouting}/actions", {"type": "reveal", "position": 0},
                          format="json")  # fmt: skip
    assert revealed.status_code == 200, revealed.content


def test_join(alice, bob, carol):
    match_id = create(alice, seats=[{"type": "me"}, {"type": "open"}]).json()["id"]
    assert carol.get(f"/api/matches/{match_id}").json()["status"] == "waiting"
    joined = bob.post(f"/api/matches/{match_id}/join", {}, format="json")
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1
    assert joined.json()["status"] == "active"
    assert_problem(
        carol.post(f"/api/matches/{match_id}/join", {}, format="json"), 409, "no_open_seat"
    )
    assert_problem(
        bob.post(f"/api/matches/{match_id}/join", {}, format="json"), 409, "already_seated"
    )


def test_a_seat_to_join_is_bounded_by_the_match_found(alice, bob):
    """The bound was every game's (5), checked before the match was looked for: seat 5 of
    two seats went on to the service, and seat 9 of a match that does not exist was a 400."""
    match_id = create(alice, seats=[{"type": "me"}, {"type": "open"}]).json()["id"]
    for seat in (2, 5, 9):
        refused = bob.post(f"/api/matches/{match_id}/join", {"seat": seat}, format="json")
        problem = assert_problem(refused, 400, "validation_error")
        assert problem["errors"] == {"seat": ["seat must be between 0 and 1 in this match"]}
    nowhere = f"/api/matches/{uuid.uuid4()}/join"
    assert_problem(bob.post(nowhere, {"seat": 9}, format="json"), 404, "match_not_found")
    joined = bob.post(f"/api/matches/{match_id}/join", {"seat": 1}, format="json")
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1


def test_abort_is_for_operators_with_its_permission(alice, staff, ops, users, duel):
    """Being staff is not enough (an operator's account without the admin's abort
    permission aborted any match, and so revealed its seed); the abort is in the admin log."""
    from django.contrib.admin.models import LogEntry

    for refused in (alice, staff):
        assert_problem(
            refused.post(f"/api/matches/{duel}/abort", {}, format="json"), 403, "permission_denied"
        )
    response = ops.post(f"/api/matches/{duel}/abort", {"reason": "test"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "aborted" and len(body["seed"]) == 64
    logged = LogEntry.objects.get(object_id=duel)
    assert logged.user == users["operator"] and logged.change_message == "Aborted the match (test)"
    assert_problem(
        ops.post(f"/api/matches/{duel}/abort", {}, format="json"), 409, "match_not_active"
    )
