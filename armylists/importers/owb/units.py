"""One Old World Builder unit as the choices our entry offers: options, mounts, command, defaults.

`plan_unit` is shared by the book importer and the list importer. The ids it gives a unit's choices
depend only on the unit's own definition, so the copy of a unit that OWB saves inside a list maps onto
the same ids as the dataset's unit the book was made from.

How OWB's choices become ours:
- `equipment` and `armor` are each one choice (radio buttons). The default OWB selects (`active`) is the
  entry's own equipment when it costs nothing (or is the only choice); the others are options of one
  group. A default that costs points stays an option, and the group requires one choice.
- `options` are independent unless `exclusive` (then one group). An `alwaysActive` option is folded into
  the entry (its points, its equipment, the Wizard level it gives); its sub-options are chosen as above.
  Other sub-options require their parent option. `stackable` options may be taken several times.
- `mounts`: "On foot" means riding is optional; otherwise a default mount makes one required.
- `command`: champion, musician and standard by name; a character's "General" is the list's General flag
  and its "Battle Standard Bearer" an option with the `bsb` role; any other command is an option.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from armylists.importers.owb.data import compositions_of, english, name_of, slug

WIZARD_LEVEL = re.compile(r"Level (\d) Wizard", re.IGNORECASE)
ROLES = ("champion", "musician", "standard")


def wizard_level(name: str) -> int:
    """The Wizard level a choice named "Level 2 Wizard" gives (the highest one it names)."""
    return max((int(n) for n in WIZARD_LEVEL.findall(name)), default=0)


def armour_of(name: str) -> tuple[str, ...]:
    """The system's armour ids a choice gives ("Hand weapons, Lances, Shields" -> shield): Wizards may
    not wear them, so they matter; other equipment is the entry's own business."""
    text = name.lower()
    found = []
    if "full plate" in text:
        found.append("full-plate-armour")
    elif "heavy armour" in text or "heavy armor" in text:
        found.append("heavy-armour")
    elif "light armour" in text or "light armor" in text:
        found.append("light-armour")
    if "shield" in text:
        found.append("shield")
    return tuple(found)


def points(obj: dict) -> int:
    return int(obj.get("points") or 0)


@dataclass
class Choice:
    """One option of our entry, and where it comes from in the OWB unit (`ref`)."""
    id: str
    name: str
    cost: int
    ref: tuple
    per_model: bool = False
    group: str | None = None
    max: int = 1
    requires: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    wizard_level: int = 0
    role: str | None = None
    compositions: set[str] | None = None  # only in these OWB compositions
    always_in: set[str] | None = None  # OWB takes it by itself in these compositions
    needs_item: str | None = None  # OWB offers it only with this item
    stackable: bool = False
    minimum: int = 0
    magic: dict | None = None  # a Battle Standard Bearer's magic standard


@dataclass
class Folded:
    """A default the unit always has: part of the entry's cost, equipment and Wizard level."""
    ref: tuple
    cost: int
    per_model: bool
    equipment: tuple[str, ...]
    wizard_level: int


@dataclass
class MountPlan:
    id: str
    name: str
    cost: int
    ref: tuple
    compositions: set[str] | None
    needs_item: str | None
    large_target: bool


@dataclass
class CommandPlan:
    role: str
    cost: int
    ref: tuple
    magic: dict | None


@dataclass
class UnitPlan:
    options: list[Choice] = field(default_factory=list)
    folded: list[Folded] = field(default_factory=list)
    groups: dict[str, dict] = field(default_factory=dict)
    mounts: list[MountPlan] = field(default_factory=list)
    on_foot: bool = False
    mount_default: bool = False
    command: list[CommandPlan] = field(default_factory=list)
    general_ref: tuple | None = None
    general_compositions: set[str] | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)  # (topic, detail) for the book's `unchecked`


class _Ids:
    """Option ids unique within the entry: the name's slug, then a hint, then a number."""

    def __init__(self, reserved: set[str]):
        self.used = set(reserved)

    def take(self, name: str, *hints: str) -> str:
        base = slug(name)
        candidate = base
        for hint in hints:
            if candidate not in self.used:
                break
            candidate = f"{base}-{slug(hint)}"
        n = 2
        while candidate in self.used:
            candidate = f"{base}-{n}"
            n += 1
        self.used.add(candidate)
        return candidate


