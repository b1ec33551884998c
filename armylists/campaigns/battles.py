"""A battle recorded on a stored warband, and the last one undone: each is one new revision.

`record_battle` opens the list, applies the post-battle sequence (the engine's, pure) with a fresh seed
unless the caller gives one, and saves the result over the revision it read; `undo_last_battle` saves
the document as it was before the last battle (its campaign's last record names that revision), as a
new revision, so history only grows. Both return None when another write landed first.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Mapping

from armylists.lists.saved.stored import Loaded, Unavailable, load, save_edit
from armylists.models import ArmyList, ListRevision
from armylists.rules import Report, parse_roster, roster_to_dict, validate
from armylists.rules.native.mordheim_campaign.aftermath import BattleError
from armylists.rules.native.mordheim_campaign.battle import Outcome, apply_battle, start_campaign
from armylists.rules.native.mordheim_campaign.tables import campaign_tables

SEED_BITS = 48  # exact in JSON everywhere, and far more battles than anyone plays


class NotAWarband(Exception):
    """The list is no warband of a book the campaign tables know (a T9A army, a roster tree)."""


@dataclass(frozen=True)
class Recorded:
    loaded: Loaded
    report: Report
    outcome: Outcome | None = None


def keeps_campaign(loaded: Loaded) -> bool:
    """Whether the list may record battles: a warband of one of our books the campaign tables know
    (a roster tree, BSData's Mordheim, keeps none yet: its kind says so, the document is not asked)."""
    return loaded.kind is not None and loaded.kind.name == "native" and campaign_tables().has_warband(loaded.roster.book)


def open_warband(army_list: ArmyList) -> Loaded:
    loaded = load(army_list)
    roster = loaded.roster
    if not keeps_campaign(loaded):
        raise NotAWarband(f"Battles are recorded for Mordheim warbands of our books; {loaded.book.name} is not one "
                          f"the campaign tables know.")
    return loaded


def campaign_summary(document: Mapping[str, Any], report: Report) -> dict[str, Any]:
    """What the answer says of the campaign: rating, battles played and won, treasury, shards, stash."""
    campaign = document.get("campaign") or {}
    battles = campaign.get("battles", [])
    return {"rating": report.figures.get("rating"), "battles": len(battles),
            "won": sum(1 for b in battles if b.get("result") == "won"), "treasury": campaign.get("treasury", 0),
            "wyrdstone": campaign.get("wyrdstone", 0), "stash": campaign.get("stash", {})}


def preview_battle(loaded: Loaded, battle: Mapping[str, Any], seed: int) -> Outcome:
    """The warband after `battle` with `seed`, nothing saved: what the step-by-step page shows before the
    battle is committed (the same seed then records the same battle), and what a campaign tries a side
    with. BattleError as record_battle's."""
    document = roster_to_dict(loaded.roster)
    before = validate(loaded.book, loaded.roster)
    if "campaign" not in document:
        document = start_campaign(document, before.total_points)
    return apply_battle(document, loaded.book, battle, seed, before.figures.get("rating", 0))


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def record_battle(army_list: ArmyList, battle: Mapping[str, Any], expected: int,
                  seed: int | None = None) -> Recorded | None:
    """The warband after `battle`, saved; BattleError for a battle that cannot be applied, NotAWarband,
    Unavailable; None when the stored list moved past `expected`."""
    loaded = open_warband(army_list)
    document = roster_to_dict(loaded.roster)
    before = validate(loaded.book, loaded.roster)
    if "campaign" not in document:
        document = start_campaign(document, before.total_points)
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    outcome = apply_battle(document, loaded.book, battle, seed, before.figures.get("rating", 0))
    outcome.document["campaign"]["battles"][-1]["before"] = expected
    roster = parse_roster(outcome.document, f"list {army_list.pk}")
    saved = save_edit(loaded, roster, expected)
    return None if saved is None else Recorded(saved[0], saved[1], outcome)


def undo_last_battle(army_list: ArmyList, expected: int) -> Recorded | None:
    """The warband as it was before its last battle, saved as a new revision; BattleError when it has none."""
    loaded = open_warband(army_list)
    battles = (roster_to_dict(loaded.roster).get("campaign") or {}).get("battles", [])
    if not battles:
        raise BattleError(("battles",), "the warband has no battle to undo")
    revision = battles[-1].get("before")
    stored = ListRevision.objects.filter(army_list=army_list, revision=revision).first() if revision else None
    if stored is None:
        raise BattleError(("battles",), f"battle {battles[-1]['number']} was not recorded here; its revision before is "
                                        f"not in the list's history")
    roster = parse_roster(stored.document, f"list {army_list.pk} revision {revision}")
    saved = save_edit(loaded, roster, expected)
    return None if saved is None else Recorded(saved[0], saved[1])


__all__ = ["BattleError", "NotAWarband", "Recorded", "Unavailable", "campaign_summary", "keeps_campaign", "new_seed",
           "preview_battle", "record_battle", "undo_last_battle"]
