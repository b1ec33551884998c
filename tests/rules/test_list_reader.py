"""The fast list reader (msgspec types) against the JSON Schema it stands in for.

A list document is read first by typed structures (armylists/rules/reading/list_reader.py); only what they
refuse goes to the JSON Schema, whose message is the one reported. These tests generate documents
(the examples, changed at random places to values at and around each bound) and check that both
ways agree: the fast reader never accepts what the schema refuses, a document the schema accepts is
always read, the error is the schema's own, and the JSON text path and the dict path give the same.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.exceptions import best_match

from armylists.rules import ListDocumentError, parse_roster, parse_roster_json
from armylists.rules.reading.data_files import _validators, error_message
from armylists.rules.reading.list_reader import convert_document, decode_document

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))
DOCUMENTS = [json.loads(p.read_text()) for p in EXAMPLES]

# For each key, values at and around its bounds in the schema, plus a few of the wrong type.
SLUGS = ["a", "ok-slug", "v1.2", "Bad", "a--b", "-a", "a.", "a\n", "", "a" * 80, "a" * 81]
WRONG = [None, True, 1, 1.0, "x", [], {}]
COUNTS = [{}, {"a": 1}, {"a": 0}, {"a": 10000}, {"a": 10001}, {"Bad": 1}, {"a": True}, {"a": 1.0},
          {f"o{i}": 1 for i in range(50)}, {f"o{i}": 1 for i in range(51)}]
SLUG_LISTS = [[], ["a"], ["a", "a"], ["Bad"], ["a"] * 50, ["a"] * 51, [1]]


def strings(most: int) -> list:
    return ["", "x", "x" * most, "x" * (most + 1), "\u00e9" * most, "\u00e9" * (most + 1)]


VALUES = {
    "format": ["armylist/1", "armylist/2"], "name": strings(200), "player": strings(200), "system": SLUGS,
    "book": SLUGS, "book_version": strings(40), "composition": SLUGS, "points_limit": [0, 1, 100000, 100001, -1],
    "notes": strings(5000) + strings(1000)[2:], "modes": [[], ["a"], ["a", "a"], ["a"] * 10, [f"m{i}" for i in range(11)], ["Bad"]],
    "allies": [{"book": "a", "book_version": "1"}, {"book": "a"}, {"book": "a", "book_version": "1", "composition": None},
               {"book": "a", "book_version": "", "x": 1}, {"book": "Bad", "book_version": "1"}],
    "units": [[], [{"entry": "a"}] * 200, [{"entry": "a", "id": f"u{i}"} for i in range(201)], [1]],
    "id": ["a", "A_b-1", "a b", "", "x" * 40, "x" * 41], "entry": SLUGS, "allied": [True, False],
    "size": [0, 1, 10000, 10001, 2.0, 2.5], "options": COUNTS, "mount": SLUGS, "items": SLUG_LISTS,
    "command": [["champion", "musician", "standard"], ["champion", "champion"], ["captain"],
                ["champion", "musician", "standard", "champion"]],
    "veteran_standard": [True, False], "standard_items": SLUG_LISTS, "champion_items": SLUG_LISTS,
    "general": [True, False], "path": SLUGS, "label": strings(100), "experience": [0, 1000, 1001, -1, 5],
    "model_options": [[], [{"a": 1}], [{"a": 0}], [{}] * 100, [{}] * 101, [{"Bad": 1}]], "colour": ["red"],
}
UNIT_KEYS = ["id", "entry", "allied", "size", "options", "mount", "items", "command", "veteran_standard",
             "standard_items", "champion_items", "general", "path", "label", "notes", "experience",
             "model_options", "colour"]
TOP_KEYS = ["format", "name", "player", "system", "book", "book_version", "composition", "points_limit",
            "notes", "units", "modes", "allies", "colour"]


def schema_error(document) -> str | None:
    error = best_match(_validators()["list"].iter_errors(document))
    return None if error is None else str(ListDocumentError("doc", tuple(error.absolute_path), error_message(error)))


@st.composite
def documents(draw):
    """An example document with a few keys set to boundary values or removed."""
    document = copy.deepcopy(draw(st.sampled_from(DOCUMENTS)))
    for _ in range(draw(st.integers(1, 3))):
        if document.get("units") and isinstance(document["units"], list) and draw(st.booleans()):
            target = document["units"][draw(st.integers(0, len(document["units"]) - 1))]
            key = draw(st.sampled_from(UNIT_KEYS))
        else:
            target, key = document, draw(st.sampled_from(TOP_KEYS))
        if not isinstance(target, dict):
            continue
        if draw(st.integers(0, 5)) == 0:
            target.pop(key, None)
        else:
            target[key] = copy.deepcopy(draw(st.sampled_from(VALUES[key] + WRONG)))
    return document


def check_agrees(document) -> None:
    """The fast reader and the schema agree on `document`: same verdict, the schema's message, same Roster."""
    expected = schema_error(document)
    if convert_document(document) is not None:
        assert expected is None  # the fast reader never lets through what the schema refuses
    try:
        roster = parse_roster(document, "doc")
    except ListDocumentError as exc:
        # Either the schema's own message, or one of the checks the schema cannot make (unit ids).
        assert str(exc) == expected if expected is not None else exc.path[-1] in ("id", "allied")
        outcome = str(exc)
    else:
        assert expected is None
        assert [u.entry for u in roster.units] == [u["entry"] for u in document["units"]]
        assert [u.size for u in roster.units] == [u.get("size") for u in document["units"]]
        assert [dict(u.options) for u in roster.units] == [u.get("options", {}) for u in document["units"]]
        assert roster.points_limit == document["points_limit"] and roster.modes == tuple(document.get("modes", ()))
        outcome = roster
    # The JSON text path (decoded by msgspec) gives the same Roster or the same message.
    try:
        from_text = parse_roster_json(json.dumps(document), "doc")
    except ListDocumentError as exc:
        from_text = str(exc)
    assert from_text == outcome


