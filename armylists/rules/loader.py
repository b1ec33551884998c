"""Read rules data (YAML) into compiled `System` and `Book` objects.

Loading happens in three steps, each of which stops with a `RulesDataError` naming the file, the path
inside it and the reason: parse the YAML, check it against its JSON Schema, then check every reference
(a category, troop type, mount, Path, option or item named but not defined) and every rule's type and
parameters. Nothing reaches validation that could crash it.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from .book import (
    AlliedArmy, AlliesRules, Book, Category, CommandPart, Composition, Entry, Item, ItemAccess, ItemCategory, Mount,
    MountChoice, Option, OptionGroup, Rule, SizeBand, System, TroopType,
)
from .checks import CHECKS
from .errors import RulesDataError

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "rules_data" / "schema"
LIST_SCHEMA = Path(__file__).resolve().parent / "schema" / "list.schema.json"


@lru_cache(maxsize=1)
def _validators() -> dict[str, Draft202012Validator]:
    schemas = {p.name: json.loads(p.read_text()) for p in SCHEMA_DIR.glob("*.schema.json")}
    schemas["list.schema.json"] = json.loads(LIST_SCHEMA.read_text())
    resources = [(name, Resource.from_contents(s)) for name, s in schemas.items()]
    resources += [(s["$id"], Resource.from_contents(s)) for s in schemas.values()]
    registry = Registry().with_resources(resources)
    return {
        name.removesuffix(".schema.json"): Draft202012Validator(schema, registry=registry)
        for name, schema in schemas.items()
    }


def check_schema(kind: str, data: Any, source: str, error_class: type = RulesDataError) -> None:
    """Raise `error_class` for the most relevant schema error of `data`, if any."""
    error = best_match(_validators()[kind].iter_errors(data))
    if error is not None:
        raise error_class(source, tuple(error.absolute_path), error.message)


def content_hash(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def read_yaml(path: Path, display: str | None = None) -> Any:
    source = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesDataError(source, (), f"cannot be read: {exc}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" at line {where.line + 1}, column {where.column + 1}" if where else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise RulesDataError(source, (), f"is not valid YAML{at}: {problem}") from None


# --- building ---------------------------------------------------------------------------------

def _rule(data: Mapping[str, Any], source: str, path: tuple, origin: str) -> Rule:
    check = CHECKS.get(data["type"])
    if check is None:
        known = ", ".join(sorted(CHECKS))
        raise RulesDataError(source, path + ("type",), f"unknown rule type {data['type']!r}; known: {known}")
    params = data.get("params", {})
    schema = getattr(check, "params_schema", None)
    if schema is not None:
        error = best_match(Draft202012Validator(schema).iter_errors(params))
        if error is not None:
            raise RulesDataError(source, path + ("params",) + tuple(error.absolute_path), error.message)
    return Rule(
        id=data["id"], type=data["type"], params=params, severity=data.get("severity", "error"),
        source=data.get("source", ""), text=data.get("text", ""), origin=origin,
        tags=frozenset(data.get("tags", ())),
    )


def _rules(items: Iterable[Mapping], source: str, path: tuple, origin: str) -> tuple[Rule, ...]:
    rules, seen = [], set()
    for i, data in enumerate(items):
        if data["id"] in seen:
            raise RulesDataError(source, path + (i, "id"), f"rule id {data['id']!r} is used twice")
        seen.add(data["id"])
        rules.append(_rule(data, source, path + (i,), origin))
    return tuple(rules)


def _modes(data: Mapping[str, Any], source: str) -> dict[str, Composition]:
    """Matched-play rule sets: like a book's compositions, chosen by the list (`modes`)."""
    _unique(data.get("modes", []), source, ("modes",), "mode")
    rule_ids = {r["id"] for r in data["rules"]}
    modes = {}
    for i, m in enumerate(data.get("modes", [])):
        for j, rid in enumerate(m.get("replace_rules", [])):
            if rid not in rule_ids:
                raise RulesDataError(source, ("modes", i, "replace_rules", j), f"unknown system rule {rid!r}")
        modes[m["id"]] = Composition(id=m["id"], name=m["name"], source=m.get("source", ""),
                                     rules=_rules(m.get("rules", []), source, ("modes", i, "rules"), "system"),
                                     replace_rules=frozenset(m.get("replace_rules", [])),
                                     replace_tags=frozenset(m.get("replace_tagged", [])))
    return modes


