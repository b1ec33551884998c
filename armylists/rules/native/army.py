"""Price and describe every unit of a list against its book, once, before the checks run.

`Army` is the checks' shared context: each unit's points, category, models, troop type (after its
mount), Wizard level, roles, tags and the items each of its models carries, plus the army's totals.
Names in the list that the book does not define become violations here (`list.unknown_*`), and the
unit is priced without them, so one typo never hides the rest of the report.

A list may take an allied contingent (`Roster.allies`): its units are entries of another book, priced
against that book (and kept in that book's cache) and counted in the system's allies category. The
checks then see the whole army; `main` is the army without them and `contingent` the allied units alone,
in their own book's categories (allies.py says which rules see which).
"""
from __future__ import annotations

from typing import Iterable, Iterator

from armylists.rules.native.allies import allied_book, joined
from armylists.rules.native.book import Book, Entry, Item, ItemAccess, MountChoice, Option, SizeBand, TroopType
from armylists.rules.native.derived import RESOLVED_UNITS, UNIT_MEMO_BOUND, Memo
from armylists.rules.report import UnitLine, Violation
from armylists.rules.reading.roster import Roster, RosterUnit
from armylists.rules.native.selection import select


NO_CUTS: dict[str, int] = {}  # shared by every unit without a discount: never written


def forget_resolved_units(book: Book) -> None:
    """Drop the book's priced units (for benchmarks of the cold path)."""
    book.derived.forget(RESOLVED_UNITS)


class Bearer:
    """One model of a unit that carries items: the character (or unit), its champion or its standard."""
    __slots__ = ("kind", "label", "items", "access", "is_bsb", "veteran", "unit")

    def __init__(self, kind: str, label: str, items: list[Item], access: ItemAccess | None,
                 is_bsb: bool, veteran: bool, unit: "Unit"):
        self.kind, self.label, self.items, self.access = kind, label, items, access
        self.is_bsb, self.veteran, self.unit = is_bsb, veteran, unit

    def points(self) -> int:
        category = self.unit.own_category
        return sum(item.price_for(category) for item in self.items)


class Unit:
    __slots__ = ("id", "roster", "entry", "name", "category", "character", "size", "points",
                 "options", "mount", "troop_type", "on_foot", "large_target", "war_machine",
                 "wizard_level", "is_bsb", "general", "leadership", "armour_access", "frees_path",
                 "tagged", "bearers", "tags", "experience", "memo", "equipment", "allied", "own_category", "_line",
                 "size_bounds", "cuts")

    def __init__(self, roster: RosterUnit, entry: Entry):
        self.id = roster.id
        self.roster = roster
        self.entry = entry
        self.name = entry.name
        self.character = entry.character
        self.general = roster.general
        self.options: dict[str, int] = {}
        self.mount: MountChoice | None = None
        self.tagged: list[tuple[str, str, str]] = []  # (tag, what is counted, its name)
        self.bearers: list[Bearer] = []
        # Its answers to rules about it alone (the engine's per-unit rules, checks.per_unit, its tally), read as
        # derived.Memo says and kept by `keep`: units are shared between reports (Army._priced).
        self.memo: dict = {}
        self.allied = roster.allied
        self._line: UnitLine | None = None
        self.cuts: dict[str, int] = NO_CUTS  # option id -> points its discount takes off (discount_cuts)

    @classmethod
    def described(cls, roster: RosterUnit, entry: Entry, *, name: str, category: str, size: int, points: int,
                  options: dict[str, int], tags: frozenset[str], tagged: list[tuple[str, str, str]],
                  troop_type: TroopType | None, general: bool) -> "Unit":
        """A unit as another reading gives it (a roster tree's selection: bridges/tree_army.py), not priced
        here: of our books' pricing nothing (no mount, Wizard level, roles, items, equipment; on foot)."""
        unit = cls(roster, entry)
        unit.name, unit.category, unit.own_category, unit.size, unit.points = name, category, category, size, points
        unit.size_bounds = (entry.size_min, entry.size_max)
        unit.options, unit.tags, unit.tagged, unit.troop_type, unit.general = options, tags, tagged, troop_type, general
        unit.character, unit.wizard_level, unit.is_bsb, unit.experience = False, 0, False, None
        unit.on_foot, unit.large_target, unit.war_machine = True, False, False
        unit.leadership, unit.armour_access, unit.frees_path, unit.equipment = None, False, False, frozenset()
        return unit

    def keep(self, key: object, entry: tuple) -> tuple:
        """Keep `entry` in the unit's memo, its first item the object it is about (a rule, a rule set); at
        most UNIT_MEMO_BOUND of them: rules made per request (an event's own) must not pile up."""
        if len(self.memo) >= UNIT_MEMO_BOUND:
            self.memo.clear()
        self.memo[key] = entry
        return entry

    def describe(self) -> str:
        return f"{self.name} ({self.id})"

    def line(self) -> UnitLine:
        """The unit's line in a Report, made once: a unit never changes after it is priced."""
        if self._line is None:
            self._line = UnitLine(self.id, self.entry.id, self.name, self.category, self.points, self.size, self.allied)
        return self._line

    def as_allied(self, category: str) -> "Unit":
        """This unit as part of an allied contingent: the same unit, counted in `category`."""
        copy = Unit.__new__(Unit)
        for slot in Unit.__slots__:
            setattr(copy, slot, getattr(self, slot))
        copy.category = category
        copy.memo = {}
        copy._line = None
        copy.bearers = [Bearer(b.kind, b.label, b.items, b.access, b.is_bsb, b.veteran, copy) for b in self.bearers]
        return copy


