"""Building a game system and its item lists from checked data (the first two steps of loading)."""

from typing import Any, Callable, Iterable, Mapping

from armylists.rules.native.book import (
    AlliedArmy, AlliesRules, Category, Composition, Item, ItemCategory, Rule, SharedEntry, SizeBand, System, TroopType,
)
from armylists.rules.checks import CHECKS
from armylists.rules.reading.data_files import check_params, check_schema, content_hash
from armylists.rules.errors import RulesDataError


def build_rule(data: Mapping[str, Any], source: str, path: tuple, origin: str) -> Rule:
    check = CHECKS.get(data["type"])
    if check is None:
        known = ", ".join(sorted(CHECKS))
        raise RulesDataError(source, path + ("type",), f"unknown rule type {data['type']!r}; known: {known}")
    params = data.get("params", {})
    schema = getattr(check, "params_schema", None)
    if schema is not None:
        check_params(schema, params, source, path + ("params",))
    return Rule(
        id=data["id"], type=data["type"], params=params, severity=data.get("severity", "error"),
        source=data.get("source", ""), text=data.get("text", ""), origin=origin,
        tags=frozenset(data.get("tags", ())),
    )


def build_rules(items: Iterable[Mapping], source: str, path: tuple, origin: str) -> tuple[Rule, ...]:
    rules, seen = [], set()
    for i, data in enumerate(items):
        if data["id"] in seen:
            raise RulesDataError(source, path + (i, "id"), f"rule id {data['id']!r} is used twice")
        seen.add(data["id"])
        rules.append(build_rule(data, source, path + (i,), origin))
    return tuple(rules)


def build_modes(data: Mapping[str, Any], source: str) -> dict[str, Composition]:
    """Matched-play rule sets: like a book's compositions, chosen by the list (`modes`)."""
    check_unique(data.get("modes", []), source, ("modes",), "mode")
    rule_ids = {r["id"] for r in data["rules"]}
    modes = {}
    for i, m in enumerate(data.get("modes", [])):
        for j, rid in enumerate(m.get("replace_rules", [])):
            if rid not in rule_ids:
                raise RulesDataError(source, ("modes", i, "replace_rules", j), f"unknown system rule {rid!r}")
        modes[m["id"]] = Composition(id=m["id"], name=m["name"], source=m.get("source", ""),
                                     rules=build_rules(m.get("rules", []), source, ("modes", i, "rules"), "system"),
                                     replace_rules=frozenset(m.get("replace_rules", [])),
                                     replace_tags=frozenset(m.get("replace_tagged", [])))
    return modes


def build_figures(items: Iterable[Mapping], source: str) -> tuple[Rule, ...]:
    from armylists.rules.native.figures import FIGURES

    out = []
    for i, data in enumerate(items):
        if data["type"] not in FIGURES:
            raise RulesDataError(source, ("figures", i, "type"),
                                 f"unknown figure type {data['type']!r}; known: {', '.join(sorted(FIGURES))}")
        out.append(Rule(id=data["id"], type=data["type"], params=data.get("params", {}),
                        source=data.get("source", ""), text=data.get("name", data["id"]), origin="system"))
    return tuple(out)


def check_unique(items: Iterable[Mapping], source: str, path: tuple, what: str) -> None:
    seen = set()
    for i, data in enumerate(items):
        if data["id"] in seen:
            raise RulesDataError(source, path + (i, "id"), f"{what} id {data['id']!r} is defined twice")
        seen.add(data["id"])


def build_system(data: Mapping[str, Any], source: str, hash_of: Callable[[Any], str] = content_hash) -> System:
    """The System of checked data; `hash_of` as build_book's."""
    check_schema("system", data, source)
    for key, what in (("categories", "category"), ("troop_types", "troop type"),
                      ("size_bands", "size band"), ("item_categories", "item category"), ("paths", "path")):
        check_unique(data.get(key, []), source, (key,), what)
    troop_types = {t["id"]: TroopType(**t) for t in data["troop_types"]}
    for i, t in enumerate(data["troop_types"]):
        if t.get("as_mount") and t["as_mount"] not in troop_types:
            raise RulesDataError(source, ("troop_types", i, "as_mount"), f"unknown troop type {t['as_mount']!r}")
    categories = tuple(Category(**c) for c in data["categories"])
    category_ids = {c.id for c in categories}
    item_categories = {c["id"]: build_item_category(c) for c in data.get("item_categories", [])}
    check_counts_toward(data.get("item_categories", []), item_categories, source)
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
        rules=build_rules(data["rules"], source, ("rules",), "system"),
        figures=build_figures(data.get("figures", []), source),
        modes=build_modes(data, source),
        budget_unit=data.get("budget", {}).get("unit", "pts"),
        default_limit=data.get("budget", {}).get("default_limit"),
        print_variant=data.get("print_variant", "full"),
        hidden_list=bool(data.get("hidden_list", False)),
        sources=tuple(data["sources"]),
        content_hash=hash_of(data),
        allies=allies,
        shared_entries=tuple(
            SharedEntry(data=e["entry"], books=frozenset(e["books"]) if "books" in e else None,
                        except_books=frozenset(e.get("except_books", [])))
            for e in data.get("shared_entries", [])),
        path_word=data.get("words", {}).get("path", "Path of Magic"),
        general_word=data.get("words", {}).get("general", "General"),
        documents={number: (doc["name"], tuple(sorted((s["line"], s["name"]) for s in doc.get("sections", []))))
                   for number, doc in data.get("words", {}).get("documents", {}).items()},
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


def build_item(data: Mapping[str, Any], system: System, source: str, path: tuple, common: bool) -> Item:
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


def build_item_category(data: Mapping[str, Any]) -> ItemCategory:
    fields = {k: v for k, v in data.items() if k != "source"}
    if "needs_equipment" in fields:
        fields["needs_equipment"] = tuple(fields["needs_equipment"])
    return ItemCategory(**fields)


def check_counts_toward(raw: list, categories: Mapping[str, ItemCategory], source: str) -> None:
    """A category whose items count toward another's (master runes toward their runic item) names a real one."""
    for i, c in enumerate(raw):
        target = c.get("counts_toward")
        if target is not None and (target not in categories or target == c["id"]):
            raise RulesDataError(source, ("item_categories", i, "counts_toward"), f"unknown item category {target!r}")


def check_counts_as(items: Mapping[str, Item], source: str, path: tuple, raw: list) -> None:
    for i, data in enumerate(raw):
        target = data.get("counts_as")
        if target and target not in items:
            raise RulesDataError(source, path + (i, "counts_as"), f"unknown item {target!r}")


def build_items(data: Mapping[str, Any], system: System, source: str) -> dict[str, Item]:
    check_schema("item", data, source)
    if data["system"] != system.id:
        raise RulesDataError(source, ("system",), f"is {data['system']!r}, but the file is in {system.id!r}")
    check_unique(data["items"], source, ("items",), "item")
    items = {d["id"]: build_item(d, system, source, ("items", i), True) for i, d in enumerate(data["items"])}
    check_counts_as(items, source, ("items",), data["items"])
    return items