def _figures(items: Iterable[Mapping], source: str) -> tuple[Rule, ...]:
    from .figures import FIGURES

    out = []
    for i, data in enumerate(items):
        if data["type"] not in FIGURES:
            raise RulesDataError(source, ("figures", i, "type"),
                                 f"unknown figure type {data['type']!r}; known: {', '.join(sorted(FIGURES))}")
        out.append(Rule(id=data["id"], type=data["type"], params=data.get("params", {}),
                        source=data.get("source", ""), text=data.get("name", data["id"]), origin="system"))
    return tuple(out)


def _unique(items: Iterable[Mapping], source: str, path: tuple, what: str) -> None:
    seen = set()
    for i, data in enumerate(items):
        if data["id"] in seen:
            raise RulesDataError(source, path + (i, "id"), f"{what} id {data['id']!r} is defined twice")
        seen.add(data["id"])


def build_system(data: Mapping[str, Any], source: str) -> System:
    check_schema("system", data, source)
    for key, what in (("categories", "category"), ("troop_types", "troop type"),
                      ("size_bands", "size band"), ("item_categories", "item category"), ("paths", "path")):
        _unique(data.get(key, []), source, (key,), what)
    troop_types = {t["id"]: TroopType(**t) for t in data["troop_types"]}
    for i, t in enumerate(data["troop_types"]):
        if t.get("as_mount") and t["as_mount"] not in troop_types:
            raise RulesDataError(source, ("troop_types", i, "as_mount"), f"unknown troop type {t['as_mount']!r}")
    categories = tuple(Category(**c) for c in data["categories"])
    category_ids = {c.id for c in categories}
    item_categories = {c["id"]: _item_category(c) for c in data.get("item_categories", [])}
    _check_counts_toward(data.get("item_categories", []), item_categories, source)
    allowances = data.get("item_allowances", {}).get("by_category", {})
    for cat in allowances:
        if cat not in category_ids:
            raise RulesDataError(source, ("item_allowances", "by_category", cat), f"unknown category {cat!r}")
    allies = _allies(data["allies"], category_ids, source) if "allies" in data else None
    return System(
        id=data["id"], name=data["name"], version=str(data["version"]),
        categories=categories,
        size_bands=tuple(SizeBand(**b) for b in data.get("size_bands", [])),
        troop_types=troop_types,
        armour=frozenset(data.get("armour", [])),
        item_categories=item_categories,
        items_one_per_army=data.get("items_one_per_army", False),
        item_allowances=allowances,
        veteran_standard_tags=frozenset(data.get("veteran_standard_tags", [])),
        paths={p["id"]: p["name"] for p in data.get("paths", [])},
        rules=_rules(data["rules"], source, ("rules",), "system"),
        figures=_figures(data.get("figures", []), source),
        modes=_modes(data, source),
        budget_unit=data.get("budget", {}).get("unit", "pts"),
        default_limit=data.get("budget", {}).get("default_limit"),
        print_variant=data.get("print_variant", "full"),
        sources=tuple(data["sources"]),
        content_hash=content_hash(data),
        allies=allies,
    )


def _allies(data: Mapping[str, Any], category_ids: set[str], source: str) -> AlliesRules:
    """Which book may ally with which, as the system's data says; the books named need not be loaded."""
    if data["category"] not in category_ids:
        raise RulesDataError(source, ("allies", "category"), f"unknown category {data['category']!r}")
    for key in ("without_allies", "book_rules_without_allies"):
        for j, rule_type in enumerate(data.get(key, [])):
            if rule_type not in CHECKS:
                raise RulesDataError(source, ("allies", key, j), f"unknown rule type {rule_type!r}")
    allowed = {}
    for book, armies in data["allowed"].items():
        rows = tuple(AlliedArmy(a["book"], a.get("composition")) for a in armies)
        for j, row in enumerate(rows):
            if row in rows[:j]:
                raise RulesDataError(source, ("allies", "allowed", book, j), f"{row.book} is listed twice")
        allowed[book] = rows
    return AlliesRules(category=data["category"], allowed=allowed, needs_character=data.get("needs_character", True),
                       without_allies=frozenset(data.get("without_allies", [])),
                       book_rules_without_allies=frozenset(data.get("book_rules_without_allies", [])),
                       source=data.get("source", ""))


