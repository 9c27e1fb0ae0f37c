"""Admin for operators: browse and audit matches. Events can be read, never edited.

Hidden information stays hidden here as everywhere: while a match runs, staff (superusers
included) see the spectator's view and redacted events. Once it has ended, the page shows
the spectator's view of the end (everything the rules reveal); the whole state and the
events as stored are shown only to staff holding ``golf.view_match_audit`` who open the
post-match audit explicitly (``?audit=1``). Verify, abort and the audit each need their own
permission (``golf.verify_match``, ``golf.abort_match``, ``golf.view_match_audit``): staff
without it do not see the button or action, and a direct request gets 403.
"""

from __future__ import annotations

import json
import logging
import re
import traceback
import uuid
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import get_fields_from_path, unquote
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404
from django.template.loader import select_template
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from cards.errors import UNREADABLE_LOG
from config.env import PUBLIC_CHAIN_KEY
from games import all_games, event_types
from matches import errors
from matches.models import ENDED_STATUSES, Match, MatchEvent, Seat, SeatKind
from matches.selectors import all_events_of_seat, audit_record
from matches.services import match_abort, seat_to_com
from matches.store import game_of, load_events, to_event
from matches.verify import Report, report_lines, verify_match_now

logger = logging.getLogger(__name__)

# The event log beside the board shows at most this many events, the last up to the version.
EVENT_LOG_LIMIT = 200
AUDIT_PERMISSION = "golf.view_match_audit"


def wants_audit(request: HttpRequest) -> bool:
    """Whether the request explicitly asks for the post-match audit (``?audit=1``)."""
    return request.GET.get("audit") == "1"


def audit_refused(
    request: HttpRequest, match: Match, site: admin.AdminSite
) -> TemplateResponse | None:
    """The answer to a post-match audit asked for (``?audit=1``) that is not to be had: 403
    without ``golf.view_match_audit``, 409 while the match runs (superusers too). ``None``
    when none was asked for, or it is granted. The match's page and each event's alike."""
    if not wants_audit(request):
        return None
    if not request.user.has_perm(AUDIT_PERMISSION):
        raise PermissionDenied("the post-match audit needs golf.view_match_audit")
    if match.ended:
        return None
    context = {
        **site.each_context(request),
        "match": match,
        "opts": Match._meta,
        "title": f"Match {match.id}: no audit yet",
    }
    return TemplateResponse(request, "admin/golf/match/audit_refused.html", context, status=409)


def may_audit(request: HttpRequest, match: Match) -> bool:
    """The whole state and stored payloads: only once the match has ended, only to staff
    holding the audit permission, and only when asked for explicitly."""
    return match.ended and request.user.has_perm(AUDIT_PERMISSION) and wants_audit(request)


def chain_hashes_shown(match: Match) -> bool:
    """Whether the log's hashes may be shown: a chain's under a secret key (an HMAC that
    tells nothing of the payloads) always; an older, unkeyed chain's (plain SHA-256 over an
    event's payload, which can be found by trying the few cards or passes a hidden one may
    hold), or one under the key a development setup falls back to (written in the source),
    only once the match has ended."""
    if match.ended:
        return True
    key_id = match.chain_key_id
    return bool(key_id) and settings.EVENT_CHAIN_KEYS.get(key_id) != PUBLIC_CHAIN_KEY


def shown_payload(row: MatchEvent, match: Match, *, whole: bool) -> dict[str, Any]:
    """An event's payload as the admin may show it: redacted for a spectator (with what the
    rules reveal once the match has ended), or as stored when ``whole`` (the audit)."""
    if whole:
        return dict(row.payload)
    game = game_of(match)
    return game.redact(to_event(row, game), None, match_ended=match.ended)


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


#: The lookups the admin's filters of a field make (a date's hierarchy: its parts).
FILTERS_LOOKUPS = frozenset({"", "exact", "isnull", "in", "gte", "lt"})
DATE_PARTS = frozenset({"year", "month", "day"})


