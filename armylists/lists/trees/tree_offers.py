"""What a unit of a roster tree offers, as the evaluator computes it where the unit stands: each option
of the unit and of its selected children (nested), with its name and cost after modifiers, how many are
taken, its maximum after modifiers (None when the data sets none), the groups it sits in (name, minimum,
maximum after modifiers) and, where a modifier made a maximum 0, why, in words taken from the modifier's
condition ("not with Great Weapon": rules/battlescribe/words.py, which the Report's messages share).
Hidden entries are left out. Nothing here re-judges the roster: it reads `effective()` and the
evaluator's condition queries."""
from __future__ import annotations

from weakref import WeakKeyDictionary

from armylists.rules.battlescribe import add_force, select
from armylists.rules.battlescribe.data import GameData
from armylists.rules.battlescribe.document import primary_cost_type
from armylists.rules.battlescribe.effective import Effective, gated, effective
from armylists.rules.battlescribe.queries import Context, Unsupported
from armylists.rules.battlescribe.tree import Roster as TreeRoster
from armylists.rules.battlescribe.tree import RosterError, Selection
from armylists.rules.battlescribe.words import needs_words, why_zero

def _limits(eff: Effective) -> tuple[int | None, int, list[dict]]:
    """(max, min, the max constraints at 0) of the selections counted in the parent."""
    mine = [(c, v) for c, v in eff.constraints if c.get("scope") == "parent" and not c.get("percent")
            and (c.get("field") or "selections") == "selections"]
    maxima = [(c, v) for c, v in mine if c.get("type") == "max"]
    minima = [v for c, v in mine if c.get("type") == "min"]
    top = int(min(v for _c, v in maxima)) if maxima else None
    return top, int(max(minima)) if minima else 0, [c for c, v in maxima if v <= 0 < float(c["value"])]


def held_back(game: GameData, ctx: Context, sources: tuple[dict, ...], eff: Effective) -> str:
    """Why an entry may not be taken where `ctx` stands though a modifier of the data would allow it, in a
    player's words ("needs a Plague Priest in the army"): what the modifiers that would raise each maximum
    at or below 0 wait for (rules/battlescribe/words.py); "" where nothing would."""
    zero = {c.get("id") for c, v in eff.constraints if c.get("type") == "max" and v <= 0 <= float(c["value"])
            and not c.get("percent") and (c.get("field") or "selections") == "selections"}   # -1: no limit
    return "; ".join(needs_words(game, ctx, sources, zero)) if zero else ""


def root_unavailable(tree: TreeRoster, force, option) -> str:
    """Why a unit entry of a force may not be added now (the catalogue greys it): a maximum a condition
    lifts, or one a condition made 0; "" where it may."""
    ctx = Context(tree, None, force, option)
    try:
        eff = effective(ctx, option.sources, {c["id"] for c in tree.game.cost_types}, [], option.group_nodes)
    except Unsupported:
        return ""
    zeroed = [c for c, v in eff.constraints if c.get("type") == "max" and v <= 0 < float(c["value"])
              and not c.get("percent") and (c.get("field") or "selections") == "selections"]
    if zeroed:
        return why_zero(tree.game, ctx, option.sources, zeroed)
    held = held_back(tree.game, ctx, option.sources, eff)
    if held:
        return held
    # already as many as the army may have (Mordheim's leader, whom the warband starts with)
    taken = sum(s.number for s in force.selections if s.option.entry["id"] == option.entry["id"])
    full = [v for c, v in eff.constraints if c.get("type") == "max" and 0 < v <= taken and not c.get("percent")
            and (c.get("field") or "selections") == "selections" and c.get("scope") in ("parent", "force", "roster")]
    return f"at most {_count(min(full))} in the army, {_count(taken)} taken" if full else ""