class Army:
    """A list resolved against its book: the context every check reads."""

    def __init__(self, book: Book, roster: Roster, allies: Book | None = None):
        """The list `roster` resolved against `book`, its allied units against `allies` (allies.py)."""
        system = book.system
        self._begin(book, roster, roster.composition if roster.composition in book.compositions else None,
                    system.band_for(roster.points_limit), [])
        self.allies = allied_book(self, book, roster, allies)  # None: no allies to resolve
        if self.allies is not None:
            self.allies_composition = roster.allies.composition
            self.book = joined(book, self.allies)  # the checks also know the allied book's items and item kinds
            self.system = self.book.system
        own_allied: list[Unit] = []
        priced = self.own_book.derived.of(RESOLVED_UNITS, self.own_book)
        known = priced.get
        for ru in roster.units:
            if not ru.allied:
                found = known((roster.composition, ru))  # the common case first: priced before
                if found is not None:
                    if found[1]:
                        self.problems.extend(found[1])
                else:
                    found = self._priced(self.own_book, priced, (roster.composition, ru), ru)
            elif self.allies is not None:
                allied = self.allies.derived.of(RESOLVED_UNITS, self.allies)
                key = (self.allies_composition, ru)  # differs from the same unit in the book's own lists (allied)
                found = allied.get(key)
                if found is None:
                    found = self._priced(self.allies, allied, key, ru)
                else:
                    self.problems.extend(found[1])
                if found is not None:
                    own_allied.append(found[2])
            else:
                continue  # allies.py has said why they are not priced
            if found is not None:
                self.units.append(found[0])
        for mode in roster.modes:
            if mode not in system.modes:
                self.problems.append(Violation(
                    "list.unknown_mode", f"{mode!r} is not a rule set of {system.name} "
                    f"({', '.join(system.modes) or 'it has none'}).", rule="list", source="list document"))
        if roster.composition and self.composition is None:
            self.problems.append(Violation(
                "list.unknown_composition",
                f"Composition {roster.composition!r} is not one of {book.name}'s "
                f"({', '.join(book.compositions) or 'it has none'}).", rule="list", source="list document"))
        self._tally()
        # The army without its allied units, and the allied units alone (in their own book's categories).
        if own_allied:
            self._main = Army.of_units(self.book, roster, [u for u in self.units if not u.allied], self.composition,
                                       self.band)
            self.contingent = Army.of_units(self.allies, roster, own_allied, self.allies_composition
                                            if self.allies_composition in self.allies.compositions else None, self.band)

    @classmethod
    def of_units(cls, book: Book, roster: Roster, units: list[Unit], composition: str | None,
                 band: SizeBand | None) -> "Army":
        """An army of units made already, for the rules that look at them alone: some of a list's units
        (the army without its allies, the contingent) or a roster tree's, as bridges/tree_army.py reads them."""
        army = cls.__new__(cls)
        army._begin(book, roster, composition, band, units)
        army._tally()
        return army

    def _begin(self, book: Book, roster: Roster, composition: str | None, band: SizeBand | None,
               units: list[Unit]) -> None:
        """What every army holds before its units are counted, set here alone (every way an Army is made)."""
        self.own_book = self.book = book
        self.system, self.roster, self.limit, self.band = book.system, roster, roster.points_limit, band
        self.composition, self.units, self.problems = composition, units, []
        self.measured: dict[int, tuple] = {}  # count rules' measures (checks.selections.measure_count)
        self.selected: dict[int, tuple] = {}  # the rule set's selections, gathered by the engine (select)
        self.tallies: dict[bool, dict] | None = None  # its tag totals, all tags or the book's (checks.tallies.totals)
        self.allies: Book | None = None
        self.allies_composition: str | None = None
        self._main = self.contingent = None  # Armies: without its allied units, and of those alone (of_units)

    @property
    def main(self) -> "Army":
        """The army without its allied units (itself when it has none)."""
        return self._main or self

    def _tally(self) -> None:
        system = self.system
        total, wizards = 0, False
        points = {c.id: 0 for c in system.categories}
        units = dict(points)
        for u in self.units:  # one pass: this runs at every check of every list
            category = u.category
            total += u.points
            points[category] = points.get(category, 0) + u.points
            units[category] = units.get(category, 0) + 1
            wizards = wizards or bool(u.wizard_level)
        self.total, self.category_points, self.category_units, self.has_wizards = total, points, units, wizards

    def _priced(self, book: Book, resolved: Memo, key: tuple, ru: RosterUnit) -> tuple[Unit, tuple, Unit] | None:
        """The unit priced against `book` (its own, or the allies'), with its problems, or None if the book lacks it.

        A unit's pricing depends only on the book, the composition and the unit itself, so it is kept per
        book: re-checking a list after one edit re-prices only the unit that changed. Units are never
        modified after they are built, so sharing them between reports is safe. An allied unit is kept
        twice: counted in the allies category, and as its own book counts it (the third value).
        """
        entry = book.entries.get(ru.entry)
        if entry is None:
            self.problems.append(Violation(
                "list.unknown_entry", f"Unit {ru.id} names {ru.entry!r}, which is not in {book.name} {book.version}.",
                unit=ru.id, rule="list", source="list document"))
            return None
        before = len(self.problems)
        own = self._resolve(ru, entry, book, key[0])  # key: (composition, ru)
        unit = own.as_allied(book.system.allies.category) if ru.allied else own
        return resolved.put(key, (unit, tuple(self.problems[before:]), own))

    def _general_option_missing(self, ru: RosterUnit, entry: Entry) -> None:
        """Marked the General without the option that makes it so: the option (and its cost) is not taken."""
        option = next((o for o in entry.options.values() if o.role == "general"), None)
        if option is not None:
            self.problems.append(Violation(
                "list.general_option", f"{entry.name} ({ru.id}) is marked the General but does not take its "
                f"option {option.name} ({option.cost} pts): take the option to make it the General.",
                unit=ru.id, rule="list", source="army book"))

    # -- pricing one unit ---------------------------------------------------------------------
    def _resolve(self, ru: RosterUnit, entry: Entry, book: Book, composition: str | None) -> Unit:
        """Price one unit and describe it; kept lean, since it runs for every unit at every edit."""
        system = book.system
        unit = Unit(ru, entry)
        unit.category = entry.composition_categories.get(composition, entry.category) if composition else entry.category
        if composition and composition in entry.character_in:  # moved to or from the Characters
            unit.character = entry.character_in[composition]
        unit.own_category = unit.category
        size = ru.size if ru.size is not None else _smallest(ru, entry)
        unit.size = size
        points = entry.base_points + entry.points * size
        wizard_level = entry.wizard_level
        leadership = entry.leadership
        # A book may give an allowance that differs by composition (a Royal Clan's runes).
        entry_access = entry.items.in_composition(composition) if entry.items else None
        item_allowance = entry_access.allowance if entry_access else None
        is_bsb = False
        tags = entry.tags
        tagged = unit.tagged
        if composition and composition in entry.composition_tags:  # limited otherwise in this composition
            tags = entry.composition_tags[composition]
            tagged.extend((tag, "entry:" + entry.id, entry.name) for tag in tags)
        else:
            tagged.extend(entry.tagged)
        equipment = entry.equipment
        size_bounds = (entry.size_min, entry.size_max)

        options = entry.options
        # Options are the unit's, paid per model where `per_model`; or, where the list gives each model
        # its own (model_options), each model pays for its own.
        chosen = [(oid, count, size) for oid, count in ru.options]
        general_by_option = False
        for model in ru.model_options:
            chosen.extend((oid, count, 1) for oid, count in model)
        for oid, count, models in chosen:
            option = options.get(oid)
            if option is None:
                self._unknown(ru, "option", oid, entry, book)
                continue
            if count > unit.options.get(oid, 0):
                unit.options[oid] = count
            points += option.cost * count * (models if option.per_model else 1)
            if option.model_cost:
                points += option.model_cost * count * models
            if option.wizard_level > wizard_level:
                wizard_level = option.wizard_level
            if option.leadership is not None:
                leadership = option.leadership
            if option.role == "bsb":
                is_bsb = True
            elif option.role == "general":
                general_by_option = True  # a book whose General is an option (paid in New Recruit's T9A data)
            if option.item_allowance is not None:
                item_allowance = option.item_allowance
            if option.equipment:
                equipment = equipment | frozenset(option.equipment)
            if option.size is not None:
                size_bounds = option.size
            if option.tags:
                tags = tags | option.tags
                tagged.extend((tag, "option:" + oid, option.name) for tag in option.tags)
        if general_by_option:
            unit.general = True
        elif ru.general:  # still the General (one message, not also "no General"), but short of the option
            self._general_option_missing(ru, entry)
        if entry.rising_groups:
            points += _rising_costs(entry, ru, size)
        if entry.discounts:
            unit.cuts = discount_cuts(entry, ru.options, size, ru.model_options)
            points -= sum(unit.cuts.values())

        troop_type: TroopType = system.troop_types[entry.troop_type]
        on_foot = troop_type.on_foot
        if ru.mount:
            choice = entry.mounts.get(ru.mount)
            if choice is None:
                self._unknown(ru, "mount", ru.mount, entry, book)
            else:
                unit.mount = choice
                points += choice.cost
                mount_type = system.troop_types[choice.mount.troop_type]
                # A character riding a War Beast becomes Cavalry, and so on (000:L1646-1655).
                troop_type = system.troop_types.get(mount_type.as_mount or mount_type.id, mount_type)
                on_foot = False
                mount_tags = choice.tags | choice.mount.tags
                if mount_tags:
                    tags = tags | mount_tags
                    tagged.extend((tag, "mount:" + ru.mount, choice.mount.name) for tag in mount_tags)

        command = entry.command
        for role in ru.command:
            part = command.get(role)
            if part is None:
                self.problems.append(Violation(
                    "list.unknown_command", f"{entry.name} ({ru.id}) cannot take a {role}.", unit=ru.id,
                    rule="list", source="army book"))
                continue
            points += part.cost
        if ru.veteran_standard and "standard" in ru.command and "standard" in command:
            points += command["standard"].veteran_cost
            tagged.extend((tag, "veteran-standard", "Veteran Standard Bearer") for tag in system.veteran_standard_tags)

        unit.wizard_level = wizard_level
        unit.size_bounds = size_bounds
        unit.is_bsb = is_bsb
        unit.tags = tags
        unit.equipment = equipment
        unit.troop_type = troop_type
        unit.on_foot = on_foot
        unit.large_target = troop_type.large_target or "large-target" in tags
        unit.war_machine = troop_type.war_machine
        unit.leadership = leadership
        unit.armour_access = entry.armour_access
        unit.frees_path = False
        unit.experience = ru.experience if ru.experience is not None else entry.experience

        # Only models that carry items become Bearers: the item checks look at nothing else.
        if ru.items:
            access = entry_access
            if access is not None and item_allowance != access.allowance:
                access = access.with_allowance(item_allowance)
            unit.bearers.append(Bearer("model", entry.name, self._items(ru, ru.items, entry, book), access, is_bsb,
                                       False, unit))
        if ru.champion_items:
            part = command.get("champion") if "champion" in ru.command else None
            unit.bearers.append(Bearer("champion", f"{entry.name} champion",
                                       self._items(ru, ru.champion_items, entry, book),
                                       part.items.in_composition(composition) if part and part.items else None,
                                       False, False, unit))
        if ru.standard_items:
            part = command.get("standard") if "standard" in ru.command else None
            access = part.items.in_composition(composition) if part and part.items else None
            if access is None and part is not None and part.veteran and ru.veteran_standard:
                # The Veteran Standard Bearer may take a Magical Standard (000:L2134-2136); its
                # points cap is the veteran_standard rule's.
                access = ItemAccess(None, frozenset(c.id for c in system.item_categories.values() if c.standard))
            unit.bearers.append(Bearer("standard", f"{entry.name} standard",
                                       self._items(ru, ru.standard_items, entry, book),
                                       access, False, ru.veteran_standard, unit))
        for bearer in unit.bearers:
            points += bearer.points()
            for item in bearer.items:
                # A Wizard's Hood makes its bearer a Wizard (000:L2990-2995); we count it as one for
                # "an army with no Wizards" too.
                if item.wizard_level and not unit.wizard_level:
                    unit.wizard_level = item.wizard_level
                if item.frees_path:
                    unit.frees_path = True
        unit.points = points
        return unit

    def _items(self, ru: RosterUnit, ids: tuple[str, ...], entry: Entry, book: Book) -> list[Item]:
        items = []
        for iid in ids:
            item = book.items.get(iid)
            if item is None:
                self._unknown(ru, "item", iid, entry, book)
            else:
                items.append(item)
        return items

    def _unknown(self, ru: RosterUnit, what: str, name: str, entry: Entry, book: Book) -> None:
        self.problems.append(Violation(
            f"list.unknown_{what}", f"{entry.name} ({ru.id}) has {what} {_shown(book, what, name)}, which "
            f"{entry.name} cannot take in {book.name} {book.version}.", unit=ru.id, rule="list", source="army book"))

    # -- helpers for checks -------------------------------------------------------------------
    def select(self, selector: dict) -> list[Unit]:
        """The units matching `selector` (selection.py), gathered once per check where the engine could;
        the list may be shared between rules: read it, never change it."""
        found = self.selected.get(id(selector))
        if found is not None and found[0] is selector:
            return found[1]
        return select(self.units, selector)

    def all_bearers(self) -> Iterator[Bearer]:
        for unit in self.units:
            yield from unit.bearers

    def category_name(self, category_id: str) -> str:
        return self.system.category_names.get(category_id, category_id)


