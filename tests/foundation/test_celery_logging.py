"""What Celery logs in ``make run``: the periodic sweep's routine lines are left out, and
so are the lines whose moments tell how long a COM took to decide."""

from __future__ import annotations

import logging

from celery.app.trace import LOG_FAILURE, LOG_RECEIVED, LOG_RETRY, LOG_SUCCESS

import config.celery  # noqa: F401 - installs the filter

SWEEP = "matches.tasks.sweep_stalled"
COM = "matches.tasks.play_com_turn"
WRITE = "matches.tasks.write_com_move"
TIMER = "matches.tasks.turn_timer"


def lines(caplog, logger, message, *args):
    caplog.clear()
    with caplog.at_level(logging.INFO):
        logging.getLogger(logger).info(message, *args)
    return [record.getMessage() for record in caplog.records]


def routine_lines(caplog, task):
    """Celery's three routine INFO lines about ``task`` (beat sends it, a worker receives
    it, it succeeds), those that are logged."""
    received = {"id": "t-1", "name": task, "args": "()", "kwargs": "{}", "eta": None}
    done = {"id": "t-1", "name": task, "runtime": 0.01, "return_value": 0}
    return [
        *lines(caplog, "celery.beat", "Scheduler: Sending due task %s (%s)", "entry", task),
        *lines(caplog, "celery.worker.strategy", LOG_RECEIVED, received),
        *lines(caplog, "celery.app.trace", LOG_SUCCESS, done),
    ]


def test_the_sweeps_routine_lines_are_left_out_and_others_kept(caplog):
    assert routine_lines(caplog, SWEEP) == []
    assert len(routine_lines(caplog, TIMER)) == 3


def test_no_line_marks_the_end_of_a_com_decision(caplog):
    # a COM turn's task is received before it decides, and logs no success (its runtime
    # and its moment are the decision's); the write of the move it kept is received the
    # moment the decision ended, so its receipt is not logged, only its success, which
    # comes at the even time
    decided = routine_lines(caplog, COM)
    assert len(decided) == 2 and decided[1].endswith("received")
    assert not any("succeeded" in line for line in decided)
    written = routine_lines(caplog, WRITE)
    assert len(written) == 2 and "succeeded in" in written[1]
    assert not any("received" in line for line in written)


def test_a_com_turns_retry_and_failure_still_pass(caplog):
    retry = {"id": "t-3", "name": COM, "exc": "OperationalError('database down')"}
    assert lines(caplog, "celery.app.trace", LOG_RETRY, retry)
    failed = {"id": "t-3", "name": COM, "description": "raised unexpected", "exc": "KeyError"}
    caplog.clear()
    with caplog.at_level(logging.INFO):
        logging.getLogger("celery.app.trace").error(LOG_FAILURE, failed)
    assert [r.levelname for r in caplog.records] == ["ERROR"]


def test_a_sweeps_retry_and_failure_still_pass(caplog):
    retry = {"id": "t-2", "name": SWEEP, "exc": "OperationalError('database down')"}
    assert lines(caplog, "celery.app.trace", LOG_RETRY, retry)  # an INFO line too
    caplog.clear()
    with caplog.at_level(logging.INFO):
        logging.getLogger("celery.app.trace").error("Task %s[t-2] raised", SWEEP)
    assert [r.levelname for r in caplog.records] == ["ERROR"]
