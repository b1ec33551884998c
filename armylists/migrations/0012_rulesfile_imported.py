"""RulesFile.imported: whether an importer made the book, as a column (the site lists the imported books on
every editor page; a filter on the JSON document read each book's whole data). Set from the stored data."""
from django.db import migrations, models


def mark_imported(apps, schema_editor):
    RulesFile = apps.get_model("armylists", "RulesFile")
    RulesFile.objects.filter(kind="book", data__imported=True).update(imported=True)


class Migration(migrations.Migration):

    dependencies = [
        ("armylists", "0011_battlescribe_documents"),
    ]

    operations = [
        migrations.AddField(model_name="rulesfile", name="imported",
                            field=models.BooleanField(db_index=True, default=False)),
        migrations.RunPython(mark_imported, migrations.RunPython.noop),
    ]
