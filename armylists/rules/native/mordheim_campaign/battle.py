"""One battle's post-battle sequence applied to a warband document, in the rulebook's order:
injuries, experience (and advances), exploration, selling shards, buying (rarity rolls), upkeep.

`apply_battle(document, book, battle, seed, rating)` is pure: the same document, battle and seed give
the same new document, log and experience. `battle` is the request as plain data (the API's body):

    {"result": "won" | "lost" | "draw",
     "models": {"<unit id>": {"out_of_action": bool, "enemies_out_of_action": N, "scenario_experience": N,
                              "models_out_of_action": N}},
     "opponent_rating": N, "rolls": {"<purpose>": [dice...]}, "choices": {"<unit id>": {...}},
     "exploration": {"gold": N, "items": [...]}, "sell_shards": N,
     "buy": [{"item": id, "unit": id or null, "price": N, "rarity": N, "searcher": id}]}

Entered rolls are read per purpose: `injury:<unit>`, `advance:<unit>`, `exploration`, `rarity:<unit>`.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Mapping

from armylists.rules.native.book import Book
from armylists.rules.native.mordheim_campaign import state as st
from armylists.rules.native.mordheim_campaign.aftermath import (BattleError, Warband, gain_experience, injure, models)
from armylists.rules.native.mordheim_campaign.dice import Dice, DiceError
from armylists.rules.native.mordheim_campaign.tables import Tables, campaign_tables

RESULTS = ("won", "lost", "draw")


@dataclass(frozen=True)
class Outcome:
    document: dict[str, Any]
    log: tuple[str, ...]
    experience: Mapping[str, int]
    battle: Mapping[str, Any]


def start_campaign(document: Mapping[str, Any], founding_cost: int) -> dict[str, Any]:
    """The document with an empty campaign: the founding's unspent gold in the treasury, mode `campaign`."""
    doc = copy.deepcopy(dict(document))
    if "campaign" not in doc:
        left = max(0, doc["points_limit"] - founding_cost)
        doc["campaign"] = {"founding_gold": left, "treasury": left, "wyrdstone": 0}
    if "campaign" not in doc.get("modes", []):
        doc["modes"] = [*doc.get("modes", []), "campaign"]
    return doc


def apply_battle(document: Mapping[str, Any], book: Book, battle: Mapping[str, Any], seed: int | None,
                 rating: int, tables: Tables | None = None) -> Outcome:
    """The warband after `battle`; BattleError (with the request path) for what cannot be applied."""
    tables = tables or campaign_tables()
    doc = copy.deepcopy(dict(document))
    state = st.read_state(st.state_text(doc.get("campaign") or {}))
    assert state is not None
    doc["campaign"] = state
    _check_request(doc, battle)
    dice = Dice(seed, battle.get("rolls") or {})
    wb = Warband(doc, state, book, tables, dice, len(state["battles"]) + 1, choices=battle.get("choices") or {})
    result = battle["result"]
    wb.log.append(f"Battle {wb.number}: {result}.")
    try:
        _step_missed_games(wb, battle)
        reports = battle.get("models") or {}
        # 1. serious injuries, for every model put out of action
        for uid, report in reports.items():
            unit = wb.unit(uid)
            if unit is not None and report.get("out_of_action"):
                injure(wb, unit, report.get("models_out_of_action", models(unit)))
        # 2. experience, and the advances it earns
        _experience(wb, battle, rating)
        # 3. exploration; 4. selling shards; 6. rare items (rarity rolls) and common ones; upkeep
        found = _explore(wb, battle)
        gold_in, sold = _sell(wb, battle)
        gold_in += found
        gold_out = _buy(wb, battle) + _upkeep(wb)
    except DiceError as exc:
        raise BattleError(("rolls", exc.purpose), str(exc)) from None
    record = {"number": wb.number, "result": result, "seed": seed if dice.rolled_any else None, "rating": rating,
              "experience": dict(wb.experience), "gold_in": gold_in, "gold_out": gold_out,
              "shards_found": wb.shards_found, "shards_sold": sold, "log": list(wb.log)}
    if battle.get("opponent_rating") is not None:
        record["opponent_rating"] = battle["opponent_rating"]
    if wb.exploration:
        record["exploration"] = wb.exploration
    state["battles"].append(record)
    unused = dice.unused()
    if unused:
        raise BattleError(("rolls", next(iter(unused))), f"entered dice {unused[next(iter(unused))]} were not needed")
    return Outcome(doc, tuple(wb.log), dict(wb.experience), record)


