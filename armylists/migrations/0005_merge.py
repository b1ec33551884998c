# Three changes made side by side (API tokens, event jobs, a list's player and team) joined again.
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("armylists", "0004_api_tokens"),
        ("armylists", "0004_armylist_player_team"),
        ("armylists", "0004_event_jobs"),
    ]

    operations = []
