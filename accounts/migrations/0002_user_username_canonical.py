"""Usernames are unique in canonical form (NFKC, case-folded).

Existing accounts get their canonical name; should two share one (possible before this
migration), the later ones get theirs suffixed with ``#<id>`` so that nothing is lost,
and keep logging in with their exact username.
"""

import unicodedata

from django.db import migrations, models

import accounts.models


def canonical(name):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def fill(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    seen = set()
    for user in User.objects.order_by("pk"):
        name = canonical(user.username)
        if name in seen:
            name = f"{name}#{user.pk}"
        seen.add(name)
        user.username_canonical = name
        user.save(update_fields=["username_canonical"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AlterModelManagers(
            name="user", managers=[("objects", accounts.models.UserManager())]
        ),
        migrations.AddField(
            model_name="user",
            name="username_canonical",
            field=models.CharField(editable=False, max_length=600, null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_canonical",
            field=models.CharField(
                editable=False,
                help_text="the username in canonical form (NFKC, case-folded): unique",
                max_length=600,
                unique=True,
            ),
        ),
    ]
