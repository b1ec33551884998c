"""A scenario's `setup` (the suite's YAML form of the data model) -> .gst/.cat XML -> our plain reader.

The YAML keys are the XML's: a list is a container element of singular children, a scalar an attribute;
a characteristic's value and a rule's description are element text. The XML is then read by the same
`importers/battlescribe/plain.py` that reads real catalogues, so the scenario checks the whole path.
What the suite's generator fills in when a scenario leaves it out: a selection entry is an `upgrade`, a
constraint or condition counts `selections` of `parent`, and `shared` is false (a condition with no `childId` has none)
(the suite's default, docs/shared-flag-semantics.md; BattleScribe's own files say it explicitly).
"""
from __future__ import annotations

from xml.etree.ElementTree import Element, SubElement, tostring

from armylists.importers.battlescribe.plain import plain_document
from armylists.importers.battlescribe.sources import Document, parse_xml

NS = "http://www.battlescribe.net/schema/{}Schema"
SINGULAR = {
    "costTypes": "costType", "profileTypes": "profileType", "characteristicTypes": "characteristicType",
    "categoryEntries": "categoryEntry", "forceEntries": "forceEntry", "categoryLinks": "categoryLink",
    "selectionEntries": "selectionEntry", "selectionEntryGroups": "selectionEntryGroup",
    "entryLinks": "entryLink", "sharedSelectionEntries": "selectionEntry",
    "sharedSelectionEntryGroups": "selectionEntryGroup", "sharedRules": "rule", "sharedProfiles": "profile",
    "sharedInfoGroups": "infoGroup", "constraints": "constraint", "modifiers": "modifier",
    "modifierGroups": "modifierGroup", "conditions": "condition", "conditionGroups": "conditionGroup",
    "repeats": "repeat", "costs": "cost", "profiles": "profile", "characteristics": "characteristic",
    "rules": "rule", "infoLinks": "infoLink", "infoGroups": "infoGroup", "catalogueLinks": "catalogueLink",
    "publications": "publication",
}
TEXT = {"characteristic": "value", "rule": "description"}
DEFAULTS = {
    "selectionEntry": {"type": "upgrade"},
    "constraint": {"field": "selections", "scope": "parent", "shared": False},
    "condition": {"field": "selections", "scope": "parent", "shared": False},
    "repeat": {"field": "selections", "scope": "parent", "shared": False, "repeats": 1},
}


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _fill(element: Element, tag: str, data: dict) -> None:
    data = {**DEFAULTS.get(tag, {}), **data}
    for key, value in data.items():
        if isinstance(value, list):
            container = SubElement(element, key)
            for item in value:
                child_tag = SINGULAR.get(key, key[:-1])
                child = SubElement(container, child_tag)
                _fill(child, child_tag, item if isinstance(item, dict) else {})
        elif isinstance(value, dict):
            continue
        elif TEXT.get(tag) == key:
            SubElement(element, key).text = _text(value) if tag == "rule" else None
            if tag == "characteristic":
                element.text = _text(value)
                element.remove(element[-1])
        elif value is not None:
            element.set(key, _text(value))


def document_xml(kind: str, data: dict, system_id: str) -> bytes:
    root = Element(kind, {"xmlns": NS.format("Catalogue" if kind == "catalogue" else "GameSystem")})
    data = dict(data)
    data.setdefault("id", "gs" if kind == "gameSystem" else "cat")
    data.setdefault("name", data["id"])
    data.setdefault("revision", 1)
    data.setdefault("battleScribeVersion", "2.03")
    if kind == "catalogue":
        data.setdefault("gameSystemId", system_id)
    _fill(root, kind, data)
    return tostring(root)


def plain_setup(setup: dict) -> list[dict]:
    """The game system and catalogues of a scenario as the plain reader gives them."""
    system = setup.get("gameSystem") or {}
    system_id = system.get("id", "gs")
    documents = [("gameSystem", system)] + [("catalogue", c) for c in setup.get("catalogues") or []]
    out = []
    for kind, data in documents:
        xml = document_xml(kind, data, system_id)
        name = f"{data.get('id', kind)}.{'gst' if kind == 'gameSystem' else 'cat'}"
        out.append(plain_document(Document(name, parse_xml(name, xml))))
    return out
