"""Rules and `unchecked` lines of an OWB army's book.

`RulesMixin` is part of `army.ArmyConverter`. Rules are gathered per OWB composition (the army's
own id is the Grand Army), then placed: the Grand Army's are the book's `rules`; another composition
replaces those it does not share (and the system's category percentages, which OWB's data does not
give for it) and adds its own. What is not offered in a composition is one `count` rule (at most 0)
for all its units, one for all its items, and one per option or mount, since the Report shows every
count rule as a line.
"""
from __future__ import annotations

import json
import re
from typing import Any

from armylists.importers.owb.compositions import SOURCE as PERCENT_SOURCE, category_bounds
from armylists.importers.owb.data import display, english, slug, title
from armylists.importers.owb.notes import parse_note

FORBIDDEN = "Old World Builder: not offered in this composition"
FORBIDDING = " (not in {composition})"
TOPICS = {
    "needs-item": "Choices OWB offers only with an item (an honour, a magic weapon) are not checked for that item",
    "always": "Options OWB adds by itself in some compositions must be chosen by hand there",
    "stack-min": "Upgrades with a minimum count are not checked for that minimum",
    "mount-twice": "Mounts OWB lists twice for one unit keep their first price",
    "command-composition": "Command models OWB allows only in some compositions are allowed in all",
    "command-magic": "Command options that carry their own magic items cannot take them here",
    "allowance-sum": "Models with several item allowances (magic items plus runes, virtues, gifts...) are checked "
                     "against one allowance, their sum",
    "allowance-composition": "Item allowances of entries offered only in some compositions, where those compositions' differ, are checked against the largest",
    "per-model-item": "Items OWB prices per model for units are priced as for one model",
    "battle-march-item": "Items OWB allows only in Battle March games are allowed in every game",
    "non-exclusive-item": "Items that may be combined with another of their kind count as one of that kind",
    "foreign-notes": "Limits of mercenaries hired from other armies (their notes there) are not checked",
    "detachment": "Detachments are entries of their own; their parent regiment and size are not checked",
}


def _key(name: str) -> str:
    """A name as notes may write it: case, punctuation and "the" do not matter."""
    words = re.sub(r"[^a-z0-9 ]", " ", display(name).lower()).split()
    return " ".join(w for w in words if w != "the")


