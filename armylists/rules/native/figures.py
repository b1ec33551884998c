"""The figures a Report shows besides the points: what players count.

Every system gets the common ones; a system adds its own by naming a type of FIGURES in its
`figures:` list (Mordheim's warband rating).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from armylists.rules.native.army import Army
    from armylists.rules.native.book import System


def common_figures(army: "Army") -> dict[str, int]:
    """What every list shows: its units and models. The rest is the system's choice (`figures:`)."""
    return {"units": len(army.units), "models": sum([u.size for u in army.units])}


def characters(army: "Army", params: Mapping[str, Any]) -> int:
    return len([u for u in army.units if u.character])


def deployment_drops(army: "Army", params: Mapping[str, Any]) -> int:
    """Drops: every unit, but all Characters deploy as one and all War Machines as one (000:L289-295)."""
    units = army.units
    chars = len([u for u in units if u.character])
    machines = len([u for u in units if u.war_machine and not u.character])
    return len(units) - chars - machines + (1 if machines else 0) + (1 if chars else 0)


def wizards(army: "Army", params: Mapping[str, Any]) -> int:
    return len([u for u in army.units if u.wizard_level])


def wizard_levels(army: "Army", params: Mapping[str, Any]) -> int:
    return sum([u.wizard_level for u in army.units])


def warband_rating(army: "Army", params: Mapping[str, Any]) -> int:
    """Each model's worth plus its experience: 5 per warrior, 20 per large creature (Mordheim), or its
    entry's own worth in `by_entry` (a Hired Sword's: an Ogre Bodyguard adds 25)."""
    large = params.get("large_tag", "large-creature")
    own = params.get("by_entry", {})
    total = 0
    for unit in army.units:
        worth = own.get(unit.entry.id) or (params["per_large"] if large in unit.tags else params["per_model"])
        total += unit.size * (worth + unit.experience)
    return total


FIGURES: dict[str, Callable[["Army", Mapping[str, Any]], int]] = {
    "characters": characters,
    "deployment_drops": deployment_drops,
    "wizards": wizards,
    "wizard_levels": wizard_levels,
    "warband_rating": warband_rating,
}


COMMON_NAMES = {"units": "Units", "models": "Models"}


def figure_names(system: "System") -> dict[str, str]:
    """Each figure's name for people: the common ones, then the system's as its data names them."""
    return {**COMMON_NAMES, **{f.id: f.text for f in system.figures}}


def figures(army: "Army") -> dict[str, int]:
    found = common_figures(army)
    for figure in army.system.figures:
        found[figure.id] = FIGURES[figure.type](army, figure.params)
    return found
