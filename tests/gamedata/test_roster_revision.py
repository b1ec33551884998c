"""A roster's game system revision checked against the stored one (issue 38 item 5): a .ros made with
another revision of the game system than the one its book is stored with is read all the same, and the
import says so (a notice, never a refusal). BSData's Mordheim: Mordheim.gst is revision 16."""
from __future__ import annotations

import re

import pytest

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.importers.battlescribe.roster_files import roster_xml
from armylists.lists.library.catalogue import get_book, report_for
from armylists.listfiles.importing import import_list
from armylists.models import ArmyList
from armylists.rules import parse_roster
from tests.fake_github import files_from, zip_of
from tests.gamedata.conftest import MORDHEIM, MORDHEIM_FILES

pytestmark = pytest.mark.django_db


@pytest.fixture
def ros(mordheim, alice, client) -> bytes:
    """The .ros of a new Reiklanders warband (the new-list form makes a roster tree)."""
    mordheim.archive = zip_of(files_from(MORDHEIM, [*MORDHEIM_FILES, "data.cat"]), "BSData-mordheim-1")
    assert update(add_source("BSData/mordheim")).status == "ok"
    client.force_login(alice)
    assert client.post("/lists/new/", {"name": "Lads", "book": "bs-mordheim/bs-reiklanders-1a/r10",
                                       "points_limit": "500"}).status_code == 302
    roster = parse_roster(ArmyList.objects.get(owner=alice).document)
    book = get_book("bs-mordheim", "bs-reiklanders-1a", "r10")
    data = roster_xml(roster, book, report_for(roster).total_points)
    assert re.search(rb'gameSystemRevision="16"', data)
    return data


def test_a_roster_of_the_stored_system_revision_says_nothing(ros):
    roster, book, how, notices = import_list(ros, "lads.ros")
    assert (book.id, book.version, notices) == ("bs-reiklanders-1a", "r10", [])


def test_a_roster_of_another_system_revision_is_read_and_told(ros):
    older = ros.replace(b'gameSystemRevision="16"', b'gameSystemRevision="15"', 1)
    roster, book, how, notices = import_list(older, "lads.ros")
    assert (book.id, book.version) == ("bs-reiklanders-1a", "r10")
    assert notices == ["The roster was made with revision 15 of the game system Mordheim; this site checks it "
                       "with revision 16, the one Reiklanders (1a) r10 is stored with. Rules that changed "
                       "between the two may judge the list otherwise than the tool that wrote it."]
