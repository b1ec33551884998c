"""The Mordheim campaign tables, read from rules_data/mordheim/campaign/ (schema-checked, cached).

No number of the game lives here: every lookup reads the data. Bands are inclusive at both ends, a band
without `to` is open above, and a D66 range runs over the D66 numbers in their order (16-21 is 16 and 21,
41-55 is 41..46 and 51..55).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from armylists.rules.errors import RulesDataError
from armylists.rules.reading.data_files import check_schema, read_yaml

FOLDER = Path(__file__).resolve().parents[4] / "rules_data" / "mordheim" / "campaign"


def d66_index(value: int) -> int:
    """A D66 number's place among 11..66 (11 -> 0, 16 -> 5, 21 -> 6, 66 -> 35); ValueError if not one."""
    tens, units = divmod(value, 10)
    if not (1 <= tens <= 6 and 1 <= units <= 6):
        raise ValueError(f"{value} is not a D66 roll (11 to 66, each digit 1 to 6)")
    return (tens - 1) * 6 + units - 1


def in_band(row: Mapping[str, Any], value: int, d66: bool = False) -> bool:
    """`value` within the row's inclusive `from`..`to` (no `to`: open above)."""
    if d66:
        return d66_index(row["from"]) <= d66_index(value) <= d66_index(row["to"])
    return row["from"] <= value and ("to" not in row or value <= row["to"])


@dataclass(frozen=True)
class Tables:
    """The campaign tables and every warband's campaign reading, as the data files hold them."""
    data: Mapping[str, Any]
    warbands: Mapping[str, Any]
    version: str

    # --- experience -------------------------------------------------------------------------
    def track(self, name: str) -> Mapping[str, Any]:
        return self.data["thresholds"][name]

    def track_of(self, category: str, promoted: bool = False) -> str | None:
        """The track a warrior of `category` climbs (a henchman made a hero climbs the heroes')."""
        if promoted:
            return "heroes"
        return next((name for name, t in self.data["thresholds"].items() if t["category"] == category), None)

    def advances_earned(self, track: str, start: int, experience: int) -> list[int]:
        """The marks passed going from `start` to `experience` XP (each one advance roll); the starting
        experience itself earns none (mordheim-campaign.md section 1)."""
        return [m for m in self.track(track)["marks"] if start < m <= experience]

    def underdog_bonus(self, difference: int) -> int:
        """Extra experience for the lower-rated warband, by how far below the other it is."""
        for band in self.data["underdog"]["bands"]:
            if in_band(band, difference):
                return band["bonus"]
        return 0

    # --- advances ---------------------------------------------------------------------------
    def advance(self, table: str, roll: int) -> Mapping[str, Any]:
        """The row of the heroes' or henchmen's 2D6 table for `roll`; ValueError outside 2..12."""
        rows = self.data["hero_advances" if table == "heroes" else "henchman_advances"]["rows"]
        for row in rows:
            if in_band(row, roll):
                return row
        raise ValueError(f"{roll} is not on the {table}' advance table (2D6: 2 to 12)")

    def henchman_rules(self) -> Mapping[str, Any]:
        return self.data["henchman_advances"]

    # --- injuries ---------------------------------------------------------------------------
    def injury(self, kind: str, roll: int) -> Mapping[str, Any]:
        """The row of the heroes' D66 chart or the henchmen's D6 for `roll`; ValueError when no row has it."""
        table = self.data["injuries"][kind]
        d66 = table["dice"] == "D66"
        for row in table["rows"]:
            if in_band(row, roll, d66):
                return row
        raise ValueError(f"{roll} is not on the {kind}' injury table ({table['dice']})")

    def injury_rerolls(self) -> tuple[str, ...]:
        return tuple(self.data["injuries"]["heroes"].get("reroll_in_multiple", ()))

    @staticmethod
    def sub_result(row: Mapping[str, Any], roll: int) -> Mapping[str, Any]:
        for sub in row["sub_roll"]:
            if in_band(sub, roll):
                return sub
        raise ValueError(f"{roll} is not on {row['name']}'s follow-up roll (D6)")

    # --- exploration and income -------------------------------------------------------------
    def exploration(self) -> Mapping[str, Any]:
        return self.data["exploration"]

    def shards_found(self, total: int) -> int:
        for row in self.data["exploration"]["shards"]:
            if in_band(row, total):
                return row["shards"]
        raise ValueError(f"an exploration total of {total} is below the chart (at least 1)")

    def multiple(self, dice: list[int]) -> Mapping[str, Any] | None:
        """The exploration chart's result for the kept dice: the largest set of one face, between sets of
        one size the higher face; None without a double."""
        counts = {face: dice.count(face) for face in set(dice)}
        best = max(counts.items(), key=lambda fc: (fc[1], fc[0]), default=None)
        if best is None or best[1] < 2:
            return None
        face, count = best
        for row in self.data["exploration"]["multiples"]:
            if row["face"] == face and row["count"] == count:
                return row
        return None

    def shard_price(self, shards: int, warriors: int) -> int:
        """Gold for `shards` sold at once by a warband of `warriors` (Hired Swords not counted); a sale
        beyond the last row is priced by it."""
        prices = self.data["shard_prices"]
        if shards < 1 or warriors < 1:
            raise ValueError("a sale needs at least one shard and one warrior")
        column = next(i for i, band in enumerate(prices["warriors"]) if in_band(band, warriors))
        row = next((r for r in prices["rows"] if r["shards"] == shards), prices["rows"][-1])
        return row["gold"][column]

    def trading(self) -> Mapping[str, Any]:
        return self.data["trading"]

    # --- races and skills -------------------------------------------------------------------
    def maxima(self, race: str) -> Mapping[str, int] | None:
        return self.data["race_maxima"]["races"].get(race)

    def skill_list(self, name: str) -> tuple[str, ...]:
        return tuple(self.data["skill_lists"]["lists"].get(name, ()))

    def warrior(self, book: str, entry: str) -> Mapping[str, Any] | None:
        """How the campaign reads a book's entry (race, skill lists, whether it gains experience)."""
        return self.warbands.get(book, {}).get("entries", {}).get(entry)

    def has_warband(self, book: str) -> bool:
        return book in self.warbands

    def source(self, section: str) -> str:
        part = self.data
        for key in section.split("."):
            part = part[key]
        return part["source"]


