"""New Recruit's tournament summaries as input: one summary checked and read as a list, a JSONL file of
them split into lines, the book version of a summary's date, and the event limit of a tournament.

A summary is one line of New Recruit's tournament report export (`tournament-lists.jsonl.gz`): the army's
code, the units (name, New Recruit's cost, category, options by name) and the tournament's id, name and
start. It is outside input: every field is checked here before summary.py reads it, and anything wrong
is a `SummaryError` whose message names the field (`units[3].cost`). Pure: no Django; the site's side
(list_formats.py) finds the book in the database and hands it to `read_summary`.

    summary = parse_summary(data, source)           # the checked summary, or SummaryError
    version = choose_version(dated_versions, summary.get("start"))
    roster_doc, notes = read_summary(summary, book, source)
"""
from __future__ import annotations

import difflib
import gzip
import math
import re
import zlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Iterator

from armylists.rules.reading.plain_data import UnstorableData, load_json

from armylists.importers.nr_t9a.army import MAPPING
from armylists.importers.nr_t9a.source import version_date
from armylists.importers.nr_t9a.summary import MAX_MODELS, Reading, read_list, readings_to_try

SYSTEM_ID = MAPPING["system"]
LIMIT_STEP = 500  # an event's points limit: the smallest multiple of this at or above its largest list
MAX_SUMMARY_BYTES = 256 * 1024  # the largest of the 5,812 shared summaries is under 10 kB
# Bounds well above real lists (the 5,812 shared summaries: at most 32 units, 15 options a unit, 1,306
# option readings to try), so a summary from outside cannot keep a request busy for minutes.
MAX_UNITS = 100
MAX_OPTIONS = 50
MAX_LIST_READINGS = 16_384  # option readings summary.py tries for one list, all units together (about 2 s)
MAX_NAME = 200
MAX_COST = 100_000  # points of one unit; New Recruit's largest is a few hundred
MAX_LINES = 100_000  # summaries in one .jsonl file
MAX_JSONL_BYTES = 256 * 1024 * 1024  # a .jsonl (unpacked, for .gz) read by check_lists
ARMY_CODE = re.compile(r"[A-Za-z0-9]{1,12}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class SummaryError(ValueError):
    """A summary that cannot be read; str() is the one line to show (the source and the field)."""


def looks_like_summary(data: bytes) -> bool:
    """Whether `data` is a JSON object shaped as a summary: `units` a list and `army` (or New Recruit's
    `points_per_category`) beside it, and no `format` (our list document has one). Never raises: data
    that is no JSON object is left to the other readers, whose messages say why. A summary over
    MAX_SUMMARY_BYTES is still known by its shape, so parse_summary names its size limit (it was left to
    Old World Builder's reader, which said it "is not an Old World Builder list"); the import's own file
    limit bounds what is decoded here."""
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return False
    if b'"units"' not in data:
        return False
    try:
        found = load_json(data)
    except (ValueError, UnicodeDecodeError):  # UnstorableData and JSONDecodeError are ValueErrors
        return False
    return (isinstance(found, dict) and "format" not in found and isinstance(found.get("units"), list)
            and ("army" in found or "points_per_category" in found))


def parse_summary(data: bytes, source: str) -> dict:
    """The summary in `data`, its fields checked, or `SummaryError`."""
    if len(data) > MAX_SUMMARY_BYTES:
        raise SummaryError(f"{source}: is {len(data)} bytes; a New Recruit summary may be at most {MAX_SUMMARY_BYTES}")
    try:
        found = load_json(data)
    except UnstorableData as exc:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in exc.path).lstrip(".")
        raise SummaryError(f"{source}: {where + ' ' if where else ''}{exc.reason}") from None
    except UnicodeDecodeError as exc:
        raise SummaryError(f"{source}: is not UTF-8 text: {exc.reason}") from None
    except ValueError as exc:
        raise SummaryError(f"{source}: is not valid JSON: {exc}") from None
    return check_summary(found, source)


def check_summary(found: Any, source: str) -> dict:
    """A decoded summary checked field by field: what summary.py reads, and nothing else kept."""
    def bad(where: str, what: str) -> SummaryError:
        return SummaryError(f"{source}: {where}: {what}")

    if not isinstance(found, dict):
        raise SummaryError(f"{source}: a New Recruit summary is a JSON object")
    army = found.get("army")
    if army is None:
        raise bad("army", "missing; a summary names its army by New Recruit's code (DH, VS, WDG...)")
    if not isinstance(army, str) or not ARMY_CODE.fullmatch(army):
        raise bad("army", f"{str(army)[:40]!r} is not an army code (letters and digits, such as DH)")
    units = found.get("units")
    if not isinstance(units, list) or not units:
        raise bad("units", "missing or empty; a summary lists its units")
    if len(units) > MAX_UNITS:
        raise bad("units", f"{len(units)} units; a list may have at most {MAX_UNITS}")
    summary: dict = {"army": army, "units": [_unit(u, f"units[{i}]", bad) for i, u in enumerate(units)]}
    for key in ("tournament", "tournament_name", "start"):
        value = found.get(key)
        if value is None:
            continue
        if not isinstance(value, (str, int)) or isinstance(value, bool) or len(str(value)) > MAX_NAME:
            raise bad(key, f"must be text of at most {MAX_NAME} characters")
        summary[key] = str(value)
    if "start" in summary and not _is_date(summary["start"]):
        raise bad("start", f"{summary['start'][:40]!r} is not a date YYYY-MM-DD")
    total = (found.get("points_per_category") or {}).get("Total") if isinstance(found.get("points_per_category"), dict) else None
    if total is not None:
        summary["total"] = _cost(total, "points_per_category.Total", bad)
    return summary


