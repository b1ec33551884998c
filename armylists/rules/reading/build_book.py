"""Building an army book from checked data: entries, options, item access, and every reference checked."""

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from armylists.rules.native.book import (
    Book, CommandPart, Composition, Discount, Entry, Item, ItemAccess, Mount, MountChoice, Option, OptionGroup, System,
)
from armylists.rules.reading.build_system import (
    build_item, build_item_category, build_rules, check_counts_as, check_counts_toward, check_unique,
)
from armylists.rules.checks import CHECKS
from armylists.rules.reading.data_files import check_schema, content_hash
from armylists.rules.errors import RulesDataError


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


# An option with no other field is built in a few steps: Option's defaults are those read below for the rest.
_PLAIN_OPTION = frozenset(("id", "name", "cost", "per_model", "max", "requires", "tags", "model_cost"))


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
    check_unique(raw_options, source, path + ("options",), "option")
    groups = {gid: OptionGroup(id=gid, name=g.get("name") or _group_name(gid), min=g.get("min", 0), max=g.get("max", 1),
                               further_percent=g.get("further_percent"))
              for gid, g in data.get("groups", {}).items()}
    options = {}
    for i, o in enumerate(raw_options):
        if o.keys() <= _PLAIN_OPTION:  # the other fields at their defaults (an imported book's 200,000 options)
            options[o["id"]] = Option(o["id"], o["name"], o["cost"], o.get("per_model", False), None, o.get("max", 1),
                                      tuple(o.get("requires", ())), tags=frozenset(o.get("tags", ())),
                                      model_cost=o.get("model_cost", 0))
            continue
        if o.get("group") and o["group"] not in groups:
            groups[o["group"]] = OptionGroup(id=o["group"], name=_group_name(o["group"]))
        options[o["id"]] = Option(
            id=o["id"], name=o["name"], cost=o["cost"], per_model=o.get("per_model", False),
            group=o.get("group"), max=o.get("max", 1), requires=tuple(o.get("requires", [])),
            requires_any=tuple(o.get("requires_any", [])),
            excludes=tuple(o.get("excludes", [])), equipment=tuple(o.get("equipment", [])),
            wizard_level=o.get("wizard_level", 0), role=o.get("role"), leadership=o.get("leadership"),
            tags=frozenset(o.get("tags", [])), item_allowance=o.get("item_allowance"), text=o.get("text", ""),
            max_per_models=o.get("max_per_models"), min_per_models=o.get("min_per_models"),
            size=(o["size"]["min"], o["size"].get("max")) if "size" in o else None,
            model_cost=o.get("model_cost", 0), item_pool=o.get("item_pool"), profiles=tuple(o.get("profiles", [])),
            tag_weights=_weights(o),
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
        rising_groups=tuple(g for g in groups.values() if g.further_percent is not None),
        discounts=_discounts(data.get("discounts", ()), options, groups, source, path),
        options_per_models=tuple(o for o in options.values() if o.min_per_models),
        tagged=tuple((tag, "entry:" + data["id"], data["name"]) for tag in data.get("tags", [])),
        rules=tuple(data.get("rules", [])), base=data.get("base", ""), text=data.get("text", ""),
        experience=data.get("experience", 0), model_tags=frozenset(data.get("model_tags", [])),
        tag_weights=_weights(data),
    )


