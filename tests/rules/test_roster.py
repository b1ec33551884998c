"""The list document: shape errors name the path, and export then import gives the same document."""
from __future__ import annotations

import json

import pytest

from armylists.rules import ListDocumentError, parse_roster, parse_roster_json, roster_to_dict

from tests.conftest import list_document


def error(text) -> str:
    with pytest.raises(ListDocumentError) as caught:
        parse_roster_json(text, "army.json")
    return str(caught.value)


def test_it_rejects_text_that_is_not_json():
    assert error('{"format": "armylist/1",') == "army.json: (top level): is not valid JSON: Expecting property name " \
                                                 "enclosed in double quotes at line 1, column 25"


def test_it_rejects_bytes_that_are_not_utf8():
    assert error(b'{"name": "\xff"}').startswith("army.json: (top level): is not UTF-8 text")


def test_it_rejects_a_document_that_is_not_a_list():
    assert error("[1, 2]") == "army.json: (top level): [1, 2] is not of type 'object'"


def test_it_names_the_path_of_a_wrong_type():
    doc = list_document([{"entry": "lord", "size": "two"}])
    assert error(json.dumps(doc)) == "army.json: units[0].size: 'two' is not of type 'integer'"


def test_it_rejects_a_negative_size_and_an_absurd_one():
    assert error(json.dumps(list_document([{"entry": "lord", "size": -1}]))) == \
        "army.json: units[0].size: -1 is less than the minimum of 1"
    assert error(json.dumps(list_document([{"entry": "lord", "size": 10**9}]))) == \
        "army.json: units[0].size: 1000000000 is greater than the maximum of 10000"


def test_it_rejects_a_missing_field():
    doc = list_document([])
    del doc["book_version"]
    assert error(json.dumps(doc)) == "army.json: (top level): 'book_version' is a required property"


def test_it_rejects_an_unknown_field():
    doc = list_document([{"entry": "lord", "colour": "red"}])
    assert error(json.dumps(doc)) == \
        "army.json: units[0]: Additional properties are not allowed ('colour' was unexpected)"


def test_it_rejects_two_units_with_one_id():
    doc = list_document([{"id": "a", "entry": "lord"}, {"id": "a", "entry": "hero"}])
    assert error(json.dumps(doc)) == "army.json: units[1].id: unit id 'a' is already used by units[0]"


def test_it_rejects_a_huge_document():
    assert "a list document may be at most 524288" in error(" " * 600_000)


def test_it_numbers_units_without_ids():
    roster = parse_roster(list_document([{"entry": "lord"}, {"entry": "hero"}]))
    assert [u.id for u in roster.units] == ["u1", "u2"]


def test_round_trip_keeps_the_document():
    doc = list_document([
        {"id": "a", "entry": "hero", "options": {"battle-standard-bearer": 1}, "mount": "horse",
         "items": ["war-standard"], "general": True, "label": "red banner"},
        {"id": "b", "entry": "spearmen", "size": 20, "command": ["champion", "standard"], "veteran_standard": True,
         "standard_items": ["war-standard"], "champion_items": ["sword-of-skill"], "notes": "front"},
        {"id": "c", "entry": "hero-wizard", "path": "fire"},
    ], name="Test", player="Ann", composition=None, notes="n")
    doc.pop("composition")
    assert roster_to_dict(parse_roster(doc)) == doc
    again = parse_roster_json(json.dumps(roster_to_dict(parse_roster(doc))))
    assert again == parse_roster(doc)
