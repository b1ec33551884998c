"""Allied contingents: units from another book of the same system, in one list (The Old World's Allies).

The system's data (`allies:` in system.yaml, `AlliesRules`) says which book may ally with which, the
category allied units count in, whether the contingent needs a Character of its own, and which rule
types look at the main army alone (the General: never an allied Character). Nothing here names an army.

How the rules see a list with allies:
- the system's, the list's book's, its composition's, the modes' and an event's rules see the whole army,
  allied units counted in the allies category (so the Allies percentage applies at its boundary), except
  the rule types of `without_allies`, which see the army without its allied units, and, among the list's
  book's and composition's own rules, the types of `book_rules_without_allies` (its unit limits are about
  its own units, as the allied book's are about the contingent);
- the allied book's own rules (its `rules:`, less those its composition replaces) see the allied units
  alone, in their own book's categories: its "0-X per 1000 points" limits hold for the contingent. Its
  composition's own rules are about a whole army and are not checked for a contingent.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterator, Protocol

from armylists.rules.native.book import AlliesRules, Book, Rule
from armylists.rules.native.derived import JOINED
from armylists.rules.report import Violation
from armylists.rules.reading.roster import Roster



class Army(Protocol):
    """What the allies rules read and write of an army (rules/native/army.py's Army, which imports this module)."""

    problems: list[Violation]
    allies: Book | None
    allies_composition: str | None
    contingent: Any
    system: Any
    own_book: Book

RULE = "allies"


def _violation(code: str, message: str, allies: AlliesRules | None, unit: str | None = None) -> Violation:
    return Violation(code, message, unit=unit, rule=RULE,
                     source=allies.source if allies is not None and allies.source else "list document")


def _label(book: str, composition: str | None) -> str:
    return f"{book} ({composition})" if composition else book


def allied_book(army: "Army", book: Book, roster: Roster, allies: Book | None) -> Book | None:
    """The book to price the list's allied units against, or None when they cannot be; says why as
    problems of `army` (an allies book not allowed still prices its units, so the Report shows them)."""
    spec = roster.allies
    if spec is None and not any(u.allied for u in roster.units):
        return None
    allied = [u.id for u in roster.units if u.allied]
    rules = book.system.allies
    if spec is None:
        if allied:  # a Roster built in code; a document cannot say this (roster.py refuses it)
            army.problems.append(_violation(
                "list.unknown_allies_book", f"Units {', '.join(allied)} are allied, but the list names no allies book.",
                rules))
        return None
    if allies is None:
        army.problems.append(_violation(
            "list.unknown_allies_book", f"The allies book {spec.book} {spec.book_version} is not loaded, so the "
            f"allied units ({', '.join(allied) or 'none'}) are not checked.", rules))
        return None
    if (allies.id, allies.version) != (spec.book, spec.book_version):
        raise ValueError(f"the list's allies are {spec.book} {spec.book_version}, not {allies.id} {allies.version}")
    name = f"{allies.name}" + (f" ({allies.compositions[spec.composition].name})"
                               if spec.composition in allies.compositions else "")
    if allies.system.id != book.system.id:
        army.problems.append(_violation(
            "allies.not_allowed", f"{book.name} may not take allies from {name}: it is a book of "
            f"{allies.system.name}, not {book.system.name}.", rules))
        return None
    if rules is None:
        army.problems.append(_violation(
            "allies.not_allowed", f"{book.name} may not take allies from {name}: {book.system.name} lists take "
            f"no allied contingents.", rules))
        return None
    if spec.composition and spec.composition not in allies.compositions:
        army.problems.append(_violation(
            "list.unknown_composition", f"Allies composition {spec.composition!r} is not one of {allies.name}'s "
            f"({', '.join(allies.compositions) or 'it has none'}).", rules))
    elif not rules.allows(book.id, allies.id, spec.composition):
        allowed = rules.allowed.get(book.id, ())
        if allowed:
            may = "it may ally with: " + ", ".join(_label(a.book, a.composition) for a in allowed)
        else:
            may = "the rules data names no army it may ally with"
        army.problems.append(_violation("allies.not_allowed", f"{book.name} may not take allies from {name}; {may}.",
                                        rules))
    return allies


def joined(book: Book, allies: Book) -> Book:
    """`book` as the whole army's checks see it: it also knows the allied book's items and item kinds (an
    allied model's runes), its own first. Made once per pair of books, and kept with the allied book, so a
    rebuilt one of the same key is not mistaken for it. The joined book derives its own data (derived.py)."""
    if allies is book:
        return book
    return book.derived.of(JOINED, book).remember(allies.key, allies, _join, book, allies)


def _join(book: Book, allies: Book) -> Book:
    system = replace(book.system, item_categories={**allies.system.item_categories, **book.system.item_categories})
    return replace(book, system=system, items={**allies.items, **book.items})


def contingent_rules(army: "Army") -> tuple[Rule, ...]:
    """The allied book's own rules, which its contingent keeps: less those its composition replaces."""
    allies = army.allies
    if allies is None or army.contingent is None:
        return ()
    composition = allies.compositions.get(army.allies_composition) if army.allies_composition else None
    if composition is None or not composition.replace_rules:
        return allies.rules
    return tuple(r for r in allies.rules if r.id not in composition.replace_rules)


def allies_violations(army: "Army") -> Iterator[Violation]:
    """What the allied contingent itself must be: never the General, and with a Character of its own."""
    contingent, rules = army.contingent, army.system.allies
    if contingent is None or rules is None:
        return
    allies = army.allies
    for unit in contingent.units:
        if unit.general:
            yield _violation("allies.general", f"{unit.describe()} is in the allied contingent ({allies.name}) and "
                             f"cannot be the General; the General is one of {army.own_book.name}'s own Characters.",
                             rules, unit.id)
    if rules.needs_character and not any(u.character for u in contingent.units):
        n = len(contingent.units)
        yield _violation("allies.no_character", f"The allied contingent from {allies.name} has {n} unit"
                         f"{'' if n == 1 else 's'} but no Character; it must include at least one Character of "
                         f"its own.", rules)
