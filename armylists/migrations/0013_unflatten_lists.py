"""Stored lists of imported BattleScribe books kept in the flattened shape become the roster trees they are
(issue 37 item 2, "one semantics"; lists/trees/unflatten.py).

Thin on purpose. Unflattening needs the app's own code (the books, the stored game data, the tree
evaluator), which a migration would have to copy to stay frozen, and the copy would be a third version of
BattleScribe's semantics; so this calls the one function that does it. Should that code be gone one day
(the flattened path retired for good, every list long converted), the import fails and there is nothing to
do: the migration passes, which is what it would do on a fresh database anyway (no books, no lists).
Reversing it changes nothing: the flattened documents stay in each list's history (a revision each).
"""
from django.db import migrations


def unflatten_lists(apps, schema_editor):
    try:
        from armylists.lists.trees.unflatten_stored import convert_stored_lists
    except ImportError:
        return
    convert_stored_lists(apps.get_model("armylists", "ArmyList"))


class Migration(migrations.Migration):

    dependencies = [
        ("armylists", "0012_rulesfile_imported"),   # the books are found by their column
    ]

    operations = [
        migrations.RunPython(unflatten_lists, migrations.RunPython.noop),
    ]
