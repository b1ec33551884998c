"""New Recruit's T9A books in the editor as our own books are: a pool's items (a Dwarf King's runes) in an
item picker with the allowance left and each refusal's reason, the same limits as the Report's, spells,
profiles and rule texts on the unit's card.

Numbers are those of Dwarven Holds in New Recruit's data at the bundle's head (b543015, 2026-04-10), read
from ../shared/external/new-recruit-t9a at run time (never copied here): the King's `leafMaxCost` 250
(dh.json, the King's equipment node), Rune of Steel 50 (Armour Runes, at most 3 of them), Rune of
Destruction 80 and Extraordinary (at most once per army: docs/import-nr-t9a.md, "Rarity of Special Items").
"""
from __future__ import annotations

from functools import lru_cache

import pytest
from django.urls import reverse

from armylists.lists.offers.pool_choices import pool_choices
from armylists.rules import parse_roster, validate

from tests.importers.nr_summaries import BUNDLE, LATER, needs_data, store

pytestmark = needs_data
KING = "king"
ALLOWANCE = "King: special items allowance"


@lru_cache(maxsize=None)
def dwarven_holds():
    from armylists.importers.nr_t9a import check, convert, open_source
    from armylists.lists.library.catalogue import disk_library

    system = disk_library().systems["t9a-2"]
    source = open_source(BUNDLE)
    try:
        conversion = convert(source.at(LATER), ["dh.json"], frozenset(c.id for c in system.categories))
    finally:
        source.close()
    return check(conversion, system)["dh"]


def roster(*units: dict):
    book = dwarven_holds()
    return parse_roster({"format": "armylist/1", "system": "t9a-2", "book": book.id, "book_version": book.version,
                         "points_limit": 4500, "units": list(units)})


def king(**options) -> dict:
    return {"id": "k", "entry": KING, "general": True, "options": {"general": 1, "light-troops": 1, **options}}


def thane(**options) -> dict:
    return {"id": "t", "entry": "thane", "options": {"captain-and-attached": 1, "light-troops": 1, **options}}


def offers(picker) -> dict[str, int]:
    return {o.id: o.cost for _, items in picker.offers for o in items}


def blocked(picker) -> dict[str, str]:
    return {o.id: o.reason for _, items in picker.blocked for o in items}


def errors(r) -> list[tuple[str, str]]:
    return [(v.code, v.message) for v in validate(dwarven_holds(), r).violations if v.severity == "error"
            and v.code.startswith("tally")]


class TestTheKingsRunes:
    def test_they_are_offered_by_pool_with_the_allowance_of_the_data(self):
        picker = pool_choices(dwarven_holds(), r := roster(king()), "k")
        assert [(a.label, a.allowance, a.spent, a.left) for a in picker.allowances] == [
            ("special items allowance", 250, 0, 250)]
        assert [name for name, _ in picker.offers] == ["Armour Runes", "Hand Weapon Runes", "Talismanic Runes"]
        items = offers(picker)
        assert (items["rune-of-steel"], items["rune-of-destruction-hand-weapon"], items["rune-of-the-forge"]) == (50, 80, 5)
        assert "battle-rune" not in items  # a choice of the unit's own (its Battle Runes group), not a pool's item
        assert errors(r) == []

    def test_the_allowance_holds_at_exactly_250_and_one_rune_more_is_refused_with_its_message(self):
        at_limit = king(**{"rune-of-destruction-hand-weapon": 1, "rune-of-steel": 3, "rune-of-readiness": 1})
        assert errors(roster(at_limit)) == []  # 80 + 3 x 50 + 20 = 250
        assert pool_choices(dwarven_holds(), roster(at_limit), "k").allowances[0].left == 0
        over = king(**{"rune-of-destruction-hand-weapon": 1, "rune-of-steel": 3, "rune-of-readiness": 1,
                       "rune-of-courage": 1})
        assert errors(roster(over)) == [
            ("tally.max", "King: special items allowance: 260 pts in King (k); at most 250 pts.")]

    def test_what_fits_the_allowance_left_is_offered_and_what_does_not_says_why(self):
        picker = pool_choices(dwarven_holds(), roster(king(**{"rune-of-destruction-hand-weapon": 1,
                                                               "rune-of-steel": 3, "rune-of-courage": 1})), "k")
        assert picker.allowances[0].left == 10  # 80 + 150 + 10 spent
        assert offers(picker)["rune-of-mining"] == 10  # exactly what is left: offered
        assert blocked(picker)["rune-of-storms"] == "costs 15 pts; 10 pts of the allowance left"
        # Three Armour Runes at most (the group's maxSize), counted by the same limit as the Report's
        assert blocked(picker)["rune-of-the-forge"] == "Armour Runes: at most 3 in the unit, 3 taken"
        assert [(c.id, c.taken) for c in picker.carried] == [
            ("rune-of-steel", 3), ("rune-of-destruction-hand-weapon", 1), ("rune-of-courage", 1)]


