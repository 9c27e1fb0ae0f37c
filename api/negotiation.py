"""Choosing how to answer: DRF's content negotiation, with a clear error for ``?format=``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


def _refused(media_range: str) -> bool:
    """Whether an ``Accept`` entry says "not this" (``q=0``, RFC 9110 12.4.2)."""
    for param in media_range.split(";")[1:]:
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value.strip()) == 0
            except ValueError:
                return False
    return False


def _refuses(accept: Sequence[str], media_type: str) -> bool:
    """Whether ``accept`` refuses ``media_type``: the most specific range that matches it
    (``type/sub`` before ``type/*`` before ``*/*``, RFC 9110 12.5.1) says ``q=0``. So
    ``text/event-stream;q=0, */*`` refuses the events' stream and no other type, and
    ``application/*;q=0, application/json`` refuses no JSON. Of ranges as specific as each
    other (the same one twice), one that does not say ``q=0`` wins, in any order."""
    kind, _, sub = media_type.split(";")[0].strip().lower().partition("/")
    best: tuple[int, bool] | None = None  # (how specific, refused)
    for entry in accept:
        range_kind, _, range_sub = entry.split(";")[0].strip().lower().partition("/")
        if range_kind == "*" and range_sub in ("*", ""):
            specific = 0
        elif range_kind == kind and range_sub == "*":
            specific = 1
        elif (range_kind, range_sub) == (kind, sub):
            specific = 2
        else:
            continue
        if best is None or specific > best[0]:
            best = (specific, _refused(entry))
        elif specific == best[0]:
            best = (specific, best[1] and _refused(entry))
    return best is not None and best[1]


class FormatNegotiation(DefaultContentNegotiation):
    """``?format=`` picks one of a view's renderers by its name; a name the view has none
    for is a query parameter's bad value, a 400 ``validation_error`` naming those it has
    (DRF answers a bare 404, read as if the match were unknown). An ``Accept`` entry of
    ``q=0`` refuses the types it is the most specific match for (DRF took it as any other):
    none left is a 406."""

    def get_accept_list(self, request: Any) -> list[str]:
        accepted = super().get_accept_list(request)
        if self._format_asked(request):  # ?format= chooses, whatever Accept says
            return accepted
        return [entry for entry in accepted if not _refused(entry)]

    def _format_asked(self, request: Any) -> bool:
        name = self.settings.URL_FORMAT_OVERRIDE
        return bool(name and request.query_params.get(name))

    def select_renderer(
        self, request: Any, renderers: Sequence[Any], format_suffix: str | None = None
    ) -> tuple[Any, str]:
        if format_suffix or self._format_asked(request):
            return super().select_renderer(request, renderers, format_suffix)
        accept = super().get_accept_list(request)
        kept = [r for r in renderers if not _refuses(accept, r.media_type)]
        if not kept:
            raise NotAcceptable(available_renderers=renderers)
        return super().select_renderer(request, kept, format_suffix)

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
