"""What the list pages show of a roster tree (an imported BattleScribe book's list), worked out in
Python so the templates the editor already has only format: a card per unit (a root selection of a
force) with its selections in words and, in the editor, a form of the options it offers; the entries
a force offers as the "Add a unit" catalogue. Options are laid out in their groups as New Recruit
shows them (lists/trees/tree_offers.py computes them with the evaluator)."""
from __future__ import annotations

import hashlib
from typing import Any

from armylists.editor.forms import TreeUnitForm, tree_choice, tree_field
from armylists.editor.unit_cards import Section, UnitCard, bounds_text, cost_text
from armylists.lists.saved.stored import Loaded
from armylists.rules.battlescribe.profiles import card_extras
from armylists.lists.trees.tree_lists import evaluated, remembered, root_choices, tree_printing, unit_offers
from armylists.lists.trees.tree_offers import as_added, needs_a_pick, root_unavailable
from armylists.rules import Report
from armylists.rules.battlescribe.sheet import BSB, GENERAL, TreePrinting
from armylists.rules.battlescribe.tree import Selection


def tree_catalogue(loaded: Loaded, query: str = "") -> list[dict[str, Any]]:
    """The unit entries of each force by category, as our books' catalogue lays them out: the force's own
    categories in its order, then any other, each entry with its price as added (what its minimums and
    defaults select with it: lists/trees/tree_offers.py), filtered by name. The whole of it is kept with the
    document (tree_lists.remembered): an edit compares it with the one before, drawn by the request before."""
    unit = loaded.book.system.budget_unit
    if not query.strip():
        return remembered(loaded.roster, ("catalogue", unit), lambda _tree: _catalogue(loaded, ""))
    return _catalogue(loaded, query)


def _catalogue(loaded: Loaded, query: str) -> list[dict[str, Any]]:
    tree = evaluated(loaded.roster)
    words = query.lower().split()
    unit = loaded.book.system.budget_unit
    forces = list(tree.all_forces())
    sections = []
    for force in forces:
        prices = as_added(tree.game, force.entry_id, force.catalogue_id)
        by_category: dict[str | None, list[dict[str, Any]]] = {}
        for option in root_choices(tree, force):
            name = (option.link or {}).get("name") or option.entry.get("name", "")
            if not all(w in name.lower() for w in words):
                continue
            cost, category = prices.get(option.entry_id, (None, None))
            why_not = root_unavailable(tree, force, option)   # issue 40 item 3: "needs a Plague Priest in the army"
            by_category.setdefault(category, []).append(
                {"id": option.entry_id, "name": name, "cost": "" if cost is None else f"{_number(cost)} {unit}",
                 "detail": why_not, "unavailable": why_not, "search": name.lower()})
        order = [link["target"] for link in force.entry.get("category_links", [])]
        for category in sorted(by_category, key=lambda c: (c not in order, order.index(c) if c in order else 0,
                                                           tree.game.name_of(c) if c else "~")):
            label = tree.game.name_of(category) if category else "Other"
            if len(forces) > 1:
                label = f"{force.state.name or force.entry.get('name', '')}: {label}"
            sections.append({"id": f"{force.uid}-{category or 'other'}", "name": label,
                             "entries": by_category[category], "allied": False})
    return sections


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _words(selection: Selection, roles: frozenset[str] = frozenset()) -> str:
    """The unit's selections in words; a selection that makes it the General or BSB (`roles`, the names our
    mapping gives) is said as a badge instead, as our books' cards do."""
    parts = []
    for child in selection.children:
        name = child.state.name
        inner = _words(child, roles)
        if not inner and (name in roles or child.option.entry.get("name") in roles):
            continue
        text = name if child.number <= 1 else f"{child.number}× {name}"
        parts.append(f"{text} ({inner})" if inner else text)
    return ", ".join(parts)


ROLE_WORDS = {GENERAL: "General", BSB: "Battle Standard Bearer"}   # as our books' cards name the roles


