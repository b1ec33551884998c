"""Event rules built from a form instead of typed as YAML: "at most N of a unit", a ban on a unit, an
option or an item, "at most N points on a unit". Each becomes one `count` rule of the engine's vocabulary
(docs/rule-types.md), added to the event's rules text, which stays the advanced way to write any rule.

The organiser names the unit, option or item as the books write it; the name is looked up in the books
of the event's system (the allowed ones, when the event names them) and a name no book has is an error
that suggests the closest.
"""
from __future__ import annotations

import difflib
import re
from typing import Iterable

import yaml

from armylists.rules import Book

KINDS = {
    "unit_max": "At most N of a unit",
    "unit_ban": "Ban a unit",
    "option_ban": "Ban an option",
    "item_ban": "Ban a magic item",
    "unit_points": "At most N points on a unit",
}
NEEDS_NUMBER = {"unit_max", "unit_points"}


class RuleBuildError(ValueError):
    """A rule the form cannot build; its message says what to fix."""


def _names(books: Iterable[Book], kind: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """{folded name: (ids, name)} of the units, options or items the books have. A name may stand for
    several ids (The 9th Age's "Veterans" is an option of Heavy and of Light Infantry; an Engineer's
    "Battle Standard Bearer" is not the Captain's): a rule on the name is meant for every one of them."""
    found: dict[str, tuple[tuple[str, ...], str]] = {}
    for book in books:
        if kind.startswith("unit"):
            things = [(e.id, e.name) for e in book.entries.values()]
        elif kind == "option":
            things = [(o.id, o.name) for e in book.entries.values() for o in e.options.values()]
        else:
            things = [(i.id, i.name) for i in book.items.values()]
        for thing_id, name in things:
            ids, shown = found.get(name.casefold(), ((), name))
            if thing_id not in ids:
                found[name.casefold()] = (ids + (thing_id,), shown)
    return found


def build_rule(kind: str, name: str, number: int | None, books: list[Book], taken_ids: Iterable[str] = ()) -> str:
    """One YAML line: the rule, with an id not among `taken_ids`; or a RuleBuildError."""
    if kind not in KINDS:
        raise RuleBuildError("Choose what kind of rule to add.")
    if kind in NEEDS_NUMBER and (number is None or number < 0):
        raise RuleBuildError("Give the number: how many at most.")
    what = kind.split("_")[0]  # unit, option, item
    names = _names(books, what)
    found = names.get(name.strip().casefold())
    if found is None:
        close = difflib.get_close_matches(name.strip().casefold(), list(names), n=1)
        hint = f'; did you mean "{names[close[0]][1]}"?' if close else ""
        raise RuleBuildError(f'No {what} "{name.strip()}" in this system\'s books{hint}')
    ids, shown = found
    selector = {"entry" if what == "unit" else what: ids[0] if len(ids) == 1 else list(ids)}
    thing_id = ids[0] if len(ids) == 1 else shown  # what the rule's id is made from
    if kind == "unit_max":
        params = {"label": shown, "select": selector, "max": number}
    elif kind == "unit_points":
        params = {"label": f"{shown} points", "select": selector, "what": "points", "max": number}
    else:
        params = {"label": f"{shown} (banned at this event)", "select": selector, "max": 0}
    base = re.sub(r"[^a-z0-9]+", "-", f"{kind.replace('_', '-')}-{thing_id}".lower()).strip("-")
    taken, rule_id, n = set(taken_ids), base, 2
    while rule_id in taken:
        rule_id, n = f"{base}-{n}", n + 1
    rule = {"id": rule_id, "type": "count", "params": params}
    return "- " + yaml.safe_dump(rule, default_flow_style=True, sort_keys=False, width=1000).strip()
