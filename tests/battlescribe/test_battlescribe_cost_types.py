"""Costs under a cost type the game system does not declare are read, and a book whose entries all cost 0
is said at import (small catalogues written at test time, tests/battlescribe/battlescribe_samples.py)."""
from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command

from armylists.importers.battlescribe import check, convert, read_sources
from armylists.importers.battlescribe.plain import plain_document
from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select, set_count

from tests.battlescribe.battlescribe_samples import GST, catalogue

OWN_TYPE = '<costTypes><costType id="gold" name="gold" defaultCostLimit="-1"/></costTypes>\n  <forceEntries>'


def priced_in(type_id: str, declared: bool) -> str:
    """The sample catalogue with every cost (and the Lance's cost modifier) in `type_id`, which the game
    system does not declare; the catalogue declares it itself when `declared`."""
    text = catalogue().replace('typeId="pts-1"', f'typeId="{type_id}"').replace('field="pts-1"', f'field="{type_id}"')
    return text.replace("<forceEntries>", OWN_TYPE, 1) if declared else text


@pytest.fixture
def write(tmp_path):
    def write(cat: str):
        (tmp_path / "test.gst").write_text(GST)
        (tmp_path / "knights.cat").write_text(cat)
        return tmp_path
    return write


@pytest.mark.parametrize("type_id, declared", [("gold", True), ("crowns", False)])
def test_the_importer_reads_a_cost_type_the_game_system_does_not_declare(write, type_id, declared):
    conversion = convert(read_sources([str(write(priced_in(type_id, declared)))]))
    knights = check(conversion)["bs-test-knights"].entries["knights"]
    assert (knights.points, knights.base_points, knights.options["flag"].cost, knights.options["lance"].model_cost) \
        == (20, 10, 5, 2)
    assert conversion.reports[0].warnings == []


@pytest.mark.parametrize("type_id, declared", [("gold", True), ("crowns", False)])
def test_the_evaluator_reads_a_cost_type_the_game_system_does_not_declare(write, type_id, declared):
    game = GameData([plain_document(d) for d in read_sources([str(write(priced_in(type_id, declared)))])])
    roster = Roster(game)
    force = add_force(roster, "force-1", "cat-1")
    unit = select(roster, force, "knights")
    set_count(roster, unit.children[0], 4)
    select(roster, unit, "lance")
    assert evaluate(roster).costs == {"pts-1": 0.0, type_id: 10 + 4 * 20 + 4 * 2}


def test_a_book_whose_entries_all_cost_0_is_warned_at_import(write, capsys, tmp_path, db):
    unpriced = re.sub(r"<costs>.*?</costs>", "", catalogue().replace('field="pts-1" value="2"', 'field="pts-1" value="0"'))
    folder = write(unpriced)
    report = tmp_path / "report.json"
    call_command("import_battlescribe", str(folder), "--check", "--json", str(report), verbosity=0)
    warning = ("every entry and option costs 0 pts: the catalogue names no cost of a type it or its game system "
               "uses (none); its lists will show no points")
    assert capsys.readouterr().err == f"Warning: Test Knights (revision 7): {warning}\n"
    assert json.loads(report.read_text())["books"][0]["warnings"] == [warning]


def test_a_priced_book_has_no_warning(write, capsys, db):
    call_command("import_battlescribe", str(write(catalogue())), "--check", verbosity=0)
    assert capsys.readouterr().err == ""


# -- legacy (1.x) data's points: the cost type `points`, as BattleScribe converts it ---------------------

def stored_before(value):
    """A legacy document as the importer read it before (its points named `pts`), as the books imported
    then keep it in their stored game data."""
    if isinstance(value, list):
        return [stored_before(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        if key in ("costs", "cost_types") and isinstance(item, dict):
            item = {"pts" if k == "points" else k: v for k, v in item.items()}
        elif key == "field" and item in ("points", "limit::points"):
            item = item.replace("points", "pts")
        elif key == "id" and item == "points":
            item = "pts"
        out[key] = stored_before(item)
    return out


@pytest.fixture
def legacy(tmp_path):
    """The sample 1.x game system and catalogue (Lords at most 35%, Core at least 25% of the points limit),
    as read now and as stored before, and a .ros of a Lord and two units of 10 Guards (350 pts)."""
    from armylists.importers.battlescribe.roster_tree import write_tree
    from tests.battlescribe.battlescribe_samples import LEGACY_CAT, LEGACY_GST

    (tmp_path / "old.gst").write_text(LEGACY_GST)
    (tmp_path / "old.cat").write_text(LEGACY_CAT)
    docs = [plain_document(d) for d in read_sources([str(tmp_path)])]
    games = {"points": GameData(docs), "pts": GameData([stored_before(d) for d in docs])}
    roster = Roster(games["points"])
    force = add_force(roster, "std", "old-cat")
    select(roster, force, "lord")
    for _ in range(2):
        set_count(roster, select(roster, force, "guards").children[0], 10)
    return games, write_tree(roster, "Old Guard")


def judged_ros(xml: bytes, game: GameData, type_id: str, limit: int):
    from armylists.importers.battlescribe.roster_tree import read_tree
    from armylists.importers.battlescribe.rosters import parse_roster_file
    from armylists.rules.battlescribe.document import judged

    xml = xml.replace(b"<costLimits />", f'<costLimits><costLimit name="pts" typeId="{type_id}" value="{limit}"/>'
                                         f"</costLimits>".encode())
    result, issues = judged(read_tree(parse_roster_file(xml, "old.ros"), game, "old.ros"))
    return result, [(i.code, i.message) for i in issues]


def test_legacy_points_are_the_cost_type_points(legacy):
    games, _xml = legacy
    game = games["points"]
    assert game.cost_types == [{"id": "points", "name": "pts", "hidden": False}]
    assert (game.cost_type_id("points"), game.cost_type_id("pts"), game.cost_type_id("gold")) == ("points", "points", None)
    assert games["pts"].cost_type_id("points") == "pts"


@pytest.mark.parametrize("data", ["points", "pts"])   # the data as read now, and as stored with a book before
@pytest.mark.parametrize("type_id", ["points", "pts"])   # a roster as BattleScribe saves it, and as we wrote it
def test_a_legacy_roster_names_its_points_either_way_and_is_judged_the_same(legacy, data, type_id):
    games, xml = legacy
    result, issues = judged_ros(xml, games[data], type_id, 430)
    assert (result.costs, result.legal, issues) == ({data: 350.0}, True, [])
    result, issues = judged_ros(xml, games[data], type_id, 400)
    assert (result.legal, issues) == (False, [
        ("bs.constraint.max", "Lords: 150 pts, 37.5% of the 400 pts limit; at most 35% (140 pts).")])


def test_a_roster_naming_a_cost_type_its_data_lacks_says_so_by_name(legacy):
    """Never "cannot check": the limit is in no type the data prices, so the data's percentages of its own
    points limit have nothing to read, and the roster is wrong."""
    games, xml = legacy
    result, issues = judged_ros(xml, games["points"], "gold", 430)
    assert (result.unsupported, result.legal) == ([], False)
    assert [(e.owner_type, e.source_id, e.constraint_id, e.message) for e in result.errors] == [
        ("roster", "costLimits", "gold", "Roster has a cost limit in 'gold', which is no cost type of the game system")]
    assert issues == [("bs.cost_type",
                       "The list's limit of 430 is in 'gold', a cost type the book's data does not have (its costs: pts).")]