def _weights(data: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """`tag_weights` as sorted (tag, weight) pairs, a whole weight as an int (counts stay whole numbers)."""
    return tuple(sorted((t, int(w) if float(w).is_integer() else float(w))
                        for t, w in data.get("tag_weights", {}).items()))


def _discounts(data: Iterable[Mapping[str, Any]], options: Mapping[str, Option], groups: Mapping[str, OptionGroup],
               source: str, path: tuple) -> tuple[Discount, ...]:
    """An entry's `discounts`: each names options of the entry, or groups whose options are in the set."""
    found = []
    for i, d in enumerate(data):
        for key, known, what in (("options", options, "an option"), ("groups", groups, "a group")):
            for j, ref in enumerate(d.get(key, ())):
                if ref not in known:
                    raise RulesDataError(source, path + ("discounts", i, key, j),
                                         f"names {ref!r}, which is not {what} of this entry")
        members = set(d.get("options", ())) | {o.id for o in options.values() if o.group in set(d.get("groups", ()))}
        if not members:
            raise RulesDataError(source, path + ("discounts", i), "names no option (options or groups)")
        found.append(Discount(d["name"], frozenset(members), d["cheapest_percent"], d["round"] == "up",
                              d.get("source", "")))
    return tuple(found)


def build_book(data: Mapping[str, Any], system: System, common_items: Mapping[str, Item], source: str,
               hash_of: Callable[[Any], str] = content_hash) -> Book:
    """The Book of checked data; `hash_of` computes its content hash (an importer, whose data the database
    stores, passes data_files.stored_content_hash: the same hash, sooner)."""
    check_schema("book", data, source)
    if data.get("item_categories"):
        # Runes, virtues and other item kinds only this book has: the book sees the system plus them.
        check_unique(data["item_categories"], source, ("item_categories",), "item category")
        for i, c in enumerate(data["item_categories"]):
            if c["id"] in system.item_categories:
                raise RulesDataError(source, ("item_categories", i, "id"),
                                     f"item category {c['id']!r} is already the system's")
        extra = {c["id"]: build_item_category(c) for c in data["item_categories"]}
        system = replace(system, item_categories={**system.item_categories, **extra})
        check_counts_toward(data["item_categories"], system.item_categories, source)
    if data["system"] != system.id:
        raise RulesDataError(source, ("system",), f"is {data['system']!r}, but the file is in {system.id!r}")
    paths: dict[str, str] = {}
    for j, pid in enumerate(data.get("paths", [])):
        if pid not in system.paths:
            raise RulesDataError(source, ("paths", j), f"unknown Path {pid!r}; the system has {sorted(system.paths)}")
        paths[pid] = system.paths[pid]
    check_unique(data.get("own_paths", []), source, ("own_paths",), "Path")
    own_paths = {p["id"]: p["name"] for p in data.get("own_paths", [])}
    paths.update(own_paths)
    known_paths = {**system.paths, **own_paths}

    check_unique(data.get("mounts", []), source, ("mounts",), "mount")
    mounts = {}
    for i, m in enumerate(data.get("mounts", [])):
        if m["troop_type"] not in system.troop_types:
            raise RulesDataError(source, ("mounts", i, "troop_type"), f"unknown troop type {m['troop_type']!r}")
        mounts[m["id"]] = Mount(id=m["id"], name=m["name"], troop_type=m["troop_type"],
                                profiles=tuple(m.get("profiles", [])), tags=frozenset(m.get("tags", [])),
                                rules=tuple(m.get("rules", [])))

    check_unique(data.get("items", []), source, ("items",), "item")
    items = dict(common_items)
    for i, d in enumerate(data.get("items", [])):
        if d["id"] in common_items:
            raise RulesDataError(source, ("items", i, "id"), f"item id {d['id']!r} is already a common item")
        items[d["id"]] = build_item(d, system, source, ("items", i), False)
    check_counts_as(items, source, ("items",), data.get("items", []))

    system_rules = {r.id for r in system.rules}
    for j, rid in enumerate(data.get("replace_rules", [])):
        if rid not in system_rules:
            raise RulesDataError(source, ("replace_rules", j), f"unknown system rule {rid!r}")
    check_unique(data.get("compositions", []), source, ("compositions",), "composition")
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
            rules=build_rules(c.get("rules", []), source, ("compositions", i, "rules"), "book"),
            replace_rules=frozenset(c.get("replace_rules", [])),
            replace_tags=frozenset(c.get("replace_tagged", [])),
        )

    check_unique(data["entries"], source, ("entries",), "entry")
    entries = {e["id"]: _entry(e, system, mounts, known_paths, source, ("entries", i), set(compositions))
               for i, e in enumerate(data["entries"])}
    # The system's entries this book may take (Mordheim's Hired Swords), after its own.
    for k, shared in enumerate(system.shared_entries):
        if not shared.offered_to(data["id"]):
            continue
        if shared.data["id"] in entries:
            raise RulesDataError(source, ("entries",), f"entry {shared.data['id']!r} is also the system's shared "
                                                       f"entry (shared_entries[{k}])")
        entries[shared.data["id"]] = _entry(shared.data, system, mounts, known_paths,
                                            f"{system.id} system file", ("shared_entries", k, "entry"),
                                            set(compositions))
    _check_needs_equipment(data, entries, system, source)
    known = {
        "entry": set(entries), "option": {o for e in entries.values() for o in e.options},
        "mount": set(mounts), "item": set(items), "category": set(system.category_names),
        "troop_type": set(system.troop_types), "item_category": set(system.item_categories),
    }
    for i, r in enumerate(data.get("rules", [])):
        check_selectors(r, known, source, ("rules", i))
    for i, c in enumerate(data.get("compositions", [])):
        for j, r in enumerate(c.get("rules", [])):
            check_selectors(r, known, source, ("compositions", i, "rules", j))
    return Book(
        id=data["id"], name=data["name"], version=str(data["version"]), system=system,
        entries=entries, items=items, mounts=mounts, paths=paths, compositions=compositions,
        rules=build_rules(data.get("rules", []), source, ("rules",), "book"),
        sources=tuple(data["sources"]), notes=data.get("notes", ""),
        imported=data.get("imported", False), unchecked=tuple(data.get("unchecked", [])),
        content_hash=hash_of(data), data=data,
        default_limit=data.get("default_limit", system.default_limit),
        replace_rules=frozenset(data.get("replace_rules", [])),
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


def check_selectors(rule: Mapping[str, Any], known: Mapping[str, set[str]], source: str, path: tuple) -> None:
    """A selector naming an entry, option, mount, item, category or troop type that does not exist is an
    error now, not a rule that silently never matches."""
    schema = getattr(CHECKS[rule["type"]], "params_schema", {})
    for name, spec in schema.get("properties", {}).items():
        if spec.get("$ref") != "#/$defs/selector" or name not in rule.get("params", {}):
            continue
        check_selector(rule["params"][name], known, source, path + ("params", name))


def check_selector(selector: Mapping[str, Any], known: Mapping[str, set[str]], source: str, path: tuple) -> None:
    for key, value in selector.items():
        if key == "not":
            check_selector(value, known, source, path + ("not",))
        if key not in known or isinstance(value, bool):
            continue
        for j, ref in enumerate([value] if isinstance(value, str) else value):
            if ref not in known[key]:
                where = path + (key,) + ((j,) if not isinstance(value, str) else ())
                raise RulesDataError(source, where, f"unknown {key.replace('_', ' ')} {ref!r}")


def _group_name(group_id: str) -> str:
    """A group the data names only by id ("wizard-level") is shown by that id in words: "Wizard level"."""
    return group_id.replace("-", " ").replace("_", " ").capitalize()
