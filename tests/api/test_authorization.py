"""Every cell of the authorization table in docs/security.md, checked against the service."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.api.conftest import client_for

TABLE = Path(__file__).resolve().parents[2] / "docs" / "security.md"
ROLES = ["anonymous", "stranger", "waiting", "acting", "staff", "operator"]


def documented() -> list[tuple[str, str, str, int]]:
    cells = []
    for line in TABLE.read_text().splitlines():
        match = re.match(r"\| `(GET|POST|DELETE) ([^`]+)` \|(.*)\|$", line)
        if match:
            method, path, rest = match.groups()
            statuses = [int(s) for s in rest.split("|")]
            cells += [
                (method, path, role, status) for role, status in zip(ROLES, statuses, strict=True)
            ]
    return cells


CELLS = documented()


BODIES = {
    "/api/matches": {"seats": [{"type": "me"}, {"type": "com", "level": "normal"}]},
    "/api/matches/{id}/actions": {"type": "draw"},
}


def test_the_table_covers_every_endpoint():
    paths = {path for _, path, _, _ in CELLS}
    assert len(CELLS) == 15 * len(ROLES) and "/api/matches/{id}/actions" in paths


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "role", "status"), CELLS)
def test_documented_status(method, path, role, status, users, anon, alice, bob, django_user_model):
    match_id = alice.post(
        "/api/matches", {"seats": [{"type": "me"}, {"type": "open"}]}, format="json"
    ).json()["id"]
    bob.post(f"/api/matches/{match_id}/join", {}, format="json")
    for client in (alice, bob):
        for position in (0, 1):
            client.post(
                f"/api/matches/{match_id}/actions",
                {"type": "reveal", "position": position},
                format="json",
            )
    clients = {
        "anonymous": anon,
        "stranger": client_for(users["carol"]),
        "waiting": bob,
        "acting": alice,
        "staff": client_for(users["staff"]),
        "operator": client_for(users["operator"]),
    }
    url = path.replace("{id}", match_id).replace("{version}", "2")
    body = BODIES.get(path, {})
    client = clients[role]
    if method == "GET":
        response = client.get(url)
    elif method == "POST":
        response = client.post(url, body, format="json")
    else:
        response = client.delete(url)
    assert response.status_code == status, (method, path, role, response.content[:300])
