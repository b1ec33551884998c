# Issue 25, item 3: every free-text team name of an existing submission becomes a registered team of its
# event, and the player who submitted under it its member (0006 made the tables; 0008 drops the old column).
import secrets

from django.db import migrations


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

    dependencies = [("armylists", "0006_teams_and_job_recovery")]

    operations = [migrations.RunPython(register_free_text_teams, back_to_free_text)]
