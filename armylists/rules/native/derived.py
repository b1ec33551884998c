"""What is derived from a Book, in one place: a store each Book holds, and each kind of data declared once.

A Book is frozen and compiled once (reading/loader.py), but much is worked out from it as lists are
checked and edited: its rule lists per composition, its priced units, the book joined with an ally's, the
indexes an importer or a page reads it by. Each Book holds one `Derived` store (`Book.derived`), made
with the Book and never compared, shown or pickled with it: `dataclasses.replace` gives the new Book a
store of its own (what was derived from the old one is not true of it), and a pickled Library (the books
cache, lists/library/books_cache.py) carries no derived data, only what its build made.

Each kind of derived data is declared once, by name, with `built` (a value made from the book the first
time it is asked: an index) or `memo` (answers kept by key, at most `bound` of them). The kinds of a Book's
own rules and units are declared here; a module with a kind of its own declares it where it uses it, with
the same two functions (checks/tallies.py's counted tags, the New Recruit importer's summaries, the pages'
offers), so the engine knows nothing of the importer's or the site's, and nothing writes onto a Book:

    RULE_TEXTS = built("rule_texts", read_rule_texts)
    texts = book.derived.of(RULE_TEXTS, book)

A unit's memo of its answers (army.py: `Unit.memo`, `Unit.keep`) is kept the same way, within
UNIT_MEMO_BOUND, in a plain dict: it is read for every unit at every check.
"""
from __future__ import annotations

from typing import Any, Callable

# Rule lists per (composition, modes, extra rules): an event checks many lists with one tuple of extra
# rules, but a page may make a tuple per request, so the list is bounded.
RULE_LISTS_BOUND = 256
# Priced units per book: re-checking a list after one edit re-prices only the unit that changed. Each is a
# few kilobytes; a busy process meets many lists of one book, so the kept units are bounded.
MAX_RESOLVED_UNITS = 20_000
# A unit's answers per rule (or rule set): rules made per request (an event's own) must not pile up on the
# units shared between reports.
UNIT_MEMO_BOUND = 64


class Memo(dict):
    """Answers kept by key, at most `bound` of them (None: unbounded, where the keys are few by nature);
    full, it starts again, since every answer can be made anew.

    A key made of an object's id (rules, a rule set) is kept with the object, the first item of its entry,
    so a new object that reuses a freed id is never given the old one's answer. `remember` is the whole of
    it in one call; where a call costs too much (a unit's memo, read for every unit at every check), the
    caller reads the entry itself and keeps the one it made:

        kept = unit.memo.get(id(rule))
        if kept is None or kept[0] is not rule:
            kept = unit.keep(id(rule), (rule, answer(...)))
    """
    __slots__ = ("bound",)

    def __init__(self, bound: int | None = None) -> None:
        super().__init__()
        self.bound = bound

    def put(self, key: Any, entry: Any) -> Any:
        """Keep `entry` under `key` (clearing the memo first when it is full); returns `entry`."""
        if self.bound is not None and len(self) >= self.bound:
            self.clear()
        self[key] = entry
        return entry

    def remember(self, key: Any, keep: Any, build: Callable[..., Any], *args: Any) -> Any:
        """The answer about `keep` under `key`: build(*args), made once and kept as (keep, answer)."""
        kept = self.get(key)
        if kept is None or kept[0] is not keep:
            kept = self.put(key, (keep, build(*args)))
        return kept[1]


class Kind:
    """One kind of data derived from a book: its name and how it is made from the book."""
    __slots__ = ("name", "make", "bound")

    def __init__(self, name: str, make: Callable[[Any], Any], bound: int | None = None):
        self.name, self.make, self.bound = name, make, bound

    def __repr__(self) -> str:
        return f"Kind({self.name!r})"


KINDS: dict[str, Kind] = {}  # every kind declared, by name


def _declare(kind: Kind) -> Kind:
    if kind.name in KINDS:
        raise ValueError(f"derived data {kind.name!r} is declared twice")
    KINDS[kind.name] = kind
    return kind


def built(name: str, build: Callable[[Any], Any]) -> Kind:
    """Declare a value made once per book by `build(book)` (never None): an index of the book."""
    return _declare(Kind(name, build))


def memo(name: str, bound: int | None) -> Kind:
    """Declare a `Memo` per book, of at most `bound` answers (None: unbounded)."""
    return _declare(Kind(name, lambda book: Memo(bound), bound))


class Derived:
    """One book's derived data, by kind, each made the first time it is asked."""
    __slots__ = ("_held",)

    def __init__(self) -> None:
        self._held: dict[Kind, Any] = {}

    def of(self, kind: Kind, book: Any) -> Any:
        """The kind's value for `book` (the Book holding this store), or its Memo."""
        held = self._held.get(kind)
        if held is None:
            held = self._held[kind] = kind.make(book)
        return held

    def forget(self, kind: Kind) -> None:
        """Drop what is held of the kind (a benchmark's cold path); it is made again when next asked."""
        self._held.pop(kind, None)

    def held(self) -> list[str]:
        """The names of the kinds held now."""
        return [kind.name for kind in self._held]

    def __reduce__(self) -> tuple:
        return (Derived, ())  # pickled empty: derived data is made again where it is needed

    def __repr__(self) -> str:
        return f"Derived({', '.join(self.held())})"


# The engine's own kinds.
RULE_LISTS = memo("rule_lists", RULE_LISTS_BOUND)  # Book.rules_for
RESOLVED_UNITS = memo("resolved_units", MAX_RESOLVED_UNITS)  # army.py: (composition, RosterUnit) -> priced unit
JOINED = memo("joined", None)  # allies.joined, by the allied book's key: a book allies with few others
CATEGORIES_IN_PLAY = memo("categories_in_play", RULE_LISTS_BOUND)  # engine.py, by composition
