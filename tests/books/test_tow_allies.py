"""The Old World's allied contingents: units from another army's book, with their own Character, at most
25% of the points limit (the-old-world-facts.md, "Allies and mercenaries": "Allies ... up to 25% of the
limit"; the Grand Army table: "Allies: at most 25%").

An Empire of Man army takes a Dwarfen Mountain Holds contingent (allowed: system.yaml `allies`, from Old
World Builder's the-old-world-system.json). The base list is legal; each test changes one thing.
"""
from __future__ import annotations

import copy
from dataclasses import replace

import msgspec
import pytest

from armylists.rules import ListDocumentError, parse_roster, roster_to_dict, validate
from armylists.rules.native.army import Army
from armylists.rules.native.derived import RESOLVED_UNITS
from armylists.rules.errors import RulesDataError
from armylists.rules.reading.loader import build_system, read_yaml

from tests.conftest import RULES_DATA

SYSTEM = "the-old-world"
EMPIRE, DWARFS, ORCS = "empire-of-man", "dwarfen-mountain-holds", "orc-and-goblin-tribes"
VERSION = "2024.4"

MAIN = [  # 955 pts of Empire of Man: Core 820
    {"id": "general", "entry": "general-of-the-empire", "general": True},
    {"id": "captain", "entry": "captain-of-the-empire"},
    {"id": "troops-1", "entry": "state-troops", "size": 100},
    {"id": "troops-2", "entry": "state-troops", "size": 50},
    {"id": "archers", "entry": "empire-archers", "size": 10},
]
ALLIED = [  # 500 pts of Dwarfs: exactly 25% of 2000
    {"id": "thane", "entry": "thane", "allied": True},
    {"id": "warriors", "entry": "dwarf-warriors", "size": 55, "allied": True},
]


@pytest.fixture(scope="module")
def books(library):
    return {b: library.book(SYSTEM, b, VERSION) for b in (EMPIRE, DWARFS, ORCS)}


def document(units=None, allied=None, book=EMPIRE, allies=DWARFS, points_limit=2000, **extra):
    doc = {"format": "armylist/1", "system": SYSTEM, "book": book, "book_version": VERSION,
           "points_limit": points_limit,
           "units": copy.deepcopy((MAIN if units is None else units) + (ALLIED if allied is None else allied)),
           **extra}
    if allies:
        doc["allies"] = {"book": allies, "book_version": VERSION}
    return doc


def check(books, doc):
    roster = parse_roster(doc)
    return validate(books[roster.book], roster, allies=books[roster.allies.book] if roster.allies else None)


def codes(report):
    return sorted(v.code for v in report.violations)


def only(report, code):
    found = [v for v in report.violations if v.code == code]
    assert len(found) == 1, [(v.code, v.message) for v in report.violations]
    return found[0]


# --- the 25% boundary ---------------------------------------------------------------------------------

def test_allies_at_exactly_25_percent_are_legal(books):
    """the-old-world-facts.md: Allies at most 25% (of the points limit; bounds are inclusive)."""
    report = check(books, document())
    assert codes(report) == []
    assert report.total_points == 1455
    allies = next(c for c in report.categories if c.id == "allies")
    assert (allies.name, allies.points, allies.percent, allies.max_percent, allies.units, allies.state) == (
        "Allies", 500, 25.0, 25, 2, "ok")


def test_allies_one_point_above_25_percent_are_not(books):
    """the-old-world-facts.md: Allies at most 25%: 501 of 2000 is one point too many."""
    allied = [{"id": "thane", "entry": "thane", "allied": True, "options": {"great-weapon": 1}},  # 64
              {"id": "warriors", "entry": "dwarf-warriors", "size": 54, "command": ["musician"], "allied": True}]  # 437
    report = check(books, document(allied=allied))
    assert codes(report) == ["category.max_percent"]
    violation = only(report, "category.max_percent")
    assert violation.message == "Allies: 501 pts is 25.1% of 2000; at most 25% (500 pts)."
    assert violation.rule == "allies-maximum"
    assert next(c for c in report.categories if c.id == "allies").state == "high"


