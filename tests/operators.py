"""Operators as the tests make them: staff with some of the admin's permissions."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Permission


def operator(django_user_model: Any, username: str = "otto", *codenames: str) -> Any:
    """A staff account with the admin's permissions ``codenames`` (by default the one to
    abort a match, which being staff does not give)."""
    user = django_user_model.objects.create_user(
        username, password=f"pw-{username}-123", is_staff=True
    )
    for codename in codenames or ("abort_match",):
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label="golf", codename=codename)
        )
    return user
