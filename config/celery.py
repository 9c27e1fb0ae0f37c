"""The Celery application. Tasks are discovered in the installed apps' ``tasks`` modules."""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("golf")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# every worker writes a heartbeat the operators' dashboard shows (ops/heartbeat.py)
from ops.heartbeat import HeartbeatStep  # noqa: E402

app.steps["worker"].add(HeartbeatStep)


class QuietSweeps(logging.Filter):
    """Drops Celery's INFO lines about the periodic sweep (beat sending it, a worker
    receiving it and finishing it, every few seconds): they would bury every other line
    of ``make run``. What a sweep does is logged by the sweeper itself
    (``matches.tasks``), and its warnings and errors still pass."""

    ROUTINE = "matches.tasks.sweep_stalled"

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.INFO or self.ROUTINE not in record.getMessage()


for _name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
    logging.getLogger(_name).addFilter(QuietSweeps())
