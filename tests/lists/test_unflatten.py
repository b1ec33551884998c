"""Issue 37 item 2, "one semantics": a list of an imported BattleScribe book stored (or sent) in the flattened
shape, `units` naming the importer's converted book, is the roster tree the same list is (lists/trees/unflatten.py):
judged by the tree evaluator, with the same units, sizes, options and points as the flattened engine gave it.
What the data has no place for keeps the list as it was, with a note saying what and to import it again."""
from __future__ import annotations

from dataclasses import replace

import pytest

from armylists.lists.library.catalogue import get_book, validate_roster
from armylists.lists.trees.tree_lists import tree_validate
from armylists.lists.trees.unflatten import unflatten
from armylists.lists.trees.unflatten_stored import Converted, convert_stored_lists
from armylists.models import ArmyList, ListRevision
from armylists.rules import parse_roster
from tests.battlescribe.test_battlescribe_site_tree import (BOOK, CATALOGUE, FORCE, KING, SYSTEM, T9A, THANE, VERSION,
                                                           import_dwarven_holds)

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]

WARRIORS, WARRIOR = "ff59-eb26-f17d-edec", "ca69-c095-29ef-7209"
PLATE = "f49b-1010-24f1-f23b"   # Plate Armour: a minimum of the King's and the Thane's, folded into their cost

# A list as the site stored it before roster trees: units naming the flattened book's entries and options.
OLD_LIST = {"format": "armylist/1", "name": "Old hold", "player": "Ann", "team": "Karaks", "notes": "Bring dice.",
            "system": SYSTEM, "book": BOOK, "book_version": VERSION, "points_limit": 2000, "units": [
                {"id": "k", "entry": "king", "options": {"shield": 1, "hand-weapon": 1, "army-general": 1,
                                                         "runic-special-items": 1, "rune-of-iron": 2}},
                {"id": "w", "entry": "clan-warriors", "size": 20, "label": "red shields",
                 "options": {"spear-and-shield": 1, "champion": 1, "standard-bearer": 1,
                             "runic-banner-enchantment": 1, "banner-of-discipline": 1}},
                {"id": "t", "entry": "thane"}]}


@pytest.fixture(autouse=True)
def imported():
    import_dwarven_holds()


@pytest.fixture
def book():
    return get_book(SYSTEM, BOOK, VERSION)


def shape(selection) -> tuple:
    """A tree selection's entry and number, its children's too, without its ids."""
    return (selection.entry, selection.number, [shape(c) for c in selection.selections])


def store_flattened(owner, document: dict) -> ArmyList:
    """A list saved as the site saved one before roster trees: judged by our engine with the flattened book."""
    book = get_book(SYSTEM, BOOK, VERSION)
    roster = parse_roster(document)
    saved = ArmyList(owner=owner, name=document["name"])
    saved.set_document(roster, validate_roster(book, roster))
    saved.save()
    return saved


