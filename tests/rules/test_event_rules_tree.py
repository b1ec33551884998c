"""An event's own rules reach lists of imported BattleScribe books (roster trees): a Dwarven Holds list
of the BSData 2nd-edition catalogues (../shared/external/battlescribe/the-9th-age-2nd) is checked by the
organiser's each_entry_max, count (of a category, of points, of models) and team rules through the tree's
projection onto our army (armylists/rules/bridges/tree_army.py); a rule whose selector the data cannot answer is
said to be unchecked (an error), never passed in silence (docs/events.md, "Event rules")."""
from __future__ import annotations

import csv
import json
from datetime import date, timedelta
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from armylists.events.checking import check_event
from armylists.lists.trees import battlescribe_data
from armylists.lists.library.catalogue import get_book
from armylists.lists.trees.tree_lists import add_root_selection, set_child_number, start_tree, tree_army_of, tree_validate
from armylists.models import Event, Submission, Team
from armylists.rules import roster_to_dict
from armylists.rules.event_rules.ruleset import Ruleset, check_list, check_team, parse_event_rules
from tests.battlescribe.imported import import_battlescribe
from tests.battlescribe.test_battlescribe_site_tree import BOOK, GENERAL, SYSTEM, T9A, VERSION

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]

CLAN_WARRIORS_PTS = 135  # a unit of 10 Clan Warriors as the catalogue prices it (2nd-dwarvenHolds.cat)


@pytest.fixture(autouse=True)
def book():
    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-dwarvenHolds.cat")
    yield get_book(SYSTEM, BOOK, VERSION)
    battlescribe_data.clear()


def hold(book, *units: str, name: str = "Hold", player: str = ""):
    """A tree list of Dwarven Holds at 2000 pts holding `units` (each added as the editor adds one)."""
    roster = start_tree(book, name, 2000)
    for unit in units:
        roster, _ = add_root_selection(roster, unit)
    return replace(roster, player=player) if player else roster


def ruleset(book, text: str, limit: int = 2000) -> Ruleset:
    return Ruleset(system=SYSTEM, points_limit=limit, event=parse_event_rules(text, "event", book.system, [book]))


def event_violations(report):
    return [(v.code, v.message, v.severity, v.rule, v.source) for v in report.violations
            if v.source == "event rules"]


def checked(book, rules: str, roster, limit: int = 2000):
    return check_list(ruleset(book, rules, limit), book, roster, None, tree_validate, tree_army_of)


THREE_OF_EACH = "rules: [{id: three-of-each, type: each_entry_max, params: {max: 3}}]"


