"""RulesFile.lineage: what the data calls an imported book for good across renames (issue 38 item 2), set
for the books stored before it from the place each importer names: a New Recruit T9A book's army file
(`.../<code>.json`), an Old World Builder book's army id (its book id `owb-<army id>`)."""
from django.db import migrations, models

NR_T9A, OWB = "t9a-2", "the-old-world"


def set_lineage(apps, schema_editor):
    RulesFile = apps.get_model("armylists", "RulesFile")
    rows = RulesFile.objects.filter(kind="book", imported=True, system__in=[NR_T9A, OWB]).only(
        "id", "system", "slug", "source_path")
    changed = []
    for row in rows.iterator(chunk_size=500):
        if row.system == NR_T9A and row.source_path.endswith(".json"):
            row.lineage = "nr-t9a:" + row.source_path.rsplit("/", 1)[-1].rsplit(":", 1)[-1][:-5]
        elif row.system == OWB and row.slug.startswith("owb-"):
            row.lineage = "owb:" + row.slug[4:]
        else:
            continue
        changed.append(row)
    RulesFile.objects.bulk_update(changed, ["lineage"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("armylists", "0018_issue41_campaigns")]

    operations = [
        migrations.AddField(model_name="rulesfile", name="lineage",
                            field=models.CharField(blank=True, max_length=120)),
        migrations.RunPython(set_lineage, migrations.RunPython.noop),
        # The book lists read it with the other columns of the index (catalogue._newest_imported): on SQLite a
        # column after `data` is read through the JSON's overflow pages (migration 0017).
        migrations.RemoveIndex(model_name="rulesfile", name="rulesfile_listing"),
        migrations.AddIndex(model_name="rulesfile", index=models.Index(
            fields=["kind", "imported", "system", "slug", "version", "loaded_at", "name", "lineage"],
            name="rulesfile_listing")),
    ]
