"""A campaign of several players (issue 41 item 5): created by anyone, joined with its code, warbands
entered, battles recorded once for both warbands, and the standings.

A battle is entered by one player with their side (the battle as the API's body has it, from their
warband's view) and is pending until the other warband's player confirms theirs; then the post-battle
sequence (campaigns/battles.py) is applied to both warbands in one transaction, each given the other's
rating before the battle (the underdog bonus reads it). A side whose result contradicts the first
("won" against "won") is not accepted and is said to both; either player may refuse a pending battle.
Pages and the API call these functions; they raise CampaignError with a sentence for the player.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any, Mapping

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from armylists.campaigns.battles import (BattleError, NotAWarband, Unavailable, campaign_summary, open_warband,
                                         preview_battle, record_battle)
from armylists.exports.pdf_standings import StandingRow, Standings, render_standings
from armylists.campaigns.models import Campaign, CampaignBattle, CampaignWarband
from armylists.models import ArmyList
from armylists.rules import validate

# What the other side must have said for the two entries to be the same battle.
OPPOSITE = {"won": "lost", "lost": "won", "draw": "draw"}
WORDS = {"won": "a win", "lost": "a loss", "draw": "a draw"}


class CampaignError(Exception):
    """A campaign action refused, in a sentence for the player (a page's message, the API's 400/409)."""

    def __init__(self, message: str, conflict: bool = False) -> None:
        super().__init__(message)
        self.message, self.conflict = message, conflict


# --- membership -------------------------------------------------------------------------------------

def create_campaign(owner, name: str) -> Campaign:
    return Campaign.objects.create(owner=owner, name=name.strip())


def campaigns_of(user):
    """The campaigns `user` runs or has a warband in, newest first."""
    return Campaign.objects.filter(Q(owner=user) | Q(warbands__player=user)).distinct().select_related("owner")


def campaign_for(user, pk: int) -> Campaign | None:
    """The campaign if `user` runs it or plays in it (anybody else finds nothing: its code is its door)."""
    return campaigns_of(user).filter(pk=pk).first() if user.is_authenticated else None


def by_code(code: str) -> Campaign | None:
    return Campaign.objects.filter(join_code=code.strip().lower()).first() if code.strip() else None


def warbands_to_enter(user, campaign: Campaign | None = None) -> list[ArmyList]:
    """The user's Mordheim lists not yet in `campaign` (whether one keeps a campaign is asked on entry)."""
    lists = ArmyList.objects.filter(owner=user, system="mordheim")
    if campaign is not None:
        lists = lists.exclude(campaign_entries__campaign=campaign)
    return list(lists.only("pk", "name", "book"))


def enter_warband(campaign: Campaign, user, army_list: ArmyList) -> CampaignWarband:
    """`army_list`, one of `user`'s warbands, entered into `campaign` (joining it, if it is their first)."""
    if army_list.owner_id != user.pk:
        raise CampaignError("Only your own warbands can be entered.")
    try:
        open_warband(army_list)
    except (NotAWarband, Unavailable) as exc:
        raise CampaignError(str(exc)) from None
    entry, made = CampaignWarband.objects.get_or_create(campaign=campaign, army_list=army_list,
                                                        defaults={"player": user})
    if not made:
        raise CampaignError(f"“{army_list.name}” is already in {campaign.name}.")
    return entry


# --- battles ----------------------------------------------------------------------------------------

def _rating(army_list: ArmyList) -> int:
    loaded = open_warband(army_list)
    return validate(loaded.book, loaded.roster).figures.get("rating", 0) or 0


def _try_side(entry: CampaignWarband, side: Mapping[str, Any]) -> None:
    """Apply the side to a copy of the warband now (a fixed seed, nothing saved), so a side naming a unit
    the warband has not, or dice off a table, is refused when entered and not when the other confirms."""
    try:
        preview_battle(open_warband(entry.army_list), side, 0)
    except BattleError as exc:
        raise CampaignError(f"{entry.army_list.name}: {exc.message}") from None
    except (NotAWarband, Unavailable) as exc:
        raise CampaignError(str(exc)) from None


