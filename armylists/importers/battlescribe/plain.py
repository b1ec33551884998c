"""A BattleScribe document (schema 2.x) as plain data: dicts and lists, nothing of XML left.

    data = plain_document(document)    # {"kind": "catalogue", "id", "name", "revision", "entries": [...], ...}

The legacy 1.x schema (legacy.py) is read into the same shape, so the mapping to our rules data
(books.py, coverage.py) knows one shape. A node is a selection entry, an entry group or a link:

    {"kind": "entry"|"group"|"link", "id", "name", "type", "target", "hidden", "costs": {cost type: value},
     "constraints": [...], "modifiers": [...], "children": [...], "categories": [...], "primary": id,
     "profiles": [...], "rules": [...], "where": "Bruisers > Command Group"}

A constraint is {"id", "type": "min"|"max", "field", "scope", "value", "percent", "shared"}; a modifier
{"type", "field", "value", "when": condition group, "repeats": [...]}; a condition {"type", "field",
"scope", "value", "child", "percent"}; a group {"type": "and"|"or", "conditions", "groups"}.
"""
from __future__ import annotations

from xml.etree.ElementTree import Element

from sys import intern
from typing import Any

from armylists.importers.battlescribe.elements import BattleScribeInputError, kids, local, number, revision, truth
from armylists.importers.battlescribe.legacy import LegacyReader

