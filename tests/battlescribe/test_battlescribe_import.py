"""import_battlescribe on small catalogues written for the tests: what maps to what, the rules at their
boundaries, the command's exit status, storing (all or nothing, idempotent, a new revision a new version)."""
from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armylists.importers.battlescribe import check, convert, read_sources
from armylists.rules import parse_roster, validate

from tests.battlescribe.battlescribe_samples import GST, LEGACY_CAT, LEGACY_GST, catalogue

SYSTEM = "bs-test-battles"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    return tmp_path


@pytest.fixture
def book(files):
    return check(convert(read_sources([str(files)])))["bs-test-knights"]


def roster(units, limit=2000):
    return parse_roster({"format": "armylist/1", "system": SYSTEM, "book": "bs-test-knights", "book_version": "r7",
                         "points_limit": limit, "units": units})


def codes(book, units, limit=2000):
    report = validate(book, roster(units, limit))
    return sorted(v.code for v in report.violations), [v.message for v in report.violations], report


def test_a_unit_gets_its_size_and_costs_from_its_model(book):
    knights = book.entries["knights"]
    assert (knights.category, knights.points, knights.base_points, knights.size_min, knights.size_max) == \
        ("core", 20, 10, 3, 6)
    assert {o: (knights.options[o].cost, knights.options[o].max, knights.options[o].model_cost)
            for o in ("lance", "flag", "banner-of-speed")} == {"lance": (0, 1, 2), "flag": (5, 1, 0),
                                                                 "banner-of-speed": (25, 100, 0)}
    assert "Knight: M 8, Ld 8" in knights.text
    assert book.version == "r7" and book.imported and book.system.id == SYSTEM
    assert book.entries["captain"].category == "characters"


def test_prices_follow_models_and_per_model_options(book):
    _, _, report = codes(book, [{"id": "k", "entry": "knights", "size": 4, "options": {"lance": 1}}])
    assert report.total_points == 10 + 4 * 20 + 4 * 2


def test_0_2_per_army_plus_1_per_1000_points_at_its_boundary(book):
    knights = [{"id": f"k{i}", "entry": "knights"} for i in range(5)]
    assert codes(book, knights[:3], 1999)[0] == []  # 2 + 1
    assert codes(book, knights[:4], 1999)[1] == ["Knights: 4 taken in the army; at most 3."]
    assert codes(book, knights[:4], 2000)[0] == []  # 2 + 2
    found, messages, _ = codes(book, knights, 2000)
    assert found == ["tally.max"] and messages == ["Knights: 5 taken in the army; at most 4."]


def test_a_condition_on_the_points_limit_sets_the_limit_to_zero(book):
    found, messages, _ = codes(book, [{"id": "k", "entry": "knights"}], 1000)
    assert found == ["tally.max"] and messages == ["Knights: 1 taken in the army; at most 0."]
    assert codes(book, [{"id": "k", "entry": "knights"}], 1001)[0] == []


def test_a_percent_of_the_points_limit_for_a_category(book):
    # Captain 100 pts: 40% of 250 is exactly 100, of 249 is 99.6
    assert codes(book, [{"id": "c", "entry": "captain"}], 250)[0] == []
    found, messages, _ = codes(book, [{"id": "c", "entry": "captain"}], 249)
    assert found == ["tally.max"]
    assert messages == ["Characters: 100 pts in the army; at most 40% of the 249-pt limit (99.6 pts)."]


def test_a_hidden_group_is_refused_until_its_condition_no_longer_holds(book):
    unit = {"id": "k", "entry": "knights", "options": {"banner-of-speed": 1}}
    found, messages, _ = codes(book, [unit])
    assert found == ["tally.max"]
    assert messages == ["Banners (only where the catalogue offers it): 1 taken in Knights (k); at most 0."]
    unit["options"]["flag"] = 1
    assert codes(book, [unit])[0] == []


def test_the_unit_size_and_option_maximums_are_the_engines_own(book):
    found, _, _ = codes(book, [{"id": "k", "entry": "knights", "size": 7, "options": {"lance": 2}}])
    assert found == ["options.max", "unit.size_max"]


