"""Rule types about Wizards and about each unit as its book defines it (size, options)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from armylists.rules.report import Violation
from armylists.rules.checks.registry import check, per_unit, plural, violation

if TYPE_CHECKING:
    from armylists.rules.native.army import Army, Unit
    from armylists.rules.native.book import Rule


# --- Wizards ----------------------------------------------------------------------------------

@check("wizard_paths", only_with_choice={"type": "boolean"})
@per_unit
def wizard_paths(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    """Each Wizard notes its Path on the list; with `only_with_choice`, only where it has more than one."""
    book = army.book
    auto = rule.params.get("only_with_choice", False)
    chosen = unit.roster.path
    if not unit.wizard_level:
        if chosen:
            yield Violation("wizard.path_not_wizard", f"{unit.describe()} is not a Wizard but has a Path noted.",
                            "warning", unit.id, rule.id, rule.source)
        return
    allowed = unit.entry.paths or book.paths
    if chosen in allowed or unit.frees_path or (auto and not chosen and len(allowed) == 1):
        return
    names = ", ".join(book.paths.get(p, army.system.paths.get(p, p)) for p in allowed) or "none"
    if not chosen:
        yield violation(rule, "wizard.path_missing",
                        f"{unit.describe()} is a Level {unit.wizard_level} Wizard with no Path on the list; "
                        f"choose one of: {names}.", unit)
    else:
        yield violation(rule, "wizard.path_not_allowed",
                        f"{unit.describe()} may not use {chosen!r}; its Paths are: {names}.", unit)


# --- the army book's own unit rules -------------------------------------------------------------

@check("unit_size")
@per_unit
def unit_size(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    """The entry's size bounds, or an option's while it is taken (a Detachment: 5 to 9 models)."""
    least, most = unit.size_bounds
    if unit.size < least:
        yield violation(rule, "unit.size_min",
                        f"{unit.describe()} has {plural(unit.size, 'model')}; at least {least}{_as(unit)}.", unit)
    elif most is not None and unit.size > most:
        yield violation(rule, "unit.size_max",
                        f"{unit.describe()} has {plural(unit.size, 'model')}; at most {most}{_as(unit)}.", unit)


def _as(unit: "Unit") -> str:
    """" as a Detachment": the option that set the unit's size bounds, if one did."""
    for oid in reversed(list(unit.options)):  # the last one taken sets them, as in army.py
        option = unit.entry.options[oid]
        if option.size is not None:
            return f" as a {option.name}"
    return ""


@check("unit_options")
@per_unit
def unit_options(army: "Army", rule: "Rule", unit: "Unit") -> Iterator[Violation]:
    entry = unit.entry
    if not (unit.options or entry.option_minimums or entry.options_per_models or entry.mount_required
            or (unit.mount and unit.mount.requires)):
        return
    chosen = set(unit.options).union(unit.roster.command)
    if unit.mount is not None:
        chosen.add(unit.mount.mount.id)
    by_group: dict[str, list[str]] = {}
    for oid, count in unit.options.items():
        option = entry.options[oid]
        if count > option.max:
            yield violation(rule, "options.max",
                            f"{unit.describe()} takes {option.name} {count} times; at most {option.max}.", unit)
        elif option.max_per_models and count > unit.size // option.max_per_models:
            yield violation(rule, "options.max_per_models",
                            f"{unit.describe()} takes {option.name} {plural(count, 'time')}; at most "
                            f"{unit.size // option.max_per_models} with {plural(unit.size, 'model')} "
                            f"(1 per {option.max_per_models}).", unit)
        if option.group:
            by_group.setdefault(option.group, []).append(option.name)
        for need in option.requires:
            if need not in chosen:
                yield violation(rule, "options.requires",
                                f"{unit.describe()}: {option.name} requires {_option_name(entry, need)}.", unit)
        if option.requires_any and not chosen.intersection(option.requires_any):
            names = " or ".join(_option_name(entry, o) for o in option.requires_any)
            yield violation(rule, "options.requires", f"{unit.describe()}: {option.name} requires {names}.", unit)
        for bar in option.excludes:
            if bar in chosen:
                yield violation(rule, "options.excludes",
                                f"{unit.describe()}: {option.name} cannot be taken with {_option_name(entry, bar)}.",
                                unit)
    for option in entry.options_per_models:
        count, least = unit.options.get(option.id, 0), unit.size // option.min_per_models
        if count < least:
            yield violation(rule, "options.min_per_models",
                            f"{unit.describe()} takes {option.name} {plural(count, 'time')}; at least {least} "
                            f"with {plural(unit.size, 'model')} (1 per {option.min_per_models}).", unit)
    for gid, names in by_group.items():
        group = entry.groups[gid]
        if len(names) > group.max:
            yield violation(rule, "options.group_max",
                            f"{unit.describe()}: {', '.join(names)} are alternatives ({group.name}); "
                            f"choose at most {group.max}.", unit)
    for group in entry.option_minimums:
        if len(by_group.get(group.id, ())) < group.min:
            yield violation(rule, "options.group_min",
                            f"{unit.describe()} must choose at least {group.min} of {group.name}.", unit)
    if unit.mount is not None:
        for need in unit.mount.requires:
            if need not in chosen:
                yield violation(rule, "options.requires",
                                f"{unit.describe()}: {unit.mount.mount.name} requires {_option_name(entry, need)}.",
                                unit)
    elif entry.mount_required:
        yield violation(rule, "mount.required", f"{unit.describe()} must ride one of its mounts.", unit)


def _option_name(entry: Any, oid: str) -> str:
    if oid in entry.options:
        return entry.options[oid].name
    if oid in entry.mounts:
        return entry.mounts[oid].mount.name
    return f"a {oid}" if oid in entry.command else oid