KINDS = {"gameSystem": "system", "catalogue": "catalogue"}
class Reader:
    """Reads one 2.x document; `source` names the file in every error."""

    def __init__(self, source: str, root: Element):
        self.source = source
        self.root = root
        # A condition or repeat is its attributes alone (a catalogue repeats the same few: 938 distinct of
        # 48,624 in New Recruit's Old World data, 21 MB of dicts): one dict for equal attributes, read only.
        self.conditions: dict[tuple, dict] = {}

    def read(self) -> dict:
        root = self.root
        kind = KINDS.get(local(root.tag))
        if kind is None:
            raise BattleScribeInputError(self.source, f"<{local(root.tag)}>",
                                         "is not a BattleScribe game system or catalogue")
        for attribute in ("id", "name"):
            if not root.get(attribute):
                raise BattleScribeInputError(self.source, f"<{local(root.tag)}>", f"has no {attribute}")
        where = root.get("name")
        data = {
            "kind": kind, "id": root.get("id"), "name": root.get("name"),
            "revision": revision(self.source, f"<{local(root.tag)}> revision", root.get("revision")),
            "schema": root.get("battleScribeVersion", ""), "game_system": root.get("gameSystemId"),
            "library": truth(root.get("library")), "source": self.source,
            "cost_types": {c.get("id"): c.get("name", "") for c in kids(root, "costTypes")},
            "categories": {c.get("id"): c.get("name", "") for c in [*kids(root, "categoryEntries"), *_force_categories(root)]},
            "forces": [self.force(f, where) for f in kids(root, "forceEntries")],
            "entries": [self.node(e, "entry", where) for e in kids(root, "selectionEntries", "selectionEntry")]
            + [self.node(e, "link", where) for e in kids(root, "entryLinks")],
            "shared": {}, "rules": {}, "rule_texts": {}, "profiles": {},
            "profile_types": {p.get("id"): [t.get("name", "") for t in kids(p, "characteristicTypes")]
                              for p in kids(root, "profileTypes")},
            "characteristic_types": {t.get("id"): t.get("name", "") for p in kids(root, "profileTypes")
                                     for t in kids(p, "characteristicTypes")},
            "catalogue_links": [(c.get("targetId"), truth(c.get("importRootEntries"))) for c in kids(root, "catalogueLinks")],
            # What the tree evaluator (armylists/rules/battlescribe/) needs besides what books.py reads.
            "cost_type_list": [{"id": c.get("id"), "name": c.get("name", ""), "hidden": truth(c.get("hidden")),
                                "default_limit": number(self.source, "<costType>", c.get("defaultCostLimit"), -1)}
                               for c in kids(root, "costTypes")],
            "category_entries": [self.category(c, where) for c in kids(root, "categoryEntries")],
            # who publishes the data (New Recruit, BSData): the imported system's name says (choosing.py)
            "publisher_urls": [root.get("authorUrl", "")] + [p.get("publisherUrl", "") for p in kids(root, "publications")],
        }
        for e in kids(root, "sharedSelectionEntries", "selectionEntry"):
            data["shared"][e.get("id")] = self.node(e, "entry", where)
        for g in kids(root, "sharedSelectionEntryGroups", "selectionEntryGroup"):
            data["shared"][g.get("id")] = self.node(g, "group", where)
        for r in kids(root, "sharedRules") + kids(root, "rules"):
            data["rules"][r.get("id")] = r.get("name", "")
            data["rule_texts"][r.get("id")] = description(r)
        for p in kids(root, "sharedProfiles"):
            data["profiles"][p.get("id")] = self.profile(p, where)
        return data

    def force(self, element: Element, where: str) -> dict:
        name = element.get("name", "")
        links = kids(element, "categoryLinks") or [_as_link(c) for c in kids(element, "categoryEntries")]
        return {
            "id": element.get("id"), "name": name, "hidden": truth(element.get("hidden")),
            "constraints": self.constraints(element, f"{where} > {name}"),
            "modifiers": self.modifiers(element, f"{where} > {name}"),
            "categories": [{"target": c.get("targetId"), "name": c.get("name", ""),
                            "constraints": self.constraints(c, f"{where} > {name} > {c.get('name')}"),
                            "modifiers": self.modifiers(c, f"{where} > {name} > {c.get('name')}")}
                           for c in links],
            "forces": [self.force(f, f"{where} > {name}") for f in kids(element, "forceEntries")],
            "modifier_groups": self.modifier_groups(element, f"{where} > {name}"),
            "category_links": [self.category(c, f"{where} > {name}") for c in links],
        }

    def category(self, element: Element, where: str) -> dict:
        """A category entry or a category link: its id, target, primary and hidden flags and its logic."""
        here = f"{where} > {element.get('name', '')}"
        return {"id": element.get("id"), "target": element.get("targetId"), "name": element.get("name", ""),
                "primary": truth(element.get("primary")), "hidden": truth(element.get("hidden")),
                "constraints": self.constraints(element, here), "modifiers": self.modifiers(element, here),
                "modifier_groups": self.modifier_groups(element, here)}

    def node(self, element: Element, kind: str, where: str) -> dict:
        name = element.get("name", "")
        here = f"{where} > {name}"
        if not element.get("id"):
            raise BattleScribeInputError(self.source, f"<{local(element.tag)} name={name!r}>", "has no id")
        if kind == "link" and not element.get("targetId"):
            raise BattleScribeInputError(self.source, f"<entryLink id={element.get('id')!r}>", "has no targetId")
        categories = kids(element, "categoryLinks")
        if not categories and element.get("categoryEntryId") not in (None, "", "(No Category)"):  # 1.16: its one
            categories = [Element("categoryLink", {"id": f"{element.get('id')}/category", "primary": "true",
                                                   "targetId": element.get("categoryEntryId")})]
        children = [self.node(e, "entry", here) for e in kids(element, "selectionEntries", "selectionEntry")]
        children += [self.node(g, "group", here) for g in kids(element, "selectionEntryGroups", "selectionEntryGroup")]
        children += [self.node(e, "link", here) for e in kids(element, "entryLinks")]
        costs = {}
        for c in kids(element, "costs"):
            costs[c.get("typeId") or c.get("name", "")] = number(self.source, f"<cost> of {here}", c.get("value"))
        return {
            "kind": kind, "id": element.get("id"), "name": name, "type": _word(element.get("type", "")),
            "target": element.get("targetId"), "hidden": truth(element.get("hidden")),
            "collective": truth(element.get("collective")), "default": element.get("defaultSelectionEntryId"),
            "costs": costs, "constraints": self.constraints(element, here), "modifiers": self.modifiers(element, here),
            "children": children, "categories": [_word(c.get("targetId")) for c in categories],
            "primary": next((c.get("targetId") for c in categories if truth(c.get("primary"))), None),
            "profiles": [self.profile(p, here) for p in kids(element, "profiles")],
            "rules": [r.get("name", "") for r in kids(element, "rules")],
            "rule_texts": [description(r) for r in kids(element, "rules")],   # the cards' (issue 22)
            "info_links": [(i.get("targetId"), i.get("type"), i.get("name", "")) for i in kids(element, "infoLinks")],
            # each info link's own modifiers (its name's: "Hard Target" + " (1)"; a profile's characteristics)
            # and hidden flag, for the cards and the PDF (issue 22)
            "info_link_modifiers": [{"modifiers": self.modifiers(i, here), "modifier_groups": self.modifier_groups(i, here),
                                     "hidden": truth(i.get("hidden"))}
                                    for i in kids(element, "infoLinks")],
            "where": here, "import": element.get("import") != "false",
            "modifier_groups": self.modifier_groups(element, here),
            "category_links": [self.category(c, here) for c in categories],
        }

    def profile(self, element: Element, where: str = "") -> dict:
        # the profile type's id: its characteristic types lay out the card's table (issue 22); its
        # modifiers (field: a characteristic type's id, or name, or hidden) change it where it stands
        here = f"{where} > {element.get('name', '')}"
        return {"name": element.get("name", ""), "type": element.get("typeName", ""), "type_id": element.get("typeId", ""),
                "hidden": truth(element.get("hidden")),
                "characteristics": [(c.get("name", ""), (c.text or "").strip())
                                    for c in kids(element, "characteristics")],
                "modifiers": self.modifiers(element, here), "modifier_groups": self.modifier_groups(element, here)}

    def constraints(self, element: Element, where: str) -> list[dict]:
        out = []
        for c in kids(element, "constraints"):
            if c.get("type") not in ("min", "max"):
                raise BattleScribeInputError(self.source, f"<constraint id={c.get('id')!r}> of {where}",
                                             f"type {c.get('type')!r} is neither min nor max")
            out.append({"id": c.get("id"), "type": _word(c.get("type")), "field": _word(c.get("field", "")),
                        "scope": _word(c.get("scope", "parent")),
                        "value": number(self.source, f"<constraint id={c.get('id')!r}> of {where}", c.get("value")),
                        "percent": truth(c.get("percentValue")), "shared": c.get("shared") != "false",
                        "where": where, **self.reach(c)})
        return out

    def modifiers(self, element: Element, where: str) -> list[dict]:
        out = []
        for m in kids(element, "modifiers"):
            out.append({"type": _word(m.get("type", "")), "field": _word(m.get("field", "")),
                        "value": _word(m.get("value", "")),
                        "when": self.group(m, "and"), "where": where,
                        "repeats": [self.condition(r, where) for r in kids(m, "repeats")]})
        return out

    def modifier_groups(self, element: Element, where: str) -> list[dict]:
        """`modifierGroups`: their modifiers under the group's own conditions and repeats, nested."""
        return [{"when": self.group(g, "and"), "repeats": [self.condition(r, where) for r in kids(g, "repeats")],
                 "modifiers": self.modifiers(g, where), "groups": self.modifier_groups(g, where)}
                for g in kids(element, "modifierGroups")]

    @staticmethod
    def reach(element: Element) -> dict:
        """How far a constraint, condition or repeat counts: shared, child selections, child forces."""
        return {"shared": element.get("shared") != "false",
                "include_child_selections": truth(element.get("includeChildSelections")),
                "include_child_forces": truth(element.get("includeChildForces"))}

    def group(self, element: Element, kind: str) -> dict:
        return {"type": kind, "conditions": [self.condition(c, "") for c in kids(element, "conditions")],
                "groups": [self.group(g, g.get("type", "and")) for g in kids(element, "conditionGroups")]}

    def condition(self, element: Element, where: str) -> dict:
        key = tuple(element.attrib.items())
        found = self.conditions.get(key)
        if found is None:
            found = self.conditions[key] = self._condition(element, where)
        return found

    def _condition(self, element: Element, where: str) -> dict:
        element_name = f"<{local(element.tag)}> of {where}" if where else f"<{local(element.tag)}>"
        return {"type": _word(element.get("type", "")), "field": _word(element.get("field", "")),
                "scope": _word(element.get("scope", "")), "child": _word(element.get("childId", "any")),
                "value": number(self.source, element_name, element.get("value")),
                "percent": truth(element.get("percentValue")),
                "repeats": int(number(self.source, element_name, element.get("repeats"), 1)),
                "round_up": truth(element.get("roundUp")), "child_given": element.get("childId") is not None,
                **self.reach(element)}


