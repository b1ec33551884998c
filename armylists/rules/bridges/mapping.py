"""How a BattleScribe game system's data names what our system's rules ask about:
rules_data/battlescribe_systems.yaml, schema-checked against
rules_data/schema/battlescribe-systems.schema.json.

    mapping = load_mappings(RULES_DATA_DIR).find(game.system)        # a SystemMapping, or None

A game system is matched by its id, else by its name. Its mapping says which of our systems it plays,
the entries that make a selection the General or the Battle Standard Bearer, the entry names that give
a selection one of our tags (Mordheim's Leader), the groups whose members are magic items, its
categories as our ids, where its profiles give a troop type, and which of our rules the data says
itself (those are not said again on its trees). Pure Python: the loader reads one YAML file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from armylists.rules.reading.data_files import check_schema, read_yaml

MAPPING_FILE = "battlescribe_systems.yaml"


@dataclass(frozen=True)
class SystemMapping:
    """One BattleScribe game system and how its data names what our system's rules ask about."""
    battlescribe_id: str
    name: str
    system: str                                   # our system id: t9a-0.11, t9a-2, the-old-world, mordheim
    general: frozenset[str] = frozenset()         # entry names that make a selection the General
    battle_standard: frozenset[str] = frozenset()
    item_groups: frozenset[str] = frozenset()     # groups whose members are magic items
    repeatable_item_groups: frozenset[str] = frozenset()
    categories: Mapping[str, str] = field(default_factory=dict)   # BattleScribe category name -> our id
    # our tag -> the entry or category names that give a unit it ("leader": Mordheim's warband leaders)
    tags: Mapping[str, frozenset[str]] = field(default_factory=dict)
    troop_type_characteristic: str = ""           # the profiles' characteristic naming a troop type
    troop_types: Mapping[str, str] = field(default_factory=dict)  # its value (plain, see troop_key) -> our id
    data_says: Mapping[str, str] = field(default_factory=dict)    # our rule id -> where the data says it

    def names_of_tag(self, tag: str) -> frozenset[str]:
        return self.tags.get(tag, frozenset())


def troop_key(value: str) -> str:
    """A troop type as the data writes it, plainly: "Heavy infantry (character)" -> "heavy infantry"."""
    return re.sub(r"\s+", " ", re.sub(r"\(.*$", "", value)).strip().lower()


@dataclass(frozen=True)
class Mappings:
    systems: tuple[SystemMapping, ...]

    def find(self, game_system: Mapping) -> SystemMapping | None:
        """The mapping of a game system document (plain dict with `id` and `name`): by id, else by name."""
        by_id = [m for m in self.systems if m.battlescribe_id == game_system.get("id")]
        if by_id:
            return by_id[0]
        return next((m for m in self.systems if m.name == game_system.get("name")), None)


@lru_cache(maxsize=4)
def load_mappings(root: Path) -> Mappings:
    """rules_data/battlescribe_systems.yaml, schema-checked (a RulesDataError names the file and path);
    read once per root."""
    path = Path(root) / MAPPING_FILE
    source = f"{Path(root).name}/{MAPPING_FILE}"
    data = read_yaml(path, source)
    check_schema("battlescribe-systems", data, source)
    return Mappings(tuple(_mapping(m) for m in data["systems"]))


def _mapping(m: dict) -> SystemMapping:
    troops = m.get("troop_types", {})
    return SystemMapping(
        battlescribe_id=m["battlescribe_id"], name=m["name"], system=m["system"],
        general=frozenset(m.get("general", ())), battle_standard=frozenset(m.get("battle_standard", ())),
        item_groups=frozenset(m.get("item_groups", ())),
        repeatable_item_groups=frozenset(m.get("repeatable_item_groups", ())),
        categories=dict(m.get("categories", {})),
        tags={tag: frozenset(names) for tag, names in m.get("tags", {}).items()},
        troop_type_characteristic=troops.get("characteristic", ""),
        troop_types={troop_key(value): ours for value, ours in troops.get("values", {}).items()},
        data_says=dict(m.get("data_says", {})))
