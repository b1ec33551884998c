"""A list's history, two of its revisions compared, and moving a list to a newer version of its book.

    history(army_list[, before])    -> a page of saved revisions, newest first: what changed, its verdict, its data,
                                       grouped into editing sessions (`Session`)
    restore(army_list, n, expected) -> revision n saved again as the list's newest revision (checked as an edit)
    compare(checked(a), checked(b)) -> the diff of two documents in a player's words (also: two submissions)
    upgrade_target(loaded)          -> the book version new lists get, when it is not the list's
    preview(loaded, book)           -> the list at that version, checked, compared with the list as it is

The history page, the API (`/api/v1/lists/{id}/revisions/`, `.../upgrade/`) and an event's submission
page all use these; what changed is said by lists/saved/revision_words.py.
"""
from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass, field, replace
from datetime import timedelta

from django.db.models import TextField
from django.db.models.functions import Cast

from armylists.models import ArmyList, ListRevision
from armylists.rules import Book, ListDocumentError, Report, Roster, parse_roster, parse_roster_json

from armylists.lists.library.catalogue import (disk_library, get_book, imported_book_keys, renamed_books,
                                                validate_roster)
from armylists.lists.library.data_as_of import data_as_of
from armylists.lists.saved.revision_words import (UNFLATTENED, changes_between as _changes, entry_name, revision_summary,
                                                  unit_changes)
from armylists.lists.saved.stored import Loaded, Unavailable, load, save_edit
from armylists.lists.saved.upgrades import follow_tree
from armylists.lists.trees.tree_lists import as_tree


@dataclass(frozen=True)
class Checked:
    """One document read and checked: its roster, book and report, or why it cannot be (`problem`)."""
    roster: Roster | None
    book: Book | None
    report: Report | None
    problem: str = ""


def checked(document: dict, source: str) -> Checked:
    return _found(lambda: parse_roster(document, source), source, check=True)


def _found(read, source: str, check: bool) -> Checked:
    """A document read by `read()` and its book found; checked too when `check`."""
    try:
        roster = read()
    except ListDocumentError as exc:
        return Checked(None, None, None, f"Cannot be read: {exc.reason}")
    book = get_book(roster.system, roster.book, roster.book_version)
    if book is None:
        return Checked(roster, None, None, f"{roster.book} {roster.book_version} is not loaded on this site")
    if not check:
        return Checked(roster, book, None)
    try:
        return Checked(roster, book, validate_roster(book, roster, source=source))
    except ListDocumentError as exc:
        return Checked(roster, book, None, exc.reason)


def verdict(found: Checked) -> dict | None:
    """Legal or not, points and how many errors and warnings; None when the document cannot be checked."""
    if found.report is None:
        return None
    errors = len(found.report.errors)
    return {"valid": found.report.valid, "total_points": found.report.total_points, "errors": errors,
            "warnings": len(found.report.violations) - errors}


def _unit_points(found: Checked) -> dict[str, tuple[str, int]]:
    return {u.id: (u.name, u.points) for u in found.report.units} if found.report is not None else {}


def _problems(found: Checked) -> dict[tuple[str, str], dict]:
    if found.report is None:
        return {}
    return {(v.code, v.message): {"code": v.code, "severity": v.severity, "message": v.message}
            for v in found.report.violations}


