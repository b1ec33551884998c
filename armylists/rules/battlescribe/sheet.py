"""A unit of a roster tree as a printed roster describes it (issue 22 item 5): its name (after modifiers),
its roles, every selection it holds (nested, with its number and cost), its profiles by profile type and
its rules' names.

    printing = TreePrinting(tree, general=frozenset({"Army General"}), battle_standard=frozenset(...))
    sheet = unit_sheet(printing, selection)

The roles are those our system gives a model, found as rules/bridges/systems.py finds them: a
selection named as the mapping's General (or Battle Standard Bearer) entry makes its unit the General
(the BSB), and it is then said as a role, not again among the selections. A game no system of ours maps
names no roles. Costs are in the cost type the roster's Report counts (the limited one, else the data's
first), each selection's own (times its number), its children's apart.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from armylists.rules.battlescribe.profiles import card_extras
from armylists.rules.battlescribe.tree import Roster, Selection

GENERAL, BSB = "General", "BSB"   # our words for the roles, as our own books' rosters print them


@dataclass(frozen=True)
class TreePrinting:
    """What printing a roster tree needs besides its Report: the evaluated roster, and how its data names
    the roles our system gives (empty for a game we do not map)."""
    tree: Roster
    general: frozenset[str] = frozenset()
    battle_standard: frozenset[str] = frozenset()

    @property
    def cost_type(self) -> str:
        types = [c["id"] for c in self.tree.game.cost_types]
        return next((t for t in types if t in self.tree.cost_limits), types[0] if types else "")


@dataclass(frozen=True)
class Held:
    """A selection in a unit: its name, number, own cost and what it holds in turn."""
    name: str
    number: int
    cost: float
    children: tuple[Held, ...] = ()

    def words(self, unit: str) -> str:
        """`2× Clan Marksman 28 pts`, `Runic Special Items (Rune of Destruction 80 pts)`."""
        text = self.name if self.number <= 1 else f"{self.number}\u00d7 {self.name}"
        if self.cost:
            text += f" {cost_text(self.cost)} {unit}"
        if self.children:
            text += f" ({', '.join(c.words(unit) for c in self.children)})"
        return text


@dataclass(frozen=True)
class UnitSheet:
    name: str
    number: int
    roles: tuple[str, ...]
    held: tuple[Held, ...]
    tables: tuple[dict, ...]           # profiles: {type, columns, rows} per profile type (profiles.py)
    rules: tuple[str, ...]             # the rules' names
    notes: tuple[str, ...] = field(default=())   # modifiers of profiles not understood (never printed)

    def option_names(self) -> tuple[str, ...]:
        """The held selections as one line's words (the compact and hidden rosters): `2x Trophy`."""
        def flat(items):
            for h in items:
                yield h.name if h.number <= 1 else f"{h.number}x {h.name}"
                yield from flat(h.children)
        return tuple(flat(self.held))


def cost_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _names(selection: Selection) -> set[str]:
    option = selection.option
    return {n for n in (option.entry.get("name"), (option.link or {}).get("name"), selection.state.name) if n}


def unit_sheet(printing: TreePrinting, unit: Selection) -> UnitSheet:
    roles = []
    role_of = {}
    for selection in unit.walk():
        names = _names(selection)
        for word, wanted in ((GENERAL, printing.general), (BSB, printing.battle_standard)):
            if names & wanted:
                role_of[selection.uid] = word
                if word not in roles:
                    roles.append(word)
    roles.sort(key=(GENERAL, BSB).index)

    def held(selection: Selection) -> Held:
        return Held(selection.state.name, selection.number, selection.state.costs.get(printing.cost_type, 0.0),
                    tuple(held(c) for c in selection.children if c.uid not in role_of or c.children))
    notes: list[str] = []
    tables, rules = card_extras(printing.tree, unit, notes)
    return UnitSheet(unit.state.name, unit.number, tuple(roles),
                     tuple(held(c) for c in unit.children if c.uid not in role_of or c.children),
                     tuple(tables), tuple(r["name"] for r in rules), tuple(notes))
