from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from api.health import healthz, readyz
from api.openapi import RedocView, SchemaView, SwaggerView
from api.problems import not_found
from api.throttling import address_wait
from config.web import WEB_CLIENT_POLICY


@require_safe
def web_client(request: HttpRequest) -> HttpResponse:
    """The web client's page (web/index.html): static, it renders nothing of a match; its
    modules read everything from the public API."""
    page = (settings.WEB_CLIENT_DIR / "index.html").read_bytes()
    response = HttpResponse(page, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Content-Security-Policy"] = WEB_CLIENT_POLICY
    return response


def admin_login(request: HttpRequest, extra_context: Any = None) -> HttpResponse:
    """The admin's log-in form, its posts counted per address with the API's log-ins (the
    ``auth`` rate): each checks a password (a slow hash by design), and the form's were
    bounded only by the guard's count of failures, which a right password never adds to."""
    if request.method == "POST" and (wait := address_wait(request, "auth")) is not None:
        response = HttpResponse(
            f"Too many log-ins from this address: retry in {wait} s.\n",
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = str(wait)
        return response
    return admin.site.login(request, extra_context)


urlpatterns = [
    path("", web_client, name="web-client"),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("admin/ops/", include("ops.urls")),  # the operators' dashboard (ops/)
    path("admin/login/", admin_login),
    path("admin/", admin.site.urls),
    # the schema and its pages with or without a trailing slash (the API's own paths
    # have none)
    re_path(r"^api/schema/?$", SchemaView.as_view(), name="schema"),
    re_path(r"^api/docs/?$", SwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    re_path(
        r"^api/redoc/?$",
        RedocView.as_view(url_name="schema", template_name="api/redoc.html"),
        name="redoc",
    ),
    path("api/", include("api.urls")),
    # every unknown API path: problem+json, never HTML (and 404 before any CSRF check)
    re_path(r"^api(?:/.*)?$", csrf_exempt(not_found)),
]

handler400 = "api.problems.bad_request"
handler403 = "api.problems.forbidden"
handler404 = "api.problems.not_found"
handler500 = "api.problems.server_error"