def compare(before: Checked | None, after: Checked) -> dict:
    """What changed from `before` to `after`, in a player's words and in figures (docs/api.md, "Revisions")."""
    old_roster = before.roster if before is not None else None
    if after.roster is None:
        changes = [after.problem]
    elif before is not None and old_roster is None:
        changes = [f"The earlier one cannot be compared. {before.problem}"]
    else:
        changes = _changes(old_roster, after.roster, before.book if before else None, after.book)
    book = after.book or (before.book if before is not None else None)
    diff = {"changes": changes, "budget_unit": book.system.budget_unit if book is not None else "pts",
            "units_added": [], "units_removed": [], "units_changed": [], "unit_points": [], "categories": [],
            "total_points": None, "verdict": None, "violations_gained": [], "violations_lost": [],
            "problem": after.problem or (before.problem if before is not None else "")}
    if old_roster is None or after.roster is None:
        return diff
    unflattened = not old_roster.is_tree and after.roster.is_tree   # the same units, now a tree's selections
    points_before, points_after = _unit_points(before), _unit_points(after)
    old_units = {u.id: u for u in old_roster.units}
    new_units = {u.id: u for u in after.roster.units}
    for unit in () if unflattened else after.roster.units:
        name = entry_name(after.book, unit)
        if unit.id not in old_units:
            diff["units_added"].append({"id": unit.id, "name": name, "points": points_after.get(unit.id, ("", None))[1]})
            continue
        said = unit_changes(name, old_units[unit.id], unit, before.book, after.book)
        if said:
            diff["units_changed"].append({"id": unit.id, "name": name, "changes": said})
    for unit in () if unflattened else old_roster.units:
        if unit.id not in new_units:
            diff["units_removed"].append({"id": unit.id, "name": entry_name(before.book, unit),
                                          "points": points_before.get(unit.id, ("", None))[1]})
    for uid in [] if unflattened else [*points_before, *(u for u in points_after if u not in points_before)]:
        was, now = points_before.get(uid, (None, None))[1], points_after.get(uid, (None, None))[1]
        if was != now:
            name = (points_after.get(uid) or points_before[uid])[0]
            diff["unit_points"].append({"id": uid, "name": name, "before": was, "after": now})
    if before.report is not None and after.report is not None:
        old_categories = {c.id: c for c in before.report.categories}
        new_categories = {c.id: c for c in after.report.categories}
        for cid in [*old_categories, *(c for c in new_categories if c not in old_categories)]:
            was, now = old_categories.get(cid), new_categories.get(cid)
            if (was.points if was else None) != (now.points if now else None):
                diff["categories"].append({"id": cid, "name": (now or was).name, "before": was.points if was else None,
                                           "after": now.points if now else None})
        diff["total_points"] = {"before": before.report.total_points, "after": after.report.total_points}
        diff["verdict"] = {"before": before.report.valid, "after": after.report.valid}
        old_problems, new_problems = _problems(before), _problems(after)
        diff["violations_gained"] = [v for key, v in new_problems.items() if key not in old_problems]
        diff["violations_lost"] = [v for key, v in old_problems.items() if key not in new_problems]
    return diff


def diff_sentences(diff: dict) -> list[str]:
    """The figures of `compare` said as sentences (the pages show these under its `changes`)."""
    out, budget_unit = [], diff["budget_unit"]
    if diff["total_points"] and diff["total_points"]["before"] != diff["total_points"]["after"]:
        out.append(f"Total: {diff['total_points']['before']} -> {diff['total_points']['after']} {budget_unit}.")
    for line in diff["unit_points"]:
        if line["before"] is not None and line["after"] is not None:
            out.append(f"{line['name']}: {line['before']} -> {line['after']} {budget_unit}.")
    for line in diff["categories"]:
        out.append(f"{line['name']}: {line['before'] or 0} -> {line['after'] or 0} {budget_unit} in all.")
    if diff["verdict"] and diff["verdict"]["before"] != diff["verdict"]["after"]:
        out.append("The list becomes legal." if diff["verdict"]["after"] else "The list stops being legal.")
    out += [f"New problem: {v['message']}" for v in diff["violations_gained"]]
    out += [f"No longer a problem: {v['message']}" for v in diff["violations_lost"]]
    return out


@dataclass(frozen=True)
class Step:
    revision: int
    saved_at: object
    book_version: str
    changes: list[str]
    verdict: dict | None = None
    data_as_of: dict | None = None
    budget_unit: str = "pts"
    session: int | None = None  # the newest revision of its editing session (`Session.head`)


def _checked_revision(army_list: ArmyList, row: ListRevision) -> Checked:
    return checked(row.document, f"list {army_list.pk} revision {row.revision}")


