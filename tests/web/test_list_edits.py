"""The builder's edits as pure functions on the list document: no database, no HTTP."""
from __future__ import annotations

import pytest

from armylists.lists.saved import edits
from armylists.lists.saved.edits import EditError
from armylists.rules import Roster, RosterUnit, parse_roster, roster_to_dict, validate

from .conftest import BOOK, SYSTEM, VERSION


@pytest.fixture
def book(library):
    return library.book(SYSTEM, BOOK, VERSION)


@pytest.fixture
def empty(book):
    return edits.start_roster(book, "Test", 2400)


def units(roster: Roster) -> list[tuple[str, str]]:
    return [(u.id, u.entry) for u in roster.units]


class TestAddUnit:
    def test_it_appends_a_unit_at_its_smallest_size_with_a_readable_id(self, book, empty):
        roster, uid = edits.add_unit(book, empty, "heavy-infantry")
        assert uid == "heavy-infantry"
        assert roster.units == (RosterUnit(id="heavy-infantry", entry="heavy-infantry", size=10),)
        assert validate(book, roster).total_points == 50

    def test_it_leaves_a_single_model_entry_without_a_size(self, book, empty):
        roster, _ = edits.add_unit(book, empty, "marshal")
        assert roster.units[0].size is None

    def test_it_numbers_a_second_unit_of_the_same_entry(self, book, empty):
        roster, _ = edits.add_unit(book, empty, "marshal")
        roster, uid = edits.add_unit(book, roster, "marshal")
        roster, uid3 = edits.add_unit(book, roster, "marshal")
        assert (uid, uid3) == ("marshal-2", "marshal-3")

    def test_it_makes_the_compulsory_choices(self, book, empty):
        """Artillery must pick a weapon (group min 1); a Knight Commander must ride."""
        roster, _ = edits.add_unit(book, empty, "heavy-artillery")
        roster, _ = edits.add_unit(book, roster, "knight-commander")
        assert roster.units[0].options == (("cannon", 1),)
        assert roster.units[1].mount == "barded-horse"
        report = validate(book, roster)
        assert not [v for v in report.violations if v.code in ("options.group_min", "mount.required")]

    def test_it_refuses_an_entry_the_book_lacks(self, book, empty):
        with pytest.raises(EditError) as err:
            edits.add_unit(book, empty, "dragon-ogre")
        assert (err.value.field, err.value.message) == ("entry", "Empire of Sonnstahl 0.11.1 has no entry 'dragon-ogre'.")

    def test_it_refuses_a_201st_unit(self, book, empty):
        roster = empty
        for _ in range(200):
            roster, _ = edits.add_unit(book, roster, "marshal")
        with pytest.raises(EditError, match="at most 200 units"):
            edits.add_unit(book, roster, "marshal")
        parse_roster(roster_to_dict(roster))  # 200 is still a list document


class TestUnits:
    @pytest.fixture
    def three(self, book, empty):
        roster = empty
        for entry in ("marshal", "heavy-infantry", "captain"):
            roster, _ = edits.add_unit(book, roster, entry)
        return roster

    def test_it_removes_a_unit(self, three):
        assert units(edits.remove_unit(three, "heavy-infantry")) == [("marshal", "marshal"), ("captain", "captain")]

    def test_it_names_a_missing_unit(self, three):
        with pytest.raises(EditError, match="This list has no unit 'ghost'"):
            edits.remove_unit(three, "ghost")

    def test_it_duplicates_a_unit_after_it_and_not_as_general(self, book, three):
        roster = edits.set_general(three, "marshal", True)
        roster = edits.set_options(book, roster, "marshal", {"shield": 1})
        roster, copy = edits.duplicate_unit(roster, "marshal")
        assert copy == "marshal-2"
        assert units(roster)[:2] == [("marshal", "marshal"), ("marshal-2", "marshal")]
        assert roster.units[1].options == (("shield", 1),)
        assert (roster.units[0].general, roster.units[1].general) == (True, False)

    def test_it_moves_a_unit_up_and_down_and_not_past_the_ends(self, three):
        up = edits.move_unit(three, "captain", -1)
        assert [u.id for u in up.units] == ["marshal", "captain", "heavy-infantry"]
        assert edits.move_unit(three, "marshal", -1) == three
        assert edits.move_unit(three, "captain", 1) == three

    def test_it_moves_past_units_of_other_categories(self, three):
        """The editor shows units by category, so a move swaps with the next unit of the same one."""
        categories = {"marshal": "lords", "heavy-infantry": "core", "captain": "lords"}
        moved = edits.move_unit(three, "captain", -1, categories)
        assert [u.id for u in moved.units] == ["captain", "heavy-infantry", "marshal"]

    def test_it_sets_the_size_within_what_a_document_holds(self, three):
        assert edits.set_size(three, "heavy-infantry", 61).units[1].size == 61  # over the entry's max: legal to save
        for bad in (0, 10001):
            with pytest.raises(EditError, match="A unit has 1 to 10000 models."):
                edits.set_size(three, "heavy-infantry", bad)


