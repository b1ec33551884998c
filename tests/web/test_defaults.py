"""Sensible defaults in the editor: what the catalogue says an entry costs is what it costs once added,
options are offered only where they can be taken, and a Wizard's level group reads as its level."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.lists.offers.entries import entry_costs

from .conftest import make_list, SYSTEM, BOOK, VERSION

pytestmark = pytest.mark.django_db


def archwizard_list(alice, **unit):
    return make_list(alice, {"format": "armylist/1", "name": "Wizards", "system": SYSTEM, "book": BOOK,
                             "book_version": VERSION, "points_limit": 2400,
                             "units": [{"id": "u1", "entry": "archwizard", **unit}]})


class TestCatalogueCosts:
    def test_the_catalogue_shows_what_an_entry_costs_once_added(self, edit, empty_list, client_alice, empire):
        # Sonnstahl's Light Artillery costs nothing itself; its compulsory weapon choice costs 60.
        assert (empire.entries["light-artillery"].points, entry_costs(empire)["light-artillery"]) == (0, 60)
        page = client_alice.get(reverse("list-edit", args=[empty_list.pk]))
        entries = {e["id"]: e for section in page.context["catalogue"] for e in section["entries"]}
        assert entries["light-artillery"]["cost"] == "60 pts"
        edit(empty_list, "unit-add", {"entry": "light-artillery"})
        empty_list.refresh_from_db()
        assert empty_list.total_points == 60


class TestOptionsOffered:
    def options(self, client_alice, army_list) -> list[str]:
        page = client_alice.get(reverse("list-edit", args=[army_list.pk]))
        card = next(c for s in page.context["sections"] for c in s.units if c.id == "u1")
        return [o["label"] for o in card.form["options"]]

    def test_barding_is_not_offered_to_a_wizard_on_foot(self, client_alice, alice):
        assert "Barding" not in self.options(client_alice, archwizard_list(alice))

    def test_barding_is_offered_once_the_wizard_rides_a_horse(self, client_alice, alice):
        assert "Barding" in self.options(client_alice, archwizard_list(alice, mount="horse"))

    def test_barding_already_taken_on_foot_stays_so_it_can_be_taken_off(self, client_alice, alice):
        assert "Barding" in self.options(client_alice, archwizard_list(alice, options={"barding": 1}))

    def test_the_wizard_level_group_reads_as_the_wizards_own_level(self, client_alice, alice):
        page = client_alice.get(reverse("list-edit", args=[archwizard_list(alice).pk]))
        card = next(c for s in page.context["sections"] for c in s.units if c.id == "u1")
        fieldset = card.form["fieldsets"][0]
        assert fieldset["legend"] == "Wizard level"
        assert [(c["label"], c["checked"]) for c in fieldset["choices"]] == [
            ("Level 3 Wizard", True), ("Level 4 Wizard Master", False)]
