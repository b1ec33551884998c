"""The history entries (what changed, the verdict) of the revisions saved before each revision kept its
own (before 0014's summaries and the saves storing them), stored once, so the first reading of a long
history reads no document (issue 39 item 4; lists/saved/backfill.py).

Thin on purpose, as 0013: checking a revision needs the app's own code (the books, the engine), which a
migration would have to copy; so this calls the one function that does it, with the historical model.
Should that code be gone one day, the import fails and there is nothing to do (a fresh database has no
revisions). It reads only revisions without a summary, in chunks: `manage.py backfill_revisions` runs the
same again. Reversing it changes nothing that matters: an entry is only a stored reading.
"""
from django.db import migrations


def backfill(apps, schema_editor):
    try:
        from armylists.lists.saved.backfill import backfill_verdicts
    except ImportError:
        return
    backfill_verdicts(apps.get_model("armylists", "ListRevision"))


class Migration(migrations.Migration):

    dependencies = [
        ("armylists", "0019_issue38_rulesfile_lineage"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