def _word(value: str | None) -> str | None:
    """An attribute value that many elements repeat (a type, field, scope, a category's or child's id) as
    one string: the parser makes a string per attribute, 20 MB of them for New Recruit's Old World data."""
    return intern(value) if value else value


def plain_document(document: Any) -> dict:
    """A document's plain data (sources.Document: read once, when the file was read)."""
    return document.plain


MODERN = {"selectionEntries", "sharedSelectionEntries", "forceEntries", "categoryEntries", "entryLinks"}


def _force_categories(root: Element) -> list[Element]:
    """The category entries 1.16 declares inside its force entries (2.x links to the root's)."""
    found, todo = [], list(kids(root, "forceEntries"))
    while todo:
        force = todo.pop()
        found += kids(force, "categoryEntries")
        todo += kids(force, "forceEntries")
    return found


def _as_link(category: Element) -> Element:
    """A 1.16 force's own category entry as the category link 2.x writes, with its constraints and modifiers."""
    link = Element("categoryLink", {**category.attrib, "targetId": category.get("id")})
    link.extend(list(category))
    return link


def read_plain(source: str, root: Element) -> dict:
    """An XML root as plain data, whichever schema it is written in; `source` names the file in errors."""
    version = root.get("battleScribeVersion", "2")
    # 1.16 (BSData Mordheim of 2016) writes 2.x's elements under a 1.x number: read by what it holds
    if version.split(".")[0] in ("0", "1") and not any(local(c.tag) in MODERN for c in root):
        return LegacyReader(source, root).read()
    return Reader(source, root).read()


def description(rule: Element) -> str:
    """A rule's text (its <description>), whitespace as written, capped like any text we keep."""
    found = next((c for c in rule if local(c.tag) == "description"), None)
    return ((found.text or "").strip() if found is not None else "")[:4000]
