"""What an organiser reads: the table of submissions (sorted, filtered), its CSV, and the muster PDF.

Everything here is read from the reports `checking.check_event` saved; the muster PDF prints each
approved list with the full roster's own pages, after a cover table (laid out by exports/pdf_muster.py).
"""
from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass
from datetime import date
from typing import Iterable, Mapping

from django.db.models import Count

from armylists.lists.library.names import one_system
from armylists.lists.library.data_as_of import data_as_of_texts, site_data_text
from armylists.exports.pdf_list import PrintedList
from armylists.exports.pdf_muster import Muster, MusterList, render_muster
from armylists.models import Event, Submission
from armylists.lists.plain_words import plain_violations

from armylists.events.checking import Progress, evaluate, ruleset_for

SORTS = {
    "player": lambda r: r.player.lower(),
    "team": lambda r: (r.team.lower(), r.player.lower()),
    "army": lambda r: (r.army.lower(), r.player.lower()),
    "total": lambda r: (r.total, r.player.lower()),
    "verdict": lambda r: (r.valid, r.player.lower()),
    "status": lambda r: (r.status, r.player.lower()),
    "errors": lambda r: (r.errors, r.player.lower()),
}
STATUSES = [value for value, _ in Submission.STATUS_CHOICES]


@dataclass(frozen=True)
class Row:
    submission: Submission
    player: str
    team: str
    army: str
    total: int
    limit: int
    # (name, percent, state) of the list's own categories that hold points or miss a bound, in its
    # army's order: an event of a system whose books each have their own categories (T9A 2nd edition)
    # shows a list's few, not forty columns of 0.0% (issue 42).
    categories: tuple[tuple[str, float, str], ...]
    valid: bool
    status: str
    errors: int
    warnings: int
    violations: tuple[Mapping, ...]  # as saved, codes and all: the CSV carries them
    problems: tuple[Mapping, ...]  # the same, as the page shows them (`shown_violations`)
    data_as_of: str = ""  # the book and the game data version it came from (lists/library/data_as_of.py)


def shown_categories(report: Mapping) -> tuple[tuple[str, float, str], ...]:
    """(name, percent, state) of a saved report's categories that hold points or miss their bound."""
    return tuple((c.get("name") or c["id"], c["percent"], c.get("state", "ok"))
                 for c in report.get("categories", []) if c.get("points") or c.get("state", "ok") != "ok")


def categories_words(categories: Iterable[tuple[str, float, str]]) -> str:
    """The shares as the CSV's one column writes them: "Core=31.2; Special=20.8"."""
    return "; ".join(f"{name}={percent:.1f}" for name, percent, _ in categories)


def shown_violations(event: Event, report: Mapping | None, system=None) -> list[dict]:
    """A saved report's violations as an event's pages show them: no unit ids, no rule codes, each
    source in the event's system's words (`plain_words`). `system` is the event's System, read once by a
    caller showing many (`rows`); else read here, that system alone."""
    report = report or {}
    return plain_violations(report.get("violations", []), [u["id"] for u in report.get("units", [])],
                            system if system is not None else one_system(event.system))


def rows(event: Event, submissions: Iterable[Submission]) -> list[Row]:
    texts = data_as_of_texts(event.system)
    system = one_system(event.system)
    out = []
    for sub in submissions:
        report = sub.report or {}
        violations = tuple(report.get("violations", []))
        out.append(Row(
            submission=sub, player=sub.player_name, team=sub.team.name if sub.team else "",
            army=f"{sub.army_name or sub.book} {sub.book_version}", total=sub.total_points,
            limit=report.get("points_limit", event.points_limit),
            categories=shown_categories(report),
            valid=sub.valid, status=sub.status,
            errors=sum(v["severity"] == "error" for v in violations),
            warnings=sum(v["severity"] == "warning" for v in violations),
            violations=violations, problems=tuple(shown_violations(event, report, system)),
            data_as_of=texts.get((sub.book, sub.book_version)) or site_data_text(sub.army_name or sub.book,
                                                                                 sub.book_version),
        ))
    return out