def enter_battle(campaign: Campaign, user, mine: CampaignWarband, theirs: CampaignWarband,
                 side: Mapping[str, Any]) -> CampaignBattle:
    """A pending battle of `mine` (the user's) against `theirs`, the user's side confirmed."""
    if mine.campaign_id != campaign.pk or theirs.campaign_id != campaign.pk:
        raise CampaignError("Both warbands must be in this campaign.")
    if mine.player_id != user.pk:
        raise CampaignError("You enter a battle for one of your own warbands.")
    if mine.pk == theirs.pk:
        raise CampaignError("A warband does not fight itself: choose its opponent.")
    _try_side(mine, side)
    return CampaignBattle.objects.create(campaign=campaign, first=mine, second=theirs, first_side=dict(side))


def confirm_battle(battle: CampaignBattle, user, side: Mapping[str, Any]) -> CampaignBattle:
    """The second player's side: when its result agrees, the battle is applied to both warbands (one
    transaction: both or neither); a contradicting result is kept as the battle's note and refused."""
    battle = CampaignBattle.objects.select_related("first__army_list", "second__army_list").get(pk=battle.pk)
    if battle.second.player_id != user.pk:
        raise CampaignError("Only the other warband's player confirms this battle.")
    if battle.status != CampaignBattle.PENDING:
        raise CampaignError(f"This battle is {battle.status} already.")
    said, says = battle.first_side["result"], side["result"]
    if OPPOSITE[said] != says:
        battle.note = (f"{battle.second.army_list.name} entered {WORDS[says]}, but {battle.first.army_list.name} "
                       f"entered {WORDS[said]}: one of you must change it (or refuse the battle).")
        battle.save(update_fields=["note"])
        raise CampaignError(f"{battle.first.army_list.name} entered {WORDS[said]}, so this battle is "
                            f"{WORDS[OPPOSITE[said]]} for {battle.second.army_list.name}, not {WORDS[says]}. "
                            f"Nothing was recorded.", conflict=True)
    _try_side(battle.second, side)
    first, second = battle.first.army_list, battle.second.army_list
    try:
        with transaction.atomic():
            ratings = (_rating(first), _rating(second))
            done = []
            for army_list, own, opponent in ((first, battle.first_side, ratings[1]), (second, side, ratings[0])):
                army_list.refresh_from_db()
                recorded = record_battle(army_list, {**own, "opponent_rating": opponent}, army_list.revision)
                if recorded is None:
                    raise CampaignError(f"“{army_list.name}” changed while the battle was recorded; try again.")
                done.append(recorded.loaded.army_list.revision)
            # Decided only if still pending: a second confirmation (or a refusal) racing this one updates
            # nothing here, and both warbands' new revisions roll back with it (an UPDATE's row lock on
            # PostgreSQL, SQLite's one writer).
            decided = CampaignBattle.objects.filter(pk=battle.pk, status=CampaignBattle.PENDING).update(
                second_side=dict(side), status=CampaignBattle.RECORDED, note="", first_revision=done[0],
                second_revision=done[1], decided=timezone.now())
            if not decided:
                raise CampaignError("This battle was decided meanwhile (in another window); nothing more was "
                                    "recorded.")
            battle.refresh_from_db()
    except BattleError as exc:
        raise CampaignError(f"The battle could not be applied: {exc.message}") from None
    except (NotAWarband, Unavailable) as exc:
        raise CampaignError(str(exc)) from None
    return battle


def refuse_battle(battle: CampaignBattle, user, why: str = "") -> CampaignBattle:
    """Either player of a pending battle refuses it (the one who entered it: withdraws it); nothing applied."""
    battle = CampaignBattle.objects.select_related("first__army_list", "second__army_list").get(pk=battle.pk)
    if user.pk not in (battle.first.player_id, battle.second.player_id):
        raise CampaignError("Only the two warbands' players decide on this battle.")
    if battle.status != CampaignBattle.PENDING:
        raise CampaignError(f"This battle is {battle.status} already.")
    side = battle.second if battle.second.player_id == user.pk else battle.first
    note = f"Refused by {side.army_list.name}'s player" + (f": {why.strip()}" if why.strip() else ".")
    if not CampaignBattle.objects.filter(pk=battle.pk, status=CampaignBattle.PENDING).update(
            status=CampaignBattle.REFUSED, decided=timezone.now(), note=note):
        raise CampaignError("This battle was decided meanwhile (in another window).")
    battle.refresh_from_db()
    return battle


