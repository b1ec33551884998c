"""check_lists' events of New Recruit tournament summaries: the lines of .jsonl(.gz) files as lists, one
event of them all or one per tournament (`--by tournament`), each at its points limit; and the CSV and
JSON outputs of several events written as one file.

A line is read as a list by the list files part like any file (the summary format registered by
importers/nr_t9a/list_formats.py); here it is only looked at for its tournament and its total, to group the
lines and set each event's limit: the smallest multiple of 500 at or above its largest list (as the
benchmark and New Recruit's events do), unless --points/--limit gives one. A line that is no summary
stays in its event and is reported unreadable there, with the others.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from armylists.importers.nr_t9a.summaries import (
    JSONL_ERRORS, SYSTEM_ID, SummaryError, event_limit, is_jsonl, jsonl_lines, parse_summary, summary_total,
)
from armylists.listfiles.reading import ListFileError, ListLine

SUMMARY_SYSTEM = SYSTEM_ID

__all__ = ["SUMMARY_SYSTEM", "SummaryEvent", "UsageError", "is_jsonl", "summary_events", "totals_line",
           "write_csv", "write_json"]


class UsageError(Exception):
    """The command was given something it cannot use; the message is the one line to print."""


@dataclass
class SummaryEvent:
    title: str | None  # printed above its block (--by tournament); None: the one event, no heading
    items: list = field(default_factory=list)  # Paths and ListLines, in the order given
    limit: int = 0
    tournament: dict = field(default_factory=dict)  # id, name, start: for the JSON output


def summary_events(paths: list[Path], by: str | None, points: int | None) -> list[SummaryEvent]:
    """The events of the .jsonl files among `paths` (none: []); UsageError for a file that cannot be read."""
    groups: dict[str | None, SummaryEvent] = {}
    totals: dict[str | None, list[int]] = {}
    for path in (p for p in paths if is_jsonl(p)):
        try:
            for number, data in jsonl_lines(path):
                key, about, total = None, {}, None
                try:
                    summary = parse_summary(data, f"{path}:{number}")
                    about = {k: summary[k] for k in ("tournament", "tournament_name", "start") if k in summary}
                    key, total = summary.get("tournament"), summary_total(summary)
                except SummaryError:
                    pass  # read again with the event's lists, and reported there as unreadable
                key = key if by else ""
                event = groups.setdefault(key, SummaryEvent(None, tournament=about))
                event.items.append(ListLine(path, number, data))
                if total is not None:
                    totals.setdefault(key, []).append(total)
        except SummaryError as exc:
            raise UsageError(str(exc)) from None
        except JSONL_ERRORS as exc:
            raise UsageError(f"{path}: cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    if any(is_jsonl(p) for p in paths) and not groups:
        raise UsageError(f"{', '.join(str(p) for p in paths if is_jsonl(p))}: has no summaries")
    events = []
    for key, event in groups.items():
        event.limit = points or event_limit(totals.get(key, []))
        if by:
            t = event.tournament
            event.title = (f"{t.get('tournament_name') or 'no tournament'} ({t.get('tournament', '-')}, "
                           f"{t.get('start', 'no date')})" if key is not None else "lines that are no summary")
            event.tournament = {"id": key, "name": t.get("tournament_name"), "start": t.get("start")}
        events.append(event)
    if by:  # lines that could not be read last, under their own heading
        events.sort(key=lambda e: e.tournament["id"] is None)
    return events


def totals_line(blocks: list[tuple[SummaryEvent, object]]) -> str:
    """The last line of --by tournament: the events and their lists' verdicts summed."""
    lists, legal, illegal, unreadable = (sum(getattr(o, a) for _, o in blocks)
                                         for a in ("lists", "legal", "illegal", "unreadable"))
    return (f"{len(blocks)} tournament{'s' if len(blocks) != 1 else ''}, {lists} list{'s' if lists != 1 else ''}: "
            f"{legal} legal, {illegal} illegal, {unreadable} unreadable")


def write_csv(out: Path, blocks: list, by: bool) -> None:
    """Every event's CSV rows under one header (each row names its file:line and its points limit)."""
    try:
        with open(out, "w", encoding="utf-8", newline="") as target:
            for i, (_, outputs) in enumerate(blocks):
                outputs.csv.seek(0)
                header = outputs.csv.readline()
                if i == 0:
                    target.write(header)
                shutil.copyfileobj(outputs.csv, target)
    except OSError as exc:
        raise ListFileError(f"{out}: cannot be written: {exc.strerror}") from None


def write_json(out: Path, blocks: list, by: bool) -> None:
    """One event: its array, as check_lists writes it. --by tournament: an array of
    {"tournament", "name", "start", "points_limit", "lists": that event's array}."""
    try:
        with open(out, "w", encoding="utf-8", newline="") as target:
            if not by:
                blocks[0][1].json.seek(0)
                shutil.copyfileobj(blocks[0][1].json, target)
                return
            target.write("[")
            for i, (event, outputs) in enumerate(blocks):
                head = json.dumps({"tournament": event.tournament["id"], "name": event.tournament["name"],
                                   "start": event.tournament["start"], "points_limit": event.limit},
                                  ensure_ascii=False)
                target.write(("," if i else "") + "\n" + head[:-1] + ', "lists": ')
                outputs.json.seek(0)
                shutil.copyfileobj(outputs.json, target)
                target.write("}")
            target.write("\n]\n")
    except OSError as exc:
        raise ListFileError(f"{out}: cannot be written: {exc.strerror}") from None
