"""OWB's unit notes ("0-1 General of the Empire or Grand Master per 1000 points") as our rules.

OWB writes its unit limits as English notes for people; its own validation keeps them in its code. The
regular ones become `count` and `ratio` rules; everything else (conditions on the General, "per unit
with the same Daemonic Alignment"...) is returned unparsed, for the book's `unchecked`.

    0-1 X or Y per 1000 points               count, max {per_points: 1000, each: 1}
    0-2 war machines chosen from the following list per 1000 points: A, B
    0-1 unit of X may be taken as a Core choice   count of X in Core, max 1
    0-1 X  /  0-1 X per army                  count, max 1
    1+ unit of X and/or Y                     count, min 1
    1+ per 1000 points                        count, min {per_points: 1000, each: 1}
    0-1 X per unit of Y (taken)               ratio, one X per Y
"""
from __future__ import annotations

import re
from typing import Callable

Resolver = Callable[[str], "list[str] | None"]

_CATEGORY = re.compile(r"\s+(?:(?:may|can) be taken )?as (?:an? )?(core|special|rare|character|mercenar)"
                       r"(?:ies|y|s)?(?: choices?)?(?=\s+per\b|$)", re.I)
_LIST = re.compile(r"^0-(\d+) (?:war machines?|units?) chosen from the following list per (\d+) points:\s*(.+)$", re.I)
_PER_POINTS = re.compile(r"^0-(\d+)(?:\s+(.*?))?(?:\s+(?:may be taken|chosen))?\s+per (\d+) points$", re.I)
_MIN_PER_POINTS = re.compile(r"^(\d+)\+(?:\s+(.*?))?\s+per (\d+) points$", re.I)
_RATIO = re.compile(r"^0-(\d+)(?:\s+(.*?))?\s+per\s+(?:units? of\s+)?(.+?)(?:\s+taken)?(?:\s+in (?:your|the) army)?$",
                    re.I)
_MAX = re.compile(r"^0-(\d+)(?:\s+(.*?))?$", re.I)
_MIN = re.compile(r"^(\d+)\+(?:\s+(.*))?$", re.I)
_SELF = {"", "unit", "units", "war machine", "war machines", "war machine chosen", "war machines chosen", "chosen"}
_NOT_NAMES = re.compile(r"\bif\b|\(|\bper\b|\bmay\b|\bmust\b|\bonly\b|\bshould\b|:", re.I)


def clauses(text: str) -> list[str]:
    """A note's separate limits: "0-1 X per 1000 points, 0-1 Y" is two."""
    text = re.split(r":?\s*\*", text.strip())[0].strip().rstrip(".").strip()
    text = re.sub(r"(\d)[,.](\d{3})\b", r"\1\2", text)  # 1,000 and 1.000 points
    return [c.strip() for c in re.split(r",\s*(?=\d+\s*[-+])", text) if c.strip()]


def _names(text: str | None, own: list[str], resolve: Resolver) -> list[str] | None:
    text = (text or "").strip()
    text = re.sub(r"^(?:an?|one)\s+", "", text, flags=re.I)
    text = re.sub(r"^(?:units?|regiments?) of\s+", "", text, flags=re.I)
    if text.lower() in _SELF:
        return list(own)
    if _NOT_NAMES.search(text):
        return None
    found: list[str] = []
    for token in re.split(r"\s*,\s*|\s+and/or\s+|\s+or\s+", text):
        token = re.sub(r"^(?:units?|regiments?) of\s+", "", token.strip(), flags=re.I)
        ids = resolve(token) if token else None
        if not ids:
            return None
        found.extend(i for i in ids if i not in found)
    return found or None


def parse_clause(clause: str, own: list[str], resolve: Resolver, label_of: Callable[[list[str]], str]) -> dict | None:
    """One limit as a rule `{type, params}`, or None when its wording is not one of the regular forms."""
    category = None
    found = _CATEGORY.search(clause)
    if found:
        category = {"character": "characters", "mercenar": "mercenaries"}.get(found.group(1).lower(),
                                                                             found.group(1).lower())
        clause = (clause[:found.start()] + clause[found.end():]).strip()
    if re.match(r"^if\b", clause, re.I):
        return None
    clause = re.sub(r"\s*\bper army$", "", clause, flags=re.I)  # "0-1 X per army" is "0-1 X"

    def count(ids: list[str] | None, bound_key: str, bound: object) -> dict | None:
        if not ids:
            return None
        select: dict = {"entry": ids}
        label = label_of(ids)
        if category:
            select["category"] = category
            label += f" as {category.capitalize()}"
        rule = {"type": "count", "params": {"select": select, "label": label, bound_key: bound}}
        if bound_key == "max" and isinstance(bound, dict) and bound.get("per_points") == 1000:
            rule["tags"] = ["per-1000"]  # Battle March sets these aside for its one per-1000 choice
        return rule

    if m := _LIST.match(clause):
        return count(_names(m.group(3).replace(" and ", ", "), own, resolve), "max",
                     {"per_points": int(m.group(2)), "each": int(m.group(1))})
    if m := _PER_POINTS.match(clause):
        return count(_names(m.group(2), own, resolve), "max", {"per_points": int(m.group(3)), "each": int(m.group(1))})
    if m := _MIN_PER_POINTS.match(clause):
        return count(_names(m.group(2), own, resolve), "min", {"per_points": int(m.group(3)), "each": int(m.group(1))})
    if (m := _RATIO.match(clause)) and not m.group(3).lower().endswith("points"):
        chosen, per = _names(m.group(2), own, resolve), _names(m.group(3), [], resolve)
        if not chosen or not per:
            return None
        select = {"entry": chosen, **({"category": category} if category else {})}
        return {"type": "ratio", "params": {"select": select, "per": {"entry": per}, "each": int(m.group(1)),
                                            "label": label_of(chosen), "per_label": label_of(per)}}
    if m := _MAX.match(clause):
        return count(_names(m.group(2), own, resolve), "max", int(m.group(1)))
    if m := _MIN.match(clause):
        return count(_names(m.group(2), own, resolve), "min", int(m.group(1)))
    return None


def parse_note(text: str, own: list[str], resolve: Resolver,
               label_of: Callable[[list[str]], str]) -> tuple[list[dict], list[str]]:
    """(rules, the clauses that are not in a regular form)."""
    rules, rest = [], []
    for clause in clauses(text):
        rule = parse_clause(clause, own, resolve, label_of)
        if rule is None:
            rest.append(clause)
        else:
            rules.append(rule)
    return rules, rest
