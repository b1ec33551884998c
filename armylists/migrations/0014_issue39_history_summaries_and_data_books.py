"""Issue 39: a revision's summary (its verdict and changes, stored once) and each game data version's books
as indexed rows, filled from the versions' stored JSON, so "data as of" reads a column, not every version."""
from django.db import migrations, models
import django.db.models.deletion


def fill_books(apps, schema_editor):
    GameDataVersion = apps.get_model("armylists", "GameDataVersion")
    GameDataBook = apps.get_model("armylists", "GameDataBook")
    for version in GameDataVersion.objects.all().iterator(chunk_size=50):
        GameDataBook.objects.bulk_create([
            GameDataBook(data_version=version, system=b["system"], book=b["book"], book_version=b["version"],
                         name=b.get("name") or "") for b in version.books])


class Migration(migrations.Migration):

    dependencies = [("armylists", "0013_unflatten_lists")]

    operations = [
        migrations.AddField(model_name="listrevision", name="summary",
                            field=models.JSONField(blank=True, default=None, null=True)),
        migrations.CreateModel(
            name="GameDataBook",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("system", models.CharField(max_length=80)),
                ("book", models.CharField(max_length=80)),
                ("book_version", models.CharField(max_length=40)),
                ("name", models.CharField(blank=True, max_length=200)),
                ("data_version", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                   related_name="book_rows", to="armylists.gamedataversion")),
            ],
            options={"indexes": [models.Index(fields=["system", "book", "book_version"], name="gamedatabook_key")]},
        ),
        migrations.RunPython(fill_books, migrations.RunPython.noop),
    ]
