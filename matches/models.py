"""The match store: an append-only event log per match, and caches derived from it.

``MatchEvent`` rows are the truth. ``Match`` read-model columns, its state snapshot and
``Seat.to_act`` are caches that replaying the log can always rebuild. Every table that
grows with play is keyed by match, so the store can be partitioned or sharded by match
id later without a redesign.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.db.models import Q


class MatchStatus(models.TextChoices):
    WAITING = "waiting", "waiting for players"
    ACTIVE = "active", "active"
    FINISHED = "finished", "finished"
    ABORTED = "aborted", "aborted"


ENDED_STATUSES = (MatchStatus.FINISHED, MatchStatus.ABORTED)


class Match(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=32, default="golf", help_text="the registry's name")
    preset = models.CharField(max_length=32)
    rules = models.JSONField(help_text="the resolved rules, every option")
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.WAITING
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="created_matches",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="events in the log")
    seed_commitment = models.CharField(max_length=64, help_text="SHA-256 of the secret seed")
    last_hash = models.CharField(
        max_length=64, blank=True, help_text="hash of the last event: where the chain goes on"
    )
    chain_key_id = models.CharField(
        max_length=32,
        blank=True,
        help_text="the key of the log's keyed hash chain; empty for an older, unkeyed chain",
    )
    # match options that are not game rules
    hints_enabled = models.BooleanField(default=True)
    turn_timeout = models.PositiveIntegerField(
        null=True, blank=True, help_text="seconds a human may take for a turn"
    )
    round_pause_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="seconds the pause after a round waits for the humans to say they are "
        "ready before the server says it for them; null: it waits for them",
    )
    local = models.BooleanField(
        default=False, help_text="pass-and-play: the creator plays every human seat"
    )
    # read model, rebuilt from the log on every write
    round = models.PositiveSmallIntegerField(default=0, help_text="read model: 1-based")
    rounds = models.PositiveSmallIntegerField(default=0, help_text="read model: rounds planned")
    phase = models.CharField(max_length=16, default="")
    totals = models.JSONField(default=list)
    winners = models.JSONField(default=list)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    com_turns_charged_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,  # (an id to count by: no constraint, no index to keep)
        db_constraint=False,
        db_index=False,
        related_name="+",
        help_text="the account whose move the COMs' next turns answer (the last to act or "
        "join): they count toward its COM_TURNS_PER_MINUTE; empty: the creator's",
    )
    seat_users = models.JSONField(
        default=list, help_text="read model: each seat's user id, null for a COM or open seat"
    )
    seats_to_act = models.JSONField(
        default=list,
        help_text="read model: the seats that must act, written with the version and snapshot "
        "(Seat.to_act holds the same for filtering)",
    )
    # a cache of the engine state after ``snapshot_version`` events; a replay rebuilds it
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    snapshot_version = models.PositiveIntegerField(default=0)
    # (a default in the database too: processes of the release before, still writing
    # while a deploy runs, insert matches without it; no CHECK that would scan the table)
    snapshot_engine = models.SmallIntegerField(
        default=1,
        db_default=1,
        help_text="the version of the game's engine that wrote the snapshot: one of another "
        "version is not read (the log is replayed instead)",
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-updated_at"], name="golf_match_status_idx"),
            models.Index(fields=["preset", "-created_at"], name="golf_match_preset_idx"),
            models.Index(fields=["game", "-created_at"], name="golf_match_game_idx"),
            # the operators' dashboard (ops/selectors.py): counts by game and status from
            # the index alone, and the active matches by turn start with what the stall
            # check reads
            models.Index(fields=["game", "status"], name="golf_match_game_status_idx"),
            models.Index(
                fields=["turn_started_at"],
                include=["id", "game", "version", "phase", "turn_timeout", "round_pause_seconds"],
                condition=Q(status="active"),
                name="golf_match_active_turn_idx",
            ),
        ]
        verbose_name_plural = "matches"
        # What operators may do beyond reading (the admin shows an action only to staff
        # holding its permission; superusers hold them all).
        permissions = [
            ("verify_match", "Can verify a match's event log"),
            ("abort_match", "Can abort a match"),
            ("reenqueue_match", "Can re-enqueue a stalled match's COM turn or timer"),
            ("view_match_audit", "Can open a finished match's audit (every card revealed)"),
            ("hand_over_seat", "Can hand a player's seat of a running match to a COM"),
        ]

    def __str__(self) -> str:
        return f"{self.preset} match {self.id} ({self.status})"

    @property
    def ended(self) -> bool:
        return self.status in ENDED_STATUSES

    def seat_of_user(self, user_id: object, to_act: Sequence[int] | None = None) -> int | None:
        """The seat index of the user with ``user_id``, from the seats read model. In a
        local match the user holds every human seat and plays the one whose turn it is
        (the first of them to act, else the first of them): to act now, or in ``to_act``
        (the seats to act at an earlier version)."""
        if user_id is None or user_id not in self.seat_users:
            return None
        mine = [i for i, uid in enumerate(self.seat_users) if uid == user_id]
        to_act = self.seats_to_act if to_act is None else to_act
        return next((i for i in mine if i in to_act), mine[0])


class SeatKind(models.TextChoices):
    HUMAN = "human", "human"
    COM = "com", "computer"
    OPEN = "open", "open (waiting for a human)"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=SeatKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    com_level = models.CharField(
        max_length=16, blank=True, help_text="a COM's level, one of its game's levels"
    )
    to_act = models.BooleanField(default=False, help_text="read model: this seat must act")
    joined_at = models.DateTimeField(null=True, blank=True)
    shared = models.BooleanField(
        default=False, help_text="a human seat of a local match: its user holds the others too"
    )
    handed_from = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the player who held this seat before a COM: who left it, or whose seat "
        "staff handed over",
    )

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="golf_seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=Q(user__isnull=False, shared=False),
                name="golf_seat_one_per_user",
            ),
            models.CheckConstraint(
                condition=(Q(kind="human") & Q(user__isnull=False))
                | (Q(kind="com") & Q(user__isnull=True) & ~Q(com_level=""))
                | (Q(kind="open") & Q(user__isnull=True)),
                name="golf_seat_kind_consistent",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "to_act"], name="golf_seat_user_idx"),
            # the matches waiting on a COM (the dashboard's stall check): a few rows
            models.Index(
                fields=["match"],
                condition=Q(kind="com", to_act=True),
                name="golf_seat_com_turn_idx",
            ),
        ]

    def __str__(self) -> str:
        who = self.user or self.com_level or "open"
        return f"seat {self.index}: {who}"


class MatchEvent(models.Model):
    """One event of a match's log. Rows are never changed or deleted (a trigger enforces it)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(help_text="1, 2, 3, ... within the match")
    type = models.CharField(max_length=40)
    version = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    actor = models.CharField(
        max_length=64, help_text="who caused it: user:<id>, com:<level>, timer, system, staff:<id>"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="golf_event_unique_seq"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="golf_event_seq_from_one"),
        ]
        indexes = [
            # the moves a turn timer made (a player's view lists its own): few of a log
            models.Index(
                fields=["match", "seq"],
                name="golf_event_timer_idx",
                condition=Q(actor__startswith="timer"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} #{self.seq} {self.type}"


class IdempotencyRecord(models.Model):
    """The first result of an action submitted with an idempotency key."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="idempotency")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=128)
    request_hash = models.CharField(max_length=64)
    first_seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "user", "key"], name="golf_idempotency_unique_key"
            ),
        ]

    def __str__(self) -> str:
        return f"idempotency key {self.key} on {self.match_id}"


class FollowUpKind(models.TextChoices):
    COM = "com", "a COM's turn"
    TIMER = "timer", "a turn timer"


class FollowUp(models.Model):
    """The outbox: work a write hands to the workers (a COM turn, a turn timer).

    It is inserted by the same statement as the events it follows, so it is never lost
    when the broker is down; published after the commit, and published again by the
    sweeper (``next_attempt_at``) until the match moves past ``version``, whose write
    deletes it. A task run twice does no harm: it acts only at ``version``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="followups")
    version = models.PositiveIntegerField(help_text="the match version the work is for")
    kind = models.CharField(max_length=8, choices=FollowUpKind.choices)
    queue = models.CharField(max_length=32, help_text="the Celery queue it goes to")
    due_at = models.DateTimeField(help_text="when the work should run")
    next_attempt_at = models.DateTimeField(help_text="when the sweeper publishes it again")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="sweeper publications")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version", "kind"], name="golf_followup_unique"
            ),
        ]
        indexes = [models.Index(fields=["next_attempt_at"], name="golf_followup_due_idx")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.match_id} at version {self.version}"
