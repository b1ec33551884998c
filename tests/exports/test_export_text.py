"""Tournament text: the exact lines of a known list, the round trip of every example, and the errors
that name the line and the closest name the book has."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import msgspec
import pytest

from armylists.exports import ListTextError, export_text, parse_list_text
from armylists.rules import parse_roster, roster_to_dict, validate

from tests.conftest import list_document

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))

SMALL_LIST = [
    {"id": "gen", "entry": "lord", "general": True, "mount": "horse", "options": {"lance": 1},
     "items": ["giant-sword", "bluffers-helm"]},
    {"id": "wiz", "entry": "hero-wizard", "options": {"level-2": 1}, "path": "fire", "items": ["test-token"]},
    {"id": "bsb", "entry": "hero", "options": {"battle-standard-bearer": 1, "trophy": 2}},
    {"id": "sp", "entry": "spearmen", "size": 20, "options": {"shields": 1}, "command": ["champion", "musician", "standard"],
     "veteran_standard": True, "champion_items": ["test-blade"], "label": "red banner"},
    {"id": "k", "entry": "knights"},
]

SMALL_TEXT = """\
List: Zoë's army
Player: Zoë
System: The 9th Age: Fantasy Battles v0.11.9.3
Book: Test Book 1
Points limit: 1000 pts

== Lords: 215 pts (21.5%) ==
215 - Lord, General, Lance, Horse, Giant Sword, Bluffer's Helm

== Heroes: 178 pts (17.8%) ==
101 - Hero Wizard, Level 2 Wizard, Path of Fire, Test Token
77 - Hero, BSB, 2x Trophy

== Core: 175 pts (17.5%) ==
175 - 20 Spearmen [red banner], Shields, Champion (Test Blade), Musician, Veteran Standard Bearer

== Special: 60 pts (6.0%) ==
60 - 3 Knights

Total: 628 pts of 1000 (372 pts left)
NOT LEGAL (4 errors)
x points.under_limit: Total 628 pts is 372 pts under the 1000 pts limit; an army may be at most 20 pts under it.
x category.min_percent: Core: 175 pts is 17.5% of 1000; at least 25% (250 pts) is required.
x units.min: The army has 2 units that are not Characters; a Warband (1000 pts) needs at least 3.
x items.allowance: Spearmen champion (sp) has 30 pts of magical items; its allowance is 25 pts.
"""


def small_roster():
    return parse_roster(list_document(SMALL_LIST, 1000, name="Zoë's army", player="Zoë"))


def read(text: str, test_book) -> object:
    return parse_list_text(text, [test_book], "army.txt")


def error(text: str, test_book) -> str:
    with pytest.raises(ListTextError) as caught:
        read(text, test_book)
    return str(caught.value)


def with_unit_line(line: str) -> str:
    """The small list's text with one more unit line under the Lords."""
    return SMALL_TEXT.replace("== Heroes", f"{line}\n\n== Heroes")


def test_it_writes_the_tournament_lines_of_a_known_list(test_book):
    roster = small_roster()
    # Lord 100 + Lance 10 + Horse 10 + Giant Sword at the Lord price 60 (000:L2846-2849) + Bluffer's Helm 35.
    assert export_text(test_book, roster, validate(test_book, roster)) == SMALL_TEXT


def test_it_reads_the_known_list_back_with_positional_ids(test_book):
    # The text always carries the model count, so the Knights read back with the size they had by default.
    expected = [dict(u, id=f"u{i + 1}") for i, u in enumerate(SMALL_LIST)]
    expected[4]["size"] = 3
    assert roster_to_dict(read(SMALL_TEXT, test_book)) == roster_to_dict(
        parse_roster(list_document(expected, 1000, name="Zoë's army", player="Zoë")))


def in_category_order(roster, report):
    """The roster as its text reads back: units in category order, then ids u1, u2..."""
    order = [c.id for c in report.categories]
    category = {u.id: u.category for u in report.units}
    units = sorted(roster.units, key=lambda u: order.index(category[u.id]) if u.id in category else len(order))
    return dataclasses.replace(roster, units=tuple(msgspec.structs.replace(u, id=f"u{i + 1}") for i, u in enumerate(units)))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_survives_export_then_import(path, library):
    roster = parse_roster(json.loads(path.read_text()))
    book = library.book(roster.system, roster.book, roster.book_version)
    report = validate(book, roster)
    text = export_text(book, roster, report)
    again = parse_list_text(text, library.books.values(), path.name)
    # Option order is not part of the list (roster_to_dict gives a dict); the unit order follows the categories.
    assert roster_to_dict(again) == roster_to_dict(in_category_order(roster, report))
    again_report = validate(book, again)
    assert (again_report.total_points, [v.code for v in again_report.violations]) == \
        (report.total_points, [v.code for v in report.violations])
    # Written again, the text is the same up to the violations, whose messages name the (new) unit ids.
    head = text.split("\nx ")[0]
    assert export_text(book, again, again_report).split("\nx ")[0] == head


