"""Issue 39: an index holding every column the book lists read, so listing the books reads no JSON."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("armylists", "0016_issue43_share_open")]

    operations = [
        migrations.AddIndex(
            model_name="rulesfile",
            index=models.Index(fields=["kind", "imported", "system", "slug", "version", "loaded_at", "name"],
                               name="rulesfile_listing"),
        ),
    ]
