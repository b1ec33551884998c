"""What is derived from a Book lives in its one store (rules/native/derived.py), never in the frozen Book.

Checking lists (alone, with allies, with an event's rules), the editor's pickers and rule texts, and
reading a New Recruit summary all derive data from a book; none of them writes an attribute onto it.
A Book made by `dataclasses.replace` and a Book read back from a pickle start with an empty store, and a
unit's memo keeps no more answers than its one bound. Engine only: no database.
"""
from __future__ import annotations

import copy
import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from armylists.rules import parse_roster, validate
from armylists.rules.native.army import Army
from armylists.rules.native.book import Rule
from armylists.rules.native.derived import KINDS, UNIT_MEMO_BOUND, Memo, built, memo
from armylists.rules.reading.loader import build_book, load_system_part

ROOT = Path(__file__).resolve().parents[2]
SYSTEM, _, _ = load_system_part(ROOT / "rules_data" / "t9a-2", ROOT / "rules_data")

KING = {
    "id": "king", "name": "King", "category": "characters", "troop_type": "model", "points": 200,
    "rules": ["Stubborn"],
    "options": [
        {"id": "steel", "name": "Rune of Steel", "cost": 50, "max": 3, "tags": ["runes"], "item_pool": "Armour Runes"},
        {"id": "fury", "name": "Rune of Fury", "cost": 40, "tags": ["runes"], "item_pool": "Weapon Runes",
         "text": "+1 Attack."},
    ],
}
WARRIORS = {"id": "warriors", "name": "Warriors", "category": "core", "troop_type": "model", "points": 10,
            "size": {"min": 10, "max": 40}}
RULES = [{"id": "allowance", "type": "tally_limit",
          "params": {"label": "King: runes allowance", "count": ["runes"], "what": "points", "scope": "unit",
                     "entries": ["king"], "max": 100}}]


def book():
    data = {"kind": "book", "id": "store-test", "name": "Store Test", "system": "t9a-2", "version": "1",
            "sources": ["written for this test"], "imported": True,
            "special_rules": [{"name": "Stubborn", "text": "Never flees."}],
            "entries": [copy.deepcopy(KING), copy.deepcopy(WARRIORS)], "rules": copy.deepcopy(RULES)}
    return build_book(data, SYSTEM, {}, "store-test.yaml")


def roster(the_book, limit=450, **king_options):
    return parse_roster({
        "format": "armylist/1", "system": "t9a-2", "book": the_book.id, "book_version": the_book.version,
        "points_limit": limit, "units": [{"id": "k", "entry": "king", "general": True, "options": king_options},
                                         {"id": "w", "entry": "warriors", "size": 20}]})


def event_rules(n: int) -> tuple[Rule, ...]:
    """An event's own rules, made afresh as a page makes them per request."""
    return (Rule(f"cap-{n}", "count", {"label": "Warriors", "select": {"entry": "warriors"}, "max": 1 + n},
                 origin="event"),)


