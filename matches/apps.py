from django.apps import AppConfig


class MatchesConfig(AppConfig):
    """The match store. Its label stays ``golf``, the name of the service's first game:
    the tables (``golf_match``, ``golf_matchevent``, ...) and the migration history of
    existing databases are this app's."""

    name = "matches"
    label = "golf"
    verbose_name = "Matches"
    default_auto_field = "django.db.models.BigAutoField"