def test_a_flattened_list_is_the_tree_of_the_same_units_sizes_options_and_points(book):
    roster = parse_roster(OLD_LIST)
    flattened = validate_roster(book, roster)
    assert [(u.name, u.points) for u in flattened.units] == [("King", 285), ("Clan Warriors", 320), ("Thane", 110)]
    tree = unflatten(book, roster)
    assert (tree.units, tree.name, tree.player, tree.team, tree.points_limit) == ((), "Old hold", "Ann", "Karaks", 2000)
    # What the tree cannot hold is said in the notes, after the list's own.
    assert tree.notes == "Bring dice.\n\nClan Warriors (unit w): label 'red shields'"
    [force] = tree.forces
    assert (force.entry, force.catalogue) == (FORCE, CATALOGUE)
    king, warriors, thane = force.selections
    assert shape(king) == (KING, 1, [
        ("8f27-7811-b46f-a278::" + PLATE, 1, []),                            # taken with him (folded in his cost)
        ("a5ba-3d6a-9115-afff::d5a4-4049-60de-5914", 1, []),                 # Hand Weapon
        ("4979-45c3-0009-3afd", 1, [("e18c-6d96-4b15-26e2::1b0c-a4c6-be7f-037c", 2, [])]),  # 2 Runes of Iron
        ("8b2a-88ab-99be-3be9::d664-b973-594c-5971", 1, []),                 # Army General
        ("e1b5-41cd-8f96-9563::ff97-a295-86c8-76d5", 1, [])])                # Shield
    assert shape(warriors) == (WARRIORS, 1, [
        (WARRIOR, 20, []),                                                   # the size: the model's number
        ("499d-f714-de0d-cc07", 1, [("2b72-286c-e32b-8230::b485-d7a5-7901-04c6::bd1e-b521-5357-bc0e", 1, [])]),
        ("38ac-1861-b7d4-7d3c", 1, []),                                      # Spear and Shield
        ("26dc-05c5-4c0b-ef47::4fb4-c9a2-fa29-d2af::c3e7-8c28-0d42-6aa8", 1, []),   # Champion
        ("26dc-05c5-4c0b-ef47::707a-8897-5a0d-a04c::8f82-6955-3d8a-01ea", 1, [])])  # Standard Bearer
    # The Thane took no weapon: the Hand Weapon BattleScribe selects by itself is not added to the list.
    assert shape(thane) == (THANE, 1, [("d231-e788-aaed-7a2a::" + PLATE, 1, [])])
    report = tree_validate(tree)
    assert (report.total_points, flattened.total_points) == (715, 715)
    assert [(u.name, u.points) for u in report.units] == [("King", 285), ("Clan Warriors", 320), ("Thane", 110)]
    # The same faults, now in the evaluator's words.
    assert [v.message for v in report.violations if v.code == "bs.constraint.min"] == [
        "Core: 320 pts, 16% of the 2000 pts limit; at least 25% (500 pts).",
        "Shield: 0 taken in Clan Warriors; at least 1 with Spear and Shield.",
        "Melee Weapon: 0 taken in Thane; at least 1."]


def test_a_unit_whose_id_is_gone_from_the_data_keeps_the_list_plain_with_a_note(book):
    """The data changed under a stored list: the King's entry id is no longer the data's."""
    entries = [dict(e, tags=["bs-0000-gone"] + e["tags"][1:]) if e["id"] == "king" else e for e in book.data["entries"]]
    changed = replace(book, data={**book.data, "entries": entries})
    roster = parse_roster({**OLD_LIST, "units": OLD_LIST["units"] + [
        {"id": "x", "entry": "thane", "options": {"rune-of-nothing": 1}}]})
    kept = unflatten(changed, roster)
    assert kept == replace(roster, notes=(
        "Bring dice.\n\nNot made a roster tree of Dwarven Holds 2024 r57: King (unit k); the option rune-of-nothing "
        "of Thane (unit x) could not be placed in its BattleScribe data. Import the list again (a .ros or .rosz from "
        "BattleScribe or New Recruit) to check it by the data's own rules."))
    assert unflatten(changed, kept) == kept   # said once


def test_the_migration_makes_every_stored_flattened_list_of_the_book_its_tree(alice):
    from django.db.migrations.loader import MigrationLoader
    from django.db import connection

    convertible = store_flattened(alice, OLD_LIST)
    gone = store_flattened(alice, {**OLD_LIST, "name": "Gone", "notes": "",
                                   "units": [{"id": "t", "entry": "thane", "options": {"rune-of-nothing": 1}}]})
    assert (convertible.total_points, convertible.valid, gone.revision) == (715, False, 1)
    # The model as the migration sees it (0013_unflatten_lists): only its fields.
    state = MigrationLoader(connection).project_state(("armylists", "0013_unflatten_lists"))
    assert convert_stored_lists(state.apps.get_model("armylists", "ArmyList")) == Converted(trees=1, noted=1)
    convertible.refresh_from_db()
    assert "units" in convertible.document and convertible.document["units"] == []
    assert [f["entry"] for f in convertible.document["forces"]] == [FORCE]
    assert (convertible.total_points, convertible.valid, convertible.revision) == (715, False, 2)
    assert [r.revision for r in ListRevision.objects.filter(army_list=convertible)] == [2, 1]
    assert ListRevision.objects.get(army_list=convertible, revision=1).document["units"][0]["entry"] == "king"
    gone.refresh_from_db()
    assert "forces" not in gone.document and gone.document["units"][0]["entry"] == "thane"
    assert gone.document["notes"].startswith("Not made a roster tree of Dwarven Holds 2024 r57: the option "
                                             "rune-of-nothing of Thane (unit t) could not be placed")
    assert (gone.total_points, gone.revision) == (110, 2)
    # Run again: nothing left to do (the tree is a tree; the other is noted already).
    assert convert_stored_lists(ArmyList) == Converted(left=1)