def _check_request(doc: Mapping[str, Any], battle: Mapping[str, Any]) -> None:
    if battle.get("result") not in RESULTS:
        raise BattleError(("result",), f"must be one of {', '.join(RESULTS)}")
    ids = {u["id"] for u in doc["units"]}
    for uid in battle.get("models") or {}:
        if uid not in ids:
            raise BattleError(("models", uid), f"is no unit of this warband ({', '.join(sorted(ids))})")


def _step_missed_games(wb: Warband, battle: Mapping[str, Any]) -> None:
    """Warriors sitting this battle out count it off (a deep wound's D3 games, one for the rest)."""
    for uid, record in wb.state["warriors"].items():
        if record.get("state") == "misses-next-game" and uid not in (battle.get("models") or {}):
            left = max(0, record.get("games_to_miss", 1) - 1)
            record["games_to_miss"] = left
            if left == 0:
                record["state"] = "fit"
                record.pop("games_to_miss", None)


def _experience(wb: Warband, battle: Mapping[str, Any], rating: int) -> None:
    rules = wb.tables.data["experience"]
    reports = battle.get("models") or {}
    bonus = 0
    opponent = battle.get("opponent_rating")
    if opponent is not None and opponent > rating:
        bonus = wb.tables.underdog_bonus(opponent - rating)
    for unit in list(wb.units()):
        report = reports.get(unit["id"])
        if report is None or wb.unit(unit["id"]) is None:
            continue  # did not fight (missing the game), or lost to his injuries
        gained, why = rules["survived"], ["survived"]
        if battle["result"] == "won" and "leader" in wb.entry(unit).tags:
            gained, why = gained + rules["winning_leader"], why + ["winning leader"]
        kills = report.get("enemies_out_of_action", 0)
        if kills and wb.is_hero(unit):  # heroes only (mordheim-campaign.md section 1)
            gained, why = gained + kills * rules["per_enemy_out_of_action"], why + [f"{kills} put out of action"]
        if report.get("scenario_experience"):
            gained, why = gained + report["scenario_experience"], why + ["scenario"]
        if bonus:
            gained, why = gained + bonus, why + [f"underdog, {opponent - rating} below"]
        gain_experience(wb, unit, gained, why)


def _explore(wb: Warband, battle: Mapping[str, Any]) -> int:
    rules = wb.tables.exploration()
    reports = battle.get("models") or {}
    searchers = [u for u in wb.units() if wb.is_hero(u) and u["id"] in reports
                 and not reports[u["id"]].get("out_of_action")]
    count = min(rules["max_dice"], len(searchers) * rules["dice_per_hero"]
                + (rules["winner_dice"] if battle["result"] == "won" else 0))
    wb.shards_found, wb.exploration = 0, {}
    if count == 0:
        wb.log.append("Exploration: no hero left standing, no dice.")
        return 0
    dice = [wb.dice.d6("exploration") for _ in range(count)]
    total = sum(dice)
    wb.shards_found = wb.tables.shards_found(total)
    wb.state["wyrdstone"] += wb.shards_found
    wb.exploration = {"dice": dice}
    words = f"Exploration: {count} dice, {' '.join(map(str, dice))} = {total}: {wb.shards_found} shard" \
            f"{'s' if wb.shards_found != 1 else ''}"
    found = wb.tables.multiple(dice)
    if found:
        wb.exploration["result"] = found["id"]
        words += f"; {found['name']} ({'ones twos threes fours fives sixes'.split()[found['face'] - 1]} x{found['count']})"
    wb.log.append(words + ".")
    extra = battle.get("exploration") or {}
    for item in extra.get("items", []):
        wb.state["stash"][item] = wb.state["stash"].get(item, 0) + 1
        wb.log.append(f"Found {item}, into the stash.")
    gold = extra.get("gold", 0)
    if gold:
        wb.state["treasury"] += gold
        wb.log.append(f"Found {gold} gc.")
    return gold


