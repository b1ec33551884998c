"""The one seam between the two kinds of list (lists/kinds.py, issue 37 item 1): the kind of a stored
list, of a roster tree and of a new list of our book or of an imported BattleScribe book, and what each
kind answers: its report (and at an event), a new list, a unit added, changed, duplicated and removed,
the army our event rules read, its printing and the other tools' files it is written as."""
from __future__ import annotations

import pytest

from armylists.lists.kinds import KINDS, NATIVE, TREE, kind_for_book, kind_of
from armylists.lists.library.catalogue import book_for, get_book, validate_roster
from armylists.lists.saved.edits import EditError
from armylists.lists.saved.stored import load
from armylists.models import ArmyList
from armylists.rules import parse_roster
from armylists.rules.battlescribe.sheet import TreePrinting
from armylists.rules.event_rules.ruleset import Ruleset
from armylists.rules.native.army import Army
from tests.battlescribe.imported import import_battlescribe
from tests.battlescribe.test_battlescribe_site_tree import BOOK, KING, SYSTEM, T9A, VERSION

pytestmark = pytest.mark.django_db  # the books of a list are looked for in the database too

SHIELD = "e1b5-41cd-8f96-9563::ff97-a295-86c8-76d5"  # the King's Shield: +20 pts
needs_t9a = pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")


def codes(report) -> list[str]:
    return [v.code for v in report.violations]


def tree_codes(report) -> list[str]:
    """The data's own constraints (bs.*), which our system's rules on the tree come after."""
    return [c for c in codes(report) if c.startswith("bs.")]


# --- a list of our own book -------------------------------------------------------------------------

@pytest.fixture
def empire(legal_document):
    roster = parse_roster(legal_document)
    return book_for(roster), roster


def test_a_list_of_our_book_and_a_new_list_of_it_are_native(empire):
    book, roster = empire
    assert kind_of(roster) is NATIVE and kind_for_book(book) is NATIVE and KINDS["native"] is NATIVE
    assert (NATIVE.has_compositions, NATIVE.takes_allies, NATIVE.checked_by_its_data, NATIVE.writes) == (
        True, True, False, frozenset({"owb"}))


def test_the_native_kind_reports_and_checks_at_an_event(empire):
    book, roster = empire
    report = NATIVE.report(book, roster)
    assert (report.total_points, report.points_limit, codes(report)) == (2390, 2400, [])
    at_event = NATIVE.event_report(Ruleset(system=roster.system, points_limit=2000), book, roster)
    assert (at_event.points_limit, codes(at_event)) == (2000, ["event.points_limit", "points.over_limit"])
    army = NATIVE.army(book, roster, report)
    assert isinstance(army, Army) and [u.id for u in army.units] == [u.id for u in roster.units]


def test_the_native_kind_starts_and_edits_a_list(empire):
    book, roster = empire
    new = NATIVE.start(book, "New", 2000)
    assert (new.name, new.points_limit, new.units, new.composition) == ("New", 2000, (), None)
    added, unit_id = NATIVE.add_unit(book, roster, "Marshal")  # by its name, as the API adds it
    assert (unit_id, NATIVE.report(book, added).total_points) == ("marshal-2", 2480)
    copied, twin = NATIVE.duplicate_unit(roster, "halberds")
    assert (twin, [u.id for u in copied.units][4:6]) == ("heavy-infantry", ["halberds", "heavy-infantry"])
    assert NATIVE.report(book, copied).total_points == 2625
    removed = NATIVE.remove_unit(roster, "cannon")
    assert (NATIVE.report(book, removed).total_points, codes(NATIVE.report(book, removed))) == (
        2290, ["points.under_limit"])
    bigger = NATIVE.update_unit(book, roster, "halberds", {"size": 35})  # UnitForm.changes(): 30 -> 35
    assert NATIVE.report(book, bigger).total_points == 2420
    with pytest.raises(EditError, match="has no entry 'Marshall'; the closest is 'Marshal'"):
        NATIVE.add_unit(book, roster, "Marshall")


def test_the_native_kind_reads_its_units_and_prints_with_no_tree(empire):
    book, roster = empire
    assert NATIVE.unit_count(roster) == 15 and NATIVE.unit_of(roster, "marshal") is roster.units[0]
    assert NATIVE.unit_of(roster, "nobody") is None
    assert NATIVE.unit_document(roster, "marshal")["entry"] == "marshal"
    assert (NATIVE.printing(roster), NATIVE.roster_tree(roster), NATIVE.not_evaluated(book)) == (None, None, [])
    assert NATIVE.take(book, roster) is roster


def test_a_stored_list_carries_its_kind_decided_where_it_is_opened(alice_list):
    assert load(alice_list).kind is NATIVE


