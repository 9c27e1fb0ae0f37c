"""The dashboard's pages, under ``/admin/ops/`` (config/urls.py), behind the admin's
login and staff check."""

from django.contrib import admin
from django.urls import path

from ops import views

app_name = "ops"

urlpatterns = [
    path("dashboard/", admin.site.admin_view(views.dashboard), name="dashboard"),
    path(
        "dashboard/reenqueue/<uuid:match_id>/",
        admin.site.admin_view(views.reenqueue),
        name="reenqueue",
    ),
]
