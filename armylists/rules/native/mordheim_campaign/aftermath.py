"""The post-battle sequence's first two steps: serious injuries, then experience and advances.

Works on a `Warband` (the document being changed, its campaign state, the book, the tables, the dice and
the log); battle.py runs the steps in the rulebook's order. Every table lookup is the data's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from armylists.rules.native.book import Book
from armylists.rules.native.mordheim_campaign import state as st
from armylists.rules.native.mordheim_campaign.dice import Dice
from armylists.rules.native.mordheim_campaign.tables import Tables

MAX_REROLLS = 30  # a henchman's capped re-rolls and a full warband's talents re-roll; bounded all the same


class BattleError(ValueError):
    """A battle that cannot be applied as given: `path` is where in the request, the message says why."""

    def __init__(self, path: tuple, message: str) -> None:
        super().__init__(message)
        self.path, self.message = path, message


@dataclass
class Warband:
    doc: dict[str, Any]
    state: dict[str, Any]
    book: Book
    tables: Tables
    dice: Dice
    number: int
    log: list[str] = field(default_factory=list)
    experience: dict[str, int] = field(default_factory=dict)
    choices: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # per unit: skill, characteristic, lists
    shards_found: int = 0
    exploration: dict[str, Any] = field(default_factory=dict)  # the kept dice and the chart's result

    def units(self) -> list[dict[str, Any]]:
        return self.doc["units"]

    def unit(self, uid: str) -> dict[str, Any] | None:
        return next((u for u in self.doc["units"] if u["id"] == uid), None)

    def entry(self, unit: Mapping[str, Any]):
        return self.book.entries[unit["entry"]]

    def record(self, uid: str) -> dict[str, Any]:
        """The warrior's campaign record, kept in the state from now on."""
        warriors = self.state["warriors"]
        if uid not in warriors:
            warriors[uid] = st.warrior(self.state, uid)
        return warriors[uid]

    def name(self, unit: Mapping[str, Any]) -> str:
        return f"{self.entry(unit).name} ({unit['id']})"

    def is_hero(self, unit: Mapping[str, Any]) -> bool:
        return bool(self.entry(unit).character or self.state["warriors"].get(unit["id"], {}).get("hero"))

    def track(self, unit: Mapping[str, Any]) -> str | None:
        return self.tables.track_of(self.entry(unit).category, bool(self.state["warriors"].get(unit["id"], {}).get("hero")))

    def reading(self, unit: Mapping[str, Any]) -> Mapping[str, Any]:
        return self.tables.warrior(self.doc["book"], unit["entry"]) or {}

    def remove(self, unit: Mapping[str, Any], why: str) -> None:
        self.doc["units"] = [u for u in self.doc["units"] if u["id"] != unit["id"]]
        self.state["warriors"].pop(unit["id"], None)
        self.state["fallen"].append({"unit": unit["id"], "entry": unit["entry"], "name": self.entry(unit).name,
                                     "battle": self.number, "why": why})


def models(unit: Mapping[str, Any]) -> int:
    return unit.get("size", 1)


# --- 1. serious injuries -------------------------------------------------------------------------

def injure(wb: Warband, unit: dict[str, Any], down: int) -> None:
    """Roll for a unit put out of action: a hero on the D66 chart, `down` henchmen a D6 each."""
    if wb.is_hero(unit):
        _hero_injury(wb, unit)
        return
    lost = 0
    for i in range(min(down, models(unit))):
        roll = wb.dice.d6(f"injury:{unit['id']}")
        row = wb.tables.injury("henchmen", roll)
        if row.get("effect", {}).get("state") == "dead":
            lost += 1
        wb.log.append(f"{wb.name(unit)}: one out of action, D6 {roll}: {row['name']}.")
    if lost >= models(unit):
        wb.remove(unit, f"all {models(unit)} lost to injuries")
        wb.log.append(f"{wb.name(unit)} is gone: every member was lost.")
    elif lost:
        unit["size"] = models(unit) - lost


