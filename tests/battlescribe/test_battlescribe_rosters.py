"""BattleScribe / New Recruit rosters (.ros, .rosz) read into roster trees and written back: the round trip
on a test catalogue and on real ones, hostile and wrong rosters refused with nothing saved, and the paths
in: import_list, export_list --format ros, the API's import and the import page. A book imported before
its game data was kept has no tree to read a roster into: refused, saying to import it again (the flattened
shape lists once had, and its roster reader and writer, are retired: issue 37)."""
from __future__ import annotations

import functools
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from defusedxml.ElementTree import fromstring

from armylists.lists.library.catalogue import get_book, report_for
from armylists.lists.trees import battlescribe_data
from armylists.lists.trees.unflatten import unflatten
from armylists.listfiles.reading import ListFileError, read_list_data
from armylists.models import ArmyList, BookGameData
from armylists.importers.battlescribe.roster_files import RosterFileError, roster_xml
from armylists.rules import parse_roster, roster_to_dict

from tests.battlescribe.battlescribe_samples import GST, catalogue

pytestmark = pytest.mark.django_db
SYSTEM, BOOK, VERSION = "bs-test-battles", "bs-test-knights", "r7"
NS = "{http://www.battlescribe.net/schema/rosterSchema}"
EXTERNAL = Path(__file__).resolve().parents[2].parent / "shared" / "external" / "battlescribe"
SCHEMA = EXTERNAL / "schema" / "Catalogue-v2.03.xsd"
needs_schema = pytest.mark.skipif(not SCHEMA.is_file(), reason="../shared/external/battlescribe/schema is absent")


@functools.cache
def roster_schema():
    """The format's XML schema (WarHub/wham 2.03): one file for catalogues, game systems and rosters, whose
    header says to give it the roster namespace for rosters."""
    import xmlschema

    text = SCHEMA.read_text().replace("http://www.battlescribe.net/schema/catalogueSchema",
                                      "http://www.battlescribe.net/schema/rosterSchema")
    return xmlschema.XMLSchema(text)


def schema_errors(data: bytes) -> list[str]:
    return [f"{e.path}: {e.reason}" for e in roster_schema().iter_errors(data.decode())]


@pytest.fixture
def imported(tmp_path):
    """The test catalogue imported with its game data: its lists are roster trees."""
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    call_command("import_battlescribe", str(tmp_path), verbosity=0)
    yield
    battlescribe_data.clear()


def document() -> dict:
    """A list of the book written as units (the shape lists were saved in before trees), for brevity: `tree`
    makes it the roster tree it is (lists/trees/unflatten.py, as the migration does)."""
    return {"format": "armylist/1", "name": "Imported knights", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
            "points_limit": 2000, "notes": "for the club night",
            "units": [{"id": "c", "entry": "captain"},
                      {"id": "k1", "entry": "knights", "size": 4, "options": {"lance": 1, "flag": 1,
                                                                              "banner-of-speed": 1},
                       "label": "red"},
                      {"id": "k2", "entry": "knights", "size": 6}]}


def tree(doc: dict = None):
    roster = unflatten(get_book(SYSTEM, BOOK, VERSION), parse_roster(doc or document()))
    assert roster.is_tree, roster.notes
    return roster


def as_read(doc: dict = None) -> dict:
    """The list document a roster of `tree(doc)` reads back to: its name, limit and tree, one to one (the
    list's notes are no part of a roster)."""
    return {k: v for k, v in roster_to_dict(tree(doc)).items() if k != "notes"}


def ros(doc: dict = None) -> bytes:
    roster = tree(doc)
    return roster_xml(roster, get_book(SYSTEM, BOOK, VERSION), report_for(roster).total_points)


def test_a_list_goes_to_a_roster_and_back_unchanged(imported):
    roster, book = read_list_data(ros(), "army.ros")
    assert roster_to_dict(roster) == as_read() and book.id == BOOK and roster.is_tree


def test_the_roster_names_the_catalogue_its_entries_and_costs_as_battlescribe_does(imported):
    root = fromstring(ros())
    assert (root.tag, root.get("gameSystemId"), root.get("gameSystemRevision")) == (f"{NS}roster", "sys-1", "3")
    # the game system as its .gst names it, not as the site shows it ("Test Battles (BattleScribe)")
    assert root.get("gameSystemName") == "Test Battles"
    assert [(c.get("typeId"), c.get("value")) for c in root.iter(f"{NS}costLimit")] == [("pts-1", "2000")]
    # 100 (Captain) + 10 + 4 x 20 + 4 x 2 (Lance) + 5 + 25, + 10 + 6 x 20
    assert root.find(f"{NS}costs/{NS}cost").get("value") == "358"
    force = root.find(f"{NS}forces/{NS}force")
    assert (force.get("catalogueId"), force.get("catalogueRevision"), force.get("entryId")) == ("cat-1", "7", "force-1")
    knights = force.findall(f"{NS}selections/{NS}selection")[1]
    assert (knights.get("entryId"), knights.get("number"), knights.get("name")) == ("knights", "1", "Knights")
    inside = [(s.get("entryId"), s.get("number")) for s in knights.find(f"{NS}selections")]
    assert inside == [("knight", "4"), ("lance", "1"), ("flag", "1"), ("banner", "1")]
    assert [(c.get("entryId"), c.get("primary")) for c in knights.find(f"{NS}categories")] == [("cat-core", "true")]
    costs = {s.get("entryId"): s.find(f"{NS}costs/{NS}cost").get("value") for s in knights.iter(f"{NS}selection")}
    assert costs == {"knights": "10", "knight": "80", "lance": "8", "flag": "5", "banner": "25"}