def test_the_report_shows_the_allies_points_and_book(books):
    report = check(books, document())
    assert [(c.id, c.points) for c in report.categories] == [
        ("characters", 135), ("core", 820), ("special", 0), ("rare", 0), ("mercenaries", 0), ("allies", 500)]
    assert [(u.id, u.category, u.points, u.allied) for u in report.units[-2:]] == [
        ("thane", "allies", 60, True), ("warriors", "allies", 440, True)]
    assert report.units[0].allied is False
    data = report.to_dict()
    assert data["allies"] == {"book": DWARFS, "book_version": VERSION, "name": "Dwarfen Mountain Holds",
                              "composition": None}
    assert data["units"][-1]["allied"] is True
    assert check(books, document(allied=[], allies=None)).to_dict()["allies"] is None


# --- the contingent ---------------------------------------------------------------------------------

def test_a_contingent_without_a_character_is_refused(books):
    report = check(books, document(allied=ALLIED[1:]))
    assert codes(report) == ["allies.no_character"]
    violation = only(report, "allies.no_character")
    assert violation.message == ("The allied contingent from Dwarfen Mountain Holds has 1 unit but no Character; "
                                 "it must include at least one Character of its own.")
    assert violation.rule == "allies" and "the-old-world-facts.md" in violation.source


def test_an_empty_contingent_needs_no_character(books):
    assert codes(check(books, document(allied=[]))) == []


def test_the_general_is_never_an_allied_character(books):
    main = [dict(u, general=False) if u["id"] == "general" else u for u in MAIN]
    allied = [dict(ALLIED[0], general=True), ALLIED[1]]
    report = check(books, document(units=main, allied=allied))
    assert codes(report) == ["allies.general", "general.missing"]
    assert only(report, "allies.general").message == (
        "Thane (thane) is in the allied contingent (Dwarfen Mountain Holds) and cannot be the General; the "
        "General is one of Empire of Man's own Characters.")
    assert only(report, "allies.general").unit == "thane"
    # The General rule looks at the army without its allies: it offers only the Empire's own Characters.
    missing = only(report, "general.missing").message
    assert missing.startswith("No General is named; one Character must be: General of the Empire (general) Ld ")
    assert "Captain of the Empire (captain)" in missing and "Thane" not in missing


def test_an_allied_general_beside_the_real_one_is_not_a_second_general(books):
    allied = [dict(ALLIED[0], general=True), ALLIED[1]]
    assert codes(check(books, document(allied=allied))) == ["allies.general"]


def test_the_allies_book_s_own_limits_hold_for_the_contingent(books):
    """Dwarfen Mountain Holds: "Rangers as Core" 0-1 (a rule of that book, for its units alone)."""
    allied = [ALLIED[0], {"id": "rangers-1", "entry": "rangers-core", "allied": True},
              {"id": "rangers-2", "entry": "rangers-core", "allied": True}]
    report = check(books, document(allied=allied))
    assert codes(report) == ["count.max"]
    assert only(report, "count.max").message == "Rangers as Core: 2 units taken; at most 1."
    assert only(report, "count.max").rule == "rangers-as-core"


def test_the_list_s_own_book_limits_count_its_own_units_alone(books):
    """Allies come "from another army's list, with their own characters and units" (the-old-world-facts.md):
    Empire of Man's 0-1 Helblaster Volley Gun or Helstorm Rocket Battery per 1000 points counts the main
    army's war machines, not an allied Empire contingent's (system.yaml `book_rules_without_allies`)."""
    guns = [{"id": f"gun-{n}", "entry": "helblaster-volley-gun"} for n in (1, 2)]
    allied = [{"id": "ally-captain", "entry": "captain-of-the-empire", "allied": True},
              {"id": "ally-gun", "entry": "helblaster-volley-gun", "allied": True}]
    doc = document(units=MAIN + guns, allied=allied, allies=EMPIRE)
    doc["allies"]["composition"] = "city-state-of-nuln"
    assert codes(check(books, doc)) == []  # 2 of the main army's own at 2000 pts, and 1 allied
    doc["units"].append({"id": "gun-3", "entry": "helstorm-rocket-battery"})
    report = check(books, doc)
    assert codes(report) == ["count.max"]
    assert only(report, "count.max").message == (
        "Helblaster Volley Guns and Helstorm Rocket Batteries: 3 units taken; at most 2 "
        "(1 per 1000 pts of the 2000-pt limit).")


