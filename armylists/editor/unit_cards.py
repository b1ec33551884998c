"""What the list pages show of each unit, worked out in Python so templates only format.

`unit_sections(...)` groups the list's units by category (the system's order) with each category's
figures from the Report, and gives every unit its name, points, roles, a one-line summary of its
choices and its violations; for the editor also its form (every field with its value, cost and error)
and its item bearers (from `armylists.lists.offers.item_choices`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from armylists.editor.forms import COMMAND_NAMES, UnitForm
from armylists.lists.offers.entries import may_be_wizard, one_of_groups
from armylists.lists.offers.item_choices import BearerChoices, item_choices, who_may_take
from armylists.lists.plain_words import plain_message
from armylists.lists.offers.pool_choices import PoolPicker, pool_choices
from armylists.lists.offers.rule_texts import rule_texts
from armylists.rules import Book, Report, Roster, RosterUnit, Violation
from armylists.rules.native.army import Army
from armylists.rules.native.book import Entry, Option
from armylists.rules.reading.data_files import in_characteristic_order

UNKNOWN_CATEGORY = "unknown"


@dataclass
class UnitCard:
    id: str
    name: str
    label: str
    size: int | None  # shown when the unit has more than one model
    points: int
    roles: list[str]
    summary: str
    errors: list[Violation]
    warnings: list[Violation]
    category: str
    open: bool = False
    first: bool = False
    last: bool = False
    form: dict[str, Any] | None = None
    bearers: list[dict[str, Any]] = field(default_factory=list)  # {"b": BearerChoices, "errors", "options"}
    pools: PoolPicker | None = None  # the unit's pool items (an imported book's), lists/offers/pool_choices.py
    urls: dict[str, str] = field(default_factory=dict)
    profile: dict[str, Any] | None = None  # {"columns": [...], "rows": [[name, value...]]}, from the data
    rules: str = ""  # its special rules (and its mount's), as the book names them
    tables: list[dict[str, Any]] = field(default_factory=list)   # a roster tree's: {type, columns, rows}
    rule_list: list[dict[str, Any]] = field(default_factory=list)   # a roster tree's: {name, text, long}

    @property
    def problems(self) -> int:
        return len(self.errors) + len(self.warnings)


@dataclass
class Section:
    id: str
    name: str
    points: int
    percent: float
    bounds: str
    state: str  # ok, low, high (against its own bounds)
    units: list[UnitCard]


def cost_text(cost: int, unit: str, per_model: bool = False) -> str:
    if cost == 0:
        return "free"
    return f"{'+' if cost > 0 else ''}{cost} {unit}{' per model' if per_model else ''}"


def bounds_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low}–{high}%"
    if low is not None:
        return f"min {low}%"
    if high is not None:
        return f"max {high}%"
    return ""


def unit_sections(book: Book, roster: Roster, report: Report, *, editable: bool = False,
                  open_ids: frozenset[str] | set[str] = frozenset(), bound_form: UnitForm | None = None,
                  item_errors: Mapping[str, Mapping[str, list[str]]] | None = None,
                  unit_url: str = "", allies: Book | None = None,
                  forms_for: frozenset[str] | set[str] | None = None) -> list[Section]:
    """The list's units by category; with `editable`, each with its form, items and the addresses of
    its edits (`unit_url` is the address of one unit's form, with `{unit}` for its id). An allied unit
    is shown from the list's allies book (`allies`): its entry, options and the items it may take.
    `forms_for` limits the forms to those units (the editor's answer to one change redraws only them)."""
    army = Army(book, roster, allies)
    resolved = {u.id: u for u in army.units}
    lines = {u.id: u for u in report.units}
    by_unit: dict[str, list[Violation]] = {}
    for v in report.violations:
        if v.unit:
            by_unit.setdefault(v.unit, []).append(v)
    cards: dict[str, list[UnitCard]] = {}
    unit_ids = [u.id for u in roster.units]
    for ru in roster.units:
        unit_book = allies if ru.allied and allies is not None else book
        entry = unit_book.entries.get(ru.entry)
        line = lines.get(ru.id)
        category = line.category if line else UNKNOWN_CATEGORY
        unit = resolved.get(ru.id)
        # Shown beside the unit: the message without the ids the engine writes after units' names.
        found = [v._replace(message=plain_message(v.message, unit_ids)) for v in by_unit.get(ru.id, [])]
        card = UnitCard(
            id=ru.id, name=entry.name if entry else f"Unknown entry {ru.entry!r}", label=ru.label,
            size=_shown_size(ru, entry), points=line.points if line else 0,
            roles=_roles(unit_book, ru, entry, unit.wizard_level if unit else 0),
            summary=_summary(unit_book, ru, entry), category=category,
            errors=[v for v in found if v.severity == "error"], warnings=[v for v in found if v.severity != "error"],
            open=ru.id in open_ids,
        )
        if entry is not None:
            card.profile, card.rules = _profile(unit_book, ru, entry)
            card.rule_list = rule_texts(unit_book, ru, entry)
            if card.rule_list:
                card.rules = ""  # named with their texts instead
        if editable and entry is not None and (forms_for is None or ru.id in forms_for):
            form = bound_form if bound_form is not None and bound_form.unit.id == ru.id else None
            card.form = unit_form_view(unit_book, ru, entry, form)
            errors = (item_errors or {}).get(ru.id, {})
            card.pools = pool_choices(unit_book, roster, ru.id, _army_of(army, ru))
            card.bearers = [{"b": b, "errors": errors.get(b.kind, []), "picker": item_picker(unit_book, b)}
                            for b in item_choices(unit_book, roster, ru.id, _army_of(army, ru))]
            base = unit_url.replace("{unit}", ru.id)
            card.urls = {"update": base, **{action: f"{base}{action}/" for action in (
                "remove", "duplicate", "move")}, "item_add": f"{base}items/add/", "item_remove": f"{base}items/remove/"}
            if form is not None or errors:
                card.open = True
        cards.setdefault(category, []).append(card)

    sections = []
    for line in report.categories:
        units = cards.pop(line.id, [])
        if not units and not editable:
            continue
        sections.append(Section(line.id, line.name, line.points, line.percent,
                                bounds_text(line.min_percent, line.max_percent), line.state, units))
    for category, units in cards.items():  # units whose entry the book lacks, or an unknown category
        sections.append(Section(category, "Not in this book" if category == UNKNOWN_CATEGORY else category,
                                sum(u.points for u in units), 0.0, "", "ok", units))
    for section in sections:
        if section.units:
            section.units[0].first = True
            section.units[-1].last = True
    return sections


def _army_of(army: Army, ru: RosterUnit) -> Army:
    """The army an item offer looks at: an allied unit's contingent, in its own book (its items)."""
    return army.contingent if ru.allied and army.contingent is not None else army


def item_picker(book: Book, bearer: BearerChoices) -> SafeString:
    """The item picker's list, by type (the system's item categories): each item a button that adds it,
    with its cost and who may take it; the items the model may not take now greyed with the reason.
    Built here once rather than by a template loop, since a list's characters offer hundreds of items
    and the editor redraws them at every change."""
    unit = book.system.budget_unit
    offered = dict(bearer.offers)
    blocked = dict(bearer.blocked)
    groups = []
    for category in book.system.item_categories.values():
        offers, greyed = offered.get(category.name, ()), blocked.get(category.name, ())
        if not offers and not greyed:
            continue
        rows = format_html_join("", '<li data-search="{}"><button type="submit" name="item" value="{}" '
                                    'class="item-offer"><span class="item-name">{}</span> <span class="cost">{} {}'
                                    '</span> <span class="item-who">{}</span></button></li>',
                                ((o.name.lower(), o.id, o.name, o.cost, unit, _who(book, o.id, category))
                                 for o in offers))
        greyed_rows = format_html_join("", '<li data-search="{}" class="item-blocked"><span class="item-name">{}'
                                           '</span> <span class="cost">{} {}</span> <span class="item-reason">{}'
                                           '</span></li>', ((b.name.lower(), b.name, b.cost, unit, b.reason)
                                                            for b in greyed))
        groups.append(format_html('<li class="item-type" data-type><h4>{}</h4><ul>{}{}</ul></li>',
                                  category.name, rows, greyed_rows))
    return mark_safe("".join(groups))


def _who(book: Book, item_id: str, category) -> str:
    item = book.items.get(item_id)
    who = who_may_take(item, book.system.troop_types) if item is not None else ""
    if category.wizards_only and "Wizards only" not in who:
        who = "; ".join(w for w in ("Wizards only", who) if w)
    return who


def _profile(book: Book, ru: RosterUnit, entry: Entry) -> tuple[dict[str, Any] | None, str]:
    """The unit's profiles (its models', then its mount's) and special rules, as the book's data has them."""
    choice = entry.mounts.get(ru.mount) if ru.mount else None
    profiles = list(entry.profiles) + (list(choice.mount.profiles) if choice else [])
    profiles += [p for oid, n in ru.options if n and oid in entry.options for p in entry.options[oid].profiles]
    rules = list(entry.rules) + [r for r in (choice.mount.rules if choice else ()) if r not in entry.rules]
    if not profiles:
        return None, ", ".join(rules)
    # A flag of the data (`mount: true`: its Leadership is not the character's) is no characteristic:
    # a column of True and "-" says nothing to a player, as the printed roster's grid knows.
    columns = in_characteristic_order(k for p in profiles for k, v in p.items()
                                      if k != "name" and not isinstance(v, bool))
    rows = [[p.get("name", entry.name), *(p.get(c, "-") for c in columns)] for p in profiles]
    return {"columns": columns, "rows": rows}, ", ".join(rules)


def _shown_size(ru: RosterUnit, entry: Entry | None) -> int | None:
    size = ru.size if ru.size is not None else (entry.size_min if entry else 1)
    if size > 1 or (entry is not None and entry.size_max != 1):
        return size
    return None


def _roles(book: Book, ru: RosterUnit, entry: Entry | None, wizard_level: int) -> list[str]:
    roles = [book.system.general_word] if ru.general else []
    if entry is not None:
        for oid, _ in ru.options:
            option = entry.options.get(oid)
            if option is not None and option.role == "bsb":
                roles.append("Battle Standard Bearer")
    if wizard_level:
        roles.append(f"Wizard level {wizard_level}")
    if ru.path:
        roles.append({**book.system.paths, **book.paths}.get(ru.path, ru.path))
    return roles


def _summary(book: Book, ru: RosterUnit, entry: Entry | None) -> str:
    """The unit's choices in its book's words: options, mount, command group, items."""
    words = []
    options = entry.options if entry else {}
    order = {oid: i for i, oid in enumerate(options)}  # the book's, as the text and PDF write them
    for oid, count in sorted(ru.options, key=lambda pair: order.get(pair[0], len(order))):
        option = options.get(oid)
        if option is not None and option.role:
            continue  # shown as a role
        if option is not None and option.wizard_level:
            continue  # shown as the Wizard level
        name = option.name if option else f"{oid} (unknown)"
        words.append(name if count == 1 else f"{count}× {name}")
    if ru.mount:
        choice = entry.mounts.get(ru.mount) if entry else None
        words.append(choice.mount.name if choice else f"{ru.mount} (unknown)")
    for part in ru.command:
        name = "Veteran Standard Bearer" if part == "standard" and ru.veteran_standard else COMMAND_NAMES.get(part, part)
        carried = ru.champion_items if part == "champion" else ru.standard_items if part == "standard" else ()
        words.append(f"{name} ({', '.join(_item_name(book, i) for i in carried)})" if carried else name)
    words.extend(_item_name(book, i) for i in ru.items)
    return ", ".join(words)


def _item_name(book: Book, item_id: str) -> str:
    item = book.items.get(item_id)
    return item.name if item else f"{item_id} (unknown)"


# --- the unit form, field by field ---------------------------------------------------------------

def unit_form_view(book: Book, ru: RosterUnit, entry: Entry, form: UnitForm | None = None) -> dict[str, Any]:
    """Every field of the unit's form with its current value; a bound form with errors gives the values
    as submitted and each field's errors."""
    unit = book.system.budget_unit
    prefix = f"u-{ru.id}"
    errors = form.errors if form is not None else {}
    raw = form.data if form is not None else None
    chosen = dict(ru.options)

    def err(name: str) -> list[str]:
        return list(errors.get(name, []))

    def submitted(name: str, current: Any) -> Any:
        return raw.get(name, "") if raw is not None and name in errors else current

    def choice(name: str, value: str, label: str, cost: str, checked: bool, note: str = "") -> dict[str, Any]:
        return {"name": name, "value": value, "label": label, "cost": cost, "checked": checked, "note": note,
                "id": f"{prefix}-{name}-{value or 'none'}"}

    one_model = entry.size_max == 1  # a single hero: "per model" would only puzzle

    def option_cost(option: Option) -> str:
        if one_model:
            return cost_text(option.cost + option.model_cost, unit)
        if option.model_cost and not option.cost:  # an imported option priced per model of the unit
            return cost_text(option.model_cost, unit, per_model=True)
        extra = f", {cost_text(option.model_cost, unit, per_model=True)}" if option.model_cost else ""
        return cost_text(option.cost, unit, option.per_model) + extra

    def note(option: Option) -> str:
        """What it is, and the discount it is part of (priced by the engine: army.discount_cuts)."""
        said = [f"{d.name}: the cheapest taken of these costs {d.percent}% of its price, rounded "
                f"{'up' if d.round_up else 'down'}." for d in entry.discounts if option.id in d.options]
        return " ".join([option.text] + said if option.text else said)

    view: dict[str, Any] = {"prefix": prefix, "non_field_errors": list(errors.get("__all__", []))}
    if entry.size_max != entry.size_min:
        size = ru.size if ru.size is not None else entry.size_min
        bounds = f"{entry.size_min}–{entry.size_max}" if entry.size_max else f"{entry.size_min}+"
        view["size"] = {"id": f"{prefix}-size", "value": submitted("size", size), "errors": err("size"),
                        "hint": f"{bounds} models, {cost_text(entry.points, unit)} each"}

    # An option that needs another choice (Barding a horse, a lance a mount) is offered once that choice
    # is made; one already taken stays, so it can be untaken, and the report says what it lacks.
    made = {oid for oid, count in ru.options if count} | set(ru.command) | ({ru.mount} if ru.mount else set())

    def offered(option: Option) -> bool:
        if chosen.get(option.id):
            return True
        return made.issuperset(option.requires) and (not option.requires_any or bool(made & set(option.requires_any)))

    groups = {gid: [oid for oid in ids if offered(entry.options[oid])] for gid, ids in one_of_groups(entry).items()}
    in_group = {oid for ids in one_of_groups(entry).values() for oid in ids}
    fieldsets = []
    for gid, ids in groups.items():
        group = entry.groups[gid]
        if not ids:
            continue
        current = next((oid for oid in ids if chosen.get(oid)), "")
        # Choosing nothing keeps what the entry has: a Wizard's own level, or no option of the group.
        levels = all(entry.options[oid].wizard_level for oid in ids)
        none = f"Level {entry.wizard_level} Wizard" if levels and entry.wizard_level else "None"
        choices = [] if group.min else [choice(f"grp-{gid}", "", none, "", not current)]
        choices += [choice(f"grp-{gid}", oid, entry.options[oid].name, option_cost(entry.options[oid]),
                           oid == current, note(entry.options[oid])) for oid in ids]
        fieldsets.append({"legend": group.name, "kind": "radio", "choices": choices, "errors": err(f"grp-{gid}")})
    singles, roles = [], []
    for option in entry.options.values():
        if option.id in in_group or not offered(option) or option.item_pool:  # pool items: the item picker
            continue
        name = f"opt-{option.id}"
        field_view = {"name": name, "id": f"{prefix}-{name}", "label": option.name, "cost": option_cost(option),
                      "note": note(option), "errors": err(name)}
        if option.max > 1:
            field_view.update(kind="count", max=option.max, value=submitted(name, chosen.get(option.id, 0)))
        else:
            field_view.update(kind="check", checked=bool(chosen.get(option.id)))
        (roles if option.role else singles).append(field_view)
    view["fieldsets"] = fieldsets
    view["options"] = singles

    # Where an option makes the model the General (New Recruit's T9A data), that option is the choice.
    if entry.may_be_character and not any(o.role == "general" for o in entry.options.values()):
        word = book.system.general_word  # General, Leader: the system's own word
        roles.insert(0, {"name": "general", "id": f"{prefix}-general", "label": word, "cost": "",
                         "note": f"The army's {word}; choosing it here takes it from any other unit.",
                         "kind": "check", "checked": ru.general, "errors": err("general")})
    view["roles"] = roles

    if entry.mounts:
        choices = [] if entry.mount_required else [choice("mount", "", "On foot", "", not ru.mount)]
        choices += [choice("mount", mid, c.mount.name, cost_text(c.cost, unit), ru.mount == mid)
                    for mid, c in entry.mounts.items()]
        view["mount"] = {"choices": choices, "errors": err("mount")}

    if entry.command:
        parts = [dict(choice(f"cmd-{p}", "1", COMMAND_NAMES[p], cost_text(part.cost, unit), p in ru.command),
                      id=f"{prefix}-command-{p}", errors=err(f"cmd-{p}"))
                 for p, part in ((p, entry.command[p]) for p in ("champion", "musician", "standard") if p in entry.command)]
        standard = entry.command.get("standard")
        veteran = None
        if standard is not None and standard.veteran:
            veteran = {"name": "veteran_standard", "id": f"{prefix}-veteran_standard",
                       "label": "Veteran Standard Bearer", "cost": cost_text(standard.veteran_cost, unit),
                       "checked": ru.veteran_standard, "errors": err("veteran_standard")}
        view["command"] = {"choices": parts, "veteran": veteran}

    if may_be_wizard(entry) or ru.path:
        names = {**book.system.paths, **book.paths}
        paths = entry.paths or tuple(book.paths)
        view["path"] = {"id": f"{prefix}-path", "value": ru.path or "", "errors": err("path"),
                        "label": book.system.path_word,
                        "choices": [{"value": p, "label": names.get(p, p)} for p in paths]}

    view["label"] = {"id": f"{prefix}-label", "value": submitted("label", ru.label), "errors": err("label")}
    return view