def _roles(unit: Selection, printing: TreePrinting) -> list[str]:
    """The roles a selection in the unit gives it, by the names our mapping gives them (the PDF's rule,
    rules/battlescribe/sheet.py), General first."""
    found = set()
    for selection in unit.walk():
        option = selection.option
        names = {option.entry.get("name"), (option.link or {}).get("name"), selection.state.name}
        for word, wanted in ((GENERAL, printing.general), (BSB, printing.battle_standard)):
            if names & wanted:
                found.add(word)
    return [ROLE_WORDS[w] for w in (GENERAL, BSB) if w in found]


def tree_sections(loaded: Loaded, report: Report, *, editable: bool = False, open_ids: frozenset[str] | set[str] = frozenset(),
                  unit_url: str = "", bound_form: TreeUnitForm | None = None, bound_unit: str = "",
                  forms_for: frozenset[str] | set[str] | None = None) -> list[Section]:
    """The units by category, as our books' lists are laid out (issue 40 item 1): a section per category of
    the Report in its order with its figures and bounds (the category bars), a force's name before it where
    the list has several; each card with its roles (General, BSB) as badges; with `editable`, each with its
    form and the addresses of its edits (only the cards in `forms_for` where it is given: an edit's answer
    draws those alone, editor/changes.py)."""
    tree = evaluated(loaded.roster)
    printing = tree_printing(loaded.roster) or TreePrinting(tree)
    role_names = printing.general | printing.battle_standard
    unit = loaded.book.system.budget_unit
    lines = {u.id: u for u in report.units}
    by_unit: dict[str, list] = {}
    for v in report.violations:
        if v.unit:
            by_unit.setdefault(v.unit, []).append(v)
    forces = [f for f in tree.all_forces()]
    sections = []
    for force in forces:
        by_category: dict[str, list[UnitCard]] = {}
        for selection in force.selections:
            line = lines.get(selection.uid)
            card = UnitCard(id=selection.uid, name=selection.state.name, label="", size=None,
                            points=line.points if line else 0,
                            roles=_roles(selection, printing),
                            summary=_words(selection, role_names),
                            errors=[v for v in by_unit.get(selection.uid, []) if v.severity == "error"],
                            warnings=[v for v in by_unit.get(selection.uid, []) if v.severity != "error"],
                            category=line.category if line else "",
                            open=selection.uid in open_ids)
            drawn = forms_for is None or selection.uid in forms_for
            if drawn:
                card.tables, card.rule_list = _folded(*card_extras(tree, selection))
            if editable and drawn:
                card.form = _form_view(selection, unit_offers(tree, selection), unit,
                                       bound_form if bound_unit == selection.uid else None)
                base = unit_url.replace("{unit}", selection.uid)
                card.urls = {"update": base, "remove": f"{base}remove/", "duplicate": f"{base}duplicate/"}
                card.open = card.open or (bound_unit == selection.uid)
            by_category.setdefault(card.category, []).append(card)
        prefix = f"{force.state.name or force.entry.get('name', '')}: " if len(forces) > 1 else ""
        for line in report.categories:
            cards = by_category.pop(line.id, [])
            if cards or (editable and len(forces) == 1):
                sections.append(Section(f"{force.uid}-{line.id}", prefix + line.name, line.points, line.percent,
                                        bounds_text(line.min_percent, line.max_percent), line.state, cards))
        for category, cards in by_category.items():   # a category the Report has no line for
            sections.append(Section(f"{force.uid}-{category or 'other'}",
                                    prefix + (tree.game.name_of(category) if category else "Other"),
                                    sum(c.points for c in cards), 0.0, "", "ok", cards))
    for section in sections:
        if section.units:
            section.units[0].first, section.units[-1].last = True, True
    return sections


LONG_RULE = 120   # characters from which a rule's text is folded under its name, as the card's rules are


