"""The JSON export is the canonical list document, round-trip safe; the checksum is stable and short."""
from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest

from armylists.exports import checksum, document_json
from armylists.rules import parse_roster, parse_roster_json

from tests.conftest import list_document

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))
LEGAL = Path(__file__).resolve().parents[2] / "docs" / "examples" / "empire-2400-legal.json"
ZOE = list_document([{"id": "zo", "entry": "lord", "general": True, "items": ["bluffers-helm"]}], name="Zoë's army")


def test_the_export_is_the_indented_canonical_document():
    assert document_json(parse_roster(ZOE)) == """\
{
  "format": "armylist/1",
  "name": "Zoë's army",
  "system": "t9a-0.11",
  "book": "test-book",
  "book_version": "1",
  "points_limit": 2400,
  "units": [
    {
      "id": "zo",
      "entry": "lord",
      "items": [
        "bluffers-helm"
      ],
      "general": true
    }
  ]
}
"""


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_survives_export_then_import(path):
    roster = parse_roster(json.loads(path.read_text()))
    exported = document_json(roster)
    assert parse_roster_json(exported, path.name) == roster
    assert document_json(parse_roster_json(exported)) == exported
    assert json.loads(exported) == json.loads(path.read_text())  # the examples are canonical already


def test_the_checksum_is_the_sha256_of_the_sorted_compact_document():
    canonical = ('{"book":"test-book","book_version":"1","format":"armylist/1","name":"Zoë\'s army",'
                 '"points_limit":2400,"system":"t9a-0.11","units":[{"entry":"lord","general":true,'
                 '"id":"zo","items":["bluffers-helm"]}]}')
    assert hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:10] == "4d100671da"
    assert checksum(parse_roster(ZOE)) == "4d100671da"


def test_the_checksum_of_each_example_is_fixed():
    """Printed rosters already carry these; a change here means old printouts no longer match."""
    names = ["empire-2400-illegal.json", "empire-2400-legal.json", "ogre-khans-2400-illegal.json",
             "ogre-khans-2400-legal.json"]
    sums = {name: checksum(parse_roster(json.loads((LEGAL.parent / name).read_text()))) for name in names}
    assert sums == {"empire-2400-illegal.json": "50b8b1f6ec", "empire-2400-legal.json": "67aff9afa7",
                    "ogre-khans-2400-illegal.json": "d80571a4b1", "ogre-khans-2400-legal.json": "5044ef9523"}


def test_the_checksum_ignores_how_the_file_was_written():
    data = json.loads(LEGAL.read_text())
    reindented = json.dumps(data, indent=7, sort_keys=True)
    with_defaults = json.dumps({**data, "composition": None, "units": [
        {"label": "", "veteran_standard": False, **u} for u in data["units"]]})
    assert checksum(parse_roster_json(reindented)) == checksum(parse_roster_json(with_defaults)) == "67aff9afa7"


def test_the_checksum_changes_with_any_change_to_the_list():
    data = json.loads(LEGAL.read_text())
    bigger = copy.deepcopy(data)
    bigger["units"][4]["size"] = 31
    renamed = {**data, "name": data["name"] + "."}
    sums = [checksum(parse_roster(d)) for d in (data, bigger, renamed)]
    assert sums[0] == "67aff9afa7" and len(set(sums)) == 3


def test_the_matched_play_rules_are_exported_in_the_lists_order_and_change_the_checksum():
    data = json.loads((LEGAL.parent / "empire-of-man-legal.json").read_text())
    chosen = {**data, "modes": ["combined-arms", "grand-melee"]}
    exported = json.loads(document_json(parse_roster(chosen)))
    assert exported["modes"] == ["combined-arms", "grand-melee"]
    assert list(exported)[:8] == ["format", "name", "player", "system", "book", "book_version", "modes", "points_limit"]
    assert parse_roster_json(json.dumps(exported)).modes == ("combined-arms", "grand-melee")
    assert "modes" not in json.loads(document_json(parse_roster(data)))
    assert checksum(parse_roster(chosen)) != checksum(parse_roster(data))


def test_the_regiment_a_detachment_accompanies_survives_export_then_import():
    data = json.loads((LEGAL.parent / "empire-of-man-legal.json").read_text())
    data["units"].append({"id": "detachment", "entry": "state-troops", "size": 5, "options": {"detachment": 1},
                          "accompanies": "halberdiers"})
    roster = parse_roster(data)
    exported = json.loads(document_json(roster))
    assert exported["units"][-1]["accompanies"] == "halberdiers"
    assert parse_roster_json(json.dumps(exported)) == roster