def test_an_allied_character_s_items_are_its_own_book_s(books):
    """A Thane's runes are Dwarf items of Dwarf item categories, which the Empire's system lacks."""
    allied = [dict(ALLIED[0], items=["master-rune-of-smiting", "rune-of-speed"]), ALLIED[1]]
    report = check(books, document(allied=allied))
    assert codes(report) == ["category.max_percent", "items.allowance"]
    assert only(report, "items.allowance").message == "Thane (thane) has 80 pts of magical items; its allowance is 75 pts."


# --- which armies may ally --------------------------------------------------------------------------

def test_an_army_the_book_may_not_ally_with_is_refused(books):
    allied = [{"id": "boss", "entry": "orc-bigboss", "allied": True}, {"id": "mob", "entry": "orc-mob", "allied": True,
                                                                        "size": 20}]
    report = check(books, document(allied=allied, allies=ORCS))
    assert codes(report) == ["allies.not_allowed"]
    assert only(report, "allies.not_allowed").message == (
        "Empire of Man may not take allies from Orc & Goblin Tribes; it may ally with: dwarfen-mountain-holds, "
        "kingdom-of-bretonnia, wood-elf-realms, grand-cathay, renegade-crowns, empire-of-man (city-state-of-nuln), "
        "empire-of-man (knightly-order-panther), empire-of-man (knightly-order-white-wolf), "
        "empire-of-man (knightly-order-blazing-sun), empire-of-man (knightly-order-morr), "
        "empire-of-man (knightly-order-fiery-heart).")
    # Still priced and counted: the Report shows what the list holds.
    assert next(c.points for c in report.categories if c.id == "allies") == 155


def test_the_table_is_read_from_both_sides(books, library):
    allies = library.systems[SYSTEM].allies
    assert allies.allows(DWARFS, EMPIRE, None) and allies.allows(EMPIRE, DWARFS, None)
    assert not allies.allows(ORCS, DWARFS, None) and not allies.allows(DWARFS, ORCS, None)
    assert allies.allows(EMPIRE, EMPIRE, "city-state-of-nuln") and not allies.allows(EMPIRE, EMPIRE, None)


def test_dwarfs_may_take_empire_allies(books):
    main = [{"id": "king", "entry": "king", "general": True},
            {"id": "warriors-1", "entry": "dwarf-warriors", "size": 40},
            {"id": "warriors-2", "entry": "dwarf-warriors", "size": 40},
            {"id": "quarrellers", "entry": "quarrellers", "size": 20}]
    allied = [{"id": "captain", "entry": "captain-of-the-empire", "allied": True},
              {"id": "troops", "entry": "state-troops", "size": 20, "allied": True}]
    report = check(books, document(units=main, allied=allied, book=DWARFS, allies=EMPIRE))
    assert codes(report) == []
    assert next(c.points for c in report.categories if c.id == "allies") == 145


def test_an_empire_contingent_of_another_composition(books):
    doc = document(allied=[{"id": "ally-captain", "entry": "captain-of-the-empire", "allied": True},
                           {"id": "troops", "entry": "state-troops", "size": 20, "allied": True}], allies=EMPIRE)
    assert codes(check(books, doc)) == ["allies.not_allowed"]
    doc["allies"]["composition"] = "city-state-of-nuln"
    report = check(books, doc)
    assert codes(report) == []
    assert report.allies.composition == "city-state-of-nuln"
    doc["allies"]["composition"] = "knightly-order-morr"  # allowed by the table and in our book
    report = check(books, doc)
    assert codes(report) == []
    assert report.allies.composition == "knightly-order-morr"
    doc["allies"]["composition"] = "knightly-order-of-sigmar"  # not in our book
    assert only(check(books, doc), "list.unknown_composition").message == (
        "Allies composition 'knightly-order-of-sigmar' is not one of Empire of Man's (city-state-of-nuln, "
        "knightly-order-panther, knightly-order-white-wolf, knightly-order-blazing-sun, knightly-order-morr, "
        "knightly-order-fiery-heart).")


def test_a_composition_without_allies_refuses_them_by_its_percent(books):
    """Empire of Man, City-State of Nuln: no Allies (its allies percentage is 0)."""
    report = check(books, document(composition="city-state-of-nuln"))
    assert "category.max_percent" in codes(report)
    assert "Allies: 500 pts is 25.0% of 2000; at most 0% (0 pts)." in [v.message for v in report.violations]