def test_what_is_not_mapped_is_listed_with_its_kind_and_place(files):
    """The Captain's name modifier is not in the book's flattened rules, which the stored book lists; the
    tree evaluator, which judges the book's lists, computes names, so the import report lists nothing
    (tests/battlescribe/test_battlescribe_unchecked.py: what it does list)."""
    conversion = convert(read_sources([str(files)]))
    figures = conversion.reports[0].figures
    assert figures["constraints"] == {"total": 7, "checked": 7}
    assert figures["modifiers"] == {"total": 5, "checked": 5, "display_only": 1}
    assert figures["unchecked"] == []
    assert conversion.books[0]["unchecked"] == ["Not checked, name or profile modifier (display only): "
                                                "Test Knights > Captain"]


def test_the_legacy_schema_maps_limits_attributes_and_modifiers(tmp_path):
    (tmp_path / "old.gst").write_text(LEGACY_GST)
    (tmp_path / "old.cat").write_text(LEGACY_CAT)
    conversion = convert(read_sources([str(tmp_path)]))
    book = check(conversion)["bs-old-guard"]
    guards = book.entries["guards"]
    assert (guards.size_min, guards.size_max, guards.points, guards.options["spears"].model_cost) == (5, 20, 10, 1)
    doc = {"format": "armylist/1", "system": "bs-old-battles", "book": "bs-old-guard", "book_version": "r4",
           "points_limit": 2999, "units": [{"id": f"g{i}", "entry": "guards", "size": 5} for i in range(3)]}
    report = validate(book, parse_roster(doc))  # 0-2, and 0-3 from 3000 points; Core at least 25%
    assert [v.message for v in report.violations] == [
        "Guards: 3 taken in the army; at most 2.",
        "Core: 150 pts in the army; at least 25% of the 2999-pt limit (749.75 pts)."]
    doc["points_limit"] = 3000
    assert [v.code for v in validate(book, parse_roster(doc)).violations] == ["tally.min"]
    doc["units"] = [{"id": "l", "entry": "lord"}, {"id": "g", "entry": "guards", "size": 5}]
    doc["points_limit"] = 400  # Lords 150 of 400 is 37.5% (at most 35%); Core 50 is 12.5% (at least 25%)
    assert sorted(v.message for v in validate(book, parse_roster(doc)).violations) == [
        "Core: 50 pts in the army; at least 25% of the 400-pt limit (100 pts).",
        "Lords: 150 pts in the army; at most 35% of the 400-pt limit (140 pts)."]
    assert conversion.reports[0].figures["modifiers"] == {"total": 2, "checked": 2, "display_only": 0}


@pytest.mark.django_db
def test_the_command_stores_everything_once_and_a_new_revision_is_a_new_version(files, tmp_path, capsys):
    from armylists.lists.library.catalogue import get_book, listed_books
    from armylists.models import RulesFile

    report = tmp_path / "report.json"
    call_command("import_battlescribe", str(files), "--json", str(report))
    assert capsys.readouterr().out.splitlines()[-1] == "2 new, 0 unchanged; 1 BattleScribe books in the database."
    data = json.loads(report.read_text())
    assert data["books"][0] | {"unchecked": None, "source": None} == {
        "name": "Test Knights", "book": "bs-test-knights", "system": SYSTEM, "revision": 7, "source": None,
        "entries": 2, "constraints": {"total": 7, "checked": 7},
        "modifiers": {"total": 5, "checked": 5, "display_only": 1}, "unchecked": None, "warnings": []}
    stored = sorted(RulesFile.objects.values_list("kind", "slug", "version", "content_hash"))
    call_command("import_battlescribe", str(files))
    assert capsys.readouterr().out.splitlines()[-1] == "0 new, 2 unchanged; 1 BattleScribe books in the database."
    assert sorted(RulesFile.objects.values_list("kind", "slug", "version", "content_hash")) == stored
    assert get_book(SYSTEM, "bs-test-knights", "r7").entries["knights"].size_max == 6
    (files / "knights.cat").write_text(catalogue(revision=8, max_knights="5.0"))
    call_command("import_battlescribe", str(files))
    assert capsys.readouterr().out.splitlines()[-1] == "1 new, 1 unchanged; 1 BattleScribe books in the database."
    assert {b.version for b in listed_books() if b.id == "bs-test-knights"} == {"r8"}
    assert get_book(SYSTEM, "bs-test-knights", "r7") is not None  # lists pinned to r7 keep it