def _is_date(text: str) -> bool:
    """YYYY-MM-DD and a day of the calendar: `9999-99-99` has the shape and is no date."""
    try:
        return bool(DATE.fullmatch(text)) and date.fromisoformat(text) is not None
    except ValueError:
        return False


def _text(value: Any, where: str, bad) -> str:
    if not isinstance(value, str) or not value.strip():
        raise bad(where, "missing or not a name")
    if len(value) > MAX_NAME:
        raise bad(where, f"is {len(value)} characters; at most {MAX_NAME}")
    return value


def _cost(value: Any, where: str, bad) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad(where, "missing or not a number of points")
    if isinstance(value, float) and not math.isfinite(value):
        raise bad(where, "is not a finite number")
    if value < 0 or value > MAX_COST:
        raise bad(where, f"{value} is not a cost (0 to {MAX_COST} points)")
    if value != int(value):
        raise bad(where, f"{value} is not a whole number of points")
    return int(value)


def _unit(unit: Any, where: str, bad) -> dict:
    if not isinstance(unit, dict):
        raise bad(where, "a unit is an object with its name, cost, category and options")
    read = {"name": _text(unit.get("name"), f"{where}.name", bad), "cost": _cost(unit.get("cost"), f"{where}.cost", bad)}
    if unit.get("category") is not None:
        read["category"] = _text(unit["category"], f"{where}.category", bad)
    models = unit.get("models")
    if models is not None:  # dropped unchecked before: 10^9, -5 and 2.5 were read as if absent
        if type(models) is not int or not 0 <= models <= MAX_MODELS:
            raise bad(f"{where}.models", f"{str(models)[:20]} is not a number of models (a whole number "
                                         f"from 0 to {MAX_MODELS})")
        read["models"] = models
    options = unit.get("options", [])
    if not isinstance(options, list):
        raise bad(f"{where}.options", "must be a list")
    if len(options) > MAX_OPTIONS:
        raise bad(f"{where}.options", f"{len(options)} options; a unit may have at most {MAX_OPTIONS}")
    read["options"] = []
    for j, option in enumerate(options):
        if not isinstance(option, dict):
            raise bad(f"{where}.options[{j}]", "an option is an object with its name")
        read["options"].append({"name": _text(option.get("name"), f"{where}.options[{j}].name", bad)})
    return read


# -- the book and the limit -----------------------------------------------------------------------

def choose_version(versions: list[str], start: str | None) -> tuple[str, str]:
    """The version to read a summary against and why, in words: the newest imported version dated before
    the tournament's start (New Recruit's data of that date, as a list was built with it), else the
    newest imported one. `versions` are the imported versions of the army's book (not empty)."""
    newest = max(versions, key=lambda v: (version_date(v), v))
    if not start:
        return newest, "the newest imported (the summary gives no date)"
    before = [v for v in versions if version_date(v) and version_date(v) < start]
    if before:
        chosen = max(before, key=lambda v: (version_date(v), v))
        return chosen, f"New Recruit's data of the tournament's date ({start}): the newest imported before it"
    return newest, f"the newest imported; no version from before the tournament's date ({start}) is imported"


def summary_total(summary: dict) -> int:
    """The list's points as New Recruit counted them (its `Total`, else the sum of its units' costs)."""
    return summary.get("total", sum(u["cost"] for u in summary["units"]))


