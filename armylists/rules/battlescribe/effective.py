"""An entry as modified where it stands: its name, hidden flag, costs, constraint values, categories.

Modifiers of the entry, then of the link that reached it, then their modifier groups (a group's
conditions and repeats gate and multiply every modifier inside it). A modifier applies when its
conditions (an 'and' group) and its groups' hold, as many times as its repeats say (several repeats add
up; none: once). BattleScribe applies `set` before the other types, whatever their order in the file
(battlescribe-spec modifier-application-order); the rest go in order. `increment`/`decrement` on a name
do arithmetic on a numeric name, `append` adds with a space; an increment or decrement where the name or
the modifier's value is no number is ignored, as BattleScribe ignores it (so is one of a cost or a
constraint's value by a word). Fields: `name`, `hidden`, a cost type, a
constraint id (its value), `category` (add, remove, set-primary, unset-primary), `error`/`warning`/`info`
(type add: a message). Display-only fields (page, publication, description, annotation) change nothing
a roster is checked for and are passed over; anything else is named as unsupported.
"""
from __future__ import annotations

import math

from dataclasses import dataclass, field
from typing import Callable

from armylists.rules.battlescribe.compiled import gated_compiled
from armylists.rules.battlescribe.queries import COMPARE, COST_READS, Context, Unsupported, understood

DISPLAY_FIELDS = {"page", "publicationId", "description", "annotation", "publication",
                  # how many an editor adds at first: a roster states its own numbers
                  "defaultAmount"}
MESSAGE_FIELDS = {"error", "warning", "info"}


@dataclass
class Effective:
    name: str
    hidden: bool
    costs: dict[str, float]
    constraints: list[tuple[dict, float]]           # each constraint with its modified value
    categories: list[str]
    primary: str | None
    messages: list[tuple[str, str]] = field(default_factory=list)   # (error|warning|info, text)


def number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def shown(value: float) -> str:
    """A number in a message: at most two decimals, no trailing zeros (27.272727 -> 27.27)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def as_number(text) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        raise Unsupported(f"modifier value {text!r} is not a number") from None


def _readable(text) -> bool:
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


def gated(source: dict):
    """(modifier, gates, repeat lists) of a node: its own modifiers, then its modifier groups' (nested)."""
    for modifier in source.get("modifiers", []):
        yield modifier, [modifier.get("when", {})], [modifier.get("repeats", [])]

    def walk(groups, gates, repeats):
        for group in groups:
            g_gates = gates + [group.get("when", {})]
            g_repeats = repeats + [group.get("repeats", [])]
            for modifier in group.get("modifiers", []):
                yield modifier, g_gates + [modifier.get("when", {})], g_repeats + [modifier.get("repeats", [])]
            yield from walk(group.get("groups", []), g_gates, g_repeats)
    yield from walk(source.get("modifier_groups", []), [], [])


# What a node states before any modifier, and its modifiers with their gates, kept per game data (by the
# nodes' identity, each node held beside what was read of it, in GameData.memo): every refresh and
# validation asks them of every selection and offer, and they never change.


def gated_of(game, source: dict) -> list[tuple[dict, list[dict], list[list[dict]]]]:
    """`gated(source)` as a list, made once per game data."""
    per_game = game.memo.setdefault("gated_of", {})
    found = per_game.get(id(source))
    if found is None or found[0] is not source:
        found = per_game[id(source)] = (source, list(gated(source)))
    return found[1]


def is_category(modifier: dict) -> bool:
    """A `keep` of effective(): the category modifiers only (evaluate.py's categories pass)."""
    return modifier.get("field") == "category"


def not_category(modifier: dict) -> bool:
    """A `keep` of effective(): every modifier but the category ones."""
    return modifier.get("field") != "category"


def for_state(modifier: dict) -> bool:
    """A `keep` of effective(): what a selection's state is made of (evaluate.py's pass after the
    categories: name, hidden flag, costs, messages). Given as `keep`, it also leaves out the modifiers
    that only change one of the node's constraint values and can name nothing unsupported (`_limit_only`):
    a state holds no constraint, and the refresh asked their conditions of every selection for nothing
    (most of its conditions in Old World data). Called as a plain function it is not_category."""
    return modifier.get("field") != "category"