def _hint(obj: dict, kind: str) -> list[str]:
    comps = compositions_of(obj.get("armyComposition"))
    return ([sorted(comps)[0]] if comps else []) + [kind]


def is_on_foot(obj: dict) -> bool:
    return name_of(obj).lower().startswith("on foot")


def unit_role(name: str) -> str | None:
    text = name.lower()
    for role in ("musician", "standard", "champion"):
        if role in text:
            return role
    return None


def plan_unit(unit: dict, character: bool) -> UnitPlan:
    plan = UnitPlan()
    mounts = [(j, m) for j, m in enumerate(unit.get("mounts") or []) if not is_on_foot(m)]
    plan.on_foot = any(is_on_foot(m) for m in unit.get("mounts") or [])
    ids = _Ids({slug(name_of(m)) for _, m in mounts} | set(ROLES))
    unit_name = name_of(unit)

    def choice(obj: dict, ref: tuple, kind: str, **extra: Any) -> Choice:
        c = Choice(id=ids.take(name_of(obj), *_hint(obj, kind)), name=name_of(obj), cost=points(obj), ref=ref,
                   per_model=bool(obj.get("perModel")), equipment=armour_of(name_of(obj)),
                   wizard_level=wizard_level(name_of(obj)), compositions=compositions_of(obj.get("armyComposition")),
                   needs_item=obj.get("requiredMagicItem") or None, **extra)
        if c.needs_item:
            plan.notes.append(("needs-item", f"{unit_name}: {c.name} needs {c.needs_item}"))
        plan.options.append(c)
        return c

    def group(gid: str, name: str, members: int, least: int = 0) -> str | None:
        if members < 2 and not least:
            return None
        plan.groups[gid] = {"name": name, **({"min": least} if least else {})}
        return gid

    def radio(objs: list[tuple[tuple, dict]], gid: str, gname: str, kind: str, requires: tuple[str, ...] = ()) -> None:
        """One choice among `objs`; see the module docstring for where the default goes."""
        if not objs:
            return
        defaults = [(ref, o) for ref, o in objs if o.get("active")]
        folded: list[tuple[tuple, dict]] = []
        if not requires:
            # Defaults that cost nothing are what the unit carries (Skeleton Archers default to both hand
            # weapons and warbows); a default with a cost is folded only when there is no other choice.
            folded = [(ref, o) for ref, o in defaults if points(o) == 0] or (defaults[:1] if len(objs) == 1 else [])
        for ref, o in folded:
            plan.folded.append(Folded(ref, points(o), bool(o.get("perModel")), armour_of(name_of(o)),
                                      wizard_level(name_of(o))))
        done = {ref for ref, _ in folded}
        rest = [(ref, o) for ref, o in objs if ref not in done]
        least = 1 if not requires and not folded and defaults else 0
        gid_used = group(gid, gname, len(rest), least)
        for ref, o in rest:
            choice(o, ref, kind, group=gid_used, requires=requires)

    def sub_options(parent: dict, ref: tuple, gid: str, gname: str, requires: tuple[str, ...]) -> None:
        subs = [(ref + ("options", k), s) for k, s in enumerate(parent.get("options") or [])]
        radio([(r, s) for r, s in subs if s.get("exclusive")], gid, gname, gid, requires)
        for r, s in subs:
            if not s.get("exclusive"):
                choice(s, r, gid, requires=requires)

    radio([(("equipment", j), o) for j, o in enumerate(unit.get("equipment") or [])], "weapons", "Weapons", "weapon")
    radio([(("armor", j), o) for j, o in enumerate(unit.get("armor") or [])], "armour", "Armour", "armour")

    exclusive = [o for o in unit.get("options") or [] if o.get("exclusive")]
    top_group = group("options", "Options", len(exclusive))
    for j, o in enumerate(unit.get("options") or []):
        ref = ("options", j)
        comps = compositions_of(o.get("armyComposition"))
        if o.get("alwaysActive") and comps is None:
            plan.folded.append(Folded(ref, points(o), bool(o.get("perModel")), armour_of(name_of(o)),
                                      wizard_level(name_of(o))))
            sub_options(o, ref, slug(name_of(o)), name_of(o), ())
            continue
        if o.get("stackable"):
            most = int(o.get("maximum") or 0) or 100
            c = choice(o, ref, "option", max=most, stackable=True, minimum=int(o.get("minimum") or 0))
            c.per_model = False  # OWB prices a stack by its count alone
            if c.minimum:
                plan.notes.append(("stack-min", f"{unit_name}: at least {c.minimum} x {c.name}"))
            continue
        c = choice(o, ref, "option", group=top_group if o.get("exclusive") else None,
                   always_in=comps if o.get("alwaysActive") else None)
        if c.always_in:
            plan.notes.append(("always", f"{unit_name}: {c.name} ({', '.join(sorted(c.always_in))})"))
        sub_options(o, ref, f"{c.id}-choice", c.name, (c.id,))

    for j, m in mounts:
        ref = ("mounts", j)
        mid = slug(name_of(m))
        if any(p.id == mid for p in plan.mounts):
            plan.notes.append(("mount-twice", f"{unit_name}: {name_of(m)}"))
            continue
        if m.get("active"):
            plan.mount_default = True
        needs = m.get("requiredMagicItem") or None
        if needs:
            plan.notes.append(("needs-item", f"{unit_name}: {name_of(m)} needs {needs}"))
        plan.mounts.append(MountPlan(mid, name_of(m), points(m), ref, compositions_of(m.get("armyComposition")), needs,
                                     "large target" in english(m.get("specialRules")).lower()))
        sub_options(m, ref, f"{mid}-options", f"{name_of(m)} options", (mid,))

    _plan_command(unit, character, plan, choice, sub_options, unit_name)
    # Two choices of one name (one per composition): the composition tells them apart.
    names = [c.name for c in plan.options]
    for c in plan.options:
        if names.count(c.name) > 1 and c.compositions:
            c.name = f"{c.name} ({', '.join(sorted(c.compositions))})"
    return plan


