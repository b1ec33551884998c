"""What the database keeps: loaded rules files (every version ever loaded) and army lists."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models, transaction
from django.db.models.functions import Now
from knox.models import AbstractAuthToken

from armylists.rules import Report, Roster, roster_to_dict


class RulesFile(models.Model):
    """One loaded rules data file: a system, an item list or an army book, at one version.

    Old versions stay, so a list built against a book version can always be checked against it.
    `content_hash` makes "same version, different content" detectable, and refused, at load time.
    """

    KIND_CHOICES = [("system", "System"), ("items", "Item list"), ("book", "Army book")]

    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    system = models.CharField(max_length=80)
    slug = models.CharField(max_length=80)
    version = models.CharField(max_length=40)
    name = models.CharField(max_length=200)
    content_hash = models.CharField(max_length=64)
    data = models.JSONField()
    # A book an importer made (the data's own `imported`), kept as a column: the site asks for the imported
    # books on every editor page, and a filter on the JSON read every book's whole document (196 ms with
    # New Recruit's Old World data imported: bench/tree_site.py).
    imported = models.BooleanField(default=False, db_index=True)
    source_path = models.CharField(max_length=300, blank=True)
    # A book's own id in its data across renames: "nr-t9a:dh", "owb:dwarfen-mountain-holds" (issue 38 item 2)
    lineage = models.CharField(max_length=120, blank=True)
    loaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "system", "slug", "version"],
                                               name="unique_rules_file_version")]
        # Every column the book lists read (lists/library/listings.py, catalogue.imported_book_keys): on SQLite a row's
        # columns after `data` are reached through its JSON's overflow pages, 9 ms a query at 99 books.
        indexes = [models.Index(fields=["kind", "imported", "system", "slug", "version", "loaded_at", "name",
                                        "lineage"], name="rulesfile_listing")]
        ordering = ["system", "kind", "slug", "version"]

    def __str__(self) -> str:
        return f"{self.kind} {self.system}/{self.slug} {self.version}"


class BattleScribeDocument(models.Model):
    """A BattleScribe game system or catalogue as the tree evaluator reads it (rules/battlescribe/packed.py:
    its plain data, MessagePack and zlib), stored once however many books need it (its digest)."""

    digest = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=10)  # system, catalogue
    bs_id = models.CharField(max_length=100)
    revision = models.IntegerField()
    name = models.CharField(max_length=200)
    packed = models.BinaryField()
    stored_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["bs_id", "revision"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.name} r{self.revision}"


class BookGameData(models.Model):
    """What the evaluator needs of an imported BattleScribe book: the game system, the catalogue and the
    catalogues it links, in that order (digests of `BattleScribeDocument`s)."""

    book = models.OneToOneField(RulesFile, on_delete=models.CASCADE, related_name="game_data")
    catalogue_id = models.CharField(max_length=100)  # the catalogue's BattleScribe id
    documents = models.JSONField()

    def __str__(self) -> str:
        return f"game data of {self.book}"


MAX_REVISION = 2**31 - 1  # the revision column's range on every database; a larger one sent is refused


class ArmyList(models.Model):
    """A saved list: the canonical document, plus a few columns to sort and filter by.

    `total_points` and `valid` are caches of the engine's Report, refreshed on every save of the
    document; `revision` grows by one on every change so stale edits can be refused.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="army_lists",
                              null=True, blank=True)
    name = models.CharField(max_length=200)
    # Who plays the list, and their team at a team event: the document's, copied to sort and show by.
    player = models.CharField(max_length=200, blank=True)
    team = models.CharField(max_length=200, blank=True)
    system = models.CharField(max_length=80)
    book = models.CharField(max_length=80)
    book_version = models.CharField(max_length=40)
    points_limit = models.PositiveIntegerField()
    document = models.JSONField()
    total_points = models.IntegerField(default=0)
    valid = models.BooleanField(default=False)
    revision = models.PositiveIntegerField(default=1)
    # An unlisted link shows the list read-only to whoever holds it; None when the list is not shared.
    share_token = models.CharField(max_length=43, null=True, blank=True, unique=True, default=None)
    # The link shows only the hidden list's open part (The 9th Age, 000:L133-149): no hidden item, no cost
    # of one, no hidden sheet (editor/shared_open.py).
    share_open = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated"]
        indexes = [models.Index(fields=["owner", "-updated"]), models.Index(fields=["system", "book"])]

    def __str__(self) -> str:
        return self.name

    # -- the document ----------------------------------------------------------------------------
    def set_document(self, roster: Roster, report: Report) -> None:
        """Copy the document and the columns derived from it (the Report is the engine's, not ours)."""
        self.document = roster_to_dict(roster)
        self.name = roster.name or self.name or "Untitled list"
        self.player, self.team = roster.player, roster.team
        self.system, self.book, self.book_version = roster.system, roster.book, roster.book_version
        self.points_limit = roster.points_limit
        self.total_points = report.total_points
        self.valid = report.valid
        errors = len(report.errors)  # the revision this save makes keeps its verdict (lists/saved/history.py)
        self._verdict = {"valid": report.valid, "total_points": report.total_points, "errors": errors,
                         "warnings": len(report.violations) - errors}

    def save(self, *args, **kwargs) -> None:
        """A new list's first revision goes into its history too (later ones: `save_if_revision`)."""
        adding = self._state.adding
        with transaction.atomic():
            super().save(*args, **kwargs)
            if adding:
                ListRevision.objects.create(army_list=self, revision=self.revision, document=self.document,
                                            book_version=self.book_version, summary=self._saved_verdict())

    def save_if_revision(self, expected: int) -> bool:
        """Save only if nobody saved since `expected` was read; the check and the write are one UPDATE.

        Returns False, changing nothing, when the stored revision has moved on (a stale edit).
        """
        with transaction.atomic():
            updated = ArmyList.objects.filter(pk=self.pk, revision=expected).update(
                name=self.name, player=self.player, team=self.team, system=self.system, book=self.book, book_version=self.book_version,
                points_limit=self.points_limit, document=self.document, total_points=self.total_points,
                valid=self.valid, revision=expected + 1, updated=Now(),
            )
            if updated:  # the history (ListRevision) in the same transaction as the change
                ListRevision.objects.create(army_list_id=self.pk, revision=expected + 1, document=self.document,
                                            book_version=self.book_version, summary=self._saved_verdict())
        if updated:
            self.refresh_from_db()
        return bool(updated)

    def _saved_verdict(self) -> dict | None:
        """The verdict of the Report set_document was given, for the revision saved with it (None: unknown)."""
        verdict = getattr(self, "_verdict", None)
        return {"verdict": verdict} if verdict is not None else None

    # -- sharing -----------------------------------------------------------------------------------
    def share(self, open_part: bool = False) -> str:
        """Give the list an unlisted share link (a random token) unless it has one of that kind; return the
        token. `open_part`: the link shows only the hidden list's open part. Changing the kind makes a new
        token, so a link given out as the open part (to an opponent) never comes to show the whole list.

        Written with an UPDATE of those columns alone, so sharing never races with an edit's revision.
        """
        if not self.share_token or self.share_open != open_part:
            self.share_token, self.share_open = secrets.token_urlsafe(16), open_part
            ArmyList.objects.filter(pk=self.pk).update(share_token=self.share_token, share_open=open_part)
        return self.share_token

    def unshare(self) -> None:
        """Revoke the share link: the old token stops working at once, and a new share gets a new one."""
        self.share_token, self.share_open = None, False
        ArmyList.objects.filter(pk=self.pk).update(share_token=None, share_open=False)


