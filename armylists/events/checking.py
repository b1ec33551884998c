"""Check an event's submissions against its ruleset: the engine does the rules, this keeps the results.

Every check runs over the whole event, because team rules (a magic item once per team) read several
lists at once, and because the organiser's table must never mix answers from two versions of the
event rules.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterator, Mapping, Sequence

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from armylists.lists.library.catalogue import allies_book_for, book_for, get_book
from armylists.lists.library.names import book_label, one_system, shelved_books
from armylists.lists.kinds import ListKind, kind_of
from armylists.models import Event, Submission
from armylists.rules import Book, ListDocumentError, Report, Roster, RulesDataError, parse_roster
from armylists.rules.native.army import Army
from armylists.rules.event_rules.ruleset import EventRules, Ruleset, check_team, parse_event_rules
from armylists.rules.report import Violation


class EventSetupError(Exception):
    """The event's own settings cannot be used (event rules that no longer load)."""


def allowed_books(event: Event) -> dict[str, frozenset[str]]:
    """The event's `books` ("book" or "book@version") as the Ruleset takes them; with a game data version
    pinned, each of its books of the event's system is allowed at its version there only (unless the
    organiser named versions of it), and every other book as before."""
    allowed: dict[str, set[str]] = {}
    for spec in event.books:
        book, _, version = spec.partition("@")
        versions = allowed.setdefault(book, set())
        if version:
            versions.add(version)
        elif book in allowed and not versions:
            allowed[book] = set()
    pinned = {b["book"]: b["version"] for b in (event.data_version.books if event.data_version_id else ())
              if b["system"] == event.system}
    if pinned:
        if not allowed:  # every book of the system: the pinned ones at their version, the others at any
            allowed = {b.id: set() for b in shelved_books(event.system)}
        for book, version in pinned.items():
            if book in allowed and not allowed[book]:
                allowed[book] = {version}
    return {book: frozenset(versions) for book, versions in allowed.items()}


def system_books(system: str, allowed: dict[str, frozenset[str]] | None = None) -> list[Book]:
    """The books of `system` an event may use (all of them when `allowed` is empty), built: only those, not
    the system's other books nor any other system's (named from columns first: lists/library/names.py)."""
    books = []
    for shelved in shelved_books(system):
        if allowed and (shelved.id not in allowed or (allowed[shelved.id] and shelved.version not in allowed[shelved.id])):
            continue
        try:
            book = get_book(*shelved.key)
        except RulesDataError:  # stored by an older importer and no longer valid: not offered
            continue
        if book is not None:
            books.append(book)
    return books


def read_rules(system: str, text: str, allowed: dict[str, frozenset[str]], source: str = "event rules") -> EventRules:
    """The event rules, checked against the system and the allowed books; a RulesDataError if bad. The books
    are built only when there are rules to read: the names they use are the books' (issue 37 item 5)."""
    found = one_system(system)
    if found is None:
        raise RulesDataError(source, (), f"unknown game system {system!r}")
    return parse_event_rules(text, source, found, system_books(system, allowed) if text.strip() else ())


def ruleset_for(event: Event) -> Ruleset:
    allowed = allowed_books(event)
    try:
        rules = read_rules(event.system, event.rules_text, allowed)
    except RulesDataError as exc:
        raise EventSetupError(f"The event rules cannot be used: {exc}") from None
    system = one_system(event.system)
    books = shelved_books(event.system)
    return Ruleset(system=event.system, points_limit=event.points_limit, books=allowed,
                   composition=event.composition or None, modes=tuple(event.modes), event=rules,
                   system_name=system.name if system is not None else event.system,
                   book_names={b: book_label(event.system, b, books) for b in allowed})


def _unreadable(submission: Submission, ruleset: Ruleset, reason: str) -> dict:
    """A submission whose book is no longer loaded: illegal, and the report says why."""
    v = Violation("event.unreadable", f"The list cannot be checked: {reason}", rule="event", source="event")
    return {"valid": False, "system": ruleset.system, "book": submission.book, "book_version": submission.book_version,
            "points_limit": ruleset.points_limit, "total_points": submission.total_points,
            "categories": [], "units": [], "figures": {}, "violations": [v.to_dict()], "unchecked": [], "counts": []}


@dataclass(frozen=True)
class Checked:
    """One submission's check: its Book, Roster and Report, or why it could not be read."""
    book: Book | None = None
    roster: Roster | None = None
    report: Report | None = None
    error: str = ""
    allies: Book | None = None  # the book of the list's allied units, if it has any
    kind: ListKind | None = None  # what answers for the list (lists/kinds.py), decided where it was read


Progress = Callable[[int, int], None]  # called with (steps done, steps in all) as bulk work goes on


