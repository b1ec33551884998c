"""The two JSON Schema validators agree: jsonschema-rs decides whether a rules file is valid (fast), and
jsonschema words the error of one it refuses (data_files.check_schema). A file the fast validator let
through that jsonschema refuses would be a rules error no one is told of; these tests look for one in
every rules file we ship, every example list and event rules file, and thousands of broken copies."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from armylists.rules import RulesDataError
from armylists.rules.reading.data_files import _fast_validators, _validators, check_params, check_schema

ROOT = Path(__file__).resolve().parents[2]
KIND_BY_FOLDER = {"books": "book", "items": "item", "campaign": "campaign"}  # campaign: Mordheim's campaign tables
RULES_FILES = sorted((ROOT / "rules_data").glob("*/*.yaml")) + sorted((ROOT / "rules_data").glob("*/*/*.yaml")) \
    + sorted((ROOT / "tests" / "fixtures" / "rules").glob("*/*/*.yaml"))
EVENT_RULES = """
rules:
  - {id: three-of-each, type: each_entry_max, params: {max: 3}}
  - {id: war-machines, type: count, params: {label: War Machines, select: {troop_type: war-machine}, max: 3}}
"""
# Values of the wrong kind for almost any place in a rules file.
BROKEN = ["", -1, 1.5, None, True, [], {}, "x" * 3, {"unknown": 1}]


def kind_of(path: Path) -> str:
    return "system" if path.name == "system.yaml" else KIND_BY_FOLDER[path.parent.name]


def documents() -> Iterator[tuple[str, str, Any]]:
    for path in RULES_FILES:
        yield kind_of(path), str(path.relative_to(ROOT)), yaml.safe_load(path.read_text())
    for path in sorted((ROOT / "docs" / "examples").glob("*.json")):
        yield "list", str(path.relative_to(ROOT)), json.loads(path.read_text())
    yield "event-rules", "event rules", yaml.safe_load(EVENT_RULES)


def python_valid(kind: str, data: Any) -> bool:
    return next(iter(_validators()[kind].iter_errors(data)), None) is None


def trimmed(data: Any) -> Any:
    """The document with every list cut to its first three items (still valid, and the rest are alike):
    a whole book's broken copies would take minutes to check in Python."""
    if isinstance(data, dict):
        return {key: trimmed(value) for key, value in data.items()}
    if isinstance(data, list):
        return [trimmed(value) for value in data[:3]]
    return data