@needs_schema
def test_the_roster_is_valid_under_the_formats_schema(imported):
    assert schema_errors(ros()) == []
    # The check sees what BattleScribe would refuse: a category without its name, a selection's costs
    # before its own selections.
    nameless = re.sub(rb'(<category id="[^"]*") name="[^"]*"', rb"\1", ros(), count=1)
    assert schema_errors(nameless) == ["/roster/forces/force/selections/selection[1]/categories/category: "
                                       "missing required attribute 'name'"]


def test_a_rosz_reads_as_its_ros(imported):
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("army.ros", ros())
    roster, _ = read_list_data(packed.getvalue(), "army.rosz")
    assert roster_to_dict(roster) == as_read()


def test_a_book_imported_before_its_game_data_was_kept_reads_no_roster_and_writes_none(imported):
    data = ros()
    kept = tree()
    plain = parse_roster(document())
    BookGameData.objects.all().delete()
    battlescribe_data.clear()
    with pytest.raises(ListFileError) as caught:
        read_list_data(data, "army.ros")
    assert str(caught.value) == ("army.ros: Test Knights r7 was imported before this site kept its BattleScribe "
                                 "data, which a roster is read with; import that catalogue revision again with "
                                 "manage.py import_battlescribe")
    assert kept.is_tree
    with pytest.raises(RosterFileError) as written:
        roster_xml(plain, get_book(SYSTEM, BOOK, VERSION), 358)
    assert str(written.value) == ("Imported knights: this list is kept in the shape lists of Test Knights had "
                                  "before they were roster trees, which no roster is written from; import it "
                                  "again from its .ros, or build it again")


@pytest.mark.parametrize("change, message", [
    ((b'entryId="lance"', b'entryId="no-such"'),
     "army.ros: <selection name='Lance' entryId='no-such'>: is not a choice of Knights in Test Knights (r7); "
     "import the catalogue revision the roster was made with"),
    ((b'entryId="captain"', b'entryId="nobody"'),
     "army.ros: <selection name='Captain (General)' entryId='nobody'>: is not a choice of Army in Test Knights "
     "(r7); import the catalogue revision the roster was made with"),
    ((b'catalogueRevision="7"', b'catalogueRevision="8"'),
     "army.ros: the roster is for Test Knights r8 of Test Battles, which this site has not imported "
     "(it has r7); import that catalogue revision with manage.py import_battlescribe"),
    ((b'<costLimit name="pts" typeId="pts-1" value="2000"', b'<costLimit name="pts" typeId="pts-1" value="-1"'),
     "army.ros: <costLimits>: the roster sets no points limit; set one in BattleScribe or New Recruit and export "
     "it again"),
    ((b"<roster ", b"<!DOCTYPE r [<!ENTITY a 'aaaa'>]><roster "),
     "army.ros: refused: DTDForbidden(name='r', system_id=None, public_id=None)"),  # no entity is ever expanded
    ((b"</roster>", b""), None),
])
def test_a_bad_roster_is_one_clear_error(imported, change, message):
    data = ros().replace(*change)
    with pytest.raises(ListFileError) as caught:
        read_list_data(data, "army.ros")
    if message is None:
        assert str(caught.value).startswith("army.ros: line ") and "is not well-formed XML" in str(caught.value)
    else:
        assert str(caught.value) == message


def test_import_list_and_export_list_move_a_list_through_a_ros(imported, tmp_path, capsys):
    (tmp_path / "list.json").write_text(json.dumps(roster_to_dict(tree())))
    call_command("export_list", str(tmp_path / "list.json"), "--format", "ros", "--output", str(tmp_path / "army.ros"))
    assert "army.ros (ros): LEGAL, 358 of 2000 pts" in capsys.readouterr().out
    call_command("import_list", str(tmp_path / "army.ros"), "--output", str(tmp_path / "back.json"))
    assert json.loads((tmp_path / "back.json").read_text()) == as_read()
    (tmp_path / "bad.ros").write_bytes(ros().replace(b'entryId="captain"', b'entryId="nobody"'))
    with pytest.raises(SystemExit) as stop:
        call_command("import_list", str(tmp_path / "bad.ros"), "--output", str(tmp_path / "bad.json"))
    assert stop.value.code == 2 and "<selection name='Captain (General)' entryId='nobody'>" in capsys.readouterr().err
    assert not (tmp_path / "bad.json").exists()


