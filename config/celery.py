"""The Celery application. Tasks are discovered in the installed apps' ``tasks`` modules."""

import logging
import os
from collections.abc import Mapping

from celery import Celery
from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("golf")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def set_eager(value: bool) -> None:
    """Run tasks here and now (``True``: tests, benchmarks) or send them to the broker.
    Both spellings: with the ``CELERY`` namespace, celery 5.6 reads the setting's own
    name (``CELERY_TASK_ALWAYS_EAGER``) before ``task_always_eager``, so setting only the
    latter changed nothing."""
    app.conf.task_always_eager = value
    app.conf.CELERY_TASK_ALWAYS_EAGER = value


# every worker writes a heartbeat the operators' dashboard shows (ops/heartbeat.py)
from ops.heartbeat import HeartbeatStep  # noqa: E402

app.steps["worker"].add(HeartbeatStep)


class QuietSweeps(logging.Filter):
    """Drops three of Celery's INFO lines about the periodic sweep (beat sending it, a
    worker receiving it, and its success), which come every few seconds and would bury
    every other line: what a sweep does is logged by the sweeper itself
    (``matches.tasks``), and any other line about it (a retry, a failure) passes."""

    ROUTINE = "matches.tasks.sweep_stalled"
    SENT = "Scheduler: Sending due task %s (%s)"  # celery.beat's, with (entry, task)

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if record.msg == self.SENT and isinstance(args, tuple) and len(args) == 2:
            return args[1] != self.ROUTINE
        if record.msg in (LOG_RECEIVED, LOG_SUCCESS) and isinstance(args, Mapping):
            return args.get("name") != self.ROUTINE
        return True


class UntimedComDecisions(logging.Filter):
    """Drops the two Celery INFO lines whose moments tell how long a COM took to decide
    (docs/security.md): a COM turn's success (its runtime, and its moment, the decision's
    end) and the receipt of the task that writes the move it kept (sent the moment the
    decision ended). A forced move is decided at once, a free one not, so those times
    would tell what the even timing of COM moves hides. What is left of a COM turn in the
    log: its receipt, and the success of its move's write, at the even time; any retry or
    failure passes."""

    DECIDES = "matches.tasks.play_com_turn"
    WRITES = "matches.tasks.write_com_move"

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not isinstance(args, Mapping):
            return True
        if record.msg == LOG_SUCCESS:
            return args.get("name") != self.DECIDES
        if record.msg == LOG_RECEIVED:
            return args.get("name") != self.WRITES
        return True


for _name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
    logging.getLogger(_name).addFilter(QuietSweeps())
for _name in ("celery.worker.strategy", "celery.app.trace"):
    logging.getLogger(_name).addFilter(UntimedComDecisions())