class RulesMixin:
    def _add_rule(self, comp: str, rule: dict) -> None:
        self.rules[comp].setdefault(json.dumps(rule, sort_keys=True), rule)

    def _forbid(self, select: dict, label: str, comps: set[str]) -> None:
        """Not offered in `comps`: gathered per composition, so one rule covers all units, one all items,
        and one each option or mount (the Report shows every count rule as a line)."""
        kind = next((k for k in ("option", "mount", "item", "general") if k in select), "entry")
        for comp in comps:
            if kind == "entry":
                key: tuple = ("entry", "Units")
            elif kind == "item":
                key = ("item", "Items")
            else:
                key = (kind, select[kind], label)
            bucket = self.forbidden.setdefault(comp, {}).setdefault(key, [])
            bucket.append(select["item"] if kind == "item" else select["entry"])

    def _forbid_rules(self) -> None:
        for comp, found in self.forbidden.items():
            for key, ids in found.items():
                ids = sorted(set(ids))
                name = self._composition_name(comp)
                if key[0] in ("entry", "item"):
                    select: dict = {key[0]: ids}
                    label = f"{key[1]} not offered in {name}"
                else:
                    select = {"entry": ids, key[0]: key[1]}
                    label = key[2] + FORBIDDING.format(composition=name)
                self._add_rule(comp, {"type": "count", "params": {"select": select, "label": label, "max": 0},
                                      "source": FORBIDDEN})

    def _note_rules(self) -> None:
        """The units' notes, per composition, as count and ratio rules."""
        index: dict[str, list[tuple[str, set[str]]]] = {}
        for entry, _, _, comps, _ in self.units:
            key = _key(entry["name"])
            for k in {key, key.rstrip("s")}:
                index.setdefault(k, []).append((entry["id"], comps))
        names = {e["id"]: e["name"] for e in self.entries}

        def label_of(ids: list[str]) -> str:
            return " or ".join(dict.fromkeys(names[i] for i in ids))

        for entry, unit, _, comps, own in self.units:
            for comp in self.comps:
                if comp not in comps:
                    continue
                per_comp = (unit.get("armyComposition") or {}).get(comp)
                text = english(per_comp.get("notes")) if isinstance(per_comp, dict) else ""
                text = text or english(unit.get("notes"))
                if not text:
                    continue
                if not own:
                    self.note("foreign-notes", entry["name"])
                    break

                def resolve(token: str, comp: str = comp) -> list[str] | None:
                    key = _key(token)
                    found = index.get(key) or index.get(key.rstrip("s")) or index.get(key + "s")
                    if not found:  # "Clan Skryre Warlock Engineer" names the Warlock Engineer
                        tails = [k for k in index if len(k.split()) > 1 and (" " + key).endswith(" " + k)]
                        found = index[max(tails, key=len)] if tails else None
                    if not found:
                        return None
                    here = [eid for eid, available in found if comp in available]
                    return list(dict.fromkeys(here or [eid for eid, _ in found]))

                rules, rest = parse_note(text, [entry["id"]], resolve, label_of)
                for rule in rules:
                    rule = self._in_category(rule, entry["id"], comp)
                    source = f"Old World Builder: {rule['params']['label']} (unit notes)"
                    self._add_rule(comp, {**rule, "source": source})
                for clause in rest:
                    self.unparsed.setdefault((entry["name"], clause), []).append(comp)

    def category_in(self, eid: str, comp: str) -> str:
        """The category entry `eid` is chosen in under OWB composition `comp`."""
        entry = next(e for e in self.entries if e["id"] == eid)
        if comp == self.grand:
            return entry["category"]
        return entry.get("composition_categories", {}).get(slug(comp), entry["category"])

    def _in_category(self, rule: dict, own: str, comp: str) -> dict:
        """A note limiting units "as a Core choice" counts the named units chosen in Core there. A unit's own
        note may name it by its kind ("0-1 unit of Inner Circle Knights may be taken as a Core choice" on
        the Panther order's Core entry): when no named entry is in that category, it is the unit itself."""
        select = rule["params"]["select"]
        category = select.get("category")
        if not category or any(self.category_in(e, comp) == category for e in select["entry"]):
            return rule
        if self.category_in(own, comp) != category:
            return rule
        return {**rule, "params": {**rule["params"], "select": {**select, "entry": [own]}}}

    def _limit_tags(self) -> dict[str, dict[str, set[str]]]:
        """Entry -> OWB composition -> the tags the rules in force there give it: `own-limit` where a count
        (at most 1 or more) or a ratio limits it in the category it is chosen in there (what Combined Arms
        exempts), and `per-1000` where that limit is per 1000 points (what Battle March sets aside). A
        note of one composition (a Knightly Order's 0-1 State Troops per 1000 points) tags nothing in
        another: the rules here are those each composition has, the Grand Army's included."""
        tags: dict[str, dict[str, set[str]]] = {}
        for comp, rules in self.rules.items():
            for rule in rules.values():
                params = rule["params"]
                bound = params.get("max")
                if rule["type"] == "count" and bound:
                    kinds = {"own-limit"} | ({"per-1000"} if isinstance(bound, dict)
                                             and bound.get("per_points") == 1000 else set())
                elif rule["type"] == "ratio":
                    kinds = {"own-limit"}
                else:
                    continue
                category = params["select"].get("category")
                for eid in params["select"].get("entry", []):
                    if category is None or self.category_in(eid, comp) == category:
                        tags.setdefault(eid, {}).setdefault(comp, set()).update(kinds)
        return tags

    def _tag_entries(self) -> None:
        """Each entry's tags in the Grand Army, and in each other composition where they differ
        (`composition_tags`, which replace `tags` there)."""
        limits = self._limit_tags()
        for entry, _, _, comps, _ in self.units:
            eid = entry["id"]
            own = set(self.tags[eid]) | ({"own-limit"} if "named" in self.tags[eid] else set())  # tag_max: once each
            grand = own | limits.get(eid, {}).get(self.grand, set())
            if grand:
                entry["tags"] = sorted(grand)
            per_comp = {}
            for comp in self.comps[1:]:
                here = own | limits.get(eid, {}).get(comp, set())
                if comp in comps and here != grand:
                    per_comp[slug(comp)] = sorted(here)
            if per_comp:
                entry["composition_tags"] = per_comp

    def _assembled_rules(self) -> tuple[list[dict], list[dict]]:
        """(the book's rules, its compositions), each rule with an id unique in the book."""
        ids: dict[str, str] = {}
        taken: set[str] = set()

        def rule_id(key: str, rule: dict) -> str:
            if key not in ids:
                label = rule["params"]["label"]
                if rule["params"].get("max") == 0:
                    label = "no " + re.sub(r" \(not in [^)]*\)$| not offered in .*$", "", label)
                    label += " " + "-".join(sorted(s for v in rule["params"]["select"].values() if not isinstance(v, bool)
                                                   for s in ([v] if isinstance(v, str) else v)))[:30]
                base = "owb-" + slug(label)[:60].rsplit("-", 1)[0] if len(slug(label)) > 60 else "owb-" + slug(label)
                rid, n = base, 2
                while rid in taken:
                    rid, n = f"{base}-{n}", n + 1
                taken.add(rid)
                ids[key] = rid
            return ids[key]

        def as_rule(key: str, rule: dict) -> dict:
            return {"id": rule_id(key, rule), **rule}

        grand = self.rules[self.grand]
        book_rules = [as_rule(k, r) for k, r in grand.items()]
        if any("named" in t for t in self.tags.values()):
            book_rules.append({"id": "owb-named-characters", "type": "tag_max",
                               "params": {"tag": "named", "max": 1, "label": "a named character"},
                               "source": "Old World Builder marks named characters; each is unique"})
        percent = [r.id for r in self.system.rules if r.type == "category_percent"]
        self.replaced, grand_percent = self._grand_percentages()
        book_rules += grand_percent
        compositions = []
        for comp in self.comps[1:]:
            own = self.rules[comp]
            composition: dict[str, Any] = {
                "id": slug(comp), "name": self._composition_name(comp),
                "source": "Old World Builder: the-old-world-system.json",
                "replace_rules": percent + [r["id"] for r in grand_percent]
                + [rule_id(k, r) for k, r in grand.items() if k not in own],
            }
            rules = self._percent_rules(comp, f"owb-{slug(comp)}") + [as_rule(k, r) for k, r in own.items()
                                                                    if k not in grand]
            if rules:
                composition["rules"] = rules
            compositions.append(composition)
        return book_rules, compositions

    def _percent_rules(self, comp: str, prefix: str) -> list[dict]:
        """One composition's category percentages, from OWB's program code (owb_compositions.yaml)."""
        bounds = category_bounds(comp, [c.id for c in self.system.categories])
        if bounds is None:
            return []
        self.percent_known.add(comp)
        return [{"id": f"{prefix}-{cat}-{'minimum' if 'min' in bound else 'maximum'}", "type": "category_percent",
                 "params": {"categories": [cat], **bound}, "source": PERCENT_SOURCE}
                for cat, bound in bounds.items()]

    def _grand_percentages(self) -> tuple[list[str], list[dict]]:
        """The army's Grand Army percentages where OWB's code gives other ones than the system's (a
        Renegade Crowns army's Mercenaries up to 33%; no Mercenaries for Vampire Counts): the system rules
        the book replaces, and its own."""
        system = {(r.params["categories"][0]): r for r in self.system.rules
                  if r.type == "category_percent" and len(r.params["categories"]) == 1}
        replaced, own = [], []
        for rule in self._percent_rules(self.army_id, "owb-grand-army"):
            cat = rule["params"]["categories"][0]
            mine = {k: v for k, v in rule["params"].items() if k in ("min", "max")}
            theirs = system.get(cat)
            if theirs is not None and {k: v for k, v in theirs.params.items() if k in ("min", "max")} == mine:
                continue
            if theirs is not None:
                replaced.append(theirs.id)
            own.append(rule)
        return replaced, own

    def _composition_name(self, comp: str) -> str:
        """OWB names compositions only in its code; "de-renegade" is the Dark Elves' Renegade list."""
        if comp.endswith("-renegade") and len(comp.split("-")) == 2:
            return f"{self._army_name(self.army_id)} (Renegade)"
        return title(comp)

    def _army_name(self, army: str) -> str:
        found = next((a for a in self.dataset.system["armies"] if a.get("id") == army), {})
        return display(str(found.get("name_en") or title(army)))

    def _unchecked(self) -> list[str]:
        lines = [
            "Army-specific limits that Old World Builder keeps in its program code rather than in its data are not "
            "checked, but for its category percentages; of its unit limits only those its unit notes state in a "
            "regular form are (see the lines below).",
            "OWB's data has no troop types: every entry is Regular Infantry and every mount Heavy Cavalry here, so "
            "the minimum of 3 units also counts War Machines, War Beasts and Swarms, and item limits by troop type "
            "are not checked.",
            "OWB's data has no characteristics (no unit of its datasets carries a profile): the General's "
            "Leadership is not compared, so any eligible Character (not a Loner, not the Battle Standard Bearer) "
            "may be the General here.",
        ]
        for comp in self.comps[1:]:
            if comp not in self.percent_known:
                lines.append(f"{self._composition_name(comp)}: its category percentages are not in OWB's data; "
                             f"none are checked for it.")
        allies = [self._army_name(a.get("army", "")) + (f" ({title(a['armyComposition'])})" if a.get("armyComposition")
                                                         else "") for a in self.record.get("allies") or []]
        if allies:
            lines.append(f"Allies ({', '.join(allies)}) cannot be part of a list of this book.")
        for topic, details in sorted(self.notes.items()):
            lines.append(f"{TOPICS[topic]}: {'; '.join(sorted(details))}.")
        for (name, clause), comps in sorted(self.unparsed.items()):
            where = "every composition" if set(comps) == set(self.comps) else ", ".join(
                self._composition_name(c) for c in comps)
            lines.append(f"Not checked, {name} ({where}): {clause}")
        return lines
