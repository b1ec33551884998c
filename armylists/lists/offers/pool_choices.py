"""Which items of a pool the editor offers a unit (an imported book's options marked `item_pool`), how
much of each allowance is left, and why the others may not be taken now.

New Recruit's item pools (a Dwarf King's runes, a character's Special Items) stay options of the unit,
so the engine prices them and checks them by the book's own rules: the allowance is a per-unit points
`tally_limit`, a group's bound or an item's rarity another `tally_limit`. This offer asks those same
limits (`checks.tallies.Limit`, with their modifiers) what one more of each option would do, so the
picker and the Report never disagree; it decides nothing, and whatever the list holds is still judged.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

from armylists.rules import Book, Roster
from armylists.rules.native.army import Army, Unit, added_points, option_price
from armylists.rules.native.book import Option, Rule
from armylists.rules.checks.tallies import Limit, tally, totals
from armylists.rules.native.derived import memo

# The tally limits a book's lists are checked by, per (composition, modes): unbounded, as those are few.
POOL_LIMITS = memo("pool_limits", None)


@dataclass(frozen=True)
class Allowance:
    label: str
    allowance: int
    spent: int

    @property
    def left(self) -> int:
        return self.allowance - self.spent


@dataclass(frozen=True)
class PoolOffer:
    id: str
    name: str
    cost: int  # what one more costs this unit
    taken: int  # how many the unit has now
    max: int
    paid: int = 0  # what the unit pays for those it has now, a discount included (army.discount_cuts)
    reason: str = ""  # why it may not be taken now ("" : it may)


@dataclass(frozen=True)
class PoolPicker:
    """One unit's pool items: the allowances, what it carries, what it may add and what not (greyed)."""
    allowances: tuple[Allowance, ...]
    carried: tuple[PoolOffer, ...]
    offers: tuple[tuple[str, tuple[PoolOffer, ...]], ...]  # (pool name, items), in the book's order
    blocked: tuple[tuple[str, tuple[PoolOffer, ...]], ...]

    @property
    def offer_count(self) -> int:
        return sum(len(items) for _, items in self.offers)


def pool_choices(book: Book, roster: Roster, unit_id: str, army: Army | None = None) -> PoolPicker | None:
    """The unit's item picker over its pool options; None where its entry has none."""
    army = army or Army(book, roster)
    unit = next((u for u in army.units if u.id == unit_id), None)
    if unit is None or unit.allied:
        return None
    pooled = [o for o in unit.entry.options.values() if o.item_pool]
    if not pooled:
        return None
    limits = [limit for limit in _limits(book, army) if _applies(limit, unit)]
    tot, own = totals(army), tally(unit)
    unit_word = book.system.budget_unit
    allowances = [(limit, _bound(limit, army, tot, own, unit.size)) for limit in limits
                  if _is_allowance(limit) and any(_counts(limit, o) for o in pooled)]
    carried, offers, blocked = [], {}, {}
    for option in pooled:
        taken = unit.options.get(option.id, 0)
        offer = PoolOffer(option.id, option.name, _cost(option, unit), taken, option.max,
                          option_price(option, unit.size) * taken - unit.cuts.get(option.id, 0))
        if taken:
            carried.append(offer)
        reason = _why_not(option, unit, offer, [x for x in limits if _counts(x, option)], army, tot, own, unit_word)
        if reason:
            blocked.setdefault(option.item_pool, []).append(replace(offer, reason=reason))
        else:
            offers.setdefault(option.item_pool, []).append(offer)
    return PoolPicker(
        tuple(Allowance(_allowance_label(limit), int(most), _measure(limit, tot, own)) for limit, most in allowances
              if most != -1),
        tuple(carried), tuple((k, tuple(v)) for k, v in offers.items()), tuple((k, tuple(v)) for k, v in blocked.items()))


def _limits(book: Book, army: Army) -> tuple[Limit, ...]:
    """Every tally limit the list is checked by with an error (a "not checked" warning bounds nothing),
    compiled once per book, composition and modes (an imported book has hundreds)."""
    kept = book.derived.of(POOL_LIMITS, book)
    key = (army.composition, army.roster.modes)
    found = kept.get(key)
    return found if found is not None else kept.put(key, tuple(_compile(book.rules_for(*key))))


