"""import_battlescribe on small catalogues written for the tests: what maps to what, the rules at their
boundaries, the command's exit status, storing (all or nothing, idempotent, a new revision a new version)."""
from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armylists.importers.battlescribe import check, convert, read_sources
from armylists.importers.battlescribe.plain import plain_document
from armylists.rules.battlescribe import GameData, Roster as TreeRoster, add_force, evaluate, select, set_count

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


def judged(folder, entries, limit=2000, changes=()):
    """The tree evaluator's errors, as (constraint id, message), and costs of a roster of the catalogue's
    force holding `entries` (each selected as BattleScribe selects it, its minimums with it) at `limit`
    points; `changes` are (entry index, child entry id, number) set afterwards. Every list of an imported
    book is a roster tree judged so (rules/battlescribe/; the site's doors: tests/battlescribe/test_battlescribe_site_tree.py)."""
    game = GameData([plain_document(d) for d in read_sources([str(folder)])])
    tree = TreeRoster(game)
    cost_type = game.cost_types[0]["id"]
    tree.cost_limits[cost_type] = limit
    force = add_force(tree, next(iter(game.forces)))
    units = [select(tree, force, e) for e in entries]
    for i, child, number in changes:
        found = [c for c in units[i].children if c.option.entry.get("id") == child]
        set_count(tree, found[0] if found else select(tree, units[i], child), number)
    result = evaluate(tree)
    return sorted((e.constraint_id, e.message) for e in result.errors), result.costs[cost_type]


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


def test_prices_follow_models_and_per_model_options(files):
    # the unit 10, four Knights at 20, the Lance +2 a model; three Knights come with the unit (its minimum)
    assert judged(files, ["knights"])[1] == 10 + 3 * 20
    assert judged(files, ["knights"], changes=[(0, "knight", 4), (0, "lance", 1)]) == ([], 10 + 4 * 20 + 4 * 2)


MAX_KNIGHTS = "Knights has 1 too many selections of Knights (maximum {})"


def test_0_2_per_army_plus_1_per_1000_points_at_its_boundary(files):
    assert judged(files, ["knights"] * 3, 1999)[0] == []  # 2 + 1
    assert judged(files, ["knights"] * 4, 1999)[0] == [("c-knights", MAX_KNIGHTS.format(3))]
    assert judged(files, ["knights"] * 4, 2000)[0] == []  # 2 + 2
    assert judged(files, ["knights"] * 5, 2000)[0] == [("c-knights", MAX_KNIGHTS.format(4))]


def test_a_condition_on_the_points_limit_sets_the_limit_to_zero_before_the_increment(files):
    """BattleScribe applies `set` before the other modifiers (rules/battlescribe/effective.py): at a limit
    of 1000 the maximum is set to 0 and then raised by the one repeat of 1000, so one unit is allowed; the
    flattened rules these books once had said "at most 0" there, a verdict BattleScribe does not give."""
    assert judged(files, ["knights"], 999)[0] == [("c-knights", MAX_KNIGHTS.format(0))]
    assert judged(files, ["knights"], 1000)[0] == []
    assert judged(files, ["knights"] * 2, 1000)[0] == [("c-knights", MAX_KNIGHTS.format(1))]
    assert judged(files, ["knights"], 1001)[0] == []


def test_a_percent_of_the_points_limit_for_a_category(files):
    # Captain 100 pts: 40% of 250 is exactly 100, of 249 is 99.6
    assert judged(files, ["captain"], 250)[0] == []
    assert judged(files, ["captain"], 249)[0] == [("c-char", "Characters has 0.16% too many pts of Characters "
                                                             "(maximum 40%)")]


def test_a_hidden_group_is_refused_until_its_condition_no_longer_holds(files):
    assert judged(files, ["knights"], changes=[(0, "banner", 1)])[0] == [
        ("hidden", "Knights cannot have any selections of Banner of Speed (hidden)")]
    assert judged(files, ["knights"], changes=[(0, "banner", 1), (0, "flag", 1)])[0] == []


def test_the_unit_size_and_option_maximums_at_their_boundaries(files):
    assert judged(files, ["knights"], changes=[(0, "knight", 6), (0, "lance", 1)])[0] == []
    assert judged(files, ["knights"], changes=[(0, "knight", 7), (0, "lance", 2)])[0] == [
        ("c-k-max", "Knights has 1 too many selections of Knight (maximum 6)"),
        ("c-lance", "Knights has 1 too many selections of Lance (maximum 1)")]


def test_the_book_carries_no_rules_but_its_points_limit(book):
    """The constraints are judged over the roster tree; the converted book names and prices (issue 37:
    the flattened `tally_limit` rules, a second copy of BattleScribe's semantics, retired)."""
    assert [r.id for r in book.rules] == ["points-limit"]


def test_what_is_not_checked_is_listed_with_its_kind_and_place(files):
    """The tree evaluator, which judges the book's lists, computes names and every constraint here, so
    neither the import report nor the stored book lists anything (tests/battlescribe/test_battlescribe_unchecked.py:
    what they do list)."""
    conversion = convert(read_sources([str(files)]))
    figures = conversion.reports[0].figures
    assert figures["constraints"] == {"total": 7, "checked": 7}
    assert figures["modifiers"] == {"total": 5, "checked": 5, "display_only": 1}
    assert figures["unchecked"] == [] and conversion.books[0]["unchecked"] == []


LEGACY_AT_2999 = ["Core must have 20% more pts of Core (minimum 25%)",   # 150 of 2999 pts is 5%
                  "Guards has 1 too many selections of Guards (maximum 2)"]
LEGACY_AT_3000 = ["Core must have 20% more pts of Core (minimum 25%)"]  # the third Guards allowed from 3000
LEGACY_LORD = ["Core must have 12.5% more pts of Core (minimum 25%)", "Lords has 2.5% too many pts of Lords (maximum 35%)"]


def test_the_legacy_schema_maps_limits_attributes_and_modifiers(tmp_path):
    (tmp_path / "old.gst").write_text(LEGACY_GST)
    (tmp_path / "old.cat").write_text(LEGACY_CAT)
    conversion = convert(read_sources([str(tmp_path)]))
    book = check(conversion)["bs-old-guard"]
    guards = book.entries["guards"]
    assert (guards.size_min, guards.size_max, guards.points, guards.options["spears"].model_cost) == (5, 20, 10, 1)
    assert conversion.reports[0].figures["modifiers"] == {"total": 2, "checked": 2, "display_only": 0}
    # 0-2, and 0-3 from 3000 points; Core at least 25%; Lords at most 35%
    errors, total = judged(tmp_path, ["guards"] * 3, 2999)
    assert total == 150 and [m for _, m in errors] == LEGACY_AT_2999
    assert [m for _, m in judged(tmp_path, ["guards"] * 3, 3000)[0]] == LEGACY_AT_3000
    errors, total = judged(tmp_path, ["lord", "guards"], 400)  # Lords 150 of 400 is 37.5%; Core 50 is 12.5%
    assert total == 200 and [m for _, m in errors] == LEGACY_LORD


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
