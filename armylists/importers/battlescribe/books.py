"""One BattleScribe catalogue (with its game system) as a book of our rules data.

Root selection entries become entries: the unit's cost its `base_points`, its model child (type
"model"; in 1.x the child that must be taken at least once and may be taken more) its size and cost
per model. Every other selection below becomes an option: nested ones `requires` the option above,
those below the model are `per_model`. Constraints become option maximums and unit sizes where they
are plain, and `tally_limit` rules (limits.py) everywhere else; force and category limits become
the book's rules, and each force after the first a composition.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from armylists.importers.battlescribe.limits import (Coverage, Rules, Shared, Unmapped, child_tag, constraint_rule,
                                                     lifted_minimum, number_of, scope_of, shown_where, static_truth, tag)
from armylists.importers.battlescribe.names import Ids, profile_text
from armylists.rules.battlescribe.effective import constraint_problem, modifier_problem

MAX_DEPTH = 12  # links may form cycles; no catalogue we know nests half as deep
UNLIMITED = 100  # an option without a maximum may be taken this often
OTHER = "other"


class BookMaker:
    def __init__(self, catalogue: dict, system: dict, index: dict[str, dict], linked: list[dict], info: dict,
                 shared: Shared | None = None):
        self.catalogue, self.system, self.index, self.linked, self.info = catalogue, system, index, linked, info
        self.shared = shared or Shared()  # what the books of one run share
        self.cost = info["cost_type"]
        self.costs = set(system["cost_types"]) | set(catalogue["cost_types"])
        self.cov = Coverage(judge=partial(tree_evaluates, frozenset(self.costs)))  # not a method: no cycle
        self.rules = Rules()
        self.categories = info["categories"]  # BattleScribe category id -> our category id
        self.forces: dict[str, str] = {}
        self.category_names = {**system["categories"], **catalogue["categories"]}
        # A shared entry is met once per unit linking it (the Old World's magic items, 200,000 times in all):
        # each link resolved, tagged and limited once, then the answers given again (by id, object kept).
        self.resolved: dict[int, tuple[dict, dict]] = {}
        self.tagged: dict[int, tuple[dict, list[str]]] = {}
        self.limited: dict[tuple, tuple[dict, float | None, list[str]]] = {}

    # -- the book --------------------------------------------------------------------------------
    def make(self) -> dict:
        forces = [f for f in self.system["forces"] + self.catalogue["forces"] if f["id"] and not f.get("hidden")]
        composition_ids = Ids()
        for i, force in enumerate(forces):
            self.forces[force["id"]] = "" if i == 0 else composition_ids(force["name"])
        self.once = self.shared.once(self.forces, self.costs)  # modifiers and conditions, each converted once
        roots = list(self.catalogue["entries"]) + list(self.system["entries"])
        for doc in self.linked:
            roots += doc["entries"]
        entry_ids = Ids()
        entries = []
        for node in roots:
            entry = self.entry(node, entry_ids)
            if entry is not None:
                entries.append(entry)
        book_rules = [{"id": "points-limit", "type": "points_limit", "source": self.info["credit"]}]
        compositions = []
        default_ids: list[str] = []
        force_limits: dict[str, list[str]] = {}
        for i, force in enumerate(forces):
            force_limits[force["id"]] = ids = self.force_rules(force)
            if i == 0:
                default_ids = ids
        # All limits of the book in one tally_limits rule, those of each force in one of their own: the
        # engine then judges only the limits a list can break (checks/tallies.py), and a composition
        # (a force after the first) replaces the first force's rule with its own.
        self.rules.done()
        forced = {rid for ids in force_limits.values() for rid in ids}
        book_rules.append(self.group("bs-limits", [rid for rid in self.rules if rid not in forced]))
        if default_ids:
            book_rules.append(self.group("bs-force-limits", default_ids))
        for force in forces[1:]:
            cid = self.forces[force["id"]]
            compositions.append({"id": cid, "name": force["name"], "source": self.info["credit"],
                                 "rules": [self.group(f"bs-{cid}-limits", force_limits[force["id"]])]
                                 if force_limits[force["id"]] else [],
                                 **({"replace_rules": ["bs-force-limits"]} if default_ids else {})})
        book: dict[str, Any] = {
            "kind": "book", "id": self.info["book_id"], "name": self.catalogue["name"],
            "system": self.info["system_id"], "version": self.info["version"],
            "sources": [self.info["credit"]], "imported": True, "entries": entries, "rules": book_rules,
        }
        if compositions:
            book["compositions"] = compositions
        book["unchecked"] = [f"Not checked, {kind}: {where}" + (f" ({n} times)" if n > 1 else "")
                             for (kind, where), n in sorted(self.cov.unchecked.items())]
        return book

    def group(self, rid: str, ids: list[str]) -> dict:
        return {"id": rid, "type": "tally_limits", "source": self.info["credit"],
                "params": {"limits": [{"id": i, **self.rules[i]} for i in ids]}}

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
        eid = ids(node["name"])
        primary = node["primary"] or (node["categories"][0] if node["categories"] else None)
        children = [self.resolve(c, (node["id"],)) for c in node["children"]]
        model = self.model_child(node, [c for c in children if c is not None])
        entry: dict[str, Any] = {"id": eid, "name": node["name"], "category": self.categories.get(primary, OTHER),
                                 "troop_type": "model", "tags": self.tags_of(node)}
        self.eid, self.options, self.option_ids, self.model_tags = eid, [], Ids(), {"bs-type-model"}
        self.option_by_id: dict[str, dict] = {}
        self.hiders: list[dict] = []  # the selections being walked whose modifiers may hide what is inside
        self.auto: dict[str, Any] = {"base": 0, "per_model": 0, "tags": []}
        ancestry = frozenset([node["id"], node.get("link_id") or node["id"], *node["categories"]])
        self.limits(node, entry["tags"][:1], root=True, per_model=False, priced=True)
        if model is not None:
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
        if entry["points"] < 0:
            self.cov.miss("a negative cost (taken as 0)", node["where"], node)
            entry["points"] = 0
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

    def size(self, model: dict) -> dict:
        """The unit's size from its model's plain limits in the unit; limits with modifiers become rules."""
        size: dict[str, int] = {"min": 1}
        changed = {m["field"] for m in model["modifiers"]}
        done = set()
        for c in model["constraints"]:
            if c["scope"] == "parent" and c["field"] == "selections" and not c["percent"] and c["id"] not in changed:
                self.cov.constraints_checked.add(id(c))
                done.add(id(c))
                if c["type"] == "min":
                    size["min"] = max(1, int(c["value"]))
                elif c["value"] >= 0:
                    size["max"] = max(1, int(c["value"]))
        if size.get("max", size["min"]) < size["min"]:
            size["max"] = size["min"]
        self.limits(model, [tag(model["id"])], root=False, per_model=False, native=False, done=frozenset(done),
                    priced=True)
        return size

    def price(self, node: dict, ancestry: frozenset[str], option: bool = False) -> int:
        """The node's cost in the budget's cost type, its cost modifiers applied where the unit alone
        decides them: unconditional ones, and those whose conditions ask what the selection is part of
        (instanceOf an ancestor entry or category). A per-model increment of an `option` is its
        model_cost (model_increment); any other is listed as not checked."""
        value = node["costs"].get(self.cost, node["costs"].get("pts", 0.0))
        for m in node["modifiers"]:
            if m["field"] not in (self.cost, "pts", "points"):
                continue
            if option and self.model_increment(m) is not None:
                self.cov.modifiers_checked.add(id(m))
                continue
            holds = static_truth(m["when"], ancestry)
            if holds is None or m["repeats"] or m["type"] not in ("set", "increment", "decrement"):
                self.cov.miss(f"cost {m['type']} with conditions", m["where"], m)
                continue
            self.cov.modifiers_checked.add(id(m))
            if holds:
                amount = number_of(m["value"])
                value = amount if m["type"] == "set" else value + amount if m["type"] == "increment" else value - amount
        if not float(value).is_integer():
            self.cov.miss(f"cost of {value:g} (rounded)", node["where"], node)
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
            here = chain + (node["id"],)
            inside = ancestry | {node["id"], node.get("link_id") or node["id"]}
            if node["kind"] == "group":
                group_tags = groups + [t for t in (tag(node["id"]), tag(node.get("link_id") or node["id"]))
                                       if t not in groups]
                self.limits(node, [tag(node["id"])], root=False, per_model=per_model, native=False,
                            within=self.within(parent))
                self.descend(node, node["children"], parent, per_model, group_tags, depth + 1, here, inside)
                continue
            automatic = self.automatic(node) if not groups else None
            if automatic is not None:
                self.fold(node, automatic, parent, per_model, inside)
                self.descend(node, node["children"], parent, per_model, [], depth + 1, here, inside)
                continue
            cost = self.price(node, inside, option=not per_model)
            option: dict[str, Any] = {"id": self.option_ids(node["name"]), "name": node["name"],
                                      "cost": max(0, cost), "tags": self.tags_of(node) + groups}
            if cost < 0:
                self.cov.miss("a negative cost (taken as 0)", node["where"], node)
            if per_model:
                option["per_model"] = True
            if parent:
                option["requires"] = self.shared.list([parent])
            native = self.limits(node, [tag(node["id"])], root=False, per_model=per_model, priced=True,
                                 within=self.within(parent))
            option["max"] = int(native) if native is not None and native >= 1 else UNLIMITED
            if native == 0:
                continue  # never selectable: a 0-0 limit with nothing to raise it
            extra = 0 if per_model else sum(self.model_increment(m) or 0 for m in node["modifiers"]
                                            if m["field"] in (self.cost, "points", "pts"))
            if extra:
                option["model_cost"] = extra
            self.options.append(option)
            self.option_by_id[option["id"]] = option
            self.descend(node, node["children"], option["id"], per_model, [], depth + 1, here, inside)

    def descend(self, node: dict, children: list[dict], *walk_args: Any) -> None:
        """Walk a node's children, the node counted among those that may hide them."""
        hides = node["hidden"] or any(m["field"] == "hidden" for m in node["modifiers"])
        if hides:
            self.hiders.append(node)
        self.walk(children, *walk_args)
        if hides:
            self.hiders.pop()

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
        self.cov.constraints_checked.add(id(c))
        self.limits(node, [tag(node["id"])], root=False, per_model=per_model, priced=True, done=frozenset([id(c)]),
                    within=self.within(parent))
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

    # -- constraints and modifiers ---------------------------------------------------------------
    def within(self, parent: str | None) -> str | None:
        """The tag of the option a selection sits in (None: in the unit itself)."""
        return self.option_by_id[parent]["tags"][0] if parent in self.option_by_id else None

    def limits(self, node: dict, count: list[str], root: bool, per_model: bool, native: bool = True,
               priced: bool = False, done: frozenset[int] = frozenset(), within: str | None = None) -> float | None:
        """_limits, once per node met in the same place (the same count, scope, option above, and the same
        selections above it that may hide it): met again (a shared entry in another unit), its rules only
        gain the unit among their entries, and what it counted (coverage, by element) is counted already."""
        # Only minimums read `within` and what hides the node (hidden_minimum: the selections walked that
        # may hide it, each kept by resolve or the plain data, so their ids stay theirs).
        minimum = any(c["type"] == "min" for c in node["constraints"])
        key = (id(node), tuple(count), root, per_model, native, priced, done, within if minimum else None,
               tuple(map(id, self.hiders)) if minimum else ())
        hit = self.limited.get(key)
        if hit is not None and hit[0] is node:
            for rid in hit[2]:
                self.rules.add_entries(rid, [self.eid])
            return hit[1]
        self.rules.touched = []
        found = self._limits(node, count, root, per_model, native, priced, done, within)
        self.limited[key] = (node, found, self.rules.touched)
        self.rules.touched = None
        return found

    def _limits(self, node: dict, count: list[str], root: bool, per_model: bool, native: bool, priced: bool,
                done: frozenset[int], within: str | None) -> float | None:
        """Rules for a node's constraints and modifiers; returns the plain maximum within its parent,
        when there is one and `native` allows it (the option's own `max`). The cost modifiers of a `priced`
        node are price()'s; `done` are constraints the caller
        has mapped (a unit's size); `within` is the tag of the option the node sits in, whose unit's
        minimums hold only where that option is taken (BattleScribe checks a child only in its parent). A shared entry is met once per unit that links it, each time with
        that link's own modifiers, so every meeting is mapped again (the same rule only gains entries)."""
        found = None
        by_id = {c["id"]: c for c in node["constraints"]}
        mods: dict[str, list[dict]] = {}
        for m in node["modifiers"]:
            self.cov.modifiers.add(id(m))
            if m["field"] in by_id:
                mods.setdefault(m["field"], []).append(m)
            elif m["field"] == "hidden":
                pass  # below
            elif m["field"] in (self.cost, "points", "pts"):
                if not priced:
                    self.cov.miss(f"cost {m['type']} of a group or category", m["where"], m)
            elif m["field"] in self.costs:
                self.cov.display.add(id(m))
                self.cov.miss("a second cost (not the budget's)", m["where"], m)
            elif m["field"] in ("name",) or m["type"] in ("append", "prepend") or self.is_characteristic(m["field"]):
                self.cov.display.add(id(m))
                self.cov.miss("name or profile modifier (display only)", m["where"], m)
            else:
                self.cov.miss(f"modifier {m['type']} of {m['field'] or 'nothing'}", m["where"], m)
        for c in node["constraints"]:
            self.cov.constraints.add(id(c))
            if id(c) in done:
                continue
            scope = "roster" if root else scope_of(c["scope"])
            plain = (native and not root and c["type"] == "max" and c["scope"] == "parent" and not c["percent"]
                     and c["field"] == "selections" and c["id"] not in mods and c["value"] >= 0)
            if plain:
                found = c["value"] if found is None else min(found, c["value"])
                self.cov.constraints_checked.add(id(c))
                continue
            if c.get("when_taken") and c["value"] <= 1 and c["id"] not in mods:
                self.cov.constraints_checked.add(id(c))  # taken at all, it is taken once: nothing to check
                continue
            try:
                modifiers = [self.once.bound(m, c["type"], self) for m in mods.get(c["id"], [])]
                if c["type"] == "min":  # no minimum where the catalogue hides the selection
                    modifiers += self.hidden_minimum(node)
                if c["type"] == "min" and within and scope == "unit":  # only where the option above is taken
                    modifiers.append({"target": "min", "op": "set", "value": 0,
                                      "when": {"tally": {"count": [within], "scope": "unit"}, "is": "equalTo", "value": 0}})
                if c.get("when_taken"):  # the minimum holds only where the selection is taken
                    modifiers.append({"target": "min", "op": "set", "value": 0,
                                      "when": {"tally": {"count": count, "scope": scope}, "is": "equalTo", "value": 0}})
                params = constraint_rule(c, count, node["name"], scope, [self.eid], per_model and scope == "unit",
                                         modifiers, self.costs)
            except Unmapped as exc:
                self.cov.miss(str(exc), c["where"], c)
                for m in mods.get(c["id"], []):
                    self.cov.miss(f"modifier of a limit not checked ({exc})", m["where"], m, frozenset([c["id"]]))
                continue
            self.rules.add(c["id"], params)
            self.cov.constraints_checked.add(id(c))
            self.cov.modifiers_checked.update(id(m) for m in mods.get(c["id"], []))
        hidden = [m for m in node["modifiers"] if m["field"] == "hidden"]
        if hidden:
            self.availability(node, count, root, hidden)
        return found

    def hidden_minimum(self, node: dict) -> list[dict]:
        """Modifiers that lift a minimum wherever the node, or a selection it sits in, is hidden: a
        minimum of what the catalogue does not offer asks nothing."""
        changes = []
        for hider in [*self.hiders, node]:
            hiding = [m for m in hider["modifiers"] if m["field"] == "hidden"]
            change = self.once.answer(("hides", hider["hidden"], *map(id, hiding)), hiding,
                                      lambda: lifted_minimum(hider["hidden"], hiding, self.once, self))
            if change is not None:
                changes.append(change)
        return changes

    def availability(self, node: dict, count: list[str], root: bool, hidden: list[dict]) -> None:
        """Hidden where conditions hold: at most 0 taken there (and the reverse for one hidden by default)."""
        try:
            modifiers = list(self.once.answer(("shown", *map(id, hidden)), hidden, lambda: shown_where(hidden, self.once, self)))
        except Unmapped as exc:
            for m in hidden:
                self.cov.miss(str(exc), m["where"], m)
            return
        params: dict[str, Any] = {"label": f"{node['name']} (only where the catalogue offers it)", "count": count,
                                  "max": 0 if node["hidden"] else -1, "modifiers": modifiers}
        if not root:
            params.update(scope="unit", entries=[self.eid])
        self.rules.add(f"hidden-{node.get('link_id') or node['id']}", params)
        self.cov.modifiers_checked.update(id(m) for m in hidden)

    def is_characteristic(self, fieldname: str) -> bool:
        return fieldname in self.info["characteristics"]

    # -- forces and categories -------------------------------------------------------------------
    def force_rules(self, force: dict) -> list[str]:
        before = set(self.rules)
        for link in force["categories"]:
            self.eid = ""
            node = {"id": link["target"], "name": self.category_names.get(link["target"], link["name"]),
                    "constraints": link["constraints"], "modifiers": link["modifiers"], "hidden": False,
                    "where": f"{force['name']} > {link['name']}"}
            self.limits(node, [tag(link["target"])], root=True, per_model=False, native=False)
        for sub in force.get("forces", []):
            self.force_rules(sub)
        return [r for r in self.rules if r not in before]

    def name_of(self, bs_id: str) -> str:
        return self.info["rules"].get(bs_id, "")


def tree_evaluates(costs: frozenset[str], element: dict, constraint_ids: frozenset) -> str | None:
    """Why the tree evaluator would not evaluate a modifier, constraint or cost this book's rules do not
    map, or None where it does: it computes names, every cost type, fractions and negative costs as they
    are (a node here), categories, messages, several repeats, percentages of selections."""
    if "kind" in element:
        return None
    if "when" in element:
        return modifier_problem(element, set(costs), set(constraint_ids))
    return constraint_problem(element, set(costs))