def _compile(rules: tuple[Rule, ...]) -> Iterator[Limit]:
    for rule in rules:
        if rule.severity != "error":
            continue
        if rule.type == "tally_limit":
            yield Limit(rule.params)
        elif rule.type == "tally_limits":
            yield from (Limit(p) for p in rule.params["limits"])


def _applies(limit: Limit, unit: Unit) -> bool:
    if limit.percent:
        return False  # a category's percent of the limit: the Report's category lines show it
    if limit.params.get("scope") == "unit":
        entries = limit.params.get("entries")
        return not entries or unit.entry.id in entries
    return True


def _is_allowance(limit: Limit) -> bool:
    return limit.params.get("scope") == "unit" and limit.params.get("what") == "points"


def _counts(limit: Limit, option: Option) -> bool:
    return not option.tags.isdisjoint(limit.tally[0])


def _bound(limit: Limit, army: Army, tot: Mapping[str, Any], own: Mapping[str, Any], size: int = 1) -> float:
    """The limit's maximum after its modifiers (-1: none); per model of the unit where it says so."""
    most = limit.bounds(army, tot, own)[1] if limit.modifiers else limit.most
    return most * size if limit.per_model and most != -1 and limit.params.get("scope") == "unit" else most


def _measure(limit: Limit, tot: Mapping[str, Any], own: Mapping[str, Any]) -> int:
    tags, column, unit_scope = limit.tally
    counts = own if unit_scope else tot
    return sum(counts[t][column] for t in tags if t in counts)


def _cost(option: Option, unit: Unit) -> int:
    """What taking it once more adds to the unit, as the engine prices it (a discount included)."""
    return added_points(unit, option)


def _allowance_label(limit: Limit) -> str:
    label = str(limit.params.get("label", ""))
    return label.split(": ", 1)[1] if ": " in label else label


def _why_not(option: Option, unit: Unit, offer: PoolOffer, limits: list[Limit], army: Army,
             tot: Mapping[str, Any], own: Mapping[str, Any], unit_word: str) -> str:
    """Why one more may not be taken now, in a player's words; "" when it may."""
    entry = unit.entry
    made = {oid for oid, n in unit.options.items() if n} | set(unit.roster.command)
    made |= {unit.roster.mount} if unit.roster.mount else set()

    def names(ids: tuple[str, ...]) -> str:
        return " or ".join(entry.options[i].name if i in entry.options else i for i in ids)
    missing = tuple(i for i in option.requires if i not in made)
    if missing:
        return f"needs {names(missing)}"
    if option.requires_any and made.isdisjoint(option.requires_any):
        return f"needs {names(option.requires_any)}"
    clash = tuple(i for i in option.excludes if i in made)
    if clash:
        return f"not with {names(clash)}"
    if offer.taken >= option.max:
        return f"taken {offer.taken} of at most {option.max}"
    group = entry.groups.get(option.group) if option.group else None
    if group is not None and group.max == 1 and option.max == 1 and any(
            unit.options.get(o.id) for o in entry.options.values() if o.group == option.group and o.id != option.id):
        return f"already carries one of the {group.name}"
    for limit in limits:
        most = _bound(limit, army, tot, own, unit.size)
        if most == -1:
            continue
        now = _measure(limit, tot, own)
        if _is_allowance(limit):
            if now + offer.cost > most:
                return f"costs {offer.cost} {unit_word}; {max(int(most) - now, 0)} {unit_word} of the allowance left"
            continue
        what = limit.params.get("what")
        weight = max((w for t, w in option.tag_weights if t in limit.tally[0]), default=1)  # Option.tag_weights
        adds = offer.cost if what == "points" else (unit.size if option.per_model else 1) * weight if what != "units" \
            else int(all(t not in own for t in limit.tally[0]))  # a unit holding one already counts once
        if now + adds > most:
            where = "in the unit" if limit.params.get("scope") == "unit" else "in the army"
            return f"{_allowance_label(limit)}: at most {int(most)} {where}, {now} taken"
    return ""
