"""The operators' dashboard in the admin (``/admin/ops/dashboard/``): staff only (the
admin site's login and staff check wrap both views, see ops/urls.py)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from matches.models import Match, MatchStatus
from ops import heartbeat, selectors, stats
from ops.services import Reenqueued, match_reenqueue

REENQUEUE_PERMISSION = "golf.reenqueue_match"
SLOWEST_ENDPOINTS = 10
CHART_WIDTH, CHART_HEIGHT, BAR = 600, 90, 10  # the per-minute chart, in SVG units


@dataclass(frozen=True)
class Bar:
    x: int
    y: float
    height: float
    label: str


def _bars(values: list[int], labels: list[str]) -> list[Bar]:
    """Bars of ``values`` scaled to the chart's height (the largest fills it)."""
    top = max(values, default=0) or 1
    bars = []
    for i, (value, label) in enumerate(zip(values, labels, strict=True)):
        height = CHART_HEIGHT * value / top
        bars.append(Bar(i * BAR, CHART_HEIGHT - height, height, f"{label}: {value}"))
    return bars


@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    hour = stats.last_hour(now=time.time())
    charts = []
    if hour is not None:
        labels = [m.start.strftime("%H:%M") for m in hour.minutes]
        for title, values in (
            ("Requests", [m.requests for m in hour.minutes]),
            ("Actions", [m.actions for m in hour.minutes]),
            ("Server errors (5xx)", [m.server_errors for m in hour.minutes]),
            ("Client errors (4xx)", [m.client_errors for m in hour.minutes]),
        ):
            charts.append(
                {"title": title, "bars": _bars(values, labels), "peak": max(values, default=0)}
            )
    outbox = selectors.outbox()
    context = {
        **admin.site.each_context(request),
        "title": "Operations dashboard",
        "now": now,
        "statuses": MatchStatus.values,
        "counts": selectors.match_counts(),
        "stall_seconds": settings.COM_STALL_SECONDS,
        "stalled": [
            {"item": s, "waiting": int(s.waiting_seconds(now))} for s in selectors.stalled()
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
        "chart": {"width": CHART_WIDTH, "height": CHART_HEIGHT, "bar": BAR - 2},
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
