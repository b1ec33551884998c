"""Handing lists in: a player's own list before the deadline, or many files uploaded by the organiser.

Either way the submission is a frozen copy of the document with its checksum. Submitting again under
the same player name replaces the copy and keeps the one before in the submission's history; then the
submitted list is checked with its team (team rules read several lists); an upload has the whole
event checked in the background.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from armylists.exports import checksum
from armylists.listfiles.reading import ListFileError, read_list_data
from armylists.lists.library.catalogue import system_name
from armylists.lists.saved.history import checked, compare, diff_sentences
from armylists.models import ArmyList, Event, Submission, SubmissionRevision, Team, TeamMember
from armylists.rules.reading.archives import unpack_budget
from armylists.rules import ListDocumentError, Roster, parse_roster, roster_to_dict

from armylists.events.checking import check_event

MAX_UPLOAD_FILES = 200


class SubmissionError(Exception):
    """Why a list cannot be submitted, in one sentence for the player."""


def deadline_passed(event: Event) -> bool:
    return timezone.now() > event.deadline


def submit_list(event: Event, user, army_list: ArmyList) -> Submission:
    """The player's own list, frozen as it is now, under their user name, in the team they joined (if
    any; events.teams): never in a team they only name."""
    if deadline_passed(event):
        raise SubmissionError(f"The deadline ({timezone.localtime(event.deadline):%Y-%m-%d %H:%M}) has passed; "
                              f"ask the organiser.")
    if army_list.owner_id != user.pk:
        raise SubmissionError("You can only submit your own lists.")
    if army_list.system != event.system:
        raise SubmissionError(f"{army_list.name} is a {system_name(army_list.system)} list; the event plays "
                              f"{system_name(event.system)}.")
    try:
        roster = parse_roster(army_list.document, army_list.name)
    except ListDocumentError as exc:
        raise SubmissionError(f"The list cannot be read: {exc.reason}") from None
    member = TeamMember.objects.filter(event=event, user=user).select_related("team").first()
    # One transaction: a check that fails (the event's rules unusable, a report the database refuses)
    # leaves no stored copy without its report, and the player's earlier copy as it was.
    with transaction.atomic():
        before = event.submissions.filter(player_name=user.get_username()).values_list("team_id", flat=True).first()
        submission = store(event, roster, user.get_username(), player=user, source_list=army_list,
                           team=member.team if member else None, own_team=True)
        # Only this list and its team mates (team rules read them together), and those of the team it left,
        # if any: the player's verdict at once, without checking the whole event inside the request.
        teams = {t for t in (before, submission.team_id) if t is not None}
        check_event(event, scope=event.submissions.filter(Q(pk=submission.pk) | Q(team_id__in=teams)))
    submission.refresh_from_db()
    return submission


def store(event: Event, roster: Roster, player_name: str, player=None, source_list: ArmyList | None = None,
          team: Team | None = None, own_team: bool = False) -> Submission:
    """Save `roster` as the submission of `player_name`, keeping any earlier one in its history.

    Not checked here: the caller checks the event once, after everything it stores. Refused with a
    `SubmissionError`, storing nothing, when the submission is approved (locked until the organiser
    reopens it), or when the name matches a submission of another kind: an upload (`player` None) never
    replaces, and so never joins, a player's own account's submission, nor a player an upload.

    `own_team`: `team` is the player's membership (None: no team); otherwise an upload keeps the team a
    replaced submission had unless it names one."""
    with transaction.atomic():
        sub = Submission.objects.select_for_update().filter(event=event, player_name=player_name).first()
        if sub is None:
            sub = Submission(event=event, player_name=player_name)
        else:
            _check_replaceable(sub, player)
            SubmissionRevision.objects.create(submission=sub, document=sub.document, checksum=sub.checksum,
                                              submitted_at=sub.submitted_at, status=sub.status, note=sub.note)
        sub.player = player
        sub.team = team if own_team or team is not None else sub.team
        sub.source_list = source_list
        sub.document = roster_to_dict(roster)
        sub.checksum = checksum(roster)
        sub.list_name = roster.name
        sub.book, sub.book_version = roster.book, roster.book_version
        sub.status, sub.note = Submission.SUBMITTED, ""
        sub.submitted_at = timezone.now()
        sub.save()
    return sub


def resubmissions(sub: Submission, earlier: list[SubmissionRevision]) -> list[tuple[SubmissionRevision, dict, list[str]]]:
    """Each earlier submission (newest first, as `sub.history` gives them) with what the next one changed,
    in a player's words: the same diff as a list's revisions (lists/history.compare), checked by the book's
    own rules (the event's rules are on the submission's report)."""
    out, newer = [], checked(sub.document, f"submission {sub.pk}")
    for old in earlier:
        older = checked(old.document, f"submission {sub.pk} of {old.submitted_at:%Y-%m-%d %H:%M}")
        diff = compare(older, newer)
        out.append((old, diff, diff_sentences(diff)))
        newer = older
    return out


def _check_replaceable(sub: Submission, player) -> None:
    if sub.status == Submission.APPROVED:
        raise SubmissionError(f"{sub.player_name}'s list is approved, so it is locked; the organiser must reopen "
                              f"it before it can be replaced.")
    if player is None and sub.player_id is not None:
        raise SubmissionError(f"{sub.player_name} submitted a list from their own account; an upload cannot "
                              f"replace it (give the file another player name).")
    if player is not None and sub.player_id != player.pk:
        raise SubmissionError(f"The organiser already entered a list for {sub.player_name}; ask the organiser "
                              f"to replace it for you.")


@dataclass
class UploadResult:
    stored: list[Submission] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (file name, why: without the name again)


def player_name_of(filename: str, roster: Roster) -> str:
    """The name a file's list is submitted under: the list's player, else the file name without suffix."""
    if roster.player.strip():
        return roster.player.strip()[:200]
    stem = filename.rsplit("/", 1)[-1]
    for suffix in (".json", ".txt"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    return stem[:200] or "player"


def upload_files(event: Event, files: list[tuple[str, bytes]], team: Team | None = None) -> UploadResult:
    """Each file (JSON list document, tournament text or a registered format such as a .rosz) becomes a
    submission; a file that cannot be read is reported by name and nothing else is lost. The archives of
    all the files share one unpacking budget (armylists/rules/reading/archives.py). Not checked here: the caller
    has the whole event checked once, in the background (events.jobs)."""
    result = UploadResult()
    if len(files) > MAX_UPLOAD_FILES:
        result.failed.append(("(upload)", f"{len(files)} files; at most {MAX_UPLOAD_FILES} at once"))
        return result
    names: set[str] = set()
    with unpack_budget("request"):  # every file's archive unpacks within one budget for the upload
        for filename, data in files:
            try:
                roster, _ = read_list_data(data, filename)
            except ListFileError as exc:
                result.failed.append((filename, exc.without_source(filename)))  # the page names the file
                continue
            if roster.system != event.system:
                result.failed.append((filename, f"is a {system_name(roster.system)} list; the event plays "
                                                f"{system_name(event.system)}"))
                continue
            name = player_name_of(filename, roster)
            if name in names:
                result.failed.append((filename, f"a second list for {name} in this upload"))
                continue
            names.add(name)
            try:
                result.stored.append(store(event, roster, name, team=team))
            except SubmissionError as exc:
                result.failed.append((filename, str(exc)))
    return result
