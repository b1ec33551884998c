"""The editor and an allied contingent (The Old World's Allies): choosing the allies book in the list's
settings, adding its entries as allied units, and editing them against their own book."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.lists.library.catalogue import disk_library, report_for
from armylists.models import ArmyList

from .conftest import make_list, roster_of, unit_of

pytestmark = pytest.mark.django_db

SYSTEM, EMPIRE, DWARFS, ORCS = "the-old-world", "empire-of-man", "dwarfen-mountain-holds", "orc-and-goblin-tribes"


def version(book_id: str) -> str:
    """The loaded version of a book (the rules data moves on; the tests follow it)."""
    return max(v for (s, b, v) in disk_library().books if s == SYSTEM and b == book_id)


MAIN = [
    {"id": "general", "entry": "general-of-the-empire", "general": True},
    {"id": "troops", "entry": "state-troops", "size": 20},
]


def document(allies: str | None = None, allied_units: list[dict] | None = None) -> dict:
    doc = {"format": "armylist/1", "name": "Empire and friends", "system": SYSTEM, "book": EMPIRE,
           "book_version": version(EMPIRE), "points_limit": 2000, "units": MAIN + (allied_units or [])}
    if allies:
        doc["allies"] = {"book": allies, "book_version": version(allies)}
    return doc


@pytest.fixture
def empire_list(alice) -> ArmyList:
    return make_list(alice, document())


@pytest.fixture
def allied_list(alice) -> ArmyList:
    return make_list(alice, document(DWARFS, [{"id": "thane", "entry": "thane", "allied": True},
                                              {"id": "warriors", "entry": "dwarf-warriors", "size": 10,
                                               "allied": True}]))


def settings(army_list: ArmyList, allies: str) -> dict:
    army_list.refresh_from_db()
    return {"name": army_list.name, "points_limit": 2000, "composition": "", "allies": allies}


def codes(army_list: ArmyList) -> set[str]:
    return {v.code for v in report_for(roster_of(army_list)).violations}


def card(response, unit_id: str):
    return next(c for s in response.context["sections"] for c in s.units if c.id == unit_id)


class TestChooseAllies:
    def test_the_settings_offer_the_books_the_list_may_ally_with(self, client_alice, empire_list):
        response = client_alice.get(reverse("list-edit", args=[empire_list.pk]))
        keys = [key for key, _ in response.context["ally_choices"]]
        assert f"{DWARFS}/{version(DWARFS)}" in keys
        assert f"{EMPIRE}/{version(EMPIRE)}/city-state-of-nuln" in keys
        assert not any(k.startswith(ORCS) for k in keys)  # Empire may not ally with Orcs
        assert 'name="allies"' in response.content.decode()

    def test_choosing_allies_saves_the_allies_block(self, edit, empire_list):
        response = edit(empire_list, "list-settings", settings(empire_list, f"{DWARFS}/{version(DWARFS)}"))
        assert response.status_code == 302
        empire_list.refresh_from_db()
        assert empire_list.document["allies"] == {"book": DWARFS, "book_version": version(DWARFS)}
        assert [u["id"] for u in empire_list.document["units"]] == ["general", "troops"]

    def test_for_htmx_the_catalogue_is_redrawn_with_the_allies(self, edit, empire_list):
        response = edit(empire_list, "list-settings", settings(empire_list, f"{DWARFS}/{version(DWARFS)}"), htmx=True)
        assert response.status_code == 200
        content = response.content.decode()
        assert 'id="catalogue"' in content and "Allies: Dwarfen Mountain Holds" in content

    def test_a_composition_of_allies_is_saved(self, edit, empire_list):
        edit(empire_list, "list-settings", settings(empire_list, f"{EMPIRE}/{version(EMPIRE)}/city-state-of-nuln"))
        empire_list.refresh_from_db()
        assert empire_list.document["allies"] == {"book": EMPIRE, "book_version": version(EMPIRE),
                                                  "composition": "city-state-of-nuln"}

    def test_an_ally_book_not_allowed_is_refused_and_nothing_is_saved(self, edit, empire_list):
        response = edit(empire_list, "list-settings", settings(empire_list, f"{ORCS}/{version(ORCS)}"))
        assert response.status_code == 400
        assert (f"{ORCS}/{version(ORCS)} is not an army Empire of Man may take allies from."
                in response.content.decode())
        empire_list.refresh_from_db()
        assert "allies" not in empire_list.document and empire_list.revision == 1

    def test_a_stale_settings_edit_changes_nothing(self, edit, empire_list):
        response = edit(empire_list, "list-settings", settings(empire_list, f"{DWARFS}/{version(DWARFS)}"),
                        revision=empire_list.revision + 5)
        assert response.status_code == 409
        empire_list.refresh_from_db()
        assert "allies" not in empire_list.document

    def test_settings_without_the_allies_field_keep_the_allies(self, edit, allied_list):
        data = settings(allied_list, "")
        del data["allies"]
        data["name"] = "Renamed"
        assert edit(allied_list, "list-settings", data).status_code == 302
        allied_list.refresh_from_db()
        assert allied_list.document["allies"]["book"] == DWARFS and len(allied_list.document["units"]) == 4

    def test_removing_allies_removes_the_allied_units_and_says_so(self, edit, client_alice, allied_list):
        response = edit(allied_list, "list-settings", settings(allied_list, ""), htmx=True)
        assert response.status_code == 200
        assert "2 allied units (thane, warriors) were removed with the allies." in response.content.decode()
        allied_list.refresh_from_db()
        assert "allies" not in allied_list.document
        assert [u["id"] for u in allied_list.document["units"]] == ["general", "troops"]

    def test_another_allies_book_removes_the_old_allied_units(self, edit, allied_list):
        response = edit(allied_list, "list-settings", settings(allied_list, f"{EMPIRE}/{version(EMPIRE)}/city-state-of-nuln"))
        assert response.status_code == 302
        allied_list.refresh_from_db()
        assert allied_list.document["allies"]["composition"] == "city-state-of-nuln"
        assert not any(u.get("allied") for u in allied_list.document["units"])


class TestAddAllied:
    def test_the_catalogue_shows_the_allies_entries(self, client_alice, allied_list):
        response = client_alice.get(reverse("list-edit", args=[allied_list.pk]))
        section = response.context["catalogue"][-1]
        assert section["name"] == "Allies: Dwarfen Mountain Holds" and section["allied"] is True
        assert "thane" in [e["id"] for e in section["entries"]]
        assert 'id="add-allied-thane"' in response.content.decode()

    def test_no_allies_no_allies_section(self, client_alice, empire_list):
        response = client_alice.get(reverse("list-edit", args=[empire_list.pk]))
        assert not any(s["allied"] for s in response.context["catalogue"])

    def test_adding_an_allied_entry_adds_an_allied_unit(self, edit, allied_list):
        response = edit(allied_list, "unit-add", {"entry": "dwarf-warriors", "allied": "1"})
        assert response.status_code == 302
        unit = unit_of(allied_list, "dwarf-warriors")
        assert unit == {"id": "dwarf-warriors", "entry": "dwarf-warriors", "size": 5, "allied": True}
        report = report_for(roster_of(allied_list))
        allies = next(c for c in report.categories if c.id == "allies")
        assert allies.units == 3 and allies.points > 0
        assert "list.unknown_entry" not in codes(allied_list)

    def test_an_allied_entry_without_allies_is_refused(self, edit, empire_list):
        response = edit(empire_list, "unit-add", {"entry": "thane", "allied": "1"})
        assert response.status_code == 400
        assert "This list takes no allies" in response.content.decode()
        empire_list.refresh_from_db()
        assert len(empire_list.document["units"]) == 2


class TestAlliedCards:
    def test_an_allied_unit_shows_its_entry_and_options(self, client_alice, allied_list):
        response = client_alice.get(reverse("list-edit", args=[allied_list.pk]))
        thane = card(response, "thane")
        assert thane.name == "Thane" and thane.category == "allies"
        labels = [o["label"] for o in thane.form["options"]] + [
            c["label"] for f in thane.form["fieldsets"] for c in f["choices"]]
        assert "Shield" in labels and "Great weapon" in labels
        assert thane.bearers and thane.bearers[0]["b"].offers  # runes, from the Dwarfs' book
        content = response.content.decode()
        assert "Unknown entry" not in content and "Not in this book" not in content

    def test_a_size_edit_on_an_allied_unit_saves(self, edit, allied_list):
        response = edit(allied_list, "unit-update", {"only": "size", "size": 16}, "warriors")
        assert response.status_code == 302
        assert unit_of(allied_list, "warriors") == {"id": "warriors", "entry": "dwarf-warriors", "size": 16,
                                                    "allied": True}

    def test_an_option_edit_on_an_allied_unit_saves(self, edit, allied_list):
        response = edit(allied_list, "unit-update", {"only": "opt-shield", "opt-shield": "on"}, "thane")
        assert response.status_code == 302
        assert unit_of(allied_list, "thane")["options"] == {"shield": 1}

    def test_an_item_from_the_allies_book_is_given(self, client_alice, edit, allied_list):
        response = client_alice.get(reverse("list-edit", args=[allied_list.pk]))
        offers = card(response, "thane").bearers[0]["b"].offers
        item = offers[0][1][-1].id
        response = edit(allied_list, "item-add", {"bearer": "model", "item": item}, "thane")
        assert response.status_code == 302, response.content.decode()[:2000]
        assert unit_of(allied_list, "thane")["items"] == [item]