class TestARarePoolItem:
    def test_an_extraordinary_rune_is_taken_once_per_army(self):
        one = roster(king(**{"rune-of-destruction-hand-weapon": 1}), thane())
        assert errors(one) == []
        assert blocked(pool_choices(dwarven_holds(), one, "t"))["rune-of-destruction-hand-weapon"] == (
            "Rune of Destruction (Extraordinary): at most 1 in the army, 1 taken")
        two = roster(king(**{"rune-of-destruction-hand-weapon": 1}), thane(**{"rune-of-destruction-hand-weapon": 1}))
        assert errors(two) == [("tally.max", "Rune of Destruction (Extraordinary): 2 units with it in the army; at most 1.")]


class TestWhatTheCardShows:
    def test_the_profile_rules_and_spells_of_the_data(self):
        entry = dwarven_holds().entries[KING]
        assert list(entry.profiles) == [{"name": "King", "Ad": "3", "Ma": "4", "Di": "10", "HP": "3", "Df": "7",
                                         "Re": "5", "Arm": "3", "At": "4", "Of": "7", "St": "4", "AP": "1", "Ag": "4"}]
        assert entry.rules[:2] == ("Disciplined", "Ancient Grudge (1)")
        assert entry.options["battle-rune"].text == (
            "Battle Runes (1): Rune of Revocation, Rune of Reckoning, Rune of Oaths, Rune of Resolve, "
            "Rune of Gleaming, Rune of Resilience")
        assert entry.options["rune-of-steel"].text == "Must reroll failed Armour Save rolls."
        # A mount chosen as an option (`refopt`) brings its own model part (unitstats.json's warThroneMount)
        assert list(entry.options["war-throne"].profiles) == [{
            "name": "Throne Bearer (4)", "mount": True, "Ad": "3", "Ma": "4", "Di": "C", "HP": "6", "Df": "C",
            "Re": "C", "Arm": "C+2", "At": "1", "Of": "5", "St": "4", "AP": "1", "Ag": "2"}]

    def test_rule_texts_by_name(self):
        from armylists.lists.offers.rule_texts import rule_texts
        shown = rule_texts(dwarven_holds(), roster(king(**{"battle-rune": 1})).units[0], dwarven_holds().entries[KING])
        by_name = {r["name"]: r for r in shown}
        assert by_name["Disciplined"]["text"].startswith("Command Tests taken by a unit containing Disciplined")
        assert by_name["Battle Rune"]["text"].startswith("Battle Runes (1): Rune of Revocation")


def test_taking_a_pool_item_redraws_every_card_as_its_rarity_may_change_what_others_are_offered():
    from armylists.editor.changes import changed_units
    from armylists.lists.kinds import NATIVE
    book = dwarven_holds()
    before = roster(king(), thane())
    rune, wall = roster(king(**{"rune-of-destruction-hand-weapon": 1}), thane()), roster(king(**{"shield-wall": 1}), thane())
    assert changed_units(NATIVE, before, validate(book, before), rune, validate(book, rune), book) is None  # the whole list
    assert changed_units(NATIVE, before, validate(book, before), wall, validate(book, wall), book) == {"k"}  # that card alone


