"""What Celery logs in ``make run``: the periodic sweep's routine lines are left out."""

from __future__ import annotations

import logging

import pytest
from celery.app.trace import LOG_RECEIVED, LOG_RETRY, LOG_SUCCESS

import config.celery  # noqa: F401 - installs the filter

SWEEP = "matches.tasks.sweep_stalled"
COM = "matches.tasks.play_com_turn"


def lines(caplog, logger, message, *args):
    caplog.clear()
    with caplog.at_level(logging.INFO):
        logging.getLogger(logger).info(message, *args)
    return [record.getMessage() for record in caplog.records]


@pytest.mark.parametrize("task", [SWEEP, COM])
def test_the_sweeps_routine_lines_are_left_out_and_others_kept(caplog, task):
    received = {"id": "t-1", "name": task, "args": "()", "kwargs": "{}", "eta": None}
    done = {"id": "t-1", "name": task, "runtime": 0.01, "return_value": 0}
    logged = [
        *lines(caplog, "celery.beat", "Scheduler: Sending due task %s (%s)", "entry", task),
        *lines(caplog, "celery.worker.strategy", LOG_RECEIVED, received),
        *lines(caplog, "celery.app.trace", LOG_SUCCESS, done),
    ]
    assert len(logged) == (0 if task == SWEEP else 3), logged


def test_a_sweeps_retry_and_failure_still_pass(caplog):
    retry = {"id": "t-2", "name": SWEEP, "exc": "OperationalError('database down')"}
    assert lines(caplog, "celery.app.trace", LOG_RETRY, retry)  # an INFO line too
    caplog.clear()
    with caplog.at_level(logging.INFO):
        logging.getLogger("celery.app.trace").error("Task %s[t-2] raised", SWEEP)
    assert [r.levelname for r in caplog.records] == ["ERROR"]
