"""BattleScribe conditions in a player's words: the one place that says why a modifier changed a limit or
hid an entry. The unit cards say it of an option ("Unavailable: not with Great Weapon",
lists/trees/tree_offers.py), the Report of a broken limit ("Runic Weapon Enchantments: 2 taken in King; at most 0
with Great Weapon.", validation.py).

A reason is the conditions that hold of the modifiers that apply to a field (a constraint's id, or
`hidden`): what made the limit what it is here. Pure Python, no Django.
"""
from __future__ import annotations

from armylists.rules.battlescribe.effective import gated, shown
from armylists.rules.battlescribe.queries import Context, Unsupported, condition_holds, group_holds, repeat_times
from armylists.rules.battlescribe.tree import Selection

COMPARE_WORDS = {"equalTo": "exactly", "notEqualTo": "other than", "atLeast": "at least", "atMost": "at most",
                 "greaterThan": "more than", "lessThan": "fewer than"}


def condition_words(game, condition: dict) -> str:
    """A condition as a player reads it: what it counts, the comparison and where ("with Great Weapon",
    "without Mount", "in Characters", "with at least 2 Heroes in force")."""
    named = condition.get("child") not in ("", "any", None)
    child = game.name_of(condition.get("child") or "") if named else "anything"
    kind, value = condition.get("type"), condition.get("value", 0)
    if kind in ("instanceOf", "notInstanceOf"):
        return f"{'not ' if kind == 'notInstanceOf' else ''}in {child}"
    if (kind, value) in (("equalTo", 1), ("atLeast", 1), ("greaterThan", 0)):
        return f"with {child}"
    if (kind, value) in (("equalTo", 0), ("lessThan", 1), ("atMost", 0)):
        return f"without {child}"
    scope = condition.get("scope", "")
    where = scope if scope in ("self", "parent", "force", "roster") else game.name_of(scope)
    return f"with {COMPARE_WORDS.get(kind, kind)} {shown(value)} {child} in {where}"


def reasons(game, ctx: Context, sources: tuple[dict, ...], fields: set[str]) -> list[str]:
    """The conditions that hold of the modifiers of `fields` that apply where `ctx` stands and repeat
    nothing, in words, each once, in the data's order ("with Great Weapon")."""
    out: list[str] = []
    for _modifier, holding, counted in _applied(ctx, sources, fields):
        if not counted:
            out += [w for w in (condition_words(game, c) for c in holding) if w not in out]
    return out


def repeat_reasons(game, ctx: Context, sources: tuple[dict, ...], fields: set[str]) -> list[str]:
    """What the repeated modifiers of `fields` that apply here count ("1 per 1000 pts of the limit")."""
    out: list[str] = []
    for modifier, _holding, counted in _applied(ctx, sources, fields):
        out += [w for w in (repeat_words(game, modifier, r) for r in counted) if w not in out]
    return out


def _applied(ctx: Context, sources: tuple[dict, ...], fields: set[str]):
    """(modifier, its conditions that hold, its repeats that count at least once) of each modifier of
    `fields` that applies here."""
    for source in sources:
        for modifier, gates, repeat_lists in gated(source):
            if modifier.get("field") not in fields:
                continue
            try:
                if not all(group_holds(g, ctx) for g in gates):
                    continue
                holding = [c for gate in gates for c in _holding(gate, ctx)]
                counted = [r for rs in repeat_lists for r in rs if repeat_times(r, ctx) > 0]
                if any(rs for rs in repeat_lists) and not counted:
                    continue   # a repeat that counts nothing here changes nothing
            except Unsupported:
                continue
            yield modifier, holding, counted


