"""What the list pages build differently for each kind of list (lists/kinds.py): the unit cards, the
"Add a unit" catalogue and a unit's form. One presenter per kind, in one registry keyed by the kind's
name and looked up in one place (`pages_for`), so no page asks which kind a list is."""
from __future__ import annotations

from typing import Any, Mapping

from django import forms
from django.http import QueryDict

from armylists.editor.forms import TreeUnitForm, UnitForm
from armylists.editor.tree_cards import tree_catalogue, tree_sections
from armylists.editor.unit_cards import Section, cost_text, unit_sections
from armylists.lists.kinds import NATIVE, TREE
from armylists.lists.offers.entries import cost_as_added
from armylists.lists.saved.stored import Loaded
from armylists.lists.trees.tree_lists import evaluated, unit_offers
from armylists.rules import Book, Report, Roster


def catalogue(book: Book, query: str = "", allies: Book | None = None) -> list[dict[str, Any]]:
    """The book's entries by category, with what the smallest unit costs; filtered by name. With `allies`,
    a last section "Allies: <book>" of the allies book's entries (added as allied units)."""
    words = query.lower().split()
    sections = []
    for cat in book.system.categories:
        entries = _entries(book, cat.id, words)
        if entries:
            sections.append({"id": cat.id, "name": cat.name, "entries": entries, "allied": False})
    if allies is not None:
        entries = [e for cat in allies.system.categories for e in _entries(allies, cat.id, words)]
        if entries:
            sections.append({"id": "allied", "name": f"Allies: {allies.name}", "entries": entries, "allied": True})
    return sections


def _entries(book: Book, category: str, words: list[str]) -> list[dict[str, Any]]:
    unit = book.system.budget_unit
    entries = []
    for e in book.entries.values():
        if e.category != category or not all(w in e.name.lower() for w in words):
            continue
        fixed = e.size_max == e.size_min
        smallest = cost_as_added(book, e)  # as added: compulsory choices too
        entries.append({
            "id": e.id, "name": e.name, "cost": f"{smallest} {unit}",
            "detail": "" if fixed else f"{e.size_min}+ models, {cost_text(e.points, unit)} each",
            "search": e.name.lower(),
        })
    return entries


class NativePages:
    """A list of one of our books: units by category (editor/unit_cards.py), the book's catalogue."""

    catalogue_follows_list = False   # the book's entries, whatever the list holds
    cards_read_the_army = False   # a card changes with its unit and what lists/saved/card_states.py says

    def sections(self, loaded: Loaded, report: Report, *, editable: bool = False,
                 open_ids: frozenset[str] | set[str] = frozenset(), unit_url: str = "",
                 bound_form: forms.Form | None = None,
                 item_errors: Mapping[str, Mapping[str, list[str]]] | None = None,
                 forms_for: frozenset[str] | set[str] | None = None) -> list[Section]:
        unit_form = bound_form if isinstance(bound_form, UnitForm) else None
        return unit_sections(loaded.book, loaded.roster, report, editable=editable, open_ids=open_ids,
                             bound_form=unit_form, item_errors=item_errors, unit_url=unit_url,
                             allies=loaded.allies, forms_for=forms_for)

    def catalogue(self, loaded: Loaded, query: str = "") -> list[dict[str, Any]]:
        return catalogue(loaded.book, query, loaded.allies)

    def add_entries(self, loaded: Loaded) -> list[tuple[str, str]] | None:
        """What "Add a unit" may add instead of the book's (or allies book's) entries; None: those."""
        return None

    def unit_form(self, loaded: Loaded, unit: Any, data: QueryDict, only: str | None) -> forms.Form:
        return UnitForm(loaded.book_of(unit), unit, data, only=only)

    def update_unit(self, loaded: Loaded, form: Any, unit_id: str) -> Roster:
        """The list with the unit's options as its (valid) form says."""
        return loaded.kind.update_unit(form.book, loaded.roster, unit_id, form.changes())


class TreePages:
    """A roster tree: a card per root selection of each force, the forces' entries (editor/tree_cards.py)."""

    # The catalogue greys what the list holds back now ("needs a Plague Priest in the army"): redrawn with
    # the list after every change that redraws it (editor/views.py: render_editor).
    catalogue_follows_list = True
    # A card's offers and profiles follow what the army holds: an edit its shared state does not settle is
    # answered by comparing the cards as drawn before and after (editor/changes.py: placed_changes).
    cards_read_the_army = True

    def sections(self, loaded: Loaded, report: Report, *, editable: bool = False,
                 open_ids: frozenset[str] | set[str] = frozenset(), unit_url: str = "",
                 bound_form: forms.Form | None = None,
                 item_errors: Mapping[str, Mapping[str, list[str]]] | None = None,
                 forms_for: frozenset[str] | set[str] | None = None) -> list[Section]:
        tree_form = bound_form if isinstance(bound_form, TreeUnitForm) else None
        return tree_sections(loaded, report, editable=editable, open_ids=open_ids, unit_url=unit_url,
                             bound_form=tree_form, bound_unit=tree_form.unit_id if tree_form else "",
                             forms_for=forms_for)

    def catalogue(self, loaded: Loaded, query: str = "") -> list[dict[str, Any]]:
        return tree_catalogue(loaded, query)

    def add_entries(self, loaded: Loaded) -> list[tuple[str, str]] | None:
        return [(e["id"], e["name"]) for section in tree_catalogue(loaded) for e in section["entries"]]

    def unit_form(self, loaded: Loaded, unit: Any, data: QueryDict, only: str | None) -> forms.Form:
        tree = evaluated(loaded.roster)
        return TreeUnitForm(unit_offers(tree, tree.by_uid[unit.id]), data, unit_id=unit.id, only=only)

    def update_unit(self, loaded: Loaded, form: Any, unit_id: str) -> Roster:
        return loaded.kind.update_unit(loaded.book, loaded.roster, unit_id, form.counts())


PAGES: dict[str, NativePages | TreePages] = {NATIVE.name: NativePages(), TREE.name: TreePages()}


def pages_for(loaded: Loaded) -> NativePages | TreePages:
    """The presenter of the list's kind: the one place the pages look it up."""
    return PAGES[loaded.kind.name]