def test_the_text_export_names_the_runes_taken_and_how_often():
    from armylists.exports.text import export_text
    r = roster(king(**{"rune-of-steel": 2, "rune-of-destruction-hand-weapon": 1}))
    text = export_text(dwarven_holds(), r, validate(dwarven_holds(), r))
    assert "380 - King, General, Light Troops, 2x Rune of Steel, Rune of Destruction (Hand Weapon)" in text
    assert "Total: 380 pts of 4500" in text  # 200 + 2 x 50 + 80


class TestTheGeneralIsAnOption:
    """New Recruit's data makes a model the General by an option that may cost points (dh.json: the Thane's
    General, 10 pts); the 2nd edition's General rule reads who the General is (rules_data/t9a-2/system.yaml)."""

    def general(self, r) -> list[tuple[str, str]]:
        return [(v.code, v.message) for v in validate(dwarven_holds(), r).violations
                if v.code.startswith(("general.", "list.general"))]

    def test_the_option_makes_its_model_the_general_and_is_paid_for(self):
        marked = roster(king(), {"id": "t", "entry": "thane", "options": {"captain-and-attached": 1}})
        by_option = roster({**king(), "general": False, "options": {"light-troops": 1}},
                           {"id": "t", "entry": "thane", "options": {"captain-and-attached": 1, "general": 1}})
        assert self.general(marked) == [] and self.general(by_option) == []
        points = {u.id: u.points for u in validate(dwarven_holds(), by_option).units}
        assert points["t"] - {u.id: u.points for u in validate(dwarven_holds(), marked).units}["t"] == 10

    def test_a_unit_marked_the_general_without_its_option_is_refused_once(self):
        r = roster({**king(), "general": False, "options": {"light-troops": 1}},
                   {"id": "t", "entry": "thane", "general": True, "options": {"captain-and-attached": 1}})
        assert self.general(r) == [("list.general_option", "Thane (t) is marked the General but does not take its "
                                                           "option General (10 pts): take the option to make it the General.")]
        assert not validate(dwarven_holds(), r).valid

    def test_the_general_box_takes_the_option_from_one_unit_to_another(self):
        from armylists.lists.saved.edits import update_unit
        book = dwarven_holds()
        r = roster(king(), {"id": "t", "entry": "thane", "options": {"captain-and-attached": 1}})
        moved = update_unit(book, r, "t", {"general": True})
        assert [(u.id, u.general, dict(u.options).get("general")) for u in moved.units] == [
            ("k", False, None), ("t", True, 1)]
        assert self.general(moved) == []
        # Ticking the option (an API or a summary's options) moves the mark too.
        back = update_unit(book, moved, "k", {"options": {"light-troops": 1, "general": 1}})
        assert [(u.id, u.general, dict(u.options).get("general")) for u in back.units] == [
            ("k", True, 1), ("t", False, None)]

    def test_the_text_says_general_once_and_reads_back_to_the_option(self):
        from armylists.exports.text import export_text
        from armylists.exports.text_read import parse_list_text
        book = dwarven_holds()
        r = roster({**king(), "general": False, "options": {"light-troops": 1}},
                   {"id": "t", "entry": "thane", "general": True, "options": {"general": 1}})
        text = export_text(book, r, validate(book, r))
        assert [line for line in text.splitlines() if " - Thane" in line][0].split(" - ")[1].split(", ")[:2] == [
            "Thane", "General"]
        assert text.count("General") == 1
        thane_read = parse_list_text(text, [book]).units[1]
        assert (thane_read.general, dict(thane_read.options).get("general")) == (True, 1)

    def test_the_card_offers_the_datas_general_choice_and_no_second_general_box(self):
        from armylists.editor.unit_cards import unit_form_view
        book = dwarven_holds()
        ru = roster(king(), {"id": "t", "entry": "thane", "options": {"captain-and-attached": 1}}).units[1]
        view = unit_form_view(book, ru, book.entries["thane"])
        assert [f["name"] for f in view["roles"]] == []  # no General box: the Leadership choice is it
        leadership = next(f for f in view["fieldsets"] if f["legend"] == "Leadership")
        assert [(c["label"], c["cost"]) for c in leadership["choices"] if c["label"] == "General"] == [
            ("General", "+10 pts")]

    def test_choosing_general_in_the_thanes_leadership_replaces_its_other_choice(self):
        from armylists.lists.saved.edits import default_general
        book = dwarven_holds()
        alone = default_general(book, roster({"id": "t", "entry": "thane", "options": {"captain-and-attached": 1}}))
        assert (alone.units[0].general, dict(alone.units[0].options)) == (True, {"general": 1})