PAGE = 50  # revisions a page of history shows: the newest, then older ones page by page (issue 39 item 4)
# Two saves of a list this close together are one editing session, shown as one entry (issue 39 item 4):
# a player's clicks while building a list, not each on its own. A list is edited by its owner alone
# (lists/saved/access.py), so consecutive revisions are always one user's. docs/api.md, "A list's history".
SESSION_MINUTES = 30
SESSION_GAP = timedelta(minutes=SESSION_MINUTES)


@dataclass(frozen=True)
class Session:
    """Consecutive revisions each saved within SESSION_MINUTES of the one before: one entry of the history,
    newest first. `head` (its newest revision) names it on every page; a session longer than a page goes
    on onto the next (`older_continues`) or came from the one before (`newer_continues`)."""
    head: int
    steps: list[Step] = field(default_factory=list)
    older_continues: bool = False
    newer_continues: bool = False

    @property
    def newest(self) -> Step:
        return self.steps[0]

    @property
    def oldest(self) -> Step:
        return self.steps[-1]


@dataclass(frozen=True)
class Page:
    """A page of a list's history, newest first; `older` is the revision to ask for the next page before
    (`history(army_list, before=older)`), None when nothing older is kept. `sessions`: the same steps,
    grouped into editing sessions."""
    steps: list[Step]
    older: int | None
    sessions: list[Session] = field(default_factory=list)


def _one_session(newer_saved, older_saved) -> bool:
    # A clock set back between two saves (older_saved later) is still one session.
    return newer_saved - older_saved <= SESSION_GAP


def _head_of(army_list: ArmyList, revision: int, saved_at) -> int:
    """The newest revision of the session `revision` is in: the revisions after it walked while each was
    saved within the gap of the one before (a page's first row; bounded by that session's length)."""
    head, last = revision, saved_at
    newer = (army_list.revisions.filter(revision__gt=revision).order_by("revision")
             .values_list("revision", "saved_at").iterator(chunk_size=200))
    for number, saved in newer:
        if not _one_session(saved, last):
            break
        head, last = number, saved
    return head


def _sessions(army_list: ArmyList, steps: list[Step], next_older, first_page: bool) -> list[Session]:
    """`steps` (a page, newest first) grouped into sessions; `next_older`: the saved_at of the row after
    the page (None: the page ends the history)."""
    if not steps:
        return []
    head = steps[0].revision if first_page else _head_of(army_list, steps[0].revision, steps[0].saved_at)
    groups: list[list[Step]] = [[]]
    heads = [head]
    for index, step in enumerate(steps):
        if index and not _one_session(steps[index - 1].saved_at, step.saved_at):
            groups.append([])
            heads.append(step.revision)
        groups[-1].append(replace(step, session=heads[-1]))
    sessions = [Session(h, g) for h, g in zip(heads, groups)]
    sessions[0] = replace(sessions[0], newer_continues=sessions[0].head != steps[0].revision)
    sessions[-1] = replace(sessions[-1], older_continues=next_older is not None
                           and _one_session(steps[-1].saved_at, next_older))
    return sessions


def history(army_list: ArmyList, before: int | None = None, limit: int = PAGE) -> Page:
    """The newest `limit` revisions the list's history keeps (those older than `before` when given), each
    said against the one before it, with its verdict and the data it was checked with.

    What a revision says (its verdict, its changes) is worked out once, the first time it is shown, and
    stored with it (ListRevision.summary): a revision never changes, so a page of a long history reads
    fifty summaries, it does not check fifty documents again."""
    rows = army_list.revisions.order_by("-revision")
    if before is not None:
        rows = rows.filter(revision__lt=before)
    # The document only where the summary is still to be made (and of the one before such a revision).
    found = list(rows.defer("document")[:limit + 1])
    shown, older = found[:limit], (found[limit - 1].revision if len(found) > limit else None)
    as_of: dict[tuple, dict] = {}
    steps, read = [], {}
    for row in shown:
        summary = row.summary if row.summary is not None and "changes" in row.summary else \
            _summarise(army_list, row, read)
        key = tuple(summary["key"]) if summary.get("key") else None
        if key is not None and key not in as_of:
            as_of[key] = data_as_of(*key, imported=summary["imported"], name=summary["name"])
        steps.append(Step(row.revision, row.saved_at, row.book_version, summary["changes"], summary["verdict"],
                          as_of.get(key), summary["budget_unit"]))
    sessions = _sessions(army_list, steps, found[limit].saved_at if len(found) > limit else None, before is None)
    return Page([step for session in sessions for step in session.steps], older, sessions)