def test_a_system_without_allies_refuses_them(library):
    t9a = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    ogres = library.book("t9a-0.11", "ogre-khans", "0.11.0")
    roster = parse_roster({"format": "armylist/1", "system": "t9a-0.11", "book": t9a.id, "book_version": t9a.version,
                           "points_limit": 2400, "allies": {"book": ogres.id, "book_version": ogres.version},
                           "units": [{"id": "o", "entry": "khan", "allied": True}]})
    report = validate(t9a, roster, allies=ogres)
    assert only(report, "allies.not_allowed").message == (
        "Empire of Sonnstahl may not take allies from Ogre Khans: The 9th Age: Fantasy Battles v0.11.9.3 lists "
        "take no allied contingents.")
    assert [u.id for u in report.units] == []  # no allies category to count them in


# --- names the allies book lacks ----------------------------------------------------------------------

def test_unknown_allied_names_are_reported_against_the_allies_book(books):
    allied = [dict(ALLIED[0], items=["runefang"], options={"lance": 1}),
              ALLIED[1], {"id": "ghost", "entry": "state-troops", "size": 10, "allied": True}]
    report = check(books, document(allied=allied))
    assert codes(report) == ["list.unknown_entry", "list.unknown_item", "list.unknown_option"]
    messages = {v.code: v.message for v in report.violations}
    assert messages["list.unknown_entry"] == "Unit ghost names 'state-troops', which is not in Dwarfen Mountain Holds 2024.4."
    assert messages["list.unknown_item"] == ("Thane (thane) has item 'runefang', which Thane cannot take in "
                                             "Dwarfen Mountain Holds 2024.4.")
    assert messages["list.unknown_option"] == ("Thane (thane) has option 'lance', which Thane cannot take in "
                                               "Dwarfen Mountain Holds 2024.4.")


def test_a_report_made_without_the_allies_book_says_so(books):
    roster = parse_roster(document())
    report = validate(books[EMPIRE], roster)
    assert codes(report) == ["list.unknown_allies_book"]
    assert only(report, "list.unknown_allies_book").message == (
        "The allies book dwarfen-mountain-holds 2024.4 is not loaded, so the allied units (thane, warriors) are "
        "not checked.")
    assert report.total_points == 955


def test_allied_units_of_a_roster_without_allies_are_not_priced(books):
    """A document cannot say this (test_an_allied_unit_needs_the_allies_book); a Roster built in code can."""
    roster = parse_roster(document())
    report = validate(books[EMPIRE], replace(roster, allies=None), allies=books[DWARFS])
    assert codes(report) == ["list.unknown_allies_book"]
    assert only(report, "list.unknown_allies_book").message == (
        "Units thane, warriors are allied, but the list names no allies book.")


def test_an_event_checks_a_list_with_its_allies(books):
    from armylists.rules.event_rules.ruleset import Ruleset, check_list

    ruleset = Ruleset(system=SYSTEM, points_limit=1999)
    report = check_list(ruleset, books[EMPIRE], parse_roster(document()), books[DWARFS])
    assert codes(report) == ["category.max_percent", "event.points_limit"]
    assert only(report, "category.max_percent").message == "Allies: 500 pts is 25.01% of 1999; at most 25% (499 pts)."


def test_the_wrong_allies_book_is_a_caller_s_mistake(books):
    with pytest.raises(ValueError, match="the list's allies are dwarfen-mountain-holds 2024.4, not orc-and-goblin"):
        validate(books[EMPIRE], parse_roster(document()), allies=books[ORCS])


# --- the per-book cache of priced units ---------------------------------------------------------------

def test_allied_units_are_priced_once_in_their_own_book(books):
    roster = parse_roster(document())
    first = Army(books[EMPIRE], roster, books[DWARFS])
    second = Army(books[EMPIRE], roster, books[DWARFS])
    assert first.units[-1] is second.units[-1]  # priced once
    allied = roster.units[-1]
    assert (None, allied) in books[DWARFS].derived.of(RESOLVED_UNITS, books[DWARFS])
    assert (None, allied) not in books[EMPIRE].derived.of(RESOLVED_UNITS, books[EMPIRE])
    # The same unit in a Dwarf list of its own is another unit, in its own category.
    own = msgspec.structs.replace(allied, allied=False)
    dwarf_list = parse_roster(document(units=[], allied=[], book=DWARFS, allies=None))
    alone = Army(books[DWARFS], replace(dwarf_list, units=(own,)))
    assert (alone.units[0].category, first.units[-1].category) == ("core", "allies")
    assert first.contingent.units[-1].category == "core"


