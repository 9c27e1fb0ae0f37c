"""A whole match of every game against COMs, through the generated Python client alone.

This is what a frontend team writes on a client generated from the OpenAPI schema
(``openapi-python-client``, see docs/clients.md): no raw HTTP, no casts, no hand-written
mapping between what the service says and what it takes. ``mypy --strict`` checks it
against the generated package, then it runs against a live server:

    python tests/clients/play.py BASE_URL USERNAME

It registers USERNAME, logs in, and for each game creates a short match against COMs,
plays the first legal action whenever it is its turn until the match ends, then reads
the history (events, a past state, the audit, the export). It prints one JSON line per
match and exits non-zero at the first thing that goes wrong.
"""

from __future__ import annotations

import json
import sys
import time
from uuid import UUID

from card_games_client import AuthenticatedClient, Client
from card_games_client.api.accounts import accounts_register_create, auth_token_create, me_retrieve
from card_games_client.api.history import (
    matches_audit_retrieve,
    matches_events_retrieve,
    matches_export_retrieve,
    matches_states_retrieve,
)
from card_games_client.api.matches import matches_create, matches_list, matches_retrieve
from card_games_client.api.play import matches_actions_create, matches_hint_retrieve
from card_games_client.api.rules import games_list
from card_games_client.models import (
    ActResult,
    Audit,
    ComSeatRequest,
    ComSeatRequestLevel,
    ComSeatRequestType,
    Credentials,
    EventPage,
    GolfMatchCreate,
    GolfMatchCreateGame,
    GolfView,
    HeartsMatchCreate,
    HeartsMatchCreateGame,
    HeartsRuleOverrides,
    HeartsView,
    Hint,
    HumanSeatRequest,
    HumanSeatRequestType,
    MatchDetail,
    MatchPage,
    NinetyNineMatchCreate,
    NinetyNineMatchCreateGame,
    NinetyNineRuleOverrides,
    NinetyNineView,
    Problem,
    Register,
    StatusEnum,
    Token,
    User,
)

View = GolfView | HeartsView | NinetyNineView
MatchRequest = GolfMatchCreate | HeartsMatchCreate | NinetyNineMatchCreate


class Failed(Exception):
    """The service answered something this client did not expect."""


def problem(what: str, answer: object) -> Failed:
    if isinstance(answer, Problem):
        return Failed(f"{what}: {answer.status} {answer.code}: {answer.detail}")
    return Failed(f"{what}: unexpected answer {answer!r}")


def me() -> HumanSeatRequest:
    return HumanSeatRequest(type_=HumanSeatRequestType.ME)


def com(level: ComSeatRequestLevel) -> ComSeatRequest:
    return ComSeatRequest(type_=ComSeatRequestType.COM, level=level)


def requests() -> list[tuple[str, MatchRequest, type[View]]]:
    """One short match of each game, the player against COMs."""
    return [
        (
            "golf",
            GolfMatchCreate(
                game=GolfMatchCreateGame.GOLF,
                holes=1,
                seats=[me(), com(ComSeatRequestLevel.NORMAL)],
            ),
            GolfView,
        ),
        (
            "hearts",
            HeartsMatchCreate(
                game=HeartsMatchCreateGame.HEARTS,
                rules=HeartsRuleOverrides(max_deals=1),
                seats=[me(), *(com(ComSeatRequestLevel.EASY) for _ in range(3))],
            ),
            HeartsView,
        ),
        (
            "ninety-nine",
            NinetyNineMatchCreate(
                game=NinetyNineMatchCreateGame.NINETY_NINE,
                rules=NinetyNineRuleOverrides(max_deals=1),
                seats=[me(), com(ComSeatRequestLevel.EASY), com(ComSeatRequestLevel.NORMAL)],
            ),
            NinetyNineView,
        ),
    ]


def log_in(base_url: str, username: str) -> AuthenticatedClient:
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    password = f"pw-{username}-0123456789"
    registered = accounts_register_create.sync(
        client=anonymous, body=Register(username=username, password=password)
    )
    if isinstance(registered, Problem) or registered is None:
        raise problem("register", registered)
    token = auth_token_create.sync(
        client=anonymous, body=Credentials(username=username, password=password)
    )
    if not isinstance(token, Token):
        raise problem("log in", token)
    return AuthenticatedClient(
        base_url=base_url, token=token.token, raise_on_unexpected_status=True
    )


