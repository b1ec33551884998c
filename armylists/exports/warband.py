"""A warband as its roster sheet shows it (Mordheim): each hero on its own, each henchman group as one.

    sheet = WarbandSheet(printed)   # printed: a PrintedList
    sheet.sections                  # (title, figures, warriors) per category that has units

Costs, the warband rating and the gold left are the Report's; this module only sorts the units into
the sheet's blocks and names what each carries in the book's words. A block is a hero when its
category is a character category (Mordheim's `heroes`), a group otherwise, so no system is named here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Mapping

from armylists.lists.kinds import kind_of
from armylists.lists.library.catalogue import get_book
from armylists.rules import Book, Roster, Violation, parse_roster
from armylists.rules.native.book import Entry, Rule
from armylists.rules.report import UnitLine
from armylists.rules.reading.roster import RosterUnit

from armylists.exports.pdf_list import PrintedList, PrintedUnit
from armylists.rules.native.mordheim_campaign.sheet import CampaignSheet, WarriorCampaign, campaign_sheet
from armylists.exports.text import path_names, unknown

FREE = "free"


@dataclass(frozen=True)
class Warrior:
    """One block of the sheet: a hero, or a group of henchmen who all count as one entry."""
    unit: PrintedUnit
    type: str  # the entry's name: "Mercenary Captain", "Marksmen"
    name: str  # the name the player gave it (the unit's label), or "" for a line to write it on
    models: int
    hero: bool
    profiles: tuple[Mapping, ...]
    equipment: tuple[tuple[str, ...], ...]  # one kit for every model, or one per model when they differ
    spells: str  # the spell list it casts from ("Necromancy"), or ""
    experience: int  # each model's
    cost: int | None  # the Report's price for the whole block; None when the book lacks the entry
    violations: tuple[Violation, ...]
    # Its campaign (Mordheim): the experience marks of its track (the thick boxes), skills, advances,
    # injuries and state, in words; the empty record for a warband without a campaign.
    campaign: WarriorCampaign = WarriorCampaign()

    @property
    def cost_each(self) -> int | None:
        """What one model costs: the block's price shared out, known only when every model carries the same."""
        if self.cost is None or len(self.equipment) != 1 or not self.models or self.cost % self.models:
            return None
        return self.cost // self.models


class WarbandSheet:
    """The blocks of a warband sheet, by category, and the figures of its header."""

    def __init__(self, printed: PrintedList):
        self.printed = printed
        book, report = printed.book, printed.report
        # The warband's campaign (treasury, shards, stash, battles) and each warrior's, when it keeps one.
        self.campaign: CampaignSheet | None = campaign_sheet(book, printed.roster) or tree_campaign(book, printed.roster)
        characters = {c.id for c in book.system.categories if c.character}
        self.sections: list[tuple[str, str, list[Warrior]]] = []
        for title, _, units in printed.by_category():
            hero = units[0].line is not None and units[0].line.category in characters
            warriors = [warrior(book, unit, hero, tuple(report.violations_for(unit.words.unit.id)),
                                self.campaign.warriors.get(unit.words.unit.id) if self.campaign else None)
                        for unit in units]
            self.sections.append((title, section_figures(warriors, report.budget_unit), warriors))
        self.models = report.figures.get("models", 0)
        self.maximum = warband_maximum(book, printed.roster.composition)
        counted = warband_rule(book, printed.roster.composition)
        if counted is not None:  # Hired Swords are not of the warband; a Halfling Scout makes room for one more
            self.models, self.maximum = counted_warriors(counted, report.units, self.maximum)


def tree_campaign(book: Book, roster: Roster) -> CampaignSheet | None:
    """A BSData warband's campaign (a roster tree): the tree read as the warband of our book its catalogue
    maps onto (its kind's `campaign_warband`, rules_data/mordheim/campaign/bsdata.yaml), whose warriors keep
    the tree's selection ids, as the sheet's boxes do; None for any other list or a book not loaded."""
    warband = kind_of(roster).campaign_warband(book, roster)
    if warband is None:
        return None
    ours = parse_roster(warband.document)
    our_book = get_book(ours.system, warband.book, warband.book_version)
    sheet = campaign_sheet(our_book, ours) if our_book is not None else None
    if sheet is None:
        return None
    # the tree's own units carry no experience: each warrior's is the projection's (the tree's Experience
    # selection at the founding, the campaign state's since)
    experience = {unit.id: unit.experience for unit in ours.units if unit.experience is not None}
    return replace(sheet, warriors={uid: replace(w, experience=experience.get(uid))
                                    for uid, w in sheet.warriors.items()})


