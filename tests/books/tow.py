"""The Old World's tests' shared helpers: a list of one of its books, checked through the engine."""
from __future__ import annotations

import copy

from armylists.rules import parse_roster, validate


def document(book, units, points_limit=2000, **extra):
    """A list document of `book`; `extra` adds keys (composition, modes, allies), None ones left out."""
    return {"format": "armylist/1", "system": "the-old-world", "book": book.id, "book_version": book.version,
            "points_limit": points_limit, "units": copy.deepcopy(units),
            **{key: value for key, value in extra.items() if value is not None}}


def check(book, units, points_limit=2000, **extra):
    return validate(book, parse_roster(document(book, units, points_limit, **extra)))


def codes(report):
    return sorted(v.code for v in report.violations)


def messages(report):
    return [v.message for v in report.violations]
