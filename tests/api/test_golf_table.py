"""Golf as the source products play it, through the API: default tables, the ``medium``
level, local (pass-and-play) matches with undo, the pause after a hole, and a client that
draws the table and its scores from the API's own data alone (no engine table copied)."""

from __future__ import annotations

import pytest

from matches.services import seat_to_com
from tests.api.conftest import assert_problem

# COM turns run on commit, inside the human's request
pytestmark = pytest.mark.django_db(transaction=True)


def create(client, body):
    created = client.post("/api/matches", body, format="json")
    assert created.status_code == 201, created.content
    return created.json()


def act(client, match_id, action):
    response = client.post(f"/api/matches/{match_id}/actions", action, format="json")
    assert response.status_code == 200, (action, response.content)
    return response.json()


def detail(client, match_id):
    return client.get(f"/api/matches/{match_id}").json()


def test_games_list_aliases_default_tables_and_pauses(anon):
    golf = {g["name"]: g for g in anon.get("/api/games").json()}["golf"]
    assert golf["com_level_aliases"] == {"medium": "normal"}
    assert golf["default_seats"]["flick-nines"] == ["me", "com", "com"]
    assert golf["pause_phases"] == ["hole_over"]
    assert golf["turn_goes_on_phases"] == ["flips", "place"]
    presets = {p["name"]: p["rules"] for p in golf["presets"]}
    assert presets["flick-nines"]["match_by"] == "value"
    assert presets["vanikar-six"]["opening_flips"] == "in_turn"


def test_a_preset_without_seats_gets_its_default_table_and_medium_means_normal(alice):
    flick = create(alice, {"preset": "flick-nines"})
    assert [s["kind"] for s in flick["seats"]] == ["human", "com", "com"]
    assert flick["rules"]["grid"] == "3x3" and flick["view"]["rows"] == flick["view"]["cols"] == 3
    vanikar = create(
        alice,
        {"preset": "vanikar-six", "seats": [{"type": "me"}, {"type": "com", "level": "medium"}]},
    )
    assert vanikar["seats"][1]["com_level"] == "normal"
    assert_problem(
        alice.post(
            "/api/matches",
            {"seats": [{"type": "me"}, {"type": "com", "level": "expert"}]},
            format="json",
        ),
        400,
        "validation_error",
    )


def test_in_turn_opening_flips_refuse_an_early_flip_through_the_api(alice, bob):
    match = create(alice, {"preset": "vanikar-six", "seats": [{"type": "me"}, {"type": "open"}]})
    assert bob.post(f"/api/matches/{match['id']}/join", {}, format="json").status_code == 200
    view = detail(alice, match["id"])["view"]
    first = (view["dealer"] + 1) % 2  # the dealer's left flips first
    clients = {0: alice, 1: bob}
    assert view["seats_to_act"] == [first]
    early = clients[1 - first].post(
        f"/api/matches/{match['id']}/actions", {"type": "reveal", "position": 0}, format="json"
    )
    assert_problem(early, 422, "not_your_turn")
    act(clients[first], match["id"], {"type": "reveal", "position": 0})
    act(clients[first], match["id"], {"type": "reveal", "position": 1})
    assert detail(alice, match["id"])["view"]["seats_to_act"] == [1 - first]


def test_a_local_match_is_played_by_one_account_with_undo_before_the_device_is_passed(alice):
    assert_problem(
        alice.post("/api/matches", {"seats": [{"type": "me"}, {"type": "me"}]}, format="json"),
        400,
        "validation_error",
    )
    match = create(
        alice,
        {
            "preset": "yorimichi-basic",
            "local": True,
            "undo": True,
            "holes": 1,
            "seats": [{"type": "me"}, {"type": "me"}],
        },
    )
    match_id = match["id"]
    assert match["local"] is True and match["practice"] is True
    assert [s["username"] for s in match["seats"]] == ["alice", "alice"]
    # the opening flips, both seats at once: the account acts for the first seat to act
    for _ in range(4):
        view = detail(alice, match_id)["view"]
        act(alice, match_id, view["legal_actions"][0])
    first = detail(alice, match_id)
    mover = first["your_seat"]
    assert first["view"]["phase"] == "draw" and first["your_turn"]
    act(alice, match_id, {"type": "draw"})
    after = act(alice, match_id, {"type": "discard"})
    now = detail(alice, match_id)
    assert now["your_seat"] == 1 - mover  # the other human is to act: the same account
    assert {"type": "undo"} in now["view"]["legal_actions"]
    undone = act(alice, match_id, {"type": "undo"})
    assert [e["type"] for e in undone["events"]] == ["undone"]
    back = detail(alice, match_id)
    assert back["your_seat"] == mover and back["view"]["phase"] == "place"
    assert after["version"] < back["version"]


def test_a_local_matchs_past_version_shows_the_seat_that_was_to_act_then(alice, django_user_model):
    match_id = create(
        alice, {"local": True, "holes": 1, "seats": [{"type": "me"}, {"type": "me"}]}
    )["id"]
    # play on until the second seat draws (the first seat's tag is the same either way)
    while (now := detail(alice, match_id))["view"]["phase"] != "draw" or now["your_seat"] != 1:
        act(alice, match_id, now["view"]["legal_actions"][0])
    drew = act(alice, match_id, {"type": "draw"})
    assert drew["view"]["seat"] == 1
    act(alice, match_id, {"type": "discard"})
    assert detail(alice, match_id)["your_seat"] == 0  # the device is passed on

    # the view after the draw is the one that answered it: the drawer's, its card and moves
    then = alice.get(f"/api/matches/{match_id}/states/{drew['version']}")
    assert then.status_code == 200
    assert then.json() == drew["view"]
    assert then.json()["drawn"]["card"] is not None and then.json()["legal_actions"]
    # its tag names every seat the account holds, whichever is to act now: it answers 304
    # while the other seat is to act
    past = f"/api/matches/{match_id}/states/{drew['version']}"
    tag = then["ETag"]
    assert tag == f'"{drew["version"]}.0+1"'
    assert alice.get(past, HTTP_IF_NONE_MATCH=tag).status_code == 304

    # an operator hands the drawer's seat to a COM: that version is now seen from the
    # first seat, the drawn card hidden, so the copy kept is no longer the answer
    operator = django_user_model.objects.create_user("operator", password="pw", is_staff=True)
    seat_to_com(match_id=match_id, seat=1, by=operator)
    again = alice.get(past, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] == f'"{drew["version"]}.0"'
    assert again.json()["seat"] == 0 and again.json()["drawn"]["card"] is None


