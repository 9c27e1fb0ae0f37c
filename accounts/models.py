"""Accounts: players, operators and admins."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

#: The longest canonical form stored (case folding and NFKC can lengthen a name).
CANONICAL_MAX = 600


def canonical_username(name: str) -> str:
    """The form two usernames must not share: NFKC, case-folded (Unicode's caseless
    identifier matching). ``bob1``, ``BOB1`` and
    their full-width twins are one name."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


#: The scripts a name may mix (Unicode TR39's "highly restrictive" level): Latin with the
#: scripts of Japanese, of Chinese, or of Korean. Any other name is of one script.
MIXABLE_SCRIPTS = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)
#: Letters whose Unicode name does not begin with their script's.
_SCRIPT_OF_WORD = {"IDEOGRAPHIC": "CJK", "KATAKANA-HIRAGANA": "KATAKANA", "MODIFIER": ""}


def scripts_of(name: str) -> set[str]:
    """The scripts of the letters of ``name`` (after NFKC), each named by the first word of
    the letters' Unicode names (``LATIN``, ``CYRILLIC``, ``GREEK``, ``CJK``, ...); digits,
    marks and ``@ . + - _`` have none."""
    scripts = set()
    for char in unicodedata.normalize("NFKC", name):
        if char.isalpha():
            word = unicodedata.name(char, "").split(" ")[0]
            scripts.add(_SCRIPT_OF_WORD.get(word, word))
    scripts.discard("")
    return scripts


MIXED_SCRIPTS = "mixed_scripts"  # the code of the refusal of a name of mixed scripts


def validate_one_script(name: str) -> None:
    """A username is written in one script, or in Latin with Japanese's, Chinese's or
    Korean's: ``alice`` with a Cyrillic ``a`` (U+0430) would pass for ``alice`` beside it
    (a name wholly of another script is a name of its own)."""
    scripts = scripts_of(name)
    if len(scripts) > 1 and not any(scripts <= allowed for allowed in MIXABLE_SCRIPTS):
        mixed = " and ".join(s.capitalize() for s in sorted(scripts))
        raise ValidationError(
            f"a username is written in one script (or Latin with Japanese, Chinese or "
            f"Korean): this one mixes {mixed}",
            code=MIXED_SCRIPTS,
        )


class UserManager(DjangoUserManager):
    def get_by_natural_key(self, username: str | None) -> User:
        """Log-ins find an account by its exact name, else by its canonical name (so any
        spelling of it works)."""
        name = username or ""
        query = Q(username=name) | Q(username_canonical=canonical_username(name))
        found = sorted(self.filter(query)[:2], key=lambda u: u.username != name)
        if not found:
            raise self.model.DoesNotExist(f"no account {name!r}")
        return found[0]


class User(AbstractUser):
    """A player, operator or admin. Custom from the first migration so it can grow."""

    username_canonical = models.CharField(
        max_length=CANONICAL_MAX,
        unique=True,
        editable=False,
        help_text="the username in canonical form (NFKC, case-folded): unique",
    )

    suspended_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="when the account was suspended; empty: in good standing (see Suspension)",
    )

    objects = UserManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        permissions = [("suspend_user", "Can suspend and lift accounts")]

    @property
    def is_suspended(self) -> bool:
        return self.suspended_at is not None

    def _canonical(self) -> str:
        """The canonical name to store: the username's, or the ``<name>#<id>`` that
        migration 0002 gave the later of two accounts whose names then shared one (kept
        while the username is unchanged)."""
        name = canonical_username(self.username)
        legacy = f"{name}#{self.pk}"
        return legacy if self.pk is not None and self.username_canonical == legacy else name

    _password_disabled = False  # set_unusable_password since the last save

    def set_unusable_password(self) -> None:
        super().set_unusable_password()
        self._password_disabled = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_canonical = self._canonical()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_canonical"}
        # (``set_password`` keeps the new password in ``_password`` until the save;
        # ``set_unusable_password``, the admin's "disabled", marks it here)
        new_password = self.pk is not None and (
            self._password is not None or self._password_disabled
        )
        super().save(*args, **kwargs)
        self._password_disabled = False
        if new_password:  # whoever held a token of the old password's holds none now
            from rest_framework.authtoken.models import Token

            Token.objects.filter(user=self).delete()

    def validate_unique(self, exclude: Any = None) -> None:
        """Forms (the admin's too) refuse a name whose canonical form is taken."""
        super().validate_unique(exclude)
        taken = User.objects.filter(username_canonical=self._canonical())
        if taken.exclude(pk=self.pk).exists():
            raise ValidationError({"username": ["this username is taken"]})


class RunningMatches(models.TextChoices):
    """What a suspension does to the account's matches that have not ended."""

    ABORT = "abort", "abort them"
    COM = "com", "hand its seats to a normal COM"


class Suspension(models.Model):
    """One suspension of an account: who suspended it, when and why, what became of its
    running matches, and who lifted it. While one is not lifted, ``User.suspended_at``
    says so (the flag the log-in and token checks read)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="suspensions")
    reason = models.TextField(help_text="why, as the operator wrote it (staff only)")
    running = models.CharField(
        max_length=8,
        choices=RunningMatches.choices,
        help_text="what was done to the account's running matches",
    )
    matches = models.JSONField(
        default=list, help_text="the ids of the running matches it aborted or handed over"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        User, null=True, on_delete=models.SET_NULL, related_name="+", help_text="the operator"
    )
    revoked_tokens = models.JSONField(
        default=list,
        editable=False,
        help_text="SHA-256 digests of the tokens it revoked: while it is in force, a request "
        "with one of them is told that the account is suspended",
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(lifted_at__isnull=True),
                name="accounts_one_suspension_in_force",
            )
        ]

    def __str__(self) -> str:
        return f"suspension of {self.user} on {self.created_at:%Y-%m-%d}"