def _plan_command(unit: dict, character: bool, plan: UnitPlan, choice, sub_options, unit_name: str) -> None:
    commands = list(enumerate(unit.get("command") or []))
    roles: dict[int, str] = {}
    if not character:
        taken: set[str] = set()
        for j, c in commands:
            role = unit_role(name_of(c))
            if role and role not in taken and not c.get("alwaysActive"):
                roles[j] = role
                taken.add(role)
        if "champion" not in taken:  # a unit's own title for its champion: Shartak, Nightleader...
            first = next((j for j, c in commands if j not in roles and unit_role(name_of(c)) is None
                          and not c.get("alwaysActive")), None)
            if first is not None:
                roles[first] = "champion"
    for j, c in commands:
        ref = ("command", j)
        name = name_of(c)
        comps = compositions_of(c.get("armyComposition"))
        magic = c.get("magic") if isinstance(c.get("magic"), dict) else None
        if character and name.lower() == "general":
            plan.general_ref, plan.general_compositions = ref, comps
            continue
        if c.get("alwaysActive") and comps is None:
            plan.folded.append(Folded(ref, points(c), False, (), wizard_level(name)))
            sub_options(c, ref, f"{slug(name)}-options", f"{name} options", ())
            continue
        if j in roles:
            role = roles[j]
            if comps is not None:
                plan.notes.append(("command-composition", f"{unit_name}: {name} ({', '.join(sorted(comps))})"))
            plan.command.append(CommandPlan(role, points(c), ref, magic))
            sub_options(c, ref, f"{role}-options", f"{name} options", (role,))
            continue
        if character and "battle standard bearer" in name.lower():
            made = choice(c, ref, "command", role="bsb", magic=magic)
        else:
            made = choice(c, ref, "command", group="command-choice" if c.get("exclusive") else None)
            if c.get("exclusive"):
                plan.groups.setdefault("command-choice", {"name": "Command choice"})
            if magic and magic.get("types"):
                plan.notes.append(("command-magic", f"{unit_name}: {name}"))
        sub_options(c, ref, f"{made.id}-choice", name, (made.id,))
