"""The profiles and rules of what a unit holds, as they stand in the roster (issue 22 items 1 and 5).

A unit's card and its printed roster show the profiles and rules of the unit's selections (the unit and
every selection in it): the entries' own and those their info links name, laid out by the data's
profile types (their characteristic types' order), a table per profile type. Each profile is shown after
its modifiers and its info link's (issue 21 item 1, "profiles' characteristics"): a modifier's `field`
is a characteristic type's id (or `name`, or `hidden`), its type `set`, `increment`, `decrement`,
`append` or `prepend`, gated by its conditions and modifier groups and multiplied by its repeats, as
for an entry (effective.py: `set` first, then the rest in order). The conditions are asked where the
selection holding the profile stands. A hidden profile or rule (by its flag or a modifier) is not shown.

What is not understood (a `replace`, an increment of a value that is not a number) leaves the value as
the data writes it and is named in `notes`: a profile is shown, never judged, so nothing is called legal
on it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armylists.rules.battlescribe.effective import DISPLAY_FIELDS, applying, as_number, number_text
from armylists.rules.battlescribe.queries import Context, Unsupported
from armylists.rules.battlescribe.tree import Roster, Selection

LONG_RULE = 200   # characters: a longer rule's text is folded on the card


@dataclass
class Shown:
    """A profile (or a rule: no values) where it stands: its name, hidden flag and characteristics."""
    name: str
    hidden: bool
    values: list[list[str]] = field(default_factory=list)   # [characteristic name, value], the data's order


def shown(tree: Roster, selection: Selection, node: dict, link: dict | None, notes: list[str]) -> Shown:
    """`node` (a profile, or a rule's {"name": ...}) after its own modifiers, then its info link's."""
    result = Shown(node.get("name", ""), bool(node.get("hidden")) or bool((link or {}).get("hidden")),
                   [[n, v] for n, v in node.get("characteristics", [])])
    sources = [s for s in (node, link) if s and (s.get("modifiers") or s.get("modifier_groups"))]
    if not sources:
        return result
    ctx = Context(tree, selection, selection.parent, selection.option)
    names = tree.game.characteristic_names
    for modifier, times in applying(sources, ctx, lambda _source, exc: notes.append(f"{result.name}: {exc}")):
        try:
            _apply(result, modifier, times, names)
        except Unsupported as exc:
            notes.append(f"{result.name}: {exc}")
    return result


def _apply(result: Shown, modifier: dict, times: int, names: dict[str, str]) -> None:
    kind, target, value = modifier.get("type"), modifier.get("field"), modifier.get("value", "")
    if target == "name":
        result.name = changed(kind, result.name, value, times)
    elif target == "hidden":
        if kind != "set":
            raise Unsupported(f"modifier type {kind!r} on hidden")
        result.hidden = str(value).lower() == "true"
    elif target in names:
        for pair in result.values:
            if pair[0] == names[target]:
                pair[1] = changed(kind, pair[1], value, times)
    elif target not in DISPLAY_FIELDS:
        raise Unsupported(f"modifier field {target!r} ({kind}) of a profile")


def changed(kind: str, current: str, value, times: int) -> str:
    """A characteristic (or name) after one modifier applied `times` times."""
    value = number_text(value) if isinstance(value, float) else str(value)
    if kind == "set":
        return value
    if kind in ("increment", "decrement"):
        try:
            number = as_number(current)
        except Unsupported:
            raise Unsupported(f"{kind} of {current!r}, which is not a number") from None
        step = as_number(value) * times
        return number_text(number + step if kind == "increment" else number - step)
    if kind in ("append", "prepend"):
        words = [value.strip()] * times
        parts = [current.strip()] + words if kind == "append" else words + [current.strip()]
        return " ".join(p for p in parts if p)
    raise Unsupported(f"modifier type {kind!r} on a characteristic")


def _shared(tree: Roster, kind: str, target: str):
    for doc in tree.game.docs.values():
        if target in doc.get(kind, {}):
            return doc
    return None


def card_extras(tree: Roster, unit: Selection, notes: list[str] | None = None) -> tuple[list[dict], list[dict]]:
    """(profile tables, rules) of `unit` and what it holds: tables by profile type, each {type, order,
    columns, rows} (a row: the profile's name, then its values in the columns' order); rules {name,
    text, long}, each once."""
    notes = [] if notes is None else notes
    tables: dict[str, dict] = {}
    rules: list[dict] = []
    for selection in unit.walk():
        profiles, found_rules = [], []
        for source in selection.option.sources:
            profiles += [(p, None) for p in source.get("profiles", [])]
            texts = source.get("rule_texts", [])
            found_rules += [(n, texts[i] if i < len(texts) else "") for i, n in enumerate(source.get("rules", []))]
            link_modifiers = source.get("info_link_modifiers", [])
            for i, (target, kind, _name) in enumerate(source.get("info_links", [])):
                own = link_modifiers[i] if i < len(link_modifiers) else {}
                if kind == "profile" and (doc := _shared(tree, "profiles", target)) is not None:
                    profiles.append((doc["profiles"][target], own))
                elif kind == "rule" and (doc := _shared(tree, "rules", target)) is not None:
                    rule = shown(tree, selection, {"name": doc["rules"][target]}, own, notes)
                    if not rule.hidden:
                        found_rules.append((rule.name, doc.get("rule_texts", {}).get(target, "")))
        for profile, link in profiles:
            seen = shown(tree, selection, profile, link, notes)
            if seen.hidden:
                continue
            type_key = profile.get("type", "")
            table = tables.setdefault(type_key, {"type": type_key.lstrip("0123456789 "), "order": type_key,
                                                 "columns": _columns(tree, profile), "rows": []})
            values = dict(seen.values)
            row = [seen.name] + [values.get(c, "") for c in table["columns"]]
            if row not in table["rows"]:
                table["rows"].append(row)
        for name, text in found_rules:
            if all(r["name"] != name for r in rules):
                rules.append({"name": name, "text": text, "long": len(text) > LONG_RULE})
    return sorted(tables.values(), key=lambda t: t["order"]), rules


def _columns(tree: Roster, profile: dict) -> list[str]:
    for doc in tree.game.docs.values():
        if profile.get("type_id") in doc.get("profile_types", {}):
            return doc["profile_types"][profile["type_id"]]
    return [name for name, _v in profile.get("characteristics", [])]