def event_limit(totals: list[int]) -> int:
    """An event's points limit: the smallest multiple of 500 at or above its largest list."""
    return max(LIMIT_STEP, -(-max(totals, default=0) // LIMIT_STEP) * LIMIT_STEP)


def how_to_import(army: str) -> str:
    return (f"this site has no book of the New Recruit army {army} for {SYSTEM_ID}; ask the site's administrator "
            f"to import New Recruit's T9A data (`manage.py import_nr_t9a SOURCE --at DATE`, docs/import-nr-t9a.md)")


# -- the reading ----------------------------------------------------------------------------------

@dataclass
class SummaryList:
    document: dict  # our list document
    reading: Reading


def read_summary(summary: dict, book, source: str, limit: int | None = None) -> SummaryList:
    """The checked summary as a list document of `book` at `limit` (default: the smallest multiple of 500
    at or above its total), or `SummaryError` naming a unit the book does not have."""
    tries = readings_to_try(summary, book)
    if tries > MAX_LIST_READINGS:
        raise SummaryError(f"{source}: its option names fit the book's options {tries} ways; at most {MAX_LIST_READINGS} "
                           f"are tried for one list (the names are ambiguous, or repeated)")
    reading = read_list(summary, book, limit or event_limit([summary_total(summary)]))
    unknown = [(i, unit) for i, unit in enumerate(reading.units) if unit.cause == "unknown-entry"]
    names = sorted({e.name for e in book.entries.values()})
    if unknown and len(unknown) == len(reading.units):  # no unit of the book at all: another army's list
        i, unit = unknown[0]
        close = difflib.get_close_matches(unit.name, names, n=3, cutoff=0.5)
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise SummaryError(f"{source}: units[{i}].name: {book.name} {book.version} has no unit "
                           f"{unit.name!r}{hint}")
    # A unit the data of that date lacks (renamed, or new since) is kept in the list, under the summary's
    # name, so the list shows it as a problem to fix (the engine's list.unknown_entry) rather than the
    # whole list being refused; its note and the import's notice name the closest unit the book has.
    for i, unit in unknown:
        unit.closest = _closest(unit.name, names)
        units = reading.document["units"]
        at = sum(1 for u in units if re.fullmatch(r"u\d+", u["id"]) and int(u["id"][1:]) <= i)  # the summary's order
        units.insert(at, {
            "id": f"u{i + 1}", "entry": _unknown_id(unit.name), "label": unit.name,
            "notes": f"New Recruit's unit “{unit.name}” ({unit.cost} pts) is not in {book.name} {book.version}"
                     + (f"; the closest is “{unit.closest}”" if unit.closest else "")})
    return SummaryList(reading.document, reading)


def _closest(name: str, names: list[str]) -> str:
    """The book's unit nearest to a name it lacks: one spelt alike, else one whose name's words are all in
    it or it all in theirs ("Khan of the Steppe": Khan), the longest such."""
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if close:
        return close[0]
    words = set(re.findall(r"[a-z0-9]+", name.lower()))
    sharing = [n for n in names if (found := set(re.findall(r"[a-z0-9]+", n.lower())))
               and (found <= words or words <= found)]
    if sharing:
        return max(sharing, key=lambda n: (len(set(re.findall(r"[a-z0-9]+", n.lower())) & words), -len(n)))
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    return close[0] if close else ""


def _unknown_id(name: str) -> str:
    """An id for a unit the book lacks, made from its name as the list document's ids are (never one of the
    book's: the prefix)."""
    return "unknown-" + ("-".join(re.sub(r"[^a-z0-9]+", " ", name.lower()).split()) or "unit")


def unit_notes(reading: Reading, ours: list[int]) -> list[str]:
    """What the player should know of each unit: an option the book lacks (left out), an option taken
    though the summary does not name it, and a cost other than New Recruit's, with both figures.
    `ours` is the engine's price of each unit, in the summary's order."""
    notes = []
    for i, (unit, price) in enumerate(zip(reading.units, ours)):
        label = f"Unit {i + 1}, {unit.name}"
        if unit.cause == "unknown-entry":
            notes.append(f"{label}: not in this book's data (renamed or new?); kept as a problem to fix"
                         + (f"; the closest is “{unit.closest}”" if unit.closest else ""))
            continue
        for name in unit.unmatched:
            notes.append(f"{label}: the option “{name}” is not in the book; left out")
        if unit.unnamed:
            notes.append(f"{label}: “{unit.unnamed}” taken though the summary does not name it (only it gives "
                         f"New Recruit's cost)")
        if price != unit.cost:
            notes.append(f"{label}: costs {price} pts here; New Recruit's summary says {unit.cost} pts")
    return notes


# -- many summaries: a .jsonl file ----------------------------------------------------------------

def is_jsonl(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith(".jsonl") or name.endswith(".jsonl.gz")


def jsonl_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """(line number, line without its end) of every non-blank line of a .jsonl or .jsonl.gz file, within MAX_JSONL_BYTES
    unpacked and MAX_LINES lines; a line over MAX_SUMMARY_BYTES is given cut (parse_summary refuses it by
    its size) and the rest of it skipped, so no line is held whole. OSError, EOFError or zlib.error for a
    file that cannot be read (JSONL_ERRORS), SummaryError for one too large."""
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    read = number = 0
    with opener(path, "rb") as f:
        while True:
            line = f.readline(MAX_SUMMARY_BYTES + 1)
            if not line:
                return
            number += 1
            read += len(line)
            while not line.endswith(b"\n") and len(line) > MAX_SUMMARY_BYTES:  # the rest of an overlong line
                rest = f.readline(1 << 20)
                read += len(rest)
                if not rest or rest.endswith(b"\n") or read > MAX_JSONL_BYTES:
                    break
            if read > MAX_JSONL_BYTES:
                raise SummaryError(f"{path}: is over {MAX_JSONL_BYTES // (1024 * 1024)} MB of summaries")
            if number > MAX_LINES:
                raise SummaryError(f"{path}: has over {MAX_LINES} lines; split it")
            if line.strip():
                yield number, line.rstrip(b"\r\n")


JSONL_ERRORS = (OSError, EOFError, zlib.error)
