"""A battle recorded on a stored warband, and the last one undone: each is one new revision.

`record_battle` opens the list, applies the post-battle sequence (the engine's, pure) with a fresh seed
unless the caller gives one, and saves the result over the revision it read; `undo_last_battle` saves
the document as it was before the last battle (its campaign's last record names that revision), as a
new revision, so history only grows. Both return None when another write landed first.

The list's kind says how it is a warband (lists/kinds.py: `campaign_warband`): one of our Mordheim books'
is its own document; a BSData Mordheim tree is read as one of ours (mordheim_campaign/trees.py,
rules_data/mordheim/campaign/bsdata.yaml), and its kind tells the outcome back as tree edits
(`campaign_settled`).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Mapping

from armylists.lists.library.catalogue import get_book
from armylists.lists.saved.stored import Loaded, Unavailable, load, save_edit
from armylists.models import ArmyList, ListRevision
from armylists.rules import Book, Report, Roster, parse_roster, roster_to_dict, validate
from armylists.rules.native.mordheim_campaign.aftermath import BattleError
from armylists.rules.native.mordheim_campaign.battle import Outcome, apply_battle, start_campaign
from armylists.rules.native.mordheim_campaign.trees import Projection

SEED_BITS = 48  # exact in JSON everywhere, and far more battles than anyone plays


class NotAWarband(Exception):
    """The list is no warband the campaign knows (a T9A army, a BSData warband whose catalogue is not mapped)."""


@dataclass(frozen=True)
class Recorded:
    loaded: Loaded
    report: Report
    outcome: Outcome | None = None
    log: tuple[str, ...] = ()  # the battle's log as the list names its warriors now (a tree's new lad by his id)
    summary: Mapping[str, Any] | None = None  # campaign_summary of the warband as saved


@dataclass(frozen=True)
class Campaigning:
    """A warband opened for its campaign: the stored list, and the warband as the post-battle sequence reads
    it (its kind's `campaign_warband`: our own document, or a BSData tree projected onto our book)."""
    loaded: Loaded
    warband: Projection
    book: Book  # our book the sequence reads (a tree's: the one bsdata.yaml maps its catalogue onto)
    roster: Roster  # the warband in our shape, of `book` (a native list's own roster)

    @property
    def document(self) -> dict[str, Any]:
        return self.warband.document

    def report(self) -> Report:
        """Our report of the warband (its `rating`, its campaign state's checks)."""
        return validate(self.book, self.roster)


def keeps_campaign(loaded: Loaded) -> bool:
    """Whether the list may record battles: a warband the campaign knows, as its kind says."""
    return loaded.kind is not None and loaded.kind.campaign_warband(loaded.book, loaded.roster) is not None


def open_warband(army_list: ArmyList) -> Campaigning:
    loaded = load(army_list)
    warband = loaded.kind.campaign_warband(loaded.book, loaded.roster) if loaded.kind is not None else None
    if warband is None:
        raise NotAWarband(loaded.kind.not_a_warband(loaded.book, loaded.roster) if loaded.kind is not None else
                          f"{loaded.book.name} keeps no campaign.")
    book = loaded.book if warband.book == loaded.book.id else get_book("mordheim", warband.book, warband.book_version)
    if book is None:
        raise Unavailable(f"Our book {warband.book} {warband.book_version}, which this warband's campaign reads, is "
                          f"not loaded.")
    roster = loaded.roster if warband.book == loaded.book.id else parse_roster(warband.document, f"list {army_list.pk}")
    return Campaigning(loaded, warband, book, roster)


def campaign_summary(document: Mapping[str, Any], report: Report) -> dict[str, Any]:
    """What the answer says of the campaign: rating, battles played and won, treasury, shards, stash."""
    campaign = document.get("campaign") or {}
    battles = campaign.get("battles", [])
    return {"rating": report.figures.get("rating"), "battles": len(battles),
            "won": sum(1 for b in battles if b.get("result") == "won"), "treasury": campaign.get("treasury", 0),
            "wyrdstone": campaign.get("wyrdstone", 0), "stash": campaign.get("stash", {})}


def _check_request(opened: Campaigning, battle: Mapping[str, Any]) -> None:
    """What a warband read from a tree cannot take, said before the sequence runs: a root selection that is
    no warrior of the campaign (BSData's Grade), an item bought onto a warrior (a tree's equipment is its
    own entries, chosen in the editor). An id of no selection at all the sequence refuses itself."""
    known = {u["id"] for u in opened.document["units"]}
    for uid in battle.get("models") or {}:
        named = next((n for n in opened.warband.not_read if n.split(":")[0].endswith(f"({uid})")), None)
        if uid not in known and named:
            raise BattleError(("models", uid), f"{named} is no warrior the campaign reads")
    if not opened.warband.buys_onto_units:
        for i, purchase in enumerate(battle.get("buy") or []):
            if purchase.get("unit"):
                raise BattleError(("buy", i, "unit"), "for a BSData warband an item is bought into the stash (no "
                                                      "unit): equip the warrior with it in the editor")


def _sequence(opened: Campaigning, battle: Mapping[str, Any], seed: int) -> Outcome:
    document = opened.document
    loaded = opened.loaded
    if "campaign" not in document:
        founding = loaded.kind.report(loaded.book, loaded.roster).total_points
        document = start_campaign(document, founding)
    _check_request(opened, battle)
    rating = opened.report().figures.get("rating", 0)
    return apply_battle(document, opened.book, battle, seed, rating)


def preview_battle(opened: Campaigning, battle: Mapping[str, Any], seed: int) -> Outcome:
    """The warband after `battle` with `seed`, nothing saved: what the step-by-step page shows before the
    battle is committed (the same seed then records the same battle), and what a campaign tries a side
    with. BattleError as record_battle's."""
    return _sequence(opened, battle, seed)


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def record_battle(army_list: ArmyList, battle: Mapping[str, Any], expected: int,
                  seed: int | None = None) -> Recorded | None:
    """The warband after `battle`, saved; BattleError for a battle that cannot be applied, NotAWarband,
    Unavailable; None when the stored list moved past `expected`."""
    opened = open_warband(army_list)
    loaded = opened.loaded
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    outcome = _sequence(opened, battle, seed)
    outcome.document["campaign"]["battles"][-1]["before"] = expected
    roster, log = loaded.kind.campaign_settled(loaded.book, loaded.roster, opened.warband, outcome.document,
                                               list(outcome.log))
    roster = parse_roster(roster_to_dict(roster), f"list {army_list.pk}")
    saved = save_edit(loaded, roster, expected)
    return None if saved is None else Recorded(saved[0], saved[1], outcome, tuple(log), _summary(saved[0], saved[1]))


def undo_last_battle(army_list: ArmyList, expected: int) -> Recorded | None:
    """The warband as it was before its last battle, saved as a new revision; BattleError when it has none."""
    loaded = open_warband(army_list).loaded
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
    return None if saved is None else Recorded(saved[0], saved[1], summary=_summary(saved[0], saved[1]))


def _summary(loaded: Loaded, report: Report) -> dict[str, Any]:
    """The campaign summary of a warband just saved: its rating from our report of it (a tree's own report,
    `report`, counts BSData's costs, not the campaign's rating)."""
    warband = loaded.kind.campaign_warband(loaded.book, loaded.roster)
    if warband is not None and warband.book != loaded.book.id:
        book = get_book("mordheim", warband.book, warband.book_version)
        if book is not None:
            report = validate(book, parse_roster(warband.document, f"list {loaded.army_list.pk}"))
    return campaign_summary(roster_to_dict(loaded.roster), report)


__all__ = ["BattleError", "Campaigning", "NotAWarband", "Recorded", "Unavailable", "campaign_summary", "keeps_campaign", "new_seed",
           "preview_battle", "record_battle", "undo_last_battle"]
