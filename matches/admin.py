"""Admin for operators: browse and audit matches. Events can be read, never edited."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from matches import errors
from matches.models import Match, MatchEvent, Seat
from matches.services import match_abort
from matches.store import game_of, state_at, to_event
from matches.verify import verify_match


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("index", "kind", "user", "com_level", "to_act", "joined_at")
    readonly_fields = fields
    extra = 0


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "preset",
        "status",
        "version",
        "round",
        "created_by",
        "created_at",
    )
    list_filter = ("game", "status", "preset", "created_at")
    date_hierarchy = "created_at"
    search_fields = ("=id", "created_by__username", "seats__user__username")
    inlines = (SeatInline,)
    readonly_fields = (
        "id",
        "game",
        "preset",
        "status",
        "created_by",
        "created_at",
        "updated_at",
        "ended_at",
        "version",
        "seed_commitment",
        "hints_enabled",
        "turn_timeout",
        "round",
        "rounds",
        "phase",
        "totals",
        "winners",
        "rules_pretty",
        "links",
    )
    exclude = ("rules",)
    actions = ("verify_selected", "abort_selected")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    @admin.display(description="rules")
    def rules_pretty(self, obj: Match) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.rules, indent=2))

    @admin.display(description="history")
    def links(self, obj: Match) -> str:
        events = reverse("admin:golf_matchevent_changelist") + f"?match__id__exact={obj.pk}"
        state = reverse("admin:golf_match_state", args=[obj.pk]) + f"?version={obj.version}"
        return format_html(
            '<a href="{}">events</a> · <a href="{}">state at version…</a>', events, state
        )

    def get_urls(self):  # type: ignore[no-untyped-def]
        extra = [
            path(
                "<uuid:match_id>/state/",
                self.admin_site.admin_view(self.state_view),
                name="golf_match_state",
            )
        ]
        return extra + super().get_urls()

    def state_view(self, request: HttpRequest, match_id: str) -> HttpResponse:
        """The match as of version N: the spectator view while it runs, the whole state
        once it has ended (as the game shapes them)."""
        match = get_object_or_404(Match, pk=match_id)
        try:
            version = int(request.GET.get("version", match.version))
        except ValueError:
            version = match.version
        version = max(1, min(version, match.version))
        game = game_of(match)
        state = state_at(match, version)
        shown = game.state_to_json(state) if match.ended else game.view(state, None)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Match {match.id} at version {version}",
            "match": match,
            "version": version,
            "round_name": game.info.round_name,
            "summary": game.summary(state),
            "shown": json.dumps(shown, indent=2),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/golf/match/state.html", context)

    @admin.action(description="Verify the selected matches' logs")
    def verify_selected(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            report = verify_match(match)
            level = messages.SUCCESS if report.ok else messages.ERROR
            self.message_user(request, " ".join(report.lines()), level)

    @admin.action(description="Abort the selected matches (reveals their seeds)")
    def abort_selected(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            try:
                match_abort(match_id=match.pk, user=request.user, reason="aborted in admin")
            except errors.ServiceError as exc:
                self.message_user(request, f"{match.pk}: {exc.detail}", messages.WARNING)
            else:
                self.message_user(request, f"{match.pk}: aborted", messages.SUCCESS)


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "seq", "type", "actor", "created_at")
    list_filter = ("type",)
    search_fields = ("=match__id",)
    fields = ("match", "seq", "type", "version", "actor", "created_at", "hash", "payload_pretty")
    readonly_fields = fields
    list_select_related = ("match",)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    @admin.display(description="payload")
    def payload_pretty(self, obj: MatchEvent) -> str:
        """The whole payload once the match has ended; before, what a spectator may see
        (no seed, no stock order, no face-down card): staff see no more than players."""
        if obj.match.ended:
            return format_html("<pre>{}</pre>", json.dumps(obj.payload, indent=2))
        game = game_of(obj.match)
        shown = game.redact(to_event(obj, game), None, match_ended=False)
        return format_html(
            "<pre>{}</pre><p>{}</p>",
            json.dumps(shown, indent=2),
            "Hidden information is shown once the match has ended.",
        )