class ListRevision(models.Model):
    """A list's document as one revision saved it: its history (lists/saved/history.py), kept with the list."""

    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="revisions")
    revision = models.PositiveIntegerField()
    document = models.JSONField()
    book_version = models.CharField(max_length=40)
    saved_at = models.DateTimeField(auto_now_add=True)
    # Its verdict and what changed since the one before, worked out once when its history is first read
    # (lists/saved/history.py): a revision never changes, so the page reads them, it does not check again.
    summary = models.JSONField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["-revision"]
        constraints = [models.UniqueConstraint(fields=["army_list", "revision"], name="one_list_revision")]

    def __str__(self) -> str:
        return f"{self.army_list_id} revision {self.revision}"


class Event(models.Model):
    """A tournament: one ruleset every submitted list is checked against (armylists/events/)."""

    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events")
    name = models.CharField(max_length=200)
    date = models.DateField()
    system = models.CharField(max_length=80)
    # Allowed books as "book" (any version) or "book@version"; empty: every book of the system.
    books = models.JSONField(default=list, blank=True)
    points_limit = models.PositiveIntegerField()
    composition = models.CharField(max_length=80, blank=True)  # required of every list, when set
    modes = models.JSONField(default=list, blank=True)  # matched-play rules the event plays
    deadline = models.DateTimeField()
    rules_text = models.TextField(blank=True)  # the event's own rules (docs/events.md)
    # The game data version the event plays (armylists/gamedata/): its books must be at that version.
    # Set to the newest of the event's system when the event is made; the organiser may move it.
    data_version = models.ForeignKey("GameDataVersion", on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    published = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return self.name


def new_join_code() -> str:
    """A team's join code: 10 characters from 32 (50 bits), read aloud or typed without ambiguity."""
    return "".join(secrets.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(10))


class Team(models.Model):
    """A team at a team event, registered by the organiser or created by its captain.

    Players join it with its join code (the organiser and the captain see the code and hand it out);
    team rules read only the lists of its members (and the lists the organiser uploaded into it)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=200)
    join_code = models.CharField(max_length=20, default=new_join_code)
    captain = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="+")  # None when the organiser registered it
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="one_team_name_per_event")]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A player in a team; at most one team per player at an event (the `event` column says which)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_memberships")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="one_team_per_player")]


class Submission(models.Model):
    """A player's list at an event: a frozen copy of the document, its checksum and its last check.

    Editing the list it came from changes nothing here; submitting again replaces the copy and keeps
    the one before in `history`.
    """

    SUBMITTED, LEGAL, ILLEGAL, APPROVED, RETURNED = "submitted", "legal", "illegal", "approved", "returned"
    STATUS_CHOICES = [(SUBMITTED, "Submitted"), (LEGAL, "Legal"), (ILLEGAL, "Illegal"), (APPROVED, "Approved"),
                      (RETURNED, "Returned")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="submissions")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="submissions")  # None for a list the organiser uploaded
    player_name = models.CharField(max_length=200)
    # The player's team (their membership when they submitted or joined), or the one the organiser uploaded it into.
    team = models.ForeignKey(Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="submissions")
    source_list = models.ForeignKey(ArmyList, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    document = models.JSONField()
    checksum = models.CharField(max_length=64)
    list_name = models.CharField(max_length=200, blank=True)
    book = models.CharField(max_length=80)
    book_version = models.CharField(max_length=40)
    army_name = models.CharField(max_length=200, blank=True)  # the book's name, as of the last check
    total_points = models.IntegerField(default=0)
    valid = models.BooleanField(default=False)
    report = models.JSONField(default=dict)  # the Report of the last check, team rules included
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=SUBMITTED)
    note = models.TextField(blank=True)  # the organiser's, when returned
    submitted_at = models.DateTimeField()
    checked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["player_name", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "player_name"], name="one_submission_per_player")]

    def __str__(self) -> str:
        return f"{self.player_name} at {self.event}"


class SubmissionRevision(models.Model):
    """A submission as it was before a resubmission replaced it."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="history")
    document = models.JSONField()
    checksum = models.CharField(max_length=64)
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=10)
    note = models.TextField(blank=True)
    replaced_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-submitted_at", "-id"]