def _count(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def per_model(option, primary: str) -> tuple[float | None, bool]:
    """(cost per model, maximum per model): a modifier of the option's cost or of a maximum that repeats
    once per model in its parent (repeat childId "model", value 1: T9A's "+3 pts per model"); a
    collective entry is one per model of its parent, so its maximum follows the models too."""
    maxima = {c.get("id") for s in option.sources for c in s.get("constraints", []) if c.get("type") == "max"}
    step, scaled = None, bool(option.entry.get("collective"))
    for source in option.sources:
        for modifier, _gates, repeat_lists in gated(source):
            if modifier.get("type") != "increment":
                continue
            if not any(r.get("child") == "model" and r.get("value") == 1 and r.get("scope") == "parent"
                       for repeats in repeat_lists for r in repeats):
                continue
            if modifier.get("field") == primary:
                step = float(modifier.get("value", 0))
            elif modifier.get("field") in maxima:
                scaled = True
    return step, scaled


def unit_offers(tree: TreeRoster, selection: Selection) -> list[dict]:
    """The options of `selection` and of its selected children, each a dict: parent (uid), entry,
    name, cost, taken, max, min (of the parent's selections, 0 where none), per_model (the maximum
    follows the parent's models), cost_per_model (or None), unavailable (words, or ""), groups (outermost first: id, name,
    min, max, max_cost (of the first cost type), unavailable, default), depth (0 for the unit's own) and child (the uid of its selection
    when taken and offering options of its own, whose offers follow it)."""
    offers: list[dict] = []
    _offers(tree, selection, offers, 0)
    return offers


def _offers(tree: TreeRoster, parent: Selection, out: list[dict], depth: int) -> None:
    cost_types = {c["id"] for c in tree.game.cost_types}
    primary = primary_cost_type(tree.game)
    seen, groups = set(), {}
    for option in tree.options(parent):
        if option.entry_id in seen:
            continue
        seen.add(option.entry_id)
        taken = sum(c.amount for c in parent.children if c.entry_id == option.entry_id)
        ctx = Context(tree, None, parent, option)
        try:
            eff = effective(ctx, option.sources, cost_types, [], option.group_nodes)
            path = [_group(tree, ctx, step, groups, cost_types) for step in option.groups]
        except Unsupported:
            continue
        if eff.hidden and not taken:
            continue
        top, low, zeroed = _limits(eff)
        step, scaled = per_model(option, primary)
        unavailable = why_zero(tree.game, ctx, option.sources, zeroed) if zeroed else ""
        unavailable = unavailable or next((g["unavailable"] for g in path if g["unavailable"]), "")
        if top is not None and top <= 0 and not zeroed and not unavailable:
            # a maximum of 0 the data states, which a modifier lifts where a condition holds: offered greyed,
            # saying what it waits for ("only for a Runic Smith"); with no such modifier, never offered here
            unavailable = held_back(tree.game, ctx, option.sources, eff)
            if not unavailable and not taken:
                continue
        out.append({"parent": parent.uid, "entry": option.entry_id, "name": eff.name or option.entry.get("name", ""),
                    "cost": eff.costs.get(primary, 0.0), "taken": taken, "max": top, "min": low,
                    "per_model": scaled, "cost_per_model": step, "unavailable": unavailable,
                    "groups": path, "depth": depth, "child": ""})
        for child in parent.children:
            if child.entry_id == option.entry_id and tree.options(child):
                out[-1]["child"] = child.uid
                _offers(tree, child, out, depth + 1)
                break


def _group(tree: TreeRoster, ctx: Context, step, cache: dict, cost_types: set[str]) -> dict:
    if step.group_id not in cache:
        sources = tuple(n for n in (step.node, step.link) if n is not None)
        eff = effective(ctx, sources, cost_types, [])
        top, low, zeroed = _limits(eff)
        primary = primary_cost_type(tree.game)
        spend = [v for c, v in eff.constraints if c.get("type") == "max" and c.get("field") == primary
                 and c.get("scope") == "parent" and not c.get("percent")]
        cache[step.group_id] = {"id": step.group_id, "name": eff.name or step.node.get("name", ""), "min": low,
                                "max_cost": min(spend) if spend else None,
                                "max": top, "unavailable": why_zero(tree.game, ctx, sources, zeroed) if zeroed else "",
                                "default": step.node.get("default")}
    return cache[step.group_id]


# --- a unit as a player expects it added ----------------------------------------------------------

def needs_a_pick(group: dict) -> bool:
    """A group that must have exactly one and whose data names no default: BattleScribe adds the unit with
    nothing in it (a Grey Seer's Lores of Magic), so the site picks for the player and the card says so."""
    return (group["min"], group["max"]) == (1, 1) and not group["default"] and not group["unavailable"]


def complete_as_added(tree: TreeRoster, selection: Selection, general: frozenset[str] = frozenset()) -> list[str]:
    """What BattleScribe's add leaves undone, done as our books' editor adds a unit: in every group of the unit
    (and of what it selects) that must hold one and holds none, its first free or cheapest choice that is
    available; then, where no selection of the roster is named as the data names its General (`general`, our
    system's mapping: rules_data/battlescribe_systems.yaml) and the unit offers one, that option. Returns the
    names of what was picked, in order."""
    picked: list[str] = []
    for _round in range(20):   # a pick may bring groups of its own; the data's nesting is far shallower
        pick = _first_unfilled(tree, selection)
        if pick is None:
            break
        parent, option = pick
        select(tree, parent, option["entry"])
        picked.append(option["name"])
    if general and not any(_named(s) & general for s in tree.all_selections()):
        for offer in unit_offers(tree, selection):
            if not offer["taken"] and not offer["unavailable"] and offer["max"] != 0 and offer["name"] in general:
                select(tree, tree.by_uid[offer["parent"]], offer["entry"])   # in the unit or its model (Old World)
                picked.append(offer["name"])
                break
    return picked


def _named(selection: Selection) -> set[str]:
    option = selection.option
    return {n for n in (option.entry.get("name"), (option.link or {}).get("name"), selection.state.name) if n}


def _first_unfilled(tree: TreeRoster, selection: Selection) -> tuple[Selection, dict] | None:
    """The first group below `selection` that must hold at least one and holds none, with its cheapest
    available option (the first of those at the lowest cost)."""
    offers = unit_offers(tree, selection)
    groups: dict[tuple[str, str], list[dict]] = {}
    for offer in offers:
        if offer["groups"]:
            groups.setdefault((offer["parent"], offer["groups"][-1]["id"]), []).append(offer)
    for (parent_uid, _group_id), members in groups.items():
        group = members[0]["groups"][-1]
        if group["min"] < 1 or group["unavailable"] or any(o["taken"] for o in members):
            continue
        free = [o for o in members if not o["unavailable"] and o["max"] != 0]
        default = [o for o in free if group["default"] and o["entry"].split("::")[-1] == group["default"]]
        if free:
            parent = tree.by_uid[parent_uid]
            return parent, (default or [min(free, key=lambda o: o["cost"])])[0]   # min keeps the first of equal costs
    return None


# --- the "Add a unit" catalogue: each root entry as added ------------------------------------------

_AS_ADDED: WeakKeyDictionary = WeakKeyDictionary()


def as_added(game: GameData, force_entry: str, catalogue: str) -> dict[str, tuple[float, str | None]]:
    """Each root entry a force of `force_entry` offers, as BattleScribe adds it to an empty force (what its
    minimums and defaults select with it): entry id -> (its cost in the primary cost type with what it
    brings, its primary category). Made once per game data and force (a select each: a few ms), so the
    catalogue shows a unit's price as the player will pay it, and under its category."""
    per_game = _AS_ADDED.setdefault(game, {})
    key = (force_entry, catalogue)
    if key not in per_game:
        per_game[key] = _as_added(game, force_entry, catalogue)
    return per_game[key]


def _as_added(game: GameData, force_entry: str, catalogue: str) -> dict[str, tuple[float, str | None]]:
    cost_type = primary_cost_type(game)
    empty = TreeRoster(game)
    force = add_force(empty, force_entry, catalogue)
    out: dict[str, tuple[float, str | None]] = {}
    for option in empty.options(force):
        if option.entry_id in out or option.entry.get("hidden") or (option.link or {}).get("hidden"):
            continue
        roster = TreeRoster(game)
        try:
            selection = select(roster, add_force(roster, force_entry, catalogue), option.entry_id)
            complete_as_added(roster, selection)
        except (RosterError, Unsupported, ValueError):
            continue   # not selectable on its own: the catalogue lists it without a price
        out[option.entry_id] = (sum(s.state.costs.get(cost_type, 0) for s in selection.walk()),
                                selection.state.primary)
    return out
