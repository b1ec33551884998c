"""Imported systems and books a player can tell apart (issue 22 item 6): an imported system carries its source
in its name, or is called by the name of our system it maps onto; catalogues that only lend entries are no
army; a folder of two game systems imports each to its own and says what it skipped and why; two catalogues
with one id are reported, not merged. Small files written here; the community's data in test_battlescribe_data."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from armylists.importers.battlescribe import convert, read_sources, report_data

from tests.battlescribe.battlescribe_samples import GST, NS_CAT, NS_GST, catalogue

# A second game, whose one force requires a Leader: a warband, a catalogue of hirelings only (no force of its
# own, no Leader) and a library.
SKIRMISH = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-2" name="Skirmish" revision="2" battleScribeVersion="2.03" {NS_GST}>
  <publications><publication id="pub-1" name="GitHub" publisherUrl="https://github.com/BSData/skirmish"/></publications>
  <costTypes><costType id="gc" name="gc" defaultCostLimit="-1"/></costTypes>
  <categoryEntries>
    <categoryEntry id="leaders" name="Leaders"/><categoryEntry id="hirelings" name="Hirelings"/>
  </categoryEntries>
  <forceEntries>
    <forceEntry id="band" name="Band">
      <categoryLinks>
        <categoryLink id="band-leaders" name="Leaders" targetId="leaders">
          <constraints><constraint id="one-leader" type="min" value="1" field="selections" scope="parent"/></constraints>
        </categoryLink>
      </categoryLinks>
    </forceEntry>
    <forceEntry id="hired" name="Hired">
      <categoryLinks><categoryLink id="hired-h" name="Hirelings" targetId="hirelings"/></categoryLinks>
    </forceEntry>
  </forceEntries>
</gameSystem>
"""


def skirmish_catalogue(cat_id: str, name: str, category: str, library: str = "false") -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="{cat_id}" name="{name}" revision="1" battleScribeVersion="2.03" gameSystemId="sys-2" library="{library}" {NS_CAT}>
  <selectionEntries>
    <selectionEntry id="{cat_id}-e" name="{name} Fighter" type="model">
      <categoryLinks><categoryLink id="{cat_id}-cl" name="x" targetId="{category}" primary="true"/></categoryLinks>
      <costs><cost name="gc" typeId="gc" value="30"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


@pytest.fixture
def two_games(tmp_path):
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    (tmp_path / "skirmish.gst").write_text(SKIRMISH)
    (tmp_path / "raiders.cat").write_text(skirmish_catalogue("raiders", "Raiders", "leaders"))
    (tmp_path / "sellswords.cat").write_text(skirmish_catalogue("sell", "Sellswords", "hirelings"))
    (tmp_path / "shared.cat").write_text(skirmish_catalogue("shared", "Shared", "hirelings", library="true"))
    return tmp_path


def run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("import_battlescribe", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


SELLSWORDS = ("no army: it declares no force, and its root entries fill no force of Skirmish: none is in Leaders, "
              "which a force requires; it lends entries to forces taken beside an army")
LIBRARY = 'a library (library="true"): it lends entries to the catalogues that link it'


def test_a_folder_of_two_game_systems_imports_each_to_its_own_and_says_what_it_skipped(two_games, tmp_path):
    report = tmp_path / "report.json"
    out, err = run(str(two_games), "--check", "--json", str(report))
    assert err.splitlines() == [f"Skipped {two_games / 'sellswords.cat'} (Sellswords): {SELLSWORDS}",
                                f"Skipped {two_games / 'shared.cat'} (Shared): {LIBRARY}"]
    assert out.splitlines()[-1] == "2 books and 2 systems are good; nothing written."
    data = json.loads(report.read_text())
    assert [(b["name"], b["book"], b["system"]) for b in data["books"]] == [  # in the order read: skirmish.gst first
        ("Raiders", "bs-raiders", "bs-skirmish"), ("Test Knights", "bs-test-knights", "bs-test-battles")]
    assert data["skipped"] == [
        {"source": str(two_games / "sellswords.cat"), "name": "Sellswords", "reason": SELLSWORDS},
        {"source": str(two_games / "shared.cat"), "name": "Shared", "reason": LIBRARY}]


def test_a_catalogue_with_an_entry_in_a_required_category_is_an_army(two_games):
    # The boundary: one root entry in the required category makes Sellswords a book.
    (two_games / "sellswords.cat").write_text(skirmish_catalogue("sell", "Sellswords", "leaders"))
    conversion = convert(read_sources([str(two_games)]))
    assert [b["id"] for b in conversion.books] == ["bs-raiders", "bs-sellswords", "bs-test-knights"]
    assert [s["name"] for s in conversion.skipped] == ["Shared"]


def test_root_entries_imported_from_a_linked_catalogue_fill_a_force(two_games):
    # Sellswords imports the root entries of a library with a Leader (importRootEntries, as Mordheim's
    # warbands import data.cat's Configuration): it can fill the Band, so it is an army.
    (two_games / "shared.cat").write_text(skirmish_catalogue("shared", "Shared", "leaders", library="true"))
    link = ('<catalogueLinks><catalogueLink id="l1" name="Shared" targetId="shared" type="catalogue" '
            'importRootEntries="true"/></catalogueLinks>')
    sell = skirmish_catalogue("sell", "Sellswords", "hirelings").replace("</catalogue>", f"{link}\n</catalogue>")
    (two_games / "sellswords.cat").write_text(sell)
    conversion = convert(read_sources([str(two_games)]))
    assert [b["id"] for b in conversion.books] == ["bs-raiders", "bs-sellswords", "bs-test-knights"]
    # not imported, the same library's root entries fill nothing
    (two_games / "sellswords.cat").write_text(sell.replace('importRootEntries="true"', 'importRootEntries="false"'))
    assert [s["name"] for s in convert(read_sources([str(two_games)])).skipped] == ["Sellswords", "Shared"]


def test_two_catalogues_with_one_id_are_reported_and_the_first_read_is_imported(tmp_path):
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "a-knights.cat").write_text(catalogue())
    (tmp_path / "b-knights.cat").write_text(catalogue().replace('name="Test Knights"', 'name="Other Knights"'))
    out, err = run(str(tmp_path), "--check")
    assert err.splitlines() == [
        f"Skipped {tmp_path / 'b-knights.cat'} (Other Knights): has the id 'cat-1' of {tmp_path / 'a-knights.cat'} "
        f"(Test Knights), which is imported instead: BattleScribe links catalogues by id, so only one can be"]
    assert out.splitlines()[-1] == "1 books and 1 systems are good; nothing written."
    assert report_data(convert(read_sources([str(tmp_path)])))["skipped"][0]["name"] == "Other Knights"