def _item(data: Mapping[str, Any], system: System, source: str, path: tuple, common: bool) -> Item:
    if data["category"] not in system.item_categories:
        raise RulesDataError(source, path + ("category",), f"unknown item category {data['category']!r}")
    for cat in data.get("cost_by_category", {}):
        if cat not in system.category_names:
            raise RulesDataError(source, path + ("cost_by_category", cat), f"unknown unit category {cat!r}")
    for j, tt in enumerate(data.get("restrictions", {}).get("troop_types", [])):
        if tt not in system.troop_types:
            raise RulesDataError(source, path + ("restrictions", "troop_types", j), f"unknown troop type {tt!r}")
    for j, mode in enumerate(data.get("restrictions", {}).get("only_in_modes", [])):
        if mode not in system.modes:
            raise RulesDataError(source, path + ("restrictions", "only_in_modes", j), f"unknown mode {mode!r}")
    return Item(
        id=data["id"], name=data["name"], category=data["category"], cost=data["cost"],
        cost_by_category=data.get("cost_by_category", {}), type=data.get("type", ""),
        one_use=data.get("one_use", False), repeatable=data.get("repeatable", False),
        counts_as=data.get("counts_as"), restrictions=data.get("restrictions", {}),
        frees_path=data.get("frees_path", False), wizard_level=data.get("wizard_level", 0),
        source=data.get("source", ""), text=data.get("text", ""), common=common,
        max_per_model=data.get("max_per_model"),
    )


def _item_category(data: Mapping[str, Any]) -> ItemCategory:
    fields = {k: v for k, v in data.items() if k != "source"}
    if "needs_equipment" in fields:
        fields["needs_equipment"] = tuple(fields["needs_equipment"])
    return ItemCategory(**fields)


def _check_counts_toward(raw: list, categories: Mapping[str, ItemCategory], source: str) -> None:
    """A category whose items count toward another's (master runes toward their runic item) names a real one."""
    for i, c in enumerate(raw):
        target = c.get("counts_toward")
        if target is not None and (target not in categories or target == c["id"]):
            raise RulesDataError(source, ("item_categories", i, "counts_toward"), f"unknown item category {target!r}")


def _check_counts_as(items: Mapping[str, Item], source: str, path: tuple, raw: list) -> None:
    for i, data in enumerate(raw):
        target = data.get("counts_as")
        if target and target not in items:
            raise RulesDataError(source, path + (i, "counts_as"), f"unknown item {target!r}")


def build_items(data: Mapping[str, Any], system: System, source: str) -> dict[str, Item]:
    check_schema("item", data, source)
    if data["system"] != system.id:
        raise RulesDataError(source, ("system",), f"is {data['system']!r}, but the file is in {system.id!r}")
    _unique(data["items"], source, ("items",), "item")
    items = {d["id"]: _item(d, system, source, ("items", i), True) for i, d in enumerate(data["items"])}
    _check_counts_as(items, source, ("items",), data["items"])
    return items


def _access(data: Mapping[str, Any] | None, default_allowance: int | None, system: System,
            source: str, path: tuple, composition_ids: set[str] = frozenset()) -> ItemAccess | None:
    if data is None:
        return None
    cats = data.get("categories")
    for j, cat in enumerate(cats or []):
        if cat not in system.item_categories:
            raise RulesDataError(source, path + ("categories", j), f"unknown item category {cat!r}")
    for cid in data.get("allowance_in", {}):
        if cid not in composition_ids:
            raise RulesDataError(source, path + ("allowance_in", cid), f"unknown composition {cid!r}")
    # A cap per kind of item (a champion's "25 points of each kind of rune"), and its changes per composition.
    caps = [(("category_allowance",), data.get("category_allowance", {}))]
    for cid, changes in data.get("category_allowance_in", {}).items():
        if cid not in composition_ids:
            raise RulesDataError(source, path + ("category_allowance_in", cid), f"unknown composition {cid!r}")
        caps.append((("category_allowance_in", cid), changes))
    for where, cap in caps:
        for cat in cap:
            if cat not in system.item_categories:
                raise RulesDataError(source, path + where + (cat,), f"unknown item category {cat!r}")
    return ItemAccess(
        allowance=data.get("allowance", default_allowance),
        categories=frozenset(cats) if cats is not None else None,
        book_only=data.get("book_only", False),
        allowance_in=dict(data.get("allowance_in", {})),
        category_allowance=dict(data.get("category_allowance", {})),
        category_allowance_in={cid: dict(c) for cid, c in data.get("category_allowance_in", {}).items()},
    )