class TestNothingIsWrittenOntoTheBook:
    def test_checking_picking_and_reading_add_no_attribute(self):
        from armylists.importers.nr_t9a.summary import read_list
        from armylists.lists.offers.item_choices import item_choices
        from armylists.lists.offers.pool_choices import pool_choices
        from armylists.lists.offers.rule_texts import rule_texts

        the_book = book()
        before = dict(the_book.__dict__)
        r = roster(the_book, steel=1)
        assert validate(the_book, r).valid
        validate(the_book, roster(the_book, steel=2, fury=1), event_rules(1))
        picker = pool_choices(the_book, r, "k")
        assert [(a.allowance, a.spent) for a in picker.allowances] == [(100, 50)]
        item_choices(the_book, r, "k")
        assert [t["text"] for t in rule_texts(the_book, r.units[0], the_book.entries["king"])] == ["Never flees."]
        summary = {"units": [{"name": "King", "cost": 250, "options": [{"name": "Rune of Steel"}]}]}
        assert read_list(summary, the_book, 450).document["units"][0]["options"] == {"steel": 1}

        assert the_book.__dict__.keys() == before.keys()
        assert all(the_book.__dict__[k] is v for k, v in before.items())
        assert set(the_book.derived.held()) == {
            "rule_lists", "resolved_units", "categories_in_play", "tally_tags", "pool_limits", "rule_texts",
            "nr_entries", "nr_readings", "nr_minimums"}

    def test_an_allied_list_adds_none_to_either_book_or_to_their_join(self, tow_books):
        empire, dwarfs = tow_books["empire-of-man"], tow_books["dwarfen-mountain-holds"]
        before = {b.id: set(b.__dict__) for b in (empire, dwarfs)}
        doc = {"format": "armylist/1", "system": "the-old-world", "book": empire.id, "book_version": empire.version,
               "points_limit": 2000, "allies": {"book": dwarfs.id, "book_version": dwarfs.version},
               "units": [{"id": "g", "entry": "general-of-the-empire", "general": True},
                         {"id": "a", "entry": "thane", "allied": True}]}
        army = Army(empire, parse_roster(doc), dwarfs)
        validate(empire, parse_roster(doc), allies=dwarfs)
        assert {b.id: set(b.__dict__) for b in (empire, dwarfs)} == before
        assert set(army.book.__dict__) == before[empire.id]  # the joined book: a Book of its own store
        assert "joined" in empire.derived.held() and "resolved_units" in dwarfs.derived.held()
        assert army.contingent.units and army.contingent.book is dwarfs


class TestAFreshStore:
    def test_a_replaced_book_starts_empty_and_is_checked_by_its_own_rules(self):
        the_book = book()
        validate(the_book, roster(the_book))
        assert the_book.derived.held()
        strict = replace(the_book, rules=(*the_book.rules, Rule("none", "count", {
            "label": "Warriors", "select": {"entry": "warriors"}, "max": 0}, origin="book")))
        assert strict.derived is not the_book.derived and strict.derived.held() == []
        assert "count.max" in {v.code for v in validate(strict, roster(strict)).violations}
        assert "count.max" not in {v.code for v in validate(the_book, roster(the_book)).violations}  # its own rules

    def test_a_pickled_book_carries_no_derived_data_and_derives_the_same(self):
        the_book = book()
        report = validate(the_book, roster(the_book, steel=1))
        again = pickle.loads(pickle.dumps(the_book, protocol=pickle.HIGHEST_PROTOCOL))
        assert again.derived.held() == [] and the_book.derived.held()
        assert validate(again, roster(again, steel=1)) == report

    def test_the_store_is_neither_compared_nor_shown(self):
        the_book = book()
        other = book()
        validate(the_book, roster(the_book))
        assert the_book == other and "derived" not in repr(the_book)


class TestOneMemoOfAUnit:
    def test_per_request_rule_sets_keep_at_most_the_bound_of_answers_on_a_shared_unit(self):
        the_book = book()
        for n in range(3 * UNIT_MEMO_BOUND):
            validate(the_book, roster(the_book), event_rules(n))
        unit = Army(the_book, roster(the_book)).units[0]  # the priced unit every report shares
        assert 0 < len(unit.memo) <= UNIT_MEMO_BOUND

    def test_an_answer_kept_by_an_id_is_never_given_for_another_object(self):
        kept = Memo(4)
        first, second = object(), object()
        assert kept.remember(1, first, lambda: "first's") == "first's"
        assert kept.remember(1, first, lambda: "again") == "first's"
        assert kept.remember(1, second, lambda: "second's") == "second's"  # the same key, another object
        for key in range(2, 6):
            kept.put(key, key)
        assert len(kept) <= 4

    def test_an_army_made_of_units_counts_them_as_a_list_does(self):
        the_book = book()
        r = roster(the_book, steel=1)
        army = Army(the_book, r)
        view = Army.of_units(the_book, r, army.units[1:], None, army.band)
        assert (view.total, view.category_units.get("core"), view.tallies) == (200, 1, None)


def test_each_kind_is_declared_once():
    assert {"rule_lists", "resolved_units", "joined", "categories_in_play"} <= KINDS.keys()
    with pytest.raises(ValueError, match="declared twice"):
        memo("rule_lists", 1)
    with pytest.raises(ValueError, match="declared twice"):
        built("rule_lists", lambda book: {})