def _summarise(army_list: ArmyList, row: ListRevision, read: dict[int, Checked]) -> dict:
    """The revision's verdict and changes against the readable revision before it; stored when the books
    both are read with are on the site (a book not loaded now may be later: that is said, not kept).

    The verdict saved with the revision (ArmyList.save) is taken as it is: only what changed is worked
    out, which reads the two documents and checks neither. `read`: the revisions read so far this page."""
    saved = row.summary.get("verdict") if row.summary is not None else None
    found = _read(army_list, row.revision, read, check=saved is None)
    if found.roster is None:
        summary = {"changes": [found.problem], "verdict": None, "key": None, "imported": True, "name": "",
                   "budget_unit": "pts"}
        ListRevision.objects.filter(pk=row.pk).update(summary=summary)
        return summary
    before = None
    for earlier in (army_list.revisions.filter(revision__lt=row.revision).order_by("-revision")
                    .values_list("revision", flat=True).iterator(chunk_size=4)):
        before = _read(army_list, earlier, read, check=False)
        if before.roster is not None:
            break
        before = None
    summary = revision_summary(before.roster if before else None, before.book if before else None, found.roster,
                               found.book, saved if saved is not None else verdict(found))
    if found.book is not None and (saved is not None or found.report is not None) \
            and (before is None or before.book is not None):
        ListRevision.objects.filter(pk=row.pk).update(summary=summary)
    return summary


def summarise_stored(list_id: int, pk: int, revision: int, read: dict[int, Checked]) -> dict:
    """A revision without an entry given its entry and stored, as a history page does when it shows one
    (lists/saved/backfill.py). `read`: what was read for the list's revision before it, kept by the caller
    (the revision read here is put in it). Nothing but the two revisions' rows is read: the list's own row
    is not (a migration may run this with the table older than the model)."""
    return _summarise(ArmyList(pk=list_id), ListRevision(pk=pk, revision=revision, summary=None), read)


def _read(army_list: ArmyList, revision: int, read: dict[int, Checked], check: bool) -> Checked:
    """Revision `revision` read (and checked when `check`), once a page. Its document is read from the
    column's JSON text by the typed reader: a large tree's decoding and plain-data walk took two thirds
    of a page's first reading."""
    found = read.get(revision)
    if found is None or (check and found.report is None and found.roster is not None and found.book is not None):
        text = (army_list.revisions.filter(revision=revision).annotate(text=Cast("document", TextField()))
                .values_list("text", flat=True).get())
        found = _parsed(text, f"list {army_list.pk} revision {revision}", check)
        read[revision] = found
    return found


def _parsed(text: str, source: str, check: bool) -> Checked:
    """A stored document's text read and its book found; checked too when `check`."""
    return _found(lambda: parse_roster_json(text, source), source, check)


class NotRestorable(Exception):
    """Why a revision cannot be made the list again (it is not kept, or its book is not on the site)."""


def restore(army_list: ArmyList, revision: int, expected: int):
    """Revision `revision`'s document saved as the list's newest revision, re-checked as any edit is
    (save_edit); the revisions between stay in the history. None when the list moved on from `expected`
    (nothing is saved); NotRestorable when the revision is not kept or cannot be opened now."""
    row = army_list.revisions.filter(revision=revision).only("document").first()
    if row is None:
        raise NotRestorable(f"This list keeps no revision {revision}.")
    then = copy.copy(army_list)   # the list as it was at that revision, to open it with its books
    then.document = row.document
    try:
        loaded = load(then)
    except Unavailable as exc:
        raise NotRestorable(f"Revision {revision} cannot be restored: {exc}") from None
    try:
        now = load(army_list)   # what the restore is said against in the history
    except Unavailable:
        now = None
    try:
        return save_edit(replace(loaded, army_list=army_list), loaded.roster, expected, was=now)
    except ListDocumentError as exc:
        raise NotRestorable(f"Revision {revision} cannot be restored: {exc.reason}") from None


