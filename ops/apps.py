from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "operations"

    def ready(self) -> None:
        from django.contrib import admin

        # the admin's home page links to the dashboard (ops/templates/ops/admin_index.html)
        admin.site.index_template = "ops/admin_index.html"