def _hero_injury(wb: Warband, unit: dict[str, Any], in_multiple: bool = False) -> bool:
    """One D66 result applied; True when the hero is dead (nothing more to roll for him)."""
    purpose = f"injury:{unit['id']}"
    for _ in range(MAX_REROLLS):
        roll = wb.dice.d66(purpose)
        row = wb.tables.injury("heroes", roll)
        if not (in_multiple and row["id"] in wb.tables.injury_rerolls()):
            break
        wb.log.append(f"{wb.name(unit)}: D66 {roll}, {row['name']}, rolled again (multiple injuries).")
    record = wb.record(unit["id"])
    injury: dict[str, Any] = {"id": row["id"], "roll": roll, "battle": wb.number}
    words = f"{wb.name(unit)} out of action: D66 {roll}, {row['name']}"
    effect = dict(row.get("effect", {}))
    if "sub_roll" in row:
        sub = wb.dice.d6(purpose)
        follow = wb.tables.sub_result(row, sub)
        injury["follow_up"] = follow["id"]
        effect.update(follow.get("effect", {}))
        words += f"; D6 {sub}: {follow['name']}"
    record["injuries"].append(injury)
    if effect.get("state") == "dead":
        wb.log.append(words + ": dead, his equipment lost.")
        wb.remove(unit, f"{row['name']} (D66 {roll})")
        return True
    if effect.get("state") == "captured":
        record["state"] = "captured"
    if effect.get("lose_equipment"):
        unit.pop("options", None)
        words += ", all his equipment lost"
    for change, value in effect.get("characteristics", {}).items():
        words += f", {value:+d} {change}"
    if effect.get("gains"):
        record.setdefault("gains", []).extend(effect["gains"])
    if effect.get("miss_games"):
        games = effect["miss_games"] if isinstance(effect["miss_games"], int) else wb.dice.d3(purpose)
        record["state"], record["games_to_miss"] = "misses-next-game", max(record.get("games_to_miss", 0), games)
        words += f", misses the next {games if games > 1 else ''}{' games' if games > 1 else 'game'}"
    if effect.get("experience"):
        unit["experience"] = unit.get("experience", wb.entry(unit).experience or 0) + effect["experience"]
        wb.experience[unit["id"]] = wb.experience.get(unit["id"], 0) + effect["experience"]
        words += f", +{effect['experience']} XP"
    wb.log.append(words + ".")
    if effect.get("multiple"):
        times = wb.dice.roll(effect["multiple"], purpose)
        wb.log.append(f"{wb.name(unit)}: multiple injuries, {times} more rolls.")
        for _ in range(times):
            if _hero_injury(wb, unit, in_multiple=True):
                return True
    return False


# --- 2. experience and advances ------------------------------------------------------------------

def gain_experience(wb: Warband, unit: dict[str, Any], gained: int, reasons: list[str]) -> None:
    if gained <= 0 or wb.reading(unit).get("experience") is False:
        return
    before = unit.get("experience", wb.entry(unit).experience or 0)
    unit["experience"] = before + gained
    wb.experience[unit["id"]] = wb.experience.get(unit["id"], 0) + gained
    wb.log.append(f"{wb.name(unit)}: +{gained} XP ({', '.join(reasons)}), {unit['experience']} in all.")
    track = wb.track(unit)
    if track is None:
        return
    for mark in wb.tables.advances_earned(track, before, unit["experience"]):
        table = wb.tables.track(track)["table"]
        if table == "heroes":
            hero_advance(wb, unit, mark)
        else:
            henchman_advance(wb, unit, mark)
        if wb.unit(unit["id"]) is None or wb.track(unit) != track:
            return  # gone, or made a hero (a group of one): his heroes' track starts at his experience now


def _profile_value(wb: Warband, unit: Mapping[str, Any], name: str) -> int | None:
    profiles = wb.entry(unit).profiles
    base = profiles[0].get(name) if profiles else None
    if not isinstance(base, int):
        return None
    return base + st.gains(wb.record(unit["id"])).get(name, 0)


