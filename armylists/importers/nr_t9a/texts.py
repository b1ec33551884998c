"""What New Recruit's T9A data says of a unit beyond its points: its profiles (unitstats.json), its rules
and their texts (ruledefs.json), the spells an option gives (spells.json) and a Special Item's description
(docs/import-nr-t9a.md). None of it changes a price or a verdict; the editor and the roster show it.

Entries are found by the unit's name (a unit's variants, `<unit>-with-<ref>`, share it), options by the
name of the node that gives them.
"""
from __future__ import annotations

import html
import re

from armylists.importers.nr_t9a.limits import slug
from armylists.importers.nr_t9a.profiles import army_profiles

# The three lines of a T9A profile: global, defensive, offensive (one offensive line per model part).
GLOBAL, DEFENSIVE, OFFENSIVE = ("Ad", "Ma", "Di"), ("HP", "Df", "Re", "Arm"), ("At", "Of", "St", "AP", "Ag")
PARTS = ("", "B", "C")  # the data's suffixes of a unit's second and third model part
MAX_TEXT = 4000  # one rule's or item's text (the longest of the data is about 2,500 characters)
MAX_STAT = 8  # the book format's longest characteristic


def plain(text: object, limit: int = MAX_TEXT) -> str:
    """The data's HTML fragment as plain text: tags dropped (a line break kept), entities read. A table (a
    weapon's Range, Shots, Str, AP: ruledefs.json) keeps its shape, a line a row and its cells apart
    ("Name | Aim | Range" over "Repeater Crossbow | X | 18\""), where dropping its tags ran it into one word."""
    if not isinstance(text, str):
        return ""
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.I)
    text = re.sub(r"</t[hd]>\s*(?=<t[hd][\s>])", " | ", text, flags=re.I)   # between two cells of a row
    text = re.sub(r"</?(?:tr|table|thead|tbody)\b[^>]*>", "\n", text, flags=re.I)   # a row: a line of its own
    text = html.unescape(re.sub(r"<[^>]*>", "", text))
    text = "\n".join(" ".join(line.split()) for line in text.splitlines())
    return re.sub(r"\n{2,}", "\n", text).strip()[:limit]


def _stat(value: object) -> str | None:
    return str(value).strip()[:MAX_STAT] if isinstance(value, (str, int, float)) and str(value).strip() else None


def profiles(stats: dict) -> list[dict]:
    """One row per model part: the first with the unit's global and defensive characteristics."""
    rows = []
    for part in PARTS:
        offense = stats.get(f"offense{part}")
        if not isinstance(offense, dict):
            continue
        row: dict = {"name": str(stats.get(f"offensename{part}") or stats.get("name") or "")[:80]}
        if not part:
            for key, stat_names in (("global", GLOBAL), ("defense", DEFENSIVE)):
                line = stats.get(key) if isinstance(stats.get(key), dict) else {}
                row.update({k: v for k in stat_names if (v := _stat(line.get(k))) is not None})
        row.update({k: v for k in OFFENSIVE if (v := _stat(offense.get(k))) is not None})
        rows.append(row)
    return rows


def rule_refs(stats: dict) -> list[tuple[str, str]]:
    """The unit's rules and weapons as (shown name, rule id): "Devastating Charge (1 St, 1 AP)"."""
    found: list[tuple[str, str]] = []
    keys = ["globalrules", "defenserules"] + [f"offense{k}{p}" for p in PARTS for k in ("rules", "weapons")]
    for key in keys:
        for rule in stats.get(key) or []:
            if not isinstance(rule, dict) or not isinstance(rule.get("name"), str):
                continue
            params = [str(p) for p in rule.get("params") or [] if isinstance(p, (str, int, float))]
            shown = f"{rule['name']} ({', '.join(params)})" if params else rule["name"]
            if shown[:120] not in [s for s, _ in found]:
                found.append((shown[:120], str(rule.get("id", ""))))
    return found


SPELL_TAG = "sp-"  # the prefix of the tags `spell_tag` makes


def spell_tag(name: str) -> str:
    """The tag a spell's name gives the option whose count is the number of its spells (`counted_spells`)."""
    return SPELL_TAG + slug(name, 77)


def counted_spells(magic: object, paths: dict) -> list[str]:
    """The names of the spells an option offers one per time it is taken (`magic.amount` "x": a Runic
    Smith's Battle Rune(s), a numeric option, knows as many Battle Runes as it is taken)."""
    if not isinstance(magic, dict) or magic.get("amount") != "x" or not isinstance(magic.get("spells"), list):
        return []
    return [name for names in spells_by_path(magic, paths).values() for name in names]


