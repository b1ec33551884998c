"""Check a source for newer data and import it as a new version beside the old ones.

    result = update(source)   # the version made (imported or failed), or None when already current

One update at a time per source: `busy_since` is claimed with one UPDATE (the row flag), and a second
update while it is set is refused (`Busy`); a claim older than STALE_AFTER is taken over (a worker that
died). Whatever fails (the API, the download, the archive, the import), no rules file is left behind:
the import is one transaction, and the download is unpacked into a temporary folder removed after.
A failed import is kept as a version with status "failed" and its reason.
"""
from __future__ import annotations

import hashlib
import logging
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError
from django.db.models import F, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from armylists.models import GameDataSource, GameDataVersion

from armylists.gamedata import github
from armylists.gamedata.archives import ArchiveError, guess_kind, unpack, update_limits
from armylists.rules.reading.archives import unpack_budget
from armylists.gamedata.fetching import FetchError, Policy, fetch, shown
from armylists.gamedata.importing import ImportRefused, import_folder

logger = logging.getLogger(__name__)
STALE_AFTER = timedelta(hours=1)


class Busy(Exception):
    """Another update of the source is running."""


def policy() -> Policy:
    return Policy(hosts=tuple(h.lower() for h in settings.GAME_DATA_HOSTS), timeout=settings.GAME_DATA_TIMEOUT,
                  max_bytes=settings.GAME_DATA_MAX_BYTES, test_loopback=settings.GAME_DATA_TEST_LOOPBACK,
                  deadline=getattr(settings, "GAME_DATA_DEADLINE", 300))


def claim(source: GameDataSource) -> None:
    now = timezone.now()
    free = Q(busy_since__isnull=True) | Q(busy_since__lt=now - STALE_AFTER)
    if not GameDataSource.objects.filter(free, pk=source.pk).update(busy_since=now):
        raise Busy(f"An update of {source} is already running; try again when it has finished.")


def recover_stale() -> int:
    """Every source whose update claimed it longer than STALE_AFTER ago and never released it (its worker
    was killed, the machine restarted): released, its last check said failed. Run by the next look (the
    staff page, the API's sources), as a stale event job is; how many were recovered."""
    now = timezone.now()
    recovered = 0
    for source in GameDataSource.objects.filter(busy_since__lt=now - STALE_AFTER):
        started = timezone.localtime(source.busy_since)
        message = (f"Failed: the update started at {started:%Y-%m-%d %H:%M} stopped before it finished (its worker "
                   f"ended); nothing was imported. Press Update to try again.")
        # Conditional on the claim seen: an update that claimed it meanwhile is left alone.
        recovered += GameDataSource.objects.filter(pk=source.pk, busy_since=source.busy_since).update(
            busy_since=None, last_checked=now, last_message=message)
        logger.warning("game data: the update of %s claimed at %s was stopped; released", source, started)
    return recovered


def release(source: GameDataSource, message: str) -> None:
    GameDataSource.objects.filter(pk=source.pk).update(busy_since=None, last_checked=timezone.now(),
                                                       last_message=message)


def current(source: GameDataSource) -> GameDataVersion | None:
    """The version new lists get: the held one, else the newest imported by the data's date (an older date
    imported later, for a past event, is not it; issue 38 item 3), on one date the later imported."""
    if source.held_id:
        return source.held
    return (source.versions.filter(status=GameDataVersion.OK)
            .order_by(F("date").desc(nulls_last=True), "-imported_at", "-id").first())


def update(source: GameDataSource) -> GameDataVersion | None:
    """Check `source` once; Busy when another update runs. The version made, or None when nothing new."""
    claim(source)
    message = "Failed: an internal error stopped it; the log has the details."
    try:
        version, message = _update(source)
        return version
    finally:
        release(source, message)