# --- a roster tree of an imported BattleScribe book -----------------------------------------------

@pytest.fixture
def dwarven_holds():
    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-dwarvenHolds.cat")
    return get_book(SYSTEM, BOOK, VERSION)


@needs_t9a
def test_a_new_list_of_an_imported_book_is_a_tree(dwarven_holds, empire):
    assert kind_for_book(dwarven_holds) is TREE and KINDS["tree"] is TREE
    assert (TREE.has_compositions, TREE.takes_allies, TREE.checked_by_its_data, TREE.writes) == (
        False, False, True, frozenset({"ros", "rosz", "owb"}))
    tree = TREE.start(dwarven_holds, "Hold", 2000)
    assert kind_of(tree) is TREE and (len(tree.forces), tree.units, tree.points_limit) == (1, (), 2000)
    assert (TREE.unit_count(tree), TREE.report(dwarven_holds, tree).total_points) == (0, 0)


@needs_t9a
def test_the_tree_kind_adds_changes_duplicates_and_removes_a_unit(dwarven_holds):
    tree = TREE.start(dwarven_holds, "Hold", 2000)
    with_king, king = TREE.add_unit(dwarven_holds, tree, "King")  # with what its minimums select
    assert [s.id for s in TREE.units(with_king)] == [king]
    report = TREE.report(dwarven_holds, with_king)
    # the King is made the General as added (issue 40 item 2): the Core minimum is what is left
    assert (report.total_points, tree_codes(report)) == (215, ["bs.constraint.min"])
    assert "points.under_limit" in codes(report)  # our system's rule the catalogue lacks
    assert validate_roster(dwarven_holds, with_king) == report  # the store's report is the kind's
    document = TREE.unit_document(with_king, king)
    assert (document["entry"], len(document["selections"])) == (KING, 3)   # with its General
    shielded = TREE.update_unit(dwarven_holds, with_king, king, {(king, SHIELD): 1})  # TreeUnitForm.counts()
    assert TREE.report(dwarven_holds, shielded).total_points == 235
    copied, twin = TREE.duplicate_unit(shielded, king)
    assert [s.id for s in TREE.units(copied)] == [king, twin] and twin != king
    assert TREE.report(dwarven_holds, copied).total_points == 470
    removed = TREE.remove_unit(copied, king)
    assert ([s.id for s in TREE.units(removed)], TREE.report(dwarven_holds, removed).total_points) == ([twin], 235)
    with pytest.raises(EditError, match="The list has no unit 'nothing-1'"):
        TREE.duplicate_unit(removed, "nothing-1")


@needs_t9a
def test_the_tree_kind_is_checked_at_an_event_read_as_an_army_and_printed(dwarven_holds):
    with_king, king = TREE.add_unit(dwarven_holds, TREE.start(dwarven_holds, "Hold", 2000), "King")
    report = TREE.report(dwarven_holds, with_king)
    at_event = TREE.event_report(Ruleset(system=with_king.system, points_limit=1500), dwarven_holds, with_king)
    assert (at_event.points_limit, at_event.total_points) == (1500, 215)
    assert codes(at_event)[0] == "event.points_limit" and tree_codes(at_event) == tree_codes(report)
    army = TREE.army(dwarven_holds, with_king, report)  # the tree's projection, for an event's own rules
    assert isinstance(army, Army) and len(list(army.units)) == 1
    printing = TREE.printing(with_king)
    assert isinstance(printing, TreePrinting) and [s.uid for f in printing.tree.all_forces()
                                                   for s in f.selections] == [king]
    assert TREE.roster_tree(with_king).by_uid[king].entry_id == KING  # what a .ros is written from
    assert TREE.not_evaluated(dwarven_holds) == []


@needs_t9a
def test_a_plain_document_sent_for_an_imported_book_is_taken_as_a_tree(dwarven_holds):
    plain = parse_roster({"format": "armylist/1", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
                          "points_limit": 1000, "name": "Sent", "units": []})
    assert kind_of(plain) is NATIVE  # the document alone: our shape
    taken = kind_for_book(dwarven_holds).take(dwarven_holds, plain)
    assert kind_of(taken) is TREE and (taken.name, taken.points_limit, len(taken.forces)) == ("Sent", 1000, 1)


@needs_t9a
def test_a_stored_tree_list_carries_the_tree_kind(dwarven_holds, alice):
    tree, _ = TREE.add_unit(dwarven_holds, TREE.start(dwarven_holds, "Hold", 2000), "King")
    army_list = ArmyList(owner=alice)
    army_list.set_document(tree, validate_roster(dwarven_holds, tree))
    army_list.save()
    loaded = load(army_list)
    assert loaded.kind is TREE and (army_list.total_points, loaded.kind.unit_count(loaded.roster)) == (215, 1)
