"""Immutable, compiled views of a game system and an army book.

The loader checks the YAML and builds these once; validation then only does dictionary lookups.
A `Book` holds everything one list needs: its system, the common items and the book's own.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from armylists.rules.native.derived import RULE_LISTS, Derived

CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    type: str
    params: Mapping[str, Any]
    severity: str = "error"
    source: str = ""
    text: str = ""
    origin: str = ""  # "system", "book" or "event": which document it came from
    tags: frozenset[str] = frozenset()  # kinds of rule a mode or composition may set aside (`per-1000`)


@dataclass(frozen=True, slots=True)
class Category:
    id: str
    name: str
    character: bool = False


@dataclass(frozen=True, slots=True)
class SizeBand:
    id: str
    name: str
    min_points: int | None = None
    max_points: int | None = None
    source: str = ""

    def contains(self, points: int) -> bool:
        if self.min_points is not None and points < self.min_points:
            return False
        if self.max_points is not None and points > self.max_points:
            return False
        return True


@dataclass(frozen=True, slots=True)
class TroopType:
    id: str
    name: str
    on_foot: bool = False
    large_target: bool = False
    war_machine: bool = False
    as_mount: str | None = None


@dataclass(frozen=True, slots=True)
class ItemCategory:
    id: str
    name: str
    wizards_only: bool = False
    standard: bool = False
    wizard_needs_armour: bool = False
    max_per_model: int = 1  # how many items of this category one model may carry (runes: 3)
    counts_toward: str | None = None  # its items sit on that category's item and count toward its max (master runes)
    # the bearer must carry one of these pieces of mundane equipment (its unit's, options included): ranged
    # weapon runes a crossbow, handgun or pistol; a category that `counts_toward` another needs what that one needs
    needs_equipment: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    name: str
    category: str
    cost: int
    cost_by_category: Mapping[str, int] = field(default_factory=dict)
    type: str = ""
    one_use: bool = False
    repeatable: bool = False
    counts_as: str | None = None
    restrictions: Mapping[str, Any] = field(default_factory=dict)
    frees_path: bool = False
    wizard_level: int = 0
    source: str = ""
    text: str = ""
    common: bool = True
    max_per_model: int | None = None  # how often one model may carry it, if limited (a rune: 1, or 3)

    def price_for(self, unit_category: str) -> int:
        """Dual-priced items cost more for Lords (000:L2846-2849)."""
        return self.cost_by_category.get(unit_category, self.cost)

    @property
    def identity(self) -> str:
        """The id One per Army counts: a variant shares its original's."""
        return self.counts_as or self.id


@dataclass(frozen=True, slots=True)
class ItemAccess:
    allowance: int | None  # None: no points cap
    categories: frozenset[str] | None  # None: every category but standards
    book_only: bool = False
    allowance_in: Mapping[str, int] = field(default_factory=dict)  # composition id -> the allowance there
    # item category -> points of its items (with those of the categories that `counts_toward` it) within the
    # allowance: a Longbeard Elder's "up to 25 points of each kind of rune"
    category_allowance: Mapping[str, int] = field(default_factory=dict)
    category_allowance_in: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # composition -> changes

    def in_composition(self, composition: str | None) -> "ItemAccess":
        """The access as a list of that composition has it: the allowances the book gives there, if any."""
        if composition not in self.allowance_in and composition not in self.category_allowance_in:
            return self
        return ItemAccess(self.allowance_in.get(composition, self.allowance), self.categories, self.book_only,
                          category_allowance={**self.category_allowance,
                                              **self.category_allowance_in.get(composition, {})})

    def with_allowance(self, allowance: int | None) -> "ItemAccess":
        """The same access with another points allowance (an option's `item_allowance`)."""
        return replace(self, allowance=allowance)


@dataclass(frozen=True, slots=True)
class Mount:
    id: str
    name: str
    troop_type: str
    profiles: tuple[Mapping[str, Any], ...] = ()
    tags: frozenset[str] = frozenset()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MountChoice:
    mount: Mount
    cost: int
    requires: tuple[str, ...] = ()
    tags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Option:
    id: str
    name: str
    cost: int
    per_model: bool = False
    group: str | None = None
    max: int = 1
    requires: tuple[str, ...] = ()
    requires_any: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    equipment: tuple[str, ...] = ()
    wizard_level: int = 0
    role: str | None = None
    leadership: int | None = None
    tags: frozenset[str] = frozenset()
    item_allowance: int | None = None
    text: str = ""
    # Bounds that grow with the unit, for options whose count is a number of models: at most one per
    # `max_per_models` models (Fanatics: 1 per 10 Night Goblins; 1: no more than the unit's models), and
    # at least one per `min_per_models` (Squig Herders: 1 per 5 Squigs). Both round down.
    max_per_models: int | None = None
    min_per_models: int | None = None
    size: tuple[int, int | None] | None = None  # (min, max) models while taken, instead of the entry's (a Detachment)
    model_cost: int = 0  # paid for every model of the unit each time it is taken, on top of `cost`
    item_pool: str | None = None  # an item of this pool: offered in the editor's item picker (lists/offers/pool_choices.py)
    profiles: tuple[Mapping[str, Any], ...] = ()  # model parts it adds while taken (a mount chosen as an option)
    # (tag, weight): how many each time taken counts toward a tally of that tag, where not one (New Recruit's
    # `{ref, amount}`: an Ogre Khans' gunner unit counts five hired guns; half a model's small arms fire)
    tag_weights: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class OptionGroup:
    id: str
    name: str
    min: int = 0
    max: int = 1
    further_percent: int | None = None  # rising costs: each option after a model's first at this percent


