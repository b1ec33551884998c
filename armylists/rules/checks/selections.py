"""Rule types that count selections: 0-X per 1000 points, requires, forbids, ratios, per-model limits."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from armylists.rules.report import Violation
from armylists.rules.native.selection import predicate
from armylists.rules.checks.registry import BOUND, SELECTOR, bound_phrase, check, percent, resolve_bound, violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army, Unit
    from armylists.rules.native.book import Rule


# --- counting selections: 0-X per 1000 points, requires, forbids, one X per Y --------------------

# What a count rule counts, as its messages say it.
AMOUNT_WORDS = {"units": "units", "models": "models", "points": "points", "wizard_levels": "Wizard levels"}


def _amount(units: list["Unit"], what: str) -> int:
    if what == "wizard_levels":
        return sum(u.wizard_level for u in units)
    if what == "models":
        return sum(u.size for u in units)
    if what == "points":
        return sum(u.points for u in units)
    return len(units)


def limited_by_rules(army: "Army", tag: str) -> list["Unit"]:
    """The units that a rule of the list's system, book or composition carrying `tag` selects (its
    `select`), counting the rules a chosen mode sets aside: Battle March's "only one 0-X per 1000 points
    choice" counts what the book's per-1000 limits would count, option and item limits included."""
    tests = [predicate(r.params["select"]) for r in army.book.rules_for(army.composition)
             if tag in r.tags and "select" in r.params]
    return [u for u in army.units if any(test(u) for test in tests)]


def measure_count(army: "Army", rule: "Rule") -> tuple[list["Unit"], int, int | None, int | None]:
    """A count rule's matching units, their amount and its bounds for this army (the Report shows them).

    Measured once per army and rule: the check and the Report's count line both ask.
    """
    kept = army.measured.get(id(rule))
    if kept is not None and kept[0] is rule:
        return kept[1]
    chosen = army.select(rule.params.get("select", {}))
    if "rules_tagged" in rule.params:
        limited = set(limited_by_rules(army, rule.params["rules_tagged"]))
        chosen = [u for u in chosen if u in limited]
    found = (chosen, _amount(chosen, rule.params.get("what", "units")),
             resolve_bound(rule.params.get("min"), army), resolve_bound(rule.params.get("max"), army))
    army.measured[id(rule)] = (rule, found)  # the rule is kept, so its id is not reused meanwhile
    return found


@check("count", select=SELECTOR, rules_tagged={"type": "string"}, label={"type": "string", "required": True},
       min=BOUND, max=BOUND, what={"enum": list(AMOUNT_WORDS)})
