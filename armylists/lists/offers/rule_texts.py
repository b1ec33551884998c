"""The texts of a unit's rules and of the options it takes, where its imported book carries them.

A book's `special_rules` (`{name, text}`; New Recruit's ruledefs.json in an imported T9A book) give the
text of each rule an entry names ("Devastating Charge (1 St, 1 AP)" is the rule "Devastating Charge"),
and an option's `text` says what the option is (a Special Item's effect, the spells it gives). The
editor's card and the printed roster show them; nothing here changes a price or a verdict.
"""
from __future__ import annotations

from typing import Any

from armylists.rules import Book, RosterUnit
from armylists.rules.native.book import Entry
from armylists.rules.native.derived import built

LONG = 200  # a text longer than this is folded away on the card


def book_rule_texts(book: Book) -> dict[str, str]:
    """The book's rule texts by name, read once per book."""
    return book.derived.of(RULE_TEXTS, book)


def _read_rule_texts(book: Book) -> dict[str, str]:
    return {r["name"]: r.get("text", "") for r in book.data.get("special_rules", ())
            if isinstance(r, dict) and isinstance(r.get("name"), str)}


RULE_TEXTS = built("rule_texts", _read_rule_texts)


def rule_texts(book: Book, ru: RosterUnit, entry: Entry) -> list[dict[str, Any]]:
    """The unit's rules with their texts, then the options it takes that say something: [] where the
    book carries no rule texts (its card names the rules alone)."""
    texts = book_rule_texts(book) if book.imported else {}  # our own books' cards name their rules, as before
    if not texts:
        return []
    shown = [{"name": name, "text": texts.get(name.split(" (")[0], "")} for name in entry.rules]
    for oid, count in ru.options:
        option = entry.options.get(oid)
        if option is not None and option.text and count:
            shown.append({"name": option.name, "text": option.text})
    return [dict(r, long=len(r["text"]) > LONG) for r in shown]
