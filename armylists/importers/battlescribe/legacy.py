"""The legacy BattleScribe schema (1.x, as in The 9th Age v0.11's 2016 data) read into plain.py's shape.

1.x keeps limits as attributes (minSelections/maxSelections in the parent, min/maxInForce,
min/maxInRoster, min/maxPoints, and a category's min/maxPercentage of the force); they become
constraints with the ids "<entry id>/<attribute>", which the modifiers naming that attribute change.
An entry's minSelections counts only when it is taken (a magic item's 1 of 1), as BattleScribe
1.x offered it; InForce and InRoster limits count the entry at any depth (child selections included).
The evaluator's keys are added beside: category links (a force type's categories, an entry's categoryId
as its primary), category entries and the cost type. 1.x has one cost, its points; BattleScribe converts
legacy data to a cost type of id `points` (as Mordheim's .gst and New Recruit's Old World .gst still
declare it: `costType id="points" name="pts"`), so a roster BattleScribe saves of such
data names `points`, and so does this reader (POINTS, named "pts"). Data read before (stored with its
books, and rosters our writer wrote of it) named it `pts`: GameData.cost_type_id takes either id for a
legacy document's points. A 1.x modifier's `repeat` with
`incrementParentId`/`incrementChildId`/`incrementField`/`incrementValue` becomes a repeat; `show`/`hide` become "set hidden"; a condition's `parentId` becomes its scope.
"""
from __future__ import annotations

from xml.etree.ElementTree import Element

from armylists.importers.battlescribe.elements import BattleScribeInputError, kids, local, number, revision, truth

LIMITS = {  # attribute -> (constraint type, field, scope)
    "minSelections": ("min", "selections", "parent"), "maxSelections": ("max", "selections", "parent"),
    "minInForce": ("min", "selections", "force"), "maxInForce": ("max", "selections", "force"),
    "minInRoster": ("min", "selections", "roster"), "maxInRoster": ("max", "selections", "roster"),
    "minPoints": ("min", "points", "parent"), "maxPoints": ("max", "points", "parent"),
    "minPercentage": ("min", "limit::points", "roster"), "maxPercentage": ("max", "limit::points", "roster"),
}
# a modifier's field -> the attribute it changes (1.x writes "minSelection" for "minSelections")
FIELDS = {"minSelection": "minSelections", "maxSelection": "maxSelections", "minPercentag": "minPercentage",
          **{k: k for k in LIMITS}}
CONDITION_TYPES = {"equal to": "equalTo", "not equal to": "notEqualTo", "at least": "atLeast", "at most": "atMost",
                   "greater than": "greaterThan", "less than": "lessThan", "instance of": "instanceOf",
                   "not instance of": "notInstanceOf"}
SCOPES = {"roster": "roster", "force type": "force", "direct parent": "parent", "category": "force"}
CONDITION_FIELDS = {"points limit": "limit::points", "points": "points", "selections": "selections"}
POINTS = {"id": "points", "name": "pts", "hidden": False}   # the cost type BattleScribe converts 1.x points to