def test_an_id_the_book_lacks_is_kept_so_the_engine_still_reports_it(test_book):
    roster = parse_roster(list_document([
        {"entry": "dwarf-king", "size": 2, "options": {"rune": 2}},
        {"entry": "hero-wizard", "path": "butchery", "options": {"hood": 1}, "items": ["lost-ring"], "mount": "wyvern"},
    ]))
    text = export_text(test_book, roster, validate(test_book, roster))
    assert "60 - Hero Wizard, Level 1 Wizard, ?path:butchery, ?option:hood, ?mount:wyvern, ?item:lost-ring\n" in text
    assert "\n== Not in Test Book 1 ==\n? - 2 ?entry:dwarf-king, 2x ?option:rune\n" in text
    again = read(text, test_book)
    assert [roster_to_dict(again)["units"][i] for i in (0, 1)] == [
        {"id": "u1", "entry": "hero-wizard", "options": {"hood": 1}, "mount": "wyvern", "items": ["lost-ring"],
         "path": "butchery"},
        {"id": "u2", "entry": "dwarf-king", "size": 2, "options": {"rune": 2}},
    ]


def test_the_size_is_written_when_it_says_something(test_book):
    roster = parse_roster(list_document([
        {"entry": "knights"},  # no size: the entry's minimum, 3 models
        {"entry": "cannon", "size": 1},  # one model: not written
        {"entry": "spearmen", "size": 1},  # below the minimum of 10: written, so the import keeps the mistake
    ]))
    lines = export_text(test_book, roster, validate(test_book, roster)).splitlines()
    assert [line for line in lines if line[:1].isdigit()] == ["5 - 1 Spearmen", "60 - 3 Knights", "100 - Cannon"]
    assert [u.size for u in read("\n".join(lines), test_book).units] == [1, 3, None]


def test_names_are_read_whatever_their_case_and_roles_in_any_order(test_book):
    text = with_unit_line("0 - hero wizard, test token, path of fire, level 2 wizard")
    unit = read(text, test_book).units[1]
    assert (unit.entry, unit.options, unit.path, unit.items) == ("hero-wizard", (("level-2", 1),), "fire", ("test-token",))


def test_an_unknown_unit_names_the_line_and_the_closest_entry(test_book):
    assert error(with_unit_line("50 - Hero Wizzard, Level 2 Wizard"), test_book) == \
        'army.txt: line 10: no unit "Hero Wizzard" in Test Book 1; did you mean "Hero Wizard"?'


def test_an_unknown_unit_with_nothing_close_has_no_suggestion(test_book):
    assert error(with_unit_line("50 - Xyzzy"), test_book) == 'army.txt: line 10: no unit "Xyzzy" in Test Book 1'


def test_an_unknown_option_names_the_line_and_the_closest_name(test_book):
    assert error(SMALL_TEXT.replace("2x Trophy", "2x Trophee"), test_book) == \
        'army.txt: line 12: "2x Trophee" is not an option, mount, command or item Hero can take in Test Book 1; ' \
        'did you mean "Trophy"?'


def test_an_unknown_item_names_the_line_and_the_closest_item(test_book):
    assert error(SMALL_TEXT.replace("Giant Sword", "Giant Swrod"), test_book) == \
        'army.txt: line 8: "Giant Swrod" is not an option, mount, command or item Lord can take in Test Book 1; ' \
        'did you mean "Giant Sword"?'


def test_an_unknown_item_of_a_champion_names_the_line(test_book):
    assert error(SMALL_TEXT.replace("Champion (Test Blade)", "Champion (Test Blaed)"), test_book) == \
        'army.txt: line 15: no item "Test Blaed" in Test Book 1; did you mean "Test Blade"?'


def test_a_bsb_or_wizard_level_the_entry_cannot_have_is_named(test_book):
    assert error(with_unit_line("50 - Lord, BSB"), test_book) == \
        "army.txt: line 10: Lord cannot be the BSB in Test Book 1"
    assert error(with_unit_line("50 - Hero Wizard, Level 4 Wizard"), test_book) == \
        "army.txt: line 10: Hero Wizard cannot be a Level 4 Wizard in Test Book 1; its levels: 1, 2"
    assert error(with_unit_line("50 - Lord, Level 1 Wizard"), test_book) == \
        "army.txt: line 10: Lord cannot be a Level 1 Wizard in Test Book 1; it is not a Wizard"


