"""The seats to act, kept on the match row too, so one read sees them with the version."""

from django.db import migrations, models


def copy_from_seats(apps, schema_editor):
    Match = apps.get_model("golf", "Match")
    Seat = apps.get_model("golf", "Seat")
    to_act: dict[object, list[int]] = {}
    for match_id, index in (
        Seat.objects.filter(to_act=True).order_by("index").values_list("match_id", "index")
    ):
        to_act.setdefault(match_id, []).append(index)
    for match_id, seats in to_act.items():
        Match.objects.filter(pk=match_id).update(seats_to_act=seats)


class Migration(migrations.Migration):
    dependencies = [
        ("golf", "0004_snapshot_on_match_notify_trigger"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="seats_to_act",
            field=models.JSONField(
                default=list,
                help_text="read model: the seats that must act, written with the version and "
                "snapshot (Seat.to_act holds the same for filtering)",
            ),
        ),
        migrations.RunPython(copy_from_seats, migrations.RunPython.noop),
    ]
