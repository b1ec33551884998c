"""An entry's `discounts` (docs/book-format.md): of a set of its options, the cheapest the unit takes is paid
at a percent of its price, a fraction rounded as the set says. The Keys to the Citadel of Infernal Dwarves'
Overlords is one (New Recruit's ruledefs.json `id-keys_to_the_citadel`: "The Points Cost of one of the
Weapon Enchantments (the cheapest if applicable) is halved, rounding fractions up"); here on a book of our
own format, written for the test. Engine only: no database.
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from armylists.rules import parse_roster, validate
from armylists.rules.native.army import Army, added_points, discount_cuts
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import build_book, load_system_part

ROOT = Path(__file__).resolve().parents[2]
SYSTEM, _, _ = load_system_part(ROOT / "rules_data" / "t9a-2", ROOT / "rules_data")

LORD = {
    "id": "lord", "name": "Lord", "category": "characters", "troop_type": "model", "points": 170,
    "options": [
        {"id": "slayer", "name": "Giant Slayer", "cost": 25, "group": "hand", "tags": ["gear"]},
        {"id": "touch", "name": "Touch of Greatness", "cost": 50, "group": "hand", "tags": ["gear"]},
        {"id": "eye", "name": "Eye of the Bull", "cost": 30, "group": "axe", "tags": ["gear"]},
        {"id": "slayer-axe", "name": "Giant Slayer (Axe)", "cost": 25, "group": "axe", "tags": ["gear"]},
        {"id": "bull", "name": "Eye of the Bull (Great)", "cost": 30, "group": "great", "tags": ["gear"]},
        {"id": "free", "name": "Eldritch Inscriptions", "cost": 0, "group": "great", "tags": ["gear"]},
        {"id": "ring", "name": "Ring", "cost": 50, "tags": ["gear"]},
    ],
    "groups": {"hand": {"name": "Hand Weapon Enchant"}, "axe": {"name": "Axe Enchant"},
               "great": {"name": "Great Weapon Enchant"}},
    "discounts": [{"name": "Keys to the Citadel", "groups": ["hand", "axe", "great"], "cheapest_percent": 50,
                   "round": "up", "source": "ruledefs.json id-keys_to_the_citadel"}],
}
TROOPS = {
    "id": "troops", "name": "Troops", "category": "core", "troop_type": "model", "points": 10,
    "size": {"min": 5, "max": 20},
    "options": [{"id": "spears", "name": "Spears", "cost": 3, "per_model": True},
                {"id": "banner", "name": "Banner", "cost": 25}],
    "discounts": [{"name": "Drill", "options": ["spears", "banner"], "cheapest_percent": 50, "round": "down"}],
}
# The allowance counts what the unit pays: a per-unit points limit on the tag the enchantments carry.
def allowance(most: int) -> dict:
    return {"id": "allowance", "type": "tally_limit",
            "params": {"label": "Lord: allowance", "count": ["gear"], "what": "points", "scope": "unit",
                       "entries": ["lord"], "max": most}}


def book(*entries, most=115):
    data = {"kind": "book", "id": "discount-test", "name": "Discount Test", "system": "t9a-2", "version": "1",
            "sources": ["written for this test"], "entries": [copy.deepcopy(e) for e in entries or (LORD, TROOPS)], "rules": [allowance(most)]}
    return build_book(data, SYSTEM, {}, "discount-test.yaml")


BOOK = book()


def priced(options=None, entry="lord", size=None, model_options=None, the_book=BOOK):
    unit = {"id": "u", "entry": entry, "options": options or {}}
    if size is not None:
        unit["size"] = size
    if model_options is not None:
        unit["model_options"] = model_options
    doc = {"format": "armylist/1", "system": "t9a-2", "book": the_book.id, "book_version": the_book.version,
           "points_limit": 4500, "units": [unit]}
    roster = parse_roster(doc)
    return validate(the_book, roster), Army(the_book, roster).units[0]


def points(options=None, **kw) -> int:
    return priced(options, **kw)[0].units[0].points


class TestThePrice:
    def test_an_odd_cheaper_price_is_halved_rounding_up(self):
        # Giant Slayer 25 and Touch of Greatness 50: 25 -> 13 (12.5 rounded up), 170 + 13 + 50.
        assert points({"slayer": 1, "touch": 1}) == 233

    def test_the_cheaper_is_halved_whichever_weapon_carries_it(self):
        # The same enchantment on another weapon (a per-weapon copy) is one of the set: 25 -> 13 on the axe.
        assert points({"slayer-axe": 1, "touch": 1}) == 233
        assert priced({"slayer-axe": 1, "touch": 1})[1].cuts == {"slayer-axe": 12}

    def test_equal_prices_halve_one_of_them(self):
        # Eye of the Bull 30 on the axe and on a great weapon: 15 + 30, not 15 + 15.
        assert points({"eye": 1, "bull": 1}) == 170 + 15 + 30

    def test_a_single_one_is_the_cheapest_and_is_halved(self):
        assert points({"slayer": 1}) == 170 + 13

    def test_none_taken_costs_the_entry_alone(self):
        assert points({}) == 170
        assert priced({})[1].cuts == {}

    def test_a_free_one_is_the_cheapest_and_nothing_is_taken_off(self):
        # "the cheapest if applicable": a 0-pt enchantment beside a 30-pt one is the one halved (0 -> 0).
        assert points({"free": 1, "eye": 1}) == 170 + 30

    def test_an_option_outside_the_set_is_never_discounted(self):
        # The Ring (50) is not in the set: Touch of Greatness (50), the set's only one taken, is the one halved.
        assert points({"ring": 1, "touch": 1}) == 170 + 50 + 25

    def test_rounding_down_and_a_per_model_option_priced_for_the_whole_unit(self):
        # Spears 3 a model for 5 models (15) beside a Banner (25): 15 -> 7 (7.5 rounded down), 50 + 7 + 25.
        assert points({"spears": 1, "banner": 1}, entry="troops") == 82
        # 10 models: spears 30 is dearer than the banner 25 -> 12 (12.5 down): 100 + 30 + 12.
        assert points({"spears": 1, "banner": 1}, entry="troops", size=10) == 142

    def test_each_models_own_options_are_a_set_of_their_own(self):
        # Two models each with their own Banner (25 -> 12 each, rounding down) and none for the unit: 50 + 24.
        assert points({}, entry="troops", model_options=[{"banner": 1}, {"banner": 1}]) == 74

    def test_the_engine_function_names_what_it_takes_off(self):
        entry = BOOK.entries["lord"]
        assert discount_cuts(entry, [("touch", 1), ("eye", 1), ("ring", 1)], 1) == {"eye": 15}
        assert discount_cuts(entry, [("touch", 0), ("eye", 0)], 1) == {}


class TestWhatReadsIt:
    def test_the_allowance_counts_the_discounted_price_at_its_boundary(self):
        # Touch 50 + Eye 30 (-> 15) + Ring 50: 115 paid (130 listed): at most 115 passes...
        taken = {"touch": 1, "eye": 1, "ring": 1}
        report, _ = priced(taken)
        assert report.units[0].points == 170 + 115
        assert [v.code for v in report.violations if v.code.startswith("tally")] == []
        # ...and at most 114 is one point short.
        report, _ = priced(taken, the_book=book(most=114))
        assert [(v.code, v.message) for v in report.violations if v.code.startswith("tally")] == [
            ("tally.max", "Lord: allowance: 115 pts in Lord (u); at most 114 pts.")]

    def test_what_one_more_adds_is_the_engines_price(self):
        _, unit = priced({"touch": 1})  # Touch alone is the cheapest: 50 -> 25
        option = BOOK.entries["lord"].options
        # Giant Slayer becomes the cheapest (25 -> 13) and Touch costs 50 again: 63 - 25.
        assert added_points(unit, option["slayer"]) == 38
        assert added_points(unit, option["ring"]) == 50  # not in the set
        assert added_points(unit, option["free"]) == 25  # 0 is the cheapest now: Touch at its full price

    def test_the_units_form_says_which_options_a_discount_prices(self):
        from armylists.editor.unit_cards import unit_form_view
        roster = parse_roster({"format": "armylist/1", "system": "t9a-2", "book": BOOK.id, "book_version": BOOK.version,
                               "points_limit": 4500, "units": [{"id": "u", "entry": "lord"}]})
        view = unit_form_view(BOOK, roster.units[0], BOOK.entries["lord"])
        notes = {c["value"]: c["note"] for f in view["fieldsets"] for c in f["choices"]}
        said = "Keys to the Citadel: the cheapest taken of these costs 50% of its price, rounded up."
        assert (notes["slayer"], notes["eye"], notes[""]) == (said, said, "")
        assert [(o["label"], o["note"]) for o in view["options"]] == [("Ring", "")]

    def test_the_text_export_totals_the_engines_price(self):
        from armylists.exports.text import export_text
        doc = {"format": "armylist/1", "system": "t9a-2", "book": BOOK.id, "book_version": BOOK.version,
               "points_limit": 4500, "units": [{"id": "u", "entry": "lord", "options": {"slayer": 1, "touch": 1}}]}
        roster = parse_roster(doc)
        text = export_text(BOOK, roster, validate(BOOK, roster))
        assert "233 - Lord" in text


class TestTheData:
    def test_a_discount_naming_an_option_the_entry_lacks_is_a_load_error(self):
        lord = {**LORD, "discounts": [{**LORD["discounts"][0], "options": ["vorpal"]}]}
        with pytest.raises(RulesDataError) as err:
            book(lord)
        assert str(err.value) == ("discount-test.yaml: entries[0].discounts[0].options[0]: names 'vorpal', which is "
                                  "not an option of this entry")

    def test_a_discount_naming_no_option_is_a_load_error(self):
        lord = {**LORD, "discounts": [{"name": "Keys", "cheapest_percent": 50, "round": "up"}]}
        with pytest.raises(RulesDataError) as err:
            book(lord)
        assert str(err.value) == "discount-test.yaml: entries[0].discounts[0]: names no option (options or groups)"

    @pytest.mark.parametrize("change, where", [
        ({"cheapest_percent": 101}, "cheapest_percent"), ({"round": "half"}, "round"), ({"percent": 50}, "")])
    def test_the_schema_bounds_the_percent_and_the_rounding(self, change, where):
        lord = {**LORD, "discounts": [{**LORD["discounts"][0], **change}]}
        with pytest.raises(RulesDataError) as err:
            book(lord)
        assert f"entries[0].discounts[0]{'.' + where if where else ''}" in str(err.value)