@dataclass(frozen=True, slots=True)
class Discount:
    """A set of an entry's options whose cheapest taken one is paid at `percent` of its price, a fraction
    of a point rounded up or down (Keys to the Citadel: one of two weapon enchantments at half price)."""
    name: str
    options: frozenset[str]
    percent: int
    round_up: bool
    source: str = ""


@dataclass(frozen=True, slots=True)
class CommandPart:
    role: str  # champion, musician, standard
    cost: int
    items: ItemAccess | None = None
    veteran: bool = False
    veteran_cost: int = 0


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    name: str
    category: str
    troop_type: str
    points: int
    base_points: int
    size_min: int
    size_max: int | None
    character: bool
    profiles: tuple[Mapping[str, Any], ...]
    equipment: frozenset[str]
    tags: frozenset[str]
    wizard_level: int
    paths: tuple[str, ...]
    items: ItemAccess | None
    options: Mapping[str, Option]
    groups: Mapping[str, OptionGroup]
    mounts: Mapping[str, MountChoice]
    mount_required: bool
    command: Mapping[str, CommandPart]
    leadership: int | None
    composition_categories: Mapping[str, str]
    composition_tags: Mapping[str, frozenset[str]] = field(default_factory=dict)  # its tags in a composition
    # Whether it is a Character in the compositions that move it to or from a Characters category (a Troll
    # Hag: a Rare choice in the Grand Army, a Character in a Troll Horde)
    character_in: Mapping[str, bool] = field(default_factory=dict)
    option_minimums: tuple[OptionGroup, ...] = ()  # the groups that must be chosen from
    rising_groups: tuple[OptionGroup, ...] = ()  # the groups whose further options cost more (further_percent)
    discounts: tuple[Discount, ...] = ()  # option sets whose cheapest taken one costs less (army.discount_cuts)
    options_per_models: tuple[Option, ...] = ()  # the options with a `min_per_models`
    armour_access: bool = False  # has mundane armour or the option to buy it (000:L2827-2828)
    tagged: tuple[tuple[str, str, str], ...] = ()  # (tag, what tag_max counts, name) of the entry itself
    rules: tuple[str, ...] = ()
    base: str = ""
    text: str = ""
    experience: int = 0
    model_tags: frozenset[str] = frozenset()  # tags counted once per model of the unit (checks/tallies.py)
    tag_weights: tuple[tuple[str, float], ...] = ()  # its own tags' and model tags' weights, as an Option's

    def category_in(self, composition: str | None) -> str:
        if composition and composition in self.composition_categories:
            return self.composition_categories[composition]
        return self.category

    @property
    def may_be_character(self) -> bool:
        """A Character in some composition: the editor offers it the General's role (the report says where not)."""
        return self.character or any(self.character_in.values())


@dataclass(frozen=True, slots=True)
class Composition:
    id: str
    name: str
    rules: tuple[Rule, ...] = ()
    replace_rules: frozenset[str] = frozenset()
    replace_tags: frozenset[str] = frozenset()  # sets aside every other rule carrying one of these tags
    source: str = ""


@dataclass(frozen=True, slots=True)
class AlliedArmy:
    """One army a book may take allies from: a book, in its default composition or the one named."""
    book: str
    composition: str | None = None


@dataclass(frozen=True)
class AlliesRules:
    """How a system's lists take an allied contingent from another book (The Old World's Allies)."""
    category: str  # the category every allied unit counts in (its points go to that category's percent)
    allowed: Mapping[str, tuple[AlliedArmy, ...]]  # book id -> the armies it may ally with
    needs_character: bool = True  # the contingent has a Character of its own
    without_allies: frozenset[str] = frozenset()  # rule types checked on the main army alone (the General)
    # rule types that, in the list's book's own rules (and its composition's), see that book's units alone:
    # its "0-X per 1000 points" and "one X per Y" are about its own units, as the allied book's are about its
    book_rules_without_allies: frozenset[str] = frozenset()
    source: str = ""

    def allows(self, book: str, ally: str, composition: str | None) -> bool:
        return AlliedArmy(ally, composition) in self.allowed.get(book, ())


