"""What a warband sheet prints of a campaign: per warrior its track's marks (the thick-bordered boxes of
the official roster), its skills, advances and injuries in words; for the warband its treasury, shards,
stash and battles. Read from the campaign state and the tables; None for a list without a campaign
(a founding sheet still prints its track's marks when its book is one the tables know)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from armylists.rules.native.book import Book
from armylists.rules.native.mordheim_campaign import state as st
from armylists.rules.native.mordheim_campaign.tables import campaign_tables
from armylists.rules.reading.roster import Roster


@dataclass(frozen=True)
class WarriorCampaign:
    marks: tuple[int, ...] = ()
    skills: tuple[str, ...] = ()
    advances: tuple[str, ...] = ()
    injuries: tuple[str, ...] = ()
    state: str = ""
    promoted: bool = False  # a henchman the lad's got talent made a hero
    experience: int | None = None  # a roster tree's warrior's, kept in its campaign state (None: the unit's own)


@dataclass(frozen=True)
class CampaignSheet:
    warriors: Mapping[str, WarriorCampaign]
    treasury: int | None = None  # None: no campaign yet, only the tracks' marks
    wyrdstone: int = 0
    stash: tuple[str, ...] = ()
    battles: int = 0
    won: int = 0
    fallen: tuple[str, ...] = field(default=())


def _words(name: str) -> str:
    return name.replace("-", " ")


def campaign_sheet(book: Book, roster: Roster) -> CampaignSheet | None:
    tables = campaign_tables()
    if not tables.has_warband(book.id) or roster.is_tree:
        return None
    state = st.read_state(roster.campaign)
    injury_names = {}
    for row in tables.data["injuries"]["heroes"]["rows"]:
        injury_names[row["id"]] = row["name"]
        for sub in row.get("sub_roll", ()):
            injury_names[sub["id"]] = sub["name"]
    warriors = {}
    for unit in roster.units:
        entry = book.entries.get(unit.entry)
        if entry is None:
            continue
        record = st.warrior(state or {}, unit.id)
        track = tables.track_of(entry.category, bool(record.get("hero")))
        marks = tuple(tables.track(track)["marks"]) if track else ()
        skills = tuple(_words(a["skill"]) for a in record["advances"] if a.get("skill"))
        advances = tuple(f"+1 {a['gain']}" for a in record["advances"] if a.get("gain"))
        injuries = tuple(" / ".join(injury_names.get(k, _words(k)) for k in (i["id"], i.get("follow_up")) if k)
                         for i in record["injuries"])
        status = {"misses-next-game": "misses the next game", "captured": "captured"}.get(record.get("state", ""), "")
        warriors[unit.id] = WarriorCampaign(marks, skills, advances + tuple(record.get("gains", ())), injuries, status,
                                            bool(record.get("hero")))
    if state is None:
        return CampaignSheet(warriors)
    played, won = st.battles_played(state)
    stash = tuple(f"{_words(k)}{f' x{n}' if n > 1 else ''}" for k, n in sorted(state["stash"].items()))
    fallen = tuple(f"{f.get('name', f['entry'])} ({f['unit']})" for f in state["fallen"])
    return CampaignSheet(warriors, state["treasury"], state["wyrdstone"], stash, played, won, fallen)
