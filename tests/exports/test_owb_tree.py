"""Issue 42 item 6: a roster tree of New Recruit's Old World data written as Old World Builder keeps a list
(exports/owb_tree.py, then owb_list.py), where its units map by name to a book of the same army: the
legal Empire of Man roster of docs/examples (its .ros read in) as a list of our Empire of Man book
(rules_data), or of the book imported from OWB once the site holds it (then read back by our OWB
importer). What does not map is named in the list's description, never guessed. Skipped without New
Recruit's data (../shared/external/battlescribe/the-old-world-nr); the OWB case without OWB's data."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from armylists.exports.owb_tree import target_book
from armylists.importers.owb.lists import convert_list
from armylists.lists.library.catalogue import disk_library, get_book
from armylists.models import ArmyList
from armylists.rules import parse_roster

from .test_owb_list import OWB, needs_owb
from .test_tree_text import EMPIRE, EMPIRE_ROS, OLD_WORLD, import_data

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not OLD_WORLD.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")]

# The roster's 14 units in OWB's categories, each "<entry>" and its models (None: a character)
UNITS = [("characters", "general-of-the-empire", None), ("characters", "captain-of-the-empire", None),
         ("core", "state-troops", 30), ("core", "state-troops", 30), ("core", "state-troops", 30),
         ("core", "state-missile-troops", 10), ("core", "empire-knights", 8), ("core", "empire-knights", 8),
         ("core", "empire-knights", 6), ("special", "great-cannon", 1), ("special", "great-cannon", 1),
         ("special", "empire-greatswords", 20), ("rare", "steam-tank", 1), ("rare", "helblaster-volley-gun", 1)]


@pytest.fixture
def empire_tree(api_alice):
    import_data(EMPIRE)
    created = api_alice.post("/api/v1/lists/import/", EMPIRE_ROS.read_bytes(), content_type="application/xml")
    assert created.status_code == 201, created.content
    return ArmyList.objects.get(pk=created.json()["id"])


def written_units(data: dict) -> list[tuple[str, str, int | None]]:
    return sorted((c, u["id"].split(".")[0], u.get("strength")) for c in ("characters", "core", "special", "rare")
                  for u in data[c])


def test_a_tree_is_written_as_a_list_of_our_book_of_its_army(client_alice, empire_tree):
    answer = client_alice.get(f"/lists/{empire_tree.pk}/download/owb.json/")
    assert (answer.status_code, answer["Content-Type"]) == (200, "application/json; charset=utf-8")
    data = json.loads(answer.content)
    assert (data["army"], data["game"], data["points"], data["name"]) == (
        "empire-of-man", "the-old-world", 2000, "The Empire of Man legal")
    assert written_units(data) == sorted(UNITS)
    general = next(u for u in data["characters"] if u["id"].startswith("general-of-the-empire."))
    assert [c["name_en"] for c in general["command"] if c["active"]] == ["General"]
    assert [m["name_en"] for m in general["mounts"] if m["active"]] == ["Barded Warhorse"]
    # "Empire Steam Tank" is our "Steam Tank"; New Recruit's Lance (our "Lances and shields") is said, not guessed
    assert data["description"] == ("Not in Old World Builder's terms: Empire Knights: Lance; Empire Knights: Lance; "
                                   "Empire Knights: Lance.")


def test_the_tree_lists_page_sends_it_to_battle_tavern(client_alice, empire_tree):
    page = client_alice.get(reverse("list-detail", args=[empire_tree.pk]))
    form = page.context["battle_tavern"]
    assert form["action"] == "http://127.0.0.1:47823/import"
    [sent] = json.loads(json.loads(form["data"])["owb.lists"])
    assert written_units(sent) == sorted(UNITS)


def test_the_tree_books_army_is_the_book_its_name_begins_with():
    ours = list(disk_library().books.values())
    tow = [b for b in ours if b.system.id == "the-old-world"]

    class Named:
        def __init__(self, name):
            self.name = name
    assert target_book(Named("The Empire of Man - City-State of Nuln"), tow).id == "empire-of-man"
    assert target_book(Named("Dwarfen Mountain Holds"), tow).id == "dwarfen-mountain-holds"
    assert target_book(Named("Skaven"), tow) is None


@needs_owb
@pytest.mark.slow
def test_with_owbs_data_imported_the_tree_is_owbs_own_book_and_reads_back(client_alice, empire_tree):
    call_command("import_owb", str(OWB), stdout=StringIO())
    answer = client_alice.get(f"/lists/{empire_tree.pk}/download/owb.json/")
    data = json.loads(answer.content)
    assert written_units(data) == sorted(UNITS)
    book = next(b for b in (get_book("the-old-world", "owb-empire-of-man", v) for v in _versions()) if b)
    back = parse_roster(convert_list(data, book, "tree.owb.json"))
    assert sorted(u.entry for u in back.units) == sorted(e for _, e, _ in UNITS)
    assert next(u for u in back.units if u.entry == "general-of-the-empire").mount == "barded-warhorse"
    assert [u.general for u in back.units].count(True) == 1


def _versions() -> list[str]:
    from armylists.models import RulesFile
    return list(RulesFile.objects.filter(kind="book", slug="owb-empire-of-man").values_list("version", flat=True))
