"""A node's modifiers with their conditions made into functions once per game data (issue 37: the
evaluator compiled per book): every refresh and validation asks the same gates of every selection and
offer, and a gate read from its dict each time (its type, scope, childId, field and value looked up, the
group's kind decided again, whether every condition is understood asked again) costs more than the
answer. What a function answers is what `queries.group_holds` answers, in the same order (so that a
count that raises Unsupported raises it where it did): a group not understood, and any group while
cost_order.py notes the costs its conditions read (COST_READS; `Gated.times` is told), is handed to
`group_holds` itself.

Kept on the GameData (`memo`), by the node's identity, each node held beside what was made of it.
"""
from __future__ import annotations

from typing import Callable

from armylists.rules.battlescribe.queries import (COMPARE, Context, ancestor_count, count, force_of, group_holds,
                                                  instance_test, query_value, repeat_times, understood)

Holds = Callable[[Context], bool]


class Gated:
    """One modifier of a node, its gates (the modifier groups' conditions outermost first, then its own)
    and repeat lists as `effective.gated` gives them, and `times`: how many times it applies in a
    context (0: its conditions do not hold), as BattleScribe counts it: every gate holds, then the repeats' counts multiplied."""
    __slots__ = ("modifier", "gates", "repeat_lists", "holds", "asked", "repeats", "once")

    def __init__(self, game, modifier: dict, gates: list[dict], repeat_lists: list[list[dict]]):
        self.modifier, self.gates, self.repeat_lists = modifier, gates, repeat_lists
        made = [(g, found) for g, found in ((g, gate_of(game, g)) for g in gates) if found is not None]
        self.holds: tuple[Holds, ...] = tuple(found for _g, found in made)
        # while cost_order.py notes the costs conditions read, each group is asked whole (group_holds)
        self.asked: tuple[Holds, ...] = tuple(_asked(g) for g, _found in made)
        self.repeats = tuple(r for r in repeat_lists if r)
        self.once = not made and not self.repeats   # no condition, no repeat: applies once, always

    def times(self, ctx: Context, noting: bool = False) -> int:
        """`noting`: COST_READS is set (the conditions' cost reads are noted)."""
        if self.once:
            return 1
        for holds in (self.asked if noting else self.holds):
            if not holds(ctx):
                return 0
        times = 1
        for repeats in self.repeats:
            times *= sum(repeat_times(r, ctx) for r in repeats)
        return times


def _asked(group: dict) -> Holds:
    return lambda ctx: group_holds(group, ctx)


def gated_compiled(game, source: dict, gated) -> tuple[Gated, ...]:
    """The node's modifiers as Gated, made once per game data (`gated`: effective.gated, asked once)."""
    per_game = game.memo.setdefault("gated", {})
    found = per_game.get(id(source))
    if found is None or found[0] is not source:
        found = per_game[id(source)] = (source, tuple(Gated(game, m, g, r) for m, g, r in gated(source)))
    return found[1]


def gate_of(game, group: dict) -> Holds | None:
    """A condition group as a function of the context; None where it holds whatever the roster (no
    condition and no inner group: BattleScribe's empty 'and' and empty 'or' both hold)."""
    if not group.get("conditions") and not group.get("groups"):
        if group.get("type", "and") in ("and", "or"):
            return None
    if not understood(game, group):
        return _asked(group)
    return _group(group)   # only where COST_READS is not set (Gated.times)


def _group(group: dict) -> Holds:
    """An understood group (queries.understood): and / or over its conditions, then its groups,
    stopping at the first that decides."""
    parts = tuple(_condition(c) for c in group.get("conditions", [])) + tuple(_group(g) for g in group.get("groups", []))
    if group.get("type", "and") == "or":
        if not parts:
            return lambda ctx: True
        return lambda ctx: any(part(ctx) for part in parts)
    if len(parts) == 1:
        return parts[0]
    return lambda ctx: all(part(ctx) for part in parts)


def _condition(condition: dict) -> Holds:
    """One understood condition, as queries.condition_holds decides it."""
    kind = condition.get("type")
    if kind in ("instanceOf", "notInstanceOf"):
        found = instance_test(condition)   # queries.py's one copy of instanceOf
        if kind == "notInstanceOf":
            return lambda ctx: not found(ctx)
        return found
    if not condition.get("child_given", True):
        return lambda ctx: False   # no childId: no comparison holds (queries.condition_holds)
    compare, value = COMPARE[kind], condition.get("value", 0)
    if condition.get("scope") == "ancestor":
        return lambda ctx: compare(ancestor_count(condition, ctx), value)
    counted = _counted(condition)
    return lambda ctx: compare(counted(ctx), value)


def _counted(query: dict) -> Callable[[Context], float]:
    """queries.query_value of a count in scope self, parent, force or roster, not a percentage nor a
    cost limit, with what it reads of the query read once; any other, query_value itself."""
    scope, field = query.get("scope", ""), query.get("field", "selections")
    if query.get("percent") or field.startswith("limit::") or scope not in ("self", "parent", "force", "roster"):
        return lambda ctx: query_value(query, ctx)
    child = query.get("child")
    reach = (query.get("shared", True), query.get("include_child_selections", False),
             query.get("include_child_forces", False))

    def counted(ctx: Context) -> float:
        me = ctx.self
        if scope == "self":
            if me is None:
                return 0
            target = me
        elif scope == "parent":
            target = me.parent if me is not None else ctx.container
        elif scope == "force":
            target = force_of(me if me is not None else ctx.container) or force_of(ctx.container)
        else:
            target = ctx.roster
        return 0 + count(target, field, child, *reach, ctx.roster.game.cost_type_ids)
    return counted
