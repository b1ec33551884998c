# Issue 25, items 3 and 4; issue 22 (the muster PDF out of date).
#
# Teams become the event's own (registered by the organiser or a captain, joined with a code) instead
# of a free-text name anyone could type: every free-text team name of an existing submission becomes a
# registered team of its event, and the player who submitted under it its member, so existing events
# keep their teams and their team rules' verdicts. Event jobs get a heartbeat and an attempt count
# (a job whose worker died is noticed and run again or failed) and the muster PDF the key of the
# approved lists it printed. The free-text names become teams in 0007 and the old column goes in 0008: on
# PostgreSQL, rows written in a migration cannot be followed by an ALTER TABLE of the same table in the
# same transaction ("pending trigger events"), so each step is its own migration.
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import armylists.models


class Migration(migrations.Migration):

    dependencies = [
        ("armylists", "0005_merge"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Team",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200)),
                ("join_code", models.CharField(default=armylists.models.new_join_code, max_length=20)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("captain", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                              related_name="+", to=settings.AUTH_USER_MODEL)),
                ("event", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="teams",
                                            to="armylists.event")),
            ],
            options={
                "ordering": ["name", "id"],
                "constraints": [models.UniqueConstraint(fields=("event", "name"), name="one_team_name_per_event")],
            },
        ),
        migrations.CreateModel(
            name="TeamMember",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("joined", models.DateTimeField(auto_now_add=True)),
                ("event", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                            to="armylists.event")),
                ("team", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="members",
                                           to="armylists.team")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="team_memberships", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["joined", "id"],
                "constraints": [models.UniqueConstraint(fields=("event", "user"), name="one_team_per_player")],
            },
        ),
        migrations.RenameField(model_name="submission", old_name="team", new_name="old_team"),
        migrations.AddField(
            model_name="submission",
            name="team",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name="submissions", to="armylists.team"),
        ),
        migrations.AddField(model_name="eventjob", name="heartbeat_at",
                            field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(model_name="eventjob", name="attempt", field=models.PositiveIntegerField(default=1)),
        migrations.AddField(model_name="eventjob", name="approved_key",
                            field=models.CharField(blank=True, max_length=64)),
    ]