def _as_stated(game, sources: tuple[dict, ...], groups: tuple[dict, ...]):
    """What the nodes state before modifiers, and their modifiers made once (compiled.py) as (source, Gated)
    pairs: all of them, the category ones (`is_category`) and the others, each in the data's order."""
    per_game = game.memo.setdefault("stated", {})
    nodes = sources + groups
    key = (len(sources), *map(id, nodes))
    found = per_game.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], nodes)):
        entry = sources[0]
        costs: dict[str, float] = {}
        for source in sources:
            costs.update({k: float(v) for k, v in source.get("costs", {}).items()})
        categories, primary = linked_categories(sources, groups)
        stated = (entry.get("name") or (sources[-1].get("name", "")), any(s.get("hidden") for s in sources), costs,
                  tuple((c, float(c["value"])) for s in sources for c in s.get("constraints", [])),
                  tuple(categories), primary)
        every = tuple((s, made) for s in sources for made in gated_compiled(game, s, gated))
        others = tuple(p for p in every if not is_category(p[1].modifier))
        limits = {c.get("id") for s in sources for c in s.get("constraints", [])}
        found = per_game[key] = (nodes, stated, every, tuple(p for p in every if is_category(p[1].modifier)),
                                 others, tuple(p for p in others if not _limit_only(game, p[1], limits)))
    return found[1:]


def _limit_only(game, gate, limits: set) -> bool:
    """A modifier that changes only the value of one of the node's constraints (`limits`: their ids), as
    `_apply` would apply it (a number, or a word it ignores), whose conditions and repeats can raise no
    Unsupported (queries.understood, query_problem): leaving it out changes nothing but constraints."""
    modifier = gate.modifier
    target, kind = modifier.get("field"), modifier.get("type")
    if target not in limits or target in game.cost_type_ids or target in ("name", "hidden", "category") \
            or target in MESSAGE_FIELDS or target in DISPLAY_FIELDS:
        return False
    if kind not in ("set", "increment", "decrement", "floor", "ceil"):
        return False
    if kind not in ("increment", "decrement") and not _readable(modifier.get("value", "")):
        return False   # as_number would name it unsupported
    cost_types = game.cost_type_ids
    return all(understood(game, g) for g in gate.gates) and \
        all(query_problem(r, cost_types, repeat=True) is None for r in (x for rl in gate.repeat_lists for x in rl))


def applying(sources, ctx: Context, refused: Callable[[dict, Unsupported], None],
             skip: Callable[[dict, list, list], bool] | None = None) -> list[tuple[dict, int]]:
    """The modifiers of `sources` whose conditions hold, each with how many times its repeats apply it,
    `set` first as BattleScribe applies them; a condition not understood goes to `refused` (its source)."""
    game = ctx.roster.game
    made = tuple((s, g) for s in sources for g in gated_compiled(game, s, gated))   # made once per game data
    return _applying(made, ctx, refused, skip)


def _applying(made, ctx: Context, refused, skip) -> list[tuple[dict, int]]:
    applied = []
    noting = COST_READS.get() is not None   # cost_order.py notes what the conditions read: each is asked
    for source, gate in made:
        if skip is not None and skip(gate.modifier, gate.gates, gate.repeat_lists):
            continue
        try:
            times = gate.times(ctx, noting)
        except Unsupported as exc:
            refused(source, exc)
            continue
        if times > 0:
            applied.append((gate.modifier, times))
    applied.sort(key=lambda pair: 0 if pair[0].get("type") == "set" else 1)
    return applied


def linked_categories(sources: tuple[dict, ...], groups: tuple[dict, ...] = ()) -> tuple[list[str], str | None]:
    """The categories an entry's (and its link's and groups') category links give it, and its primary."""
    categories: list[str] = []
    primary = None
    for source in groups + sources:
        for link in source.get("category_links", []):
            if link["target"] not in categories:
                categories.append(link["target"])
            if link.get("primary"):
                primary = link["target"]
    return categories, primary


