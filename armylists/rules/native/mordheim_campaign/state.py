"""A warband's campaign state as its list document keeps it (`campaign`, docs/list-format.md).

The Roster holds it as canonical JSON text (roster.py); `read_state` gives it back as plain data with
every default filled in, `state_text` writes it back the same way, so a document read and written again
is the same document. Experience itself stays on each unit (`experience`), as before campaigns.
"""
from __future__ import annotations

import copy
import json
from typing import Any, Mapping

CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
EMPTY_WARRIOR: Mapping[str, Any] = {"advances": [], "injuries": [], "state": "fit"}


def read_state(campaign: str | None) -> dict[str, Any] | None:
    """The campaign state of a Roster's `campaign` text, or None for a warband that has none yet."""
    if campaign is None:
        return None
    state = json.loads(campaign)
    state.setdefault("treasury", 0)
    state.setdefault("founding_gold", state["treasury"] if not state.get("battles") else 0)
    state.setdefault("wyrdstone", 0)
    state.setdefault("stash", {})
    state.setdefault("warriors", {})
    state.setdefault("fallen", [])
    state.setdefault("battles", [])
    return state


def state_text(state: Mapping[str, Any]) -> str:
    """The canonical text a Roster keeps (sorted keys, no spaces): equal states, equal text."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def warrior(state: Mapping[str, Any], unit_id: str) -> dict[str, Any]:
    """A warrior's record, the empty one when the campaign has none for it yet (a copy either way)."""
    found = state.get("warriors", {}).get(unit_id)
    merged = {**copy.deepcopy(dict(EMPTY_WARRIOR)), **copy.deepcopy(found or {})}
    return merged


def gains(record: Mapping[str, Any]) -> dict[str, int]:
    """The characteristic increases the warrior's advances gave."""
    out: dict[str, int] = {}
    for advance in record.get("advances", ()):
        if advance.get("gain"):
            out[advance["gain"]] = out.get(advance["gain"], 0) + 1
    return out


def injury_changes(record: Mapping[str, Any], injury_rows: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """The characteristic changes the warrior's serious injuries made (leg wound -1 M...), by the injury
    ids of the chart (`injury_rows`: id -> row, follow-ups included)."""
    out: dict[str, int] = {}
    for injury in record.get("injuries", ()):
        for key in (injury.get("id"), injury.get("follow_up")):
            row = injury_rows.get(key) if key else None
            for name, change in ((row or {}).get("effect", {}).get("characteristics", {}) or {}).items():
                out[name] = out.get(name, 0) + change
    return out


def battle_experience(state: Mapping[str, Any], unit_id: str) -> int:
    """The experience the battles' log gives the warrior."""
    return sum(b.get("experience", {}).get(unit_id, 0) for b in state.get("battles", ()))


def battles_played(state: Mapping[str, Any]) -> tuple[int, int]:
    """Battles played and won."""
    battles = state.get("battles", ())
    return len(battles), sum(1 for b in battles if b.get("result") == "won")
