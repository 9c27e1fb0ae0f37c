"""The operators' dashboard in the admin (``/admin/ops/dashboard/``): staff only (the
admin site's login and staff check wrap both views, see ops/urls.py)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_POST, require_safe

from matches.models import Match, MatchStatus
from ops import heartbeat, selectors, stats
from ops.services import Reenqueued, match_reenqueue

REENQUEUE_PERMISSION = "golf.reenqueue_match"
SLOWEST_ENDPOINTS = 10
CHART_WIDTH, CHART_HEIGHT, BAR = 600, 90, 10  # the per-minute chart, in SVG units


def _chart(title: str, values: list[int], labels: list[str]) -> SafeString:
    """An inline SVG bar chart of ``values`` (one bar a minute, the largest filling the
    height), each bar titled with its minute and value. Built here with plain formatting,
    in one pass: every part is a number or a time of day of ours (nothing to escape), and
    the template language is slow over 240 bars."""
    top = max(values, default=0) or 1
    bars = []
    for i, (value, label) in enumerate(zip(values, labels, strict=True)):
        h = CHART_HEIGHT * value / top
        bars.append(
            f'<rect x="{i * BAR}" y="{CHART_HEIGHT - h:.1f}" width="{BAR - 2}" '
            f'height="{h:.1f}"><title>{label}: {value}</title></rect>'
        )
    return format_html(
        '<svg class="ops-chart" role="img" aria-label="{} per minute" width="{}" height="{}" '
        'viewBox="0 0 {} {}">{}</svg>',
        title,
        CHART_WIDTH,
        CHART_HEIGHT,
        CHART_WIDTH,
        CHART_HEIGHT,
        mark_safe("".join(bars)),  # numbers and HH:MM only (above)
    )


def _minutes_table(hour: stats.Hour) -> SafeString:
    rows = [
        f'<tr><td>{m.start:%H:%M}</td><td class="num">{m.requests}</td>'
        f'<td class="num">{m.actions}</td><td class="num">{m.server_errors}</td>'
        f'<td class="num">{m.client_errors}</td></tr>'
        for m in hour.minutes
    ]
    return mark_safe("".join(rows))  # integers and HH:MM only


def _by_match(url_name: str) -> Callable[[str], str]:
    """``url_name``'s URL for a match id, reversed once (a hundred rows would reverse it
    a hundred times)."""
    placeholder = "00000000-0000-0000-0000-000000000000"
    pattern = reverse(url_name, args=[placeholder])
    return lambda match_id: pattern.replace(placeholder, match_id)


@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    hour = stats.last_hour(now=time.time())
    charts, minutes = [], None
    if hour is not None:
        labels = [m.start.strftime("%H:%M") for m in hour.minutes]
        for title, values, errors in (
            ("Requests", [m.requests for m in hour.minutes], False),
            ("Actions", [m.actions for m in hour.minutes], False),
            ("Server errors (5xx)", [m.server_errors for m in hour.minutes], True),
            ("Client errors (4xx)", [m.client_errors for m in hour.minutes], True),
        ):
            charts.append(
                {
                    "title": title,
                    "svg": _chart(title, values, labels),
                    "peak": max(values, default=0),
                    "errors": errors,
                }
            )
        minutes = _minutes_table(hour)
    outbox = selectors.outbox()
    match_url, reenqueue_url = _by_match("admin:golf_match_change"), _by_match("ops:reenqueue")
    context = {
        **admin.site.each_context(request),
        "title": "Operations dashboard",
        "now": now,
        "statuses": MatchStatus.values,
        "counts": selectors.match_counts(),
        "stall_seconds": settings.COM_STALL_SECONDS,
        "stalled": [
            {
                "item": s,
                "waiting": int(s.waiting_seconds(now)),
                "url": match_url(s.match_id),
                "reenqueue_url": reenqueue_url(s.match_id),
            }
            for s in selectors.stalled()
        ],
        "stalled_limit": selectors.STALLED_LIMIT,
        "can_reenqueue": request.user.has_perm(REENQUEUE_PERMISSION),
        "queues": selectors.queue_lengths(),
        "workers": heartbeat.workers(),
        "stale_after": int(heartbeat.STALE_SECONDS),
        "outbox": outbox,
        "outbox_age": (now - outbox.oldest_due_at).total_seconds()
        if outbox.oldest_due_at
        else None,
        "hour": hour,
        "charts": charts,
        "minutes": minutes,
        "slowest": hour.endpoints[:SLOWEST_ENDPOINTS] if hour is not None else [],
    }
    return render(request, "ops/dashboard.html", context)


@require_POST
def reenqueue(request: HttpRequest, match_id: uuid.UUID) -> HttpResponse:
    """Re-publish the task a stalled match waits for (needs ``golf.reenqueue_match``)."""
    if not request.user.has_perm(REENQUEUE_PERMISSION):
        raise PermissionDenied
    try:
        result = match_reenqueue(match_id=match_id, user=request.user)  # type: ignore[arg-type]
    except Match.DoesNotExist:
        raise Http404("no such match") from None
    if result in (Reenqueued.COM, Reenqueued.TIMER):
        what = "COM turn" if result == Reenqueued.COM else "turn timer"
        messages.success(request, f"Re-enqueued the {what} of match {match_id}.")
    elif result == Reenqueued.BROKER_AWAY:
        messages.error(request, f"The broker did not take the task of match {match_id}.")
    else:
        messages.warning(request, f"Match {match_id} waits on no worker: nothing to re-enqueue.")
    return HttpResponseRedirect(reverse("ops:dashboard"))