def _shown(book: Book, what: str, name: str) -> str:
    """An option or mount the unit cannot take, by its name where another entry of the book offers it
    (a Mordheim Augur's 'Light armour'), else as the list wrote it."""
    for entry in book.entries.values():
        found = entry.options.get(name) if what == "option" else entry.mounts.get(name) if what == "mount" else None
        if found is not None:
            return repr(found.name if what == "option" else found.mount.name)
    return repr(name)


def _rising_costs(entry: Entry, ru: RosterUnit, size: int) -> int:
    """What rising costs add to the options' listed prices: in a group with `further_percent`, a model's
    first option costs its price and each further one that percent of it (a Possessed's second mutation
    costs double). The order is the player's, so the dearest is the first and the rest cost more.
    Options of the whole unit apply to each model; a model's own options (model_options) to it alone."""
    extra = 0
    for group in entry.rising_groups:
        for chosen, models in ((ru.options, size), *((own, 1) for own in ru.model_options)):
            taken = sorted((entry.options[oid] for oid, count in chosen
                            if oid in entry.options and entry.options[oid].group == group.id
                            for _ in range(count)), key=lambda o: o.cost, reverse=True)
            for option in taken[1:]:
                extra += option.cost * (group.further_percent - 100) // 100 * (models if option.per_model else 1)
    return extra


