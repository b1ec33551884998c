"""What the list pages show of a roster tree (an imported BattleScribe book's list), worked out in
Python so the templates the editor already has only format: a card per unit (a root selection of a
force) with its selections in words and, in the editor, a form of the options it offers; the entries
a force offers as the "Add a unit" catalogue. Simple cards for now: grouped options, profiles and
rules are issue 22's."""
from __future__ import annotations

from typing import Any

from armylists.editor.forms import TreeUnitForm
from armylists.editor.unit_cards import Section, UnitCard, cost_text
from armylists.lists.stored import Loaded
from armylists.lists.tree_lists import evaluated, root_choices, unit_offers
from armylists.rules import Report
from armylists.rules.battlescribe.tree import Selection


def tree_catalogue(loaded: Loaded, query: str = "") -> list[dict[str, Any]]:
    """The unit entries of each force, filtered by name, one section per force."""
    tree = evaluated(loaded.roster)
    words = query.lower().split()
    sections = []
    for force in tree.all_forces():
        entries = []
        for option in root_choices(tree, force):
            name = (option.link or {}).get("name") or option.entry.get("name", "")
            if all(w in name.lower() for w in words):
                entries.append({"id": option.entry_id, "name": name, "cost": "", "detail": "", "search": name.lower()})
        if entries:
            sections.append({"id": force.uid, "name": force.state.name or force.entry.get("name", ""),
                             "entries": entries, "allied": False})
    return sections


def _words(selection: Selection) -> str:
    parts = []
    for child in selection.children:
        name = child.state.name
        inner = _words(child)
        text = name if child.number <= 1 else f"{child.number}× {name}"
        parts.append(f"{text} ({inner})" if inner else text)
    return ", ".join(parts)


def tree_sections(loaded: Loaded, report: Report, *, editable: bool = False, open_ids: frozenset[str] | set[str] = frozenset(),
                  unit_url: str = "", bound_form: TreeUnitForm | None = None, bound_unit: str = "") -> list[Section]:
    """The units of each force, in order; with `editable`, each with its form and the addresses of its edits."""
    tree = evaluated(loaded.roster)
    unit = loaded.book.system.budget_unit
    lines = {u.id: u for u in report.units}
    by_unit: dict[str, list] = {}
    for v in report.violations:
        if v.unit:
            by_unit.setdefault(v.unit, []).append(v)
    sections = []
    for force in tree.all_forces():
        cards = []
        for selection in force.selections:
            line = lines.get(selection.uid)
            card = UnitCard(id=selection.uid, name=selection.state.name, label="", size=None,
                            points=line.points if line else 0, roles=[], summary=_words(selection),
                            errors=[v for v in by_unit.get(selection.uid, []) if v.severity == "error"],
                            warnings=[v for v in by_unit.get(selection.uid, []) if v.severity != "error"],
                            category=line.category if line else "",
                            open=selection.uid in open_ids)
            if editable:
                card.form = _form_view(selection, unit_offers(tree, selection), unit,
                                       bound_form if bound_unit == selection.uid else None)
                base = unit_url.replace("{unit}", selection.uid)
                card.urls = {"update": base, "remove": f"{base}remove/"}
                card.open = card.open or (bound_unit == selection.uid)
            cards.append(card)
        if cards:
            cards[0].first, cards[-1].last = True, True
        points = sum(c.points for c in cards)
        sections.append(Section(force.uid, force.state.name or force.entry.get("name", ""), points,
                                round(100 * points / report.points_limit, 1) if report.points_limit else 0.0,
                                "", "ok", cards))
    return sections


def _form_view(selection: Selection, offers: list[dict[str, Any]], unit: str,
               form: TreeUnitForm | None) -> dict[str, Any]:
    prefix = f"u-{selection.uid}"
    errors = form.errors if form is not None else {}
    options = []
    for offer in offers:
        name = f"sel-{offer['entry']}"
        cost = cost_text(int(offer["cost"]) if float(offer["cost"]).is_integer() else offer["cost"], unit)
        view = {"name": name, "id": f"{prefix}-{name}", "label": offer["name"], "cost": cost,
                "note": offer["group"], "errors": list(errors.get(name, []))}
        if offer["max"] == 1:
            view.update(kind="check", checked=bool(offer["taken"]))
        else:
            view.update(kind="count", max=offer["max"] or 10000, value=offer["taken"])
        options.append(view)
    return {"prefix": prefix, "non_field_errors": list(errors.get("__all__", [])), "fieldsets": [],
            "options": options, "roles": []}