def repeat_words(game, modifier: dict, repeat: dict) -> str:
    """A repeated modifier as a player reads it: "1 per 1000 pts of the limit", "-1 per Runelord in force"."""
    step = f"{'-' if modifier.get('type') == 'decrement' else ''}{shown(float(modifier.get('value', 0) or 0))}"
    field = repeat.get("field", "selections")
    every = float(repeat.get("value", 0) or 0)
    per = "" if every == 1 else f"{shown(every)} "
    if field.startswith("limit::"):
        return f"{step} per {per}{game.cost_type_name(field.split('::', 1)[1]).strip()} of the limit"
    scope = repeat.get("scope", "")
    where = scope if scope in ("self", "parent", "force", "roster") else game.name_of(scope)
    child = repeat.get("child")
    named = game.name_of(child) if child not in ("", "any", None) else ""
    if field == "selections":
        what = named or "selections"
    else:
        what = game.cost_type_name(field).strip() + (f" of {named}" if named else "")
    return f"{step} per {per}{what} in {where}"


def why_zero(game, ctx: Context, sources: tuple[dict, ...], zeroed: list[dict]) -> str:
    """Why an option is unavailable (a maximum made 0): "not with Great Weapon"."""
    found = reasons(game, ctx, sources, {c.get("id") for c in zeroed})
    return "not " + " and ".join(found) if found else "not allowed here"


def _holding(group: dict, ctx: Context):
    """The conditions of a condition group (nested) that hold: what made its modifier apply."""
    for condition in group.get("conditions", []):
        if condition_holds(condition, ctx):
            yield condition
    for inner in group.get("groups", []):
        yield from _holding(inner, ctx)


def limit_words(of: str, kind: str, got: float, value: float, unit: str, where: str, why: list[str],
                percent: tuple[float, float, str] | None = None, per: tuple[str, ...] = ()) -> str:
    """A broken limit as a player reads it: the entry, how many in its scope, the bound and, where a
    modifier made the bound what it is here, which condition did ("Runic Weapon Enchantments: 2 taken in
    King; at most 0 with Great Weapon."). `unit` is "taken" for selections ("per model" for a collective
    child's, counted per model of its parent), a cost type's name ("pts") or "forces"; `percent` (the
    amount counted, the total it is a share of, and that total in words) for a percentage limit; `per`, what repeated modifiers of the bound count ("1 per 1000 pts of the limit")."""
    bound = "at most" if kind == "max" else "at least"
    place = f" in {where}" if where and where != of else ""   # "Core: 60 pts, 3% of ...", not "in Core"
    count = f"{shown(got)} taken" if unit == "taken" else f"{shown(got)} {unit}"   # "2 per model"
    reason = (f" {' and '.join(why)}" if why else "") + (f" ({'; '.join(per)})" if per else "")
    if percent is not None:
        amount, total, of_what = percent
        share = f" ({shown(value * total / 100)}{'' if unit == 'taken' else ' ' + unit})" if total else ""
        counted = f"{shown(amount)} taken" if unit == "taken" else f"{shown(amount)} {unit}"
        return f"{of}: {counted}{place}, {shown(got)}% of {of_what}; {bound} {shown(value)}%{share}{reason}."
    plain = unit in ("taken", "forces", "per model")
    return f"{of}: {count}{place}; {bound} {shown(value)}{'' if plain else ' ' + unit}{reason}."


def hidden_words(name: str, where: str, why: list[str]) -> str:
    """A selection of an entry that is hidden where it stands: "Cavalry Spear: taken in Captain, where it is
    not available (without Horse)"."""
    reason = f" ({' and '.join(why)})" if why else ""
    return f"{name}: taken in {where}, where it is not available{reason}."


def over_limit_words(total: float, limit: float, unit: str) -> str:
    """A roster over its cost limit, worded as our own books' points.over_limit."""
    return f"Total {shown(total)} {unit} is {shown(total - limit)} {unit} over the {shown(limit)} {unit} limit."


def unknown_cost_type_words(type_id: str, limit: float, known: list[str]) -> str:
    """A roster's limit in a cost type its data does not have: "The list's limit of 2000 is in 'points',
    a cost type the book's data does not have (its costs: pts)."."""
    costs = f" (its costs: {', '.join(known)})" if known else ""
    return f"The list's limit of {shown(limit)} is in {type_id!r}, a cost type the book's data does not have{costs}."


# --- what would lift a limit (issue 40 item 3) ---------------------------------------------------------

