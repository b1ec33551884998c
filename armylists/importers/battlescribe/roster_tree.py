"""A saved roster (.ros/.rosz) read one to one into the tree evaluator (armylists/rules/battlescribe/),
and the evaluator's roster written out as one. No Django: roster_files.py finds the data; the verdict
as issues with stable codes is rules/battlescribe/document.py's `judged`.

Forces (and the forces inside them) are placed by their force entry id and catalogue id, selections by
their entry id path (`link::entry`) and number with `place()`, so nothing is added by itself: the
roster is judged as it stands. The cost limits are the roster's own `costLimits` (a negative one is
none), each in the data's cost type of its `typeId` (GameData.cost_type_id); a type the data does not
have is an error of the evaluator naming it. An entry id the data does not know is an error naming the
selection.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.etree.ElementTree import Element

from armylists.importers.battlescribe.elements import kids, number
from armylists.importers.battlescribe.rosters import ROSTER_NS, selection_number
from armylists.importers.battlescribe.sources import BattleScribeInputError
from armylists.rules.battlescribe import GameData, Roster, place, set_cost_limit
# TreeIssue, judged: the importer's names for them
from armylists.rules.battlescribe.document import TreeIssue, judged, keep_uid, settle, start_past  # noqa: F401
from armylists.rules.battlescribe.tree import Force, RosterError, Selection


def read_tree(root: Element, game: GameData, source: str) -> Roster:
    """The evaluator's roster for a <roster> element, every force and selection as saved."""
    roster = Roster(game)
    for limit in kids(root, "costLimits", "costLimit"):
        # finite and bounded, as every number of a roster (elements.number): 1e999 is refused, not infinite
        value = number(source, "<costLimit> value", limit.get("value"), -1)
        if value >= 0:
            set_cost_limit(roster, limit.get("typeId", ""), value)   # the data's type of that id, or kept
    start_past(roster, [e.get("id", "") for e in root.iter() if e.tag.endswith(("}force", "}selection"))])
    for element in kids(root, "forces", "force"):
        _force(roster, element, None, source)
    settle(roster)   # the states an editor kept from its last action (document.py)
    return roster


def _force(roster: Roster, element: Element, parent: Force | None, source: str) -> None:
    entry_id = element.get("entryId", "")
    if entry_id not in roster.game.forces:
        raise BattleScribeInputError(source, f"<force name={element.get('name')!r} entryId={entry_id!r}>",
                                     "is not a force entry of the imported data")
    catalogue_id = element.get("catalogueId") or roster.game.forces[entry_id][1]
    owner = parent if parent is not None else roster
    force = Force(roster.new_uid("force"), roster.game.forces[entry_id][0], catalogue_id, owner, roster)
    owner.forces.append(force)
    roster.register(force)
    keep_uid(roster, force, element.get("id", ""))   # the ids it was saved with: one to one
    for selection in kids(element, "selections", "selection"):
        _selection(roster, force, selection, source)
    for child in kids(element, "forces", "force"):
        _force(roster, child, force, source)


def _selection(roster: Roster, container, element: Element, source: str) -> None:
    try:
        placed = place(roster, container, element.get("entryId", ""), selection_number(element, source))
    except RosterError:
        where = container.state.name if isinstance(container, Selection) else container.entry.get("name", "the force")
        catalogue = roster.game.docs.get(container.force.catalogue_id if isinstance(container, Selection)
                                         else container.catalogue_id, {})
        raise BattleScribeInputError(source, f"<selection name={element.get('name')!r} "
                                             f"entryId={element.get('entryId')!r}>",
                                     f"is not a choice of {where} in {catalogue.get('name', 'the data')} "
                                     f"(r{catalogue.get('revision', '?')}); import the catalogue revision the "
                                     f"roster was made with") from None
    keep_uid(roster, placed, element.get("id", ""))
    for child in kids(element, "selections", "selection"):
        _selection(roster, placed, child, source)


def write_tree(roster: Roster, name: str = "") -> bytes:
    """A .ros of the evaluator's roster, one to one (what `read_tree` reads back): forces, child forces,
    selections with their entry id paths and numbers as BattleScribe saves them, the cost limits; and, as
    BattleScribe writes them for the reader's eye (read_tree reads neither: it evaluates again), the
    roster's total and each selection's own costs and categories as the last evaluation left them."""
    game = roster.game
    system = game.system
    root = ET.Element("roster", {"id": "roster", "name": name, "battleScribeVersion": "2.03",
                                 "gameSystemId": system["id"], "gameSystemName": system.get("name", ""),
                                 "gameSystemRevision": str(system.get("revision", 1)), "xmlns": ROSTER_NS})
    totals: dict[str, float] = {}
    for selection in roster.all_selections():
        for type_id, value in selection.state.costs.items():
            totals[type_id] = totals.get(type_id, 0.0) + value
    _costs(root, game, totals)
    costs = ET.SubElement(root, "costLimits")
    for type_id, value in roster.cost_limits.items():
        ET.SubElement(costs, "costLimit", {"name": game.cost_type_name(type_id), "typeId": type_id,
                                           "value": _number(value)})
    forces = ET.SubElement(root, "forces")
    for force in roster.forces:
        _write_force(forces, force, game)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _write_force(parent: Element, force: Force, game: GameData) -> None:
    catalogue = game.docs.get(force.catalogue_id, {})
    element = ET.SubElement(parent, "force", {
        "id": force.uid, "name": force.entry.get("name", ""), "entryId": force.entry_id,
        "catalogueId": force.catalogue_id, "catalogueRevision": str(catalogue.get("revision", 1)),
        "catalogueName": catalogue.get("name", "")})
    if force.selections:
        selections = ET.SubElement(element, "selections")
        for selection in force.selections:
            _write_selection(selections, selection, game)
    if force.forces:
        children = ET.SubElement(element, "forces")
        for child in force.forces:
            _write_force(children, child, game)


def _write_selection(parent: Element, selection, game: GameData) -> None:
    element = ET.SubElement(parent, "selection", {
        "id": selection.uid, "name": selection.state.name, "entryId": selection.entry_id,
        "number": str(selection.number), "type": selection.option.entry.get("type") or "upgrade"})
    if selection.children:
        children = ET.SubElement(element, "selections")
        for child in selection.children:
            _write_selection(children, child, game)
    _costs(element, game, selection.state.costs)
    if selection.state.categories:
        categories = ET.SubElement(element, "categories")
        for category in selection.state.categories:
            ET.SubElement(categories, "category", {
                "id": f"{selection.uid}-{category}"[:100], "name": game.name_of(category), "entryId": category,
                "primary": "true" if category == selection.state.primary else "false"})


def _costs(parent: Element, game: GameData, costs: dict[str, float]) -> None:
    """A <costs> of every cost type the data names (0 where nothing costs it), as BattleScribe writes them."""
    element = ET.SubElement(parent, "costs")
    for cost in game.cost_types:
        ET.SubElement(element, "cost", {"name": game.cost_type_name(cost["id"]), "typeId": cost["id"],
                                        "value": _number(costs.get(cost["id"], 0.0))})