def test_export_ros_refuses_a_book_not_imported_from_battlescribe(tmp_path, capsys):
    example = Path(__file__).resolve().parents[2] / "docs" / "examples"
    path = next(p for p in sorted(example.glob("*.json")) if json.loads(p.read_text()).get("format") == "armylist/1")
    with pytest.raises(SystemExit) as stop:
        call_command("export_list", str(path), "--format", "ros")
    assert stop.value.code == 2
    assert "can be written as a roster" in capsys.readouterr().err


def test_the_api_imports_a_ros_and_a_rosz_and_refuses_a_bad_one(imported, api_alice):
    response = api_alice.post("/api/v1/lists/import/", ros(), content_type="application/xml")
    assert response.status_code == 201, response.content
    assert response.json()["document"] == as_read()
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as z:
        z.writestr("army.ros", ros())
    assert api_alice.post("/api/v1/lists/import/", packed.getvalue(), content_type="application/zip").status_code == 201
    bad = api_alice.post("/api/v1/lists/import/", ros().replace(b'entryId="captain"', b'entryId="x"'),
                         content_type="application/xml")
    assert bad.status_code == 400, bad.content
    assert "entryId='x'" in json.dumps(bad.json())
    assert ArmyList.objects.count() == 2


def test_the_import_page_reads_a_ros_file(imported, client, alice):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(alice)
    response = client.post(reverse("list-import"), {"file": SimpleUploadedFile("army.ros", ros())})
    saved = ArmyList.objects.get(owner=alice)
    assert response.status_code == 302 and saved.document == as_read()
    bad = client.post(reverse("list-import"), {"file": SimpleUploadedFile("army.ros", b"<roster")})
    assert bad.status_code == 400 and ArmyList.objects.count() == 1


@pytest.mark.skipif(not EXTERNAL.is_dir(), reason="../shared/external/battlescribe is absent")
@pytest.mark.parametrize("folder", ["the-9th-age-2nd", "the-9th-age-0.11", "mordheim"])
def test_every_entry_of_real_catalogues_goes_to_a_roster_and_back(folder):
    """Each unit each book's first force offers (up to 200 a book), as a roster saves it: the roster read back
    is the same tree, selection for selection, and it is valid under the format's XML schema (where
    ../shared has it)."""
    from armylists.importers.battlescribe.roster_tree import read_tree, write_tree
    from armylists.importers.battlescribe.rosters import parse_roster_file
    from armylists.lists.trees.tree_lists import root_choices
    from armylists.models import RulesFile
    from armylists.rules.battlescribe import Roster as TreeRoster, add_force, evaluate, place
    from armylists.rules.battlescribe.document import document_tree

    call_command("import_battlescribe", str(EXTERNAL / folder), verbosity=0)
    checked = 0
    for row in RulesFile.objects.filter(kind="book").order_by("slug"):
        game = battlescribe_data.game_data_for(row.system, row.slug, row.version)
        tree = TreeRoster(game)
        catalogue = BookGameData.objects.get(book=row).catalogue_id
        force_id = next(f for f, (entry, doc) in game.forces.items()
                        if not entry.get("hidden") and doc in game.linked_docs(catalogue))
        force = add_force(tree, force_id, catalogue)
        for option in root_choices(tree, force)[:200]:
            place(tree, force, option.entry_id)
            checked += 1
        evaluate(tree)
        data = write_tree(tree, "Real")
        again = read_tree(parse_roster_file(data, f"{row.slug}.ros"), game, f"{row.slug}.ros")
        assert document_tree(again) == document_tree(tree), row.slug
        if SCHEMA.is_file():
            assert schema_errors(data) == [], row.slug
    # Mordheim: its 15 warbands (Characters.cat, Hired Swords only, is no book: choosing.not_an_army)
    assert checked == CHECKED[folder]


CHECKED = {"the-9th-age-2nd": 552, "the-9th-age-0.11": 381, "mordheim": 130}


def test_check_lists_and_event_uploads_read_rosters(imported, tmp_path, capsys, alice):
    from datetime import timedelta

    from django.utils import timezone

    from armylists.events.submitting import upload_files
    from armylists.models import Event

    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "ann.ros").write_bytes(ros())
    too_many = document()
    too_many["units"] += [{"id": f"x{i}", "entry": "knights", "size": 3} for i in range(3)]  # 5 Knights; at most 4
    (tmp_path / "lists" / "ben.ros").write_bytes(ros(too_many))
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(tmp_path / "lists"), "--system", SYSTEM, "--points", "2000")
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("ann.ros", "ben.ros"))}
    assert stop.value.code == 1 and "Knights: 5 taken in the army; at most 4 (1 per 1000 pts of the limit)." in out
    assert rows["ann.ros"].endswith(" legal") and rows["ben.ros"].endswith(" illegal (1 error)")
    event = Event.objects.create(organiser=alice, name="Roster cup", date=timezone.now().date(), system=SYSTEM,
                                 books=[BOOK], points_limit=2000, deadline=timezone.now() + timedelta(days=3))
    result = upload_files(event, [("ann.ros", ros()), ("bad.ros", b"<roster")])
    assert [s.book for s in event.submissions.all()] == [BOOK]
    assert [name for name, _ in result.failed] == ["bad.ros"]