@pytest.mark.parametrize("attributes, given, name", [
    ("", None, "Test Battles (BattleScribe)"),
    ('authorUrl="www.newrecruit.eu"', None, "Test Battles (New Recruit)"),
    ('authorUrl="https://github.com/BSData/test"', None, "Test Battles (BSData)"),
    ('authorUrl="www.newrecruit.eu"', "Our club", "Test Battles (Our club)"),
])
def test_an_imported_system_carries_its_source_in_its_name(tmp_path, attributes, given, name):
    (tmp_path / "test.gst").write_text(GST.replace('name="Test Battles"', f'name="Test Battles" {attributes}'))
    (tmp_path / "knights.cat").write_text(catalogue())
    assert [s["name"] for s in convert(read_sources([str(tmp_path)]), source=given).systems] == [name]


def test_the_publication_url_names_the_source(two_games):
    names = {s["id"]: s["name"] for s in convert(read_sources([str(two_games)])).systems}
    assert names == {"bs-test-battles": "Test Battles (BattleScribe)", "bs-skirmish": "Skirmish (BSData)"}


@pytest.mark.django_db
def test_a_mapped_system_is_called_by_our_name_as_imported_data_on_every_page(tmp_path, client, alice):
    # rules_data/battlescribe_systems.yaml maps this id onto our Mordheim.
    gst = SKIRMISH.replace('id="sys-2" name="Skirmish"', 'id="9481a749-7900-614b-1695-bdc2899069c1" name="Skirm"')
    (tmp_path / "skirmish.gst").write_text(gst)
    for name, category, library in (("Raiders", "leaders", "false"), ("Sellswords", "hirelings", "false"),
                                    ("Shared", "hirelings", "true")):
        cat = skirmish_catalogue(name.lower(), name, category, library)
        (tmp_path / f"{name}.cat").write_text(cat.replace('gameSystemId="sys-2"',
                                                          'gameSystemId="9481a749-7900-614b-1695-bdc2899069c1"'))
    run(str(tmp_path), "--source-name", "Test data")
    home = client.get("/").content.decode()
    assert "<h3>Mordheim</h3>" in home and "<h3>Mordheim (imported data, Test data)</h3>" in home
    assert "Sellswords" not in home and "Shared" not in home and ">Raiders</a>" in home
    client.force_login(alice)
    form = client.get(reverse("list-new")).content.decode()
    assert '<optgroup label="Mordheim (imported data, Test data)">' in form
    assert 'value="bs-skirm/bs-raiders/r1"' in form and "bs-sellswords" not in form and "bs-shared" not in form
    books = client.get("/api/v1/books/").json()
    assert [(b["system"], b["id"], b["name"]) for b in books if b["system"] == "bs-skirm"] == [
        ("bs-skirm", "bs-raiders", "Raiders")]
    page = client.get(reverse("book-detail", args=["bs-skirm", "bs-raiders", "r1"])).content.decode()
    assert '<p class="muted">Mordheim (imported data, Test data). Sources:' in page


def test_a_catalogue_with_its_own_entry_in_a_required_category_is_an_army_without_its_linked_library(tmp_path):
    # As a Mordheim warband read without data.cat: its Leader is its own; the library it links is absent.
    (tmp_path / "skirmish.gst").write_text(SKIRMISH)
    link = ('<catalogueLinks><catalogueLink id="l1" name="Shared" targetId="absent" type="catalogue" '
            'importRootEntries="true"/></catalogueLinks>')
    raiders = skirmish_catalogue("raiders", "Raiders", "leaders").replace("</catalogue>", f"{link}\n</catalogue>")
    (tmp_path / "raiders.cat").write_text(raiders)
    conversion = convert(read_sources([str(tmp_path)]))
    assert [b["id"] for b in conversion.books] == ["bs-raiders"] and conversion.skipped == []
