"""Event rules and the check of a list at an event (armylists/rules/event_rules/ruleset.py): no database.

The boundaries of the event rule types are in tests/cases/event_rules.yaml; here: reading the rules
file (every fault named), the event's settings (system, books, limit, composition, modes) and team rules.
"""
from __future__ import annotations

import copy
import json

import pytest

from armylists.rules import RulesDataError, parse_roster, validate
from armylists.rules.event_rules.ruleset import EventRules, Ruleset, check_list, check_team, parse_event_rules

from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def empire(library):
    return library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")


@pytest.fixture(scope="module")
def empire_of_man(library):
    return library.book("the-old-world", "empire-of-man", "2024.4")


@pytest.fixture
def legal():
    return json.loads((EXAMPLES / "empire-2400-legal.json").read_text())


def read(text, library, books=()):
    return parse_event_rules(text, "event.yaml", library.systems["t9a-0.11"], books)


# --- reading the rules ---------------------------------------------------------------------------

def test_rules_are_read_with_their_origin_and_source(library, empire):
    rules = read("format: event-rules/1\nname: Club GT\nrules:\n"
                 "  - {id: no-rare, type: count, params: {label: Rare, select: {category: rare}, max: 0}}\n"
                 "  - {id: team, type: team_items_once}\n", library, [empire])
    assert rules.name == "Club GT"
    assert [(r.id, r.type, r.origin, r.source) for r in rules.rules] == [("no-rare", "count", "event", "event rules")]
    assert [(r.id, r.type) for r in rules.team_rules] == [("team", "team_items_once")]


def test_an_empty_file_is_no_rules_and_a_bare_list_is_rules(library):
    assert read("  \n", library) == EventRules()
    rules = read("- {id: no-rare, type: count, params: {label: Rare, select: {category: rare}, max: 0}}", library)
    assert [r.id for r in rules.rules] == ["no-rare"]


@pytest.mark.parametrize("text, path, reason", [
    ("rules: [", (), "is not valid YAML at line 1, column 9"),
    ("rules: 3", ("rules",), "3 is not of type 'array'"),
    ("rules:\n  - {id: a, type: nonsense}", ("rules", 0, "type"), "unknown rule type 'nonsense'"),
    ("rules:\n  - {id: a, type: count, params: {label: X, select: {}, max: -1}}", ("rules", 0, "params", "max"), ""),
    ("rules:\n  - {id: a, type: count, params: {label: X, select: {entry: nobody}, max: 1}}",
     ("rules", 0, "params", "select", "entry"), "unknown entry 'nobody'"),
    ("rules:\n  - {id: a, type: count, params: {label: X, select: {category: allies}, max: 0}}",
     ("rules", 0, "params", "select", "category"), "unknown category 'allies'"),
    ("rules:\n  - {id: a, type: count, params: {label: X, select: {item_category: banners}, max: 0}}",
     ("rules", 0, "params", "select", "item_category"), "unknown item category 'banners'"),
    ("rules:\n  - {id: a, type: team_items_once, params: {colour: red}}", ("rules", 0, "params"),
     "Additional properties are not allowed ('colour' was unexpected)"),
    ("rules:\n  - {id: a, type: team_items_once}\n  - {id: a, type: team_items_once}", ("rules", 1, "id"),
     "rule id 'a' is used twice"),
])
def test_a_bad_rules_file_names_the_path_and_the_reason(library, empire, text, path, reason):
    with pytest.raises(RulesDataError) as caught:
        read(text, library, [empire])
    assert caught.value.source == "event.yaml"
    assert caught.value.path == path
    assert reason in caught.value.reason


def test_selectors_may_name_entries_of_any_allowed_book(library, empire, test_book):
    text = "rules:\n  - {id: a, type: count, params: {label: X, select: {entry: [marshal, core-blob]}, max: 1}}"
    assert len(read(text, library, [empire, test_book]).rules) == 1
    with pytest.raises(RulesDataError, match="unknown entry 'core-blob'"):
        read(text, library, [empire])


def test_a_huge_rules_file_is_refused(library):
    with pytest.raises(RulesDataError, match="event rules may be at most 65536"):
        read("# " + "x" * 70_000, library)


# --- the event's settings ------------------------------------------------------------------------

def ruleset(**changes):
    base = dict(system="t9a-0.11", points_limit=2400, books={"empire-of-sonnstahl": frozenset({"0.11.1"})})
    return Ruleset(**{**base, **changes})


def test_a_legal_list_at_its_own_event_is_legal_and_the_same_report(empire, legal):
    roster = parse_roster(legal)
    report = check_list(ruleset(), empire, roster)
    assert report == validate(empire, roster)
    assert report.valid and report.violations == ()


def test_a_list_is_checked_at_the_events_limit_and_told_so(empire, legal):
    report = check_list(ruleset(points_limit=2500), empire, parse_roster(legal))
    assert report.points_limit == 2500
    assert [(v.code, v.severity) for v in report.violations][:1] == [("event.points_limit", "warning")]
    assert report.violations[0].message == "The list was built for 2400 pts; it is checked at the event's 2500."
    # 2400 spent of 2500: 100 under, more than the 20 the rules allow (000:L81)
    assert "points.under_limit" in [v.code for v in report.violations]
    assert not report.valid