def detail(client: AuthenticatedClient, match_id: UUID) -> MatchDetail:
    answer = matches_retrieve.sync(match_id, client=client)
    if not isinstance(answer, MatchDetail):
        raise problem("read the match", answer)
    return answer


def play(
    client: AuthenticatedClient, game: str, request: MatchRequest, kind: type[View]
) -> dict[str, object]:
    created = matches_create.sync(client=client, body=request)
    if not isinstance(created, MatchDetail):
        raise problem("create a match", created)
    match_id = created.id
    moves = hints = 0
    deadline = time.monotonic() + 300
    current = created
    while current.status == StatusEnum.ACTIVE:
        if time.monotonic() > deadline:
            raise Failed(f"{game}: the match did not end in 300 s")
        if not isinstance(current.view, kind):
            raise Failed(f"a {game} match read as {type(current.view).__name__}")
        if not current.your_turn:
            # the COMs move on the worker: wait for the log to pass this version (a
            # long-poll), then read the match again
            waited = matches_events_retrieve.sync(
                match_id, client=client, after=current.version, wait=25
            )
            if not isinstance(waited, EventPage):
                raise problem("wait for the COMs", waited)
            current = detail(client, match_id)
            continue
        if hints == 0 and current.hints_enabled:
            hint = matches_hint_retrieve.sync(match_id, client=client)
            if not isinstance(hint, Hint):
                raise problem("ask for a hint", hint)
            if hint.action not in current.view.legal_actions:
                raise Failed(f"the hint {hint.action!r} is not a legal action")
            hints += 1
        action = current.view.legal_actions[0]
        acted = matches_actions_create.sync(match_id, client=client, body=action)
        if not isinstance(acted, ActResult):
            raise problem(f"play {action!r}", acted)
        moves += 1
        current = detail(client, match_id)
    if current.status != StatusEnum.FINISHED or current.seed is None or not current.winners:
        raise Failed(f"{game}: ended {current.status.value} without a result")
    return {
        "game": game,
        "match": str(match_id),
        "moves": moves,
        "version": current.version,
        "winners": current.winners,
        **history(client, match_id, current.version, kind),
    }


def history(
    client: AuthenticatedClient, match_id: UUID, version: int, kind: type[View]
) -> dict[str, object]:
    """Every event, a past state, the audit and the export of an ended match."""
    events: list[str] = []
    after = 0
    while True:
        page = matches_events_retrieve.sync(match_id, client=client, after=after, limit=200)
        if not isinstance(page, EventPage):
            raise problem("read the events", page)
        events += [event.type_ for event in page.events]
        if not page.events:
            break
        after = page.events[-1].seq
    if len(events) != version:
        raise Failed(f"{len(events)} events for version {version}")
    state = matches_states_retrieve.sync(match_id, version // 2, client=client)
    if not isinstance(state, kind) or state.version != version // 2:
        raise problem("read a past state", state)
    audit = matches_audit_retrieve.sync(match_id, client=client)
    if not isinstance(audit, Audit) or len(audit.events) != version:
        raise problem("read the audit", audit)
    export = matches_export_retrieve.sync(match_id, client=client)
    if not isinstance(export, str):
        raise problem("export", export)
    lines = [json.loads(line) for line in export.splitlines() if line]
    if [line["seq"] for line in lines] != list(range(1, version + 1)):  # every event
        raise Failed(f"the export has {len(lines)} lines for version {version}")
    return {"events": len(events), "first": events[0], "last": events[-1]}


def main(base_url: str, username: str) -> int:
    client = log_in(base_url, username)
    user = me_retrieve.sync(client=client)
    if not isinstance(user, User) or user.username != username:
        raise problem("who am I", user)
    games = games_list.sync(client=client)
    if not isinstance(games, list) or {g.name.value for g in games} != {
        "golf",
        "hearts",
        "ninety-nine",
    }:
        raise Failed(f"the games listed: {games!r}")
    for game, request, kind in requests():
        print(json.dumps(play(client, game, request, kind)), flush=True)
    mine = matches_list.sync(client=client, mine=True)
    if not isinstance(mine, MatchPage) or mine.count != len(requests()):
        raise problem("list my matches", mine)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