@pytest.mark.django_db
class TestTheEditor:
    @pytest.fixture
    def dh_list(self, alice):
        from tests.web.conftest import make_list
        store(LATER, "dh.json")
        book = dwarven_holds()
        return make_list(alice, {"format": "armylist/1", "name": "Holds", "system": "t9a-2", "book": book.id,
                                 "book_version": book.version, "points_limit": 4500,
                                 "units": [king(**{"rune-of-steel": 1})]})

    def test_the_picker_shows_the_allowance_left_and_adds_a_rune_without_touching_the_rest(self, client, alice, dh_list):
        client.force_login(alice)
        page = client.get(reverse("list-edit", args=[dh_list.pk])).content.decode()
        assert "special items allowance: 50 of 250 pts · 200 left" in page
        assert 'id="u-k-pool-add-rune-of-destruction-hand-weapon"' in page
        assert 'name="opt-rune-of-steel"' not in page.split('id="u-k-form"')[1].split("</form>")[0]
        url = reverse("unit-update", args=[dh_list.pk, "k"])
        client.post(url, {"revision": dh_list.revision, "only": "opt-rune-of-steel", "opt-rune-of-steel": "2"})
        dh_list.refresh_from_db()
        assert dh_list.document["units"][0]["options"]["rune-of-steel"] == 2
        # The unit's whole form, sent without JavaScript, names no pool item: the runes stay.
        client.post(url, {"revision": dh_list.revision, "grp-g1": "light-troops", "opt-general": "1", "label": "x"})
        dh_list.refresh_from_db()
        assert dh_list.document["units"][0]["options"]["rune-of-steel"] == 2
        assert dh_list.document["units"][0]["options"]["general"] == 1 and dh_list.document["units"][0]["general"]
        assert dh_list.document["units"][0]["label"] == "x"
        # The picker's ✕ takes one away: its form sends the count less one.
        page = client.get(reverse("list-edit", args=[dh_list.pk])).content.decode()
        carried = page[page.index('id="u-k-pools"'):page.index('id="u-k-pool-rm-rune-of-steel"')]
        assert carried.rstrip().endswith('<input type="hidden" name="opt-rune-of-steel" value="1"><button type="submit" class="icon-button" aria-label="Remove Rune of Steel" title="Remove Rune of Steel"')
        client.post(url, {"revision": dh_list.revision, "only": "opt-rune-of-steel", "opt-rune-of-steel": "1"})
        dh_list.refresh_from_db()
        assert dh_list.document["units"][0]["options"]["rune-of-steel"] == 1

    def test_the_card_shows_the_mounts_profile_and_the_rules_with_their_texts(self, client, alice, dh_list):
        client.force_login(alice)
        url = reverse("unit-update", args=[dh_list.pk, "k"])
        client.post(url, {"revision": dh_list.revision, "only": "grp-g1", "grp-g1": "war-throne"})
        page = client.get(reverse("list-edit", args=[dh_list.pk])).content.decode()
        card = page[page.index('id="unit-k"'):]
        assert '<th scope="row">King</th>' in card and '<th scope="row">Throne Bearer (4)</th>' in card
        assert "<summary>Ancient Grudge (1)</summary>" in card  # a long text, folded
        assert "<strong>Shield</strong>: " in card  # a short one, in line

    def test_the_battle_rune_is_chosen_on_the_card_as_a_path(self, client, alice, dh_list):
        """One of six Battle Runes under the King's Battle Rune (tests/importers/test_nr_t9a_battle_rune.py):
        offered as one group of the card, saved as the one chosen, the report's problem gone."""
        client.force_login(alice)
        url = reverse("unit-update", args=[dh_list.pk, "k"])
        options = dwarven_holds().entries[KING].options
        taken, group = options["battle-rune"].group, options["rune-of-resolve"].group  # its own group, then the runes'
        client.post(url, {"revision": dh_list.revision, "only": f"grp-{taken}", f"grp-{taken}": "battle-rune"})
        dh_list.refresh_from_db()
        page = client.get(reverse("list-edit", args=[dh_list.pk])).content.decode()
        card = page[page.index('id="unit-k"'):]
        assert "Battle Rune: which (choose 1): 0 taken in King; at least 1." in page
        for rune in ("rune-of-revocation", "rune-of-resolve", "rune-of-resilience"):
            assert f'name="grp-{group}" value="{rune}"' in card
        client.post(url, {"revision": dh_list.revision, "only": f"grp-{group}", f"grp-{group}": "rune-of-resolve"})
        dh_list.refresh_from_db()
        chosen = dh_list.document["units"][0]["options"]
        assert chosen.get("rune-of-resolve") == 1 and chosen.get("battle-rune") == 1
        assert "Battle Rune: which" not in client.get(reverse("list-edit", args=[dh_list.pk])).content.decode()


