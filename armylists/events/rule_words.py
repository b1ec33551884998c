"""An event's rules as players read them: one sentence for each rule, made from the rule itself ("Any unit
at most 2 times."), never its YAML. What a rule names by id (units, options, items, categories, size
bands) is said by the books' names (`Names`, built from the event's books). A rule that says its own
`text` is shown by it; a type without a sentence here says what kind of rule it is (issue 42 item 2).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import yaml

from armylists.rules import Book

AMOUNTS = {"units": ("unit", "units"), "models": ("model", "models"), "points": ("point", "points"),
           "wizard_levels": ("Wizard level", "Wizard levels")}


def plural(n: int, one: str, many: str = "") -> str:
    """ "1 problem", "2 problems": the count and the word in its right form."""
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


@dataclass
class Names:
    """The books' names for the ids a rule may name, by kind of id."""

    by_kind: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, books: Iterable[Book]) -> "Names":
        names = cls()
        for book in books:
            names._add("category", ((c.id, c.name) for c in book.system.categories))
            names._add("band", ((b.id, b.name) for b in getattr(book.system, "size_bands", ())))
            names._add("entry", ((e.id, e.name) for e in book.entries.values()))
            names._add("option", ((o.id, o.name) for e in book.entries.values() for o in e.options.values()))
            names._add("item", ((i.id, i.name) for i in book.items.values()))
            names._add("mount", ((m.id, m.name) for m in book.mounts.values()))
        return names

    def _add(self, kind: str, pairs: Iterable[tuple[str, str]]) -> None:
        known = self.by_kind.setdefault(kind, {})
        for thing_id, name in pairs:
            known.setdefault(thing_id, name)

    def name(self, kind: str, thing_id: str) -> str:
        return self.by_kind.get(kind, {}).get(thing_id) or thing_id.replace("-", " ")

    def names(self, kind: str, ids: Any) -> str:
        ids = ids if isinstance(ids, list) else [ids]
        shown = [self.name(kind, str(i)) for i in ids]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def selector_words(selector: Mapping[str, Any] | None, names: Names) -> str:
    """Which units a selector picks, in words: "Steam Tank", "units with the tag named"."""
    if not selector:
        return "any unit"
    parts = []
    for key, value in selector.items():
        if key == "entry":
            parts.append(names.names("entry", value))
        elif key in ("option", "item", "mount"):
            parts.append(f"units with {'any ' + key if value is True else names.names(key, value)}")
        elif key == "category":
            parts.append(f"{names.names('category', value)} units")
        elif key == "tag":
            parts.append(f"units with the tag {names.names('tag', value)}")
        elif key == "troop_type":
            parts.append(f"{names.names('troop_type', value)} units")
        elif key == "item_category":
            parts.append(f"units with a {names.names('item_category', value)}")
        elif key in ("character", "general"):
            parts.append(("" if value else "non-") + ("characters" if key == "character" else "Generals"))
        elif key == "not":
            parts.append(f"but not {selector_words(value, names)}")
        else:
            parts.append(f"{key.replace('_', ' ')} {value}")
    return " ".join(parts)


def bound_words(bound: Any, names: Names, unit: tuple[str, str] = ("", "")) -> str:
    """A bound of the engine's (a number, per points, by size band) in words: "2 times", "1 per 1000 points"."""
    one, many = unit
    if isinstance(bound, int):
        return plural(bound, one, many) if one else str(bound)
    if isinstance(bound, dict) and "per_points" in bound:
        base = f"{bound['base']} and " if bound.get("base") else ""
        above = f" above {bound['above']}" if bound.get("above") else ""
        more = f", and {bound['plus']['each']} more per {bound['plus']['label']}" if bound.get("plus") else ""
        what = f" {one if bound['each'] == 1 else many or one + 's'}" if one else ""
        return f"{base}{bound['each']}{what} per {bound['per_points']} points{above}{more}"
    if isinstance(bound, dict) and "by_band" in bound:
        return ", ".join(f"{bound_words(n, names, unit)} in a {names.name('band', band)}"
                         for band, n in bound["by_band"].items())
    if isinstance(bound, dict) and "base" in bound:
        more = f", and {bound['plus']['each']} more per {bound['plus']['label']}" if bound.get("plus") else ""
        return f"{bound_words(bound['base'], names, unit)}{more}"
    return str(bound)