def _folded(tables: list[dict[str, Any]], rules: list[dict[str, Any]]) -> tuple[list, list]:
    """A profile of one characteristic (an armour's "Description", a base's size, a special rule's text)
    said as a line of the card's rules, long texts folded, rather than a table of a row each: our books'
    card shows the unit's profile as its table and its rules as lines (issue 40 item 4: the card's height)."""
    kept, lines = [], list(rules)
    for table in tables:
        if len(table["columns"]) != 1:
            kept.append(table)
            continue
        for name, value in table["rows"]:
            if any(line["name"] == name for line in lines):
                continue
            lines.append({"name": name, "text": value, "long": len(value) > LONG_RULE})
    return kept, lines


def _form_view(selection: Selection, offers: list[dict[str, Any]], unit: str,
               form: TreeUnitForm | None) -> dict[str, Any]:
    """The unit's options as New Recruit lays them out: in their groups (nested), a group of at most
    one as radio buttons, every other option a box with its real maximum."""
    prefix = f"u-{selection.uid}"
    errors = form.errors if form is not None else {}
    by_parent: dict[str, list[dict[str, Any]]] = {}
    for offer in offers:
        by_parent.setdefault(offer["parent"], []).append(offer)
    view = _Layout(selection.uid, prefix, unit, errors, by_parent)
    return {"prefix": prefix, "non_field_errors": list(errors.get("__all__", [])), "fieldsets": [],
            "options": [], "tree": view.nodes(selection.uid), "roles": []}


