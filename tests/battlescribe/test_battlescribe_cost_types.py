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