# --- the document -------------------------------------------------------------------------------------

def test_the_document_round_trips(books):
    doc = document()
    doc["allies"]["composition"] = None
    roster = parse_roster(doc)
    assert roster.allies.book == DWARFS and roster.allies.composition is None
    assert [u.allied for u in roster.units] == [False] * 5 + [True, True]
    written = roster_to_dict(roster)
    assert written["allies"] == {"book": DWARFS, "book_version": VERSION}
    assert written["units"][-1] == {"id": "warriors", "entry": "dwarf-warriors", "allied": True, "size": 55}
    assert "allied" not in written["units"][0]
    assert parse_roster(written) == roster
    assert roster_to_dict(parse_roster(written)) == written
    assert "allies" not in roster_to_dict(parse_roster(document(allied=[], allies=None)))


def test_an_allied_unit_needs_the_allies_book():
    with pytest.raises(ListDocumentError) as caught:
        parse_roster(document(allies=None))
    assert str(caught.value) == ('list: units[5].allied: the unit is allied, but the list names no allies book '
                                 '(add "allies")')


def test_the_allies_field_has_a_shape():
    doc = document()
    doc["allies"] = {"book": DWARFS}
    with pytest.raises(ListDocumentError) as caught:
        parse_roster(doc)
    assert str(caught.value) == "list: allies: 'book_version' is a required property"
    doc["allies"] = {"book": DWARFS, "book_version": VERSION, "army": "x"}
    with pytest.raises(ListDocumentError) as caught:
        parse_roster(doc)
    assert str(caught.value) == "list: allies: Additional properties are not allowed ('army' was unexpected)"


# --- finding the allies book (catalogue) --------------------------------------------------------------

@pytest.mark.django_db
def test_book_for_names_an_unknown_allies_book_or_version():
    from armylists.lists.library.catalogue import allies_book_for, book_for, report_for

    doc = document()
    doc["allies"]["book"] = "dwarves"
    with pytest.raises(ListDocumentError) as caught:
        book_for(parse_roster(doc), "army.json")
    assert caught.value.path == ("allies", "book")
    assert str(caught.value) == ("army.json: allies.book: unknown allies book 'dwarves' for the-old-world; known: "
                                 "dwarfen-mountain-holds, empire-of-man, orc-and-goblin-tribes")
    doc = document()
    doc["allies"]["book_version"] = "1999"
    with pytest.raises(ListDocumentError) as caught:
        report_for(parse_roster(doc), "army.json")
    assert caught.value.path == ("allies", "book_version")
    assert str(caught.value) == ("army.json: allies.book_version: allies book Dwarfen Mountain Holds version '1999' "
                                 "is not loaded; available: 2024.4")
    roster = parse_roster(document())
    assert book_for(roster).id == EMPIRE and allies_book_for(roster).id == DWARFS
    assert allies_book_for(parse_roster(document(allied=[], allies=None))) is None
    report = report_for(roster)
    assert report.valid and report.allies.name == "Dwarfen Mountain Holds"