def test_a_book_or_version_the_event_does_not_allow(empire, legal):
    report = check_list(ruleset(books={"ogre-khans": frozenset()}, book_names={"ogre-khans": "Ogre Khans"}), empire,
                        parse_roster(legal))
    assert [v.code for v in report.violations] == ["event.book"]
    assert report.violations[0].message == ("Empire of Sonnstahl 0.11.1 is not allowed at this event; "
                                            "allowed: Ogre Khans.")
    other = check_list(ruleset(books={"empire-of-sonnstahl": frozenset({"0.11.2"})}), empire, parse_roster(legal))
    assert [v.code for v in other.violations] == ["event.book"]
    assert check_list(ruleset(books={}), empire, parse_roster(legal)).valid  # no books named: any


def test_a_list_of_another_system(empire, legal):
    report = check_list(ruleset(system="the-old-world", system_name="Warhammer: The Old World", books={}), empire,
                        parse_roster(legal))
    assert [v.code for v in report.violations] == ["event.system"]
    assert report.violations[0].message == ("The list is for The 9th Age: Fantasy Battles v0.11.9.3; the event plays "
                                            "Warhammer: The Old World.")


def test_the_event_rules_are_checked_on_top(library, empire, legal):
    rules = read("rules:\n  - {id: no-artillery, type: count, params: {label: War Machines, "
                 "select: {troop_type: war-machine}, max: 1, }, text: at most one war machine}", library, [empire])
    report = check_list(ruleset(event=rules), empire, parse_roster(legal))
    assert [(v.code, v.rule, v.source) for v in report.violations] == [("count.max", "no-artillery", "event rules")]
    assert report.violations[0].message == "War Machines: 2 units taken; at most 1."


def test_the_event_composition_and_modes(library, empire_of_man):
    doc = json.loads((EXAMPLES / "empire-of-man-legal.json").read_text())
    roster = parse_roster(doc)
    tow = Ruleset(system="the-old-world", points_limit=doc["points_limit"], composition="city-state-of-nuln")
    report = check_list(tow, empire_of_man, roster)
    assert report.violations[0].code == "event.composition"
    assert report.violations[0].message == "The event requires City-State of Nuln; the list uses no composition."
    nowhere = check_list(Ruleset(system="the-old-world", points_limit=doc["points_limit"], composition="atlantis"),
                         empire_of_man, roster)
    assert nowhere.violations[0].message == "The event requires the atlantis composition, which Empire of Man does not have."
    melee = check_list(Ruleset(system="the-old-world", points_limit=doc["points_limit"], modes=("grand-melee",)),
                       empire_of_man, roster)
    assert melee.violations[0][:3] == ("event.modes", "The list chose no matched-play rules; it is checked with the "
                                       "event's: Grand Melee.", "warning")


# --- team rules ----------------------------------------------------------------------------------

def test_a_magic_item_in_two_lists_of_a_team(library, empire, legal):
    team = read("rules:\n  - {id: team-items, type: team_items_once}", library, [empire]).team_rules
    alice = parse_roster({**legal, "player": "Alice"})
    other = copy.deepcopy(legal)
    other["player"] = "Bob"
    for unit in other["units"]:
        unit.pop("items", None)
        unit.pop("standard_items", None)
    other["units"][0]["items"] = ["talisman-of-greater-shielding"]  # Alice's General carries it too
    bob = parse_roster(other)
    found = check_team([("a", empire, alice, None), ("b", empire, bob, None)], team)
    assert [(v.code, v.unit) for v in found["a"]] == [("team.items_duplicate", "marshal")]
    assert found["a"][0].message == ("Talisman of Greater Shielding is also taken in Bob; a magic item may be "
                                     "taken in one list of the team only.")
    assert found["b"][0].message.startswith("Talisman of Greater Shielding is also taken in Alice;")
    # Giant Sword, Rending Banner, Banner of Discipline and Dispel Scroll are Alice's alone now
    assert len(found["a"]) == len(found["b"]) == 1


def test_team_items_once_by_category(library, empire, legal):
    team = read("rules:\n  - {id: t, type: team_items_once, params: {item_categories: [weapon]}}", library,
                [empire]).team_rules
    roster = parse_roster(legal)
    found = check_team([("a", empire, roster, None), ("b", empire, roster, None)], team)
    assert [v.message.split(" is ")[0] for v in found["a"]] == ["Giant Sword"]


def test_lists_of_different_items_break_no_team_rule(library, empire, legal):
    team = read("rules:\n  - {id: t, type: team_items_once}", library, [empire]).team_rules
    other = copy.deepcopy(legal)
    for unit in other["units"]:
        unit.pop("items", None)
        unit.pop("standard_items", None)
    found = check_team([("a", empire, parse_roster(legal), None), ("b", empire, parse_roster(other), None)], team)
    assert found == {"a": [], "b": []}


def test_the_documented_example_rules_read_as_documented(library):
    """docs/events.md's example is a working rules file for The Old World."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "events.md").read_text()
    text = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    books = [b for b in library.books.values() if b.system.id == "the-old-world"]
    rules = parse_event_rules(text, "docs/events.md", library.systems["the-old-world"], books)
    assert rules.name == "Club GT 2026"
    assert [r.id for r in rules.rules] == ["three-of-each", "no-allies", "wizard-levels", "no-named", "few-war-machines"]
    assert [r.severity for r in rules.rules][-1] == "warning"
    assert [r.id for r in rules.team_rules] == ["team-items"]
