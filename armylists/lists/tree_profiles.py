"""The profiles and rules a unit card of a roster tree shows (issue 22 item 1): those of the unit's
selections (the unit and every selection in it), from the entries' own profiles and rules and what their
info links name, laid out by the data's profile types (their characteristic types' order). Profile
modifiers are not read by the importer: values are the data's as written."""
from __future__ import annotations

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
            for target, kind, _name in source.get("info_links", []):
                if kind == "profile" and (doc := _shared(tree, "profiles", target)) is not None:
                    profiles.append(doc["profiles"][target])
                elif kind == "rule" and (doc := _shared(tree, "rules", target)) is not None:
                    found_rules.append((doc["rules"][target], doc.get("rule_texts", {}).get(target, "")))
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


def _columns(tree: TreeRoster, profile: dict) -> list[str]:
    for doc in tree.game.docs.values():
        if profile.get("type_id") in doc.get("profile_types", {}):
            return doc["profile_types"][profile["type_id"]]
    return [name for name, _v in profile.get("characteristics", [])]
