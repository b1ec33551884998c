"""Issue 43: a list may be shared as its hidden list's open part only."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("armylists", "0015_issue42_notices")]

    operations = [
        migrations.AddField(model_name="armylist", name="share_open", field=models.BooleanField(default=False)),
    ]