def evaluate(submissions: Sequence[Submission], ruleset: Ruleset, progress: Progress | None = None) -> dict[int, Checked]:
    """Each submission's check against `ruleset`, team rules included (by the submissions' teams)."""
    checked: dict[int, Checked] = {}
    for index, sub in enumerate(submissions):
        if progress is not None:
            progress(index, len(submissions))
        try:
            roster = parse_roster(sub.document, f"submission {sub.player_name}")
            book = book_for(roster, f"submission {sub.player_name}")
            allies = allies_book_for(roster, f"submission {sub.player_name}")
        except ListDocumentError as exc:
            checked[sub.pk] = Checked(error=exc.reason)
            continue
        kind = kind_of(roster)
        checked[sub.pk] = Checked(book, roster, kind.event_report(ruleset, book, roster, allies), allies=allies,
                                  kind=kind)
    if ruleset.event.team_rules:
        # A team is the registered one (events.teams): its members' lists and those uploaded into it.
        teams: dict[int, list] = {}
        for sub in submissions:
            if sub.team_id and checked[sub.pk].report is not None:
                found = checked[sub.pk]
                teams.setdefault(sub.team_id, []).append((sub.pk, found.book, found.roster, found.allies))
        for lists in teams.values():
            for pk, found in check_team(lists, ruleset.event.team_rules, TeamArmies(lists, checked)).items():
                if found:
                    report = checked[pk].report
                    checked[pk] = replace(checked[pk], report=replace(report, violations=(*report.violations, *found)))
    return checked


class TeamArmies(Mapping):
    """The armies the team rules read, by submission, as each list's kind reads it (lists/kinds.py: `army`),
    built when a rule asks (the engine asks only for roster trees; our books' lists it reads itself). A
    list whose army cannot be read is not in it, and the team rules then say they could not check it."""

    def __init__(self, lists: list, checked: dict[int, Checked]):
        self._lists = {pk: (book, roster, allies) for pk, book, roster, allies in lists}
        self._checked = checked
        self._armies: dict[int, Army | None] = {}

    def _army(self, pk: int) -> Army | None:
        if pk not in self._armies:
            book, roster, allies = self._lists[pk]
            found = self._checked[pk]
            try:
                self._armies[pk] = found.kind.army(book, roster, found.report, allies)
            except ListDocumentError:
                self._armies[pk] = None
        return self._armies[pk]

    def __getitem__(self, pk: int) -> Army:
        army = self._army(pk) if pk in self._lists else None
        if army is None:
            raise KeyError(pk)
        return army

    def __contains__(self, pk: object) -> bool:
        return pk in self._lists and self._army(pk) is not None  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[int]:
        return (pk for pk in self._lists if pk in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __bool__(self) -> bool:  # without building every army (the engine's `trees or {}`)
        return bool(self._lists)


def check_event(event: Event, ruleset: Ruleset | None = None, progress: Progress | None = None,
                scope: QuerySet[Submission] | None = None) -> list[Submission]:
    """Check every submission of `event` (or those in `scope`, whole teams) and save each one's report,
    verdict and status.

    Status follows the verdict (legal, illegal) unless the organiser returned the list, which stays
    returned until the player submits again; an approved list that is now illegal loses its approval.
    """
    ruleset = ruleset or ruleset_for(event)
    submissions = list(event.submissions.all() if scope is None else scope)
    checked = evaluate(submissions, ruleset, progress)
    now = timezone.now()
    for sub in submissions:
        found = checked[sub.pk]
        if found.report is None:
            sub.report, sub.valid = _unreadable(sub, ruleset, found.error), False
        else:
            sub.report, sub.valid, sub.total_points = found.report.to_dict(), found.report.valid, found.report.total_points
            sub.army_name = found.book.name
        sub.status = next_status(sub.status, sub.valid)
        sub.checked_at = now
    # One UPDATE per row in one transaction: bulk_update's CASE expressions over large JSON reports
    # were three times slower (bench/event_check.py). The submission time in the filter keeps a copy the player
    # replaced while this ran (a background check takes a while) from getting the old copy's report.
    with transaction.atomic():
        for sub in submissions:
            Submission.objects.filter(pk=sub.pk, submitted_at=sub.submitted_at).update(
                report=sub.report, valid=sub.valid, total_points=sub.total_points, army_name=sub.army_name,
                status=sub.status, checked_at=sub.checked_at)
    return submissions


def next_status(status: str, valid: bool) -> str:
    if status == Submission.RETURNED:
        return status
    if status == Submission.APPROVED and valid:
        return status
    return Submission.LEGAL if valid else Submission.ILLEGAL