@pytest.mark.django_db
def test_check_writes_nothing(files, capsys):
    from armylists.models import RulesFile

    call_command("import_battlescribe", str(files), "--check")
    assert capsys.readouterr().out.splitlines()[-1] == "1 books and 1 systems are good; nothing written."
    assert not RulesFile.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name, text, message", [
    ("broken.cat", catalogue()[:-40], "broken.cat: line 74, column 4: is not well-formed XML (unclosed token"),
    ("other.cat", "<?xml version='1.0'?><roster id='x' name='y'/>",
     "other.cat: <roster>: is not a BattleScribe game system or catalogue"),
    ("nogst.cat", catalogue().replace('gameSystemId="sys-1"', 'gameSystemId="sys-9"'),
     "nogst.cat: <catalogue gameSystemId>: its game system 'sys-9' is not among the files read"),
    ("badnumber.cat", catalogue(max_knights="many"), "badnumber.cat: <constraint id='c-knights'> of Test Knights > "
                                                     "Knights: 'many' is not a number"),
])
def test_an_unreadable_file_exits_2_naming_file_and_element_and_stores_nothing(files, name, text, message):
    from armylists.models import RulesFile

    (files / "knights.cat").unlink()
    (files / "good.cat").write_text(catalogue())
    (files / name).write_text(text)
    with pytest.raises(CommandError) as caught:
        call_command("import_battlescribe", str(files))
    assert caught.value.returncode == 2
    assert message in str(caught.value) and str(caught.value).startswith("Nothing imported. ")
    assert not RulesFile.objects.exists()


@pytest.mark.django_db
def test_other_content_under_a_stored_revision_is_refused_and_nothing_changes(files):
    from armylists.models import RulesFile

    call_command("import_battlescribe", str(files), verbosity=0)
    before = sorted(RulesFile.objects.values_list("slug", "content_hash"))
    (files / "knights.cat").write_text(catalogue(max_knights="5.0"))  # same revision 7
    with pytest.raises(CommandError) as caught:
        call_command("import_battlescribe", str(files), verbosity=0)
    assert "version r7 of book 'bs-test-knights' is already loaded with other content" in str(caught.value)
    assert sorted(RulesFile.objects.values_list("slug", "content_hash")) == before


def test_an_event_rule_counting_a_tag_no_limit_of_the_book_counts_still_counts_it(book):
    """The engine tallies only the tags the book's tally rules count (checks/tallies.py, kept_tags); a
    rule from elsewhere (an event's) that counts another tag, here the Core category's, sees every tag.
    At its boundary: one unit of Knights is at most 1, two are one too many."""
    from armylists.rules.reading.build_system import build_rules
    from armylists.rules.checks.tallies import _compiled, kept_tags

    event = build_rules([{"id": "one-core", "type": "tally_limit",
                          "params": {"label": "Core units", "count": ["bs-cat-core"], "max": 1}}], "event", (), "event")
    knights = [{"id": f"k{i}", "entry": "knights"} for i in range(2)]
    one, two = (validate(book, roster(knights[:n]), extra_rules=event) for n in (1, 2))
    assert [v.message for v in one.violations] == []
    assert [(v.code, v.message) for v in two.violations] == [
        ("tally.max", "Core units: 2 taken in the army; at most 1.")]
    from armylists.rules.native.army import Army
    assert kept_tags(Army(book, roster(knights), None), _compiled(event[0])) is None  # not a tag the book counts
