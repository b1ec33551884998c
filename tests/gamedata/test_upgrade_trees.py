"""The upgrade preview of a roster tree (issue 38 item 4): each selection found in the new data by its
entry id as saved, then by its name in the same place, and every one that does not survive named with the
closest the new data offers there, in player words (was: the first problem only, naming a raw id).
BSData's Mordheim Reiklanders at two releases; the second gives the Mercenary Captain a new id (its name
kept) and the Youngblood a new id and name ("Young Blood")."""
from __future__ import annotations

import pytest

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.saved.history import preview, upgrade_target
from armylists.lists.saved.stored import load
from armylists.models import ArmyList
from tests.fake_github import files_from, zip_of
from tests.gamedata.conftest import MORDHEIM, MORDHEIM_FILES

pytestmark = pytest.mark.django_db
CAPTAIN = b"83acbe09-ec66-c45c-0f5b-1a9e0017016e"
YOUNGBLOOD = b"93700e68-f80c-ad1c-b5cd-06fd3c7e7537"


def release(mordheim, tag: str, date: str, change=lambda cat: cat) -> None:
    files = files_from(MORDHEIM, [*MORDHEIM_FILES, "data.cat"])  # the catalogue Reiklanders links
    cat = files["Reiklanders.cat"].replace(b'revision="10"', b'revision="' + tag[1:].encode() + b'"', 1)
    files["Reiklanders.cat"] = change(cat)
    mordheim.release, mordheim.date, mordheim.archive = tag, date, zip_of(files, f"BSData-mordheim-{tag}")


def new_ids(cat: bytes) -> bytes:
    cat = cat.replace(CAPTAIN, b"c0ffee00-0000-4000-8000-00000000cap1")
    cat = cat.replace(YOUNGBLOOD, b"c0ffee00-0000-4000-8000-00000000yb01")
    return cat.replace(b'name="Youngblood"', b'name="Young Blood"')


@pytest.fixture
def warband(mordheim, alice, api_alice, client) -> ArmyList:
    """A roster tree made with the new-list form, with three units added through the API."""
    source = add_source("BSData/mordheim")
    release(mordheim, "v10", "2026-03-01T10:00:00Z")
    update(source)
    client.force_login(alice)
    assert client.post("/lists/new/", {"name": "Lads", "book": "bs-mordheim/bs-reiklanders-1a/r10",
                                       "points_limit": "500"}).status_code == 302
    army_list = ArmyList.objects.get(owner=alice)
    for entry in ("Mercenary Captain", "Youngblood", "Warriors"):
        answer = api_alice.post(f"/api/v1/lists/{army_list.pk}/units/", {"entry": entry}, format="json")
        assert answer.status_code in (200, 201), answer.content
    army_list.refresh_from_db()
    assert army_list.document.get("forces"), army_list.document
    return army_list


def test_a_selection_with_a_new_id_is_found_by_its_name_and_each_lost_one_is_named(warband, mordheim):
    release(mordheim, "v11", "2026-04-01T10:00:00Z", new_ids)
    update(add_source_again())
    loaded = load(warband)
    target = upgrade_target(loaded)
    assert (target.id, target.version) == ("bs-reiklanders-1a", "r11")
    shown = preview(loaded, target)
    assert shown.problem == "Youngblood is no longer in Reiklanders (1a) r11 (the closest is Young Blood)."
    # the Captains were found by name (not said lost), and saved under their new id
    assert [s.entry for s in shown.roster.forces[0].selections].count("c0ffee00-0000-4000-8000-00000000cap1") == 2


def test_a_list_whose_selections_all_survive_moves(warband, mordheim):
    release(mordheim, "v11", "2026-04-01T10:00:00Z", lambda cat: cat.replace(CAPTAIN, b"c0ffee00-0000-4000-8000-00000000cap1"))
    update(add_source_again())
    loaded = load(warband)
    shown = preview(loaded, upgrade_target(loaded))
    assert shown.problem == "" and shown.after is not None
    before = [s.id for s in loaded.roster.forces[0].selections if s.entry == CAPTAIN.decode()]
    after = [s.id for s in shown.roster.forces[0].selections if s.entry == "c0ffee00-0000-4000-8000-00000000cap1"]
    assert after == before and len(before) == 2  # the one the warband must have, and the one added
    assert len(shown.roster.forces[0].selections) == len(loaded.roster.forces[0].selections)