class FilterLookupsOnly:
    """The admin lets a list be filtered by the query string (``?payload__icontains=QS``),
    by any field and by one step into a relation and its key (``?auth_token__key__startswith=``
    on the accounts). On a field that holds hidden information, or on a credential, that
    answers one guess per page: whether a running match's face-down card or seed, or a
    player's token, holds some value. So a list takes only the lookups its own filters
    make (``list_filter``, ``date_hierarchy``) and the ones it names in ``extra_lookups``
    (the links of other admin pages); any other is refused (400), for every account."""

    extra_lookups: frozenset[str] = frozenset()

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if "\x00" in str(value):  # no text field holds one; the database refuses it
            return False
        return lookup in self.extra_lookups or self._a_filters_lookup(lookup, value, request)

    def _a_filters_lookup(self, lookup: str, value: str, request: HttpRequest) -> bool:
        admin_: Any = self
        hierarchy = admin_.date_hierarchy
        for item in (*admin_.get_list_filter(request), *([hierarchy] if hierarchy else [])):
            if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                if lookup == item.parameter_name:
                    return True
                continue
            path = item[0] if isinstance(item, (list, tuple)) else item
            if lookup != path and not lookup.startswith(f"{path}__"):
                continue
            rest = lookup[len(path) + 2 :]
            field = get_fields_from_path(admin_.model, path)[-1]
            if field.is_relation:  # as its filter asks: by the related row's key, or none
                return rest in {f"{field.target_field.name}__exact", "isnull"}
            if rest in DATE_PARTS:  # (a year of 30 digits, or 9999, overflowed its range)
                bound = {"year": 9998, "month": 12, "day": 31}[rest]
                return bool(re.fullmatch(r"[0-9]{1,4}", str(value))) and 1 <= int(value) <= bound
            return rest in FILTERS_LOOKUPS  # one the filters make (no regex to fail on)
        return False


class ActionsNeedPermission:
    """Django drops a list action the user may not run and answers "no action selected";
    a request naming one anyway is refused outright (403), as the admin's views are."""

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        action = request.POST.get("action") if request.method == "POST" else None
        admin_: Any = self
        # (the site's own actions, delete_selected among them, as well as the list's)
        known = {*admin_.actions, *(name for name, _ in admin_.admin_site.actions)}
        if action in known and action not in admin_.get_actions(request):
            raise PermissionDenied(f"you may not run {action}")
        if action is not None:
            key = self.model._meta.pk  # type: ignore[attr-defined]
            for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                try:
                    key.to_python(value)
                except ValidationError:
                    raise BadRequest(f"{value!r} is not an id of a {key.model.__name__}") from None
        return super().changelist_view(request, extra_context)  # type: ignore[misc]


def searched_id(search_term: str) -> uuid.UUID | None:
    """The match id a search names, however it is written: with or without hyphens, in
    braces, in either case (Django's exact search compares the id's text, hyphens and all,
    so an id copied from a log line without them found nothing)."""
    try:
        return uuid.UUID(search_term.strip())
    except ValueError:
        return None