def test_two_mounts_or_two_paths_are_refused(test_book):
    assert error(with_unit_line("50 - Lord, Horse, Dragon"), test_book) == \
        "army.txt: line 10: Lord has two mounts; it may ride one"
    assert error(with_unit_line("50 - Lord Wizard, Path of Fire, Path of Testing"), test_book) == \
        "army.txt: line 10: Lord Wizard has two Paths; a Wizard uses one"


def test_a_line_that_is_not_a_unit_is_named(test_book):
    assert error(with_unit_line("Lord with a horse"), test_book) == \
        'army.txt: line 10: expected a unit as "<points> - <unit>, <options>...", not "Lord with a horse"'


def test_a_size_the_document_refuses_names_the_line(test_book):
    assert error(with_unit_line("50 - 0 Spearmen"), test_book) == \
        "army.txt: line 10: size: 0 is less than the minimum of 1"


def test_a_header_naming_an_unknown_book_suggests_the_closest(test_book):
    assert error(SMALL_TEXT.replace("Book: Test Book 1", "Book: Test Bok 1"), test_book) == \
        'army.txt: line 4: no book "Test Bok" in The 9th Age: Fantasy Battles v0.11.9.3; did you mean "Test Book"?'


def test_a_header_naming_a_version_we_do_not_have_lists_those_we_have(test_book):
    assert error(SMALL_TEXT.replace("Book: Test Book 1", "Book: Test Book 2"), test_book) == \
        'army.txt: line 4: Test Book version "2" is not loaded; available: 1'


def test_a_version_missing_from_the_books_is_looked_up(test_book):
    seen = []

    def lookup(system, book, version):
        seen.append((system, book, version))
        return test_book

    parse_list_text(SMALL_TEXT.replace("Book: Test Book 1", "Book: Test Book 0.9"), [test_book], "army.txt", lookup)
    assert seen == [("t9a-0.11", "test-book", "0.9")]


def test_a_header_naming_an_unknown_system_suggests_the_closest(test_book):
    text = SMALL_TEXT.replace("System: The 9th Age: Fantasy Battles v0.11.9.3", "System: The 9th Age Fantasy Battle")
    assert error(text, test_book) == 'army.txt: line 3: no game system "The 9th Age Fantasy Battle"; ' \
                                     'did you mean "The 9th Age: Fantasy Battles v0.11.9.3"?'


def test_a_header_without_a_points_limit_is_refused(test_book):
    assert error(SMALL_TEXT.replace("Points limit: 1000 pts\n", ""), test_book) == \
        'army.txt: line 5: the header has no "Points limit:" line; it needs System, Book and Points limit'


def test_an_unknown_header_field_is_refused(test_book):
    assert error("Army: Empire\n" + SMALL_TEXT, test_book) == \
        'army.txt: line 1: expected a header line "<field>: <value>" with a field among List, Player, Team, System, ' \
        'Book, Composition, Matched play, Allies, Points limit, not "Army: Empire"'


def test_a_points_limit_that_is_not_a_number_is_refused(test_book):
    assert error(SMALL_TEXT.replace("Points limit: 1000 pts", "Points limit: lots"), test_book) == \
        'army.txt: line 5: the points limit "lots" is not a number of points'


def test_the_total_and_verdict_are_not_read(test_book):
    """They are the engine's: a doctored total or verdict changes nothing."""
    doctored = SMALL_TEXT.replace("Total: 628 pts", "Total: 1 pts").replace("NOT LEGAL (4 errors)", "LEGAL")
    assert read(doctored, test_book) == read(SMALL_TEXT, test_book)


def test_a_composition_the_book_lacks_is_kept_and_a_misnamed_one_refused(test_book):
    roster = parse_roster(list_document([{"entry": "lord"}], composition="grudge-march"))
    text = export_text(test_book, roster, validate(test_book, roster))
    assert text.splitlines()[1:3] == ["Book: Test Book 1", "Composition: ?composition:grudge-march"]
    assert read(text, test_book).composition == "grudge-march"
    assert error(text.replace("?composition:grudge-march", "Grudge March"), test_book) == \
        'army.txt: line 3: no composition "Grudge March" in Test Book 1'


def test_experience_and_options_taken_model_by_model_are_written_and_read_back(test_book):
    roster = parse_roster(list_document([
        {"id": "a", "entry": "lord", "experience": 20},
        {"id": "b", "entry": "spearmen", "size": 10, "model_options": [{"shields": 1}, {}, {"shields": 1, "drilled": 1}]},
    ]))
    text = export_text(test_book, roster, validate(test_book, roster))
    assert "100 - Lord, 20 XP\n" in text
    assert " - 10 Spearmen, Model 1 (Shields), Model 2 (no options), Model 3 (Shields, Drilled)\n" in text
    again = read(text, test_book)
    assert [(u.entry, u.experience, u.model_options) for u in again.units] == [
        ("lord", 20, ()), ("spearmen", None, ((("shields", 1),), (), (("shields", 1), ("drilled", 1))))]