def _count(p: Mapping[str, Any], names: Names) -> str:
    label = p.get("label") or selector_words(p.get("select"), names)
    amount = AMOUNTS.get(p.get("what", "units"), AMOUNTS["units"])
    if p.get("max") == 0 and p.get("what", "units") == "units" and "min" not in p:
        return f"{label.removesuffix(' (banned at this event)')}: not allowed."
    said = []
    if "min" in p:
        said.append(f"at least {bound_words(p['min'], names, amount)}")
    if "max" in p:
        said.append(f"at most {bound_words(p['max'], names, amount)}")
    tagged = f" of the choices limited per 1000 points" if p.get("rules_tagged") else ""
    return f"{label}{tagged}: {' and '.join(said)}."


def _each_entry(p: Mapping[str, Any], names: Names) -> str:
    label = p.get("label") or (selector_words(p["select"], names).capitalize() if p.get("select") else "Any unit")
    unless = f", except {selector_words(p['unless'], names)}" if p.get("unless") else ""
    return f"{label}{unless} at most {bound_words(p['max'], names, ('time', 'times'))}."


def _category_percent(p: Mapping[str, Any], names: Names) -> str:
    which = " + ".join(names.name("category", c) for c in p["categories"])
    low, high = p.get("min"), p.get("max")
    if low is not None and high is not None:
        return f"{which}: between {low}% and {high}% of the points limit."
    return f"{which}: {'at least' if low is not None else 'at most'} {low if low is not None else high}% of the points limit."


def _unit_max_percent(p: Mapping[str, Any], names: Names) -> str:
    parts = [f"No unit worth more than {p['max']}% of the points limit"] if "max" in p else []
    parts += [f"no {names.name('category', c)} unit more than {n}%" for c, n in p.get("max_by_category", {}).items()]
    text = "; ".join(parts) or "No unit worth more than its category allows"
    exempt = f" (units with the tag {', '.join(p['exempt_tags'])} aside)" if p.get("exempt_tags") else ""
    return text[:1].upper() + text[1:] + exempt + "."


SENTENCES: dict[str, Callable[[Mapping[str, Any], Names], str]] = {
    "count": _count,
    "each_entry_max": _each_entry,
    "category_percent": _category_percent,
    "unit_max_percent": _unit_max_percent,
    "points_shortfall": lambda p, n: f"A list may be at most {plural(p['max_under'], 'point')} under the points limit.",
    "min_units": lambda p, n: f"At least {bound_words(p['min'], n, ('unit', 'units'))}.",
    "tag_max": lambda p, n: f"{p.get('label') or 'Units with the tag ' + p['tag']}: at most "
                            f"{bound_words(p['max'], n, ('time', 'times'))}.",
    "role_max": lambda p, n: f"At most {bound_words(p['max'], n, ('Battle Standard Bearer', 'Battle Standard Bearers'))}.",
    "requires": lambda p, n: f"{selector_words(p['if'], n).capitalize()} needs {p.get('label') or selector_words(p['needs'], n)}.",
    "forbids": lambda p, n: (p.get("reason") or f"{selector_words(p['if'], n)} forbids "
                                                 f"{selector_words(p['forbids'], n)}").capitalize().rstrip(".") + ".",
    "ratio": lambda p, n: f"At most {p.get('each', 1)} {p.get('label', 'unit')} per {p.get('per_label', 'unit')}.",
    "limit_range": lambda p, n: f"Played at {p.get('min', 0)} to {p.get('max', '')} points.",
    "unit_models_share": lambda p, n: f"No unit holds more than {p['max']}% of the army's models.",
    "team_items_once": lambda p, n: "A magic item may be taken in one list of a team only.",
    "points_limit": lambda p, n: "The points total may not exceed the limit.",
    "items_once_per_army": lambda p, n: "Each magic item once per army, unless it may repeat.",
}


def rule_sentence(rule: Mapping[str, Any], names: Names) -> str:
    """One rule in a sentence; a warning says it is one."""
    if rule.get("text"):
        sentence = str(rule["text"]).strip()
    else:
        params = rule.get("params") or {}
        said = SENTENCES.get(str(rule.get("type")))
        try:
            sentence = said(params, names) if said else ""
        except (KeyError, TypeError, AttributeError):  # a rule the loader took but this cannot word
            sentence = ""
        if not sentence:
            sentence = f"{params.get('label') or str(rule.get('type', 'rule')).replace('_', ' ').capitalize()}: " \
                       f"a rule of the event (ask the organiser)."
    return sentence + (" (a warning, not an error)" if rule.get("severity") == "warning" else "")


def rules_sentences(text: str, names: Names) -> list[str]:
    """Every rule of an event's rules text in a sentence, in its order; nothing for a text that is not
    a list of rules (the form refuses such a text, so an event has none)."""
    try:
        rules = yaml.safe_load(text or "")
    except yaml.YAMLError:
        return []
    if isinstance(rules, dict):
        rules = rules.get("rules", [])
    return [rule_sentence(r, names) for r in rules or [] if isinstance(r, dict)]