def table(event: Event, sort: str = "player", descending: bool = False, status: str = "", army: str = "",
          verdict: str = "", player: str = "") -> list[Row]:
    """The organiser's table: filtered by status, army (book id), verdict (legal, illegal) and a part of the
    player's name, then sorted by one of SORTS."""
    found = rows(event, event.submissions.select_related("team"))
    if status in STATUSES:
        found = [r for r in found if r.status == status]
    if army:
        found = [r for r in found if r.submission.book == army]
    if verdict in ("legal", "illegal"):
        found = [r for r in found if r.valid == (verdict == "legal")]
    if player.strip():
        found = [r for r in found if player.strip().lower() in r.player.lower()]
    return sorted(found, key=SORTS.get(sort, SORTS["player"]), reverse=descending)


# What each status means to an organiser reading the counts: "submitted" is a list not yet checked.
STATUS_WORDS = {Submission.SUBMITTED: "not yet checked", Submission.LEGAL: "legal", Submission.ILLEGAL: "illegal",
                Submission.APPROVED: "approved", Submission.RETURNED: "returned"}


def status_counts(event: Event) -> list[tuple[str, int]]:
    """("lists in", every list), then each status with its lists, in one query: "lists in: 2 · legal: 1 ..."."""
    by_status = dict(event.submissions.values_list("status").annotate(n=Count("id")))
    return [("lists in", sum(by_status.values())), *((STATUS_WORDS.get(s, s), by_status.get(s, 0)) for s in STATUSES)]


def players_csv(event: Event) -> str:
    """Every player with their team and faction (army), one row each: what pairing tools import."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["player", "team", "faction", "list", "status"])
    rows = event.submissions.order_by("player_name", "id").values_list("player_name", "team__name", "army_name", "book",
                                                                      "list_name", "status")
    for player, team, army_name, book, list_name, status in rows:
        writer.writerow([player, team or "", army_name or book, list_name, status])
    return out.getvalue()


def table_csv(event: Event, found: list[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["player", "team", "list", "army", "total_points", "points_limit", "categories", "verdict", "status", "errors", "warnings",
                     "violations", "note", "checksum", "submitted", "data_as_of"])
    for r in found:
        sub = r.submission
        writer.writerow([
            r.player, r.team, sub.list_name, r.army, r.total, r.limit, categories_words(r.categories),
            "legal" if r.valid else "illegal", r.status, r.errors, r.warnings,
            " | ".join(f"{v['code']}: {v['message']}" for v in r.violations), sub.note, sub.checksum,
            sub.submitted_at.isoformat(timespec="seconds"), r.data_as_of,
        ])
    return out.getvalue()


def muster_pdf(event: Event, printed_on: date | None = None, progress: Progress | None = None) -> bytes:
    """Every approved list, one section each after a cover table of them all (exports/pdf_muster.py).

    `progress` counts two steps a list: reading and checking it, then laying out its pages."""
    approved = list(event.submissions.filter(status=Submission.APPROVED).select_related("team").order_by("player_name", "id"))
    steps = 2 * len(approved)
    checked = evaluate(approved, ruleset_for(event), progress and (lambda done, _: progress(done, steps)))
    as_of = data_as_of_texts(event.system)  # each list's stamp says the data it was checked with
    lists = []
    for sub in approved:
        found = checked[sub.pk]
        if progress is not None:  # no step further, but the job's heartbeat goes on (events.jobs)
            progress(len(approved), steps)
        printed = None
        if found.report is not None:
            printed_as_of = (as_of.get((sub.book, sub.book_version))
                             or site_data_text(found.book.name, sub.book_version, found.book.imported))
            # Each list's own header names the player the event knows (a file rarely names one: "Player -").
            roster = found.roster if found.roster.player else dataclasses.replace(
                found.roster, player=sub.player_name, team=found.roster.team or (sub.team.name if sub.team else ""))
            printed = PrintedList(found.book, roster, found.report, found.allies, printed_as_of,
                                  found.kind.printing(roster))
        lists.append(MusterList(sub.player_name, sub.team.name if sub.team else "",
                                f"{sub.army_name or sub.book} {sub.book_version}", sub.total_points, sub.checksum,
                                printed, found.error))
    facts = (f"{event.date:%Y-%m-%d} \u00b7 {event.points_limit} points \u00b7 "
             f"{len(approved)} approved list{'' if len(approved) == 1 else 's'}")
    return render_muster(Muster(event.name, facts, event.organiser.get_username(), tuple(lists)), printed_on, progress)
