"""A selection's judgement as a container kept from one evaluation to the next (issue 37 item 3: what an
edit changes is judged again, not the whole tree).

Most containers of a roster are the selections of units: a unit's models and options, a model's weapons
and magic items. Where every limit judged in such a container, every modifier that may change those
limits or hide them, and every condition and repeat of those modifiers counts only in the container
(scope parent or self) or asks only what the container and the selections above it are (instanceOf),
the container's errors are a function of a few things: the container itself (its number, name and
categories), the selections below it (each one's entry, amount, categories, primary category and
costs), the selections above it (their categories: instanceOf; the unit's name: the words), and whether
the roster holds one force (the words name "the army"). `local(game, made)` decides, once per game data
and container kind, whether that holds; `signature` is those things; validation.py keeps, per container,
the signature and what judging it gave (its errors and what it found not understood), and judges again
only where the signature differs. An edit of one unit changes the signatures of that unit's containers
only (and of none where a count is set back as it was).

What is not local (a 0-X limit per 1000 points, a count in the force or the roster, a limit's value read
from the roster's limit, a group that can only cap counted in the roster, an entry that only caps in the
roster while the roster holds one of it) is judged every time.
"""
from __future__ import annotations

from armylists.rules.battlescribe.effective import gated_of
from armylists.rules.battlescribe.plans import ContainerLimits, container_limits

LOCAL_SCOPES = ("parent", "self")


def local(game, made: ContainerLimits) -> bool:
    """Whether a selection container with these limits is judged from itself, below and above alone."""
    per_game = game.memo.setdefault("kept_local", {})
    found = per_game.get(id(made))
    if found is None or found[0] is not made:
        found = per_game[id(made)] = (made, _local_now(game, made))
    return found[1]


def _local_now(game, made: ContainerLimits) -> bool:
    # An entry whose limits only cap and count in the roster (a unique magic item) is judged where the
    # roster holds one of it (`wide_caps`): validation.py keeps no judgement of such a container then, and
    # where the roster holds none, nothing of it is read.
    wide = {i for found in made.wide_caps.values() for i in found}
    cost_types = game.cost_type_ids
    for i, limits in enumerate(made.entries):
        if i in wide:
            continue
        nodes = limits.option.sources + tuple(limits.option.group_nodes)
        if not all(_constraints_local(s, cost_types) for s in limits.option.sources):
            return False
        if not all(_modifiers_local(game, n, cost_types) for n in nodes):
            return False
    for limits in made.groups:
        if limits.caps and not limits.local:   # judged where the roster holds one of the group
            return False
        if not all(_constraints_local(s, cost_types) for s in limits.sources):
            return False
        if not all(_modifiers_local(game, n, cost_types) for n in limits.sources + limits.outer):
            return False
    return True


def _measure_local(node: dict, cost_types) -> bool:
    field = node.get("field") or "selections"
    return field == "selections" or field in cost_types   # not forces, not a percentage of a roster's limit


def _constraints_local(source: dict, cost_types) -> bool:
    return all(c.get("scope", "parent") in LOCAL_SCOPES and _measure_local(c, cost_types)
               for c in source.get("constraints", []))


def _modifiers_local(game, node: dict, cost_types) -> bool:
    for _modifier, gates, repeat_lists in gated_of(game, node):
        if not all(_group_local(g, cost_types) for g in gates):
            return False
        for repeats in repeat_lists:
            for repeat in repeats:
                if repeat.get("scope") not in LOCAL_SCOPES or repeat.get("percent") \
                        or not _measure_local(repeat, cost_types):
                    return False
    return True


def _group_local(group: dict, cost_types) -> bool:
    if group.get("type", "and") not in ("and", "or"):
        return False
    for condition in group.get("conditions", []):
        kind, scope = condition.get("type"), condition.get("scope")
        if kind in ("instanceOf", "notInstanceOf"):
            if scope not in ("ancestor", "self", "parent"):
                return False
        elif scope not in LOCAL_SCOPES or condition.get("percent") or not _measure_local(condition, cost_types):
            return False
    return all(_group_local(g, cost_types) for g in group.get("groups", []))


def signature(container, roster) -> tuple:
    """What a local container's judgement reads (the module's docstring), as one comparable value."""
    above = []
    element = container.parent
    while element is not None and hasattr(element, "option"):   # the selections above, to the unit
        above.append((element, element.state.categories, element.state.name))
        element = element.parent
    below = tuple((s, s.amount, s.state.categories, s.state.primary, tuple(s.state.costs.items()),
                   s.state.name, s.state.hidden, s.uid, len(s.children)) for s in container.walk())
    one_force = len(roster.forces) == 1 and not roster.forces[0].forces
    return (container.number, container.uid, one_force, tuple(above), below)


def judge_container(validator, selection, kept: dict) -> None:
    """The Validator's judgement of a selection as a container (its `_container`), or the judgement of the
    last evaluation (`Roster.kept`) taken again where the container is local and what it reads is as it
    was; `kept` gathers this evaluation's for the next. Its errors are added as judging adds them (one
    limit seen from several containers is one error: `Error` equality)."""
    roster, game = validator.roster, validator.game
    options, groups = roster.options(selection), game.child_groups(selection.option)
    made = container_limits(game, options, groups)
    if not (made.entries or made.groups) or not local(game, made) or \
            (made.wide_caps and not made.wide_caps.keys().isdisjoint(validator._entries)):
        validator._container(selection, options, groups)
        return
    read = signature(selection, roster)
    found = roster.kept.get(selection)
    if found is None or found[0] != read:
        errors, unsupported = validator.errors, validator.unsupported
        validator.errors, validator.unsupported = [], []
        try:
            validator._container(selection, options, groups)
            found = (read, tuple(validator.errors), tuple(validator.unsupported))
        finally:
            validator.errors, validator.unsupported = errors, unsupported
    kept[selection] = found
    for error in found[1]:
        if error not in validator.errors:
            validator.errors.append(error)
    validator.unsupported.extend(found[2])
