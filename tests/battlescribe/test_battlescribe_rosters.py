"""BattleScribe / New Recruit rosters (.ros, .rosz) read into our list documents and written back: the
round trip on a test catalogue and on real ones, hostile and wrong rosters refused with nothing saved,
and the paths in: import_list, export_list --format ros, the API's import and the import page."""
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
from armylists.listfiles.reading import ListFileError, read_list_data
from armylists.models import ArmyList, BookGameData
from armylists.importers.battlescribe.roster_files import roster_xml
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
    """The test catalogue as a book imported before its game data was kept with it: its lists are in our
    flattened shape, which rosters read into and are written from (a book with its game data reads a
    roster one to one into a roster tree: tests/battlescribe/test_battlescribe_site_tree.py)."""
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    call_command("import_battlescribe", str(tmp_path), verbosity=0)
    BookGameData.objects.all().delete()


def document() -> dict:
    return {"format": "armylist/1", "name": "Imported knights", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
            "points_limit": 2000, "notes": "for the club night",
            "units": [{"id": "c", "entry": "captain"},
                      {"id": "k1", "entry": "knights", "size": 4, "options": {"lance": 1, "flag": 1,
                                                                              "banner-of-speed": 1},
                       "label": "red"},
                      {"id": "k2", "entry": "knights", "size": 6}]}


def ros(doc: dict = None) -> bytes:
    roster = parse_roster(doc or document())
    return roster_xml(roster, get_book(SYSTEM, BOOK, VERSION), report_for(roster).total_points)


def test_a_list_goes_to_a_roster_and_back_unchanged(imported):
    data = ros()
    roster, book = read_list_data(data, "army.ros")
    assert roster_to_dict(roster) == roster_to_dict(parse_roster(document())) and book.id == BOOK


def test_the_roster_names_the_catalogue_its_entries_and_costs_as_battlescribe_does(imported):
    root = fromstring(ros())
    assert (root.tag, root.get("gameSystemId"), root.get("gameSystemRevision")) == (f"{NS}roster", "sys-1", "3")
    # the game system as its .gst names it, not as the site shows it ("Test Battles (BattleScribe)")
    assert root.get("gameSystemName") == "Test Battles"
    assert [(c.get("typeId"), c.get("value")) for c in root.iter(f"{NS}costLimit")] == [("pts-1", "2000.0")]
    # 100 (Captain) + 10 + 4 x 20 + 4 x 2 (Lance) + 5 + 25, + 10 + 6 x 20
    assert root.find(f"{NS}costs/{NS}cost").get("value") == "358.0"
    force = root.find(f"{NS}forces/{NS}force")
    assert (force.get("catalogueId"), force.get("catalogueRevision"), force.get("entryId")) == ("cat-1", "7", "force-1")
    knights = force.findall(f"{NS}selections/{NS}selection")[1]
    assert (knights.get("entryId"), knights.get("number"), knights.get("customName")) == ("knights", "1", "red")
    inside = [(s.get("entryId"), s.get("number")) for s in knights.find(f"{NS}selections")]
    assert inside == [("knight", "4"), ("lance", "1"), ("flag", "1"), ("banner", "1")]
    assert [(c.get("entryId"), c.get("primary")) for c in knights.iter(f"{NS}category")] == [("cat-core", "true")]
    costs = {s.get("entryId"): s.find(f"{NS}costs/{NS}cost").get("value") for s in knights.iter(f"{NS}selection")}
    assert costs == {"knights": "18.0", "knight": "80.0", "lance": "0.0", "flag": "5.0", "banner": "25.0"}


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
    assert roster_to_dict(roster) == roster_to_dict(parse_roster(document()))


def test_a_new_recruit_link_path_finds_the_entry_and_folded_selections_pass(imported):
    data = ros().replace(b'entryId="knights"', b'entryId="some-link::knights"')
    roster, _ = read_list_data(data, "army.ros")
    assert [u.entry for u in roster.units] == ["captain", "knights", "knights"]


