"""OWB's asterisk mark on item names (issue 42 item 5): OWB's data writes some magic items as "Sword of
Might*" (magic-items.json, group "general"); players know the item as "Sword of Might". The mark is left off
where OWB's data is read: the books import_owb makes, and the items a saved list (.owb.json) names, which
keep OWB's mark. Read from the real datasets in ../shared/external/old-world-builder; skipped without them."""
from __future__ import annotations

import copy

import pytest

from armylists.importers.owb.data import IMPORTER_REVISION, item_name, unmarked
from armylists.importers.owb.lists import convert_list
from tests.importers.test_import_owb_lists import FILE, OWB, owb_list, owb_unit

pytestmark = pytest.mark.skipif(not (OWB / "the-old-world-system.json").is_file(),
                                reason="Old World Builder's datasets are not in ../shared/external/old-world-builder")


def marked(dataset, name: str) -> dict:
    """The real item of OWB's general group whose name OWB writes `name` (with its mark)."""
    return copy.deepcopy(next(i for i in dataset.items["general"] if i["name_en"] == name))


def test_the_mark_is_left_off_a_name_and_only_at_its_end():
    assert unmarked("Sword of Might*") == "Sword of Might"
    assert unmarked("Spellshield **") == "Spellshield"
    assert unmarked("Sword of Might") == "Sword of Might"
    assert unmarked("*Note that") == "*Note that"  # a leading mark is text, not OWB's item mark
    assert item_name({"name_en": "Burning Blade*"}) == "Burning Blade"


def test_the_books_name_owbs_marked_items_without_the_mark(owb_dataset, owb_books):
    # The dataset as stored really marks them: the test reads what OWB writes.
    assert marked(owb_dataset, "Sword of Might*")["type"] == "weapon"
    empire = owb_books["empire-of-man"]
    assert empire.version.endswith(f".r{IMPORTER_REVISION}") and IMPORTER_REVISION == 4
    assert empire.items["sword-of-might"].name == "Sword of Might"
    assert empire.items["spellshield"].name == "Spellshield"
    assert not [i.name for i in empire.items.values() if "*" in i.name]


def test_a_saved_list_naming_a_marked_item_gets_that_item(owb_dataset, owb_books):
    empire = owb_books["empire-of-man"]
    captain = owb_unit(owb_dataset, "characters", "captain-of-the-empire", 1)
    captain["items"][0]["selected"] = [marked(owb_dataset, "Sword of Might*"), marked(owb_dataset, "Spellshield*")]
    document = convert_list(owb_list(characters=[captain]), empire, FILE)
    assert document["units"][0]["items"] == ["sword-of-might", "spellshield"]