def spells_by_path(magic: dict, paths: dict) -> dict[str, list[str]]:
    by_path: dict[str, list[str]] = {}
    for spell in magic["spells"]:
        if not isinstance(spell, dict):
            continue
        path = paths.get(spell.get("path")) if isinstance(spell.get("path"), str) else None
        names = {s.get("ref"): s.get("name") for s in (path or {}).get("spells", []) if isinstance(s, dict)}
        name = names.get(spell.get("ref")) or spell.get("ref")
        by_path.setdefault((path or {}).get("name") or str(spell.get("path")), []).append(str(name))
    return by_path


def spell_paths(spells: object) -> dict:
    """spells.json's Paths by ref (its `paths`, a list or a dict of them)."""
    raw = (spells or {}).get("paths") or {} if isinstance(spells, dict) else {}
    return {p.get("ref"): p for p in (raw.values() if isinstance(raw, dict) else raw) if isinstance(p, dict)}


def spells_text(magic: object, paths: dict) -> str:
    """The spells an option's `magic` offers, by Path: "Battle Runes (1): Rune of Revocation, ..."."""
    if not isinstance(magic, dict) or not isinstance(magic.get("spells"), list):
        return ""
    by_path = spells_by_path(magic, paths)
    amount = magic.get("amount")
    how = f" ({amount})" if isinstance(amount, int) or (isinstance(amount, str) and amount.isdigit()) else ""
    return "; ".join(f"{path}{how}: {', '.join(names)}" for path, names in by_path.items())[:MAX_TEXT]


def _nodes(node: object):
    if isinstance(node, dict):
        yield node
        for child in node.get("options") or []:
            yield from _nodes(child)
    elif isinstance(node, list):
        for child in node:
            yield from _nodes(child)


def add_texts(book: dict, data: dict, pools: dict[str, list[dict]], shared: dict[str, dict]) -> None:
    """Profiles, rules with their texts, spells and item descriptions into the converted `book`, in place.
    `shared` holds the snapshot's unitstats.json, ruledefs.json and spells.json (those it has)."""
    stats = army_profiles(shared.get("unitstats.json"), str(data.get("short", "")).lower())
    defs = (shared.get("ruledefs.json") or {}).get("rules") or {}
    paths = spell_paths(shared.get("spells.json"))
    by_name = {s.get("name"): s for s in stats.values() if isinstance(s, dict)} if isinstance(stats, dict) else {}
    # What an option's node says: its spells, or a Special Item's description (pool items first, by name).
    notes: dict[str, str] = {}
    counted: dict[str, list[str]] = {}  # an option's name -> the spells it is taken once for (summary.py reads them)
    mounts: dict[str, list[dict]] = {}  # a mount option's name -> its mount's profile (`refopt`)
    for node in list(_nodes(data.get("army"))) + [n for items in pools.values() for n in _nodes(items)]:
        name = node.get("name")
        ridden = stats.get(node["refopt"]) if isinstance(node.get("refopt"), str) and isinstance(stats, dict) else None
        if isinstance(name, str) and isinstance(ridden, dict) and name not in mounts:
            mounts[name] = [dict(row, mount=True) for row in profiles(ridden)]
        if isinstance(name, str) and name not in notes:
            note = spells_text(node.get("magic"), paths) or plain(node.get("description"))
            if note:
                notes[name] = note
            spells = counted_spells(node.get("magic"), paths)
            if spells:
                counted[name] = spells
    texts: dict[str, str] = {}
    for entry in book["entries"]:
        unit = by_name.get(entry["name"])
        if unit is not None:
            rows = profiles(unit)
            if rows:
                entry["profiles"] = rows
            named = rule_refs(unit)
            if named:
                entry["rules"] = [shown for shown, _ in named]
            for shown, rid in named:
                rule = defs.get(rid) if isinstance(defs, dict) else None
                if isinstance(rule, dict) and shown.split(" (")[0] not in texts:
                    texts[shown.split(" (")[0]] = plain(rule.get("def"))
        for option in entry.get("options", []):
            note = notes.get(option["name"]) or notes.get(option["name"].split(" (")[0])
            if note and "text" not in option:
                option["text"] = note
            if counted.get(option["name"]):
                option["tags"] = sorted(set(option.get("tags", [])) | {spell_tag(n) for n in counted[option["name"]]})
            if mounts.get(option["name"]):
                option["profiles"] = mounts[option["name"]]
    if texts:
        book["special_rules"] = [{"name": name, "text": text} for name, text in sorted(texts.items()) if text]