def _room(wb: Warband, unit: Mapping[str, Any], name: str) -> bool:
    """Whether a hero's `name` may still rise (below the race maximum; no maxima known: yes)."""
    maxima = wb.tables.maxima(wb.reading(unit).get("race", ""))
    value = _profile_value(wb, unit, name)
    return maxima is None or value is None or value < maxima[name]


def hero_advance(wb: Warband, unit: dict[str, Any], mark: int, talent: bool = False) -> None:
    purpose = f"advance:{unit['id']}"
    roll = wb.dice.two_d6(purpose)
    row = wb.tables.advance("heroes", roll)
    advance: dict[str, Any] = {"at": mark, "battle": wb.number}
    if talent:
        advance["talent"] = True
    choice = wb.choices.get(unit["id"], {})
    if row["result"] == "skill":
        skill = _pick_skill(wb, unit, choice.get("skill"))
        if skill is None:
            wb.log.append(f"{wb.name(unit)}: advance at {mark} XP, 2D6 {roll}: {row['name']}, none left to take.")
            return
        advance["skill"] = skill
        wb.log.append(f"{wb.name(unit)}: advance at {mark} XP, 2D6 {roll}: {row['name']}, {skill}.")
    else:
        pair = list(row.get("choose") or [])
        if "sub_roll" in row:
            sub = wb.dice.d6(purpose)
            advance["sub_roll"] = sub
            first = wb.tables.sub_result(row, sub)["gain"]
            pair = [first] + [s["gain"] for s in row["sub_roll"] if s["gain"] != first]
        elif choice.get("characteristic") in pair:
            pair.remove(choice["characteristic"])
            pair.insert(0, choice["characteristic"])
        # At the race maximum: the other of the pair; both at maximum, any other that has room (2005 errata).
        gain = next((c for c in pair if _room(wb, unit, c)), None) or next(
            (c for c in st.CHARACTERISTICS if _room(wb, unit, c)), None)
        if gain is None:
            wb.log.append(f"{wb.name(unit)}: advance at {mark} XP, 2D6 {roll}: every characteristic at its maximum.")
            return
        advance["gain"] = gain
        wb.log.append(f"{wb.name(unit)}: advance at {mark} XP, 2D6 {roll}"
                      f"{', D6 ' + str(advance['sub_roll']) if 'sub_roll' in advance else ''}: +1 {gain}.")
    advance["roll"] = roll
    wb.record(unit["id"])["advances"].append(advance)


def _pick_skill(wb: Warband, unit: Mapping[str, Any], wanted: str | None) -> str | None:
    record = wb.record(unit["id"])
    lists = record.get("skill_lists") or wb.reading(unit).get("skills") or []
    allowed = [s for name in lists for s in wb.tables.skill_list(name)]
    known = {a.get("skill") for a in record["advances"]}
    if wanted:
        if wanted not in allowed:
            raise BattleError(("choices", unit["id"], "skill"),
                              f"{wb.name(unit)} may not take {wanted!r}: it is on none of its lists ({', '.join(lists)})")
        return wanted
    return next((s for s in allowed if s not in known), None)


def heroes_now(wb: Warband) -> int:
    return sum(models(u) for u in wb.units() if wb.is_hero(u))


