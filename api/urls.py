import uuid

from django.urls import path, re_path, register_converter
from django.views.decorators.csrf import csrf_exempt

from api import views
from api.problems import no_such_match

app_name = "api"
# a match's id, in either case (a UUID's hex digits are one number however written)
UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


class MatchIdConverter:
    regex = UUID

    def to_python(self, value: str) -> uuid.UUID:
        return uuid.UUID(value)

    def to_url(self, value: uuid.UUID | str) -> str:
        return str(value)


register_converter(MatchIdConverter, "match_id")

urlpatterns = [
    path("accounts/register", views.RegisterView.as_view(), name="register"),
    path("auth/token", views.TokenView.as_view(), name="token"),
    path("me", views.MeView.as_view(), name="me"),
    path("me/password", views.PasswordView.as_view(), name="password"),
    path("games", views.GamesView.as_view(), name="games"),
    path("rulesets", views.RulesetsView.as_view(), name="rulesets"),
    path("matches", views.MatchListView.as_view(), name="matches"),
    path("matches/<match_id:match_id>", views.MatchDetailView.as_view(), name="match"),
    path("matches/<match_id:match_id>/join", views.JoinView.as_view(), name="join"),
    path("matches/<match_id:match_id>/abort", views.AbortView.as_view(), name="abort"),
    path("matches/<match_id:match_id>/leave", views.LeaveView.as_view(), name="leave"),
    path("matches/<match_id:match_id>/actions", views.ActionView.as_view(), name="actions"),
    path("matches/<match_id:match_id>/hint", views.HintView.as_view(), name="hint"),
    path("matches/<match_id:match_id>/events", views.EventsView.as_view(), name="events"),
    path("matches/<match_id:match_id>/stream", views.StreamView.as_view(), name="stream"),
    path(
        "matches/<match_id:match_id>/states/<int:version>", views.StateView.as_view(), name="state"
    ),
    path("matches/<match_id:match_id>/states/<str:version>", views.NoSuchVersionView.as_view()),
    path("matches/<match_id:match_id>/audit", views.AuditView.as_view(), name="audit"),
    path("matches/<match_id:match_id>/export", views.ExportView.as_view(), name="export"),
    # an id that is not a UUID names no match, under any of the paths above
    re_path(
        r"^matches/(?P<match_id>(?!" + UUID + r"(?:/|$))[^/]+)(?:/.*)?$",
        csrf_exempt(no_such_match),
    ),
]
