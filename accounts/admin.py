"""Admin for operators: accounts, and their moderation (docs/admin.md, "Moderation").

Staff holding ``accounts.suspend_user`` (superusers hold it) can suspend an account, with
a reason and a choice for its running matches (abort them, or hand its seats to a
``normal`` COM), and lift a suspension; staff without it see neither and get 403 when they
ask directly. Every suspension and lift is written to Django's admin log with the reason.
An account's page lists its matches and its recent actions, redacted as a spectator sees
them while a match runs.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.models import LogEntry
from django.contrib.admin.utils import unquote
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from rest_framework.authtoken.models import Token, TokenProxy

from accounts.models import RunningMatches, Suspension, User, validate_one_script
from accounts.moderation import (
    ModerationError,
    account_lift,
    account_suspend,
    may_suspend,
    running_seats,
)
from matches.admin import ActionsNeedPermission, FilterLookupsOnly
from matches.models import Match, MatchEvent, Seat
from matches.selectors import event_json
from matches.store import game_of

SUSPEND_PERMISSION = "accounts.suspend_user"
ACCOUNT_ID = re.compile(r"[0-9]{1,18}")  # ASCII digits, as many as a bigint holds
MATCHES_SHOWN = 20  # an account's matches on its page, the most recently updated first
ACTIONS_SHOWN = 30  # its recent actions, newest first, from those matches only


class SuspendForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=2000,
        help_text="why (staff only: never shown to players, nor written into a match's log)",
    )
    running = forms.ChoiceField(
        choices=RunningMatches.choices,
        widget=forms.RadioSelect,
        label="Its running matches",
        initial=RunningMatches.COM,
    )


class SuspensionInline(admin.TabularInline):
    model = Suspension
    fk_name = "user"
    extra = 0
    can_delete = False
    fields = ("created_at", "created_by", "reason", "running", "lifted_at", "lifted_by")
    readonly_fields = fields
    verbose_name_plural = "suspensions"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Suspension]:
        return super().get_queryset(request).select_related("user", "created_by", "lifted_by")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Whoever may read the account, or suspend it, reads its suspensions."""
        user = request.user
        return user.has_perm("accounts.view_user") or user.has_perm("accounts.suspend_user")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SuspendedFilter(admin.SimpleListFilter):
    title = "standing"
    parameter_name = "suspended"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "suspended"), ("no", "in good standing")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(suspended_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(suspended_at__isnull=True)
        return queryset


def account_matches(user: User) -> list[Match]:
    """The account's matches, most recently updated first: those it sits in or created,
    those it left or whose seat staff handed to a COM, and those its suspensions aborted
    (it no longer sits in these)."""
    # one list of ids from the indexes, not an OR (which reads every match ever stored)
    ids = Seat.objects.filter(user=user).values("match_id")
    ids = ids.union(
        Seat.objects.filter(handed_from=user).values("match_id"),
        Match.objects.filter(created_by=user).values("id"),
    )
    latest = Match.objects.order_by("-updated_at")
    found = {m.pk: m for m in latest.filter(pk__in=ids)[:MATCHES_SHOWN]}
    moderated = [m for s in user.suspensions.all() for m in s.matches]
    if moderated:
        found.update((m.pk, m) for m in latest.filter(pk__in=moderated)[:MATCHES_SHOWN])
    return sorted(found.values(), key=lambda m: m.updated_at, reverse=True)[:MATCHES_SHOWN]


def recent_actions(user: User, matches: list[Match]) -> list[tuple[Match, MatchEvent]]:
    """The account's last events (actor ``user:<id>:<seat>``, or ``user:<id>`` for a match's
    creation and in older logs) in ``matches``, newest first: one query bounded by those
    matches' logs."""
    actor = f"user:{user.pk}"
    rows = (
        MatchEvent.objects.filter(match__in=[m.pk for m in matches])
        .filter(Q(actor=actor) | Q(actor__startswith=f"{actor}:"))
        .order_by("-created_at", "-seq")[:ACTIONS_SHOWN]
    )
    by_id = {m.pk: m for m in matches}
    return [(by_id[row.match_id], row) for row in rows]


def shown_action(match: Match, row: MatchEvent) -> dict[str, Any]:
    """An event as a spectator sees it (the game's redaction); all of it once the match
    has ended (what the rules reveal then)."""
    data: dict[str, Any] = event_json(row, game_of(match), None, match.ended, match)["data"]
    return data


# DRF's own token admin (rest_framework.authtoken, listed before this app) shows every live
# token, each one a player's key to their hand: staff revoke tokens by suspending the
# account (accounts/moderation.py), and never read them.
admin.site.unregister(TokenProxy)


def _without_keys(listed: Any, keys: list[str]) -> Any:
    """Django's nested list of what a delete deletes, each token's key in it hidden."""
    if isinstance(listed, list):
        return [_without_keys(item, keys) for item in listed]
    text = str(listed)
    for key in keys:
        text = text.replace(key, "(its key is not shown)")
    return mark_safe(text) if isinstance(listed, SafeString) else text  # (safe as it was)


class OneScriptName(forms.ModelForm):  # type: ignore[type-arg]
    """A name given in the admin is of one script, as a registered one is
    (:func:`accounts.models.validate_one_script`); an account's old name is kept as it is."""

    def clean_username(self) -> str:
        clean = getattr(super(), "clean_username", None)
        name = clean() if clean is not None else self.cleaned_data["username"]
        if "username" in self.changed_data:
            validate_one_script(name)
        return str(name)


class AccountChangeForm(OneScriptName, auth_forms.UserChangeForm):  # type: ignore[type-arg]
    pass


class PasswordSetBySuperuser(auth_forms.ReadOnlyPasswordHashWidget):
    """The password's summary, without the link to set it (``AccountAdmin.sets_password``)."""

    template_name = "accounts/widgets/password_set_by_superuser.html"


class AccountCreationForm(OneScriptName, auth_forms.AdminUserCreationForm):  # type: ignore[type-arg]
    pass


@admin.register(User)
class AccountAdmin(FilterLookupsOnly, ActionsNeedPermission, UserAdmin):
    form = AccountChangeForm
    add_form = AccountCreationForm
    list_display = (*UserAdmin.list_display, "suspended_at")
    list_filter = (*UserAdmin.list_filter, SuspendedFilter)
    inlines = [SuspensionInline]
    readonly_fields = ("suspended_at", "matches_list", "actions_list")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Moderation", {"fields": ("suspended_at",)}),
        ("Matches and recent actions", {"fields": ("matches_list", "actions_list")}),
    )
    actions = ["suspend_selected", "lift_selected"]

    # --- permission ----------------------------------------------------------------------
    #: Who is staff or superuser and what they may do: a superuser's to change. Staff
    #: holding ``change_user`` (a moderator) could otherwise make themselves superuser. And
    #: whether an account is active: shutting a player out is a suspension's (with its
    #: reason and record, its tokens revoked, its matches seen to), not a box unticked.
    PRIVILEGES = ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if request.user.is_superuser else (*fields, *self.PRIVILEGES)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Another operator's account (a superuser's among them) is a superuser's to change,
        its password too: a moderator changes players' accounts and its own."""
        if self._another_operators(request, obj):
            return False
        return bool(super().has_change_permission(request, obj))

    @staticmethod
    def sets_password(request: HttpRequest, obj: Any) -> bool:
        """Whether the operator may set ``obj``'s password: its own, or as a superuser any.
        Whoever sets a player's password can log in as the player and see their hand, so a
        moderator, who sees no more than a spectator, does not (docs/admin.md)."""
        return bool(request.user.is_superuser or obj.pk == request.user.pk)

    def user_change_password(self, request: HttpRequest, id: str, form_url: str = "") -> Any:
        user = self.get_object(request, unquote(id))
        if user is not None and not self.sets_password(request, user):
            raise PermissionDenied("only a superuser sets another account's password")
        return super().user_change_password(request, id, form_url)

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, **kwargs)
        field = form.base_fields.get("password")
        if obj is not None and field is not None and not self.sets_password(request, obj):
            field = copy.deepcopy(field)  # (the class's own field is every form's)
            field.widget = PasswordSetBySuperuser()
            form.base_fields["password"] = field
        return form

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """... and to delete."""
        if self._another_operators(request, obj):
            return False
        return bool(super().has_delete_permission(request, obj))

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, ...]:
        """What deleting ``objs`` deletes, as Django lists it on the confirmation page, with
        two changes. No token's key is shown: a token prints as its key, and one read there
        let staff who may delete accounts act as the player. And an account with entries in
        the admin's log (an operator's record of what it aborted, verified or suspended) is
        protected: they would go with it (``LogEntry.user`` cascades)."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        keys = list(Token.objects.filter(user__in=objs).values_list("key", flat=True))
        logged = (
            LogEntry.objects.filter(user__in=objs)
            .values_list("user__username")
            .annotate(entries=Count("pk"))
            .order_by("user__username")
        )
        kept = [
            format_html(
                "The admin's log: {} {} by {} (kept: suspend the account)",
                n,
                "entry" if n == 1 else "entries",
                name,
            )
            for name, n in logged
        ]
        return _without_keys(deleted, keys), counts, perms_needed, [*protected, *kept]

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        """The list's bulk delete takes the same care as the page's (Django asks only for
        the permission on the model)."""
        if any(self._another_operators(request, user) for user in queryset):
            raise PermissionDenied("another operator's account is a superuser's to delete")
        super().delete_queryset(request, queryset)

    @staticmethod
    def _another_operators(request: HttpRequest, obj: Any) -> bool:
        """``obj`` is an account of another staff member or superuser, and the operator no
        superuser."""
        operator = request.user
        if obj is None or operator.is_superuser or obj.pk == operator.pk:
            return False
        return bool(obj.is_staff or obj.is_superuser)

    def has_suspend_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(SUSPEND_PERMISSION))

    def _require_suspend(self, request: HttpRequest) -> None:
        if not self.has_suspend_permission(request):
            raise PermissionDenied

    # --- the page ------------------------------------------------------------------------
    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("suspend/", view(self.suspend_view), name="accounts_user_suspend"),
            path("<path:object_id>/lift/", view(self.lift_view), name="accounts_user_lift"),
            *super().get_urls(),
        ]

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> Any:
        # Suspend… (or Lift) offered only where it can be done: not on the operator's own
        # account, nor, to staff who are not superusers, on another operator's
        context["can_suspend"] = obj is not None and may_suspend(request.user, obj) is None
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _matches(self, obj: User) -> list[Match]:
        cached: list[Match] | None = getattr(obj, "_admin_matches", None)
        if cached is None:
            cached = account_matches(obj)
            obj._admin_matches = cached  # type: ignore[attr-defined]
        return cached

    @admin.display(description="matches")
    def matches_list(self, obj: User) -> str:
        if obj.pk is None:
            return "-"
        matches = self._matches(obj)
        if not matches:
            return "none"
        rows = format_html_join(
            "",
            '<li><a href="{}">{}</a> {} {} ({}), updated {}</li>',
            (
                (
                    reverse("admin:golf_match_change", args=[m.pk]),
                    m.pk,
                    m.game,
                    m.preset,
                    m.status,
                    f"{m.updated_at:%Y-%m-%d %H:%M}",
                )
                for m in matches
            ),
        )
        return format_html('<ul class="account-matches">{}</ul>', rows)

    @admin.display(description="recent actions")
    def actions_list(self, obj: User) -> str:
        if obj.pk is None:
            return "-"
        actions = recent_actions(obj, self._matches(obj))
        if not actions:
            return "none"
        rows = format_html_join(
            "",
            '<li>{} <a href="{}">{}</a> #{} {}<pre>{}</pre></li>',
            (
                (
                    f"{row.created_at:%Y-%m-%d %H:%M:%S}",
                    reverse("admin:golf_match_change", args=[match.pk]),
                    match.pk,
                    row.seq,
                    row.type,
                    json.dumps(shown_action(match, row), indent=1),
                )
                for match, row in actions
            ),
        )
        note = "While a match runs, its events are shown as a spectator sees them."
        return format_html('<ol class="account-actions">{}</ol><p>{}</p>', rows, note)

    # --- suspending ------------------------------------------------------------------------
    @admin.action(description="Suspend the selected accounts…", permissions=["suspend"])
    def suspend_selected(
        self, request: HttpRequest, queryset: QuerySet[User]
    ) -> HttpResponse | None:
        """The suspension form for the selected accounts (it posts to the suspend view)."""
        users = list(queryset.order_by("pk"))
        if not users:  # deleted since the list was shown: back to it, its filters kept
            self.message_user(request, "No account to suspend was named.", messages.WARNING)
            return None
        return self._suspend_page(request, users, SuspendForm())

    @admin.action(description="Lift the selected accounts' suspensions", permissions=["suspend"])
    def lift_selected(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset.filter(suspended_at__isnull=False):
            self._lift(request, user)

    def _users(self, request: HttpRequest) -> list[User]:
        raw = request.POST.get("ids") or request.GET.get("ids") or ""
        ids = [int(part) for part in raw.split(",") if ACCOUNT_ID.fullmatch(part.strip())]
        return list(User.objects.filter(pk__in=ids).order_by("pk"))

    def suspend_view(self, request: HttpRequest) -> HttpResponse:
        """The form of a suspension (a reason, the running matches' fate) for the accounts
        named by ``ids``; on a valid POST, suspend each of them."""
        self._require_suspend(request)
        users = self._users(request)
        if not users:
            self.message_user(request, "No account to suspend was named.", messages.WARNING)
            return self._back(request, users)
        form = SuspendForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            for user in users:
                self._suspend(request, user, form.cleaned_data)
            return self._back(request, users)
        return self._suspend_page(request, users, form)

    def _back(self, request: HttpRequest, users: list[User]) -> HttpResponse:
        """After a suspension or a lift: the account's page (the list, for several), or,
        for staff who may suspend but not see accounts, the admin's index (with the
        messages that say what was done)."""
        if len(users) == 1 and self.has_view_or_change_permission(request, users[0]):
            return HttpResponseRedirect(reverse("admin:accounts_user_change", args=[users[0].pk]))
        if self.has_view_or_change_permission(request):
            return HttpResponseRedirect(reverse("admin:accounts_user_changelist"))
        return HttpResponseRedirect(reverse("admin:index"))

    def _suspend_page(self, request: HttpRequest, users: list[User], form: Any) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": "Suspend accounts" if len(users) > 1 else f"Suspend {users[0].username}",
            "opts": self.model._meta,
            "form": form,
            "ids": ",".join(str(u.pk) for u in users),
            "accounts": [
                {
                    "user": u,
                    "refusal": may_suspend(request.user, u)
                    or ("already suspended" if u.is_suspended else None),
                    "running": len(running_seats(u)),
                }
                for u in users
            ],
        }
        return TemplateResponse(request, "admin/accounts/user/suspend.html", context)

    def _suspend(self, request: HttpRequest, user: User, data: dict[str, Any]) -> None:
        try:
            result = account_suspend(
                user=user, by=request.user, reason=data["reason"], running=data["running"]
            )
        except ModerationError as exc:
            self.message_user(request, f"{user.username}: {exc}", messages.ERROR)
            return
        running = RunningMatches(data["running"])
        done = "aborted" if running == RunningMatches.ABORT else "handed to a normal COM"
        watched = f", {len(result.watched)} made to watch, playing on" if result.watched else ""
        summary = (
            f"Suspended; reason: {result.suspension.reason}; running matches: {running.label} "
            f"({len(result.handled)} {done}, {len(result.skipped)} skipped{watched}); "
            f"{result.tokens_revoked} token(s) revoked"
        )
        self.log_change(request, user, summary)
        self.message_user(request, f"{user.username}: {summary}", messages.SUCCESS)
        for match_id, why in result.skipped.items():
            note = f"{user.username}: match {match_id}: {why}"
            self.message_user(request, note, messages.WARNING)

    # --- lifting ---------------------------------------------------------------------------
    def lift_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Lift the account's suspension (POST; the button on its page)."""
        self._require_suspend(request)
        if not ACCOUNT_ID.fullmatch(object_id):
            raise Http404("no such account")
        user = get_object_or_404(User, pk=object_id)
        if request.method == "POST":
            self._lift(request, user)
        return self._back(request, [user])

    def _lift(self, request: HttpRequest, user: User) -> None:
        try:
            suspension = account_lift(user=user, by=request.user)
        except ModerationError as exc:
            self.message_user(request, f"{user.username}: {exc}", messages.ERROR)
            return
        summary = (
            f"Lifted the suspension of {suspension.created_at:%Y-%m-%d %H:%M} "
            f"(reason: {suspension.reason}); the account may log in again"
        )
        self.log_change(request, user, summary)
        self.message_user(request, f"{user.username}: {summary}", messages.SUCCESS)