def _leadership(profiles: Iterable[Mapping[str, Any]]) -> int | None:
    """A character's Leadership: the best of its parts that are not its mount (000:L1684, L1701)."""
    values = [p["Ld"] for p in profiles if not p.get("mount") and isinstance(p.get("Ld"), int)]
    return max(values) if values else None


def _entry(data: Mapping[str, Any], system: System, mounts: Mapping[str, Mount], paths: Mapping[str, str],
           source: str, path: tuple, composition_ids: set[str]) -> Entry:
    categories = {c.id: c for c in system.categories}
    category = categories.get(data["category"])
    if category is None:
        raise RulesDataError(source, path + ("category",), f"unknown category {data['category']!r}")
    if data["troop_type"] not in system.troop_types:
        raise RulesDataError(source, path + ("troop_type",), f"unknown troop type {data['troop_type']!r}")
    size = data.get("size", {"min": 1, "max": 1})
    if size.get("max") is not None and size["max"] < size["min"]:
        raise RulesDataError(source, path + ("size",), f"max {size['max']} is below min {size['min']}")

    if data.get("base_points", 0) + data["points"] * size["min"] < 0:
        raise RulesDataError(source, path + ("base_points",), "makes the smallest unit cost less than nothing")
    raw_options = data.get("options", [])
    _unique(raw_options, source, path + ("options",), "option")
    groups = {gid: OptionGroup(id=gid, name=g.get("name", gid), min=g.get("min", 0), max=g.get("max", 1))
              for gid, g in data.get("groups", {}).items()}
    options = {}
    for i, o in enumerate(raw_options):
        if o.get("group") and o["group"] not in groups:
            groups[o["group"]] = OptionGroup(id=o["group"], name=o["group"])
        options[o["id"]] = Option(
            id=o["id"], name=o["name"], cost=o["cost"], per_model=o.get("per_model", False),
            group=o.get("group"), max=o.get("max", 1), requires=tuple(o.get("requires", [])),
            requires_any=tuple(o.get("requires_any", [])),
            excludes=tuple(o.get("excludes", [])), equipment=tuple(o.get("equipment", [])),
            wizard_level=o.get("wizard_level", 0), role=o.get("role"), leadership=o.get("leadership"),
            tags=frozenset(o.get("tags", [])), item_allowance=o.get("item_allowance"), text=o.get("text", ""),
            max_per_models=o.get("max_per_models"), min_per_models=o.get("min_per_models"),
            size=(o["size"]["min"], o["size"].get("max")) if "size" in o else None,
        )
        if "size" in o and o["size"].get("max", o["size"]["min"]) < o["size"]["min"]:
            raise RulesDataError(source, path + ("options", i, "size"),
                                 f"max {o['size']['max']} is below min {o['size']['min']}")
    choices = {}
    for i, m in enumerate(data.get("mounts", [])):
        if m["mount"] not in mounts:
            raise RulesDataError(source, path + ("mounts", i, "mount"), f"unknown mount {m['mount']!r}")
        choices[m["mount"]] = MountChoice(mount=mounts[m["mount"]], cost=m["cost"],
                                          requires=tuple(m.get("requires", [])), tags=frozenset(m.get("tags", [])))
    # An option may depend on another option, a mount, or a command part (champion, musician, standard).
    known = set(options) | set(choices) | set(data.get("command", {}))
    for i, o in enumerate(raw_options):
        for key in ("requires", "requires_any", "excludes"):
            for j, ref in enumerate(o.get(key, [])):
                if ref not in known:
                    raise RulesDataError(source, path + ("options", i, key, j),
                                         f"names {ref!r}, which is not an option, mount or command part of {data['id']!r}")
    for i, m in enumerate(data.get("mounts", [])):
        for j, ref in enumerate(m.get("requires", [])):
            if ref not in options:
                raise RulesDataError(source, path + ("mounts", i, "requires", j),
                                     f"names {ref!r}, which is not an option of {data['id']!r}")
    wizard = data.get("wizard")
    entry_paths = tuple(wizard.get("paths", [])) if wizard else ()
    for j, p in enumerate(entry_paths):
        if p not in paths:
            raise RulesDataError(source, path + ("wizard", "paths", j), f"unknown Path {p!r}")
    default_allowance = system.item_allowances.get(category.id)
    command = {}
    for role, part in data.get("command", {}).items():
        command[role] = CommandPart(
            role=role, cost=part["cost"],
            items=_access(part.get("magic_items"), None, system, source, path + ("command", role, "magic_items"),
                          composition_ids),
            veteran=part.get("veteran", False), veteran_cost=part.get("veteran_cost", 0),
        )
    for cid in data.get("composition_categories", {}):
        if cid not in composition_ids:
            raise RulesDataError(source, path + ("composition_categories", cid), f"unknown composition {cid!r}")
    for cid, cat in data.get("composition_categories", {}).items():
        if cat not in categories:
            raise RulesDataError(source, path + ("composition_categories", cid), f"unknown category {cat!r}")
    for cid in data.get("composition_tags", {}):
        if cid not in composition_ids:
            raise RulesDataError(source, path + ("composition_tags", cid), f"unknown composition {cid!r}")
    profiles = tuple(data.get("profiles", []))
    equipment = set(data.get("equipment", []))
    for option in options.values():
        equipment.update(option.equipment)
    return Entry(
        id=data["id"], name=data["name"], category=category.id, troop_type=data["troop_type"],
        points=data["points"], base_points=data.get("base_points", 0),
        size_min=size["min"], size_max=size.get("max"), character=category.character,
        profiles=profiles, equipment=frozenset(data.get("equipment", [])), tags=frozenset(data.get("tags", [])),
        wizard_level=wizard["level"] if wizard else 0, paths=entry_paths,
        items=_access(data.get("magic_items"), default_allowance, system, source, path + ("magic_items",),
                      composition_ids),
        options=options, groups=groups, mounts=choices, mount_required=data.get("mount_required", False),
        command=command, leadership=_leadership(profiles),
        composition_categories=data.get("composition_categories", {}),
        composition_tags={cid: frozenset(tags) for cid, tags in data.get("composition_tags", {}).items()},
        character_in={cid: categories[cat].character for cid, cat in data.get("composition_categories", {}).items()
                      if categories[cat].character != category.character},
        armour_access=bool(equipment & system.armour),
        option_minimums=tuple(g for g in groups.values() if g.min),
        options_per_models=tuple(o for o in options.values() if o.min_per_models),
        tagged=tuple((tag, "entry:" + data["id"], data["name"]) for tag in data.get("tags", [])),
        rules=tuple(data.get("rules", [])), base=data.get("base", ""), text=data.get("text", ""),
        experience=data.get("experience", 0),
    )