def effective(ctx: Context, sources: tuple[dict, ...], cost_types: set[str], unsupported: list[str],
              groups: tuple[dict, ...] = (), keep: Callable[[dict], bool] | None = None) -> Effective:
    """The first source is the entry (or category, or force entry); a second is the link reaching it.
    `groups` are the groups the entry sits in: their category links are its categories too, and an
    entry of a hidden group is hidden. `keep`, where given, says which modifiers apply (evaluate.py's
    passes: the categories first; cost_order.py: a loop's modifiers left out)."""
    entry = sources[0]
    stated, every, category_ones, other_ones, state_ones = _as_stated(ctx.roster.game, sources, groups)
    name, hidden, costs, constraints, categories, primary = stated
    result = Effective(name, hidden, dict(costs), list(constraints), list(categories), primary)
    made = every
    if keep is is_category or keep is not_category or keep is for_state:   # the refresh's passes: sorted once
        made, keep = {is_category: category_ones, not_category: other_ones, for_state: state_ones}[keep], None

    def skip(modifier: dict, gates: list[dict], repeat_lists: list[list[dict]]) -> bool:
        if keep is not None and not keep(modifier):
            return True
        # An entry not selected yet (an offer) reading its own cost: where it is selected that is a loop,
        # and the loop's modifier is left out (cost_order.py), so its price here is without it.
        return ctx.self is None and modifier.get("field") in cost_types and \
            _reads_own_cost(modifier, gates, repeat_lists, ctx)

    def refused(source: dict, exc: Unsupported) -> None:
        unsupported.append(f"{exc} in a modifier of {source.get('where', source.get('id'))}")

    for modifier, times in _applying(made, ctx, refused, skip if keep is not None or ctx.self is None else None):
        try:
            _apply(result, modifier, times, cost_types)
        except Unsupported as exc:
            unsupported.append(f"{exc} in a modifier of {entry.get('where', entry.get('id'))}")
    for group in groups:   # an entry of a hidden group (by its flag or a modifier) is hidden
        if result.hidden:
            break
        if group.get("hidden") or any(m.get("field") == "hidden" for m, _g, _r in gated_of(ctx.roster.game, group)):
            result.hidden = effective(ctx, (group,), cost_types, unsupported).hidden
    return result


def queries_of(gates: list[dict], repeat_lists: list[list[dict]]):
    """Every condition (nested groups too) and repeat that gates or repeats a modifier."""
    def walk(group):
        yield from group.get("conditions", [])
        for inner in group.get("groups", []):
            yield from walk(inner)
    for gate in gates:
        yield from walk(gate)
    for repeats in repeat_lists:
        yield from repeats


def cost_queries(queries, cost_types: set[str]) -> tuple[dict, ...]:
    """The queries that count a cost (what a cost loop is made of); instanceOf counts nothing, and a
    condition without a childId never holds (queries.condition_holds)."""
    return tuple(q for q in queries if q.get("field") in cost_types
                 and q.get("type") not in ("instanceOf", "notInstanceOf") and q.get("child_given", True))


def _reads_own_cost(modifier: dict, gates, repeat_lists, ctx: Context) -> bool:
    """A cost modifier of an entry not selected whose condition or repeat counts that same cost of its own
    entry (or of everything in a wider scope, which holds it once selected)."""
    own = set(ctx.option.ids) if ctx.option is not None else set()
    for query in queries_of(gates, repeat_lists):
        if query.get("field") != modifier.get("field") or query.get("type") in ("instanceOf", "notInstanceOf"):
            continue
        child = query.get("child")
        if child in own or (child in ("any", "", None) and query.get("child_given", True)
                            and query.get("scope") != "self"):
            return True
    return False


def _arith(kind: str, current: float, value: float, times: int) -> float:
    if kind == "set":
        return value
    if kind == "increment":
        return current + value * times
    if kind == "decrement":
        return current - value * times
    if kind in ("floor", "ceil"):
        # New Recruit's rounding: down (up) to a multiple of the value; a value of 0 or less rounds to a
        # whole number. A repeat changes nothing (rounding twice is rounding once).
        step = value if value > 0 else 1
        return (math.floor if kind == "floor" else math.ceil)(current / step) * step
    raise Unsupported(f"modifier type {kind!r} on a number")