def warrior(book: Book, unit: PrintedUnit, hero: bool, violations: tuple[Violation, ...],
            campaign: WarriorCampaign | None = None) -> Warrior:
    entry, roster_unit = unit.words.entry, unit.words.unit
    campaign = campaign or WarriorCampaign()
    if entry is None:
        return Warrior(unit, unit.words.name, roster_unit.label, roster_unit.size or 1, hero, (),
                       (tuple(unit.words.options),), "",
                       campaign.experience if campaign.experience is not None else roster_unit.experience or 0,
                       None, violations, campaign)
    return Warrior(
        unit, entry.name, roster_unit.label, unit.line.models if unit.line else entry.size_min, hero,
        tuple(entry.profiles), equipment(entry, roster_unit), spells(book, entry, roster_unit),
        campaign.experience if campaign.experience is not None else
        roster_unit.experience if roster_unit.experience is not None else entry.experience,
        unit.line.points if unit.line else None, violations, campaign)


def equipment(entry: Entry, unit: RosterUnit) -> tuple[tuple[str, ...], ...]:
    """What each model carries: the entry's free equipment, then what was bought for it.

    Options the unit takes are every model's; `model_options` adds each model's own. When every model
    ends up with the same kit it is given once.
    """
    free = tuple(f"{option_name(entry, e)} ({FREE})" for e in sorted(entry.equipment))
    # in the book's order of its options: a stored document's keys need not keep theirs (PostgreSQL's jsonb
    # orders an object's keys by length), and a sheet must read the same on either database
    order = {o: i for i, o in enumerate(entry.options)}
    kits = [free + tuple(_counted(option_name(entry, o), n)
                         for o, n in sorted(unit.options + model, key=lambda on: order.get(on[0], len(order))))
            for model in (unit.model_options or ((),))]
    if all(kit == kits[0] for kit in kits):
        return (kits[0],)
    return tuple(kits)


def option_name(entry: Entry, option: str) -> str:
    """The option's name; free equipment that is not also an option is named from its id ("Dagger")."""
    if option in entry.options:
        return entry.options[option].name
    if option in entry.equipment:
        return option.replace("-", " ").capitalize()
    return unknown("option", option)


def spells(book: Book, entry: Entry, unit: RosterUnit) -> str:
    """The spell list the warrior casts from: the one chosen, else the entry's (" or " between several)."""
    names = path_names(book)
    if unit.path:
        return names.get(unit.path) or unknown("path", unit.path)
    if not entry.wizard_level:
        return ""
    return " or ".join(names.get(p, p) for p in entry.paths)


def section_figures(warriors: list[Warrior], budget: str) -> str:
    """`3 groups, 10 warriors · 305 gc` for henchmen; heroes are one warrior each."""
    models = sum(w.models for w in warriors)
    cost = sum(w.cost or 0 for w in warriors)
    count = f"{models} warrior{'s' if models != 1 else ''}"
    if warriors and not warriors[0].hero:
        count = f"{len(warriors)} group{'s' if len(warriors) != 1 else ''}, {count}"
    return f"{count} \u00b7 {cost} {budget}"


def warband_rule(book: Book, composition: str | None) -> Rule | None:
    """The book's count rule tagged `warband-maximum` when it counts by category only (Mordheim: heroes and
    henchmen, not Hired Swords)."""
    for rule in book.rules_for(composition):
        if rule.type == "count" and "warband-maximum" in rule.tags and set(rule.params.get("select", {})) == {"category"}:
            return rule
    return None


def counted_warriors(rule: Rule, lines: Iterable[UnitLine], maximum: int | None) -> tuple[int, int | None]:
    """(the warriors the rule counts, its maximum raised by its `plus` for the units taken)."""
    lines = list(lines)
    categories = rule.params["select"]["category"]
    categories = {categories} if isinstance(categories, str) else set(categories)
    models = sum(line.models for line in lines if line.category in categories)
    bound = rule.params.get("max")
    plus = bound.get("plus") if isinstance(bound, dict) else None
    if maximum is not None and plus and set(plus["select"]) == {"entry"}:
        entries = plus["select"]["entry"]
        entries = {entries} if isinstance(entries, str) else set(entries)
        maximum += plus["each"] * sum(1 for line in lines if line.entry in entries)
    return models, maximum


def warband_maximum(book: Book, composition: str | None) -> int | None:
    """The most warriors the warband may have: the `max` of a `count` rule over every model.

    That is a `count` rule that counts models and whose selector is empty or which is tagged
    `warband-maximum` (Mordheim's "maximum 15 warriors", in each warband's book, which leaves out the
    Hired Swords). A bound worked out from the points limit is not printed; one raised per unit (a
    Halfling Scout's one more warrior) prints its base.
    """
    bounds = []
    for rule in book.rules_for(composition):
        if rule.type != "count" or rule.params.get("what") != "models":
            continue
        if rule.params.get("select") != {} and "warband-maximum" not in rule.tags:
            continue
        bound = rule.params.get("max")
        if isinstance(bound, dict) and "plus" in bound and "per_points" not in bound:
            bound = bound["base"]
        if isinstance(bound, int):
            bounds.append(bound)
    return min(bounds) if bounds else None


def _counted(name: str, count: int) -> str:
    return name if count == 1 else f"{count}x {name}"