class Notice(models.Model):
    """What a player or an organiser is told of an event's submission (issue 42 item 3): a list returned
    or approved, with the organiser's note, or a list resubmitted; shown on the user's lists until read,
    and sent by mail as well (events/notices.py)."""

    RETURNED, APPROVED, RESUBMITTED = "returned", "approved", "resubmitted"
    KIND_CHOICES = [(RETURNED, "Returned"), (APPROVED, "Approved"), (RESUBMITTED, "Resubmitted")]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=12, choices=KIND_CHOICES)
    note = models.TextField(blank=True)  # the organiser's, as it was when the notice was made
    created_at = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "read"], name="notice_user_unread")]


class EventJob(models.Model):
    """An organiser's bulk work on an event (checking every submission again, printing the muster PDF),
    run by the task worker, never inside a web request; the event page reads its progress from here.

    The muster PDF is kept in the row itself, so whichever app server answers the download has it
    (app servers share the database, not a disk)."""

    RECHECK, MUSTER = "recheck", "muster"
    KIND_CHOICES = [(RECHECK, "Check every submission again"), (MUSTER, "Muster PDF of the approved lists")]
    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATE_CHOICES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"), (FAILED, "Failed")]

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    state = models.CharField(max_length=10, choices=STATE_CHOICES, default=QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)  # what it did, or why it failed, for the organiser
    pdf = models.BinaryField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Crash recovery (events/jobs.py: recover_stale_jobs): a running job writes `heartbeat_at` as it goes; one not heard
    # from for EVENT_JOB_STALE_SECONDS lost its worker. `attempt` counts its runs; a run whose attempt is
    # no longer the row's (it was given up and run again) writes nothing.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempt = models.PositiveIntegerField(default=1)
    # The muster PDF's approved lists ("id:checksum" of each, hashed): a different key now means the
    # approvals changed since it was made (events/jobs.approved_key).
    approved_key = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["event", "kind", "-created_at"], name="eventjob_latest")]

    def __str__(self) -> str:
        return f"{self.kind} of event {self.event_id}: {self.state} {self.done}/{self.total}"

    @property
    def finished(self) -> bool:
        return self.state in (self.DONE, self.FAILED)

    @property
    def percent(self) -> int:
        return 100 if self.state == self.DONE else (100 * self.done // self.total if self.total else 0)


class ApiToken(AbstractAuthToken):
    """An API token (django-rest-knox, settings.KNOX_TOKEN_MODEL): only a hash of it is stored, it may
    expire, and the user names it so they know which one to revoke (templates/accounts/tokens.html)."""

    name = models.CharField(max_length=80)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.token_key}…)"