def _apply(result: Effective, modifier: dict, times: int, cost_types: set[str]) -> None:
    kind, target, value = modifier.get("type"), modifier.get("field"), modifier.get("value", "")
    if target == "name":
        if kind == "set":
            result.name = str(value)
        elif kind == "prepend":
            result.name = " ".join([str(value)] * times + ([result.name] if result.name else []))
        elif kind == "append":
            result.name = " ".join([result.name] + [str(value)] * times) if result.name else " ".join([str(value)] * times)
        elif kind in ("increment", "decrement"):
            if _readable(result.name) and _readable(value):   # else ignored, as BattleScribe does
                result.name = number_text(_arith(kind, float(result.name), float(value), times))
        else:
            raise Unsupported(f"modifier type {kind!r} on a name")
    elif target == "hidden":
        if kind != "set":
            raise Unsupported(f"modifier type {kind!r} on hidden")
        result.hidden = str(value).lower() == "true"
    elif kind in ("increment", "decrement") and not _readable(value) and (
            target in cost_types or any(c.get("id") == target for c, _v in result.constraints)):
        return   # a number changed by a word: ignored, as a name's is
    elif target in cost_types:
        result.costs[target] = _arith(kind, result.costs.get(target, 0.0), as_number(value), times)
    elif any(c.get("id") == target for c, _v in result.constraints):
        result.constraints = [(c, _arith(kind, v, as_number(value), times) if c.get("id") == target else v)
                              for c, v in result.constraints]
    elif target == "category":
        if kind == "add" and value not in result.categories:
            result.categories.append(value)
        elif kind == "remove":
            result.categories = [c for c in result.categories if c != value]
            result.primary = None if result.primary == value else result.primary
        elif kind == "set-primary":
            result.primary = value
            if value not in result.categories:
                result.categories.append(value)
        elif kind == "unset-primary":
            result.primary = None if result.primary == value else result.primary
        elif kind != "add":
            raise Unsupported(f"modifier type {kind!r} on categories")
    elif target in MESSAGE_FIELDS and kind == "add":
        result.messages.extend([(target, str(value))])
    elif target in DISPLAY_FIELDS:
        return
    else:
        raise Unsupported(f"modifier field {target!r} ({kind})")


# -- what the evaluator would name as unsupported, found without a roster (the import report's `unchecked`)
COMPARISONS = set(COMPARE) | {"instanceOf", "notInstanceOf"}


def query_problem(query: dict, cost_types: set[str], repeat: bool = False) -> str | None:
    """Why the evaluator cannot count a condition or repeat (queries.py), or None."""
    kind = query.get("type")
    if not repeat and kind not in COMPARISONS:
        return f"condition type {kind!r}"
    if kind in ("instanceOf", "notInstanceOf"):
        return None
    field = query.get("field", "selections")
    if query.get("scope") == "ancestor":
        if repeat:
            return "scope 'ancestor' in a repeat (instanceOf and conditions are understood there)"
        if field not in ("selections", "") and field not in cost_types:
            return f"field {field!r} in a count in scope 'ancestor'"
        return None
    if field.startswith("limit::") or field in ("selections", "", "forces") or field in cost_types:
        return None
    return f"field {field!r} (neither selections, forces nor a cost type)"


def group_problem(group: dict, cost_types: set[str]) -> str | None:
    if group.get("type", "and") not in ("and", "or"):
        return f"condition group type {group.get('type')!r}"
    for found in (*(query_problem(c, cost_types) for c in group.get("conditions", [])),
                  *(group_problem(g, cost_types) for g in group.get("groups", []))):
        if found:
            return found
    return None


def modifier_problem(modifier: dict, cost_types: set[str], constraint_ids: set[str]) -> str | None:
    """Why the evaluator would name this modifier unsupported (its conditions, repeats or effect, the
    last tried by `_apply` itself on a blank entry with these constraints), or None: it is evaluated."""
    found = group_problem(modifier.get("when", {}), cost_types)
    for r in modifier.get("repeats", []):
        found = found or query_problem(r, cost_types, repeat=True)
    if found:
        return found
    if modifier.get("field") == "category" and cost_queries(
            queries_of([modifier.get("when", {})], [modifier.get("repeats", [])]), cost_types):
        return "a category modifier counting a cost"   # categories come before costs (evaluate.py)
    blank = Effective("", False, {}, [({"id": i}, 0.0) for i in constraint_ids], [], None)
    try:
        _apply(blank, modifier, 1, cost_types)
    except Unsupported as exc:
        return str(exc)
    return None


def constraint_problem(constraint: dict, cost_types: set[str]) -> str | None:
    """Why the evaluator would name this constraint unsupported (validation.py), or None."""
    if constraint.get("type") not in ("min", "max"):
        return f"constraint type {constraint.get('type')!r}"
    field = constraint.get("field", "selections")
    if field in ("selections", "", "forces") or field in cost_types or (
            field.startswith("limit::") and field.split("::", 1)[1] in cost_types):
        return None
    return f"constraint field {field!r}"
