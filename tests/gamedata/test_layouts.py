"""Older layouts of real data histories read (issue 38 item 5): BattleScribe files marked 1.16 (BSData
Mordheim of 2016) write 2.x's elements under a 1.x number, a force's categories inside its force entry and
an entry's category as `categoryEntryId`; they were read as 1.x and refused ("('entries',): [] should be
non-empty"). Made here by hand, in the shape those files have."""
from __future__ import annotations

import pytest

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.library.catalogue import get_book
from armylists.models import GameDataVersion
from tests.fake_github import Repo, zip_of

pytestmark = pytest.mark.django_db
NS = 'xmlns="http://www.battlescribe.net/schema/dataSchema" battleScribeVersion="1.16"'
GST = f"""<?xml version="1.0" encoding="UTF-8"?><gameSystem {NS} id="gs-1" revision="4" name="Skirmish">
<costTypes><costType id="points" name="pts"/></costTypes>
<forceEntries><forceEntry id="force-1" name="Warband"><constraints/><forceEntries/>
<categoryEntries>
<categoryEntry id="cat-heroes" name="Heroes"><constraints>
<constraint id="minSelections" type="min" value="1" field="selections" scope="parent"/></constraints><modifiers/>
</categoryEntry>
<categoryEntry id="cat-henchmen" name="Henchmen"><constraints/><modifiers/></categoryEntry>
</categoryEntries></forceEntry></forceEntries></gameSystem>"""
CAT = f"""<?xml version="1.0" encoding="UTF-8"?><catalogue {NS} id="cat-1" revision="18" gameSystemId="gs-1"
 gameSystemRevision="4" name="Treasure Hunters"><selectionEntries>
<selectionEntry id="e-noble" name="Noble" type="model" collective="false" hidden="false" categoryEntryId="cat-heroes">
<costs><cost costTypeId="points" name="pts" value="85.0"/></costs><constraints/><modifiers/><selectionEntries/>
</selectionEntry>
<selectionEntry id="e-clansman" name="Clansman" type="model" collective="false" hidden="false"
 categoryEntryId="cat-henchmen"><costs><cost costTypeId="points" name="pts" value="40.0"/></costs>
<constraints/><modifiers/><selectionEntries/></selectionEntry>
</selectionEntries></catalogue>"""


def test_battlescribe_files_marked_1_16_are_read_as_the_elements_they_hold(hub):
    hub.repos["BSData/skirmish"] = Repo(archive=zip_of({"Skirmish.gst": GST.encode(), "Hunters.cat": CAT.encode()},
                                                       "BSData-skirmish-1"), release="v1")
    version = update(add_source("BSData/skirmish"))
    assert version.status == GameDataVersion.OK, version.message
    assert [(b["book"], b["version"]) for b in version.books] == [("bs-treasure-hunters", "r18")]
    book = get_book(version.books[0]["system"], "bs-treasure-hunters", "r18")
    names = {c.id: c.name for c in book.system.categories}
    assert sorted((e.name, e.points, names.get(e.category, e.category)) for e in book.entries.values()) \
        == [("Clansman", 40, "Henchmen"), ("Noble", 85, "Heroes")]