def test_a_loop_of_play_and_undo_stops_at_the_events_a_match_may_hold(alice, settings):
    match_id = create(
        alice,
        {"local": True, "undo": True, "holes": 1, "seats": [{"type": "me"}, {"type": "me"}]},
    )["id"]
    while detail(alice, match_id)["view"]["phase"] != "draw":
        act(alice, match_id, detail(alice, match_id)["view"]["legal_actions"][0])
    act(alice, match_id, {"type": "draw"})
    start = detail(alice, match_id)["version"]
    settings.MAX_EVENTS_PER_MATCH = start + 6
    for _ in range(3):  # a discard and its undo: two events a loop, without end but for the cap
        act(alice, match_id, {"type": "discard"})
        act(alice, match_id, {"type": "undo"})
    assert detail(alice, match_id)["version"] == start + 6
    refused = alice.post(f"/api/matches/{match_id}/actions", {"type": "discard"}, format="json")
    problem = assert_problem(refused, 409, "match_too_long")
    assert problem["limit"] == start + 6 and "aborted" in problem["detail"]
    assert detail(alice, match_id)["version"] == start + 6  # nothing was written
    aborted = alice.post(f"/api/matches/{match_id}/abort", {}, format="json")
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted"


def test_the_pause_after_a_hole_waits_for_next_or_its_bound(alice):
    match = create(
        alice,
        {
            "holes": 2,
            "rules": {"max_turns": 4},
            "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
        },
    )
    match_id = match["id"]
    while detail(alice, match_id)["view"]["phase"] != "hole_over":
        act(alice, match_id, detail(alice, match_id)["view"]["legal_actions"][0])
    paused = detail(alice, match_id)
    view = paused["view"]
    assert view["legal_actions"] == [{"type": "next"}] and view["seats_to_act"] == [0]
    assert view["last_hole_grids"] and len(view["hole_scores"]) == 1
    assert len(view["hole_finishers"]) == 1 and view["end_reason"]
    act(alice, match_id, {"type": "next"})
    assert detail(alice, match_id)["round"] == 2

    bounded = create(
        alice,
        {
            "holes": 2,
            "rules": {"max_turns": 4},
            "hole_pause_seconds": 0,
            "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
        },
    )
    assert bounded["round_pause_seconds"] == 0
    while detail(alice, bounded["id"])["round"] == 1:
        act(alice, bounded["id"], detail(alice, bounded["id"])["view"]["legal_actions"][0])
    moved = detail(alice, bounded["id"])
    assert moved["view"]["phase"] != "hole_over" and moved["view"]["auto_moves"]  # its "next"


# --- a client drawing the table from the API alone -----------------------------------------
def grid_score(cards, rules):
    """A grid's score from the rules JSON alone: ``points`` per rank character, the lines
    of ``lines`` (rows and columns of ``grid``), matched by ``match_by``."""
    rows, cols = (int(n) for n in rules["grid"].split("x"))
    points = [rules["points"][card[0]] for card in cards]
    key = (lambda i: cards[i][0]) if rules["match_by"] == "rank" else (lambda i: points[i])
    lines = []
    if rules["lines"] in ("columns", "rows_and_columns"):
        lines += [[r * cols + c for r in range(rows)] for c in range(cols)]
    if rules["lines"] == "rows_and_columns":
        lines += [[r * cols + c for c in range(cols)] for r in range(rows)]
    zero = set()
    for line in lines:
        if len({key(i) for i in line}) == 1:
            if rules["negative_pairs_keep_value"] and points[line[0]] < 0:
                continue
            zero.update(line)
    return sum(p for i, p in enumerate(points) if i not in zero)


@pytest.mark.parametrize("preset", ["six-card", "flick-nines", "yorimichi-jokers"])
def test_a_client_scores_every_hole_from_the_rules_json_and_the_view(alice, preset):
    match = create(
        alice,
        {
            "preset": preset,
            "holes": 2,
            "seats": [{"type": "me"}, {"type": "com", "level": "normal"}],
        },
    )
    match_id, rules = match["id"], match["rules"]
    checked = 0
    while True:
        shown = detail(alice, match_id)
        view = shown["view"]
        # the running figure: each grid's face-up cards, from the points table
        for grid, total in zip(view["grids"], view["face_up_totals"], strict=True):
            assert total == sum(rules["points"][c[0]] for c in grid if c is not None)
        if view["phase"] in ("hole_over", "finished"):
            scores = [grid_score(g, rules) for g in view["last_hole_grids"]]
            assert scores == view["hole_scores"][-1]
            assert [sum(h[s] for h in view["hole_scores"]) for s in range(2)] == shown["totals"]
            checked += 1
        if shown["status"] != "active":
            break
        act(alice, match_id, view["legal_actions"][0])
    assert checked == 2 and shown["status"] == "finished"