class RateCount(models.Model):
    """The requests one client made in one rate-limit scope within the last window (the key is DRF's
    throttle key, `throttle_<scope>_<user or address>`): the times let through, newest last. Read and
    written under the row's lock (armylists/accounts/rate_counts.py), so two workers never both take the
    last place; on Redis a script does the same and this table stays empty."""

    key = models.CharField(max_length=200, primary_key=True)
    hits = models.JSONField(default=list)
    expires = models.FloatField(db_index=True)  # seconds since the epoch: the newest hit's window ends

    def __str__(self) -> str:
        return f"{self.key}: {len(self.hits)}"


class GameDataSource(models.Model):
    """Where game data comes from (armylists/gamedata/): a GitHub repository or an https zip URL.

    `busy_since` is the row flag that lets one update at a time run per source; `held` keeps new lists
    on one version while newer ones are imported beside it."""

    BATTLESCRIBE, NR_T9A, OWB = "battlescribe", "nr-t9a", "owb"
    KIND_CHOICES = [(BATTLESCRIBE, "BattleScribe / New Recruit data"), (NR_T9A, "New Recruit T9A (nr-t9a)"),
                    (OWB, "Old World Builder")]

    repository = models.CharField(max_length=200, blank=True)  # "owner/name" on GitHub
    url = models.CharField(max_length=500, blank=True)  # an https zip URL, when not a repository
    kind = models.CharField(max_length=20, choices=KIND_CHOICES, blank=True)  # blank: guessed at the first update
    maps_to = models.CharField(max_length=80, blank=True)  # our system of the same game
    held = models.ForeignKey("GameDataVersion", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    busy_since = models.DateTimeField(null=True, blank=True)
    last_checked = models.DateTimeField(null=True, blank=True)
    last_message = models.TextField(blank=True)  # what the last check did, or why it failed
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["repository", "url"]
        constraints = [models.UniqueConstraint(fields=["repository", "url"], name="one_game_data_source")]

    def __str__(self) -> str:
        return self.repository or self.url


class GameDataVersion(models.Model):
    """One import of a source at one release or commit, with what it stored and skipped; never changed.

    A failed import is kept too (status "failed", its message), having stored no rules file."""

    OK, FAILED = "ok", "failed"
    STATUS_CHOICES = [(OK, "Imported"), (FAILED, "Failed")]

    source = models.ForeignKey(GameDataSource, on_delete=models.CASCADE, related_name="versions")
    ref = models.CharField(max_length=200)  # the release tag, the commit sha, or the archive's sha-256
    ref_kind = models.CharField(max_length=10)  # release, commit, archive
    date = models.DateTimeField(null=True, blank=True)  # the release's or the commit's
    status = models.CharField(max_length=10, choices=STATUS_CHOICES)
    message = models.TextField(blank=True)
    kind = models.CharField(max_length=20, blank=True)
    systems = models.JSONField(default=list)  # ["bs-mordheim r12", ...]
    books = models.JSONField(default=list)  # [{"system", "book", "version", "name"}]
    coverage = models.JSONField(default=dict)  # the import report's figures
    skipped = models.JSONField(default=list)  # [{"book", "what", "why"}]
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-imported_at", "-id"]

    def __str__(self) -> str:
        return f"{self.source} {self.ref} ({self.status})"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ValueError("a game data version is never changed once stored")
        super().save(*args, **kwargs)
        # Its books as rows too: "data as of" is then an indexed look-up, not a scan of every version's JSON.
        GameDataBook.objects.bulk_create([
            GameDataBook(data_version=self, system=b["system"], book=b["book"], book_version=b["version"],
                         name=b.get("name") or "") for b in self.books])


class GameDataBook(models.Model):
    """One book version a game data version brought (an entry of its `books`), written with it (issue 39)."""

    data_version = models.ForeignKey(GameDataVersion, on_delete=models.CASCADE, related_name="book_rows")
    system = models.CharField(max_length=80)
    book = models.CharField(max_length=80)
    book_version = models.CharField(max_length=40)
    name = models.CharField(max_length=200, blank=True)

    class Meta:
        indexes = [models.Index(fields=["system", "book", "book_version"], name="gamedatabook_key")]

from armylists.campaigns.models import Campaign, CampaignBattle, CampaignWarband  # noqa: E402,F401  issue 41's, own module