def test_models_out_of_order_or_with_an_unknown_option_are_refused(test_book):
    assert error(with_unit_line("50 - 10 Spearmen, Model 2 (Shields)"), test_book) == \
        "army.txt: line 10: Model 2 follows Model 0; number a unit's models 1, 2, 3... in order"
    assert error(with_unit_line("50 - 10 Spearmen, Model 1 (Sheilds)"), test_book) == \
        'army.txt: line 10: "Sheilds" is not an option of Spearmen in Test Book 1; did you mean "Shields"?'


def tow_list(library, modes):
    roster = parse_roster(json.loads((EXAMPLES[0].parent / "empire-of-man-legal.json").read_text()))
    roster = dataclasses.replace(roster, modes=modes)
    book = library.book(roster.system, roster.book, roster.book_version)
    return book, roster, validate(book, roster)


def test_the_matched_play_rules_are_a_header_line_in_the_lists_order_and_read_back(library):
    book, roster, report = tow_list(library, ("combined-arms", "grand-melee"))
    text = export_text(book, roster, report)
    assert text.splitlines()[:6] == [
        "List: Grand Army of Averland", "Player: Example", "System: Warhammer: The Old World",
        "Book: Empire of Man 2024.4", "Matched play: Combined Arms, Grand Melee", "Points limit: 2000 pts"]
    again = parse_list_text(text, library.books.values(), "army.txt")
    assert again.modes == ("combined-arms", "grand-melee")
    assert roster_to_dict(again) == roster_to_dict(in_category_order(roster, report))
    # By name whatever the case, or by id; Open War (or nothing) is no modes.
    for written, modes in (("grand melee, COMBINED-ARMS", ("grand-melee", "combined-arms")),
                           ("battle-march", ("battle-march",)), ("Open War", ())):
        doctored = text.replace("Matched play: Combined Arms, Grand Melee", f"Matched play: {written}")
        assert parse_list_text(doctored, library.books.values(), "army.txt").modes == modes
    without = text.replace("Matched play: Combined Arms, Grand Melee\n", "")
    assert parse_list_text(without, library.books.values(), "army.txt").modes == ()


def test_an_open_war_list_has_no_matched_play_line(library):
    book, roster, report = tow_list(library, ())
    assert "Matched play" not in export_text(book, roster, report)


def test_an_unknown_matched_play_rule_names_the_line_and_the_known_rules(library):
    book, roster, report = tow_list(library, ("combined-arms", "grand-melee"))
    text = export_text(book, roster, report).replace("Grand Melee", "Grand Mele")
    with pytest.raises(ListTextError) as caught:
        parse_list_text(text, library.books.values(), "army.txt")
    assert str(caught.value) == (
        'army.txt: line 5: no matched-play rules "Grand Mele" in Warhammer: The Old World (known: Grand Melee, '
        'Combined Arms, Battle March, or Open War for none); did you mean "Grand Melee"?')
    with pytest.raises(ListTextError) as caught:
        parse_list_text(text.replace("Grand Mele", "Combined Arms"), library.books.values(), "army.txt")
    assert str(caught.value) == 'army.txt: line 5: the matched-play rules "Combined Arms" are named twice'


def test_a_matched_play_rule_the_system_lacks_is_kept_so_the_engine_still_reports_it(library):
    book, roster, report = tow_list(library, ("grand-melee", "kings-of-war"))
    text = export_text(book, roster, report)
    assert "\nMatched play: Grand Melee, ?mode:kings-of-war\n" in text
    again = parse_list_text(text, library.books.values(), "army.txt")
    assert again.modes == ("grand-melee", "kings-of-war")
    assert "list.unknown_mode" in [v.code for v in validate(book, again).violations]


def test_a_t9a_list_has_no_matched_play_line_and_refuses_one(test_book):
    text = export_text(test_book, small_roster(), validate(test_book, small_roster()))
    assert "Matched play" not in text
    assert error(text.replace("Points limit:", "Matched play: Grand Melee\nPoints limit:"), test_book) == \
        'army.txt: line 5: The 9th Age: Fantasy Battles v0.11.9.3 has no matched-play rules; ' \
        'leave out the "Matched play:" line'


def test_options_are_written_in_the_books_order_whatever_the_documents(test_book):
    """A document's object keys come back from PostgreSQL's jsonb in its own order: the text (and the PDF,
    which prints the same words) follows the book's order, so a list reads the same on every database."""
    written = [{"id": "sp", "entry": "spearmen", "size": 20, "options": {"drilled": 1, "shields": 1}}]
    roster = parse_roster(list_document(written, 1000))
    assert "20 Spearmen, Shields, Drilled" in export_text(test_book, roster, validate(test_book, roster))