def _check_references(tables: Mapping[str, Any], warbands: Mapping[str, Any], source: str) -> None:
    """Every warband's skill lists and races name lists and races the tables define (animals and other
    races without a maxima row are allowed: their maxima are not checked)."""
    lists = tables["skill_lists"]["lists"]
    for book, warband in warbands["warbands"].items():
        for entry, reading in warband["entries"].items():
            for name in reading.get("skills", ()):
                if name not in lists:
                    raise RulesDataError(source, ("warbands", book, "entries", entry, "skills"),
                                         f"names the skill list {name!r}, which the campaign tables do not define")


def load_tables(folder: Path = FOLDER) -> Tables:
    """The tables in `folder` (tables.yaml and warbands.yaml), schema-checked and cross-checked."""
    root = folder.parents[1]
    files = {}
    for name in ("tables", "warbands"):
        path = folder / f"{name}.yaml"
        shown = str(path.relative_to(root.parent)) if path.is_relative_to(root.parent) else str(path)
        files[name] = data = read_yaml(path, shown)
        check_schema("campaign", data, shown)
    _check_references(files["tables"], files["warbands"], "rules_data/mordheim/campaign/warbands.yaml")
    return Tables(files["tables"], files["warbands"]["warbands"], str(files["tables"]["version"]))


@lru_cache(maxsize=1)
def campaign_tables() -> Tables:
    """The shipped tables, read once per process."""
    return load_tables()