def _update(source: GameDataSource) -> tuple[GameDataVersion | None, str]:
    rules = policy()
    api = settings.GAME_DATA_GITHUB_API
    try:
        if source.repository:
            found = github.latest(source.repository, api, rules)
            ref, ref_kind, date = found.ref, found.kind, _date(found.date)
            if source.versions.filter(status=GameDataVersion.OK, ref=ref).exists():
                return None, f"Already current: {ref_kind} {_short(ref, ref_kind)}."
            data = None
        else:
            data, _ = fetch(source.url, rules)
            ref, ref_kind, date = hashlib.sha256(data).hexdigest(), "archive", None
            if source.versions.filter(status=GameDataVersion.OK, ref=ref).exists():
                return None, f"Already current: the archive is unchanged ({ref[:12]})."
    except FetchError as exc:
        logger.info("game data: %s not checked: %s", source, exc)
        return None, f"Failed: {exc}"
    try:
        if data is None:
            data, _ = fetch(github.archive_url(source.repository, ref, api), rules)
    except FetchError as exc:
        return _failed(source, ref, ref_kind, date, str(exc))
    return store_download(source, data, ref, ref_kind, date)


def store_download(source: GameDataSource, data: bytes, ref: str, ref_kind: str,
                   date: datetime | None) -> tuple[GameDataVersion, str]:
    """Unpack and import one downloaded archive of `source` at `ref` as a version (imported or failed), and
    what to say of it. The whole of an update after the download: bench/data_history.py replays a data
    set's history through it."""
    try:
        outcome = _import(source, data, ref, f"{date:%Y-%m-%d}" if date else f"{timezone.now():%Y-%m-%d}")
    except (ArchiveError, ImportRefused) as exc:
        return _failed(source, ref, ref_kind, date, str(exc))
    except DatabaseError as exc:
        return _failed(source, ref, ref_kind, date, f"Nothing imported. The database cannot be written ({exc})")
    version = GameDataVersion.objects.create(
        source=source, ref=ref, ref_kind=ref_kind, date=date, status=GameDataVersion.OK, kind=outcome.kind,
        systems=outcome.systems, books=outcome.books, coverage=outcome.coverage, skipped=outcome.skipped,
        message=f"{len(outcome.books)} books; {outcome.created} files new, {outcome.unchanged} unchanged.")
    if not source.kind:
        GameDataSource.objects.filter(pk=source.pk).update(kind=outcome.kind)
    return version, f"Imported {ref_kind} {_short(ref, ref_kind)}: {version.message}"


def _import(source: GameDataSource, data: bytes, ref: str, day: str):
    name = (source.repository or shown(source.url)).replace("/", "-") + "-" + ref[:12]
    # One budget for the whole update: the download, and every archive the importer opens in it (.catz).
    with tempfile.TemporaryDirectory(prefix="armylists-game-data-") as tmp, unpack_budget(limits=update_limits()):
        folder = unpack(data, Path(tmp), f"{name}.zip")
        kind = source.kind or guess_kind(folder)
        return import_folder(kind, folder, name, day)


def _failed(source, ref: str, ref_kind: str, date: datetime | None, reason: str) -> tuple[GameDataVersion, str]:
    # A retry that fails again replaces the failure it retried: one row per ref says the latest reason,
    # however often staff press Update (issue 38 item 6). A failed version stores nothing and pins nothing.
    source.versions.filter(status=GameDataVersion.FAILED, ref=ref).delete()
    version = GameDataVersion.objects.create(source=source, ref=ref, ref_kind=ref_kind, date=date,
                                             status=GameDataVersion.FAILED, kind=source.kind, message=reason)
    return version, f"Failed at {ref_kind} {_short(ref, ref_kind)}: {reason}"


def _date(text) -> datetime | None:
    """GitHub's date of a release or commit; None where it is no date ("2024-13-45T00:00:00Z", a number)."""
    try:
        return parse_datetime(text) if isinstance(text, str) and 0 < len(text) <= 40 else None
    except ValueError:
        return None


def _short(ref: str, ref_kind: str) -> str:
    return ref if ref_kind == "release" else ref[:12]