@pytest.mark.django_db
def test_the_validate_endpoint_checks_the_allies(api_anonymous):
    allied = [ALLIED[1]]
    data = api_anonymous.post("/api/v1/validate/", document(allied=allied), format="json").json()
    assert [v["code"] for v in data["violations"]] == ["allies.no_character"]
    assert data["allies"]["book"] == DWARFS
    doc = document()
    doc["allies"]["book"] = "dwarves"
    answer = api_anonymous.post("/api/v1/validate/", doc, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["fields"][0]["path"] == "allies.book"


# --- the rules data -----------------------------------------------------------------------------------

def test_the_system_s_allies_table_is_checked_when_it_loads():
    data = read_yaml(RULES_DATA / SYSTEM / "system.yaml")
    data["allies"]["category"] = "friends"
    with pytest.raises(RulesDataError) as caught:
        build_system(data, "system.yaml")
    assert str(caught.value) == "system.yaml: allies.category: unknown category 'friends'"
    data = read_yaml(RULES_DATA / SYSTEM / "system.yaml")
    data["allies"]["without_allies"] = ["generals"]
    with pytest.raises(RulesDataError) as caught:
        build_system(data, "system.yaml")
    assert str(caught.value) == "system.yaml: allies.without_allies[0]: unknown rule type 'generals'"
    data = read_yaml(RULES_DATA / SYSTEM / "system.yaml")
    data["allies"]["book_rules_without_allies"] = ["count", "counts"]
    with pytest.raises(RulesDataError) as caught:
        build_system(data, "system.yaml")
    assert str(caught.value) == "system.yaml: allies.book_rules_without_allies[1]: unknown rule type 'counts'"


# --- tournament text ----------------------------------------------------------------------------------

def test_the_text_export_names_the_allies_and_reads_them_back(books):
    from armylists.exports import export_text, parse_list_text

    roster = parse_roster(document())
    report = validate(books[EMPIRE], roster, allies=books[DWARFS])
    text = export_text(books[EMPIRE], roster, report, books[DWARFS])
    assert "\nBook: Empire of Man 2024.4\nAllies: Dwarfen Mountain Holds 2024.4\nPoints limit: 2000 pts\n" in text
    assert "\n== Allies: 500 pts (25.0%) ==\n60 - Thane\n440 - 55 Dwarf Warriors\n" in text
    back = parse_list_text(text, books.values())
    assert back.allies == roster.allies
    assert [(u.entry, u.allied) for u in back.units] == [(u.entry, u.allied) for u in roster.units]
    assert validate(books[EMPIRE], back, allies=books[DWARFS]).total_points == report.total_points


def test_the_text_export_keeps_an_allies_composition_and_unknown_allied_units(books):
    from armylists.exports import export_text, parse_list_text

    doc = document(allied=[{"id": "ally-captain", "entry": "captain-of-the-empire", "allied": True},
                           {"id": "ghost", "entry": "thane", "allied": True}], allies=EMPIRE)
    doc["allies"]["composition"] = "city-state-of-nuln"
    roster = parse_roster(doc)
    report = validate(books[EMPIRE], roster, allies=books[EMPIRE])
    text = export_text(books[EMPIRE], roster, report, books[EMPIRE])
    assert "\nAllies: Empire of Man 2024.4 (City-State of Nuln)\n" in text
    assert "\n== Allies: 45 pts (2.2%) ==\n45 - Captain of the Empire\n" in text
    assert "\n== Allies not in Empire of Man 2024.4 ==\n? - ?entry:thane\n" in text
    back = parse_list_text(text, books.values())
    assert back.allies == roster.allies
    assert [(u.entry, u.allied) for u in back.units][-2:] == [("captain-of-the-empire", True), ("thane", True)]


def test_an_allies_line_in_a_system_without_allies_is_refused(library):
    from armylists.exports import ListTextError, parse_list_text

    text = ("System: The 9th Age: Fantasy Battles v0.11.9.3\nBook: Empire of Sonnstahl 0.11.1\n"
            "Allies: Ogre Khans 0.11.0\nPoints limit: 2400 pts\n")
    with pytest.raises(ListTextError) as caught:
        parse_list_text(text, library.books.values(), "army.txt")
    assert str(caught.value) == "army.txt: line 3: The 9th Age: Fantasy Battles v0.11.9.3 lists take no allies"


# --- the site: no editor for allies yet, but a list with allies opens, prints and downloads ------------

@pytest.mark.django_db
def test_a_list_with_allies_opens_and_downloads(client, alice):
    from armylists.lists.library.catalogue import report_for
    from armylists.models import ArmyList

    roster = parse_roster(document())
    army_list = ArmyList(owner=alice)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    assert army_list.valid and army_list.total_points == 1455
    client.force_login(alice)
    for url in (f"/lists/{army_list.pk}/", f"/lists/{army_list.pk}/edit/", f"/lists/{army_list.pk}/download/pdf/"):
        assert client.get(url).status_code == 200, url
    text = client.get(f"/lists/{army_list.pk}/download/txt/").content.decode()
    assert "Allies: Dwarfen Mountain Holds 2024.4" in text and "440 - 55 Dwarf Warriors" in text and "\nLEGAL\n" in text


def test_the_printed_roster_names_the_allied_units_from_their_own_book(books):
    import io

    from pypdf import PdfReader

    from armylists.exports.pdf import render_pdf

    roster = parse_roster(document())
    report = check(books, document())
    for variant in ("full", "compact", "hidden"):
        pdf = render_pdf(books[EMPIRE], roster, report, variant, allies=books[DWARFS])
        text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        assert "Thane" in text and "Dwarf Warriors" in text, variant
        assert "?entry" not in text, variant