def build_book(data: Mapping[str, Any], system: System, common_items: Mapping[str, Item], source: str) -> Book:
    check_schema("book", data, source)
    if data.get("item_categories"):
        # Runes, virtues and other item kinds only this book has: the book sees the system plus them.
        _unique(data["item_categories"], source, ("item_categories",), "item category")
        for i, c in enumerate(data["item_categories"]):
            if c["id"] in system.item_categories:
                raise RulesDataError(source, ("item_categories", i, "id"),
                                     f"item category {c['id']!r} is already the system's")
        extra = {c["id"]: _item_category(c) for c in data["item_categories"]}
        system = replace(system, item_categories={**system.item_categories, **extra})
        _check_counts_toward(data["item_categories"], system.item_categories, source)
    if data["system"] != system.id:
        raise RulesDataError(source, ("system",), f"is {data['system']!r}, but the file is in {system.id!r}")
    paths: dict[str, str] = {}
    for j, pid in enumerate(data.get("paths", [])):
        if pid not in system.paths:
            raise RulesDataError(source, ("paths", j), f"unknown Path {pid!r}; the system has {sorted(system.paths)}")
        paths[pid] = system.paths[pid]
    _unique(data.get("own_paths", []), source, ("own_paths",), "Path")
    own_paths = {p["id"]: p["name"] for p in data.get("own_paths", [])}
    paths.update(own_paths)
    known_paths = {**system.paths, **own_paths}

    _unique(data.get("mounts", []), source, ("mounts",), "mount")
    mounts = {}
    for i, m in enumerate(data.get("mounts", [])):
        if m["troop_type"] not in system.troop_types:
            raise RulesDataError(source, ("mounts", i, "troop_type"), f"unknown troop type {m['troop_type']!r}")
        mounts[m["id"]] = Mount(id=m["id"], name=m["name"], troop_type=m["troop_type"],
                                profiles=tuple(m.get("profiles", [])), tags=frozenset(m.get("tags", [])),
                                rules=tuple(m.get("rules", [])))

    _unique(data.get("items", []), source, ("items",), "item")
    items = dict(common_items)
    for i, d in enumerate(data.get("items", [])):
        if d["id"] in common_items:
            raise RulesDataError(source, ("items", i, "id"), f"item id {d['id']!r} is already a common item")
        items[d["id"]] = _item(d, system, source, ("items", i), False)
    _check_counts_as(items, source, ("items",), data.get("items", []))

    _unique(data.get("compositions", []), source, ("compositions",), "composition")
    compositions = {}
    # A composition may replace the system's rules and the book's own (an imported book's Grand Army limits).
    replaceable = {r.id for r in system.rules} | {r["id"] for r in data.get("rules", [])}
    for i, c in enumerate(data.get("compositions", [])):
        for j, rid in enumerate(c.get("replace_rules", [])):
            if rid not in replaceable:
                raise RulesDataError(source, ("compositions", i, "replace_rules", j),
                                     f"unknown system or book rule {rid!r}")
        compositions[c["id"]] = Composition(
            id=c["id"], name=c["name"], source=c.get("source", ""),
            rules=_rules(c.get("rules", []), source, ("compositions", i, "rules"), "book"),
            replace_rules=frozenset(c.get("replace_rules", [])),
            replace_tags=frozenset(c.get("replace_tagged", [])),
        )

    _unique(data["entries"], source, ("entries",), "entry")
    entries = {e["id"]: _entry(e, system, mounts, known_paths, source, ("entries", i), set(compositions))
               for i, e in enumerate(data["entries"])}
    _check_needs_equipment(data, entries, system, source)
    known = {
        "entry": set(entries), "option": {o for e in entries.values() for o in e.options},
        "mount": set(mounts), "item": set(items), "category": set(system.category_names),
        "troop_type": set(system.troop_types), "item_category": set(system.item_categories),
    }
    for i, r in enumerate(data.get("rules", [])):
        _check_selectors(r, known, source, ("rules", i))
    for i, c in enumerate(data.get("compositions", [])):
        for j, r in enumerate(c.get("rules", [])):
            _check_selectors(r, known, source, ("compositions", i, "rules", j))
    return Book(
        id=data["id"], name=data["name"], version=str(data["version"]), system=system,
        entries=entries, items=items, mounts=mounts, paths=paths, compositions=compositions,
        rules=_rules(data.get("rules", []), source, ("rules",), "book"),
        sources=tuple(data["sources"]), notes=data.get("notes", ""),
        imported=data.get("imported", False), unchecked=tuple(data.get("unchecked", [])),
        content_hash=content_hash(data), data=data,
        default_limit=data.get("default_limit", system.default_limit),
    )