def count(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """How many units (models, points) match a selector: "0-1 per 1000 points", "at least 1"; with
    `rules_tagged`, only the units some rule carrying that tag selects ("one 0-X per 1000 choice")."""
    chosen, n, least, most = measure_count(army, rule)
    what = AMOUNT_WORDS[rule.params.get("what", "units")]
    what = what[:-1] if n == 1 else what  # "1 unit", "1 Wizard level"
    label = rule.params["label"]
    if most is not None and n > most:
        names = f" ({', '.join(u.describe() for u in chosen)})" if "rules_tagged" in rule.params else ""
        yield violation(rule, "count.max",
                        f"{label}: {n} {what} taken{names}; at most {most}{bound_phrase(rule.params['max'], army)}.",
                        chosen[-1] if chosen else None)
    if least is not None and n < least:
        yield violation(rule, "count.min",
                        f"{label}: {n} {what} taken; at least {least}{bound_phrase(rule.params['min'], army)}.")


@check("requires", **{"if": {**SELECTOR, "required": True}}, needs={**SELECTOR, "required": True},
       label={"type": "string", "required": True}, count={"type": "integer", "minimum": 1})
def requires(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Units matching `if` need `count` (default 1) other units matching `needs` in the army."""
    least = rule.params.get("count", 1)
    causes = army.select(rule.params["if"])
    if not causes:
        return
    needed = army.select(rule.params["needs"])
    for unit in causes:
        if len(needed) - (unit in needed) < least:  # a unit never satisfies its own need
            yield violation(rule, "requires.missing",
                            f"{unit.describe()} needs {rule.params['label']} in the army.", unit)


@check("forbids", **{"if": {**SELECTOR, "required": True}}, forbids={**SELECTOR, "required": True},
       reason={"type": "string", "required": True})
def forbids(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """While any unit matches `if`, no other unit may match `forbids`."""
    causes = army.select(rule.params["if"])
    if not causes:
        return
    for unit in army.select(rule.params["forbids"]):
        if unit not in causes or len(causes) > 1:
            yield violation(rule, "forbids.present",
                            f"{unit.describe()} cannot be taken: {rule.params['reason']}.", unit)


@check("ratio", select={**SELECTOR, "required": True}, per={**SELECTOR, "required": True},
       each={"type": "integer", "minimum": 1}, label={"type": "string", "required": True},
       per_label={"type": "string", "required": True})
def ratio(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """At most `each` units matching `select` for every unit matching `per` ("one X per Y")."""
    chosen = army.select(rule.params["select"])
    bases = army.select(rule.params["per"])
    most = rule.params.get("each", 1) * len(bases)
    if len(chosen) > most:
        yield violation(rule, "ratio.max",
                        f"{rule.params['label']}: {len(chosen)} taken; at most {rule.params.get('each', 1)} per "
                        f"{rule.params['per_label']}, and the army has {len(bases)}.", chosen[most])


# --- what one model may carry -------------------------------------------------------------------

@check("tagged_options_max", limits={"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                                     "required": True},
       labels={"type": "object", "additionalProperties": {"type": "string"}})
def tagged_options_max(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Per model, at most N chosen options carrying a tag ("two close combat weapons, one shield")."""
    limits, labels = rule.params["limits"], rule.params.get("labels", {})
    for unit in army.units:
        models = [dict(m) for m in unit.roster.model_options] or [dict(unit.roster.options)]
        for number, chosen in enumerate(models, start=1):
            for tag, most in limits.items():
                names = [unit.entry.options[o].name for o, n in chosen.items()
                         if o in unit.entry.options and tag in unit.entry.options[o].tags for _ in range(n)]
                if len(names) > most:
                    who = unit.describe() if len(models) == 1 else f"model {number} of {unit.describe()}"
                    yield violation(rule, "options.tag_max",
                                    f"{who} carries {len(names)} {labels.get(tag, tag)} ({', '.join(names)}); "
                                    f"at most {most}.", unit)


@check("uniform_options", categories={"$ref": "#/$defs/slugs", "required": True})
def uniform_options(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Every model of a unit in these categories carries the same options (a Mordheim henchman group)."""
    for unit in army.units:
        models = unit.roster.model_options
        if unit.category not in rule.params["categories"] or len(models) < 2:
            continue
        first = dict(models[0])
        differ = [n for n, m in enumerate(models[1:], start=2) if dict(m) != first]
        if differ:
            yield violation(rule, "options.not_uniform",
                            f"{unit.describe()}: every model of the group must carry the same equipment; "
                            f"model {', '.join(map(str, differ))} differs from model 1.", unit)
        if len(models) != unit.size:
            yield violation(rule, "options.model_count",
                            f"{unit.describe()} has {unit.size} models but equipment for {len(models)}.", unit)


# --- limits on single units, the game size, and Wizards' armour (The Old World) -------------------

@check("unit_max_percent", max={"type": "integer", "minimum": 0, "maximum": 100},
       max_by_category={"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100}},
       exempt_tags={"$ref": "#/$defs/slugs"})
def unit_max_percent(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """No single unit worth more than a share of the points limit (per category where given)."""
    exempt = set(rule.params.get("exempt_tags", []))
    by_category = rule.params.get("max_by_category", {})
    for unit in army.units:
        most = by_category.get(unit.category, rule.params.get("max"))
        if most is None or exempt & unit.tags or unit.points * 100 <= most * army.limit:
            continue
        yield violation(rule, "unit.max_percent",
                        f"{unit.describe()} is worth {unit.points} pts, {percent(unit.points, army.limit, most)} of "
                        f"{army.limit}; a single {army.category_name(unit.category)} choice may be worth at most "
                        f"{most}% ({most * army.limit // 100} pts).", unit)


@check("unit_models_share", max={"type": "integer", "minimum": 1, "maximum": 100, "required": True})
def unit_models_share(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """No unit holds more than a share of all the army's models."""
    total = sum(u.size for u in army.units)
    most = rule.params["max"]
    for unit in army.units:
        if unit.size * 100 > most * total:
            yield violation(rule, "unit.models_share",
                            f"{unit.describe()} has {unit.size} of the army's {total} models "
                            f"({percent(unit.size, total, most)}); a unit may hold at most {most}%.", unit)


@check("limit_range", min={"type": "integer", "minimum": 0}, max={"type": "integer", "minimum": 0})
def limit_range(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """The game size a rule set is made for (Battle March: 500 to 750 points)."""
    low, high = rule.params.get("min"), rule.params.get("max")
    if (low is not None and army.limit < low) or (high is not None and army.limit > high):
        span = f"{low} to {high}" if low is not None and high is not None else f"at most {high}" if low is None \
            else f"at least {low}"
        yield violation(rule, "points.limit_range",
                        f"The points limit is {army.limit} pts; these rules are for games of {span} pts.")


@check("wizard_armour", allowed_tag={"type": "string"}, item_categories={"$ref": "#/$defs/slugs"})
def wizard_armour(army: "Army", rule: "Rule") -> Iterator[Violation]:
    """Wizards wear no armour and carry no shield, mundane (the system's `armour`) or magic (items of
    `item_categories`), unless their entry or an option carries `allowed_tag`; magic armour made for
    Wizards (an item restricted `wizards_only`: the Armour of Tarnus) they may wear. In The Old World
    armour costs the Wizard its Casting and Dispel rolls (001:L771): its rule is a warning in the data."""
    allowed = rule.params.get("allowed_tag")
    armour = army.system.armour
    magic = set(rule.params.get("item_categories", []))
    for unit in army.units:
        if not unit.wizard_level or (allowed and allowed in unit.tags):
            continue
        worn = sorted(armour & unit.equipment)
        worn += [i.name for b in unit.bearers for i in b.items
                 if i.category in magic and not i.restrictions.get("wizards_only")]
        if worn:
            yield violation(rule, "wizard.armour",
                            f"{unit.describe()} is a Wizard wearing armour or carrying a shield "
                            f"({', '.join(w.replace('-', ' ') for w in worn)}), so it can make no Casting or "
                            f"Dispel rolls.", unit)