def places(data: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every place in the document: keys of objects, indexes of arrays."""
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        yield (*path, key)
        yield from places(value, (*path, key))


def broken_copies(data: Any) -> Iterator[tuple[tuple, Any]]:
    """Each place of the document given each broken value, then left out. The document itself is changed and
    put back as it was (keys in their order) once the caller has judged it, before the next copy: a deep copy
    of the whole document for each of its thousands of copies was most of this test's time."""
    for place in list(places(data)):
        target = data
        for step in place[:-1]:
            target = target[step]
        key, kept = place[-1], target[place[-1]]
        for value in BROKEN:
            target[key] = value
            yield place, data
        if isinstance(target, list):  # and the place left out
            del target[key]
            yield place, data
            target.insert(key, kept)
        else:
            order = list(target)
            del target[key]
            yield place, data
            target[key] = kept
            for k in order[order.index(key) + 1:]:  # the keys after it back behind it
                target[k] = target.pop(k)


def test_every_file_we_ship_is_valid_to_both():
    seen = [(name, _fast_validators()[kind].is_valid(data), python_valid(kind, data)) for kind, name, data in documents()]
    assert len(seen) == len(RULES_FILES) + len(list((ROOT / "docs" / "examples").glob("*.json"))) + 1
    assert [s for s in seen if s[1:] != (True, True)] == []


@pytest.mark.parametrize("kind, name, data", [d for d in documents() if d[0] in ("system", "item")
                                               or d[1].endswith(("ogre-khans.yaml", "test-book.yaml",
                                                                 "witch-hunters.yaml", "empire-of-man.yaml"))
                                               or d[0] in ("list", "event-rules") and "2400-legal" in d[1]
                                               or d[0] == "event-rules"], ids=lambda v: v if isinstance(v, str) else "")
def test_broken_copies_are_judged_alike(kind, name, data):
    fast, data = _fast_validators()[kind], trimmed(data)
    assert fast.is_valid(data) and python_valid(kind, data)
    disagree, copies, refused = [], 0, 0
    for place, changed in broken_copies(data):
        verdict = fast.is_valid(changed)
        copies, refused = copies + 1, refused + (not verdict)
        if verdict != python_valid(kind, changed):
            disagree.append((place, verdict))
    assert disagree == []
    assert refused > copies / 3  # the copies are broken, most of them for the schema too


def test_a_refused_file_gets_the_python_validators_message():
    book = yaml.safe_load((ROOT / "rules_data" / "t9a-0.11" / "books" / "ogre-khans.yaml").read_text())
    book["entries"][0]["points"] = "many"
    with pytest.raises(RulesDataError) as caught:
        check_schema("book", book, "ogre-khans.yaml")
    assert str(caught.value) == "ogre-khans.yaml: entries[0].points: 'many' is not of type 'integer'"


def test_rule_parameters_and_their_broken_copies_are_judged_alike(library):
    """Every rule of every shipped book and system, under its rule type's parameter schema."""
    import jsonschema_rs
    from jsonschema import Draft202012Validator

    from armylists.rules.checks import CHECKS

    rules = [r for book in library.books.values() for r in book.rules] + \
        [r for system in library.systems.values() for r in system.rules]
    types, disagree, copies = set(), [], 0
    for rule in rules:
        schema = CHECKS[rule.type].params_schema
        fast, slow = jsonschema_rs.Draft202012Validator(schema), Draft202012Validator(schema)
        types.add(rule.type)
        assert fast.is_valid(rule.params) and slow.is_valid(rule.params), rule.id
        for place, changed in broken_copies(trimmed(rule.params)):
            copies += 1
            if fast.is_valid(changed) != slow.is_valid(changed):
                disagree.append((rule.type, rule.id, place))
    assert disagree == []
    assert len(types) >= 20 and copies > 2000


@pytest.mark.parametrize("schema, value, message", [
    ({"type": "string", "maxLength": 200}, "x" * 200, None),  # exactly at the bound: no error
    ({"type": "string", "maxLength": 200}, "x" * 201, "is 201 characters long; at most 200"),
    ({"type": "string", "maxLength": 200}, "x" * 200_000, "is 200000 characters long; at most 200"),
    ({"type": "array", "maxItems": 2}, [1, 2, 3], "has 3 items; at most 2"),
    ({"type": "object"}, "y" * 5000, "'" + "y" * 59 + "…' is not of type 'object'"),
    ({"type": "object"}, ["a"] * 5000, "['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a',… is not of type "
                                       "'object'"),
    ({"type": "object", "additionalProperties": False}, {"k" * 500: 1},
     "Additional properties are not allowed ('" + "k" * 60 + "…' was unexpected)"),
    ({"type": "string", "pattern": "^a$"}, "z" * 500, "'" + "z" * 59 + "…' does not match '^a$'"),
    ({"type": "integer"}, "thirty", "'thirty' is not of type 'integer'"),  # short values quoted whole
])
def test_messages_quote_at_most_sixty_characters_of_a_value(schema, value, message):
    """Issue 15: a 200 KB value once came back whole in its error; now its length, or its first 60 characters."""
    if message is None:
        check_params(schema, value, "test", ("params",))
        return
    with pytest.raises(RulesDataError) as caught:
        check_params(schema, value, "test", ("params",))
    assert caught.value.reason == message