@dataclass(frozen=True)
class System:
    id: str
    name: str
    version: str
    categories: tuple[Category, ...]
    size_bands: tuple[SizeBand, ...]
    troop_types: Mapping[str, TroopType]
    armour: frozenset[str]
    item_categories: Mapping[str, ItemCategory]
    items_one_per_army: bool
    item_allowances: Mapping[str, int]
    veteran_standard_tags: frozenset[str]
    paths: Mapping[str, str]
    rules: tuple[Rule, ...]
    modes: Mapping[str, "Composition"] = field(default_factory=dict)  # matched-play rule sets a list may choose
    figures: tuple[Rule, ...] = ()  # extra Report figures: {id, type, params} of the FIGURES registry
    budget_unit: str = "pts"
    default_limit: int | None = None
    print_variant: str = "full"
    hidden_list: bool = False  # the game has hidden lists (The 9th Age, 000:L133-149): the PDF offers one
    sources: tuple[str, ...] = ()
    content_hash: str = ""
    allies: AlliesRules | None = None  # None: lists of this system take no allies
    shared_entries: tuple["SharedEntry", ...] = ()  # entries several books take (Mordheim's Hired Swords)
    # The system's own words for pages and rosters: what a Wizard's Path is called, and the documents
    # rule sources cite by number ("001" -> (its name, ((first line, section name), ...))).
    path_word: str = "Path of Magic"
    general_word: str = "General"  # the one who leads the list: Mordheim's Leader
    documents: Mapping[str, tuple[str, tuple[tuple[int, str], ...]]] = field(default_factory=dict)

    def band_for(self, points_limit: int) -> SizeBand | None:
        for band in self.size_bands:
            if band.contains(points_limit):
                return band
        return None

    @property
    def category_names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.categories}


@dataclass(frozen=True)
class SharedEntry:
    """An entry the system offers to several books (Mordheim's Hired Swords): its data in the book format,
    and which books may take it (`books`, None for all) bar `except_books`."""
    data: Mapping[str, Any]
    books: frozenset[str] | None = None
    except_books: frozenset[str] = frozenset()

    def offered_to(self, book_id: str) -> bool:
        return (self.books is None or book_id in self.books) and book_id not in self.except_books


@dataclass(frozen=True)
class Book:
    id: str
    name: str
    version: str
    system: System
    entries: Mapping[str, Entry]
    items: Mapping[str, Item]
    mounts: Mapping[str, Mount]
    paths: Mapping[str, str]  # id -> name, the Paths its Wizards may choose by default
    compositions: Mapping[str, Composition]
    rules: tuple[Rule, ...]  # the book's own, added to the system's
    sources: tuple[str, ...] = ()
    notes: str = ""
    imported: bool = False
    unchecked: tuple[str, ...] = ()
    content_hash: str = ""
    data: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    default_limit: int | None = None  # the book's starting budget, else the system's (Marienburg: 600 gc)
    replace_rules: frozenset[str] = frozenset()  # system rules the book replaces everywhere (its own percentages)
    # What is worked out from the book as lists are checked (derived.py): never compared, shown or pickled,
    # and a new one for a book made by `dataclasses.replace`, of which the old one's answers are not true.
    derived: Derived = field(default_factory=Derived, init=False, repr=False, compare=False)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.system.id, self.id, self.version)

    def rules_for(self, composition: str | None, extra: tuple[Rule, ...] = (),
                  modes: tuple[str, ...] = ()) -> tuple[Rule, ...]:
        """The system's rules, then the book's, then the composition's and the chosen modes', then any
        extra (event) rules; a composition or mode may replace system rules by id, and set aside the
        rules of the others (system, book, composition, other modes) that carry a tag it names."""
        # Keyed by the extra rules' identity (an event checks many lists with one tuple of rules), which
        # is kept with the answer so the id cannot be reused while cached (derived.Memo; read here, as
        # every check asks).
        memo = self.derived.of(RULE_LISTS, self)
        key = (composition, modes, id(extra) if extra else None)
        found = memo.get(key)
        if found is None or found[0] is not extra:
            found = memo.put(key, (extra, self._rules_for(composition, extra, modes)))
        return found[1]

    def _rules_for(self, composition: str | None, extra: tuple[Rule, ...], modes: tuple[str, ...]) -> tuple[Rule, ...]:
        chosen = [self.compositions[composition]] if composition in self.compositions else []
        chosen += [self.system.modes[m] for m in modes if m in self.system.modes]
        replaced = frozenset().union(self.replace_rules, *(c.replace_rules for c in chosen))
        tags = frozenset().union(*(c.replace_tags for c in chosen))
        rules = [r for r in self.system.rules + self.rules if r.id not in replaced and not r.tags & tags]
        for c in chosen:
            others = frozenset().union(*(o.replace_tags for o in chosen if o is not c))
            rules.extend(r for r in c.rules if not r.tags & others)
        rules.extend(extra)
        return tuple(rules)