@pytest.mark.parametrize("change, message", [
    ((b'entryId="lance"', b'entryId="no-such"'),
     "army.ros: <selection name='Lance' entryId='no-such'>: is not an option of Knights of Test Knights (r7); "
     "import the catalogue revision the roster was made with"),
    ((b'entryId="captain"', b'entryId="nobody"'),
     "army.ros: <selection name='Captain' entryId='nobody'>: is not an entry of Test Knights (r7); "
     "import the catalogue revision the roster was made with"),
    ((b'catalogueRevision="7"', b'catalogueRevision="8"'),
     "army.ros: the roster is for Test Knights r8 of Test Battles, which this site has not imported "
     "(it has r7); import that catalogue revision with manage.py import_battlescribe"),
    ((b'<costLimit name="pts" typeId="pts-1" value="2000.0"', b'<costLimit name="pts" typeId="pts-1" value="-1"'),
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
    (tmp_path / "list.json").write_text(json.dumps(document()))
    call_command("export_list", str(tmp_path / "list.json"), "--format", "ros", "--output", str(tmp_path / "army.ros"))
    assert "army.ros (ros): LEGAL, 358 of 2000 pts" in capsys.readouterr().out
    call_command("import_list", str(tmp_path / "army.ros"), "--output", str(tmp_path / "back.json"))
    assert json.loads((tmp_path / "back.json").read_text()) == roster_to_dict(parse_roster(document()))
    (tmp_path / "bad.ros").write_bytes(ros().replace(b'entryId="captain"', b'entryId="nobody"'))
    with pytest.raises(SystemExit) as stop:
        call_command("import_list", str(tmp_path / "bad.ros"), "--output", str(tmp_path / "bad.json"))
    assert stop.value.code == 2 and "<selection name='Captain' entryId='nobody'>" in capsys.readouterr().err
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
    assert response.json()["document"] == roster_to_dict(parse_roster(document()))
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
    assert response.status_code == 302 and saved.document == roster_to_dict(parse_roster(document()))
    bad = client.post(reverse("list-import"), {"file": SimpleUploadedFile("army.ros", b"<roster")})
    assert bad.status_code == 400 and ArmyList.objects.count() == 1


@pytest.mark.skipif(not EXTERNAL.is_dir(), reason="../shared/external/battlescribe is absent")
@pytest.mark.parametrize("folder", ["the-9th-age-2nd", "the-9th-age-0.11", "mordheim"])
def test_every_entry_of_real_catalogues_goes_to_a_roster_and_back(folder):
    """Each entry of each book, at its largest size, with (up to 40 of) its options: the roster gives
    back the same units, also where one shared entry is an option twice (told apart by its link), and it is
    valid under the format's XML schema (where ../shared has it)."""
    from armylists.models import RulesFile

    call_command("import_battlescribe", str(EXTERNAL / folder), verbosity=0)
    BookGameData.objects.all().delete()   # our flattened shape, as for a book imported before (see `imported`)
    checked = 0
    for row in RulesFile.objects.filter(kind="book"):
        units = []
        for entry in row.data["entries"][:200]:
            unit = {"id": f"u{len(units) + 1}", "entry": entry["id"]}
            if entry.get("model_tags"):
                unit["size"] = entry["size"].get("max", entry["size"]["min"])
            options = {o["id"]: 1 for o in entry.get("options", [])[:40]}
            if options:
                unit["options"] = options
            units.append(unit)
        roster = parse_roster({"format": "armylist/1", "name": "Real", "system": row.system, "book": row.slug,
                               "book_version": row.version, "points_limit": 4500, "units": units})
        book = get_book(row.system, row.slug, row.version)
        data = roster_xml(roster, book, report_for(roster).total_points)
        again, _ = read_list_data(data, f"{row.slug}.ros")
        assert roster_to_dict(again) == roster_to_dict(roster), row.slug
        if SCHEMA.is_file():
            assert schema_errors(data) == [], row.slug
        checked += len(units)
    # Mordheim: its 15 warbands (Characters.cat, Hired Swords only, is no book: choosing.not_an_army)
    assert checked == {"the-9th-age-2nd": 552, "the-9th-age-0.11": 387, "mordheim": 130}[folder]


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
    assert stop.value.code == 1 and "Knights: 5 taken in the army; at most 4." in out
    assert rows["ann.ros"].endswith(" legal") and rows["ben.ros"].endswith(" illegal (1 error)")
    event = Event.objects.create(organiser=alice, name="Roster cup", date=timezone.now().date(), system=SYSTEM,
                                 books=[BOOK], points_limit=2000, deadline=timezone.now() + timedelta(days=3))
    result = upload_files(event, [("ann.ros", ros()), ("bad.ros", b"<roster")])
    assert [s.book for s in event.submissions.all()] == [BOOK]
    assert [name for name, _ in result.failed] == ["bad.ros"]