class LegacyReader:
    def __init__(self, source: str, root: Element):
        self.source = source
        self.root = root
        self.category_ids: set[str] = set()

    def read(self) -> dict:
        root = self.root
        tag = local(root.tag)
        if tag not in ("gameSystem", "catalogue"):
            raise BattleScribeInputError(self.source, f"<{tag}>", "is not a BattleScribe game system or catalogue")
        if not root.get("id") or not root.get("name"):
            raise BattleScribeInputError(self.source, f"<{tag}>", "has no id or name")
        where = root.get("name")
        # A repeat "per 1% of <category>" names the category as incrementParentId and no child.
        self.category_ids = {e.get("id") for e in root.iter() if local(e.tag) == "category"}
        categories: dict[str, str] = {}
        forces = [self.force(f, where, categories) for f in kids(root, "forceTypes")]
        data = {
            "kind": "system" if tag == "gameSystem" else "catalogue", "id": root.get("id"), "name": root.get("name"),
            "revision": revision(self.source, f"<{tag}> revision", root.get("revision")),
            "schema": root.get("battleScribeVersion", ""), "game_system": root.get("gameSystemId"),
            "library": False, "source": self.source, "cost_types": {POINTS["id"]: POINTS["name"]},
            "categories": categories, "forces": forces,
            "entries": [self.node(e, "entry", where) for e in kids(root, "entries", "entry")]
            + [self.node(x, "link", where) for x in kids(root, "links", "link") if x.get("linkType") == "entry"],
            "shared": {}, "rules": {}, "profiles": {}, "catalogue_links": [],
            # the tree evaluator's keys (2.x names): the cost type, the categories as entries
            "cost_type_list": [dict(POINTS)],
            "category_entries": [{"id": cid, "name": name, "constraints": [], "modifiers": []}
                                 for cid, name in categories.items()],
        }
        for e in kids(root, "sharedEntries", "entry"):
            data["shared"][e.get("id")] = self.node(e, "entry", where)
        for g in kids(root, "sharedEntryGroups", "entryGroup"):
            data["shared"][g.get("id")] = self.node(g, "group", where)
        for r in kids(root, "sharedRules"):
            data["rules"][r.get("id")] = r.get("name", "")
        for p in kids(root, "sharedProfiles"):
            data["profiles"][p.get("id")] = {"name": p.get("name", ""), "type": "", "characteristics": [
                (c.get("name", ""), c.get("value", "")) for c in kids(p, "characteristics")]}
        return data

    def force(self, element: Element, where: str, categories: dict[str, str]) -> dict:
        name = element.get("name", "")
        here = f"{where} > {name}"
        links = []
        for c in kids(element, "categories", "category"):
            categories.setdefault(c.get("id"), c.get("name", ""))
            mods = self.modifiers(c, f"{here} > {c.get('name')}", c.get("id"))
            links.append({"target": c.get("id"), "name": c.get("name", ""), "modifiers": mods,
                          "constraints": self.limits(c, f"{here} > {c.get('name')}", mods)})
        # a force type's categories with their limits, as the evaluator reads a force entry's category links
        category_links = [{"id": link["target"], "target": link["target"], "name": link["name"], "primary": False,
                           "hidden": False, "constraints": link["constraints"], "modifiers": link["modifiers"],
                           "modifier_groups": []} for link in links]
        return {"id": element.get("id"), "name": name, "constraints": [], "modifiers": [], "categories": links,
                "category_links": category_links,
                "forces": [self.force(f, here, categories) for f in kids(element, "forceTypes")]}

    def node(self, element: Element, kind: str, where: str) -> dict:
        name = element.get("name", "")
        here = f"{where} > {name}"
        if not element.get("id"):
            raise BattleScribeInputError(self.source, f"<{local(element.tag)} name={name!r}>", "has no id")
        if local(element.tag) == "link":
            if not element.get("targetId"):
                raise BattleScribeInputError(self.source, f"<link id={element.get('id')!r}>", "has no targetId")
            mods = self.modifiers(element, here, element.get("targetId"))
            return {"kind": "link", "id": element.get("id"), "name": "", "type": "", "target": element.get("targetId"),
                    "hidden": False, "collective": False, "default": None, "costs": {}, "constraints": [],
                    "modifiers": mods, "children": [], "categories": [], "primary": None, "profiles": [], "rules": [],
                    "info_links": [], "where": here}
        children = [self.node(e, "entry", here) for e in kids(element, "entries", "entry")]
        children += [self.node(g, "group", here) for g in kids(element, "entryGroups", "entryGroup")]
        links = kids(element, "links", "link")
        children += [self.node(x, "link", here) for x in links if x.get("linkType") in ("entry", "entry group")]
        category = element.get("categoryId")
        mods = self.modifiers(element, here, element.get("id"))
        costs = {POINTS["id"]: number(self.source, f"<entry> {here}", element.get("points"))} if kind == "entry" else {}
        return {
            "kind": kind, "id": element.get("id"), "name": name, "type": element.get("type", ""), "target": None,
            "hidden": truth(element.get("hidden")), "collective": truth(element.get("collective")),
            "default": element.get("defaultEntryId"), "costs": costs,
            "constraints": self.limits(element, here, mods), "modifiers": mods, "children": children,
            "categories": [category] if category and category != "(No Category)" else [],
            "primary": category if category and category != "(No Category)" else None,
            # 1.x: an entry's one category is its primary one (the evaluator's category link)
            "category_links": [{"id": f"{element.get('id')}/category", "target": category, "primary": True,
                                "hidden": False, "constraints": [], "modifiers": []}]
            if category and category != "(No Category)" else [],
            "profiles": [{"name": p.get("name", ""), "type": "", "characteristics": [
                (c.get("name", ""), c.get("value", "")) for c in kids(p, "characteristics")]}
                for p in kids(element, "profiles")],
            "rules": [r.get("name", "") for r in kids(element, "rules")], "where": here,
            "info_links": [(x.get("targetId"), x.get("linkType"), "") for x in links
                           if x.get("linkType") not in ("entry", "entry group")],
        }

    def limits(self, element: Element, where: str, modifiers: list[dict]) -> list[dict]:
        """The limit attributes that say something (min above 0, max not -1), or that a modifier changes."""
        owner = element.get("id")
        changed = {m["field"] for m in modifiers}
        out = []
        for attribute, (kind, field, scope) in LIMITS.items():
            raw = element.get(attribute)
            if raw is None:
                continue
            value = number(self.source, f"{attribute} of {where}", raw)
            default = 0 if kind == "min" else -1
            cid = f"{owner}/{attribute}"
            if value == default and cid not in changed:
                continue
            out.append({"id": cid, "type": kind, "field": field, "scope": scope, "value": value,
                        "percent": attribute.endswith("Percentage"), "shared": True, "where": where,
                        # 1.x: min/maxInForce and min/maxInRoster count the entry wherever it is taken in
                        # the force or roster (an item "one per army" sits under a character)
                        "include_child_selections": scope in ("force", "roster"),
                        # 1.x: an entry's minSelections is how many are taken when it is taken at all
                        "when_taken": attribute == "minSelections" and local(element.tag) == "entry"})
        return out

    def modifiers(self, element: Element, where: str, owner: str | None) -> list[dict]:
        out = []
        for m in kids(element, "modifiers"):
            kind, field, value = m.get("type", ""), m.get("field", ""), m.get("value", "")
            if kind in ("show", "hide"):
                kind, field, value = "set", "hidden", "true" if kind == "hide" else "false"
            elif field in FIELDS:
                field = f"{owner}/{FIELDS[field]}"
            repeats = []
            if truth(m.get("repeat")):
                # incrementField "percent": each incrementValue percent of the points limit the child's points make;
                # a field we do not know stays itself, so that it is reported unchecked rather than misread
                step = m.get("incrementField") or "selections"
                parent, child = m.get("incrementParentId", ""), self.child(m.get("incrementChildId"))
                if child == "any" and parent in self.category_ids:  # the category's own selections in the force
                    parent, child = "force type", parent
                repeats.append({"type": "", "field": "points" if step == "percent" else CONDITION_FIELDS.get(step, step),
                                "scope": self.scope(parent), "child": child,
                                "value": number(self.source, f"<modifier> of {where}", m.get("incrementValue"), 1),
                                "percent": step == "percent", "round_up": False,
                                **({"of_limit": True} if step == "percent" else {}),
                                "repeats": int(number(self.source, f"<modifier> of {where}", m.get("numRepeats"), 1))})
            out.append({"type": kind, "field": field, "value": value, "when": self.group(m, "and"),
                        "repeats": repeats, "where": where})
        return out

    def group(self, element: Element, kind: str) -> dict:
        return {"type": kind, "conditions": [self.condition(c) for c in kids(element, "conditions")],
                "groups": [self.group(g, g.get("type", "and")) for g in kids(element, "conditionGroups")]}

    def condition(self, element: Element) -> dict:
        return {"type": CONDITION_TYPES.get(element.get("type", ""), element.get("type", "")),
                "field": CONDITION_FIELDS.get(element.get("field", ""), element.get("field", "")),
                "scope": self.scope(element.get("parentId", "")), "child": self.child(element.get("childId")),
                "value": number(self.source, "<condition>", element.get("value")), "percent": False,
                "repeats": 1, "round_up": False}

    @staticmethod
    def scope(parent: str) -> str:
        return SCOPES.get(parent, parent or "parent")

    @staticmethod
    def child(child: str | None) -> str:
        return "any" if child in (None, "", "no child") else child