class TestConstructs:
    """The same, on small armies in the data's shape (tests/importers/test_import_nr_t9a.py's builders)."""

    def test_a_pools_items_name_their_pool_and_their_children_do_not(self):
        from tests.importers.test_import_nr_t9a import army, check_option, hero
        wisdom = check_option("Standard of Wisdom", 30, options=[{"optionsLabel": "Spells", "maxSize": 1, "options": [
            check_option("Rune of Oaths")]}])
        pools = [{"refs": ["weaponEnchant"], "options": [check_option("King Slayer", 35, description="<b>Slay</b>.")]},
                 {"refs": ["bannerEnchant"], "options": [wisdom]}]
        weapon = {"optionsLabel": "Weapon Enchantments", "maxSize": 1, "optionsDict": ["weaponEnchant"], "options": []}
        bare = {"maxSize": 1, "optionsDict": ["bannerEnchant"], "options": []}  # no label: "Special Items"
        book, _ = army(characters=[hero(options=[weapon, bare])], dictionary=pools)
        options = book.entries["hero"].options
        assert options["king-slayer"].item_pool == "Weapon Enchantments"
        assert options["standard-of-wisdom"].item_pool == "Special Items"
        assert options["rune-of-oaths"].item_pool is None  # a choice of the item's own, in the unit's form
        assert options["rune-of-oaths"].requires == ("standard-of-wisdom",)

    def test_texts_are_plain_and_profiles_have_a_row_per_model_part(self):
        from armylists.importers.nr_t9a.texts import plain, profiles, rule_refs, spells_text
        assert plain("Gains <span class=\"textbf\">Hatred</span>.<br>  Then&nbsp;<i>this</i>.") == "Gains Hatred.\nThen this."
        assert plain(None) == "" and plain("x" * 5000) == "x" * 4000
        stats = {"name": "Grudge Buster", "global": {"Ad": "8", "Ma": "4", "Di": "9"}, "defense": {"HP": "5"},
                 "offensename": "Crew (2)", "offense": {"At": "1", "Of": "4"}, "offensenameB": "Chassis",
                 "offenseB": {"St": "5"}, "offenserulesB": [{"name": "Grind Attack", "id": "g", "params": ["3D3"]}],
                 "globalrules": [{"name": "Fly", "id": "rulebook-fly"}, {"name": "Fly", "id": "rulebook-fly"}]}
        assert profiles(stats) == [{"name": "Crew (2)", "Ad": "8", "Ma": "4", "Di": "9", "HP": "5", "At": "1", "Of": "4"},
                                   {"name": "Chassis", "St": "5"}]
        assert rule_refs(stats) == [("Fly", "rulebook-fly"), ("Grind Attack (3D3)", "g")]
        paths = {"runes": {"name": "Battle Runes", "spells": [{"ref": "r1", "name": "Rune of Oaths"}]}}
        assert spells_text({"amount": "x", "spells": [{"path": "runes", "ref": "r1"}, {"path": "runes", "ref": "r9"}]},
                           paths) == "Battle Runes: Rune of Oaths, r9"  # "x": as many as bought, no number shown