def add_source_again():
    from armylists.models import GameDataSource
    return GameDataSource.objects.get(repository="BSData/mordheim")


def test_each_lost_option_is_named_under_its_unit_and_every_lost_one_is_said(warband, mordheim):
    """The Captain's Leader (a link of Reiklanders.cat to data.cat's entry) given a new link id and name, and
    the Youngblood gone as above: both said, the option under its unit."""
    def change(cat: bytes) -> bytes:
        cat = cat.replace(b'name="Leader" hidden="false" id="6cb9-3cb5-0e62-ee09"',
                          b'name="Warband Leader" hidden="false" id="c0ffee00-0000-4000-8000-0000leader01"')
        return new_ids(cat)
    release(mordheim, "v11", "2026-04-01T10:00:00Z", change)
    update(add_source_again())
    loaded = load(warband)
    shown = preview(loaded, upgrade_target(loaded))
    assert shown.problem == ("Mercenary Captain: Leader is no longer an option (the closest is Warband Leader), "
                             "2 times. "
                             "Youngblood is no longer in Reiklanders (1a) r11 (the closest is Young Blood).")


def test_a_list_kept_flattened_is_followed_as_its_tree(mordheim, alice):
    """A list of the older flattened shape names its unit by the name's slug (`mercenary-captain`); the data
    renaming the entry under the same id ("Mercenary Leader") kept the unit, as BSData Mordheim's
    "Beastmen Gors" -> "Beastmen" did: the list moves, as its tree (was "no longer in ... (the closest is ...)")."""
    from armylists.lists.library.catalogue import get_book
    from tests.gamedata.test_newest import a_list

    source = add_source("BSData/mordheim")
    release(mordheim, "v10", "2026-03-01T10:00:00Z")
    update(source)
    book = get_book("bs-mordheim", "bs-reiklanders-1a", "r10")
    captain = next(e.id for e in book.entries.values() if e.name == "Mercenary Captain")
    army_list = a_list(alice, "bs-reiklanders-1a", "r10")
    document = {**army_list.document, "units": [{"id": "u1", "entry": captain}]}
    ArmyList.objects.filter(pk=army_list.pk).update(document=document)
    release(mordheim, "v11", "2026-04-01T10:00:00Z",
            lambda cat: cat.replace(b'name="Mercenary Captain"', b'name="Mercenary Leader"'))
    update(source)
    loaded = load(ArmyList.objects.get(pk=army_list.pk))
    assert not loaded.roster.is_tree and loaded.roster.units[0].entry == "mercenary-captain"
    shown = preview(loaded, upgrade_target(loaded))
    assert shown.problem == "" and shown.roster.is_tree
    [force] = shown.roster.forces
    assert [s.entry for s in force.selections].count(CAPTAIN.decode()) >= 1


def test_a_lost_option_under_a_unit_that_survives_is_left_out_and_said(warband, mordheim):
    """Issue 38's "upgraded at every step where its units survive, and told which do not": the Captain's
    Leader given a new link id and name while every unit survives; the list moves without it, and says so."""
    def change(cat: bytes) -> bytes:
        return cat.replace(b'name="Leader" hidden="false" id="6cb9-3cb5-0e62-ee09"',
                           b'name="Warband Leader" hidden="false" id="c0ffee00-0000-4000-8000-0000leader01"')
    release(mordheim, "v11", "2026-04-01T10:00:00Z", change)
    update(add_source_again())
    loaded = load(warband)
    shown = preview(loaded, upgrade_target(loaded))
    assert shown.problem == "" and shown.after is not None
    assert shown.changes[0] == ("Mercenary Captain: Leader is no longer an option (the closest is Warband Leader), "
                                "2 times. It is left out.")
    def leaders(roster) -> list[str]:  # the Captains' Leader selections, by the id they are saved under
        return [c.entry for s in roster.forces[0].selections if s.entry == CAPTAIN.decode() for c in s.selections
                if "6cb9-3cb5-0e62-ee09" in c.entry]
    assert len(leaders(loaded.roster)) == 2 and leaders(shown.roster) == []
    assert len(shown.roster.forces[0].selections) == len(loaded.roster.forces[0].selections)