def test_the_migration_has_nothing_to_do_without_books_or_lists(alice):
    from armylists.models import BookGameData, RulesFile

    store_flattened(alice, OLD_LIST)
    RulesFile.objects.all().delete()
    BookGameData.objects.all().delete()
    from armylists.lists.library import catalogue
    catalogue._stored_books.clear()
    assert convert_stored_lists(ArmyList) == Converted(left=1)
    ArmyList.objects.all().delete()
    assert convert_stored_lists(ArmyList) == Converted()


def test_a_flattened_json_list_imported_on_the_import_page_is_a_tree(client, alice):
    import json

    client.force_login(alice)
    response = client.post("/lists/import/", {"text": json.dumps(OLD_LIST)})
    assert response.status_code == 302
    saved = ArmyList.objects.get(owner=alice)
    assert saved.document["units"] == [] and [len(f["selections"]) for f in saved.document["forces"]] == [3]
    assert (saved.total_points, saved.name) == (715, "Old hold")
    refused = client.post("/lists/import/", {"text": json.dumps({**OLD_LIST, "units": [{"id": "x", "entry": "nothing"}]})})
    assert refused.status_code == 400
    assert ("units[0].entry: nothing (unit x) cannot be placed in the BattleScribe data of Dwarven Holds 2024"
            in refused.content.decode())


def test_upgrading_a_flattened_list_to_a_version_whose_lists_are_trees_makes_it_its_tree(alice, tmp_path):
    """lists/saved/history.py preview: the list moved to the newer version is its tree there."""
    from armylists.lists.saved.history import preview, upgrade_target
    from armylists.lists.saved.stored import load
    from tests.battlescribe.imported import import_battlescribe

    saved = store_flattened(alice, OLD_LIST)
    game_system = tmp_path / "2nd-theNinthAge-FantasyBattles.gst"
    game_system.write_bytes((T9A / game_system.name).read_bytes())
    catalogue = tmp_path / "2nd-dwarvenHolds.cat"
    catalogue.write_bytes((T9A / catalogue.name).read_bytes().replace(b'revision="57"', b'revision="58"', 1))
    import_battlescribe(game_system, catalogue)
    loaded = load(saved)
    target = upgrade_target(loaded)
    assert target is not None and target.version == "r58"
    shown = preview(loaded, target)
    assert (shown.problem, shown.roster.book_version, shown.roster.units) == ("", "r58", ())
    assert [shape(s)[0] for s in shown.roster.forces[0].selections] == [KING, WARRIORS, THANE]
    assert (shown.before.total_points, shown.after.total_points) == (715, 715)


def test_a_note_is_shortened_to_fit_the_notes_never_the_players_own():
    from armylists.lists.trees.unflatten import MAX_NOTES, with_note

    assert with_note("", "Not made.") == "Not made." and with_note("Mine.", "Not made.") == "Mine.\n\nNot made."
    assert with_note("Mine.\n\nNot made.", "Not made.") == "Mine.\n\nNot made."
    full = "x" * (MAX_NOTES - 7)
    assert with_note(full, "Not made.") == full + "\n\nNot …" and len(with_note(full, "Not made.")) == MAX_NOTES
    assert with_note("x" * (MAX_NOTES - 2), "Not made.") == "x" * (MAX_NOTES - 2)


def test_the_history_says_a_list_was_made_its_tree_not_that_its_units_were_removed(alice):
    from armylists.lists.saved.history import UNFLATTENED, compare_revisions, history

    saved = store_flattened(alice, OLD_LIST)
    convert_stored_lists(ArmyList)
    assert [(s.revision, s.changes) for s in history(saved).steps] == [
        (2, ["Notes, player or team changed.", UNFLATTENED]),   # the label, kept in the notes
        (1, ["Started the list: Dwarven Holds 2024 r57, 2000 points."])]
    diff = compare_revisions(saved, 1, 2)
    assert (diff["changes"], diff["units_removed"], diff["unit_points"]) == (
        ["Notes, player or team changed.", UNFLATTENED], [], [])
    assert diff["total_points"] == {"before": 715, "after": 715}