def needs_words(game, ctx: Context, sources: tuple[dict, ...], fields: set[str]) -> list[str]:
    """What would raise a maximum that holds an entry back, as a player reads it: the modifiers of `fields`
    that would increase it but do not apply here, each said by the conditions of it that fail ("needs a Plague
    Priest in the army", "only for a Runic Smith"); of several such modifiers, those that wait for the fewest
    things, each once, in the data's order. Nothing for a modifier that applies or lowers the limit."""
    found: list[tuple[int, str]] = []
    for source in sources:
        for modifier, gates, repeat_lists in gated(source):
            if modifier.get("field") not in fields or modifier.get("type") not in ("increment", "set"):
                continue
            if modifier.get("type") == "set" and float(modifier.get("value", 0) or 0) <= 0:
                continue
            try:
                failing = [part for g in gates for part in _failing(game, g, ctx)]
                repeats = [r for rs in repeat_lists for r in rs]
                if repeats and not any(repeat_times(r, ctx) > 0 for r in repeats):
                    failing += [w for w in (_per_repeat(game, r) for r in repeats) if w]
            except Unsupported:
                continue
            if failing:
                found.append((len(failing), " and ".join(dict.fromkeys(failing))))
    fewest = min((n for n, _w in found), default=0)
    return list(dict.fromkeys(words for n, words in found if n == fewest))


def _failing(game, group: dict, ctx: Context) -> list[str]:
    """The parts of a condition group that do not hold, in words: of an "and" group each failing condition
    (or inner group); an "or" group that fails is one part, its alternatives joined with "or"."""
    if group_holds(group, ctx):
        return []
    if group.get("type", "and") == "or":
        parts = [w for w in (_awaited_one(game, c) for c in group.get("conditions", [])) if w]
        parts += [" and ".join(_failing(game, g, ctx)) for g in group.get("groups", [])]
        said = " or ".join(dict.fromkeys(p for p in parts if p))
        return [said] if said else []
    out = [w for w in (_awaited_one(game, c) for c in group.get("conditions", []) if not condition_holds(c, ctx)) if w]
    for inner in group.get("groups", []):
        out += _failing(game, inner, ctx)
    return out


def _where(game, scope: str) -> str:
    return {"force": "the army", "roster": "the army", "parent": "the unit", "self": "the unit"}.get(
        scope, game.name_of(scope) if scope not in ("", "ancestor", "primary-catalogue") else "the army")


def _awaited_one(game, condition: dict) -> str:
    kind, value = condition.get("type"), float(condition.get("value", 0) or 0)
    child = condition.get("child")
    if child in ("", "any", None) or (condition.get("field") or "selections") != "selections":
        return ""
    name = game.name_of(child)
    if kind in ("instanceOf", "notInstanceOf"):   # of a force entry: the kind of army ("only in 2. Combined Arms")
        where = "in" if child in game.forces else "for a"
        return f"{'only' if kind == 'instanceOf' else 'not'} {where} {name}"
    if (kind, value) in (("equalTo", 0), ("lessThan", 1), ("atMost", 0)):
        return f"not with a {name} in {_where(game, condition.get('scope', ''))}"
    if kind in ("atLeast", "greaterThan", "equalTo"):
        many = value + (1 if kind == "greaterThan" else 0)
        return f"needs {'a' if many == 1 else shown(many)} {name} in {_where(game, condition.get('scope', ''))}"
    return ""


def _per_repeat(game, repeat: dict) -> str:
    child = repeat.get("child")
    if child in ("", "any", None) or (repeat.get("field") or "selections") != "selections":
        return ""
    every = float(repeat.get("value", 1) or 1)
    return f"needs {'a' if every == 1 else shown(every)} {game.name_of(child)} in {_where(game, repeat.get('scope', ''))}"


def stated_bound(constraint: dict) -> float:
    """A constraint's bound as the data states it (-1 where it is no number): the words say why a bound
    differs from it."""
    try:
        return float(constraint.get("value", 0))
    except (TypeError, ValueError):
        return -1.0


def unit_name(selection: Selection) -> str:
    """The unit a selection is in (its root selection), by its name after modifiers."""
    while isinstance(selection.parent, Selection):
        selection = selection.parent
    return selection.state.name or selection.option.entry.get("name", "")