class TestChoices:
    @pytest.fixture
    def marshal(self, book, empty):
        return edits.add_unit(book, empty, "marshal")[0]

    def test_it_replaces_the_options_in_the_book_order(self, book, marshal):
        roster = edits.set_options(book, marshal, "marshal", {"halberd": 1, "shield": 1})
        assert roster.units[0].options == (("shield", 1), ("halberd", 1))
        roster = edits.set_options(book, roster, "marshal", {"halberd": 0})
        assert roster.units[0].options == ()

    def test_it_keeps_options_the_book_does_not_know(self, book):
        roster = parse_roster({"format": "armylist/1", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
                               "points_limit": 2400, "units": [{"id": "m", "entry": "marshal",
                                                                "options": {"old-option": 1}}]})
        roster = edits.set_options(book, roster, "m", {"shield": 1})
        assert roster.units[0].options == (("shield", 1), ("old-option", 1))

    def test_it_refuses_an_unknown_option(self, book, marshal):
        with pytest.raises(EditError) as err:
            edits.set_options(book, marshal, "marshal", {"laser": 1})
        assert (err.value.field, err.value.message) == ("option-laser", "Marshal has no option 'laser'.")

    def test_it_sets_and_clears_a_mount(self, book, marshal):
        roster = edits.set_mount(book, marshal, "marshal", "horse")
        assert roster.units[0].mount == "horse"
        assert edits.set_mount(book, roster, "marshal", None).units[0].mount is None
        with pytest.raises(EditError, match="Marshal has no mount 'wyvern'"):
            edits.set_mount(book, marshal, "marshal", "wyvern")

    def test_the_general_is_one_unit(self, book, marshal):
        roster, _ = edits.add_unit(book, marshal, "captain")
        roster = edits.set_general(roster, "marshal", True)
        roster = edits.set_general(roster, "captain", True)
        assert [u.general for u in roster.units] == [False, True]
        roster = edits.set_general(roster, "captain", False)
        assert [u.general for u in roster.units] == [False, False]

    def test_a_command_part_taken_away_takes_its_items(self, book, empty):
        roster, uid = edits.add_unit(book, empty, "heavy-infantry")
        roster = edits.set_command(roster, uid, ["standard", "champion"], veteran_standard=True)
        assert (roster.units[0].command, roster.units[0].veteran_standard) == (("champion", "standard"), True)
        roster = edits.add_item(book, roster, uid, "standard", "banner-of-discipline")
        roster = edits.set_command(roster, uid, ["champion"], veteran_standard=True)
        assert roster.units[0].standard_items == ()
        assert roster.units[0].veteran_standard is False

    def test_it_refuses_a_command_part_that_does_not_exist(self, empty, book):
        roster, uid = edits.add_unit(book, empty, "heavy-infantry")
        with pytest.raises(EditError, match="not 'drummer'"):
            edits.set_command(roster, uid, ["drummer"])

    def test_it_sets_a_path_the_book_knows(self, book, empty):
        roster, uid = edits.add_unit(book, empty, "wizard")
        assert edits.set_path(book, roster, uid, "fire").units[0].path == "fire"
        with pytest.raises(EditError, match="no Path 'pyromancy'"):
            edits.set_path(book, roster, uid, "pyromancy")

    def test_update_unit_applies_only_the_fields_given(self, book, empty):
        roster, uid = edits.add_unit(book, empty, "heavy-infantry")
        roster = edits.set_label(roster, uid, "red")
        roster = edits.update_unit(book, roster, uid, {"size": 25, "options": {"halberd": 1},
                                                       "command": ["musician"]})
        unit = roster.units[0]
        assert (unit.size, unit.options, unit.command, unit.label) == (25, (("halberd", 1),), ("musician",), "red")