def test_every_key_at_every_bound():
    """Each key of a list and of a unit set, one at a time, to each of its boundary values."""
    base = next(d for d in DOCUMENTS if d["book"] == "empire-of-sonnstahl" and d["units"])
    for keys, key in [(TOP_KEYS, k) for k in TOP_KEYS] + [(UNIT_KEYS, k) for k in UNIT_KEYS]:
        for value in [*VALUES[key], *WRONG, "(absent)"]:
            document = copy.deepcopy(base)
            target = document if keys is TOP_KEYS else document["units"][0]
            if value == "(absent)":
                target.pop(key, None)
            else:
                target[key] = copy.deepcopy(value)
            check_agrees(document)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_it_accepts_and_refuses_what_the_schema_does_with_its_message(document):
    check_agrees(document)


@pytest.mark.parametrize("text, expected", [
    # uniqueItems, which msgspec's types cannot say: the schema's message
    ('"command": ["champion", "champion"]', "doc: units[0].command: ['champion', 'champion'] has non-unique elements"),
    # an integer written 1.0 is an integer to JSON Schema: refused by the typed reader, read after all
    ('"size": 2.0', None),
])
def test_it_leaves_to_the_schema_what_the_types_cannot_say(text, expected):
    document = f'{{"format": "armylist/1", "system": "s", "book": "b", "book_version": "1", "points_limit": 10, ' \
               f'"units": [{{"entry": "e", {text}}}]}}'
    assert decode_document(document) is None
    if expected is None:
        assert parse_roster_json(document, "doc").units[0].size == 2
    else:
        with pytest.raises(ListDocumentError) as caught:
            parse_roster_json(document, "doc")
        assert str(caught.value) == expected


def test_it_reads_the_examples_with_the_fast_reader():
    for path in EXAMPLES:
        assert decode_document(path.read_bytes()) is not None, path.name


def test_every_field_of_a_unit_reaches_the_roster():
    """The Roster's units are built by position: each field of the document lands in its own place."""
    unit = {"id": "a1", "entry": "e", "allied": True, "size": 3, "options": {"o": 2}, "mount": "m", "items": ["i"],
            "command": ["champion"], "veteran_standard": True, "standard_items": ["s"], "champion_items": ["c"],
            "general": True, "path": "p", "label": "red", "notes": "n", "experience": 7, "model_options": [{"x": 1}],
            "accompanies": "r1"}
    document = {"format": "armylist/1", "system": "s", "book": "b", "book_version": "1", "points_limit": 10,
                "allies": {"book": "b2", "book_version": "2"}, "units": [unit]}
    read = parse_roster(document).units[0]
    assert {field: getattr(read, field) for field in read.__struct_fields__} == {
        "id": "a1", "entry": "e", "size": 3, "options": (("o", 2),), "mount": "m", "items": ("i",),
        "command": ("champion",), "veteran_standard": True, "standard_items": ("s",), "champion_items": ("c",),
        "general": True, "path": "p", "label": "red", "notes": "n", "experience": 7,
        "model_options": ((("x", 1),),), "allied": True, "accompanies": "r1"}