def test_each_entry_max_passes_three_of_a_unit_and_refuses_a_fourth(book):
    three = checked(book, THREE_OF_EACH, hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors", "King"))
    assert event_violations(three) == []
    # The tree evaluator's own verdict is kept: the catalogue's General minimum is still there.
    assert "bs.constraint.min" in {v.code for v in three.violations}
    four = hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors", "Clan Warriors")
    report = checked(book, THREE_OF_EACH, four)
    assert event_violations(report) == [
        ("each_entry.max", "Clan Warriors is taken 4 times; each unit: at most 3 times.", "error", "three-of-each",
         "event rules")]
    fourth = four.forces[0].selections[3].id
    assert [v.unit for v in report.violations if v.rule == "three-of-each"] == [fourth]
    assert not report.valid


def test_count_of_a_category_by_our_id_and_by_the_catalogues_category_id(book):
    # Clan Warriors are Core in the catalogue (its category 4bcd-01c8-ce5e-7108, "Core"), the King a Character.
    rules = """rules:
  - {id: core-max, type: count, params: {label: Core units, select: {category: core}, max: 3}}
  - {id: core-by-data, type: count, params: {label: Core by the data's id, select: {tag: bs-4bcd-01c8-ce5e-7108}, max: 3}}
"""
    at_max = checked(book, rules, hold(book, "King", "Clan Warriors", "Clan Warriors", "Clan Warriors"))
    assert event_violations(at_max) == []
    over = checked(book, rules, hold(book, "King", "Clan Warriors", "Clan Warriors", "Clan Warriors", "Clan Warriors"))
    assert event_violations(over) == [
        ("count.max", "Core units: 4 units taken; at most 3.", "error", "core-max", "event rules"),
        ("count.max", "Core by the data's id: 4 units taken; at most 3.", "error", "core-by-data", "event rules")]
    none = checked(book, "rules: [{id: no-chars, type: count, params: {label: Characters, select: {category: characters}, max: 0}}]",
                   hold(book, "King"))
    assert event_violations(none) == [("count.max", "Characters: 1 unit taken; at most 0.", "error", "no-chars",
                                       "event rules")]


def test_points_and_models_on_a_unit_are_the_trees_own(book):
    rules = f"""rules:
  - {{id: warrior-points, type: count, params: {{label: Clan Warriors, select: {{entry: clan-warriors}}, what: points, max: {3 * CLAN_WARRIORS_PTS}}}}}
  - {{id: warrior-models, type: count, params: {{label: Clan Warriors, select: {{entry: clan-warriors}}, what: models, max: 30}}}}
"""
    at_max = checked(book, rules, hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors"))
    assert [u.points for u in at_max.units] == [CLAN_WARRIORS_PTS] * 3
    assert event_violations(at_max) == []
    over = checked(book, rules, hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors", "Clan Warriors"))
    assert event_violations(over) == [
        ("count.max", "Clan Warriors: 540 points taken; at most 405.", "error", "warrior-points", "event rules"),
        ("count.max", "Clan Warriors: 40 models taken; at most 30.", "error", "warrior-models", "event rules")]
    # The Report's count lines show them, as for a list of our own books.
    assert [(c.label, c.what, c.value, c.max) for c in over.counts] == [
        ("Clan Warriors", "points", 540, 405), ("Clan Warriors", "models", 40, 30)]


SHIELD = "42c8-965f-0d71-edfb"   # the Clan Warriors' Shield option (2nd-dwarvenHolds.cat)


def test_an_option_is_the_one_the_book_imported_the_units_selection_as(book):
    rules = "rules: [{id: shields, type: count, params: {label: Shielded units, select: {option: shield}, max: 1}}]"
    roster = hold(book, "Clan Warriors", "Clan Warriors")
    first, second = (s.id for s in roster.forces[0].selections)
    one, _ = set_child_number(roster, first, SHIELD, 1)
    assert event_violations(checked(book, rules, one)) == []
    both, _ = set_child_number(one, second, SHIELD, 1)
    assert event_violations(checked(book, rules, both)) == [
        ("count.max", "Shielded units: 2 units taken; at most 1.", "error", "shields", "event rules")]


def test_the_general_is_the_unit_holding_the_entry_the_systems_mapping_names(book):
    # rules_data/battlescribe_systems.yaml: the 2nd edition's "Army General" makes a model the General.
    rules = """rules:
  - {id: no-king-general, type: count, params: {label: Kings as General, select: {general: true, entry: king}, max: 0}}
"""
    # As added, the first character is made the General (issue 40 item 2): the King; taken away, no King is.
    general = hold(book, "King", "Thane")
    king = general.forces[0].selections[0].id
    roster, _ = set_child_number(general, king, GENERAL, 0)
    assert event_violations(checked(book, rules, roster)) == []
    assert event_violations(checked(book, rules, general)) == [
        ("count.max", "Kings as General: 1 unit taken; at most 0.", "error", "no-king-general", "event rules")]
    assert [v.unit for v in checked(book, rules, general).violations if v.rule == "no-king-general"] == [king]


def test_a_categorys_percent_of_the_events_limit_at_its_bound_and_one_point_over(book):
    # Three units of Clan Warriors are 405 pts of Core: 20% of 2025 exactly, 20.05% of 2020.
    rules = "rules: [{id: core-cap, type: category_percent, params: {categories: [core], max: 20}}]"
    roster = hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors")
    assert event_violations(checked(book, rules, roster, limit=2025)) == []
    assert event_violations(checked(book, rules, roster, limit=2020)) == [
        ("category.max_percent", "Core: 405 pts is 20.05% of 2020; at most 20% (404 pts).", "error", "core-cap",
         "event rules")]


def test_a_rule_the_data_cannot_answer_is_said_unchecked_and_the_list_is_not_legal(book):
    rules = """rules:
  - {id: three-of-each, type: each_entry_max, params: {max: 3, unless: {tag: own-limit}}}
  - {id: wizard-levels, type: count, params: {label: Wizard levels, select: {}, what: wizard_levels, max: 8}}
  - {id: few-war-machines, type: count, severity: warning, params: {label: War Machines, select: {troop_type: model}, max: 2}}
  - {id: general-cap, type: general}
"""
    report = checked(book, rules, hold(book, "Clan Warriors"))
    name = "Dwarven Holds 2024 r57 (a BattleScribe roster)"
    assert event_violations(report) == [
        ("event.rule_unchecked", f"Event rule three-of-each could not be checked on this list of {name}: the data "
                                 f"carries no tag own-limit.", "error", "three-of-each", "event rules"),
        ("event.rule_unchecked", f"Event rule wizard-levels could not be checked on this list of {name}: the data "
                                 f"carries no Wizard levels.", "error", "wizard-levels", "event rules"),
        ("event.rule_unchecked", f"Event rule few-war-machines could not be checked on this list of {name}: the "
                                 f"data carries no troop types.", "warning", "few-war-machines", "event rules"),
        ("event.rule_unchecked", f"Event rule general-cap could not be checked on this list of {name}: the data "
                                 f"does not say which units are Characters.", "error",
         "general-cap", "event rules")]
    assert not report.valid


def test_a_team_rule_on_tree_lists_says_it_could_not_check_them(book):
    # The 2nd edition's mapping (rules_data/battlescribe_systems.yaml) names no magic item groups.
    rules = ruleset(book, "rules: [{id: team-items, type: team_items_once}]").event.team_rules
    a, b = hold(book, "King", player="Ann"), hold(book, "King", player="Bo")
    trees = {key: tree_army_of(book, r, tree_validate(r)) for key, r in (("a", a), ("b", b))}
    found = check_team([("a", book, a, None), ("b", book, b, None)], rules, trees)
    message = ("Event rule team-items could not be checked on this list of Dwarven Holds 2024 r57 (a BattleScribe "
               "roster): its data marks no magic items.")
    assert {k: [(v.code, v.message, v.rule) for v in vs] for k, vs in found.items()} == {
        "a": [("event.rule_unchecked", message, "team-items")], "b": [("event.rule_unchecked", message, "team-items")]}
    # Without the trees' armies the rule is unchecked too, never passed.
    alone = check_team([("a", book, a, None)], rules)
    assert [v.code for v in alone["a"]] == ["event.rule_unchecked"]


def test_check_lists_applies_the_event_rules_to_a_tree_list(book, tmp_path, capsys):
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "four.json").write_text(json.dumps(roster_to_dict(
        hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors", "Clan Warriors"))))
    (folder / "three.json").write_text(json.dumps(roster_to_dict(hold(book, "Clan Warriors", "Clan Warriors",
                                                                      "Clan Warriors"))))
    rules = tmp_path / "rules.yaml"
    rules.write_text(THREE_OF_EACH)
    out = tmp_path / "reports.json"
    with pytest.raises(SystemExit) as exit_:
        call_command("check_lists", str(folder), "--system", SYSTEM, "--points", "2000", "--event-rules", str(rules),
                     "--json", str(out), "--jobs", "1")
    assert exit_.value.code == 1  # both lists break the catalogue's own minimums
    reports = {Path(r["file"]).name: r for r in json.loads(out.read_text())}
    event = {name: [(v["code"], v["message"], v["rule"]) for v in r["report"]["violations"]
                    if v["source"] == "event rules"] for name, r in reports.items()}
    assert event == {"four.json": [("each_entry.max", "Clan Warriors is taken 4 times; each unit: at most 3 times.",
                                    "three-of-each")],
                     "three.json": []}


def test_an_events_check_and_csv_apply_its_rules_to_tree_submissions(book, alice, client):
    event = Event.objects.create(organiser=alice, name="Hold Cup", date=date.today() + timedelta(days=10),
                                 system=SYSTEM, books=[BOOK], points_limit=2000,
                                 deadline=timezone.now() + timedelta(days=5),
                                 rules_text="- {id: three-of-each, type: each_entry_max, params: {max: 3}}\n"
                                            "- {id: team-items, type: team_items_once}\n")
    team = Team.objects.create(event=event, name="Anvil")
    lists = {"ann": hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors", name="Three"),
             "bo": hold(book, "Clan Warriors", "Clan Warriors", "Clan Warriors", "Clan Warriors", name="Four")}
    for player, roster in lists.items():
        Submission.objects.create(event=event, player_name=player, team=team, document=roster_to_dict(roster),
                                  checksum="x", book=BOOK, book_version=VERSION, submitted_at=timezone.now())
    check_event(event)
    found = {s.player_name: [(v["code"], v["rule"]) for v in s.report["violations"] if v["source"] == "event rules"]
             for s in Submission.objects.filter(event=event)}
    assert found == {"ann": [("event.rule_unchecked", "team-items")],
                     "bo": [("each_entry.max", "three-of-each"), ("event.rule_unchecked", "team-items")]}
    assert set(Submission.objects.filter(event=event).values_list("status", flat=True)) == {"illegal"}
    client.force_login(alice)
    table = client.get(reverse("event-csv", args=[event.pk])).content.decode()
    assert "each_entry.max: Clan Warriors is taken 4 times; each unit: at most 3 times." in table


def test_without_the_trees_projection_every_event_rule_is_said_unchecked(book):
    # A caller that judges the tree but cannot project it never lets the event's rules pass in silence.
    report = check_list(ruleset(book, THREE_OF_EACH), book, hold(book, "Clan Warriors"), None, tree_validate)
    assert event_violations(report) == [
        ("event.rule_unchecked", "Event rule three-of-each could not be checked on this list of Dwarven Holds 2024 "
                                 "r57 (a BattleScribe roster): the site could not read the list's roster tree.",
         "error", "three-of-each", "event rules")]


def test_check_lists_shows_a_tree_lists_category_shares_in_the_systems_columns(book, tmp_path, capsys):
    """The table's columns are the system's categories; a tree's Report names them by the data's ids, so
    they are matched by name (three Clan Warriors: 405 of 2000 pts in Core, 20.2%; no Characters)."""
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "three.json").write_text(json.dumps(roster_to_dict(hold(book, "Clan Warriors", "Clan Warriors",
                                                                      "Clan Warriors"))))
    csv_out = tmp_path / "table.csv"
    with pytest.raises(SystemExit):
        call_command("check_lists", str(folder), "--system", SYSTEM, "--points", "2000", "--csv", str(csv_out),
                     "--jobs", "1")
    header, row = list(csv.reader(csv_out.read_text().splitlines()))[:2]
    shares = dict(zip(header, row))
    assert (shares["Core %"], shares["Characters %"]) == ("20.2", "0.0")


def test_a_unit_form_of_several_fields_builds_the_tree_once_and_gives_what_one_at_a_time_gives(book, monkeypatch):
    """tree_lists.set_children applies every field of a unit form on one evaluator roster (it was built from
    the document again for each field): the same list as setting them one by one."""
    from armylists.lists.trees import tree_lists

    roster = hold(book, "Clan Warriors", "Clan Warriors")
    first, second = (s.id for s in roster.forces[0].selections)
    one_by_one = set_child_number(set_child_number(roster, first, SHIELD, 1)[0], second, SHIELD, 1)[0]
    built = []
    real = tree_lists.evaluator
    monkeypatch.setattr(tree_lists, "evaluator", lambda *a, **k: built.append(1) or real(*a, **k))
    together = tree_lists.set_children(roster, {(first, SHIELD): 1, (second, SHIELD): 1})
    assert len(built) == 1
    def shape(r):
        return [[(s.entry, s.number, [(c.entry, c.number) for c in s.selections]) for s in f.selections] for f in r.forces]
    assert shape(together) == shape(one_by_one)
    assert tree_validate(together).total_points == tree_validate(one_by_one).total_points
