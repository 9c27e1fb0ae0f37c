"""Choosing how to answer: DRF's content negotiation, with a clear error for ``?format=``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.negotiation import DefaultContentNegotiation


class FormatNegotiation(DefaultContentNegotiation):
    """``?format=`` picks one of a view's renderers by its name; for a name the view has
    none for the 404 says so and lists those it has (DRF's bare 404 read as if the match
    were unknown)."""

    def filter_renderers(self, renderers: Sequence[Any], format: str) -> list[Any]:
        found = [renderer for renderer in renderers if renderer.format == format]
        if not found:
            names = sorted({renderer.format for renderer in renderers})
            name = self.settings.URL_FORMAT_OVERRIDE or "format"
            raise NotFound(
                f"no answer here in the format {format[:16]!r}: {name} is one of {names}"
            )
        return found
