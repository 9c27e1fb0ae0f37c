from django.apps import AppConfig


class GolfConfig(AppConfig):
    name = "golf"
    default_auto_field = "django.db.models.BigAutoField"