def henchman_advance(wb: Warband, unit: dict[str, Any], mark: int, talent_taken: bool = False) -> None:
    purpose = f"advance:{unit['id']}"
    rules = wb.tables.henchman_rules()
    record = wb.record(unit["id"])
    choice = wb.choices.get(unit["id"], {})
    for _ in range(MAX_REROLLS):
        roll = wb.dice.two_d6(purpose)
        row = wb.tables.advance("henchmen", roll)
        if row["result"] == "talent":
            if talent_taken:  # the rest of a group whose lad became a hero re-roll any 10-12 (Annual 2002 errata)
                wb.log.append(f"{wb.name(unit)}: 2D6 {roll}, {row['name']} again: rolled again.")
                continue
            if heroes_now(wb) >= rules["hero_limit"]:
                wb.log.append(f"{wb.name(unit)}: 2D6 {roll}, {row['name']}, but the warband has "
                              f"{rules['hero_limit']} heroes: rolled again.")
                continue
            _talent(wb, unit, mark, roll, choice)
            return
        options = list(row.get("choose") or [row["gain"]])
        if choice.get("characteristic") in options:
            options.remove(choice["characteristic"])
            options.insert(0, choice["characteristic"])
        raised = st.gains(record)
        gain = next((c for c in options if raised.get(c, 0) < rules["gain_cap"]), None)
        if gain is None:
            wb.log.append(f"{wb.name(unit)}: 2D6 {roll}, {row['name']}, already raised: rolled again.")
            continue
        record["advances"].append({"at": mark, "roll": roll, "gain": gain, "battle": wb.number})
        wb.log.append(f"{wb.name(unit)}: advance at {mark} XP, 2D6 {roll}: +1 {gain} for the whole group.")
        return
    wb.log.append(f"{wb.name(unit)}: no advance found after {MAX_REROLLS} rolls.")


def _talent(wb: Warband, unit: dict[str, Any], mark: int, roll: int, choice: Mapping[str, Any]) -> None:
    """The lad's got talent: one member becomes a hero with two skill lists of the warband's heroes, and
    rolls once on the heroes' table; the rest of a larger group re-roll (10-12 again re-rolled)."""
    rules = wb.tables.henchman_rules()
    lists: list[str] = []
    for other in wb.units():
        if wb.entry(other).character:
            lists += [n for n in wb.reading(other).get("skills", []) if n not in lists]
    picked = [n for n in choice.get("skill_lists", []) if n in lists][: rules["talent_skill_lists"]]
    picked += [n for n in lists if n not in picked][: rules["talent_skill_lists"] - len(picked)]
    record = wb.record(unit["id"])
    if models(unit) == 1:
        lad = unit
    else:
        unit["size"] = models(unit) - 1
        # a new id, never one the campaign has known (a fallen lad's id keeps his battles' experience)
        taken = {u["id"] for u in wb.units()} | set(wb.state["warriors"]) | {f["unit"] for f in wb.state["fallen"]} \
            | {uid for b in wb.state["battles"] for uid in b.get("experience", {})}
        lad_id = next(f"{unit['id']}-lad{n}" for n in range(1, 100) if f"{unit['id']}-lad{n}" not in taken)
        lad = {k: v for k, v in unit.items() if k not in ("size", "id")}
        lad = {"id": lad_id, **lad}
        wb.doc["units"].append(lad)
        wb.state["warriors"][lad_id] = {"advances": [dict(a) for a in record["advances"]], "injuries": [], "state": "fit"}
    lad_record = wb.record(lad["id"])
    # He keeps the group's characteristic gains (marked inherited: they are no advance of his hero track).
    inherited = [{"at": a["at"], "gain": a["gain"], "inherited": True} for a in lad_record["advances"] if a.get("gain")]
    # His hero track starts at his experience now (`promoted_at`); a lad split from his group starts the
    # experience ledger there too (the battles' log has nothing under his new id), a group of one keeps his.
    lad_record.update(hero=True, skill_lists=picked, promoted_at=lad.get("experience", 0), advances=inherited)
    if lad is not unit:
        lad_record["starting_experience"] = lad.get("experience", 0)
    wb.log.append(f"{wb.name(unit)}: advance at {mark} XP, 2D6 {roll}: the lad's got talent! {lad['id']} becomes a "
                  f"hero ({', '.join(picked)}).")
    hero_advance(wb, lad, lad_record["promoted_at"], talent=True)
    if lad is not unit:
        henchman_advance(wb, unit, mark, talent_taken=True)
