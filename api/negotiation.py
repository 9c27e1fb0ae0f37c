"""Choosing how to answer: DRF's content negotiation, with a clear error for ``?format=``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation


class FormatNegotiation(DefaultContentNegotiation):
    """``?format=`` picks one of a view's renderers by its name; a name the view has none
    for is a query parameter's bad value, a 400 ``validation_error`` naming those it has
    (DRF answers a bare 404, read as if the match were unknown)."""

    def filter_renderers(self, renderers: Sequence[Any], format: str) -> list[Any]:
        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            from api.problems import ApiProblem  # (which DRF's settings, these among them, load)

            names = sorted({renderer.format for renderer in renderers})
            name = self.settings.URL_FORMAT_OVERRIDE or "format"
            raise ApiProblem(
                400,
                "validation_error",
                "Invalid request",
                f"no answer here in the format {format[:16]!r}: {name} is one of {names}",
                errors={name: [f"one of {names}"]},
            )
        return found
