"""The profiles and rules a unit card of a roster tree shows (issue 22 item 1): those of the unit's
selections (the unit and every selection in it), from the entries' own profiles and rules and what their
info links name (a link's name after its own modifiers), laid out by the data's profile types (their
characteristic types' order). Modifiers of characteristics are not read: values are the data's."""
from __future__ import annotations

from armylists.rules.battlescribe.effective import effective
from armylists.rules.battlescribe.queries import Context, Unsupported
from armylists.rules.battlescribe.tree import Roster as TreeRoster
from armylists.rules.battlescribe.tree import Selection


def _shared(tree: TreeRoster, kind: str, target: str):
    for doc in tree.game.docs.values():
        if target in doc.get(kind, {}):
            return doc
    return None


def card_extras(tree: TreeRoster, unit: Selection) -> tuple[list[dict], list[dict]]:
    """(profile tables, rules): tables by profile type, each {type, columns, rows}; rules {name, text}."""
    tables: dict[str, dict] = {}
    rules: list[dict] = []
    for selection in unit.walk():
        profiles, found_rules = [], []
        for source in selection.option.sources:
            profiles += source.get("profiles", [])
            texts = source.get("rule_texts", [])
            found_rules += [(n, texts[i] if i < len(texts) else "") for i, n in enumerate(source.get("rules", []))]
            link_modifiers = source.get("info_link_modifiers", [])
            for i, (target, kind, _name) in enumerate(source.get("info_links", [])):
                own = link_modifiers[i] if i < len(link_modifiers) else {}
                if kind == "profile" and (doc := _shared(tree, "profiles", target)) is not None:
                    profile = doc["profiles"][target]
                    profiles.append({**profile, "name": _named(tree, selection, profile["name"], own)})
                elif kind == "rule" and (doc := _shared(tree, "rules", target)) is not None:
                    found_rules.append((_named(tree, selection, doc["rules"][target], own),
                                        doc.get("rule_texts", {}).get(target, "")))
        for profile in profiles:
            columns = _columns(tree, profile)
            table = tables.setdefault(profile.get("type", ""), {"type": profile.get("type", "").lstrip("0123456789 "),
                                                                 "order": profile.get("type", ""),
                                                                 "columns": columns, "rows": []})
            values = dict(profile.get("characteristics", []))
            row = [profile.get("name", "")] + [values.get(c, "") for c in table["columns"]]
            if row not in table["rows"]:
                table["rows"].append(row)
        for name, text in found_rules:
            if all(r["name"] != name for r in rules):
                rules.append({"name": name, "text": text, "long": len(text) > 200})
    return sorted(tables.values(), key=lambda t: t["order"]), rules


def _named(tree: TreeRoster, selection: Selection, name: str, link: dict) -> str:
    """An info link's name after its own modifiers, where the selection stands ("Hard Target (1)")."""
    if not link.get("modifiers") and not link.get("modifier_groups"):
        return name
    cost_types = {c["id"] for c in tree.game.cost_types}
    ctx = Context(tree, selection, selection.parent, selection.option)
    try:
        return effective(ctx, ({"name": name, **link},), cost_types, []).name or name
    except Unsupported:
        return name


def _columns(tree: TreeRoster, profile: dict) -> list[str]:
    for doc in tree.game.docs.values():
        if profile.get("type_id") in doc.get("profile_types", {}):
            return doc["profile_types"][profile["type_id"]]
    return [name for name, _v in profile.get("characteristics", [])]