class TestItems:
    def test_it_adds_and_removes_an_item_of_a_bearer(self, book, empty):
        roster, uid = edits.add_unit(book, empty, "marshal")
        roster = edits.add_item(book, roster, uid, "model", "giant-sword")
        roster = edits.add_item(book, roster, uid, "model", "dispel-scroll")
        assert roster.units[0].items == ("giant-sword", "dispel-scroll")
        roster = edits.remove_item(roster, uid, "model", "giant-sword")
        assert roster.units[0].items == ("dispel-scroll",)

    def test_it_refuses_an_unknown_item_or_bearer(self, book, empty):
        roster, uid = edits.add_unit(book, empty, "marshal")
        with pytest.raises(EditError, match="has no item 'ring-of-power'"):
            edits.add_item(book, roster, uid, "model", "ring-of-power")
        with pytest.raises(EditError, match="not 'horse'"):
            edits.add_item(book, roster, uid, "horse", "giant-sword")
        with pytest.raises(EditError, match="does not carry 'giant-sword'"):
            edits.remove_item(roster, uid, "model", "giant-sword")


class TestListSettings:
    def test_it_renames_and_sets_the_limit(self, book, empty):
        roster = edits.set_list_settings(book, empty, "  Tournament  ", 4500)
        assert (roster.name, roster.points_limit) == ("Tournament", 4500)

    @pytest.mark.parametrize("name, limit, field, message", [
        ("", 2400, "name", "Give the list a name."),
        ("x" * 201, 2400, "name", "A name may be at most 200 characters."),
        ("Fine", 0, "points_limit", "The limit must be between 1 and 100000."),
        ("Fine", 100001, "points_limit", "The limit must be between 1 and 100000."),
    ])
    def test_it_refuses_what_a_document_cannot_hold(self, book, empty, name, limit, field, message):
        with pytest.raises(EditError) as err:
            edits.set_list_settings(book, empty, name, limit)
        assert (err.value.field, err.value.message) == (field, message)

    def test_it_refuses_a_composition_the_book_lacks(self, book, empty):
        with pytest.raises(EditError, match="has no composition 'infamy'"):
            edits.set_list_settings(book, empty, "x", 2400, "infamy")

    def test_every_edit_keeps_other_fields(self, book):
        """Fields the editor does not show (notes, experience) survive every edit."""
        roster = parse_roster({"format": "armylist/1", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
                               "points_limit": 2400, "notes": "for Saturday",
                               "units": [{"id": "m", "entry": "marshal", "notes": "paint the cloak"}]})
        roster = edits.update_unit(book, roster, "m", {"options": {"shield": 1}, "general": True, "label": "blue"})
        roster = edits.set_list_settings(book, roster, "Named", 2000)
        doc = roster_to_dict(roster)
        assert doc["notes"] == "for Saturday"
        assert doc["units"][0] == {"id": "m", "entry": "marshal", "options": {"shield": 1}, "general": True,
                                   "label": "blue", "notes": "paint the cloak"}


class TestGeneralByDefault:
    """A list's sole character who may be its General starts as the General (the player may untick it)."""

    def test_the_first_character_becomes_the_general_and_a_second_does_not(self, book, empty):
        roster, _ = edits.add_unit(book, empty, "heavy-infantry")
        assert not any(u.general for u in roster.units)
        roster, uid = edits.add_unit(book, roster, "marshal")
        assert [u.id for u in roster.units if u.general] == [uid]
        roster, second = edits.add_unit(book, roster, "marshal")
        assert [u.id for u in roster.units if u.general] == [uid]

    def test_no_general_is_chosen_for_the_player_when_two_characters_could_be(self, book, empty):
        roster, first = edits.add_unit(book, empty, "marshal")
        roster = edits.set_general(roster, first, False)
        roster, second = edits.add_unit(book, roster, "marshal")
        assert not any(u.general for u in roster.units)

    def test_a_loner_is_not_made_general(self, library):
        # The Old World: a Loner may not be the General (001:L3779-3783); a Daemon Slayer is a Loner.
        dwarfs = library.latest("the-old-world", "dwarfen-mountain-holds")
        roster = edits.start_roster(dwarfs, "Slayers", 2000)
        roster, _ = edits.add_unit(dwarfs, roster, "daemon-slayer")
        assert not any(u.general for u in roster.units)
        roster, thane = edits.add_unit(dwarfs, roster, "thane")
        assert [u.id for u in roster.units if u.general] == [thane]