def discount_cuts(entry: Entry, options: Iterable[tuple[str, int]], size: int,
                  model_options: Iterable[Iterable[tuple[str, int]]] = ()) -> dict[str, int]:
    """option id -> the points the entry's `discounts` take off it: of each set, the cheapest option taken,
    one of it, priced as the unit pays for it (for all its models where it is paid per model), costs the
    set's percent of that price, a fraction rounded as the set says (Keys to the Citadel: the cheaper of two
    enchantments at half, rounding up: 25 -> 13). The unit's options are one set of choices and each
    model's own options (model_options) another, each with its own cheapest. The one place a discount is
    priced: the unit's points, the tallies (checks/tallies.py) and the item picker (added_points) read it."""
    cuts: dict[str, int] = {}
    for discount in entry.discounts:
        for chosen, models in ((options, size), *((own, 1) for own in model_options)):
            prices = [(option_price(entry.options[oid], models), oid) for oid, count in chosen
                      if count > 0 and oid in discount.options and oid in entry.options]
            if not prices:
                continue
            price, oid = min(prices)
            paid = -(-price * discount.percent // 100) if discount.round_up else price * discount.percent // 100
            if price > paid:
                cuts[oid] = cuts.get(oid, 0) + price - paid
    return cuts


def option_price(option: Option, models: int) -> int:
    """What a unit of `models` models pays for taking the option once."""
    return option.cost * (models if option.per_model else 1) + option.model_cost * models


def added_points(unit: Unit, option: Option) -> int:
    """What taking the option once more adds to the unit's points, its discount included (the item picker)."""
    ru, entry = unit.roster, unit.entry
    price = option_price(option, unit.size)
    if not any(option.id in d.options for d in entry.discounts):
        return price
    counts = dict(ru.options)
    counts[option.id] = counts.get(option.id, 0) + 1
    after = discount_cuts(entry, counts.items(), unit.size, ru.model_options)
    return price - sum(after.values()) + sum(unit.cuts.values())


def _smallest(ru: RosterUnit, entry: Entry) -> int:
    """A unit whose list gives no size has the fewest models it may: an option's minimum if it sets one."""
    least = entry.size_min
    for oid, _ in ru.options:
        option = entry.options.get(oid)
        if option is not None and option.size is not None:
            least = option.size[0]
    return least