def _warriors(wb: Warband) -> int:
    """Warriors for the shard price: heroes and henchmen, not Hired Swords (mordheim-campaign.md section 4)."""
    hired = wb.tables.track("hired-swords")["category"]
    return sum(models(u) for u in wb.units() if wb.entry(u).category != hired)


def _sell(wb: Warband, battle: Mapping[str, Any]) -> tuple[int, int]:
    shards = battle.get("sell_shards", 0)
    if not shards:
        return 0, 0
    if shards > wb.state["wyrdstone"]:
        raise BattleError(("sell_shards",), f"{shards} shards to sell, but the warband holds {wb.state['wyrdstone']}")
    warriors = _warriors(wb)
    gold = wb.tables.shard_price(shards, warriors)
    wb.state["wyrdstone"] -= shards
    wb.state["treasury"] += gold
    wb.log.append(f"Sold {shards} shard{'s' if shards != 1 else ''} ({warriors} warriors): {gold} gc.")
    return gold, shards


def _buy(wb: Warband, battle: Mapping[str, Any]) -> int:
    spent = 0
    searched: set[str] = set()
    reports = battle.get("models") or {}
    for i, purchase in enumerate(battle.get("buy") or []):
        path = ("buy", i)
        item, target = purchase["item"], purchase.get("unit")
        unit = wb.unit(target) if target else None
        if target and unit is None:
            raise BattleError((*path, "unit"), f"{target!r} is no unit of this warband")
        price = purchase.get("price")
        if price is None:
            option = wb.entry(unit).options.get(item) if unit else None
            if option is None:
                raise BattleError((*path, "price"), f"{item!r} is not on {wb.name(unit) if unit else 'any'} list: give its price")
            price = option.cost * (models(unit) if option.per_model else 1)
        if purchase.get("rarity") is not None:
            searcher = purchase.get("searcher")
            hero = wb.unit(searcher) if searcher else None
            if hero is None or not wb.is_hero(hero) or reports.get(searcher, {}).get("out_of_action"):
                raise BattleError((*path, "searcher"), "a rare item is looked for by a hero of the warband who was "
                                                       "not put out of action")
            if searcher in searched:
                raise BattleError((*path, "searcher"), f"{wb.name(hero)} has already looked for a rare item this time")
            searched.add(searcher)
            roll = wb.dice.two_d6(f"rarity:{searcher}")
            if roll < purchase["rarity"]:
                wb.log.append(f"{wb.name(hero)} looks for {item} (rare {purchase['rarity']}): 2D6 {roll}, not found.")
                continue
            wb.log.append(f"{wb.name(hero)} looks for {item} (rare {purchase['rarity']}): 2D6 {roll}, found.")
        held = wb.state["treasury"]
        if price > held:
            raise BattleError((*path, "price"), f"{item} costs {price} gc; the treasury holds {held} gc")
        spent += price
        wb.state["treasury"] -= price
        if unit is not None:
            options = unit.setdefault("options", {})
            options[item] = options.get(item, 0) + 1
            wb.doc["points_limit"] += price  # the gold moved from the treasury into the warband's worth
            wb.log.append(f"Bought {item} for {wb.name(unit)}: {price} gc.")
        else:
            wb.state["stash"][item] = wb.state["stash"].get(item, 0) + 1
            wb.log.append(f"Bought {item} into the stash: {price} gc.")
    return spent


def _upkeep(wb: Warband) -> int:
    """Each Hired Sword's upkeep; one the treasury cannot pay leaves (mordheim-campaign.md section 8)."""
    paid = 0
    for unit in list(wb.units()):
        due = wb.tables.data["upkeep"]["by_entry"].get(unit["entry"])
        if due is None:
            continue
        if wb.state["treasury"] < due:
            wb.remove(unit, f"upkeep of {due} gc not paid")
            wb.log.append(f"{wb.name(unit)} leaves: {due} gc upkeep not paid.")
            continue
        paid += due
        wb.state["treasury"] -= due
        wb.log.append(f"Upkeep for {wb.name(unit)}: {due} gc.")
    return paid
