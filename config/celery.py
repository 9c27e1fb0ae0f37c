"""The Celery application. Tasks are discovered in the installed apps' ``tasks`` modules."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("golf")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# every worker writes a heartbeat the operators' dashboard shows (ops/heartbeat.py)
from ops.heartbeat import HeartbeatStep  # noqa: E402

app.steps["worker"].add(HeartbeatStep)