def _check_needs_equipment(data: Mapping[str, Any], entries: Mapping[str, Entry], system: System, source: str) -> None:
    """The equipment a book's item or item category needs is some entry's or option's of the book (or the
    system's armour): a misspelt id would otherwise refuse the item to every model."""
    carried = set(system.armour).union(*(e.equipment for e in entries.values()),
                                       *(o.equipment for e in entries.values() for o in e.options.values()))
    places = [(("item_categories", i), c.get("needs_equipment", []))
              for i, c in enumerate(data.get("item_categories", []))]
    places += [(("items", i, "restrictions"), d.get("restrictions", {}).get("needs_equipment", []))
               for i, d in enumerate(data.get("items", []))]
    for where, needs in places:
        for j, eid in enumerate(needs):
            if eid not in carried:
                raise RulesDataError(source, where + ("needs_equipment", j),
                                     f"no entry or option of the book carries {eid!r}")


def _check_selectors(rule: Mapping[str, Any], known: Mapping[str, set[str]], source: str, path: tuple) -> None:
    """A selector naming an entry, option, mount, item, category or troop type that does not exist is an
    error now, not a rule that silently never matches."""
    schema = getattr(CHECKS[rule["type"]], "params_schema", {})
    for name, spec in schema.get("properties", {}).items():
        if spec.get("$ref") != "#/$defs/selector" or name not in rule.get("params", {}):
            continue
        _check_selector(rule["params"][name], known, source, path + ("params", name))