def battles_of(campaign: Campaign) -> list[CampaignBattle]:
    return list(campaign.battles.select_related("first__army_list", "second__army_list", "first__player",
                                                "second__player"))


# --- standings --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    place: int
    player: str
    warband: str
    list_id: int
    book: str
    rating: int | None
    battles: int
    won: int
    drawn: int
    lost: int
    gold: int
    shards: int


STANDING_COLUMNS = ("place", "player", "warband", "book", "rating", "battles", "won", "drawn", "lost", "gold", "shards")


def standings(campaign: Campaign) -> list[Standing]:
    """Every warband of the campaign: battles and their results counted from the campaign's recorded
    battles; rating, gold (the treasury) and shards from the warband as it is now. Ordered by wins, then
    rating, then name; equal wins and rating share a place."""
    counts: dict[int, dict[str, int]] = {}
    for b in campaign.battles.filter(status=CampaignBattle.RECORDED):
        result = b.first_side["result"]
        for entry_id, res in ((b.first_id, result), (b.second_id, OPPOSITE[result])):
            tally = counts.setdefault(entry_id, {"won": 0, "lost": 0, "draw": 0})
            tally[res] += 1
    rows = []
    for entry in campaign.warbands.select_related("army_list", "player"):
        army_list, tally = entry.army_list, counts.get(entry.pk, {"won": 0, "lost": 0, "draw": 0})
        try:
            loaded = open_warband(army_list)
            report = validate(loaded.book, loaded.roster)
            summary, book = campaign_summary(army_list.document, report), loaded.book.name
        except (NotAWarband, Unavailable):  # a book no longer loaded: the warband is listed, its figures unknown
            summary, book = {"rating": None, "treasury": 0, "wyrdstone": 0}, army_list.book
        rows.append((entry, army_list, tally, summary, book))
    rows.sort(key=lambda r: (-r[2]["won"], -(r[3]["rating"] or 0), r[1].name.lower(), r[0].pk))
    out: list[Standing] = []
    for n, (entry, army_list, tally, summary, book) in enumerate(rows, 1):
        place = n
        if out and (out[-1].won, out[-1].rating) == (tally["won"], summary["rating"]):
            place = out[-1].place
        out.append(Standing(place, entry.player.get_username(), army_list.name, army_list.pk, book, summary["rating"],
                            sum(tally.values()), tally["won"], tally["draw"], tally["lost"], summary["treasury"],
                            summary["wyrdstone"]))
    return out


def standings_csv(rows: list[Standing]) -> str:
    """The standings a row each, under STANDING_COLUMNS' names (an empty rating: its book is not loaded)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDING_COLUMNS)
    for row in rows:
        writer.writerow(["" if getattr(row, c) is None else getattr(row, c) for c in STANDING_COLUMNS])
    return out.getvalue()


def standings_pdf(campaign: Campaign, printed_on=None) -> bytes:
    """The standings printed (exports/pdf_standings.py), with the campaign's warbands and battles counted."""
    rows = standings(campaign)
    recorded = campaign.battles.filter(status=CampaignBattle.RECORDED).count()
    facts = (f"{len(rows)} warband{'' if len(rows) == 1 else 's'} \u00b7 {recorded} battle{'' if recorded == 1 else 's'} "
             f"recorded \u00b7 run by {campaign.owner.get_username()}")
    printed = tuple(StandingRow(r.place, r.player, r.warband, r.book, r.rating, r.battles, r.won, r.drawn, r.lost, r.gold)
                    for r in rows)
    return render_standings(Standings(campaign.name, facts, campaign.owner.get_username(), printed), printed_on)
