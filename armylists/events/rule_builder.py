"""Event rules built from a form instead of typed as YAML: every kind of limit an organiser sets with
the engine's rule types (docs/rule-types.md): at most N of a unit (in all, or per 1000 points), any unit
at most N times (`each_entry_max`), at most N units with a tag, a category's share of the points
(`category_percent`), no unit worth more than a share (`unit_max_percent`), how far under the limit a list
may be (`points_shortfall`), at least N units (`min_units`), a ban on a unit, an option or an item, at most
N points on a unit. Each becomes one rule added to the event's rules text, which stays the advanced way to
write any rule; players read every rule as a sentence (events/rule_words.py), never as YAML.

The organiser names the unit, option, item, category or tag as the books write it; the name is looked up
in the books of the event's system (the allowed ones, when the event names them) and a name no book has is
an error that suggests the closest.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import yaml

from armylists.rules import Book


@dataclass(frozen=True)
class Kind:
    label: str  # what the form offers
    names: str  # what the name field names: unit, option, item, category, tag, or "" (no name)
    number: str  # what N is: "", "count", "points", "percent"


KINDS_BY_ID = {
    "unit_max": Kind("At most N of a unit", "unit", "count"),
    "unit_per_1000": Kind("At most N of a unit per 1000 points", "unit", "count"),
    "each_entry_max": Kind("Any unit at most N times", "", "count"),
    "tag_max": Kind("At most N units with a tag", "tag", "count"),
    "category_max": Kind("At most N% of the points in a category", "category", "percent"),
    "category_min": Kind("At least N% of the points in a category", "category", "percent"),
    "unit_max_percent": Kind("No unit worth more than N% of the points", "", "percent"),
    "points_shortfall": Kind("At most N points under the limit", "", "points"),
    "min_units": Kind("At least N units", "", "count"),
    "unit_ban": Kind("Ban a unit", "unit", ""),
    "option_ban": Kind("Ban an option", "option", ""),
    "item_ban": Kind("Ban a magic item", "item", ""),
    "unit_points": Kind("At most N points on a unit", "unit", "points"),
}
KINDS = {kind_id: kind.label for kind_id, kind in KINDS_BY_ID.items()}
NEEDS_NUMBER = {kind_id for kind_id, kind in KINDS_BY_ID.items() if kind.number}


class RuleBuildError(ValueError):
    """A rule the form cannot build; its message says what to fix."""


def _things(book: Book, what: str) -> list[tuple[str, str]]:
    """(id, name) of what a rule of this kind may name in one book."""
    if what == "unit":
        return [(e.id, e.name) for e in book.entries.values()]
    if what == "option":
        return [(o.id, o.name) for e in book.entries.values() for o in e.options.values()]
    if what == "item":
        return [(i.id, i.name) for i in book.items.values()]
    if what == "category":
        return [(c.id, c.name) for c in book.system.categories]
    # A tag is named by its id as the books write it ("named", "one-of-a-kind") or in words ("one of a kind").
    return [(t, t.replace("-", " ")) for e in book.entries.values() for t in sorted(e.tags)]


def _names(books: Iterable[Book], what: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """{folded name: (ids, name)} of the units, options, items, categories or tags the books have. A name
    may stand for several ids (The 9th Age's "Veterans" is an option of Heavy and of Light Infantry; an
    Engineer's "Battle Standard Bearer" is not the Captain's): a rule on the name is meant for every one."""
    found: dict[str, tuple[tuple[str, ...], str]] = {}
    for book in books:
        for thing_id, name in _things(book, what):
            for key in {name.casefold(), thing_id.casefold()} if what == "tag" else {name.casefold()}:
                ids, shown = found.get(key, ((), name))
                if thing_id not in ids:
                    found[key] = (ids + (thing_id,), shown)
    return found


def _look_up(what: str, name: str, books: list[Book]) -> tuple[tuple[str, ...], str]:
    names = _names(books, what)
    found = names.get(name.strip().casefold())
    if found is None:
        if not name.strip():
            raise RuleBuildError(f"Name the {what} the rule is about.")
        close = difflib.get_close_matches(name.strip().casefold(), list(names), n=1)
        hint = f'; did you mean "{names[close[0]][1]}"?' if close else ""
        raise RuleBuildError(f'No {what} "{name.strip()}" in this system\'s books{hint}')
    return found


def _one_or_all(ids: tuple[str, ...]) -> str | list[str]:
    return ids[0] if len(ids) == 1 else list(ids)


# Each kind's params from (ids, name, number); ids and name are empty for a kind that names nothing.
Params = Callable[[tuple[str, ...], str, Any], dict[str, Any]]
PARAMS: dict[str, tuple[str, Params]] = {
    "unit_max": ("count", lambda ids, name, n: {"label": name, "select": {"entry": _one_or_all(ids)}, "max": n}),
    "unit_per_1000": ("count", lambda ids, name, n: {"label": name, "select": {"entry": _one_or_all(ids)},
                                                     "max": {"per_points": 1000, "each": n}}),
    "each_entry_max": ("each_entry_max", lambda ids, name, n: {"label": "Any unit", "max": n}),
    "tag_max": ("count", lambda ids, name, n: {"label": f"Units with the tag {name}", "select": {"tag": ids[0]},
                                               "max": n}),
    "category_max": ("category_percent", lambda ids, name, n: {"categories": [ids[0]], "max": n}),
    "category_min": ("category_percent", lambda ids, name, n: {"categories": [ids[0]], "min": n}),
    "unit_max_percent": ("unit_max_percent", lambda ids, name, n: {"max": n}),
    "points_shortfall": ("points_shortfall", lambda ids, name, n: {"max_under": n}),
    "min_units": ("min_units", lambda ids, name, n: {"min": n}),
    "unit_ban": ("count", lambda ids, name, n: {"label": f"{name} (banned at this event)",
                                                "select": {"entry": _one_or_all(ids)}, "max": 0}),
    "option_ban": ("count", lambda ids, name, n: {"label": f"{name} (banned at this event)",
                                                  "select": {"option": _one_or_all(ids)}, "max": 0}),
    "item_ban": ("count", lambda ids, name, n: {"label": f"{name} (banned at this event)",
                                                "select": {"item": _one_or_all(ids)}, "max": 0}),
    "unit_points": ("count", lambda ids, name, n: {"label": f"{name} points", "select": {"entry": _one_or_all(ids)},
                                                   "what": "points", "max": n}),
}


def build_rule(kind: str, name: str, number: int | None, books: list[Book], taken_ids: Iterable[str] = ()) -> str:
    """One YAML line: the rule, with an id not among `taken_ids`; or a RuleBuildError."""
    found = KINDS_BY_ID.get(kind)
    if found is None:
        raise RuleBuildError("Choose what kind of rule to add.")
    if found.number and (number is None or number < 0):
        raise RuleBuildError("Give the number: how many at most." if found.number != "percent"
                             else "Give the number: the percentage.")
    if found.number == "percent" and number is not None and number > 100:
        raise RuleBuildError("A percentage is at most 100.")
    ids, shown = _look_up(found.names, name, books) if found.names else ((), "")
    rule_type, params = PARAMS[kind]
    thing_id = (ids[0] if len(ids) == 1 else shown) if ids else str(number)  # what the rule's id is made from
    base = re.sub(r"[^a-z0-9]+", "-", f"{kind.replace('_', '-')}-{thing_id}".lower()).strip("-")
    taken, rule_id, n = set(taken_ids), base, 2
    while rule_id in taken:
        rule_id, n = f"{base}-{n}", n + 1
    rule = {"id": rule_id, "type": rule_type, "params": params(ids, shown, number)}
    return "- " + yaml.safe_dump(rule, default_flow_style=True, sort_keys=False, width=1000).strip()
