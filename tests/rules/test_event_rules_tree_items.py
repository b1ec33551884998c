"""team_items_once on roster trees whose data marks magic items (rules_data/battlescribe_systems.yaml names
The Old World's "Magic Items" groups): two lists of a team holding the same magic item are each told so,
as two lists of our own books are; one list alone holding it is not (docs/events.md, "Lists of imported
BattleScribe books")."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import call_command

from armylists.importers.battlescribe.roster_files import read_roster_data
from armylists.lists.trees import battlescribe_data
from armylists.lists.trees.tree_lists import tree_army_of, tree_validate
from armylists.rules.event_rules.ruleset import check_team, parse_event_rules

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "external" / "battlescribe" / "the-old-world-nr"
EXAMPLES = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr"
# The game system, the Empire's catalogue and the libraries it links (magic items, lores, mercenaries).
FILES = ["Warhammer_Old_World.gst", "The Empire of Man.cat", "Common Magic Items.cat", "The Lores of Magic.cat",
         "Mercenaries.cat"]

pytestmark = [pytest.mark.slow, pytest.mark.django_db,
              pytest.mark.skipif(not DATA.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")]


def team_list(key: str, player: str, example: str):
    roster, book = read_roster_data((EXAMPLES / example).read_bytes(), example)
    return key, book, replace(roster, player=player), None


def told(lists) -> dict:
    book = lists[0][1]
    rules = parse_event_rules("rules: [{id: team-items, type: team_items_once}]", "event", book.system,
                              [book]).team_rules
    trees = {key: tree_army_of(b, r, tree_validate(r)) for key, b, r, _ in lists}
    return {k: [(v.code, v.message, v.rule, v.source) for v in vs] for k, vs in check_team(lists, rules, trees).items()}


def test_team_items_once_reads_the_magic_items_of_tree_lists():
    call_command("import_battlescribe", *(str(DATA / f) for f in FILES), verbosity=0)
    battlescribe_data.clear()
    # The Captain of the Empire's Sword of Battle (a member of the data's "Magic Items" group) in both lists.
    both = told([team_list("a", "Ann", "empire-of-man-illegal-magic-item.ros"),
                 team_list("b", "Bo", "empire-of-man-illegal-magic-item.ros")])
    assert both == {
        "a": [("team.items_duplicate", "Sword of Battle is also taken in Bo; a magic item may be taken in one list of "
                                       "the team only.", "team-items", "event rules")],
        "b": [("team.items_duplicate", "Sword of Battle is also taken in Ann; a magic item may be taken in one list "
                                       "of the team only.", "team-items", "event rules")]}
    # In one list of the team only: nothing to say.
    once = told([team_list("a", "Ann", "empire-of-man-illegal-magic-item.ros"),
                 team_list("b", "Bo", "empire-of-man-legal.ros")])
    assert once == {"a": [], "b": []}