class StaffMayRead:
    """Every staff account may read matches and their events (hidden cards stay hidden),
    so the app is on every staff account's index and sidebar too."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)


class RegistryFilter(admin.SimpleListFilter):
    """A filter whose choices come from the games' registry, not from the table: Django's
    own filter of a field reads them by a ``DISTINCT`` over every row, on every load."""

    parameter_name: str

    def values(self) -> list[str]:
        raise NotImplementedError

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(value, value) for value in self.values()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        return queryset.filter(**{self.parameter_name: value}) if value else queryset


class GameFilter(RegistryFilter):
    title = parameter_name = "game"

    def values(self) -> list[str]:
        return [game.info.name for game in all_games()]


class PresetFilter(RegistryFilter):
    title = parameter_name = "preset"

    def values(self) -> list[str]:
        return sorted({preset for game in all_games() for preset in game.info.presets})


class EventTypeFilter(RegistryFilter):
    title = parameter_name = "type"

    def values(self) -> list[str]:
        return event_types()


class HandOverForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=2000,
        help_text="why (kept in the admin's log; the match's log names only the operator)",
    )


class SeatInline(StaffMayRead, ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("index", "kind", "user", "com_level", "handed_from", "to_act", "joined_at")
    readonly_fields = fields
    extra = 0


@admin.register(Match)
class MatchAdmin(
    ActionsNeedPermission, FilterLookupsOnly, StaffMayRead, ReadOnlyMixin, admin.ModelAdmin
):
    # the whole state (seed, stock, every hand); the chain's head (an unkeyed chain's
    # can be matched against guessed payloads: ``chain_hashes_shown``)
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
    list_select_related = ("created_by",)  # nullable: not followed unless named
    list_filter = (GameFilter, "status", PresetFilter, "created_at")
    date_hierarchy = "created_at"
    search_fields = (  # and the match's id, however written (``get_search_results``)
        "created_by__username",
        "seats__user__username",
        "seats__handed_from__username",
    )
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
    ABORT_AT_ONCE = 100  # matches one confirmation names (a "select all" beyond: the first)
    VERIFY_AT_ONCE = 100  # matches one request verifies (each replays its whole log)

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Match], search_term: str
    ) -> tuple[QuerySet[Match], bool]:
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        match_id = searched_id(search_term)
        if match_id is not None:
            found = found | queryset.filter(id=match_id)
        return found, may_have_duplicates

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and not chain_hashes_shown(obj):
            return (*self.exclude, "last_hash")
        return self.exclude

    def has_verify_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("golf.verify_match")

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("golf.abort_match")

    def has_audit_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(AUDIT_PERMISSION)

    def has_hand_over_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("golf.hand_over_seat")

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
        view = self.admin_site.admin_view
        extra = [
            path("<uuid:match_id>/state/", view(self.state_view), name="golf_match_state"),
            path("<uuid:match_id>/verify/", view(self.verify_view), name="golf_match_verify"),
            path(
                "<uuid:match_id>/seats/<int:index>/hand-over/",
                view(self.hand_over_view),
                name="golf_match_hand_over",
            ),
            path(
                "<uuid:match_id>/audit/download/",
                view(self.audit_download),
                name="golf_match_audit_download",
            ),
        ]
        return extra + super().get_urls()

    def state_view(
        self, request: HttpRequest, match_id: str, report: Report | None = None
    ) -> HttpResponse:
        """The match as of version N, drawn by the game's board template, with the events up
        to N beside it: the spectator's view (and redacted events) while it runs and after;
        the whole state and stored events in the post-match audit alone."""
        match = get_object_or_404(Match, pk=match_id)
        if not self.has_view_permission(request, match):
            raise PermissionDenied
        refused = audit_refused(request, match, self.admin_site)
        if refused is not None:
            return refused
        audit = wants_audit(request)
        try:
            version = int(request.GET.get("version", match.version))
        except ValueError:
            version = match.version
        version = max(1, min(version, match.version))
        game = game_of(match)
        rows = load_events(match, upto=version)  # read once: the replay and the log beside it
        try:  # the replay, and what is drawn of it (a log that replays may still not draw)
            state = game.replay(to_event(row, game) for row in rows)
            view = game.view(state, None)
            drawn = {
                "summary": game.summary(state),
                "view": view,
                "view_json": json.dumps(view, indent=2),
                "seats": by_seat(view, _seat_names(match, len(game.players(state)))),
                "whole_state": json.dumps(game.state_to_json(state), indent=2) if audit else None,
            }
            rows = rows[-EVENT_LOG_LIMIT:]
            events = [
                {
                    "row": row,
                    "data": json.dumps(
                        shown_payload(row, match, whole=audit), separators=(", ", ": ")
                    ),
                }
                for row in rows
            ]
        except UNREADABLE_LOG as exc:  # a log changed behind the store's back: say so
            # (or a fault of the replay itself: the trace is logged, its text is not, as it
            # may name a hidden card)
            logger.error(
                "match %s: its log cannot be replayed up to version %s (%s)\n%s",
                match.id,
                version,
                type(exc).__name__,
                "".join(traceback.format_tb(exc.__traceback__)),
            )
            context = {
                **self._context(request, match),
                "title": f"Match {match.id}: the log cannot be replayed",
                "version": version,
                "error": type(exc).__name__,  # not its text, which may name a hidden card
                "report": report,
                "report_lines": report_lines(report, match) if report else [],
            }
            template = "admin/golf/match/unreplayable.html"
            return TemplateResponse(request, template, context, status=200 if report else 409)
        board = select_template(
            [f"admin/golf/match/board_{match.game}.html", "admin/golf/match/board_any.html"]
        )
        context = {
            **self._context(request, match),
            "title": f"Match {match.id} at version {version}",
            "version": version,
            "previous": version - 1 if version > 1 else None,
            "next": version + 1 if version < match.version else None,
            "round_name": game.info.round_name,
            **drawn,
            "board_template": board.template.name,
            "events": events,
            "events_from": rows[0].seq if rows else 0,
            "audit": audit,
            "report": report,
            "report_lines": report_lines(report, match) if report else [],
        }
        return TemplateResponse(request, "admin/golf/match/state.html", context)

    def _context(self, request: HttpRequest, match: Match) -> dict[str, Any]:
        players = []  # the seats a COM could take over (for staff who may hand them over)
        if not match.ended and self.has_hand_over_permission(request):
            players = list(match.seats.filter(kind=SeatKind.HUMAN).select_related("user"))
        return {
            **self.admin_site.each_context(request),
            "match": match,
            "opts": self.model._meta,
            "can_verify": self.has_verify_permission(request),
            "can_audit": self.has_audit_permission(request),
            "hand_over_seats": players,
        }

    def hand_over_view(self, request: HttpRequest, match_id: str, index: int) -> HttpResponse:
        """A player's seat of a running match handed to a COM of the game's middle level
        (:func:`matches.services.seat_to_com`), for a reason the admin's log keeps: asked
        first (GET), done on POST. For a player gone for good from a match with no turn
        timer, whom suspending the whole account would be too much for."""
        if not self.has_hand_over_permission(request):
            raise PermissionDenied("handing a seat over needs golf.hand_over_seat")
        match = get_object_or_404(Match, pk=match_id)
        seat = get_object_or_404(Seat.objects.select_related("user"), match=match, index=index)
        back = reverse("admin:golf_match_state", args=[match.pk])
        if match.ended or seat.kind != SeatKind.HUMAN:
            why = "the match has ended" if match.ended else "the seat is not a player's"
            self.message_user(request, f"seat {index}: {why}: nothing handed over", messages.ERROR)
            return HttpResponseRedirect(back)
        form = HandOverForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            player = seat.user.username if seat.user else "?"
            note = f"Handed seat {index} ({player}) to a COM; reason: {form.cleaned_data['reason']}"
            try:
                with transaction.atomic():  # the hand-over and its record, or neither
                    seat_to_com(match_id=match.pk, seat=index, by=request.user)
                    self.log_change(request, match, note)
            except errors.ServiceError as exc:
                self.message_user(request, f"seat {index}: {exc.detail}", messages.ERROR)
            else:
                self.message_user(request, note, messages.SUCCESS)
            return HttpResponseRedirect(back)
        context = {
            **self._context(request, match),
            "title": f"Hand seat {index} of match {match.id} to a COM",
            "seat": seat,
            "form": form,
        }
        return TemplateResponse(request, "admin/golf/match/hand_over.html", context)

    def verify_view(self, request: HttpRequest, match_id: str) -> HttpResponse:
        """Runs :func:`matches.verify.verify_match` and shows its report on the match page."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_verify_permission(request):
            raise PermissionDenied("verifying needs golf.verify_match")
        match = get_object_or_404(Match, pk=match_id)
        report = self._verify(request, match)[1]
        return self.state_view(request, match_id, report=report)

    def audit_download(
        self, request: HttpRequest, match_id: str
    ) -> HttpResponse | StreamingHttpResponse:
        """The audit export of an ended match: the record of ``GET /api/matches/{id}/audit``
        (all its pages in one) as a JSON file, or (``?format=ndjson``) its events one a line
        as the API's export writes them."""
        if not self.has_audit_permission(request):
            raise PermissionDenied("the audit export needs golf.view_match_audit")
        match = get_object_or_404(Match, pk=match_id)
        if not match.ended:
            return HttpResponse(
                "the audit record is available once the match has ended",
                status=409,
                content_type="text/plain",
            )
        response: HttpResponse | StreamingHttpResponse
        if request.GET.get("format") == "ndjson":
            events = all_events_of_seat(match, None)
            lines = (json.dumps(e, separators=(",", ":")) + "\n" for e in events)
            response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
            name = f"match-{match.id}.ndjson"
        else:
            record = json.dumps(audit_record(match), indent=2)
            response = HttpResponse(record, content_type="application/json")
            name = f"match-{match.id}-audit.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    def _verify(self, request: HttpRequest, match: Match) -> tuple[Match, Report]:
        """The match as of one moment, and its report (``verify_match_now``): the list's
        rows were read before, and a match in play has moved on since."""
        match, report = verify_match_now(match.pk)
        self.log_change(request, match, f"Verified the log: {report_lines(report, match)[0]}")
        return match, report

    @admin.action(description="Verify the selected matches' logs", permissions=["verify"])
    def verify_selected(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        """Each selected match verified, at most ``VERIFY_AT_ONCE`` in one request: "select
        all" takes every match the filters find, and each replays its log."""
        selected_count = queryset.count()
        if selected_count > self.VERIFY_AT_ONCE:
            note = (
                f"{selected_count} matches selected: the list verifies at most "
                f"{self.VERIFY_AT_ONCE} at once. Narrow the selection, or verify every match "
                f"with the command verify_match --all (in parallel workers)."
            )
            self.message_user(request, note, messages.WARNING)
            return
        for selected in queryset:
            match, report = self._verify(request, selected)
            level = messages.SUCCESS if report.ok else messages.ERROR
            self.message_user(request, " ".join(report_lines(report, match)), level)

    @admin.action(
        description="Abort the selected matches (reveals their seeds)", permissions=["abort"]
    )
    def abort_selected(
        self, request: HttpRequest, queryset: QuerySet[Match]
    ) -> TemplateResponse | None:
        """A page naming the matches to abort, whose button aborts those it names (as
        Django's delete asks first): an abort cannot be undone, and "select all" takes
        every match the list's filters find, pages beyond the one shown included."""
        if request.POST.get("post") != "yes":
            running = queryset.exclude(status__in=ENDED_STATUSES).order_by("-created_at")
            named = list(running[: self.ABORT_AT_ONCE + 1])
            context = {
                **self.admin_site.each_context(request),
                "title": "Abort matches",
                "opts": self.model._meta,
                "running": named[: self.ABORT_AT_ONCE],
                "ended": queryset.filter(status__in=ENDED_STATUSES).count(),
                "more": len(named) > self.ABORT_AT_ONCE,
                "at_once": self.ABORT_AT_ONCE,
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/golf/match/abort_selected.html", context)
        for match in queryset:
            try:
                match_abort(match_id=match.pk, user=request.user, reason="aborted in admin")
            except errors.ServiceError as exc:
                self.message_user(request, f"{match.pk}: {exc.detail}", messages.WARNING)
            else:  # (the admin log has it: matches.services.match_abort)
                self.message_user(request, f"{match.pk}: aborted", messages.SUCCESS)


def by_seat(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The view turned by seat, for the board templates (which cannot index a list): each
    seat's ``name`` and ``index``, and every list of the view with one entry per seat (the
    view's ``grids[2]`` is ``seats[2].grids``), also one level down (``premium.calls[2]``
    is ``seats[2].premium_calls``). A list that only happens to be as long as the seats
    comes along too; the templates use the keys their game's view documents.

    >>> view = {"totals": [3, 5], "phase": "draw", "premium": {"calls": [None, "pass"]}}
    >>> by_seat(view, ["0: ann", "1: bo"])[1]
    {'index': 1, 'name': '1: bo', 'totals': 5, 'premium_calls': 'pass'}
    """
    nested = {
        f"{key}_{inner}": value
        for key, part in view.items()
        if isinstance(part, dict)
        for inner, value in part.items()
    }
    lists = {
        k: v for k, v in {**view, **nested}.items() if isinstance(v, list) and len(v) == len(names)
    }
    return [
        {"index": i, "name": name, **{k: v[i] for k, v in lists.items()}}
        for i, name in enumerate(names)
    ]


def _seat_names(match: Match, count: int) -> list[str]:
    """Each seat's label: its player's name, a COM's level, or open."""
    names = [f"seat {i}" for i in range(count)]
    for seat in match.seats.select_related("user"):
        if seat.index < count:
            who = (
                seat.user.get_username()
                if seat.user_id
                else (f"COM {seat.com_level}" if seat.com_level else seat.kind)
            )
            names[seat.index] = f"{seat.index}: {who}"
    return names


@admin.register(MatchEvent)
class MatchEventAdmin(
    ActionsNeedPermission, FilterLookupsOnly, StaffMayRead, ReadOnlyMixin, admin.ModelAdmin
):
    extra_lookups = frozenset({"match__id__exact"})  # the match page's link to its events
    list_display = ("match", "seq", "type", "actor", "created_at")
    list_filter = (EventTypeFilter,)
    search_fields = ("match__id",)  # its id, however written (``get_search_results``)
    show_full_result_count = False  # (a count of every event of every match)
    fields = ("match", "seq", "type", "version", "actor", "created_at", "hash", "payload_pretty")
    readonly_fields = (*fields, "payload_whole")
    list_select_related = ("match",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[MatchEvent]:
        # a row's match without its whole state (once per row, a page of one match's)
        return super().get_queryset(request).defer("match__snapshot")

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[MatchEvent], search_term: str
    ) -> tuple[QuerySet[MatchEvent], bool]:
        """The events of one match (its page's link, or its id searched for): the list of
        every match's events would count and sort the whole log, which grows without end,
        on every load."""
        if not search_term:
            return (
                (queryset, False) if "match__id__exact" in request.GET else (queryset.none(), False)
            )
        match_id = searched_id(search_term)
        return (queryset.none() if match_id is None else queryset.filter(match_id=match_id)), False

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """An event's page, refusing the post-match audit (``?audit=1``) as the match's page
        does (:func:`audit_refused`; the request was ignored, a 200 with the redacted
        payload)."""
        event = self.get_object(request, unquote(object_id)) if wants_audit(request) else None
        refused = None if event is None else audit_refused(request, event.match, self.admin_site)
        if refused is not None:
            return refused
        return super().change_view(request, object_id, form_url, extra_context)

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        if not request.GET.get("q") and "match__id__exact" not in request.GET:
            message = "The events of one match: search for its id, or open them from its page."
            self.message_user(request, message, messages.INFO)
        return super().changelist_view(request, extra_context)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The stored payload only in the post-match audit (ended, permitted, asked for);
        the hash only where it tells nothing of a hidden payload (``chain_hashes_shown``)."""
        if obj is not None and may_audit(request, obj.match):
            return (*self.fields[:-1], "payload_whole")
        if obj is not None and not chain_hashes_shown(obj.match):
            return tuple(f for f in self.fields if f != "hash")
        return self.fields

    @admin.display(description="payload")
    def payload_pretty(self, obj: MatchEvent) -> str:
        """What a spectator may see (no seed, no stock order, no face-down card while the
        match runs; what the rules reveal once it has ended): staff see no more than
        players unless they open the post-match audit."""
        shown = shown_payload(obj, obj.match, whole=False)
        note = (
            "As a spectator sees it. The payload as stored: the post-match audit (?audit=1)."
            if obj.match.ended
            else "Hidden information is shown once the match has ended."
        )
        return format_html("<pre>{}</pre><p>{}</p>", json.dumps(shown, indent=2), note)

    @admin.display(description="payload (post-match audit: as stored)")
    def payload_whole(self, obj: MatchEvent) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.payload, indent=2))