def compare_revisions(army_list: ArmyList, first: int, second: int) -> dict | None:
    """The diff from revision `first` to `second` of the list; None when it keeps no such revision."""
    rows = {r.revision: r for r in army_list.revisions.filter(revision__in=(first, second))}
    if first not in rows or second not in rows:
        return None
    return compare(_checked_revision(army_list, rows[first]), _checked_revision(army_list, rows[second]))


def upgrade_target(loaded: Loaded) -> Book | None:
    """The version of the list's book that new lists get (the newest, or a held source's), if not the list's."""
    roster = loaded.roster
    # A book the data renamed (the same BattleScribe catalogue under another name) is offered as its
    # successor, so lists on the old name get the upgrade too (issue 38 item 2).
    book_id = renamed_books(roster.system).get((roster.system, roster.book), roster.book)
    # Only the one book is built: the newest imported version of it, else the rules data's own.
    versions = [v for _, b, v in imported_book_keys(roster.system) if b == book_id]
    offered = [b for b in disk_library().books.values() if b.system.id == roster.system and b.id == book_id]
    newest = get_book(roster.system, book_id, versions[0]) if versions else (offered[-1] if offered else None)
    if newest is None or (newest.id, newest.version) == (roster.book, roster.book_version):
        return None
    return newest


@dataclass(frozen=True)
class Preview:
    roster: Roster
    before: Report
    after: Report | None
    changes: list[str]
    problem: str = ""  # why the list cannot move to that version
    diff: dict | None = None


def _closest(name: str, names: list[str]) -> str:
    found = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    return f" (the closest is {found[0]})" if found else " (nothing close to it)"


def missing_in(roster: Roster, book: Book, old_book: Book) -> list[str]:
    """Each unit or option of the list that `book` no longer has, with the closest name it has."""
    out = []
    for unit in roster.units:
        if unit.allied:
            continue
        old_entry = old_book.entries.get(unit.entry)
        name = entry_name(old_book, unit)
        entry = book.entries.get(unit.entry)
        if entry is None:
            out.append(f"{name} is no longer in {book.name} {book.version}"
                       f"{_closest(old_entry.name if old_entry else name, [e.name for e in book.entries.values()])}.")
            continue
        for option, _ in unit.options:
            if option not in entry.options:
                old = old_entry.options.get(option) if old_entry else None
                option_name = old.name if old else option
                out.append(f"{name}: {option_name} is no longer an option"
                           f"{_closest(option_name, [o.name for o in entry.options.values()])}.")
    return out


def preview(loaded: Loaded, book: Book) -> Preview:
    """The list at `book`'s version, checked, beside the list as it is: what changes, or why it cannot move."""
    before = validate_roster(loaded.book, loaded.roster)
    moved = replace(loaded.roster, book=book.id, book_version=book.version)
    # A roster tree's selections found by entry id, then by name and place; each lost one said (upgrades.py)
    moved, lost, dropped = follow_tree(moved, loaded.book, book)
    missing = lost + ([] if moved.is_tree else missing_in(loaded.roster, book, loaded.book))
    if missing:  # a unit lost: the list stays (every loss said, the options' too)
        return Preview(moved, before, None, [], problem=" ".join(missing))
    try:
        # A flattened list moving to a version whose lists are roster trees becomes its tree there (issue 37
        # item 2: one semantics for an imported BattleScribe book's lists), or says what it cannot place.
        moved = as_tree(book, moved)
        after = validate_roster(book, moved)
    except ListDocumentError as exc:
        return Preview(moved, before, None, [], problem=exc.reason)
    diff = compare(Checked(loaded.roster, loaded.book, before), Checked(moved, book, after))
    changes = [f"{sentence} It is left out." for sentence in dropped] + diff_sentences(diff)
    return Preview(moved, before, after, changes or ["Nothing changes for this list."], diff=diff)
