"""Which items the editor offers a model, and the allowance left: pure, against the real Empire book."""
from __future__ import annotations

import pytest

from armylists.lists.offers.item_choices import item_choices
from armylists.rules import parse_roster

from .conftest import BOOK, SYSTEM, VERSION


@pytest.fixture
def book(library):
    return library.book(SYSTEM, BOOK, VERSION)


def roster(*units: dict):
    return parse_roster({"format": "armylist/1", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
                         "points_limit": 2400, "units": list(units)})


def offered(bearer) -> dict[str, int]:
    return {o.id: o.cost for _, offers in bearer.offers for o in offers}


def categories(bearer) -> list[str]:
    return [name for name, _ in bearer.offers]


class TestItemChoices:
    def test_a_lord_on_foot_may_take_weapons_at_the_lord_price_but_no_standard_or_arcane_item(self, book):
        [model] = item_choices(book, roster({"id": "m", "entry": "marshal"}), "m")
        assert (model.kind, model.allowance, model.spent, model.left) == ("model", 100, 0, 100)
        items = offered(model)
        assert items["giant-sword"] == 60  # dual-priced: the Lord price (000:L2846-2849)
        assert "fencers-swords" in items  # on foot only
        assert "flaming-lance" not in items  # mounted only
        assert "Magical Standards" not in categories(model)
        assert "Arcane Items" not in categories(model)

    def test_a_mount_changes_what_fits(self, book):
        [model] = item_choices(book, roster({"id": "m", "entry": "marshal", "mount": "horse"}), "m")
        assert "flaming-lance" in offered(model)
        assert "fencers-swords" not in offered(model)

    def test_what_it_carries_takes_its_category_and_its_points(self, book):
        [model] = item_choices(book, roster({"id": "m", "entry": "marshal", "items": ["giant-sword"]}), "m")
        assert [(c.id, c.cost) for c in model.carried] == [("giant-sword", 60)]
        assert (model.spent, model.left) == (60, 40)
        assert "Magical Weapons" not in categories(model)  # one item of each category per model
        assert max(offered(model).values()) <= 40

    def test_a_battle_standard_bearer_may_take_a_standard(self, book):
        [model] = item_choices(book, roster({"id": "b", "entry": "captain",
                                             "options": {"battle-standard-bearer": 1}}), "b")
        assert "rending-banner" in offered(model)

    def test_a_wizard_may_take_arcane_items_but_not_armour_without_mundane_armour(self, book):
        [model] = item_choices(book, roster({"id": "w", "entry": "wizard"}), "w")
        assert "Arcane Items" in categories(model)
        assert "Magical Armour" not in categories(model)  # 000:L2827-2828

    def test_an_item_taken_once_is_not_offered_again_nor_its_variant(self, book):
        lists = roster({"id": "w", "entry": "wizard", "items": ["dispel-scroll"]}, {"id": "w2", "entry": "wizard"})
        [other] = item_choices(book, lists, "w2")
        assert "dispel-scroll" not in offered(other)
        assert "dispel-scroll-enchanted" not in offered(other)

    def test_an_item_for_armies_without_wizards_is_offered_only_there(self, book):
        [alone] = item_choices(book, roster({"id": "m", "entry": "marshal"}), "m")
        assert "dispel-scroll-enchanted" in offered(alone)
        [with_wizard] = item_choices(book, roster({"id": "m", "entry": "marshal"}, {"id": "w", "entry": "wizard"}), "m")
        assert "dispel-scroll-enchanted" not in offered(with_wizard)

    def test_a_veteran_standard_bearer_may_take_a_standard_up_to_its_cap(self, book):
        unit = {"id": "h", "entry": "heavy-infantry", "size": 20, "command": ["standard"], "veteran_standard": True}
        [standard] = item_choices(book, roster(unit), "h")
        assert (standard.kind, standard.label, standard.allowance) == ("standard", "Veteran Standard Bearer", 25)
        assert categories(standard) == ["Magical Standards"]
        assert max(offered(standard).values()) <= 25

    def test_a_unit_without_item_access_has_no_bearer(self, book):
        unit = {"id": "h", "entry": "heavy-infantry", "size": 20, "command": ["champion", "standard"]}
        assert item_choices(book, roster(unit), "h") == []

    def test_a_standard_with_no_points_cap(self, book):
        unit = {"id": "g", "entry": "imperial-guard", "size": 20, "command": ["standard"]}
        [standard] = item_choices(book, roster(unit), "g")
        assert standard.allowance is None and standard.left is None
        assert "rending-banner" in offered(standard)

    def test_items_it_may_not_carry_are_shown_to_be_removed(self, book):
        unit = {"id": "h", "entry": "heavy-infantry", "size": 20, "items": ["giant-sword", "no-such-item"]}
        [model] = item_choices(book, roster(unit), "h")
        assert model.allowed is False and model.offers == ()
        assert [(c.id, c.cost) for c in model.carried] == [("giant-sword", 50), ("no-such-item", None)]

    def test_an_unknown_unit_has_no_choices(self, book):
        assert item_choices(book, roster({"id": "m", "entry": "marshal"}), "ghost") == []


class TestBlockedItems:
    """Items of a category the model may take, shown greyed with the reason it may not take them now."""

    def reasons(self, bearer) -> dict[str, str]:
        return {b.id: b.reason for _, blocked in bearer.blocked for b in blocked}

    def test_each_reason_in_a_players_words(self, book):
        lists = roster({"id": "m", "entry": "marshal", "items": ["giant-sword"]}, {"id": "w", "entry": "wizard"})
        [model] = item_choices(book, lists, "m")
        reasons = self.reasons(model)
        assert reasons["the-sonnstahl"] == "already carries one of the Magical Weapons"
        assert reasons["force-shield"] == "costs 70 pts; 40 pts of the allowance left"
        assert reasons["essence-of-a-free-mind"] == "Wizards only"
        assert reasons["dispel-scroll-enchanted"] == "only in an army without Wizards"
        assert reasons["flaming-lance"] == ("Cavalry, Monstrous Cavalry, Chariot, Ridden Monster, War Beast, "
                                            "Monstrous Beast only")

    def test_the_allowance_left_is_the_boundary(self, book):
        [model] = item_choices(book, roster({"id": "m", "entry": "marshal", "items": ["force-shield"]}), "m")
        over = {b.id: b.reason for _, blocked in model.blocked for b in blocked if b.reason.startswith("costs ")}
        assert model.left == 30 and offered(model)["king-slayer"] == 30  # exactly what is left: offered
        assert min(int(r.split()[1]) for r in over.values()) == 35  # the cheapest item over it: greyed

    def test_an_item_taken_by_another_model_says_so(self, book):
        lists = roster({"id": "w", "entry": "wizard", "items": ["dispel-scroll"]}, {"id": "w2", "entry": "wizard"})
        [other] = item_choices(book, lists, "w2")
        assert self.reasons(other)["dispel-scroll"] == "already taken in the army (one of each per army)"