def _check_selector(selector: Mapping[str, Any], known: Mapping[str, set[str]], source: str, path: tuple) -> None:
    for key, value in selector.items():
        if key == "not":
            _check_selector(value, known, source, path + ("not",))
        if key not in known or isinstance(value, bool):
            continue
        for j, ref in enumerate([value] if isinstance(value, str) else value):
            if ref not in known[key]:
                where = path + (key,) + ((j,) if not isinstance(value, str) else ())
                raise RulesDataError(source, where, f"unknown {key.replace('_', ' ')} {ref!r}")


# --- a folder of rules data -------------------------------------------------------------------

@dataclass(frozen=True)
class RulesFile:
    """One loaded file, as the database stores it."""
    kind: str  # system, items, book
    system: str
    id: str
    version: str
    name: str
    path: str
    content_hash: str
    data: Mapping[str, Any] = field(repr=False)


@dataclass
class Library:
    """Every system and book found under a rules data folder."""
    systems: dict[str, System] = field(default_factory=dict)
    books: dict[tuple[str, str, str], Book] = field(default_factory=dict)
    files: list[RulesFile] = field(default_factory=list)
    common_items: dict[str, dict[str, Item]] = field(default_factory=dict)

    def book(self, system: str, book: str, version: str) -> Book | None:
        return self.books.get((system, book, version))

    def latest(self, system: str, book: str) -> Book | None:
        versions = [b for (s, i, _), b in self.books.items() if s == system and i == book]
        return max(versions, key=lambda b: _version_key(b.version)) if versions else None


def _version_key(version: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in version.replace("-", ".").split("."))


def load_system_folder(folder: Path, root: Path, library: Library) -> None:
    def display(p: Path) -> str:
        return str(p.relative_to(root.parent)) if p.is_relative_to(root.parent) else str(p)

    system_path = folder / "system.yaml"
    sys_data = read_yaml(system_path, display(system_path))
    system = build_system(sys_data, display(system_path))
    if system.id != folder.name:
        raise RulesDataError(display(system_path), ("id",), f"is {system.id!r}; it must match its folder {folder.name!r}")
    library.systems[system.id] = system
    library.files.append(RulesFile("system", system.id, system.id, system.version, system.name,
                                   display(system_path), system.content_hash, sys_data))
    common: dict[str, Item] = {}
    for path in sorted((folder / "items").glob("*.yaml")):
        data = read_yaml(path, display(path))
        items = build_items(data, system, display(path))
        for iid in items:
            if iid in common:
                raise RulesDataError(display(path), ("items",), f"item id {iid!r} is also defined in another item list")
        common.update(items)
        library.files.append(RulesFile("items", system.id, data["id"], str(data["version"]), data["name"],
                                       display(path), content_hash(data), data))
    library.common_items[system.id] = common
    for path in sorted((folder / "books").glob("*.yaml")):
        data = read_yaml(path, display(path))
        book = build_book(data, system, common, display(path))
        if book.key in library.books:
            raise RulesDataError(display(path), ("version",), f"{book.id} {book.version} is defined by two files")
        library.books[book.key] = book
        library.files.append(RulesFile("book", system.id, book.id, book.version, book.name,
                                       display(path), book.content_hash, data))


def load_tree(root: Path) -> Library:
    """Load every system folder under `root` (folders holding a system.yaml)."""
    library = Library()
    for folder in sorted(p for p in root.iterdir() if (p / "system.yaml").is_file()):
        load_system_folder(folder, root, library)
    return library


def build_from_stored(system_data: Mapping, item_lists: Iterable[Mapping], book_data: Mapping, source: str) -> Book:
    """Rebuild a book from the documents the database stored (for versions no longer on disk)."""
    system = build_system(system_data, source)
    common: dict[str, Item] = {}
    for data in item_lists:
        common.update(build_items(data, system, source))
    return build_book(book_data, system, common, source)
