"""One BattleScribe catalogue (with its game system) as a book of our rules data: the names, prices,
tags and profiles of its entries, which the site lists, prices and maps our system's rules by.

Root selection entries become entries: the unit's cost its `base_points`, its model child (type
"model"; in 1.x the child that must be taken at least once and may be taken more) its size and cost
per model. Every other selection below becomes an option: nested ones `requires` the option above,
those below the model are `per_model`; plain maximums become option maximums and unit sizes. Every list
of such a book is a roster tree judged by BattleScribe's own semantics over the stored game data
(rules/battlescribe/): the book's rules are its points limit only, and what of the catalogue's
constraints and modifiers the evaluator checks is counted by coverage.py. (Until issue 37 the
constraints became `tally_limit` rules judging lists in a flattened shape: a second copy of the
semantics, retired.) Each force after the first is a composition, named so the roster reader finds it.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from armylists.importers.battlescribe.coverage import Coverage, child_tag, number_of, scope_of, static_truth, tag
from armylists.importers.battlescribe.names import Ids, profile_text

MAX_DEPTH = 12  # links may form cycles; no catalogue we know nests half as deep
UNLIMITED = 100  # an option without a maximum may be taken this often
OTHER = "other"


class BookMaker:
    def __init__(self, catalogue: dict, system: dict, index: dict[str, dict], linked: list[dict], info: dict):
        self.catalogue, self.system, self.index, self.linked, self.info = catalogue, system, index, linked, info
        self.cost = info["cost_type"]
        self.costs = set(system["cost_types"]) | set(catalogue["cost_types"])
        self.cov = Coverage(frozenset(self.costs), self.cost, frozenset(info["characteristics"]))
        self.categories = info["categories"]  # BattleScribe category id -> our category id
        # A shared entry is met once per unit linking it (the Old World's magic items, 200,000 times in all):
        # each link resolved and tagged once, then the answers given again (by id, object kept).
        self.resolved: dict[int, tuple[dict, dict]] = {}
        self.tagged: dict[int, tuple[dict, list[str]]] = {}

    # -- the book --------------------------------------------------------------------------------
    def make(self) -> dict:
        forces = [f for f in self.system["forces"] + self.catalogue["forces"] if f["id"] and not f.get("hidden")]
        roots = list(self.catalogue["entries"]) + list(self.system["entries"])
        for doc in self.linked:
            roots += doc["entries"]
        entry_ids = Ids()
        entries = []
        for node in roots:
            entry = self.entry(node, entry_ids)
            if entry is not None:
                entries.append(entry)
        for force in forces:
            self.force_limits(force)
        composition_ids = Ids()
        book: dict[str, Any] = {
            "kind": "book", "id": self.info["book_id"], "name": self.catalogue["name"],
            "system": self.info["system_id"], "version": self.info["version"],
            "sources": [self.info["credit"]], "imported": True, "entries": entries,
            "rules": [{"id": "points-limit", "type": "points_limit", "source": self.info["credit"]}],
        }
        if len(forces) > 1:  # the forces a roster may open, named as the data names them
            book["compositions"] = [{"id": composition_ids(f["name"]), "name": f["name"], "source": self.info["credit"],
                                     "rules": []} for f in forces[1:]]
        return book

    # -- links -----------------------------------------------------------------------------------
    def resolve(self, node: dict, chain: tuple[str, ...]) -> dict | None:
        """A link as its target, with the link's own limits, modifiers, categories and id added."""
        if node["kind"] != "link":
            return node
        target = self.index.get(node["target"])
        if target is None:
            self.cov.miss("link to an entry no file defines", node["where"])
            return None
        if node["target"] in chain:
            self.cov.miss("link that loops back to itself", node["where"])
            return None
        hit = self.resolved.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        merged = dict(target)
        merged.update(
            link_id=node["id"], where=node["where"], hidden=node["hidden"] or target["hidden"],
            constraints=target["constraints"] + node["constraints"], modifiers=target["modifiers"] + node["modifiers"],
            categories=target["categories"] + node["categories"], primary=node["primary"] or target["primary"],
            children=target["children"] + node["children"], costs={**target["costs"], **node["costs"]})
        if node["name"] and target["kind"] == "entry":
            merged["name"] = node["name"]
        self.resolved[id(node)] = (node, merged)
        return merged

    def tags_of(self, node: dict) -> list[str]:
        hit = self.tagged.get(id(node))
        if hit is None or hit[0] is not node:
            hit = self.tagged[id(node)] = (node, self._tags_of(node))
        return list(hit[1])

    def _tags_of(self, node: dict) -> list[str]:
        found = [tag(node["id"]), "bs-any"]
        if node.get("link_id"):
            found.append(tag(node["link_id"]))
        if node["type"]:
            found.append(child_tag(node["type"]))
        found += [tag(c) for c in node["categories"] if c]
        return list(dict.fromkeys(found))

    # -- entries ---------------------------------------------------------------------------------
    def entry(self, raw: dict, ids: Ids) -> dict | None:
        node = self.resolve(raw, ())
        if node is None or node["kind"] != "entry":
            if node is not None:
                self.cov.miss("selection group at the top level", node["where"])
            return None
        if node["hidden"] and not any(m["field"] == "hidden" for m in node["modifiers"]):
            return None
        self.cov.node(node)
        eid = ids(node["name"])
        primary = node["primary"] or (node["categories"][0] if node["categories"] else None)
        children = [self.resolve(c, (node["id"],)) for c in node["children"]]
        model = self.model_child(node, [c for c in children if c is not None])
        entry: dict[str, Any] = {"id": eid, "name": node["name"], "category": self.categories.get(primary, OTHER),
                                 "troop_type": "model", "tags": self.tags_of(node)}
        self.options, self.option_ids, self.model_tags = [], Ids(), {"bs-type-model"}
        self.option_by_id: dict[str, dict] = {}
        self.auto: dict[str, Any] = {"base": 0, "per_model": 0, "tags": []}
        ancestry = frozenset([node["id"], node.get("link_id") or node["id"], *node["categories"]])
        if model is not None:
            self.cov.node(model)
            entry["points"] = self.price(model, ancestry | {model["id"]})
            entry["base_points"] = self.price(node, ancestry)
            entry["model_tags"] = self.tags_of(model)
            self.model_tags |= set(entry["model_tags"])
            entry["size"] = self.size(model)
            self.walk(model["children"], None, True, [], 1, (node["id"], model["id"]), ancestry | {model["id"]})
        else:
            entry["points"] = self.price(node, ancestry)
            entry["size"] = {"min": 1, "max": 1}
        self.walk([raw for raw, found in zip(node["children"], children) if model is None or found is not model],
                  None, False, [], 1, (node["id"],), ancestry)
        if model is not None:
            entry["points"] += self.auto["per_model"]
            entry["base_points"] += self.auto["base"]
        else:
            entry["points"] += self.auto["base"] + self.auto["per_model"]
        entry["tags"] = list(dict.fromkeys(entry["tags"] + self.auto["tags"]))
        entry["points"] = max(0, entry["points"])  # shown so; the tree evaluator counts a negative cost as it is
        if self.options:
            entry["options"] = self.options
        text = profile_text(node, self.info["profiles"]) + (profile_text(model, self.info["profiles"]) if model else [])
        if text:
            entry["text"] = "\n".join(text)
        rules = [r for r in node["rules"]] + [self.name_of(t) for t, kind, _ in node["info_links"] if kind == "rule"]
        if rules:
            entry["rules"] = list(dict.fromkeys(r for r in rules if r))
        return entry

    def model_child(self, node: dict, children: list[dict]) -> dict | None:
        entries = [c for c in children if c["kind"] == "entry"]
        for c in entries:
            if c["type"] == "model" and node["type"] == "unit":
                return c
        if node["type"] != "unit" and not self.catalogue["schema"].startswith(("0.", "1.")):
            return None
        for c in entries:  # a unit's (or 1.x entry's) child taken at least once, and more than once if wanted
            least = [x for x in c["constraints"] if x["scope"] == "parent" and x["field"] == "selections"]
            if any(x["type"] == "min" and x["value"] >= 1 for x in least) and not any(
                    x["type"] == "max" and x["value"] == 1 for x in least):
                return c
        return None

    @staticmethod
    def size(model: dict) -> dict:
        """The unit's size from its model's plain limits in the unit (those no modifier changes)."""
        size: dict[str, int] = {"min": 1}
        changed = {m["field"] for m in model["modifiers"]}
        for c in model["constraints"]:
            if c["scope"] == "parent" and c["field"] == "selections" and not c["percent"] and c["id"] not in changed:
                if c["type"] == "min":
                    size["min"] = max(1, int(c["value"]))
                elif c["value"] >= 0:
                    size["max"] = max(1, int(c["value"]))
        if size.get("max", size["min"]) < size["min"]:
            size["max"] = size["min"]
        return size

    def price(self, node: dict, ancestry: frozenset[str], option: bool = False) -> int:
        """The node's cost in the budget's cost type as the catalogue lists it, its cost modifiers applied
        where the unit alone decides them: unconditional ones, and those whose conditions ask what the
        selection is part of (instanceOf an ancestor entry or category). A per-model increment of an
        `option` is its model_cost (model_increment). What a list's selections cost is the tree
        evaluator's; this is the price the pages show before a unit is added."""
        value = node["costs"].get(self.cost, node["costs"].get("pts", 0.0))
        for m in node["modifiers"]:
            if m["field"] not in (self.cost, "pts", "points"):
                continue
            if option and self.model_increment(m) is not None:
                continue
            holds = static_truth(m["when"], ancestry)
            if holds is None or m["repeats"] or m["type"] not in ("set", "increment", "decrement"):
                continue
            if holds:
                amount = number_of(m["value"])
                value = amount if m["type"] == "set" else value + amount if m["type"] == "increment" else value - amount
        return int(round(value))

    # -- options ---------------------------------------------------------------------------------
    def walk(self, children: list[dict], parent: str | None, per_model: bool, groups: list[str], depth: int,
             chain: tuple[str, ...], ancestry: frozenset[str]) -> None:
        for raw in children:
            node = self.resolve(raw, chain)
            if node is None:
                continue
            if depth > MAX_DEPTH:
                self.cov.miss("selection nested too deep", node["where"])
                continue
            if node["hidden"] and not any(m["field"] == "hidden" for m in node["modifiers"]):
                continue
            self.cov.node(node)
            here = chain + (node["id"],)
            inside = ancestry | {node["id"], node.get("link_id") or node["id"]}
            if node["kind"] == "group":
                group_tags = groups + [t for t in (tag(node["id"]), tag(node.get("link_id") or node["id"]))
                                       if t not in groups]
                self.walk(node["children"], parent, per_model, group_tags, depth + 1, here, inside)
                continue
            automatic = self.automatic(node) if not groups else None
            if automatic is not None:
                self.fold(node, automatic, parent, per_model, inside)
                self.walk(node["children"], parent, per_model, [], depth + 1, here, inside)
                continue
            cost = self.price(node, inside, option=not per_model)
            option: dict[str, Any] = {"id": self.option_ids(node["name"]), "name": node["name"],
                                      "cost": max(0, cost), "tags": self.tags_of(node) + groups}
            if per_model:
                option["per_model"] = True
            if parent:
                option["requires"] = [parent]
            most = self.plain_max(node)
            option["max"] = int(most) if most is not None and most >= 1 else UNLIMITED
            if most == 0:
                continue  # never selectable: a 0-0 limit with nothing to raise it
            extra = 0 if per_model else sum(self.model_increment(m) or 0 for m in node["modifiers"]
                                            if m["field"] in (self.cost, "points", "pts"))
            if extra:
                option["model_cost"] = extra
            self.options.append(option)
            self.option_by_id[option["id"]] = option
            self.walk(node["children"], option["id"], per_model, [], depth + 1, here, inside)

    @staticmethod
    def plain_max(node: dict) -> float | None:
        """The least plain maximum of a selection within its parent (one no modifier changes), or None."""
        changed = {m["field"] for m in node["modifiers"]}
        found = None
        for c in node["constraints"]:
            if (c["type"] == "max" and c["scope"] == "parent" and not c["percent"] and c["field"] == "selections"
                    and c["id"] not in changed and c["value"] >= 0):
                found = c["value"] if found is None else min(found, c["value"])
        return found

    def automatic(self, node: dict) -> dict | None:
        """The plain minimum that makes an entry part of its parent: BattleScribe adds it by itself."""
        changed = {m["field"] for m in node["modifiers"]}
        for c in node["constraints"]:
            if (c["type"] == "min" and c["scope"] == "parent" and c["field"] == "selections" and not c["percent"]
                    and c["value"] >= 1 and c["id"] not in changed and not c.get("when_taken")):
                return c
        return None

    def fold(self, node: dict, c: dict, parent: str | None, per_model: bool, ancestry: frozenset[str]) -> None:
        """A selection taken with its parent, as part of it: its cost and tags go to the parent option,
        or to the unit (its points, per model where it sits under the model)."""
        cost = self.price(node, ancestry) * int(c["value"])
        target = self.option_by_id.get(parent) if parent else None
        tags = [t for t in self.tags_of(node) if t != "bs-any"]
        if target is not None:
            target["cost"] = max(0, target["cost"] + cost)
            target["tags"] = list(dict.fromkeys(target["tags"] + tags))
        else:
            self.auto["per_model" if per_model else "base"] += cost
            self.auto["tags"] += tags

    def model_increment(self, m: dict) -> int | None:
        """A cost raised by a fixed amount per model of the unit, unconditionally (the 1.x "+2 points per
        model" option, 2.x's "increment per model in the parent"), else None."""
        if m["type"] != "increment" or len(m["repeats"]) != 1 or m["when"]["conditions"] or m["when"]["groups"]:
            return None
        r = m["repeats"][0]
        if (r["field"] != "selections" or r["value"] != 1 or r["repeats"] != 1 or scope_of(r["scope"]) != "unit"
                or child_tag(r["child"]) not in self.model_tags):
            return None
        try:
            value = float(m["value"])
        except ValueError:
            return None
        return int(value) if value.is_integer() else None

    # -- forces ----------------------------------------------------------------------------------
    def force_limits(self, force: dict) -> None:
        """A force entry's category links' limits (and its sub-forces'), which the tree evaluator checks in
        each force of the roster: counted."""
        for link in force["categories"]:
            self.cov.node({"constraints": link["constraints"], "modifiers": link["modifiers"],
                           "where": f"{force['name']} > {link['name']}"})
        for sub in force.get("forces", []):
            self.force_limits(sub)

    def name_of(self, bs_id: str) -> str:
        return self.info["rules"].get(bs_id, "")
