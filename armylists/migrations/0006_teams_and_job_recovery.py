# Issue 25, items 3 and 4; issue 22 (the muster PDF out of date).
#
# Teams become the event's own (registered by the organiser or a captain, joined with a code) instead
# of a free-text name anyone could type: every free-text team name of an existing submission becomes a
# registered team of its event, and the player who submitted under it its member, so existing events
# keep their teams and their team rules' verdicts. Event jobs get a heartbeat and an attempt count
# (a job whose worker died is noticed and run again or failed) and the muster PDF the key of the
# approved lists it printed.
import secrets

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import armylists.models


def _code() -> str:
    return "".join(secrets.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(10))


def register_free_text_teams(apps, schema_editor):
    Submission = apps.get_model("armylists", "Submission")
    Team = apps.get_model("armylists", "Team")
    TeamMember = apps.get_model("armylists", "TeamMember")
    teams = {}
    for sub in Submission.objects.exclude(old_team="").order_by("id"):
        name = sub.old_team.strip()[:200]
        if not name:
            continue
        key = (sub.event_id, name)
        if key not in teams:
            teams[key] = Team.objects.create(event_id=sub.event_id, name=name, join_code=_code())
        sub.team = teams[key]
        sub.save(update_fields=["team"])
        if sub.player_id is not None and not TeamMember.objects.filter(event_id=sub.event_id, user_id=sub.player_id).exists():
            TeamMember.objects.create(event_id=sub.event_id, team=teams[key], user_id=sub.player_id)


def back_to_free_text(apps, schema_editor):
    Submission = apps.get_model("armylists", "Submission")
    for sub in Submission.objects.exclude(team=None).select_related("team"):
        sub.old_team = sub.team.name
        sub.save(update_fields=["old_team"])


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
        migrations.RunPython(register_free_text_teams, back_to_free_text),
        migrations.RemoveField(model_name="submission", name="old_team"),
        migrations.AddField(model_name="eventjob", name="heartbeat_at",
                            field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(model_name="eventjob", name="attempt", field=models.PositiveIntegerField(default=1)),
        migrations.AddField(model_name="eventjob", name="approved_key",
                            field=models.CharField(blank=True, max_length=64)),
    ]
