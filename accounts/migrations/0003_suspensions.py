"""Suspensions: an account can be suspended (``User.suspended_at``, the flag the log-in and
token checks read, and a ``Suspension`` record of who, when, why), by staff holding the
new permission ``accounts.suspend_user``."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_user_username_canonical"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="user",
            options={
                "permissions": [("suspend_user", "Can suspend and lift accounts")],
                "verbose_name": "user",
                "verbose_name_plural": "users",
            },
        ),
        migrations.AddField(
            model_name="user",
            name="suspended_at",
            field=models.DateTimeField(
                blank=True,
                editable=False,
                help_text="when the account was suspended; empty: in good standing (see Suspension)",
                null=True,
            ),
        ),
        migrations.CreateModel(
            name="Suspension",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reason",
                    models.TextField(help_text="why, as the operator wrote it (staff only)"),
                ),
                (
                    "running",
                    models.CharField(
                        choices=[
                            ("abort", "abort them"),
                            ("com", "hand its seats to a normal COM"),
                        ],
                        help_text="what was done to the account's running matches",
                        max_length=8,
                    ),
                ),
                (
                    "matches",
                    models.JSONField(
                        default=list,
                        help_text="the ids of the running matches it aborted or handed over",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("lifted_at", models.DateTimeField(blank=True, null=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        help_text="the operator",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "lifted_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="suspensions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("lifted_at__isnull", True)),
                        fields=("user",),
                        name="accounts_one_suspension_in_force",
                    )
                ],
            },
        ),
    ]
