"""New Recruit's summary of a T9A list (a tournament report's units) as a list document of our format.

The summary names each unit, its cost and its options by display name, without parentheses, and (for
most units) its number of models; it leaves out its free default choices and how often a repeatable
option was taken. So each unit is read back by search: its entry by name, each option among the entry's
options of that name (a name may fit several: a weapon enchantment on a Hand Weapon or on a Great
Weapon), the options these require (the weapon an enchantment sits on), a free choice in every group that
must have one, and the unit's size and repeat counts solved from the recorded cost (the size its
`models` gives preferred where it gives that cost too). The first reading whose price is the recorded
cost wins; where none is, the closest is kept and `Reading.cause` says why.

    reading = read_list(summary, book, limit)      # .document: the list document; .units: per unit

A summary comes from outside: `read_list` checks its shape first (`check_summary`) and refuses with a
`SummaryError` naming the field: units, options, names and costs of the right kind and within bounds far
above what New Recruit's 5,812 tournament lists hold (32 units, 15 options to a unit, 1,020 points to a
unit, names of 49 characters), text without NUL or lone surrogates.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass, field

from armylists.rules import parse_roster, validate
from armylists.rules.native.army import discount_cuts
from armylists.rules.native.book import Book, Entry, Option
from armylists.rules.native.derived import built, memo
from armylists.rules.reading.plain_data import text_problem

from armylists.importers.nr_t9a.army import MAPPING
from armylists.importers.nr_t9a.limits import ref_tag, slug
from armylists.importers.nr_t9a.texts import SPELL_TAG, spell_tag

GENERAL_TAGS = frozenset(ref_tag(r) for r in MAPPING["general_refs"])
# A Path a rule of the unit grants beside its own, which New Recruit's summaries name among its Paths
# (nr_t9a.yaml `granted_paths`): the granting option's tag -> the granted Path's tag.
GRANTED_PATHS = {ref_tag(ref): ref_tag(rule["path"]) for ref, rule in MAPPING["granted_paths"].items()}
MAX_READINGS = 4096  # option readings tried per unit before giving up on an exact one
MAX_REPEATS = 729  # repeat counts tried per reading (six options taken up to three times)
MAX_UNITS = 100
MAX_OPTIONS = 50  # of one unit
MAX_COST = 100_000  # points of one unit
MAX_MODELS = 1_000  # models of one unit
MAX_NAME = 200  # characters of a name


class SummaryError(ValueError):
    """A summary that cannot be read; str() names the field and says why."""


def _text(value, where: str, required: bool = True) -> None:
    if value is None and not required:
        return
    if not isinstance(value, str):
        raise SummaryError(f"{where}: is not text")
    if len(value) > MAX_NAME:
        raise SummaryError(f"{where}: is {len(value)} characters long; at most {MAX_NAME}")
    problem = text_problem(value)
    if problem:
        raise SummaryError(f"{where}: {problem}")


def check_summary(summary) -> None:
    """Refuse (SummaryError) a summary whose units, options, names or costs are not what `read_list` reads."""
    if not isinstance(summary, dict):
        raise SummaryError("the summary is not an object")
    _text(summary.get("tournament_name"), "tournament_name", required=False)
    units = summary.get("units", [])
    if not isinstance(units, list) or len(units) > MAX_UNITS:
        raise SummaryError(f"units: is not a list of at most {MAX_UNITS} units")
    for i, unit in enumerate(units):
        if not isinstance(unit, dict):
            raise SummaryError(f"units[{i}]: is not an object")
        _text(unit.get("name"), f"units[{i}].name")
        _text(unit.get("category"), f"units[{i}].category", required=False)
        cost = unit.get("cost")
        if type(cost) is not int or not 0 <= cost <= MAX_COST:
            raise SummaryError(f"units[{i}].cost: is not a whole number from 0 to {MAX_COST}")
        models = unit.get("models")
        if models is not None and (type(models) is not int or not 0 <= models <= MAX_MODELS):
            raise SummaryError(f"units[{i}].models: is not a whole number from 0 to {MAX_MODELS}")
        options = unit.get("options", [])
        if not isinstance(options, list) or len(options) > MAX_OPTIONS:
            raise SummaryError(f"units[{i}].options: is not a list of at most {MAX_OPTIONS} options")
        for j, option in enumerate(options):
            if not isinstance(option, dict):
                raise SummaryError(f"units[{i}].options[{j}]: is not an object")
            _text(option.get("name"), f"units[{i}].options[{j}].name")


def plain(name: str) -> str:
    """A name as the summary shows it, compared loosely: no parenthesised parts, lower case, words only."""
    name = re.sub(r"\([^)]*\)?", " ", name)
    return " ".join(re.sub(r"[^a-z0-9+]+", " ", name.lower()).split())


@dataclass
class UnitReading:
    name: str
    cost: int  # New Recruit's
    entry: str | None = None
    size: int | None = None
    options: dict[str, int] = field(default_factory=dict)
    priced: int | None = None  # our price of this reading (before the engine prices it again)
    cause: str = ""  # why no reading gave the recorded cost: unknown-entry, unknown-option, cost
    general: bool = False
    unmatched: list[str] = field(default_factory=list)
    unnamed: str = ""  # an option the summary does not name, taken because only it gives the recorded cost
    closest: str = ""  # for an unknown unit: the book's entry whose name is nearest (summaries.read_summary)
    models: int | None = None  # the unit's models where the summary gives them: the size preferred (_sizes)


@dataclass
class Reading:
    document: dict
    units: list[UnitReading]

    @property
    def general_named(self) -> bool:
        """Whether the summary names the General (it sometimes does not: New Recruit's leadership skills)."""
        return any(u.general for u in self.units)


def _index(entry: Entry) -> dict[str, list[Option]]:
    index: dict[str, list[Option]] = {}
    for option in entry.options.values():
        index.setdefault(plain(option.name), []).append(option)
    return index


def _entries(book: Book) -> dict[str, list[Entry]]:
    """The book's entries by their names as a summary writes them (plain), made once per book."""
    return book.derived.of(ENTRIES_BY_NAME, book)


def _entries_by_name(book: Book) -> dict[str, list[Entry]]:
    found: dict[str, list[Entry]] = {}
    for entry in book.entries.values():
        found.setdefault(plain(entry.name), []).append(entry)
    return found


ENTRIES_BY_NAME = built("nr_entries", _entries_by_name)
# Each unit of a summary read, by what the summary says of it: tournaments repeat units. Bounded, since
# summaries come from outside (the import page, the API): 5,812 real lists make fewer distinct units a book.
READINGS = memo("nr_readings", 20_000)


def _candidates(index: dict[str, list[Option]], name: str) -> list[Option]:
    key = plain(name)
    if key in index:
        return index[key]
    if len(key) >= 12:  # the summary cuts long names ("General, Imperial Authority, and +1 Cou")
        return [o for k, opts in index.items() if k.startswith(key) for o in opts]
    return []


def _close(entry: Entry, chosen: dict[str, int]) -> dict[str, int]:
    """The chosen options with what they require, and a free (else the cheapest) choice in each group that
    must have one."""
    chosen = dict(chosen)
    options = entry.options
    todo = list(chosen)
    while todo:
        option = options[todo.pop()]
        for need in option.requires:
            if need in options and need not in chosen:
                chosen[need] = 1
                todo.append(need)
        if option.requires_any and not any(r in chosen for r in option.requires_any):
            need = min((r for r in option.requires_any if r in options),
                       key=lambda r: options[r].cost + options[r].model_cost, default=None)
            if need is not None:
                chosen[need] = 1
                todo.append(need)
    for group in entry.option_minimums:
        members = [o for o in options.values() if o.group == group.id]
        if sum(chosen.get(o.id, 0) for o in members) >= group.min:
            continue
        free = [o for o in members if _addable(o, chosen)]
        free.sort(key=lambda o: (o.cost + o.model_cost, o.per_model))
        for o in free[:group.min]:
            chosen[o.id] = 1
    return chosen


def _addable(option: Option, chosen: dict[str, int]) -> bool:
    """Whether a choice the summary leaves out may be added to `chosen`: not taken, its requirements taken,
    none of what it excludes taken."""
    return (option.id not in chosen and all(r in chosen for r in option.requires)
            and not any(x in chosen for x in option.excludes))


def _conflicts(entry: Entry, chosen: dict[str, int]) -> int:
    """How many of the book's option rules the reading breaks (excluded pairs, groups over their maximum):
    a reading that breaks none is preferred, but one that breaks some is still priced (and judged)."""
    options, taken, broken = entry.options, {}, 0
    for oid in chosen:
        option = options[oid]
        broken += sum(1 for x in option.excludes if x in chosen)
        if option.group is not None:  # an option taken several times counts so often (a group of runes)
            taken[option.group] = taken.get(option.group, 0) + chosen[oid]
    return broken + sum(1 for g, n in taken.items() if g in entry.groups and n > entry.groups[g].max)


def _sizes(entry: Entry, chosen: dict[str, int], cost: int, models: int | None) -> list[tuple[int, int]]:
    """(size, price) of the reading at the size whose price is nearest `cost`, and at the summary's number of
    `models` where it gives one within the bounds (preferred where both give the cost: its `models` is not
    always the size its cost was made with, 1,300 units of 41,543 are priced at another)."""
    found = [_price(entry, chosen, cost)]
    if models is not None and models != found[0][0]:
        at = _price(entry, chosen, cost, models)
        found += [at] if at[0] == models else []
    return found


def _price(entry: Entry, chosen: dict[str, int], cost: int, models: int | None = None) -> tuple[int, int]:
    """(size, price) of the reading: at `models` where it is within the bounds, else the size in the
    entry's bounds whose price is nearest `cost`."""
    fixed, per = entry.base_points, entry.points
    for oid, n in chosen.items():
        o = entry.options[oid]
        if o.per_model:
            per += o.cost * n
        else:
            fixed += o.cost * n
        per += o.model_cost * n
    low, high = entry.size_min, entry.size_max or entry.size_min
    for oid in chosen:  # an option that sets the unit's size while taken (Fresh Meat: a fifth more models)
        if entry.options[oid].size is not None:
            low, high = entry.options[oid].size
    if models is not None and low <= models <= high:
        return models, fixed + per * models - _cut(entry, chosen, models)
    if per <= 0:
        return low, fixed - _cut(entry, chosen, low)
    size = min(max(round((cost - fixed) / per), low), high)
    if entry.discounts:  # what a discount takes off is the engine's (army.discount_cuts), at the size solved
        size = min(max(round((cost + _cut(entry, chosen, size) - fixed) / per), low), high)
    return size, fixed + per * size - _cut(entry, chosen, size)


def _cut(entry: Entry, chosen: dict[str, int], size: int) -> int:
    return sum(discount_cuts(entry, chosen.items(), size).values()) if entry.discounts else 0


def read_unit(entry: Entry, unit: dict, as_granted: bool = False) -> UnitReading:
    """The unit read as `entry`; `as_granted`: a Path a rule of the unit grants (GRANTED_PATHS), named
    beside another of its group, read as granted, not as a choice (`_best_reading` tries both)."""
    reading = UnitReading(unit["name"], int(unit["cost"]), entry.id, models=unit.get("models"))
    index = _index(entry)
    choices, unknown_price = [], False
    named = {plain(o["name"]) for o in unit.get("options", [])}
    granted = _granted(index, unit) if as_granted else set()
    counted = _counted(entry, unit)
    for option in unit.get("options", []):
        found = _candidates(index, option["name"])
        if not found and any(spell_tag(option["name"]) in entry.options[o].tags for o in counted):
            continue  # a spell of an option taken once per spell (texts.counted_spells): its count, below
        if as_granted and found and _beside_own(index, unit, option, found, granted):
            continue
        if found and any(_inactive(entry, o, named) for o in found):
            # New Recruit keeps the choices under an option the player took off and names them, unpriced
            # (a war machine's "Rune Crafted" of a weapon it does not carry): such a name may be left out.
            choices.append(found + [None])
        elif found:
            choices.append(found)
        else:
            reading.unmatched.append(option["name"])
            unknown_price = unknown_price or option.get("type") == MAPPING["leadership_skill_type"]
    # The best reading: the recorded cost, then the fewest options the summary does not name (a weapon
    # enchantment is read on the weapon the summary names rather than on one it would add).
    best, best_key = None, None
    for n, combo in enumerate(itertools.product(*choices)):
        if n >= MAX_READINGS:
            break
        taken = [o for o in combo if o is not None]
        chosen = _close(entry, {o.id: 1 for o in taken})
        chosen.update({o: n for o, n in counted.items() if o in chosen})
        # Two names of the summary are two choices: one option read for both ("Terracotta Army" per model
        # and in Army Organisation) is a reading of fewer options, tried after those of distinct ones.
        twice = len(taken) - len({o.id for o in taken})
        # Where the summary names a leadership skill the data lacks, its price is unknown: hidden repeat
        # counts are not solved to make up for it (a King's runes counted twice to reach the cost of a
        # Trusted Adviser, then over the allowance), so the unit is not read as New Recruit's on a guess.
        for counts in _repeats(entry, chosen, counted) if not unknown_price else [chosen]:
            for size, price in _sizes(entry, counts, reading.cost, reading.models):
                key = (abs(price - reading.cost), _conflicts(entry, counts), reading.models not in (None, size),
                       twice, len(combo) - len(taken), len(counts) - len(taken) + twice, sum(counts.values()))
                if best_key is None or key < best_key:
                    best, best_key = (counts, size, price), key
        if best_key is not None and not any(best_key[:6]):
            break
    if best is None:  # no option of the summary's is the entry's: priced as it stands
        best = ({}, *min(_sizes(entry, {}, reading.cost, reading.models),
                         key=lambda found: (abs(found[1] - reading.cost), found[0] != reading.models)))
    if best[2] != reading.cost and not reading.unmatched:  # never in place of a name the data lacks
        best = _unnamed(entry, best, reading)
    reading.options, reading.size, reading.priced = best
    reading.general = any(GENERAL_TAGS & entry.options[o].tags for o in reading.options)
    if reading.priced != reading.cost:
        reading.cause = "unknown-option" if reading.unmatched else "cost"
    elif unknown_price:  # the recorded cost reached without the skill's price: a guess, not New Recruit's
        reading.cause = "unknown-option"
    return reading


def _counted(entry: Entry, unit: dict) -> dict[str, int]:
    """The options taken once per spell they give (a Runic Smith's Battle Rune(s)) whose spells the summary
    names: option id -> how many of its spells it names, the times it is taken."""
    names = {spell_tag(o["name"]) for o in unit.get("options", [])}
    found = {o.id: len(names & o.tags) for o in entry.options.values()
             if o.max > 1 and any(t.startswith(SPELL_TAG) for t in o.tags)}
    return {oid: n for oid, n in found.items() if n}


def _granted(index: dict[str, list[Option]], unit: dict) -> set[str]:
    """The tags of the Paths granted by an option the summary names (GRANTED_PATHS)."""
    return {GRANTED_PATHS[t] for option in unit.get("options", []) for o in _candidates(index, option["name"])
            for t in o.tags & GRANTED_PATHS.keys()}


def _beside_own(index: dict[str, list[Option]], unit: dict, option: dict, found: list[Option],
                granted: set[str]) -> bool:
    """Whether the summary's `option` is a granted Path (Gates of the Netherworld's Evocation spell) named
    beside another option of its group (the Path the unit chose): then it is no choice of the unit's."""
    if not all(granted & o.tags for o in found):
        return False
    groups = {o.group for o in found} - {None}
    return any(o.group in groups for other in unit.get("options", []) if other is not option
               for o in _candidates(index, other["name"]) if o not in found)


def _inactive(entry: Entry, option: Option, named: set[str]) -> bool:
    """Whether the option may be a choice left under an option taken off: it sits under options (its
    requirements) none of which the summary names."""
    parents = [entry.options[r] for r in option.requires if r in entry.options]
    return bool(parents) and not any(plain(p.name) in named for p in parents)


def _unnamed(entry: Entry, best: tuple, reading: UnitReading) -> tuple:
    """The summary sometimes leaves a paid option out (a Dwarf war machine's "Rune Crafted (...)"): where no
    reading gives the recorded cost, one more option whose requirements are already taken and which breaks
    no option rule, if exactly one such option gives it. `reading.unnamed` says which."""
    chosen = best[0]
    fits = []
    for option in entry.options.values():
        if option.id in chosen or not all(r in chosen for r in option.requires):
            continue
        if option.requires_any and not any(r in chosen for r in option.requires_any):
            continue
        counts = {**chosen, option.id: 1}
        if _conflicts(entry, counts):
            continue
        for size, price in _sizes(entry, counts, reading.cost, reading.models)[::-1]:  # at its models first
            if price == reading.cost:
                fits.append((counts, size, price, option.name))
                break
    if len(fits) != 1:
        return best
    reading.unnamed = fits[0][3]
    return fits[0][:3]


def _repeats(entry: Entry, chosen: dict[str, int], counted: dict[str, int]):
    """The chosen options, then with each repeatable one taken more often (the summary hides counts; not
    those it tells by naming their spells)."""
    yield chosen
    many = [oid for oid in chosen if entry.options[oid].max > 1 and oid not in counted]
    while many and _product(entry, many) > MAX_REPEATS:  # as many as can be tried, in the summary's order
        many.pop()
    if not many:
        return
    for counts in itertools.product(*[range(1, entry.options[o].max + 1) for o in many]):
        if all(c == 1 for c in counts):
            continue
        yield {**chosen, **dict(zip(many, counts))}


def _product(entry: Entry, many: list[str]) -> int:
    n = 1
    for oid in many:
        n *= entry.options[oid].max
    return n


def _unit_errors(book: Book, reading: UnitReading) -> int:
    """How many of the book's rules one unit alone breaks, to choose between entries of one name (a unit
    priced otherwise with one of its options is an entry of its own that requires that option)."""
    if reading.priced is None:
        return 10 ** 6
    doc = {"format": "armylist/1", "system": book.system.id, "book": book.id, "book_version": book.version,
           "points_limit": 100000, "units": [{"id": "u1", "entry": reading.entry, "size": reading.size,
                                              "options": reading.options}]}
    report = validate(book, parse_roster(doc))
    return sum(1 for v in report.violations if v.severity == "error" and v.unit == "u1")


def _best_reading(book: Book, found: list[Entry], unit: dict) -> UnitReading:
    """The reading of the entry whose price is the recorded cost (then the one breaking fewest rules alone),
    remembered per book: tournaments repeat units, and a benchmark reads thousands of lists."""
    kept = book.derived.of(READINGS, book)
    key = (tuple(e.id for e in found), unit["name"], int(unit["cost"]), unit.get("models"),
           tuple(o.get("name", "") for o in unit.get("options", [])))
    done = kept.get(key)
    if done is None:
        options = [read_unit(e, unit) for e in found]
        # A Path named beside the unit's own may be one a rule grants (Gates of the Netherworld's Evocation
        # spell) or a second Path (Arcane Knowledge's): the reading breaking fewer rules is New Recruit's.
        options += [read_unit(e, unit, as_granted=True) for e in found if _granted(_index(e), unit)]
        done = kept.put(key, min(options, key=lambda r: (abs((r.priced if r.priced is not None else 10 ** 6) - r.cost),
                                                         _unit_errors(book, r) if len(options) > 1 else 0)))
    return dataclasses.replace(done, options=dict(done.options), unmatched=list(done.unmatched))


def read_list(summary: dict, book: Book, limit: int) -> Reading:
    """The summary's list as a list document of `book` (the units it cannot place are left out and named);
    SummaryError for a summary `check_summary` refuses."""
    check_summary(summary)
    entries = _entries(book)
    units, readings = [], []
    for i, unit in enumerate(summary.get("units", [])):
        found = entries.get(plain(unit["name"]), [])
        here = [e for e in found if e.category == slug(unit.get("category", ""))]
        found = here or found  # an entry moved to another category (replaceCategory) is told by the summary's
        if not found:
            readings.append(UnitReading(unit["name"], int(unit["cost"]), cause="unknown-entry"))
            continue
        reading = _best_reading(book, found, unit)
        readings.append(reading)
        if reading.priced is None:
            continue
        doc = {"id": f"u{i + 1}", "entry": reading.entry}
        if reading.size != book.entries[reading.entry].size_min:
            doc["size"] = reading.size
        if reading.options:
            doc["options"] = reading.options
        if reading.general:
            doc["general"] = True
        units.append(doc)
    document = {"format": "armylist/1", "system": book.system.id, "book": book.id, "book_version": book.version,
                "points_limit": limit, "units": units,
                "name": str(summary.get("tournament_name", ""))[:200]}
    _fill_minimums(book, document)
    return Reading(document, readings)


def _conditional_minimums(book: Book) -> dict[str, tuple]:
    """The book's per-unit counts whose minimum holds under a condition (a group needing a choice where the
    army has an option: groups.group_bounds), by limit id: (entry ids, tags counted); made once per book."""
    return book.derived.of(CONDITIONAL_MINIMUMS, book)


def _minimums(book: Book) -> dict[str, tuple]:
    return {limit["id"]: (tuple(limit.get("entries", ())), tuple(limit["count"]))
            for rule in book.rules if rule.type == "tally_limits" for limit in rule.params.get("limits", ())
            if "id" in limit and limit.get("scope") == "unit"
            and any(m.get("target") == "min" for m in limit.get("modifiers", ()))}


CONDITIONAL_MINIMUMS = built("nr_minimums", _minimums)


def _fill_minimums(book: Book, document: dict) -> None:
    """The free choice a summary leaves out of a group that needs one only under a condition (Undying
    Dynasties' units under a Terracotta Army, whose "Terracotta Army" costs nothing; a Vampire Courtier's
    Path, a wizard's): where the list as read breaks such a minimum, the group's first free option is added,
    as `_close` fills a group that always needs one (none free: it stays broken)."""
    minimums = _conditional_minimums(book)
    entries = {e for ids, _ in minimums.values() for e in ids}
    if not any(u["entry"] in entries for u in document["units"]):
        return
    units = {u["id"]: u for u in document["units"]}
    for v in validate(book, parse_roster(document)).violations:
        if v.code != "tally.min" or v.rule not in minimums or v.unit not in units:
            continue
        unit = units[v.unit]
        options, chosen = book.entries[unit["entry"]].options, unit.setdefault("options", {})
        free = [o for o in options.values() if set(minimums[v.rule][1]) & o.tags and o.cost == 0 and o.model_cost == 0
                and _addable(o, chosen) and (not o.requires_any or any(r in chosen for r in o.requires_any))
                and not any(o.id in options[c].excludes for c in chosen if c in options)]
        if free:
            chosen[free[0].id] = 1


def readings_to_try(summary: dict, book: Book) -> int:
    """How many option readings `read_list` would try for `summary` at most (each unit's entries of its
    name, each the product of its options' candidates, at most MAX_READINGS): what a summary from outside
    is held to before it is read (summaries.py), since each reading is priced."""
    entries, total = _entries(book), 0
    for unit in summary.get("units", []):
        for entry in entries.get(plain(unit["name"]), []):
            index, product = _index(entry), 1
            for option in unit.get("options", []):
                product = min(MAX_READINGS, product * max(1, len(_candidates(index, option["name"]))))
            total += product
    return total