class _Layout:
    def __init__(self, unit_id: str, prefix: str, unit: str, errors, by_parent):
        self.unit_id, self.prefix, self.unit, self.errors, self.by_parent = unit_id, prefix, unit, errors, by_parent

    def field_id(self, name: str) -> str:
        """A box's id: the card's prefix and a digest of its field's name, the same on every drawing (htmx puts
        the focus back by it). The name holds the option's whole path of entry ids (90 characters and more),
        written once more as its box's id it was a sixth of a character's card (issue 40: 40 kB an edit)."""
        return f"{self.prefix}-{hashlib.blake2s(name.encode(), digest_size=5).hexdigest()}"

    def cost(self, offer: dict[str, Any]) -> str:
        return cost_text(int(offer["cost"]) if float(offer["cost"]).is_integer() else offer["cost"], self.unit)

    def nodes(self, parent: str) -> list[dict[str, Any]]:
        """The options of one selection, nested in their groups, in the data's order."""
        root: dict[str, Any] = {"children": [], "index": {}}
        for offer in self.by_parent.get(parent, []):
            place = root
            for group in offer["groups"]:
                if group["id"] not in place["index"]:
                    node = {"kind": "group", "group": group, "children": [], "index": {}}
                    place["index"][group["id"]] = node
                    place["children"].append(node)
                place = place["index"][group["id"]]
            place["children"].append(self.option(offer))
        return [self.picked(self.finish(n)) for n in root["children"]]

    def finish(self, node: dict[str, Any]) -> dict[str, Any]:
        if node["kind"] != "group":
            return node
        group = node["group"]
        children = [self.finish(c) for c in node["children"]]
        limit = "" if group["max"] is None else f"up to {group['max']}"
        if group["min"]:
            limit = f"{group['min']}–{group['max']}" if group["max"] is not None else f"at least {group['min']}"
            limit = "exactly 1" if (group["min"], group["max"]) == (1, 1) else limit
        if group["max_cost"] is not None:
            limit = ", ".join(filter(None, [limit, f"up to {int(group['max_cost'])} {self.unit}"]))
        limit = "" if group["unavailable"] else limit
        out = {"kind": "group", "legend": group["name"], "limit": limit, "unavailable": group["unavailable"],
               "children": children, "group": group,
               # issue 40 item 2: the data names no default, so the add picked one (tree_offers.complete_as_added)
               "note": "chosen for you: the first free or cheapest; change it here" if needs_a_pick(group) else ""}
        options = [c for c in children if c["kind"] != "group"]
        if group["max"] == 1 and options and len(options) == len(children):
            first = options[0]["offer"]
            name = tree_choice(first, self.unit_id)
            out.update(kind="choice", name=name, id=self.field_id(name), none=group["min"] == 0,
                       none_checked=not any(o["checked"] for o in options),
                       errors=list(self.errors.get(name, [])))
            for o in options:
                o.update(kind="radio", value=o["offer"]["entry"], name=name)
        return out

    def picked(self, node: dict[str, Any]) -> dict[str, Any]:
        """A long group (magic items, runes, skills: PICKER_FROM options or more) as our books' item picker
        (issue 40 item 4): what is taken shown, the rest in a searchable list by its inner groups, with the
        allowance left and why each is refused; a shorter group's inner groups looked at the same way."""
        if node["kind"] not in ("group", "choice"):
            return node
        leaves = list(_leaves(node, node))
        if len(leaves) < PICKER_FROM:
            node["children"] = [self.picked(c) for c in node["children"]]
            return node
        cap = node["group"]["max_cost"]
        spent = sum(float(o["offer"]["cost"]) * o["offer"]["taken"] for _s, o in leaves)
        left = None if cap is None else cap - spent
        sections: dict[int, dict[str, Any]] = {}
        for owner, leaf in leaves:
            if leaf["checked"]:
                continue
            if left is not None and not leaf["disabled"] and float(leaf["offer"]["cost"]) > left:
                leaf.update(disabled=True, unavailable=f"more than the {_number(max(left, 0))} {self.unit} left")
            section = sections.setdefault(id(owner), {
                "legend": owner["legend"], "limit": owner["limit"], "options": [], "unavailable": owner.get("unavailable", ""),
                # the choice's own "none" radio: its name and state only (the owner itself may be the node
                # whose picker this is: a cycle the card comparison of editor/changes.py cannot walk)
                "none": ({"id": owner["id"], "name": owner["name"], "none_checked": owner["none_checked"]}
                         if owner["kind"] == "choice" and owner["none"] else None)})
            section["options"].append({"one": [leaf], "search": leaf["label"].lower()})
        node["picker"] = {
            "taken": [leaf for _s, leaf in leaves if leaf["checked"]], "sections": list(sections.values()),
            "count": sum(1 for _s, leaf in leaves if not leaf["checked"] and not leaf["disabled"]),
            "part": node["group"]["id"], "card": self.unit_id,
            "allowance": "" if cap is None else f"{_number(spent)} of {_number(cap)} {self.unit} · "
                                                 f"{_number(max(left, 0))} left"}
        return node

    def option(self, offer: dict[str, Any]) -> dict[str, Any]:
        name = tree_field(offer, self.unit_id)
        view = {"kind": "check", "offer": offer, "name": name, "id": self.field_id(name), "label": offer["name"],
                "cost": self.cost(offer), "per_model": offer["per_model"],
                "cost_per_model": _step(offer["cost_per_model"], self.unit), "errors": list(self.errors.get(name, [])),
                "checked": bool(offer["taken"]), "value": offer["taken"], "max": offer["max"],
                "unavailable": offer["unavailable"], "disabled": bool(offer["unavailable"]) and not offer["taken"],
                "inner": self.nodes(offer["child"]) if offer["child"] else []}
        if offer["max"] != 1:
            view["kind"] = "count"
        if offer["child"] and offer["taken"] and offer["min"] == offer["max"] == offer["taken"] and not offer["groups"]:
            view["kind"] = "fixed"   # no choice (a character's one model): its options shown, its box not
        return view


PICKER_FROM = 8   # options in a group from which it is a searchable picker, not a column of boxes


def _leaves(node: dict[str, Any], owner: dict[str, Any]):
    """(the innermost group holding it, option) of every option below a group, in the data's order."""
    for child in node["children"]:
        if child["kind"] in ("group", "choice"):
            yield from _leaves(child, child)
        else:
            yield owner, child


def _step(value: float | None, unit: str) -> str:
    """A cost that follows the models, as the data states it: "3 pts per model"."""
    if value is None:
        return ""
    return f"{int(value) if float(value).is_integer() else value} {unit} per model"
