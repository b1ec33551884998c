# Issue 25, item 3: the free-text team name, now a registered team (0007), is dropped.
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [("armylists", "0007_teams_from_free_text")]

    operations = [migrations.RemoveField(model_name="submission", name="old_team")]
