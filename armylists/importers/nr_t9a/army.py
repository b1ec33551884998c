"""One army file of New Recruit's T9A data as a book of our format (docs/import-nr-t9a.md).

A unit becomes an entry: its `cost` the entry's `base_points`, the per-model "Number" of its
`addToUnitSize` group its `points` and that group's bounds its `size`. Every option node below it
(`check` and `numeric`, the pools an `optionsDict` pulls in, a `refopt` mount's own options) becomes one
option of the entry, flattened: a nested option `requires` its parent, the children of one node form a
group bounded by its `minSize`/`maxSize`, an option under the "Number" is paid per model (unless
`costParentMult: false`), a pool's `optionsSuffix` is added to its names and `optionsCostFactor`
multiplies its costs. Refs become tags, so the army-wide conditions are tally limits (limits.py).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import yaml

from armylists.importers.nr_t9a.groups import (close_group, condition_swaps, inert_override, make_group, not_condition, ref_words,
                                                size_override, size_tag, unheld_condition, unit_amount)
from armylists.importers.nr_t9a.limits import (Alternatives, Limits, RarityRules, all_refs, army_gates, condition_refs, is_choice,
                                                listed, norm_ref, percent_of, ref_tag, refs_of, scaled_size, slug, unit_condition)
from armylists.importers.nr_t9a.pools import NOT_OFFERED, merge_shared, numbered_id, offered_nodes, pool_name
from armylists.importers.nr_t9a.prices import group_rules
from armylists.importers.nr_t9a.profiles import height_of, height_rule, stat_override
from armylists.importers.nr_t9a.rarity import (cap_raises, item_rarity, rarity_limit, rarity_override, shared_loosest,
                                                unit_cost_limit)
from armylists.importers.nr_t9a.source import NrSourceError, book_version
from armylists.importers.nr_t9a.spells import spell_choice
from armylists.importers.nr_t9a.state import ConverterState
from armylists.importers.nr_t9a.variants import category_override, number_limits, option_prices, override_variants, share_options
from armylists.importers.nr_t9a.weights import ref_weights

MAPPING = yaml.safe_load((Path(__file__).with_name("nr_t9a.yaml")).read_text(encoding="utf-8"))
NUMERIC_MAX = 9  # a `numeric` option without a maxSize: taken up to this often (the data states none)
MAX_SIZE_MULT = 10  # an option's `maxSizeMult` read (the data's only one is 1.2); past it the entry's bounds hold
# Keys of option nodes that change no points and no legality (display, spells, parser helpers).
QUIET_KEYS = {
    "name", "type", "cost", "option_id", "refs", "options", "optionsLabel", "optionsDict", "optionsSuffix",
    "optionsCostFactor", "refopt", "minSize", "maxSize", "minSinze", "addToUnitSize", "hide", "hidden",
    "collapsible", "sortOptions", "neverHide", "allowHideChildren", "generated", "parsername", "parserid",
    "exportGroup", "exportParams", "description", "logo", "rules", "loses_rules", "parentRule", "magic",
    "boundSpells", "spells", "replaceSpells", "hereditary", "definesType", "keepMaxSize", "costParentMult",
    "hasOption", "hasNotOption", "armyHasOption", "armyHasNotOption", "leafMaxCost", "ignoreCost",
    "countAsLeaf", "extraCategories", "override", "rarity", "sharedRarity", "shared", "translation",
    "unit_id", "basesize", "height", "size", "category", "invisible", "indicators", "minAmount"}


@dataclass
class ArmyReport:
    army: str  # the data's short code (de, dh...)
    book: str
    version: str
    entries: int = 0
    options: int = 0
    unchecked: Counter = field(default_factory=Counter)

    def lines(self) -> list[str]:
        return [f"{construct}: {n}" for construct, n in sorted(self.unchecked.items())]


@dataclass
class Ctx:
    parent: str | None  # the option id this node's options require
    per_model: bool
    factor: float
    suffix: str
    group: str | None
    allowance: str | None = None  # the leafMaxCost tag the leaves below count toward
    unchecked: str | None = None  # the "not checked" tag of a group whose bounds an override changes
    needs: tuple = ()  # `childrenOptions` conditions (hasOption values) of the nodes above
    pool: str = ""  # the pool (`optionsDict`) these nodes are items of: offered in the editor's item picker
    instead: object = None  # a `childrenOptions` `hasNotOption` that replaces the nodes' own (`replaceArrays`)
    refs: tuple = ()  # refs a `childrenOptions` gives each of the node's options (an Artefact: `artefact_item`)
    nots: tuple = ()  # its `hasNotOption` values: not where the unit has these (Ogre Khans' Hoardmaster's pistols)
    army: tuple = ()  # its `armyHasOption` values: only where the army has these (Daemon Legions' Envy gifts)


class ArmyConverter(ConverterState):
    """One army file as a book (`convert`); the state it hands the other modules as `conv` is state.py's."""
    mapped_categories = MAPPING["categories"]

    def __init__(self, data: dict, pools: dict[str, list[dict]], date: str, categories: frozenset[str] | None = None,
                 system: str = MAPPING["system"], heads: dict[str, dict] | None = None,
                 rarity_rules: RarityRules | None = None, profiles: dict | None = None, paths: dict | None = None):
        # How often a unit or option may be taken, what a unit may cost: the data's rule text (rarity.py)
        self.rarity_rules, self.rarity_max = rarity_rules or RarityRules(), MAPPING["rarity_max"]  # the latter: 2024's
        self.profiles = profiles or {}  # unit_id -> its profile in unitstats.json (a Height: profiles.py)
        self.shared_max = shared_loosest(self, pools)  # an item of two pools: one item, its loosest rarity
        pools = merge_shared(pools, data)  # a shared item the army's file does not price is not offered
        self.data, self.pools, self.date, self.system, self.paths = data, pools, date, system, paths or {}
        self.heads = heads or {}  # a pool's ref -> its own node, for the pools offered unasked (offered_nodes)
        self.categories = categories  # the system's category ids (None: any)
        # The Special Items: the options of the pools; their rarity is how often an army takes one.
        self.pool_items = {id(item) for items in pools.values() for item in items}
        self.limits = Limits(data.get("useunitmax") if isinstance(data.get("useunitmax"), list) else (),
                             words=lambda refs: ref_words(self, refs, army=True))  # labels name units, not refs
        self.alternatives = Alternatives()  # refs counted otherwise where the army has an option (weights.py)
        self.following: list[str] = []  # the pools and mounts being expanded, outermost first
        self.short = str(data.get("short") or slug(data.get("name", "army")))
        self.book_id = slug(data["name"])
        self.version = book_version(str(data.get("version", "?")), date)
        if len(self.version) > 40:  # RulesFile.version's length: PostgreSQL refuses a longer one
            raise NrSourceError(f"{data['name'][:60]}: version {self.version[:20]!r}... is {len(self.version)} characters; at most 40")
        self.report = ArmyReport(self.short, self.book_id, self.version)

    # -- the army ----------------------------------------------------------------------------
    def convert(self) -> tuple[dict, ArmyReport]:
        root = self.data["army"][0]
        containers = root.get("options", [])
        self.army_refs = {r for r in all_refs([self.data["army"], list(self.pools.values())])
                          if not r.startswith(MAPPING["profile_ref_prefix"])}  # what some unit may take (groups.py)
        self.mounts = {}
        for cat in containers:
            if set(refs_of(cat)) & set(MAPPING["mount_categories"]) or cat.get("invisible"):
                for unit in cat.get("options", []):
                    if unit.get("unit_id"):
                        self.mounts[unit["unit_id"]] = unit
        self.extra_cats = {}  # a ref of an army's own category -> its tag
        self.own_cats = {}  # a ref of an army's own category -> the system category its units are in
        rules = []
        for cat in containers:
            ref = (refs_of(cat) or [slug(cat.get("name", ""))])[0]
            if cat.get("invisible") or ref in MAPPING["mount_categories"]:
                continue
            ours = MAPPING["categories"].get(ref)
            low, high = cat.get("minPercent"), cat.get("maxPercent")
            if ours is None:
                self.extra_cats[norm_ref(ref)] = "cat-" + slug(cat.get("name", ref), 70)
                own = slug(cat.get("name", ref))
                if low is None and high is None:
                    pass  # a container without a percent of its own (Engines of War) is part of Special
                elif self.categories is None or own in self.categories:
                    self.own_cats[norm_ref(ref)] = own
                else:
                    self.limits.not_understood(f"category {cat.get('name', ref)} (not a category of the system)")
                if low is not None or high is not None:
                    self.limits.category_points(self.extra_cats[norm_ref(ref)], cat.get("name", ref), low, high)
            elif cat.get("override") and category_override(self, cat, ours, ref, low, high):
                continue
            elif low is not None or high is not None:
                rule = {"id": f"{ours}-percent", "type": "category_percent",
                        "params": {"categories": [ours]}, "source": f"New Recruit's data: category {cat.get('name')}"}
                if low is not None:
                    rule["params"]["min"] = percent_of(low)
                if high is not None:
                    rule["params"]["max"] = percent_of(high)
                rules.append(rule)
            if cat.get("override"):
                self.limits.not_understood("category override", len(cat["override"]))
        gates, rest = army_gates(listed(root.get("override")))
        self.limits.army_has_not(root.get("armyHasNotOption"), [], None, "the army", gates)
        if root.get("armyHasOption") or rest:
            self.limits.not_understood("army root armyHasOption/override")
        entries, ids = [], set()
        for cat in containers:
            ref = (refs_of(cat) or [""])[0]
            if cat.get("invisible") or ref in MAPPING["mount_categories"]:
                continue
            for unit in cat.get("options", []):
                if unit.get("invisible") or not unit.get("name"):
                    continue
                entries.extend(self.entry(unit, ref, ids))
        counted = set(self.extra_cats.values())
        for e in entries:  # a unit moved into a category whose percent is a tally (replaceCategory) counts in it
            if "cat-" + e["category"] in counted:
                e["tags"] = sorted(set(e.get("tags", [])) | {"cat-" + e["category"]})
        self.alternatives.split(entries, self.limits)
        self.report.entries = len(entries)
        self.report.unchecked = self.limits.unchecked
        book = {
            "kind": "book", "id": self.book_id, "name": self.data["name"], "system": self.system,
            "version": self.version, "imported": True,
            "sources": [f"New Recruit's T9A data (vflam/nr-t9a), {self.short}.json version "
                        f"{self.data.get('version')} of {self.date}"],
            "entries": entries, "rules": rules + self.limits.rules()}
        if not any(o.get("role") == "general" for e in entries for o in e.get("options", ())):
            # New Recruit names it by leadership skills, absent here: not checked rather than always missing.
            book["replace_rules"] = ["general"]
            self.limits.unchecked["the General (no option of the data makes a model the General)"] += 1
        if self.limits.unchecked:
            book["unchecked"] = [f"{c}: {n} in New Recruit's data, not checked" for c, n in
                                 sorted(self.limits.unchecked.items())]
        return book, self.report

    # -- a unit ------------------------------------------------------------------------------
    def entry(self, unit: dict, container: str, ids: set) -> list[dict]:
        """The unit's entry; and where an `override` moves it to another category (`replaceCategory`) once
        it has so many models or one of its options, an entry of its own there (chosen by the summary's
        category): the size splits between them, or the option is required by one and refused by the other."""
        eid = slug(unit["name"])
        if eid in ids:
            eid = slug(f"{unit['name']}-{unit.get('unit_id', len(ids))}")
        ids.add(eid)
        # The container decides the category (New Recruit's summary agrees); a unit's `category` key names
        # another category it also counts toward.
        category = self.category(container)
        tags = [ref_tag(r) for r in refs_of(unit)]
        for ref in [container, unit.get("category")] + list(unit.get("extraCategories") or []):
            if isinstance(ref, str) and norm_ref(ref) in self.extra_cats:
                tags.append(self.extra_cats[norm_ref(ref)])
        if category is None:
            category = MAPPING["other_category"]
        self.eid, self.options, self.groups, self.by_ref, self.discounts = eid, [], {}, {}, []
        self.option_ids = set()
        self.pending = []  # conditions read once all options exist
        self.has_children: set[str] = set()
        self.priced_otherwise: set[int] = set()  # option nodes whose overrides are all other prices
        self.prices = {}  # an option's id -> its variants at other prices
        self.consumed = set()  # overrides read into a variant
        self.unit_refs = refs_of(unit)
        self.allowances: list[tuple[str, int, list]] = []
        self.raised_caps = []  # (tag, points, condition) of options raising the unit's cost cap
        self.unit_height, self.mount_heights = height_of(unit, self.profiles), {}  # Heights, by a mount's tag (hasStat)
        self.bounded_groups = {}  # a group whose bound an override changes -> (tag, limit) (groups.py)
        self.entry_tags = tags  # the entry's, which a node may add to (groups.make_group)
        entry = {"id": eid, "name": unit["name"], "category": category, "troop_type": MAPPING["troop_type"],
                 "points": 0, "size": {"min": 1, "max": 1}}
        own_tag = "e-" + slug(eid, 70)
        size_group = next((c for c in unit.get("options", []) if c.get("addToUnitSize")), None)
        self.size_refs, self.number = set(), None  # the Number: its overrides' prices are read by variants.py
        if size_group is not None:
            number = self.number = next((c for c in size_group.get("options", []) if c.get("type") == "numeric"), {})
            entry["points"] = int(number.get("cost", 0))
            entry["base_points"] = int(unit.get("cost", 0))
            low = int(size_group.get("minSize", 1) or 1)
            entry["size"] = {"min": low, "max": max(low, int(size_group.get("maxSize", low) or low))}
            self.size_refs = set(refs_of(number))  # counted once a model (groups.unheld_condition)
            # Its refs counted once a model: by the unit's conditions (sz-) and the army's limits (Imps: 40)
            entry.update({"model_tags": sorted({f(r) for r in self.size_refs for f in (size_tag, ref_tag)})}
                         if self.size_refs else {})
        else:
            entry["points"] = max(0, int(unit.get("cost", 0)))
        self.size, self.size_mults = entry["size"], {}  # what an option's `maxSizeMult` multiplies; by option
        ctx = Ctx(None, False, 1, "", None)
        unit_ctx = Ctx(None, False, 1, "", None)  # its own minSize/maxSize bound its direct choices (one altar)
        unit_ctx.group, unit_ctx.unchecked = make_group(self, unit, None, None, unit.get("optionsLabel") or unit["name"])
        for child in unit.get("options", []):
            if child is size_group:
                for number in child.get("options", []):
                    self.children(number, Ctx(None, True, 1, "", None))
            else:
                self.node(child, unit_ctx)
        close_group(self, unit_ctx.group)
        for node in offered_nodes(self.heads, MAPPING["offered_pools"], category, entry["size"]):
            self.node(node, ctx)
        self.resolve_conditions()
        for tag, points, overrides in self.allowances:
            self.limits.allowance(eid, tag, points, f"{unit['name']}: special items allowance", overrides)
        gates, unit_overrides = army_gates(listed(unit.get("override")))
        rarities = [o for o in unit_overrides if rarity_override(o)]
        unit_overrides = [o for o in unit_overrides if not rarity_override(o)]
        if unit.get("armyHasNotOption") or gates:
            tags.append(own_tag)
            tags += self.limits.army_has_not(unit.get("armyHasNotOption"), refs_of(unit), own_tag, unit["name"], gates)
        tags += number_limits(self, own_tag, unit["name"])  # so many models in the army (variants.py)
        if unit.get("armyHasOption"):
            tags.append(own_tag)
            self.limits.army_has(unit["armyHasOption"], own_tag, unit["name"])
        tags.append(rarity_limit(self, unit, own_tag, unit["name"], rarities, lifted=gates))
        if unit.get("hasStat"):  # `extraCost` (Ghasts', 95) prices nothing: measured (docs/import-nr-t9a.md)
            tags.append(self.limits.not_understood("unit hasStat"))
        entry.update(ref_weights(self, tags, unit, self.number or {}))  # `{ref, amount}`: counts `amount` (weights.py)
        variants = override_variants(self, unit, entry, size_group, unit_overrides, ids, tags)
        if unit_cost_limit(self, unit, own_tag, [entry["id"]] + [v["id"] for v in variants], self.raised_caps):
            tags.append(own_tag)
        entry["tags"] = sorted(set(tags) - {None})
        entry.update({k: v for k, v in (("options", self.options), ("groups", self.groups),
                                         ("discounts", self.discounts)) if v})
        self.report.options += len(self.options)
        share_options(entry, variants, self.size_mults)
        return [entry] + variants

    # -- option nodes ------------------------------------------------------------------------
    def node(self, node: dict, ctx: Ctx) -> None:
        first = len(self.options)
        if is_choice(node):
            self.option(node, ctx)
        else:
            self.children(node, ctx)
        group_rules(self, node, first, MAPPING["group_rules"])  # a rule the data names by a ref only (prices.py)

    def children(self, node: dict, ctx: Ctx) -> None:
        """A group node's (or an option's) children, and the pool items and mount options it pulls in."""
        per_model = ctx.per_model and node.get("costParentMult", True) is not False
        inner = Ctx(ctx.parent, per_model, ctx.factor, ctx.suffix, None, ctx.allowance, None, ctx.needs,
                    nots=ctx.nots, army=ctx.army)
        wanted = (node.get("childrenOptions") or {}) if isinstance(node.get("childrenOptions"), dict) else {}
        inner.refs = tuple(refs_of(wanted))
        wanted = {k: v for k, v in wanted.items() if k != "refs"}
        if set(wanted) <= {"hasNotOption", "armyHasOption"}:  # conditions each of its options holds besides its own
            inner.nots += (wanted["hasNotOption"],) if "hasNotOption" in wanted else ()
            inner.army += (wanted["armyHasOption"],) if "armyHasOption" in wanted else ()
        elif set(wanted) == {"hasOption"}:
            # Its options only where the unit has these refs (a banner enchantment only on the Battle Standard
            # Bearer); such a banner is outside the allowance (measured: docs/import-nr-t9a.md).
            inner.needs = ctx.needs + (wanted["hasOption"],)
            if {r for refs, _ in condition_refs(wanted["hasOption"]) for r in refs} & set(MAPPING["bsb_refs"]):
                inner.allowance = None
        elif set(wanted) == {"replaceArrays", "hasNotOption"} and wanted["replaceArrays"] is True:
            inner.instead = wanted["hasNotOption"]  # Keys to the Citadel: two enchantments, not one (prices.py)
        elif wanted:
            inner.unchecked = self.limits.not_understood("childrenOptions (other than hasOption)")
        inner.group, inner.unchecked = make_group(self, node, inner.unchecked, ctx.parent,
                                                  node.get("optionsLabel") or node.get("name", ""))
        if node.get("leafMaxCost") is not None:
            self.allowance(node, inner)
        for child in node.get("options", []) or []:
            self.node(child, inner)
        if node.get("optionsDict"):
            pooled = Ctx(inner.parent, inner.per_model, inner.factor * float(node.get("optionsCostFactor", 1)),
                         node.get("optionsSuffix", "") or "", inner.group, inner.allowance, inner.unchecked,
                         inner.needs, pool_name(node, self.groups.get(inner.group)), inner.instead, inner.refs,
                         inner.nots, inner.army)
            seen = set()
            for pool in node["optionsDict"]:
                self._follow(f"pool {pool!r}")
                for item in self.pools.get(pool, []):
                    if id(item) not in seen:
                        seen.add(id(item))
                        if item.get(NOT_OFFERED):  # not the army's (pools.merge_shared): its id only
                            numbered_id(self.option_ids, f"{item['name']}{pooled.suffix}")
                        else:
                            self.node(item, pooled)
                self.following.pop()
        close_group(self, inner.group)
        if node.get("refopt"):
            mount = self.mounts.get(node["refopt"])
            if mount is None:
                self.limits.not_understood("refopt to a unit not in the data")
            else:
                self._follow(f"mount {node['refopt']!r}")
                self.children(mount, Ctx(ctx.parent, False, 1, "", None, ctx.allowance))
                self.following.pop()

    def _follow(self, link: str) -> None:
        """A pool or mount expanded inside itself is a cycle (none in the data's history): refused by name."""
        if link in self.following:
            cycle = self.following[self.following.index(link):] + [link]
            raise NrSourceError(f"{self.data['name'][:60]}: a cycle of links ({' -> '.join(cycle)}); refused")
        self.following.append(link)

    def option(self, node: dict, ctx: Ctx) -> None:
        name = f"{node['name']}{ctx.suffix}"
        oid = numbered_id(self.option_ids, name)
        per_model = ctx.per_model and node.get("costParentMult", True) is not False
        cost = node.get("cost", 0) or 0
        if isinstance(cost, str):
            cost = float(cost) if cost.replace(".", "", 1).lstrip("-").isdigit() else 0
        cost = round(cost * ctx.factor)
        option: dict = {"id": oid, "name": name, "cost": max(0, int(cost))}
        if cost < 0:
            self.limits.not_understood("negative option cost")
        if per_model:  # paid per model, counted once (an army's "at most N" counts the option, not its models)
            option["model_cost"] = option.pop("cost")
            option["cost"] = 0
        if ctx.group:
            option["group"] = ctx.group
        option.update({"item_pool": ctx.pool} if ctx.pool else {})
        option.update({"_not": ctx.instead} if ctx.instead is not None else {})
        if node.get("type") == "numeric":
            # Without a maxSize of its own, its group's bounds how often (Battle Rune(s): up to 3, not 9).
            option["max"] = int(node.get("maxSize") or min(NUMERIC_MAX, self.groups.get(ctx.group, {}).get(
                "max", NUMERIC_MAX)))
        if node.get("maxSizeMult"):  # Fresh Meat: the unit's maximum size times 1.2, fractions rounded up
            if 1 <= Fraction(str(node["maxSizeMult"])) <= MAX_SIZE_MULT:  # no number: ValueError, refused
                self.size_mults[oid] = str(node["maxSizeMult"])
                option["size"] = scaled_size(self.size, self.size_mults[oid])
            else:  # the entry's own bounds hold
                self.limits.not_understood(f"option maxSizeMult outside 1 to {MAX_SIZE_MULT}")
        if ctx.parent:
            option["requires"] = [ctx.parent]
            self.has_children.add(ctx.parent)
        refs = refs_of(node) + [r for r in ctx.refs if r not in refs_of(node)]
        if node.get("refopt") in self.mounts:  # a mount option carries its mount's refs (`sky_sloop`)
            refs = refs + [r for r in refs_of(self.mounts[node["refopt"]]) if r not in refs]
            if height_of(self.mounts[node["refopt"]], self.profiles) is not None:  # for the items of some (hasStat)
                refs.append("mh-" + slug(f"{self.eid}-{oid}", 70))
                self.mount_heights[ref_tag(refs[-1])] = height_of(self.mounts[node["refopt"]], self.profiles)
        tags = {ref_tag(r) for r in refs}
        for r in refs:
            self.by_ref.setdefault(r, []).append(oid)
        if set(refs) & set(MAPPING["bsb_refs"]):
            option["role"] = "bsb"
        elif set(refs) & set(MAPPING["general_refs"]):
            option["role"] = "general"  # the option makes its model the General, at its cost (up to 50 pts)
        if ctx.unchecked:
            tags.add(ctx.unchecked)
        option.update(tags=tags, **ref_weights(self, tags, node, self.mounts.get(node.get("refopt")) or {}))
        tags.update(cap_raises(self, node, oid))  # the unit may cost so much with it (rarity.py)
        self.options.append(option)
        option["_needs"], option["_nots"], option["_army"] = ctx.needs, ctx.nots, ctx.army
        self.pending.append((option, node, ctx.allowance))
        if option_prices(self, option, node, ctx.factor, ctx.allowance):
            self.priced_otherwise.add(id(node))
        self.children(node, Ctx(oid, per_model, ctx.factor, "" if node.get("optionsDict") else ctx.suffix, None,
                                ctx.allowance))
        spell_choice(self, node, option, lambda child, gid: self.option(child, Ctx(oid, False, 1, "", gid, ctx.allowance)))

    def allowance(self, node: dict, ctx: Ctx) -> None:
        """`leafMaxCost`: the leaves below the node (and `countAsLeaf` nodes) that are not `ignoreCost` are
        tagged, and their points in one unit are capped."""
        tag = f"alw-{slug(self.eid, 60)}-{len(self.allowances) + 1}"
        overrides = []
        for o in listed(node.get("override")):
            if "leafMaxCost" in (o.get("options") or {}):
                when = unit_condition(o.get("hasOption"))  # {refs: [a, b], amount: 1}: a or b (a Duke's)
                if when is not None and set(o) <= {"hasOption", "options"}:
                    overrides.append((when, int(o["options"]["leafMaxCost"])))
                else:
                    self.limits.not_understood("leafMaxCost override")
        self.allowances.append((tag, int(node["leafMaxCost"]), overrides))
        ctx.allowance = tag

    def resolve_conditions(self) -> None:
        by_id = {o["id"]: o for o in self.options}
        for option, node, allowance in self.pending:
            tags = option["tags"]
            counted = option.pop("_leaf", True)  # a price's override may take it out (countAsLeaf: false)
            if allowance and counted and not node.get("ignoreCost") and (option["id"] not in self.has_children
                                                                         or node.get("countAsLeaf")):
                tags.add(allowance)
            own_tag = f"o-{slug(self.eid, 35)}-{slug(option['id'], 40)}"
            conditions = [c for value in option.pop("_needs", ()) for c in condition_refs(value)]
            for refs, keys in condition_refs(node.get("hasOption")) + conditions:
                if keys.get("amount", 1) == 1 and set(refs) & set(self.unit_refs):
                    continue  # the unit itself carries the ref (a Vampire Count is tag_Vampire): it always holds
                ids = sorted({i for r in refs for i in self.by_ref.get(r, ()) if i != option["id"]})
                if keys.get("amount", 1) != 1 or not ids:
                    if not ids and set(refs) - set(self.unit_refs):
                        if not unheld_condition(self, option, refs, keys, own_tag):
                            tags.add(self.limits.not_understood("hasOption of a ref not in the unit"))
                    elif keys.get("amount", 1) != 1:
                        tags.add(self.limits.not_understood("hasOption amount"))
                    continue
                if len(ids) == 1:
                    option.setdefault("requires", []).append(ids[0])
                elif "requires_any" not in option:
                    option["requires_any"] = ids
                else:
                    tags.add(self.limits.not_understood("hasOption (several choices twice)"))
            nots = [c for value in (option.pop("_not", node.get("hasNotOption")),) + option.pop("_nots")
                    for c in condition_refs(value)]
            for refs, keys in nots:
                if keys.get("amount", 1) != 1:  # not once the unit holds `amount` of these refs
                    unit_amount(self, option, refs, keys["amount"])
                    continue
                ids = not_condition(self, option, node, refs, own_tag)  # of the unit's own ref: refused
                option.setdefault("excludes", []).extend(i for i in ids if i not in option.get("excludes", []))
            gates, rest = army_gates([o for o in listed(node.get("override")) if not inert_override(o, node)])
            rest = [o for o in rest if not size_override(o) and id(o) not in self.consumed]  # groups.make_group's
            rarities, rest = [o for o in rest if rarity_override(o)], [o for o in rest if not rarity_override(o)]
            stats, rest = [o for o in rest if stat_override(o)], [o for o in rest if not stat_override(o)]
            rest = condition_swaps(self, option, node, own_tag, rest)  # a hasOption set under another (groups.py)
            if node.get("armyHasNotOption") or gates:
                tags.add(own_tag)
                tags.update(self.limits.army_has_not(node.get("armyHasNotOption"), refs_of(node), own_tag,
                                                     option["name"], gates))
            for value in [node.get("armyHasOption")] + list(option.pop("_army")):
                if value:
                    tags.add(own_tag)
                    self.limits.army_has(value, own_tag, option["name"])
            for ref in node.get("extraCategories") or []:
                if norm_ref(ref) in self.extra_cats:
                    tags.add(self.extra_cats[norm_ref(ref)])
            for ref in [option.pop("_when")] if "_when" in option else []:
                ids = sorted(i for i in self.by_ref.get(ref, ()) if i != option["id"])
                if len(ids) == 1:
                    option.setdefault("requires", []).append(ids[0])
                elif ids and "requires_any" not in option:
                    option["requires_any"] = ids
            for ref in option.pop("_unless", []):
                option.setdefault("excludes", []).extend(i for i in self.by_ref.get(ref, ()) if i != option["id"])
            if node.get("hasStat") or stats:
                tags.update(t for t in [height_rule(self, option, node.get("hasStat") or {}, stats)] if t)
            for key in ("override", "uniqueChildrenCombo", "guidingCost", "extraLeafCost"):  # `dominant`: docs
                if key == "override" and (id(node) in self.priced_otherwise or not rest) or \
                        key == "guidingCost" and id(node) in self.priced_otherwise:
                    continue  # guidingCost: the guiding child's price, read through the override (option_prices)
                if node.get(key):
                    tags.add(self.limits.not_understood(f"option {key}"))
            tags.update(item_rarity(self, node, rarities, gates))
            for key in set(node) - QUIET_KEYS - {"guidingCost", "dominant", "extraLeafCost", "childrenOptions",
                                                 "uniqueChildrenCombo", "hasStat", "rarityModifier", "amountRefs",
                                                 "maxUnitCost", "maxSizeMult"}:
                self.limits.not_understood(f"option key {key}")
        for option in self.options:
            priced = [i for i in option.get("requires", ()) if i in self.prices]
            if priced and "requires_any" not in option:  # under an option at either of its prices
                option["requires"].remove(priced[0])
                option["requires_any"] = [priced[0]] + self.prices[priced[0]]
            option["tags"] = sorted(option["tags"])
            if not option["tags"]:
                del option["tags"]
            for key in ("requires", "excludes"):
                if key in option:
                    option[key] = [i for i in dict.fromkeys(option[key]) if i in by_id]
                    if not option[key]:
                        del option[key]
